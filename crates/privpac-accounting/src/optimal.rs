//! Optimal composition of k mechanisms that are each (ε, δ)-DP: the exact privacy region
//! of Kairouz, Oh and Viswanath ("The composition theorem for differential privacy",
//! ICML 2015 / IEEE Trans. Inf. Theory 2017, Theorem 3.3), evaluated in log space for k up
//! to 10^7, and its inverse for budget splits.
//!
//! *The bound.* k-fold (adaptive) composition of (ε, δ)-DP mechanisms is dominated by k
//! independent runs of the canonical (ε, δ) mechanism, and for every ε' ≥ 0 it is
//! `(ε', 1 − (1 − δ)^k·(1 − H(ε')))`-DP with
//!
//! `H(ε') = Σ_{ℓ=0}^{k} C(k, ℓ)·max(0, e^{(k−ℓ)ε} − e^{ε'}·e^{ℓε}) / (1 + e^ε)^k`,
//!
//! the hockey-stick divergence at e^{ε'} between the outcome distributions of k randomized
//! responses on neighbouring inputs (ℓ counts the flipped answers; the privacy loss of ℓ
//! flips is (k − 2ℓ)ε). At `ε' = (k − 2i)ε` this is KOV's `δ_i = Σ_{ℓ<i} C(k, ℓ)(e^{(k−ℓ)ε}
//! − e^{(k−2i+ℓ)ε})/(1 + e^ε)^k`, and no smaller δ is possible there: the composition of k
//! randomized responses attains it.
//!
//! *Exact at the edges.* At δ' = 0 the answer is basic composition's kε exactly: the
//! outcome with no flips has loss kε, so `H(ε') > 0` for every `ε' < kε`. Every comparison
//! of `H` with δ' is made between logarithms (an upper bound on `ln H` against a lower
//! bound on `ln δ'`), so neither side is floored or underflows: `H` near kε at k = 10^6 is
//! about `2^{−10^6}`, and δ' may be as small as the smallest subnormal. Whether a term is
//! positive (`(k − 2ℓ)ε > ε'`) is decided exactly, by one fused multiply-add.
//!
//! *Numerics.* With `P_ℓ = C(k, ℓ)e^{−ℓε}/(1 + e^{−ε})^k` (the Binomial(k, 1/(1 + e^ε))
//! probability of ℓ flips), term ℓ is `P_ℓ·(1 − e^{ε' − (k−2ℓ)ε})`, positive for
//! `ℓ < (kε − ε')/(2ε)`. Terms are formed as logarithms (`ln C(k, ℓ)` from Stirling's
//! series above 32, a direct sum below; `ln(1 − e^x)` as `ln(−expm1(x))`), so nothing
//! overflows, and summed from the largest positive ℓ downward. The binomial's ratio
//! `ρ_ℓ = P_{ℓ−1}/P_ℓ = ℓe^ε/(k − ℓ + 1)` decreases as ℓ decreases, so once it is below 1
//! the terms below ℓ add at most `P_ℓ·ρ_ℓ/(1 − ρ_ℓ)` (a geometric tail bounded by the
//! binomial, since every factor `1 − e^{…}` is at most 1); when that is below `e^{−60}`
//! times the sum so far, it is added as such and the loop stops. `ln P_ℓ` is recomputed
//! from Stirling every 1024 steps and carried by `ln ρ_ℓ` in between. The logarithms carry
//! an absolute error of about 10⁻⁷ at k = 10^7 (ln k! ≈ 1.5·10⁸ has an ulp of 3·10⁻⁸, and
//! three of them are combined), so every sum is multiplied by `1 + 10⁻⁶` before it is
//! reported: the result is an upper bound on the exact value. Work: the terms from the
//! largest positive ℓ down to a few standard deviations below the binomial's mode.

use crate::error::{Error, Result};
use crate::privacy::Privacy;
use crate::privacy::composed;
use crate::rounding::{add_up, exp_up, mul_up, neg_ln_up, to_f64_up};

