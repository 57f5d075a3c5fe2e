//! The crate's error type.

/// Everything that can go wrong when learning.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An error from the privpac-classes crate (sizes, domains, budgets).
    #[error(transparent)]
    Class(#[from] privpac_classes::Error),
    /// An error from the mechanisms crate (privacy parameters, candidate limits).
    #[error(transparent)]
    Mechanism(#[from] privpac_mechanisms::Error),
    /// An invalid privacy parameter or a composition rule's refusal, from
    /// `privpac-accounting`.
    #[error(transparent)]
    Accounting(#[from] privpac_accounting::Error),
    /// The sanitizer of a sanitizer-based learner failed (a failure that is not the
    /// sanitizer's own error, e.g. its weights could not be sampled).
    #[error("sanitizer: {0}")]
    Sanitizer(String),
    /// The sanitizer of a sanitizer-based learner refused, with its typed error (so that
    /// front ends can tell a parameter out of range from a size above a limit).
    #[error("sanitizer: {0}")]
    SanitizerFailed(#[source] privpac_sanitizers::Error),
    /// The learner needs at least one example.
    #[error("the sample is empty")]
    EmptySample,
    /// A realizable learner found no concept consistent with the sample.
    #[error(
        "no concept of {class} is consistent with the sample (the least number of mistakes is {best})"
    )]
    NotRealizable {
        /// The class name.
        class: String,
        /// The smallest number of mistakes of any concept.
        best: u64,
    },
    /// The sample is too small for the learner's parameters.
    #[error("the sample has {got} examples; this learner needs at least {needed}")]
    SampleTooSmall {
        /// The fewest examples the learner accepts.
        needed: usize,
        /// The sample size.
        got: usize,
    },
    /// A learner implemented outside the workspace (a Python learner behind the bindings'
    /// adapter) failed or returned a hypothesis that is not one of the class.
    #[error("{learner}: {message}")]
    External {
        /// The learner's name.
        learner: String,
        /// What went wrong.
        message: String,
    },
    /// A randomized predictor has parameters its sampler refuses (a noisy vote's ε, a
    /// flip probability); possible only for one built by hand or deserialized.
    #[error("invalid hypothesis: {reason}")]
    InvalidHypothesis {
        /// What is wrong with it.
        reason: String,
    },
    /// A concept the learner would output has neither a 64-bit id nor parts the class
    /// names it by (a class whose labeling cells name neither; the classes of privpac
    /// name every concept one way or the other).
    #[error(
        "{class}: the concept to output has no 64-bit id, and the class does not name it by its parts"
    )]
    Unnamable {
        /// The class name.
        class: String,
    },
    /// A learner parameter is out of range.
    #[error("{name} must be {requirement}, got {value}")]
    InvalidParameter {
        /// The parameter.
        name: &'static str,
        /// What it must satisfy.
        requirement: &'static str,
        /// The rejected value.
        value: f64,
    },
}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
