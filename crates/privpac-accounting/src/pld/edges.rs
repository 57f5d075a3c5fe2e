//! The PLD accountant at its edges: the questions the transforms of the `fast` module cannot
//! answer to the accuracy asked, answered another way, and, where nothing can, a named
//! cause.
//!
//! *No slack (δ′ = 0).* With `δ = 1 − Π(1 − δ_i)` the question is where the finite part
//! of the composed δ(ε) vanishes: at the sum of the steps' largest finite losses. Each step
//! is `(ε_i, δ_i)`-DP as [`PldStep::privacy`] reports (amplified by subsampling when its
//! rate is below 1), so the canonical pairs of those guarantees dominate the steps in both
//! directions, and their composition at `Σ ε_i` has δ exactly `1 − Π(1 − δ_i)`
//! (Kairouz–Oh–Viswanath Theorem 3.3 at δ′ = 0, for mixed guarantees as well): `Σ ε_i`,
//! rounded up, is the upper bound. When no step has a δ of its own, δ = 0 and the exact ε
//! is the largest finite loss of the composed removal pair, `Σ k_i·ln(1 + q_i(e^{λ_i} − 1))`
//! with `λ_i` the base pair's largest loss (ε, or Δ/b for the discrete Laplace mechanism;
//! reached with positive probability by every step at once), rounded down for the lower
//! bound. With own δ the lower bound is 0 (the reported δ is rounded up, and the composed
//! profile need not reach the sum at that δ) and the bounds say so
//! ([`AccuracyLimit::NoSlackBesideOwnDelta`]).
//!
//! *Few distinct (ε, δ) steps.* When the transforms miss the accuracy (at large ε they
//! lose the canonical pairs' low masses; near δ = 1 their tail allowances exceed `1 − δ`),
//! a list of (ε, δ) and pure steps on the whole dataset with few distinct steps is bounded
//! on both sides by enumerating the composed canonical pairs' losses in log space (the
//! `enumerate` module, Kairouz–Oh–Viswanath Theorem 3.3 over a product), and the two
//! bounds are intersected. When only some distinct steps are such steps, their
//! enumeration still bounds the whole list's ε from below (post-processing), which keeps
//! a lower bound at large ε where the transforms lose it.
//!
//! *Causes.* When the bounds still miss the accuracy, [`PldBounds::limited_by`] names what
//! limited them ([`AccuracyLimit`]).

use super::enumerate::{enumerated_bounds, sublist_lower};
use super::fast::{PldBounds, Target, default_epsilon_error};
use super::limit::AccuracyLimit;
use super::pieces::mixed_loss_enclosure;
use super::steps::{PldMechanism, PldStep};
use crate::error::Result;
use crate::rounding::{add_up, mul_up};

/// The bounds at δ′ = 0 (see the module docs).
///
/// # Errors
/// As for [`PldStep::privacy`].
pub(super) fn zero_slack_bounds(groups: &[(PldStep, u64)], target: Target) -> Result<PldBounds> {
    let mut upper = 0.0;
    let mut sum = 0.0;
    for (step, k) in groups {
        upper = add_up(upper, mul_up(*k as f64, step.privacy()?.epsilon()));
        let base = match step.mechanism() {
            PldMechanism::Private(p) => p.epsilon(),
            PldMechanism::BoundedRange { epsilon } => epsilon,
            PldMechanism::DiscreteLaplace { scale, sensitivity } => sensitivity as f64 / scale,
        };
        // The largest loss, less its error bound (a few ulps, and the enclosure's error for
        // a subsampled loss).
        let top = if step.is_symmetric() {
            base * (1.0 - 1e-15)
        } else {
            let (mixed, error) = mixed_loss_enclosure(base, step.rate());
            mixed - error - mixed.abs() * 1e-15
        };
        sum += *k as f64 * top.max(0.0);
    }
    let own_delta = groups.iter().any(|(s, _)| s.own_delta() > 0.0);
    // Each term is within a few ulps (and `ln_1p` within two), the sum within
    // (terms + 2) ulps of its value: a relative 10⁻¹² (and more per term) below is safe.
    let lower = if own_delta {
        0.0
    } else {
        (sum * (1.0 - 1e-12 - groups.len() as f64 * 4e-16)).min(upper)
    };
    Ok(PldBounds {
        lower,
        estimate: upper,
        upper,
        delta: target.delta,
        interval: 0.0,
        lower_applies_to_mechanisms: super::fast::lower_applies_to_mechanisms(
            groups.iter().map(|g| &g.0),
        ),
        limited_by: own_delta.then_some(AccuracyLimit::NoSlackBesideOwnDelta),
    })
}

/// The bounds of the transforms (or their error), completed at the edges: for one (ε, δ)
/// step repeated, intersected with [`enumerated_bounds`] when they miss the accuracy (or
/// fail); then, if still short of it, with the cause named.
pub(super) fn completed(
    transformed: Result<PldBounds>,
    groups: &[(PldStep, u64)],
    target: Target,
    epsilon_error: Option<f64>,
) -> Result<PldBounds> {
    let wanted = |b: &PldBounds| epsilon_error.unwrap_or_else(|| default_epsilon_error(b.lower));
    let short = |b: &PldBounds| b.gap() > wanted(b);
    let bounds = match transformed {
        Ok(b) if !short(&b) => return Ok(b),
        Ok(b) => match enumerated_bounds(groups, target) {
            Some(e) => b.intersection(e),
            None => match sublist_lower(groups, target) {
                Some(lower) if lower > b.lower => PldBounds {
                    lower: lower.min(b.upper),
                    estimate: b.estimate.max(lower).min(b.upper),
                    ..b
                },
                _ => b,
            },
        },
        Err(error) => match enumerated_bounds(groups, target) {
            Some(e) => e,
            None => return Err(error),
        },
    };
    if !short(&bounds) {
        return Ok(bounds);
    }
    Ok(PldBounds {
        limited_by: Some(limit(groups, target)),
        ..bounds
    })
}

