//! Tests of the classes: every fast error profile equals the brute-force reference
//! (property tests and exhaustive checks on tiny domains, through `crate::conformance`),
//! compressed runs equal the run-length encoding of the dense profile, and the enumerated
//! classes have the right members.

use std::collections::HashSet;

use proptest::prelude::*;

use super::*;

/// Brute force as an independent oracle, through the public conformance check.
#[track_caller]
fn check_fast_path(class: &dyn ConceptClass, pairs: &[(u64, bool)]) {
    let sample = LabeledSample::from_pairs(class.domain(), pairs).unwrap();
    if let Err(mismatch) = crate::conformance::check_fast_paths(class, [&sample]) {
        panic!("{mismatch}");
    }
}

fn arbitrary_sample(domain_size: u64, max_len: usize) -> impl Strategy<Value = Vec<(u64, bool)>> {
    prop::collection::vec((0..domain_size, any::<bool>()), 0..max_len)
}

proptest! {
    #[test]
    fn thresholds_fast_path_equals_brute_force(n in 1u64..60, pairs in arbitrary_sample(60, 40)) {
        let pairs: Vec<(u64, bool)> = pairs.into_iter().map(|(x, y)| (x % n, y)).collect();
        check_fast_path(&Thresholds::new(n).unwrap(), &pairs);
    }

    #[test]
    fn points_fast_path_equals_brute_force(n in 1u64..60, pairs in arbitrary_sample(60, 40)) {
        let pairs: Vec<(u64, bool)> = pairs.into_iter().map(|(x, y)| (x % n, y)).collect();
        check_fast_path(&Points::new(Domain::ordered(n).unwrap()), &pairs);
    }

    /// Domains above 4·n + 4096 points: the sorted tallies instead of the dense table.
    #[test]
    fn points_fast_path_equals_brute_force_on_sparse_domains(
        n in 4200u64..4400,
        pairs in arbitrary_sample(4400, 20),
    ) {
        let pairs: Vec<(u64, bool)> = pairs.into_iter().map(|(x, y)| (x % n, y)).collect();
        check_fast_path(&Points::new(Domain::ordered(n).unwrap()), &pairs);
    }

    #[test]
    fn parities_fast_path_equals_brute_force(d in 1u32..8, pairs in arbitrary_sample(256, 40)) {
        let mask = (1u64 << d) - 1;
        let pairs: Vec<(u64, bool)> = pairs.into_iter().map(|(x, y)| (x & mask, y)).collect();
        check_fast_path(&Parities::new(d).unwrap(), &pairs);
    }

    /// The levels and the id-order walk of intervals against the brute-force reference
    /// (every concept of every level), with repeated points and mixed labels.
    #[test]
    fn interval_levels_equal_brute_force(n in 1u64..40, pairs in arbitrary_sample(40, 30)) {
        let pairs: Vec<(u64, bool)> = pairs.into_iter().map(|(x, y)| (x % n, y)).collect();
        check_fast_path(&Intervals::new(n).unwrap(), &pairs);
    }

    #[test]
    fn composite_classes_have_consistent_profiles(n in 1u64..8, pairs in arbitrary_sample(8, 12)) {
        let pairs: Vec<(u64, bool)> = pairs.into_iter().map(|(x, y)| (x % n, y)).collect();
        check_fast_path(&Intervals::new(n).unwrap(), &pairs);
        check_fast_path(&Xor::new(Box::new(Thresholds::new(n).unwrap())).unwrap(), &pairs);
        check_fast_path(&WithZero::new(Box::new(Points::new(Domain::ordered(n).unwrap()))).unwrap(), &pairs);
    }
}

