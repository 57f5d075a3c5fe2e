//! The sanitizer learners on threshold classes by structure: the cover equals the dense
//! one, and MWEM runs on domains far beyond any dense histogram; the cover from labeling
//! ranges (point functions, complements) equals the dense one too.

use privpac_classes::{Both, ThresholdStructure};
use rand::RngExt;

use super::*;
use crate::sanitized_cover::ranges_cover;
use crate::{SanitizedCover, SanitizerLearner, SupportSize, threshold_cover};

/// The smallest id of every distinct labeling of `support`, by brute force over the class.
fn dense_cover(class: &dyn ConceptClass, support: &[u64]) -> Vec<u64> {
    let mut seen: Vec<Vec<bool>> = Vec::new();
    let mut out = Vec::new();
    for c in 0..class.len() as u64 {
        let labeling: Vec<bool> = support.iter().map(|&x| class.eval(c, x)).collect();
        if !seen.contains(&labeling) {
            seen.push(labeling);
            out.push(c);
        }
    }
    out
}

#[test]
fn threshold_cover_equals_the_dense_cover() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for size in [1u64, 2, 3, 8, 30] {
        let plain = Thresholds::new(size).unwrap();
        let both = Both::new(Thresholds::new(size).unwrap()).unwrap();
        assert_eq!(
            plain.threshold_structure(),
            Some(ThresholdStructure::Plain(size))
        );
        assert_eq!(
            both.threshold_structure(),
            Some(ThresholdStructure::Both(size))
        );
        for _ in 0..20 {
            let m = rng.random_range(1..=size.min(6));
            let mut support: Vec<u64> = (0..m).map(|_| rng.random_range(0..size)).collect();
            support.sort_unstable();
            support.dedup();
            assert_eq!(
                threshold_cover(ThresholdStructure::Plain(size), &support),
                dense_cover(&plain, &support),
                "N = {size}, B = {support:?}"
            );
            assert_eq!(
                threshold_cover(ThresholdStructure::Both(size), &support),
                dense_cover(&both, &support),
                "both, N = {size}, B = {support:?}"
            );
        }
    }
    // Other classes have no threshold structure (not(thresholds) ids are not thresholds).
    assert_eq!(
        privpac_classes::Not::new(Thresholds::new(8).unwrap()).threshold_structure(),
        None
    );
    assert_eq!(
        Points::new(Domain::ordered(8).unwrap()).threshold_structure(),
        None
    );
}

/// The learner on 2^20 and 2^29 points (both orientations), where the dense XOR class
/// needs a query matrix of N³ bits: a good threshold at ε = 1 from 4,000 examples.
#[test]
fn sanitizer_learner_learns_thresholds_on_huge_domains() {
    use privpac_sanitizers::Mwem;
    let mwem = Mwem::new(Privacy::pure(0.5).unwrap(), 20).unwrap();
    let learner = SanitizerLearner::new(Box::new(mwem), Privacy::pure(0.5).unwrap())
        .unwrap()
        .with_support_size(SupportSize::Points(500));
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    for (size, both) in [(1u64 << 20, false), (1 << 29, true)] {
        let class: Box<dyn ConceptClass> = if both {
            Box::new(Both::new(Thresholds::new(size).unwrap()).unwrap())
        } else {
            Box::new(Thresholds::new(size).unwrap())
        };
        let target = size / 3;
        let points: Vec<u64> = (0..4000).map(|_| rng.random_range(0..size)).collect();
        let pairs: Vec<(u64, bool)> = points.iter().map(|&x| (x, x <= target)).collect();
        let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
        let cover = learner.cover(class.as_ref(), &sample, &mut rng).unwrap();
        assert!(cover.support().len() <= 500);
        assert!(cover.len() <= 2 * cover.support().len() + 1);
        let Predictor::Hypothesis(Hypothesis::Concept { id }) =
            learner.learn(class.as_ref(), &sample, &mut rng).unwrap()
        else {
            panic!("proper learner")
        };
        // True error under the uniform distribution: the disagreement region's mass.
        let error = if id < size {
            id.abs_diff(target) as f64 / size as f64
        } else {
            1.0 - (id - size).abs_diff(target) as f64 / size as f64
        };
        assert!(error < 0.1, "N = {size}: chose {id}, error {error}");
    }
    // The cover from a piecewise distribution refuses another class.
    let pieces = privpac_sanitizers::PiecewiseDistribution::uniform(16).unwrap();
    assert!(matches!(
        SanitizedCover::from_pieces(&pieces, &Thresholds::new(8).unwrap(), 4, &mut rng),
        Err(Error::InvalidParameter { .. })
    ));
}

