//! Tests of subsampled steps: the k-fold PLD in each direction against the exact hockey-stick
//! divergence of the k-fold product of the subsampled pair (enumerated by outcome counts),
//! one step against amplification by subsampling (Balle–Barthe–Gaboardi), a negative control
//! (one direction alone undershoots the other's exact δ), and what the pairs buy over
//! amplifying first.

use super::*;
use crate::pld_steps_composition;
use crate::{Subsampling, amplification_by_subsampling, optimal_composition};

/// The subsampled pair (upper, lower) of a base pair with group masses `p`, `q` (written
/// here from the definition, independently of `PldStep::pld`).
fn subsampled_pair(p: &[f64], q: &[f64], rate: f64, adding: bool) -> (Vec<f64>, Vec<f64>) {
    let mixed: Vec<f64> = p
        .iter()
        .zip(q)
        .map(|(a, b)| rate * a + (1.0 - rate) * b)
        .collect();
    if adding {
        (q.to_vec(), mixed)
    } else {
        (mixed, q.to_vec())
    }
}

fn canonical(epsilon: f64, delta: f64) -> (Vec<f64>, Vec<f64>) {
    let a = epsilon.exp() / (1.0 + epsilon.exp());
    (
        vec![delta, (1.0 - delta) * a, (1.0 - delta) * (1.0 - a), 0.0],
        vec![0.0, (1.0 - delta) * (1.0 - a), (1.0 - delta) * a, delta],
    )
}

/// `δ(ε) = Σ_o (U^k(o) − e^ε L^k(o))₊` over the k-fold product of a pair on g outcomes,
/// summed over count vectors with multinomial weights (in log space).
fn exact_k_fold_delta(upper: &[f64], lower: &[f64], k: u32, epsilon: f64) -> f64 {
    fn ln_factorial(n: u32) -> f64 {
        (1..=n).map(|i| (i as f64).ln()).sum()
    }
    fn visit(g: usize, left: u32, counts: &mut Vec<u32>, f: &mut dyn FnMut(&[u32])) {
        if g == 1 {
            counts.push(left);
            f(counts);
            counts.pop();
            return;
        }
        for c in 0..=left {
            counts.push(c);
            visit(g - 1, left - c, counts, f);
            counts.pop();
        }
    }
    let mut total = 0.0;
    visit(upper.len(), k, &mut Vec::new(), &mut |counts| {
        let weight = ln_factorial(k) - counts.iter().map(|&c| ln_factorial(c)).sum::<f64>();
        let log_mass = |masses: &[f64]| -> f64 {
            counts
                .iter()
                .zip(masses)
                .map(|(&c, &m)| if c == 0 { 0.0 } else { c as f64 * m.ln() })
                .sum()
        };
        let up = (weight + log_mass(upper)).exp();
        let low = (weight + epsilon + log_mass(lower)).exp();
        total += (up - low).max(0.0);
    });
    total
}

#[test]
fn subsampled_k_fold_plds_bound_the_exact_divergence_in_each_direction() {
    let interval = 1e-3;
    let cases = [
        (
            PldStep::private(Privacy::pure(1.0).unwrap()),
            canonical(1.0, 0.0),
            0.1,
            12,
        ),
        (
            PldStep::private(Privacy::new(0.5, 1e-3).unwrap()),
            canonical(0.5, 1e-3),
            0.3,
            10,
        ),
        (
            PldStep::private(Privacy::pure(2.0).unwrap()),
            canonical(2.0, 0.0),
            0.02,
            20,
        ),
    ];
    for (base, (p, q), rate, k) in cases {
        let step = base.poisson_subsampled(rate).unwrap();
        for adding in [false, true] {
            let (upper, lower) = subsampled_pair(&p, &q, rate, adding);
            let pld = step
                .pld(adding, interval)
                .unwrap()
                .self_compose(k as u64)
                .unwrap();
            for tenth in 0..30 {
                let epsilon = tenth as f64 * 0.05;
                let exact = exact_k_fold_delta(&upper, &lower, k, epsilon);
                let ours = pld.delta_for_epsilon(epsilon);
                assert!(
                    ours >= exact * (1.0 - 1e-9) - 1e-15,
                    "q = {rate}, k = {k}, adding = {adding}, ε = {epsilon}: {ours} < {exact}"
                );
                // Within the discretization: at most the exact δ at ε − k·Δ (plus the
                // nudge of each loss, 10⁻¹² relative), which may be below 0.
                let shifted = epsilon - k as f64 * interval * (1.0 + 1e-9);
                let loose = exact_k_fold_delta(&upper, &lower, k, shifted);
                assert!(
                    ours <= loose * (1.0 + 1e-9) + 1e-15,
                    "q = {rate}, k = {k}, adding = {adding}, ε = {epsilon}: {ours} > {loose}"
                );
            }
        }
    }
}

