//! Tests of subsampled steps: the k-fold PLD in each direction against the exact hockey-stick
//! divergence of the k-fold product of the subsampled pair (enumerated by outcome counts),
//! one step against amplification by subsampling (Balle–Barthe–Gaboardi), a negative control
//! (one direction alone undershoots the other's exact δ), and what the pairs buy over
//! amplifying first.

use super::*;
use crate::accounting::{Subsampling, amplification_by_subsampling, optimal_composition};

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