/// The point sanitizer's learner on thresholds and both(thresholds) beyond the XOR class's
/// ids (2^40, 2^62 and 2^64 − 1 points): the sanitizer answers by structure (it reads no query),
/// B is the synthetic database's support, H its threshold cover, and on data of a few
/// heavy points (each released, with copies) the selection labels every heavy point right:
/// the target cut between two heavy points is in H, and every other member of H errs on a
/// whole heavy point (about n/6 examples), so at ε = 0.5 the exponential mechanism misses
/// it with probability below |H|·e^{−0.25·600}, negligible.
#[test]
fn point_sanitizer_learner_runs_on_thresholds_beyond_xor_ids() {
    use privpac_sanitizers::PointSanitizer;
    let sanitizer = PointSanitizer::new(Privacy::new(0.5, 1e-6).unwrap(), 0.1).unwrap();
    let learner = SanitizerLearner::new(Box::new(sanitizer), Privacy::pure(0.5).unwrap()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    for (size, both) in [
        (1u64 << 40, false),
        (1 << 40, true),
        (1 << 62, true),
        (u64::MAX, false),
    ] {
        let class: Box<dyn ConceptClass> = if both {
            Box::new(Both::new(Thresholds::new(size).unwrap()).unwrap())
        } else {
            Box::new(Thresholds::new(size).unwrap())
        };
        let heavy: Vec<u64> = (1..=6).map(|j| (size / 7) * j + 3).collect();
        let target = heavy[2] + 1; // the first three heavy points are labeled 1
        let points: Vec<u64> = (0..3600).map(|i| heavy[i % 6]).collect();
        let pairs: Vec<(u64, bool)> = points.iter().map(|&x| (x, x <= target)).collect();
        let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
        let cover = learner.cover(class.as_ref(), &sample, &mut rng).unwrap();
        for x in &heavy {
            assert!(cover.support().contains(x), "N = {size}: {x} not in B");
        }
        let structure = class.threshold_structure().unwrap();
        assert_eq!(
            cover.hypotheses(),
            threshold_cover(structure, cover.support())
        );
        let predictor = learner.learn(class.as_ref(), &sample, &mut rng).unwrap();
        let Predictor::Hypothesis(hypothesis) = predictor else {
            panic!("proper learner")
        };
        for &x in &heavy {
            assert_eq!(
                hypothesis.eval(class.as_ref(), x),
                x <= target,
                "N = {size}, both = {both}: {hypothesis:?} at {x}"
            );
        }
    }
}

/// The cover from labeling ranges is the brute-force cover (smallest id of every distinct
/// labeling, increasing) for every class that gives ranges, on random supports; and
/// `from_synthetic` on a point-function class returns it (a database whose support is
/// small enough to be B itself).
#[test]
fn ranges_cover_equals_the_dense_cover() {
    use privpac_classes::{Domain, Not, Points};
    use privpac_sanitizers::SyntheticDatabase;
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    for size in [1u64, 2, 3, 8, 30] {
        let points = Points::new(Domain::ordered(size).unwrap());
        let classes: Vec<Box<dyn ConceptClass>> = vec![
            Box::new(points.clone()),
            Box::new(Not::new(points.clone())),
            Box::new(Not::new(Thresholds::new(size).unwrap())),
            Box::new(Both::new(points.clone()).unwrap()),
        ];
        for class in &classes {
            for _ in 0..20 {
                let m = rng.random_range(1..=size.min(6));
                let mut support: Vec<u64> = (0..m).map(|_| rng.random_range(0..size)).collect();
                support.sort_unstable();
                support.dedup();
                let Some(ranges) = class.labeling_ranges(&support).unwrap() else {
                    panic!("{} gives no ranges", class.name());
                };
                assert_eq!(
                    ranges_cover(&ranges, support.len()),
                    dense_cover(class.as_ref(), &support),
                    "{} on {support:?}",
                    class.name()
                );
            }
        }
        let weights: Vec<(u64, f64)> = (0..size).step_by(3).map(|x| (x, 1.0)).collect();
        let synthetic = SyntheticDatabase::from_weights(points.domain(), weights).unwrap();
        let cover = SanitizedCover::from_synthetic(&synthetic, &points, 100, &mut rng).unwrap();
        assert_eq!(cover.hypotheses(), dense_cover(&points, cover.support()));
        // Its scores come from the error runs: the dense profile's counts.
        let pairs: Vec<(u64, bool)> = (0..40u64).map(|i| (i * 7 % size, i % 3 == 0)).collect();
        let sample = LabeledSample::from_pairs(points.domain(), &pairs).unwrap();
        let dense = points.error_counts(&sample).unwrap();
        let expected: Vec<i64> = cover
            .hypotheses()
            .iter()
            .map(|&c| -(dense[c as usize] as i64))
            .collect();
        assert_eq!(cover.scores(&points, &sample).unwrap(), expected);
    }
}

/// The numbers of the proposition in [`SanitizerLearner`]'s docs ("With the point
/// sanitizer on thresholds"), from the sanitizer the lab builds for the coverage cell
/// (ε₁ = 1/2, δ = 10⁻⁶, α = 0.1): τ = 54, m = 20, and the bound
/// `E|K| + E|R|/(L − m)` on the probability of an α-accurate output is at most 1.1·10⁻³
/// for every n ≤ 2^20 (a doubling grid and the worst region near m·τ) at N = 2^20 and 2^40,
/// with t* = N/2. `E|R| = N·Σ_{h≥1} Pr[Bin(n, 1/N) = h]·Pr[Z ≥ τ − h]`, the binomial
/// summed to h = 400 (its tail beyond is below 10⁻³⁰⁰ for n/N ≤ 1).
#[test]
fn the_point_sanitizer_bound_on_uniform_thresholds_holds_as_documented() {
    use privpac_sanitizers::PointSanitizer;
    let sanitizer = PointSanitizer::new(Privacy::new(0.5, 1e-6).unwrap(), 0.1).unwrap();
    assert_eq!(sanitizer.threshold(), 54);
    assert_eq!(sanitizer.database_size(), 20);
    let noise = sanitizer.noise();
    let m = sanitizer.database_size() as f64;
    // N·Σ_{h≥1} Pr[Bin(n, 1/N) = h]·Pr[Z ≥ level − h].
    let expected_released = |n: u64, size: f64, level: i64| {
        let q = 1.0 / size;
        let mut pmf = (n as f64 * (-q).ln_1p()).exp(); // Pr[h = 0]
        let mut total = 0.0;
        for h in 1..=400u64.min(n) {
            pmf *= (n - h + 1) as f64 / h as f64 * q / (1.0 - q);
            total += pmf * noise.survival(level - h as i64);
        }
        size * total
    };
    for size in [(1u64 << 20) as f64, (1u64 << 40) as f64] {
        let below = size / 2.0 - 0.1 * size - m; // L − m
        let sizes = (2..=20).map(|k| 1u64 << k).chain(1000..=1200);
        for n in sizes {
            let tau = sanitizer.threshold();
            let copied = tau.max((n as f64 / m).ceil() as i64);
            let bound =
                expected_released(n, size, copied) + expected_released(n, size, tau) / below;
            assert!(bound <= 1.1e-3, "N = {size}, n = {n}: {bound}");
        }
        // At n = N = 2^20 about 0.78 points are released in expectation.
        if size == (1u64 << 20) as f64 {
            let r = expected_released(1 << 20, size, sanitizer.threshold());
            assert!((r - 0.78).abs() < 0.01, "{r}");
        }
    }
}
