//! The moment-generating-function bounds the PLD bounds share: log-sum-exp, the log
//! moment-generating function of a composed discretized loss and a Hoeffding bound for its
//! residual, and the Chernoff search for the smallest loss whose tail is below a target.
//! `fast` (the tails of the composed window) and `tilt` (the tilting parameter) both use
//! them.

use super::pieces::{Discretized, Piece};

/// `ln Σ_i p_i e^{λ y_i}` of a list of (value, mass) pairs, by log-sum-exp.
pub(super) fn log_sum_exp(terms: impl Iterator<Item = (f64, f64)> + Clone) -> f64 {
    let top = terms
        .clone()
        .filter(|t| t.1 > 0.0)
        .map(|t| t.0)
        .fold(f64::NEG_INFINITY, f64::max);
    if top == f64::NEG_INFINITY {
        return f64::NEG_INFINITY;
    }
    let sum: f64 = terms
        .filter(|t| t.1 > 0.0)
        .map(|(e, p)| p * (e - top).exp())
        .sum();
    top + sum.ln()
}

/// `ln E[e^{λŶ}; Ŷ finite]` of the composed discretized loss.
pub(super) fn log_mgf(steps: &[(Discretized, u64)], lambda: f64, h: f64) -> f64 {
    steps
        .iter()
        .map(|(d, k)| {
            let terms = d
                .masses
                .iter()
                .enumerate()
                .map(|(i, &p)| (lambda * (d.first + i as i64) as f64 * h, p));
            *k as f64 * log_sum_exp(terms)
        })
        .sum()
}

/// The smallest `t` found with `e^{Λ(λ) − λt} ≤ tail` for some λ > 0, that is
/// `min_λ (Λ(λ) − ln tail)/λ` by golden-section search over ln λ (a slope from a point below
/// a convex curve: unimodal; any λ gives a valid bound). A relative 10⁻⁹ margin covers the
/// evaluation's rounding.
pub(super) fn chernoff_threshold(log_mgf: impl Fn(f64) -> f64, tail: f64, h: f64) -> f64 {
    chernoff_search(log_mgf, tail, h).0
}

/// [`chernoff_threshold`] and the λ that gives it.
pub(super) fn chernoff_search(log_mgf: impl Fn(f64) -> f64, tail: f64, h: f64) -> (f64, f64) {
    let c = -tail.ln();
    let value = |u: f64| {
        let lambda = u.exp();
        (log_mgf(lambda) + c) / lambda
    };
    let (mut a, mut b) = ((1e-6f64).ln(), (1e4 / h).ln());
    let ratio = 0.5 * (5f64.sqrt() - 1.0);
    let (mut x1, mut x2) = (b - ratio * (b - a), a + ratio * (b - a));
    let (mut f1, mut f2) = (value(x1), value(x2));
    for _ in 0..90 {
        if f1.is_nan() || f1 > f2 {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + ratio * (b - a);
            f2 = value(x2);
        } else {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - ratio * (b - a);
            f1 = value(x1);
        }
    }
    let (t, u) = if f2.is_nan() || f1 <= f2 {
        (f1, x1)
    } else {
        (f2, x2)
    };
    if t.is_nan() {
        return (f64::INFINITY, f64::NAN);
    }
    (t + 1e-9 * (t.abs() + h), u.exp())
}

/// `ln E[e^{λZ}]` bound for the composed residual (λ of either sign): Hoeffding's lemma on
/// each piece, with its mean bound on the side that makes the bound valid.
pub(super) fn residual_log_mgf(steps: &[(Discretized, u64)], lambda: f64) -> f64 {
    steps
        .iter()
        .map(|(d, k)| {
            let terms = d.pieces.iter().map(|p: &Piece| {
                let mean = if lambda >= 0.0 { p.mean_hi } else { p.mean_lo };
                let w = p.z_max - p.z_min;
                (lambda * mean + lambda * lambda * w * w / 8.0, p.mass)
            });
            *k as f64 * log_sum_exp(terms)
        })
        .sum()
}
