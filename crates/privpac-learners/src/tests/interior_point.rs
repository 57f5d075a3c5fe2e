//! The interior-point learner: the reduction's neighbour distance, its guarantee, and its
//! accuracy at the bound.

use privpac_classes::{ConceptClass, Thresholds};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;

fn learner(alpha: f64) -> InteriorPointLearner {
    InteriorPointLearner::new(Privacy::new(1.0, 1e-6).unwrap(), alpha).unwrap()
}

/// Replace-one distance between two multisets of equal size.
fn replacements(a: &[u64], b: &[u64]) -> usize {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort_unstable();
    b.sort_unstable();
    let (mut i, mut j, mut common) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
        }
    }
    a.len() - common
}

#[test]
fn neighbouring_samples_give_treelog_inputs_at_distance_at_most_two() {
    // The privacy proof's step: exhaustively over random samples and every kind of
    // replacement (label flip, point move, both).
    let class = Thresholds::new(64).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for trial in 0..2000 {
        let n = rng.random_range(1..40usize);
        let alpha = [0.1, 0.5, 0.9][trial % 3];
        let learner = learner(alpha);
        let points: Vec<u64> = (0..n).map(|_| rng.random_range(0..64u64)).collect();
        let labels: Vec<bool> = (0..n).map(|_| rng.random::<bool>()).collect();
        let sample = LabeledSample::new(class.domain(), points.clone(), labels.clone()).unwrap();
        let (mut points2, mut labels2) = (points, labels);
        let k = rng.random_range(0..n);
        points2[k] = rng.random_range(0..64u64);
        labels2[k] = rng.random::<bool>();
        let neighbour = LabeledSample::new(class.domain(), points2, labels2).unwrap();
        let a = learner.treelog_input(64, &sample);
        let b = learner.treelog_input(64, &neighbour);
        assert_eq!(a.len(), b.len());
        assert!(replacements(&a, &b) <= 2, "trial {trial}: {a:?} vs {b:?}");
    }
}

/// The definition of TreeLog's input: pad each side, sort it whole, keep m.
fn treelog_input_by_sorting(
    learner: &InteriorPointLearner,
    size: u64,
    sample: &LabeledSample,
) -> Vec<u64> {
    let m = learner.side_size(sample.len()) as usize;
    let (mut positives, mut negatives): (Vec<u64>, Vec<u64>) = (Vec::new(), Vec::new());
    for (x, y) in sample.iter() {
        if y {
            positives.push(x);
        } else {
            negatives.push(x);
        }
    }
    positives.extend(std::iter::repeat_n(0, m));
    negatives.extend(std::iter::repeat_n(size - 1, m));
    positives.sort_unstable();
    negatives.sort_unstable();
    let mut points = positives[positives.len() - m..].to_vec();
    points.extend_from_slice(&negatives[..m]);
    points
}

#[test]
fn the_selected_input_is_the_sorted_definition_exactly() {
    // The learner keeps each side's m extremes by selection; the vector must be the one the
    // definition (pad, sort everything, keep m) gives, so results do not change. Small
    // domains force ties with the padding values 0 and size − 1; both sides short of m,
    // exactly m and beyond are all drawn.
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for trial in 0..3000 {
        let size = [2u64, 5, 64, 1 << 40][trial % 4];
        let class = Thresholds::new(size).unwrap();
        let n = rng.random_range(1..200usize);
        let learner = learner([0.1, 0.3, 0.9][trial % 3]);
        let bias = rng.random_range(0.0..1.0f64);
        let points: Vec<u64> = (0..n).map(|_| rng.random_range(0..size)).collect();
        let labels: Vec<bool> = (0..n).map(|_| rng.random::<f64>() < bias).collect();
        let sample = LabeledSample::new(class.domain(), points, labels).unwrap();
        assert_eq!(
            learner.treelog_input(size, &sample),
            treelog_input_by_sorting(&learner, size, &sample),
            "trial {trial}"
        );
    }
}

#[test]
fn the_guarantee_is_the_target_and_treelog_runs_at_its_group_privacy_share() {
    let l = learner(0.1);
    assert_eq!(
        l.guarantee(1000),
        Guarantee::DifferentialPrivacy(Privacy::new(1.0, 1e-6).unwrap())
    );
    let inner = l.treelog_privacy().unwrap();
    // Group privacy for two replacements: (2ε′, (1 + e^{ε′})δ′) within the target.
    assert!(2.0 * inner.epsilon() <= 1.0);
    assert!((1.0 + inner.epsilon().exp()) * inner.delta() <= 1e-6);
    assert!(InteriorPointLearner::new(Privacy::pure(1.0).unwrap(), 0.1).is_err());
    assert!(InteriorPointLearner::new(Privacy::new(1.0, 1e-6).unwrap(), 0.0).is_err());
    assert_eq!(l.name(), "interior-point");
}

#[test]
fn learns_a_threshold_at_the_bound() {
    // One seeded run at the bound (α = 0.5, β = 0.1 on 2^32 points): the failure
    // probability is at most β = 0.1 by the bound's proof; the assertion is on the
    // empirical error (at most α/2 whenever TreeLog succeeds, which fails with probability
    // below 10⁻¹⁰ here), so this seed's false-failure rate is below 10⁻¹⁰.
    let size = 1u64 << 32;
    let (alpha, beta) = (0.5, 0.1);
    let n = crate::bounds::interior_point_learner_sample_size(size, 1.0, 1e-6, alpha, beta)
        .unwrap()
        .ceil() as usize;
    let class = Thresholds::new(size).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(39);
    let target = 3u64 << 30;
    let points: Vec<u64> = (0..n).map(|_| rng.random_range(0..size)).collect();
    let labels: Vec<bool> = points.iter().map(|&x| x <= target).collect();
    let sample = LabeledSample::new(class.domain(), points.clone(), labels.clone()).unwrap();
    let predictor = learner(alpha).learn(&class, &sample, &mut rng).unwrap();
    let Predictor::Hypothesis(Hypothesis::Concept { id }) = predictor else {
        panic!("not a threshold: {predictor:?}");
    };
    let mistakes = points
        .iter()
        .zip(&labels)
        .filter(|&(&x, &y)| (x <= id) != y)
        .count();
    assert!(
        (mistakes as f64) < alpha / 2.0 * n as f64,
        "{mistakes} of {n}"
    );
}

#[test]
fn refuses_other_classes() {
    let class = privpac_classes::Points::new(privpac_classes::Domain::ordered(16).unwrap());
    let sample = LabeledSample::new(class.domain(), vec![1, 2], vec![true, false]).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    assert!(matches!(
        learner(0.1).learn(&class, &sample, &mut rng),
        Err(Error::InvalidHypothesis { .. })
    ));
}
