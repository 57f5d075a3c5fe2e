//! The crate's error type: one variant per distinct kind of bad input.

/// Everything that can go wrong when building or running a sanitizer, or when measuring
/// a synthetic database.
///
/// Every variant names the offending value. Points outside the class's domain and class
/// sizes beyond the dense error-profile limit come from `privpac-classes` and are wrapped
/// in [`Error::Class`]; invalid privacy parameters and noise scales come from
/// `privpac-mechanisms` and are wrapped in [`Error::Mechanism`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An error from the privpac-classes crate (a point outside the domain, a class too
    /// large for a dense error profile, a concept id out of range).
    #[error(transparent)]
    Class(#[from] privpac_classes::Error),
    /// An error from the mechanisms crate (privacy parameters, noise scales).
    #[error(transparent)]
    Mechanism(#[from] privpac_mechanisms::Error),
    /// An invalid privacy parameter or a composition rule's refusal, from
    /// `privpac-accounting`.
    #[error(transparent)]
    Accounting(#[from] privpac_accounting::Error),
    /// The sanitizer needs at least one data point.
    #[error("the data set is empty")]
    EmptyData,
    /// The algorithm is only (ε, δ)-differentially private with δ > 0, and δ = 0 was given.
    #[error("{algorithm} needs approximate differential privacy (delta > 0), got delta = 0")]
    DeltaRequired {
        /// The algorithm's name.
        algorithm: &'static str,
    },
    /// The algorithm is purely ε-differentially private, and δ > 0 was given (pass the δ
    /// you want to spend elsewhere, or build a pure guarantee).
    #[error("{algorithm} is purely differentially private; got delta = {delta}, expected 0")]
    PureRequired {
        /// The algorithm's name.
        algorithm: &'static str,
        /// The rejected δ.
        delta: f64,
    },
    /// Enumerating or materializing something would exceed a size limit.
    #[error(
        "{what} needs {}{unit}, above the limit of {limit}",
        if *needed == u128::MAX { "at least 2^128 − 1 ".to_string() } else { format!("{needed} ") }
    )]
    TooLarge {
        /// What was being built or enumerated.
        what: &'static str,
        /// How much it would need (saturated at `u128::MAX`).
        needed: u128,
        /// The unit of `needed` and `limit`.
        unit: &'static str,
        /// The limit in force.
        limit: u128,
    },
    /// A numeric parameter is out of range.
    #[error("{name} must be {requirement}, got {value}")]
    InvalidParameter {
        /// The parameter.
        name: &'static str,
        /// What it must satisfy.
        requirement: &'static str,
        /// The rejected value.
        value: f64,
    },
    /// The algorithm does not support the class's domain.
    #[error("{algorithm} needs {requirement}, got the domain {domain}")]
    UnsupportedDomain {
        /// The algorithm's name.
        algorithm: &'static str,
        /// What the domain must be.
        requirement: &'static str,
        /// The domain that was given.
        domain: String,
    },
    /// MWEM measures a different query in every round, so it needs at least as many
    /// queries as rounds.
    #[error(
        "MWEM's {rounds} rounds need at least {rounds} distinct queries, but the class gives only \
         {queries} (take at most {queries} rounds: --rounds in the CLI, rounds in Python)"
    )]
    TooManyRounds {
        /// The number of rounds.
        rounds: usize,
        /// The number of queries.
        queries: usize,
    },
    /// The query list is empty.
    #[error("the query list is empty")]
    NoQueries,
    /// A histogram weight is negative, NaN or infinite.
    #[error("weight at position {index} must be finite and >= 0, got {value}")]
    InvalidWeight {
        /// Position of the offending weight.
        index: usize,
        /// The offending weight.
        value: f64,
    },
    /// A histogram has no positive weight, or a multiset has no point: a synthetic
    /// database must have mass 1.
    #[error("a synthetic database needs positive total mass")]
    EmptySynthetic,
    /// A dense histogram's length differs from the size of its domain.
    #[error("a dense histogram over {domain} needs {expected} weights, got {found}")]
    HistogramLength {
        /// The domain.
        domain: String,
        /// |X|.
        expected: u128,
        /// The number of weights given.
        found: usize,
    },
    /// The synthetic database lives on a different domain than the class.
    #[error("the synthetic database is over {synthetic}, but the class is over {class}")]
    DomainMismatch {
        /// The synthetic database's domain.
        synthetic: String,
        /// The class's domain.
        class: String,
    },
}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