#[test]
fn subsampled_discrete_laplace_bounds_its_exact_divergence() {
    // Scale 2, Δ = 2: the groups are y ≤ 0, y = 1 and y ≥ 2.
    let (scale, interval, rate, k) = (2.0f64, 1e-3, 0.2, 8u32);
    let r = (-1.0 / scale).exp();
    let norm = (1.0 - r) / (1.0 + r);
    let p = [norm / (1.0 - r), norm * r, norm * r * r / (1.0 - r)];
    let q = [norm * r * r / (1.0 - r), norm * r, norm / (1.0 - r)];
    let step = PldStep::discrete_laplace(scale, 2)
        .unwrap()
        .poisson_subsampled(rate)
        .unwrap();
    for adding in [false, true] {
        let (upper, lower) = subsampled_pair(&p, &q, rate, adding);
        let pld = step
            .pld(adding, interval)
            .unwrap()
            .self_compose(k as u64)
            .unwrap();
        for tenth in 0..20 {
            let epsilon = tenth as f64 * 0.1;
            let exact = exact_k_fold_delta(&upper, &lower, k, epsilon);
            let ours = pld.delta_for_epsilon(epsilon);
            assert!(
                ours >= exact * (1.0 - 1e-9) - 1e-15,
                "ε = {epsilon}: {ours} < {exact}"
            );
            let shifted = epsilon - k as f64 * interval * (1.0 + 1e-9);
            let loose = exact_k_fold_delta(&upper, &lower, k, shifted);
            assert!(
                ours <= loose * (1.0 + 1e-9) + 1e-15,
                "ε = {epsilon}: {ours} > {loose}"
            );
        }
    }
}

#[test]
fn one_subsampled_step_is_amplification_by_subsampling() {
    let interval = 1e-5;
    for (epsilon, delta, rate) in [(1.0f64, 0.0, 0.01), (2.0, 1e-5, 0.1), (0.3, 1e-3, 0.5)] {
        let base = Privacy::new(epsilon, delta).unwrap();
        let amplified = amplification_by_subsampling(base, Subsampling::Poisson { rate }).unwrap();
        let step = PldStep::private(base).poisson_subsampled(rate).unwrap();
        // A slack of 10⁻¹⁵: at δ′ = 0 the target would be exactly the +∞ mass qδ, which the
        // PLD's float margin (relative 10⁻¹²) refuses.
        let total = pld_steps_composition(&[step], 1e-15, interval).unwrap();
        // The exact ε at δ = qδ is ln(1 + q(e^ε − 1)) (Balle–Barthe–Gaboardi Theorem 8 is
        // tight here; the slack moves it by less than 10⁻⁹); the PLD is within one grid step
        // above it.
        assert!(
            total.epsilon() >= amplified.epsilon() - 1e-9,
            "{total:?} vs {amplified:?}"
        );
        assert!(
            total.epsilon() <= amplified.epsilon() + interval,
            "{total:?} vs {amplified:?}"
        );
        assert!((total.delta() - rate * delta).abs() <= rate * delta * 1e-9 + 2e-15);
    }
}

