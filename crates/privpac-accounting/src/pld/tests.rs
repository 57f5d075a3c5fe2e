//! Tests of the PLD accountant: never below the exact optimal composition (Kairouz–Oh–
//! Viswanath) and within its discretization of it, the discrete Laplace PLD against its
//! exact hockey-stick divergence, heterogeneous compositions tighter than advanced
//! composition, and a negative control (an optimistic, rounded-down discretization falls
//! below the exact δ, which the pessimistic one never does).

use super::*;
use crate::{advanced_composition, heterogeneous_advanced_composition, optimal_composition_delta};

#[test]
fn homogeneous_compositions_bound_the_exact_optimum_from_above() {
    for (epsilon, k, interval) in [(0.1f64, 50u64, 1e-3), (0.5, 20, 1e-3), (0.01, 1000, 1e-4)] {
        let each = Privacy::pure(epsilon).unwrap();
        let pld = PrivacyLossDistribution::from_privacy(each, interval)
            .unwrap()
            .self_compose(k)
            .unwrap();
        for step in 0..20 {
            let at = step as f64 * epsilon * k as f64 / 40.0;
            let exact = optimal_composition_delta(each, k, at).unwrap() / (1.0 + 1e-6);
            let ours = pld.delta_for_epsilon(at);
            assert!(
                ours >= exact * (1.0 - 1e-9),
                "ε = {epsilon}, k = {k}, ε' = {at}: {ours} < {exact}"
            );
            // Within the discretization: at most the exact δ at ε' − k·Δ.
            let shifted = (at - k as f64 * interval).max(0.0);
            let loose = optimal_composition_delta(each, k, shifted).unwrap();
            assert!(ours <= loose, "ε' = {at}: {ours} > {loose}");
        }
    }
}

#[test]
fn discrete_laplace_pld_matches_its_hockey_stick_divergence() {
    // Scale 2, sensitivity 3, outputs centred at 0 and 3; the exact δ(ε) is a sum over y.
    let (scale, sensitivity) = (2.0f64, 3u64);
    let interval = 0.5; // the losses (3 − 2y)/2 lie on this grid exactly
    let pld = PrivacyLossDistribution::from_discrete_laplace(scale, sensitivity, interval).unwrap();
    let r = (-1.0 / scale).exp();
    let pmf = |y: i64| (1.0 - r) / (1.0 + r) * r.powi(y.abs() as i32);
    for epsilon in [0.0f64, 0.25, 0.5, 1.0, 1.4] {
        let exact: f64 = (-200..=203)
            .map(|y: i64| (pmf(y) - epsilon.exp() * pmf(y - 3)).max(0.0))
            .sum();
        let ours = pld.delta_for_epsilon(epsilon);
        assert!(
            ours >= exact * (1.0 - 1e-12) && ours <= exact * (1.0 + 1e-9) + 1e-15,
            "ε = {epsilon}: {ours} vs {exact}"
        );
    }
    assert!(pld.delta_for_epsilon(1.5) < 1e-12); // Δ/b = 1.5 is the largest loss
}

#[test]
fn mixed_compositions_are_tighter_than_advanced_composition() {
    let runs = [
        Privacy::pure(0.1).unwrap(),
        Privacy::pure(0.02).unwrap(),
        Privacy::new(0.05, 1e-8).unwrap(),
    ];
    let mixed: Vec<Privacy> = runs.iter().copied().cycle().take(600).collect();
    let pld = pld_composition(&mixed, 1e-6, 1e-4).unwrap();
    let advanced = heterogeneous_advanced_composition(&mixed, 1e-6).unwrap();
    assert!(
        pld.epsilon() < advanced.epsilon(),
        "{pld:?} vs {advanced:?}"
    );
    // δ is 1 − (1 − 10⁻⁸)^200·(1 − 10⁻⁶), reported rounded up.
    let expected = -(200.0 * (-1e-8f64).ln_1p() + (-1e-6f64).ln_1p()).exp_m1();
    assert!(
        pld.delta() >= expected && pld.delta() < expected * (1.0 + 1e-9),
        "{pld:?}"
    );
    // Homogeneous lists: within k·Δ of the optimal composition.
    let same = vec![Privacy::pure(0.01).unwrap(); 1000];
    let pld = pld_composition(&same, 1e-6, 1e-4).unwrap();
    let optimal = crate::optimal_composition(same[0], 1000, 1e-6).unwrap();
    // (optimal composition reports its ε′ for a δ inflated by a relative 10⁻⁶: a few 10⁻⁸
    // in ε′, so the PLD may sit that much below it.)
    assert!(
        pld.epsilon() >= optimal.epsilon() - 1e-6
            && pld.epsilon() <= optimal.epsilon() + 1000.0 * 1e-4,
        "{pld:?} vs {optimal:?}"
    );
    let advanced = advanced_composition(same[0], 1000, 1e-6).unwrap();
    assert!(pld.epsilon() < advanced.epsilon());
}

