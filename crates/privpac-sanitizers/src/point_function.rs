//! The point-function sanitizer for `POINT_X`: a thresholded (stability-based) histogram
//! of the points present in the data, then a small database rebuilt from it.

use privpac_accounting::{Privacy, Private};
use privpac_classes::{ConceptClass, Domain, Point, ThresholdStructure};
use privpac_mechanisms::{DiscreteLaplace, RandomBits};
use rand::Rng;

use crate::Sanitizer;
use crate::error::{Error, Result};
use crate::pieces::PiecewiseDistribution;
use crate::synthetic::SyntheticDatabase;

/// The largest synthetic database the reconstruction builds.
pub const MAX_DATABASE_SIZE: usize = 1 << 26;

/// The point-function sanitizer for `POINT_X`: a stability-based histogram in the role of
/// Bun–Nissim–Stemmer's Algorithm 1 (Proposition 2.20), private for every data size (see
/// the sample-complexity section for how it differs from theirs).
///
/// On data `D ∈ X^n` with counts `h_x`, for every point **present in the data** (only
/// those) it draws `ĥ_x = h_x + Z_x`, `Z_x ~ Lap_Z(2/ε)` exactly, and releases
/// `(x, ĥ_x)` if `ĥ_x ≥ τ` ([`Self::release`]). From the released pairs it rebuilds a
/// multiset of `m = ⌈2/α⌉` points ([`Self::reconstruct`], post-processing): `⌊t_x − λ⌋`
/// copies of each released `x`, where `t_x = ĥ_x·m/n` and `λ ≥ 0` is the smallest level
/// with `Σ_x max(t_x − λ, 0) ≤ m` (a uniform cut when the noisy mass exceeds 1); the
/// remaining copies go one each to the first domain points (in enumeration order) that
/// were not released.
///
/// # Privacy
/// (ε, δ)-differentially private for data sets that differ in one replaced point, with
/// δ > 0 required. **Calibration:** `b = 2/ε` (read exactly from the `f64` ε), and
/// `τ = k + 1` for the smallest integer `k ≥ 1` with
/// `s := Pr[Z ≥ k] = e^{−k/b} / (1 + e^{−1/b}) ≤ δ` (checked with a relative margin of
/// 10^-9; [`Self::release_delta`] reports `s`).
///
/// *Proof.* The release is a product over points of independent coordinates `o_x ∈ {⊥} ∪
/// {τ, τ+1, …}`. Replacing `u` by `v` changes only `h_u` (down by 1) and `h_v` (up by 1).
/// Per changed coordinate the pair of distributions is of one of two kinds:
/// 1. *shift* (`h ≥ 1` on both sides): released values are `h + Z` vs `h ± 1 + Z`, and
///    `Pr[⊥] = Pr[Z ≤ τ−1−h]`; since `pmf(j+1) ≤ e^{1/b} pmf(j)` for all `j`, every
///    outcome's probability changes by a factor at most `e^{1/b} = e^{ε/2}`, both ways;
/// 2. *appear* (`h = 1` vs `h = 0`): `P = ` "released with probability `s`" vs `Q = δ_⊥`.
///    For every `a ≥ 0`, `H_{e^a}(P‖Q) = s` and `H_{e^a}(Q‖P) = max(0, 1 − e^a(1−s)) ≤ s`,
///    so the pair is `(0, s)`-indistinguishable.
///
/// For a product of an `e^{a₁}`-pure pair and a pair with `H_{e^{a₂}} ≤ s`,
/// `H_{e^{a₁+a₂}}(P₁P₂‖Q₁Q₂) ≤ Σ P₁(o)·H_{e^{a₂}}(P₂‖Q₂) ≤ s`. Hence: two shifts give
/// `e^{2/b} = e^ε` (pure); a shift and an appear give `(ε/2, s)`; two appears (`u` leaves,
/// `v` arrives) give, computing the product directly, `H_{e^ε}(P_u×δ_⊥ ‖ δ_⊥×P_v) = s`
/// (the only outcomes where the first exceeds the second release `u`). In every case the
/// release is `(ε, s)`-DP with `s ≤ δ`; the reconstruction is post-processing. The noise is
/// sampled exactly; `s` is evaluated in floating point with the margin above. The claim is
/// checked exactly with `privpac-audit` on tiny domains (all neighbouring data sets, exact
/// output distributions), and the measured δ matches `s`.
///
/// # Sample complexity
/// Let `t = b·ln(2n/β)`. With probability at least `1 − β` every noise `|Z_x|` over the
/// at most n present points is at most `t` (`Pr[|Z| ≥ t] ≤ 2e^{−t/b}`). Then, whenever
/// `|X| ≥ n + m` (so every leftover copy has its own filler point), for every point `x`:
/// released points are off by at most `2t/n + 1/m` (the cut satisfies `λ ≤ m·t/n`, since
/// `Σ max(ĥ_x − t, 0) ≤ Σ h_x ≤ n`); unreleased points have `h_x ≤ τ − 1 + t` and at most
/// one synthetic copy. So `max_x |c_x(D) − c_x(D̂)| ≤ max(2t/n + 1/m, (τ − 1 + t)/n)`
/// ([`Self::error_bound`]), which is at most α for `m = ⌈2/α⌉` once
/// `n ≥ max(4t, τ − 1 + t)/α`, i.e. `n = O((ln(1/δ) + ln(n/β))/(αε))`.
/// Bun–Nissim–Stemmer's Proposition 2.20 states `n = O(log(1/(αβδ))/(αε))` for their
/// Algorithm 1, which releases 0 for frequencies at most α/4, adds `Lap(2/(εn))` to the
/// others and releases 0 again below α/2; their union bound runs over the at most 4/α
/// heavy points, which gives `ln(1/α)` where ours over the present points gives `ln n`.
/// The difference that matters for privacy: their argument needs
/// `½·exp(−εnα/8 + ε/2) ≤ δ/2`, i.e. `n ≥ 8·ln(1/δ)/(εα) + 4/α`, and below that size the
/// literal algorithm is not (ε, δ)-DP; this sanitizer noises only the points present in
/// the data and thresholds the *noisy* count at τ calibrated to δ, so it is private for
/// every n.
///
/// # Running time
/// O(n log n + m), independent of |X|: only points present in the data get noise, and the
/// reconstruction walks at most `m + (released points)` domain indices. |X| = 2^40 with
/// n = 10^5 takes milliseconds.
///
/// # Errors
/// Construction: [`Error::DeltaRequired`] for δ = 0, [`Error::InvalidParameter`] unless
/// `2^-25 ≤ α ≤ 1`, [`Error::Mechanism`] if `2/ε` is not a representable noise scale.
/// Sanitizing: [`Error::EmptyData`], [`Error::Class`] for a point outside the domain.
///
/// # Example
/// ```
/// use privpac_classes::{ConceptClass, Domain, Points};
/// use privpac_accounting::Privacy;
/// use rand::SeedableRng;
/// use privpac_sanitizers::{PointSanitizer, Sanitizer, max_query_error};
///
/// let class = Points::new(Domain::ordered(1 << 40)?);
/// let data: Vec<u64> = (0..20_000).map(|i| [7, 1 << 39, 12345][i % 3]).collect();
/// let sanitizer = PointSanitizer::new(Privacy::new(1.0, 1e-6)?, 0.05)?;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let synthetic = sanitizer.sanitize(&class, &data, &mut rng)?;
/// assert_eq!(synthetic.points().map(<[u64]>::len), Some(40)); // m = ⌈2/α⌉
/// let (error, _) = max_query_error(&class, &data, &synthetic)?;
/// assert!(error <= sanitizer.error_bound(class.domain(), data.len(), 1e-6)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # References
/// M. Bun, K. Nissim, U. Stemmer, "Simultaneous private learning of multiple concepts",
/// ITCS 2016 / JMLR 2019. A. Korolova, K. Kenthapadi, N. Mishra, A. Ntoulas, "Releasing
/// search queries and clicks privately", WWW 2009 (the thresholded histogram).
/// S. Vadhan, "The complexity of differential privacy" (2017), §3 (stability-based
/// histograms).
#[derive(Debug, Clone, PartialEq)]
pub struct PointSanitizer {
    privacy: Privacy,
    noise: DiscreteLaplace,
    threshold: i64,
    release_delta: f64,
    database_size: usize,
}

