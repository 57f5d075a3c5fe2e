//! Rigorous two-sided bounds on ε(δ) for a list of (ε, δ) and pure steps with few distinct
//! steps, by enumerating the losses of the composed canonical pairs in log space (the
//! transforms lose the pairs' low masses at large ε and their tail allowances exceed
//! `1 − δ` near δ = 1).
//!
//! *The composed losses.* The canonical pair of an (ε_i, δ_i) step (Kairouz–Oh–Viswanath)
//! has loss +∞ with probability δ_i and, given a finite loss, `+ε_i` with probability
//! `1/(1 + e^{−ε_i})` and `−ε_i` with `e^{−ε_i}/(1 + e^{−ε_i})`. For distinct steps i with
//! counts k_i, the composition is a product distribution: its loss is +∞ with probability
//! `I = 1 − K`, `K = Π(1 − δ_i)^{k_i}`, and otherwise `L(ℓ) = Σ_i (k_i − 2ℓ_i)ε_i` when ℓ_i
//! of the k_i copies of step i take their low loss, with probability
//! `P(ℓ) = Π_i C(k_i, ℓ_i)e^{−ℓ_i ε_i}/(1 + e^{−ε_i})^{k_i}`. Hence
//! `δ(ε′) = I + K·H(ε′)`, `H(ε′) = Σ_ℓ P(ℓ)(1 − e^{ε′ − L(ℓ)})₊`, and the complement
//! `1 − H(ε′) = Σ_ℓ P(ℓ)·min(1, e^{ε′ − L(ℓ)})`. For one step this is Kairouz–Oh–Viswanath
//! Theorem 3.3; for several it is the same expectation over the product (the composed
//! pair dominates every adaptive composition of the steps, and is attained by running
//! randomized response with δ for each step).
//!
//! *Enumeration.* When `Π(k_i + 1) ≤` [`ENUMERATED_TERMS`], every `k_i ≤`
//! [`ENUMERATED_MAX`] and `Σ k_i ε_i ≤ 10⁶`, every
//! count vector ℓ is visited: `ln P(ℓ)` is summed from per-step logarithms (nothing
//! underflows at large ε), and each term of H and of its complement is formed in log
//! space. Errors: (i) the computed `L(ℓ)` (g products and g − 1 additions for g distinct
//! steps) is within `η = (g + 2)·2⁻⁵²·Σ k_i ε_i` of the exact loss, and both H and its
//! complement are monotone in every loss (H increases, `1 − H` decreases), so a sum that
//! must be an upper bound on H uses `L + η` and one that must be a lower bound `L − η`
//! (the shifted value `L ± η` rounds to within half an ulp ≤ η/4 of itself, still
//! beyond the exact loss); the sign of the excess `L ± η − ε′` is that of the exact
//! difference of the two floats. (ii) `ln P(ℓ)` carries an absolute error of a few ulps of
//! `ln k_i!` (below 1.4·10⁶ for k_i < 2^17) and of `ℓ_i ε_i` (below 10⁶) per step, at most
//! 17 steps (each k_i ≥ 1, so `2^g ≤ Π(k_i + 1) ≤ 2^17`): below 5·10⁻⁸ in all, a relative
//! error below that on each term after `exp`. (iii) `ln(−expm1(−x))` and `exp` add a few
//! ulps; the excess's rounding (a relative 2⁻⁵³ on x) changes `1 − e^{−x}` by at most the
//! same relative amount (`x·f′(x)/f(x) ≤ 1`) and `e^{−x}` by a factor `e^{±x·2⁻⁵³}`, within
//! 3·10⁻¹⁰ for `x ≤ 2·10⁶`; and summing at most 2^17 positive terms adds a relative
//! 2^17·2⁻⁵³. Each sum is therefore within a
//! relative [`ENUMERATED_ERROR`] = 10⁻⁷, plus an absolute `(N + 2)·10⁻³⁰⁰` for the N terms
//! that may underflow.
//!
//! *Deciding.* `δ(ε′) ≤ δ ⟺ K·H ≤ δ − I ⟺ K(1 − H) ≥ 1 − δ`: the first form is accurate for
//! small targets, the second near δ = 1 (where `1 − δ` is exact, Sterbenz). A point is
//! proved valid when an upper bound on the left side of either form's inequality (a lower
//! bound on the complement side) holds it, and proved invalid when the opposite bounds
//! break it; a bisection keeps a valid point (the upper bound on ε) and an invalid one (the
//! lower bound).
//!
//! *Sub-lists.* When only some distinct steps are (ε, δ) steps on the whole dataset (the
//! others subsampled, discrete Laplace or bounded-range), the composed pair of the whole
//! list, projected onto the outputs of those steps, is their composed pair: by
//! post-processing its `δ(ε′)` is at least theirs at every ε′. An ε′ proved invalid for the
//! sub-list at the whole list's δ is therefore invalid for the whole list, which gives a
//! valid lower bound ([`sublist_lower`]) where the transforms lose it (large ε); no upper
//! bound follows.

