//! The generic learner's wide-runs path (thresholds and point functions above 2^60
//! concepts: the runs grouped into levels with 128-bit counts, a level by
//! count·exp(−ε·errors/2), then the member of the chosen offset in id order): on small
//! domains its exact output distribution is the dense exponential mechanism's concept by
//! concept, its privacy loss on neighbouring samples is at most ε exactly, its sampler
//! draws that distribution (seeded χ²), and over 2^64 − 1 points it learns.

use privpac_accounting::Privacy;
use privpac_classes::{
    Both, ConceptClass, Domain, Hypothesis, LabeledSample, Points, Thresholds, WithZero,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::worst_loss;
use crate::{GenericLearner, Learner, Predictor};

/// The wide-runs path's exact output distribution, indexed by concept id: each concept gets
/// its level's probability over the level's count (the level from the dense profile).
fn wide_run_distribution(
    learner: &GenericLearner,
    class: &dyn ConceptClass,
    sample: &LabeledSample,
) -> Vec<f64> {
    let levels = learner
        .wide_run_level_distribution(class, sample)
        .unwrap()
        .unwrap();
    let counts = class.error_counts(sample).unwrap();
    let total: u128 = levels.iter().map(|&(_, count, _)| count).sum();
    assert_eq!(total, class.len(), "the levels' counts sum to |C|");
    counts
        .iter()
        .map(|errors| {
            let &(_, count, probability) = levels
                .iter()
                .find(|level| level.0 == *errors)
                .expect("every concept's mistakes are a level");
            probability / count as f64
        })
        .collect()
}

fn small_classes(size: u64) -> Vec<Box<dyn ConceptClass>> {
    vec![
        Box::new(Thresholds::new(size).unwrap()),
        Box::new(Points::new(Domain::ordered(size).unwrap())),
        Box::new(Both::new(Thresholds::new(size).unwrap()).unwrap()),
        Box::new(WithZero::new(Points::new(Domain::ordered(size).unwrap())).unwrap()),
    ]
}

/// On thresholds, points, both(thresholds) and points plus zero over 1 to 9 points, on
/// random samples, the wide-runs path's output distribution equals the dense exponential
/// mechanism's (`concept_distribution`) concept by concept.
#[test]
fn the_wide_runs_path_is_the_dense_exponential_mechanism() {
    let mut rng = ChaCha8Rng::seed_from_u64(90);
    for epsilon in [0.3, 1.0, 4.0] {
        let learner = GenericLearner::new(Privacy::pure(epsilon).unwrap()).unwrap();
        for size in 1u64..=9 {
            for class in small_classes(size) {
                for _ in 0..8 {
                    let n = rng.random_range(0..14);
                    let pairs: Vec<(u64, bool)> = (0..n)
                        .map(|_| (rng.random_range(0..size), rng.random_bool(0.5)))
                        .collect();
                    let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
                    let wide = wide_run_distribution(&learner, class.as_ref(), &sample);
                    let dense = learner
                        .concept_distribution(class.as_ref(), &sample)
                        .unwrap();
                    for (id, (w, d)) in wide.iter().zip(&dense).enumerate() {
                        assert!(
                            (w - d).abs() <= 1e-12 * d.max(1e-300),
                            "{}: id {id}: {w} vs {d}",
                            class.name()
                        );
                    }
                }
            }
        }
    }
}

/// Exact privacy audit of the wide-runs path: over every sample of 1 to 4 examples on 3
/// points and every neighbour (one example replaced), the largest ratio of output
/// probabilities is at most e^ε, for thresholds and points.
#[test]
fn the_wide_runs_path_is_exactly_private_on_all_tiny_datasets() {
    for class in small_classes(3).into_iter().take(2) {
        for epsilon in [0.5, 1.0, 2.0] {
            let learner = GenericLearner::new(Privacy::pure(epsilon).unwrap()).unwrap();
            let loss = worst_loss(class.as_ref(), |s| {
                wide_run_distribution(&learner, class.as_ref(), s)
            });
            assert!(
                loss <= epsilon + 1e-9,
                "{}, ε = {epsilon}: loss {loss}",
                class.name()
            );
        }
    }
}

/// The sampler (`learn_by_wide_runs`) against the exact distribution on thresholds and on
/// both(thresholds) over 6 points: seeded χ² tests, false-failure rate 10⁻⁶ each.
#[test]
fn the_wide_runs_sampler_draws_the_exact_distribution() {
    let learner = GenericLearner::new(Privacy::pure(1.0).unwrap()).unwrap();
    let pairs = [
        (0, true),
        (1, true),
        (2, false),
        (4, true),
        (5, false),
        (2, true),
    ];
    for class in small_classes(6).into_iter().take(3) {
        let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
        let expected = wide_run_distribution(&learner, class.as_ref(), &sample);
        let mut rng = ChaCha8Rng::seed_from_u64(91);
        let mut counts = vec![0u64; expected.len()];
        for _ in 0..40_000 {
            let predictor = learner
                .learn_by_wide_runs(class.as_ref(), &sample, &mut rng)
                .unwrap()
                .unwrap();
            let Predictor::Hypothesis(Hypothesis::Concept { id }) = predictor else {
                panic!("unexpected {predictor:?}");
            };
            counts[id as usize] += 1;
        }
        let outcome = privpac_audit::chi_square_gof(&counts, &expected, 1e-6).unwrap();
        assert!(
            !outcome.rejected,
            "{}: {counts:?} vs {expected:?}: {outcome:?}",
            class.name()
        );
    }
}

/// Over 2^64 − 1 points (2^64 − 1 thresholds, beyond the narrow sampler's 2^60): the
/// generic learner at ε = 1 from 2000 examples of the threshold at N/3 outputs a threshold
/// within 1% of the domain; the narrow path alone refuses the class. Point functions over
/// 2^64 − 1 points with a target point seen often: the learner outputs the target.
#[test]
fn learns_thresholds_and_points_over_two_to_the_sixty_four_points() {
    let size = u64::MAX;
    let class = Thresholds::new(size).unwrap();
    let target = size / 3;
    let mut rng = ChaCha8Rng::seed_from_u64(92);
    let pairs: Vec<(u64, bool)> = (0..2000)
        .map(|_| {
            let x = rng.random_range(0..size);
            (x, x <= target)
        })
        .collect();
    let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
    let learner = GenericLearner::new(Privacy::pure(1.0).unwrap()).unwrap();
    assert!(learner.level_distribution(&class, &sample).is_err());
    let Predictor::Hypothesis(Hypothesis::Concept { id }) =
        learner.learn(&class, &sample, &mut rng).unwrap()
    else {
        panic!("not a concept");
    };
    assert!(id.abs_diff(target) < size / 100, "{id} against {target}");

    let points = Points::new(Domain::ordered(size).unwrap());
    let target = 12_345_678_901_234_567_890u64;
    let pairs: Vec<(u64, bool)> = (0..2000)
        .map(|i| {
            if i % 10 == 0 {
                (target, true)
            } else {
                (rng.random_range(0..size), false)
            }
        })
        .collect();
    let sample = LabeledSample::from_pairs(points.domain(), &pairs).unwrap();
    let Predictor::Hypothesis(h) = learner.learn(&points, &sample, &mut rng).unwrap() else {
        panic!("not a hypothesis");
    };
    assert!(h.eval(&points, target), "{h:?}");
}
