//! [`SanitizerMultiLearner`]: Algorithm 2 ("GenericLearner") of Bun–Nissim–Stemmer 2016
//! and its privacy analysis, Lemma 3.7 — sanitize the unlabeled points once with respect to
//! C⊕, keep one concept per dichotomy of C on the small database, and choose one hypothesis
//! per label column with the exponential mechanism. Also the agnostic instances of §3
//! (Corollary 3.9 with the point sanitizer; Corollary 3.10's construction with privpac's
//! interior-point quantile sanitizer in place of Proposition 2.21's, and with the
//! binary-tree sanitizer, each labelled as such).

use privpac_accounting::{
    CompositionRule, Guarantee, MAX_BOUNDED_RANGE_COMPOSITIONS, MAX_OPTIMAL_COMPOSITIONS, Privacy,
    advanced_composition, basic_composition, bounded_range_concentration_composition,
    bounded_range_concentration_step_epsilon, optimal_composition, optimal_step_epsilon,
};
use privpac_classes::ConceptClass;
use privpac_learners::{Predictor, SanitizedCover, SupportSize};
use privpac_mechanisms::{ExponentialMechanism, MIN_EPSILON, exponential_mechanism_range};
use privpac_sanitizers::{PointSanitizer, QuantileSanitizer, Sanitizer, ThresholdSanitizer};
use rand::Rng;

use crate::direct_sum::compose_privacy;
use crate::error::{Error, Result};
use crate::learner::MultiLearner;
use crate::sample::{MultiLabeledSample, check_columns_and_domain};

/// Builds a sanitizer for a given guarantee (used by [`SanitizerMultiLearner::for_total`]).
pub type SanitizerFactory<'a> =
    dyn Fn(Privacy) -> privpac_sanitizers::Result<Box<dyn Sanitizer>> + 'a;

/// The two guarantees of Lemma 3.7 for one sanitizer guarantee (ε, δ), k selections at ε′
/// and the advanced-composition slack δ′ (the paper takes δ′ = δ).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lemma37 {
    /// `(ε + k·ε′, δ)` (basic composition), rounded up.
    pub basic: Privacy,
    /// `(ε + √(2k ln(1/δ′))·ε′ + 2k·ε′², δ + δ′)` (advanced composition of the k
    /// selections, then basic composition with the sanitizer), rounded up; `None` when no
    /// δ′ is configured (a pure learner) or the composition is vacuous.
    pub advanced: Option<Privacy>,
    /// `(ε + ε″, δ + δ′)` with ε″ the optimal composition of the k selections at slack δ′
    /// (Kairouz–Oh–Viswanath Theorem 3.3, [`privpac_accounting::optimal_composition`];
    /// beyond the paper, never worse than the advanced form), rounded up; `None` as for
    /// `advanced`.
    pub optimal: Option<Privacy>,
    /// `(ε + ε‴, δ + δ′)` with ε‴ the composition of the k selections as bounded-range
    /// mechanisms (each is privpac's exponential mechanism at ε′, `(ε′ + 4η)`-bounded-
    /// range): `kw²/8 + w·√(k ln(1/δ′)/2)` for width w, the concentration bound of
    /// Durfee–Rogers 2019 / Dong–Durfee–Rogers 2020
    /// ([`privpac_accounting::bounded_range_concentration_composition`], valid even for
    /// adaptive selections), then basic composition with the sanitizer (which H depends
    /// on). The exact non-adaptive composition (`bounded_range_composition`, which the
    /// direct sum uses) would be tighter still but costs O(k) binomial tails per
    /// evaluation, too slow for the budget splits of every k. Beyond the paper; `None` as
    /// for `advanced`.
    pub bounded_range: Option<Privacy>,
}

impl Lemma37 {
    /// The guarantee reported: the one with the smallest ε (basic on ties). All hold.
    pub fn best(&self) -> Privacy {
        [self.advanced, self.optimal, self.bounded_range]
            .into_iter()
            .flatten()
            .fold(self.basic, |best, p| {
                if p.epsilon() < best.epsilon() {
                    p
                } else {
                    best
                }
            })
    }
}

