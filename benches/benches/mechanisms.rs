//! Benches of privpac-mechanisms: the exponential mechanism (naive normalize-and-scan reference
//! vs the exact general path vs the count-weighted fast path), noise throughput, and the
//! grid Laplace mechanism against the (unsound) floating-point Laplace sampler, and the PLD
//! accountant's two-sided bounds on long compositions (issue 29).

use std::hint::black_box;

use benches::{
    bench_rng, config, dominated_scores, error_count_scores, levels_of, naive_exponential,
};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use privpac_accounting::{PldStep, Privacy, pld_steps_bounds, pld_steps_bounds_on_grid};
use privpac_mechanisms::{
    DiscreteLaplace, DiscreteLaplaceTable, ExponentialMechanism, Laplace, LaplaceMechanism,
};
use rand::Rng;

const SIZES: [usize; 3] = [10_000, 100_000, 1_000_000];
const EPSILON: f64 = 1.0;

fn exponential_mechanism(c: &mut Criterion) {
    let mechanism =
        ExponentialMechanism::new(Privacy::pure(EPSILON).expect("valid ε"), 1.0).expect("valid");
    let mut group = c.benchmark_group("exp_mech");
    for n in SIZES {
        let scores = error_count_scores(n, 1_000);
        let dominated = dominated_scores(n);
        let levels = levels_of(&scores);
        let mut rng = bench_rng();
        group.bench_with_input(BenchmarkId::new("naive", n), &scores, |b, scores| {
            b.iter(|| naive_exponential(black_box(scores), EPSILON, &mut rng))
        });
        group.bench_with_input(BenchmarkId::new("general", n), &scores, |b, scores| {
            b.iter(|| mechanism.select_integer(black_box(scores), &mut rng))
        });
        group.bench_with_input(
            BenchmarkId::new("general_dominated", n),
            &dominated,
            |b, s| b.iter(|| mechanism.select_integer(black_box(s), &mut rng)),
        );
        group.bench_with_input(BenchmarkId::new("fast", n), &levels, |b, levels| {
            b.iter(|| mechanism.select_levels(black_box(levels), &mut rng))
        });
    }
    // The hot path's target input: 10^6 integer scores in [0, 10^4), the banded path (the
    // general path at every size) as the reference against the counting path that
    // select_integer takes from 2^16 candidates on.
    let wide = error_count_scores(1_000_000, 10_000);
    let mut rng = bench_rng();
    group.bench_with_input(BenchmarkId::new("banded_1e4", 1_000_000), &wide, |b, s| {
        b.iter(|| mechanism.select_integer_banded(black_box(s), &mut rng))
    });
    group.bench_with_input(BenchmarkId::new("counted_1e4", 1_000_000), &wide, |b, s| {
        b.iter(|| mechanism.select_integer(black_box(s), &mut rng))
    });
    group.finish();
}

fn noise(c: &mut Criterion) {
    const DRAWS: usize = 1_000_000;
    let discrete = DiscreteLaplace::for_epsilon(EPSILON, 1).expect("valid");
    let discrete_small_eps = DiscreteLaplace::for_epsilon(0.1, 1).expect("valid");
    let mut group = c.benchmark_group("noise");
    let mut rng = bench_rng();
    let mut out = vec![0i64; DRAWS];
    group.bench_function(BenchmarkId::new("reference", DRAWS), |b| {
        // One draw per call: a fresh bit buffer (and its unused bits) per draw.
        b.iter(|| {
            for slot in out.iter_mut() {
                *slot = discrete.sample(&mut rng);
            }
        })
    });
    group.bench_function(BenchmarkId::new("fast", DRAWS), |b| {
        b.iter(|| discrete.fill(black_box(&mut out), &mut rng))
    });
    group.bench_function(BenchmarkId::new("fast_eps_0_1", DRAWS), |b| {
        b.iter(|| discrete_small_eps.fill(black_box(&mut out), &mut rng))
    });
    // The table sampler: the same exact distributions, one u64 per draw.
    let table = DiscreteLaplaceTable::new(discrete);
    let table_small_eps = DiscreteLaplaceTable::new(discrete_small_eps);
    // What bounds the table sampler: the generator alone, one u64 per slot.
    group.bench_function(BenchmarkId::new("rng_only", DRAWS), |b| {
        b.iter(|| {
            for slot in out.iter_mut() {
                *slot = rng.next_u64() as i64;
            }
        })
    });
    group.bench_function(BenchmarkId::new("table", DRAWS), |b| {
        b.iter(|| table.fill(black_box(&mut out), &mut rng))
    });
    group.bench_function(BenchmarkId::new("table_eps_0_1", DRAWS), |b| {
        b.iter(|| table_small_eps.fill(black_box(&mut out), &mut rng))
    });
    // Building the tables: scale 10 (460 entries) and a scale at the 4096-entry cap.
    let capped = DiscreteLaplace::new(1000.0).expect("valid");
    group.bench_function("table_build/scale_10", |b| {
        b.iter(|| DiscreteLaplaceTable::new(black_box(discrete_small_eps)))
    });
    group.bench_function("table_build/scale_1000", |b| {
        b.iter(|| DiscreteLaplaceTable::new(black_box(capped)))
    });
    group.finish();
}

