//! Benches of the learners and the lab: the generic private learner with the fast error
//! profile against brute-force scoring, the private-prediction learners against the
//! generic learner on the same data, and the sanitize → small database → cover step against
//! the cover of the whole synthetic support, and the (ε, δ) interior-point learner (TreeLog)
//! at n = 10^6 on 2^64 − 1 points. (The trial runner is benched in `lab.rs`.)

use std::hint::black_box;

use benches::{FirstConcepts, bench_rng, config, labeled_sample};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use privpac_accounting::Privacy;
use privpac_classes::{ConceptClass, Thresholds, brute_force_error_counts};
use privpac_learners::{
    DaganFeldmanPredictor, GenericLearner, InteriorPointLearner, Learner, PrivatePrediction,
    RelabelingPredictor, SanitizedCover, StableLearner, VotingPredictor,
};
use privpac_mechanisms::ExponentialMechanism;
use privpac_sanitizers::{Mwem, Sanitizer};

const DOMAIN: u64 = 1 << 20;
const EXAMPLES: usize = 100_000;
/// The brute-force reference scores this many concepts; the full class has 2^20.
const SLICE: u64 = 1 << 10;

/// The generic learner (ε = 1) against brute-force scoring of every concept on every example
/// followed by the exponential mechanism over the scores: in full on thresholds over 2^10
/// points with 10^4 examples, and on a slice of the class over 2^20 points with 10^5 examples.
fn generic_learner(c: &mut Criterion) {
    let mut group = c.benchmark_group("generic_learner");
    group.sample_size(10);
    let learner = GenericLearner::new(Privacy::pure(1.0).expect("valid")).expect("valid");
    let mechanism =
        ExponentialMechanism::new(Privacy::pure(1.0).expect("valid"), 1.0).expect("valid");
    let mut rng = bench_rng();
    let brute_force = |class: &dyn ConceptClass,
                       sample: &privpac_classes::LabeledSample,
                       rng: &mut rand_chacha::ChaCha8Rng| {
        let counts = brute_force_error_counts(class, sample).expect("small");
        let scores: Vec<i64> = counts.iter().map(|&e| -(e as i64)).collect();
        mechanism.select_integer(&scores, rng)
    };
    let small = Thresholds::new(1024).expect("valid");
    let small_sample = labeled_sample(&small, 300, 1024, 10_000);
    group.bench_function(BenchmarkId::new("fast", 1024), |b| {
        b.iter(|| learner.learn(&small, black_box(&small_sample), &mut rng))
    });
    group.bench_function(BenchmarkId::new("reference", 1024), |b| {
        b.iter(|| brute_force(&small, black_box(&small_sample), &mut rng))
    });

    let class = Thresholds::new(DOMAIN).expect("valid");
    let sample = labeled_sample(&class, DOMAIN / 3, DOMAIN, EXAMPLES);
    group.bench_function(BenchmarkId::new("fast", DOMAIN), |b| {
        b.iter(|| learner.learn(&class, black_box(&sample), &mut rng))
    });
    // Brute-force scoring (every concept on every example) of the first 2^10 thresholds,
    // then the exponential mechanism over them; the full class costs 2^10 times more.
    let slice = FirstConcepts {
        class: &class,
        len: SLICE,
    };
    group.bench_function(BenchmarkId::new("reference_slice_1024", DOMAIN), |b| {
        b.iter(|| brute_force(&slice, black_box(&sample), &mut rng))
    });
    group.finish();
}

/// One training run of each private-prediction learner (per-prediction ε = 1) on
/// thresholds over 2^10 points with 10^4 examples; the generic learner on the same sample
/// is the reference.
fn private_prediction(c: &mut Criterion) {
    const N: usize = 10_000;
    let class = Thresholds::new(1024).expect("valid");
    let sample = labeled_sample(&class, 300, 1024, N);
    let voting = VotingPredictor::new(1.0, 7).expect("valid");
    let learners: [(&str, Box<dyn Learner>); 5] = [
        (
            "reference",
            Box::new(GenericLearner::new(Privacy::pure(1.0).expect("valid")).expect("valid")),
        ),
        (
            "stable_flip",
            Box::new(
                PrivatePrediction::new(StableLearner::new(0.05, 100).expect("valid"), 0.05)
                    .expect("valid"),
            ),
        ),
        ("voting", Box::new(voting)),
        (
            "relabeling",
            Box::new(RelabelingPredictor::with_prediction_epsilon(1.0, N, voting).expect("valid")),
        ),
        (
            "dagan_feldman",
            Box::new(
                DaganFeldmanPredictor::with_prediction_epsilon(1.0, N, class.len(), 12.0, 0.05)
                    .expect("valid"),
            ),
        ),
    ];
    let mut rng = bench_rng();
    let mut group = c.benchmark_group("private_prediction");
    for (name, learner) in &learners {
        group.bench_function(BenchmarkId::new(*name, N), |b| {
            b.iter(|| learner.learn(&class, black_box(&sample), &mut rng))
        });
    }
    group.finish();
}

