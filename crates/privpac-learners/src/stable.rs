//! A uniformly stable learner (subsample, cover, exponential mechanism) and its
//! private-prediction conversion.
//!
//! The construction follows the approach of Dagan and Feldman, "PAC learning with stable
//! and private predictions" (COLT 2020), Theorem 1 and Corollary 1: pick a random subset
//! `T` of the sample, take one representative concept per dichotomy of C on the points of
//! `T` (a cover of C on the sample's support), and run the exponential mechanism over
//! that cover, scored by mistakes on the **whole** sample. Predictions are then made
//! private by flipping the predicted label (randomized response).
//!
//! The stability and privacy parameters stated here are **our own derivation** for this
//! exact construction (proved in the docs below and measured exactly in the tests). The
//! paper's own bounds (Theorem 1, Corollary 1) are not restated: their formulas are lost
//! in the text of the paper privpac's docs were checked against.

use privpac_accounting::{Guarantee, Privacy, rounding};
use privpac_classes::combinatorics::{binomial, next_combination};
use privpac_classes::{ConceptClass, LabeledSample, Point};
use privpac_mechanisms::{ExponentialMechanism, RandomBits};
use rand::Rng;

use crate::cell_levels;
use crate::cover::{Labelings, ScoredCover};
use crate::error::{Error, Result};
use crate::learner::{ErrorFloor, Learner};
use crate::predictor::Predictor;

/// The uniformly stable learner: random subset `T` of `subset_size` examples, cover of C
/// on the points of `T`, exponential mechanism with parameter ε over the cover with score
/// −(mistakes on the whole sample).
///
/// # Stability
/// For samples `S, S'` of size n that differ in one example and every point x,
/// `|Pr[A(S)(x) = 1] − Pr[A(S')(x) = 1]| ≤ β = t/n + (1 − t/n)·tanh(ε/2)`, t = |T|.
/// Proof: couple the two runs on the same index set T. The differing example lies in T
/// with probability t/n (difference at most 1). Otherwise the covers coincide and the
/// exponential mechanism's output distributions satisfy `q'(E) ∈ [e^{−ε}q(E), e^{ε}q(E)]`
/// for every event E, and likewise for the complement; with `q = Pr[h(x) = 1]` that bounds
/// `|q' − q| ≤ min{(e^ε−1)q, (1−e^{−ε})(1−q)} ≤ tanh(ε/2)`.
///
/// The output hypothesis itself is **not** differentially private (the cover depends on
/// the examples in T), so [`Learner::guarantee`] reports uniform stability only; use
/// [`PrivatePrediction`] for a privacy guarantee on predictions.
///
/// # Sample complexity
/// As the generic learner over a cover of size at most `Σ_{i≤d} C(t, i)` (Sauer–Shelah;
/// Dagan–Feldman Lemma 2), plus what T needs to be an α-net of C with respect to the
/// uniform distribution on the sample (their Lemma 1); the combined bound is their
/// Theorem 1 (see the module documentation).
///
/// # Running time
/// On classes that give [`ConceptClass::labeling_ranges`] (thresholds, point functions,
/// their complements and `both(…)`, at every domain size): O(t² + n log n), the cover of
/// the ranges on T scored from the compressed error profile (see `crate::cover`); the
/// cover and scores are exactly those of the dense construction, so the output
/// distribution is the same. Intervals, not(intervals) and both(intervals) give
/// [`ConceptClass::labeling_cells`] instead (the concepts that label T alike are a
/// rectangle of ends, already scored): O(n log n + t²) at every size up to 2^64 − 1
/// points, the same cover and scores; above `privpac_classes::MAX_INTERVAL_CELLS` cells
/// (about 2900 distinct points in T) intervals give them by score level
/// ([`ConceptClass::labeling_cell_levels`]) and the mechanism picks a level and then a
/// uniform cell of it, the same output distribution with the same floating-point weights
/// (proof in `crate::cell_levels`) in O(n log n + t·W) time and O(n + t + W) memory,
/// W ≤ 700/λ + 1 levels (λ = ε/2 − 2η); the output is named by its ends
/// ([`Hypothesis::Interval`](privpac_classes::Hypothesis::Interval), or
/// [`Hypothesis::NotInterval`](privpac_classes::Hypothesis::NotInterval) for a
/// complement) where its id does not fit 64 bits. Parities over `{0,1}^d`
/// ([`ConceptClass::parity_structure`]): O(n + d·2^d), the cosets of T's kernel scored
/// from the Walsh–Hadamard profile (the same cover and scores). Other classes:
/// O(|C|·(n + t)) from the dense error profile and the labelings of C on T, up to the
/// dense-profile limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StableLearner {
    epsilon: f64,
    subset_size: usize,
    mechanism: ExponentialMechanism,
}

