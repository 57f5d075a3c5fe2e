//! Complemented intervals beyond 64-bit ids (`not(intervals)` and `both(intervals)`, named
//! by their ends as [`Hypothesis::NotInterval`]): on small domains the generic learner's
//! wide path is the dense exponential mechanism concept by concept and exactly ε-private;
//! over 2^40 and 2^64 − 1 points the covers score every representative by its real
//! mistakes, and every cover learner, the vote, ERM and the generic learner learn.

use privpac_accounting::Privacy;
use privpac_classes::{Both, ConceptClass, Hypothesis, Intervals, LabeledSample, Not, Point};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::worst_loss;
use crate::cover::ScoredCover;
use crate::{
    DaganFeldmanPredictor, Erm, GenericLearner, Learner, Predictor, PrivatePrediction,
    RelabelingPredictor, StableLearner, VotingPredictor,
};

fn complements(size: u64) -> Vec<Box<dyn ConceptClass>> {
    vec![
        Box::new(Not::new(Intervals::new(size).unwrap())),
        Box::new(Both::new(Intervals::new(size).unwrap()).unwrap()),
    ]
}

/// The wide path's exact output distribution by concept id: each concept gets its level's
/// probability over the level's count (the members of a level are named in id order,
/// which the classes' conformance tests check against the brute force).
fn wide_distribution(
    learner: &GenericLearner,
    class: &dyn ConceptClass,
    sample: &LabeledSample,
) -> Vec<f64> {
    let levels = learner
        .wide_level_distribution(class, sample)
        .unwrap()
        .unwrap();
    let total: u128 = levels.iter().map(|&(_, count, _)| count).sum();
    assert_eq!(total, class.len());
    class
        .error_counts(sample)
        .unwrap()
        .iter()
        .map(|errors| {
            let &(_, count, p) = levels.iter().find(|l| l.0 == *errors).unwrap();
            p / count as f64
        })
        .collect()
}

/// On not(intervals) and both(intervals) over 1 to 7 points, the generic learner's wide
/// path (a level, then a member by its parts) has the dense mechanism's distribution.
#[test]
fn the_wide_path_on_complements_is_the_dense_exponential_mechanism() {
    let mut rng = ChaCha8Rng::seed_from_u64(93);
    for epsilon in [0.3, 1.0, 4.0] {
        let learner = GenericLearner::new(Privacy::pure(epsilon).unwrap()).unwrap();
        for size in 1u64..=7 {
            for class in complements(size) {
                for _ in 0..8 {
                    let n = rng.random_range(0..12);
                    let pairs: Vec<(u64, bool)> = (0..n)
                        .map(|_| (rng.random_range(0..size), rng.random_bool(0.5)))
                        .collect();
                    let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
                    let wide = wide_distribution(&learner, class.as_ref(), &sample);
                    let dense = learner
                        .concept_distribution(class.as_ref(), &sample)
                        .unwrap();
                    for (id, (w, d)) in wide.iter().zip(&dense).enumerate() {
                        assert!(
                            (w - d).abs() <= 1e-12 * d.max(1e-300),
                            "{} id {id}: {w} vs {d}",
                            class.name()
                        );
                    }
                }
            }
        }
    }
}

/// Exact privacy audit of the wide path on not(intervals) and both(intervals) over 3
/// points: every sample of 1 to 4 examples, every neighbour.
#[test]
fn the_wide_path_on_complements_is_exactly_private() {
    for class in complements(3) {
        let learner = GenericLearner::new(Privacy::pure(1.0).unwrap()).unwrap();
        let loss = worst_loss(class.as_ref(), |s| {
            wide_distribution(&learner, class.as_ref(), s)
        });
        assert!(loss <= 1.0 + 1e-9, "{}: loss {loss}", class.name());
    }
}

/// Examples of the complement of `[N/5, 3N/5]` with 10% label noise, and every third point.
fn sample_on(
    class: &dyn ConceptClass,
    size: u64,
    n: usize,
    seed: u64,
) -> (LabeledSample, Vec<Point>) {
    let mut data = ChaCha8Rng::seed_from_u64(seed);
    let (a, b) = (size / 5, size / 5 * 3);
    let pairs: Vec<(u64, bool)> = (0..n)
        .map(|_| {
            let x = data.random_range(0..size);
            let outside = !(a <= x && x <= b);
            (x, outside != data.random_bool(0.1))
        })
        .collect();
    let points: Vec<Point> = (0..n / 3).map(|i| pairs[i * 3].0).collect();
    (
        LabeledSample::from_pairs(class.domain(), &pairs).unwrap(),
        points,
    )
}

