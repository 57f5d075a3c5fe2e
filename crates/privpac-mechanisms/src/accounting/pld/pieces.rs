//! One step's privacy loss, discretized on the grid `h·ℤ` by rounding up, together with
//! what the rounding left out: the residual `Z = L − Ŷ` of each piece of the loss
//! distribution (its range and bounds on its mean), from which [`super::fast`] bounds the
//! composed residual by a Chernoff bound.

use super::steps::{Loss, PldMechanism, PldStep, mixed_loss};
use crate::error::{Error, Result};

/// A piece of one step's loss distribution (under P): its mass, and the range of the
/// residual `Z = L − Ŷ` on it and bounds on its conditional mean.
#[derive(Debug, Clone, Copy)]
pub(super) struct Piece {
    pub(super) mass: f64,
    pub(super) z_min: f64,
    pub(super) z_max: f64,
    pub(super) mean_lo: f64,
    pub(super) mean_hi: f64,
}

/// One step's discretized loss: P-mass at the grid losses `(first + i)·h`, the mass at +∞,
/// the residual pieces of the finite part (where the loss is +∞, so is Ŷ, and `f_ε = 1`
/// whatever the residual: the Chernoff bounds need only the event that every loss is
/// finite, whose sub-probability MGF the finite pieces give), and a relative error bound on
/// every mass.
#[derive(Debug, Clone)]
pub(super) struct Discretized {
    pub(super) first: i64,
    pub(super) masses: Vec<f64>,
    pub(super) infinite: f64,
    pub(super) pieces: Vec<Piece>,
    /// Relative error bound of each computed mass (a few ulps per operation).
    pub(super) eta: f64,
}

impl Discretized {
    /// The grid index of the last cell.
    pub(super) fn last(&self) -> i64 {
        self.first + self.masses.len() as i64 - 1
    }
}

/// Relative margin on a computed finite loss: far above the few ulps of the closed forms
/// and of `ln_1p(q·expm1(L))`.
const LOSS_MARGIN: f64 = 1e-12;

/// The step's loss for removal (`adding = false`) or addition of a row, discretized on the
/// grid `h` (see the module docs of [`super::fast`]).
///
/// # Errors
/// [`Error::InvalidParameter`] for a bad `h`; [`Error::InvalidCount`] if the step spans more
/// than [`super::MAX_PLD_CELLS`] cells.
pub(super) fn discretize(step: &PldStep, adding: bool, h: f64) -> Result<Discretized> {
    if !(h > 0.0 && h.is_finite()) {
        return Err(Error::InvalidParameter {
            name: "PLD discretization interval",
            range: "(0, ∞)",
            value: h,
        });
    }
    let unit = f64::EPSILON / 2.0;
    let eta = match step.mechanism() {
        // r^y = exp(−1/b)^y carries about y ulps.
        PldMechanism::DiscreteLaplace { sensitivity, .. } => {
            (64.0 + 4.0 * sensitivity as f64) * unit
        }
        _ => 64.0 * unit,
    };
    let mut infinite = 0.0;
    let mut atoms: Vec<(f64, f64)> = Vec::new();
    let mut pieces: Vec<Piece> = Vec::new();
    let mut cells: Vec<(i64, f64)> = Vec::new();
    let too_many = |value: u64| Error::InvalidCount {
        name: "PLD grid cells of one step (loss range / interval)",
        requirement: "at most 2^22",
        value,
    };
    if let (PldMechanism::BoundedRange { epsilon }, true) = (step.mechanism(), step.is_symmetric())
    {
        bounded_range_cells(epsilon, h, &mut cells, &mut pieces)
            .ok_or_else(|| too_many(u64::MAX))?;
    } else {
        (atoms, infinite) = atoms_of(step, adding, h)?;
    }
    for &(loss, mass) in &atoms {
        if mass <= 0.0 {
            continue;
        }
        let margin = loss.abs() * LOSS_MARGIN + f64::MIN_POSITIVE;
        let cell = ((loss + margin) / h).ceil();
        if cell.is_nan() || cell.abs() >= 4.0e15 {
            return Err(too_many(u64::MAX));
        }
        let cell = cell as i64;
        let top = cell as f64 * h;
        // Z = L − cell·h with L within `margin` of `loss`; the subtraction and the product
        // round by at most 2u of their operands.
        let slack = margin + 4.0 * unit * (loss.abs() + top.abs());
        let z = loss - top;
        cells.push((cell, mass));
        pieces.push(Piece {
            mass,
            z_min: z - slack,
            z_max: (z + slack).min(0.0),
            mean_lo: z - slack,
            mean_hi: (z + slack).min(0.0),
        });
    }
    let first = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let last = cells.iter().map(|c| c.0).max().unwrap_or(0);
    let span = (last - first) as u64 + 1;
    if span > super::MAX_PLD_CELLS as u64 {
        return Err(too_many(span));
    }
    let mut masses = vec![0.0; span as usize];
    for (cell, mass) in cells {
        masses[(cell - first) as usize] += mass;
    }
    Ok(Discretized {
        first,
        masses,
        infinite,
        pieces,
        eta,
    })
}

