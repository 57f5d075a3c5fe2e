//! Fast two-sided composition of privacy loss distributions: rigorous lower and upper bounds
//! on the ε(δ) of a list of [`PldStep`]s, by fast Fourier transforms of one step per distinct
//! mechanism raised to its count.
//!
//! *What is bounded.* Composing the steps' dominating pairs gives the loss `L = Σ L_i` of
//! independent losses (under P), and `δ(ε) = E[f_ε(L)]` with `f_ε(y) = (1 − e^{ε − y})₊`
//! (1 at `y = +∞`), an increasing function with values in `[0, 1]`. The exact ε(δ) of the
//! composition, `inf{ε : δ(ε) ≤ δ}`, lies in `[lower, upper]`.
//!
//! *Discretization and its error (after the coupling argument of Gopi, Lee and Wutschitz,
//! "Numerical composition of differential privacy", NeurIPS 2021).* Each loss is rounded up to the grid,
//! `Ŷ_i = ⌈L_i/h⌉·h`, and `Z_i = L_i − Ŷ_i ∈ (−h, 0]` is its residual, so that
//! `L = Ŷ + Z` with `Ŷ = ΣŶ_i` and `Z = ΣZ_i`, and the `Z_i` independent across steps. For
//! any threshold s, `f_ε(Ŷ + Z) ≤ f_ε(Ŷ + s) + 1{Z > s}` and `f_ε(Ŷ + Z) ≥ f_ε(Ŷ + s) −
//! 1{Z < s}` (f is increasing with values in [0, 1]), whatever the dependence between Ŷ and
//! Z, so
//! `δ_Ŷ(ε − s) − Pr[Z < s] ≤ δ(ε) ≤ δ_Ŷ(ε − s′) + Pr[Z > s′]`.
//! GLW place each cell's mass at its conditional mean and bound `Pr[|Z| > s]` by Hoeffding's
//! inequality, which gives a two-sided error of order `h·√(k·ln(1/δ_err))`. Here the rounding
//! goes up and the bias is corrected exactly instead: `Pr[Z > s′]` and `Pr[Z < s]` are bounded
//! by the Chernoff bound `Pr[Z > s] ≤ e^{−λs}·Π E[e^{λZ_i}]`, minimized over λ, with each
//! `E[e^{λZ_i}]` computed from the residual's distribution (atoms of known residual for the
//! canonical and discrete Laplace pairs and their subsampled pairs; Hoeffding's lemma on each
//! grid cell, with the cell's mean bounded, for the continuous bounded-range pair, subsampled
//! or not, whose cells are integrated from its exact densities). Each side spends
//! 2·10⁻⁴ of the δ left beyond the steps' own δ on this tail, and a bound that spends none
//! (`s′ = Σ max Z_i`, 0 up to rounding, `s = Σ min Z_i`: plain rounding, within `k·h`) is
//! also tried.
//!
//! *Composition of Ŷ (Koskela, Jälkö and Honkela, AISTATS 2020; Koskela et al., AISTATS
//! 2021).* The distribution of Ŷ on a window of `N = 2^L` cells is the inverse transform of
//! the product of the steps' transforms, each distinct step raised to its count (by
//! squaring): one transform per distinct step, whatever the counts. Three errors are bounded
//! and added pessimistically (to δ for the upper bound, subtracted for the lower):
//! - *Wrap-around and truncation.* The circular convolution folds the mass outside the window
//!   onto it. A Chernoff bound from the single-step discretized distributions
//!   (`Pr[Ŷ ≥ B] ≤ e^{−λB}Π E[e^{λŶ_i}]`) places the window so that at most τ (2·10⁻⁵ of the
//!   δ left) lies beyond each end; that mass counts as loss +∞ in the upper bound
//!   (never dropped), and as folded-in error in the lower bound.
//! - *Floating point.* Each step's transform has a per-frequency error bound (direct
//!   evaluation `Σ p·ŵ` over a step's m non-zero cells, for m ≤ 48 or when the frequencies
//!   not yet settled times m are fewer than `N·log₂N/2`: `(μ + m·u)·‖x‖₁`; the `fft`
//!   module's induction over butterfly stages otherwise); raising to the power k adds
//!   `k·M^{k−1}·|X̂ − X| + |X̂|^k((1 + √5u)^{k+64} − 1)` with `M = |X̂| + bound` (the mean
//!   value theorem for `z^k` and the relative errors of repeated squaring); products over
//!   steps add theirs. The inverse transform turns the spectrum's errors `E_j` into cell
//!   errors of ℓ² norm at most `(‖E‖₂ + tη/(1 − tη)·‖Ŷ‖₂)/√N` (Parseval, and Higham,
//!   *Accuracy and Stability of Numerical Algorithms*, Theorem 24.2, for the transform's own
//!   rounding), so the cells above a grid point, m of them, are off by at most `√m` times
//!   that in total: added to δ for the upper bound, subtracted for the lower (the cells
//!   themselves are clamped at 0, as the true masses are non-negative). The masses' own
//!   relative errors (a few ulps each) compound to a factor `(1 + η)^k` on the finite part.
//! - *Settled frequencies.* The steps are multiplied in, most repeated first, one frequency
//!   at a time; once a frequency's value and error together are below 10⁻²⁵⁰, it is set to 0
//!   and skipped by the remaining steps, with error `(|value| + error)·Π‖x_t‖₁^{k_t}` over
//!   those steps (each exact transform has modulus at most its ℓ¹ norm). For long lists most
//!   frequencies settle after a few steps, which is what makes 10⁴ distinct steps cheap.
//! - *The hockey-stick sum.* `δ_Ŷ` is evaluated at every grid point by a recurrence of
//!   non-negative terms, whose relative error is bounded and applied.
//!
//! *Small δ.* The transforms' error is absolute (about 10⁻¹⁵ of the total mass per cell), so
//! below δ = 10⁻⁸ they run on exponentially tilted masses, whose error is relative where δ
//! is decided (the `tilt` module gives the construction and its error terms): the bounds
//! stay within the requested accuracy down to δ of about 10⁻²⁸⁰, the floor of the slack
//! added for underflow.
//!
//! *Two-atom steps.* When the list is one step repeated and that step's finite losses are
//! two atoms (randomized response and the canonical (ε, δ) pair, discrete Laplace of
//! sensitivity 1, either Poisson-subsampled), [`pld_steps_bounds`] first tries the grid whose
//! step is the distance between the two losses: both atoms then have the same residual (up to
//! the loss margins), Z is a constant, the composed losses lie on the grid, and a short
//! transform gives bounds a few 10⁻⁴ apart (the same bounds as above, only a better grid).
//!
//! Within the cell where the bound crosses δ, the crossing is solved in closed form
//! (`δ(y_j − t) = D_j + (1 − e^{−t})R_j`) and rounded outwards. The grid step has two
//! significant bits (1, 1.25, 1.5 or 1.75 times a power of two), so every grid value `c·h`
//! is exact.

