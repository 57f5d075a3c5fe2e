//! A proper (ε, δ)-differentially private learner for thresholds through the interior point
//! problem (Kaplan, Ligett, Mansour, Naor and Stemmer 2020, §1; Bun, Nissim, Stemmer and
//! Vadhan 2015), with privpac's [`TreeLog`] as the interior point algorithm.
//!
//! # The reduction (derived here; the text sketches it)
//! Thresholds over `[N]` label `x` with 1 iff `x ≤ t`. On a labeled sample of n examples let
//! `m = max(1, ⌊αn/4⌋)`, `P` = the m largest of the positive points together with m copies of
//! 0, and `Q` = the m smallest of the negative points together with m copies of `N − 1`.
//! TreeLog runs on the 2m points `P ∪ Q` over `[0, 2^d)`, `d = ⌈log₂ N⌉`, and the learner
//! outputs the threshold at its answer y (clamped to `N − 1`).
//!
//! **Privacy.** Replacing one example changes the positive points and the negative points
//! each by at most one addition, removal or replacement; with the padding, the m largest
//! (smallest) of a multiset of at least m points then change by at most one replacement, so
//! the two inputs of TreeLog are at distance at most 2 in the replace-one relation. TreeLog
//! runs at `(ε/2, δ/(1 + e^{ε/2}))`, and group privacy for two replacements gives
//! `(ε, δ)`: the target. The padding values and m are fixed by N, n and α, which are
//! public.
//!
//! **Empirical error.** If the sample is realizable (positives ≤ t < negatives) and y is
//! an interior point of `P ∪ Q`, then y ≥ min P, and every positive point misclassified
//! (`x > y ≥ min P`) is strictly above the m-th largest, hence among the m largest, but
//! not the smallest of them: at most m − 1; the same for negatives `≤ y ≤ max Q`. So the
//! empirical error is below `2m/n ≤ α/2`.
//!
//! **Accuracy.** See [`crate::bounds::interior_point_learner_sample_size`].

use privpac_accounting::{Guarantee, Privacy};
use privpac_classes::{ConceptClass, Domain, Hypothesis, LabeledSample};
use privpac_mechanisms::TreeLog;
use rand::Rng;

use crate::error::{Error, Result};
use crate::learner::Learner;
use crate::predictor::Predictor;

/// The interior-point threshold learner (module documentation).
///
/// # Privacy
/// (ε, δ)-differentially private for samples of one size that differ in one example
/// (module documentation), for every sample; accuracy needs a realizable sample.
///
/// # Errors
/// Construction: [`Error::InvalidParameter`] for α outside (0, 1) or δ = 0. Learning:
/// [`Error::InvalidHypothesis`] for a class that is not thresholds over an ordered domain,
/// [`Error::EmptySample`], and TreeLog's errors.
///
/// # Example
/// ```
/// use privpac_classes::{LabeledSample, Thresholds, ConceptClass};
/// use privpac_learners::{InteriorPointLearner, Learner, Predictor};
/// use privpac_accounting::Privacy;
/// use rand::SeedableRng;
/// let class = Thresholds::new(1 << 20)?;
/// let learner = InteriorPointLearner::new(Privacy::new(1.0, 1e-6)?, 0.1)?;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
/// let points: Vec<u64> = (0..2000).map(|i| i * 500).collect();
/// let labels: Vec<bool> = points.iter().map(|&x| x <= 400_000).collect();
/// let sample = LabeledSample::new(class.domain(), points, labels)?;
/// let predictor = learner.learn(&class, &sample, &mut rng)?;
/// assert!(matches!(predictor, Predictor::Hypothesis(_)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InteriorPointLearner {
    privacy: Privacy,
    alpha: f64,
}

impl InteriorPointLearner {
    /// The learner for the target (ε, δ), δ > 0, and empirical-error target α/2.
    ///
    /// # Errors
    /// See the type documentation.
    pub fn new(privacy: Privacy, alpha: f64) -> Result<Self> {
        if !(alpha > 0.0 && alpha < 1.0) {
            return Err(Error::InvalidParameter {
                name: "alpha",
                requirement: "in (0, 1)",
                value: alpha,
            });
        }
        if privacy.is_pure() {
            return Err(Error::InvalidParameter {
                name: "delta",
                requirement: "> 0 (the interior-point learner is approximately private)",
                value: 0.0,
            });
        }
        Ok(InteriorPointLearner { privacy, alpha })
    }

