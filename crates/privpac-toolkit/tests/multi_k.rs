//! The empirical sample complexity of multi-learners as a function of k (Bun–Nissim–Stemmer
//! 2016, §3): the stability-based learners (Algorithms 4 and 5) need a sample size
//! independent of k, the pure direct sum (Observation 3.2) one growing linearly in k.

use privpac_accounting::Privacy;
use privpac_classes::{ConceptClass, Domain, Parities, Points};
use privpac_multi::MultiLearner;
use privpac_toolkit::{
    ExampleDistribution, KCurve, LearnerParams, MultiLearnerSpec, MultiScenario, MultiTargets,
    SearchConfig, build_multi_learner, sample_complexity_curve,
};

const APPROXIMATE: (f64, f64) = (1.0, 1e-6);

fn config(trials: usize, seed: u64) -> SearchConfig {
    SearchConfig {
        alpha: 0.1,
        beta: 0.1,
        trials,
        master_seed: seed,
        start: 16,
        max_size: 1 << 22,
    }
}

/// Parities over {0,1}^8 under the uniform distribution, k targets drawn with seed 7 + k.
fn parity_scenario(k: usize) -> privpac_toolkit::Result<MultiScenario> {
    MultiScenario::new(
        Box::new(Parities::new(8)?),
        &ExampleDistribution::Uniform,
        MultiTargets::Random {
            k,
            seed: 7 + k as u64,
        },
        0.0,
    )
}

/// Point functions over [2^20]: five support points with masses 0.4, 0.3, 0.2, 0.05,
/// 0.05, targets cycling over them (so every column has a heavy positive point).
fn point_scenario(k: usize) -> privpac_toolkit::Result<MultiScenario> {
    let support = [7u64, 1 << 19, 4242, 99_999, 123];
    let weights = [0.4, 0.3, 0.2, 0.05, 0.05];
    MultiScenario::on_support(
        Box::new(Points::new(Domain::ordered(1 << 20)?)),
        support.iter().copied().zip(weights).collect(),
        MultiTargets::Given {
            targets: (0..k).map(|j| support[j % 5]).collect(),
        },
        0.0,
    )
}

/// Point functions over [64] with the same five-point support (small enough for the
/// exponential mechanism over the whole class in a direct sum).
fn small_point_scenario(k: usize) -> privpac_toolkit::Result<MultiScenario> {
    let support = [7u64, 60, 42, 33, 12];
    let weights = [0.4, 0.3, 0.2, 0.05, 0.05];
    MultiScenario::on_support(
        Box::new(Points::new(Domain::ordered(64)?)),
        support.iter().copied().zip(weights).collect(),
        MultiTargets::Given {
            targets: (0..k).map(|j| support[j % 5]).collect(),
        },
        0.0,
    )
}

/// A curve to measure: name, scenario, multi-learner spec, total (ε, δ).
type Run = (
    &'static str,
    fn(usize) -> privpac_toolkit::Result<MultiScenario>,
    &'static str,
    (f64, f64),
);

fn learner(
    spec: &str,
    total: (f64, f64),
) -> impl Fn(usize) -> privpac_toolkit::Result<Box<dyn MultiLearner>> {
    let spec: MultiLearnerSpec = spec.parse().unwrap();
    move |k| {
        build_multi_learner(
            spec,
            Privacy::new(total.0, total.1)?,
            k,
            &LearnerParams::default(),
            1 << 16,
        )
    }
}

fn measure(
    ks: &[usize],
    scenario: fn(usize) -> privpac_toolkit::Result<MultiScenario>,
    spec: &str,
    total: (f64, f64),
    trials: usize,
    seed: u64,
) -> KCurve {
    sample_complexity_curve(
        ks,
        &scenario,
        &learner(spec, total),
        config(trials, seed),
        &mut |_, _| {},
    )
    .unwrap()
}

fn show(name: &str, curve: &KCurve) {
    let fit = curve.fit.unwrap();
    eprintln!(
        "{name:<40} n = {:?}  slope {:.3} (95% CI [{:.3}, {:.3}])",
        curve
            .points
            .iter()
            .map(|p| p.sample_size)
            .collect::<Vec<_>>(),
        fit.slope,
        fit.slope_interval.0,
        fit.slope_interval.1
    );
}