#[test]
fn every_class_conforms_on_every_tiny_sample() {
    let matrix = ClassMatrix::from_rows(&[
        vec![true, false, true],
        vec![false, false, true],
        vec![true, true, false],
    ])
    .unwrap();
    let classes: Vec<Box<dyn ConceptClass>> = vec![
        Box::new(Thresholds::new(4).unwrap()),
        Box::new(Points::new(Domain::ordered(4).unwrap())),
        Box::new(Points::new(Domain::explicit(vec![2, 9, 30]).unwrap())),
        Box::new(Parities::new(2).unwrap()),
        Box::new(Intervals::new(4).unwrap()),
        Box::new(AllFunctions::new(3).unwrap()),
        Box::new(GridHalfspaces::new(2).unwrap()),
        Box::new(ExplicitClass::new(matrix, "explicit").unwrap()),
        Box::new(Xor::new(Box::new(Thresholds::new(4).unwrap())).unwrap()),
        Box::new(WithZero::new(Box::new(Points::new(Domain::ordered(4).unwrap()))).unwrap()),
        Box::new(Not::new(Box::new(Thresholds::new(4).unwrap()))),
        Box::new(Not::new(Box::new(Intervals::new(4).unwrap()))),
        Box::new(Not::new(Box::new(Parities::new(2).unwrap()))),
        Box::new(Both::new(Box::new(Thresholds::new(4).unwrap())).unwrap()),
        Box::new(Both::new(Box::new(Intervals::new(4).unwrap())).unwrap()),
        Box::new(Both::new(Box::new(Points::new(Domain::ordered(4).unwrap()))).unwrap()),
    ];
    for class in &classes {
        // Every sample of up to three examples (up to 4 681 samples on 4 points).
        let checked = crate::conformance::check_exhaustive(class.as_ref(), 3)
            .unwrap_or_else(|mismatch| panic!("{mismatch}"));
        assert!(checked > 100, "{}: {checked}", class.name());
    }
}

#[test]
fn runs_work_without_materializing_huge_domains() {
    // Thresholds over 2^40 points: a dense profile is refused, runs are O(n log n).
    let class = Thresholds::new(1 << 40).unwrap();
    let sample =
        LabeledSample::from_pairs(class.domain(), &[(5, true), (1 << 30, false), (7, true)])
            .unwrap();
    assert!(matches!(
        class.error_counts(&sample),
        Err(Error::TooLarge { .. })
    ));
    let runs = class.error_runs(&sample).unwrap();
    let total: u128 = runs.iter().map(|r| u128::from(r.len)).sum();
    assert_eq!(total, 1 << 40);
    // t ∈ [7, 2^30): both positives covered, the negative not: 0 mistakes.
    let zero = runs.iter().find(|r| r.errors == 0).unwrap();
    assert_eq!((zero.first, zero.len), (7, (1 << 30) - 7));
    let points = Points::new(Domain::hypercube(64).unwrap());
    let sample = LabeledSample::from_pairs(points.domain(), &[(u64::MAX, true)]).unwrap();
    let runs = points.error_runs(&sample).unwrap();
    let total: u128 = runs.iter().map(|r| u128::from(r.len)).sum();
    assert_eq!(total, 1u128 << 64);
    assert_eq!(runs.last().unwrap().errors, 0);
}

#[test]
fn intervals_enumerate_every_interval_once() {
    let class = Intervals::new(5).unwrap();
    assert_eq!(class.len(), 16);
    let mut seen = HashSet::new();
    for id in 0..16 {
        let labeling: Vec<bool> = (0..5).map(|x| class.eval(id, x)).collect();
        assert!(seen.insert(labeling), "id {id} repeats a labeling");
    }
    assert_eq!(class.bounds(1), Some((0, 0)));
    assert_eq!(class.bounds(15), Some((4, 4)));
    assert_eq!(class.bounds(0), None);
}

