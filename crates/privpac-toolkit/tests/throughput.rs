//! Throughput measurements of the trial runner (ignored tests that print; no timed
//! assertions): trials per second of the generic learner on thresholds over 2^20 points on
//! 1 and 2 threads with the O(|X|) reference true error (the runner before the fast
//! path) and with the closed-form one, and the time of one trial on thresholds over 2^40
//! points. Run with
//! `cargo test --release -p privpac-toolkit --test integration throughput -- --ignored --nocapture`.

use std::time::Instant;

use privpac_accounting::Privacy;
use privpac_classes::{ConceptClass, Thresholds};
use privpac_learners::{GenericLearner, Learner};
use privpac_toolkit::{ExampleDistribution, Scenario, TrialConfig, run_trials, trial_rng};
use rayon::prelude::*;

fn scenario(size: u64) -> Scenario {
    Scenario::new(
        Box::new(Thresholds::new(size).unwrap()) as Box<dyn ConceptClass>,
        ExampleDistribution::Uniform,
        size / 2,
        0.0,
    )
    .unwrap()
}

/// Trials per second: each trial draws n = 1000 examples, runs the generic learner and
/// computes the true error, by the reference sum or the closed form.
fn trials_per_second(scenario: &Scenario, trials: usize, threads: usize, reference: bool) -> f64 {
    let learner = GenericLearner::new(Privacy::pure(1.0).unwrap()).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let run = || {
        pool.install(|| {
            (0..trials)
                .into_par_iter()
                .map(|i| {
                    let mut rng = trial_rng(1, i as u64);
                    let sample = scenario.sample(1000, &mut rng).unwrap();
                    let h = learner.learn(scenario.class(), &sample, &mut rng).unwrap();
                    if reference {
                        scenario.reference_true_error(&h)
                    } else {
                        scenario.try_true_error(&h).unwrap()
                    }
                })
                .sum::<f64>()
        })
    };
    run();
    let start = Instant::now();
    let total = run();
    let elapsed = start.elapsed().as_secs_f64();
    assert!(total.is_finite());
    trials as f64 / elapsed
}

#[test]
#[ignore = "prints throughput; run in release with --ignored --nocapture"]
#[allow(clippy::print_stdout)]
fn generic_learner_trials_per_second_on_thresholds_2_20() {
    let scenario = scenario(1 << 20);
    for threads in [1, 2] {
        let before = trials_per_second(&scenario, 100, threads, true);
        let after = trials_per_second(&scenario, 2000, threads, false);
        println!(
            "thresholds:2^20, n = 1000, generic ε = 1, {threads} thread(s): \
             reference true error {before:.0} trials/s, closed form {after:.0} trials/s"
        );
    }
}

#[test]
#[ignore = "prints timing; run in release with --ignored --nocapture"]
#[allow(clippy::print_stdout)]
fn one_generic_learner_trial_on_thresholds_2_40() {
    let scenario = scenario(1 << 40);
    let learner = GenericLearner::new(Privacy::pure(1.0).unwrap()).unwrap();
    let config = |trials| TrialConfig {
        trials,
        sample_size: 1000,
        alpha: 0.05,
        master_seed: 1,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    pool.install(|| run_trials(&scenario, &learner, config(100)).unwrap());
    let trials = 2000;
    let start = Instant::now();
    let outcome = pool.install(|| run_trials(&scenario, &learner, config(trials)).unwrap());
    let per_trial = start.elapsed().as_secs_f64() / trials as f64;
    println!(
        "thresholds:2^40, n = 1000, generic ε = 1, 1 thread: {:.1} µs per trial \
         (success rate {} at α = 0.05)",
        per_trial * 1e6,
        outcome.success_rate
    );
    // Where the time goes: sampling, learning, the true error.
    let (mut sampling, mut learning, mut error) = (0.0, 0.0, 0.0);
    for i in 0..trials {
        let mut rng = trial_rng(1, i as u64);
        let start = Instant::now();
        let sample = scenario.sample(1000, &mut rng).unwrap();
        let sampled = Instant::now();
        let h = learner.learn(scenario.class(), &sample, &mut rng).unwrap();
        let learned = Instant::now();
        let e = scenario.try_true_error(&h).unwrap();
        let done = Instant::now();
        assert!(e.is_finite());
        sampling += (sampled - start).as_secs_f64();
        learning += (learned - sampled).as_secs_f64();
        error += (done - learned).as_secs_f64();
    }
    let us = |t: f64| t / trials as f64 * 1e6;
    println!(
        "  per trial: sampling {:.1} µs, learning {:.1} µs, true error {:.2} µs",
        us(sampling),
        us(learning),
        us(error)
    );
}
