//! Intervals beyond 64-bit ids in the cover learners and the vote: the covers over 2^40
//! and 2^64 − 1 points score every representative by its real mistakes and label the
//! subset as it does; the vote's blocks above 2^60 concepts are the concepts ERM names by
//! id wherever ids fit; and every cover learner learns at 2^40 points.

use privpac_classes::{ConceptClass, Hypothesis, Intervals, LabeledSample, Point};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::cover::ScoredCover;
use crate::{
    DaganFeldmanPredictor, Learner, Predictor, PrivatePrediction, RelabelingPredictor,
    StableLearner, VotingPredictor,
};

fn sample_on(class: &Intervals, size: u64, n: usize, seed: u64) -> (LabeledSample, Vec<Point>) {
    let mut data = ChaCha8Rng::seed_from_u64(seed);
    let (a, b) = (size / 5, size / 5 * 3);
    let pairs: Vec<(u64, bool)> = (0..n)
        .map(|_| {
            let x = data.random_range(0..size);
            (x, (a <= x && x <= b) != data.random_bool(0.1))
        })
        .collect();
    let points: Vec<Point> = (0..n / 3).map(|i| pairs[i * 3].0).collect();
    (
        LabeledSample::from_pairs(class.domain(), &pairs).unwrap(),
        points,
    )
}

/// Over 2^40 and 2^64 − 1 points every representative of the cover (an interval by its
/// ends beyond 64-bit ids) makes exactly the mistakes it is scored with, labels the subset
/// as its labeling says, no concept of its labeling does better than the fewest (which is
/// at most the representative's), and the labelings are the m(m + 1)/2 + 1 of m points.
#[test]
fn wide_interval_covers_score_their_representatives_exactly() {
    for (seed, size) in [(1u64, 1u64 << 40), (2, u64::MAX)] {
        let class = Intervals::new(size).unwrap();
        let (sample, points) = sample_on(&class, size, 90, seed);
        let cover = ScoredCover::new(&class, &points, &sample).unwrap();
        let representative = cover.representative_scores();
        let fewest = cover.fewest_scores();
        let m = privpac_classes::sorted_distinct(&points).len();
        assert_eq!(representative.len(), m * (m + 1) / 2 + 1);
        for slot in 0..representative.len() {
            let h = cover.representative(slot);
            // By id while it fits (intervals starting at 0), by the ends beyond.
            assert!(
                matches!(h, Hypothesis::Interval { .. } | Hypothesis::Concept { .. }),
                "{h:?}"
            );
            let mistakes = sample
                .iter()
                .filter(|&(x, y)| h.eval(&class, x) != y)
                .count();
            assert_eq!(-representative[slot], mistakes as i64, "{h:?}");
            assert!(fewest[slot] >= representative[slot]);
            let labels: Vec<bool> = points.iter().map(|&x| h.eval(&class, x)).collect();
            assert_eq!(cover.labels(slot, &points), labels, "{h:?}");
        }
    }
}

/// Above 2^60 concepts with ids that still fit (2^32 points: about 2^63 intervals), the
/// vote's members by their parts are the concepts ERM names by id, block by block.
#[test]
fn wide_vote_members_are_the_block_erms() {
    let size = 1u64 << 32;
    let class = Intervals::new(size).unwrap();
    assert!(class.len() > u128::from(privpac_mechanisms::MAX_TOTAL_COUNT));
    for seed in 0..5 {
        let (sample, _) = sample_on(&class, size, 60, 10 + seed);
        let vote = VotingPredictor::new(1.0, 5).unwrap();
        let ids = vote.members(&class, &sample).unwrap();
        let parts = vote.member_hypotheses(&class, &sample).unwrap();
        for (id, h) in ids.into_iter().zip(parts) {
            let expected = match class.bounds(id) {
                Some((low, high)) => Hypothesis::Interval { low, high },
                None => Hypothesis::Constant { label: false },
            };
            assert_eq!(h, expected);
        }
    }
}

/// Every cover learner and the vote learn on intervals over 2^40 points, where the dense
/// profile (2^79 concepts) is out of the question, and output intervals (by their ends,
/// or by id where it fits).
#[test]
fn cover_learners_learn_intervals_over_two_to_the_forty_points() {
    let size = 1u64 << 40;
    let class = Intervals::new(size).unwrap();
    let (sample, _) = sample_on(&class, size, 200, 3);
    let voting = VotingPredictor::new(1.0, 3).unwrap();
    let learners: Vec<Box<dyn Learner>> = vec![
        Box::new(StableLearner::new(1.0, 60).unwrap()),
        Box::new(PrivatePrediction::new(StableLearner::new(0.5, 40).unwrap(), 0.2).unwrap()),
        Box::new(RelabelingPredictor::new(1.0, 60, voting).unwrap()),
        Box::new(DaganFeldmanPredictor::new(1.0, 60, 2, class.len(), voting, 0.1).unwrap()),
        Box::new(voting),
    ];
    for learner in learners {
        let predictor = learner
            .learn(&class, &sample, &mut ChaCha8Rng::seed_from_u64(4))
            .unwrap();
        let mut members = Vec::new();
        collect(&predictor, &mut members);
        assert!(!members.is_empty(), "{}", learner.name());
        for h in members {
            assert!(
                matches!(
                    h,
                    Hypothesis::Interval { .. }
                        | Hypothesis::Constant { label: false }
                        | Hypothesis::Concept { .. }
                ),
                "{}: {h:?}",
                learner.name()
            );
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
