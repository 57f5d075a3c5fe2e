//! The crate's error type.

/// Everything that can go wrong when building a k-labeled sample or multi-learning.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An error from the privpac-classes crate (domains, points outside the domain).
    #[error(transparent)]
    Class(#[from] privpac_classes::Error),
    /// An error from the mechanisms crate (privacy parameters, composition).
    #[error(transparent)]
    Mechanism(#[from] privpac_mechanisms::Error),
    /// An invalid privacy parameter or a composition rule's refusal, from
    /// `privpac-accounting`.
    #[error(transparent)]
    Accounting(#[from] privpac_accounting::Error),
    /// An error from the sanitizer a multi-learner runs.
    #[error("sanitizer: {0}")]
    Sanitizer(#[from] privpac_sanitizers::Error),
    /// An error from the single-concept learner a direct sum runs.
    #[error("learner: {0}")]
    Learner(#[from] privpac_learners::Error),
    /// A k-labeled sample needs at least one label column.
    #[error("a k-labeled sample needs k >= 1 label columns, got k = 0")]
    NoLabelColumns,
    /// A label row does not have k labels.
    #[error("label row {row} has {found} labels, expected k = {expected}")]
    RaggedRow {
        /// The row (0-based).
        row: usize,
        /// k, read from the first row.
        expected: usize,
        /// The labels in this row.
        found: usize,
    },
    /// A label column does not have one label per point.
    #[error("label column {column} has {found} labels, expected one per point ({expected})")]
    RaggedColumn {
        /// The column (0-based).
        column: usize,
        /// The number of points.
        expected: usize,
        /// The labels in this column.
        found: usize,
    },
    /// The number of label rows differs from the number of points.
    #[error("{points} points but {rows} label rows")]
    RowCount {
        /// The number of points.
        points: usize,
        /// The number of label rows.
        rows: usize,
    },
    /// A column-major bit matrix has the wrong number of words.
    #[error("a bit matrix of k = {k} columns over {n} points needs {expected} words, got {found}")]
    BitMatrixLength {
        /// The number of columns.
        k: usize,
        /// The number of points.
        n: usize,
        /// `k·⌈n/64⌉`.
        expected: usize,
        /// The words given.
        found: usize,
    },
    /// A multi-learner built for k concepts got data with a different number of label
    /// columns.
    #[error("this multi-learner was built for k = {expected} concepts, the data has k = {found}")]
    LabelCountMismatch {
        /// The k the learner (or the call) expects.
        expected: usize,
        /// The k of the data.
        found: usize,
    },
    /// The sample's domain is not the class's domain.
    #[error("the sample's domain ({sample}) is not the class's domain ({class})")]
    DomainMismatch {
        /// The sample's domain.
        sample: String,
        /// The class's domain.
        class: String,
    },
    /// The learner needs at least one example.
    #[error("the sample is empty")]
    EmptySample,
    /// The learner needs data on the hypercube `{0,1}^d`.
    #[error("{learner} needs the hypercube domain {{0,1}}^d, got {domain}")]
    NotHypercube {
        /// The learner.
        learner: &'static str,
        /// The domain it got.
        domain: String,
    },
    /// The learner works for one concept class only.
    #[error("{learner} learns {expected} only, got the class {class}")]
    UnsupportedClass {
        /// The learner.
        learner: &'static str,
        /// The class it learns.
        expected: &'static str,
        /// The class it got.
        class: String,
    },
    /// The algorithm is (ε, δ)-DP by a stability argument and needs δ > 0.
    #[error("{algorithm} needs approximate differential privacy (delta > 0), got delta = 0")]
    DeltaRequired {
        /// The algorithm.
        algorithm: &'static str,
    },
    /// A total privacy budget cannot be split into k usable per-column budgets.
    #[error(
        "the total budget (epsilon = {epsilon}, delta = {delta}) is too small to split over k = {k} columns: {reason}"
    )]
    BudgetTooSmall {
        /// The total ε.
        epsilon: f64,
        /// The total δ.
        delta: f64,
        /// The number of columns.
        k: usize,
        /// Why.
        reason: &'static str,
    },
    /// A direct sum's inner learner whose guarantee is neither (ε, δ)-DP nor per-prediction
    /// ε-DP (a uniformly stable or non-private learner): a direct sum of it has no privacy
    /// budget to keep.
    #[error(
        "the direct sum composes (ε, δ)-DP or per-prediction ε-DP learners; the inner learner {learner} reports \"{guarantee}\", so no total ε can be kept"
    )]
    InnerNotPrivate {
        /// The inner learner's name.
        learner: String,
        /// Its reported guarantee.
        guarantee: String,
    },
    /// The number of hypotheses differs from the number of targets or label columns.
    #[error("{found} hypotheses for {expected} concepts")]
    HypothesisCount {
        /// The number of concepts.
        expected: usize,
        /// The number of hypotheses.
        found: usize,
    },
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