/// Algorithm 2 of Bun, Nissim and Stemmer, "Simultaneous private learning of multiple
/// concepts" (the paper's **"GenericLearner"**; named `SanitizerMultiLearner` here so as not
/// to clash with `privpac_learners::GenericLearner`, the exponential mechanism over all of C):
///
/// 1. sanitize the points `x_1, …, x_n` (labels unused) with respect to `C⊕ = {f ⊕ g}` with
///    any [`Sanitizer`], at (ε, δ);
/// 2. draw a small database D̃ from the synthetic distribution (post-processing; see
///    `privpac_learners::SanitizedCover` for why) and let B be its support;
/// 3. H = one concept of C per dichotomy of C on B;
/// 4. for each column j, choose `h_j ∈ H` with the exponential mechanism at ε′ (pure),
///    score `−(mistakes of h on S|_j)` (sensitivity 1).
///
/// Steps 1–3 run **once** (`privpac_learners::SanitizedCover::build`, the code the single-concept
/// `privpac_learners::SanitizerLearner` uses), step 4 once per column
/// (`privpac_learners::SanitizedCover::select`).
///
/// # Privacy (Lemma 3.7)
/// The learner reads S only through the sanitizer and the k selections (replacing one row
/// replaces one point and one label of every column), so by Theorem 2.16 it is both
/// * `(ε + k·ε′, δ)`-DP (basic composition), and
/// * `(ε + √(2k ln(1/δ′))·ε′ + 2k·ε′², δ + δ′)`-DP (advanced composition of the k
///   selections with slack δ′; the paper takes δ′ = δ, giving `2δ`; for ε′ > 1 the
///   always-valid Dwork–Roth form `… + k·ε′(e^{ε′} − 1)` is used), and, beyond the paper,
/// * `(ε + ε″, δ + δ′)`-DP with ε″ the optimal composition of the k selections
///   (Kairouz–Oh–Viswanath Theorem 3.3), never worse than the advanced form, and
/// * `(ε + ε‴, δ + δ′)`-DP with ε‴ the composition of the k selections as
///   bounded-range mechanisms (the exponential mechanism is bounded-range; Durfee–Rogers
///   2019, Dong–Durfee–Rogers 2020; see [`Lemma37::bounded_range`]), about 0.64 of ε″ at
///   k ≥ 256.
///
/// [`MultiLearner::guarantee`] reports the one with the smallest ε ([`Lemma37::best`]);
/// all are computed with `privpac_mechanisms`' rounding-up composition functions. With the BLR
/// sanitizer (pure) and no δ′ this is Theorem 3.1's pure bound; with PMW (approximate) the
/// advanced form gives its approximate bound. Checked exactly on tiny instances with BLR
/// (tests in this crate), with a negative control that must fail.
///
/// # Accuracy (Lemma 3.7)
/// With `n ≥ O(m + VC(C)·log(1/α)/(α³ε′) + log(k/β)/(αε′) + VC(C)·log(k/(αβ))/α²)`, m the
/// sanitizer's sample complexity at (α/5, β/5) for C⊕, every `h_j` is within α of the best
/// concept for column j with probability 1 − β (agnostic; the proof's event E₃ has n, not m,
/// in its exponent — see the paper's errata). The small-database size is
/// `privpac_learners::SupportSize` (default: the paper's order with constant 1, ours).
///
/// # Agnostic instances
/// * [`Self::corollary_3_9`]: `POINT_X` with the point sanitizer (Proposition 2.20) —
///   Corollary 3.9.
/// * [`Self::corollary_3_10`]: `THRESH_X` with the interior-point quantile sanitizer
///   (`privpac_sanitizers::QuantileSanitizer`: ⌈1/α⌉ − 1 TreeLog calls, Kaplan–Ligett–
///   Mansour–Naor–Stemmer 2020). This is Corollary 3.10's construction with privpac's
///   threshold sanitizer in place of the Bun–Nissim–Stemmer–Vadhan sanitizer of
///   Proposition 2.21 (whose algorithm is not in the paper). Its explicit sample size is
///   [`crate::bounds::corollary_3_10_sample_size`], from the corollary's proof (Lemma 3.7)
///   with this sanitizer's proved sample complexity; the printed bound, which assumes
///   Proposition 2.21's sanitizer, is [`crate::bounds::corollary_3_10_o_form`] (shape only).
/// * [`Self::threshold_tree`]: `THRESH_X` with the binary-tree sanitizer, pure ε-DP with
///   error growing like `log^{1.5}|X|/(εn)`, so the first term of the sample complexity is
///   `polylog|X|` instead of `2^{log*|X|}`; the k-dependence (the last three terms) is the
///   same.
///
/// Which is the better choice is decided by the explicit sample sizes, computed not
/// assumed: with TreeLog's constants the quantile sanitizer's term is larger than the
/// tree's at every domain size the tree accepts (up to 2^24 points; see the crate's
/// tests), so `generic` keeps its default sanitizer, and the quantile sanitizer is the
/// one threshold sanitizer of Algorithm 2 that runs on every ordered domain up to 2^64
/// points.
///
/// # Running time
/// One sanitization, the cover O(|C|·|B|), then k error profiles O(|C|·n) each.
#[derive(Debug)]
pub struct SanitizerMultiLearner {
    sanitizer: Box<dyn Sanitizer>,
    selection: Privacy,
    mechanism: ExponentialMechanism,
    k: usize,
    advanced_delta: Option<f64>,
    support_size: SupportSize,
}

impl SanitizerMultiLearner {
    /// Algorithm 2 over k columns with `sanitizer` and selections at ε′ =
    /// `selection_epsilon` each. The advanced form of Lemma 3.7 uses δ′ = the sanitizer's δ
    /// when it is positive (the paper's choice) and is off for a pure sanitizer (change
    /// with [`Self::with_advanced_delta`]).
    ///
    /// # Errors
    /// [`Error::NoLabelColumns`] for k = 0; [`Error::Mechanism`] for an invalid ε′.
    pub fn new(sanitizer: Box<dyn Sanitizer>, selection_epsilon: f64, k: usize) -> Result<Self> {
        if k == 0 {
            return Err(Error::NoLabelColumns);
        }
        let selection = Privacy::pure(selection_epsilon)?;
        let mechanism = ExponentialMechanism::new(selection, 1.0)?;
        let delta = sanitizer.privacy().delta();
        Ok(SanitizerMultiLearner {
            sanitizer,
            selection,
            mechanism,
            k,
            advanced_delta: (delta > 0.0).then_some(delta),
            support_size: SupportSize::default(),
        })
    }

