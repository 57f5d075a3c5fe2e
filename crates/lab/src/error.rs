//! The crate's error type.

/// Everything that can go wrong when building scenarios or running trials.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An error from the concept-classes crate.
    #[error(transparent)]
    Class(#[from] concept_classes::Error),
    /// An error from a learner.
    #[error(transparent)]
    Learner(#[from] learners::Error),
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
}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
