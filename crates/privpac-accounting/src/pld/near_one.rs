//! Sampling rates within [`NEAR_ONE`] of 1, answered through the same steps without
//! subsampling (the transforms would need grids for the subsampled pair's loss
//! `±ln(1 − q)`, up to 36.7 at `q = 1 − 2⁻⁵³`, fine enough for the base pair's accuracy:
//! tens of seconds of CPU for one step).
//!
//! *Upper bound.* Let a step's base pair be `(M, Q)` (its run on the whole dataset, one
//! row removed); at rate q its removal pair is `(P_q, Q)` with `P_q = (1 − q)Q + qM` and its
//! addition pair `(Q, P_q)`. The hockey-stick divergence `H_α(A‖B) = sup_S A(S) − αB(S)` is
//! jointly convex, and `H_α(Q‖Q) = 0`, so `H_α(P_q‖Q) ≤ q·H_α(M‖Q)` and
//! `H_α(Q‖P_q) ≤ q·H_α(Q‖M)`: the base pair (symmetric for every step here) dominates the
//! subsampled one in both directions, and so does the composition of base pairs dominate
//! the composition (dominance is preserved by composition). Hence, with `δ_q` and `δ_1` the
//! profiles of the list as given and of the list with every near-one rate replaced by 1,
//! `δ_q(ε) ≤ δ_1(ε)` for every ε, and an upper bound on `ε_1` at any δ at most the list's
//! δ is an upper bound on `ε_q` at the list's δ.
//!
//! *Lower bound.* As measures, `P_q ≥ q·M`, so the composed removal measure of the list is
//! at least `c` times that of the base list, `c = Π q_i^{k_i}` over the replaced steps
//! (the other factors are equal, and the reference measure is the same product of Q's).
//! `H_α` is monotone in its first argument and `c·A(S) − αB(S) ≥ A(S) − αB(S) − (1 − c)`,
//! so `δ_q(ε) ≥ δ_1(ε) − η` with `η = 1 − c ≤ Σ k_i(1 − q_i)`. An ε proved invalid for the
//! base list at δ + η is therefore invalid for the list at δ (its removal direction alone
//! exceeds δ): a lower bound on `ε_1` at any δ at least `δ + η` is a lower bound on `ε_q`.
//!
//! *Which δ.* The base list's own δ is `δ_i` where the list's is `q_i·δ_i`, so the two
//! targets differ slightly; the slack δ′ passed for the base list is moved by the
//! difference (`Σ k_i(1 − q_i)δ_i`, at most, for the upper bound; by `η` and a relative
//! 10⁻¹¹ of δ for the lower), and the δ each call reports is checked against the list's δ
//! (the upper bound's at most it, the lower bound's at least `δ + η` after removing its own
//! rounding), falling back to the transforms when a check fails.
//!
//! *When η is not small.* Beside a δ′ of the order of `Σ k_i(1 − q_i)` the lower bound
//! loses the accuracy; [`crate::pld_steps_bounds`] then also runs the transforms and
//! intersects the two rigorous bounds. That is cheap for the usual such case (many steps
//! at a rate near `1 − 10⁻⁹`) and as slow as before when a rate is far closer to 1 and δ′
//! is tiny beside `Σ k_i(1 − q_i)`.

use super::fast::{PldBounds, Target, lower_applies_to_mechanisms};
use super::limit::AccuracyLimit;
use super::steps::PldStep;
use crate::error::Result;
use crate::rounding::{add_up, mul_up};

/// Rates q with `0 < 1 − q <` this are answered through the base steps.
pub(super) const NEAR_ONE: f64 = 1e-9;

/// Whether a step's rate is within [`NEAR_ONE`] of 1 (and below it).
pub(super) fn is_near_one(step: &PldStep) -> bool {
    step.rate() < 1.0 && 1.0 - step.rate() < NEAR_ONE
}

