//! Parities by their linear structure change no learner's output: the covers from the
//! cosets of the points' kernel equal the dense grouping of every parity, a block's ERM by
//! Gaussian elimination equals the profile's, and with the same seed every cover learner,
//! the voting learner and the sanitizer-based learner return exactly the same predictor on
//! `parities:d` and on the same class with its structure hidden (which forces the dense
//! constructions), on many random samples over small cubes.

use privpac_accounting::Privacy;
use privpac_classes::{ConceptClass, LabeledSample, Parities, Point};
use privpac_sanitizers::{PointSanitizer, SyntheticDatabase};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::structured::Dense;
use crate::cover::{Labelings, ScoredCover};
use crate::erm::best_run;
use crate::{
    DaganFeldmanPredictor, Learner, PrivatePrediction, RelabelingPredictor, SanitizedCover,
    SanitizerLearner, StableLearner, VotingPredictor,
};

/// A random sample over `{0,1}^dim`: labeled by a random parity, with each label flipped
/// with probability `noise` (so some samples are inconsistent), repeated points included.
fn sample(rng: &mut ChaCha8Rng, dim: u32, n: usize, noise: f64) -> LabeledSample {
    let class = Parities::new(dim).unwrap();
    let target = rng.random_range(0..1u64 << dim);
    let pairs: Vec<(Point, bool)> = (0..n)
        .map(|_| {
            let x = rng.random_range(0..1u64 << dim);
            (x, class.eval(target, x) ^ rng.random_bool(noise))
        })
        .collect();
    LabeledSample::from_pairs(class.domain(), &pairs).unwrap()
}

/// The coset cover equals the dense cover (same representatives in the same order, same
/// scores of both kinds, same labels), 300 cases over cubes of dimension 1 to 9.
#[test]
fn coset_cover_equals_the_dense_cover() {
    let mut rng = ChaCha8Rng::seed_from_u64(3801);
    for _ in 0..300 {
        let dim = rng.random_range(1u32..10);
        let n = rng.random_range(1usize..40);
        let sample = sample(&mut rng, dim, n, 0.3);
        let t = rng.random_range(1usize..12);
        let points: Vec<Point> = (0..t)
            .map(|_| sample.points()[rng.random_range(0..n)])
            .collect();
        let class = Parities::new(dim).unwrap();
        let errors = class.error_counts(&sample).unwrap();
        let dense = ScoredCover::dense(&class, &points, &errors);
        let structured = ScoredCover::new(&class, &points, &sample).unwrap();
        let what = format!("parities:{dim} on {points:?}");
        let count = dense.representative_scores().len();
        assert_eq!(structured.representative_scores().len(), count, "{what}");
        for slot in 0..count {
            assert_eq!(
                structured.representative(slot),
                dense.representative(slot),
                "{what}"
            );
            assert_eq!(
                structured.labels(slot, &points),
                dense.labels(slot, &points),
                "{what}"
            );
        }
        assert_eq!(
            structured.representative_scores(),
            dense.representative_scores(),
            "{what}"
        );
        assert_eq!(structured.fewest_scores(), dense.fewest_scores(), "{what}");
    }
}

/// The voting members by elimination equal ERM from the profile (the first concept of
/// the first best run) on every block, consistent blocks or not: 300 cases.
#[test]
fn block_erm_by_elimination_equals_the_profile() {
    let mut rng = ChaCha8Rng::seed_from_u64(3802);
    for _ in 0..300 {
        let dim = rng.random_range(1u32..10);
        let voters = rng.random_range(1usize..6);
        let n = rng.random_range(voters..60);
        let noise = [0.0, 0.1, 0.5][rng.random_range(0..3usize)];
        let sample = sample(&mut rng, dim, n, noise);
        let class = Parities::new(dim).unwrap();
        let voting = VotingPredictor::new(1.0, voters).unwrap();
        let members = voting.members(&class, &sample).unwrap();
        let hidden = voting.members(&Dense(&class), &sample).unwrap();
        assert_eq!(members, hidden, "parities:{dim}, {voters} voters");
        for (block, &member) in members.iter().enumerate() {
            let (start, end) = (block * n / voters, (block + 1) * n / voters);
            let part = LabeledSample::new(
                class.domain(),
                sample.points()[start..end].to_vec(),
                (start..end).map(|i| sample.labels()[i]).collect(),
            )
            .unwrap();
            let best = best_run(&class.error_runs(&part).unwrap()).unwrap();
            assert_eq!(member, best.first);
        }
    }
}