#[test]
fn one_direction_alone_undershoots_the_other() {
    // Negative control: an accountant that composed only the addition direction would
    // report a δ(ε) below the exact δ of removal, which the two-direction report never does.
    let (rate, k, interval) = (0.3, 10u32, 1e-3);
    let (p, q) = canonical(0.5, 1e-3);
    let step = PldStep::private(Privacy::new(0.5, 1e-3).unwrap())
        .poisson_subsampled(rate)
        .unwrap();
    let adding_only = step
        .pld(true, interval)
        .unwrap()
        .self_compose(k as u64)
        .unwrap();
    let (upper, lower) = subsampled_pair(&p, &q, rate, false);
    let undershoots = (0..30).any(|tenth| {
        let epsilon = tenth as f64 * 0.05;
        adding_only.delta_for_epsilon(epsilon) < exact_k_fold_delta(&upper, &lower, k, epsilon)
    });
    assert!(undershoots);
    // The removal direction's +∞ mass alone, 1 − (1 − qδ)^k, exceeds the addition PLD's δ at
    // a large ε.
    let infinite = 1.0 - (1.0 - rate * 1e-3f64).powi(k as i32);
    assert!(adding_only.delta_for_epsilon(5.0) < infinite);
}

#[test]
fn subsampled_pairs_beat_amplifying_first() {
    // 1000 runs of a 1-DP mechanism on 1% Poisson subsamples, at δ = 10⁻⁶.
    let base = Privacy::pure(1.0).unwrap();
    let step = PldStep::private(base).poisson_subsampled(0.01).unwrap();
    let pairs = pld_steps_composition(&vec![step; 1000], 1e-6, 1e-4).unwrap();
    let amplified =
        amplification_by_subsampling(base, Subsampling::Poisson { rate: 0.01 }).unwrap();
    let first = optimal_composition(amplified, 1000, 1e-6).unwrap();
    assert!(
        pairs.epsilon() < 0.7 * first.epsilon(),
        "{pairs:?} vs {first:?}"
    );
    // Never below the exact optimum of the amplified guarantee minus what the pairs can
    // gain: a sanity floor (ε > 0.5 at these parameters).
    assert!(pairs.epsilon() > 0.5);
}

#[test]
fn mixed_lists_and_bad_inputs() {
    let plain = PldStep::private(Privacy::pure(0.1).unwrap());
    let subsampled = plain.poisson_subsampled(0.5).unwrap();
    assert_eq!(subsampled.rate(), 0.5);
    assert_eq!(subsampled.poisson_subsampled(0.5).unwrap().rate(), 0.25);
    // Subsampling helps a mixed list.
    let full = pld_steps_composition(&[plain; 20], 1e-6, 1e-3).unwrap();
    let mut mixed = vec![plain; 10];
    mixed.extend(vec![subsampled; 10]);
    let half = pld_steps_composition(&mixed, 1e-6, 1e-3).unwrap();
    assert!(half.epsilon() < full.epsilon());
    // A rate of 1 is the plain step.
    let same = pld_steps_composition(&[plain.poisson_subsampled(1.0).unwrap(); 20], 1e-6, 1e-3);
    assert_eq!(same.unwrap(), full);
    for rate in [0.0, -0.1, 1.5, f64::NAN] {
        assert!(matches!(
            plain.poisson_subsampled(rate),
            Err(Error::InvalidProbability { .. })
        ));
    }
    assert!(matches!(
        PldStep::discrete_laplace(0.0, 1),
        Err(Error::InvalidScale { .. })
    ));
    assert!(matches!(
        PldStep::discrete_laplace(1.0, 0),
        Err(Error::InvalidSensitivity { .. })
    ));
    assert!(matches!(
        PldStep::discrete_laplace(1.0, (1 << 20) + 1),
        Err(Error::InvalidParameter { .. })
    ));
    assert!(PldStep::discrete_laplace(1.0, 1 << 20).is_ok());
    assert!(matches!(
        pld_steps_composition(&[], 1e-6, 1e-3),
        Err(Error::InvalidCount { .. })
    ));
    assert!(matches!(
        pld_steps_composition(&[plain], 1.0, 1e-3),
        Err(Error::InvalidDelta { .. })
    ));
}