    /// The same learner with advanced-composition slack δ′ (`None`: basic composition only).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for δ′ outside (0, 1).
    pub fn with_advanced_delta(mut self, delta_prime: Option<f64>) -> Result<Self> {
        if let Some(d) = delta_prime
            && !(d > 0.0 && d < 1.0)
        {
            return Err(Error::InvalidParameter {
                name: "delta_prime",
                requirement: "in (0, 1)",
                value: d,
            });
        }
        self.advanced_delta = delta_prime;
        Ok(self)
    }

    /// The same learner with another small-database size (step 2).
    pub fn with_support_size(mut self, support_size: SupportSize) -> Self {
        self.support_size = support_size;
        self
    }

    /// The learner whose k-tuple is `total`-DP: ε is split evenly between the sanitizer
    /// (ε/2) and the k selections (ε/2 in all), and `build(privacy)` makes the sanitizer.
    ///
    /// * Pure total: sanitizer `(ε/2, 0)`, `ε′ = ε/(2k)`, basic composition.
    /// * Approximate total: the larger ε′ of basic composition (sanitizer `(ε/2, δ)`,
    ///   `ε′ = ε/(2k)`, no δ′) and advanced composition (sanitizer `(ε/2, δ/2)`,
    ///   `δ′ = δ/2`, ε′ the positive root of `2k·ε′² + √(2k ln(2/δ))·ε′ = ε/2`), optimal
    ///   composition (the same halves, ε′ the largest step KOV composes to ε/2) and
    ///   bounded-range composition (the same halves, ε′ the largest whose k selections,
    ///   each `(ε′ + 4η)`-bounded-range, compose to ε/2 by [`Lemma37::bounded_range`]'s
    ///   bound); the largest ε′ that fits is taken.
    ///
    /// ε′ (and the sanitizer's budget) are then lowered by a relative 10⁻¹² per step until
    /// [`Self::guarantees`] (rounded up, with the sanitizer's *reported* guarantee) is
    /// within `total`.
    ///
    /// # Errors
    /// [`Error::NoLabelColumns`] for k = 0; [`Error::BudgetTooSmall`] if ε′ would fall
    /// below `MIN_EPSILON` or no split fits; [`Error::Sanitizer`] from `build` (e.g. the
    /// point sanitizer refuses δ = 0, BLR δ > 0).
    pub fn for_total(total: Privacy, k: usize, build: &SanitizerFactory<'_>) -> Result<Self> {
        if k == 0 {
            return Err(Error::NoLabelColumns);
        }
        let too_small = |reason| Error::BudgetTooSmall {
            epsilon: total.epsilon(),
            delta: total.delta(),
            k,
            reason,
        };
        let kf = k as f64;
        let half = total.epsilon() / 2.0;
        // (sanitizer guarantee, ε′, δ′, the form of Lemma 3.7 the split is solved for)
        let mut candidates: Vec<(Privacy, f64, Option<f64>, Form)> = Vec::new();
        if let Ok(san) = Privacy::new(half, total.delta()) {
            candidates.push((san, half / kf, None, Form::Basic));
        }
        if !total.is_pure() {
            let delta_prime = total.delta() / 2.0;
            let a = (2.0 * kf * (1.0 / delta_prime).ln()).sqrt();
            let root = (-a + (a * a + 8.0 * kf * half).sqrt()) / (4.0 * kf);
            if let Ok(san) = Privacy::new(half, delta_prime) {
                candidates.push((san, root, Some(delta_prime), Form::Advanced));
                // The largest ε′ whose k selections compose optimally to ε/2 (a relative
                // 10⁻⁵ of headroom in δ′ for the exact region's rounding margin).
                let slack = delta_prime * (1.0 - 1e-5);
                if k as u64 <= MAX_OPTIMAL_COMPOSITIONS
                    && let Ok(step) = optimal_step_epsilon(half, k as u64, 0.0, slack)
                {
                    candidates.push((san, step, Some(delta_prime), Form::Optimal));
                }
                // The largest ε′ whose k selections, each (ε′ + 4η)-bounded-range, compose
                // to ε/2 (the same headroom).
                if k as u64 <= MAX_BOUNDED_RANGE_COMPOSITIONS
                    && let Ok(width) =
                        bounded_range_concentration_step_epsilon(half, k as u64, slack)
                {
                    let step = width - 4.0 * privpac_mechanisms::FLOAT_ERROR_BUDGET;
                    candidates.push((san, step, Some(delta_prime), Form::BoundedRange));
                }
            }
        }
        let mut best: Option<(Privacy, f64, Option<f64>)> = None;
        for (san, epsilon0, delta_prime, form) in candidates {
            let Some((san, fitted)) = fit_selection(san, epsilon0, delta_prime, form, k, total)
            else {
                continue;
            };
            if best.is_none_or(|(_, b, _)| fitted > b) {
                best = Some((san, fitted, delta_prime));
            }
        }
        let (san, epsilon0, delta_prime) =
            best.ok_or_else(|| too_small("no split of epsilon fits the total"))?;
        if epsilon0 < MIN_EPSILON {
            return Err(too_small("the per-column epsilon would be below 1e-9"));
        }
        // The sanitizer reports its own guarantee (which Lemma 3.7 composes): if it is a few
        // ulps above the one asked for, shrink both budgets until the total fits.
        let (mut san, mut epsilon0) = (san, epsilon0);
        for _ in 0..64 {
            let learner = SanitizerMultiLearner::new(build(san)?, epsilon0, k)?
                .with_advanced_delta(delta_prime)?;
            let reported = learner.guarantees(k)?.best();
            if reported.epsilon() <= total.epsilon() && reported.delta() <= total.delta() {
                return Ok(learner);
            }
            san = Privacy::new(san.epsilon() * (1.0 - 1e-12), san.delta() * (1.0 - 1e-12))?;
            epsilon0 *= 1.0 - 1e-12;
        }
        Err(too_small(
            "the sanitizer's reported guarantee does not fit the split",
        ))
    }

