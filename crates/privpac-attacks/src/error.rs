//! The crate's error type.

/// Everything that can go wrong when building a fingerprinting code, computing a lower bound
/// or running the tracing attack.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An error from privpac-multi (building the attack's k-labeled database, or the
    /// attacked multi-learner's own errors).
    #[error(transparent)]
    Multi(#[from] privpac_multi::Error),
    /// An error from the privpac-classes crate (domains, points outside the domain).
    #[error(transparent)]
    Class(#[from] privpac_classes::Error),
    /// The number of hypotheses differs from the number of label columns.
    #[error("{found} hypotheses for {expected} concepts")]
    HypothesisCount {
        /// The number of concepts.
        expected: usize,
        /// The number of hypotheses.
        found: usize,
    },
    /// A fingerprinting codebook would be too large to build.
    #[error("a codebook of {users} users × {length} positions exceeds {limit} bits")]
    CodebookTooLarge {
        /// Users.
        users: usize,
        /// Code length.
        length: u128,
        /// The limit in bits.
        limit: u128,
    },
    /// An attack with more users than any codebook within the size limit can serve.
    #[error(
        "n = {users} users is too many for the {code} code at security xi = {xi}: its codebook (n × code length) would exceed {limit} bits; n can be at most {max_users}"
    )]
    TooManyUsers {
        /// The code.
        code: &'static str,
        /// The number of users asked for.
        users: usize,
        /// The security ξ.
        xi: f64,
        /// The largest n that fits.
        max_users: usize,
        /// The limit in bits.
        limit: u128,
    },
    /// A pirate word or coalition does not fit the codebook.
    #[error("{what}: {reason}")]
    CodeMismatch {
        /// What was checked.
        what: &'static str,
        /// Why it does not fit.
        reason: String,
    },
    /// The attack's k is below the length the code needs for its security at n users.
    #[error(
        "the {code} code for n = {users} users at security xi = {xi} needs k >= {needed} columns, got k = {k}"
    )]
    CodeTooShort {
        /// The code.
        code: &'static str,
        /// The number of users n.
        users: usize,
        /// The security ξ.
        xi: f64,
        /// The length the code needs.
        needed: u128,
        /// The k given.
        k: usize,
    },
    /// No points of the class's domain make the code's columns concepts of the class (or
    /// no junk point for the padding exists).
    #[error("the {code} code is not compatible with the class {class}: {reason}")]
    IncompatibleCode {
        /// The code.
        code: &'static str,
        /// The class.
        class: String,
        /// What is missing.
        reason: &'static str,
    },
    /// A count is above the limit this crate allocates for.
    #[error("{name} = {value} is above the limit {limit}")]
    TooLarge {
        /// The count.
        name: &'static str,
        /// The value given.
        value: u128,
        /// The limit.
        limit: u128,
    },
    /// An error from the statistics of `privpac-audit` (confidence bounds).
    #[error("statistics: {0}")]
    Audit(#[from] privpac_audit::Error),
    /// A parameter is out of range.
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
