//! The crate's error type: one variant per distinct kind of bad input.

/// Everything that can go wrong when building domains, classes, samples or running the
/// dimension calculators and online learners.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A point does not belong to the domain.
    #[error("point {point} is outside the domain ({domain})")]
    PointOutsideDomain {
        /// The offending point.
        point: u64,
        /// A description of the domain.
        domain: String,
    },
    /// A hypercube dimension outside `1..=64`, or a parameter that makes a domain empty.
    #[error("invalid domain: {reason}")]
    InvalidDomain {
        /// Why the domain is invalid.
        reason: String,
    },
    /// A class parameter is out of range.
    #[error("invalid class parameter: {reason}")]
    InvalidClass {
        /// Why the class is invalid.
        reason: String,
    },
    /// A concept id does not name a concept of the class.
    #[error("concept id {id} is out of range (the class has {len} concepts)")]
    ConceptOutOfRange {
        /// The offending id.
        id: u64,
        /// The number of concepts.
        len: u128,
    },
    /// Points and labels of a sample have different lengths.
    #[error("sample has {points} points but {labels} labels")]
    LengthMismatch {
        /// Number of points.
        points: usize,
        /// Number of labels.
        labels: usize,
    },
    /// An operation needs a non-empty sample.
    #[error("the sample is empty")]
    EmptySample,
    /// Materializing or enumerating would exceed a size limit.
    #[error(
        "{what} needs {}{unit}, above the limit of {limit}",
        if *needed == u128::MAX { "at least 2^128 − 1 ".to_string() } else { format!("{needed} ") }
    )]
    TooLarge {
        /// What was being built.
        what: &'static str,
        /// How much it would need.
        needed: u128,
        /// The unit of `needed` and `limit` (cells, concepts, points, subsets, …).
        unit: &'static str,
        /// The limit in force.
        limit: u128,
    },
    /// An exact computation would exceed its state budget.
    #[error("{what} exceeded its budget of {limit} states")]
    StateBudgetExceeded {
        /// Which computation.
        what: &'static str,
        /// The budget in force.
        limit: u64,
    },
    /// A class matrix has no rows or no columns.
    #[error("the class matrix is empty")]
    EmptyMatrix,
    /// A matrix row has a different number of cells than the first row.
    #[error("line {line}: row has {found} cells, expected {expected}")]
    RaggedMatrix {
        /// 1-based line number in the input.
        line: usize,
        /// Cells in the first row.
        expected: usize,
        /// Cells in this row.
        found: usize,
    },
    /// A matrix cell is not 0 or 1.
    #[error("line {line}, cell {cell}: {value:?} is not 0 or 1")]
    BadMatrixCell {
        /// 1-based line number.
        line: usize,
        /// 1-based cell number within the row.
        cell: usize,
        /// The offending text.
        value: String,
    },
    /// A class specification could not be parsed.
    #[error("bad class spec {spec:?}: {reason}")]
    BadSpec {
        /// The specification text.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A witness does not verify against the class.
    #[error("witness rejected: {reason}")]
    InvalidWitness {
        /// Why the witness fails.
        reason: String,
    },
    /// A labeled sequence is not realizable by the class (no concept is consistent).
    #[error(
        "the sequence is not realizable by the class: no concept is consistent with the first {round} examples"
    )]
    NotRealizable {
        /// Number of examples after which the version space became empty.
        round: usize,
    },
    /// A version-space bitset does not fit the class (wrong length, or bits set beyond the
    /// last concept), or an operation needs a non-empty version space.
    #[error("invalid version space: {reason}")]
    InvalidVersionSpace {
        /// What is wrong with it.
        reason: String,
    },
    /// A computation is refused because a mathematical fact stands in its way (not a
    /// memory cap): the message names the fact.
    #[error("{what} is out of reach: {reason}")]
    OutOfReach {
        /// The computation refused.
        what: String,
        /// The mathematical fact that stands in the way.
        reason: String,
    },
}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