impl PointSanitizer {
    /// Builds the sanitizer for a target accuracy α (the database size is `⌈2/α⌉`).
    ///
    /// # Errors
    /// See the type documentation.
    pub fn new(privacy: Privacy, alpha: f64) -> Result<Self> {
        if privacy.is_pure() {
            return Err(Error::DeltaRequired {
                algorithm: "the point-function sanitizer",
            });
        }
        if !(alpha.is_finite() && (1.0 / (1u64 << 25) as f64..=1.0).contains(&alpha)) {
            return Err(Error::InvalidParameter {
                name: "alpha",
                requirement: "in [2^-25, 1]",
                value: alpha,
            });
        }
        let noise = DiscreteLaplace::for_epsilon(privacy.epsilon(), 2)?;
        let (threshold, release_delta) = calibrate_threshold(noise, privacy.delta());
        Ok(PointSanitizer {
            privacy,
            noise,
            threshold,
            release_delta,
            database_size: (2.0 / alpha).ceil() as usize,
        })
    }

    /// Sets the size m of the rebuilt database.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `1 ≤ m ≤` [`MAX_DATABASE_SIZE`].
    pub fn with_database_size(mut self, m: usize) -> Result<Self> {
        if !(1..=MAX_DATABASE_SIZE).contains(&m) {
            return Err(Error::InvalidParameter {
                name: "database size",
                requirement: "in 1..=2^26",
                value: m as f64,
            });
        }
        self.database_size = m;
        Ok(self)
    }

