//! Validated privacy parameters and the trait every private algorithm implements.
//!
//! A [`Privacy`] value is an (ε, δ) pair that has passed validation once: ε is finite and
//! strictly positive, δ lies in `[0, 1)`. Algorithms take a `Privacy`, never two loose
//! `f64`s, so no callee re-checks or panics (validate once, then pass validated types).

use crate::error::{Error, Result};
use crate::readable::RoundedUp;

/// A validated differential-privacy guarantee (ε, δ).
///
/// A randomized algorithm `A` is (ε, δ)-differentially private if for all neighbouring
/// inputs `D`, `D'` and every set of outputs `S`,
/// `Pr[A(D) ∈ S] ≤ e^ε · Pr[A(D') ∈ S] + δ` (Dwork, McSherry, Nissim, Smith 2006;
/// Dwork–Roth, *The Algorithmic Foundations of Differential Privacy*, Definition 2.4).
/// δ = 0 is *pure* differential privacy.
///
/// # Example
/// ```
/// use privpac_accounting::Privacy;
/// let p = Privacy::new(0.5, 1e-6)?;
/// assert_eq!(p.epsilon(), 0.5);
/// assert!(!p.is_pure());
/// assert!(Privacy::new(f64::NAN, 0.0).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "RawPrivacy"))]
pub struct Privacy {
    epsilon: f64,
    delta: f64,
}

impl Privacy {
    /// Validates and builds an (ε, δ) guarantee.
    ///
    /// # Errors
    /// [`Error::InvalidEpsilon`] unless ε is finite and > 0; [`Error::InvalidDelta`] unless
    /// 0 ≤ δ < 1 (NaN is rejected).
    pub fn new(epsilon: f64, delta: f64) -> Result<Self> {
        let epsilon = validate_epsilon(epsilon)?;
        if !(0.0..1.0).contains(&delta) {
            return Err(Error::InvalidDelta { value: delta });
        }
        Ok(Privacy { epsilon, delta })
    }

    /// Builds a pure ε-DP guarantee (δ = 0).
    ///
    /// # Errors
    /// [`Error::InvalidEpsilon`] unless ε is finite and > 0.
    pub fn pure(epsilon: f64) -> Result<Self> {
        Privacy::new(epsilon, 0.0)
    }

    /// The ε of this guarantee.
    pub fn epsilon(self) -> f64 {
        self.epsilon
    }

    /// The δ of this guarantee.
    pub fn delta(self) -> f64 {
        self.delta
    }

    /// Whether this is a pure guarantee (δ = 0).
    pub fn is_pure(self) -> bool {
        self.delta == 0.0
    }
}

/// Prints `(ε, δ)-DP` for people: ε and δ each rounded *up* to
/// [`crate::READABLE_DIGITS`] significant digits ([`RoundedUp`]), so the text is still an
/// upper bound: `(0.5, 0)-DP`, `(1, 1e-6)-DP`, and `(0.500001, 0)-DP` for an ε of
/// `0.5000000000000001`. [`Privacy::exact`] prints every digit; serialization keeps the
/// exact f64s.
impl std::fmt::Display for Privacy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_pure() {
            write!(f, "({}, 0)-DP", RoundedUp(self.epsilon))
        } else {
            write!(
                f,
                "({}, {:e})-DP",
                RoundedUp(self.epsilon),
                RoundedUp(self.delta)
            )
        }
    }
}

impl Privacy {
    /// Displays `(ε, δ)-DP` with every digit of the f64s (the shortest decimals that read
    /// back as them), for a figure compared digit by digit with a request; `Display` rounds
    /// up to a readable precision instead.
    ///
    /// ```
    /// use privpac_accounting::Privacy;
    /// let p = Privacy::pure(0.5000000000000001)?;
    /// assert_eq!(p.to_string(), "(0.500001, 0)-DP");
    /// assert_eq!(p.exact().to_string(), "(0.5000000000000001, 0)-DP");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn exact(self) -> ExactPrivacy {
        ExactPrivacy(self)
    }
}

/// [`Privacy`] displayed with every digit: see [`Privacy::exact`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExactPrivacy(Privacy);

impl std::fmt::Display for ExactPrivacy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Privacy { epsilon, delta } = self.0;
        if delta == 0.0 {
            write!(f, "({epsilon}, 0)-DP")
        } else {
            write!(f, "({epsilon}, {delta:e})-DP")
        }
    }
}

/// The unvalidated form a [`Privacy`] is deserialized from (validation runs on the way in).
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct RawPrivacy {
    epsilon: f64,
    delta: f64,
}

#[cfg(feature = "serde")]
impl TryFrom<RawPrivacy> for Privacy {
    type Error = Error;

    fn try_from(raw: RawPrivacy) -> Result<Self> {
        Privacy::new(raw.epsilon, raw.delta)
    }
}

/// Implemented by every private algorithm: the guarantee it provides for the parameters it
/// was built with.
///
/// Tests compare this claim with measured behaviour (exact output distributions through the
/// `privpac-audit` crate), so the claim is machine-checked rather than prose.
pub trait Private {
    /// The (ε, δ) guarantee of one run of the algorithm, with respect to the neighbouring
    /// relation documented on the implementing type.
    fn privacy(&self) -> Privacy;
}

