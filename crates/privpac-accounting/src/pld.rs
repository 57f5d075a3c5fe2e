//! Privacy loss distributions (PLD) with a pessimistic discretization: composition of
//! heterogeneous mechanisms, reporting δ(ε) and ε(δ) as valid upper bounds.
//!
//! *What is represented.* For a pair of neighbouring inputs with output distributions P and
//! Q, the privacy loss `L = ln(P(o)/Q(o))` with `o ~ P` determines the whole privacy
//! profile: `δ(ε) = E[(1 − e^{ε − L})₊]`, with `L = +∞` where `Q(o) = 0` (Sommer, Meiser and
//! Mohammadi, "Privacy loss classes", PoPETs 2019; Koskela, Jälkö and Honkela, AISTATS
//! 2020; Google's `dp_accounting`). Adaptive composition of mechanisms is bounded by the
//! composition of their dominating pairs, whose loss is the sum of independent losses: the
//! composed PLD is the convolution of the PLDs.
//!
//! *Pessimistic discretization.* Every loss is rounded **up** to the grid `Δ·ℤ`. Since
//! `(1 − e^{ε − ℓ})₊` increases in ℓ, rounding any loss up can only increase δ(ε), also after
//! convolution (the composed δ is the expectation of an increasing function of the sum of
//! independent losses). Tails are cut pessimistically as well: mass above the largest grid
//! point kept is moved to `+∞`, mass below the smallest is moved up to it. The result is an
//! upper bound on the exact profile, within `k·Δ` in ε for k compositions.
//!
//! *Which mechanisms.* The canonical (ε, δ) pair that dominates every (ε, δ)-DP mechanism
//! (Kairouz–Oh–Viswanath), which is randomized response for δ = 0, and the discrete Laplace
//! mechanism on a count of sensitivity Δ. Both pairs are symmetric (the loss of (Q, P) has
//! the same distribution as that of (P, Q)), so one PLD serves both directions. Either run
//! on a Poisson subsample has an asymmetric pair; [`PldStep`] and [`pld_steps_composition`]
//! compose such lists in both directions (see the `steps` module).
//!
//! *Floating point.* Masses are non-negative and only added and multiplied; the relative
//! error of each convolution is below `(m + 2)·2⁻⁵³` for m terms per output cell, tracked
//! and added to every reported δ together with a further relative 10⁻¹².
//!
//! *Long compositions.* [`PrivacyLossDistribution`] composes by direct (quadratic)
//! convolution. Lists of [`PldStep`]s — what [`pld_composition`], [`pld_steps_composition`]
//! and the [`crate::Accountant`] compose — go through [`pld_steps_bounds`] instead: fast
//! Fourier transforms, one per distinct step raised to its count, with proven bounds on the
//! floating-point error, the truncated tails and the discretization, giving a rigorous lower
//! and upper bound on the exact ε (see the `fast` module's docs for the derivation).

use crate::error::{Error, Result};
use crate::privacy::Privacy;
use crate::rounding::{add_up, mul_up};

mod bucket;
mod chernoff;
mod edges;
mod enumerate;
mod fast;
mod fft;
mod limit;
mod near_one;
mod pieces;
mod spectrum;
mod steps;
mod tilt;

pub use fast::{PldBounds, default_epsilon_error};
pub use limit::AccuracyLimit;
pub use steps::{PldMechanism, PldStep};

/// Most grid cells a [`PrivacyLossDistribution`] may span.
pub const MAX_PLD_CELLS: usize = 1 << 22;

/// Masses below this at either end of the support are moved pessimistically (see the
/// module docs).
const NEGLIGIBLE: f64 = 1e-280;

/// A discretized privacy loss distribution (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct PrivacyLossDistribution {
    /// The grid step Δ.
    interval: f64,
    /// Grid index of `masses[0]` (loss `first·Δ`).
    first: i64,
    /// Mass at each grid loss, from `first` on.
    masses: Vec<f64>,
    /// Mass at loss +∞ (the δ no ε can cover).
    infinite: f64,
    /// Relative error bound of the finite masses so far.
    error: f64,
}

