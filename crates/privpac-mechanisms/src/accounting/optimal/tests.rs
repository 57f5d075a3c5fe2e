//! Tests of optimal composition: the hockey-stick sum against a brute force over all 2^k
//! outcome sequences of k randomized responses in exact integer arithmetic, KOV's closed
//! form on its grid, k up to 10^7, the inverse used by splitters, and a negative control
//! (a split 1% above the optimal per-step ε fails the exact check).

use super::*;
use crate::accounting::advanced_composition;

/// `Σ_s max(0, base^{z(s)} − r·base^{k−z(s)})` over all 2^k sequences s (z = number of
/// truthful answers), and the denominator `(base + 1)^k`: δ of k randomized responses with
/// `e^ε = base` at `e^{ε'} = r`, exactly.
fn brute_force(base: u64, k: u32, r: u64) -> (u128, u128) {
    let base = u128::from(base);
    let mut numerator = 0u128;
    for s in 0u64..(1 << k) {
        let z = k - s.count_ones();
        let p = base.pow(z);
        let q = u128::from(r) * base.pow(k - z);
        numerator += p.saturating_sub(q);
    }
    (numerator, (base + 1).pow(k))
}

#[test]
fn matches_the_brute_force_over_every_outcome_sequence_exactly() {
    for base in [2u64, 3] {
        let each = Privacy::pure((base as f64).ln()).unwrap();
        for k in 1..=12u32 {
            for r in [1u64, 2, 3, 5, 9, 27, 100, 4096] {
                let (numerator, denominator) = brute_force(base, k, r);
                let exact = numerator as f64 / denominator as f64;
                let computed =
                    optimal_composition_delta(each, u64::from(k), (r as f64).ln()).unwrap();
                assert!(
                    computed >= exact * (1.0 - 1e-15) && computed <= exact * (1.0 + 2e-6) + 1e-300,
                    "e^ε = {base}, k = {k}, e^ε' = {r}: computed {computed}, exact {exact}"
                );
            }
        }
    }
}

#[test]
fn approximate_steps_add_their_delta_as_kov_state() {
    // (ln 2, 1/1000)-DP steps: 1 − (999/1000)^k·(1 − H) with H exact from the brute force.
    let each = Privacy::new(2f64.ln(), 1e-3).unwrap();
    for k in [1u32, 5, 10] {
        for r in [1u64, 4, 16] {
            let (numerator, denominator) = brute_force(2, k, r);
            let h = numerator as f64 / denominator as f64;
            let exact = 1.0 - 0.999f64.powi(k as i32) * (1.0 - h);
            let computed = optimal_composition_delta(each, u64::from(k), (r as f64).ln()).unwrap();
            assert!(computed >= exact * (1.0 - 1e-14) && computed <= exact * (1.0 + 2e-6));
        }
    }
}

#[test]
fn agrees_with_kov_theorem_3_3_on_its_grid() {
    for (epsilon, k) in [(0.1f64, 20u64), (0.5, 31), (1.0, 8)] {
        let each = Privacy::pure(epsilon).unwrap();
        for i in 0..=k / 2 {
            // δ_i = Σ_{ℓ<i} C(k, ℓ)(e^{(k−ℓ)ε} − e^{(k−2i+ℓ)ε})/(1 + e^ε)^k
            let mut delta_i = 0.0;
            let mut choose = 1.0f64;
            for l in 0..i {
                let kf = k as f64;
                let lf = l as f64;
                delta_i += choose
                    * (((kf - lf) * epsilon).exp() - ((kf - 2.0 * i as f64 + lf) * epsilon).exp())
                    / (1.0 + epsilon.exp()).powf(kf);
                choose *= (kf - lf) / (lf + 1.0);
            }
            let at = (k as f64 - 2.0 * i as f64) * epsilon;
            let computed = optimal_composition_delta(each, k, at).unwrap();
            assert!(
                computed >= delta_i * (1.0 - 1e-12) - 1e-300
                    && computed <= delta_i * (1.0 + 2e-6) + 1e-300,
                "ε = {epsilon}, k = {k}, i = {i}: {computed} vs {delta_i}"
            );
        }
    }
}

