//! The [`Learner`] trait shared by every single-concept learner.

use privpac_accounting::Guarantee;
use privpac_classes::{ConceptClass, LabeledSample};
use rand::Rng;

use crate::error::Result;
use crate::predictor::Predictor;

/// A (possibly private) PAC learner: a labeled sample in, a [`Predictor`] out (a
/// deterministic hypothesis, or a randomized predictor for the private-prediction
/// learners).
///
/// The trait is object-safe (the generator is `&mut dyn Rng`) so that the lab can hold
/// `Box<dyn Learner>` and run learners side by side.
pub trait Learner: std::fmt::Debug + Send + Sync {
    /// Learns a predictor for `class` from `sample` (deterministic learners return
    /// [`Predictor::Hypothesis`]).
    ///
    /// # Errors
    /// Learner-specific; see each implementation.
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Predictor>;

    /// The guarantee of one call to [`Self::learn`] on a sample of `examples` examples,
    /// with respect to samples of that size that differ in one example: (ε, δ)-DP of the
    /// hypothesis, ε-DP per prediction, uniform stability, or none. Learners whose
    /// guarantee does not depend on the sample size ignore `examples`.
    fn guarantee(&self, examples: usize) -> Guarantee;

    /// `Some(w)` when one call to [`Self::learn`] on samples of `examples` examples is a
    /// w-bounded-range mechanism (at every pair of neighbouring samples its privacy loss
    /// spans an interval of width at most w; Durfee–Rogers 2019), as the exponential
    /// mechanism is. Multi-learners then compose k such runs by
    /// `privpac_accounting::bounded_range_composition` (Dong–Durfee–Rogers 2020), tighter
    /// than composing the (ε, 0)-DP guarantee. `None` (the default) claims nothing; a
    /// learner must only return `Some` when the claim is proved for it.
    fn bounded_range(&self, examples: usize) -> Option<f64> {
        let _ = examples;
        None
    }

    /// A proven lower bound on how often every prediction of a predictor this learner
    /// outputs disagrees with any fixed label, whatever the sample: `Some(floor)` claims
    /// that for every sample of `examples` examples, every point x and each label
    /// b ∈ {0, 1}, `Pr[prediction at x = b] ≥ floor.flip` over the learner's coins
    /// (randomized response on predictions, a noisy vote whose two labels both keep a
    /// probability). Then against labels from a concept of the class flipped independently
    /// with probability ν < 1/2 the excess error (true error − OPT, OPT = ν) is at least
    /// `flip·(1 − 2ν)` (see [`ErrorFloor::excess_floor`]), so an accuracy α below it cannot
    /// be reached at any confidence. `None` (the default) claims nothing; a learner must
    /// only return `Some` when the bound is proved for it.
    fn error_floor(&self, examples: usize) -> Option<ErrorFloor> {
        let _ = examples;
        None
    }

    /// A short name for reports (`generic`, `erm`, …).
    fn name(&self) -> String;
}

/// A learner's proven prediction floor ([`Learner::error_floor`]): every prediction takes
/// each label with probability at least `flip`, for every sample and every point.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ErrorFloor {
    /// The smallest probability of either label at any point, in [0, 1/2].
    pub flip: f64,
    /// Where the floor comes from, one sentence naming the mechanism and its parameters.
    pub source: String,
}

impl ErrorFloor {
    /// The floor of the excess error against labels from a concept of the class flipped
    /// independently with probability `label_noise` = ν ∈ [0, 1/2): `flip·(1 − 2ν)`.
    ///
    /// Proof: at a point x whose label is the target's bit c(x) with probability 1 − ν, a
    /// prediction that equals c(x) with probability p errs with probability
    /// `ν + (1 − 2ν)(1 − p)`; since `1 − p ≥ flip`, the error at x is at least
    /// `ν + (1 − 2ν)·flip`, and averaging over x, `err(h) − OPT ≥ (1 − 2ν)·flip` with OPT = ν
    /// (the target attains it). The product is rounded down by one part in 10⁹ so the
    /// floating-point result stays a lower bound.
    pub fn excess_floor(&self, label_noise: f64) -> f64 {
        (self.flip * (1.0 - 2.0 * label_noise) * (1.0 - 1e-9)).max(0.0)
    }

    /// The floor of a predictor that flips the answer of a predictor with floor `inner`
    /// with probability η: `η + (1 − 2η)·inner` (each label keeps at least the flip
    /// probability plus what survives of the inner floor).
    pub fn flipped(eta: f64, inner: f64) -> f64 {
        eta + (1.0 - 2.0 * eta) * inner
    }
}