/// Most mechanisms [`optimal_composition`] composes.
pub const MAX_OPTIMAL_COMPOSITIONS: u64 = 10_000_000;

/// The relative margin added to every computed hockey-stick sum (see the module docs).
const MARGIN: f64 = 1e-6;

/// `ln n!`: a direct sum below 32, Stirling's series with three correction terms above
/// (truncation error below `1/(1680·n⁷) < 10⁻¹⁴`).
fn ln_factorial(n: u64) -> f64 {
    if n < 32 {
        return (2..=n).map(|i| (i as f64).ln()).sum();
    }
    let x = n as f64;
    let inv = 1.0 / x;
    let inv2 = inv * inv;
    x * x.ln() - x
        + 0.5 * (2.0 * std::f64::consts::PI * x).ln()
        + inv * (1.0 / 12.0 - inv2 * (1.0 / 360.0 - inv2 / 1260.0))
}

pub(super) fn ln_choose(k: u64, l: u64) -> f64 {
    ln_factorial(k) - ln_factorial(l) - ln_factorial(k - l)
}

/// `(k − 2ℓ)ε − ε'`, the amount by which ℓ flips' privacy loss exceeds ε', rounded to
/// nearest from the exact value: one fused multiply-add, so its **sign is exact** (the
/// integer `k − 2ℓ` is exact in an f64 for k ≤ 10^7).
fn loss_excess(epsilon: f64, k: u64, l: u64, epsilon_prime: f64) -> f64 {
    let flips_weight = k as f64 - 2.0 * l as f64;
    flips_weight.mul_add(epsilon, -epsilon_prime)
}

/// An upper bound on `ln H(ε')` for k runs of ε-randomized response (see the module
/// docs), and `−∞` exactly when `H(ε') = 0`, that is when `ε' ≥ kε` (decided exactly).
///
/// Working with the logarithm keeps every `H > 0` visible: at k = 10^6 steps of 0.01,
/// `H(ε')` near kε is about `2^{−10^6}`, far below the smallest f64, and a computed 0
/// would claim a pure guarantee the composition does not have.
fn ln_hockey_stick_randomized_response(epsilon: f64, k: u64, epsilon_prime: f64) -> f64 {
    let kf = k as f64;
    if epsilon == 0.0 || loss_excess(epsilon, k, 0, epsilon_prime) <= 0.0 {
        return f64::NEG_INFINITY;
    }
    // Positive terms: ℓ < (kε − ε')/(2ε). The estimate is corrected by the exact sign test
    // in both directions, so `top` is the largest ℓ ≤ k/2 with (k − 2ℓ)ε > ε'.
    let estimate = ((kf * epsilon - epsilon_prime) / (2.0 * epsilon)).ceil();
    let mut top = if estimate.is_finite() && estimate > 0.0 {
        (estimate as u64).min(k / 2)
    } else {
        0
    };
    while top > 0 && loss_excess(epsilon, k, top, epsilon_prime) <= 0.0 {
        top -= 1;
    }
    while top < k / 2 && loss_excess(epsilon, k, top + 1, epsilon_prime) > 0.0 {
        top += 1;
    }
    let ln_norm = kf * (-epsilon).exp().ln_1p(); // k·ln(1 + e^{−ε})
    // ln P_ℓ from Stirling every RESYNC steps and by the ratio P_{ℓ−1}/P_ℓ in between (one
    // logarithm per term): the rounding of at most RESYNC ratio steps, each below a few ulps
    // of |ln ρ| ≤ ε + ln k, stays far below the margin whatever the length of the walk.
    const RESYNC: u64 = 1024;
    let ln_binomial = |l: u64| ln_choose(k, l) - (l as f64) * epsilon - ln_norm;
    let mut ln_p = ln_binomial(top);
    let mut max_ln = f64::NEG_INFINITY;
    let mut scaled = 0.0; // Σ e^{ln t − max_ln}
    let mut l = top;
    loop {
        // 1 − e^{ε' − loss} = −expm1(−d) for the exact-signed d = loss − ε' > 0.
        let d = loss_excess(epsilon, k, l, epsilon_prime);
        let ln_t = ln_p + (-(-d).exp_m1()).ln();
        if ln_t > max_ln {
            scaled = scaled * (max_ln - ln_t).exp() + 1.0;
            max_ln = ln_t;
        } else {
            scaled += (ln_t - max_ln).exp();
        }
        if l == 0 {
            break;
        }
        // ln ρ_ℓ, as a logarithm so that a large ε cannot overflow e^ε.
        let ln_ratio = (l as f64).ln() + epsilon - (kf - l as f64 + 1.0).ln();
        if ln_ratio < 0.0 {
            // The terms below ℓ add at most P_ℓ·(ρ + ρ² + …) = P_ℓ·ρ/(1 − ρ)
            // = P_ℓ/(e^{−ln ρ} − 1).
            let ln_tail = ln_p - (-ln_ratio).exp_m1().ln();
            if ln_tail < max_ln + scaled.ln() - 60.0 {
                scaled += (ln_tail - max_ln).exp();
                break;
            }
        }
        l -= 1;
        ln_p = if (top - l).is_multiple_of(RESYNC) {
            ln_binomial(l)
        } else {
            ln_p + ln_ratio
        };
    }
    (max_ln + scaled.ln() + MARGIN.ln_1p()).min(0.0)
}