    /// The threshold τ: a noisy count is released iff it is at least τ.
    pub fn threshold(&self) -> i64 {
        self.threshold
    }

    /// The noise `Lap_Z(2/ε)` added to each present point's count.
    pub fn noise(&self) -> DiscreteLaplace {
        self.noise
    }

    /// `s = Pr[Z ≥ τ − 1]`: the probability that a point with count 1 is released, which
    /// is the exact δ of the release (at most the δ the sanitizer was built with).
    pub fn release_delta(&self) -> f64 {
        self.release_delta
    }

    /// The size m of the rebuilt database.
    pub fn database_size(&self) -> usize {
        self.database_size
    }

    /// The private step: the noisy counts `(x, ĥ_x)` with `ĥ_x ≥ τ`, for the points present
    /// in `data`, in increasing point order.
    ///
    /// # Errors
    /// [`Error::EmptyData`]; [`Error::Class`] for a point outside `domain`.
    pub fn release<R: Rng + ?Sized>(
        &self,
        domain: &Domain,
        data: &[Point],
        rng: &mut R,
    ) -> Result<Vec<(Point, i64)>> {
        if data.is_empty() {
            return Err(Error::EmptyData);
        }
        for &x in data {
            domain.check(x)?;
        }
        let mut sorted = data.to_vec();
        sorted.sort_unstable();
        let mut bits = RandomBits::new(rng);
        let mut released = Vec::new();
        let mut i = 0;
        while i < sorted.len() {
            let x = sorted[i];
            let run = sorted[i..].partition_point(|&y| y == x);
            i += run;
            let noisy = (run as i64).saturating_add(self.noise.sample_bits(&mut bits));
            if noisy >= self.threshold {
                released.push((x, noisy));
            }
        }
        Ok(released)
    }

