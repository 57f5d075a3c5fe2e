//! Tests of the black-box auditor: power against mechanisms whose true ε is twice the
//! claim, the false-alarm rate on correct ones, and independence from the thread count.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::*;

/// Randomized response on one bit with the flip probability of `epsilon`.
fn respond(epsilon: f64) -> impl Fn(&u64, &mut ChaCha8Rng) -> u64 + Sync {
    let truth = epsilon.exp() / (1.0 + epsilon.exp());
    move |bit, rng| {
        if rng.random_bool(truth) {
            *bit
        } else {
            1 - *bit
        }
    }
}

/// A float Laplace sample of scale `scale` (inverse CDF; precision is irrelevant here).
fn laplace(scale: f64, rng: &mut ChaCha8Rng) -> f64 {
    let u: f64 = rng.random::<f64>() - 0.5;
    -scale * u.signum() * (1.0 - 2.0 * u.abs()).ln()
}

/// Report-noisy-max with Laplace noise of scale 2/ε on a score vector (ε-DP for
/// sensitivity-1 scores), or of scale `scale` directly.
fn noisy_max(scale: f64) -> impl Fn(&Vec<f64>, &mut ChaCha8Rng) -> u64 + Sync {
    move |scores, rng| {
        let mut best = (f64::NEG_INFINITY, 0u64);
        for (i, s) in scores.iter().enumerate() {
            let noisy = s + laplace(scale, rng);
            if noisy > best.0 {
                best = (noisy, i as u64);
            }
        }
        best.1
    }
}

#[test]
fn configuration_is_validated() {
    assert_eq!(BlackBoxConfig::new(0, 0.95, 1), Err(Error::ZeroTrials));
    assert!(matches!(
        BlackBoxConfig::new(MAX_TRIALS + 1, 0.95, 1),
        Err(Error::TooManyTrials { .. })
    ));
    for confidence in [0.0, 1.0, f64::NAN] {
        assert!(matches!(
            BlackBoxConfig::new(10, confidence, 1),
            Err(Error::InvalidConfidence { .. })
        ));
    }
    let config = BlackBoxConfig::new(10, 0.9, 1).unwrap();
    assert!(matches!(
        config.with_delta(1.0),
        Err(Error::InvalidDelta { .. })
    ));
    let pairs: [(u64, u64); 0] = [];
    assert_eq!(
        audit_finite(respond(1.0), &pairs, &config).unwrap_err(),
        Error::NoPairs
    );
}

/// Power at 10^5 runs per input against mechanisms whose true ε is twice the claim, over
/// 10 seeded audits each: every audit must refute the claim (the target is power
/// ≥ 0.9; at these sizes the bound is far above the claim, so 10 of 10 is expected).
#[test]
fn twice_the_claimed_epsilon_is_caught() {
    let mut caught = 0;
    for seed in 0..10 {
        let config = BlackBoxConfig::new(100_000, 0.95, seed).unwrap();
        // Randomized response claimed ε = 0.5, true ε = 1.
        let rr = audit_finite(respond(1.0), &[(0, 1)], &config).unwrap();
        // Laplace on a sensitivity-1 value claimed ε = 1 (scale 1), true ε = 2.
        let lap = audit_real(
            |v: &f64, rng: &mut ChaCha8Rng| v + laplace(0.5, rng),
            &[(0.0, 1.0)],
            &config,
        )
        .unwrap();
        caught += usize::from(rr.refutes(0.5)) + usize::from(lap.refutes(1.0));
    }
    assert_eq!(caught, 20);
}