/// Halfspace labelings found by brute force over integer directions and thresholds.
fn brute_force_halfspaces(k: i64, range: i64) -> HashSet<u128> {
    let points: Vec<(i64, i64)> = (0..k).flat_map(|i| (0..k).map(move |j| (i, j))).collect();
    let mut out = HashSet::new();
    for w0 in -range..=range {
        for w1 in -range..=range {
            let mut projections: Vec<i64> = points.iter().map(|p| w0 * p.0 + w1 * p.1).collect();
            projections.sort_unstable();
            projections.dedup();
            let mut thresholds = projections.clone();
            thresholds.push(i64::MAX);
            for b in thresholds {
                let mask = points
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| w0 * p.0 + w1 * p.1 >= b)
                    .fold(0u128, |m, (i, _)| m | 1 << i);
                out.insert(mask);
            }
        }
    }
    out
}

#[test]
fn halfspaces_match_a_brute_force_search() {
    for k in 1..=4u32 {
        let class = GridHalfspaces::new(k).unwrap();
        let ours: HashSet<u128> = (0..class.len() as u64)
            .map(|id| class.labeling(id).unwrap())
            .collect();
        assert_eq!(ours.len() as u128, class.len(), "labelings are distinct");
        let brute = brute_force_halfspaces(i64::from(k), 12);
        assert_eq!(ours, brute, "k = {k}");
    }
    // Four points in convex position: all 16 labelings but the two diagonals.
    assert_eq!(GridHalfspaces::new(2).unwrap().len(), 14);
    assert!(matches!(
        GridHalfspaces::new(12),
        Err(Error::InvalidClass { .. })
    ));
}

#[test]
fn materialize_respects_the_limit() {
    let class = Parities::new(3).unwrap();
    let matrix = materialize(&class, DEFAULT_CELL_LIMIT_FOR_TESTS).unwrap();
    assert_eq!((matrix.n_concepts(), matrix.n_points()), (8, 8));
    assert!(matrix.get(0b101, 0b001));
    assert!(matches!(
        materialize(&Parities::new(40).unwrap(), 1 << 20),
        Err(Error::TooLarge { .. })
    ));
}

const DEFAULT_CELL_LIMIT_FOR_TESTS: u128 = 1 << 20;

#[test]
fn concept_ids_are_checked() {
    let class = Thresholds::new(4).unwrap();
    assert!(check_concept(&class, 3).is_ok());
    assert_eq!(
        check_concept(&class, 4),
        Err(Error::ConceptOutOfRange { id: 4, len: 4 })
    );
}

#[test]
fn classes_have_autotraits() {
    fn assert_auto<T: Send + Sync + Unpin>() {}
    assert_auto::<Thresholds>();
    assert_auto::<Points>();
    assert_auto::<Parities>();
    assert_auto::<Intervals>();
    assert_auto::<GridHalfspaces>();
    assert_auto::<ExplicitClass>();
    assert_auto::<Xor>();
    assert_auto::<WithZero>();
    assert_auto::<Not>();
    assert_auto::<Both>();
    assert_auto::<ClassMatrix>();
}

#[test]
fn samples_from_another_domain_are_errors_not_panics() {
    let wide = Domain::ordered(100).unwrap();
    let sample = LabeledSample::from_pairs(&wide, &[(3, true), (50, false)]).unwrap();
    let classes: Vec<Box<dyn ConceptClass>> = vec![
        Box::new(Thresholds::new(10).unwrap()),
        Box::new(Points::new(Domain::ordered(10).unwrap())),
    ];
    for class in &classes {
        assert!(matches!(
            class.error_counts(&sample),
            Err(Error::PointOutsideDomain { point: 50, .. })
        ));
        assert!(matches!(
            class.error_runs(&sample),
            Err(Error::PointOutsideDomain { point: 50, .. })
        ));
    }
    let cube = Domain::hypercube(8).unwrap();
    let sample = LabeledSample::from_pairs(&cube, &[(200, true)]).unwrap();
    let parities = Parities::new(4).unwrap();
    assert!(matches!(
        parities.error_counts(&sample),
        Err(Error::PointOutsideDomain { point: 200, .. })
    ));
}