use super::chernoff::{chernoff_threshold, log_mgf, residual_log_mgf};
use super::fft::{Complex, Twiddles, UNIT, grow};
use super::limit::AccuracyLimit;
use super::pieces::{Discretized, Piece, discretize};
use super::spectrum::{composed_spectrum, inverse};
use super::steps::{PldMechanism, PldStep};
use super::tilt::{TILT_BELOW, Tilt};
use crate::error::{Error, Result};
use crate::privacy::Privacy;
use crate::rounding::{add_up, mul_up};

/// Rigorous two-sided bounds on the ε of a composition at a δ (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PldBounds {
    /// A lower bound on the exact ε(δ) of the composed dominating pairs. It is also a lower
    /// bound on the worst case over the mechanisms the steps stand for exactly when
    /// [`Self::lower_applies_to_mechanisms`] holds.
    pub lower: f64,
    /// A point estimate, between the bounds: the discretized composition with the rounding's
    /// mean bias removed.
    pub estimate: f64,
    /// An upper bound on the exact ε(δ): what privpac reports (0 when the composition is
    /// (0, δ)-DP; [`Self::privacy`] then reports the smallest positive ε).
    pub upper: f64,
    /// The δ the bounds are for: `1 − Π(1 − δ_i)·(1 − δ′)`, rounded up.
    pub delta: f64,
    /// The grid step used (0 when the bounds come from a closed form, not a grid: at δ′ = 0,
    /// or from enumerating one (ε, δ) step's composed losses; see [`AccuracyLimit`]).
    pub interval: f64,
    /// Whether [`Self::lower`] bounds the worst case over the mechanisms the steps stand for,
    /// not only the composed dominating pairs: false when a step is bounded-range
    /// ([`PldStep::bounded_range`], subsampled or not). Those steps are composed through an
    /// envelope pair that dominates every ε-bounded-range pair (so [`Self::upper`] holds for
    /// all of them) but is not itself ε-bounded-range, so no bounded-range mechanism need
    /// reach its ε: two 1-bounded-range steps at δ′ = 10⁻³ have the envelope's ε in
    /// [1.77961, 1.77967], while the worst adaptive composition of two 1-bounded-range
    /// mechanisms that an exact search of this project's review found reaches 1.77048. The
    /// other steps' pairs are attained
    /// (randomized response with δ for an (ε, δ) step, the discrete Laplace mechanism at
    /// neighbouring values, their Poisson subsamplings), so their lower bounds apply.
    pub lower_applies_to_mechanisms: bool,
    /// What kept the bounds further apart than the accuracy asked for, when they are (see
    /// [`AccuracyLimit`]); `None` when the accuracy is met.
    pub limited_by: Option<AccuracyLimit>,
}

impl PldBounds {
    /// The guarantee `(upper, delta)`.
    ///
    /// # Errors
    /// [`Error::VacuousGuarantee`] if δ reaches 1.
    pub fn privacy(&self) -> Result<Privacy> {
        // An exact ε of 0 ((0, δ)-DP): a `Privacy` needs ε > 0, and every ε > 0 holds, so
        // the smallest positive f64 is reported (as optimal composition does).
        let epsilon = if self.upper == 0.0 {
            f64::from_bits(1)
        } else {
            self.upper
        };
        crate::privacy::composed(epsilon, self.delta, "PLD composition gives delta >= 1")
    }

