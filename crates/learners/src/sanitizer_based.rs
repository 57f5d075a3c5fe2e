//! The sanitizer-based learner: sanitize the sample's points with respect to C⊕, then
//! choose among one representative per dichotomy of C on the synthetic database.

use concept_classes::{ConceptClass, Hypothesis, LabeledSample, Point, Xor};
use dp_mechanisms::{ExponentialMechanism, Guarantee, Privacy, Private, basic_composition};
use rand::Rng;
use sanitizers::Sanitizer;

use crate::error::{Error, Result};
use crate::learner::Learner;
use crate::stable::select_from_cover;

/// The sanitizer-based learner of Beimel, Nissim and Stemmer (as stated in Bun–Nissim–
/// Stemmer, "Simultaneous private learning of multiple concepts", Theorem 2.23; theorem
/// number not verified against the paper), generic over any [`Sanitizer`]:
///
/// 1. sanitize the sample's points (labels unused) with respect to the XOR class
///    `C⊕ = {f ⊕ g : f, g ∈ C}`, giving a synthetic database D̂;
/// 2. take one representative concept per dichotomy of C on the support of D̂ (a cover H);
/// 3. choose from H with the exponential mechanism, score −(mistakes on the sample).
///
/// Why it learns: the target's representative h agrees with the target on D̂, so
/// `(h ⊕ target)(D̂) = 0` and, if the sanitizer is α-accurate for C⊕, h disagrees with the
/// target on at most an α fraction of the sample; the exponential mechanism then finds a
/// hypothesis nearly as good.
///
/// # Privacy
/// Basic composition of the sanitizer's (ε₁, δ₁) (step 1 sees only the points; replacing
/// one example replaces at most one point) and the exponential mechanism's ε₂ (step 3;
/// H is post-processing of D̂): `(ε₁ + ε₂, δ₁)`.
///
/// # Running time
/// The sanitizer on |C|² queries, then O(|C|·(|support| + n)) for the cover and scores;
/// classes up to the dense-profile limit.
#[derive(Debug)]
pub struct SanitizerLearner {
    sanitizer: Box<dyn Sanitizer>,
    mechanism: ExponentialMechanism,
    privacy: Privacy,
}

impl SanitizerLearner {
    /// Combines a sanitizer with a selection step spending `selection` (pure).
    ///
    /// # Errors
    /// [`Error::Mechanism`] for an invalid selection guarantee or a vacuous composition.
    pub fn new(sanitizer: Box<dyn Sanitizer>, selection: Privacy) -> Result<Self> {
        let mechanism = ExponentialMechanism::new(selection, 1.0)?;
        let privacy = basic_composition(&[sanitizer.privacy(), selection])?;
        Ok(SanitizerLearner {
            sanitizer,
            mechanism,
            privacy,
        })
    }
}

impl Learner for SanitizerLearner {
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Hypothesis> {
        if sample.is_empty() {
            return Err(Error::EmptySample);
        }
        let errors = class.error_counts(sample)?;
        let xor = Xor::new(class)?;
        let synthetic = self
            .sanitizer
            .sanitize(&xor, sample.points(), rng)
            .map_err(|e| Error::Sanitizer(e.to_string()))?;
        let support: Vec<Point> = synthetic
            .weights()
            .into_iter()
            .filter(|&(_, w)| w > 0.0)
            .map(|(x, _)| x)
            .collect();
        select_from_cover(&self.mechanism, class, &support, &errors, rng)
    }

    fn guarantee(&self, _examples: usize) -> Guarantee {
        self.privacy.into()
    }

    fn name(&self) -> String {
        format!("sanitizer:{}", self.sanitizer.name())
    }
}