/// The labels a description states, parsed back the way data files are read (a bit string
/// with coordinate 0 first, decimal points otherwise), agree with the concept on every
/// point of small domains, for every concept of every family.
#[test]
fn descriptions_state_the_labels() {
    let bit_string_point = |s: &str| -> u64 {
        s.chars()
            .enumerate()
            .map(|(i, c)| u64::from(c == '1') << i)
            .sum()
    };
    let between = |text: &str, start: &str, end: &str| -> String {
        let from = text.find(start).unwrap() + start.len();
        let rest = &text[from..];
        rest[..rest.find(end).unwrap_or(rest.len())].to_string()
    };
    // Parities over {0,1}^6: the bit string is the concept's vector in data orientation,
    // and the coordinate set matches it.
    let parities = Parities::new(6).unwrap();
    for id in 0..64 {
        let text = parities.describe(id);
        let bits = between(&text, "bit string ", ")");
        assert_eq!(bits.len(), 6, "{text}");
        let a = bit_string_point(&bits);
        for x in 0..64u64 {
            assert_eq!(
                parities.eval(id, x),
                (a & x).count_ones() % 2 == 1,
                "{text}"
            );
        }
        if id != 0 {
            let coordinates: u64 = between(&text, "{", "}")
                .split(", ")
                .map(|c| 1u64 << c.parse::<u32>().unwrap())
                .sum();
            assert_eq!(coordinates, a, "{text}");
        }
    }
    // The example: id 46 is the parity whose bit string is 0111010000.
    assert!(
        Parities::new(10)
            .unwrap()
            .describe(46)
            .contains("coordinates {1, 2, 3, 5} (bit string 0111010000)")
    );
    let thresholds = Thresholds::new(12).unwrap();
    for id in 0..12 {
        let text = thresholds.describe(id);
        let cut: u64 = between(&text, "x ≤ ", "\n").parse().unwrap();
        for x in 0..12 {
            assert_eq!(thresholds.eval(id, x), x <= cut, "{text}");
        }
    }
    let intervals = Intervals::new(7).unwrap();
    for id in 0..intervals.len() as u64 {
        let text = intervals.describe(id);
        for x in 0..7 {
            let expected = if text.starts_with("empty") {
                false
            } else {
                let a: u64 = between(&text, "[", ",").parse().unwrap();
                let b: u64 = between(&text, ", ", "]").parse().unwrap();
                a <= x && x <= b
            };
            assert_eq!(intervals.eval(id, x), expected, "{text}");
        }
    }
    for domain in [Domain::ordered(9).unwrap(), Domain::hypercube(3).unwrap()] {
        let points = Points::new(domain.clone());
        for id in 0..points.len() as u64 {
            let text = points.describe(id);
            let written = between(&text, "x = ", "\n");
            let x = match domain {
                Domain::Hypercube { .. } => bit_string_point(&written),
                _ => written.parse().unwrap(),
            };
            for y in 0..points.len() as u64 {
                assert_eq!(points.eval(id, y), y == x, "{text}");
            }
        }
    }
    let with_zero = WithZero::new(Thresholds::new(4).unwrap()).unwrap();
    assert_eq!(with_zero.describe(4), "all zeros");
    assert_eq!(with_zero.describe(2), "1 on x ≤ 2");
}

/// The closed-form decoding of interval ids agrees with enumerating the blocks, on every
/// id of small classes and on ids at the block boundaries of a large one.
#[test]
fn interval_bounds_match_the_enumeration() {
    for n in [1u64, 2, 3, 7, 31, 64] {
        let class = Intervals::new(n).unwrap();
        let mut id = 1;
        for a in 0..n {
            for b in a..n {
                assert_eq!(class.bounds(id), Some((a, b)), "N = {n}, id = {id}");
                id += 1;
            }
        }
        assert_eq!(class.bounds(id), None, "past the last id of N = {n}");
    }
    let n = 1u64 << 31;
    let class = Intervals::new(n).unwrap();
    for a in [0u64, 1, 2, 1000, n / 2, n - 2, n - 1] {
        // The first and last interval of block a.
        let start =
            u128::from(a) * u128::from(n) - u128::from(a) * u128::from(a.saturating_sub(1)) / 2;
        let first = (start + 1) as u64;
        assert_eq!(class.bounds(first), Some((a, a)), "a = {a}");
        let last = first + (n - a - 1);
        assert_eq!(class.bounds(last), Some((a, n - 1)), "a = {a}");
    }
}

