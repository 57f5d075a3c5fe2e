//! The crate's error type: one variant per distinct kind of bad input, and the checks of
//! the parameters several mechanisms share.

/// Everything that can go wrong when building or running a mechanism of this crate.
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
    /// A selection mechanism was given no candidates.
    #[error("the candidate list is empty")]
    EmptyCandidates,
    /// A score is NaN or infinite.
    #[error("score at index {index} is not a finite number ({value})")]
    NonFiniteScore {
        /// Position of the offending score.
        index: usize,
        /// The offending score.
        value: f64,
    },
    /// A score level of the count-weighted exponential mechanism has count zero.
    #[error("score level {index} has count zero")]
    ZeroCount {
        /// Position of the offending level.
        index: usize,
    },
    /// The total number of candidates of the count-weighted exponential mechanism is too
    /// large for exact integer bookkeeping.
    #[error("total candidate count exceeds the supported limit of {limit}")]
    TooManyCandidates {
        /// The largest supported total count.
        limit: u64,
    },
    /// Stable selection needs at least two candidates to measure a gap.
    #[error("stable selection needs at least 2 candidates, got {count}")]
    TooFewCandidates {
        /// The number of candidates given.
        count: usize,
    },
    /// ε is too small for the floating-point error budget of the exponential mechanism.
    #[error(
        "epsilon {value} is below {minimum}, the smallest value the floating-point error budget allows"
    )]
    EpsilonTooSmall {
        /// The rejected value.
        value: f64,
        /// The smallest accepted value.
        minimum: f64,
    },
    /// A noise scale (or ε/Δ ratio) cannot be represented as the exact rational the integer
    /// samplers need.
    #[error("noise scale {value} is outside the range the exact integer sampler supports")]
    UnrepresentableScale {
        /// The rejected scale.
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
    /// A query value passed to a mechanism is NaN or infinite.
    #[error("query value is not a finite number ({value})")]
    NonFiniteQuery {
        /// The offending value.
        value: f64,
    },
    /// A query value is too large for the grid of the Laplace mechanism
    /// (`|value| > 2^61·g`).
    #[error("query value {value:e} is outside the grid's range ±{limit:e}")]
    QueryOutOfRange {
        /// The offending value.
        value: f64,
        /// The largest accepted magnitude.
        limit: f64,
    },
    /// A grid exponent `k` (grid `2^-k`) is outside the supported range.
    #[error("grid exponent must be in {min}..={max}, got {value}")]
    InvalidGridExponent {
        /// The rejected exponent.
        value: i32,
        /// The smallest accepted exponent.
        min: i32,
        /// The largest accepted exponent.
        max: i32,
    },
    /// An integer query answer plus noise left the range of `i64` (or, for the grid
    /// Laplace mechanism, the index range `±2^62`).
    #[error("noisy answer overflows its integer range")]
    Overflow,
    /// A sparse-vector instance has already used up its budget of positive answers.
    #[error("sparse vector has already answered its {limit} above-threshold queries")]
    SparseVectorExhausted {
        /// The number of above-threshold answers allowed.
        limit: u64,
    },
    /// An error of the privacy accounting the mechanisms are built on (an invalid
    /// [`Privacy`](privpac_accounting::Privacy), a composition rule's refusal), with its own
    /// message.
    #[error(transparent)]
    Accounting(#[from] privpac_accounting::Error),
}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Checks that ε is finite and > 0 and returns it.
pub(crate) fn validate_epsilon(epsilon: f64) -> Result<f64> {
    if epsilon.is_finite() && epsilon > 0.0 {
        Ok(epsilon)
    } else {
        Err(Error::InvalidEpsilon { value: epsilon })
    }
}

/// Checks that a sensitivity is finite and > 0 and returns it.
pub(crate) fn validate_sensitivity(sensitivity: f64) -> Result<f64> {
    if sensitivity.is_finite() && sensitivity > 0.0 {
        Ok(sensitivity)
    } else {
        Err(Error::InvalidSensitivity { value: sensitivity })
    }
}
