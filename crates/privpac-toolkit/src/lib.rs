//! The front-end toolkit of privpac: name classes, learners and sanitizers with strings,
//! build them, read data, and run whole sample-complexity requests.
//!
//! [`ClassSpec`], [`LearnerSpec`], [`MultiLearnerSpec`] and [`SanitizerSpec`] name classes
//! and algorithms with the same strings on the command line and in configuration files
//! (serde); [`build_learner`], [`build_multi_learner`] and [`build_sanitizer`] construct
//! them within a requested privacy budget; [`bounds_for`] picks the sample-complexity bound
//! that applies; [`parse_labeled_csv`], [`parse_multi_labeled_csv`] and
//! [`parse_points_csv`] read data ([`read_table`] streams files with a row limit and a
//! line-length limit, [`ReadLimits`]; labels are stored as bits).
//! [`Discretizer`] maps real-valued features onto an ordered domain with public bounds and a
//! number of bins, and maps bins back to data units for printing.
//! [`run_sample_complexity`] runs a whole [`SampleComplexityRequest`] given as plain
//! values: what `privpac sample-complexity` and the Python bindings call, so both give the
//! same report.
//!
//! The measurements themselves (scenarios, trials, empirical sample complexity, k-curves)
//! are `privpac-engine`'s; its types are re-exported here so that a front end needs one
//! import path.
//!
//! # Example
//! ```
//! use privpac_toolkit::{
//!     ClassSpec, ExampleDistribution, LearnerParams, LearnerSpec, Scenario, TrialConfig,
//!     build_learner, run_trials,
//! };
//! let spec: ClassSpec = "thresholds:256".parse()?;
//! let params = LearnerParams { epsilon: Some(1.0), ..LearnerParams::default() };
//! let learner = build_learner("generic".parse::<LearnerSpec>()?, &params, 500)?;
//! let scenario = Scenario::new(spec.build()?, ExampleDistribution::Uniform, 100, 0.0)?;
//! let outcome = run_trials(&scenario, learner.as_ref(),
//!     TrialConfig { trials: 20, sample_size: 500, alpha: 0.1, master_seed: 1 })?;
//! assert!(outcome.success_rate > 0.5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![doc(test(attr(deny(warnings))))]

mod bounds;
mod data;
mod discretize;
mod multi_spec;
mod request;
mod spec;
mod target;

pub use bounds::{Bound, bounds_for, bounds_for_buckets, interior_point_bound};
pub use data::{
    Column, ColumnSelection, ColumnsError, DEFAULT_MAX_LINE_BYTES, DEFAULT_MAX_ROWS, DataOptions,
    DataTable, LabelMatrix, ReadLimits, RowShape, parse_labeled_csv, parse_points_csv,
    read_labeled, read_labeled_csv, read_labeled_csv_with, read_points, read_points_csv,
    read_points_csv_with, read_table,
};
pub use discretize::{
    DiscretizeError, Discretizer, MAX_BINS, describe_concept_in_units, describe_in_units,
};
pub use multi_spec::{
    MultiLearnerSpec, build_multi_learner, parse_multi_labeled_csv, read_multi_labeled,
    read_multi_labeled_csv, read_multi_labeled_csv_named, read_multi_labeled_csv_with,
    read_multi_labeled_named,
};
pub use request::{
    DistributionChoice, GUARANTEE_CLAIMED, GUARANTEE_PROVEN, SampleComplexityReport,
    SampleComplexityRequest, run_sample_complexity, run_sample_complexity_with, run_trials_at,
};
pub use request::{
    EvaluateSize, run_sample_complexity_evaluated, run_trials_at_evaluated, run_trials_at_with,
};
pub use spec::{
    ClassSpec, LearnerParams, LearnerSpec, SanitizerParams, SanitizerSpec, build_learner,
    build_sanitizer, default_flip_probability,
};
pub use target::{TargetError, TargetSpec};

// The engine's types, re-exported so that a front end needs one import path.
pub use privpac_engine::{
    ConstantBaseline, Error, ExampleDistribution, HEAVY_MASSES, KCurve, KPoint, LogLogFit,
    MAX_COLUMNS, MAX_EXACT_DOMAIN, MAX_LISTED_DOMAIN, MultiScenario, MultiTargets, Result,
    SampleComplexity, Scenario, ScenarioKind, SearchConfig, TrialConfig, TrialOutcome, TrivialK,
    check_count, default_target, empirical_multi_sample_complexity, empirical_sample_complexity,
    empirical_sample_complexity_observed, empirical_sample_complexity_sized, fit_log_log, limits,
    middle_target, multi_trial_rng, run_multi_trials, run_trials, sample_complexity_curve,
    structured, trial_rng, wilson_interval,
};

/// The examples of the crate's README, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