/// The sanitized cover of parities (coset minima of the support's kernel) equals the
/// first parity of every dichotomy of a dense grouping, and its scores those read from
/// the profile: 300 supports.
#[test]
fn sanitized_parity_cover_equals_the_dense_grouping() {
    let mut rng = ChaCha8Rng::seed_from_u64(3803);
    for _ in 0..300 {
        let dim = rng.random_range(1u32..10);
        let class = Parities::new(dim).unwrap();
        let m = rng.random_range(1usize..12);
        let points: Vec<Point> = (0..m).map(|_| rng.random_range(0..1u64 << dim)).collect();
        let synthetic = SyntheticDatabase::from_points(class.domain(), points).unwrap();
        let support_size = rng.random_range(1usize..16);
        let seed = rng.random_range(0..u64::MAX);
        let cover = SanitizedCover::from_synthetic(
            &synthetic,
            &class,
            support_size,
            &mut ChaCha8Rng::seed_from_u64(seed),
        )
        .unwrap();
        let hidden = SanitizedCover::from_synthetic(
            &synthetic,
            &Dense(&class),
            support_size,
            &mut ChaCha8Rng::seed_from_u64(seed),
        )
        .unwrap();
        let dense: Vec<u64> = Labelings::new(&class, cover.support(), 1 << dim)
            .first
            .into_iter()
            .map(|c| c as u64)
            .collect();
        assert_eq!(
            cover.hypotheses(),
            dense.as_slice(),
            "{:?}",
            cover.support()
        );
        assert_eq!(cover, hidden);
        // The members' scores counted directly (few members) or read from the profile.
        let n = rng.random_range(1usize..300);
        let labeled = sample(&mut rng, dim, n, 0.3);
        assert_eq!(
            cover.scores(&class, &labeled).unwrap(),
            hidden.scores(&Dense(&class), &labeled).unwrap()
        );
    }
}

fn learners(n: usize, class_size: u128) -> Vec<Box<dyn Learner>> {
    let voting = VotingPredictor::new(1.0, 3).unwrap();
    let point = PointSanitizer::new(Privacy::new(1.0, 1e-6).unwrap(), 0.25).unwrap();
    vec![
        Box::new(StableLearner::new(1.0, n / 2).unwrap()),
        Box::new(PrivatePrediction::new(StableLearner::new(0.5, n / 3).unwrap(), 0.2).unwrap()),
        Box::new(voting),
        Box::new(RelabelingPredictor::new(1.0, n / 2, voting).unwrap()),
        Box::new(DaganFeldmanPredictor::new(1.0, n / 2, 2, class_size, voting, 0.1).unwrap()),
        Box::new(SanitizerLearner::new(Box::new(point), Privacy::pure(1.0).unwrap()).unwrap()),
    ]
}

/// Every learner whose parity path changed gives the same predictor with the structure
/// hidden, for the same seed: 60 samples over cubes of dimension 1 to 8, realizable and
/// noisy.
#[test]
fn structured_and_dense_parities_give_the_same_predictors() {
    let mut data = ChaCha8Rng::seed_from_u64(3804);
    for case in 0..60u64 {
        let dim = data.random_range(1u32..9);
        let n = data.random_range(6usize..40);
        let noise = [0.0, 0.2][data.random_range(0..2usize)];
        let sample = sample(&mut data, dim, n, noise);
        let class = Parities::new(dim).unwrap();
        for learner in learners(n, class.len()) {
            let structured = learner
                .learn(&class, &sample, &mut ChaCha8Rng::seed_from_u64(case))
                .unwrap();
            let dense = learner
                .learn(
                    &Dense(&class),
                    &sample,
                    &mut ChaCha8Rng::seed_from_u64(case),
                )
                .unwrap();
            assert_eq!(structured, dense, "{} parities:{dim}", learner.name());
        }
    }
}
