//! The crate's error type: one variant per distinct kind of bad input.

/// Everything that can go wrong when validating or composing privacy guarantees.
///
/// Every variant names the offending value, so a caller can report it without guessing.
/// Variants are added over time, hence `#[non_exhaustive]`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// ε must be a finite number strictly greater than zero.
    #[error("epsilon must be finite and > 0, got {value}")]
    InvalidEpsilon {
        /// The rejected value.
        value: f64,
    },
    /// δ must lie in `[0, 1)`.
    #[error("delta must be in [0, 1), got {value}")]
    InvalidDelta {
        /// The rejected value.
        value: f64,
    },
    /// The sensitivity must be finite and strictly positive.
    #[error("sensitivity must be finite and > 0, got {value}")]
    InvalidSensitivity {
        /// The rejected value.
        value: f64,
    },
    /// A noise scale must be finite and strictly positive.
    #[error("noise scale must be finite and > 0, got {value}")]
    InvalidScale {
        /// The rejected value.
        value: f64,
    },
    /// A probability parameter must lie in the stated range.
    #[error("{name} must be in {range}, got {value}")]
    InvalidProbability {
        /// Parameter name.
        name: &'static str,
        /// The accepted range, written as an interval.
        range: &'static str,
        /// The rejected value.
        value: f64,
    },
    /// A numeric parameter other than ε, δ, a scale or a probability is out of range.
    #[error("{name} must be in {range}, got {value}")]
    InvalidParameter {
        /// The parameter.
        name: &'static str,
        /// The accepted range.
        range: &'static str,
        /// The rejected value.
        value: f64,
    },
    /// A composition rule that needs every run to have the same guarantee was given runs
    /// with different ones.
    #[error(
        "{rule} needs every run to have the same (epsilon, delta); use advanced composition for mixed guarantees"
    )]
    MixedGuarantees {
        /// The rule.
        rule: &'static str,
    },
    /// A count parameter (number of mechanisms, group size, sample sizes) is out of range.
    #[error("{name} must be {requirement}, got {value}")]
    InvalidCount {
        /// Parameter name.
        name: &'static str,
        /// What the parameter must satisfy.
        requirement: &'static str,
        /// The rejected value.
        value: u64,
    },
    /// An accountant entry has no (ε, δ) guarantee to compose (uniform stability, or a
    /// non-private run).
    #[error("cannot compose {label:?}: its guarantee is not differential privacy ({guarantee})")]
    NotDifferentiallyPrivate {
        /// The label the entry was recorded with.
        label: String,
        /// The entry's guarantee, as text.
        guarantee: String,
    },
    /// A composition result is not a valid privacy guarantee (for example δ reaches 1).
    #[error("the composed guarantee is vacuous: {reason}")]
    VacuousGuarantee {
        /// Why the result is not a valid guarantee.
        reason: &'static str,
    },
}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