impl StableLearner {
    /// The learner with exponential-mechanism parameter ε and `|T| = subset_size`.
    ///
    /// # Errors
    /// [`Error::Mechanism`] for an invalid ε; [`Error::InvalidParameter`] for a zero subset
    /// size.
    pub fn new(epsilon: f64, subset_size: usize) -> Result<Self> {
        if subset_size == 0 {
            return Err(Error::InvalidParameter {
                name: "subset size",
                requirement: "at least 1",
                value: 0.0,
            });
        }
        Ok(StableLearner {
            epsilon,
            subset_size,
            mechanism: ExponentialMechanism::new(Privacy::pure(epsilon)?, 1.0)?,
        })
    }

    /// The claimed uniform-stability parameter for samples of size `n`:
    /// `β = t/n + (1 − t/n)·tanh(ε/2)` with `t = min(subset size, n)`, evaluated as an upper
    /// bound (at most 1): written `τ + f(1 − τ)` with `f = t/n` and `τ = tanh(ε/2)`, it
    /// increases in both, so `τ` is bounded above where it is added and below where it is
    /// subtracted (`tanh` stepped four floats, the libm accuracy assumption of
    /// `privpac_accounting::rounding`), and every +, −, ×, ÷ is stepped one float up from
    /// its round-to-nearest result.
    pub fn stability(&self, n: usize) -> f64 {
        let fraction = self.subset_size.min(n) as f64 / n.max(1) as f64;
        let half = self.epsilon / 2.0;
        let (tanh_up, tanh_down) = (rounding::tanh_up(half), rounding::tanh_down(half));
        up(tanh_up.min(1.0) + up(up(fraction) * up(1.0 - tanh_down.max(0.0)))).min(1.0)
    }

    /// The exact distribution of the output concept id (for small classes and samples):
    /// averages the exponential mechanism over all `C(n, t)` index subsets.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] if more than 10^6 subsets would be enumerated; the
    /// class's dense-profile limit.
    pub fn concept_distribution(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
    ) -> Result<Vec<f64>> {
        let n = sample.len();
        let t = self.subset_size.min(n);
        // Saturating: a count beyond u128 is rejected by the limit below, never overflows.
        let subsets = binomial(n as u128, t as u128);
        if subsets > 1_000_000 {
            return Err(Error::InvalidParameter {
                name: "number of subsets to enumerate",
                requirement: "at most 10^6",
                value: subsets as f64,
            });
        }
        let errors = class.error_counts(sample)?;
        let mut distribution = vec![0.0; errors.len()];
        let mut subset: Vec<usize> = (0..t).collect();
        loop {
            let points: Vec<Point> = subset.iter().map(|&i| sample.points()[i]).collect();
            let cover = cover_on(class, &points, errors.len());
            let scores: Vec<i64> = cover.iter().map(|&c| -(errors[c] as i64)).collect();
            let probabilities = self.mechanism.log_probabilities_integer(&scores)?;
            for (&c, lp) in cover.iter().zip(probabilities) {
                distribution[c] += lp.exp() / subsets as f64;
            }
            if !next_combination(&mut subset, n) {
                break;
            }
        }
        Ok(distribution)
    }

