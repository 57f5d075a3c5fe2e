//! Differential-privacy building blocks whose guarantees hold for the implementation, not
//! only on paper: validated privacy parameters, exact integer noise, the exponential
//! mechanism, report-noisy-max, stability-based selection, sparse vector, randomized
//! response.
//!
//! This crate is for researchers and engineers who compose private algorithms (the
//! learners and sanitizers of privpac are built from it) and for implementers of new
//! mechanisms. It stands on `privpac-accounting` alone, whose validated guarantees
//! ([`Privacy`], [`Private`], [`Guarantee`]) it re-exports; the composition rules, privacy
//! loss distributions and the accountant live there (the old paths in this crate are kept,
//! deprecated, for one release).
//!
//! # Map
//! - [`Privacy`]: a validated (ε, δ); [`Private`]: the trait every private algorithm
//!   implements to report its guarantee; [`Guarantee`]: the one vocabulary for weaker
//!   promises too (per-prediction ε, uniform stability, none), shared by learners and the
//!   accountant.
//! - Noise: [`DiscreteLaplace`] / [`DiscreteLaplaceMechanism`] (exact, for counts) and
//!   [`LaplaceMechanism`] (real values rounded to a power-of-two grid plus exact discrete
//!   Laplace noise in grid units, sound for the implementation). The noise types implement
//!   [`rand::distr::Distribution`]. The textbook floating-point `Laplace` sampler exists
//!   only behind the opt-in feature `unsound-float-laplace`, without a privacy claim.
//! - Selection: [`ExponentialMechanism`] (general, integer and count-weighted
//!   [`ScoreLevel`] paths, [`WideScoreLevel`] for up to 2^128 candidates and
//!   [`HugeScoreLevel`] for up to 2^256),
//!   [`ReportNoisyMax`], [`StableSelection`] (A_dist), [`ChoosingMechanism`] ((ε, δ)
//!   selection for qualities of bounded growth).
//! - Ordered data: [`TreeLog`], the interior point problem on domains of up to 2^64 values
//!   (Kaplan et al. 2020, Algorithm 1), with explicit constants.
//! - [`SparseVector`] (AboveThreshold and its c-fold version), [`RandomizedResponse`].
//! - Accounting of the mechanisms' runs: [`ExponentialMechanism::pld_step`] and
//!   [`exponential_mechanism_range`] (its bounded range, for the bounded-range rules of
//!   `privpac-accounting`); every mechanism implements [`Private`], so an accountant records
//!   its run.
//! - [`RandomBits`]: exact coins (`Bernoulli(a/b)`, `Bernoulli(exp(-γ))`) for implementers.
//!
//! # Design decisions
//! - **Exact where it matters.** Integer noise is sampled from random bits with exact
//!   rational arithmetic (Canonne–Kamath–Steinke 2020), so there is no floating-point
//!   leakage of the kind Mironov (2012) exploited; real-valued queries are rounded to a
//!   grid and get integer noise in grid units, so no mechanism adds floating-point noise. The exponential mechanism samples
//!   *exactly* in proportion to floating-point weights and pays for their proven rounding
//!   error out of ε (see [`ExponentialMechanism`]).
//! - **Log space.** Selection works with score gaps relative to the best candidate, so
//!   scores of 10^9 and ε of 10^3 neither overflow nor underflow.
//! - **Explicit randomness.** Every randomized function takes `rng: &mut R` with
//!   `R: Rng + ?Sized`; nothing seeds itself. Seeded examples and tests use the named
//!   generators of `rand_chacha`, never `StdRng` (whose algorithm may change between
//!   `rand` versions); `tests/reproducibility.rs` pins seeded outputs.
//! - **Typed errors.** Invalid parameters give an [`Error`] variant naming the value; no
//!   function panics on user input.
//!
//! # Example
//! ```
//! use privpac_accounting::{Accountant, CompositionRule};
//! use privpac_mechanisms::{DiscreteLaplaceMechanism, ExponentialMechanism, Privacy};
//! use rand::SeedableRng;
//!
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
//! let mut accountant = Accountant::new();
//!
//! // A private count.
//! let count = DiscreteLaplaceMechanism::new(Privacy::pure(0.5)?, 1)?;
//! let noisy = count.release(1234, &mut rng)?;
//! accountant.record_run("count", &count);
//!
//! // A private choice among candidates scored by utility.
//! let choose = ExponentialMechanism::new(Privacy::pure(1.0)?, 1.0)?;
//! let best = choose.select(&[10.0, 2.0, 9.5], &mut rng)?;
//! accountant.record_run("choice", &choose);
//!
//! let total = accountant.total(CompositionRule::Basic)?;
//! assert!((total.epsilon() - 1.5).abs() < 1e-12); // rounded up, never down
//! # let _ = (noisy, best);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![doc(test(attr(deny(warnings))))]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod error;
mod exact_bits;
mod interior_point;
mod moved;
mod noise;
mod randomized_response;
mod selection;
mod sparse_vector;

pub use error::{Error, Result};
pub use exact_bits::RandomBits;
pub use interior_point::{DEFAULT_BASE_BITS, MAX_EXACT_BITS, TreeLog, TreeLogParameters};
#[allow(deprecated)]
pub use moved::{
    Accountant, CompositionRule, Entry, MAX_BOUNDED_RANGE_COMPOSITIONS, MAX_OPTIMAL_COMPOSITIONS,
    MAX_PLD_CELLS, PLD_INTERVAL, PldBounds, PldMechanism, PldStep, PrivacyLossDistribution,
    Subsampling, advanced_composition, amplification_by_subsampling, basic_composition,
    bounded_range_composition, bounded_range_composition_delta,
    bounded_range_concentration_composition, bounded_range_concentration_step_epsilon,
    bounded_range_step_epsilon, default_epsilon_error, group_privacy,
    heterogeneous_advanced_composition, optimal_composition, optimal_composition_delta,
    optimal_step_epsilon, pld_composition, pld_steps_bounds, pld_steps_bounds_on_grid,
    pld_steps_composition, secrecy_of_the_sample,
};
#[cfg(feature = "unsound-float-laplace")]
#[cfg_attr(docsrs, doc(cfg(feature = "unsound-float-laplace")))]
pub use noise::Laplace;
pub use noise::{
    DiscreteLaplace, DiscreteLaplaceMechanism, DiscreteLaplaceTable, LaplaceMechanism,
    MAX_TABLE_LEN,
};
pub use privpac_accounting::{Guarantee, Privacy, Private};
pub use randomized_response::{
    RandomizedResponse, epsilon_for_flip_probability, flip_probability_for,
};
pub use selection::{
    COUNTED_PATH_MIN, ChoosingMechanism, ExponentialMechanism, FLOAT_ERROR_BUDGET, HugeLevelChoice,
    HugeScoreLevel, LevelChoice, MAX_TOTAL_COUNT, MIN_EPSILON, ReportNoisyMax, SCORE_CLAMP,
    ScoreLevel, StableSelection, StableSelectionOutcome, WideLevelChoice, WideScoreLevel,
    exponential_mechanism_range,
};
pub use sparse_vector::{AnswerStream, EXPLICIT_QUESTIONS, SparseVector};

#[cfg(test)]
mod tests;

/// The examples of the crate's README, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
