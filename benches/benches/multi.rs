//! Benches of the multi-learners: `ParityLearner` on `{0,1}^64` with k = 1024 labels and
//! n = 10^4 examples against the per-column elimination, and `PointLearner` over an
//! implicit domain of 2^40 (and 2^20) points with k = 256 and 1024 labels, including its
//! label-vector step against a row-by-row reference; `SanitizerMultiLearner` (Algorithm 2)
//! on thresholds over [1024] with the tree sanitizer for k = 16 and 256 (the cover is built
//! once, so the per-column cost is one error profile and one selection).

use std::collections::HashMap;
use std::hint::black_box;

use benches::{INPUT_SEED, bench_rng, config};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use privpac_accounting::Privacy;
use privpac_classes::{Domain, Parities, Points, Thresholds};
use privpac_multi::{
    MultiLabeledSample, MultiLearner, ParityLearner, PointLearner, SanitizerMultiLearner,
    heavy_label_scores, select_most_frequent,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const EXAMPLES: usize = 10_000;

/// n uniform points of `{0,1}^64` labeled by k random parities.
fn parity_sample(k: usize) -> (Parities, MultiLabeledSample) {
    let class = Parities::new(64).expect("valid");
    let mut rng = ChaCha8Rng::seed_from_u64(INPUT_SEED ^ 5);
    let targets: Vec<u64> = (0..k).map(|_| rng.random()).collect();
    let points: Vec<u64> = (0..EXAMPLES).map(|_| rng.random()).collect();
    let sample = MultiLabeledSample::label_with(&class, points, &targets).expect("valid");
    (class, sample)
}

fn parity_learner(c: &mut Criterion) {
    let learner = ParityLearner::new(Privacy::new(1.0, 1e-6).expect("valid")).expect("valid");
    let mut rng = bench_rng();
    let mut group = c.benchmark_group("parity_learner");
    group.sample_size(10);
    for k in [256usize, 1024, 4096] {
        let (class, sample) = parity_sample(k);
        group.bench_function(BenchmarkId::new("fast", k), |b| {
            b.iter(|| learner.learn(&class, black_box(&sample), &mut rng))
        });
        if k == 1024 {
            group.bench_function(BenchmarkId::new("reference", k), |b| {
                b.iter(|| {
                    let votes = learner.votes_reference(&class, black_box(&sample))?;
                    select_most_frequent(learner.selection(), &votes, k, &mut rng)
                })
            });
        }
    }
    group.finish();
}

/// n points of a domain of `2^bits` points: 90% on 20 heavy points (weights 1/i), the rest
/// uniform; k targets, half of them heavy points.
fn point_sample(bits: u32, k: usize) -> (Points, MultiLabeledSample, Vec<u64>) {
    let class = Points::new(Domain::ordered(1 << bits).expect("valid"));
    let mut rng = ChaCha8Rng::seed_from_u64(INPUT_SEED ^ 7);
    let heavy: Vec<u64> = (0..20).map(|_| rng.random_range(0..1u64 << bits)).collect();
    let harmonic: f64 = (1..=20).map(|i| 1.0 / f64::from(i)).sum();
    let points: Vec<u64> = (0..EXAMPLES)
        .map(|_| {
            if rng.random_bool(0.9) {
                let mut u = rng.random::<f64>() * harmonic;
                for (i, &x) in heavy.iter().enumerate() {
                    u -= 1.0 / (i + 1) as f64;
                    if u <= 0.0 {
                        return x;
                    }
                }
                heavy[19]
            } else {
                rng.random_range(0..1u64 << bits)
            }
        })
        .collect();
    let targets: Vec<u64> = (0..k)
        .map(|j| {
            if j % 2 == 0 {
                heavy[j % 20]
            } else {
                rng.random_range(0..1u64 << bits)
            }
        })
        .collect();
    let sample = MultiLabeledSample::label_with(&class, points, &targets).expect("valid");
    let mut sorted = heavy;
    sorted.sort_unstable();
    sorted.dedup();
    (class, sample, sorted)
}

fn point_learner(c: &mut Criterion) {
    let learner = PointLearner::new(Privacy::new(1.0, 1e-6).expect("valid"), 0.1).expect("valid");
    let mut rng = bench_rng();
    let mut group = c.benchmark_group("point_learner");
    group.sample_size(10);
    for (bits, k) in [(40u32, 256usize), (40, 1024), (20, 1024)] {
        let (class, sample, _) = point_sample(bits, k);
        group.bench_function(BenchmarkId::new(format!("fast_x2^{bits}"), k), |b| {
            b.iter(|| learner.learn(&class, black_box(&sample), &mut rng))
        });
    }
    group.finish();
}

/// The reference for the label-vector step: each heavy row's k labels read one bit at a
/// time, then the same closed-form scores.
fn label_scores_reference(sample: &MultiLabeledSample, heavy: &[u64]) -> (i64, i64) {
    let mut top: Vec<(i64, i64)> = Vec::new();
    for &x in heavy {
        let mut counts: HashMap<Vec<bool>, i64> = HashMap::new();
        for (i, _) in sample.points().iter().enumerate().filter(|&(_, &p)| p == x) {
            *counts.entry(sample.row(i)).or_default() += 1;
        }
        let mut values: Vec<i64> = counts.into_values().collect();
        values.sort_unstable_by(|a, b| b.cmp(a));
        top.push((
            values.first().copied().unwrap_or(0),
            values.get(1).copied().unwrap_or(0),
        ));
    }
    let best = top.iter().map(|t| t.0).min().unwrap_or(0);
    let runner_up = (0..top.len())
        .map(|i| {
            let others = (0..top.len()).filter(|&o| o != i).map(|o| top[o].0).min();
            top[i].1.min(others.unwrap_or(i64::MAX))
        })
        .max()
        .unwrap_or(0);
    (best, runner_up)
}

fn point_label_scores(c: &mut Criterion) {
    let (_, sample, heavy) = point_sample(40, 1024);
    let fast = heavy_label_scores(&sample, &heavy).expect("valid");
    assert_eq!(
        (fast.best_score, fast.runner_up),
        label_scores_reference(&sample, &heavy),
        "the fast path and the reference disagree"
    );
    let mut group = c.benchmark_group("point_label_scores");
    group.sample_size(10);
    group.bench_function(BenchmarkId::new("fast", 1024), |b| {
        b.iter(|| heavy_label_scores(black_box(&sample), &heavy))
    });
    group.bench_function(BenchmarkId::new("reference", 1024), |b| {
        b.iter(|| label_scores_reference(black_box(&sample), &heavy))
    });
    group.finish();
}

/// Algorithm 2 with the binary-tree sanitizer on thresholds over [1024]: n = 10^4, k
/// random thresholds.
fn sanitizer_multi_learner(c: &mut Criterion) {
    let class = Thresholds::new(1024).expect("valid");
    let mut group = c.benchmark_group("sanitizer_multi_learner");
    group.sample_size(10);
    for k in [16usize, 256] {
        let mut inputs = ChaCha8Rng::seed_from_u64(INPUT_SEED ^ 11);
        let targets: Vec<u64> = (0..k).map(|_| inputs.random_range(0..1024)).collect();
        let points: Vec<u64> = (0..EXAMPLES)
            .map(|_| inputs.random_range(0..1024))
            .collect();
        let sample = MultiLabeledSample::label_with(&class, points, &targets).expect("valid");
        let learner = SanitizerMultiLearner::threshold_tree(Privacy::pure(1.0).expect("valid"), k)
            .expect("valid");
        let mut rng = bench_rng();
        group.bench_function(BenchmarkId::new("tree", k), |b| {
            b.iter(|| learner.learn(&class, black_box(&sample), &mut rng))
        });
    }
    group.finish();
}

criterion_group! {
    name = multi;
    config = config();
    targets = parity_learner, point_learner, point_label_scores, sanitizer_multi_learner
}
criterion_main!(multi);