    /// Corollary 3.9: the agnostic k-learner for `POINT_X` — Algorithm 2 with the point
    /// sanitizer of Proposition 2.20 (privpac's `privpac_sanitizers::PointSanitizer`, accuracy α),
    /// with the budget split of [`Self::for_total`]. Needs δ > 0.
    ///
    /// # Errors
    /// [`Error::DeltaRequired`] for a pure `total`; as for [`Self::for_total`] otherwise.
    pub fn corollary_3_9(total: Privacy, k: usize, alpha: f64) -> Result<Self> {
        if total.is_pure() {
            return Err(Error::DeltaRequired {
                algorithm: "Corollary 3.9 (the point sanitizer)",
            });
        }
        Self::for_total(total, k, &|p| {
            Ok(Box::new(PointSanitizer::new(p, alpha)?) as Box<dyn Sanitizer>)
        })
    }

    /// Corollary 3.10's construction for `THRESH_X` with the interior-point quantile
    /// sanitizer at accuracy α/10 for thresholds (so α/5 for `C⊕`, whose intervals are
    /// differences of two thresholds, as Lemma 3.7's event E1 needs), with the budget split
    /// of [`Self::for_total`]. Needs δ > 0.
    ///
    /// # Errors
    /// [`Error::DeltaRequired`] for a pure `total`; [`Error::InvalidParameter`] unless
    /// `0 < α < 1`; as for [`Self::for_total`] otherwise.
    pub fn corollary_3_10(total: Privacy, k: usize, alpha: f64) -> Result<Self> {
        if total.is_pure() {
            return Err(Error::DeltaRequired {
                algorithm: "Corollary 3.10 (the interior-point quantile sanitizer)",
            });
        }
        if !(alpha > 0.0 && alpha < 1.0) {
            return Err(Error::InvalidParameter {
                name: "alpha",
                requirement: "in (0, 1)",
                value: alpha,
            });
        }
        Self::for_total(total, k, &|p| {
            Ok(Box::new(QuantileSanitizer::new(p, alpha / 10.0)?) as Box<dyn Sanitizer>)
        })
    }

    /// The construction of Corollary 3.10 for `THRESH_X` run with the binary-tree sanitizer
    /// (`privpac_sanitizers::ThresholdSanitizer`) in place of the BNSV sanitizer of Proposition
    /// 2.21. **Not** Corollary 3.10: see the type documentation.
    ///
    /// # Errors
    /// As for [`Self::for_total`].
    pub fn threshold_tree(total: Privacy, k: usize) -> Result<Self> {
        Self::for_total(total, k, &|p| {
            Ok(
                Box::new(ThresholdSanitizer::new(Privacy::pure(p.epsilon())?)?)
                    as Box<dyn Sanitizer>,
            )
        })
    }

    /// The number of columns k the learner was built for.
    pub fn k(&self) -> usize {
        self.k
    }

    /// The per-column selection guarantee ε′ (pure).
    pub fn selection(&self) -> Privacy {
        self.selection
    }

    /// The sanitizer.
    pub fn sanitizer(&self) -> &dyn Sanitizer {
        self.sanitizer.as_ref()
    }

    /// The advanced-composition slack δ′, if the advanced form is on.
    pub fn advanced_delta(&self) -> Option<f64> {
        self.advanced_delta
    }

    /// The exponential mechanism of step 4 (the same for every column).
    pub fn mechanism(&self) -> &ExponentialMechanism {
        &self.mechanism
    }

    /// Both guarantees of Lemma 3.7 for `k` columns.
    ///
    /// # Errors
    /// [`Error::Mechanism`] if the basic composition is vacuous (δ ≥ 1).
    pub fn guarantees(&self, k: usize) -> Result<Lemma37> {
        lemma_3_7(
            self.sanitizer.privacy(),
            self.selection,
            k,
            self.advanced_delta,
        )
    }

