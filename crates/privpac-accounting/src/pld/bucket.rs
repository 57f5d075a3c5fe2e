//! Long heterogeneous lists: bounds from two bucketed lists, one whose steps dominate the
//! given ones and one whose steps they dominate.
//!
//! The `fast` module's cost is one transform per distinct step, so a list of 10^4 distinct
//! steps costs 10^4 transforms. When a list has more than [`BUCKETING_THRESHOLD`] distinct
//! steps, [`super::pld_steps_bounds`] rounds their parameters and groups the rounded steps:
//! rounded *up* for the upper bound, *down* for the lower bound. Lists with fewer distinct
//! steps are composed exactly as before.
//!
//! *What is rounded, and why it is sound.* Write `(P, Q) ⪯ (P′, Q′)` when some Markov kernel
//! T maps P′ to P and Q′ to Q (one kernel for both). Then every hockey-stick divergence of
//! (P, Q) is at most that of (P′, Q′) (data processing), in either order of the pair, and
//! composition preserves it (apply the kernels coordinatewise, each to its own step's
//! output), so the composed `δ(ε)` of a list is at most that of a list whose steps dominate
//! it step by step, and the exact ε(δ) likewise. The rounding uses three facts:
//! 1. *Canonical pairs* ([`super::PldMechanism::Private`]). The canonical pair of (ε, δ)
//!    dominates every (ε, δ)-DP pair (Kairouz, Oh and Viswanath, ICML 2015, Theorem 2.1,
//!    the dominance being a post-processing); the canonical pair of (ε, δ) is itself
//!    (ε′, δ)-DP for ε′ ≥ ε, so it is dominated by the canonical pair of (ε′, δ). So ε is
//!    rounded; δ is kept exact (the δ of the result, `1 − Π(1 − δ_i)(1 − δ′)`, is unchanged).
//! 2. *Poisson subsampling* (every kind). For rates q ≤ q′ and any pair (P, Q), the kernel
//!    "keep the sample with probability q/q′, otherwise output a fresh draw from Q" maps
//!    `q′P + (1 − q′)Q` to `(q/q′)(q′P + (1 − q′)Q) + (1 − q/q′)Q = qP + (1 − q)Q`, and Q to
//!    Q; so both subsampled pairs, `(qP + (1 − q)Q, Q)` and `(Q, qP + (1 − q)Q)`, are
//!    dominated by those at q′. A kernel S with `(P, Q) ⪯ (P′, Q′)` also maps
//!    `qP′ + (1 − q)Q′` to `qP + (1 − q)Q` (S is linear), so ε and q may be rounded
//!    together. The rate is rounded only for steps without their own δ (for a subsampled
//!    (ε, δ) step the δ at +∞ is `qδ`, which would change the δ of the result).
//! 3. The other parameters — the bounded-range width and the discrete Laplace scale and
//!    sensitivity — are kept exact.
//!
//! *Upper bound.* Each parameter is rounded up (comparisons of stored values, and products
//! rounded upwards, so no floating-point slack), giving a list that dominates the given one
//! step by step: its exact ε(δ) is at least the given list's, and the `fast` module's upper
//! bound of it bounds the given list's from above.
//! *Lower bound.* Rounded down, the steps are dominated by the given ones, so the exact
//! ε(δ) of the rounded list is at most the given list's, and the `fast` module's lower bound
//! of it is a lower bound for the given list. Both are at the δ of the given list.
//!
//! *The grids.* The ε of a canonical pair that is not subsampled is rounded to a multiple of
//! the transform's grid step h (kept as it is when rounding down would give 0), and both
//! lists are composed on that grid: the pair's losses ±ε then lie on the grid, every atom
//! has the same residual (up to the losses' margins), and the `fast` module's discretization
//! gap nearly vanishes (as on its two-atom lattice). Rates and the ε of subsampled canonical
//! pairs are rounded on a geometric grid of relative spacing r from the smallest value in the
//! list to the largest (both included, so a rate never exceeds 1). Rounding up and down by
//! one cell moves the composed ε by about `h·√(2k·ln(1/δ))` (the lattice) or r·ε (the
//! spacing), so the gap `upper − lower` is that plus the transforms' gaps. h starts at the
//! `fast` module's first guess and r at 2%; while the gap exceeds the requested error they
//! shrink (from the measured transforms' gaps and the difference of the two estimates),
//! up to five passes; if it is still wider, or the transform would outgrow
//! [`super::MAX_PLD_CELLS`], the tightest bounds found are returned, as
//! [`super::pld_steps_bounds`] documents. When the two rounded lists together have as many
//! distinct steps as the given one, or the rounded lists fail on the first grid, the given
//! list is composed without rounding (as tight, and no slower in the first case).

