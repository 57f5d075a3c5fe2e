//! The threshold sanitizer built from interior-point calls (approximate quantiles): query
//! release for `THRESH_X` through TreeLog (Kaplan, Ligett, Mansour, Naor and Stemmer, COLT
//! 2020, §1: query release for thresholds reduces to the interior point problem), with its
//! guarantee composed by privpac's accountant.
//!
//! # The algorithm
//! Parameters: the target (ε, δ), the accuracy α ∈ (0, 1), `m = ⌈1/α⌉` (so `k = m − 1`
//! interior-point calls), a per-call guarantee (ε₀, δ₀) (below), and the public sample size
//! n (privpac's neighbours replace one point). On data `D ∈ [N]^n`:
//! 1. sort D: `s_0 ≤ … ≤ s_{n−1}`; let `w = ⌊n/(2m)⌋` and `r_j = ⌊jn/m⌋` (j = 1, …, k);
//! 2. for each j, run TreeLog ([`privpac_mechanisms::TreeLog`], target (ε₀, δ₀), on the
//!    domain `[0, 2^d)` with `d = max(1, ⌈log₂ N⌉)`, for samples of size `2w`) on the
//!    window `W_j = (s_{r_j − w}, …, s_{r_j + w − 1})`, and clamp its output to `N − 1`;
//! 3. sort the k outputs: `y_1 ≤ … ≤ y_k`;
//! 4. release the multiset `D̂` of `2m` points: `0` once, each `y_j` twice, `N − 1` once.
//!
//! `D̂` answers `c_t(D̂) = (1/2 + #{j : y_j ≤ t})/m` for `t < N − 1` and 1 at `t = N − 1`.
//! Below 2m points (w = 0, empty windows) no call is made and the release is the
//! data-independent `{0, N − 1}` (every `t < N − 1` answered 1/2): n is public, so this is
//! private for every n, and the accuracy claim below is only made from
//! [`QuantileSanitizer::min_sample_size`] points on. (The lab's sample-size searches start
//! at a few points; an error there would stop them.)
//! The windows are disjoint (`r_{j+1} − r_j ≥ ⌊n/m⌋ ≥ 2w`) and lie in `[0, n)`
//! (`r_1 ≥ 2w` and `r_k + w ≤ n − n/m + n/(2m) ≤ n`); the privacy proof needs neither.
//!
//! # Privacy
//! **Claim.** For data sets of the same size n that differ in one replaced point, the
//! release is (ε, δ)-differentially private, where (ε, δ) is the target: the per-call
//! (ε₀, δ₀) is chosen so that privpac's [`privpac_accounting::Accountant`] proves the
//! composition of the k calls within the target (checked at construction, with the
//! accountant's rounded-up arithmetic).
//!
//! **Lemma (windows of neighbours are neighbours).** Let D′ be D with one point x replaced
//! by x′, and `W_j`, `W′_j` the windows of the same ranks. Then `W′_j` equals `W_j` with at
//! most one point replaced. *Proof.* Say `x ≤ x′` (the other case is symmetric) and let x
//! have rank p in D and x′ rank q in D′ (ties broken so that `p ≤ q`). Then `s′_i = s_i`
//! for `i < p` and `i > q`, `s′_i = s_{i+1}` for `p ≤ i < q`, and `s′_q = x′`. For a
//! window of ranks `[a, b)`: if `[a, b)` misses `[p, q]` it is unchanged; if it lies inside
//! `[p, q)` it becomes `(s_{a+1}, …, s_b)`, which replaces `s_a` by `s_b`; if it contains p
//! but not q it loses `s_p` and gains `s_b`; if it contains q but not p it loses `s_a` and
//! gains x′; if it contains both it loses `s_p = x` and gains x′. In every case one point is
//! replaced. ∎
//!
//! So each call sees replace-one neighbours of the fixed size `2w` (n is public, hence so
//! is w), and TreeLog is (ε₀, δ₀)-DP for exactly that relation (its Lemma 11 with explicit
//! constants and group privacy, in `privpac_mechanisms::interior_point`). The k calls run
//! on the same data, so the whole release is the k-fold composition of (ε₀, δ₀)-DP
//! mechanisms; clamping, sorting and the construction of `D̂` are post-processing.
//!
//! **The split.** Two candidate per-call budgets, each proved by the accountant:
//! * basic composition: `(ε₀, δ₀) = (ε/k, δ/k)` (rounded down until the accountant's
//!   rounded-up basic total is within the target);
//! * optimal composition (Kairouz–Oh–Viswanath Theorem 3.3): `δ₀ = δ/(2k)`, slack
//!   `δ′ = δ/2·(1 − 10⁻⁵)`, and ε₀ the largest step whose k-fold composition has ε at
//!   most ε ([`privpac_accounting::optimal_step_epsilon`]); the total δ is
//!   `1 − (1 − δ₀)^k(1 − δ′) ≤ kδ₀ + δ′ ≤ δ`.
//!
//! The larger ε₀ is used (TreeLog's sample size falls like 1/ε₀ and only logarithmically
//! in 1/δ₀); ties go to basic composition. For k = 1 both give (ε, δ).
//!
//! # Accuracy
//! **Claim.** If every call returns an interior point of its window, then
//! `max_t |c_t(D) − c_t(D̂)| ≤ 1/(2m) + w/n ≤ 1/m ≤ α`.
//!
//! *Proof.* Let `lo_j = s_{r_j − w}` and `hi_j = s_{r_j + w − 1}`, both nondecreasing in j.
//! An interior point of `W_j` lies in `[lo_j, hi_j]`, and clamping to `N − 1` keeps it
//! there. Sorting keeps the bounds: the j-th smallest output is at most
//! `max(y_1, …, y_j) ≤ hi_j`, and at most `j − 1` outputs are below `lo_j` (all of
//! `y_j, …, y_k` are at least `lo_j`), so it is at least `lo_j`. Fix `t < N − 1`, let
//! `K = #{j : y_j ≤ t}` and `F = #{i : s_i ≤ t}`. If `K ≥ 1`, `s_{r_K − w} ≤ y_K ≤ t`, so
//! `F ≥ r_K − w + 1 > Kn/m − w` (as `r_K > Kn/m − 1`); if `K = 0`, `F ≥ 0`. If `K < k`,
//! `t < y_{K+1} ≤ s_{r_{K+1} + w − 1}`, so `F ≤ r_{K+1} + w − 1 < (K + 1)n/m + w`; if
//! `K = k`, `F ≤ n = (K + 1)n/m`. Hence `F/n ∈ [K/m − w/n, (K + 1)/m + w/n]`, and
//! `c_t(D̂) = (K + 1/2)/m` is within `1/(2m) + w/n` of it; `w/n ≤ 1/(2m)` and
//! `1/m ≤ α`. At `t = N − 1` both answers are 1. ∎
//!
//! **Sample complexity.** TreeLog returns an interior point of a window of `2w` points with
//! probability at least `1 − β/k` once `2w` reaches its own bound
//! ([`privpac_mechanisms::TreeLog::min_sample_size`] at (ε₀, δ₀), failure `β/k`: Lemma 13
//! of the text with explicit constants), so by a union bound over the k calls the release
//! is α-accurate for all thresholds with probability at least `1 − β` from
//! `n = 2m·⌈n_IP/2⌉` points on ([`QuantileSanitizer::min_sample_size`]), where `n_IP` is
//! TreeLog's bound (checked with [`privpac_mechanisms::TreeLog::utility_holds`] at the
//! resulting window size). With TreeLog's `Õ((log*|X|)²/ε₀)` this is
//! `Õ((1/α)·(log*|X|)²/ε₀)` with `ε₀ ≈ αε` (basic) or `ε₀ ≈ ε/√(k ln(1/δ))` (optimal,
//! large k).
//!
//! **What this means in practice.** TreeLog's constants are large (see
//! `privpac_mechanisms::interior_point`: at representable sizes it has at most one
//! recursive level, and its ε₀ is about ε/(2(K + 4))), so this sanitizer needs far more
//! points than the binary-tree sanitizer ([`crate::ThresholdSanitizer`]) on every domain the
//! tree handles; its advantages are that its running time does not depend on |X| (the
//! tree refuses domains above 2^24 points) and that its output has at most `m + 1`
//! distinct points (a dense histogram would make Algorithm 2's cover all of C). On
//! domains of at most 2^8 points TreeLog is its base case, the exponential mechanism
//! over the domain (pure ε₀).
//!
//! # Checks
//! The integration tests audit the exact output distribution
//! ([`QuantileSanitizer::output_distribution`]) on every replace-one neighbour of tiny
//! instances against the claimed (ε, δ), with a negative control that gives every call the
//! whole budget and must fail; the sampler is checked against the exact distribution by a
//! seeded chi-square test; the accuracy claim is checked on seeded data at the sample size
//! of [`QuantileSanitizer::min_sample_size`].
//!
//! # References
//! H. Kaplan, K. Ligett, Y. Mansour, M. Naor, U. Stemmer, "Privately learning thresholds:
//! closing the exponential gap", COLT 2020 (§1, Algorithm 1, Lemmas 11–13).
//! P. Kairouz, S. Oh, P. Viswanath, "The composition theorem for differential privacy",
//! ICML 2015 (Theorem 3.3).

