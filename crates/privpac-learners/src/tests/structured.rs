//! The structured covers change no learner's output: with the same seed, the stable,
//! private-prediction, relabeling and Dagan–Feldman learners return exactly the same
//! predictor on a class and on the same class with its `labeling_ranges` and
//! `labeling_cells` hidden (which forces the dense construction), on small domains where
//! both run (thresholds, points, intervals and their complements); and they run on
//! thresholds and intervals over 2^40 points, where the dense construction is refused.

use privpac_classes::{
    Both, ConceptClass, Domain, ErrorLevel, ErrorRun, Intervals, LabeledSample, Not, Point, Points,
    Thresholds,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::{
    DaganFeldmanPredictor, Error, Learner, PrivatePrediction, RelabelingPredictor, StableLearner,
    VotingPredictor,
};

/// A class with every method forwarded except `labeling_ranges` and `labeling_cells`
/// (left at `None`).
#[derive(Debug)]
pub(super) struct Dense<'a>(pub(super) &'a dyn ConceptClass);

impl ConceptClass for Dense<'_> {
    fn domain(&self) -> &Domain {
        self.0.domain()
    }
    fn len(&self) -> u128 {
        self.0.len()
    }
    fn eval(&self, id: u64, x: Point) -> bool {
        self.0.eval(id, x)
    }
    fn name(&self) -> String {
        self.0.name()
    }
    fn error_counts(&self, sample: &LabeledSample) -> privpac_classes::Result<Vec<u64>> {
        self.0.error_counts(sample)
    }
    fn error_runs(&self, sample: &LabeledSample) -> privpac_classes::Result<Vec<ErrorRun>> {
        self.0.error_runs(sample)
    }
    fn error_levels(
        &self,
        sample: &LabeledSample,
    ) -> privpac_classes::Result<Option<Vec<ErrorLevel>>> {
        self.0.error_levels(sample)
    }
    fn concept_with_errors(
        &self,
        sample: &LabeledSample,
        errors: u64,
        offset: u64,
    ) -> privpac_classes::Result<Option<u64>> {
        self.0.concept_with_errors(sample, errors, offset)
    }
}

fn learners(n: usize, class_size: u128) -> Vec<Box<dyn Learner>> {
    let voting = VotingPredictor::new(1.0, 3).unwrap();
    vec![
        Box::new(StableLearner::new(1.0, n / 2).unwrap()),
        Box::new(PrivatePrediction::new(StableLearner::new(0.5, n / 3).unwrap(), 0.2).unwrap()),
        Box::new(RelabelingPredictor::new(1.0, n / 2, voting).unwrap()),
        Box::new(DaganFeldmanPredictor::new(1.0, n / 2, 2, class_size, voting, 0.1).unwrap()),
    ]
}

#[test]
fn structured_and_dense_covers_give_the_same_predictors() {
    let mut data = ChaCha8Rng::seed_from_u64(380);
    for case in 0..40u64 {
        let size = data.random_range(2u64..40);
        let classes: Vec<Box<dyn ConceptClass>> = vec![
            Box::new(Thresholds::new(size).unwrap()),
            Box::new(Points::new(Domain::ordered(size).unwrap())),
            Box::new(Not::new(Thresholds::new(size).unwrap())),
            Box::new(Both::new(Thresholds::new(size).unwrap()).unwrap()),
            Box::new(Intervals::new(size).unwrap()),
            Box::new(Not::new(Intervals::new(size).unwrap())),
            Box::new(Both::new(Intervals::new(size).unwrap()).unwrap()),
        ];
        let n = data.random_range(6usize..30);
        let pairs: Vec<(u64, bool)> = (0..n)
            .map(|_| (data.random_range(0..size), data.random_bool(0.5)))
            .collect();
        for class in &classes {
            let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
            for learner in learners(n, class.len()) {
                let structured = learner
                    .learn(
                        class.as_ref(),
                        &sample,
                        &mut ChaCha8Rng::seed_from_u64(case),
                    )
                    .unwrap();
                let dense = learner
                    .learn(
                        &Dense(class.as_ref()),
                        &sample,
                        &mut ChaCha8Rng::seed_from_u64(case),
                    )
                    .unwrap();
                assert_eq!(structured, dense, "{} {}", learner.name(), class.name());
            }
        }
    }
}

#[test]
fn cover_learners_run_on_two_to_the_forty_points() {
    let size = 1u64 << 40;
    let class = Thresholds::new(size).unwrap();
    let mut data = ChaCha8Rng::seed_from_u64(381);
    let pairs: Vec<(u64, bool)> = (0..200)
        .map(|_| {
            let x = data.random_range(0..size);
            (x, x <= size / 3)
        })
        .collect();
    let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
    for learner in learners(200, class.len()) {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        assert!(
            learner.learn(&class, &sample, &mut rng).is_ok(),
            "{}",
            learner.name()
        );
        // Hiding the ranges falls back to the dense profile, which is refused.
        assert!(
            matches!(
                learner.learn(&Dense(&class), &sample, &mut rng),
                Err(Error::Class(_))
            ),
            "{}",
            learner.name()
        );
    }
}