#[test]
fn hostile_parameters_are_refused_or_handled() {
    // A huge ε: the subsampled losses stay finite (ε + ln q), and the grid is refused.
    let huge = PldStep::private(Privacy::pure(1e6).unwrap())
        .poisson_subsampled(0.5)
        .unwrap();
    assert!(matches!(
        pld_steps_composition(&[huge], 1e-6, 1e-4),
        Err(Error::InvalidCount { .. })
    ));
    assert!((mixed_loss(1e6, 0.5) - (1e6 + 0.5f64.ln())).abs() < 1e-9);
    assert!((mixed_loss(800.0, 1e-3) - (800.0 + 1e-3f64.ln())).abs() < 1e-12);
    // The two formulas agree where they meet.
    let (below, above) = (
        (0.3 * 1f64.exp_m1()).ln_1p(),
        1.0 + (0.3 + 0.7 * (-1f64).exp()).ln(),
    );
    assert!((below - above).abs() < 1e-15);
    // Tiny and huge intervals, tiny rates.
    let plain = PldStep::private(Privacy::pure(1.0).unwrap());
    for interval in [1e-300, f64::MIN_POSITIVE] {
        assert!(matches!(
            pld_steps_composition(&[plain], 1e-6, interval),
            Err(Error::InvalidCount { .. })
        ));
        assert!(matches!(
            pld_steps_composition(&[plain.poisson_subsampled(0.1).unwrap()], 1e-6, interval),
            Err(Error::InvalidCount { .. })
        ));
    }
    let coarse = pld_steps_composition(&[plain; 3], 1e-6, 1e300).unwrap();
    assert!(coarse.epsilon() >= 3.0 - 1e-12);
    let tiny_rate = plain.poisson_subsampled(1e-300).unwrap();
    let total = pld_steps_composition(&[tiny_rate; 10], 1e-6, 1e-4).unwrap();
    assert!(total.epsilon() <= 1e-3, "{total:?}");
}

/// The two-point pair of an ε-BR mechanism whose largest loss is t: losses t and t − ε.
fn generalized_randomized_response(epsilon: f64, t: f64) -> (Vec<f64>, Vec<f64>) {
    let p = ((epsilon.exp() - t.exp()) / epsilon.exp_m1()).clamp(0.0, 1.0);
    (
        vec![p, 1.0 - p],
        vec![p * (-t).exp(), (1.0 - p) * (epsilon - t).exp()],
    )
}

/// δ(ε′) of the product of possibly different pairs, over all outcome sequences.
fn exact_product_delta(pairs: &[(Vec<f64>, Vec<f64>)], epsilon: f64) -> f64 {
    let mut states = vec![(1.0f64, 1.0f64)];
    for (p, q) in pairs {
        states = states
            .iter()
            .flat_map(|&(a, b)| p.iter().zip(q).map(move |(&x, &y)| (a * x, b * y)))
            .collect();
    }
    states
        .iter()
        .map(|&(a, b)| (a - epsilon.exp() * b).max(0.0))
        .sum()
}

#[test]
fn one_bounded_range_step_is_the_envelope_of_all_its_pairs() {
    for (epsilon, interval) in [(0.5f64, 1e-4), (1.0, 1e-3), (3.0, 1e-3)] {
        let groups = bounded_range_groups(epsilon, interval).unwrap();
        let p: f64 = groups.iter().map(|g| g.p).sum();
        let q: f64 = groups.iter().map(|g| g.q).sum();
        assert!(
            (p - 1.0).abs() < 1e-12 && (q - 1.0).abs() < 1e-12,
            "{p} {q}"
        );
        let step = PldStep::bounded_range(epsilon).unwrap();
        let pld = step.pld(false, interval).unwrap();
        let envelope = |a: f64| {
            let alpha = a.exp();
            if a >= epsilon {
                0.0
            } else if a <= -epsilon {
                1.0 - alpha
            } else {
                ((epsilon / 2.0).exp() - alpha.sqrt()).powi(2) / epsilon.exp_m1()
            }
        };
        for step_index in 0..=40 {
            let a = epsilon * (step_index as f64 / 20.0 - 1.0);
            let ours = pld.delta_for_epsilon(a);
            // At least the envelope (every pair's divergence), at most the envelope one
            // grid step earlier (the discretization moves each loss up by at most Δ).
            assert!(ours >= envelope(a) * (1.0 - 1e-9), "ε = {epsilon}, a = {a}");
            assert!(
                ours <= envelope(a - interval) * (1.0 + 1e-9) + 1e-15,
                "a = {a}"
            );
            // The envelope is the largest divergence over t, attained at t = (ε + a)/2.
            if a > -epsilon {
                let t = (epsilon + a) / 2.0;
                let pair = generalized_randomized_response(epsilon, t);
                let at_t = exact_product_delta(&[pair], a);
                assert!((at_t - envelope(a)).abs() < 1e-12, "a = {a}: {at_t}");
            }
        }
    }
}