    /// Post-processing: rebuilds a multiset of m points from released noisy counts of a
    /// data set of size `n` (see the type documentation for the rule).
    ///
    /// # Errors
    /// [`Error::EmptyData`] for `n = 0`; [`Error::Class`] for a released point outside
    /// `domain`; [`Error::InvalidParameter`] for a released count below 1 or repeated or
    /// unsorted points.
    pub fn reconstruct(
        &self,
        domain: &Domain,
        n: usize,
        released: &[(Point, i64)],
    ) -> Result<SyntheticDatabase> {
        if n == 0 {
            return Err(Error::EmptyData);
        }
        for (index, &(x, count)) in released.iter().enumerate() {
            domain.check(x)?;
            if count < 1 {
                return Err(Error::InvalidParameter {
                    name: "released count",
                    requirement: "at least 1",
                    value: count as f64,
                });
            }
            if index > 0 && released[index - 1].0 >= x {
                return Err(Error::InvalidParameter {
                    name: "released point",
                    requirement: "strictly increasing",
                    value: x as f64,
                });
            }
        }
        let m = self.database_size;
        let targets: Vec<f64> = released
            .iter()
            .map(|&(_, count)| count as f64 * m as f64 / n as f64)
            .collect();
        let cut = water_level(&targets, m as f64);
        let mut copies: Vec<usize> = targets
            .iter()
            .map(|&t| (t - cut).max(0.0).floor() as usize)
            .collect();
        // Floating-point slack: never exceed m copies.
        let mut total: usize = copies.iter().sum();
        while total > m {
            if let Some(largest) = copies.iter_mut().max() {
                *largest -= 1;
            }
            total -= 1;
        }
        let mut points: Vec<Point> = Vec::with_capacity(m);
        for (&(x, _), &k) in released.iter().zip(&copies) {
            points.extend(std::iter::repeat_n(x, k));
        }
        let leftover = m - total;
        let fillers = filler_points(domain, released, leftover);
        let pool: Vec<Point> = if fillers.is_empty() {
            released.iter().map(|p| p.0).collect()
        } else {
            fillers
        };
        points.extend(pool.iter().cycle().take(leftover));
        SyntheticDatabase::from_points(domain, points)
    }

    /// [`Self::sanitize`] on the domain `[size]` (the same draws, so the same guarantee),
    /// with the rebuilt database as a [`PiecewiseDistribution`]: mass `k/m` on each point
    /// with k copies, zero on the gaps between them. O(n log n + m) whatever `size` is.
    ///
    /// # Errors
    /// As [`Self::sanitize`]; [`Error::InvalidParameter`] for size 0.
    pub fn threshold_pieces<R: Rng + ?Sized>(
        &self,
        size: u64,
        data: &[Point],
        rng: &mut R,
    ) -> Result<PiecewiseDistribution> {
        let domain = Domain::ordered(size)?;
        let released = self.release(&domain, data, rng)?;
        let database = self.reconstruct(&domain, data.len(), &released)?;
        PiecewiseDistribution::from_sparse_point_weights(size, &database.weights())
    }

    /// The accuracy bound of the type documentation, `max(2t/n + 1/m, (τ − 1 + t)/n)` with
    /// `t = (2/ε)·ln(2n/β)`: with probability at least `1 − β` the sanitizer's output on
    /// any data set of size n has max point-query error at most this.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `0 < β < 1` and `n ≥ 1`, and when
    /// `|X| < n + m` (the bound needs a filler point per leftover copy).
    pub fn error_bound(&self, domain: &Domain, n: usize, beta: f64) -> Result<f64> {
        if !(beta > 0.0 && beta < 1.0) {
            return Err(Error::InvalidParameter {
                name: "beta",
                requirement: "in (0, 1)",
                value: beta,
            });
        }
        let m = self.database_size;
        if n == 0 || domain.size() < (n as u128) + (m as u128) {
            return Err(Error::InvalidParameter {
                name: "n",
                requirement: "at least 1, with |X| >= n + m",
                value: n as f64,
            });
        }
        let n_f = n as f64;
        let t = self.noise.scale() * (2.0 * n_f / beta).ln();
        let released = 2.0 * t / n_f + 1.0 / m as f64;
        let unreleased = (self.threshold as f64 - 1.0 + t) / n_f;
        Ok(released.max(unreleased))
    }
}

