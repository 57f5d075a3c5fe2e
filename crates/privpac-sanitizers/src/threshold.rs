//! The threshold (CDF) sanitizer for `THRESH_X`: the binary-tree (hierarchical)
//! mechanism with exact integer noise, then a consistent CDF.

use privpac_accounting::{Privacy, Private};
use privpac_classes::{ConceptClass, Domain, Point, ThresholdStructure};
use privpac_mechanisms::{DiscreteLaplace, DiscreteLaplaceTable};
use rand::Rng;

use crate::Sanitizer;
use crate::error::{Error, Result};
use crate::histogram::{data_cumulative, histogram_len};
use crate::pieces::PiecewiseDistribution;
use crate::synthetic::SyntheticDatabase;

/// The largest ordered domain the tree sanitizer handles (it outputs a dense histogram).
pub const THRESHOLD_DOMAIN_LIMIT: u128 = 1 << 24;

/// The binary-tree mechanism for threshold queries `c_t(y) = [y ≤ t]` over `[N]`
/// (Dwork–Naor–Pitassi–Rothblum 2010; Chan–Shi–Song 2011; the hierarchical histogram of
/// Hay–Rastogi–Miklau–Suciu 2010).
///
/// Pad `[N]` to `P = 2^L` leaves and build the complete binary tree of dyadic intervals.
/// The canonical dyadic decomposition of a prefix `[0, t]` uses only left children (and
/// the root), so exactly the `P − 1` left children (at most one per `t`) get their count
/// plus `Lap_Z(2L/ε)` (exact integer noise); the root's count is n, which is public for
/// replace-one neighbours. The noisy prefix count `F̂(t)` for `[0, t]` is the sum of the
/// at most L noisy nodes of its decomposition (`F̂(N−1) = n`). It is made a consistent CDF by clamping to `[0, n]` and
/// averaging the running maximum from the left with the running minimum from the right:
/// `G(t) = (max_{j≤t} F̂(j) + min_{j≥t} F̂(j)) / 2`, monotone with `G(N−1) = n`; the
/// output is the dense weighted histogram `w_t = (G(t) − G(t−1))/n`, which answers
/// `c_t(D̂) = G(t)/n`.
///
/// # Privacy
/// ε-differentially private (pure) for data sets that differ in one replaced point. Each
/// point lies in at most one noised node per level (L levels below the root), so a
/// replacement changes at most two noised counts per level by 1: the vector of noised
/// counts has ℓ1-sensitivity `2L` (each level spends ε/L on sensitivity 2). Independent
/// `Lap_Z(2L/ε)` noise on every noised node is therefore ε-DP (the discrete Laplace ratio
/// bound `pmf(k)/pmf(k+d) ≤ e^{|d|/b}` multiplied over the nodes); everything after the
/// noisy counts is post-processing. Nodes entirely beyond N hold no point on any data set
/// and are skipped. The noise is sampled exactly and never clamped, by the table sampler
/// [`DiscreteLaplaceTable::sample_wide`] built once per sanitization for the exact rational
/// scale `2L/ε` (its realized distribution is exactly `Lap_Z(2L/ε)`: see that type for the
/// proof, and its tests for the exact and χ² checks), and each noisy count `c_v + Z_v` is
/// computed exactly in `i128`; the prefix sums that follow saturate at the `i128` range, a
/// deterministic function of the exact noisy counts (so still post-processing).
///
/// **Reproducibility.** For a given generator state the output is a fixed function of the
/// generator's words: the left children are drawn depth first (a node's left child, then
/// its left subtree, then its right subtree), one table draw each. Since the switch from
/// the bit-level sampler [`DiscreteLaplace::sample_wide_bits`] to the table the draws for a
/// given seed differ from earlier versions (the same distribution, another use of the
/// random words).
///
/// # Utility
/// Every prefix estimate uses at most L noisy nodes, and the consistency step does not
/// increase the sup-norm error (each of the running max, running min and their average
/// stays within the largest prefix error of the true, monotone CDF, and clamping to
/// `[0, n]` only moves values towards it). With probability at least `1 − β` all `P − 1`
/// noise values are at most `b·ln(2P/β)` (`Pr[|Z| ≥ t] ≤ 2e^{−t/b}`), so
///
/// `max_t |c_t(D) − c_t(D̂)| ≤ 2L²·ln(2P/β) / (ε n)` ([`Self::error_bound`]),
///
/// i.e. `n = O(log²|X| · log(|X|/β) / (αε))` suffices for error α. This union bound is
/// crude: for each single prefix the sum of L Laplace variables concentrates at
/// `O(√L · (2L/ε) · √ln(1/β))`, which gives the `O((log N)^{1.5}/ε)` per-query error of
/// Chan–Shi–Song (not re-derived here, and that paper is not among the sources privpac's
/// docs were checked against, so no theorem number is given).
///
/// Bun–Nissim–Stemmer's Proposition 2.21 quotes a sanitizer for `THRESH_X` with sample
/// complexity `O((1/(αε))·2^{log*|X|}·log*|X|·log(log*|X|/(εδ))·log(1/β)·log^{2.5}(1/α))`,
/// the recursive construction of Bun–Nissim–Stemmer–Vadhan (2015). It is **not**
/// implemented: its algorithm is not given in that paper.
///
/// # Running time
/// O(N + n) time and O(N) memory: one exact noise draw per left child, about N draws,
/// each one `u64` of randomness and a short table scan (the bit-level sampler used before
/// spent about two words and several exact coins per draw), plus the table itself: about
/// `46·2L/ε` big-integer digit computations (capped at 4096 entries), once per call.
///
/// # Errors
/// Construction: [`Error::PureRequired`] for δ > 0. Sanitizing: [`Error::UnsupportedDomain`]
/// unless the class's domain is ordered, [`Error::TooLarge`] above
/// [`THRESHOLD_DOMAIN_LIMIT`] points, [`Error::EmptyData`], [`Error::Class`] for a point
/// outside the domain, [`Error::Mechanism`] if `2L/ε` is not a representable noise scale.
///
/// # Example
/// ```
/// use privpac_classes::Thresholds;
/// use privpac_accounting::Privacy;
/// use rand::SeedableRng;
/// use privpac_sanitizers::{Sanitizer, ThresholdSanitizer, max_query_error};
///
/// let class = Thresholds::new(1 << 12)?;
/// let data: Vec<u64> = (0..50_000u64).map(|i| (i * i) % 4096).collect();
/// let sanitizer = ThresholdSanitizer::new(Privacy::pure(1.0)?)?;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
/// let synthetic = sanitizer.sanitize(&class, &data, &mut rng)?;
/// let (error, _) = max_query_error(&class, &data, &synthetic)?;
/// assert!(error <= sanitizer.error_bound(1 << 12, data.len(), 1e-6)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # References
/// C. Dwork, M. Naor, T. Pitassi, G. Rothblum, "Differential privacy under continual
/// observation", STOC 2010. T.-H. H. Chan, E. Shi, D. Song, "Private and continual release
/// of statistics", ACM TISSEC 2011. M. Hay, V. Rastogi, G. Miklau, D. Suciu, "Boosting the
/// accuracy of differentially private histograms through consistency", VLDB 2010.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThresholdSanitizer {
    privacy: Privacy,
}