use super::fast::{
    PldBounds, Target, Variant, bounds_on_grid, default_epsilon_error, grouped_bounds, step_key,
};
use super::steps::{PldMechanism, PldStep};
use crate::error::{Error, Result};
use crate::privacy::Privacy;
use crate::rounding::mul_up;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// Lists with more distinct steps than this are bucketed.
pub(super) const BUCKETING_THRESHOLD: usize = 64;

/// The first relative grid spacing.
const FIRST_SPACING: f64 = 0.02;

/// The most passes of refinement.
const PASSES: usize = 5;

/// A geometric grid from the smallest to the largest of some values, both included.
struct Grid(Vec<f64>);

impl Grid {
    fn new(values: impl Iterator<Item = f64>, spacing: f64) -> Option<Grid> {
        let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
        if lo > hi {
            return None;
        }
        let mut grid = vec![lo];
        let factor = 1.0 + spacing;
        loop {
            let last = grid[grid.len() - 1];
            let next = last * factor;
            if !(next > last && next < hi) {
                break;
            }
            grid.push(next);
        }
        if hi > lo {
            grid.push(hi);
        }
        Some(Grid(grid))
    }

    /// The smallest grid value `≥ x` (`up`) or the largest `≤ x`, for x in the grid's range.
    fn round(&self, x: f64, up: bool) -> f64 {
        let g = &self.0;
        if up {
            g[g.partition_point(|&v| v < x).min(g.len() - 1)]
        } else {
            g[g.partition_point(|&v| v <= x).max(1) - 1]
        }
    }
}

/// Whether a step's rate may be rounded (subsampled, and no δ of its own).
fn rate_rounds(step: &PldStep) -> bool {
    step.rate() < 1.0 && step.own_delta() == 0.0
}

/// The multiple of `lattice` at least `x` (`up`) or at most `x`; `None` when that is 0 (or
/// the multiple is beyond 10^15).
fn on_lattice(x: f64, lattice: f64, up: bool) -> Option<f64> {
    if (x / lattice).is_nan() || x / lattice >= 1e15 {
        return None;
    }
    let mut m = (x / lattice).floor() + if up { 1.0 } else { 0.0 };
    let value = |m: f64| {
        if up {
            mul_up(m, lattice)
        } else {
            -mul_up(-m, lattice)
        }
    };
    // The quotient is rounded: step to the right multiple (stored values compared exactly).
    while up && m > 1.0 && value(m - 1.0) >= x {
        m -= 1.0;
    }
    while up && value(m) < x {
        m += 1.0;
    }
    while !up && m > 0.0 && value(m) > x {
        m -= 1.0;
    }
    (m > 0.0).then(|| value(m))
}

/// The steps rounded up (`up`) or down and regrouped (first-appearance order): the ε of
/// canonical pairs that are not subsampled to multiples of `lattice` (kept when rounding down
/// would give 0), the ε of subsampled canonical pairs and the rates to geometric grids of
/// relative spacing `spacing`.
fn rounded(
    groups: &[(PldStep, u64)],
    lattice: f64,
    spacing: f64,
    up: bool,
) -> Result<Vec<(PldStep, u64)>> {
    let epsilons = Grid::new(
        groups.iter().filter_map(|(s, _)| match s.mechanism() {
            PldMechanism::Private(p) if s.rate() < 1.0 => Some(p.epsilon()),
            _ => None,
        }),
        spacing,
    );
    let rates = Grid::new(
        groups
            .iter()
            .filter(|(s, _)| rate_rounds(s))
            .map(|(s, _)| s.rate()),
        spacing,
    );
    let mut index: HashMap<[u64; 4], usize> = HashMap::new();
    let mut out: Vec<(PldStep, u64)> = Vec::new();
    for &(step, count) in groups {
        let base = match step.mechanism() {
            PldMechanism::Private(p) => {
                let epsilon = match &epsilons {
                    Some(grid) if step.rate() < 1.0 => grid.round(p.epsilon(), up),
                    _ => on_lattice(p.epsilon(), lattice, up).unwrap_or(p.epsilon()),
                };
                PldStep::private(Privacy::new(epsilon, p.delta())?)
            }
            PldMechanism::BoundedRange { epsilon } => PldStep::bounded_range(epsilon)?,
            PldMechanism::DiscreteLaplace { scale, sensitivity } => {
                PldStep::discrete_laplace(scale, sensitivity)?
            }
        };
        let rate = match &rates {
            Some(grid) if rate_rounds(&step) => grid.round(step.rate(), up),
            _ => step.rate(),
        };
        let rounded = if rate < 1.0 {
            base.poisson_subsampled(rate)?
        } else {
            base
        };
        match index.entry(step_key(&rounded)) {
            Entry::Occupied(e) => out[*e.get()].1 += count,
            Entry::Vacant(e) => {
                e.insert(out.len());
                out.push((rounded, count));
            }
        }
    }
    Ok(out)
}

