//! Benches of privpac-classes: the exact Littlestone dimension (pruned engine `fast` vs the
//! plain memoized recursion `reference`), the exact VC dimension (branch and bound `fast`
//! vs subset enumeration with the growth function `naive`), error profiles (fast paths vs
//! brute force) and the online learners (Halving vs a naive Halving; SOA).
//!
//! The `ldim` and `vc` groups mix three families, told apart by their sizes so that every (group, size)
//! pair names one input:
//! - thresholds over `N` points, `N ∈ {64, 256, 1024}`;
//! - parities over `{0,1}^d` as explicit `2^d × 2^d` matrices, `d ∈ 4..=8`;
//! - random explicit classes of `|C|` concepts, each cell 1 with probability 0.5, seeded
//!   from [`INPUT_SEED`]: `|C| ∈ {128, 512, 2048}` over 16 points (`ldim`), and
//!   `|C| ∈ {128, 512}` over 32 points (`vc`).
//!
//! Every iteration builds a fresh solver, so the memo starts empty. Baselines run only
//! where they take at most tens of milliseconds.

use std::hint::black_box;

use benches::{FirstConcepts, INPUT_SEED, config, labeled_sample};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use privpac_classes::dimension::{Budget, Engine, LittlestoneSolver, vc_dimension};
use privpac_classes::online::{Halving, OnlineLearner, Soa, TieRule};
use privpac_classes::{ClassMatrix, ConceptClass, Parities, Thresholds, brute_force_error_counts};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const THRESHOLD_SIZES: [usize; 3] = [64, 256, 1024];
const PARITY_DIMENSIONS: [u32; 5] = [4, 5, 6, 7, 8];
const RANDOM_SIZES: [usize; 3] = [128, 512, 2048];
/// Random classes for the VC search: 2048 concepts over 32 points take seconds.
const RANDOM_VC_SIZES: [usize; 2] = [128, 512];

/// Thresholds over `n` points: `c_t(y) = 1` iff `y ≤ t`.
fn thresholds(n: usize) -> ClassMatrix {
    ClassMatrix::from_fn(n, n, u128::MAX, |t, y| y <= t).expect("non-empty")
}

/// Parities over `{0,1}^d`: concept `a` labels `y` by the parity of `a & y`.
fn parities(d: u32) -> ClassMatrix {
    let n = 1usize << d;
    ClassMatrix::from_fn(n, n, u128::MAX, |a, y| (a & y).count_ones() % 2 == 1).expect("non-empty")
}

/// A random class of `n_concepts` rows over `n_points` points, cells 1 with probability 1/2.
fn random_class(n_concepts: usize, n_points: usize) -> ClassMatrix {
    let mut rng = ChaCha8Rng::seed_from_u64(INPUT_SEED ^ (n_concepts * n_points) as u64);
    ClassMatrix::from_fn(n_concepts, n_points, u128::MAX, |_, _| rng.random_bool(0.5))
        .expect("non-empty")
}

/// The Littlestone dimension of the whole class with a fresh solver.
fn ldim(matrix: &ClassMatrix, engine: Engine) -> i32 {
    let mut solver = LittlestoneSolver::new(matrix, engine, Budget::default());
    solver.ldim(&matrix.all_concepts()).expect("within budget")
}

/// The VC dimension by subset enumeration: the largest `m` whose growth function is `2^m`.
fn naive_vc(matrix: &ClassMatrix) -> usize {
    let mut m = 0;
    while m < matrix.n_points() {
        let (growth, _) = matrix
            .growth_function(m + 1, u128::MAX)
            .expect("at most 64 points");
        if growth < 1u128 << (m + 1) {
            break;
        }
        m += 1;
    }
    m
}

fn littlestone(c: &mut Criterion) {
    let mut group = c.benchmark_group("ldim");
    group.sample_size(10);
    for n in THRESHOLD_SIZES {
        let matrix = thresholds(n);
        group.bench_with_input(BenchmarkId::new("fast", n), &matrix, |b, m| {
            b.iter(|| ldim(black_box(m), Engine::Pruned))
        });
        if n <= 64 {
            group.bench_with_input(BenchmarkId::new("reference", n), &matrix, |b, m| {
                b.iter(|| ldim(black_box(m), Engine::Plain))
            });
        }
    }
    for d in PARITY_DIMENSIONS {
        let matrix = parities(d);
        group.bench_with_input(BenchmarkId::new("fast", d), &matrix, |b, m| {
            b.iter(|| ldim(black_box(m), Engine::Pruned))
        });
        if d <= 6 {
            group.bench_with_input(BenchmarkId::new("reference", d), &matrix, |b, m| {
                b.iter(|| ldim(black_box(m), Engine::Plain))
            });
        }
    }
    for n in RANDOM_SIZES {
        let matrix = random_class(n, 16);
        group.bench_with_input(BenchmarkId::new("fast", n), &matrix, |b, m| {
            b.iter(|| ldim(black_box(m), Engine::Pruned))
        });
        if n <= 128 {
            group.bench_with_input(BenchmarkId::new("reference", n), &matrix, |b, m| {
                b.iter(|| ldim(black_box(m), Engine::Plain))
            });
        }
    }
    group.finish();
}