    /// Steps 1–3: the cover H, built once from the sample's points.
    ///
    /// # Errors
    /// [`Error::Learner`] from `privpac_learners::SanitizedCover::build` (empty sample, the
    /// sanitizer's errors, the class's size limit).
    pub fn cover(
        &self,
        class: &dyn ConceptClass,
        sample: &MultiLabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<SanitizedCover> {
        let m = self.support_size.resolve(class)?;
        Ok(SanitizedCover::build(
            self.sanitizer.as_ref(),
            class,
            sample.points(),
            m,
            rng,
        )?)
    }
}

/// Lemma 3.7's two guarantees for a sanitizer at `sanitizer`, k selections at `selection`
/// (pure) and slack δ′, rounded up.
///
/// # Errors
/// [`Error::Mechanism`] if the basic composition is vacuous; [`Error::NoLabelColumns`] for
/// k = 0.
pub fn lemma_3_7(
    sanitizer: Privacy,
    selection: Privacy,
    k: usize,
    delta_prime: Option<f64>,
) -> Result<Lemma37> {
    if k == 0 {
        return Err(Error::NoLabelColumns);
    }
    let selections = compose_privacy(selection, k, CompositionRule::Basic)?;
    let basic = basic_composition(&[sanitizer, selections])?;
    let advanced = delta_prime.and_then(|d| {
        let selections = advanced_composition(selection, k as u64, d).ok()?;
        basic_composition(&[sanitizer, selections]).ok()
    });
    let optimal = delta_prime.and_then(|d| {
        let selections = optimal_composition(selection, k as u64, d).ok()?;
        basic_composition(&[sanitizer, selections]).ok()
    });
    let bounded_range = delta_prime.and_then(|d| {
        let width = exponential_mechanism_range(selection.epsilon());
        let selections = bounded_range_concentration_composition(width, k as u64, d).ok()?;
        basic_composition(&[sanitizer, selections]).ok()
    });
    Ok(Lemma37 {
        basic,
        advanced,
        optimal,
        bounded_range,
    })
}

/// The form of Lemma 3.7 (or its optimal refinement) a budget split is solved for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Basic,
    Advanced,
    Optimal,
    BoundedRange,
}

/// Lowers the sanitizer's (ε, δ) and ε′ together by a relative 10⁻¹² per step until
/// Lemma 3.7's guarantee (the one `delta_prime` selects, and the reported best) fits
/// `total` after rounding up; returns the sanitizer's guarantee and ε′.
fn fit_selection(
    sanitizer: Privacy,
    epsilon0: f64,
    delta_prime: Option<f64>,
    form: Form,
    k: usize,
    total: Privacy,
) -> Option<(Privacy, f64)> {
    let mut factor = 1.0;
    for _ in 0..64 {
        let san = Privacy::new(sanitizer.epsilon() * factor, sanitizer.delta() * factor).ok()?;
        let epsilon = epsilon0 * factor;
        let selection = Privacy::pure(epsilon).ok()?;
        let both = lemma_3_7(san, selection, k, delta_prime).ok()?;
        let fits = |p: Privacy| p.epsilon() <= total.epsilon() && p.delta() <= total.delta();
        let chosen = match form {
            Form::Basic => both.basic,
            Form::Advanced => both.advanced?,
            Form::Optimal => both.optimal?,
            Form::BoundedRange => both.bounded_range?,
        };
        if fits(chosen) && fits(both.best()) {
            return Some((san, epsilon));
        }
        factor *= 1.0 - 1e-12;
    }
    None
}

impl MultiLearner for SanitizerMultiLearner {
    /// # Errors
    /// [`Error::LabelCountMismatch`] unless the sample has k columns;
    /// [`Error::DomainMismatch`]; [`Error::EmptySample`]; [`Error::Learner`] from the cover
    /// and the selections.
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &MultiLabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Vec<Predictor>> {
        check_columns_and_domain(class, sample, self.k)?;
        if sample.is_empty() {
            return Err(Error::EmptySample);
        }
        let cover = self.cover(class, sample, rng)?;
        (0..self.k)
            .map(|j| {
                Ok(cover
                    .select(class, &sample.column(j)?, &self.mechanism, rng)?
                    .into())
            })
            .collect()
    }

    fn guarantee(&self, _examples: usize, k: usize) -> Guarantee {
        self.guarantees(k).map_or(Guarantee::None, |g| {
            Guarantee::DifferentialPrivacy(g.best())
        })
    }

    fn name(&self) -> String {
        format!("generic({})", self.sanitizer.name())
    }

    /// Per column: the selection's ε′ (pure; column j's exponential mechanism), and the
    /// rule of [`Lemma37`] that gives the reported total for the k selections, plus the one
    /// sanitization at (ε, δ) that every column shares (basic composition with it). The
    /// per-column budget is not a split of the total: the sanitizer's share is paid once.
    fn column_split(&self) -> Option<(Privacy, &'static str)> {
        let lemma = self.guarantees(self.k).ok()?;
        let best = Some(lemma.best());
        let rule = if best == Some(lemma.basic) {
            "basic, plus one sanitization shared by all columns"
        } else if best == lemma.advanced {
            "advanced, plus one sanitization shared by all columns"
        } else if best == lemma.optimal {
            "optimal, plus one sanitization shared by all columns"
        } else {
            "bounded-range (concentration), plus one sanitization shared by all columns"
        };
        Some((self.selection, rule))
    }
}

#[cfg(test)]
mod tests {
    use privpac_classes::{Domain, Points, Thresholds, Xor};
    use privpac_sanitizers::{BlumLigettRoth, SyntheticDatabase};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::sample::multi_error;

    /// Row kind t over X = {0, 1, 2} with k = 2: x = t % 3, labels (t / 3) as 2 bits.
    fn row(t: usize) -> (u64, [bool; 2]) {
        ((t % 3) as u64, [(t / 3) & 1 == 1, (t / 3) & 2 == 2])
    }

    fn sample_of(class: &Points, kinds: &[usize]) -> MultiLabeledSample {
        let rows: Vec<(u64, [bool; 2])> = kinds.iter().map(|&t| row(t)).collect();
        MultiLabeledSample::from_rows(
            class.domain(),
            rows.iter().map(|r| r.0).collect(),
            &rows.iter().map(|r| r.1).collect::<Vec<_>>(),
        )
        .unwrap()
    }