/// What limited the accuracy (see [`AccuracyLimit`]), checked from the most specific cause.
fn limit(groups: &[(PldStep, u64)], target: Target) -> AccuracyLimit {
    let largest_loss = |s: &PldStep| match s.mechanism() {
        PldMechanism::Private(p) => p.epsilon(),
        PldMechanism::BoundedRange { epsilon } => epsilon,
        PldMechanism::DiscreteLaplace { scale, sensitivity } => sensitivity as f64 / scale,
    };
    let own = groups.iter().any(|(s, _)| s.own_delta() > 0.0);
    if target.slack == 0.0 && own {
        AccuracyLimit::NoSlackBesideOwnDelta
    } else if groups
        .iter()
        .any(|(s, _)| s.rate() < 1.0 && 1.0 - s.rate() < 1e-9)
    {
        AccuracyLimit::RateNearOne
    } else if target.spare().0 < 1e-280 {
        AccuracyLimit::TinyDelta
    } else if 1.0 - target.delta < 1e-4 {
        AccuracyLimit::DeltaNearOne
    } else if groups.iter().any(|(s, _)| largest_loss(s) > 36.0) {
        AccuracyLimit::LargeLoss
    } else {
        AccuracyLimit::GridLimit
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Privacy, pld_steps_bounds};

    fn eps_delta(epsilon: f64, count: usize) -> Vec<PldStep> {
        vec![PldStep::private(Privacy::pure(epsilon).unwrap()); count]
    }

    /// ε ≳ 37: the transforms lost the canonical pair's low mass and the lower bound was 0
    /// (`[0, 50]`); enumerating the losses in log space gives the exact ε, 50 + ln(1 − δ′/p)
    /// with p = 1/(1 + e^{−50}) (issue 37 §6).
    #[test]
    fn large_epsilon_is_bounded_on_both_sides() {
        let b = pld_steps_bounds(&eps_delta(50.0, 1), 1e-10, None).unwrap();
        let exact = 50.0 + (-1e-10f64).ln_1p();
        assert!(b.lower <= exact && exact <= b.upper, "{b:?} vs {exact}");
        assert!(b.gap() <= 0.5 && b.limited_by.is_none(), "{b:?}");
    }

    /// δ′ near 1: two 45-DP steps at δ′ = 0.999999 gave [0, 89.99]; the exact ε solves
    /// p₀(1 − e^{ε − 90}) = δ′ with p₀ = (1 + e^{−45})^{−2}: 90 + ln(1 − δ′/p₀) ≈ 76.18.
    #[test]
    fn delta_near_one_is_bounded_on_both_sides() {
        let b = pld_steps_bounds(&eps_delta(45.0, 2), 0.999999, None).unwrap();
        let p0 = (1.0 + (-45f64).exp()).powi(-2);
        let exact = 90.0 + (1.0 - 0.999999 / p0).ln();
        assert!(
            b.lower <= exact + 1e-6 && exact - 1e-6 <= b.upper,
            "{b:?} vs {exact}"
        );
        assert!(b.gap() <= 0.01 * exact && b.limited_by.is_none(), "{b:?}");
    }

    /// Where nothing closes the gap, the cause is named (these mixed (ε, δ) lists with a loss
    /// above 36 or δ near 1 are now closed by the enumeration, so only the upper bound and
    /// the met accuracy are checked for them; `enumerate_tests.rs` checks a named cause
    /// beside a discrete Laplace step).
    #[test]
    fn misses_name_their_cause() {
        let mut steps = eps_delta(50.0, 1);
        steps.push(PldStep::private(Privacy::pure(49.0).unwrap()));
        let b = pld_steps_bounds(&steps, 1e-10, None).unwrap();
        assert!(b.upper >= 99.0 - 1e-6, "{b:?}");
        if b.gap() > default_epsilon_error(b.lower) {
            assert_eq!(b.limited_by, Some(AccuracyLimit::LargeLoss), "{b:?}");
        }
        let mut near_one = eps_delta(45.0, 1);
        near_one.push(PldStep::private(Privacy::pure(44.0).unwrap()));
        let b = pld_steps_bounds(&near_one, 0.999999, None).unwrap();
        if b.gap() > default_epsilon_error(b.lower) {
            assert_eq!(b.limited_by, Some(AccuracyLimit::DeltaNearOne), "{b:?}");
        }
        // A met accuracy names nothing.
        let b = pld_steps_bounds(&eps_delta(1.0, 10), 1e-6, None).unwrap();
        assert_eq!(b.limited_by, None);
    }

    /// The enumerated bounds agree with optimal composition (Kairouz–Oh–Viswanath), which
    /// computes the same exact ε from above with a relative margin 10⁻⁶ on H.
    #[test]
    fn enumeration_brackets_optimal_composition() {
        for &(epsilon, k, delta_prime) in &[(0.1, 100, 1e-6), (1.0, 10, 1e-3), (2.0, 7, 0.3)] {
            let (groups, target) =
                super::super::fast::prepare(&eps_delta(epsilon, k), delta_prime).unwrap();
            let b = enumerated_bounds(&groups, target).unwrap();
            let optimal =
                crate::optimal_composition(Privacy::pure(epsilon).unwrap(), k as u64, delta_prime)
                    .unwrap();
            assert!(
                b.lower <= optimal.epsilon() && b.gap() < 1e-6,
                "{b:?} {optimal:?}"
            );
            assert!(optimal.epsilon() - b.upper < 1e-4, "{b:?} {optimal:?}");
        }
    }
}