impl ThresholdSanitizer {
    /// Builds the sanitizer.
    ///
    /// # Errors
    /// [`Error::PureRequired`] for δ > 0.
    pub fn new(privacy: Privacy) -> Result<Self> {
        if !privacy.is_pure() {
            return Err(Error::PureRequired {
                algorithm: "the threshold sanitizer",
                delta: privacy.delta(),
            });
        }
        Ok(ThresholdSanitizer { privacy })
    }

    /// The number of noisy levels `L = ⌈log2 N⌉` for a domain of N points.
    pub fn levels(domain_size: u64) -> u32 {
        domain_size.max(1).next_power_of_two().trailing_zeros()
    }

    /// The node noise `Lap_Z(2L/ε)` for a domain of N points (`None` for N = 1, where no
    /// node is noised).
    ///
    /// # Errors
    /// [`Error::Mechanism`] if the scale is not representable.
    pub fn node_noise(&self, domain_size: u64) -> Result<Option<DiscreteLaplace>> {
        let levels = Self::levels(domain_size);
        if levels == 0 {
            return Ok(None);
        }
        Ok(Some(DiscreteLaplace::for_epsilon(
            self.privacy.epsilon(),
            2 * u64::from(levels),
        )?))
    }

    /// The accuracy bound `2L²·ln(2P/β)/(ε n)` of the type documentation for a domain of
    /// N points and n data points (`L·b·ln(2P/β)/n` with the exact node-noise scale
    /// `b ≥ 2L/ε`): it holds with probability at least `1 − β`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `0 < β < 1`, [`Error::EmptyData`] for n = 0,
    /// [`Error::Mechanism`] if the noise scale is not representable.
    pub fn error_bound(&self, domain_size: u64, n: usize, beta: f64) -> Result<f64> {
        if !(beta > 0.0 && beta < 1.0) {
            return Err(Error::InvalidParameter {
                name: "beta",
                requirement: "in (0, 1)",
                value: beta,
            });
        }
        if n == 0 {
            return Err(Error::EmptyData);
        }
        let Some(noise) = self.node_noise(domain_size)? else {
            return Ok(0.0); // one point: the output is exact
        };
        let levels = f64::from(Self::levels(domain_size));
        let leaves = levels.exp2();
        Ok(levels * noise.scale() * (2.0 * leaves / beta).ln() / n as f64)
    }