/// Seeded, so deterministic: the tolerances are about the algorithms, not test flakiness.
/// The search resolves n to within n/64, and each n is judged on 20 trials (success ≥ 18),
/// so a flat curve's n varies by roughly ±20% between k; over ln 64 ≈ 4.2 that moves the
/// slope by at most about ±0.05, well inside the 0.15 bound. The pure direct sum spends
/// ε/k per column, so its n grows like k·log(k|C|/β) (slope ≈ 1 or a little more); 0.7
/// leaves room for the search's resolution at small k.
#[test]
fn parity_and_point_learners_are_flat_in_k_while_the_pure_direct_sum_grows() {
    let ks = [1, 4, 16, 64];
    let parity = measure(&ks, parity_scenario, "parity", APPROXIMATE, 20, 11);
    let point = measure(&ks, point_scenario, "point", APPROXIMATE, 20, 12);
    let parity_direct = measure(
        &ks,
        parity_scenario,
        "direct-sum:generic",
        (1.0, 0.0),
        20,
        13,
    );
    let point_direct = measure(
        &ks,
        small_point_scenario,
        "direct-sum:generic",
        (1.0, 0.0),
        20,
        14,
    );
    for (name, curve) in [
        ("parity", &parity),
        ("point", &point),
        ("direct-sum (parities)", &parity_direct),
        ("direct-sum (points)", &point_direct),
    ] {
        show(name, curve);
    }
    for curve in [&parity, &point] {
        let slope = curve.fit.unwrap().slope;
        assert!(slope < 0.15, "{curve:?}");
    }
    for curve in [&parity_direct, &point_direct] {
        let slope = curve.fit.unwrap().slope;
        assert!(slope > 0.7, "{curve:?}");
    }
}

/// The curves of every multi-learner for k = 1, 4, 16, 64, 256 (for the documentation;
/// minutes in release mode): `cargo test --release -p privpac-toolkit --test integration -- --ignored
/// multi_learner_curves --nocapture`.
#[test]
#[ignore = "minutes; run in release mode for the curves"]
fn multi_learner_curves() {
    let ks = [1, 4, 16, 64, 256];
    let runs: [Run; 10] = [
        ("parity (1, 1e-6)", parity_scenario, "parity", APPROXIMATE),
        (
            "direct-sum:generic pure (parities)",
            parity_scenario,
            "direct-sum:generic",
            (1.0, 0.0),
        ),
        (
            "direct-sum:generic (1, 1e-6) (parities)",
            parity_scenario,
            "direct-sum:generic",
            APPROXIMATE,
        ),
        (
            "generic:mwem pure (parities)",
            parity_scenario,
            "generic:mwem",
            (1.0, 0.0),
        ),
        (
            "generic:pmw (1, 1e-6) (parities)",
            parity_scenario,
            "generic:pmw",
            APPROXIMATE,
        ),
        ("point (1, 1e-6)", point_scenario, "point", APPROXIMATE),
        (
            "direct-sum:generic pure (points/64)",
            small_point_scenario,
            "direct-sum:generic",
            (1.0, 0.0),
        ),
        (
            "direct-sum:generic (1, 1e-6) (points/64)",
            small_point_scenario,
            "direct-sum:generic",
            APPROXIMATE,
        ),
        (
            "generic:point = Cor 3.9 (points/64)",
            small_point_scenario,
            "generic:point",
            APPROXIMATE,
        ),
        (
            "generic:mwem pure (points/64)",
            small_point_scenario,
            "generic:mwem",
            (1.0, 0.0),
        ),
    ];
    for (name, scenario, spec, total) in runs {
        let curve = measure(&ks, scenario, spec, total, 20, 21);
        show(name, &curve);
    }
}