    /// `upper − lower`.
    pub fn gap(&self) -> f64 {
        self.upper - self.lower
    }

    /// Two rigorous bounds on the same ε combined: the larger lower and the smaller upper
    /// bound, with the tighter one's estimate (clamped between them) and grid.
    pub(super) fn intersection(self, other: PldBounds) -> PldBounds {
        let (lower, upper) = (self.lower.max(other.lower), self.upper.min(other.upper));
        let tighter = if self.gap() <= other.gap() {
            self
        } else {
            other
        };
        PldBounds {
            lower,
            upper,
            estimate: tighter.estimate.max(lower).min(upper),
            lower_applies_to_mechanisms: self.lower_applies_to_mechanisms
                && other.lower_applies_to_mechanisms,
            ..tighter
        }
    }
}

/// The default accuracy of [`pld_steps_bounds`](crate::pld_steps_bounds): the larger of 0.01 and 1% of ε.
pub fn default_epsilon_error(epsilon: f64) -> f64 {
    (0.01 * epsilon).max(0.01)
}

/// Fraction of the δ left beyond the steps' own δ spent on each Chernoff tail of the
/// residual, and on each end of the window.
const RESIDUAL_SHARE: f64 = 2e-4;
const WINDOW_SHARE: f64 = 2e-5;

/// [`crate::pld_steps_bounds_on_grid`] for δ′ > 0 (δ′ = 0 is answered by the `edges`
/// module's closed form).
pub(super) fn steps_bounds_on_grid(
    steps: &[PldStep],
    delta_prime: f64,
    interval: f64,
) -> Result<PldBounds> {
    let (groups, delta) = prepare(steps, delta_prime)?;
    // Grids too fine for a step are refused whichever grid is used.
    let h = grid_below(interval)?;
    for (step, _) in &groups {
        discretize(step, false, h)?;
    }
    if let Some(bounds) = on_lattice(&groups, delta, interval) {
        return Ok(bounds);
    }
    Ok(bounds_on_grid(&groups, delta, interval, false, Variant::Rigorous)?.0)
}

/// Whether PLD lower bounds over these steps bound the worst case over the mechanisms they
/// stand for: no step is bounded-range (see [`PldBounds::lower_applies_to_mechanisms`]).
pub(super) fn lower_applies_to_mechanisms<'a>(
    steps: impl IntoIterator<Item = &'a PldStep>,
) -> bool {
    steps
        .into_iter()
        .all(|s| !matches!(s.mechanism(), PldMechanism::BoundedRange { .. }))
}

/// For one two-atom step repeated, the bounds on the lattice of its two losses when that
/// lattice is coarser than `interval` (see the module docs: the residual is then constant, so
/// the lattice is the better grid, and the transform is short).
fn on_lattice(groups: &[(PldStep, u64)], delta: Target, interval: f64) -> Option<PldBounds> {
    let [(step, _)] = groups else { return None };
    let spacing = super::pieces::two_atom_spacing(step)?;
    if spacing.is_nan() || spacing < interval {
        return None;
    }
    bounds_on_grid(groups, delta, spacing, true, Variant::Rigorous)
        .ok()
        .map(|b| b.0)
}

/// [`pld_steps_bounds`] for grouped steps and their δ. With `polish`, grids finer than the
/// one that meets the accuracy are tried while the transform stays short (skipped for lists
/// of more than 64 distinct steps, whose many transforms make each grid costlier).
pub(super) fn grouped_bounds(
    groups: &[(PldStep, u64)],
    delta: Target,
    epsilon_error: Option<f64>,
    polish: bool,
) -> Result<PldBounds> {
    let groups = groups.to_vec();
    let count: f64 = groups.iter().map(|g| g.1 as f64).sum();
    // A Hoeffding-sized first grid: the residual's spread is about h·√(k·ln(1/δ_e)/2).
    // The residual's spread is at most h·√(k·ln(1/δ_e)/2) (Hoeffding) and usually far less:
    // start at a grid that meets the target when the spread is a tenth of Hoeffding's.
    let target = epsilon_error.unwrap_or(0.05);
    let mut h = (target / (2.0 + 0.5 * (10.0 * count).sqrt())).min(0.05);
    // With the default (relative) accuracy and a large ε, that grid is far finer than
    // needed (64 distinct steps of ε near 800 asked 0.05 where 1% of ε is 8, on a transform
    // of 2^19 cells): a probe on a grid 64 times coarser (a transform 64 times shorter)
    // estimates ε, and the search starts from the grid that should reach a tenth of the
    // accuracy then wanted (the gap shrinks about linearly with the grid). Only the
    // starting grid changes: every grid's bounds are rigorous, and the search below still
    // refines until the accuracy is met.
    if epsilon_error.is_none() {
        let coarse = h * 64.0;
        if let Ok((probe, _)) = bounds_on_grid(&groups, delta, coarse, false, Variant::Rigorous)
            && probe.lower > 5.0
            && probe.gap() > 0.0
        {
            let wanted = default_epsilon_error(probe.lower);
            h = (coarse * 0.1 * wanted / probe.gap()).clamp(h, coarse);
        }
    }
    // One two-atom step, however often: on the lattice of its two losses the residual is a
    // constant, and a coarse grid is exact up to rounding.
    let lattice = on_lattice(&groups, delta, 0.0);
    if let Some(bounds) = lattice
        && bounds.gap() <= epsilon_error.unwrap_or_else(|| default_epsilon_error(bounds.lower))
    {
        return Ok(bounds);
    }
    // Both are rigorous bounds on the same ε: when the grids cannot reach the accuracy (or
    // fit no window), the lattice's bounds are kept, intersected with the grids' best.
    match (
        searched_bounds(&groups, delta, epsilon_error, polish, h),
        lattice,
    ) {
        (Ok(b), Some(l)) => Ok(b.intersection(l)),
        (Err(_), Some(l)) => Ok(l),
        (result, None) => result,
    }
}

