//! The generic learner's wide-levels path (a level by count·exp(−ε·errors/2), then a uniform
//! member named by its ends) and ERM beyond 2^60 concepts: on small domains its exact output
//! distribution is the dense exponential mechanism's and its privacy loss on neighbouring
//! samples is at most ε, exactly; its sampler matches that distribution (seeded χ²); over
//! 2^40 and 2^64 − 1 points it learns.

use privpac_accounting::Privacy;
use privpac_classes::{ConceptClass, ConceptParts, Hypothesis, Intervals, LabeledSample};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::worst_loss;
use crate::{Erm, GenericLearner, Learner, Predictor};

/// The id of a member named by its parts.
fn id_of(class: &Intervals, parts: ConceptParts) -> u64 {
    match parts {
        ConceptParts::Empty => 0,
        ConceptParts::Interval { low, high } => class.id_of(low, high),
        other => panic!("intervals name no {other:?}"),
    }
}

/// The wide path's exact output distribution, indexed by concept id: each member of a level
/// gets the level's probability over its count.
fn wide_distribution(
    learner: &GenericLearner,
    class: &Intervals,
    sample: &LabeledSample,
) -> Vec<f64> {
    let mut p = vec![0.0; class.len() as usize];
    let levels = learner
        .wide_level_distribution(class, sample)
        .unwrap()
        .unwrap();
    for (errors, count, probability) in levels {
        for offset in 0..count {
            let parts = class
                .parts_with_errors(sample, errors, offset)
                .unwrap()
                .unwrap();
            let id = id_of(class, parts) as usize;
            assert_eq!(p[id], 0.0, "a concept named twice");
            p[id] = probability / count as f64;
        }
    }
    p
}

/// On intervals over 1 to 7 points, on random samples, the wide path's output distribution
/// equals the dense exponential mechanism's (`concept_distribution`) concept by concept.
#[test]
fn the_wide_path_is_the_dense_exponential_mechanism() {
    let mut rng = ChaCha8Rng::seed_from_u64(80);
    for epsilon in [0.3, 1.0, 4.0] {
        let learner = GenericLearner::new(Privacy::pure(epsilon).unwrap()).unwrap();
        for size in 1u64..=7 {
            let class = Intervals::new(size).unwrap();
            for _ in 0..10 {
                let n = rng.random_range(0..12);
                let pairs: Vec<(u64, bool)> = (0..n)
                    .map(|_| (rng.random_range(0..size), rng.random_bool(0.5)))
                    .collect();
                let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
                let wide = wide_distribution(&learner, &class, &sample);
                let dense = learner.concept_distribution(&class, &sample).unwrap();
                for (id, (w, d)) in wide.iter().zip(&dense).enumerate() {
                    assert!(
                        (w - d).abs() <= 1e-12 * d.max(1e-300),
                        "id {id}: {w} vs {d}"
                    );
                }
            }
        }
    }
}

/// Exact privacy audit of the wide path: over every sample of 1 to 4 examples on 3 points
/// and every neighbour (one example replaced), the largest ratio of output probabilities is
/// at most e^ε (the sampler's internal ε is ε − 4η, so the computed loss stays below ε).
#[test]
fn the_wide_path_is_exactly_private_on_all_tiny_datasets() {
    let class = Intervals::new(3).unwrap();
    for epsilon in [0.5, 1.0, 2.0] {
        let learner = GenericLearner::new(Privacy::pure(epsilon).unwrap()).unwrap();
        let loss = worst_loss(&class, |s| wide_distribution(&learner, &class, s));
        assert!(loss <= epsilon + 1e-9, "ε = {epsilon}: loss {loss}");
    }
}

/// The sampler (`learn_by_wide_levels`) against the exact distribution on intervals over 4
/// points (11 concepts): seeded χ² test, false-failure rate 10⁻⁶.
#[test]
fn the_wide_sampler_draws_the_exact_distribution() {
    let class = Intervals::new(4).unwrap();
    let learner = GenericLearner::new(Privacy::pure(1.0).unwrap()).unwrap();
    let pairs = [(0, false), (1, true), (2, true), (3, false), (2, false)];
    let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
    let expected = wide_distribution(&learner, &class, &sample);
    let mut rng = ChaCha8Rng::seed_from_u64(81);
    let mut counts = vec![0u64; expected.len()];
    for _ in 0..40_000 {
        let predictor = learner
            .learn_by_wide_levels(&class, &sample, &mut rng)
            .unwrap()
            .unwrap();
        let id = match predictor {
            Predictor::Hypothesis(Hypothesis::Constant { label: false }) => 0,
            Predictor::Hypothesis(Hypothesis::Interval { low, high }) => class.id_of(low, high),
            other => panic!("unexpected {other:?}"),
        };
        counts[id as usize] += 1;
    }
    let outcome = privpac_audit::chi_square_gof(&counts, &expected, 1e-6).unwrap();
    assert!(!outcome.rejected, "{counts:?} vs {expected:?}: {outcome:?}");
}

/// Over 2^40 and 2^64 − 1 points (2^79 and 2^127 intervals): the generic learner at ε = 1
/// and ERM output intervals by their ends; from 2000 examples of `[N/4, N/2]` the generic
/// learner's ends are within 1% of the domain, and ERM's make no mistake.
#[test]
fn learns_intervals_up_to_two_to_the_sixty_four_points() {
    for size in [1u64 << 40, u64::MAX] {
        let class = Intervals::new(size).unwrap();
        let (a, b) = (size / 4, size / 2);
        let mut rng = ChaCha8Rng::seed_from_u64(82);
        let pairs: Vec<(u64, bool)> = (0..2000)
            .map(|_| {
                let x = rng.random_range(0..size);
                (x, (a..=b).contains(&x))
            })
            .collect();
        let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
        let learner = GenericLearner::new(Privacy::pure(1.0).unwrap()).unwrap();
        let Predictor::Hypothesis(Hypothesis::Interval { low, high }) =
            learner.learn(&class, &sample, &mut rng).unwrap()
        else {
            panic!("not an interval");
        };
        let off = low.abs_diff(a) / 2 + high.abs_diff(b) / 2;
        assert!(off < size / 200, "[{low}, {high}] against [{a}, {b}]");
        let Predictor::Hypothesis(h) = Erm::default().learn(&class, &sample, &mut rng).unwrap()
        else {
            panic!("not a hypothesis");
        };
        assert!(matches!(h, Hypothesis::Interval { .. }));
        assert!(sample.iter().all(|(x, y)| h.eval(&class, x) == y));
    }
}