    /// The exact distribution of the output concept id when every subset's exponential
    /// mechanism runs by score levels (a level, then a uniform cell: `crate::cell_levels`,
    /// the path [`Learner::learn`] takes on intervals whose subset has more than
    /// `privpac_classes::MAX_INTERVAL_CELLS` cells), for small classes and samples: as
    /// [`Self::concept_distribution`], averaged over all `C(n, t)` index subsets, each cell
    /// getting its level's probability over the level's count, credited to the cell's first
    /// concept (the concept the learner outputs for it). `None` for classes that give no
    /// cells by level ([`ConceptClass::labeling_cell_levels`]: only intervals and their
    /// complements do). For audits on domains where both paths exist (the realized-loss
    /// harness checks private prediction's per-prediction ε on it); the module proof says
    /// it equals [`Self::concept_distribution`] up to the order of floating-point sums.
    ///
    /// # Errors
    /// As [`Self::concept_distribution`]; [`Error::Unnamable`] for a cell without an id.
    pub fn cell_level_distribution(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
    ) -> Result<Option<Vec<f64>>> {
        let n = sample.len();
        let t = self.subset_size.min(n);
        let subsets = binomial(n as u128, t as u128);
        if subsets > 1_000_000 {
            return Err(Error::InvalidParameter {
                name: "number of subsets to enumerate",
                requirement: "at most 10^6",
                value: subsets as f64,
            });
        }
        let mut distribution = vec![0.0; class.error_counts(sample)?.len()];
        let mut subset: Vec<usize> = (0..t).collect();
        loop {
            let points: Vec<Point> = subset.iter().map(|&i| sample.points()[i]).collect();
            let Some(structured) = class.labeling_cell_levels(&points, sample)? else {
                return Ok(None);
            };
            for (cell, p) in cell_levels::cell_probabilities(&self.mechanism, &structured)? {
                let slot = cell
                    .first
                    .and_then(|id| distribution.get_mut(usize::try_from(id).ok()?))
                    .ok_or_else(|| Error::Unnamable {
                        class: class.name(),
                    })?;
                *slot += p / subsets as f64;
            }
            if !next_combination(&mut subset, n) {
                break;
            }
        }
        Ok(Some(distribution))
    }
}

impl Learner for StableLearner {
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Predictor> {
        if sample.is_empty() {
            return Err(Error::EmptySample);
        }
        let t = self.subset_size.min(sample.len());
        let indices = rand::seq::index::sample(rng, sample.len(), t);
        let points: Vec<Point> = indices.iter().map(|i| sample.points()[i]).collect();
        // Intervals on subsets with more cells than can be listed: the same mechanism by
        // levels (crate::cell_levels), with the same output distribution.
        if let Some(structured) = cell_levels::beyond_listing(class, &points, sample)? {
            let cell = cell_levels::select_cell(&self.mechanism, &structured, rng)?;
            return Ok(cell_levels::representative(class, &cell)?.into());
        }
        let cover = ScoredCover::new(class, &points, sample)?;
        let chosen = self
            .mechanism
            .select_integer(&cover.representative_scores(), rng)?;
        Ok(cover.representative(chosen).into())
    }

    /// Uniform stability [`Self::stability`] at `examples` (not differential privacy).
    fn guarantee(&self, examples: usize) -> Guarantee {
        Guarantee::UniformStability {
            beta: self.stability(examples),
        }
    }

    fn name(&self) -> String {
        "stable".into()
    }
}

/// ε-private prediction from the stable learner: answer each query x by a fresh run of
/// [`StableLearner`] and report its label flipped with probability η.
///
/// # Privacy
/// Per prediction: for every x, the single bit `A(S)(x)` is ε_pred-differentially private
/// as a function of S with `ε_pred = ln(1 + (1 − 2η)·β/η)`, where β is the stable
/// learner's stability. Proof: `p̃ = η + (1 − 2η)p` lies in `[η, 1 − η]` and
/// `|p̃ − p̃'| ≤ (1 − 2η)β`, so both `p̃/p̃'` and `(1 − p̃)/(1 − p̃')` are at most
/// `1 + (1 − 2η)β/η`. The flip is an exact Bernoulli(η) coin (for the dyadic value of η)
/// in [`Self::predict`] and in the learned [`Predictor::Flipped`]. The reported ε is this
/// formula evaluated with every operation rounded up (see [`Self::prediction_epsilon`]),
/// so it is never below the exact value and never 0 (for η within 2⁻⁵⁴ of 1/2 the term
/// `(1 − 2η)β/η` is below 2⁻⁵³ and `(1 + x).ln()` would round it away). The guarantee is
/// for one prediction per run; answering k queries from one trained model is not covered
/// (each query here retrains).
///
/// # Errors
/// [`Error::InvalidParameter`] unless 0 < η < 1/2.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrivatePrediction {
    stable: StableLearner,
    flip_probability: f64,
}

impl PrivatePrediction {
    /// Wraps a stable learner with flip probability η.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless 0 < η < 1/2.
    pub fn new(stable: StableLearner, flip_probability: f64) -> Result<Self> {
        if !(flip_probability > 0.0 && flip_probability < 0.5) {
            return Err(Error::InvalidParameter {
                name: "flip probability",
                requirement: "in (0, 1/2)",
                value: flip_probability,
            });
        }
        Ok(PrivatePrediction {
            stable,
            flip_probability,
        })
    }