fn vc(c: &mut Criterion) {
    let mut group = c.benchmark_group("vc");
    group.sample_size(10);
    let budget = Budget::default();
    let fast = |m: &ClassMatrix| vc_dimension(m, &budget).expect("within budget").dimension;
    for n in THRESHOLD_SIZES {
        let matrix = thresholds(n);
        group.bench_with_input(BenchmarkId::new("fast", n), &matrix, |b, m| {
            b.iter(|| fast(black_box(m)))
        });
        if n <= 256 {
            group.bench_with_input(BenchmarkId::new("naive", n), &matrix, |b, m| {
                b.iter(|| naive_vc(black_box(m)))
            });
        }
    }
    for d in PARITY_DIMENSIONS {
        let matrix = parities(d);
        group.bench_with_input(BenchmarkId::new("fast", d), &matrix, |b, m| {
            b.iter(|| fast(black_box(m)))
        });
        if d <= 4 {
            group.bench_with_input(BenchmarkId::new("naive", d), &matrix, |b, m| {
                b.iter(|| naive_vc(black_box(m)))
            });
        }
    }
    for n in RANDOM_VC_SIZES {
        let matrix = random_class(n, 32);
        group.bench_with_input(BenchmarkId::new("fast", n), &matrix, |b, m| {
            b.iter(|| fast(black_box(m)))
        });
    }
    group.finish();
}

/// Error profiles: the fast paths against the brute-force reference (every concept on every
/// example) in the same run, one group per class.
///
/// In full at a size where the brute force takes milliseconds: thresholds over 2^10 points
/// and parities over {0,1}^8, with 10^4 examples. At the large sizes (thresholds over 2^20
/// points, parities over {0,1}^16, 10^5 examples) the brute force over the whole class
/// (10^11 evaluations) is too slow for a bench, so it is measured on the first 2^10 concepts
/// (`reference_slice_1024`, no ratio); its cost is linear in |C|, so the full reference takes
/// |C| / 2^10 times as long.
fn error_profiles(c: &mut Criterion) {
    const SMALL_EXAMPLES: usize = 10_000;
    const EXAMPLES: usize = 100_000;
    let mut group = c.benchmark_group("threshold_errors");
    group.sample_size(10);
    for (domain, examples, full_reference) in [
        (1u64 << 10, SMALL_EXAMPLES, true),
        (1 << 20, EXAMPLES, false),
    ] {
        let thresholds = Thresholds::new(domain).expect("valid");
        let sample = labeled_sample(&thresholds, domain / 3, domain, examples);
        group.bench_function(BenchmarkId::new("fast", domain), |b| {
            b.iter(|| thresholds.error_counts(black_box(&sample)))
        });
        group.bench_function(BenchmarkId::new("runs", domain), |b| {
            b.iter(|| thresholds.error_runs(black_box(&sample)))
        });
        if full_reference {
            group.bench_function(BenchmarkId::new("reference", domain), |b| {
                b.iter(|| brute_force_error_counts(&thresholds, black_box(&sample)))
            });
        } else {
            let slice = FirstConcepts {
                class: &thresholds,
                len: 1 << 10,
            };
            group.bench_function(BenchmarkId::new("reference_slice_1024", domain), |b| {
                b.iter(|| brute_force_error_counts(&slice, black_box(&sample)))
            });
        }
    }
    group.finish();

    let mut group = c.benchmark_group("parity_errors");
    group.sample_size(10);
    for (d, examples, full_reference) in [(8u32, SMALL_EXAMPLES, true), (16, EXAMPLES, false)] {
        let parities = Parities::new(d).expect("valid");
        let target = 0b1011_0110_0101_0011 & ((1u64 << d) - 1);
        let sample = labeled_sample(&parities, target, 1 << d, examples);
        let size = 1u64 << d;
        group.bench_function(BenchmarkId::new("fast", size), |b| {
            b.iter(|| parities.error_counts(black_box(&sample)))
        });
        if full_reference {
            group.bench_function(BenchmarkId::new("reference", size), |b| {
                b.iter(|| brute_force_error_counts(&parities, black_box(&sample)))
            });
        } else {
            let slice = FirstConcepts {
                class: &parities,
                len: 1 << 10,
            };
            group.bench_function(BenchmarkId::new("reference_slice_1024", size), |b| {
                b.iter(|| brute_force_error_counts(&slice, black_box(&sample)))
            });
        }
    }
    group.finish();
}

