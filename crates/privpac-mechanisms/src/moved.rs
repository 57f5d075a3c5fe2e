//! The privacy accounting that moved to `privpac-accounting`, under its old paths for one
//! release: each item here is deprecated and names its new home. Types and constants are
//! aliases of the moved ones; functions forward to them and return this crate's [`Error`]
//! (whose `Accounting` variant carries the accounting error unchanged), as they did.
#![allow(deprecated)] // the aliases name each other

use privpac_accounting as accounting;

use crate::error::{Error, Result};

/// Deprecated: [`privpac_accounting::Accountant`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::Accountant"
)]
pub type Accountant = accounting::Accountant;

/// Deprecated: [`privpac_accounting::CompositionRule`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::CompositionRule"
)]
pub type CompositionRule = accounting::CompositionRule;

/// Deprecated: [`privpac_accounting::Entry`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::Entry"
)]
pub type Entry = accounting::Entry;

/// Deprecated: [`privpac_accounting::PldBounds`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::PldBounds"
)]
pub type PldBounds = accounting::PldBounds;

/// Deprecated: [`privpac_accounting::PldMechanism`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::PldMechanism"
)]
pub type PldMechanism = accounting::PldMechanism;

/// Deprecated: [`privpac_accounting::PldStep`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::PldStep"
)]
pub type PldStep = accounting::PldStep;

/// Deprecated: [`privpac_accounting::PrivacyLossDistribution`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::PrivacyLossDistribution"
)]
pub type PrivacyLossDistribution = accounting::PrivacyLossDistribution;

/// Deprecated: [`privpac_accounting::Subsampling`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::Subsampling"
)]
pub type Subsampling = accounting::Subsampling;

/// Deprecated: [`privpac_accounting::MAX_BOUNDED_RANGE_COMPOSITIONS`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::MAX_BOUNDED_RANGE_COMPOSITIONS"
)]
pub const MAX_BOUNDED_RANGE_COMPOSITIONS: u64 = accounting::MAX_BOUNDED_RANGE_COMPOSITIONS;

/// Deprecated: [`privpac_accounting::MAX_OPTIMAL_COMPOSITIONS`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::MAX_OPTIMAL_COMPOSITIONS"
)]
pub const MAX_OPTIMAL_COMPOSITIONS: u64 = accounting::MAX_OPTIMAL_COMPOSITIONS;

/// Deprecated: [`privpac_accounting::MAX_PLD_CELLS`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::MAX_PLD_CELLS"
)]
pub const MAX_PLD_CELLS: usize = accounting::MAX_PLD_CELLS;

/// Deprecated: [`privpac_accounting::PLD_INTERVAL`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::PLD_INTERVAL"
)]
pub const PLD_INTERVAL: f64 = accounting::PLD_INTERVAL;

/// Deprecated: [`privpac_accounting::default_epsilon_error`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::default_epsilon_error"
)]
pub fn default_epsilon_error(epsilon: f64) -> f64 {
    accounting::default_epsilon_error(epsilon)
}

/// Deprecated: [`privpac_accounting::advanced_composition`].
///
/// # Errors
/// As the moved function, wrapped in [`Error::Accounting`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::advanced_composition"
)]
pub fn advanced_composition(
    each: accounting::Privacy,
    m: u64,
    delta_prime: f64,
) -> Result<accounting::Privacy> {
    accounting::advanced_composition(each, m, delta_prime).map_err(Error::from)
}

/// Deprecated: [`privpac_accounting::amplification_by_subsampling`].
///
/// # Errors
/// As the moved function, wrapped in [`Error::Accounting`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::amplification_by_subsampling"
)]
pub fn amplification_by_subsampling(
    each: accounting::Privacy,
    sampling: accounting::Subsampling,
) -> Result<accounting::Privacy> {
    accounting::amplification_by_subsampling(each, sampling).map_err(Error::from)
}

/// Deprecated: [`privpac_accounting::basic_composition`].
///
/// # Errors
/// As the moved function, wrapped in [`Error::Accounting`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::basic_composition"
)]
pub fn basic_composition(guarantees: &[accounting::Privacy]) -> Result<accounting::Privacy> {
    accounting::basic_composition(guarantees).map_err(Error::from)
}

/// Deprecated: [`privpac_accounting::bounded_range_composition`].
///
/// # Errors
/// As the moved function, wrapped in [`Error::Accounting`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::bounded_range_composition"
)]
pub fn bounded_range_composition(
    epsilon: f64,
    k: u64,
    delta_prime: f64,
) -> Result<accounting::Privacy> {
    accounting::bounded_range_composition(epsilon, k, delta_prime).map_err(Error::from)
}

/// Deprecated: [`privpac_accounting::bounded_range_composition_delta`].
///
/// # Errors
/// As the moved function, wrapped in [`Error::Accounting`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::bounded_range_composition_delta"
)]
pub fn bounded_range_composition_delta(epsilon: f64, k: u64, epsilon_prime: f64) -> Result<f64> {
    accounting::bounded_range_composition_delta(epsilon, k, epsilon_prime).map_err(Error::from)
}

/// Deprecated: [`privpac_accounting::bounded_range_concentration_composition`].
///
/// # Errors
/// As the moved function, wrapped in [`Error::Accounting`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::bounded_range_concentration_composition"
)]
pub fn bounded_range_concentration_composition(
    epsilon: f64,
    k: u64,
    delta_prime: f64,
) -> Result<accounting::Privacy> {
    accounting::bounded_range_concentration_composition(epsilon, k, delta_prime)
        .map_err(Error::from)
}

