//! Seeded accuracy tests: each sanitizer's max query error against its stated bound, which
//! holds with probability at least 1 − β (β, the false-failure rate, is stated in each
//! test), plus huge-ε checks that the output reproduces the data.

use privpac_accounting::Privacy;
use privpac_classes::{ConceptClass, Domain, Intervals, Points, Thresholds};
use privpac_sanitizers::{
    BlumLigettRoth, Mwem, MwemVariant, PointSanitizer, PrivateMultiplicativeWeights, Sanitizer,
    SyntheticDatabase, ThresholdSanitizer, max_query_error, max_query_error_on,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A skewed data set over `[size]`: a few heavy points and a uniform remainder.
fn skewed(size: u64, n: usize, seed: u64) -> Vec<u64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let heavy: Vec<u64> = (0..5).map(|_| rng.random_range(0..size)).collect();
    (0..n)
        .map(|i| {
            if i % 3 == 0 {
                rng.random_range(0..size)
            } else {
                heavy[i % heavy.len()]
            }
        })
        .collect()
}

#[test]
fn point_sanitizer_meets_its_bound_on_a_huge_domain() {
    // |X| = 2^40, n = 10^5; the bound holds with probability ≥ 1 − β, β = 10^-6.
    let domain = Domain::ordered(1 << 40).unwrap();
    let class = Points::new(domain.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let heavy: Vec<u64> = (0..20).map(|_| rng.random_range(0..1u64 << 40)).collect();
    let data: Vec<u64> = (0..100_000)
        .map(|i| {
            if i % 5 < 3 {
                heavy[i % 20]
            } else {
                rng.random_range(0..1u64 << 40)
            }
        })
        .collect();
    let sanitizer = PointSanitizer::new(Privacy::new(1.0, 1e-6).unwrap(), 0.02).unwrap();
    let bound = sanitizer.error_bound(&domain, data.len(), 1e-6).unwrap();
    assert!(bound <= 0.02, "the target α is met at this n: {bound}");
    for seed in 0..3 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let synthetic = sanitizer.sanitize(&class, &data, &mut rng).unwrap();
        assert_eq!(synthetic.points().unwrap().len(), sanitizer.database_size());
        let (error, worst) = max_query_error(&class, &data, &synthetic).unwrap();
        assert!(error <= bound, "seed {seed}: {error} at {worst} > {bound}");
    }
}

#[test]
fn blr_meets_its_bound() {
    // β = 10^-6 per run.
    let beta = 1e-6;
    let thresholds = Thresholds::new(6).unwrap();
    let intervals = Intervals::new(5).unwrap();
    for (class, m) in [
        (&thresholds as &dyn ConceptClass, 4),
        (&intervals as &dyn ConceptClass, 3),
    ] {
        let size = class.domain().size() as u64;
        let data = skewed(size, 3000, 7);
        let blr = BlumLigettRoth::new(Privacy::pure(1.0).unwrap(), m).unwrap();
        let bound = blr.error_bound(class, &data, beta).unwrap();
        for seed in 0..5 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let synthetic = blr.sanitize(class, &data, &mut rng).unwrap();
            let (error, _) = max_query_error(class, &data, &synthetic).unwrap();
            assert!(error <= bound, "{}: {error} > {bound}", class.name());
        }
    }
}

#[test]
fn mwem_meets_its_bound_on_never_measured_queries() {
    // The bound of Mwem::error_bound covers the queries that were never measured and holds
    // with probability ≥ 1 − β, β = 10^-3.
    let beta = 1e-3;
    let class = Intervals::new(16).unwrap();
    let queries: Vec<u64> = (0..class.len() as u64).collect();
    let data = skewed(16, 200_000, 11);
    let mwem = Mwem::new(Privacy::pure(1.0).unwrap(), 40)
        .unwrap()
        .with_variant(MwemVariant::AverageOfIterates)
        .unwrap();
    let bound = mwem
        .error_bound(16, queries.len(), data.len(), beta)
        .unwrap();
    assert!(bound < 0.6, "{bound}");
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let run = mwem.run(&class, &queries, &data, &mut rng).unwrap();
    let mut measured = run.measured.clone();
    measured.sort_unstable();
    measured.dedup();
    assert_eq!(measured.len(), 40, "every round measures a new query");
    let unmeasured: Vec<u64> = queries
        .iter()
        .copied()
        .filter(|q| measured.binary_search(q).is_err())
        .collect();
    let (error, _) = max_query_error_on(&class, &unmeasured, &data, &run.synthetic).unwrap();
    assert!(error <= bound, "{error} > {bound}");
    // The practical variant (last histogram, replayed measurements) is far more accurate;
    // an empirical check, not a proven bound.
    let practical = mwem
        .clone()
        .with_variant(MwemVariant::Replay { passes: 5 })
        .unwrap();
    let synthetic = practical
        .sanitize_queries(&class, &queries, &data, &mut rng)
        .unwrap();
    let (error, _) = max_query_error(&class, &data, &synthetic).unwrap();
    assert!(error < 0.05, "{error}");
}