impl<T: Private + ?Sized> Private for &T {
    fn privacy(&self) -> Privacy {
        (**self).privacy()
    }
}

impl<T: Private + ?Sized> Private for Box<T> {
    fn privacy(&self) -> Privacy {
        (**self).privacy()
    }
}

/// Checks that ε is finite and > 0 and returns it.
pub(crate) fn validate_epsilon(epsilon: f64) -> Result<f64> {
    if epsilon.is_finite() && epsilon > 0.0 {
        Ok(epsilon)
    } else {
        Err(Error::InvalidEpsilon { value: epsilon })
    }
}

/// Builds the result of an accounting rule, turning a vacuous δ into a typed error.
pub(crate) fn composed(epsilon: f64, delta: f64, rule: &'static str) -> Result<Privacy> {
    if delta.is_nan() || delta >= 1.0 {
        return Err(Error::VacuousGuarantee { reason: rule });
    }
    if !epsilon.is_finite() {
        return Err(Error::VacuousGuarantee {
            reason: "epsilon is infinite",
        });
    }
    Privacy::new(epsilon, delta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(epsilon: f64, delta: f64, expected: Result<()>) {
        assert_eq!(Privacy::new(epsilon, delta).map(|_| ()), expected);
    }

    #[test]
    fn accepts_valid_parameters() {
        check(1.0, 0.0, Ok(()));
        check(1e-9, 0.999_999, Ok(()));
        check(1e3, 1e-300, Ok(()));
    }

    #[test]
    fn rejects_bad_epsilon() {
        for value in [0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0] {
            let got = Privacy::new(value, 0.0).unwrap_err();
            assert!(
                matches!(got, Error::InvalidEpsilon { .. }),
                "{value}: {got}"
            );
        }
    }

    #[test]
    fn rejects_bad_delta() {
        check(1.0, 1.0, Err(Error::InvalidDelta { value: 1.0 }));
        check(1.0, -1e-9, Err(Error::InvalidDelta { value: -1e-9 }));
        check(1.0, 2.0, Err(Error::InvalidDelta { value: 2.0 }));
        let nan = Privacy::new(1.0, f64::NAN).unwrap_err();
        assert!(matches!(nan, Error::InvalidDelta { value } if value.is_nan()));
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_round_trips_and_validates() {
        let p = Privacy::new(0.5, 1e-6).unwrap();
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(json, r#"{"epsilon":0.5,"delta":1e-6}"#);
        assert_eq!(serde_json::from_str::<Privacy>(&json).unwrap(), p);
        assert!(serde_json::from_str::<Privacy>(r#"{"epsilon":-1.0,"delta":0.0}"#).is_err());
        assert!(serde_json::from_str::<Privacy>(r#"{"epsilon":1.0,"delta":1.0}"#).is_err());
    }

    #[test]
    fn display_is_readable() {
        assert_eq!(Privacy::pure(0.5).unwrap().to_string(), "(0.5, 0)-DP");
        assert_eq!(Privacy::new(1.0, 1e-6).unwrap().to_string(), "(1, 1e-6)-DP");
    }

    /// Long f64s print rounded up to six significant digits (still upper bounds); the
    /// exact form keeps every digit.
    #[test]
    fn display_rounds_long_numbers_up() {
        let p = Privacy::new(0.9999999997239273, 1.0000000000000002e-6).unwrap();
        assert_eq!(p.to_string(), "(1, 1.00001e-6)-DP");
        assert_eq!(
            p.exact().to_string(),
            "(0.9999999997239273, 1.0000000000000002e-6)-DP"
        );
        let p = Privacy::pure(0.5000000000000001).unwrap();
        assert_eq!(p.to_string(), "(0.500001, 0)-DP");
        assert_eq!(p.exact().to_string(), "(0.5000000000000001, 0)-DP");
        assert_eq!(
            Privacy::pure(1.365).unwrap().exact().to_string(),
            "(1.365, 0)-DP"
        );
    }

    #[test]
    fn public_types_have_autotraits() {
        fn assert_auto<T: Send + Sync + Unpin>() {}
        assert_auto::<Privacy>();
        assert_auto::<crate::Error>();
        assert_auto::<crate::Guarantee>();
        assert_auto::<crate::PldStep>();
        assert_auto::<crate::Accountant>();
    }

    proptest::proptest! {
        /// Constructors return `Ok` or a typed error for every float, never panic.
        #[test]
        fn constructors_never_panic(epsilon in proptest::num::f64::ANY, delta in proptest::num::f64::ANY,
                                    other in proptest::num::f64::ANY) {
            let privacy = Privacy::new(epsilon, delta);
            if let Ok(p) = privacy {
                proptest::prop_assert!(p.epsilon() > 0.0 && p.epsilon().is_finite());
                proptest::prop_assert!((0.0..1.0).contains(&p.delta()));
                let _ = crate::advanced_composition(p, 10, other);
                let _ = crate::group_privacy(p, 7);
                let _ = crate::amplification_by_subsampling(p, crate::Subsampling::Poisson { rate: other });
            }
        }
    }
}