use std::collections::BTreeMap;

use privpac_accounting::{Accountant, CompositionRule, Privacy, Private, optimal_step_epsilon};
use privpac_classes::{ConceptClass, Domain, Point};
use privpac_mechanisms::TreeLog;
use rand::Rng;

use crate::Sanitizer;
use crate::error::{Error, Result};
use crate::synthetic::SyntheticDatabase;

/// The largest number of quantiles m (so α ≥ 1/4096).
pub const MAX_QUANTILES: u64 = 4096;

/// Largest number of output tuples [`QuantileSanitizer::output_distribution`] enumerates.
const EXACT_TUPLE_LIMIT: u128 = 1 << 16;

/// The threshold sanitizer from k = ⌈1/α⌉ − 1 interior-point (TreeLog) calls on rank
/// windows: the module documentation states the algorithm and proves its guarantee and its
/// accuracy.
///
/// # Privacy
/// (ε, δ)-differentially private (the target given to [`Self::new`]) for data sets of the
/// same size that differ in one replaced point: each call is (ε₀, δ₀)-DP on a window that
/// changes by one replaced point, and the accountant composes the k calls (basic or
/// optimal composition, whichever allows the larger ε₀; [`Self::call_privacy`],
/// [`Self::composition_rule`]).
///
/// # Accuracy
/// When every call returns an interior point of its window, every threshold query is
/// answered within `1/(2m) + ⌊n/(2m)⌋/n ≤ α`; this happens with probability at least
/// `1 − β` from [`Self::min_sample_size`] points on.
///
/// # Errors
/// Construction: [`Error::DeltaRequired`] for δ = 0, [`Error::InvalidParameter`] unless
/// `0 < α < 1`, [`Error::TooLarge`] for more than [`MAX_QUANTILES`] quantiles,
/// [`Error::Accounting`] if no split fits the target. Sanitizing:
/// [`Error::UnsupportedDomain`] unless the domain is ordered, [`Error::EmptyData`],
/// [`Error::Class`] for a point outside the domain, [`Error::Mechanism`] from TreeLog (e.g.
/// a budget too small for its calibration). Fewer than 2m points are not an error: the
/// release is then data-independent (module documentation).
///
/// # Example
/// ```
/// use privpac_classes::Thresholds;
/// use privpac_accounting::{Privacy, Private};
/// use rand::SeedableRng;
/// use privpac_sanitizers::{QuantileSanitizer, Sanitizer, max_query_error};
///
/// let class = Thresholds::new(200)?;
/// let sanitizer = QuantileSanitizer::new(Privacy::new(1.0, 1e-6)?, 0.25)?;
/// let n = sanitizer.min_sample_size(200, 0.05)?;
/// let data: Vec<u64> = (0..n).map(|i| (i * i + 7 * i) % 200).collect();
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
/// let synthetic = sanitizer.sanitize(&class, &data, &mut rng)?;
/// let (error, _) = max_query_error(&class, &data, &synthetic)?;
/// assert!(error <= 0.25);
/// assert_eq!(sanitizer.privacy(), Privacy::new(1.0, 1e-6)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QuantileSanitizer {
    privacy: Privacy,
    alpha: f64,
    quantiles: u64,
    call: Privacy,
    rule: &'static str,
}