    /// The noisy prefix counts `F̂(t)` of the tree, clamped to `[0, n]` (see the type
    /// documentation), with `F̂(N − 1) = n`.
    fn clamped_prefixes<R: Rng + ?Sized>(
        &self,
        domain: &Domain,
        data: &[Point],
        rng: &mut R,
    ) -> Result<Vec<i64>> {
        let size = match domain {
            Domain::Ordered { size } => *size,
            other => {
                return Err(Error::UnsupportedDomain {
                    algorithm: "the threshold sanitizer",
                    requirement: "an ordered domain [N]",
                    domain: other.to_string(),
                });
            }
        };
        if u128::from(size) > THRESHOLD_DOMAIN_LIMIT {
            return Err(beyond_the_draw_limit(size));
        }
        let len = histogram_len(domain, "the threshold sanitizer")?;
        let cumulative = data_cumulative(domain, len, data)?;
        let n = cumulative[len];
        // The clamped noisy prefixes min(max(F̂(t), 0), n), with F̂(N − 1) = n.
        let mut prefix = vec![0i64; len];
        if let Some(noise) = self.node_noise(size)? {
            let table = DiscreteLaplaceTable::new(noise);
            fill_prefixes(size, &cumulative, &mut prefix, || table.sample_wide(rng));
        }
        prefix[len - 1] = n;
        Ok(prefix)
    }

    /// The consistent CDF `G(t) = (max_{j≤t} F̂(j) + min_{j≥t} F̂(j))/2` of the clamped noisy
    /// prefixes, in counts (see the type documentation); the sanitizers output its
    /// differences ([`Self::point_weights`]), the tests read it whole.
    #[cfg(test)]
    fn noisy_cdf<R: Rng + ?Sized>(
        &self,
        domain: &Domain,
        data: &[Point],
        rng: &mut R,
    ) -> Result<Vec<f64>> {
        let prefix = self.clamped_prefixes(domain, data, rng)?;
        let mut cdf = right_minima(&prefix);
        let mut left_max = f64::NEG_INFINITY;
        for (g, &f) in cdf.iter_mut().zip(&prefix) {
            left_max = left_max.max(f as f64);
            *g = (left_max + *g) / 2.0;
        }
        Ok(cdf)
    }
}

/// The refusal above [`THRESHOLD_DOMAIN_LIMIT`] points, on every path (the dense one and
/// [`ThresholdSanitizer::sanitize_threshold_xor`], whose documentation gives the argument):
/// the output depends on all `N − 1` noisy left-child counts.
fn beyond_the_draw_limit(size: u64) -> Error {
    Error::TooLarge {
        what: "the binary-tree threshold sanitizer",
        needed: u128::from(size.saturating_sub(1)),
        unit: "exact noise draws (its consistent CDF is a running max/min of every noisy \
               prefix, so it depends on all N − 1 left-child counts; skipping draws needs the \
               law of a discrete Laplace branching walk's maximum, which has no closed form)",
        // N ≤ THRESHOLD_DOMAIN_LIMIT exactly when its N − 1 draws are at most this.
        limit: THRESHOLD_DOMAIN_LIMIT - 1,
    }
}