/// The grid search of [`grouped_bounds`] from the first grid `h`.
fn searched_bounds(
    groups: &[(PldStep, u64)],
    delta: Target,
    epsilon_error: Option<f64>,
    polish: bool,
    mut h: f64,
) -> Result<PldBounds> {
    let mut best: Option<PldBounds> = None;
    for _ in 0..7 {
        let outcome = bounds_on_grid(groups, delta, h, false, Variant::Rigorous);
        let (bounds, n) = match (outcome, &best) {
            (Ok(b), _) => b,
            (Err(Error::InvalidCount { .. }), Some(b)) => return Ok(*b),
            // The first grid is too fine for the window: a coarser one.
            (Err(Error::InvalidCount { .. }), None) if h < 1.0 => {
                h *= 8.0;
                continue;
            }
            (Err(e), _) => return Err(e),
        };
        let wanted = epsilon_error.unwrap_or_else(|| default_epsilon_error(bounds.lower));
        if best.is_none_or(|b| bounds.gap() < b.gap()) {
            best = Some(bounds);
        }
        if bounds.gap() <= wanted {
            // Accurate enough; while the transform stays short (a few tens of milliseconds),
            // finer grids cost little and tighten both ends: keep the tightest upper bound.
            let (mut kept, mut length, mut step) = (bounds, n, h);
            while polish && 4 * length <= 1 << 18 {
                step /= 4.0;
                match bounds_on_grid(groups, delta, step, false, Variant::Rigorous) {
                    Ok((finer, m)) if finer.upper <= kept.upper => (kept, length) = (finer, m),
                    _ => break,
                }
            }
            return Ok(kept);
        }
        h *= (0.7 * wanted / bounds.gap()).clamp(0.05, 0.7);
    }
    best.ok_or(Error::VacuousGuarantee {
        reason: "the PLD reaches no finite epsilon at this delta",
    })
}

/// Which bounds to compute: the rigorous ones, or (tests only) an optimistic variant that
/// drops the residual's concentration term, the floating-point and the tail terms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Variant {
    Rigorous,
    #[cfg(test)]
    Optimistic,
}

/// The δ a composition is bounded at, and what the spare δ beside the steps' own δ is
/// computed from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Target {
    /// `1 − Π(1 − δ_i)·(1 − δ′)`, rounded up.
    pub(super) delta: f64,
    /// The slack δ′.
    pub(super) slack: f64,
    /// `Σ k_i·ln(1 − δ_i)` over the steps' own δ, as computed (a direction whose mass at +∞
    /// has exactly this logarithm is the removal direction of these steps).
    pub(super) log_keep: f64,
    /// Distinct steps summed in `log_keep` (for its rounding error).
    pub(super) terms: usize,
}

impl Target {
    /// Bounds `(lower, upper)` on `K = Π(1 − δ_i)`, from the computed `log_keep`.
    pub(super) fn keep(&self) -> (f64, f64) {
        let rel = 1e-12 + self.terms as f64 * 4e-16;
        let keep_lo = (self.log_keep * (1.0 + rel) - 1e-300).exp() * (1.0 - 1e-15);
        let keep_hi = ((self.log_keep * (1.0 - rel)).exp() * (1.0 + 1e-15)).min(1.0);
        (keep_lo, keep_hi)
    }

    /// Bounds `(lower, upper)` on `δ − I`, with `I = 1 − Π(1 − δ_i)` the mass at +∞ of the
    /// removal direction, computed without the cancellation of the difference:
    /// `δ ≥ 1 − K(1 − δ′)` with `K = Π(1 − δ_i)`, so `δ − I ≥ K·δ′`; and δ is that value
    /// rounded up by a relative 10⁻¹² above a value whose relative error is at most
    /// `(terms + 2)·2⁻⁵³` (the error of the summed logarithms, through `expm1`), so
    /// `δ − I ≤ K·δ′ + (2·10⁻¹² + terms·4·10⁻¹⁶)·δ`.
    /// K is `exp` of the computed `log_keep`, whose relative error is below
    /// `(terms + 2)·2⁻⁵²` (one `ln_1p` and one addition per term), widened to
    /// `10⁻¹² + terms·4·10⁻¹⁶`.
    pub(super) fn spare(&self) -> (f64, f64) {
        let (keep_lo, keep_hi) = self.keep();
        let lo = self.slack * keep_lo * (1.0 - 1e-15);
        let hi = add_up(
            mul_up(self.slack, keep_hi),
            self.delta * (2e-12 + self.terms as f64 * 4e-16),
        );
        (lo, hi)
    }
}