    /// The exact output distribution of Algorithm 2 with BLR (m = 1) on a 2-labeled sample:
    /// Σ over BLR outputs D̂ of Pr[D̂] · Π_j EM_j(h_j | H(D̂)), over (h_1, h_2) ∈ C².
    fn exact_distribution(
        blr: &BlumLigettRoth,
        mechanism: &ExponentialMechanism,
        class: &Points,
        sample: &MultiLabeledSample,
    ) -> Vec<f64> {
        let size = class.len() as usize;
        let mut out = vec![0.0; size * size];
        let xor = Xor::new(class).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        for (database, p) in blr.output_distribution(&xor, sample.points()).unwrap() {
            let synthetic = SyntheticDatabase::from_points(class.domain(), database).unwrap();
            let cover = SanitizedCover::from_synthetic(&synthetic, class, 64, &mut rng).unwrap();
            let per_column: Vec<Vec<f64>> = (0..2)
                .map(|j| {
                    let scores = cover.scores(class, &sample.column(j).unwrap()).unwrap();
                    mechanism
                        .log_probabilities_integer(&scores)
                        .unwrap()
                        .into_iter()
                        .map(f64::exp)
                        .collect()
                })
                .collect();
            for (a, &ha) in cover.hypotheses().iter().enumerate() {
                for (b, &hb) in cover.hypotheses().iter().enumerate() {
                    out[ha as usize * size + hb as usize] +=
                        p * per_column[0][a] * per_column[1][b];
                }
            }
        }
        out
    }

    #[test]
    fn algorithm_2_with_blr_meets_lemma_3_7_exactly() {
        let class = Points::new(Domain::ordered(3).unwrap());
        let blr = BlumLigettRoth::new(Privacy::pure(0.5).unwrap(), 1).unwrap();
        let learner = SanitizerMultiLearner::new(Box::new(blr.clone()), 1.0, 2).unwrap();
        assert_eq!(learner.advanced_delta(), None); // pure sanitizer: basic only
        let claimed = learner.guarantee(2, 2).privacy().unwrap();
        assert!(claimed.is_pure());
        assert!(
            claimed.epsilon() >= 2.5 && claimed.epsilon() < 2.5 + 1e-12,
            "{claimed:?}"
        );
        // All ordered 2-row samples over 12 row kinds, and every one-row replacement.
        let mut pairs = Vec::new();
        for a in 0..12 {
            for b in 0..12 {
                let p = exact_distribution(
                    &blr,
                    learner.mechanism(),
                    &class,
                    &sample_of(&class, &[a, b]),
                );
                for c in 0..12 {
                    if c != b {
                        let q = exact_distribution(
                            &blr,
                            learner.mechanism(),
                            &class,
                            &sample_of(&class, &[a, c]),
                        );
                        pairs.push((p.clone(), q));
                    }
                }
            }
        }
        let report = privpac_audit::check_pure_claim(
            pairs.iter().map(|(p, q)| (p, q)),
            claimed.epsilon(),
            1e-9,
        )
        .unwrap();
        // The k selections together are what the claim pays for: the worst pair's loss is
        // above the sanitizer plus one selection.
        assert!(report.worst_epsilon > 1.5 + 1e-6, "{report:?}");
        // Negative control: a variant that forgets the factor k (ε + ε′) must fail.
        let control = privpac_audit::check_pure_claim(pairs.iter().map(|(p, q)| (p, q)), 1.5, 1e-9);
        assert!(control.is_err(), "{control:?}");
    }

    /// Issue 29 §4: the k selections are split by the bounded-range form (about 1.5 times
    /// the optimal form's ε′ at k = 256), validated against the total.
    #[test]
    fn selections_are_split_as_bounded_range_mechanisms() {
        let total = Privacy::new(1.0, 1e-6).unwrap();
        let k = 256;
        let learner = SanitizerMultiLearner::corollary_3_9(total, k, 0.1).unwrap();
        let optimal = optimal_step_epsilon(0.5, k as u64, 0.0, 5e-7 * (1.0 - 1e-5)).unwrap();
        let selection = learner.selection().epsilon();
        assert!(selection > 1.5 * optimal, "{selection} vs {optimal}");
        let g = learner.guarantees(k).unwrap();
        assert_eq!(g.best(), g.bounded_range.unwrap());
        assert!(
            g.best().epsilon() <= 1.0 && g.best().delta() <= 1e-6,
            "{g:?}"
        );
    }

