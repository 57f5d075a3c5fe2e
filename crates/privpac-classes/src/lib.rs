//! Finite domains and concept classes for learning theory: the classes of the literature
//! with fast error profiles, explicit classes as bit matrices, exact VC and Littlestone
//! dimensions with checkable witnesses, and online learners.
//!
//! This crate is for researchers who state learners, sanitizers and bounds in terms of a
//! concept class and its combinatorial dimensions, and for implementers of new classes (one
//! trait, a brute-force reference for free). It depends on no other privpac crate.
//!
//! # Map
//! - [`Domain`] (ordered `[N]`, hypercube `{0,1}^d`, explicit) and [`Point`];
//!   [`LabeledSample`] validated against a domain.
//! - [`ConceptClass`]: `eval`, `len`, and the error profile (`error_counts`,
//!   `error_runs`) with a brute-force reference and fast overrides: [`Points`],
//!   [`Thresholds`], [`Intervals`], [`Parities`], [`AllFunctions`], [`GridHalfspaces`],
//!   [`ExplicitClass`], and the combinators [`Xor`], [`WithZero`], [`Not`] (complements) and
//!   [`Both`] (a class with its complements); [`parse_spec`] for
//!   the command line's class specs.
//! - [`ClassMatrix`]: explicit classes as bit matrices, [`materialize`], dichotomies, the
//!   growth function and [`sauer_shelah_bound`].
//! - [`Hypothesis`]: a deterministic hypothesis a learner can output (a concept, a
//!   constant, a table, a hash bucket), serializable with serde; randomized predictors
//!   wrap it in `privpac_learners`.
//! - [`conformance`]: checks a class's fast `error_counts` / `error_runs` against the
//!   brute-force reference (for implementers of new classes).
//! - [`dimension`]: exact VC and Littlestone dimensions with witnesses and checkers.
//! - [`online`]: online learners and mistake bounds.
//!
//! # Example
//! ```
//! use privpac_classes::{ConceptClass, Domain, LabeledSample, Thresholds};
//! let class = Thresholds::new(1000)?;
//! let sample = LabeledSample::from_pairs(class.domain(), &[(3, true), (500, false), (10, true)])?;
//! let errors = class.error_counts(&sample)?;
//! assert_eq!(errors[10], 0); // c_10 labels y ≤ 10 with 1: consistent
//! assert_eq!(errors[600], 1);
//! # let _ = Domain::ordered(1)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![doc(test(attr(deny(warnings))))]

mod bucket_hash;
mod class;
mod concept_set;
mod domain;
mod error;
mod hypothesis;
mod matrix;
mod sample;
mod spec;

pub mod combinatorics;
pub mod conformance;
pub mod dimension;
pub mod online;

pub use bucket_hash::{BucketHash, HASH_PRIME, MAX_BUCKETS};
pub use class::closed_form;
pub use class::{
    AllFunctions, Both, CellLevel, CellLevels, ConceptClass, ConceptParts, Consistency,
    ERROR_PROFILE_LIMIT, ErrorLevel, ErrorRun, ExplicitClass, GridHalfspaces, IdRange, Intervals,
    LabelingCell, MAX_GRID_SIDE, MAX_INTERVAL_CELLS, MAX_INTERVAL_LEVEL_WORK, MAX_INTERVALS_SIZE,
    Not, Parities, ParityLabelings, PointInterval, Points, ThresholdStructure, Thresholds,
    WideErrorLevel, WithZero, Xor, XorPoints, brute_force_error_counts, check_concept, materialize,
    run_length_encode, sorted_distinct, walsh_hadamard,
};
pub use concept_set::ConceptSet;
pub use domain::{Domain, Point};
pub use error::{Error, Result};
pub use hypothesis::Hypothesis;
pub use matrix::{ClassMatrix, DEFAULT_CELL_LIMIT, Dichotomy, sauer_shelah_bound};
pub use sample::{LabeledSample, Labels};
pub use spec::{parse_spec, parse_spec_with};

/// The examples of the crate's README, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
