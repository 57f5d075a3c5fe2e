//! Benches of the sanitizers: MWEM (both variants) and private multiplicative weights over
//! explicit histograms of 2^12 and 2^16 points with 1024 threshold queries (50 MWEM
//! rounds); MWEM's two variants on the accuracy test's data (20,000 exponential points over
//! 1,024, all thresholds, T = 20); the point-function sanitizer over an implicit domain
//! of 2^40 points with n = 10^5; and the binary-tree threshold sanitizer over 2^20 points
//! with n = 10^5, as the sanitizer learner calls it (`sanitize_threshold_xor`: 2^20 − 1
//! exact noise draws, then the consistent CDF as pieces). The two sanitizations that
//! dominate the coverage table's slowest cells at 2^40 points (`sanitizer:mwem` on
//! intervals, `sanitizer:pmw` on points): MWEM on `INTERVAL ⊕ INTERVAL` by structure
//! (T = 20, n = 332 uniform points, the cell's measured n) and private multiplicative
//! weights on `POINT ⊕ POINT` by structure (α = 0.1, n = 1024 uniform points).

use std::hint::black_box;

use benches::{INPUT_SEED, bench_rng, config};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use privpac_accounting::Privacy;
use privpac_classes::{Domain, Points, ThresholdStructure, Thresholds};
use privpac_sanitizers::{
    Mwem, MwemVariant, PointSanitizer, PrivateMultiplicativeWeights, Sanitizer, ThresholdSanitizer,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const QUERIES: u64 = 1024;
const EXAMPLES: usize = 100_000;

/// `n` seeded points, roughly exponential over `[0, size)`.
fn skewed_points(size: u64, n: usize) -> Vec<u64> {
    let mut rng = ChaCha8Rng::seed_from_u64(INPUT_SEED ^ 3);
    (0..n)
        .map(|_| {
            let u: f64 = rng.random();
            ((-u.ln() * size as f64 / 8.0) as u64).min(size - 1)
        })
        .collect()
}

fn multiplicative_weights(c: &mut Criterion) {
    let mut group = c.benchmark_group("multiplicative_weights");
    group.sample_size(10);
    // The default (replay ×100, last histogram) and the theory variant (average of iterates).
    let mwem = Mwem::new(Privacy::pure(1.0).expect("valid"), 50).expect("valid");
    let theory = mwem
        .clone()
        .with_variant(MwemVariant::AverageOfIterates)
        .expect("valid");
    let pmw =
        PrivateMultiplicativeWeights::new(Privacy::pure(1.0).expect("valid"), 0.1).expect("valid");
    let mut rng = bench_rng();
    for bits in [12u32, 16] {
        let size = 1u64 << bits;
        let class = Thresholds::new(size).expect("valid");
        let step = size / QUERIES;
        let queries: Vec<u64> = (0..QUERIES).map(|i| i * step + step / 2).collect();
        let data = skewed_points(size, EXAMPLES);
        group.bench_function(BenchmarkId::new("mwem_t50_average", size), |b| {
            b.iter(|| theory.run(&class, black_box(&queries), &data, &mut rng))
        });
        group.bench_function(BenchmarkId::new("mwem_t50_replay100", size), |b| {
            b.iter(|| mwem.run(&class, black_box(&queries), &data, &mut rng))
        });
        group.bench_function(BenchmarkId::new("pmw", size), |b| {
            b.iter(|| pmw.run(&class, black_box(&queries), &data, &mut rng))
        });
    }
    group.finish();
}

/// The accuracy test's data: 20,000 draws of `⌊Exp(mean 50)⌋` clipped to `[0, 1023]`.
fn exponential_points() -> Vec<u64> {
    let mut rng = ChaCha8Rng::seed_from_u64(INPUT_SEED ^ 5);
    (0..20_000)
        .map(|_| {
            let u: f64 = rng.random();
            ((-50.0 * (1.0 - u).ln()).floor() as u64).min(1023)
        })
        .collect()
}

/// MWEM's variants where the issue measured them: 1,024 thresholds, ε = 1, T = 20.
fn mwem_variants(c: &mut Criterion) {
    let mut group = c.benchmark_group("mwem_variants");
    group.sample_size(10);
    let class = Thresholds::new(1024).expect("valid");
    let data = exponential_points();
    let replay = Mwem::new(Privacy::pure(1.0).expect("valid"), 20).expect("valid");
    let theory = replay
        .clone()
        .with_variant(MwemVariant::AverageOfIterates)
        .expect("valid");
    let mut rng = bench_rng();
    group.bench_function(BenchmarkId::new("average_of_iterates", 1024), |b| {
        b.iter(|| theory.sanitize(&class, black_box(&data), &mut rng))
    });
    group.bench_function(BenchmarkId::new("replay100", 1024), |b| {
        b.iter(|| replay.sanitize(&class, black_box(&data), &mut rng))
    });
    group.finish();
}

fn point_sanitizer(c: &mut Criterion) {
    let domain = Domain::ordered(1 << 40).expect("valid");
    let class = Points::new(domain);
    let sanitizer =
        PointSanitizer::new(Privacy::new(1.0, 1e-6).expect("valid"), 0.05).expect("valid");
    let data = skewed_points(1 << 40, EXAMPLES);
    let mut rng = bench_rng();
    let mut group = c.benchmark_group("point_sanitizer");
    group.bench_function(BenchmarkId::new("fast", EXAMPLES), |b| {
        b.iter(|| sanitizer.sanitize(&class, black_box(&data), &mut rng))
    });
    group.finish();
}

fn threshold_tree(c: &mut Criterion) {
    const SIZE: u64 = 1 << 20;
    let sanitizer = ThresholdSanitizer::new(Privacy::pure(1.0).expect("valid")).expect("valid");
    let data = skewed_points(SIZE, EXAMPLES);
    let mut rng = bench_rng();
    let mut group = c.benchmark_group("threshold_tree");
    group.sample_size(20);
    group.bench_function(BenchmarkId::new("pieces_2^20", EXAMPLES), |b| {
        b.iter(|| {
            sanitizer.sanitize_threshold_xor(
                ThresholdStructure::Plain(SIZE),
                black_box(&data),
                &mut rng,
            )
        })
    });
    group.finish();
}

/// `n` seeded uniform points over `[0, size)`.
fn uniform_points(size: u64, n: usize) -> Vec<u64> {
    let mut rng = ChaCha8Rng::seed_from_u64(INPUT_SEED ^ 40);
    (0..n).map(|_| rng.random_range(0..size)).collect()
}

fn coverage_cells(c: &mut Criterion) {
    const SIZE: u64 = 1 << 40;
    let mut group = c.benchmark_group("coverage_cells_2^40");
    group.sample_size(10);
    let mwem = Mwem::new(Privacy::pure(1.0).expect("valid"), 20).expect("valid");
    let intervals_data = uniform_points(SIZE, 332);
    let mut rng = bench_rng();
    group.bench_function("mwem_interval_xor", |b| {
        b.iter(|| mwem.run_interval_xor(SIZE, black_box(&intervals_data), &mut rng))
    });
    let pmw = PrivateMultiplicativeWeights::new(Privacy::new(1.0, 1e-6).expect("valid"), 0.1)
        .expect("valid");
    let points_data = uniform_points(SIZE, 1024);
    group.bench_function("pmw_point_xor", |b| {
        b.iter(|| pmw.run_point_xor(SIZE, black_box(&points_data), &mut rng))
    });
    group.finish();
}

criterion_group! {
    name = sanitizers;
    config = config();
    targets = multiplicative_weights, mwem_variants, point_sanitizer, threshold_tree, coverage_cells
}
criterion_main!(sanitizers);
