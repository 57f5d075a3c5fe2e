//! Exponential tilting of the composed loss, so that small δ keep a small relative error.
//!
//! *Why.* The transforms' floating-point error is absolute: about `10⁻¹⁵·‖x‖₁` per cell,
//! whatever the cell's mass. When δ is below about 10⁻¹⁰ that floor is as large as the
//! masses that decide ε, and the bounds of the `fast` module drift apart (three
//! compositions at δ′ = 10⁻¹²: gaps of 0.43, 0.73 and 9.1 in ε).
//!
//! *What.* For λ > 0 and constants `a_s`, each step's cells `p_s(c)` are replaced by
//! `p̃_s(c) = p_s(c)·e^{λhc − a_s}` (with `a_s` the computed `ln Σ_c p_s(c)e^{λhc}`, so each
//! tilted step has mass about 1). Tilting commutes with convolution: the composed cells are
//! `p̃(C) = p(C)·e^{λhC − A}` with `A = Σ k_s a_s` (the Esscher transform, as used for the
//! tails of sums of independent variables; Feller, *An Introduction to Probability Theory
//! and Its Applications*, vol. II, §XVI.7), so `p(C) = p̃(C)·w(C)` with
//! `w(C) = e^{A − λhC}`. The transforms now carry an absolute error `E` on `p̃`, which
//! becomes `E·w(C)` on `p(C)`: at the cells where δ is decided, `w` is about the Chernoff
//! bound `e^{Λ(λ) − λy}` of the tail there, about δ, and the error is relative. λ is the
//! Chernoff bound's at δ, capped so that `λh·C` varies by at most 600 nats from the lowest
//! loss where δ can be decided (where the Chernoff bound of the tail is 10⁶·δ) to the top of
//! the window: when the largest composed loss carries more than δ, the Chernoff λ grows
//! without bound and would make every weight below the top overflow (any λ > 0 is sound;
//! the cap keeps those cells' precision; weights below them may overflow, and those cells
//! then only fail the searches' checks).
//!
//! *Error terms (added to those of the `fast` module).*
//! - The tilted masses carry a relative error of at most `(3(λh·max|c| + |a_s|) + 3)·u`
//!   beyond the step's own (two products and a difference in the exponent, the exponential,
//!   the product with `p_s(c)`), and the weights `w` at most `(3(|A| + λh·max|C|) + 4)·u`
//!   plus the rounding of A (at most `(n + 2)·u·Σ|k_s a_s|` for n steps): relative errors,
//!   carried by the `fast` module's factor ρ. Tilted masses below the normal range have no
//!   such relative bound; each is within 2⁻¹⁰²² of its true value instead, at most
//!   `2^22·2⁻¹⁰²² < 10⁻³⁰⁰` in ℓ¹ per step, which moves every transform value by less than
//!   that, within the 10⁻²⁸⁰ slack added to every forward value (whose other share, the
//!   transform's own underflow, is below 10⁻²⁸⁸).
//! - The errors of the cells above a grid point, whose tilted errors have ℓ² norm at most
//!   `ε₂`, sum to at most `ε₂·‖w‖₂` over those cells (Cauchy–Schwarz), and `‖w‖₂` over the
//!   m cells from C on is at most `w(C)·min(√m, (1 − e^{−2λh})^{−1/2})` (a geometric series).
//! - Wrap-around. The circular convolution folds the tilted mass above the window, at most
//!   `T = e^{−A}·min_ν e^{Λ(λ + ν) − ν·h(hi + 1)}` (a Chernoff bound), onto cells whose
//!   weight is at most `w(C)` for the cells from C on; it is added to each sum, and the
//!   window is widened so that it is at most the `fast` module's tail share τ at the lowest
//!   loss where δ can be decided (where the Chernoff bound of the tail is 10⁶·δ). The mass
//!   below the window folds onto higher cells, where its weight shrinks: at most τ, as
//!   without tilting.
//! - The computed cells are clamped to `[0, 1]`, which only brings them nearer the true
//!   masses.
//!
//! Tilting is used only when the δ left beyond the steps' own is below
//! [`TILT_BELOW`]; above, the bounds are those of the `fast` module unchanged.

use super::chernoff::{chernoff_search, chernoff_threshold, log_mgf, log_sum_exp};
use super::fft::UNIT;
use super::pieces::Discretized;

/// Compositions whose δ (beyond the steps' own) is below this are tilted.
pub(super) const TILT_BELOW: f64 = 1e-8;

/// The most the weights' exponent `λh·C` may vary from the lowest loss where δ can be
/// decided to the top of the window, in nats (`e^{600}` is far from overflow).
const MAX_SPREAD: f64 = 600.0;

/// A tilt of one direction's steps (see the module docs).
#[derive(Debug, Clone)]
pub(super) struct Tilt {
    lambda: f64,
    h: f64,
    /// The computed `A = Σ k_s a_s`.
    shift: f64,
    /// The relative error of every weight (and of its rounding of A), for the `fast`
    /// module's factor ρ.
    pub(super) weight_error: f64,
    /// `Σ k_s·(extra relative error of step s's tilted masses)`.
    pub(super) eta: f64,
    /// A bound on the tilted composed mass above the window.
    above: f64,
    /// `(1 − e^{−2λh})^{−1/2}`, rounded up.
    geometric: f64,
    /// The tilted steps, for the transforms.
    pub(super) steps: Vec<(Discretized, u64)>,
}