impl PrivacyLossDistribution {
    /// The PLD of a discrete distribution of losses: `(loss, probability)` pairs (losses
    /// rounded up to the grid) and the mass at +∞.
    fn from_losses(interval: f64, losses: &[(f64, f64)], infinite: f64) -> Result<Self> {
        if !(interval > 0.0 && interval.is_finite()) {
            return Err(Error::InvalidParameter {
                name: "PLD discretization interval",
                range: "(0, ∞)",
                value: interval,
            });
        }
        let too_many = |cells: u64| Error::InvalidCount {
            name: "PLD grid cells (loss range / interval)",
            requirement: "at most 2^22",
            value: cells,
        };
        // Grid indices go through f64 first: a huge loss or a tiny interval is refused
        // instead of wrapping in the cast (below 9·10^15 the index is an exact integer).
        let mut cell_of = Vec::with_capacity(losses.len());
        for &(loss, _) in losses {
            let cell = (loss / interval).ceil();
            if cell.is_nan() || cell.abs() >= 9.0e15 {
                return Err(too_many(u64::MAX));
            }
            cell_of.push(cell as i64);
        }
        let first = cell_of.iter().copied().min().unwrap_or(0);
        let last = cell_of.iter().copied().max().unwrap_or(0);
        let cells = (last - first) as u64 + 1;
        if cells > MAX_PLD_CELLS as u64 {
            return Err(too_many(cells));
        }
        let cells = cells as usize;
        let mut masses = vec![0.0; cells];
        for (&(_, p), cell) in losses.iter().zip(cell_of) {
            masses[(cell - first) as usize] += p;
        }
        let mut pld = PrivacyLossDistribution {
            interval,
            first,
            masses,
            infinite,
            error: 2.0 * f64::EPSILON,
        };
        pld.trim();
        Ok(pld)
    }

    /// The PLD of the canonical pair that dominates every (ε, δ)-DP mechanism (randomized
    /// response for δ = 0): loss +ε with probability `(1 − δ)e^ε/(1 + e^ε)`, −ε with
    /// probability `(1 − δ)/(1 + e^ε)`, +∞ with probability δ.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a non-positive or non-finite interval;
    /// [`Error::InvalidCount`] if `2ε/Δ` exceeds [`MAX_PLD_CELLS`].
    pub fn from_privacy(privacy: Privacy, interval: f64) -> Result<Self> {
        steps::pld_of_groups(interval, &steps::canonical_groups(privacy))
    }

    /// The PLD of the discrete Laplace mechanism with scale b on a count of sensitivity Δ
    /// (neighbouring outputs centred at 0 and Δ): at output y the loss is
    /// `(|y − Δ| − |y|)/b`, which is `Δ/b` for y ≤ 0, `−Δ/b` for y ≥ Δ, and `(Δ − 2y)/b` in
    /// between.
    ///
    /// # Errors
    /// As for [`Self::from_privacy`]; [`Error::InvalidScale`] for a non-positive scale,
    /// [`Error::InvalidSensitivity`] for Δ = 0, [`Error::InvalidParameter`] above 2^20.
    pub fn from_discrete_laplace(scale: f64, sensitivity: u64, interval: f64) -> Result<Self> {
        steps::validate_discrete_laplace(scale, sensitivity)?;
        let groups = steps::discrete_laplace_groups(scale, sensitivity);
        steps::pld_of_groups(interval, &groups)
    }

    /// The grid step Δ.
    pub fn interval(&self) -> f64 {
        self.interval
    }

    /// The PLD of running both mechanisms (adaptively): the convolution of the two.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] if the intervals differ; [`Error::InvalidCount`] if the
    /// result would exceed [`MAX_PLD_CELLS`].
    pub fn compose(&self, other: &PrivacyLossDistribution) -> Result<Self> {
        if self.interval != other.interval {
            return Err(Error::InvalidParameter {
                name: "PLD discretization interval (the composed PLDs must share it)",
                range: "equal intervals",
                value: other.interval,
            });
        }
        let cells = self.masses.len() + other.masses.len() - 1;
        if cells > MAX_PLD_CELLS {
            return Err(Error::InvalidCount {
                name: "PLD grid cells after composition",
                requirement: "at most 2^22",
                value: cells as u64,
            });
        }
        // The outer loop runs over the nonzero cells of the side with fewer of them.
        let nonzero = |p: &PrivacyLossDistribution| p.masses.iter().filter(|&&m| m != 0.0).count();
        let (small, large) = if nonzero(self) <= nonzero(other) {
            (self, other)
        } else {
            (other, self)
        };
        let mut masses = vec![0.0; cells];
        for (i, &p) in small.masses.iter().enumerate() {
            if p == 0.0 {
                continue;
            }
            for (j, &q) in large.masses.iter().enumerate() {
                masses[i + j] += p * q;
            }
        }
        let terms = nonzero(small) as f64;
        let mut pld = PrivacyLossDistribution {
            interval: self.interval,
            first: self.first + other.first,
            masses,
            // 1 − (1 − a)(1 − b) = a + b(1 − a), without the cancellation that would lose a
            // tiny a or b.
            infinite: add_up(self.infinite, mul_up(other.infinite, 1.0 - self.infinite)).min(1.0),
            error: self.error + other.error + (terms + 2.0) * f64::EPSILON,
        };
        pld.trim();
        Ok(pld)
    }