    /// The flipping learner for samples of size `n` with the largest subset size t < n
    /// whose per-prediction guarantee ([`Self::prediction_epsilon`]) is at most `target`,
    /// given the stable learner's ε and the flip probability η.
    ///
    /// # Errors
    /// [`Error::SampleTooSmall`] if even t = 1 misses the target at this n (the smallest
    /// sufficient n is not computed: `needed` is n + 1); parameter errors as for
    /// [`StableLearner::new`] and [`Self::new`].
    pub fn with_prediction_epsilon(
        target: f64,
        n: usize,
        epsilon: f64,
        flip_probability: f64,
    ) -> Result<Self> {
        let build = |t: usize| -> Result<Self> {
            PrivatePrediction::new(StableLearner::new(epsilon, t)?, flip_probability)
        };
        // The guarantee grows with t (the stability does), so stop at the first miss.
        let mut best = None;
        for t in 1..n {
            let candidate = build(t)?;
            if candidate.prediction_epsilon(n) > target {
                break;
            }
            best = Some(candidate);
        }
        best.ok_or(Error::SampleTooSmall {
            needed: n + 1,
            got: n,
        })
    }

    /// The subset size t of the stable learner.
    pub fn subset_size(&self) -> usize {
        self.stable.subset_size
    }

    /// The per-prediction privacy parameter for samples of size `n`:
    /// `ln(1 + (1 − 2η)·β/η)` with β the stability `t/n + (1 − t/n)·tanh(ε/2)`
    /// (`t = min(subset size, n)`), evaluated as an upper bound: `ln_1p` instead of
    /// `(1 + x).ln()` (which rounds x below 2⁻⁵³ away, to a claim of 0), every +, −, ×, ÷
    /// stepped one float up (or down, for the subtracted `tanh`) from its round-to-nearest
    /// result, and `tanh` and `ln_1p` stepped four floats (the libm accuracy assumption of
    /// `privpac_accounting::rounding`: at most 2 ulps). Always positive; ∞ when the
    /// quotient overflows (η subnormal).
    pub fn prediction_epsilon(&self, n: usize) -> f64 {
        let eta = self.flip_probability;
        // β as an upper bound (StableLearner::stability); x increases in β.
        let beta = self.stable.stability(n);
        let x = up(up(up(1.0 - 2.0 * eta) * beta) / eta);
        rounding::ln_1p_up(x)
    }

    /// Answers one query with a fresh run.
    ///
    /// # Errors
    /// As for the stable learner.
    pub fn predict(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        x: Point,
        rng: &mut dyn Rng,
    ) -> Result<bool> {
        let hypothesis = self.stable.learn(class, sample, rng)?;
        // Exact Bernoulli(η) for the dyadic value of η (rand's `random_bool` rounds η to a
        // multiple of 2^-64).
        let flip = RandomBits::new(rng).bernoulli_f64(self.flip_probability);
        Ok(hypothesis.eval(class, x) ^ flip)
    }

    /// The exact `Pr[prediction at x = 1]` (small classes and samples).
    ///
    /// # Errors
    /// As for [`StableLearner::concept_distribution`].
    pub fn prediction_probability(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        x: Point,
    ) -> Result<f64> {
        let distribution = self.stable.concept_distribution(class, sample)?;
        let p: f64 = distribution
            .iter()
            .enumerate()
            .filter(|&(c, _)| class.eval(c as u64, x))
            .map(|(_, q)| q)
            .sum::<f64>()
            .clamp(0.0, 1.0); // rounding can push a sum of probabilities past 1
        let eta = self.flip_probability;
        Ok(eta + (1.0 - 2.0 * eta) * p)
    }
}

impl Learner for PrivatePrediction {
    /// Returns the stable learner's hypothesis wrapped in a label-flipping predictor. Its
    /// per-prediction guarantee holds for a single query per call of `learn`.
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Predictor> {
        Ok(Predictor::Flipped {
            base: Box::new(self.stable.learn(class, sample, rng)?),
            flip_probability: self.flip_probability,
        })
    }

    /// Per prediction, [`Self::prediction_epsilon`] (through [`Guarantee::per_prediction`],
    /// which refuses a claim that is not a finite positive ε); [`Guarantee::None`] when it
    /// is infinite.
    fn guarantee(&self, examples: usize) -> Guarantee {
        Guarantee::per_prediction(self.prediction_epsilon(examples)).unwrap_or(Guarantee::None)
    }