/// A correct mechanism's certified bound stays below its true ε. With confidence 0.95 a
/// false alarm has probability ≤ 0.05 per audit; over 10 independent audits of each of
/// three mechanisms the chance of more than 4 alarms is below 3·10⁻³ (binomial tail), so
/// the test asserts at most 4.
#[test]
fn correct_mechanisms_raise_few_false_alarms() {
    let mut alarms = 0;
    for seed in 100..110 {
        let config = BlackBoxConfig::new(20_000, 0.95, seed).unwrap();
        let rr = audit_finite(respond(0.5), &[(0, 1)], &config).unwrap();
        let lap = audit_real(
            |v: &f64, rng: &mut ChaCha8Rng| v + laplace(1.0, rng),
            &[(0.0, 1.0)],
            &config,
        )
        .unwrap();
        let pairs = statdp_patterns(3);
        let rnm = audit_finite(noisy_max(2.0), &pairs, &config).unwrap();
        alarms += usize::from(rr.refutes(0.5))
            + usize::from(lap.refutes(1.0))
            + usize::from(rnm.refutes(1.0));
        // The bounds must still be informative: randomized response's certified bound is
        // close to its true ε = 0.5.
        assert!(rr.epsilon_lower_bound > 0.3, "{rr:?}");
    }
    assert!(alarms <= 4, "{alarms} false alarms in 30 audits");
}

/// Report-noisy-max with the noise of ε/2 instead of 2/ε-scale noise is caught on the
/// StatDP patterns (its true ε for 3 candidates is well above the claim of 0.5).
#[test]
fn report_noisy_max_with_too_little_noise_is_caught_on_statdp_patterns() {
    let config = BlackBoxConfig::new(100_000, 0.95, 3).unwrap();
    // Claimed ε = 0.5 needs scale 4; scale 1 is the broken twin.
    let broken = audit_finite(noisy_max(1.0), &statdp_patterns(3), &config).unwrap();
    assert!(broken.refutes(0.5), "{broken:?}");
    let correct = audit_finite(noisy_max(4.0), &statdp_patterns(3), &config).unwrap();
    assert!(!correct.refutes(0.5), "{correct:?}");
}

#[test]
fn approximate_dp_bounds_delta() {
    // With probability 0.1 the mechanism reveals its input; otherwise it outputs 2. It is
    // (0, 0.1)-DP and no better: δ(ε) = 0.1 for every ε.
    let leaky = |bit: &u64, rng: &mut ChaCha8Rng| if rng.random_bool(0.1) { *bit } else { 2 };
    // Seed 0; a certified bound above the true δ = 0.1 has probability ≤ 0.025 for any
    // seed (one-sided Clopper–Pearson at level (1 − 0.95)/2).
    let config = BlackBoxConfig::new(100_000, 0.95, 0).unwrap();
    let audit = audit_finite(leaky, &[(0, 1)], &config).unwrap();
    // The input-revealing output never occurs on the other input: a large ε bound at δ = 0.
    assert!(audit.epsilon_lower_bound > 5.0, "{audit:?}");
    let delta = audit.delta_lower_bound(1.0);
    assert!(delta > 0.09 && delta <= 0.1, "{delta}");
    // At δ = 0.1 nothing is refuted.
    let at_delta = audit_finite(leaky, &[(0, 1)], &config.with_delta(0.1).unwrap()).unwrap();
    assert!(!at_delta.refutes(0.0), "{at_delta:?}");
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let config = BlackBoxConfig::new(30_000, 0.9, 11).unwrap();
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                let lap = audit_real(
                    |v: &f64, rng: &mut ChaCha8Rng| v + laplace(1.0, rng),
                    &[(0.0, 1.0)],
                    &config,
                )
                .unwrap();
                let rnm = audit_finite(noisy_max(2.0), &statdp_patterns(4), &config).unwrap();
                (lap, rnm)
            })
    };
    assert_eq!(run(1), run(3));
}

#[test]
fn statdp_patterns_move_each_answer_by_at_most_one() {
    for len in [1, 2, 5] {
        let pairs = statdp_patterns(len);
        assert!(pairs.len() >= 2);
        for (a, b) in &pairs {
            assert_eq!(a.len(), len);
            assert!(a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1.0));
        }
    }
}