impl QuantileSanitizer {
    /// The sanitizer with target `privacy` (δ > 0) and accuracy α (`m = ⌈1/α⌉`).
    ///
    /// # Errors
    /// See the type documentation.
    pub fn new(privacy: Privacy, alpha: f64) -> Result<Self> {
        if privacy.is_pure() {
            return Err(Error::DeltaRequired {
                algorithm: "the interior-point (TreeLog) quantile sanitizer",
            });
        }
        let quantiles = quantiles_for(alpha)?;
        let calls = quantiles - 1;
        let (call, rule) = split(privacy, calls)?;
        Ok(QuantileSanitizer {
            privacy,
            alpha,
            quantiles,
            call,
            rule,
        })
    }

    /// The same algorithm with a per-call guarantee given directly; its reported guarantee
    /// is still the one given to [`Self::new`]. **Not private as reported** unless `call`
    /// composes to it: this exists for the audits' negative controls.
    #[doc(hidden)]
    pub fn with_call_privacy_unchecked(mut self, call: Privacy) -> Self {
        self.call = call;
        self.rule = "unchecked";
        self
    }

    /// The accuracy α asked for.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// The number of quantiles m = ⌈1/α⌉ (the release has m − 1 interior points).
    pub fn quantiles(&self) -> u64 {
        self.quantiles
    }

