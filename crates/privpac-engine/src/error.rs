//! The crate's error type.

/// Everything that can go wrong when building specs, reading data, building scenarios or
/// running trials.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An error from the privpac-classes crate.
    #[error(transparent)]
    Class(#[from] privpac_classes::Error),
    /// An error from a learner.
    #[error(transparent)]
    Learner(#[from] privpac_learners::Error),
    /// An error from a sanitizer.
    #[error(transparent)]
    Sanitizer(#[from] privpac_sanitizers::Error),
    /// An error from a multi-learner.
    #[error(transparent)]
    Multi(#[from] privpac_multi::Error),
    /// A multi-learner name that no `MultiLearnerSpec` (privpac-toolkit) matches.
    #[error(
        "unknown multi-learner {name:?} (expected direct-sum[:NAME], generic[:SANITIZER], parity or point)"
    )]
    UnknownMultiLearner {
        /// The rejected name.
        name: String,
    },
    /// An error from a mechanism or a privacy parameter.
    #[error(transparent)]
    Mechanism(#[from] privpac_mechanisms::Error),
    /// An invalid privacy parameter or a composition rule's refusal, from
    /// `privpac-accounting`.
    #[error(transparent)]
    Accounting(#[from] privpac_accounting::Error),
    /// A scenario or trial parameter is out of range.
    #[error("{name} must be {requirement}, got {value}")]
    InvalidParameter {
        /// The parameter.
        name: &'static str,
        /// What it must satisfy.
        requirement: &'static str,
        /// The rejected value.
        value: f64,
    },
    /// A user-given count or size is above the limit this crate accepts (checked before
    /// anything is allocated in proportion to it).
    #[error("{name} is {value}, above the limit of {limit}")]
    TooLarge {
        /// The count.
        name: &'static str,
        /// The limit.
        limit: u64,
        /// The rejected value.
        value: u64,
    },
    /// A learner name that no `LearnerSpec` (privpac-toolkit) matches.
    #[error(
        "unknown learner {name:?} (expected erm, generic, improper-point, interior-point, stable, private-prediction, voting, relabeling, dagan-feldman or sanitizer[:NAME])"
    )]
    UnknownLearner {
        /// The rejected name.
        name: String,
    },
    /// A distribution name other than uniform, zipf or point.
    #[error("unknown distribution {name:?} (expected uniform, zipf or point)")]
    UnknownDistribution {
        /// The rejected name.
        name: String,
    },
    /// A sanitizer name that no `SanitizerSpec` (privpac-toolkit) matches.
    #[error(
        "unknown sanitizer {name:?} (expected point, blr, pmw, mwem, tree or treelog-quantiles)"
    )]
    UnknownSanitizer {
        /// The rejected name.
        name: String,
    },
    /// The learner's reported guarantee stays above the requested (ε, δ) however its
    /// shares are shrunk (not expected for any shipped learner; a guard, not a limit).
    #[error("{learner}: no split of the budget gives a reported guarantee within the request")]
    BudgetDoesNotFit {
        /// The learner.
        learner: String,
    },
    /// A parameter the chosen learner needs was not given.
    #[error("{learner} needs {name}")]
    MissingParameter {
        /// The learner.
        learner: String,
        /// The parameter.
        name: &'static str,
    },
    /// A parameter was given to a learner it does not apply to (e.g. ε to the stable
    /// learner, whose output is uniformly stable, not differentially private).
    #[error("{learner} does not take {name}: {reason}")]
    NotApplicable {
        /// The learner.
        learner: String,
        /// The parameter.
        name: &'static str,
        /// Why, and what to give instead.
        reason: &'static str,
    },
    /// A privacy target that no sample size meets with the other parameters as given.
    #[error("{learner} cannot meet the target ε = {target}: {reason}")]
    TargetUnreachable {
        /// The learner.
        learner: String,
        /// The requested ε.
        target: f64,
        /// Why, with the largest parameter that works.
        reason: String,
    },
    /// The learner is pure ε-DP but δ > 0 was asked for.
    #[error("{learner} is pure ε-DP; δ must be 0, got {delta}")]
    PureOnly {
        /// The learner.
        learner: String,
        /// The rejected δ.
        delta: f64,
    },
    /// A file could not be read.
    #[error("cannot read {path}: {reason}")]
    Io {
        /// The path.
        path: String,
        /// The operating system's message.
        reason: String,
    },
    /// A file is larger than the lab reads ([`crate::limits::MAX_INPUT_BYTES`]).
    #[error("{path} is larger than the {limit}-byte limit on input files")]
    FileTooLarge {
        /// The path.
        path: String,
        /// The limit in bytes.
        limit: u64,
    },
    /// A line of a data file could not be read.
    #[error("line {line}: {reason}")]
    BadDataLine {
        /// 1-based line number.
        line: u64,
        /// What is wrong with it.
        reason: String,
    },
    /// A data file holds no example (it is empty, or has only a header and comments).
    #[error("no data: the file is empty or has only a header and comments")]
    EmptyData,
    /// The domain is too large to compute true errors exactly.
    #[error("the domain has {size} points; exact true errors support at most {limit}")]
    DomainTooLarge {
        /// |X|.
        size: u128,
        /// The limit.
        limit: u128,
    },
    /// The search for an empirical sample complexity gave up.
    #[error("no sample size up to {max_size} reached success rate {target}")]
    SampleComplexityNotReached {
        /// The largest size tried.
        max_size: usize,
        /// The target success rate 1 − β.
        target: f64,
    },
    /// A time budget given to a measurement ran out (checked between sizes of a search).
    #[error("no answer within the time budget of {seconds} s")]
    TimeBudget {
        /// The budget in seconds.
        seconds: f64,
    },
    /// The search concluded that the accuracy α is out of reach for this learner on this
    /// scenario, before its largest size: a proven error floor above α, or a success rate
    /// that plateaued below 1 − β (see [`crate::stopping`]).
    #[error("accuracy α = {alpha} is out of reach: {reason}")]
    Unreachable {
        /// α.
        alpha: f64,
        /// Why, with the numbers the decision rests on.
        reason: crate::stopping::StopReason,
    },
}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