/// Validates and groups identical steps (first-appearance order), and the δ of the result.
pub(super) fn prepare(
    steps: &[PldStep],
    delta_prime: f64,
) -> Result<(Vec<(PldStep, u64)>, Target)> {
    if steps.is_empty() {
        return Err(Error::InvalidCount {
            name: "number of mechanisms",
            requirement: "at least 1",
            value: 0,
        });
    }
    if !(0.0..1.0).contains(&delta_prime) {
        return Err(Error::InvalidDelta { value: delta_prime });
    }
    let mut index: std::collections::HashMap<[u64; 4], usize> = std::collections::HashMap::new();
    let mut groups: Vec<(PldStep, u64)> = Vec::new();
    // Runs of one step (the common case) skip the hash table.
    let mut last: Option<([u64; 4], usize)> = None;
    for step in steps {
        let key = step_key(step);
        if let Some((k, i)) = last
            && k == key
        {
            groups[i].1 += 1;
            continue;
        }
        let i = *index.entry(key).or_insert_with(|| {
            groups.push((*step, 0));
            groups.len() - 1
        });
        groups[i].1 += 1;
        last = Some((key, i));
    }
    // 1 − Π(1 − δ_i)·(1 − δ′) = −expm1(Σ ln(1 − δ_i) + ln(1 − δ′)), rounded up by a relative
    // 10⁻¹² (the ε are found for this δ, so a larger δ only helps).
    let own_log_keep: f64 = groups
        .iter()
        .map(|(s, k)| *k as f64 * (-s.own_delta()).ln_1p())
        .sum::<f64>();
    let log_keep = own_log_keep + (-delta_prime).ln_1p();
    let delta = (-(log_keep.exp_m1())).min(1.0);
    let target = Target {
        delta: add_up(delta, delta * 1e-12),
        slack: delta_prime,
        log_keep: own_log_keep,
        terms: groups.len(),
    };
    Ok((groups, target))
}

/// A hashable identity of a step (bit patterns of its parameters).
pub(super) fn step_key(step: &PldStep) -> [u64; 4] {
    use super::steps::PldMechanism as M;
    let rate = step.rate().to_bits();
    match step.mechanism() {
        M::Private(p) => [0, p.epsilon().to_bits(), p.delta().to_bits(), rate],
        M::BoundedRange { epsilon } => [1, epsilon.to_bits(), 0, rate],
        M::DiscreteLaplace { scale, sensitivity } => [2, scale.to_bits(), sensitivity, rate],
    }
}

/// One direction's discretized steps and what the search needs about them.
struct Direction {
    steps: Vec<(Discretized, u64)>,
    /// Window `[lo, lo + width)` of grid indices (of the composed Ŷ).
    lo: i64,
    width: usize,
    /// Bounds on the mass at +∞ (the steps' own δ in this direction).
    infinite_up: f64,
    infinite_lo: f64,
    /// Bounds `(lower, upper)` on the spare δ (the target less the mass at +∞), when
    /// computed directly (see [`Target::spare`]).
    direct: Option<(f64, f64)>,
    /// The tilt of the transforms, for small δ (see the `tilt` module).
    tilt: Option<Tilt>,
}

/// The bounds on the grid `interval` (rounded down to two significant bits unless
/// `exact_grid`),
/// and the transform length used.
pub(super) fn bounds_on_grid(
    groups: &[(PldStep, u64)],
    delta: Target,
    interval: f64,
    exact_grid: bool,
    variant: Variant,
) -> Result<(PldBounds, usize)> {
    let untilted = || grid_bounds(groups, delta, interval, exact_grid, variant, false);
    match grid_bounds(groups, delta, interval, exact_grid, variant, true) {
        // A tilt can lose precision where δ is decided (a λ too large for the few cells that
        // decide it): unless the tilted bounds are clearly tight, the untilted ones are
        // computed too, and both being rigorous, their intersection is kept.
        Ok((b, n, true)) if b.gap() > 0.05 * b.upper.max(0.2) => match untilted() {
            Ok((u, m, _)) => Ok((b.intersection(u), n.max(m))),
            Err(_) => Ok((b, n)),
        },
        Ok((b, n, _)) => Ok((b, n)),
        Err(_) if variant == Variant::Rigorous => untilted().map(|(b, n, _)| (b, n)),
        Err(e) => Err(e),
    }
}

