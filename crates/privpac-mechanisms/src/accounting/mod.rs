//! Privacy accounting: composition (basic, advanced, optimal, and optimal non-adaptive
//! composition of bounded-range mechanisms), group privacy, amplification by subsampling,
//! secrecy of the sample, and an [`Accountant`] that records a sequence of
//! mechanisms and reports their total under a chosen rule.
//!
//! Every function takes validated [`crate::Privacy`] values and returns a validated one, or
//! [`crate::Error::VacuousGuarantee`] when the bound would give δ ≥ 1 (no guarantee).
//! Every reported ε and δ is rounded up, never down: the rules evaluate their formulas with
//! one set of upward-rounding helpers (correctly rounded toward +∞ for +, ×, ÷, √; a
//! margin of a few floats for `exp`, `ln` and their variants).

mod accountant;
mod bounded_range;
mod composition;
mod group;
mod optimal;
mod pld;
mod secrecy;
mod subsampling;

pub use accountant::{Accountant, CompositionRule, Entry, PLD_INTERVAL};
pub use bounded_range::{
    MAX_BOUNDED_RANGE_COMPOSITIONS, bounded_range_composition, bounded_range_composition_delta,
    bounded_range_concentration_composition, bounded_range_concentration_step_epsilon,
    bounded_range_step_epsilon, exponential_mechanism_range,
};
pub use composition::{
    advanced_composition, basic_composition, heterogeneous_advanced_composition,
};
pub use group::group_privacy;
pub use optimal::{
    MAX_OPTIMAL_COMPOSITIONS, optimal_composition, optimal_composition_delta, optimal_step_epsilon,
};
pub use pld::{
    MAX_PLD_CELLS, PldBounds, PldMechanism, PldStep, PrivacyLossDistribution,
    default_epsilon_error, pld_composition, pld_steps_bounds, pld_steps_bounds_on_grid,
    pld_steps_composition,
};
pub use secrecy::secrecy_of_the_sample;
pub use subsampling::{Subsampling, amplification_by_subsampling};

use crate::error::{Error, Result};
use crate::privacy::Privacy;

/// Builds the result of an accounting rule, turning a vacuous δ into a typed error.
fn composed(epsilon: f64, delta: f64, rule: &'static str) -> Result<Privacy> {
    if delta.is_nan() || delta >= 1.0 {
        return Err(Error::VacuousGuarantee { reason: rule });
    }
    if !epsilon.is_finite() {
        return Err(Error::VacuousGuarantee {
            reason: "epsilon is infinite",
        });
    }
    Privacy::new(epsilon, delta)
}