/// Intervals over 2^30 points (|C| ≈ 2^59: no dense profile, about 2^30·n runs) and over
/// the largest size whose ids fit in `u64` (|C| ≈ 2^64 − 2^31.4): the levels sum to |C|,
/// and the concepts `concept_with_errors` returns make exactly their level's number of
/// mistakes (counted by `eval` on the sample), in increasing id order, at the first, last
/// and seeded offsets of every level; one past the end is `None`. One more point is accepted,
/// and its last intervals have no `u64` id.
#[test]
fn interval_levels_hold_on_two_to_the_thirty_points_and_at_the_largest_size() {
    use rand::{RngExt, SeedableRng};
    // One more point: the class exists (every size up to 2^64 − 1 does), and its last
    // intervals have no 64-bit id.
    let beyond = Intervals::new(crate::MAX_INTERVALS_SIZE + 1).unwrap();
    assert!(beyond.len() > u128::from(u64::MAX));
    let end = crate::MAX_INTERVALS_SIZE;
    assert_eq!(beyond.checked_id_of(end, end), None);
    assert_eq!(beyond.checked_id_of(0, end), Some(end + 1));
    let largest = Intervals::new(crate::MAX_INTERVALS_SIZE).unwrap();
    assert!(largest.len() <= u128::from(u64::MAX));
    let last = (largest.len() - 1) as u64;
    let top = crate::MAX_INTERVALS_SIZE - 1;
    assert_eq!(largest.bounds(last), Some((top, top)));
    assert_eq!(largest.id_of(top, top), last);
    assert_eq!(largest.id_of(0, top), crate::MAX_INTERVALS_SIZE);
    for n in [1u64 << 30, crate::MAX_INTERVALS_SIZE] {
        let class = Intervals::new(n).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(30);
        for (len, target) in [
            (0usize, (5u64, 9u64)),
            (1, (0, 0)),
            (60, (n / 3, n / 2)),
            (200, (n - 100, n - 1)),
        ] {
            // Labels of a target interval with a few flipped, and some repeated points.
            let mut pairs: Vec<(u64, bool)> = (0..len)
                .map(|i| {
                    let x = if i % 7 == 3 {
                        n / 3
                    } else {
                        rng.random_range(0..n)
                    };
                    let flip = rng.random_range(0..10u32) == 0;
                    (x, (target.0..=target.1).contains(&x) ^ flip)
                })
                .collect();
            if len == 1 {
                pairs = vec![(0, true)];
            }
            let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
            assert!(class.error_counts(&sample).is_err());
            let levels = class.error_levels(&sample).unwrap().unwrap();
            let total: u128 = levels.iter().map(|l| u128::from(l.count)).sum();
            assert_eq!(total, class.len(), "N = 2^30, n = {len}");
            let mistakes = |id: u64| {
                sample
                    .iter()
                    .filter(|&(x, y)| class.eval(id, x) != y)
                    .count() as u64
            };
            for level in &levels {
                let mut offsets = vec![0, level.count - 1];
                offsets.extend((0..5).map(|_| rng.random_range(0..level.count)));
                offsets.sort_unstable();
                offsets.dedup();
                let ids: Vec<u64> = offsets
                    .iter()
                    .map(|&offset| {
                        class
                            .concept_with_errors(&sample, level.errors, offset)
                            .unwrap()
                            .unwrap()
                    })
                    .collect();
                for &id in &ids {
                    assert_eq!(
                        mistakes(id),
                        level.errors,
                        "id {id} ({})",
                        class.describe(id)
                    );
                }
                assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
                assert_eq!(
                    class
                        .concept_with_errors(&sample, level.errors, level.count)
                        .unwrap(),
                    None
                );
            }
        }
    }
}