/// [`bounds_on_grid`] with or without the tilt (when δ calls for it), and whether a
/// direction was tilted.
fn grid_bounds(
    groups: &[(PldStep, u64)],
    target: Target,
    interval: f64,
    exact_grid: bool,
    variant: Variant,
    tilting: bool,
) -> Result<(PldBounds, usize, bool)> {
    let h = if exact_grid && interval >= f64::MIN_POSITIVE && interval.is_finite() {
        interval
    } else {
        grid_below(interval)?
    };
    let directions: &[bool] = if groups.iter().all(|g| g.0.is_symmetric()) {
        &[false]
    } else {
        &[false, true]
    };
    let delta = target.delta;
    let vacuous = Error::VacuousGuarantee {
        reason: "the PLD reaches no finite epsilon at this delta",
    };
    let mut dirs = Vec::with_capacity(2);
    for &adding in directions {
        let steps = groups
            .iter()
            .map(|(s, k)| Ok((discretize(s, adding, h)?, *k)))
            .collect::<Result<Vec<_>>>()?;
        let log_keep: f64 = steps
            .iter()
            .map(|(d, k)| *k as f64 * (-d.infinite).ln_1p())
            .sum();
        let infinite = -(log_keep.exp_m1());
        let (infinite_up, infinite_lo) = (infinite * (1.0 + 1e-12), infinite * (1.0 - 1e-12));
        // When this direction's mass at +∞ is the steps' own δ (removal, or symmetric
        // pairs), the spare δ is computed directly (δ′ beside a much larger own δ would be
        // lost in `delta − infinite`).
        let direct = (log_keep == target.log_keep && infinite > 0.0).then(|| target.spare());
        let spare = direct.map_or(delta - infinite_up, |s| s.0);
        if spare.is_nan() || spare <= 0.0 {
            return Err(vacuous);
        }
        let tau = spare * WINDOW_SHARE;
        let support_lo: i128 = steps
            .iter()
            .map(|(d, k)| d.first as i128 * *k as i128)
            .sum();
        let support_hi: i128 = steps
            .iter()
            .map(|(d, k)| d.last() as i128 * *k as i128)
            .sum();
        let hi = chernoff_threshold(|l| log_mgf(&steps, l, h), tau, h);
        let lo = -chernoff_threshold(|l| log_mgf(&steps, -l, h), tau, h);
        let mut hi = ((hi / h).ceil() as i128).min(support_hi);
        let lo = ((lo / h).floor() as i128).max(support_lo).min(hi);
        let tilt = if tilting && variant == Variant::Rigorous && spare < TILT_BELOW {
            Tilt::choose(&steps, spare, tau, h, lo, &mut hi, support_hi)
        } else {
            None
        };
        let width = hi - lo + 1;
        if width > super::MAX_PLD_CELLS as i128 {
            return Err(Error::InvalidCount {
                name: "PLD transform length (window / interval; use a coarser interval)",
                requirement: "at most 2^22",
                value: u64::try_from(width).unwrap_or(u64::MAX),
            });
        }
        dirs.push(Direction {
            steps,
            lo: lo as i64,
            width: width as usize,
            infinite_up,
            infinite_lo,
            direct,
            tilt,
        });
    }
    let n = dirs
        .iter()
        .map(|d| d.width)
        .max()
        .unwrap_or(1)
        .next_power_of_two()
        .max(2);
    let twiddles = Twiddles::new(n.trailing_zeros());
    let spectra: Vec<(Vec<Complex>, Vec<f64>)> = dirs
        .iter()
        .map(|d| composed_spectrum(d.tilt.as_ref().map_or(&d.steps, |t| &t.steps), &twiddles))
        .collect();
    let (cells, cell_error) = inverse(&spectra, &twiddles);
    let mut bounds = PldBounds {
        lower: 0.0,
        estimate: 0.0,
        upper: 0.0,
        delta,
        interval: h,
        lower_applies_to_mechanisms: lower_applies_to_mechanisms(groups.iter().map(|g| &g.0)),
        limited_by: None,
    };
    for (index, dir) in dirs.iter().enumerate() {
        let (upper, estimate, lower) =
            direction_bounds(dir, &cells[index], cell_error, delta, h, n, variant).ok_or(
                Error::VacuousGuarantee {
                    reason: "the PLD reaches no finite epsilon at this delta",
                },
            )?;
        bounds.upper = bounds.upper.max(upper);
        bounds.estimate = bounds.estimate.max(estimate);
        bounds.lower = bounds.lower.max(lower);
    }
    bounds.estimate = bounds.estimate.clamp(bounds.lower, bounds.upper);
    let tilted = dirs.iter().any(|d| d.tilt.is_some());
    Ok((bounds, n, tilted))
}

/// The largest `m·2^e` with `m ∈ {1, 1.25, 1.5, 1.75}` not above `interval` (the value with
/// its mantissa cut to two bits): grid values `c·h` are then exact (`4c` fits in 53 bits),
/// and the grid is at most 25% finer than asked (a power of two could be 50% finer, and
/// the transform twice as long).
fn grid_below(interval: f64) -> Result<f64> {
    if !(interval >= f64::MIN_POSITIVE && interval.is_finite()) {
        return Err(if interval > 0.0 {
            Error::InvalidCount {
                name: "PLD grid cells (loss range / interval)",
                requirement: "at most 2^22",
                value: u64::MAX,
            }
        } else {
            Error::InvalidParameter {
                name: "PLD discretization interval",
                range: "(0, ∞)",
                value: interval,
            }
        });
    }
    Ok(f64::from_bits(interval.to_bits() & 0xfffc_0000_0000_0000))
}