    /// The PLD of k runs of this mechanism, composed one at a time.
    ///
    /// # Errors
    /// [`Error::InvalidCount`] for k = 0 and as for [`Self::compose`].
    pub fn self_compose(&self, k: u64) -> Result<Self> {
        if k == 0 {
            return Err(Error::InvalidCount {
                name: "number of compositions",
                requirement: "at least 1",
                value: 0,
            });
        }
        let mut total = self.clone();
        for _ in 1..k {
            total = total.compose(self)?;
        }
        Ok(total)
    }

    /// `δ(ε) = E[(1 − e^{ε − L})₊]` of the discretized losses, rounded up: an upper bound
    /// on the exact δ of the mechanisms composed (see the module docs).
    pub fn delta_for_epsilon(&self, epsilon: f64) -> f64 {
        let mut sum = 0.0;
        for (i, &p) in self.masses.iter().enumerate() {
            let loss = (self.first + i as i64) as f64 * self.interval;
            if loss > epsilon && p > 0.0 {
                sum += p * (-(epsilon - loss).exp_m1());
            }
        }
        let finite = mul_up(sum, 1.0 + self.error + 1e-12);
        add_up(finite, mul_up(self.infinite, 1.0 + 1e-12)).min(1.0)
    }

    /// The smallest ε ≥ 0 with `δ(ε) ≤ delta` (to a relative 10⁻¹², reported at the upper
    /// end), or `None` when even ε = ∞ leaves more than `delta` (the mass at +∞ exceeds it).
    pub fn epsilon_for_delta(&self, delta: f64) -> Option<f64> {
        if self.infinite * (1.0 + 1e-12) > delta {
            return None;
        }
        let top = (self.first + self.masses.len() as i64) as f64 * self.interval;
        let mut hi = top.max(0.0);
        if self.delta_for_epsilon(hi) > delta {
            return None;
        }
        let mut lo = 0.0f64;
        if self.delta_for_epsilon(lo) <= delta {
            return Some(0.0);
        }
        while hi - lo > 1e-12 * hi {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if self.delta_for_epsilon(mid) <= delta {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Some(hi)
    }

    /// Moves negligible masses at both ends pessimistically: the top to +∞, the bottom up
    /// to the first cell kept.
    fn trim(&mut self) {
        let mut moved_up = 0.0;
        let mut start = 0;
        while start + 1 < self.masses.len() && self.masses[start] < NEGLIGIBLE {
            moved_up += self.masses[start];
            start += 1;
        }
        let mut end = self.masses.len();
        let mut to_infinity = 0.0;
        while end > start + 1 && self.masses[end - 1] < NEGLIGIBLE {
            to_infinity += self.masses[end - 1];
            end -= 1;
        }
        self.masses.truncate(end);
        self.masses.drain(..start);
        if let Some(first) = self.masses.first_mut() {
            *first += moved_up;
        }
        self.first += start as i64;
        self.infinite = add_up(self.infinite, to_infinity).min(1.0);
    }
}

/// The tightest (ε′, δ_total) the PLD gives for a list of (ε_i, δ_i) guarantees at slack
/// δ′: `δ_total = 1 − Π(1 − δ_i)·(1 − δ′)` and ε′ the smallest with `δ(ε′) ≤ δ_total`
/// for the composition of the canonical pairs (the counterpart of
/// [`crate::optimal_composition`] for mixed guarantees: the upper bound of
/// [`pld_steps_bounds_on_grid`] on the grid Δ (rounded down to two significant bits), within about
/// `k·Δ` of the exact ε′ and usually far closer).
///
/// # Errors
/// [`Error::InvalidCount`] for an empty list or a grid too large;
/// [`Error::InvalidDelta`] unless `0 ≤ δ′ < 1`; [`Error::VacuousGuarantee`] if no finite ε′
/// reaches δ_total.
///
/// # Example
/// ```
/// use privpac_accounting::{Privacy, heterogeneous_advanced_composition, pld_composition};
/// let runs = [Privacy::pure(0.1)?, Privacy::pure(0.05)?, Privacy::new(0.2, 1e-7)?];
/// let mixed: Vec<Privacy> = runs.iter().copied().cycle().take(300).collect();
/// let pld = pld_composition(&mixed, 1e-6, 1e-4)?;
/// let advanced = heterogeneous_advanced_composition(&mixed, 1e-6)?;
/// assert!(pld.epsilon() < advanced.epsilon());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn pld_composition(guarantees: &[Privacy], delta_prime: f64, interval: f64) -> Result<Privacy> {
    let steps: Vec<PldStep> = guarantees.iter().map(|&g| PldStep::private(g)).collect();
    pld_steps_composition(&steps, delta_prime, interval)
}

/// Bounds on ε(δ) for the list of steps, on a grid chosen so that `upper − lower ≤
/// epsilon_error` (`None`: [`default_epsilon_error`] of the ε found). The grid is refined up
/// to six times; if the transform would exceed [`MAX_PLD_CELLS`] first, the finest
/// bounds reached are returned (check [`PldBounds::gap`]). Once the accuracy is met, grids
/// four times finer are tried while the transform stays at most 2^18 long (cheap), and the
/// tightest upper bound is kept. Identical steps are grouped: the cost is one transform per
/// distinct step. Lists of more than 64 distinct steps are bounded through two rounded lists,
/// one dominating the given steps (for the upper bound) and one dominated by them (for the
/// lower), with few distinct steps (the `bucket` module's docs give the proof).
///
/// At δ′ = 0 the bounds are in closed form (no grid): the steps' amplified ε summed (upper)
/// and their largest losses summed (lower; 0 when a step has a δ of its own, see
/// [`AccuracyLimit::NoSlackBesideOwnDelta`]). Where the transforms miss the accuracy, lists
/// of few distinct (ε, δ) steps are bounded by enumerating their composed canonical pairs
/// (Kairouz–Oh–Viswanath Theorem 3.3 over a product; with steps of other kinds, those
/// steps alone give a lower bound), and steps subsampled at a rate within 10⁻⁹ of 1 are
/// bounded through the same steps without subsampling (the steps' pairs dominate; see
/// [`AccuracyLimit::RateNearOne`]). When the bounds miss the accuracy,
/// [`PldBounds::limited_by`] says why.
///
/// # Errors
/// As for [`pld_steps_bounds_on_grid`]; [`Error::InvalidParameter`] for an `epsilon_error`
/// that is not finite and positive.
///
/// # Example
/// ```
/// use privpac_accounting::{PldStep, pld_steps_bounds};
/// let step = PldStep::discrete_laplace(1.0, 1)?.poisson_subsampled(0.001)?;
/// let bounds = pld_steps_bounds(&vec![step; 100_000], 1e-6, None)?;
/// assert!(bounds.lower <= bounds.upper && bounds.gap() <= 0.01_f64.max(0.01 * bounds.upper));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn pld_steps_bounds(
    steps: &[PldStep],
    delta_prime: f64,
    epsilon_error: Option<f64>,
) -> Result<PldBounds> {
    if let Some(e) = epsilon_error
        && !(e > 0.0 && e.is_finite())
    {
        return Err(Error::InvalidParameter {
            name: "epsilon_error",
            range: "(0, ∞)",
            value: e,
        });
    }
    let (groups, target) = fast::prepare(steps, delta_prime)?;
    if delta_prime == 0.0 {
        return edges::zero_slack_bounds(&groups, target);
    }
    // Near-one rates: the unsubsampled steps' bounds, unless they miss the accuracy (a
    // large `Σ k_i(1 − q_i)` beside δ costs the lower bound); then the transforms' too.
    let near = near_one::near_one_bounds(&groups, target, epsilon_error, pld_steps_bounds);
    if let Some(b) = near
        && b.limited_by.is_none()
    {
        return Ok(b);
    }
    let transformed = if groups.len() > bucket::BUCKETING_THRESHOLD {
        bucket::bucketed_bounds(&groups, target, epsilon_error, None)
    } else {
        fast::grouped_bounds(&groups, target, epsilon_error, true)
    };
    let completed = edges::completed(transformed, &groups, target, epsilon_error);
    match (near, completed) {
        (Some(n), Ok(c)) => {
            let both = n.intersection(c);
            let wanted = epsilon_error.unwrap_or_else(|| default_epsilon_error(both.lower));
            Ok(PldBounds {
                limited_by: (both.gap() > wanted).then_some(AccuracyLimit::RateNearOne),
                ..both
            })
        }
        (Some(n), Err(_)) => Ok(n),
        (None, completed) => completed,
    }
}