    /// The accuracy parameter α.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// The privacy TreeLog runs at: `(ε/2, δ/(1 + e^{ε/2}))`.
    ///
    /// # Errors
    /// [`Error::Accounting`] if it cannot be represented.
    pub fn treelog_privacy(&self) -> Result<Privacy> {
        let half = self.privacy.epsilon() / 2.0;
        Ok(Privacy::new(
            half,
            self.privacy.delta() / (1.0 + half.exp()) * (1.0 - 1e-12),
        )?)
    }

    /// The number m of points per side that TreeLog receives from n examples.
    pub fn side_size(&self, examples: usize) -> u64 {
        ((self.alpha * examples as f64 / 4.0).floor() as u64).max(1)
    }

    /// The TreeLog instance for a domain of `size` points and n examples.
    ///
    /// # Errors
    /// TreeLog's construction errors.
    pub fn treelog(&self, size: u64, examples: usize) -> Result<TreeLog> {
        let bits = domain_bits(size);
        Ok(TreeLog::new(
            self.treelog_privacy()?,
            bits,
            2 * self.side_size(examples),
        )?)
    }
}

impl InteriorPointLearner {
    /// TreeLog's input: the m largest positives and the m smallest negatives, padded with
    /// 0 and `size − 1` (module documentation), in increasing order.
    ///
    /// The padding values are the domain's extremes, so when a side has at least m points
    /// its padding is never among the m kept (a kept 0 or `size − 1` is then a sample
    /// point of equal value): the m kept points are found by selection
    /// (`select_nth_unstable`, linear time) and only they are sorted, which gives the same
    /// vector as sorting the padded side.
    pub(crate) fn treelog_input(&self, size: u64, sample: &LabeledSample) -> Vec<u64> {
        let m = self.side_size(sample.len()) as usize;
        let mut positives: Vec<u64> = Vec::with_capacity(sample.len());
        let mut negatives: Vec<u64> = Vec::with_capacity(sample.len());
        for (x, y) in sample.iter() {
            if y {
                positives.push(x);
            } else {
                negatives.push(x);
            }
        }
        let mut points = Vec::with_capacity(2 * m);
        // The m largest positives (with zeros below them when there are fewer than m).
        let extra = positives.len().saturating_sub(m);
        if extra > 0 {
            positives.select_nth_unstable(extra);
        }
        points.extend(std::iter::repeat_n(0, m.saturating_sub(positives.len())));
        points.extend_from_slice(&positives[extra..]);
        points.sort_unstable();
        // The m smallest negatives (with `size − 1` above them when there are fewer).
        let kept = negatives.len().min(m);
        if negatives.len() > m {
            negatives.select_nth_unstable(m);
        }
        let start = points.len();
        points.extend_from_slice(&negatives[..kept]);
        points[start..].sort_unstable();
        points.extend(std::iter::repeat_n(size - 1, m - kept));
        points
    }
}

/// `⌈log₂ size⌉`, at least 1.
pub(crate) fn domain_bits(size: u64) -> u32 {
    (u64::BITS - size.saturating_sub(1).leading_zeros()).max(1)
}

impl Learner for InteriorPointLearner {
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Predictor> {
        let size = match class.domain() {
            Domain::Ordered { size } if class.name().starts_with("thresholds:") => *size,
            _ => {
                return Err(Error::InvalidHypothesis {
                    reason: format!(
                        "the interior-point learner learns thresholds over an ordered domain, not {}",
                        class.name()
                    ),
                });
            }
        };
        if sample.is_empty() {
            return Err(Error::EmptySample);
        }
        sample.check_domain(class.domain())?;
        let points = self.treelog_input(size, sample);
        let treelog = self.treelog(size, sample.len())?;
        let y = treelog.run(&points, rng)?.min(size - 1);
        Ok(Predictor::from(Hypothesis::Concept { id: y }))
    }

    fn guarantee(&self, _examples: usize) -> Guarantee {
        Guarantee::DifferentialPrivacy(self.privacy)
    }

    fn name(&self) -> String {
        "interior-point".to_string()
    }
}

#[cfg(test)]
#[path = "tests/interior_point.rs"]
mod tests;