/// The threshold τ = k + 1 for the smallest k ≥ 1 with `Pr[Z ≥ k] ≤ δ`, and that
/// probability. Works with logarithms (`ln Pr[Z ≥ k] = −k/b − ln(1 + e^{−1/b})`), so that
/// tiny δ and large b neither underflow nor take long: the closed-form guess is off by at
/// most a step or two, which the bounded loops correct.
fn calibrate_threshold(noise: DiscreteLaplace, delta: f64) -> (i64, f64) {
    let b = noise.scale();
    let log_normalizer = (1.0 + (-1.0 / b).exp()).ln();
    let log_tail = |k: f64| -k / b - log_normalizer;
    let log_target = delta.ln() + (-1e-9f64).ln_1p();
    let guess = (b * (-log_target - log_normalizer)).ceil();
    let mut k = if guess.is_finite() {
        guess.max(1.0)
    } else {
        1.0
    };
    for _ in 0..64 {
        if log_tail(k) <= log_target {
            break;
        }
        k += 1.0;
    }
    for _ in 0..64 {
        if k <= 1.0 || log_tail(k - 1.0) > log_target {
            break;
        }
        k -= 1.0;
    }
    (k as i64 + 1, log_tail(k).exp())
}

/// The smallest `λ ≥ 0` with `Σ max(t_i − λ, 0) ≤ m` (0 if the targets already fit).
fn water_level(targets: &[f64], m: f64) -> f64 {
    let total: f64 = targets.iter().sum();
    if total <= m {
        return 0.0;
    }
    let mut sorted = targets.to_vec();
    sorted.sort_unstable_by(|a, b| b.total_cmp(a));
    let mut prefix = 0.0;
    for (j, &t) in sorted.iter().enumerate() {
        prefix += t;
        let level = (prefix - m) / (j + 1) as f64;
        let next = sorted.get(j + 1).copied().unwrap_or(0.0);
        if level >= next && level <= t {
            return level.max(0.0);
        }
    }
    sorted.first().copied().unwrap_or(0.0)
}

/// Up to `count` domain points, in enumeration order, that are not among the released
/// points. Walks at most `count + released.len()` indices, whatever |X| is.
fn filler_points(domain: &Domain, released: &[(Point, i64)], count: usize) -> Vec<Point> {
    let mut out = Vec::with_capacity(count);
    let size = domain.size();
    let mut index: u64 = 0;
    while out.len() < count && u128::from(index) < size {
        if let Some(x) = domain.point_at(index)
            && released.binary_search_by_key(&x, |p| p.0).is_err()
        {
            out.push(x);
        }
        index += 1;
    }
    out
}

impl Private for PointSanitizer {
    fn privacy(&self) -> Privacy {
        self.privacy
    }
}

impl Sanitizer for PointSanitizer {
    /// Releases thresholded noisy counts of the points of `data` and rebuilds a multiset;
    /// `class` only supplies the domain (the accuracy guarantee is for `POINT_X`).
    fn sanitize(
        &self,
        class: &dyn ConceptClass,
        data: &[Point],
        rng: &mut dyn Rng,
    ) -> Result<SyntheticDatabase> {
        let released = self.release(class.domain(), data, rng)?;
        self.reconstruct(class.domain(), data.len(), &released)
    }

    fn name(&self) -> String {
        "point".into()
    }

