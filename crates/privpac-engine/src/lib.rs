//! The measurement engine of privpac: run learners on scenarios and measure how many
//! samples they need.
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
//! interval).
//!
//! For structured classes and distributions (thresholds, points, intervals, parities;
//! uniform, point mass plus uniform, Zipf) true errors take time independent of |X|
//! ([`structured`]), so scenarios may have up to 2^62 points. User-given counts are checked
//! against the [`limits`] before anything is allocated in proportion to them.
//!
//! The engine takes built learners; naming them with strings, reading data files and the
//! bounds that apply are the front end's job (`privpac-toolkit`), and the named
//! experiments live in `privpac-experiments`. [`Error`] is the error type of all three.
//!
//! # Example
//! ```
//! use privpac_classes::Thresholds;
//! use privpac_accounting::Privacy;
//! use privpac_engine::{ExampleDistribution, Scenario, TrialConfig, run_trials};
//! use privpac_learners::GenericLearner;
//! let scenario = Scenario::new(Box::new(Thresholds::new(256)?), ExampleDistribution::Uniform, 100, 0.0)?;
//! let learner = GenericLearner::new(Privacy::pure(1.0)?)?;
//! let outcome = run_trials(&scenario, &learner,
//!     TrialConfig { trials: 20, sample_size: 500, alpha: 0.1, master_seed: 1 })?;
//! assert!(outcome.success_rate > 0.5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![doc(test(attr(deny(warnings))))]

mod distribution;
mod error;
pub mod limits;
mod multi;
mod sample_complexity;
mod scenario;
pub mod stopping;
pub mod structured;
mod trials;

pub use distribution::ExampleDistribution;
pub use error::{Error, Result};
pub use limits::{MAX_EXACT_DOMAIN, check_count};
pub use multi::{
    ConstantBaseline, HEAVY_MASSES, KCurve, KPoint, LogLogFit, MAX_COLUMNS, MAX_LISTED_DOMAIN,
    MultiScenario, MultiTargets, TrivialK, empirical_multi_sample_complexity, fit_log_log,
    multi_trial_rng, run_multi_trials, sample_complexity_curve,
};
pub use sample_complexity::{
    SampleComplexity, SearchConfig, empirical_sample_complexity,
    empirical_sample_complexity_observed, empirical_sample_complexity_sized, evaluate_sized,
    search_sample_sizes,
};
pub use scenario::{Scenario, ScenarioKind, default_target, middle_target};
pub use trials::{TrialConfig, TrialOutcome, run_trials, trial_rng, wilson_interval};

/// The examples of the crate's README, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