/// Bounds on ε(δ) for the list of steps on the grid `interval` rounded down to two
/// significant bits (see the module docs), `δ = 1 − Π(1 − δ_i)·(1 − δ′)` as for
/// [`pld_steps_composition`]; for one two-atom step repeated, on the lattice of its two
/// losses instead when that is coarser (a better grid: see the module docs).
///
/// Every distinct step is transformed on this grid (lists of many distinct steps are not
/// bucketed, as [`pld_steps_bounds`](crate::pld_steps_bounds) does): for them prefer [`pld_steps_bounds`](crate::pld_steps_bounds) (10⁴
/// distinct pure steps: about 1.7 s at Δ = 10⁻⁴, against about 0.05 s). At δ′ = 0 no grid
/// is used: the bounds are the closed form of [`pld_steps_bounds`] at δ′ = 0.
///
/// # Errors
/// [`Error::InvalidCount`] for an empty list, a step wider than [`MAX_PLD_CELLS`]
/// cells or a window longer than that; [`Error::InvalidDelta`] unless `0 ≤ δ′ < 1`;
/// [`Error::InvalidParameter`] for a bad interval; [`Error::VacuousGuarantee`] if no finite ε
/// reaches δ.
pub fn pld_steps_bounds_on_grid(
    steps: &[PldStep],
    delta_prime: f64,
    interval: f64,
) -> Result<PldBounds> {
    if delta_prime == 0.0 {
        let (groups, target) = fast::prepare(steps, delta_prime)?;
        return edges::zero_slack_bounds(&groups, target);
    }
    fast::steps_bounds_on_grid(steps, delta_prime, interval)
}