/// Whether some steps are rounded on the lattice, and some on the geometric grids.
fn kinds(groups: &[(PldStep, u64)]) -> (bool, bool) {
    let lattice =
        |s: &PldStep| matches!(s.mechanism(), PldMechanism::Private(_)) && s.rate() == 1.0;
    let grid = |s: &PldStep| {
        rate_rounds(s) || (matches!(s.mechanism(), PldMechanism::Private(_)) && s.rate() < 1.0)
    };
    (
        groups.iter().any(|(s, _)| lattice(s)),
        groups.iter().any(|(s, _)| grid(s)),
    )
}

/// How to bucket: the first lattice and spacing, and (tests only) rounding the wrong way.
#[derive(Debug, Clone, Copy)]
pub(super) struct Bucketing {
    pub(super) lattice: Option<f64>,
    pub(super) spacing: f64,
    /// Rounds down for the "upper" bound and up for the "lower" one, in one pass: an
    /// optimistic variant the tests use as a negative control.
    pub(super) wrong_way: bool,
}

/// Bounds for grouped steps (more than [`BUCKETING_THRESHOLD`] distinct) at δ, as
/// [`super::pld_steps_bounds`] documents, by bucketing (see the module docs). `bucketing`:
/// `None` for the default.
pub(super) fn bucketed_bounds(
    groups: &[(PldStep, u64)],
    delta: Target,
    epsilon_error: Option<f64>,
    bucketing: Option<Bucketing>,
) -> Result<PldBounds> {
    let count: f64 = groups.iter().map(|g| g.1 as f64).sum();
    let Bucketing {
        lattice,
        mut spacing,
        wrong_way,
    } = bucketing.unwrap_or(Bucketing {
        lattice: None,
        spacing: FIRST_SPACING,
        wrong_way: false,
    });
    // The first grid as for the fast module's search (a Hoeffding-sized guess).
    let target = epsilon_error.unwrap_or(0.05);
    let mut h = lattice.unwrap_or((target / (2.0 + 0.5 * (10.0 * count).sqrt())).min(0.05));
    let mut best: Option<PldBounds> = None;
    for _ in 0..PASSES {
        let high = rounded(groups, h, spacing, !wrong_way)?;
        let low = rounded(groups, h, spacing, wrong_way)?;
        if high.len() + low.len() >= groups.len() && !wrong_way {
            // Nothing to gain: compose the list as given (tighter, and no slower).
            return grouped_bounds(groups, delta, epsilon_error, false);
        }
        let pair = bounds_on_grid(&high, delta, h, true, Variant::Rigorous).and_then(|u| {
            bounds_on_grid(&low, delta, h, true, Variant::Rigorous).map(|l| (u.0, l.0))
        });
        let (upper, lower) = match (pair, best) {
            (Ok(pair), _) => pair,
            // The window outgrew the transform: the finest bounds found.
            (Err(Error::InvalidCount { .. }), Some(b)) => return Ok(b),
            (Err(e), Some(_)) => return Err(e),
            // The rounded lists fail on the first grid (a window too long, or the upper
            // list's ε unbounded at δ): the list as given, on the fast module's own grids.
            (Err(_), None) => return grouped_bounds(groups, delta, epsilon_error, false),
        };
        let bounds = PldBounds {
            lower: lower.lower.min(upper.upper),
            estimate: (0.5 * (upper.estimate + lower.estimate))
                .clamp(lower.lower.min(upper.upper), upper.upper),
            upper: upper.upper,
            delta: delta.delta,
            interval: h,
            lower_applies_to_mechanisms: lower.lower_applies_to_mechanisms
                && upper.lower_applies_to_mechanisms,
            limited_by: None,
        };
        if best.is_none_or(|b| bounds.gap() < b.gap()) {
            best = Some(bounds);
        }
        let wanted = epsilon_error.unwrap_or_else(|| default_epsilon_error(bounds.lower));
        if bounds.gap() <= wanted || wrong_way {
            return Ok(bounds);
        }
        // The transforms' gaps shrink with the grid; the rounding's share (about the
        // difference of the estimates) with the lattice and the spacing, for the steps
        // rounded on each. Aim the two at 80% of the error, each getting at least half.
        let inner = upper.gap() + lower.gap();
        let rounding = (upper.estimate - lower.estimate).max(0.0);
        let factor = |part: f64, other: f64| {
            ((0.8 * wanted - other.min(0.4 * wanted)) / part).clamp(0.05, 1.0)
        };
        let (on_lattice, on_grid) = kinds(groups);
        let lattice_factor = if on_lattice {
            factor(rounding, inner)
        } else {
            1.0
        };
        h *= factor(inner, rounding).min(lattice_factor);
        if on_grid {
            spacing *= factor(rounding, inner);
        }
    }
    best.ok_or(Error::VacuousGuarantee {
        reason: "the PLD reaches no finite epsilon at this delta",
    })
}

#[cfg(test)]
#[path = "bucket_tests.rs"]
mod tests;
