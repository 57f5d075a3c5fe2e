//! Benches of the lab: one trial of the generic learner (draw n = 10^3 examples, learn with
//! ε = 1, exact true error) with the closed-form true error against the O(|X|) reference sum,
//! the true error of one hypothesis alone, the trial runner's parallel throughput, and the
//! whole k-curves of the point multi-learner on points over 2^40 (the heavy-point default
//! scenario, listed support) and of the parity multi-learner on parities over {0,1}^32 (the
//! structured closed forms) for k = 1, 8, 64, 512 with 20 trials per size: the targets of
//! "the multi-label lab, independent of |X|" (under 60 s each on two cores).
//!
//! Every iteration of a `trial` bench runs the next trial of the master seed 1 (trial `i`
//! uses ChaCha8 stream `i`, as [`run_trials`] does), so the median is over many different
//! samples, not one.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use privpac_accounting::Privacy;
use privpac_classes::{ConceptClass, Hypothesis, Thresholds};
use privpac_learners::{GenericLearner, Learner, Predictor};
use privpac_toolkit::{ExampleDistribution, Scenario, TrialConfig, run_trials, trial_rng};

use benches::config;

/// Examples per trial.
const N: usize = 1000;

/// Thresholds over `size` points, uniform examples, target in the middle, no noise.
fn scenario(size: u64) -> Scenario {
    Scenario::new(
        Box::new(Thresholds::new(size).expect("valid")) as Box<dyn ConceptClass>,
        ExampleDistribution::Uniform,
        size / 2,
        0.0,
    )
    .expect("valid")
}

/// One trial: sample, learn, true error (closed form, or the reference sum over X).
fn trial(scenario: &Scenario, learner: &GenericLearner, index: u64, reference: bool) -> f64 {
    let mut rng = trial_rng(1, index);
    let sample = scenario.sample(N, &mut rng).expect("valid size");
    let hypothesis = learner
        .learn(scenario.class(), &sample, &mut rng)
        .expect("learns");
    if reference {
        scenario.reference_true_error(&hypothesis)
    } else {
        scenario.try_true_error(&hypothesis).expect("closed form")
    }
}

fn one_trial(c: &mut Criterion) {
    let learner = GenericLearner::new(Privacy::pure(1.0).expect("valid")).expect("valid");
    let mut group = c.benchmark_group("trial");
    // 2^20 points: the domain is materialized, so the reference sum can run; 2^40 points:
    // only the closed form exists (issue 12's target: under 50 µs per trial).
    for (bits, with_reference) in [(20u32, true), (40, false)] {
        let scenario = scenario(1 << bits);
        let size = 1u64 << bits;
        let mut index = 0u64;
        group.bench_function(BenchmarkId::new("fast", size), |b| {
            b.iter(|| {
                index += 1;
                trial(&scenario, &learner, black_box(index), false)
            })
        });
        if with_reference {
            group.bench_function(BenchmarkId::new("reference", size), |b| {
                b.iter(|| {
                    index += 1;
                    trial(&scenario, &learner, black_box(index), true)
                })
            });
        }
    }
    group.finish();
}

/// The exact true error of one threshold hypothesis over 2^20 uniform points: the closed
/// form (a symmetric difference of two ranges) against the sum over the domain.
fn true_error(c: &mut Criterion) {
    let scenario = scenario(1 << 20);
    let hypothesis = Predictor::from(Hypothesis::Concept { id: 300_000 });
    let mut group = c.benchmark_group("true_error");
    group.bench_function(BenchmarkId::new("fast", 1u64 << 20), |b| {
        b.iter(|| scenario.try_true_error(black_box(&hypothesis)))
    });
    group.bench_function(BenchmarkId::new("reference", 1u64 << 20), |b| {
        b.iter(|| scenario.reference_true_error(black_box(&hypothesis)))
    });
    group.finish();
}

/// The trial runner on all threads (`fast`) against one thread (`reference`): 256 trials
/// of the generic learner on thresholds over 2^10 points with n = 500; the ratio is the
/// parallel speed-up.
fn trial_runner(c: &mut Criterion) {
    let scenario = scenario(1024);
    let learner = GenericLearner::new(Privacy::pure(1.0).expect("valid")).expect("valid");
    let config = TrialConfig {
        trials: 256,
        sample_size: 500,
        alpha: 0.05,
        master_seed: 1,
    };
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    let mut group = c.benchmark_group("trials");
    group.bench_function(BenchmarkId::new("reference", config.trials), |b| {
        b.iter(|| one_thread.install(|| run_trials(&scenario, &learner, config)))
    });
    group.bench_function(BenchmarkId::new("fast", config.trials), |b| {
        b.iter(|| run_trials(&scenario, &learner, config))
    });
    group.finish();
}

/// One whole k-curve (the CLI's `sample-complexity --k 1,8,64,512 --trials 20`).
fn k_curve(class: &str, spec: &str, heavy: bool) -> privpac_toolkit::KCurve {
    let class_spec: privpac_toolkit::ClassSpec = class.parse().expect("valid class");
    let spec: privpac_toolkit::MultiLearnerSpec = spec.parse().expect("valid spec");
    let total = Privacy::new(1.0, 1e-6).expect("valid");
    let params = privpac_toolkit::LearnerParams::default();
    let scenario_for = |k: usize| {
        if heavy {
            privpac_toolkit::MultiScenario::heavy_points(class_spec.build()?, k, 1, 0.0)
        } else {
            privpac_toolkit::MultiScenario::new(
                class_spec.build()?,
                &ExampleDistribution::Uniform,
                privpac_toolkit::MultiTargets::Random { k, seed: 1 },
                0.0,
            )
        }
    };
    let learner_for =
        |k: usize| privpac_toolkit::build_multi_learner(spec, total, k, &params, 1 << 20);
    privpac_toolkit::sample_complexity_curve(
        &[1, 8, 64, 512],
        &scenario_for,
        &learner_for,
        privpac_toolkit::SearchConfig {
            alpha: 0.1,
            beta: 0.1,
            trials: 20,
            master_seed: 1,
            start: 4,
            max_size: 1 << 20,
        },
        &mut |_, _| {},
    )
    .expect("the curve runs")
}

fn k_curves(c: &mut Criterion) {
    let mut group = c.benchmark_group("k_curve");
    group.sample_size(10);
    group.bench_function("point/points:2^40", |b| {
        b.iter(|| black_box(k_curve("points:1099511627776", "point", true)))
    });
    group.bench_function("parity/parities:32", |b| {
        b.iter(|| black_box(k_curve("parities:32", "parity", false)))
    });
    group.finish();
}

criterion_group! {
    name = engine;
    config = config();
    targets = one_trial, true_error, trial_runner, k_curves
}
criterion_main!(engine);