/// `min_{j ≥ t} prefix[j]` for every t, as `f64` (exact: the values are counts in `[0, n]`).
fn right_minima(prefix: &[i64]) -> Vec<f64> {
    let mut out = vec![0.0; prefix.len()];
    let mut right_min = f64::INFINITY;
    for (slot, &f) in out.iter_mut().zip(prefix).rev() {
        right_min = right_min.min(f as f64);
        *slot = right_min;
    }
    out
}

impl ThresholdSanitizer {
    /// The output over `[size]` as pieces ([`Sanitizer::sanitize_threshold_xor`]).
    fn pieces<R: Rng + ?Sized>(
        &self,
        size: u64,
        data: &[Point],
        rng: &mut R,
    ) -> Result<PiecewiseDistribution> {
        let domain = Domain::ordered(size)?;
        let weights = self.point_weights(&domain, data, rng)?;
        PiecewiseDistribution::from_point_weights(&weights)
    }

    /// The output weights `w_t = G(t) − G(t − 1)` of the consistent CDF (in counts).
    fn point_weights<R: Rng + ?Sized>(
        &self,
        domain: &Domain,
        data: &[Point],
        rng: &mut R,
    ) -> Result<Vec<f64>> {
        // The consistent CDF as in `noisy_cdf`, differenced in the same pass and buffer.
        let prefix = self.clamped_prefixes(domain, data, rng)?;
        let mut weights = right_minima(&prefix);
        let (mut left_max, mut previous) = (f64::NEG_INFINITY, 0.0);
        for (w, &f) in weights.iter_mut().zip(&prefix) {
            left_max = left_max.max(f as f64);
            let g = (left_max + *w) / 2.0;
            *w = (g - previous).max(0.0);
            previous = g;
        }
        Ok(weights)
    }
}

/// Fills `prefix[t]` (for `t < len − 1`) with the noisy prefix count `F̂(t)`: the
/// noisy left children of the dyadic tree over `[0, 2^L)`, each drawn once from `noise`
/// in the walk's order (depth first, a node's left child before its right subtree).
/// Each is stored clamped to `[0, n]` with `n = cumulative[len]`; the walk carries the
/// exact unclamped sums.
fn fill_prefixes(size: u64, cumulative: &[i64], prefix: &mut [i64], noise: impl FnMut() -> i128) {
    let leaves = 1usize << ThresholdSanitizer::levels(size);
    let mut tree = Tree {
        len: prefix.len(),
        n: i128::from(cumulative[prefix.len()]),
        cumulative,
        noise,
        prefix,
    };
    tree.fill(0, leaves, 0);
}

/// The recursive walk over the dyadic tree.
struct Tree<'a, N: FnMut() -> i128> {
    len: usize,
    /// The data size, the clamp's upper end.
    n: i128,
    cumulative: &'a [i64],
    noise: N,
    prefix: &'a mut [i64],
}

impl<N: FnMut() -> i128> Tree<'_, N> {
    /// The noisy count of the node `[lo, lo + size)`, exact: `|count| < 2^63` and the
    /// unclamped draw ([`DiscreteLaplaceTable::sample_wide`]) is below `2^126 + 2^63` in
    /// magnitude.
    fn noisy_count(&mut self, lo: usize, size: usize) -> i128 {
        let hi = (lo + size).min(self.len);
        let count = self.cumulative[hi] - self.cumulative[lo];
        i128::from(count) + (self.noise)()
    }

    /// Fills the prefix estimates of `[lo, lo + size − 1) ∩ [0, len)` (the node's last
    /// index is its parent's business), given the estimate `offset` of `[0, lo)`. Only left
    /// children are noised: the canonical decomposition of a prefix `[0, t]` consists of
    /// left children (plus the root), and every `t < P − 1` is the last index of exactly one
    /// left child.
    fn fill(&mut self, lo: usize, size: usize, offset: i128) {
        if size < 2 || lo >= self.len {
            return;
        }
        let half = size / 2;
        let left = self.noisy_count(lo, half);
        let through_left = offset.saturating_add(left);
        if lo + half - 1 < self.len {
            // In [0, n] after the clamp, so the cast is exact.
            self.prefix[lo + half - 1] = through_left.clamp(0, self.n) as i64;
        }
        self.fill(lo, half, offset);
        self.fill(lo + half, half, through_left);
    }
}