#[test]
fn is_tighter_than_advanced_and_basic_up_to_ten_million_steps() {
    for (epsilon, k) in [
        (0.01, 1000u64),
        (0.01, 1_000_000),
        (0.001, 10_000_000),
        (1.0, 100),
    ] {
        let each = Privacy::pure(epsilon).unwrap();
        let optimal = optimal_composition(each, k, 1e-6).unwrap();
        let basic = epsilon * k as f64;
        assert!(
            optimal.epsilon() <= basic * (1.0 + 1e-12),
            "{epsilon} × {k}"
        );
        if let Ok(advanced) = advanced_composition(each, k, 1e-6) {
            assert!(optimal.epsilon() < advanced.epsilon(), "{epsilon} × {k}");
        }
        // The reported ε' is (to the bisection's precision) the smallest with H ≤ δ'.
        let at = optimal_composition_delta(each, k, optimal.epsilon()).unwrap();
        assert!(
            at <= 1e-6 * (1.0 + 1e-9),
            "{epsilon} × {k}: δ at ε' is {at}"
        );
        let below = optimal_composition_delta(each, k, optimal.epsilon() * (1.0 - 1e-6)).unwrap();
        assert!(
            below > 1e-6,
            "{epsilon} × {k}: not the smallest ε' ({below})"
        );
    }
    // The 1000 × 0.01 example of the demo: √(2k ln(1/δ'))ε + 2kε² = 1.86 advanced, ≈ 1.6 optimal.
    let optimal = optimal_composition(Privacy::pure(0.01).unwrap(), 1000, 1e-6).unwrap();
    assert!(
        optimal.epsilon() > 1.0 && optimal.epsilon() < 1.8,
        "{optimal:?}"
    );
}

#[test]
fn delta_decreases_in_epsilon_prime_and_stays_in_range() {
    let each = Privacy::new(0.05, 1e-9).unwrap();
    let mut previous = 1.0;
    for step in 0..60 {
        let at = step as f64 * 0.25;
        let delta = optimal_composition_delta(each, 5000, at).unwrap();
        assert!((0.0..=1.0).contains(&delta) && delta <= previous * (1.0 + 1e-9));
        previous = delta;
    }
    assert!(previous >= 1.0 - (1.0f64 - 1e-9).powi(5000));
}

#[test]
fn the_inverse_gives_the_largest_step_that_fits() {
    for (total, k, delta_prime) in [(1.0, 64u64, 5e-7), (1.0, 1024, 5e-7), (4.0, 100, 1e-5)] {
        let step = optimal_step_epsilon(total, k, 0.0, delta_prime).unwrap();
        let composed = optimal_composition(Privacy::pure(step).unwrap(), k, delta_prime).unwrap();
        assert!(
            composed.epsilon() <= total * (1.0 + 1e-9),
            "{composed:?} > {total}"
        );
        // Larger than basic composition's split, and than advanced composition's root.
        assert!(step > total / k as f64);
        let a = (2.0 * k as f64 * (1.0 / delta_prime).ln()).sqrt();
        let advanced_root = (-a + (a * a + 8.0 * k as f64 * total).sqrt()) / (4.0 * k as f64);
        assert!(step > advanced_root, "{step} vs {advanced_root}");
    }
}

/// Negative control: a splitter that claims the optimal per-step ε plus 1% fails the exact
/// check (a brute force over all 2^16 outcome sequences of 16 randomized responses).
#[test]
fn a_split_one_percent_above_the_optimum_fails_the_exact_check() {
    let (total, k, delta_prime) = (2.0f64, 16u32, 1e-3);
    let brute = |step: f64| -> f64 {
        let mut sum = 0.0;
        for s in 0u64..(1 << k) {
            let flips = f64::from(s.count_ones());
            let kf = f64::from(k);
            let loss = (kf - 2.0 * flips) * step;
            let p = (-flips * step).exp() / (1.0 + (-step).exp()).powf(kf);
            sum += (p * (1.0 - (total - loss).exp())).max(0.0);
        }
        sum
    };
    let step = optimal_step_epsilon(total, u64::from(k), 0.0, delta_prime).unwrap();
    assert!(
        brute(step) <= delta_prime,
        "the optimal split must pass: {}",
        brute(step)
    );
    assert!(
        brute(step * 1.01) > delta_prime,
        "1% more must fail: {}",
        brute(step * 1.01)
    );
}

#[test]
fn bad_inputs_are_typed_errors() {
    let each = Privacy::pure(0.1).unwrap();
    assert!(optimal_composition(each, 0, 1e-6).is_err());
    assert!(optimal_composition(each, MAX_OPTIMAL_COMPOSITIONS + 1, 1e-6).is_err());
    assert!(optimal_composition(each, 10, 1.0).is_err());
    assert!(optimal_composition(each, 10, -0.1).is_err());
    assert!(optimal_composition_delta(each, 10, -1.0).is_err());
    assert!(optimal_composition_delta(each, 10, f64::NAN).is_err());
    assert!(optimal_step_epsilon(0.0, 10, 0.0, 1e-6).is_err());
    assert!(optimal_step_epsilon(1.0, 10, 0.0, 1.5).is_err());
    // A δ that composes to 1 is vacuous.
    assert!(optimal_composition(Privacy::new(0.1, 0.5).unwrap(), 100, 1e-6).is_err());
}
