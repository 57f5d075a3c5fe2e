//! The empirical-learner conversion: run a learner on a random subsample, and gain privacy
//! through secrecy of the sample.

use concept_classes::{ConceptClass, Hypothesis, LabeledSample};
use dp_mechanisms::{Guarantee, Privacy, secrecy_of_the_sample};
use rand::{Rng, RngExt};

use crate::error::{Error, Result};
use crate::learner::Learner;

/// Runs an inner learner on `inner_size` rows drawn uniformly **with replacement** from a
/// sample of exactly `outer_size ≥ 2·inner_size` rows.
///
/// # Privacy
/// If the inner learner is (ε, δ)-DP with ε ≤ 1, this learner is
/// `(6ε·m/n, 4·e^{6εm/n}·(m/n)·δ)`-DP for m = `inner_size`, n = `outer_size` (secrecy of
/// the sample; Kasiviswanathan et al. 2008, Bun–Nissim–Stemmer–Vadhan 2015; see
/// [`dp_mechanisms::secrecy_of_the_sample`]). The guarantee is fixed at construction, so
/// samples of any other size are rejected.
///
/// # Errors
/// Construction: the inner learner must be private with ε ≤ 1 and `outer_size ≥
/// 2·inner_size`. Learning: [`Error::InvalidParameter`] for a sample of the wrong size.
#[derive(Debug)]
pub struct Subsampled {
    inner: Box<dyn Learner>,
    inner_size: usize,
    outer_size: usize,
    privacy: Privacy,
}

impl Subsampled {
    /// Wraps `inner`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] if `inner` is not private; the errors of
    /// [`secrecy_of_the_sample`].
    pub fn new(inner: Box<dyn Learner>, inner_size: usize, outer_size: usize) -> Result<Self> {
        let inner_privacy =
            inner
                .guarantee(inner_size)
                .privacy()
                .ok_or(Error::InvalidParameter {
                    name: "inner learner",
                    requirement: "differentially private",
                    value: f64::NAN,
                })?;
        let privacy = secrecy_of_the_sample(inner_privacy, inner_size as u64, outer_size as u64)?;
        Ok(Subsampled {
            inner,
            inner_size,
            outer_size,
            privacy,
        })
    }
}

impl Learner for Subsampled {
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Hypothesis> {
        if sample.len() != self.outer_size {
            return Err(Error::InvalidParameter {
                name: "sample size",
                requirement: "equal to the outer size the guarantee was computed for",
                value: sample.len() as f64,
            });
        }
        let pairs: Vec<(u64, bool)> = (0..self.inner_size)
            .map(|_| {
                let i = rng.random_range(0..sample.len());
                (sample.points()[i], sample.labels()[i])
            })
            .collect();
        let subsample = LabeledSample::from_pairs(class.domain(), &pairs)?;
        self.inner.learn(class, &subsample, rng)
    }

    fn guarantee(&self, _examples: usize) -> Guarantee {
        self.privacy.into()
    }

    fn name(&self) -> String {
        format!("subsampled({})", self.inner.name())
    }
}