    /// The number of interior-point calls k = m − 1.
    pub fn calls(&self) -> u64 {
        self.quantiles - 1
    }

    /// The per-call guarantee (ε₀, δ₀) the accountant composed to the target.
    pub fn call_privacy(&self) -> Privacy {
        self.call
    }

    /// The composition rule of the split: `basic` or `optimal`.
    pub fn composition_rule(&self) -> &'static str {
        self.rule
    }

    /// The half-window w = ⌊n/(2m)⌋ for n points (each call sees 2w points).
    pub fn half_window(&self, n: u64) -> u64 {
        n / (2 * self.quantiles)
    }

    /// The accuracy proved for n points when every call succeeds: `1/(2m) + ⌊n/(2m)⌋/n`
    /// (at most α).
    pub fn accuracy(&self, n: u64) -> f64 {
        let m = self.quantiles as f64;
        1.0 / (2.0 * m) + self.half_window(n) as f64 / n.max(1) as f64
    }

    /// The domain bits d of TreeLog for an ordered domain of N points.
    pub fn domain_bits(domain_size: u64) -> u32 {
        (u64::BITS - domain_size.saturating_sub(1).leading_zeros()).max(1)
    }

    /// The TreeLog instance every call of a run on n points uses.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for fewer than 2m points; [`Error::Mechanism`] from
    /// TreeLog's calibration.
    pub fn interior_point(&self, domain_size: u64, n: u64) -> Result<TreeLog> {
        let w = self.half_window(n);
        if w == 0 {
            return Err(Error::InvalidParameter {
                name: "data size n (the quantile sanitizer needs at least 2m points)",
                requirement: "at least twice the number of quantiles",
                value: n as f64,
            });
        }
        Ok(TreeLog::new(
            self.call,
            Self::domain_bits(domain_size),
            2 * w,
        )?)
    }

    /// The sample size from which the release is α-accurate for every threshold with
    /// probability at least `1 − β` on an ordered domain of N points: `2m·⌈n_IP/2⌉` with
    /// `n_IP` TreeLog's bound at (ε₀, δ₀) and failure `β/k` (module documentation), raised
    /// until TreeLog's utility check holds at the resulting window.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `0 < β < 1`; [`Error::Mechanism`] from TreeLog
    /// (e.g. β below its failure floor); [`Error::TooLarge`] if the size is not
    /// representable.
    pub fn min_sample_size(&self, domain_size: u64, beta: f64) -> Result<u64> {
        if !(beta > 0.0 && beta < 1.0) {
            return Err(Error::InvalidParameter {
                name: "beta",
                requirement: "in (0, 1)",
                value: beta,
            });
        }
        let per_call = beta / self.calls() as f64;
        let d = Self::domain_bits(domain_size);
        let mut window = TreeLog::min_sample_size(self.call, d, per_call)?.max(2);
        for _ in 0..64 {
            let half = window.div_ceil(2);
            let n = half
                .checked_mul(2 * self.quantiles)
                .filter(|&n| n < 1 << 62)
                .ok_or(Error::TooLarge {
                    what: "the quantile sanitizer's sample size",
                    needed: u128::from(half) * u128::from(2 * self.quantiles),
                    unit: "points",
                    limit: 1 << 62,
                })?;
            if self
                .interior_point(domain_size, n)?
                .utility_holds(per_call)?
            {
                return Ok(n);
            }
            window = 2 * half + 2;
        }
        Err(Error::TooLarge {
            what: "the quantile sanitizer's sample size (the search did not settle)",
            needed: u128::from(window),
            unit: "points per window",
            limit: 1 << 62,
        })
    }

    /// Steps 1–2: the sorted data's windows (as slices of `sorted`).
    fn windows<'a>(&self, sorted: &'a [Point]) -> Vec<&'a [Point]> {
        let n = sorted.len() as u128;
        let m = u128::from(self.quantiles);
        let w = self.half_window(sorted.len() as u64) as usize;
        (1..m)
            .map(|j| {
                let r = (j * n / m) as usize;
                &sorted[r - w..r + w]
            })
            .collect()
    }

    fn ordered_size(domain: &Domain) -> Result<u64> {
        match domain {
            Domain::Ordered { size } => Ok(*size),
            other => Err(Error::UnsupportedDomain {
                algorithm: "the quantile sanitizer",
                requirement: "an ordered domain [N]",
                domain: other.to_string(),
            }),
        }
    }

    fn checked_sorted(domain: &Domain, data: &[Point]) -> Result<(u64, Vec<Point>)> {
        let size = Self::ordered_size(domain)?;
        if data.is_empty() {
            return Err(Error::EmptyData);
        }
        domain.check_all(data)?;
        let mut sorted = data.to_vec();
        sorted.sort_unstable();
        Ok((size, sorted))
    }

    /// Steps 3–4: the released multiset from the calls' outputs.
    fn release(
        &self,
        domain: &Domain,
        size: u64,
        mut outputs: Vec<Point>,
    ) -> Result<SyntheticDatabase> {
        outputs.sort_unstable();
        let mut points = Vec::with_capacity(2 * outputs.len() + 2);
        points.push(0);
        for y in outputs {
            points.extend([y, y]);
        }
        points.push(size - 1);
        SyntheticDatabase::from_points(domain, points)
    }

    /// Runs the release and also returns the k sorted interior points.
    ///
    /// # Errors
    /// See the type documentation.
    pub fn run<R: Rng + ?Sized>(
        &self,
        domain: &Domain,
        data: &[Point],
        rng: &mut R,
    ) -> Result<(SyntheticDatabase, Vec<Point>)> {
        let (size, sorted) = Self::checked_sorted(domain, data)?;
        if size == 1 {
            // One point: every answer is 1, exactly, whatever the data.
            return Ok((SyntheticDatabase::from_points(domain, vec![0])?, Vec::new()));
        }
        if self.half_window(sorted.len() as u64) == 0 {
            // Empty windows: the data-independent release (module documentation).
            return Ok((
                SyntheticDatabase::from_points(domain, vec![0, size - 1])?,
                Vec::new(),
            ));
        }
        let treelog = self.interior_point(size, sorted.len() as u64)?;
        let mut outputs = Vec::with_capacity(self.calls() as usize);
        for window in self.windows(&sorted) {
            outputs.push(treelog.run(window, rng)?.min(size - 1));
        }
        outputs.sort_unstable();
        Ok((self.release(domain, size, outputs.clone())?, outputs))
    }

    /// The exact distribution of the sorted interior points `(y_1, …, y_k)` on tiny
    /// instances (domains of at most 2^6 points, at most 2^16 output tuples before
    /// sorting): the product of the calls' exact distributions
    /// ([`TreeLog::output_distribution`]), clamped and sorted. The release is a function
    /// of this tuple.
    ///
    /// # Errors
    /// As [`Self::run`]; [`Error::TooLarge`] beyond the limits above.
    pub fn output_distribution(
        &self,
        domain: &Domain,
        data: &[Point],
    ) -> Result<BTreeMap<Vec<Point>, f64>> {
        let (size, sorted) = Self::checked_sorted(domain, data)?;
        let mut out = BTreeMap::new();
        if size == 1 || self.half_window(sorted.len() as u64) == 0 {
            out.insert(Vec::new(), 1.0);
            return Ok(out);
        }
        let treelog = self.interior_point(size, sorted.len() as u64)?;
        let values = 1u128 << Self::domain_bits(size);
        let tuples = values.checked_pow(self.calls() as u32).unwrap_or(u128::MAX);
        if tuples > EXACT_TUPLE_LIMIT || self.calls() > 16 {
            return Err(Error::TooLarge {
                what: "the quantile sanitizer's exact output distribution",
                needed: tuples,
                unit: "output tuples",
                limit: EXACT_TUPLE_LIMIT,
            });
        }
        let per_call: Vec<Vec<f64>> = self
            .windows(&sorted)
            .into_iter()
            .map(|window| treelog.output_distribution(window))
            .collect::<std::result::Result<_, _>>()?;
        let mut partial: Vec<(Vec<Point>, f64)> = vec![(Vec::new(), 1.0)];
        for dist in &per_call {
            let mut next = Vec::with_capacity(partial.len() * dist.len());
            for (tuple, p) in &partial {
                for (y, &q) in dist.iter().enumerate() {
                    if q > 0.0 {
                        let mut extended = tuple.clone();
                        extended.push((y as u64).min(size - 1));
                        next.push((extended, p * q));
                    }
                }
            }
            partial = next;
        }
        for (mut tuple, p) in partial {
            tuple.sort_unstable();
            *out.entry(tuple).or_insert(0.0) += p;
        }
        Ok(out)
    }
}

