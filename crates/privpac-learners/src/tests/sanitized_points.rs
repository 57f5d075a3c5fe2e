//! The sanitizer learners on point functions by structure (`POINT ⊕ POINT` as pairs of
//! points, the cover of the points in O(|B|)): the same predictors as the dense path for the
//! same seed where the sanitizer's own path is unchanged, and learning on 2^40 points.

use privpac_classes::{ErrorRun, Point};
use privpac_sanitizers::{
    Mwem, PointSanitizer, PrivateMultiplicativeWeights, Sanitizer, ThresholdSanitizer,
};
use rand::RngExt;

use super::*;
use crate::{SanitizerLearner, SupportSize};

/// The points with every method forwarded except `point_structure` (left at `None`),
/// which forces the dense path (the XOR class, the dense cover and profile).
#[derive(Debug)]
struct Dense<'a>(&'a dyn ConceptClass);

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
}

/// On domains where the dense XOR class fits, the points path leaves every sanitizer's own
/// computation unchanged (MWEM and PMW run on the same query matrix, the others read only
/// the domain): identical predictors for the same seed on the structured and the dense
/// path. (Above, MWEM's structured selection draws its pairs by score level, which has the
/// same distribution as the dense one, not the same draws; that equality is tested exactly
/// in `privpac-sanitizers`.)
#[test]
fn the_points_path_gives_the_dense_paths_predictors() {
    let approximate = Privacy::new(1.0, 1e-6).unwrap();
    let pure = Privacy::pure(1.0).unwrap();
    let sanitizers: Vec<Box<dyn Sanitizer>> = vec![
        Box::new(PointSanitizer::new(approximate, 0.1).unwrap()),
        Box::new(ThresholdSanitizer::new(pure).unwrap()),
        Box::new(PrivateMultiplicativeWeights::new(pure, 0.2).unwrap()),
        Box::new(Mwem::new(pure, 3).unwrap()),
    ];
    let mut data = ChaCha8Rng::seed_from_u64(381);
    for sanitizer in sanitizers {
        let name = sanitizer.name();
        let learner = SanitizerLearner::new(sanitizer, pure)
            .unwrap()
            .with_support_size(SupportSize::Points(6));
        for _ in 0..6 {
            let size = data.random_range(2u64..24);
            let class = Points::new(Domain::ordered(size).unwrap());
            assert_eq!(class.point_structure(), Some(size));
            let target = data.random_range(0..size);
            let pairs: Vec<(u64, bool)> = (0..60)
                .map(|_| {
                    let x = if data.random_bool(0.4) {
                        target
                    } else {
                        data.random_range(0..size)
                    };
                    (x, x == target)
                })
                .collect();
            let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
            let seed = data.random::<u64>();
            let structured = learner
                .learn(&class, &sample, &mut ChaCha8Rng::seed_from_u64(seed))
                .unwrap();
            let dense = learner
                .learn(
                    &Dense(&class),
                    &sample,
                    &mut ChaCha8Rng::seed_from_u64(seed),
                )
                .unwrap();
            assert_eq!(structured, dense, "{name}, N = {size}");
        }
    }
}

/// The learner on 2^40 points, where the XOR class has 2^80 concepts: MWEM (structured)
/// and the point sanitizer (on `XorPoints`) find the target point; 30% of the examples on
/// the target, the rest uniform. MWEM needs more examples: its exponential mechanism at
/// ε/(2T) must single out the target's pairs among 2^80.
#[test]
fn sanitizer_learner_learns_points_on_huge_domains() {
    let size = 1u64 << 40;
    let class = Points::new(Domain::ordered(size).unwrap());
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let half = Privacy::pure(0.5).unwrap();
    let cases: Vec<(Box<dyn Sanitizer>, usize)> = vec![
        (Box::new(Mwem::new(half, 20).unwrap()), 40_000),
        (
            Box::new(PointSanitizer::new(Privacy::new(0.5, 1e-6).unwrap(), 0.1).unwrap()),
            4_000,
        ),
    ];
    for (sanitizer, n) in cases {
        let name = sanitizer.name();
        let learner = SanitizerLearner::new(sanitizer, half)
            .unwrap()
            .with_support_size(SupportSize::Points(500));
        let target = rng.random_range(0..size);
        let pairs: Vec<(u64, bool)> = (0..n)
            .map(|_| {
                let x = if rng.random_bool(0.3) {
                    target
                } else {
                    rng.random_range(0..size)
                };
                (x, x == target)
            })
            .collect();
        let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
        let cover = learner.cover(&class, &sample, &mut rng).unwrap();
        assert!(cover.len() <= cover.support().len() + 1, "{name}");
        assert!(cover.hypotheses().contains(&target), "{name}");
        let predictor = learner.learn(&class, &sample, &mut rng).unwrap();
        assert_eq!(
            predictor,
            Predictor::Hypothesis(Hypothesis::Concept { id: target }),
            "{name}"
        );
    }
}
