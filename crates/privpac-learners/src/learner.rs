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

    /// A short name for reports (`generic`, `erm`, …).
    fn name(&self) -> String;
}
