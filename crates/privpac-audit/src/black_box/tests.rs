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
    assert_eq!(
        config.with_selection_runs(1),
        Err(Error::TooFewSelectionRuns { runs: 1 })
    );
    assert_eq!(
        config.with_screening_runs(0),
        Err(Error::TooFewSelectionRuns { runs: 0 })
    );
    assert!(matches!(
        config.with_selection_runs(MAX_TRIALS + 1),
        Err(Error::TooManyTrials { .. })
    ));
    assert_eq!(
        config.with_certified_pairs(0),
        Err(Error::ZeroCertifiedPairs)
    );
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

/// Screening, finalists and certification account for their runs, and only the certified
/// pairs are reported as bounds.
#[test]
fn many_pairs_are_screened_and_only_the_best_certified() {
    let pairs = statdp_patterns(4);
    assert!(pairs.len() > FINALISTS_PER_CERTIFIED);
    let config = BlackBoxConfig::new(20_000, 0.95, 5).unwrap();
    let audit = audit_finite(noisy_max(1.0), &pairs, &config).unwrap();
    assert_eq!(audit.pairs.len(), 1);
    assert_eq!(audit.selection.len(), pairs.len());
    let finalists = audit.selection.iter().filter(|s| s.finalist).count();
    assert_eq!(finalists, FINALISTS_PER_CERTIFIED);
    assert_eq!(audit.screening_runs, config.screening_runs);
    assert_eq!(
        audit.total_runs,
        pairs.len() as u64 * 2 * config.screening_runs
            + finalists as u64 * 2 * config.selection_runs
            + 2 * config.runs
    );
    // The certified pair is the finalist with the best selection score.
    let best = audit
        .selection
        .iter()
        .filter(|s| s.finalist)
        .max_by(|x, y| x.score.total_cmp(&y.score))
        .unwrap();
    assert_eq!(audit.pairs[0].pair, best.pair);
    // Certifying three pairs reports three bounds; with two pairs nothing is screened.
    let three = audit_finite(
        noisy_max(1.0),
        &pairs,
        &config.with_certified_pairs(3).unwrap(),
    )
    .unwrap();
    assert_eq!(three.pairs.len(), 3);
    let two = audit_finite(noisy_max(1.0), &pairs[..2], &config).unwrap();
    assert_eq!(two.screening_runs, 0);
    assert!(two.selection.iter().all(|s| s.finalist));
}

/// Selection luck is not certified. Two correct mechanisms at exactly their claimed ε:
/// randomized response offered as 12 identical pairs (the screening and the selection
/// pick the luckiest copy), and an output uniform on 200 values whatever the input (ε = 0,
/// so any positive bound is a false alarm; the selection picks the best-looking of
/// hundreds of top sets). At confidence 0.9 each audit raises a false alarm with probability ≤ 0.1, so over 100
/// seeded audits of each more than 20 alarms have probability below 10⁻³ (binomial
/// tail); the test asserts at most 20 for each.
#[test]
fn selection_luck_is_not_a_false_alarm() {
    let copies = vec![(0u64, 1u64); 12];
    let uniform = |_: &u64, rng: &mut ChaCha8Rng| rng.random_range(0..200u64);
    let (mut rr_alarms, mut uniform_alarms) = (0, 0);
    for seed in 0..100 {
        // Ranking runs (half the selection runs) as many as the certification runs.
        let config = BlackBoxConfig::new(4_000, 0.9, 500 + seed)
            .unwrap()
            .with_selection_runs(8_000)
            .unwrap();
        let rr = audit_finite(respond(0.5), &copies, &config).unwrap();
        rr_alarms += usize::from(rr.refutes(0.5));
        let flat = audit_finite(uniform, &[(0, 1)], &config).unwrap();
        uniform_alarms += usize::from(flat.refutes(0.0));
    }
    assert!(rr_alarms <= 20, "{rr_alarms} false alarms in 100 audits");
    assert!(
        uniform_alarms <= 20,
        "{uniform_alarms} false alarms in 100 audits"
    );
}

/// The batched API (one call per chunk, seeded by the chunk): a vectorized randomized
/// response is refuted at a claim below its ε and not at its ε, reproducibly; failures of
/// the mechanism are typed errors naming the cause.
#[test]
fn batched_mechanisms_are_audited_and_their_failures_reported() {
    use rand::{RngExt, SeedableRng};
    let respond = |epsilon: f64| {
        move |bit: &u64, n: u64, seed: u64| -> std::result::Result<Vec<u64>, String> {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let truth = epsilon.exp() / (1.0 + epsilon.exp());
            Ok((0..n)
                .map(|_| {
                    if rng.random_bool(truth) {
                        *bit
                    } else {
                        1 - *bit
                    }
                })
                .collect())
        }
    };
    let config = BlackBoxConfig::new(20_000, 0.95, 7).unwrap();
    let broken = audit_finite_batched(respond(1.0), &[(0, 1)], &config).unwrap();
    assert!(broken.refutes(0.5));
    let again = audit_finite_batched(respond(1.0), &[(0, 1)], &config).unwrap();
    assert_eq!(broken.epsilon_lower_bound, again.epsilon_lower_bound);
    let correct = audit_finite_batched(respond(0.5), &[(0, 1)], &config).unwrap();
    assert!(!correct.refutes(0.5));
    // Real outputs: a Laplace count with scale 1/2 claiming ε = 1.
    let laplace = |value: &f64, n: u64, seed: u64| -> std::result::Result<Vec<f64>, String> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        Ok((0..n)
            .map(|_| {
                let u: f64 = rng.random::<f64>() - 0.5;
                value - 0.5 * u.signum() * (1.0 - 2.0 * u.abs()).ln()
            })
            .collect())
    };
    assert!(
        audit_real_batched(laplace, &[(0.0, 1.0)], &config)
            .unwrap()
            .refutes(1.0)
    );
    // Failures.
    let short = |_: &u64, n: u64, _: u64| Ok(vec![0u64; n as usize - 1]);
    let error = audit_finite_batched(short, &[(0, 1)], &config).unwrap_err();
    assert!(
        matches!(&error, Error::Mechanism { reason } if reason.contains("outputs")),
        "{error}"
    );
    let raising = |_: &f64, _: u64, _: u64| -> std::result::Result<Vec<f64>, String> {
        Err("ValueError: boom".into())
    };
    let error = audit_real_batched(raising, &[(0.0, 1.0)], &config).unwrap_err();
    assert!(
        matches!(&error, Error::Mechanism { reason } if reason.contains("boom")),
        "{error}"
    );
}
