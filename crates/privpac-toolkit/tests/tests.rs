//! Cross-crate scenarios: the generic private learner's empirical sample complexity on
//! thresholds and points, against its theoretical bound and its predicted growth; the
//! private-prediction learners against OPT under label noise.

// clippy's allow-unwrap-in-tests does not cover helper functions of integration tests.
#![allow(clippy::unwrap_used)]

mod multi_k;
mod prediction_comparison;
mod throughput;

use privpac_accounting::Privacy;
use privpac_classes::{ConceptClass, Domain, Points, Thresholds};
use privpac_learners::GenericLearner;
use privpac_learners::bounds::generic_learner_sample_size;
use privpac_toolkit::{ExampleDistribution, Scenario, SearchConfig, empirical_sample_complexity};

const TRIALS: usize = 100;

/// The distribution of a scenario, given α.
type MakeDistribution = fn(f64) -> ExampleDistribution;

fn measure(
    class: Box<dyn ConceptClass>,
    distribution: ExampleDistribution,
    target: u64,
    epsilon: f64,
    alpha: f64,
    beta: f64,
) -> (usize, f64) {
    let size = class.len() as f64;
    let scenario = Scenario::new(class, distribution, target, 0.0).unwrap();
    let learner = GenericLearner::new(Privacy::pure(epsilon).unwrap()).unwrap();
    let found = empirical_sample_complexity(
        &scenario,
        &learner,
        SearchConfig {
            alpha,
            beta,
            trials: TRIALS,
            master_seed: 11,
            start: 8,
            max_size: 1 << 16,
        },
    )
    .unwrap();
    (
        found.sample_size,
        generic_learner_sample_size(size, epsilon, alpha, beta),
    )
}

/// The empirical sample complexity lies below the bound, and grows when ε or α halves.
/// Tolerances are generous and stated: the bound is an upper bound (loose by design), and
/// halving ε or α should multiply the empirical n by a factor in [1.2, 4] (the bound's
/// factor is 2 for ε in the privacy regime, between 2 and 4 for α), with 100 trials per
/// size and a binary search of resolution n/64.
#[track_caller]
fn check_scaling(
    name: &str,
    make: impl Fn() -> Box<dyn ConceptClass>,
    distribution: MakeDistribution,
    target: u64,
) {
    let (base, bound) = measure(make(), distribution(0.1), target, 0.5, 0.1, 0.1);
    let (half_eps, bound_eps) = measure(make(), distribution(0.1), target, 0.25, 0.1, 0.1);
    let (half_alpha, bound_alpha) = measure(make(), distribution(0.05), target, 0.5, 0.05, 0.1);
    eprintln!(
        "{name}: n = {base} (bound {bound:.0}); ε/2: {half_eps} (bound {bound_eps:.0}); α/2: {half_alpha} (bound {bound_alpha:.0})"
    );
    for (n, b) in [
        (base, bound),
        (half_eps, bound_eps),
        (half_alpha, bound_alpha),
    ] {
        assert!(
            (n as f64) < b,
            "{name}: empirical {n} not below the bound {b:.0}"
        );
    }
    let eps_ratio = half_eps as f64 / base as f64;
    let alpha_ratio = half_alpha as f64 / base as f64;
    assert!(
        (1.2..=4.0).contains(&eps_ratio),
        "{name}: halving ε scaled n by {eps_ratio}"
    );
    assert!(
        (1.2..=4.0).contains(&alpha_ratio),
        "{name}: halving α scaled n by {alpha_ratio}"
    );
}

#[test]
fn generic_learner_sample_complexity_on_thresholds() {
    check_scaling(
        "thresholds:1024",
        || Box::new(Thresholds::new(1024).unwrap()),
        |_| ExampleDistribution::Uniform,
        300,
    );
}

#[test]
fn generic_learner_sample_complexity_on_points() {
    // Under the uniform distribution every point function has error ≤ 2/1024 < α, so the
    // problem is trivial; the hard case puts mass 2α on the target point, so that a learner
    // must see it about αn times before it can tell the target from the other concepts.
    check_scaling(
        "points:1024",
        || Box::new(Points::new(Domain::ordered(1024).unwrap())),
        |alpha| ExampleDistribution::PointMass {
            point: 7,
            mass: 2.0 * alpha,
        },
        7,
    );
}