/// Negative control: rounding losses **down** (optimistic) gives a δ below the exact one
/// at some ε', which the pessimistic PLD never does (the test above).
#[test]
fn an_optimistic_discretization_falls_below_the_exact_delta() {
    let each = Privacy::pure(0.13).unwrap();
    let interval = 0.1; // 0.13 rounds down to 0.1, up to 0.2
    let optimistic = PrivacyLossDistribution::from_losses(
        interval,
        &[
            (0.1 - 1e-12, 0.13f64.exp() / (1.0 + 0.13f64.exp())),
            (-0.2 + 1e-12, 1.0 / (1.0 + 0.13f64.exp())),
        ],
        0.0,
    )
    .unwrap()
    .self_compose(20)
    .unwrap();
    let below = (0..20).any(|step| {
        let at = step as f64 * 0.13;
        optimistic.delta_for_epsilon(at)
            < optimal_composition_delta(each, 20, at).unwrap() / (1.0 + 1e-6) * (1.0 - 1e-6)
    });
    assert!(
        below,
        "the optimistic discretization must undershoot somewhere"
    );
}

#[test]
fn bad_inputs_are_typed_errors() {
    let p = Privacy::pure(1.0).unwrap();
    assert!(PrivacyLossDistribution::from_privacy(p, 0.0).is_err());
    assert!(PrivacyLossDistribution::from_privacy(p, f64::NAN).is_err());
    assert!(PrivacyLossDistribution::from_privacy(p, 1e-9).is_err()); // 2·10^9 cells
    assert!(PrivacyLossDistribution::from_discrete_laplace(0.0, 1, 0.1).is_err());
    assert!(PrivacyLossDistribution::from_discrete_laplace(1.0, 0, 0.1).is_err());
    let a = PrivacyLossDistribution::from_privacy(p, 0.1).unwrap();
    let b = PrivacyLossDistribution::from_privacy(p, 0.2).unwrap();
    assert!(a.compose(&b).is_err());
    assert!(a.self_compose(0).is_err());
    assert!(pld_composition(&[], 1e-6, 1e-3).is_err());
    assert!(pld_composition(&[p], 1.0, 1e-3).is_err());
    // Long lists are composed (by transforms; before issue 29 this was refused as too much
    // convolution work), never below the exact optimal composition and within k·Δ of it.
    let many = vec![Privacy::pure(0.01).unwrap(); 20_000];
    let total = pld_composition(&many, 1e-6, 1e-4).unwrap();
    let exact = crate::optimal_composition(many[0], 20_000, 1e-6).unwrap();
    assert!(
        total.epsilon() >= exact.epsilon() - 1e-6 && total.epsilon() <= exact.epsilon() + 0.01,
        "{total:?} vs {exact:?}"
    );
    // A grid too fine for the window is a typed error.
    assert!(matches!(
        pld_composition(&many, 1e-6, 1e-9),
        Err(Error::InvalidCount { .. })
    ));
    // An approximate step's δ is counted in the total δ, not refused: (0.1, 0.5) twice is
    // (ε′, 1 − 0.25·(1 − δ′)) with ε′ at most basic composition's 0.2.
    let heavy = Privacy::new(0.1, 0.5).unwrap();
    let total = pld_composition(&[heavy, heavy], 1e-6, 1e-3).unwrap();
    assert!(
        total.delta() >= 0.75 && total.epsilon() <= 0.2 + 2e-3,
        "{total:?}"
    );
}

/// A bounded-range step is composed through an envelope pair that no bounded-range
/// mechanism attains, so its lower bound is not claimed for the mechanisms; pure, (ε, δ),
/// discrete Laplace and subsampled steps keep theirs.
#[test]
fn lower_bounds_apply_to_mechanisms_except_through_bounded_range_steps() {
    let br = PldStep::bounded_range(1.0).unwrap();
    let pure = PldStep::private(Privacy::pure(1.0).unwrap());
    let laplace = PldStep::discrete_laplace(2.0, 1)
        .unwrap()
        .poisson_subsampled(0.1)
        .unwrap();
    let two_br = crate::pld_steps_bounds(&[br, br], 1e-3, None).unwrap();
    assert!(!two_br.lower_applies_to_mechanisms);
    assert!(two_br.lower <= two_br.upper);
    let subsampled_br = [br.poisson_subsampled(0.5).unwrap(); 3];
    assert!(
        !crate::pld_steps_bounds(&subsampled_br, 1e-3, None)
            .unwrap()
            .lower_applies_to_mechanisms
    );
    assert!(
        !crate::pld_steps_bounds_on_grid(&[pure, br], 1e-3, 1e-3)
            .unwrap()
            .lower_applies_to_mechanisms
    );
    assert!(
        crate::pld_steps_bounds(&[pure, laplace], 1e-3, None)
            .unwrap()
            .lower_applies_to_mechanisms
    );
    assert!(
        crate::pld_steps_bounds_on_grid(&[pure; 5], 1e-6, 1e-3)
            .unwrap()
            .lower_applies_to_mechanisms
    );
    // Long lists go through bucketing, which keeps the flag of the steps it rounds.
    let many_br: Vec<PldStep> = (1..=100)
        .map(|i| PldStep::bounded_range(0.01 + 1e-4 * f64::from(i)).unwrap())
        .collect();
    assert!(
        !crate::pld_steps_bounds(&many_br, 1e-6, None)
            .unwrap()
            .lower_applies_to_mechanisms
    );
    let many_pure: Vec<PldStep> = (1..=100)
        .map(|i| PldStep::private(Privacy::pure(0.01 + 1e-4 * f64::from(i)).unwrap()))
        .collect();
    assert!(
        crate::pld_steps_bounds(&many_pure, 1e-6, None)
            .unwrap()
            .lower_applies_to_mechanisms
    );
}
