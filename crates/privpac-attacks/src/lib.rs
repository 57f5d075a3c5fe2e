//! Lower bounds on private multi-learning, run and computed (Bun, Nissim and Stemmer,
//! "Simultaneous private learning of multiple concepts", ITCS 2016 / JMLR 2019, §4–§5):
//! fingerprinting codes, the tracing attack that turns them into a certified lower bound on
//! the ε of any multi-learner, and the packing and fingerprinting lower-bound calculators.
//!
//! For researchers who want to check a multi-learner's privacy claim empirically (does the
//! attack refute it?) or to draw a measured sample-size curve between its upper and lower
//! bound.
//!
//! # Map
//! * [`fingerprinting`]: the Boneh–Shaw and Tardos codes with tracing, pirate strategies
//!   and measured security (§4).
//! * [`lower_bounds`]: the §4–§5 lower bounds with the constants their proofs give, and the
//!   §1.3 tables as data.
//! * [`attack`]: Theorems 4.3 / 4.7 run as attacks on any [`privpac_multi::MultiLearner`]
//!   (build the database from codewords, round the hypotheses' averages into a pirate word,
//!   trace), with completeness, innocent accusations and the certified ε lower bound they
//!   imply; [`attack::ColumnErm`] is the non-private per-column ERM baseline.
//!
//! The multi-learners themselves, and the k-labeled samples the attack builds, are in
//! `privpac-multi`; the Clopper–Pearson bounds that certify the attack's ε bound are
//! `privpac-audit`'s.
//!
//! # Example
//! ```
//! use privpac_attacks::attack::{AttackConfig, CodeKind, ColumnErm, run_attack};
//! use privpac_attacks::lower_bounds::packing_lower_bound;
//! use privpac_classes::Thresholds;
//! use rand::SeedableRng;
//!
//! // Boneh–Shaw for n = 5 users at security 0.1 is 2766 columns long; non-private ERM on
//! // thresholds is traced, and the attack certifies that it is not 1-DP.
//! let class = Thresholds::new(8)?;
//! let config = AttackConfig::new(CodeKind::BonehShaw, 5, 2766, 0.1, 100)?;
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
//! let report = run_attack(&ColumnErm, &class, &config, &mut rng)?;
//! assert!(report.completeness() >= 0.8);
//! assert!(report.epsilon_lower_bound > Some(1.0));
//!
//! // Theorem 5.1: a pure ε-DP learner of k = 64 concepts needs n ≥ ln(2^64 − 1)/ε.
//! assert!((packing_lower_bound(64, 1.0)? - 64.0 * std::f64::consts::LN_2).abs() < 1e-9);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![doc(test(attr(deny(warnings))))]

pub mod attack;
mod error;
pub mod fingerprinting;
pub mod lower_bounds;

pub use error::{Error, Result};

/// The examples of the crate's README, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