/// Bounds for a list with near-one rates (see the module docs), through `bounds` (the
/// accountant's search) applied to the base list at two slacks; `None` when none of the
/// rates is near one, a check of the δ fails, or the base list's upper bound is an error
/// (the transforms then answer as before).
pub(super) fn near_one_bounds(
    groups: &[(PldStep, u64)],
    target: Target,
    epsilon_error: Option<f64>,
    bounds: impl Fn(&[PldStep], f64, Option<f64>) -> Result<PldBounds>,
) -> Option<PldBounds> {
    if target.slack <= 0.0 || !groups.iter().any(|(s, _)| is_near_one(s)) {
        return None;
    }
    let mut base = Vec::new();
    // η ≥ 1 − Π q_i^{k_i} and the own δ the base list adds, both rounded up; 1 − q is exact
    // (Sterbenz) for q ≥ 1/2.
    let (mut eta, mut own_gain) = (0.0, 0.0);
    for &(step, k) in groups {
        let step = if is_near_one(&step) {
            let gap = mul_up(k as f64, 1.0 - step.rate());
            eta = add_up(eta, gap);
            if let super::steps::PldMechanism::Private(p) = step.mechanism() {
                own_gain = add_up(own_gain, mul_up(gap, p.delta()));
            }
            step.unsubsampled()
        } else {
            step
        };
        base.extend(std::iter::repeat_n(step, k as usize));
    }
    let keep_lo = target.keep().0;
    // Upper bound: the base list's δ at slack δ′ − own_gain/K is at most the list's δ.
    let slack_up = target.slack - own_gain / keep_lo * (1.0 + 1e-12) - target.slack * 1e-15;
    if slack_up.is_nan() || slack_up <= 0.0 {
        return None;
    }
    let up = bounds(&base, slack_up, epsilon_error).ok()?;
    if up.delta > target.delta {
        return None;
    }
    // Lower bound: the base list's δ at least δ + η.
    let want = add_up(target.delta, eta);
    let slack_lo = add_up(
        target.slack,
        mul_up(
            add_up(eta, 4e-11 * target.delta),
            1.0 / keep_lo * (1.0 + 1e-12),
        ),
    );
    let lower = if slack_lo < 1.0 {
        match bounds(&base, slack_lo, epsilon_error) {
            // The reported δ is the exact one rounded up by a relative 10⁻¹² above a
            // relative error of a few ulps: 2·10⁻¹² below it is a lower bound.
            Ok(lo) if lo.delta * (1.0 - 2e-12) >= want => lo.lower,
            _ => 0.0,
        }
    } else {
        0.0
    };
    let lower = lower.min(up.upper);
    let result = PldBounds {
        lower,
        estimate: up.estimate.max(lower),
        delta: target.delta,
        lower_applies_to_mechanisms: lower_applies_to_mechanisms(groups.iter().map(|g| &g.0)),
        ..up
    };
    let wanted = epsilon_error.unwrap_or_else(|| super::default_epsilon_error(result.lower));
    Some(PldBounds {
        limited_by: (result.gap() > wanted).then_some(AccuracyLimit::RateNearOne),
        ..result
    })
}

#[cfg(test)]
mod tests {
    use crate::{PldStep, Privacy, default_epsilon_error, pld_steps_bounds};

    /// The largest rate below 1, `1 − 2⁻⁵³`.
    const RATE: f64 = 1.0 - f64::EPSILON / 2.0;

    /// One 1-DP step at rate `1 − 2⁻⁵³` (answered by the transforms before as well); its
    /// exact ε lies in `[ε₁(δ + 2⁻⁵³), ε₁(δ)]` with `ε₁(δ) = 1 + ln(1 − δ/p)`,
    /// `p = 1/(1 + e^{−1})`, the exact ε of the step without subsampling (see the module
    /// docs), so the bounds must bracket `ε₁(δ)` to within 10⁻¹².
    #[test]
    fn one_step_at_the_largest_rate_below_one() {
        const { assert!(RATE < 1.0 && 1.0 - RATE < 2e-16) };
        let step = PldStep::private(Privacy::pure(1.0).unwrap())
            .poisson_subsampled(RATE)
            .unwrap();
        let b = pld_steps_bounds(&[step], 1e-6, None).unwrap();
        let p = 1.0 / (1.0 + (-1f64).exp());
        let exact = 1.0 + (-b.delta / p).ln_1p();
        assert!(
            b.lower <= exact + 1e-12 && exact - 1e-12 <= b.upper,
            "{b:?} vs {exact}"
        );
        assert!(
            b.gap() <= default_epsilon_error(b.lower) && b.limited_by.is_none(),
            "{b:?}"
        );
    }

