//! Exact tests of the structured interval cover and its selection against the dense
//! versions (every concept evaluated on B, the exponential mechanism over the list).

use privpac_accounting::Privacy;
use privpac_classes::{ConceptClass, ConceptParts, Hypothesis, Intervals, LabeledSample};
use privpac_mechanisms::ExponentialMechanism;
use privpac_sanitizers::{PointSanitizer, SyntheticDatabase, ThresholdSanitizer};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::cover::Labelings;
use crate::{Learner, SanitizedCover, SanitizerLearner, SupportSize};

/// A random sorted distinct support and a random labeled sample over `[size]`.
fn instance(size: u64, rng: &mut ChaCha8Rng) -> (Vec<Point>, LabeledSample) {
    let m = rng.random_range(1..=size.min(7));
    let mut support: Vec<Point> = (0..m).map(|_| rng.random_range(0..size)).collect();
    support.sort_unstable();
    support.dedup();
    let n = rng.random_range(1..=12);
    let pairs: Vec<(Point, bool)> = (0..n)
        .map(|_| (rng.random_range(0..size), rng.random_bool(0.5)))
        .collect();
    let sample =
        LabeledSample::from_pairs(&privpac_classes::Domain::ordered(size).unwrap(), &pairs)
            .unwrap();
    (support, sample)
}

fn id_of(class: &Intervals, parts: ConceptParts) -> u64 {
    match parts {
        ConceptParts::Empty => 0,
        ConceptParts::Interval { low, high } => class.id_of(low, high),
        other => panic!("the interval cover lists intervals only, got {other:?}"),
    }
}

/// The implicit cover is the dense cover (smallest id of every dichotomy on B, in id
/// order), and its scores are the dense profile's, on 300 random small instances.
#[test]
fn the_structured_cover_and_scores_are_the_dense_ones() {
    let mut rng = ChaCha8Rng::seed_from_u64(38);
    for case in 0..300 {
        let size = rng.random_range(1..=12u64);
        let class = Intervals::new(size).unwrap();
        let (support, sample) = instance(size, &mut rng);
        let len = class.len() as usize;
        let dense: Vec<u64> = Labelings::new(&class, &support, len)
            .first
            .into_iter()
            .map(|c| c as u64)
            .collect();
        let structured: Vec<u64> = members(&support).map(|p| id_of(&class, p)).collect();
        assert_eq!(
            structured, dense,
            "case {case}: N = {size}, B = {support:?}"
        );
        assert_eq!(structured.len(), cover_len(support.len()));
        let errors = class.error_counts(&sample).unwrap();
        let expected: Vec<i64> = dense
            .iter()
            .map(|&c| -(errors[c as usize] as i64))
            .collect();
        assert_eq!(scores(&support, &sample).unwrap(), expected, "case {case}");
    }
}

/// The levels of the index class hold exactly the cover's members at their scores: the
/// level sizes are the dense score histogram (shifted by the common P′), and walking every
/// offset of every level names each member exactly once, at its own score. So drawing a
/// level with probability ∝ count·exp(λ·score) and then a uniform offset is the exponential
/// mechanism over the cover.
#[test]
fn every_level_offset_names_each_member_once_at_its_score() {
    let mut rng = ChaCha8Rng::seed_from_u64(3838);
    for case in 0..300 {
        let size = rng.random_range(1..=12u64);
        let (support, sample) = instance(size, &mut rng);
        let dense_scores = scores(&support, &sample).unwrap();
        let list: Vec<ConceptParts> = members(&support).collect();
        let levels = IndexLevels::new(&support, &sample).unwrap();
        let last = *support.last().unwrap();
        let shift = sample
            .points()
            .iter()
            .zip(sample.labels().iter())
            .filter(|&(&y, label)| label && y > last)
            .count() as i64;
        let mut seen = vec![false; list.len()];
        for (k, level) in levels.levels.iter().enumerate() {
            for offset in 0..level.count {
                let parts = levels.member(&support, k, offset).unwrap();
                let at = list.iter().position(|&p| p == parts).expect("a member");
                assert!(!seen[at], "case {case}: {parts:?} twice");
                seen[at] = true;
                assert_eq!(
                    dense_scores[at],
                    -(level.errors as i64) - shift,
                    "case {case}: {parts:?}"
                );
            }
        }
        assert!(seen.iter().all(|&s| s), "case {case}: a member missing");
    }
}