/// Over 2^40 and 2^64 − 1 points the covers of not(intervals) and both(intervals) score
/// every representative (a complemented interval by its ends beyond 64-bit ids) by its real
/// mistakes and label the subset as their labeling says; complements by their ends occur.
#[test]
fn wide_complement_covers_score_their_representatives_exactly() {
    for (seed, size) in [(5u64, 1u64 << 40), (6, u64::MAX)] {
        for class in complements(size) {
            let (sample, points) = sample_on(class.as_ref(), size, 90, seed);
            let cover = ScoredCover::new(class.as_ref(), &points, &sample).unwrap();
            let representative = cover.representative_scores();
            let fewest = cover.fewest_scores();
            let mut by_ends = 0;
            for slot in 0..representative.len() {
                let h = cover.representative(slot);
                by_ends += usize::from(matches!(h, Hypothesis::NotInterval { .. }));
                let mistakes = sample
                    .iter()
                    .filter(|&(x, y)| h.eval(class.as_ref(), x) != y)
                    .count();
                assert_eq!(-representative[slot], mistakes as i64, "{h:?}");
                assert!(fewest[slot] >= representative[slot]);
                let labels: Vec<bool> = points.iter().map(|&x| h.eval(class.as_ref(), x)).collect();
                assert_eq!(cover.labels(slot, &points), labels, "{h:?}");
            }
            assert!(by_ends > 0, "{}", class.name());
        }
    }
}

/// Over 2^64 − 1 points every cover learner, the vote, ERM and the generic learner learn
/// not(intervals) (the target's complement `[N/5, 3N/5]` by its ends): their outputs are
/// concepts, constants or intervals and complements by their ends, and ERM's and the
/// generic learner's hypotheses err on at most 20% of the sample (10% label noise).
#[test]
fn learners_learn_complemented_intervals_over_two_to_the_sixty_four_points() {
    let size = u64::MAX;
    for class in complements(size) {
        let (sample, _) = sample_on(class.as_ref(), size, 200, 7);
        let voting = VotingPredictor::new(1.0, 3).unwrap();
        let learners: Vec<Box<dyn Learner>> = vec![
            Box::new(StableLearner::new(1.0, 60).unwrap()),
            Box::new(PrivatePrediction::new(StableLearner::new(0.5, 40).unwrap(), 0.2).unwrap()),
            Box::new(RelabelingPredictor::new(1.0, 60, voting).unwrap()),
            Box::new(DaganFeldmanPredictor::new(1.0, 60, 2, class.len(), voting, 0.1).unwrap()),
            Box::new(voting),
            Box::new(Erm::default()),
            Box::new(GenericLearner::new(Privacy::pure(1.0).unwrap()).unwrap()),
        ];
        for learner in learners {
            let predictor = learner
                .learn(class.as_ref(), &sample, &mut ChaCha8Rng::seed_from_u64(8))
                .unwrap_or_else(|e| panic!("{} on {}: {e}", learner.name(), class.name()));
            let mut members = Vec::new();
            collect(&predictor, &mut members);
            assert!(!members.is_empty(), "{}", learner.name());
            for h in &members {
                assert!(
                    matches!(
                        h,
                        Hypothesis::Interval { .. }
                            | Hypothesis::NotInterval { .. }
                            | Hypothesis::Constant { .. }
                            | Hypothesis::Concept { .. }
                    ),
                    "{}: {h:?}",
                    learner.name()
                );
            }
            if let Predictor::Hypothesis(h) = &predictor {
                let wrong = sample
                    .iter()
                    .filter(|&(x, y)| h.eval(class.as_ref(), x) != y)
                    .count();
                assert!(
                    wrong <= sample.len() / 5,
                    "{} on {}: {h:?} errs on {wrong}",
                    learner.name(),
                    class.name()
                );
            }
        }
    }
}

fn collect(predictor: &Predictor, into: &mut Vec<Hypothesis>) {
    match predictor {
        Predictor::Hypothesis(h) => into.push(h.clone()),
        Predictor::Flipped { base, .. } => collect(base, into),
        Predictor::NoisyVote { members, .. } => into.extend(members.iter().cloned()),
    }
}