/// The private-prediction learners on thresholds over 64 points with 10% label noise
/// (OPT = 0.1), each at per-prediction ε ≤ 1: the mean true error over 40 trials at
/// growing n.
///
/// Label flipping with probability η costs a floor: the flipped predictor's error is
/// `η + (1 − 2η)·err(h) ≥ 0.05 + 0.9·0.1 = 0.14` whatever n is. The relabeling pipeline
/// has no such floor; at n = 16000 its mean error must be below 0.14 and below its own
/// error at n = 1000 (measured 0.124 and 0.186 with this seed; the check is seeded and
/// reproducible).
#[test]
fn private_prediction_learners_approach_opt() {
    use privpac_learners::{PrivatePrediction, RelabelingPredictor, VotingPredictor};
    use privpac_toolkit::{TrialConfig, run_trials};
    let scenario = Scenario::new(
        Box::new(Thresholds::new(64).unwrap()),
        ExampleDistribution::Uniform,
        20,
        0.1,
    )
    .unwrap();
    let mut relabeling_errors = Vec::new();
    for n in [1000, 4000, 16000] {
        let voting = VotingPredictor::new(1.0, 7).unwrap();
        let relabeling = RelabelingPredictor::with_prediction_epsilon(1.0, n, voting).unwrap();
        let config = TrialConfig {
            trials: 40,
            sample_size: n,
            alpha: 0.2,
            master_seed: 5,
        };
        let relabel = run_trials(&scenario, &relabeling, config).unwrap();
        // Corollary-1 style: stable learner (ε = 0.05) + flips with η = 0.05, with the
        // largest t that keeps the per-prediction ε ≤ 1.
        let flipped = PrivatePrediction::with_prediction_epsilon(1.0, n, 0.05, 0.05).unwrap();
        assert!(flipped.prediction_epsilon(n) <= 1.0);
        let t = flipped.subset_size();
        let flip = run_trials(&scenario, &flipped, config).unwrap();
        eprintln!(
            "n = {n}: relabeling (t = {}) mean error {:.4}; stable+flip (t = {t}) {:.4}",
            relabeling.subset_size(),
            relabel.mean_error,
            flip.mean_error
        );
        assert!(flip.mean_error >= 0.14 - 1e-9, "{}", flip.mean_error);
        assert!(relabeling.prediction_epsilon(n) <= 1.0);
        relabeling_errors.push(relabel.mean_error);
    }
    assert!(relabeling_errors[2] < 0.14, "{relabeling_errors:?}");
    assert!(
        relabeling_errors[2] < relabeling_errors[0],
        "{relabeling_errors:?}"
    );
}

/// Private prediction's default flip is α/2: at the old default η = 0.1 = α only a base
/// hypothesis of error exactly 0 is α-accurate, which on thresholds over 2^16 points takes
/// on the order of 26·|X| examples (the stable learner must catch the point just below
/// the cut in its subset), so no size up to 2^13 reaches 1 − β; at η = α/2 the same
/// request measures well below that. Seeded, so reproducible; the measured sizes are
/// printed.
#[test]
fn private_prediction_flips_at_half_alpha_by_default() {
    use privpac_toolkit::{
        SampleComplexityRequest, default_flip_probability, run_sample_complexity,
    };
    let mut request =
        SampleComplexityRequest::new("thresholds:65536", "private-prediction", 1.0, 0.1, 0.2, 3);
    request.trials = 20;
    request.max_size = 1 << 13;
    assert_eq!(request.flip_probability, default_flip_probability(0.1));
    assert_eq!(request.flip_probability, 0.05);
    let report = run_sample_complexity(&request, &mut |_| {}).unwrap();
    let measured = report.empirical_sample_size.unwrap();
    eprintln!("η = 0.05: n = {measured}");
    assert!(measured <= 1 << 13, "{measured}");

    request.flip_probability = 0.1;
    let old = run_sample_complexity(&request, &mut |_| {});
    eprintln!(
        "η = 0.1: {old:?}",
        old = old.as_ref().map(|r| r.empirical_sample_size)
    );
    assert!(
        old.is_err() || old.unwrap().empirical_sample_size.is_none(),
        "η = α should not reach α on 2^16 points with 2^13 examples"
    );
}
