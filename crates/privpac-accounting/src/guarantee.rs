//! The one vocabulary for what an algorithm promises about one run.
//!
//! A mechanism or sanitizer is (ε, δ)-differentially private as a whole ([`Privacy`]). A
//! learner may promise less: only that each *prediction* of its model is ε-DP with respect
//! to the training sample (private prediction, Dwork–Feldman 2018; Dagan–Feldman 2020), or
//! only that its predictions are uniformly stable, or nothing. [`Guarantee`] names these
//! kinds, so that learners, multi-learners, the [`crate::Accountant`] and reports share one
//! type and nobody re-derives a guarantee from a learner's parameters.

use crate::error::{Error, Result};
use crate::privacy::Privacy;
use crate::readable::RoundedUp;

/// What one run of an algorithm guarantees, with respect to the neighbouring relation its
/// documentation states (for learners: samples of the same size that differ in one
/// example).
///
/// Serialized with a `kind` tag and the numbers as fields, e.g.
/// `{"kind":"differential_privacy","epsilon":1.0,"delta":0.0}`.
///
/// # Example
/// ```
/// use privpac_accounting::{Guarantee, Privacy};
/// let whole = Guarantee::from(Privacy::pure(1.0)?);
/// assert_eq!(whole.privacy(), Some(Privacy::pure(1.0)?));
/// let per_prediction = Guarantee::per_prediction(0.5)?;
/// assert_eq!(per_prediction.privacy(), None);
/// assert_eq!(per_prediction.to_string(), "each prediction is 0.5-DP (one query per model)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Build the per-prediction and stability kinds with [`Guarantee::per_prediction`] and
/// [`Guarantee::uniform_stability`], which validate the number; deserialization runs the
/// same checks.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(tag = "kind", rename_all = "snake_case", try_from = "RawGuarantee")
)]
#[non_exhaustive]
pub enum Guarantee {
    /// The whole output (the trained model, the synthetic database, the released value) is
    /// (ε, δ)-differentially private.
    DifferentialPrivacy(Privacy),
    /// Each prediction of the trained model on a query point is ε-differentially private
    /// with respect to the training sample, for one query per trained model. The model
    /// itself is not private. ε is finite and positive: build it with
    /// [`Guarantee::per_prediction`] (see there for why ε = 0 is refused).
    PerPrediction {
        /// The ε of one prediction.
        epsilon: f64,
    },
    /// The prediction on any point changes in probability by at most β when one training
    /// example is replaced (uniform stability); not differential privacy.
    UniformStability {
        /// The stability parameter β.
        beta: f64,
    },
    /// No privacy guarantee (a non-private baseline).
    None,
}

impl Guarantee {
    /// A per-prediction guarantee, validated like any ε.
    ///
    /// ε = 0 is refused like everywhere else: only a predictor whose output ignores its
    /// training data is 0-DP, and a learner has no use for a guarantee object then; a
    /// computed per-prediction ε of 0 for a predictor that reads its data is a rounding
    /// error that must be rounded up (a bound `ln(1 + x)` evaluated as `(1 + x).ln()` for
    /// `x < 2⁻⁵³` gives 0), so learners build their guarantees here rather than with the
    /// variant, and a claim that is not a finite positive ε becomes an error, which a
    /// learner reports as [`Guarantee::None`].
    ///
    /// # Errors
    /// [`Error::InvalidEpsilon`] unless ε is finite and > 0.
    pub fn per_prediction(epsilon: f64) -> Result<Self> {
        let epsilon = Privacy::pure(epsilon)?.epsilon();
        Ok(Guarantee::PerPrediction { epsilon })
    }

    /// A uniform-stability guarantee.
    ///
    /// # Errors
    /// [`Error::InvalidProbability`] unless β ∈ [0, 1].
    pub fn uniform_stability(beta: f64) -> Result<Self> {
        if !(0.0..=1.0).contains(&beta) {
            return Err(Error::InvalidProbability {
                name: "stability beta",
                range: "[0, 1]",
                value: beta,
            });
        }
        Ok(Guarantee::UniformStability { beta })
    }

    /// The (ε, δ) guarantee of the whole output, if the algorithm gives one.
    pub fn privacy(self) -> Option<Privacy> {
        match self {
            Guarantee::DifferentialPrivacy(privacy) => Some(privacy),
            _ => None,
        }
    }

    /// The (ε, δ) guarantee of what is *released*: the whole output for
    /// [`Guarantee::DifferentialPrivacy`], one prediction for [`Guarantee::PerPrediction`]
    /// (δ = 0), `None` for the others. This is what an [`crate::Accountant`] composes.
    pub fn released_privacy(self) -> Option<Privacy> {
        match self {
            Guarantee::DifferentialPrivacy(privacy) => Some(privacy),
            Guarantee::PerPrediction { epsilon } => Privacy::pure(epsilon).ok(),
            _ => None,
        }
    }

    /// ε where the guarantee has one (whole output or per prediction).
    pub fn epsilon(self) -> Option<f64> {
        self.released_privacy().map(Privacy::epsilon)
    }

    /// δ where the guarantee has one (0 for per-prediction ε-DP).
    pub fn delta(self) -> Option<f64> {
        self.released_privacy().map(Privacy::delta)
    }

    /// A short machine-readable name of the kind (`differential_privacy`, `per_prediction`,
    /// `uniform_stability`, `none`), the same string as the serialized `kind` tag.
    pub fn kind(self) -> &'static str {
        match self {
            Guarantee::DifferentialPrivacy(_) => "differential_privacy",
            Guarantee::PerPrediction { .. } => "per_prediction",
            Guarantee::UniformStability { .. } => "uniform_stability",
            Guarantee::None => "none",
        }
    }
}