impl Private for ThresholdSanitizer {
    fn privacy(&self) -> Privacy {
        self.privacy
    }
}

impl Sanitizer for ThresholdSanitizer {
    /// `class` supplies the ordered domain; the accuracy guarantee is for `THRESH_X`.
    fn sanitize(
        &self,
        class: &dyn ConceptClass,
        data: &[Point],
        rng: &mut dyn Rng,
    ) -> Result<SyntheticDatabase> {
        let weights = self.point_weights(class.domain(), data, rng)?;
        SyntheticDatabase::from_dense(class.domain(), weights)
    }

    /// The tree's output as a [`PiecewiseDistribution`] (one piece per point of positive
    /// weight, one per run of zero weights): the same noise draws and the same consistent
    /// CDF as [`Self::sanitize`], so for the same generator the same distribution (a unit
    /// test compares them point by point). The sanitizer learners then take their cover from
    /// the thresholds' structure instead of evaluating every concept on the small database.
    ///
    /// Above [`THRESHOLD_DOMAIN_LIMIT`] points it refuses, naming the cost the algorithm
    /// cannot avoid. The consistent CDF `G(t) = (max_{j≤t} F̂(j) + min_{j≥t} F̂(j))/2` reads
    /// every prefix estimate, and every one of the `N − 1` noisy left-child counts is the
    /// last term of some prefix estimate, so the output is a function of all of them. Drawing
    /// the noise only at the nodes an output depends on would need, for each untouched
    /// subtree, an exact sample of the maximum (and minimum) of its noisy prefix sums: the
    /// maximum of a branching random walk with discrete Laplace steps over `2^k` leaves, whose
    /// law has no closed form (it is the solution of the recursion
    /// `M_k = max(M_{k−1}, Z + M′_{k−1})` over integers, with unbounded support), so no
    /// exact sampler of the same output distribution is known that skips the draws.
    fn sanitize_threshold_xor(
        &self,
        class: ThresholdStructure,
        data: &[Point],
        rng: &mut dyn Rng,
    ) -> Option<Result<PiecewiseDistribution>> {
        let size = class.domain_size();
        if u128::from(size) > THRESHOLD_DOMAIN_LIMIT {
            return Some(Err(beyond_the_draw_limit(size)));
        }
        Some(self.pieces(size, data, rng))
    }

    fn name(&self) -> String {
        "threshold-tree".into()
    }

    /// The tree reads no query (noisy prefix counts over the domain): its pieces as for
    /// thresholds over `[N]` ([`Self::sanitize_threshold_xor`], the same draws as
    /// [`Self::sanitize`]); α-accurate for thresholds makes it 4α-accurate for
    /// `INTERVAL ⊕ INTERVAL`, whose queries are signed sums of four prefixes.
    fn sanitize_interval_xor(
        &self,
        size: u64,
        data: &[Point],
        rng: &mut dyn Rng,
    ) -> Option<Result<crate::IntervalXorSynthetic>> {
        self.sanitize_threshold_xor(ThresholdStructure::Plain(size), data, rng)
            .map(|result| result.map(crate::IntervalXorSynthetic::Pieces))
    }
}

#[cfg(test)]
mod tests {
    use privpac_classes::Thresholds;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::synthetic::max_query_error;

