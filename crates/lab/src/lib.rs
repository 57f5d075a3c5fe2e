//! The lab: run privpac learners side by side on scenarios and measure how many samples
//! they need.
//!
//! For researchers comparing learners against each other and against the theoretical
//! bounds. A [`Scenario`] fixes a class, a distribution over its finite domain and a target
//! (with optional label noise); true errors are computed exactly over the domain.
//! [`run_trials`] measures a learner's success rate at a sample size over independent,
//! parallel, reproducible trials (trial `i` uses stream `i` of the master seed, so results
//! do not depend on the number of threads), and [`empirical_sample_complexity`] searches
//! for the smallest sample size reaching success rate 1 − β.
//!
//! Multi-learners (k label columns at once): [`MultiScenario`] (k targets, per-column
//! label noise, exact errors), [`run_multi_trials`], [`empirical_multi_sample_complexity`]
//! and [`sample_complexity_curve`] (n against k with a log–log slope and its confidence
//! interval); [`MultiLearnerSpec`] / [`build_multi_learner`] and
//! [`parse_multi_labeled_csv`] for front ends.
//!
//! The lab is also what front ends build on: [`ClassSpec`], [`LearnerSpec`] and
//! [`SanitizerSpec`] name classes and algorithms with the same strings on the command line
//! and in configuration files (serde), [`build_learner`] and [`build_sanitizer`] construct
//! them, [`bounds_for`] picks the sample-complexity bound that applies, and
//! [`parse_labeled_csv`] / [`parse_points_csv`] read data. [`run_sample_complexity`] runs a
//! whole [`SampleComplexityRequest`] given as plain values (what `privpac
//! sample-complexity` and the Python bindings call, so both give the same report). User-given counts are checked
//! against the [`limits`] before anything is allocated in proportion to them.
//!
//! For structured classes and distributions (thresholds, points, intervals, parities;
//! uniform, point mass plus uniform, Zipf) true errors take time independent of |X|
//! ([`structured`]), so scenarios may have up to 2^62 points. [`experiment`] holds the named,
//! seeded, shardable experiments behind `privpac experiment` and `cargo xtask experiments`.
//!
//! # Example
//! ```
//! use concept_classes::Thresholds;
//! use dp_mechanisms::Privacy;
//! use lab::{ExampleDistribution, Scenario, TrialConfig, run_trials};
//! use learners::GenericLearner;
//! let scenario = Scenario::new(Box::new(Thresholds::new(256)?), ExampleDistribution::Uniform, 100, 0.0)?;
//! let learner = GenericLearner::new(Privacy::pure(1.0)?)?;
//! let outcome = run_trials(&scenario, &learner,
//!     TrialConfig { trials: 20, sample_size: 500, alpha: 0.1, master_seed: 1 })?;
//! assert!(outcome.success_rate > 0.5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![doc(test(attr(deny(warnings))))]

mod bounds;
mod data;
mod error;
pub mod experiment;
pub mod limits;
mod multi;
mod multi_spec;
mod request;
mod sample_complexity;
mod scenario;
mod spec;
pub mod structured;
mod trials;
pub mod zoo;

pub use bounds::{Bound, ScenarioKind, bounds_for};
pub use data::{
    DataRow, RowShape, parse_labeled_csv, parse_points_csv, parse_rows, read_labeled_csv,
    read_points_csv,
};
pub use error::{Error, Result};
pub use limits::check_count;
pub use multi::{
    ConstantBaseline, HEAVY_MASSES, KCurve, KPoint, LogLogFit, MAX_COLUMNS, MAX_LISTED_DOMAIN,
    MultiScenario, MultiTargets, TrivialK, empirical_multi_sample_complexity, fit_log_log,
    multi_trial_rng, run_multi_trials, sample_complexity_curve,
};
pub use multi_spec::{
    MultiLearnerSpec, build_multi_learner, parse_multi_labeled_csv, read_multi_labeled_csv,
};
pub use request::{
    DistributionChoice, SampleComplexityReport, SampleComplexityRequest, run_sample_complexity,
    run_trials_at,
};
pub use sample_complexity::{
    SampleComplexity, SearchConfig, empirical_sample_complexity,
    empirical_sample_complexity_observed, empirical_sample_complexity_sized,
};
pub use scenario::{ExampleDistribution, MAX_EXACT_DOMAIN, Scenario, middle_target};
pub use spec::{
    ClassSpec, LearnerParams, LearnerSpec, SanitizerParams, SanitizerSpec, build_learner,
    build_sanitizer,
};
pub use trials::{TrialConfig, TrialOutcome, run_trials, trial_rng, wilson_interval};
