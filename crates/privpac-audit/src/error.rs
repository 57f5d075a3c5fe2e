//! The error type of privpac-audit: one variant per kind of bad input, plus the two
//! "claim violated" outcomes of the claim checkers.
//!
//! Every public function validates its input and returns one of these variants
//! instead of panicking, so tests can `assert_eq!` on the exact variant.

/// Everything that can go wrong in privpac-audit.
///
/// Input-validation variants name the offending index or value. The
/// `*ClaimViolated` variants are not input errors: they are the negative
/// verdict of [`check_claim`](crate::check_claim),
/// [`check_pure_claim`](crate::check_pure_claim) and
/// [`check_pure_claim_log`](crate::check_pure_claim_log), returned as `Err` so
/// that a test can simply use `?`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A mechanism under audit failed (raised, or returned the wrong number of outputs).
    #[error("the mechanism under audit failed: {reason}")]
    Mechanism {
        /// What went wrong.
        reason: String,
    },
    /// A probability (or log-probability) vector has no entries.
    #[error("distribution is empty")]
    EmptyDistribution,
    /// Two vectors that must describe the same outputs have different lengths.
    #[error("distributions have different lengths: {left} and {right}")]
    LengthMismatch {
        /// Length of the first vector.
        left: usize,
        /// Length of the second vector.
        right: usize,
    },
    /// A probability is NaN, infinite, negative or greater than one.
    #[error("probability at index {index} is {value}, expected a number in [0, 1]")]
    InvalidProbability {
        /// Position of the entry.
        index: usize,
        /// The offending value.
        value: f64,
    },
    /// A log-probability is NaN or `+∞` (`−∞`, probability zero, is allowed).
    #[error("log-probability at index {index} is {value}, expected a number in [-inf, 0]")]
    InvalidLogProbability {
        /// Position of the entry.
        index: usize,
        /// The offending value.
        value: f64,
    },
    /// Probabilities do not sum to one within
    /// [`NORMALIZATION_TOLERANCE`](crate::NORMALIZATION_TOLERANCE).
    #[error("probabilities sum to {sum}, expected 1")]
    NotNormalized {
        /// The computed sum.
        sum: f64,
    },
    /// Log-probabilities do not log-sum-exp to zero within
    /// [`NORMALIZATION_TOLERANCE`](crate::NORMALIZATION_TOLERANCE).
    #[error("log-probabilities have log-sum-exp {log_sum}, expected 0")]
    NotNormalizedLog {
        /// The computed log-sum-exp.
        log_sum: f64,
    },
    /// ε is NaN or negative.
    #[error("epsilon is {value}, expected a non-negative number")]
    InvalidEpsilon {
        /// The offending value.
        value: f64,
    },
    /// δ is NaN or outside [0, 1].
    #[error("delta is {value}, expected a number in [0, 1]")]
    InvalidDelta {
        /// The offending value.
        value: f64,
    },
    /// A numerical tolerance is NaN, infinite or negative.
    #[error("tolerance is {value}, expected a finite non-negative number")]
    InvalidTolerance {
        /// The offending value.
        value: f64,
    },
    /// A significance level α is not strictly between zero and one.
    #[error("significance level alpha is {value}, expected a number in (0, 1)")]
    InvalidAlpha {
        /// The offending value.
        value: f64,
    },
    /// A confidence level is not strictly between zero and one.
    #[error("confidence level is {value}, expected a number in (0, 1)")]
    InvalidConfidence {
        /// The offending value.
        value: f64,
    },
    /// A claim checker was given no pairs of distributions.
    #[error("no pairs of neighbouring distributions to check")]
    NoPairs,
    /// One pair given to a claim checker is invalid.
    #[error("pair {pair_index} is invalid: {error}")]
    InvalidPair {
        /// Position of the pair in the iterator.
        pair_index: usize,
        /// What is wrong with it.
        error: Box<Error>,
    },
    /// An enumeration of datasets or neighbouring pairs would exceed
    /// [`MAX_DATASETS`](crate::MAX_DATASETS) items; exact audits are for tiny instances.
    #[error("{count} {what} exceed the limit of {limit}; audit a smaller instance")]
    TooManyDatasets {
        /// What was being enumerated.
        what: &'static str,
        /// How many there would be (saturated at `u128::MAX`).
        count: u128,
        /// [`MAX_DATASETS`](crate::MAX_DATASETS).
        limit: usize,
    },
    /// A pair violates the claimed (ε, δ): its hockey-stick divergence at ε
    /// exceeds δ plus the tolerance.
    #[error(
        "pair {pair_index} violates the claim: delta({epsilon}) is {measured_delta}, claimed {claimed_delta}"
    )]
    ClaimViolated {
        /// Position of the first violating pair.
        pair_index: usize,
        /// The claimed ε.
        epsilon: f64,
        /// The claimed δ.
        claimed_delta: f64,
        /// The measured symmetric hockey-stick divergence at ε.
        measured_delta: f64,
    },
    /// A pair violates the claimed pure ε: its max divergence exceeds ε plus
    /// the tolerance.
    #[error(
        "pair {pair_index} violates the pure claim: measured epsilon {measured_epsilon}, claimed {claimed_epsilon}"
    )]
    PureClaimViolated {
        /// Position of the first violating pair.
        pair_index: usize,
        /// The claimed ε.
        claimed_epsilon: f64,
        /// The measured max divergence.
        measured_epsilon: f64,
    },
    /// A statistical test was given no samples (or only zero counts).
    #[error("no samples to test")]
    EmptySample,
    /// A sample is NaN.
    #[error("sample at index {index} is {value}, expected a number")]
    InvalidSample {
        /// Position of the sample.
        index: usize,
        /// The offending value.
        value: f64,
    },
    /// A CDF closure returned NaN or a value outside [0, 1].
    #[error("cdf({point}) is {value}, expected a number in [0, 1]")]
    InvalidCdfValue {
        /// The point the CDF was evaluated at.
        point: f64,
        /// The value it returned.
        value: f64,
    },
    /// A PMF closure returned NaN, an infinity, or a value outside [0, 1].
    #[error("pmf({point}) is {value}, expected a number in [0, 1]")]
    InvalidPmfValue {
        /// The point the PMF was evaluated at.
        point: i64,
        /// The value it returned.
        value: f64,
    },
    /// The observed integer range would need more bins than
    /// [`MAX_INTEGER_BINS`](crate::MAX_INTEGER_BINS).
    #[error("samples span [{min}, {max}], more than the supported number of bins")]
    RangeTooLarge {
        /// Smallest sample.
        min: i64,
        /// Largest sample.
        max: i64,
    },
    /// After merging bins to reach the minimum expected count there are fewer
    /// than two bins, so the χ² test has no degrees of freedom.
    #[error("only {bins} bin(s) left after merging, the sample is too small for a chi-square test")]
    TooFewBins {
        /// Number of bins left.
        bins: usize,
    },
    /// A black-box audit was given fewer than two selection runs per input (one proposes
    /// events, one ranks them).
    #[error("{runs} selection runs per input, expected at least 2")]
    TooFewSelectionRuns {
        /// The selection runs given.
        runs: u64,
    },
    /// A black-box audit was asked to certify no pair.
    #[error("the number of certified pairs is zero, expected at least 1")]
    ZeroCertifiedPairs,
    /// A binomial test was given zero trials.
    #[error("number of trials is zero")]
    ZeroTrials,
    /// A binomial test was given more trials than
    /// [`MAX_TRIALS`](crate::MAX_TRIALS).
    #[error("number of trials is {trials}, more than the supported maximum")]
    TooManyTrials {
        /// The number of trials.
        trials: u64,
    },
    /// More successes than trials.
    #[error("{successes} successes in {trials} trials")]
    SuccessesExceedTrials {
        /// Number of successes.
        successes: u64,
        /// Number of trials.
        trials: u64,
    },
    /// A success probability is NaN or outside [0, 1].
    #[error("success probability is {value}, expected a number in [0, 1]")]
    InvalidSuccessProbability {
        /// The offending value.
        value: f64,
    },
}

/// `Result` with privpac-audit's [`Error`] as the default error type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