/// The finite atoms `(loss, P-mass)` and the mass at +∞ of a step given by outcome groups
/// (all but the unsubsampled bounded-range pair; `h` only matters for the subsampled one).
fn atoms_of(step: &PldStep, adding: bool, h: f64) -> Result<(Vec<(f64, f64)>, f64)> {
    let q = step.rate();
    let mut atoms = Vec::new();
    let mut infinite = 0.0;
    for group in step.groups(h)? {
        match (group.loss, adding, step.is_symmetric()) {
            (Loss::PlusInfinity, false, _) => infinite += q * group.p,
            (Loss::PlusInfinity, true, true) => infinite += group.p,
            (Loss::PlusInfinity, true, false) | (Loss::MinusInfinity, _, true) => {}
            (Loss::Finite(loss), _, true) => atoms.push((loss, group.p)),
            (Loss::MinusInfinity, false, false) => atoms.push(((-q).ln_1p(), (1.0 - q) * group.q)),
            (Loss::MinusInfinity, true, false) => atoms.push((-(-q).ln_1p(), group.q)),
            (Loss::Finite(loss), false, false) => {
                atoms.push((mixed_loss(loss, q), q * group.p + (1.0 - q) * group.q))
            }
            (Loss::Finite(loss), true, false) => atoms.push((-mixed_loss(loss, q), group.q)),
        }
    }
    atoms.retain(|a| a.1 > 0.0);
    Ok((atoms, infinite))
}

/// For a step whose finite losses are two atoms (randomized response or the canonical pair,
/// discrete Laplace of sensitivity 1, either subsampled), their distance `l₁ − l₂`: on a
/// grid of that step both residuals are equal (up to rounding), so the composed residual is
/// a constant and the discretization costs nothing (the losses of the composition lie on
/// that lattice).
pub(super) fn two_atom_spacing(step: &PldStep) -> Option<f64> {
    if matches!(step.mechanism(), PldMechanism::BoundedRange { .. }) {
        return None;
    }
    let (atoms, _) = atoms_of(step, false, 1.0).ok()?;
    match atoms.as_slice() {
        [a, b] if a.0 != b.0 => Some((a.0 - b.0).abs()).filter(|d| d.is_finite() && *d > 0.0),
        _ => None,
    }
}

/// The ε-bounded-range envelope pair (see [`PldStep::bounded_range`]): P has the density
/// `e^{l/2}/(2(e^{ε/2} − e^{−ε/2}))` on `[−ε, ε]`. Each grid cell `(b_{j−1}, b_j]` gets its
/// P-mass at `b_j`; its residual lies in `[lower − b_j, upper − b_j]` and, the density being
/// increasing, its mean lies between the midpoint and the midpoint plus `w²/24`
/// (`E[t] − w/2 = (w/2)·coth(w/4) − 2 ≤ w²/24` for a density ∝ `e^{t/2}` on `[0, w]`, from
/// `x·coth x ≤ 1 + x²/3`). `None` if the grid is too fine.
fn bounded_range_cells(
    epsilon: f64,
    h: f64,
    cells: &mut Vec<(i64, f64)>,
    pieces: &mut Vec<Piece>,
) -> Option<()> {
    let count = 2.0 * epsilon / h + 3.0;
    if count.is_nan() || count >= super::MAX_PLD_CELLS as f64 {
        return None;
    }
    let boundary = |j: i64| j as f64 * h;
    let mut low = (-epsilon / h).ceil() as i64;
    while boundary(low) < -epsilon {
        low += 1;
    }
    let mut high = (epsilon / h).ceil() as i64;
    while boundary(high) < epsilon {
        high += 1;
    }
    let two_c = 1.0 / (2.0 * (epsilon / 2.0).sinh());
    let unit = f64::EPSILON / 2.0;
    let mut lower = -epsilon;
    for j in low..=high {
        let top = boundary(j);
        let upper = top.min(epsilon);
        if upper > lower {
            let width = upper - lower;
            let p = two_c * (lower / 2.0).exp() * (width / 2.0).exp_m1();
            let slack = 8.0 * unit * (epsilon + top.abs());
            let (z_min, z_max) = (lower - top - slack, (upper - top + slack).min(0.0));
            let mid = 0.5 * (lower + upper) - top;
            cells.push((j, p));
            pieces.push(Piece {
                mass: p,
                z_min,
                z_max,
                mean_lo: mid - slack,
                mean_hi: (mid + width * width / 24.0 + slack).min(z_max),
            });
        }
        lower = lower.max(upper);
    }
    Some(())
}