    /// Every prediction is the stable hypothesis's label flipped by an exact Bernoulli(η)
    /// coin, so each label has probability at least η at every point.
    fn error_floor(&self, _examples: usize) -> Option<ErrorFloor> {
        Some(ErrorFloor {
            flip: self.flip_probability,
            source: format!(
                "randomized response on every prediction flips it with probability η = {}",
                self.flip_probability
            ),
        })
    }

    fn name(&self) -> String {
        "private-prediction".into()
    }
}

/// One float up from a round-to-nearest result: an upper bound on the exact result of the
/// operation (within half a unit in the last place below it), subnormals included. Cruder
/// than `privpac_accounting::rounding`'s correctly rounded `add_up`/`mul_up`/`div_up` (it
/// steps even when the nearest float is already above); kept so that the stability and
/// per-prediction ε this learner has reported (and the committed experiment outputs) keep
/// their digits.
fn up(x: f64) -> f64 {
    x.next_up()
}

/// One representative (the smallest id) per labeling of `points` by the first `len`
/// concepts of the class: a cover of the class on those points.
fn cover_on(class: &dyn ConceptClass, points: &[Point], len: usize) -> Vec<usize> {
    Labelings::new(class, points, len).first
}

#[cfg(test)]
mod tests {
    use privpac_classes::Thresholds;

    use super::*;

    /// C(300, 150) ≈ 9.4·10^88 overflows u128 (the old `binomial` panicked or wrapped);
    /// the saturating count is rejected by the enumeration limit with a typed error.
    #[test]
    fn huge_subset_counts_saturate_into_a_typed_error() {
        let class = Thresholds::new(8).unwrap();
        let pairs: Vec<(u64, bool)> = (0..300u64).map(|i| (i % 8, i % 8 <= 3)).collect();
        let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
        let learner = StableLearner::new(1.0, 150).unwrap();
        match learner.concept_distribution(&class, &sample) {
            Err(Error::InvalidParameter { value, .. }) => assert_eq!(value, u128::MAX as f64),
            other => panic!("expected the subset limit, got {other:?}"),
        }
        // Just inside the limit (C(20, 4) = 4845 subsets) it enumerates and sums to 1.
        let small = LabeledSample::from_pairs(class.domain(), &pairs[..20]).unwrap();
        let distribution = StableLearner::new(1.0, 4)
            .unwrap()
            .concept_distribution(&class, &small)
            .unwrap();
        assert!((distribution.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(matches!(
            StableLearner::new(1.0, 150)
                .unwrap()
                .cell_level_distribution(&class, &sample),
            Err(Error::InvalidParameter { .. })
        ));
    }

    /// The distribution by score levels is the listed one, concept by concept (to 10⁻⁹
    /// relative, the same weights summed in two orders), on intervals over 1 to 6 points with random samples, subset sizes and ε (2000: the tail level
    /// holds most cells); classes without cells by level give `None`.
    #[test]
    fn cell_level_distribution_is_the_listed_distribution() {
        use privpac_classes::Intervals;
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3842);
        for round in 0..60 {
            let size = rng.random_range(1u64..7);
            let n = rng.random_range(1usize..6);
            let t = rng.random_range(1usize..5);
            let epsilon = [0.3, 2.0, 2000.0][round % 3];
            let pairs: Vec<(u64, bool)> = (0..n)
                .map(|_| (rng.random_range(0..size), rng.random_bool(0.5)))
                .collect();
            let intervals = Intervals::new(size).unwrap();
            {
                let class = &intervals as &dyn ConceptClass;
                let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
                let learner = StableLearner::new(epsilon, t).unwrap();
                let listed = learner.concept_distribution(class, &sample).unwrap();
                let levels = learner
                    .cell_level_distribution(class, &sample)
                    .unwrap()
                    .unwrap();
                assert_eq!(levels.len(), listed.len());
                for (c, (p, q)) in levels.iter().zip(&listed).enumerate() {
                    assert!(
                        (p - q).abs() <= 1e-9 * q.max(f64::MIN_POSITIVE),
                        "round {round}, {}, concept {c}: {p} against {q}",
                        class.name()
                    );
                }
            }
        }
        let pairs: Vec<(u64, bool)> = (0..4u64).map(|x| (x, x < 2)).collect();
        let sample = LabeledSample::from_pairs(Thresholds::new(4).unwrap().domain(), &pairs);
        let none = StableLearner::new(1.0, 2)
            .unwrap()
            .cell_level_distribution(&Thresholds::new(4).unwrap(), &sample.unwrap())
            .unwrap();
        assert_eq!(none, None);
    }
}