/// `H(ε')` as an upper bound: `e^{ln H}` rounded up, and never 0 when `H > 0` (an `H`
/// below the smallest subnormal is reported as that subnormal).
fn hockey_stick_randomized_response(epsilon: f64, k: u64, epsilon_prime: f64) -> f64 {
    let ln_h = ln_hockey_stick_randomized_response(epsilon, k, epsilon_prime);
    if ln_h == f64::NEG_INFINITY {
        return 0.0;
    }
    exp_up(ln_h).clamp(f64::from_bits(1), 1.0)
}

fn validate(each: Privacy, k: u64) -> Result<()> {
    if k == 0 || k > MAX_OPTIMAL_COMPOSITIONS {
        return Err(Error::InvalidCount {
            name: "number of mechanisms",
            requirement: "between 1 and 10^7",
            value: k,
        });
    }
    if !each.epsilon().is_finite() {
        return Err(Error::InvalidEpsilon {
            value: each.epsilon(),
        });
    }
    Ok(())
}

/// `1 − (1 − δ)^k·(1 − h)`, rounded up.
fn total_delta(delta: f64, k: u64, h: f64) -> f64 {
    // (1 − δ)^k = e^{k·ln(1 − δ)}; 1 − that = −expm1(k·ln1p(−δ)).
    let log_keep = to_f64_up(k) * (-delta).ln_1p();
    let lost = -(log_keep.exp_m1());
    let kept = exp_up(log_keep).min(1.0);
    add_up(mul_up(lost, 1.0 + MARGIN), mul_up(kept, h)).min(1.0)
}

/// The exact δ of k-fold composition of (ε, δ)-DP mechanisms at ε' (Kairouz–Oh–Viswanath
/// Theorem 3.3, for every ε' ≥ 0; see the module docs): `1 − (1 − δ)^k·(1 − H(ε'))`,
/// rounded up (relative margin 10⁻⁶).
///
/// # Errors
/// [`Error::InvalidCount`] for k = 0 or k above [`MAX_OPTIMAL_COMPOSITIONS`];
/// [`Error::InvalidEpsilon`] for a negative or non-finite ε'.
///
/// # Example
/// ```
/// use privpac_accounting::{optimal_composition_delta, Privacy};
/// // Two runs of ln 3-randomized response, at ε' = 0: δ = (9 − 1)/16 = 1/2.
/// let delta = optimal_composition_delta(Privacy::pure(3f64.ln())?, 2, 0.0)?;
/// assert!(delta >= 0.5 && delta < 0.5 + 1e-6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn optimal_composition_delta(each: Privacy, k: u64, epsilon_prime: f64) -> Result<f64> {
    validate(each, k)?;
    if !(epsilon_prime >= 0.0 && epsilon_prime.is_finite()) {
        return Err(Error::InvalidEpsilon {
            value: epsilon_prime,
        });
    }
    let h = hockey_stick_randomized_response(each.epsilon(), k, epsilon_prime);
    Ok(total_delta(each.delta(), k, h))
}