/// `(upper, estimate, lower)` for one direction from its circular cells.
fn direction_bounds(
    dir: &Direction,
    circular: &[f64],
    cell_error: f64,
    delta: f64,
    h: f64,
    n: usize,
    variant: Variant,
) -> Option<(f64, f64, f64)> {
    let rigorous = variant == Variant::Rigorous;
    let spare = dir.direct.map_or(delta - dir.infinite_up, |s| s.0);
    // The masses are exact up to a factor ρ ≥ Π(1 + η_i)^{k_i}, so are the Chernoff bounds
    // computed from them (and 10⁻⁶ covers the bounds' own rounding).
    let eta: f64 = dir
        .steps
        .iter()
        .map(|(d, k)| d.eta * *k as f64)
        .sum::<f64>()
        + dir.tilt.as_ref().map_or(0.0, |t| t.eta + t.weight_error);
    let rho = (eta * (1.0 + 1e-9)).exp() * (1.0 + 1e-12);
    let tails = if rigorous {
        2.0 * spare * WINDOW_SHARE * rho * (1.0 + 1e-6)
    } else {
        0.0
    };
    let residual_tail = spare * RESIDUAL_SHARE;
    let e = if rigorous { cell_error } else { 0.0 };
    let rho_up = if rigorous { rho } else { 1.0 };
    // The summed errors of the `count` cells from window cell `from` on: √(count)·‖error‖₂
    // (or, tilted, the tilt module's bound with the weights).
    let cells_error = |from: usize, count: usize| match &dir.tilt {
        Some(tilt) if rigorous => tilt.cells_error(dir.lo + from as i64, count, e, rho),
        _ => (count as f64).sqrt() * e * (1.0 + 4.0 * UNIT),
    };
    // Cells above grid point j, and the cells from j on.
    let spread = |j: usize| cells_error(j + 1, dir.width - 1 - j);
    let spread_from = |j: usize| cells_error(j, dir.width - j);
    // The window's cells, in order, from the circular ones (untilted).
    let window: Vec<f64> = (0..dir.width)
        .map(|i| {
            let cell = dir.lo + i as i64;
            let value = circular[cell.rem_euclid(n as i64) as usize];
            dir.tilt.as_ref().map_or(value, |t| t.untilt(value, cell))
        })
        .collect();
    let (d_mid, r_mid, g) = hockey_sticks(&window, h);
    // Grid values c·h, rounded up (for upper bounds) or down (for lower bounds): exact on a
    // grid step of two significant bits.
    let y = |j: usize| mul_up((dir.lo + j as i64) as f64, h);
    let y_down = |j: usize| -mul_up(-((dir.lo + j as i64) as f64), h);
    let sure_up: f64 = dir
        .steps
        .iter()
        .map(|(d, k)| *k as f64 * max_of(&d.pieces, |p| p.z_max))
        .sum();
    let sure_lo: f64 = dir
        .steps
        .iter()
        .map(|(d, k)| *k as f64 * -max_of(&d.pieces, |p| -p.z_min))
        .sum();
    let margin = |s: f64| s.abs() * 1e-12 + 1e-300;
    let chernoff_up = chernoff_threshold(|l| residual_log_mgf(&dir.steps, l), residual_tail, h);
    let chernoff_lo = -chernoff_threshold(|l| residual_log_mgf(&dir.steps, -l), residual_tail, h);
    let claimed_tail = residual_tail * rho * (1.0 + 2e-6);
    // Upper: the smallest grid point whose bounded δ fits, plus the threshold. With the
    // spare δ computed directly, the finite part is compared with it instead of the sum with
    // the mass at +∞ with δ (the same inequality, without the cancellation).
    let (up_const, up_target) = match dir.direct {
        Some((spare_lo, _)) => (tails, spare_lo),
        None => (dir.infinite_up + tails, delta),
    };
    let upper_at = |s: f64, target: f64| -> Option<f64> {
        let j = (0..dir.width)
            .find(|&j| up_const + (d_mid[j] * (1.0 + g) + spread(j)) * rho_up <= target)?;
        // Into the cell below y_j: at x = y_j − t the cells from j on lie above x, and
        // δ(x) = D_j + (1 − e^{−t})·R_j with R_j = Σ_{i ≥ j} m_i e^{−(i − j)h}; the largest
        // t that keeps the upper bound within the target, rounded down.
        let top = up_const + (d_mid[j] * (1.0 + g) + spread_from(j)) * rho_up;
        let r_high = r_mid[j] * (1.0 + g) * rho_up;
        let room = target - top;
        let t = if room <= 0.0 {
            0.0
        } else if room < r_high {
            -(-room / r_high).ln_1p() * (1.0 - 1e-12)
        } else {
            h
        };
        let x = add_up(y(j), -t.clamp(0.0, h));
        Some(add_up(x, s + margin(s)))
    };
    let variants_up = if rigorous {
        vec![
            upper_at(sure_up + margin(sure_up), up_target),
            upper_at(chernoff_up, up_target - claimed_tail),
        ]
    } else {
        // Optimistic: the mean residual, no tail.
        // Optimistic: every residual at its smallest (rounding down), no tail terms.
        vec![upper_at(sure_lo, up_target)]
    };
    let upper = variants_up
        .into_iter()
        .flatten()
        .fold(f64::INFINITY, f64::min)
        .max(0.0);
    if !upper.is_finite() {
        return None;
    }
    // Lower: the largest grid point whose bounded-below δ still exceeds the target.
    let (lo_const, lo_target) = match dir.direct {
        Some((_, spare_hi)) => (-tails, spare_hi),
        None => (dir.infinite_lo - tails, delta),
    };
    let lower_at = |s: f64, target: f64| -> f64 {
        let fits = |j: usize| lo_const + d_mid[j] * (1.0 - g) / rho - spread(j) > target;
        match (0..dir.width).rev().find(|&j| fits(j)) {
            Some(j) if j + 1 < dir.width => {
                // Into the cell above y_j, as for the upper bound: at x = y_{j+1} − t the
                // lower bound is at least D + (1 − e^{−t})·R, above the target for every t
                // beyond the root (rounded up).
                let k = j + 1;
                let base = lo_const + d_mid[k] * (1.0 - g) / rho - spread_from(k);
                let r_low = r_mid[k] * (1.0 - g) / rho;
                let short = target - base;
                let t = if short < 0.0 {
                    0.0
                } else if short < r_low {
                    -(-short / r_low).ln_1p() * (1.0 + 1e-12) + 1e-300
                } else {
                    h
                };
                let x = -add_up(-y_down(k), t.min(h));
                -add_up(-x, -(s - margin(s)))
            }
            Some(j) => -add_up(-y_down(j), -(s - margin(s))),
            None => 0.0,
        }
    };
    let lower = lower_at(sure_lo - margin(sure_lo), lo_target)
        .max(lower_at(chernoff_lo, lo_target + claimed_tail))
        .max(0.0)
        .min(upper);
    // Estimate: the plain cells with the mean bias removed.
    let mean = mean_residual(&dir.steps);
    let estimate = (0..dir.width)
        .find(|&j| {
            let infinite = if dir.direct.is_some() {
                0.0
            } else {
                dir.infinite_up
            };
            infinite + d_mid[j] <= up_target
        })
        .map_or(upper, |j| y(j) + mean);
    Some((upper, estimate, lower))
}

