//! Privacy accounting for differential privacy, with every reported ε and δ rounded up:
//! validated guarantees ([`Privacy`], [`Guarantee`]), composition (basic, advanced,
//! optimal, and the optimal non-adaptive composition of bounded-range mechanisms), privacy
//! loss distributions with rigorous two-sided bounds, group privacy, amplification by
//! subsampling, secrecy of the sample, and an [`Accountant`] that records a sequence of
//! runs and reports their total under a chosen rule.
//!
//! This crate is the ground floor of privpac: it depends on no other privpac crate, so a
//! user who only composes guarantees (the way Google's `dp_accounting` is used) takes it
//! alone; `privpac-mechanisms` builds its mechanisms on it, and every private algorithm of
//! privpac reports its guarantee in its vocabulary.
//!
//! # Map
//! - [`Privacy`]: a validated (ε, δ); [`Private`]: the trait every private algorithm
//!   implements to report it; [`Guarantee`]: the vocabulary for weaker promises too
//!   (per-prediction ε, uniform stability, none).
//! - Composition rules: [`basic_composition`], [`advanced_composition`],
//!   [`heterogeneous_advanced_composition`], [`optimal_composition`] (Kairouz–Oh–Viswanath),
//!   [`bounded_range_composition`] (Dong–Durfee–Rogers), and their inverses for budget
//!   splits ([`optimal_step_epsilon`], [`bounded_range_step_epsilon`],
//!   [`split_pure_budget`]).
//! - Privacy loss distributions: [`PldStep`] (pure, (ε, δ), discrete Laplace and
//!   bounded-range pairs, Poisson-subsampled) and [`pld_steps_bounds`] (rigorous lower and
//!   upper bounds on the composed ε at a given δ′).
//! - [`group_privacy`], [`amplification_by_subsampling`], [`secrecy_of_the_sample`].
//! - [`Accountant`]: record runs, report totals under a [`CompositionRule`].
//! - [`rounding`]: the directed-rounding arithmetic (`add_up`, `mul_up`, `div_up`, …) the
//!   rules use, public so that code composing its own bounds rounds the same way.
//!
//! Every function takes validated [`Privacy`] values and returns a validated one, or
//! [`Error::VacuousGuarantee`] when the bound would give δ ≥ 1 (no guarantee). Every
//! reported ε and δ is rounded up, never down: the rules evaluate their formulas with the
//! [`rounding`] helpers (correctly rounded toward +∞ for +, ×, ÷, √; a margin of a few
//! floats for `exp`, `ln` and their variants).
//!
//! # Example
//! ```
//! use privpac_accounting::{Accountant, CompositionRule, Privacy, PldStep, pld_steps_bounds};
//!
//! // Compose 1000 runs of a (0.01, 0)-DP step under every rule.
//! let mut accountant = Accountant::new();
//! for i in 0..1000 {
//!     accountant.record(format!("query {i}"), Privacy::pure(0.01)?);
//! }
//! let basic = accountant.total(CompositionRule::Basic)?;
//! assert!(basic.epsilon() >= 10.0); // rounded up, never down
//! let (tightest, _rule) = accountant.tightest(1e-6)?;
//! assert!(tightest.epsilon() < 1.4); // 1.365 (optimal composition), against 10 (basic)
//!
//! // The same composition as a privacy loss distribution: the exact ε lies between the bounds.
//! let steps = [PldStep::private(Privacy::pure(0.01)?); 1000];
//! let bounds = pld_steps_bounds(&steps, 1e-6, None)?;
//! assert!(bounds.lower <= bounds.upper && bounds.upper <= tightest.epsilon() + 0.01);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![doc(test(attr(deny(warnings))))]

mod accountant;
mod bounded_range;
mod composition;
mod group;
mod optimal;
mod pld;
mod secrecy;
mod subsampling;

mod error;
mod guarantee;
mod privacy;
mod readable;
pub mod rounding;
mod split;

pub use accountant::{Accountant, CompositionRule, Entry, PLD_INTERVAL};
pub use bounded_range::{
    MAX_BOUNDED_RANGE_COMPOSITIONS, bounded_range_composition, bounded_range_composition_delta,
    bounded_range_concentration_composition, bounded_range_concentration_step_epsilon,
    bounded_range_step_epsilon,
};
pub use composition::{
    advanced_composition, basic_composition, heterogeneous_advanced_composition,
};
pub use group::group_privacy;
pub use optimal::{
    MAX_OPTIMAL_COMPOSITIONS, optimal_composition, optimal_composition_delta, optimal_step_epsilon,
};
pub use pld::{
    AccuracyLimit, MAX_PLD_CELLS, PldBounds, PldMechanism, PldStep, PrivacyLossDistribution,
    default_epsilon_error, pld_composition, pld_steps_bounds, pld_steps_bounds_on_grid,
    pld_steps_composition,
};
pub use secrecy::secrecy_of_the_sample;
pub use subsampling::{Subsampling, amplification_by_subsampling};

pub use error::{Error, Result};
pub use guarantee::Guarantee;
pub use privacy::{ExactPrivacy, Privacy, Private};
pub use readable::{READABLE_DIGITS, RoundedUp};
pub use split::split_pure_budget;

/// The examples of the crate's README, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