#[test]
fn mwem_with_huge_epsilon_measures_exactly_and_reproduces_the_data() {
    let class = Thresholds::new(32).unwrap();
    let queries: Vec<u64> = (0..32).collect();
    let data: Vec<u64> = (0..5000u64).map(|i| (i * i) % 29).collect();
    let mwem = Mwem::new(Privacy::pure(1e6).unwrap(), 32)
        .unwrap()
        .with_variant(MwemVariant::AverageOfIterates)
        .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let run = mwem.run(&class, &queries, &data, &mut rng).unwrap();
    for (&q, &m) in run.measured.iter().zip(&run.measurements) {
        let truth = data.iter().filter(|&&x| class.eval(q, x)).count() as i64;
        assert_eq!(m, truth, "query {q}");
    }
    // The first round picks the worst query under the uniform start.
    let uniform = SyntheticDatabase::from_dense(class.domain(), vec![1.0; 32]).unwrap();
    let (_, worst) = max_query_error(&class, &data, &uniform).unwrap();
    assert_eq!(run.measured[0], worst);
    // Replaying the exact measurements converges to a histogram with the data's answers.
    let replayed = mwem
        .with_variant(MwemVariant::Replay { passes: 50 })
        .unwrap();
    let synthetic = replayed
        .sanitize_queries(&class, &queries, &data, &mut rng)
        .unwrap();
    let (error, _) = max_query_error(&class, &data, &synthetic).unwrap();
    assert!(error < 0.01, "{error}");
}

#[test]
fn pmw_meets_its_bound() {
    // n is at least PrivateMultiplicativeWeights::min_sample_size, so every query's error
    // is at most α + 1/n with probability ≥ 1 − β, β = 10^-3.
    let beta = 1e-3;
    let class = Thresholds::new(64).unwrap();
    let queries: Vec<u64> = (0..64).collect();
    let pmw = PrivateMultiplicativeWeights::new(Privacy::new(20.0, 1e-6).unwrap(), 0.25).unwrap();
    let n = pmw.min_sample_size(64, queries.len(), beta).unwrap().ceil() as usize;
    assert!(n < 200_000, "{n}");
    let data = skewed(64, n, 13);
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let run = pmw.run(&class, &queries, &data, &mut rng).unwrap();
    assert!(!run.exhausted);
    assert!(run.updates.len() as u64 <= pmw.max_updates(64));
    let (error, worst) = max_query_error(&class, &data, &run.synthetic).unwrap();
    assert!(error <= 0.25 + 1.0 / n as f64, "{error} at {worst}");
}

#[test]
fn pmw_with_huge_epsilon_matches_the_data() {
    let class = Thresholds::new(32).unwrap();
    let data: Vec<u64> = (0..5000u64).map(|i| (i * i) % 29).collect();
    let pmw = PrivateMultiplicativeWeights::new(Privacy::pure(1e6).unwrap(), 0.02).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let synthetic = pmw.sanitize(&class, &data, &mut rng).unwrap();
    let (error, _) = max_query_error(&class, &data, &synthetic).unwrap();
    assert!(error <= 0.02 + 1.0 / 5000.0, "{error}");
}

#[test]
fn threshold_sanitizer_meets_its_bound() {
    // β = 10^-6 per run.
    for size in [5u64, 1000, 1 << 16] {
        let class = Thresholds::new(size).unwrap();
        let data = skewed(size, 50_000, size);
        let sanitizer = ThresholdSanitizer::new(Privacy::pure(0.5).unwrap()).unwrap();
        let bound = sanitizer.error_bound(size, data.len(), 1e-6).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(size + 1);
        let synthetic = sanitizer.sanitize(&class, &data, &mut rng).unwrap();
        let (error, _) = max_query_error(&class, &data, &synthetic).unwrap();
        assert!(error <= bound, "N = {size}: {error} > {bound}");
    }
}

#[test]
fn multiplicative_weights_do_not_depend_on_the_thread_count() {
    let class = Thresholds::new(3000).unwrap();
    let queries: Vec<u64> = (0..300).map(|i| i * 10).collect();
    let data = skewed(3000, 20_000, 3);
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut rng = ChaCha8Rng::seed_from_u64(99);
            let mwem = Mwem::new(Privacy::pure(1.0).unwrap(), 20)
                .unwrap()
                .with_variant(MwemVariant::Replay { passes: 1 })
                .unwrap();
            let a = mwem.run(&class, &queries, &data, &mut rng).unwrap();
            let pmw = PrivateMultiplicativeWeights::new(Privacy::pure(5.0).unwrap(), 0.1).unwrap();
            let b = pmw.run(&class, &queries, &data, &mut rng).unwrap();
            (a, b)
        })
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(3));
}