/// A sample whose levels would take more than `MAX_INTERVAL_LEVEL_WORK` steps (2^17
/// distinct points, 2^16 + 1 distinct prefix sums) is a typed error, not hours of work.
#[test]
fn interval_levels_refuse_samples_beyond_their_work_limit() {
    let class = Intervals::new(1 << 30).unwrap();
    let half = 1u64 << 16;
    let pairs: Vec<(u64, bool)> = (0..2 * half).map(|i| (i * 4, i >= half)).collect();
    let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
    assert!(matches!(
        class.error_levels(&sample),
        Err(Error::TooLarge { limit, .. }) if limit == crate::MAX_INTERVAL_LEVEL_WORK
    ));
}

// ---- The complement combinators (`not(SPEC)`, `both(SPEC)`). ----

proptest! {
    /// Every fast path of the complements (runs, levels, the id-order walk) against the
    /// brute-force reference, with repeated points and mixed labels.
    #[test]
    fn complement_classes_conform(n in 1u64..40, pairs in arbitrary_sample(40, 30)) {
        let pairs: Vec<(u64, bool)> = pairs.into_iter().map(|(x, y)| (x % n, y)).collect();
        check_fast_path(&Not::new(Thresholds::new(n).unwrap()), &pairs);
        check_fast_path(&Not::new(Intervals::new(n).unwrap()), &pairs);
        check_fast_path(&Not::new(Points::new(Domain::ordered(n).unwrap())), &pairs);
        check_fast_path(&Both::new(Thresholds::new(n).unwrap()).unwrap(), &pairs);
        check_fast_path(&Both::new(Intervals::new(n).unwrap()).unwrap(), &pairs);
        check_fast_path(&Both::new(Points::new(Domain::ordered(n).unwrap())).unwrap(), &pairs);
        check_fast_path(&Not::new(Both::new(Thresholds::new(n).unwrap()).unwrap()), &pairs);
    }
}

/// `not(C)` is `1 − c` concept by concept, and `both(C)` lists `C` then `not(C)`.
#[test]
fn complements_label_the_other_way() {
    let inner = Intervals::new(6).unwrap();
    let not = Not::new(Intervals::new(6).unwrap());
    let both = Both::new(Intervals::new(6).unwrap()).unwrap();
    let len = inner.len() as u64;
    assert_eq!((not.len(), both.len()), (inner.len(), 2 * inner.len()));
    for id in 0..len {
        for x in 0..6 {
            assert_eq!(not.eval(id, x), !inner.eval(id, x));
            assert_eq!(both.eval(id, x), inner.eval(id, x));
            assert_eq!(both.eval(len + id, x), !inner.eval(id, x));
        }
    }
    assert_eq!(both.split(len + 3), (3, true));
    assert_eq!(both.split(3), (3, false));
    let thresholds = Both::new(Thresholds::new(10).unwrap()).unwrap();
    assert_eq!(thresholds.describe(4), "1 on x ≤ 4");
    assert_eq!(thresholds.describe(14), "complement of (1 on x ≤ 4)");
    assert_eq!(
        Not::new(Thresholds::new(10).unwrap()).describe(4),
        "complement of (1 on x ≤ 4)"
    );
    // Ids must fit in u64: a class of more than (2^64 − 1)/2 concepts has no `both`.
    assert!(matches!(
        Both::new(Parities::new(63).unwrap()),
        Err(Error::TooLarge { .. })
    ));
    assert!(Both::new(Parities::new(62).unwrap()).is_ok());
}