/// One training run of each cover-based private-prediction learner (per-prediction ε = 1,
/// parameters solved for n as `privpac sample-complexity` solves them) on thresholds over
/// 2^40 points with 2000 examples: the structured covers (`ConceptClass::labeling_ranges`
/// and the compressed profile) whose dense construction would need 2^40 concepts.
fn structured_covers(c: &mut Criterion) {
    const N: usize = 2000;
    const HUGE: u64 = 1 << 40;
    let class = Thresholds::new(HUGE).expect("valid");
    let sample = labeled_sample(&class, HUGE / 3, HUGE, N);
    let learners: [(&str, Box<dyn Learner>); 3] = [
        (
            "stable_flip",
            Box::new(PrivatePrediction::with_prediction_epsilon(1.0, N, 1.0, 0.25).expect("valid")),
        ),
        (
            "relabeling",
            Box::new(
                RelabelingPredictor::with_prediction_epsilon(
                    1.0,
                    N,
                    VotingPredictor::new(1.0, 7).expect("valid"),
                )
                .expect("valid"),
            ),
        ),
        (
            "dagan_feldman",
            Box::new(
                DaganFeldmanPredictor::with_prediction_epsilon(1.0, N, class.len(), 12.0, 0.05)
                    .expect("valid"),
            ),
        ),
    ];
    let mut rng = bench_rng();
    let mut group = c.benchmark_group("structured_covers");
    group.sample_size(10);
    for (name, learner) in &learners {
        group.bench_function(BenchmarkId::new(*name, HUGE), |b| {
            b.iter(|| learner.learn(&class, black_box(&sample), &mut rng))
        });
    }
    group.finish();
}

/// The cover step of the sanitizer-based learner on MWEM's output for thresholds over 2^10
/// points: 100 draws from the synthetic distribution first (at most 101 concepts; `fast`),
/// against the cover of the whole dense support (all 1024 concepts; `reference`). The
/// sanitization itself is done once, outside the timed loop.
fn sanitized_cover(c: &mut Criterion) {
    let class = Thresholds::new(1024).expect("valid");
    let points: Vec<u64> = (0..3000u64).map(|i| (i * 389) % 1024).collect();
    let mwem = Mwem::new(Privacy::pure(1.0).expect("valid"), 10).expect("valid");
    let mut rng = bench_rng();
    let xor = privpac_classes::Xor::new(&class).expect("valid");
    let synthetic = mwem.sanitize(&xor, &points, &mut rng).expect("sanitizes");
    let mut group = c.benchmark_group("sanitized_cover");
    for (name, size) in [("fast", 100usize), ("reference", 1 << 20)] {
        group.bench_function(BenchmarkId::new(name, 1024), |b| {
            b.iter(|| SanitizedCover::from_synthetic(black_box(&synthetic), &class, size, &mut rng))
        });
    }
    group.finish();
}

/// One run of the interior-point learner ((ε, δ) = (1, 10^-6), α = 0.1) on thresholds over
/// 2^64 − 1 points with 10^6 uniform examples (target in the middle): splitting the sample
/// by label, sorting, and TreeLog on the 2⌊αn/4⌋ = 50 000 points it keeps, with nodes as
/// prefixes (no tree is materialized). The target is under a second.
fn interior_point(c: &mut Criterion) {
    const N: usize = 1_000_000;
    let mut group = c.benchmark_group("interior_point_learner");
    group.sample_size(10);
    let class = Thresholds::new(u64::MAX).expect("valid");
    let sample = labeled_sample(&class, u64::MAX / 2, u64::MAX, N);
    let learner =
        InteriorPointLearner::new(Privacy::new(1.0, 1e-6).expect("valid"), 0.1).expect("valid");
    let mut rng = bench_rng();
    group.bench_function(BenchmarkId::new("n_1e6_domain_2^64-1", N), |b| {
        b.iter(|| {
            learner
                .learn(&class, black_box(&sample), &mut rng)
                .expect("learns")
        })
    });
    group.finish();
}

criterion_group! {
    name = learners;
    config = config();
    targets = generic_learner, private_prediction, structured_covers, sanitized_cover, interior_point
}
criterion_main!(learners);