/// `m = ⌈1/α⌉`, validated.
fn quantiles_for(alpha: f64) -> Result<u64> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(Error::InvalidParameter {
            name: "alpha",
            requirement: "in (0, 1)",
            value: alpha,
        });
    }
    let m = (1.0 / alpha).ceil();
    if m > MAX_QUANTILES as f64 {
        return Err(Error::TooLarge {
            what: "the quantile sanitizer (m = ceil(1/alpha))",
            needed: m as u128,
            unit: "quantiles",
            limit: u128::from(MAX_QUANTILES),
        });
    }
    Ok((m as u64).max(2))
}

/// The accountant's total of k runs at `call` under `rule`.
fn composed(call: Privacy, calls: u64, rule: CompositionRule) -> Result<Privacy> {
    let mut accountant = Accountant::new();
    for j in 0..calls {
        accountant.record(format!("interior point {j}"), call);
    }
    Ok(accountant.total(rule)?)
}

/// The per-call budget (module documentation, "The split"): the larger ε₀ of basic and
/// optimal composition whose accountant total is within `target`.
fn split(target: Privacy, calls: u64) -> Result<(Privacy, &'static str)> {
    let (epsilon, delta) = (target.epsilon(), target.delta());
    let kf = calls as f64;
    let fits = |p: Privacy| p.epsilon() <= epsilon && p.delta() <= delta;
    let fit_down = |mut call: Privacy, rule: CompositionRule| -> Result<Option<Privacy>> {
        for _ in 0..64 {
            if fits(composed(call, calls, rule)?) {
                return Ok(Some(call));
            }
            call = Privacy::new(call.epsilon() * (1.0 - 1e-12), call.delta() * (1.0 - 1e-12))?;
        }
        Ok(None)
    };
    let basic = fit_down(
        Privacy::new(epsilon / kf, delta / kf)?,
        CompositionRule::Basic,
    )?;
    let optimal = if calls > 1 {
        let step_delta = delta / (2.0 * kf);
        let slack = delta / 2.0 * (1.0 - 1e-5);
        match optimal_step_epsilon(epsilon, calls, step_delta, slack) {
            Ok(step) => fit_down(
                Privacy::new(step, step_delta)?,
                CompositionRule::Optimal { delta_prime: slack },
            )?,
            Err(_) => None,
        }
    } else {
        None
    };
    match (basic, optimal) {
        (Some(b), Some(o)) if o.epsilon() > b.epsilon() => Ok((o, "optimal")),
        (Some(b), _) => Ok((b, "basic")),
        (None, Some(o)) => Ok((o, "optimal")),
        (None, None) => Err(Error::InvalidParameter {
            name: "privacy budget (no composition of the calls fits the target)",
            requirement: "large enough for the number of quantiles",
            value: epsilon,
        }),
    }
}