    /// An (ε, δ) step at rate `1 − 2⁻⁵³` with δ′ far below its own δ: the transforms took
    /// 2.2 s of CPU on a release build (39 s of wall clock in a test build on a loaded
    /// machine) for [1.0, 26.6] with the cause `RateNearOne`. Its exact ε is within 10⁻⁹ of the unsubsampled step's,
    /// `1 + ln(1 − δ′/p)` with `p = 1/(1 + e^{−1})` (the spare δ beside the own δ is δ′,
    /// up to `2⁻⁵³·10⁻³`, see the module docs).
    #[test]
    fn own_delta_at_the_largest_rate_below_one() {
        let step = PldStep::private(Privacy::new(1.0, 1e-3).unwrap())
            .poisson_subsampled(RATE)
            .unwrap();
        let b = pld_steps_bounds(&[step], 1e-10, None).unwrap();
        let p = 1.0 / (1.0 + (-1f64).exp());
        let exact = 1.0 + (-1e-10 / p).ln_1p();
        assert!(
            b.lower <= exact + 1e-9 && exact - 1e-9 <= b.upper,
            "{b:?} vs {exact}"
        );
        assert!(
            b.gap() <= default_epsilon_error(b.lower) && b.limited_by.is_none(),
            "{b:?}"
        );
    }

    /// A mixed list with near-one rates (discrete Laplace, and an (ε, δ) step whose own δ
    /// moves with the rate) beside an ordinary subsampled step: the bounds overlap those of
    /// the list with the near-one rates set to 1 (the exact ε lies within 10⁻⁹ below that
    /// list's, see the module docs), meet the accuracy, and report the list's own δ.
    #[test]
    fn mixed_lists_with_near_one_rates() {
        let near = 1.0 - 4.0 * f64::EPSILON;
        let dl = PldStep::discrete_laplace(2.0, 1).unwrap();
        let eps_delta = PldStep::private(Privacy::new(0.5, 1e-8).unwrap());
        let other = PldStep::private(Privacy::pure(1.0).unwrap())
            .poisson_subsampled(0.01)
            .unwrap();
        let mut steps = vec![dl.poisson_subsampled(near).unwrap(); 5];
        steps.extend(vec![eps_delta.poisson_subsampled(near).unwrap(); 3]);
        steps.extend(vec![other; 20]);
        let mut base = vec![dl; 5];
        base.extend(vec![eps_delta; 3]);
        base.extend(vec![other; 20]);
        let b = pld_steps_bounds(&steps, 1e-6, None).unwrap();
        let reference = pld_steps_bounds(&base, 1e-6, None).unwrap();
        let own = -(3.0 * (-1e-8 * near).ln_1p() + (-1e-6f64).ln_1p()).exp_m1();
        assert!((b.delta - own).abs() <= 1e-11 * own, "{b:?} vs {own}");
        assert!(
            b.lower <= reference.upper && reference.lower - 1e-9 <= b.upper,
            "{b:?} vs {reference:?}"
        );
        assert!(
            b.gap() <= default_epsilon_error(b.lower) && b.limited_by.is_none(),
            "{b:?}"
        );
    }
    /// A thousand 0.01-DP steps at rate `1 − 9·10⁻¹⁰`: `Σ k(1 − q) = 9·10⁻⁷` is close to
    /// δ′ = 10⁻⁶, so the unsubsampled steps' lower bound (taken at δ + 9·10⁻⁷) misses the
    /// accuracy and names `RateNearOne`; the accountant then intersects with the transforms
    /// (cheap at this rate) and meets it. The exact ε is at most the unsubsampled steps'
    /// (dominance), which optimal composition bounds from above.
    #[test]
    fn a_large_distance_from_one_falls_back_to_the_transforms() {
        let step = PldStep::private(Privacy::pure(0.01).unwrap())
            .poisson_subsampled(1.0 - 9e-10)
            .unwrap();
        let steps = vec![step; 1000];
        let (groups, target) = crate::pld::fast::prepare(&steps, 1e-6).unwrap();
        let near = super::near_one_bounds(&groups, target, None, pld_steps_bounds).unwrap();
        assert_eq!(
            near.limited_by,
            Some(crate::AccuracyLimit::RateNearOne),
            "{near:?}"
        );
        let b = pld_steps_bounds(&steps, 1e-6, None).unwrap();
        let optimal = crate::optimal_composition(Privacy::pure(0.01).unwrap(), 1000, 1e-6)
            .unwrap()
            .epsilon();
        assert!(
            near.lower <= b.lower && b.upper <= near.upper && b.lower <= optimal,
            "{b:?} {near:?} {optimal}"
        );
        assert!(
            b.gap() <= default_epsilon_error(b.lower) && b.limited_by.is_none(),
            "{b:?}"
        );
    }
}