    #[test]
    fn lemma_3_7_guarantees_match_the_formulas_and_round_up() {
        let san = Privacy::new(1.0, 1e-6).unwrap();
        let sel = Privacy::pure(0.01).unwrap();
        let g = lemma_3_7(san, sel, 100, Some(1e-6)).unwrap();
        assert!(g.basic.epsilon() >= 2.0 && g.basic.epsilon() < 2.0 + 1e-12);
        assert!(g.basic.delta() >= 1e-6 && g.basic.delta() < 1e-6 * (1.0 + 1e-12));
        let adv = g.advanced.unwrap();
        let formula = 1.0 + (200.0 * (1e6f64).ln()).sqrt() * 0.01 + 200.0 * 1e-4;
        assert!(adv.epsilon() >= formula && adv.epsilon() < formula + 1e-12);
        assert!(adv.delta() >= 2e-6 && adv.delta() < 2e-6 * (1.0 + 1e-12));
        // The optimal form: the sanitizer plus optimal_composition of the selections, below
        // the advanced form; it is the one reported (1.39 < 1.55 < 2).
        let opt = g.optimal.unwrap();
        let selections = privpac_accounting::optimal_composition(sel, 100, 1e-6).unwrap();
        assert!(opt.epsilon() >= 1.0 + selections.epsilon() && opt.epsilon() < adv.epsilon());
        assert_eq!(opt.delta(), adv.delta());
        // The bounded-range form (the selections are exponential mechanisms): the
        // sanitizer plus the concentration bound of the selections' width ε′ + 4η, below
        // the optimal form; it is the one reported.
        let br = g.bounded_range.unwrap();
        let width = privpac_mechanisms::exponential_mechanism_range(0.01);
        let selections = bounded_range_concentration_composition(width, 100, 1e-6).unwrap();
        let formula = 100.0 * width * width / 8.0 + width * (50.0 * (1e6f64).ln()).sqrt();
        assert!(selections.epsilon() >= formula && selections.epsilon() < formula + 1e-12);
        assert!(br.epsilon() >= 1.0 + selections.epsilon() && br.epsilon() < opt.epsilon());
        assert!(br.epsilon() < 1.0 + selections.epsilon() + 1e-12);
        assert_eq!(br.delta(), adv.delta());
        assert_eq!(g.best(), br);
        // For k = 1 advanced composition loses to basic; the optimal form trades the slack
        // δ′ for a sliver of ε (one ε′-DP run is also (ε′ − 2·10⁻⁶, δ′)-DP).
        let one = lemma_3_7(san, sel, 1, Some(1e-6)).unwrap();
        assert!(one.advanced.unwrap().epsilon() > one.basic.epsilon());
        let sliver = one.basic.epsilon() - one.optimal.unwrap().epsilon();
        assert!(sliver > 0.0 && sliver < 1e-5, "{one:?}");
        assert_eq!(lemma_3_7(san, sel, 0, None), Err(Error::NoLabelColumns));
    }

    #[test]
    fn totals_are_split_and_met() {
        for (total, k) in [
            (Privacy::pure(2.0).unwrap(), 4),
            (Privacy::new(1.0, 1e-6).unwrap(), 1),
            (Privacy::new(1.0, 1e-6).unwrap(), 64),
            (Privacy::new(4.0, 1e-5).unwrap(), 1000),
        ] {
            let learner = SanitizerMultiLearner::corollary_3_9(total, k, 0.1)
                .or_else(|_| {
                    SanitizerMultiLearner::for_total(total, k, &|p| {
                        Ok(Box::new(BlumLigettRoth::new(p, 2)?) as Box<dyn Sanitizer>)
                    })
                })
                .unwrap();
            let reported = learner.guarantee(100, k).privacy().unwrap();
            assert!(
                reported.epsilon() <= total.epsilon(),
                "{total:?} {k}: {reported:?}"
            );
            assert!(
                reported.delta() <= total.delta(),
                "{total:?} {k}: {reported:?}"
            );
            // The split does not waste more than half of ε.
            assert!(reported.epsilon() >= 0.5 * total.epsilon(), "{reported:?}");
        }
        // Large k: the advanced split gives a larger ε′ than ε/(2k).
        let big = SanitizerMultiLearner::corollary_3_9(Privacy::new(4.0, 1e-5).unwrap(), 1000, 0.1)
            .unwrap();
        assert!(
            big.selection().epsilon() > 2.0 / 1000.0,
            "{:?}",
            big.selection()
        );
        assert!(big.advanced_delta().is_some());
    }

    /// The per-column form: ε′ per selection, composed by the rule that gives the
    /// reported total, with the shared sanitization named.
    #[test]
    fn column_split_is_the_selection_budget_and_the_reported_rule() {
        let blr = BlumLigettRoth::new(Privacy::pure(0.5).unwrap(), 1).unwrap();
        let learner = SanitizerMultiLearner::new(Box::new(blr), 1.0, 2).unwrap();
        let (per_column, rule) = learner.column_split().unwrap();
        assert_eq!(per_column, Privacy::pure(1.0).unwrap());
        assert_eq!(rule, "basic, plus one sanitization shared by all columns");
        // With δ′ (an approximate budget) at 64 columns a tighter rule than basic wins, and
        // the per-column budget is still the selections' pure ε′.
        let total = Privacy::new(1.0, 1e-6).unwrap();
        let learner = SanitizerMultiLearner::corollary_3_9(total, 64, 0.1).unwrap();
        let (per_column, rule) = learner.column_split().unwrap();
        assert!(per_column.is_pure() && per_column.epsilon() < total.epsilon());
        assert!(!rule.starts_with("basic"), "{rule}");
        assert!(
            rule.ends_with("plus one sanitization shared by all columns"),
            "{rule}"
        );
    }

