//! The parameter-space harness: random configurations, valid and invalid, run at small
//! scale through the builders the CLI and the Python package use (`ClassSpec::build`,
//! `build_learner`, `build_multi_learner`, `Scenario`, `MultiScenario`,
//! `run_sample_complexity`). For every valid configuration: no panic; either a typed error
//! or a learner whose reported guarantee is within the request (ε and δ compared exactly,
//! as reported, i.e. rounded up), for every learner kind: the DP learners' ε and δ, the
//! prediction learners' per-prediction ε, and the direct sums of either; the stable learner
//! (not private) refuses ε and is built from its mechanism's `em_epsilon`, and a direct sum
//! of it is refused; the same seed gives the same hypotheses. For every
//! invalid configuration (ε ≤ 0 or not finite, δ outside [0, 1), α or β outside (0, 1),
//! n = 0, k = 0, sizes past the limits, malformed specs): a typed error.
//!
//! The CI run draws a fixed number of cases from a fixed seed (no persistence file); the
//! longer run is `cargo test -p privpac-toolkit --test parameter_space -- --ignored`.

// clippy's allow-unwrap-in-tests does not cover helper functions of integration tests.
#![allow(clippy::unwrap_used)]

use privpac_accounting::{Guarantee, Privacy};
use privpac_classes::ConceptClass;
use privpac_learners::Predictor;
use privpac_toolkit::{
    ClassSpec, ExampleDistribution, LearnerParams, LearnerSpec, MultiLearnerSpec, MultiScenario,
    MultiTargets, SampleComplexityRequest, SanitizerSpec, Scenario, build_learner,
    build_multi_learner, run_sample_complexity,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A class spec at small scale (and the structured ones at any scale).
fn class_spec() -> impl Strategy<Value = String> {
    prop_oneof![
        (1u64..=64).prop_map(|n| format!("points:{n}")),
        (1u64..=64).prop_map(|n| format!("thresholds:{n}")),
        (1u64..=24).prop_map(|n| format!("intervals:{n}")),
        (1u32..=10).prop_map(|d| format!("parities:{d}")),
        // Past the 2^28 limit of the learners that enumerate C or X (a typed refusal for
        // them), closed forms and compressed profiles for the rest. Sizes 2^25 to 2^28 are
        // valid for every learner but take up to a minute each for the O(|X|) ones (a
        // stable learner, relabeling, the point sanitizer): not drawn here.
        (29u32..=40).prop_map(|e| format!("points:{}", 1u64 << e)),
        (29u32..=40).prop_map(|e| format!("thresholds:{}", 1u64 << e)),
        // Above the 2^28-concept dense-profile limit: a typed refusal for the learners
        // that enumerate C, and Gaussian elimination for the parity learners. (Parities
        // over 25 to 28 bits are valid but cost 2^28 evaluations per example for the
        // enumerating learners: too slow for a harness, so not drawn.)
        (29u32..=40).prop_map(|d| format!("parities:{d}")),
    ]
}

fn learner_spec() -> impl Strategy<Value = LearnerSpec> {
    let mut all: Vec<LearnerSpec> = LearnerSpec::BASIC.to_vec();
    all.extend(SanitizerSpec::ALL.map(LearnerSpec::Sanitizer));
    prop::sample::select(all)
}

fn multi_spec() -> impl Strategy<Value = MultiLearnerSpec> {
    let mut all = vec![
        MultiLearnerSpec::DirectSum(LearnerSpec::Generic),
        MultiLearnerSpec::DirectSum(LearnerSpec::Stable),
        MultiLearnerSpec::DirectSum(LearnerSpec::ImproperPoint),
        MultiLearnerSpec::DirectSum(LearnerSpec::PrivatePrediction),
        MultiLearnerSpec::DirectSum(LearnerSpec::Voting),
        MultiLearnerSpec::DirectSum(LearnerSpec::Relabeling),
        MultiLearnerSpec::DirectSum(LearnerSpec::DaganFeldman),
        MultiLearnerSpec::Parity,
        MultiLearnerSpec::Point,
    ];
    for sanitizer in SanitizerSpec::ALL {
        all.push(MultiLearnerSpec::Generic(sanitizer));
        all.push(MultiLearnerSpec::DirectSum(LearnerSpec::Sanitizer(
            sanitizer,
        )));
    }
    prop::sample::select(all)
}

fn epsilon() -> impl Strategy<Value = f64> {
    prop_oneof![Just(1e-3), Just(1.0), 0.01f64..8.0]
}

fn delta() -> impl Strategy<Value = f64> {
    // δ = 0 twice as often: most single-label learners are pure and refuse δ > 0.
    prop_oneof![2 => Just(0.0), 1 => Just(1e-12), 1 => Just(1e-6), 1 => Just(1e-3), 1 => 1e-9f64..0.1]
}

/// Whether every ε and δ the guarantee reports is within the request.
fn within(guarantee: Guarantee, epsilon: f64, delta: f64) -> bool {
    guarantee.epsilon().is_none_or(|e| e <= epsilon) && guarantee.delta().is_none_or(|d| d <= delta)
}

#[derive(Debug, Clone)]
struct SingleCase {
    class: String,
    learner: LearnerSpec,
    epsilon: f64,
    delta: f64,
    n: usize,
    noise: f64,
    seed: u64,
}

fn single_case() -> impl Strategy<Value = SingleCase> {
    learner_spec().prop_flat_map(|learner| {
        // Blum–Ligett–Roth enumerates multisets of the domain (up to 2^32 score evaluations
        // per call within its limits) and private prediction runs a stable learner per
        // query: both stay on small domains here.
        let class = match learner {
            LearnerSpec::Sanitizer(SanitizerSpec::Blr) => tiny_class_spec().boxed(),
            LearnerSpec::PrivatePrediction => small_class_spec().boxed(),
            _ => class_spec().boxed(),
        };
        (
            class,
            Just(learner),
            epsilon(),
            delta(),
            1usize..200,
            prop_oneof![Just(0.0), 0.0f64..0.4],
            any::<u64>(),
        )
            .prop_map(
                |(class, learner, epsilon, delta, n, noise, seed)| SingleCase {
                    class,
                    learner,
                    epsilon,
                    delta,
                    n,
                    noise,
                    seed,
                },
            )
    })
}

/// Builds, samples, learns twice with one seed: Ok(true) when a learner was built.
fn run_single(case: &SingleCase) -> Result<bool, TestCaseError> {
    let Ok(spec) = case.class.parse::<ClassSpec>() else {
        return Err(TestCaseError::fail(format!(
            "valid spec {} refused",
            case.class
        )));
    };
    let class = match spec.build() {
        Ok(class) => class,
        Err(_) => return Ok(false), // e.g. a class above its size limit: typed
    };
    let mut params = LearnerParams {
        epsilon: Some(case.epsilon),
        delta: case.delta,
        class_size: Some(class.len()),
        ..LearnerParams::default()
    };
    if case.learner == LearnerSpec::Stable {
        // Not private: ε (which would not be a guarantee) is refused with a typed error;
        // the learner is built from its mechanism's parameter.
        prop_assert!(
            build_learner(case.learner, &params, case.n).is_err(),
            "{case:?}: stable accepted epsilon"
        );
        params.epsilon = None;
        params.em_epsilon = Some(case.epsilon);
    }
    let learner = match build_learner(case.learner, &params, case.n) {
        Ok(learner) => learner,
        Err(_) => return Ok(false),
    };
    let guarantee = learner.guarantee(case.n);
    // Every learner kind: ε is the target (DP, or per prediction for the prediction
    // learners); ERM and the stable learner report no ε.
    prop_assert!(
        match case.learner {
            LearnerSpec::Erm => guarantee == Guarantee::None,
            LearnerSpec::Stable => matches!(guarantee, Guarantee::UniformStability { .. }),
            spec if spec.is_prediction_learner() => {
                matches!(guarantee, Guarantee::PerPrediction { .. })
                    && within(guarantee, case.epsilon, case.delta)
            }
            _ => {
                matches!(guarantee, Guarantee::DifferentialPrivacy(_))
                    && within(guarantee, case.epsilon, case.delta)
            }
        },
        "{case:?}: reports {guarantee:?}"
    );
    let target = u64::try_from(class.len() / 2).unwrap_or(0);
    let scenario = match Scenario::new(
        spec.build().unwrap(),
        ExampleDistribution::Uniform,
        target,
        case.noise,
    ) {
        Ok(scenario) => scenario,
        Err(_) => return Ok(true),
    };
    let learn = || -> Option<Predictor> {
        let mut rng = ChaCha8Rng::seed_from_u64(case.seed);
        let sample = scenario.sample(case.n, &mut rng).ok()?;
        learner.learn(class.as_ref(), &sample, &mut rng).ok()
    };
    let first = learn();
    prop_assert_eq!(&first, &learn(), "{:?}: not reproducible", case);
    if let Some(h) = first
        && let Ok(error) = scenario.try_true_error(&h)
    {
        prop_assert!((0.0..=1.0).contains(&error), "{case:?}: true error {error}");
    }
    Ok(true)
}

#[derive(Debug, Clone)]
struct MultiCase {
    class: String,
    learner: MultiLearnerSpec,
    epsilon: f64,
    delta: f64,
    n: usize,
    k: usize,
    noise: f64,
    seed: u64,
    heavy: bool,
}

/// Domains of at most 8 points: for Blum–Ligett–Roth, whose candidate databases number
/// C(|X| + m − 1, m).
fn tiny_class_spec() -> impl Strategy<Value = String> {
    prop_oneof![
        (1u64..=8).prop_map(|n| format!("points:{n}")),
        (1u64..=8).prop_map(|n| format!("thresholds:{n}")),
        (1u64..=4).prop_map(|n| format!("intervals:{n}")),
        (1u32..=3).prop_map(|d| format!("parities:{d}")),
    ]
}

/// Small classes only: for the multi-learners whose cost grows with |C| or |X| (an
/// exponential mechanism, a stable learner or a sanitizer per column), so the CI run stays short.
fn small_class_spec() -> impl Strategy<Value = String> {
    prop_oneof![
        (1u64..=32).prop_map(|n| format!("points:{n}")),
        (1u64..=32).prop_map(|n| format!("thresholds:{n}")),
        (1u64..=10).prop_map(|n| format!("intervals:{n}")),
        (1u32..=6).prop_map(|d| format!("parities:{d}")),
    ]
}

fn expensive(spec: MultiLearnerSpec) -> bool {
    matches!(
        spec,
        MultiLearnerSpec::DirectSum(
            LearnerSpec::Generic
                | LearnerSpec::Stable
                | LearnerSpec::PrivatePrediction
                | LearnerSpec::Voting
                | LearnerSpec::Relabeling
                | LearnerSpec::DaganFeldman
                | LearnerSpec::Sanitizer(_)
        )
    )
}

fn multi_case() -> impl Strategy<Value = MultiCase> {
    multi_spec().prop_flat_map(|learner| {
        let blr = matches!(
            learner,
            MultiLearnerSpec::Generic(SanitizerSpec::Blr)
                | MultiLearnerSpec::DirectSum(LearnerSpec::Sanitizer(SanitizerSpec::Blr))
        );
        let (class, max_k) = if blr {
            (tiny_class_spec().boxed(), 3)
        } else if expensive(learner) {
            (small_class_spec().boxed(), 8)
        } else {
            (class_spec().boxed(), 40)
        };
        (
            class,
            Just(learner),
            epsilon(),
            delta(),
            1usize..120,
            1usize..=max_k,
            prop_oneof![Just(0.0), 0.0f64..0.4],
            any::<u64>(),
            any::<bool>(),
        )
            .prop_map(
                |(class, learner, epsilon, delta, n, k, noise, seed, heavy)| MultiCase {
                    class,
                    learner,
                    epsilon,
                    delta,
                    n,
                    k,
                    noise,
                    seed,
                    heavy,
                },
            )
    })
}

fn run_multi(case: &MultiCase) -> Result<bool, TestCaseError> {
    let spec: ClassSpec = case.class.parse().unwrap();
    let Ok(class) = spec.build() else {
        return Ok(false);
    };
    let total = Privacy::new(case.epsilon, case.delta).unwrap();
    let params = LearnerParams {
        class_size: Some(class.len()),
        ..LearnerParams::default()
    };
    let built = build_multi_learner(case.learner, total, case.k, &params, case.n);
    if case.learner == MultiLearnerSpec::DirectSum(LearnerSpec::Stable) {
        // Uniformly stable, not private: no total to keep, refused.
        prop_assert!(
            matches!(
                built,
                Err(privpac_toolkit::Error::Multi(
                    privpac_multi::Error::InnerNotPrivate { .. }
                ))
            ),
            "{case:?}: a direct sum of the stable learner was not refused"
        );
        return Ok(false);
    }
    let learner = match built {
        Ok(learner) => learner,
        Err(_) => return Ok(false),
    };
    let guarantee = learner.guarantee(case.n, case.k);
    // DP totals, or per-prediction totals (one query per model) for direct sums of the
    // prediction learners: never a guarantee without an ε.
    prop_assert!(
        guarantee.epsilon().is_some() && within(guarantee, case.epsilon, case.delta),
        "{case:?}: reports {guarantee:?} for ({}, {})",
        case.epsilon,
        case.delta
    );
    let scenario = if case.heavy && case.class.starts_with("points") {
        MultiScenario::heavy_points(spec.build().unwrap(), case.k, case.seed, case.noise)
    } else {
        MultiScenario::new(
            spec.build().unwrap(),
            &ExampleDistribution::Uniform,
            MultiTargets::Random {
                k: case.k,
                seed: case.seed,
            },
            case.noise,
        )
    };
    let Ok(scenario) = scenario else {
        return Ok(true);
    };
    let learn = || -> Option<Vec<Predictor>> {
        let mut rng = ChaCha8Rng::seed_from_u64(case.seed);
        let sample = scenario.sample(case.n, &mut rng).ok()?;
        learner.learn(class.as_ref(), &sample, &mut rng).ok()
    };
    let first = learn();
    prop_assert_eq!(&first, &learn(), "{:?}: not reproducible", case);
    if let Some(hypotheses) = first
        && let Ok(errors) = scenario.excess_errors(&hypotheses)
    {
        for e in errors {
            prop_assert!((-1e-12..=1.0).contains(&e), "{case:?}: excess error {e}");
        }
    }
    if let Ok(baseline) = scenario.constant_baseline() {
        prop_assert!((0.0..=1.0).contains(&baseline.excess_error), "{case:?}");
    }
    Ok(true)
}

/// Invalid parameters: each must come back as a typed error from the builder that sees it.
#[derive(Debug, Clone)]
enum Invalid {
    Epsilon(f64),
    Delta(f64),
    Alpha(f64),
    Beta(f64),
    ZeroK,
    HugeK,
    ZeroTrials,
    Spec(String),
    Noise(f64),
}

fn invalid() -> impl Strategy<Value = Invalid> {
    let bad_epsilon = prop_oneof![
        Just(0.0),
        Just(-1.0),
        Just(f64::NAN),
        Just(f64::INFINITY),
        -1e9f64..0.0
    ];
    let bad_delta = prop_oneof![
        Just(1.0),
        Just(-1e-9),
        Just(f64::NAN),
        Just(f64::INFINITY),
        1.0f64..1e9
    ];
    let bad_probability = prop_oneof![
        Just(0.0),
        Just(1.0),
        Just(-0.5),
        Just(f64::NAN),
        1.0f64..10.0
    ];
    let bad_spec = prop_oneof![
        Just(String::new()),
        Just("points:".to_string()),
        Just("points:0".to_string()),
        Just("parities:65".to_string()),
        Just("thresholds:-3".to_string()),
        Just("points:18446744073709551616".to_string()),
        "[a-z]{1,8}:[0-9]{1,4}",
        "\\PC{0,12}",
    ];
    prop_oneof![
        bad_epsilon.prop_map(Invalid::Epsilon),
        bad_delta.prop_map(Invalid::Delta),
        bad_probability.clone().prop_map(Invalid::Alpha),
        bad_probability.prop_map(Invalid::Beta),
        Just(Invalid::ZeroK),
        Just(Invalid::HugeK),
        Just(Invalid::ZeroTrials),
        bad_spec.prop_map(Invalid::Spec),
        prop_oneof![Just(0.5), Just(-0.1), Just(f64::NAN), 0.5f64..5.0].prop_map(Invalid::Noise),
    ]
}

fn request() -> SampleComplexityRequest {
    SampleComplexityRequest {
        trials: 4,
        max_size: 64,
        ..SampleComplexityRequest::new("thresholds:16", "generic", 1.0, 0.2, 0.2, 1)
    }
}

fn run_invalid(case: &Invalid) -> Result<(), TestCaseError> {
    let mut request = request();
    let multi = |epsilon: f64, delta: f64, k: usize| {
        Privacy::new(epsilon, delta)
            .map_err(privpac_toolkit::Error::from)
            .and_then(|total| {
                build_multi_learner(
                    MultiLearnerSpec::DirectSum(LearnerSpec::Generic),
                    total,
                    k,
                    &LearnerParams::default(),
                    10,
                )
                .map(|_| ())
            })
    };
    let refused = match case {
        Invalid::Epsilon(e) => {
            request.epsilon = Some(*e);
            run_sample_complexity(&request, &mut |_| {}).is_err() && multi(*e, 1e-6, 3).is_err()
        }
        Invalid::Delta(d) => multi(1.0, *d, 3).is_err(),
        Invalid::Alpha(a) => {
            request.alpha = *a;
            run_sample_complexity(&request, &mut |_| {}).is_err()
        }
        Invalid::Beta(b) => {
            request.beta = *b;
            run_sample_complexity(&request, &mut |_| {}).is_err()
        }
        Invalid::ZeroK => multi(1.0, 1e-6, 0).is_err(),
        Invalid::HugeK => multi(1.0, 1e-6, usize::MAX).is_err(),
        Invalid::ZeroTrials => {
            request.trials = 0;
            run_sample_complexity(&request, &mut |_| {}).is_err()
        }
        Invalid::Spec(text) => match text.parse::<ClassSpec>() {
            Err(_) => true,
            // Random text can spell a valid spec ("points:12"): building it must not panic
            // (the property here is the absence of a panic, whatever the result).
            Ok(spec) => {
                let _ = spec.build();
                true
            }
        },
        Invalid::Noise(eta) => {
            request.label_noise = *eta;
            run_sample_complexity(&request, &mut |_| {}).is_err()
        }
    };
    prop_assert!(refused, "{case:?} was accepted");
    Ok(())
}

/// Runs `cases` cases of each property from a fixed seed; returns how many valid cases
/// built a learner (so a harness in which everything errors would fail).
fn run_all(cases: u32) {
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let seeded = || TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]);
    let built = (std::cell::Cell::new(0u32), std::cell::Cell::new(0u32));
    let mut runner = TestRunner::new_with_rng(config.clone(), seeded());
    runner
        .run(&single_case(), |case| {
            let t = std::time::Instant::now();
            let r = run_single(&case);
            if t.elapsed().as_secs_f64() > 0.3 {
                eprintln!("SLOW {:?} {case:?}", t.elapsed());
            }
            built.0.set(built.0.get() + u32::from(r?));
            Ok(())
        })
        .unwrap();
    let mut runner = TestRunner::new_with_rng(config.clone(), seeded());
    runner
        .run(&multi_case(), |case| {
            let t = std::time::Instant::now();
            let r = run_multi(&case);
            if t.elapsed().as_secs_f64() > 0.3 {
                eprintln!("SLOW {:?} {case:?}", t.elapsed());
            }
            built.1.set(built.1.get() + u32::from(r?));
            Ok(())
        })
        .unwrap();
    let built = (built.0.get(), built.1.get());
    let mut runner = TestRunner::new_with_rng(config, seeded());
    runner.run(&invalid(), |case| run_invalid(&case)).unwrap();
    // Most valid configurations build (the rest are typed refusals such as δ > 0 for a
    // pure learner): a harness that only saw errors would check nothing.
    assert!(
        built.0 * 3 >= cases && built.1 * 4 >= cases,
        "built {built:?} of {cases} cases each"
    );
}

#[test]
fn the_parameter_space_is_safe() {
    run_all(256);
}

/// The longer run (about ten times the CI's cases).
#[test]
#[ignore = "long: run with --ignored"]
fn the_parameter_space_is_safe_long() {
    run_all(1000);
}