    /// The structured output is the dense output: same seed, same mass on every point.
    #[test]
    fn threshold_xor_pieces_equal_the_dense_output() {
        use privpac_classes::ThresholdStructure;
        let sanitizer = ThresholdSanitizer::new(Privacy::pure(1.0).unwrap()).unwrap();
        for (size, seed) in [(1u64, 1u64), (2, 2), (7, 3), (64, 4), (1000, 5)] {
            let class = Thresholds::new(size).unwrap();
            let data: Vec<Point> = (0..40u64).map(|i| (i * i * 7) % size).collect();
            let dense = sanitizer
                .sanitize(&class, &data, &mut ChaCha8Rng::seed_from_u64(seed))
                .unwrap();
            for structure in [
                ThresholdStructure::Plain(size),
                ThresholdStructure::Both(size),
            ] {
                let pieces = sanitizer
                    .sanitize_threshold_xor(structure, &data, &mut ChaCha8Rng::seed_from_u64(seed))
                    .unwrap()
                    .unwrap();
                assert_eq!(pieces.size(), size);
                for x in 0..size {
                    let (a, b) = (pieces.mass_of(x), dense.mass_of(x));
                    assert!((a - b).abs() <= 1e-12, "N = {size}, x = {x}: {a} vs {b}");
                }
            }
        }
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        let refused =
            sanitizer.sanitize_threshold_xor(ThresholdStructure::Plain(1 << 40), &[0], &mut rng);
        assert!(matches!(refused, Some(Err(Error::TooLarge { .. }))));
        // The dense path (points' XOR class, for example) refuses for the same reason, and
        // both paths' limits agree: N = 2^24 runs, N = 2^24 + 1 needs 2^24 draws > 2^24 − 1.
        let points =
            privpac_classes::Points::new(privpac_classes::Domain::Ordered { size: 1 << 40 });
        let dense = sanitizer.sanitize(&points, &[0], &mut rng).unwrap_err();
        let tree = refused.unwrap().unwrap_err();
        assert_eq!(dense.to_string(), tree.to_string());
        assert!(
            tree.to_string().contains("1099511627775 exact noise draws"),
            "{tree}"
        );
        let over = (THRESHOLD_DOMAIN_LIMIT + 1) as u64;
        let message = beyond_the_draw_limit(over).to_string();
        assert!(message.contains("needs 16777216 exact") && message.contains("16777215"));
    }

    #[test]
    fn huge_epsilon_reproduces_the_cdf() {
        for size in [1u64, 2, 5, 64, 1000] {
            let class = Thresholds::new(size).unwrap();
            let data: Vec<Point> = (0..300u64).map(|i| (i * 37) % size).collect();
            let sanitizer = ThresholdSanitizer::new(Privacy::pure(1e6).unwrap()).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(size);
            let synthetic = sanitizer.sanitize(&class, &data, &mut rng).unwrap();
            let (error, _) = max_query_error(&class, &data, &synthetic).unwrap();
            assert!(error < 1e-9, "N = {size}: {error}");
        }
    }

    #[test]
    fn levels_and_noise_scale() {
        assert_eq!(ThresholdSanitizer::levels(1), 0);
        assert_eq!(ThresholdSanitizer::levels(2), 1);
        assert_eq!(ThresholdSanitizer::levels(1000), 10);
        let s = ThresholdSanitizer::new(Privacy::pure(0.5).unwrap()).unwrap();
        assert_eq!(s.node_noise(1000).unwrap().unwrap().scale(), 40.0);
        assert_eq!(s.node_noise(1).unwrap(), None);
    }

    /// A generator replaying scripted bits (least significant first, as `RandomBits`
    /// reads them), then all-ones words.
    #[derive(Default)]
    struct BitScript {
        words: Vec<u64>,
        len: usize,
        next: usize,
    }

    impl BitScript {
        fn push(&mut self, bit: bool) {
            if self.len.is_multiple_of(64) {
                self.words.push(0);
            }
            if bit {
                self.words[self.len / 64] |= 1 << (self.len % 64);
            }
            self.len += 1;
        }

        /// Pads the script with zero bits to the next whole word.
        fn align(&mut self) {
            while !self.len.is_multiple_of(64) {
                self.push(false);
            }
        }

        /// One whole word (at a word boundary).
        fn push_word(&mut self, word: u64) {
            self.align();
            self.words.push(word);
            self.len += 64;
        }