    #[test]
    fn typed_errors() {
        let blr = || Box::new(BlumLigettRoth::new(Privacy::pure(1.0).unwrap(), 1).unwrap());
        assert_eq!(
            SanitizerMultiLearner::new(blr(), 1.0, 0).err(),
            Some(Error::NoLabelColumns)
        );
        assert!(matches!(
            SanitizerMultiLearner::corollary_3_9(Privacy::pure(1.0).unwrap(), 2, 0.1),
            Err(Error::DeltaRequired { .. })
        ));
        assert!(matches!(
            SanitizerMultiLearner::threshold_tree(Privacy::pure(1e-9).unwrap(), 1 << 20),
            Err(Error::BudgetTooSmall { .. })
        ));
        assert!(matches!(
            SanitizerMultiLearner::new(blr(), 1.0, 1)
                .unwrap()
                .with_advanced_delta(Some(1.5)),
            Err(Error::InvalidParameter { .. })
        ));
        // BLR refuses δ > 0: the sanitizer's error is passed through.
        assert!(matches!(
            SanitizerMultiLearner::for_total(Privacy::new(1.0, 1e-6).unwrap(), 2, &|p| {
                Ok(Box::new(BlumLigettRoth::new(p, 1)?) as Box<dyn Sanitizer>)
            }),
            Err(Error::Sanitizer(_))
        ));
        let class = Points::new(Domain::ordered(3).unwrap());
        let learner = SanitizerMultiLearner::new(blr(), 1.0, 2).unwrap();
        let three = MultiLabeledSample::label_with(&class, vec![0, 1, 2], &[0, 1, 2]).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert_eq!(
            learner.learn(&class, &three, &mut rng).err(),
            Some(Error::LabelCountMismatch {
                expected: 2,
                found: 3
            })
        );
        let other = Points::new(Domain::ordered(4).unwrap());
        let wrong = MultiLabeledSample::label_with(&other, vec![0, 1], &[0, 1]).unwrap();
        assert!(matches!(
            learner.learn(&class, &wrong, &mut rng),
            Err(Error::DomainMismatch { .. })
        ));
    }

    #[test]
    fn corollary_3_9_and_the_tree_construction_learn() {
        // Points over [64]: mass on four points, k = 8 targets among them (seeded).
        let class = Points::new(Domain::ordered(64).unwrap());
        let support = [3u64, 17, 40, 63];
        let distribution: Vec<(u64, f64)> = support.iter().map(|&x| (x, 0.25)).collect();
        let targets: Vec<u64> = (0..8).map(|j| support[j % 4]).collect();
        let points: Vec<u64> = (0..4000).map(|i| support[i % 4]).collect();
        let sample = MultiLabeledSample::label_with(&class, points, &targets).unwrap();
        let learner =
            SanitizerMultiLearner::corollary_3_9(Privacy::new(2.0, 1e-6).unwrap(), 8, 0.1).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let h = learner.learn(&class, &sample, &mut rng).unwrap();
        assert_eq!(
            multi_error(&class, &h, &targets, &distribution).unwrap(),
            0.0
        );
        // Thresholds over [128], uniform, k = 4 (tree sanitizer, pure).
        let class = Thresholds::new(128).unwrap();
        let uniform: Vec<(u64, f64)> = (0..128).map(|x| (x, 1.0 / 128.0)).collect();
        let targets = [10u64, 40, 64, 100];
        let points: Vec<u64> = (0..4000u64).map(|i| (i * 37) % 128).collect();
        let sample = MultiLabeledSample::label_with(&class, points, &targets).unwrap();
        let learner =
            SanitizerMultiLearner::threshold_tree(Privacy::pure(4.0).unwrap(), 4).unwrap();
        assert!(learner.guarantee(4000, 4).privacy().unwrap().epsilon() <= 4.0);
        let h = learner.learn(&class, &sample, &mut rng).unwrap();
        assert!(multi_error(&class, &h, &targets, &uniform).unwrap() <= 0.1);
    }

    /// A sanitizer that reports a guarantee a little above the one it was built with (as
    /// one that composes internal steps and rounds up would).
    #[derive(Debug)]
    struct OverReporting(BlumLigettRoth, Privacy);

    impl privpac_accounting::Private for OverReporting {
        fn privacy(&self) -> Privacy {
            Privacy::new(self.1.epsilon() * (1.0 + 1e-13), 0.0).unwrap()
        }
    }

    impl Sanitizer for OverReporting {
        fn sanitize(
            &self,
            class: &dyn ConceptClass,
            data: &[privpac_classes::Point],
            rng: &mut dyn rand::Rng,
        ) -> privpac_sanitizers::Result<SyntheticDatabase> {
            self.0.sanitize(class, data, rng)
        }

        fn name(&self) -> String {
            "over-reporting".into()
        }
    }

    #[test]
    fn for_total_fits_the_sanitizers_reported_guarantee() {
        let total = Privacy::pure(2.0).unwrap();
        let learner = SanitizerMultiLearner::for_total(total, 4, &|p| {
            Ok(Box::new(OverReporting(BlumLigettRoth::new(p, 1)?, p)) as Box<dyn Sanitizer>)
        })
        .unwrap();
        let reported = learner.guarantee(10, 4).privacy().unwrap();
        assert!(reported.epsilon() <= 2.0, "{reported:?}");
        // Without the refit, the reported guarantee would exceed the total.
        let naive = lemma_3_7(
            Privacy::pure(1.0 * (1.0 + 1e-13)).unwrap(),
            Privacy::pure(0.25).unwrap(),
            4,
            None,
        )
        .unwrap();
        assert!(naive.best().epsilon() > 2.0, "{naive:?}");
    }
}
