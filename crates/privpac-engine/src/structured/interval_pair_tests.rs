//! Interval hypotheses and their complements named by their ends ([`Hypothesis::Interval`],
//! [`Hypothesis::NotInterval`], what learners output for intervals, not(intervals) and
//! both(intervals) beyond 64-bit ids): their closed-form true error equals the same
//! concept's by id and the O(|X|) reference, exactly, on every interval of small domains, plain and
//! complemented targets, under every structured distribution.
use privpac_classes::{Both, ConceptClass, Hypothesis, Intervals};
use privpac_learners::Predictor;

use crate::{ExampleDistribution, Scenario};

#[test]
fn interval_pairs_match_their_ids_and_the_reference() {
    for size in [1u64, 2, 5, 9] {
        let intervals = Intervals::new(size).unwrap();
        let distributions = [
            ExampleDistribution::Uniform,
            ExampleDistribution::PointMass {
                point: size / 2,
                mass: 0.3,
            },
            ExampleDistribution::Zipf { exponent: 1.1 },
        ];
        let both_len = 2 * intervals.len() as u64;
        for distribution in distributions {
            for target in (0..both_len).step_by(3) {
                let class: Box<dyn ConceptClass> =
                    Box::new(Both::new(Intervals::new(size).unwrap()).unwrap());
                let scenario = Scenario::new(class, distribution.clone(), target, 0.1).unwrap();
                assert!(scenario.has_fast_true_errors());
                // The empty interval, by id 0 and as a pair with low > high.
                let mut pairs = vec![(0u64, Hypothesis::Interval { low: 1, high: 0 })];
                for a in 0..size {
                    for b in a..size {
                        let id = intervals.id_of(a, b);
                        pairs.push((id, Hypothesis::Interval { low: a, high: b }));
                    }
                }
                // The complements by their ends: complement `i` of both(…) has id
                // |C| + i.
                let complements: Vec<(u64, Hypothesis)> = pairs
                    .iter()
                    .map(|(id, pair)| match pair {
                        Hypothesis::Interval { low, high } => (
                            intervals.len() as u64 + id,
                            Hypothesis::NotInterval {
                                low: *low,
                                high: *high,
                            },
                        ),
                        _ => unreachable!(),
                    })
                    .collect();
                for (id, pair) in pairs.into_iter().chain(complements) {
                    let by_pair = scenario.true_error(&Predictor::from(pair.clone()));
                    let by_id = scenario.true_error(&Hypothesis::Concept { id }.into());
                    let reference = scenario.reference_true_error(&pair.clone().into());
                    assert!(
                        (by_pair - by_id).abs() < 1e-12 && (by_pair - reference).abs() < 1e-9,
                        "{distribution:?}, target {target}, {pair:?}: {by_pair} {by_id} {reference}"
                    );
                }
            }
        }
    }
}

/// Over 2^40 points (about 2^79 intervals) the true error of a pair is the mass of the
/// symmetric difference: `[N/4, N/2]` against the target `[a, b]` by id.
#[test]
fn interval_pairs_have_exact_errors_over_two_to_the_forty_points() {
    let size = 1u64 << 40;
    let intervals = Intervals::new(size).unwrap();
    let (a, b) = (1u64 << 23, 1u64 << 39);
    let target = intervals.checked_id_of(a, b).unwrap();
    let scenario = Scenario::new(
        Box::new(Intervals::new(size).unwrap()),
        ExampleDistribution::Uniform,
        target,
        0.0,
    )
    .unwrap();
    assert!(scenario.has_fast_true_errors());
    let h = Hypothesis::Interval {
        low: size / 4,
        high: size / 2,
    };
    let expected = (size / 4 - a) as f64 / size as f64;
    assert!((scenario.true_error(&h.into()) - expected).abs() < 1e-15);
}

/// Over 2^64 − 1 points, in `both(intervals)` (about 2^128 concepts, the complements beyond
/// 64-bit ids) and `not(intervals)`: the true error of a complemented interval by its ends is
/// one minus the interval's against a plain target, and the interval's against the
/// complemented target of `not(…)`, in closed form.
#[test]
fn complemented_interval_pairs_have_exact_errors_over_two_to_the_sixty_four_points() {
    let size = u64::MAX;
    let intervals = Intervals::new(size).unwrap();
    let (a, b) = (size / 8, size / 2);
    let target = intervals.checked_id_of(0, 1 << 40).unwrap();
    let both = Scenario::new(
        Box::new(Both::new(Intervals::new(size).unwrap()).unwrap()),
        ExampleDistribution::Uniform,
        target,
        0.0,
    )
    .unwrap();
    assert!(both.has_fast_true_errors());
    let plain = Hypothesis::Interval { low: a, high: b };
    let complement = Hypothesis::NotInterval { low: a, high: b };
    let e_plain = both.true_error(&plain.into());
    let e_complement = both.true_error(&complement.clone().into());
    let expected = ((b - a) as f64 + 1.0 + (1u64 << 40) as f64 + 1.0) / size as f64;
    assert!(
        (e_plain - expected).abs() < 1e-12,
        "{e_plain} vs {expected}"
    );
    assert!((e_complement - (1.0 - expected)).abs() < 1e-12);
    let not = Scenario::new(
        Box::new(privpac_classes::Not::new(Intervals::new(size).unwrap())),
        ExampleDistribution::Uniform,
        target,
        0.0,
    )
    .unwrap();
    assert!(not.has_fast_true_errors());
    // Against the complemented target [0, 2^40]ᶜ, the complement [a, b]ᶜ errs where [a, b] does
    // against [0, 2^40].
    assert!((not.true_error(&complement.into()) - expected).abs() < 1e-12);
}