fn max_of(pieces: &[Piece], f: impl Fn(&Piece) -> f64) -> f64 {
    pieces
        .iter()
        .filter(|p| p.mass > 0.0)
        .map(f)
        .fold(f64::NEG_INFINITY, f64::max)
        .max(-1e300)
}

/// `Σ k·E[Z_i]` (midpoints of the mean bounds): the estimate's bias correction.
fn mean_residual(steps: &[(Discretized, u64)]) -> f64 {
    steps
        .iter()
        .map(|(d, k)| {
            let mass: f64 = d.pieces.iter().map(|p| p.mass).sum();
            let m: f64 = d
                .pieces
                .iter()
                .map(|p| p.mass * 0.5 * (p.mean_lo + p.mean_hi))
                .sum();
            *k as f64 * if mass > 0.0 { m / mass } else { 0.0 }
        })
        .sum()
}

/// `D_j = Σ_{i > j} m_i·(1 − e^{−(i − j)h})` for every cell j (the hockey stick of the cells
/// at the grid point of cell j), by the recurrence `D_j = (1 − e^{−h})·S_j + e^{−h}·D_{j+1}`,
/// `S_j = Σ_{i > j} m_i`, of non-negative terms; `R_j = Σ_{i ≥ j} m_i e^{−(i − j)h}` likewise;
/// and a bound g on their relative errors.
fn hockey_sticks(cells: &[f64], h: f64) -> (Vec<f64>, Vec<f64>, f64) {
    let a = -(-h).exp_m1();
    let b = (-h).exp();
    let mut d = vec![0.0; cells.len()];
    let mut r = vec![0.0; cells.len()];
    let (mut s, mut dj, mut rj) = (0.0, 0.0, 0.0);
    for j in (0..cells.len()).rev() {
        if j + 1 < cells.len() {
            s += cells[j + 1].max(0.0);
            dj = a * s + b * dj;
            d[j] = dj;
        }
        rj = cells[j].max(0.0) + b * rj;
        r[j] = rj;
    }
    // Each step: one addition into S, two products and a sum, and the constants' errors.
    let g = grow(8.0 * (cells.len() as f64 + 2.0), UNIT);
    (d, r, g)
}

#[cfg(test)]
pub(super) fn bounds_variant(
    steps: &[PldStep],
    delta_prime: f64,
    interval: f64,
    variant: Variant,
) -> Result<PldBounds> {
    let (groups, delta) = prepare(steps, delta_prime)?;
    bounds_on_grid(&groups, delta, interval, false, variant).map(|b| b.0)
}