/// The naive Halving algorithm: the version space as a list of concept ids, each prediction
/// a majority vote read one cell at a time, each update a filter of the list (ties predict
/// 1, as `TieRule::PredictOne`).
fn naive_halving_mistakes(matrix: &ClassMatrix, sequence: &[(usize, bool)]) -> usize {
    let mut alive: Vec<usize> = (0..matrix.n_concepts()).collect();
    let mut mistakes = 0;
    for &(x, y) in sequence {
        let ones = alive.iter().filter(|&&c| matrix.get(c, x)).count();
        let prediction = 2 * ones >= alive.len();
        mistakes += usize::from(prediction != y);
        alive.retain(|&c| matrix.get(c, x) == y);
    }
    mistakes
}

/// A realizable sequence of `rounds` examples labeled by a random concept of `matrix`.
fn realizable_sequence(matrix: &ClassMatrix, rounds: usize) -> Vec<(usize, bool)> {
    let mut rng = ChaCha8Rng::seed_from_u64(INPUT_SEED ^ 7);
    let target = rng.random_range(0..matrix.n_concepts());
    (0..rounds)
        .map(|_| {
            let x = rng.random_range(0..matrix.n_points());
            (x, matrix.get(target, x))
        })
        .collect()
}

/// Plays a fresh online learner on the sequence and counts its mistakes.
fn play(mut learner: Box<dyn OnlineLearner + '_>, sequence: &[(usize, bool)]) -> usize {
    let mut mistakes = 0;
    for &(x, y) in sequence {
        mistakes += usize::from(learner.predict(x).expect("within budget") != y);
        learner.update(x, y).expect("realizable");
    }
    mistakes
}

/// Online learners: one iteration plays `ROUNDS` rounds (predict and update) of a fixed
/// realizable sequence from a fresh learner, so the per-round cost is the median divided
/// by `ROUNDS` (SOA's includes filling its shared memo, as in real use). Halving (bit-packed
/// version space, popcount votes) against the naive list-of-ids Halving on 4096 random
/// concepts over 32 points; SOA on 1024 sparse concepts, without a reference (the plain
/// recursion is the `ldim` group's reference).
fn online(c: &mut Criterion) {
    const ROUNDS: usize = 100;
    let halving_matrix = random_dense(4096, 32, 0.5);
    let sequence = realizable_sequence(&halving_matrix, ROUNDS);
    assert_eq!(
        play(
            Box::new(Halving::new(&halving_matrix, TieRule::PredictOne)),
            &sequence
        ),
        naive_halving_mistakes(&halving_matrix, &sequence),
        "Halving and its naive reference disagree"
    );
    let mut group = c.benchmark_group("halving");
    group.bench_function(BenchmarkId::new("fast", 4096), |b| {
        b.iter(|| {
            play(
                Box::new(Halving::new(&halving_matrix, TieRule::PredictOne)),
                black_box(&sequence),
            )
        })
    });
    group.bench_function(BenchmarkId::new("reference", 4096), |b| {
        b.iter(|| naive_halving_mistakes(&halving_matrix, black_box(&sequence)))
    });
    group.finish();

    let soa_matrix = random_dense(1024, 32, 0.1);
    let sequence = realizable_sequence(&soa_matrix, ROUNDS);
    let mut group = c.benchmark_group("soa");
    group.bench_function(BenchmarkId::new("fast", 1024), |b| {
        b.iter(|| {
            play(
                Box::new(Soa::new(
                    &soa_matrix,
                    TieRule::PredictOne,
                    Budget::default(),
                )),
                black_box(&sequence),
            )
        })
    });
    group.finish();
}

/// A seeded random class with cells 1 with probability `density`.
fn random_dense(n_concepts: usize, n_points: usize, density: f64) -> ClassMatrix {
    let mut rng = ChaCha8Rng::seed_from_u64(INPUT_SEED ^ 11 ^ (n_concepts * n_points) as u64);
    ClassMatrix::from_fn(n_concepts, n_points, u128::MAX, |_, _| {
        rng.random_bool(density)
    })
    .expect("non-empty")
}

criterion_group! {
    name = classes;
    config = config();
    targets = littlestone, vc, error_profiles, online
}
criterion_main!(classes);