/// End to end: the selection's draws follow the dense mechanism's probabilities over the
/// cover (seeded χ² goodness-of-fit test, false-failure rate 1e-6).
#[test]
fn the_selection_follows_the_dense_exponential_mechanism() {
    let class = Intervals::new(10).unwrap();
    let support = vec![1, 3, 4, 8];
    let pairs: Vec<(Point, bool)> = [
        (0, false),
        (2, true),
        (3, true),
        (5, true),
        (9, true),
        (9, false),
    ]
    .to_vec();
    let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
    let mechanism = ExponentialMechanism::new(Privacy::pure(1.0).unwrap(), 1.0).unwrap();
    let list: Vec<u64> = members(&support).map(|p| id_of(&class, p)).collect();
    let probabilities: Vec<f64> = mechanism
        .log_probabilities_integer(&scores(&support, &sample).unwrap())
        .unwrap()
        .into_iter()
        .map(f64::exp)
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut observed = vec![0u64; list.len()];
    for _ in 0..40_000 {
        let Hypothesis::Concept { id } =
            select(&class, 10, &support, &sample, &mechanism, &mut rng).unwrap()
        else {
            panic!("ids fit 64 bits here");
        };
        observed[list.iter().position(|&c| c == id).unwrap()] += 1;
    }
    let outcome = privpac_audit::chi_square_gof(&observed, &probabilities, 1e-6).unwrap();
    assert!(!outcome.rejected, "{outcome:?}");
}

/// Above 64-bit ids the chosen member is named by its ends, which are the cover's.
#[test]
fn wide_classes_name_the_chosen_interval_by_its_ends() {
    let size = 1u64 << 40;
    let class = Intervals::new(size).unwrap();
    let support = vec![5, 1 << 20, (1 << 39) + 7, size - 1];
    let pairs: Vec<(Point, bool)> = (0..200u64)
        .map(|i| {
            let x = i * (1 << 32);
            (x, (1 << 20) < x && x <= (1 << 39) + 7)
        })
        .collect();
    let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
    let mechanism = ExponentialMechanism::new(Privacy::pure(1.0).unwrap(), 1.0).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let chosen = select(&class, size, &support, &sample, &mechanism, &mut rng).unwrap();
    // The best member makes no mistake and is far ahead: [2^20 + 1, 2^39 + 7].
    assert_eq!(
        chosen,
        Hypothesis::Interval {
            low: (1 << 20) + 1,
            high: (1 << 39) + 7
        }
    );
}

/// The learner runs on intervals over 2^20 and 2^40 points with the query-free
/// sanitizers (no id of the XOR class), and on a small domain the point sanitizer's cover
/// is the one of the dense path's synthetic database (the same draws).
#[test]
fn the_learner_runs_the_query_free_sanitizers_on_huge_intervals() {
    let point = PointSanitizer::new(Privacy::new(1.0, 1e-6).unwrap(), 0.1).unwrap();
    for log2 in [20u32, 40] {
        let size = 1u64 << log2;
        let class = Intervals::new(size).unwrap();
        let pairs: Vec<(Point, bool)> = (0..4000u64)
            .map(|i| {
                let x = (i % 8) * (size / 8);
                (x, (2..5).contains(&(i % 8)))
            })
            .collect();
        let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
        let learner = SanitizerLearner::new(Box::new(point.clone()), Privacy::pure(1.0).unwrap())
            .unwrap()
            .with_support_size(SupportSize::Points(200));
        let mut rng = ChaCha8Rng::seed_from_u64(u64::from(log2));
        let predictor = learner.learn(&class, &sample, &mut rng).unwrap();
        let mistakes = pairs
            .iter()
            .filter(|&&(x, y)| predictor.predict(&class, x, &mut rng).unwrap() != y)
            .count();
        assert!(mistakes <= 400, "2^{log2}: {mistakes} mistakes");
    }
    // Small domain: the structured build equals the dense path's cover for the same seed.
    let class = Intervals::new(16).unwrap();
    let points: Vec<Point> = (0..3000u64).map(|i| (i * i) % 7 + 3).collect();
    let build = |seed| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        SanitizedCover::build(&point, &class, &points, 50, &mut rng).unwrap()
    };
    let dense = |seed| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let xor = privpac_classes::Xor::new(&class as &dyn ConceptClass).unwrap();
        let synthetic: SyntheticDatabase =
            privpac_sanitizers::Sanitizer::sanitize(&point, &xor, &points, &mut rng).unwrap();
        SanitizedCover::from_synthetic(&synthetic, &class, 50, &mut rng).unwrap()
    };
    for seed in 0..5 {
        assert_eq!(build(seed), dense(seed));
    }
    let tree = ThresholdSanitizer::new(Privacy::pure(1.0).unwrap()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let cover = SanitizedCover::build(&tree, &class, &points, 50, &mut rng).unwrap();
    assert!(cover.hypotheses().is_empty());
    assert_eq!(cover.len(), cover_len(cover.support().len()));
    assert_eq!(
        cover.interval_hypotheses().unwrap().len(),
        cover.len(),
        "the listed cover has |H| members"
    );
}