/// Deprecated: [`privpac_accounting::bounded_range_concentration_step_epsilon`].
///
/// # Errors
/// As the moved function, wrapped in [`Error::Accounting`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::bounded_range_concentration_step_epsilon"
)]
pub fn bounded_range_concentration_step_epsilon(
    total_epsilon: f64,
    k: u64,
    delta_prime: f64,
) -> Result<f64> {
    accounting::bounded_range_concentration_step_epsilon(total_epsilon, k, delta_prime)
        .map_err(Error::from)
}

/// Deprecated: [`privpac_accounting::bounded_range_step_epsilon`].
///
/// # Errors
/// As the moved function, wrapped in [`Error::Accounting`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::bounded_range_step_epsilon"
)]
pub fn bounded_range_step_epsilon(total_epsilon: f64, k: u64, delta_prime: f64) -> Result<f64> {
    accounting::bounded_range_step_epsilon(total_epsilon, k, delta_prime).map_err(Error::from)
}

/// Deprecated: [`privpac_accounting::group_privacy`].
///
/// # Errors
/// As the moved function, wrapped in [`Error::Accounting`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::group_privacy"
)]
pub fn group_privacy(each: accounting::Privacy, k: u64) -> Result<accounting::Privacy> {
    accounting::group_privacy(each, k).map_err(Error::from)
}

/// Deprecated: [`privpac_accounting::heterogeneous_advanced_composition`].
///
/// # Errors
/// As the moved function, wrapped in [`Error::Accounting`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::heterogeneous_advanced_composition"
)]
pub fn heterogeneous_advanced_composition(
    guarantees: &[accounting::Privacy],
    delta_prime: f64,
) -> Result<accounting::Privacy> {
    accounting::heterogeneous_advanced_composition(guarantees, delta_prime).map_err(Error::from)
}

/// Deprecated: [`privpac_accounting::optimal_composition`].
///
/// # Errors
/// As the moved function, wrapped in [`Error::Accounting`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::optimal_composition"
)]
pub fn optimal_composition(
    each: accounting::Privacy,
    k: u64,
    delta_prime: f64,
) -> Result<accounting::Privacy> {
    accounting::optimal_composition(each, k, delta_prime).map_err(Error::from)
}

/// Deprecated: [`privpac_accounting::optimal_composition_delta`].
///
/// # Errors
/// As the moved function, wrapped in [`Error::Accounting`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::optimal_composition_delta"
)]
pub fn optimal_composition_delta(
    each: accounting::Privacy,
    k: u64,
    epsilon_prime: f64,
) -> Result<f64> {
    accounting::optimal_composition_delta(each, k, epsilon_prime).map_err(Error::from)
}

/// Deprecated: [`privpac_accounting::optimal_step_epsilon`].
///
/// # Errors
/// As the moved function, wrapped in [`Error::Accounting`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::optimal_step_epsilon"
)]
pub fn optimal_step_epsilon(
    total_epsilon: f64,
    k: u64,
    step_delta: f64,
    delta_prime: f64,
) -> Result<f64> {
    accounting::optimal_step_epsilon(total_epsilon, k, step_delta, delta_prime).map_err(Error::from)
}

/// Deprecated: [`privpac_accounting::pld_composition`].
///
/// # Errors
/// As the moved function, wrapped in [`Error::Accounting`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::pld_composition"
)]
pub fn pld_composition(
    guarantees: &[accounting::Privacy],
    delta_prime: f64,
    interval: f64,
) -> Result<accounting::Privacy> {
    accounting::pld_composition(guarantees, delta_prime, interval).map_err(Error::from)
}

/// Deprecated: [`privpac_accounting::pld_steps_bounds`].
///
/// # Errors
/// As the moved function, wrapped in [`Error::Accounting`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::pld_steps_bounds"
)]
pub fn pld_steps_bounds(
    steps: &[accounting::PldStep],
    delta_prime: f64,
    epsilon_error: Option<f64>,
) -> Result<accounting::PldBounds> {
    accounting::pld_steps_bounds(steps, delta_prime, epsilon_error).map_err(Error::from)
}

/// Deprecated: [`privpac_accounting::pld_steps_bounds_on_grid`].
///
/// # Errors
/// As the moved function, wrapped in [`Error::Accounting`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::pld_steps_bounds_on_grid"
)]
pub fn pld_steps_bounds_on_grid(
    steps: &[accounting::PldStep],
    delta_prime: f64,
    interval: f64,
) -> Result<accounting::PldBounds> {
    accounting::pld_steps_bounds_on_grid(steps, delta_prime, interval).map_err(Error::from)
}

/// Deprecated: [`privpac_accounting::pld_steps_composition`].
///
/// # Errors
/// As the moved function, wrapped in [`Error::Accounting`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::pld_steps_composition"
)]
pub fn pld_steps_composition(
    steps: &[accounting::PldStep],
    delta_prime: f64,
    interval: f64,
) -> Result<accounting::Privacy> {
    accounting::pld_steps_composition(steps, delta_prime, interval).map_err(Error::from)
}

/// Deprecated: [`privpac_accounting::secrecy_of_the_sample`].
///
/// # Errors
/// As the moved function, wrapped in [`Error::Accounting`].
#[deprecated(
    since = "0.1.0",
    note = "moved to the privpac-accounting crate: use privpac_accounting::secrecy_of_the_sample"
)]
pub fn secrecy_of_the_sample(
    each: accounting::Privacy,
    inner_size: u64,
    outer_size: u64,
) -> Result<accounting::Privacy> {
    accounting::secrecy_of_the_sample(each, inner_size, outer_size).map_err(Error::from)
}
