//! Tests of optimal composition: the hockey-stick sum against a brute force over all 2^k
//! outcome sequences of k randomized responses in exact integer arithmetic, KOV's closed
//! form on its grid, k up to 10^7, the inverse used by splitters, and a negative control
//! (a split 1% above the optimal per-step ε fails the exact check); and, over the whole
//! valid parameter space (δ' = 0 and subnormal δ' included), the reported ε' against KOV's
//! hockey-stick sum evaluated in 256-bit arithmetic.

use astro_float::{BigFloat, Consts, RoundingMode};
use proptest::prelude::*;

use super::*;
use crate::{Accountant, CompositionRule, advanced_composition, basic_composition};

/// Bits of the big-float reference.
const BITS: usize = 256;
const RM: RoundingMode = RoundingMode::ToEven;

/// A lower bound on KOV's `H(ε')` for k runs of ε-randomized response, in 256-bit
/// arithmetic, independent of the code under test: `Σ_{ℓ ≤ top} P_ℓ·(1 − e^{ε' − (k−2ℓ)ε})`
/// with `P_ℓ = C(k, ℓ)e^{−ℓε}/(1 + e^{−ε})^k` walked up from `P_0` and `top` the largest ℓ
/// whose loss `(k − 2ℓ)ε` exceeds ε' (decided exactly: the product of two f64s is exact at
/// 256 bits). Every term is positive; terms below `2^{−400}` times the largest term so far
/// are left out (the result is then a lower bound, below H by a relative `k·2^{−400}` at
/// most), and the factor `1 − e^{−d}` is taken from its series for small `d` so that it
/// keeps its relative precision. Exactly 0 when `ε' ≥ kε`.
fn reference_hockey_stick(epsilon: f64, k: u64, epsilon_prime: f64) -> BigFloat {
    let mut cc = Consts::new().expect("constants cache");
    let big = exact_big;
    let (eps, eps_prime) = (big(epsilon), big(epsilon_prime));
    let loss = |l: u64| big(k as f64 - 2.0 * l as f64).mul(&eps, BITS, RM);
    let zero = BigFloat::new(BITS);
    let mut top = None;
    for l in (0..=k / 2).rev() {
        if loss(l) > eps_prime {
            top = Some(l);
            break;
        }
    }
    let Some(top) = top else {
        return zero;
    };
    let one = big(1.0);
    let x = eps.neg().exp(BITS, RM, &mut cc); // e^{−ε}
    let mut p = one.div(&one.add(&x, BITS, RM).powi(k as usize, BITS, RM), BITS, RM);
    let mut sum = zero.clone();
    let mut largest = zero;
    let negligible = big(2f64.powi(-400));
    for l in 0..=top {
        if l > 0 {
            // P_ℓ = P_{ℓ−1}·(k − ℓ + 1)/ℓ·e^{−ε}.
            p = p
                .mul(&big((k - l + 1) as f64), BITS, RM)
                .div(&big(l as f64), BITS, RM)
                .mul(&x, BITS, RM);
        }
        if p < largest.mul(&negligible, BITS, RM) {
            continue;
        }
        let d = loss(l).sub(&eps_prime, BITS, RM);
        let factor = if d < big(2f64.powi(-40)) {
            // 1 − e^{−d} = d − d²/2 + d³/6 − …, within d⁴/24 of the first three terms.
            let d2 = d.mul(&d, BITS, RM);
            d.sub(&d2.div(&big(2.0), BITS, RM), BITS, RM).add(
                &d2.mul(&d, BITS, RM).div(&big(6.0), BITS, RM),
                BITS,
                RM,
            )
        } else {
            one.sub(&d.neg().exp(BITS, RM, &mut cc), BITS, RM)
        };
        let term = p.mul(&factor, BITS, RM);
        if term > largest {
            largest = term.clone();
        }
        sum = sum.add(&term, BITS, RM);
    }
    sum
}

/// A float as a big float, exactly: `BigFloat::from_f64` halves subnormals (astro-float
/// 0.9), so they are scaled into the normal range first (exact) and back (exact).
fn exact_big(x: f64) -> BigFloat {
    if x == 0.0 || x.abs() >= f64::MIN_POSITIVE {
        return BigFloat::from_f64(x, BITS);
    }
    let scale = 2f64.powi(600);
    BigFloat::from_f64(x * scale, BITS).div(&BigFloat::from_f64(scale, BITS), BITS, RM)
}