/// The complements' profiles over 2^40 points come from the thresholds' O(n log n) runs,
/// without materializing a count per concept.
#[test]
fn complement_runs_work_on_two_to_the_forty_points() {
    let size = 1u64 << 40;
    let sample = LabeledSample::from_pairs(
        &Domain::ordered(size).unwrap(),
        &[(5, false), (1 << 30, true), (7, false)],
    )
    .unwrap();
    // not(thresholds): 1 on x > t; consistent for t ∈ [7, 2^30).
    let not = Not::new(Thresholds::new(size).unwrap());
    assert!(matches!(
        not.error_counts(&sample),
        Err(Error::TooLarge { .. })
    ));
    let runs = not.error_runs(&sample).unwrap();
    let total: u128 = runs.iter().map(|r| u128::from(r.len)).sum();
    assert_eq!(total, u128::from(size));
    let zero: Vec<_> = runs.iter().filter(|r| r.errors == 0).collect();
    assert_eq!(zero.len(), 1);
    assert_eq!((zero[0].first, zero[0].len), (7, (1 << 30) - 7));
    // both(thresholds): the same run, shifted by 2^40; the plain half's best makes 1 mistake
    // (every prefix holding the positive at 2^30 holds both negatives: 2; t < 5: 1).
    let both = Both::new(Thresholds::new(size).unwrap()).unwrap();
    let runs = both.error_runs(&sample).unwrap();
    let total: u128 = runs.iter().map(|r| u128::from(r.len)).sum();
    assert_eq!(total, 2 * u128::from(size));
    let zero: Vec<_> = runs.iter().filter(|r| r.errors == 0).collect();
    assert_eq!(zero.len(), 1);
    assert_eq!((zero[0].first, zero[0].len), (size + 7, (1 << 30) - 7));
    assert_eq!(
        runs[0],
        ErrorRun {
            first: 0,
            len: 5,
            errors: 1
        }
    );
    // Intervals over 2^30 points give their levels through both(…).
    let intervals = Both::new(Intervals::new(1 << 30).unwrap()).unwrap();
    let sample = LabeledSample::from_pairs(
        intervals.domain(),
        &[(5, false), (1 << 20, true), (1 << 21, false)],
    )
    .unwrap();
    let levels = intervals.error_levels(&sample).unwrap().unwrap();
    let count: u128 = levels.iter().map(|l| u128::from(l.count)).sum();
    assert_eq!(count, intervals.len());
    // Zero mistakes: intervals holding 2^20 but neither 5 nor 2^21, and no complement.
    assert_eq!(levels[0].errors, 0);
    assert_eq!(u128::from(levels[0].count), ((1u128 << 20) - 5) * (1 << 20));
    let id = intervals
        .concept_with_errors(&sample, 0, 0)
        .unwrap()
        .unwrap();
    assert!(id < 1 << 62 && intervals.eval(id, 1 << 20) && !intervals.eval(id, 5));
}