#[test]
fn scenarios_draw_targets_with_a_seed_and_compute_exact_errors() {
    let a = parity_scenario(16).unwrap();
    let b = parity_scenario(16).unwrap();
    assert_eq!(a.targets(), b.targets());
    assert_eq!(a.k(), 16);
    // A wrong parity errs on exactly half of the uniform distribution.
    let wrong: Vec<privpac_learners::Predictor> = a
        .targets()
        .iter()
        .map(|&t| privpac_classes::Hypothesis::Concept { id: t ^ 1 }.into())
        .collect();
    assert!((a.multi_error(&wrong).unwrap() - 0.5).abs() < 1e-12);
    // Label noise η scales the excess error by 1 − 2η.
    let noisy = MultiScenario::new(
        Box::new(Parities::new(8).unwrap()),
        &ExampleDistribution::Uniform,
        MultiTargets::Given {
            targets: a.targets().to_vec(),
        },
        0.25,
    )
    .unwrap();
    assert!((noisy.multi_error(&wrong).unwrap() - 0.25).abs() < 1e-12);
    // The noise flips about η of the labels, independently per column.
    let mut rng = privpac_toolkit::multi_trial_rng(1, 16, 20_000, 0);
    let sample = noisy.sample(20_000, &mut rng).unwrap();
    let class = noisy.class();
    for j in [0, 15] {
        let flipped = (0..sample.len())
            .filter(|&i| sample.label(i, j) != class.eval(noisy.targets()[j], sample.points()[i]))
            .count() as f64
            / sample.len() as f64;
        // Binomial(20000, 0.25): sd ≈ 0.003; 0.02 is > 6 sd (false failure < 1e-9).
        assert!((flipped - 0.25).abs() < 0.02, "{flipped}");
    }
}

#[test]
fn multi_trials_do_not_depend_on_the_thread_count() {
    let scenario = point_scenario(8).unwrap();
    let learner = learner("point", APPROXIMATE)(8).unwrap();
    let run =
        || privpac_toolkit::run_multi_trials(&scenario, learner.as_ref(), 16, 400, 0.1, 5).unwrap();
    let many = run();
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(run);
    assert_eq!(many, one);
}

#[test]
fn multi_scenarios_reject_bad_parameters() {
    let parities = || Box::new(Parities::new(4).unwrap()) as Box<dyn ConceptClass>;
    let uniform = ExampleDistribution::Uniform;
    let given = |targets: Vec<u64>| MultiTargets::Given { targets };
    assert!(MultiScenario::new(parities(), &uniform, given(vec![]), 0.0).is_err());
    assert!(MultiScenario::new(parities(), &uniform, given(vec![16]), 0.0).is_err());
    assert!(MultiScenario::new(parities(), &uniform, given(vec![1]), 0.5).is_err());
    assert!(matches!(
        MultiScenario::new(
            parities(),
            &uniform,
            MultiTargets::Random {
                k: usize::MAX,
                seed: 1
            },
            0.0
        ),
        Err(privpac_toolkit::Error::TooLarge { .. })
    ));
    assert!(MultiScenario::on_support(parities(), vec![], given(vec![1]), 0.0).is_err());
    assert!(MultiScenario::on_support(parities(), vec![(99, 1.0)], given(vec![1]), 0.0).is_err());
    let scenario = MultiScenario::new(parities(), &uniform, given(vec![1, 2]), 0.0).unwrap();
    assert!(matches!(
        scenario.multi_error(&[privpac_classes::Hypothesis::Concept { id: 1 }.into()]),
        Err(privpac_toolkit::Error::Multi(
            privpac_multi::Error::HypothesisCount { .. }
        ))
    ));
    let fit = privpac_toolkit::fit_log_log(&[(1.0, 5.0), (2.0, 5.0)]).unwrap();
    assert_eq!(fit.slope, 0.0);
    assert!(privpac_toolkit::fit_log_log(&[(1.0, 5.0)]).is_err());
    assert!(privpac_toolkit::fit_log_log(&[(1.0, 5.0), (1.0, 6.0)]).is_err());
    assert!(privpac_toolkit::fit_log_log(&[(1.0, 5.0), (2.0, 0.0)]).is_err());
}