impl Tilt {
    /// Chooses the tilt for `steps` at δ `spare` (λ: the Chernoff bound's at δ) and widens
    /// `hi` (at most to `support_hi`) for the wrap-around; `None` if no λ > 0 is found.
    pub(super) fn choose(
        steps: &[(Discretized, u64)],
        spare: f64,
        tau: f64,
        h: f64,
        lo: i128,
        hi: &mut i128,
        support_hi: i128,
    ) -> Option<Tilt> {
        let mgf = |l: f64| log_mgf(steps, l, h);
        let (_, lambda) = chernoff_search(mgf, spare, h);
        // The lowest loss where δ can be decided: where the Chernoff bound is 10⁶·δ.
        let lowest = chernoff_threshold(mgf, (spare * 1e6).min(0.5), h);
        let from = if lowest.is_finite() {
            ((lowest / h).floor() as i128).clamp(lo, *hi)
        } else {
            lo
        };
        // At most MAX_SPREAD nats of weight from there to the top of the window (the weights
        // there stay finite): when the top loss carries more than δ, the Chernoff λ runs to
        // the end of its range and would make every weight below the top overflow.
        let lambda = lambda.min(MAX_SPREAD / (h * (*hi - from + 1) as f64));
        if !(lambda > 0.0 && lambda.is_finite()) {
            return None;
        }
        if lowest.is_finite() {
            let t = chernoff_threshold(|nu| mgf(lambda + nu) - lambda * lowest, tau, h);
            // Widened at most to MAX_SPREAD nats above `from` as well.
            let most = from + (MAX_SPREAD / (lambda * h)).floor() as i128;
            if t.is_finite() {
                *hi = (*hi).max(((t / h).ceil() as i128).min(support_hi).min(most));
            }
        }
        let mut shift = 0.0;
        let mut magnitude = 0.0;
        let mut eta = 0.0;
        let mut tilted = Vec::with_capacity(steps.len());
        for (d, k) in steps {
            // λ·h·c for each cell, and the cells' (exponent, mass) pairs.
            let cells: Vec<(f64, f64)> = d
                .masses
                .iter()
                .enumerate()
                .map(|(i, &p)| (lambda * ((d.first + i as i64) as f64 * h), p))
                .collect();
            let a = log_sum_exp(cells.iter().copied());
            if !a.is_finite() {
                return None;
            }
            let reach = (d.first.unsigned_abs().max(d.last().unsigned_abs())) as f64;
            let arg = lambda * h * reach * (1.0 + 4.0 * UNIT) + a.abs();
            eta += *k as f64 * (3.0 * arg + 3.0) * UNIT * 1.01;
            let masses = cells
                .iter()
                .map(|&(x, p)| if p > 0.0 { p * (x - a).exp() } else { 0.0 })
                .collect();
            tilted.push((
                Discretized {
                    first: d.first,
                    masses,
                    infinite: d.infinite,
                    pieces: Vec::new(),
                    eta: d.eta,
                },
                *k,
            ));
            shift += *k as f64 * a;
            magnitude += (*k as f64 * a).abs();
        }
        let shift_error = (steps.len() as f64 + 2.0) * UNIT * magnitude * 1.01;
        let reach = (lo.unsigned_abs().max(hi.unsigned_abs())) as f64;
        let weight_error =
            (3.0 * (shift.abs() + lambda * h * reach) + 4.0) * UNIT * 1.01 + shift_error * 1.01;
        // The tilted mass above hi: e^{−A}·e^{Λ(λ + ν) − ν·h(hi + 1)} for the best of a few ν.
        let above = if *hi >= support_hi {
            0.0
        } else {
            let top = (*hi + 1) as f64 * h;
            // Each exponent with its rounding (a few units in the last place of its terms)
            // and the log-MGF's own (a relative 10⁻⁹, as for the window's Chernoff bounds).
            let exponent = (-12..=6)
                .map(|e| lambda * 2f64.powi(e))
                .map(|nu| {
                    let (m, t) = (mgf(lambda + nu), nu * top);
                    let value = m - t - shift;
                    value + 8.0 * UNIT * (m.abs() + t.abs() + shift.abs()) + 1e-9 * (m.abs() + 1.0)
                })
                .fold(f64::INFINITY, f64::min);
            (exponent + shift_error).exp() * (1.0 + 4.0 * UNIT)
        };
        let geometric = (1.0 / -(-2.0 * lambda * h).exp_m1()).sqrt() * (1.0 + 1e-9);
        Some(Tilt {
            lambda,
            h,
            shift,
            weight_error,
            eta,
            above,
            geometric,
            steps: tilted,
        })
    }

    /// `w(C) = e^{A − λhC}` as computed (its relative error is `weight_error`).
    pub(super) fn weight(&self, cell: i64) -> f64 {
        (self.shift - self.lambda * (cell as f64 * self.h)).exp()
    }

    /// The untilted mass of a circular cell: the tilted value times its weight, clamped to
    /// `[0, 1]` (the true masses lie there).
    pub(super) fn untilt(&self, value: f64, cell: i64) -> f64 {
        if value > 0.0 {
            (value * self.weight(cell)).min(1.0)
        } else {
            0.0
        }
    }

    /// A bound on the summed errors of the `count` cells from `cell` on, given the ℓ² norm
    /// `error` of the tilted cells' errors and the ρ of the masses: `error·‖w‖₂` plus the
    /// folded tilted mass above the window at the largest weight.
    pub(super) fn cells_error(&self, cell: i64, count: usize, error: f64, rho: f64) -> f64 {
        if count == 0 {
            return 0.0;
        }
        let w = self.weight(cell) * self.weight_error.exp() * (1.0 + 4.0 * UNIT);
        let norm = (count as f64).sqrt().min(self.geometric);
        (error * norm + self.above * rho) * w * (1.0 + 4.0 * UNIT)
    }
}
