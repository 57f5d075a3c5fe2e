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
        // The exponents (b − ε)/2 and −(a + ε)/2 are rounded by up to uε.
        PldMechanism::BoundedRange { epsilon } if !step.is_symmetric() => {
            (64.0 + 2.0 * epsilon) * unit
        }
        _ => 64.0 * unit,
    };
    let mut infinite = 0.0;
    let mut atoms: Vec<Atom> = Vec::new();
    let mut pieces: Vec<Piece> = Vec::new();
    let mut cells: Vec<(i64, f64)> = Vec::new();
    let too_many = |value: u64| Error::InvalidCount {
        name: "PLD grid cells of one step (loss range / interval)",
        requirement: "at most 2^22",
        value,
    };
    if let PldMechanism::BoundedRange { epsilon } = step.mechanism() {
        if step.is_symmetric() {
            bounded_range_cells(epsilon, h, &mut cells, &mut pieces)
        } else {
            subsampled_bounded_range_cells(epsilon, step.rate(), adding, h, &mut cells, &mut pieces)
        }
        .ok_or_else(|| too_many(u64::MAX))?;
    } else {
        (atoms, infinite) = atoms_of(step, adding, h)?;
    }
    for &(loss, mass, error) in &atoms {
        if mass <= 0.0 {
            continue;
        }
        let margin = loss.abs() * LOSS_MARGIN + error + f64::MIN_POSITIVE;
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

/// A finite loss, its P-mass and a bound on the loss's error beyond `LOSS_MARGIN`.
type Atom = (f64, f64, f64);

/// The finite atoms `(loss, P-mass, error bound of the loss beyond LOSS_MARGIN)` and the mass
/// at +∞ of a step given by outcome groups (all but the bounded-range pairs, which
/// [`discretize`] bins from their densities). The subsampled losses carry the error of
/// [`mixed_loss_enclosure`]: above a base loss of 1 it is a few ulps of the base loss, far
/// more than `LOSS_MARGIN` of a small subsampled loss.
fn atoms_of(step: &PldStep, adding: bool, h: f64) -> Result<(Vec<Atom>, f64)> {
    let q = step.rate();
    let mut atoms = Vec::new();
    let mut infinite = 0.0;
    for group in step.groups(h)? {
        match (group.loss, adding, step.is_symmetric()) {
            (Loss::PlusInfinity, false, _) => infinite += q * group.p,
            (Loss::PlusInfinity, true, true) => infinite += group.p,
            (Loss::PlusInfinity, true, false) | (Loss::MinusInfinity, _, true) => {}
            (Loss::Finite(loss), _, true) => atoms.push((loss, group.p, 0.0)),
            (Loss::MinusInfinity, false, false) => {
                atoms.push(((-q).ln_1p(), (1.0 - q) * group.q, 0.0))
            }
            (Loss::MinusInfinity, true, false) => atoms.push((-(-q).ln_1p(), group.q, 0.0)),
            (Loss::Finite(loss), false, false) => {
                let (mixed, error) = mixed_loss_enclosure(loss, q);
                atoms.push((mixed, q * group.p + (1.0 - q) * group.q, error))
            }
            (Loss::Finite(loss), true, false) => {
                let (mixed, error) = mixed_loss_enclosure(loss, q);
                atoms.push((-mixed, group.q, error))
            }
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

/// The Poisson-subsampled ε-bounded-range pair, discretized from its exact loss distribution
/// (not by subsampling a binned pair: the coupling of the `fast` module needs `Ŷ + Z` to be
/// the exact loss, or its lower bound is void).
///
/// *The pair.* With `l` the loss of the envelope pair (P, Q) of [`bounded_range_cells`]
/// (densities `f(l) = c·e^{l/2}` and `g(l) = c·e^{−l/2}` on `[−ε, ε]`,
/// `c = 1/(4 sinh(ε/2))`), subsampling at rate q gives for removal the pair `(P′, Q)` with
/// `P′ = qP + (1 − q)Q`, whose loss is `m(l) = ln(1 + q(e^l − 1))` ([`mixed_loss`]) with l
/// drawn from P′ (density `qf + (1 − q)g`), and for addition the pair `(Q, P′)`, whose loss
/// is `−m(l)` with l drawn from Q (density g), as in `atoms_of`. m is increasing and convex
/// (`m″ = q(1 − q)e^l/(1 − q + qe^l)² ≥ 0`).
///
/// *Cells.* The new loss's cell `(b_{j−1}, b_j]` is the set of l between `m⁻¹(b_{j−1})` and
/// `m⁻¹(b_j)` (addition: `m⁻¹(−b_j)` and `m⁻¹(−b_{j−1})`), `m⁻¹(y) = ln(1 + (e^y − 1)/q)`.
/// These boundaries are computed in floating point, clamped to `[−ε, ε]` and made monotone,
/// and the ends are set to ±ε: whatever their rounding, they partition `[−ε, ε]` into
/// intervals `[a, b]`, and each interval's exact mass is put at `b_j`, in closed forms that
/// cannot overflow, `P[a, b] = e^{(b − ε)/2}(1 − e^{−(b − a)/2})/(1 − e^{−ε})` and
/// `Q[a, b] = e^{−(a + ε)/2}(1 − e^{−(b − a)/2})/(1 − e^{−ε})` (relative error below
/// `(12 + ε)u`: the exponents are rounded by up to `uε`; hence the step's larger η). The
/// masses sum to 1, no mass is at ±∞, and `Ŷ + Z` is exactly the pair's loss.
///
/// *Residuals.* They are computed from the interval, not from the grid: `Z = m(l) − b_j`
/// lies in `[m(a) − b_j, m(b) − b_j]` (addition: `Z = −m(l) − b_j` in
/// `[−m(b) − b_j, −m(a) − b_j]`), each computed m widened by its error bound
/// ([`mixed_loss_enclosure`]) and the subtractions by their rounding. A boundary a few ulps
/// off thus only moves a sliver of mass to the next cell together with its (then slightly
/// positive, or slightly below −h) residual.
///
/// *Mean.* On `[a, b]` (width w, midpoint `c₀`) the density of l has logarithmic slope in
/// `[−1/2, 1/2]` (removal: a mixture of `e^{l/2}` and `e^{−l/2}`; addition: exactly −1/2),
/// so it lies between those of `e^{±l/2}` in the likelihood-ratio order, and so does its
/// mean: between `c₀ ∓ ((w/2)·coth(w/4) − 2)`, with `(w/2)·coth(w/4) − 2 ≤ w²/24`
/// ([`bounded_range_cells`]). So `E[l] ∈ [c₀ − w²/24, c₀ + w²/24]` (addition:
/// `[c₀ − w²/24, c₀]`). m being increasing and convex, Jensen's inequality gives
/// `E[m(l)] ≥ m(E[l]) ≥ m(c₀ − w²/24)`, and the chord
/// `E[m(l)] ≤ m(a) + (m(b) − m(a))·(E[l] − a)/w ≤ m(a) + (m(b) − m(a))·t` with
/// `t = 1/2 + w/24` (addition: 1/2). `None` if the grid is too fine.
fn subsampled_bounded_range_cells(
    epsilon: f64,
    q: f64,
    adding: bool,
    h: f64,
    cells: &mut Vec<(i64, f64)>,
    pieces: &mut Vec<Piece>,
) -> Option<()> {
    let unit = f64::EPSILON / 2.0;
    let (m_low, m_high) = (mixed_loss(-epsilon, q), mixed_loss(epsilon, q));
    let (y_low, y_high) = if adding {
        (-m_high, -m_low)
    } else {
        (m_low, m_high)
    };
    let count = (y_high - y_low) / h + 4.0;
    if count.is_nan() || count >= super::MAX_PLD_CELLS as f64 {
        return None;
    }
    let (first, last) = ((y_low / h).floor() as i64, (y_high / h).ceil() as i64 + 1);
    // The l where the new loss is b_j, clamped to [−ε, ε] (below m's range: −ε).
    let boundary = |j: i64| {
        let y = j as f64 * h;
        let l = ((if adding { -y } else { y }).exp_m1() / q).ln_1p();
        if l.is_nan() {
            -epsilon
        } else {
            l.clamp(-epsilon, epsilon)
        }
    };
    let norm = -(-epsilon).exp_m1();
    let mut cell = |a: f64, b: f64, j: i64| {
        let top = j as f64 * h;
        let width = b - a;
        let share = -(-width / 2.0).exp_m1() / norm;
        let q_mass = (-(a + epsilon) / 2.0).exp() * share;
        let mass = if adding {
            q_mass
        } else {
            q * (((b - epsilon) / 2.0).exp() * share) + (1.0 - q) * q_mass
        };
        let (ma, ea) = mixed_loss_enclosure(a, q);
        let (mb, eb) = mixed_loss_enclosure(b, q);
        // m on [a, b], and its mean (see the doc comment), before subtracting b_j.
        let (lo, hi) = (ma - ea, mb + eb);
        let point =
            (0.5 * (a + b) - width * width / 24.0 - 4.0 * unit * (a.abs() + b.abs())).max(a);
        let (mp, ep) = mixed_loss_enclosure(point, q);
        let t = if adding {
            0.5
        } else {
            ((0.5 + width / 24.0) * (1.0 + 4.0 * unit)).min(1.0)
        };
        let (ma_hi, mb_hi) = (ma + ea, mb + eb);
        let chord = (1.0 - t) * ma_hi + t * mb_hi + 4.0 * unit * (ma_hi.abs() + mb_hi.abs());
        let (mean_lo, mean_hi) = ((mp - ep).clamp(lo, hi), chord.clamp(lo, hi));
        // Each subtraction of b_j rounds by at most u of its operands.
        let slack = 4.0 * unit * (lo.abs() + hi.abs() + top.abs()) + 1e-300;
        let (z_min, z_max, mean_lo, mean_hi) = if adding {
            (-hi - top, -lo - top, -mean_hi - top, -mean_lo - top)
        } else {
            (lo - top, hi - top, mean_lo - top, mean_hi - top)
        };
        cells.push((j, mass));
        pieces.push(Piece {
            mass,
            z_min: z_min - slack,
            z_max: z_max + slack,
            mean_lo: mean_lo - slack,
            mean_hi: mean_hi + slack,
        });
    };
    // Removal: l rises with j from −ε; addition: it falls from ε.
    let mut previous = if adding { epsilon } else { -epsilon };
    for j in first..=last {
        let next = match (j == last, adding) {
            (true, false) => epsilon,
            (true, true) => -epsilon,
            (false, false) => boundary(j).max(previous),
            (false, true) => boundary(j).min(previous),
        };
        let (a, b) = if adding {
            (next, previous)
        } else {
            (previous, next)
        };
        if b > a {
            cell(a, b, j);
        }
        previous = next;
    }
    Some(())
}

/// [`mixed_loss`] of a loss l and a bound on its error. Below l = 1 it is
/// `ln_1p(x̃)` with `x̃ = q·expm1(l)` within `5u|x̃|` of `x = q(e^l − 1)` (two-ulp `expm1`, one
/// rounding), so it is off by at most `|ln(1 + 5u|x̃|/(1 + x))|`, `1 + x ≥ 1 + x̃ − 5u|x̃|`,
/// plus the logarithm's own `4u|m|`; for l ≤ 0 the direct `ln((1 − q) + q·e^l)` (a sum of
/// non-negative terms within `6u`, so an absolute `6.5u + 4u|m|`) is used where that is
/// smaller (near `1 + x = 0`, where `ln_1p` is ill-conditioned). Above l = 1 it is
/// `l + ln(q + (1 − q)e^{−l})`: the argument within 7u, the logarithm's rounding
/// `2u|ln| ≤ 2u(|l| + |m|)` and the sum's `u|m|`, within `8u(1 + |l| + |m|)`.
pub(super) fn mixed_loss_enclosure(loss: f64, q: f64) -> (f64, f64) {
    let unit = f64::EPSILON / 2.0;
    let m = mixed_loss(loss, q);
    let error = if loss > 1.0 {
        8.0 * unit * (1.0 + loss.abs() + m.abs())
    } else {
        let x = q * loss.exp_m1();
        let room = 1.0 + x - 5.0 * unit * x.abs();
        let ratio = 5.0 * unit * x.abs() / room;
        if room > 0.0 && ratio <= 0.01 {
            4.0 * unit * m.abs() + 1.02 * ratio
        } else {
            f64::INFINITY
        }
    };
    if loss <= 0.0 {
        let direct = ((1.0 - q) + q * loss.exp()).ln();
        let direct_error = 6.5 * unit + 4.0 * unit * direct.abs();
        if direct_error < error {
            return (direct, direct_error * (1.0 + 1e-6) + 1e-300);
        }
    }
    (m, error * (1.0 + 1e-6) + 1e-300)
}