/// The tightest guarantee of k-fold adaptive composition of (ε, δ)-DP mechanisms with a
/// slack δ' (the counterpart of [`crate::advanced_composition`]'s δ'): the smallest ε'
/// with `H(ε') ≤ δ'`, giving `(ε', 1 − (1 − δ)^k·(1 − δ'))`-DP (Kairouz–Oh–Viswanath
/// Theorem 3.3; the δ is at most `kδ + δ'`). ε' is found by bisection to a relative 10⁻¹²
/// and reported at the upper end (Illinois regula falsi on `ln H`); it is never larger
/// than basic composition's kε, and equals it at δ' = 0 (KOV's region at δ' = 0). When
/// `H(0) ≤ δ'` the composition is (0, δ)-DP, and the smallest positive f64 is reported
/// (a [`Privacy`] has ε > 0).
///
/// # Errors
/// [`Error::InvalidCount`] for k = 0 or above [`MAX_OPTIMAL_COMPOSITIONS`];
/// [`Error::InvalidDelta`] unless `0 ≤ δ' < 1`; [`Error::VacuousGuarantee`] if the total
/// δ reaches 1.
///
/// # Example
/// ```
/// use privpac_accounting::{advanced_composition, optimal_composition, Privacy};
/// let each = Privacy::pure(0.01)?;
/// let optimal = optimal_composition(each, 1000, 1e-6)?;
/// let advanced = advanced_composition(each, 1000, 1e-6)?;
/// assert!(optimal.epsilon() < advanced.epsilon() && optimal.epsilon() < 10.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn optimal_composition(each: Privacy, k: u64, delta_prime: f64) -> Result<Privacy> {
    validate(each, k)?;
    if !(0.0..1.0).contains(&delta_prime) {
        return Err(Error::InvalidDelta { value: delta_prime });
    }
    let epsilon = each.epsilon();
    let basic = mul_up(to_f64_up(k), epsilon);
    let total = total_delta(each.delta(), k, delta_prime);
    if delta_prime == 0.0 {
        // KOV at δ' = 0: the k-fold outcome with no flips has loss kε, so H(ε') > 0 for
        // every ε' < kε and the exact answer is basic composition's kε.
        return composed(basic, total, "optimal composition gives delta >= 1");
    }
    // The smallest ε' with H(ε') ≤ δ' (H decreases in ε', and H(kε) = 0), compared as
    // logarithms: an upper bound on ln H against a lower bound on ln δ' (δ' may be
    // subnormal; nothing is floored).
    let ln_delta_prime = -neg_ln_up(delta_prime);
    let excess = |at: f64| ln_hockey_stick_randomized_response(epsilon, k, at) - ln_delta_prime;
    let hi = if excess(0.0) <= 0.0 {
        // (0, δ)-DP already; a `Privacy` needs ε > 0, and every ε > 0 holds.
        f64::from_bits(1)
    } else {
        bracket_root(&excess, 0.0, basic).1
    };
    composed(hi, total, "optimal composition gives delta >= 1")
}