fn real_laplace(c: &mut Criterion) {
    const DRAWS: usize = 1_000_000;
    let privacy = Privacy::pure(EPSILON).expect("valid ε");
    // The textbook float sampler, Lap(Δ/ε) for Δ = 1: the (unsound) baseline.
    let float = Laplace::new(1.0 / EPSILON).expect("valid");
    let grid = LaplaceMechanism::new(privacy, 1.0).expect("valid");
    let mut group = c.benchmark_group("real_laplace");
    let mut rng = bench_rng();
    let mut real = vec![0f64; DRAWS];
    group.bench_function(BenchmarkId::new("reference", DRAWS), |b| {
        b.iter(|| {
            for slot in real.iter_mut() {
                *slot = 42.0 + float.sample(&mut rng);
            }
        })
    });
    group.bench_function(BenchmarkId::new("grid", DRAWS), |b| {
        b.iter(|| {
            for slot in real.iter_mut() {
                *slot = grid.release(black_box(42.0), &mut rng).expect("in range");
            }
        })
    });
    group.finish();
}

/// The PLD accountant at its default accuracy (max(0.01, 1% of ε)) on 10^6 identical
/// Poisson-subsampled discrete Laplace steps, on 10^4 mixed steps (five kinds) and on 10^4
/// distinct steps (pure, and subsampled discrete Laplace or bounded-range at distinct rates,
/// also at δ′ = 10⁻¹²).
fn pld_accounting(c: &mut Criterion) {
    let mut group = c.benchmark_group("pld_bounds");
    group.sample_size(10);
    for (scale, rate) in [(1.0, 0.001), (2.0, 0.005)] {
        let step = PldStep::discrete_laplace(scale, 1)
            .and_then(|s| s.poisson_subsampled(rate))
            .expect("valid step");
        let steps = vec![step; 1_000_000];
        group.bench_function(format!("1e6 x dlap b={scale} q={rate}"), |b| {
            b.iter(|| pld_steps_bounds(black_box(&steps), 1e-6, None).expect("composes"))
        });
        // The general path (transforms on a power-of-two grid off the atoms' lattice), at
        // the grid it picks for these steps without the lattice.
        group.bench_function(format!("1e6 x dlap b={scale} q={rate} general grid"), |b| {
            b.iter(|| pld_steps_bounds_on_grid(black_box(&steps), 1e-6, 3.0e-5).expect("composes"))
        });
    }
    let mixed: Vec<PldStep> = (0..10_000)
        .map(|i| match i % 5 {
            0 => PldStep::private(Privacy::new(0.05, 1e-9).expect("valid")),
            1 => PldStep::bounded_range(0.05).expect("valid"),
            2 => PldStep::discrete_laplace(20.0, 1).expect("valid"),
            3 => PldStep::discrete_laplace(2.0, 1)
                .and_then(|s| s.poisson_subsampled(0.01))
                .expect("valid"),
            _ => PldStep::private(Privacy::pure(0.5).expect("valid"))
                .poisson_subsampled(0.02)
                .expect("valid"),
        })
        .collect();
    group.bench_function("1e4 mixed", |b| {
        b.iter(|| pld_steps_bounds(black_box(&mixed), 1e-6, None).expect("composes"))
    });
    // 10^4 distinct steps (bucketed): pure ε_i = 0.001·(1 + i/10^4), and subsampled
    // discrete Laplace (b = 1) at rates q_i = 0.001·(1 + i/10^4).
    let pure: Vec<PldStep> = (0..10_000)
        .map(|i| {
            let epsilon = 0.001 * (1.0 + f64::from(i) / 1e4);
            PldStep::private(Privacy::pure(epsilon).expect("valid"))
        })
        .collect();
    group.bench_function("1e4 distinct pure", |b| {
        b.iter(|| pld_steps_bounds(black_box(&pure), 1e-6, None).expect("composes"))
    });
    let rates: Vec<PldStep> = (0..10_000)
        .map(|i| {
            PldStep::discrete_laplace(1.0, 1)
                .and_then(|s| s.poisson_subsampled(0.001 * (1.0 + f64::from(i) / 1e4)))
                .expect("valid")
        })
        .collect();
    group.bench_function("1e4 distinct dlap rates", |b| {
        b.iter(|| pld_steps_bounds(black_box(&rates), 1e-6, None).expect("composes"))
    });
    // Subsampled bounded-range steps (many cells each) at distinct rates.
    let br_rates: Vec<PldStep> = (0..10_000)
        .map(|i| {
            PldStep::bounded_range(0.5)
                .and_then(|s| s.poisson_subsampled(0.001 * (1.0 + f64::from(i) / 1e4)))
                .expect("valid")
        })
        .collect();
    group.bench_function("1e4 distinct br rates", |b| {
        b.iter(|| pld_steps_bounds(black_box(&br_rates), 1e-6, None).expect("composes"))
    });
    // 10^4 distinct steps at δ′ = 1e-12 (the tilted transforms).
    group.bench_function("1e4 distinct dlap rates delta 1e-12", |b| {
        b.iter(|| pld_steps_bounds(black_box(&rates), 1e-12, None).expect("composes"))
    });
    group.finish();
}

criterion_group! {
    name = mechanisms;
    config = config();
    targets = exponential_mechanism, noise, real_laplace, pld_accounting
}
criterion_main!(mechanisms);
