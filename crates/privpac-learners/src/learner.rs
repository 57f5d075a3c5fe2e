//! The [`Learner`] trait shared by every single-concept learner.

use privpac_classes::{ConceptClass, Hypothesis, LabeledSample};
use privpac_mechanisms::Guarantee;
use rand::Rng;

use crate::error::Result;

/// A (possibly private) PAC learner: a labeled sample in, a hypothesis out.
///
/// The trait is object-safe (the generator is `&mut dyn Rng`) so that the lab can hold
/// `Box<dyn Learner>` and run learners side by side.
pub trait Learner: std::fmt::Debug + Send + Sync {
    /// Learns a hypothesis for `class` from `sample`.
    ///
    /// # Errors
    /// Learner-specific; see each implementation.
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Hypothesis>;

    /// The guarantee of one call to [`Self::learn`] on a sample of `examples` examples,
    /// with respect to samples of that size that differ in one example: (ε, δ)-DP of the
    /// hypothesis, ε-DP per prediction, uniform stability, or none. Learners whose
    /// guarantee does not depend on the sample size ignore `examples`.
    fn guarantee(&self, examples: usize) -> Guarantee;

    /// A short name for reports (`generic`, `erm`, …).
    fn name(&self) -> String;
}