impl Private for QuantileSanitizer {
    fn privacy(&self) -> Privacy {
        self.privacy
    }
}

impl Sanitizer for QuantileSanitizer {
    /// `class` supplies the ordered domain; the accuracy guarantee is for `THRESH_X` (and
    /// 2α for the intervals of `C ⊕ C`, each a difference of two thresholds).
    fn sanitize(
        &self,
        class: &dyn ConceptClass,
        data: &[Point],
        rng: &mut dyn Rng,
    ) -> Result<SyntheticDatabase> {
        Ok(self.run(class.domain(), data, rng)?.0)
    }

    fn name(&self) -> String {
        "treelog-quantiles".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_fits_the_target_and_prefers_the_larger_step() {
        for (epsilon, delta, alpha) in [(1.0, 1e-6, 0.1), (0.5, 1e-9, 0.02), (2.0, 1e-3, 0.5)] {
            let target = Privacy::new(epsilon, delta).unwrap();
            let s = QuantileSanitizer::new(target, alpha).unwrap();
            let k = s.calls();
            let call = s.call_privacy();
            assert!(call.epsilon() >= epsilon / k as f64 * (1.0 - 1e-9));
            let rule = match s.composition_rule() {
                "basic" => CompositionRule::Basic,
                _ => CompositionRule::Optimal {
                    delta_prime: delta / 2.0 * (1.0 - 1e-5),
                },
            };
            let total = composed(call, k, rule).unwrap();
            assert!(total.epsilon() <= epsilon && total.delta() <= delta);
        }
        // Many calls: optimal composition beats basic.
        let s = QuantileSanitizer::new(Privacy::new(1.0, 1e-6).unwrap(), 0.002).unwrap();
        assert_eq!(s.composition_rule(), "optimal");
        assert!(s.call_privacy().epsilon() > 1.5 / s.calls() as f64);
    }

    #[test]
    fn quantile_counts_and_windows() {
        let s = QuantileSanitizer::new(Privacy::new(1.0, 1e-6).unwrap(), 0.3).unwrap();
        assert_eq!((s.quantiles(), s.calls()), (4, 3));
        let sorted: Vec<u64> = (0..40).collect();
        let windows = s.windows(&sorted);
        // w = 5, r = 10, 20, 30.
        assert_eq!(windows[0], &sorted[5..15]);
        assert_eq!(windows[2], &sorted[25..35]);
        assert!(s.accuracy(40) <= 0.3);
        assert_eq!(QuantileSanitizer::domain_bits(1), 1);
        assert_eq!(QuantileSanitizer::domain_bits(256), 8);
        assert_eq!(QuantileSanitizer::domain_bits(257), 9);
        assert_eq!(QuantileSanitizer::domain_bits(u64::MAX), 64);
    }
}