#[test]
fn bounded_range_compositions_bound_every_sequence_of_pairs() {
    use rand::{RngExt, SeedableRng};
    let (epsilon, interval) = (0.8f64, 1e-3);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
    for k in [1usize, 3, 8] {
        let composed = PldStep::bounded_range(epsilon)
            .unwrap()
            .pld(false, interval)
            .unwrap()
            .self_compose(k as u64)
            .unwrap();
        // Equal t (the non-adaptive worst cases) and mixed t (what adaptivity can choose).
        let mut sequences: Vec<Vec<f64>> = [0.0, 0.1, 0.5, 0.9, 1.0]
            .iter()
            .map(|f| vec![f * epsilon; k])
            .collect();
        for _ in 0..5 {
            sequences.push((0..k).map(|_| rng.random_range(0.0..epsilon)).collect());
        }
        for ts in sequences {
            let pairs: Vec<_> = ts
                .iter()
                .map(|&t| generalized_randomized_response(epsilon, t))
                .collect();
            for tenth in 0..=20 {
                let a = tenth as f64 * 0.05 * k as f64 * epsilon;
                let exact = exact_product_delta(&pairs, a);
                let ours = composed.delta_for_epsilon(a);
                assert!(
                    ours >= exact * (1.0 - 1e-9) - 1e-15,
                    "k = {k}, t = {ts:?}, a = {a}"
                );
            }
        }
    }
}

#[test]
fn bounded_range_bounds_the_exponential_mechanism_itself() {
    // The ideal exponential mechanism at ε = 1 on three candidates, scores of sensitivity 1
    // on neighbouring inputs (differences in [−1, 1]), composed three times (27 outputs).
    let epsilon = 1.0f64;
    let softmax = |scores: &[f64]| -> Vec<f64> {
        let w: Vec<f64> = scores.iter().map(|s| (epsilon * s / 2.0).exp()).collect();
        let total: f64 = w.iter().sum();
        w.iter().map(|x| x / total).collect()
    };
    let cases = [
        ([3.0, 1.0, 0.0], [2.0, 2.0, 1.0]),
        ([0.0, 0.0, 5.0], [1.0, 1.0, 4.0]),
        ([1.0, 2.0, 3.0], [1.0, 2.0, 2.0]),
    ];
    let interval = 1e-3;
    let step = PldStep::bounded_range(epsilon).unwrap();
    let composed = step.pld(false, interval).unwrap().self_compose(3).unwrap();
    let canonical = PldStep::private(Privacy::pure(epsilon).unwrap())
        .pld(false, interval)
        .unwrap()
        .self_compose(3)
        .unwrap();
    for (d, d_prime) in cases {
        for (x, y) in [(d, d_prime), (d_prime, d)] {
            let pair = (softmax(&x), softmax(&y));
            let pairs = vec![pair.clone(), pair.clone(), pair];
            for tenth in 0..=30 {
                let a = tenth as f64 * 0.1;
                let exact = exact_product_delta(&pairs, a);
                assert!(composed.delta_for_epsilon(a) >= exact * (1.0 - 1e-9) - 1e-15);
            }
        }
    }
    // And it is tighter than the canonical ε-DP pair.
    assert!(composed.delta_for_epsilon(1.5) < 0.8 * canonical.delta_for_epsilon(1.5));
}

#[test]
fn a_single_guess_of_t_undershoots() {
    // Negative control: accounting every step as the pair at t = ε/2 (the symmetric guess)
    // is below the exact δ of the steps at t = 0.9ε (the extremes t = 0 and t = ε are
    // trivial pairs).
    let (epsilon, k) = (0.8f64, 8usize);
    let guess = generalized_randomized_response(epsilon, epsilon / 2.0);
    let truth = generalized_randomized_response(epsilon, 0.9 * epsilon);
    let undershoots = (0..=20).any(|tenth| {
        let a = tenth as f64 * 0.05 * k as f64 * epsilon;
        exact_product_delta(&vec![guess.clone(); k], a)
            < exact_product_delta(&vec![truth.clone(); k], a) * (1.0 - 1e-6)
    });
    assert!(undershoots);
}