use super::fast::{PldBounds, Target};
use super::steps::{PldMechanism, PldStep};
use crate::optimal::ln_choose;
use crate::rounding::mul_up;

/// Most count vectors (`Π(k_i + 1)`) [`enumerated_bounds`] visits.
pub(super) const ENUMERATED_TERMS: u64 = 1 << 17;

/// Most copies of one distinct step enumerated (longer runs of one step are left to the
/// transforms, whose lattice bounds are accurate there).
pub(super) const ENUMERATED_MAX: u64 = 10_000;

/// The relative error allowed on each enumerated sum (see the module docs).
const ENUMERATED_ERROR: f64 = 1e-7;

/// Most total loss `Σ k_i ε_i` enumerated (the error analysis assumes it).
const TOTAL_LOSS_MAX: f64 = 1e6;

/// The composed losses and their log-probabilities, one entry per count vector.
struct Losses {
    /// `L(ℓ)` as computed.
    loss: Vec<f64>,
    /// `ln P(ℓ)` as computed.
    ln_p: Vec<f64>,
    /// `η`: the bound on the error of each computed loss.
    error: f64,
    /// `Σ k_i ε_i`, rounded up: the largest loss.
    top: f64,
}

impl Losses {
    /// The losses of the composed canonical pairs of `(ε_i, k_i)`, or `None` beyond the
    /// enumeration's limits.
    fn new(steps: &[(f64, u64)]) -> Option<Losses> {
        let mut count: u64 = 1;
        let mut top = 0.0;
        for &(epsilon, k) in steps {
            count = count.checked_mul(k.checked_add(1)?)?;
            top = crate::rounding::add_up(top, mul_up(k as f64, epsilon));
            if count > ENUMERATED_TERMS
                || k > ENUMERATED_MAX
                || !epsilon.is_finite()
                || epsilon < 0.0
            {
                return None;
            }
        }
        if top.is_nan() || top > TOTAL_LOSS_MAX {
            return None;
        }
        let mut loss = vec![0.0];
        let mut ln_p = vec![0.0];
        for &(epsilon, k) in steps {
            let kf = k as f64;
            // ln P_ℓ = ln C(k, ℓ) − ℓε − k·ln(1 + e^{−ε}).
            let ln_norm = kf * (-epsilon).exp().ln_1p();
            let own: Vec<(f64, f64)> = (0..=k)
                .map(|l| {
                    (
                        (kf - 2.0 * l as f64) * epsilon,
                        ln_choose(k, l) - l as f64 * epsilon - ln_norm,
                    )
                })
                .collect();
            let mut next_loss = Vec::with_capacity(loss.len() * own.len());
            let mut next_ln_p = Vec::with_capacity(loss.len() * own.len());
            for (&l0, &p0) in loss.iter().zip(&ln_p) {
                for &(l1, p1) in &own {
                    next_loss.push(l0 + l1);
                    next_ln_p.push(p0 + p1);
                }
            }
            loss = next_loss;
            ln_p = next_ln_p;
        }
        let error = (steps.len() as f64 + 2.0) * f64::EPSILON * top;
        Some(Losses {
            loss,
            ln_p,
            error,
            top,
        })
    }

    /// `(H, 1 − H)` at ε′ with every loss shifted by `shift` (`±η`), as computed (each
    /// within a relative [`ENUMERATED_ERROR`] and the absolute [`Self::tiny`]).
    fn sums(&self, at: f64, shift: f64) -> (f64, f64) {
        let (mut h, mut c) = (0.0, 0.0);
        for (&loss, &lp) in self.loss.iter().zip(&self.ln_p) {
            let excess = (loss + shift) - at;
            if excess > 0.0 {
                h += (lp + (-(-excess).exp_m1()).ln()).exp();
                c += (lp - excess).exp();
            } else {
                c += lp.exp();
            }
        }
        (h, c)
    }

    /// The absolute allowance for terms that underflow.
    fn tiny(&self) -> f64 {
        (self.loss.len() as f64 + 2.0) * 1e-300
    }
}

/// What the enumeration compares against: bounds on `K` and on `δ − I`, and `1 − δ` when
/// it is exact (δ ≥ 1/2).
#[derive(Clone, Copy)]
struct Side {
    keep: (f64, f64),
    spare: (f64, f64),
    room: Option<f64>,
}

impl Side {
    fn new(keep: (f64, f64), spare: (f64, f64), delta: f64) -> Side {
        Side {
            keep,
            spare,
            room: (delta >= 0.5).then_some(1.0 - delta),
        }
    }
}

/// Whether `δ(ε′) ≤ δ` is proved at `at` (see the module docs).
fn valid(losses: &Losses, side: Side, at: f64) -> bool {
    let (h, c) = losses.sums(at, losses.error);
    let (lo_r, hi_r) = (1.0 - ENUMERATED_ERROR, 1.0 + ENUMERATED_ERROR);
    h * hi_r + losses.tiny() <= side.spare.0 / side.keep.1 * (1.0 - 1e-15)
        || side
            .room
            .is_some_and(|r| c * lo_r >= r / side.keep.0 * (1.0 + 1e-15))
}