/// `H ≤ δ'` in the reference: the composition is (ε', ·)-DP with slack δ'.
fn fits(epsilon: f64, k: u64, epsilon_prime: f64, delta_prime: f64) -> bool {
    reference_hockey_stick(epsilon, k, epsilon_prime) <= exact_big(delta_prime)
}

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
                // Above the exact value of the ideal e^ε = base; within the margin of the
                // value at the float inputs (fl(ln r) may sit just below k·fl(ln base), where
                // the ideal H is 0 but the float one is about 10⁻¹⁷).
                let at_floats =
                    reference_hockey_stick(each.epsilon(), u64::from(k), (r as f64).ln());
                assert!(
                    computed >= exact * (1.0 - 1e-15)
                        && exact_big(computed) <= at_floats.mul(&exact_big(1.0 + 2e-6), BITS, RM)
                        && computed <= exact * (1.0 + 2e-6) + 1e-15,
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
            // δ_i from the formula in f64 (accurate to ~10⁻¹⁵ relative), and the 256-bit
            // reference at the float inputs: `at` is k − 2i times ε rounded, just below the
            // exact product for some i, where the float H is about 10⁻²² and δ_0 is 0.
            let at_floats = reference_hockey_stick(epsilon, k, at);
            assert!(
                computed >= delta_i * (1.0 - 1e-12) - 1e-300
                    && exact_big(computed) <= at_floats.mul(&exact_big(1.0 + 2e-6), BITS, RM)
                    && computed <= delta_i * (1.0 + 2e-6) + 1e-20,
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

#[test]
fn the_reference_agrees_with_the_brute_force() {
    for k in 1..=10u32 {
        for r in [1u64, 2, 5, 27] {
            let (numerator, denominator) = brute_force(3, k, r);
            let exact = numerator as f64 / denominator as f64;
            let reference = reference_hockey_stick(3f64.ln(), u64::from(k), (r as f64).ln());
            // fl(ln 27) is just below 3·fl(ln 3): at the float inputs H is about 10⁻¹⁶ where
            // the ideal one is 0.
            let (lo, hi) = (
                exact_big(exact * (1.0 - 1e-12)),
                exact_big(exact * (1.0 + 1e-12) + 1e-15),
            );
            assert!(
                reference >= lo && reference <= hi,
                "k = {k}, r = {r}: {reference} vs {exact}"
            );
        }
    }
}

#[test]
fn at_delta_prime_zero_optimal_is_basic_composition_exactly() {
    // KOV at δ' = 0: H(ε') > 0 for every ε' < kε (the no-flip outcome), so ε' = kε. Before
    // the fix, 10^6 × 0.01 gave 419.98 and 1000 × 0.01 gave 9.98.
    let mut ks: Vec<u64> = (1..=20).collect();
    ks.extend([
        31,
        100,
        1000,
        4097,
        65_536,
        1_000_000,
        MAX_OPTIMAL_COMPOSITIONS,
    ]);
    for epsilon in [1e-6, 0.001, 0.01, 0.1, 0.5, 1.0, 3.0, 10.0] {
        let each = Privacy::pure(epsilon).unwrap();
        for &k in &ks {
            let optimal = optimal_composition(each, k, 0.0).unwrap();
            // kε rounded up: at least the exact product, and the smallest float that is.
            let kf = k as f64;
            assert!(
                kf.mul_add(epsilon, -optimal.epsilon()) <= 0.0,
                "{epsilon} × {k}"
            );
            assert!(
                kf.mul_add(epsilon, -optimal.epsilon().next_down()) > 0.0,
                "{epsilon} × {k}"
            );
            assert_eq!(optimal.delta(), 0.0, "{epsilon} × {k}");
            if k <= 1000 {
                let basic = basic_composition(&vec![each; k as usize]).unwrap();
                assert!(optimal.epsilon() <= basic.epsilon(), "{epsilon} × {k}");
            }
            let basic = optimal;
            // The inverse: the largest step whose k-fold basic composition fits.
            let step = optimal_step_epsilon(basic.epsilon(), k, 0.0, 0.0).unwrap();
            let refit = optimal_composition(Privacy::pure(step).unwrap(), k, 0.0).unwrap();
            assert!(
                refit.epsilon() <= basic.epsilon(),
                "{epsilon} × {k}: {step}"
            );
        }
    }
    // Approximate steps keep their δ: 1 − (1 − δ)^k.
    let approximate = optimal_composition(Privacy::new(0.1, 1e-9).unwrap(), 1000, 0.0).unwrap();
    assert_eq!(approximate.epsilon(), mul_up(1000.0, 0.1));
    assert!(approximate.delta() >= 1e-6 * (1.0 - 1e-6));
}

#[test]
fn the_accountant_at_delta_prime_zero_is_basic_composition() {
    let mut accountant = Accountant::new();
    for _ in 0..1000 {
        accountant.record("step", Privacy::pure(0.01).unwrap());
    }
    let optimal = accountant
        .total(CompositionRule::Optimal { delta_prime: 0.0 })
        .unwrap();
    let basic = accountant.total(CompositionRule::Basic).unwrap();
    assert_eq!(optimal.epsilon(), basic.epsilon());
    assert!(optimal.epsilon() >= 10.0, "{optimal:?}");
}

#[test]
fn delta_prime_below_the_old_floor_is_handled_exactly() {
    // δ' below 1e-300 was floored to 1e-300, which let ε' sit where H ≈ 1e-300.
    let each = Privacy::pure(1.0).unwrap();
    for delta_prime in [1e-300, 1e-310, 1e-320, f64::from_bits(1)] {
        for k in [1u64, 2, 10, 1000] {
            let optimal = optimal_composition(each, k, delta_prime).unwrap();
            assert!(
                fits(1.0, k, optimal.epsilon(), delta_prime),
                "δ' = {delta_prime:e}, k = {k}: ε' = {}",
                optimal.epsilon()
            );
            let delta = optimal_composition_delta(each, k, optimal.epsilon()).unwrap();
            assert!(delta > 0.0 || optimal.epsilon() >= k as f64);
        }
    }
    // The δ of a composition just below kε is tiny but never 0.
    let delta = optimal_composition_delta(Privacy::pure(0.01).unwrap(), 1_000_000, 9999.0).unwrap();
    assert!(delta > 0.0);
}

/// Draws (ε, k, δ') over the valid space: ε from 10⁻⁶ to 50, k from 1 to `max_k`
/// (log-uniform), δ' = 0, subnormal, or from 10⁻³⁰⁰ to ½ (log-uniform).
fn parameter_space(max_k: f64) -> impl Strategy<Value = (f64, u64, f64)> {
    let epsilon = (-6.0f64..1.7).prop_map(|e| 10f64.powf(e));
    let k = (0.0..max_k.log10()).prop_map(|e| 10f64.powf(e).round() as u64);
    let delta_prime = prop_oneof![
        1 => Just(0.0),
        1 => (1u64..(1u64 << 52)).prop_map(f64::from_bits),
        4 => (-300.0f64..-0.3).prop_map(|e| 10f64.powf(e)),
    ];
    (epsilon, k, delta_prime)
}

fn check_never_below_kov(epsilon: f64, k: u64, delta_prime: f64) -> Result<(), TestCaseError> {
    let each = Privacy::pure(epsilon).unwrap();
    let optimal = optimal_composition(each, k, delta_prime).unwrap();
    prop_assert!(
        fits(epsilon, k, optimal.epsilon(), delta_prime),
        "optimal {optimal:?} for {epsilon} × {k} at δ' = {delta_prime:e}: H in 256 bits exceeds δ'"
    );
    prop_assert!(optimal.epsilon() <= mul_up(to_f64_up(k), epsilon));
    // The inverse used by splitters: k steps of the returned ε₀ fit the total.
    let total = optimal.epsilon();
    if total > 1e-300 {
        let step = optimal_step_epsilon(total, k, 0.0, delta_prime).unwrap();
        prop_assert!(
            fits(step, k, total, delta_prime),
            "step {step} for {total} over {k} at δ' = {delta_prime:e}"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Optimal composition and its inverse are never below KOV's exact region.
    #[test]
    fn never_below_the_exact_kov_value((epsilon, k, delta_prime) in parameter_space(20_000.0)) {
        check_never_below_kov(epsilon, k, delta_prime)?;
    }
}

/// The longer run: k up to 10^6 (`cargo test -p privpac-mechanisms -- --ignored`).
#[test]
#[ignore = "long run of the KOV property test (several minutes)"]
fn never_below_the_exact_kov_value_long_run() {
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 256,
        ..ProptestConfig::default()
    });
    runner
        .run(
            &parameter_space(1_000_000.0),
            |(epsilon, k, delta_prime)| check_never_below_kov(epsilon, k, delta_prime),
        )
        .unwrap();
}

#[test]
fn the_sparse_vector_split_fits_exactly_at_tiny_delta() {
    // The splitter calls optimal_step_epsilon and checks with optimal_composition. At δ of
    // 1e-300 and below, where H once underflowed (and the split fell back to advanced or
    // basic composition), the optimal rule now wins: its split must fit KOV's region in
    // the 256-bit reference.
    for delta in [1e-6, 1e-300, 1e-320] {
        for c in [2u64, 400, 2000, 10_000] {
            let (each, rule) = crate::split_pure_budget(Privacy::new(1.0, delta).unwrap(), c);
            if let CompositionRule::Optimal { delta_prime } = rule {
                assert!(
                    fits(each, c, 1.0, delta_prime),
                    "δ = {delta:e}, c = {c}: ε₀ = {each}"
                );
            }
            assert!(
                each >= 1.0 / c as f64 * (1.0 - 1e-12),
                "{delta:e}, {c}: {each}"
            );
        }
    }
}