/// The unvalidated form a [`Guarantee`] is deserialized from (validation runs on the way
/// in, through the constructors).
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum RawGuarantee {
    DifferentialPrivacy(Privacy),
    PerPrediction { epsilon: f64 },
    UniformStability { beta: f64 },
    None,
}

#[cfg(feature = "serde")]
impl TryFrom<RawGuarantee> for Guarantee {
    type Error = Error;

    fn try_from(raw: RawGuarantee) -> Result<Self> {
        match raw {
            RawGuarantee::DifferentialPrivacy(privacy) => {
                Ok(Guarantee::DifferentialPrivacy(privacy))
            }
            RawGuarantee::PerPrediction { epsilon } => Guarantee::per_prediction(epsilon),
            RawGuarantee::UniformStability { beta } => Guarantee::uniform_stability(beta),
            RawGuarantee::None => Ok(Guarantee::None),
        }
    }
}

impl From<Privacy> for Guarantee {
    fn from(privacy: Privacy) -> Self {
        Guarantee::DifferentialPrivacy(privacy)
    }
}

/// Prints the guarantee for people, its numbers rounded up to a readable precision as in
/// [`Privacy`]'s `Display` ([`RoundedUp`]).
impl std::fmt::Display for Guarantee {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Guarantee::DifferentialPrivacy(privacy) => write!(f, "{privacy}"),
            Guarantee::PerPrediction { epsilon } => write!(
                f,
                "each prediction is {}-DP (one query per model)",
                RoundedUp(*epsilon)
            ),
            Guarantee::UniformStability { beta } => write!(
                f,
                "uniformly stable predictions, β = {} (not DP)",
                RoundedUp(*beta)
            ),
            Guarantee::None => write!(f, "none (not private)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_validate() {
        assert!(Guarantee::per_prediction(0.0).is_err());
        assert!(Guarantee::per_prediction(f64::NAN).is_err());
        assert!(Guarantee::uniform_stability(1.5).is_err());
        assert!(Guarantee::uniform_stability(f64::NAN).is_err());
        assert_eq!(
            Guarantee::uniform_stability(0.25).unwrap(),
            Guarantee::UniformStability { beta: 0.25 }
        );
    }

    #[test]
    fn display_rounds_numbers_up() {
        let g = Guarantee::per_prediction(0.9999999997239273).unwrap();
        assert_eq!(
            g.to_string(),
            "each prediction is 1-DP (one query per model)"
        );
        let g = Guarantee::uniform_stability(0.12345678).unwrap();
        assert_eq!(
            g.to_string(),
            "uniformly stable predictions, β = 0.123457 (not DP)"
        );
        let g = Guarantee::from(Privacy::pure(0.5000000000000001).unwrap());
        assert_eq!(g.to_string(), "(0.500001, 0)-DP");
    }

    #[test]
    fn released_privacy_by_kind() {
        let p = Privacy::new(1.0, 1e-6).unwrap();
        assert_eq!(Guarantee::from(p).released_privacy(), Some(p));
        assert_eq!(
            Guarantee::per_prediction(0.5).unwrap().released_privacy(),
            Some(Privacy::pure(0.5).unwrap())
        );
        assert_eq!(
            Guarantee::UniformStability { beta: 0.1 }.released_privacy(),
            None
        );
        assert_eq!(Guarantee::None.released_privacy(), None);
        assert_eq!(Guarantee::None.epsilon(), None);
        assert_eq!(Guarantee::from(p).delta(), Some(1e-6));
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serializes_numbers_as_fields() {
        let p = Privacy::new(0.5, 1e-6).unwrap();
        let json = serde_json::to_value(Guarantee::from(p)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"kind": "differential_privacy", "epsilon": 0.5, "delta": 1e-6})
        );
        let back: Guarantee = serde_json::from_value(json).unwrap();
        assert_eq!(back, Guarantee::from(p));
        let json = serde_json::to_value(Guarantee::PerPrediction { epsilon: 0.25 }).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"kind": "per_prediction", "epsilon": 0.25})
        );
        for guarantee in [
            Guarantee::None,
            Guarantee::UniformStability { beta: 0.1 },
            Guarantee::from(p),
        ] {
            let text = serde_json::to_string(&guarantee).unwrap();
            assert!(text.contains(guarantee.kind()), "{text}");
        }
    }

    /// A per-prediction ε of 0 (or a stability outside [0, 1], or an invalid (ε, δ)) is
    /// refused on the way in, as by the constructors; valid values round-trip.
    #[cfg(feature = "serde")]
    #[test]
    fn deserialization_validates() {
        for text in [
            r#"{"kind":"per_prediction","epsilon":0.0}"#,
            r#"{"kind":"per_prediction","epsilon":-1.0}"#,
            r#"{"kind":"uniform_stability","beta":1.5}"#,
            r#"{"kind":"differential_privacy","epsilon":0.0,"delta":0.0}"#,
            r#"{"kind":"per_prediction"}"#,
            r#"{"kind":"unknown"}"#,
        ] {
            assert!(serde_json::from_str::<Guarantee>(text).is_err(), "{text}");
        }
        for guarantee in [
            Guarantee::None,
            Guarantee::per_prediction(0.25).unwrap(),
            Guarantee::per_prediction(f64::MIN_POSITIVE).unwrap(),
            Guarantee::uniform_stability(0.0).unwrap(),
            Guarantee::from(Privacy::new(0.5, 1e-6).unwrap()),
        ] {
            let text = serde_json::to_string(&guarantee).unwrap();
            assert_eq!(
                serde_json::from_str::<Guarantee>(&text).unwrap(),
                guarantee,
                "{text}"
            );
        }
    }
}
