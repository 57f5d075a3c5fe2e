//! The [`MultiLearner`] trait shared by every multi-learner.

use privpac_accounting::{Guarantee, Privacy};
use privpac_classes::ConceptClass;
use privpac_learners::Predictor;
use rand::Rng;

use crate::error::Result;
use crate::sample::MultiLabeledSample;

/// A (possibly private) PAC k-learner (Bun–Nissim–Stemmer 2016, Definitions 2.3 and 2.4):
/// a k-labeled sample in, k predictors out (`h_j` for label column `j`; randomized when
/// the learner is, e.g. a direct sum of private-prediction learners).
///
/// Object-safe like `privpac_learners::Learner` (the generator is `&mut dyn Rng`), so the lab can
/// hold `Box<dyn MultiLearner>` and run multi-learners side by side.
pub trait MultiLearner: std::fmt::Debug + Send + Sync {
    /// Learns one predictor per label column of `sample` for concepts of `class`.
    ///
    /// # Errors
    /// Learner-specific; see each implementation.
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &MultiLabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Vec<Predictor>>;

    /// The guarantee of one call to [`Self::learn`] on `examples` examples with `k` label
    /// columns, for the whole k-tuple of hypotheses, with respect to samples of that size
    /// that differ in one whole row `(x_i, y_{i,1}, …, y_{i,k})`.
    fn guarantee(&self, examples: usize, k: usize) -> Guarantee;

    /// A short name for reports (`direct-sum(generic)`, `parity`, `point`).
    fn name(&self) -> String;

    /// For learners that split their budget evenly over the columns (the direct sum): the
    /// per-column budget and the name of the rule the k runs are composed by (`basic`,
    /// `advanced`, `optimal`, `bounded-range`, …), for reports. `None` otherwise.
    fn column_split(&self) -> Option<(Privacy, &'static str)> {
        None
    }
}