/// `VC(not(C)) = VC(C)` and `Ldim(not(C)) = Ldim(C)`, computed exactly on every family, with
/// C's witnesses transformed (the same shattered set; the Littlestone tree with its
/// children swapped) passing the checkers on not(C).
#[test]
fn complement_dimensions_equal_the_class_dimensions_with_transformed_witnesses() {
    use crate::dimension::{
        Budget, Engine, check_littlestone_tree, check_shattered, littlestone_dimension,
        vc_dimension,
    };
    let matrix = ClassMatrix::from_rows(&[
        vec![true, false, true, false],
        vec![false, false, true, true],
        vec![true, true, false, false],
        vec![false, true, true, true],
    ])
    .unwrap();
    let specs = [
        "thresholds:1",
        "thresholds:2",
        "thresholds:7",
        "thresholds:16",
        "zero(thresholds:7)",
        "points:6",
        "intervals:6",
        "parities:3",
        "halfspaces:2",
        "all:3",
        "xor(thresholds:3)",
    ];
    let mut classes: Vec<Box<dyn ConceptClass>> = specs
        .iter()
        .map(|s| crate::parse_spec(s).unwrap())
        .collect();
    classes.push(Box::new(ExplicitClass::new(matrix, "explicit").unwrap()));
    let budget = Budget::default();
    for class in classes {
        let name = class.name();
        let plain = materialize(&class, DEFAULT_CELL_LIMIT_FOR_TESTS).unwrap();
        let complement = materialize(&Not::new(&class), DEFAULT_CELL_LIMIT_FOR_TESTS).unwrap();
        let (vc, vc_not) = (
            vc_dimension(&plain, &budget).unwrap(),
            vc_dimension(&complement, &budget).unwrap(),
        );
        assert_eq!(vc.dimension, vc_not.dimension, "{name}");
        check_shattered(&complement, &vc.shattered).unwrap();
        let ldim = littlestone_dimension(&plain, Engine::Pruned, &budget).unwrap();
        let ldim_not = littlestone_dimension(&complement, Engine::Pruned, &budget).unwrap();
        assert_eq!(ldim.dimension, ldim_not.dimension, "{name}");
        let tree = ldim.tree.complemented();
        assert_eq!(
            check_littlestone_tree(&complement, &tree).unwrap(),
            ldim.dimension,
            "{name}"
        );
        assert_eq!(tree.complemented(), ldim.tree);
    }
    // Without the swap the thresholds' tree is no witness for their complements: the
    // transformation is needed.
    let plain = materialize(&Thresholds::new(8).unwrap(), 1 << 20).unwrap();
    let complement = materialize(&Not::new(Thresholds::new(8).unwrap()), 1 << 20).unwrap();
    let tree = littlestone_dimension(&plain, Engine::Pruned, &budget)
        .unwrap()
        .tree;
    assert!(check_littlestone_tree(&complement, &tree).is_err());
}

/// `both(thresholds:N)`: VC dimension 2 for N ≥ 2 (1 for N = 1) and Littlestone dimension
/// ⌊log2 N⌋ + 1, as proved on [`Both`], computed exactly with checked witnesses.
#[test]
fn both_orientations_of_thresholds_have_the_stated_dimensions() {
    use crate::dimension::{
        Budget, Engine, check_littlestone_tree, check_shattered, littlestone_dimension,
        vc_dimension,
    };
    for n in 1..=17u64 {
        let class = Both::new(Thresholds::new(n).unwrap()).unwrap();
        let matrix = materialize(&class, 1 << 20).unwrap();
        let vc = vc_dimension(&matrix, &Budget::default()).unwrap();
        assert_eq!(vc.dimension, if n == 1 { 1 } else { 2 }, "N = {n}");
        check_shattered(&matrix, &vc.shattered).unwrap();
        let ldim = littlestone_dimension(&matrix, Engine::Pruned, &Budget::default()).unwrap();
        assert_eq!(ldim.dimension, n.ilog2() + 1, "N = {n}");
        assert_eq!(
            check_littlestone_tree(&matrix, &ldim.tree).unwrap(),
            ldim.dimension
        );
    }
}

/// Only intervals themselves (borrowed or boxed) report their structure; combinators that
/// renumber or relabel the concepts do not.
#[test]
fn only_intervals_report_the_interval_structure() {
    let intervals = Intervals::new(1 << 40).unwrap();
    assert_eq!(intervals.interval_structure(), Some(1 << 40));
    let borrowed: &dyn ConceptClass = &intervals;
    assert_eq!(ConceptClass::interval_structure(&borrowed), Some(1 << 40));
    let boxed: Box<dyn ConceptClass> = Box::new(Intervals::new(7).unwrap());
    assert_eq!(boxed.interval_structure(), Some(7));
    assert_eq!(
        Not::new(Intervals::new(7).unwrap()).interval_structure(),
        None
    );
    assert_eq!(Thresholds::new(7).unwrap().interval_structure(), None);
    let small = Intervals::new(7).unwrap();
    assert_eq!(
        Xor::new(&small as &dyn ConceptClass)
            .unwrap()
            .interval_structure(),
        None
    );
}