/// The tightest (ε′, δ_total) the PLD gives for a list of steps (subsampled ones included)
/// at slack δ′ on the grid `interval`: `δ_total = 1 − Π(1 − δ_i)·(1 − δ′)` with δ_i each
/// step's [own δ](PldStep::own_delta), and ε′ the [upper bound](PldBounds::upper) of
/// [`pld_steps_bounds_on_grid`]: `δ(ε′) ≤ δ_total` in both directions of the
/// add/remove relation (one direction when no step is subsampled: the pairs are then
/// symmetric). [`pld_steps_bounds`] picks the grid for a requested accuracy instead.
///
/// # Errors
/// [`Error::InvalidCount`] for an empty list or a grid too fine for the steps (more than
/// [`MAX_PLD_CELLS`] cells in one step or in the composed window);
/// [`Error::InvalidDelta`] unless `0 ≤ δ′ < 1`; [`Error::VacuousGuarantee`] if no finite ε′
/// reaches δ_total.
pub fn pld_steps_composition(
    steps: &[PldStep],
    delta_prime: f64,
    interval: f64,
) -> Result<Privacy> {
    pld_steps_bounds_on_grid(steps, delta_prime, interval)?.privacy()
}

#[cfg(test)]
mod tests;

#[cfg(test)]
#[path = "pld/fast_tests.rs"]
mod fast_tests;

#[cfg(test)]
#[path = "pld/subsampled_br_tests.rs"]
mod subsampled_br_tests;
#[cfg(test)]
#[path = "pld/tilt_tests.rs"]
mod tilt_tests;