/// The inverse used by budget splits: the largest per-step ε₀ such that k steps, each
/// (ε₀, `step_delta`)-DP, compose optimally with slack δ' to ε' at most `total_epsilon`
/// (that is, `H_{ε₀}(total_epsilon) ≤ δ'`). Found over `[total_epsilon/k, total_epsilon]`
/// to a relative 10⁻¹² (Illinois regula falsi on `ln H`) and reported at the lower end;
/// the caller checks the composed guarantee with [`optimal_composition`].
///
/// # Errors
/// As for [`optimal_composition`]; [`Error::InvalidEpsilon`] for a non-positive or
/// non-finite `total_epsilon`.
pub fn optimal_step_epsilon(
    total_epsilon: f64,
    k: u64,
    step_delta: f64,
    delta_prime: f64,
) -> Result<f64> {
    if !(total_epsilon > 0.0 && total_epsilon.is_finite()) {
        return Err(Error::InvalidEpsilon {
            value: total_epsilon,
        });
    }
    validate(Privacy::new(total_epsilon, step_delta)?, k)?;
    if !(0.0..1.0).contains(&delta_prime) {
        return Err(Error::InvalidDelta { value: delta_prime });
    }
    // H_step(total) ≤ δ' compared as logarithms as in [`optimal_composition`].
    Ok(largest_step(total_epsilon, k, delta_prime, &|step| {
        ln_hockey_stick_randomized_response(step, k, total_epsilon)
    }))
}

/// The largest step with `k·step ≤ total_epsilon` exactly (basic composition's split).
pub(super) fn largest_basic_step(total_epsilon: f64, k: u64) -> f64 {
    let kf = k as f64;
    let mut step = total_epsilon / kf;
    while kf.mul_add(step, -total_epsilon) > 0.0 {
        step = step.next_down();
    }
    step
}

/// The inverse the splitters share: the largest step in `[total/k, total]` whose k-fold
/// composition has `ln δ(total) ≤ ln δ'`, for `ln_delta` increasing in the step, found by
/// [`bracket_root`] and reported at its lower end. At the basic step `ln δ(total) = −∞`, so
/// it fits any δ'; at δ' = 0 it is the answer. `δ'` must lie in `[0, 1)`.
pub(super) fn largest_step(
    total_epsilon: f64,
    k: u64,
    delta_prime: f64,
    ln_delta: &dyn Fn(f64) -> f64,
) -> f64 {
    let basic_step = largest_basic_step(total_epsilon, k);
    if delta_prime == 0.0 {
        return basic_step;
    }
    let ln_delta_prime = -neg_ln_up(delta_prime);
    let shortfall = |step: f64| ln_delta_prime - ln_delta(step);
    if shortfall(total_epsilon) >= 0.0 {
        return total_epsilon;
    }
    bracket_root(&shortfall, basic_step, total_epsilon).0
}

/// For a decreasing `f` with `f(lo) > 0 ≥ f(hi)`, a bracket `(lo, hi)` of the sign change
/// of relative width at most 10⁻¹², keeping `f(lo) > 0 ≥ f(hi)`: the Illinois variant of
/// regula falsi (a secant step on the bracket, halving the retained end's value when the
/// same end moves twice), with a bisection step whenever the secant leaves the bracket.
pub(super) fn bracket_root(f: &dyn Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> (f64, f64) {
    let (mut f_lo, mut f_hi) = (f(lo), f(hi));
    let mut last_moved = 0i8;
    for _ in 0..400 {
        if hi - lo <= 1e-12 * hi.abs() {
            break;
        }
        let secant = hi - f_hi * (hi - lo) / (f_hi - f_lo);
        let x = if secant > lo && secant < hi && secant.is_finite() {
            secant
        } else {
            0.5 * (lo + hi)
        };
        if x <= lo || x >= hi {
            break;
        }
        let value = f(x);
        if value <= 0.0 {
            hi = x;
            f_hi = value;
            if last_moved == -1 {
                f_lo *= 0.5;
            }
            last_moved = -1;
        } else {
            lo = x;
            f_lo = value;
            if last_moved == 1 {
                f_hi *= 0.5;
            }
            last_moved = 1;
        }
    }
    (lo, hi)
}

#[cfg(test)]
mod tests;