/// Whether `δ(ε′) > δ` is proved at `at` (see the module docs).
fn invalid(losses: &Losses, side: Side, at: f64) -> bool {
    let (h, c) = losses.sums(at, -losses.error);
    let (lo_r, hi_r) = (1.0 - ENUMERATED_ERROR, 1.0 + ENUMERATED_ERROR);
    h * lo_r > side.spare.1 / side.keep.0 * (1.0 + 1e-15)
        || side
            .room
            .is_some_and(|r| c * hi_r + losses.tiny() < r / side.keep.1 * (1.0 - 1e-15))
}

/// The largest point proved invalid in `[0, below]` by bisection (0 if none).
fn lower_bound(losses: &Losses, side: Side, below: f64) -> f64 {
    if !invalid(losses, side, 0.0) {
        return 0.0;
    }
    let (mut bad, mut unknown) = (0.0, below);
    for _ in 0..200 {
        let mid = 0.5 * (bad + unknown);
        if mid <= bad || mid >= unknown || unknown - bad <= 1e-13 * unknown {
            break;
        }
        if invalid(losses, side, mid) {
            bad = mid
        } else {
            unknown = mid
        }
    }
    bad
}

/// `(ε, k)` of each group when it is an (ε, δ) step on the whole dataset.
fn private_epsilon(step: &PldStep) -> Option<f64> {
    match step.mechanism() {
        PldMechanism::Private(p) if step.is_symmetric() => Some(p.epsilon()),
        _ => None,
    }
}

/// For a list of (ε, δ) steps on the whole dataset with `Π(k_i + 1) ≤`
/// [`ENUMERATED_TERMS`], bounds on the exact ε(δ) of the composed canonical pairs (see
/// the module docs); `None` for other lists, or when no finite ε is proved valid.
pub(super) fn enumerated_bounds(groups: &[(PldStep, u64)], target: Target) -> Option<PldBounds> {
    if target.slack <= 0.0 {
        return None;
    }
    let steps: Vec<(f64, u64)> = groups
        .iter()
        .map(|(s, k)| private_epsilon(s).map(|e| (e, *k)))
        .collect::<Option<_>>()?;
    let losses = Losses::new(&steps)?;
    let side = Side::new(target.keep(), target.spare(), target.delta);
    let top = losses.top + 2.0 * losses.error;
    let upper = if valid(&losses, side, 0.0) {
        0.0
    } else if valid(&losses, side, top) {
        let (mut bad, mut good) = (0.0, top);
        for _ in 0..200 {
            let mid = 0.5 * (bad + good);
            if mid <= bad || mid >= good || good - bad <= 1e-13 * good {
                break;
            }
            if valid(&losses, side, mid) {
                good = mid
            } else {
                bad = mid
            }
        }
        good
    } else {
        return None;
    };
    let lower = lower_bound(&losses, side, upper);
    Some(PldBounds {
        lower,
        estimate: upper,
        upper,
        delta: target.delta,
        interval: 0.0,
        lower_applies_to_mechanisms: true,
        limited_by: None,
    })
}

/// For a list some of whose distinct steps are (ε, δ) steps on the whole dataset (and
/// some not), a lower bound on the exact ε(δ) of the whole list's composed pairs from those
/// steps alone (see the module docs: *Sub-lists*); `None` when there are none, or too many
/// count vectors to enumerate.
pub(super) fn sublist_lower(groups: &[(PldStep, u64)], target: Target) -> Option<f64> {
    if target.slack <= 0.0 {
        return None;
    }
    let sub: Vec<(f64, u64, f64)> = groups
        .iter()
        .filter_map(|(s, k)| private_epsilon(s).map(|e| (e, *k, s.own_delta())))
        .collect();
    if sub.is_empty() || sub.len() == groups.len() {
        return None;
    }
    let steps: Vec<(f64, u64)> = sub.iter().map(|&(e, k, _)| (e, k)).collect();
    let losses = Losses::new(&steps)?;
    let own = Target {
        log_keep: sub
            .iter()
            .map(|&(_, k, d)| k as f64 * (-d).ln_1p())
            .sum::<f64>(),
        terms: sub.len(),
        ..target
    };
    let keep = own.keep();
    // δ − I with I = 1 − K ≥ 1 − keep_hi, less 2⁻⁵² for the rounding of that difference:
    // an upper bound (only the upper end is used, by `invalid`).
    let infinite_lo = ((1.0 - keep.1) - f64::EPSILON).max(0.0);
    let spare_hi = crate::rounding::add_up(target.delta, -infinite_lo);
    let side = Side::new(keep, (0.0, spare_hi), target.delta);
    Some(lower_bound(&losses, side, losses.top + 2.0 * losses.error))
}

#[cfg(test)]
#[path = "enumerate_tests.rs"]
mod tests;