#[test]
fn subsampled_bounded_range_steps_bound_their_subsampled_pairs() {
    let (epsilon, rate, k, interval) = (1.0f64, 0.2, 6usize, 1e-3);
    let step = PldStep::bounded_range(epsilon)
        .unwrap()
        .poisson_subsampled(rate)
        .unwrap();
    for adding in [false, true] {
        let composed = step
            .pld(adding, interval)
            .unwrap()
            .self_compose(k as u64)
            .unwrap();
        for t in [0.0, 0.3, 0.5, 1.0] {
            let (p, q) = generalized_randomized_response(epsilon, t);
            let pair = subsampled_pair(&p, &q, rate, adding);
            let pairs = vec![pair; k];
            for tenth in 0..=20 {
                let a = tenth as f64 * 0.1;
                let exact = exact_product_delta(&pairs, a);
                let ours = composed.delta_for_epsilon(a);
                assert!(
                    ours >= exact * (1.0 - 1e-9) - 1e-15,
                    "adding {adding}, t {t}, a {a}"
                );
            }
        }
    }
}

#[test]
fn bounded_range_steps_compose_to_less_than_pure_steps() {
    // 100 exponential mechanisms at ε = 0.1, δ = 10⁻⁶ (on the grid 10⁻³: a bounded-range
    // PLD fills all its 2ε/Δ cells, and the grid 10⁻⁴ would exceed MAX_PLD_WORK).
    let each = 0.1;
    let br =
        pld_steps_composition(&[PldStep::bounded_range(each).unwrap(); 100], 1e-6, 1e-3).unwrap();
    let pure = optimal_composition(Privacy::pure(each).unwrap(), 100, 1e-6).unwrap();
    assert!(br.epsilon() < 0.75 * pure.epsilon(), "{br:?} vs {pure:?}");
    assert!(matches!(
        PldStep::bounded_range(0.0),
        Err(Error::InvalidEpsilon { .. })
    ));
    assert!(matches!(
        pld_steps_composition(&[PldStep::bounded_range(1.0).unwrap()], 1e-6, 1e-9),
        Err(Error::InvalidCount { .. })
    ));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Over the parameter space (ε from 0.01 to 4, δ from 0 to 10⁻², rates from 10⁻³ to 1,
    /// k up to 5, any ε′), the subsampled PLD of an (ε, δ) step bounds the exact divergence
    /// of the k-fold subsampled pair in both directions, and the bounded-range PLD bounds
    /// every sequence of two-point pairs it stands for.
    #[test]
    fn plds_bound_their_exact_divergences_everywhere(
        epsilon in 0.01f64..4.0,
        delta_exponent in -9i32..=-2,
        pure in proptest::prelude::any::<bool>(),
        rate_exponent in -3.0f64..=0.0,
        k in 1usize..=5,
        fractions in proptest::collection::vec(0.0f64..=1.0, 5),
        at in -1.0f64..1.0,
    ) {
        let interval = 1e-3;
        let delta = if pure { 0.0 } else { 10f64.powi(delta_exponent) };
        let rate = 10f64.powf(rate_exponent).min(1.0);
        let a = at * k as f64 * epsilon;
        let step = PldStep::private(Privacy::new(epsilon, delta).unwrap())
            .poisson_subsampled(rate)
            .unwrap();
        let (p, q) = canonical(epsilon, delta);
        for adding in [false, true] {
            let composed = step.pld(adding, interval).unwrap().self_compose(k as u64).unwrap();
            let pair = subsampled_pair(&p, &q, rate, adding);
            let exact = exact_product_delta(&vec![pair; k], a);
            let ours = composed.delta_for_epsilon(a);
            proptest::prop_assert!(ours >= exact * (1.0 - 1e-9) - 1e-15, "{ours} < {exact}");
        }
        let br = PldStep::bounded_range(epsilon)
            .unwrap()
            .pld(false, interval)
            .unwrap()
            .self_compose(k as u64)
            .unwrap();
        let pairs: Vec<_> = fractions[..k]
            .iter()
            .map(|f| generalized_randomized_response(epsilon, f * epsilon))
            .collect();
        let exact = exact_product_delta(&pairs, a);
        let ours = br.delta_for_epsilon(a);
        proptest::prop_assert!(ours >= exact * (1.0 - 1e-9) - 1e-15, "BR: {ours} < {exact}");
    }
}