        /// One table draw ([`DiscreteLaplaceTable::sample_wide`]) at scale 2^40, where the
        /// table has its 4096 entries and `c_1 ≈ 1 − 2^{-41}`:
        /// - `None`: a prefix of 63 one bits is above every threshold, so the draw is 0;
        /// - `Some((v, negative))`: the prefix 0 is below every threshold, so the draw takes
        ///   the tail `±(4096 + |Y| − 1)` with a bit-level draw `Y` from fresh words:
        ///   `U = 0` (40 zero bits), `v ≥ 1` successes of the `exp(-1)` coin (bits 0, 1), a
        ///   failure (1) and `Y`'s own (ignored) sign, so `|Y| = 2^40·v` and the draw is
        ///   `±(2^40·v + 4095)`.
        fn push_draw(&mut self, draw: Option<(u64, bool)>) {
            let Some((v, negative)) = draw else {
                self.push_word((1 << 63) - 1);
                return;
            };
            self.push_word(if negative { 1 << 63 } else { 0 });
            for _ in 0..40 {
                self.push(false);
            }
            for _ in 0..v {
                self.push(false);
                self.push(true);
            }
            self.push(true);
            self.push(false);
            // The tail's bit buffer ends with the draw; the next draw reads a new word.
            self.align();
        }
    }

    impl rand::TryRng for BitScript {
        type Error = std::convert::Infallible;

        fn try_next_u32(&mut self) -> std::result::Result<u32, Self::Error> {
            Ok(self.try_next_u64()? as u32)
        }

        fn try_next_u64(&mut self) -> std::result::Result<u64, Self::Error> {
            let word = self.words.get(self.next).copied().unwrap_or(u64::MAX);
            self.next += 1;
            Ok(word)
        }

        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> std::result::Result<(), Self::Error> {
            for chunk in dst.chunks_mut(8) {
                let word = self.try_next_u64()?.to_le_bytes();
                chunk.copy_from_slice(&word[..chunk.len()]);
            }
            Ok(())
        }
    }

    /// Issue 27: node draws of magnitude 2^63 or more were clamped to `2^63 − 1` and added
    /// with saturation, so a prefix estimate was not the sum of the exact noisy counts (not
    /// a post-processing of them). Over [4] with the data {1, 2}, the noised nodes are
    /// `A = [0, 2)` (count 1), `B = [0, 1)` (0) and `C = [2, 3)` (1), drawn in that order.
    /// With `Z_A = 2^63 + 4095`, `Z_B = 0`, `Z_C = −Z_A` the exact prefix `F̂(2) = A + C` is 2
    /// (the CDF [0, 2, 2, 2]); with `Z_C = −(2^63 + 2^40 + 4095)` it is `2 − 2^40`, clamped
    /// to 0, and the CDF is [0, 1, 1, 2], where draws clamped to `±(2^63 − 1)` give
    /// [0, 2, 2, 2] again.
    #[test]
    fn noisy_counts_at_the_ends_of_i64_are_exact() {
        let class = Thresholds::new(4).unwrap();
        // Node noise 2L/ε = 4·2^38 = 2^40.
        let s = ThresholdSanitizer::new(Privacy::pure(2f64.powi(-38)).unwrap()).unwrap();
        assert_eq!(
            s.node_noise(4).unwrap().unwrap().scale_ratio(),
            (1 << 40, 1)
        );
        for (c_steps, expected) in [
            (1u64 << 23, vec![0.0, 2.0, 2.0, 2.0]),
            ((1 << 23) + 1, vec![0.0, 1.0, 1.0, 2.0]),
        ] {
            let mut script = BitScript::default();
            script.push_draw(Some((1 << 23, false)));
            script.push_draw(None);
            script.push_draw(Some((c_steps, true)));
            let cdf = s.noisy_cdf(class.domain(), &[1, 2], &mut script).unwrap();
            assert_eq!(cdf, expected, "Z_C steps {c_steps}");
        }
    }

    #[test]
    fn prefix_estimates_use_the_canonical_decomposition() {
        // With noise switched off (huge ε rounds every draw to 0), prefixes are exact even
        // for a domain that is not a power of two; the output CDF is monotone.
        let class = Thresholds::new(11).unwrap();
        let data = [0, 3, 3, 10, 7, 7, 7];
        let s = ThresholdSanitizer::new(Privacy::pure(1e9).unwrap()).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let cdf = s.noisy_cdf(class.domain(), &data, &mut rng).unwrap();
        assert_eq!(
            cdf,
            vec![1.0, 1.0, 1.0, 3.0, 3.0, 3.0, 3.0, 6.0, 6.0, 6.0, 7.0]
        );
    }
}