    /// The output reads no query (a thresholded histogram of the data over the domain), so
    /// on the XOR class of thresholds it is [`Self::sanitize`] with the same draws on the
    /// domain `[N]` alone, as pieces ([`Self::threshold_pieces`]: one per synthetic point,
    /// one zero-mass piece per gap). `None` (the class path, with the same output and the
    /// same learner draws as before) while the XOR class's ids exist (at most 2^32 inner
    /// concepts: N ≤ 2^32 thresholds, N ≤ 2^31 for both orientations); the pieces above,
    /// where [`privpac_classes::Xor`] would refuse a class the sanitizer never reads.
    fn sanitize_threshold_xor(
        &self,
        class: ThresholdStructure,
        data: &[Point],
        rng: &mut dyn Rng,
    ) -> Option<Result<PiecewiseDistribution>> {
        let size = class.domain_size();
        let inner = u128::from(size) * u128::from(class.orientations());
        if inner <= u128::from(u32::MAX) + 1 {
            return None;
        }
        Some(self.threshold_pieces(size, data, rng))
    }

    /// The output reads no query (a thresholded histogram of the data over the domain):
    /// [`Self::sanitize`] with the same draws, on the domain `[N]` alone.
    fn sanitize_interval_xor(
        &self,
        size: u64,
        data: &[Point],
        rng: &mut dyn Rng,
    ) -> Option<Result<crate::IntervalXorSynthetic>> {
        let mut run = || {
            let domain = Domain::ordered(size)?;
            let released = self.release(&domain, data, rng)?;
            self.reconstruct(&domain, data.len(), &released)
        };
        Some(run().map(crate::IntervalXorSynthetic::Database))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threshold_is_the_smallest_that_meets_delta() {
        for (epsilon, delta) in [(1.0, 1e-6), (0.1, 1e-9), (5.0, 0.3), (1.0, 0.9)] {
            let s = PointSanitizer::new(Privacy::new(epsilon, delta).unwrap(), 0.1).unwrap();
            let noise = s.noise();
            let k = s.threshold() - 1;
            assert!(k >= 1);
            assert!(noise.survival(k) <= delta, "ε = {epsilon}, δ = {delta}");
            assert!((noise.survival(k) - s.release_delta()).abs() <= 1e-9 * delta);
            if k > 1 {
                assert!(noise.survival(k - 1) > delta * (1.0 - 1e-9));
            }
        }
    }

    /// The pieces are the dense output on the XOR class of thresholds (same generator, same
    /// mass on every point, both orientations); the trait answers with them exactly where
    /// the XOR class's ids stop (2^32 inner concepts), with the same draws as
    /// [`Sanitizer::sanitize`] on any class over `[N]`.
    #[test]
    fn threshold_pieces_are_the_dense_output() {
        use privpac_classes::{Both, Points, Thresholds, Xor};
        use rand::SeedableRng;
        use rand_chacha::ChaCha8Rng;
        let s = PointSanitizer::new(Privacy::new(1.0, 1e-6).unwrap(), 0.25).unwrap();
        for (size, seed) in [(1u64, 1u64), (5, 2), (40, 3), (300, 4)] {
            // Heavy points (released) and a light tail (mostly not): fillers and copies.
            let data: Vec<Point> = (0..3000u64)
                .map(|i| {
                    if i % 3 == 0 {
                        (i * 7) % size
                    } else {
                        (i % 4) * size / 4
                    }
                })
                .collect();
            let plain = Thresholds::new(size).unwrap();
            let both = Both::new(Thresholds::new(size).unwrap()).unwrap();
            for class in [&plain as &dyn ConceptClass, &both] {
                let xor = Xor::new(class).unwrap();
                let dense = s
                    .sanitize(&xor, &data, &mut ChaCha8Rng::seed_from_u64(seed))
                    .unwrap();
                let pieces = s
                    .threshold_pieces(size, &data, &mut ChaCha8Rng::seed_from_u64(seed))
                    .unwrap();
                assert_eq!(pieces.size(), size);
                assert_eq!(pieces.support_len(), dense.support_len() as u128);
                for x in 0..size {
                    let (a, b) = (pieces.mass_of(x), dense.mass_of(x));
                    assert!((a - b).abs() <= 1e-12, "N = {size}, x = {x}: {a} vs {b}");
                }
            }
        }
        let data: Vec<Point> = (0..2000u64).map(|i| (i % 5) << 29).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for structure in [
            ThresholdStructure::Plain(1 << 32),
            ThresholdStructure::Both(1 << 31),
        ] {
            assert!(
                s.sanitize_threshold_xor(structure, &data, &mut rng)
                    .is_none()
            );
        }
        for structure in [
            ThresholdStructure::Plain((1 << 32) + 1),
            ThresholdStructure::Both((1 << 31) + 1),
            ThresholdStructure::Plain(1 << 40),
            ThresholdStructure::Both(u64::MAX),
        ] {
            let size = structure.domain_size();
            let pieces = s
                .sanitize_threshold_xor(structure, &data, &mut ChaCha8Rng::seed_from_u64(6))
                .unwrap()
                .unwrap();
            let points = Points::new(Domain::ordered(size).unwrap());
            let database = s
                .sanitize(&points, &data, &mut ChaCha8Rng::seed_from_u64(6))
                .unwrap();
            assert_eq!(pieces.size(), size);
            assert!(pieces.len() <= 2 * s.database_size() + 1);
            for (x, mass) in database.weights() {
                assert_eq!(pieces.mass_of(x), mass, "N = {size}, x = {x}");
            }
            assert_eq!(pieces.support_len(), database.support_len() as u128);
        }
        // Errors are the sanitizer's.
        let refused = s.sanitize_threshold_xor(ThresholdStructure::Plain(1 << 40), &[], &mut rng);
        assert!(matches!(refused, Some(Err(Error::EmptyData))));
        let outside =
            s.sanitize_threshold_xor(ThresholdStructure::Plain(1 << 40), &[1 << 41], &mut rng);
        assert!(matches!(outside, Some(Err(Error::Class(_)))));
    }

    #[test]
    fn water_level_fits_the_budget() {
        assert_eq!(water_level(&[1.0, 2.0], 5.0), 0.0);
        let level = water_level(&[10.0, 4.0, 1.0], 9.0);
        // 10 − λ + 4 − λ = 9 with λ = 2.5 ≥ 1: the last target is cut to zero.
        assert!((level - 2.5).abs() < 1e-12);
        let level = water_level(&[5.0, 5.0], 8.0);
        assert!((level - 1.0).abs() < 1e-12);
    }

    #[test]
    fn reconstruction_spreads_leftover_mass() {
        let domain = Domain::ordered(1 << 40).unwrap();
        let s = PointSanitizer::new(Privacy::new(1.0, 1e-6).unwrap(), 0.5)
            .unwrap()
            .with_database_size(10)
            .unwrap();
        // Released mass 0.5 at point 3: 5 copies, the other 5 on points 0, 1, 2, 4, 5.
        let db = s.reconstruct(&domain, 100, &[(3, 50)]).unwrap();
        assert_eq!(db.points().unwrap(), &[0, 1, 2, 3, 3, 3, 3, 3, 4, 5]);
        // Noisy mass above 1 is cut uniformly: targets 8 and 6 with m = 10, λ = 2.
        let db = s.reconstruct(&domain, 100, &[(1, 80), (2, 60)]).unwrap();
        assert_eq!(db.points().unwrap(), &[1, 1, 1, 1, 1, 1, 2, 2, 2, 2]);
        // A tiny domain with every point released: leftover copies cycle over them.
        let tiny = Domain::ordered(2).unwrap();
        let db = s.reconstruct(&tiny, 10, &[(0, 3), (1, 3)]).unwrap();
        assert_eq!(db.points().unwrap().len(), 10);
        assert!(matches!(
            s.reconstruct(&domain, 10, &[(2, 3), (1, 3)]),
            Err(Error::InvalidParameter { .. })
        ));
    }
}
