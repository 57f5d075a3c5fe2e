//! Tests of the structure beyond 64-bit ids and dense profiles: interval levels and members
//! at every size up to 2^64 − 1 points, and parities by Gaussian elimination up to d = 64.
//! (On small domains the conformance checks of `tests.rs` compare both with the brute-force
//! reference: every wide level, every member, every consistency answer.)

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::sample::LabeledSample;

/// The label of a member named by its parts.
fn label(parts: ConceptParts, x: Point) -> bool {
    parts.contains(x)
}

/// The order of the walk (id order): the empty interval first, then by (a, b).
fn key(parts: ConceptParts) -> (u8, u64, u64) {
    match parts {
        ConceptParts::Empty => (0, 0, 0),
        ConceptParts::Interval { low, high } => (1, low, high),
        other => panic!("intervals name no {other:?}"),
    }
}

/// Over 2^40, 2^63 and 2^64 − 1 points (about 2^79 to 2^127 intervals): the wide levels
/// sum to |C|, the members `parts_with_errors` names at the first, last and seeded offsets
/// of every level make exactly the level's mistakes (counted on the sample), in increasing
/// order, and one past the end is `None`. Where a level's count fits `u64`, the narrow
/// levels agree.
#[test]
fn interval_wide_levels_hold_up_to_two_to_the_sixty_four_points() {
    let mut rng = ChaCha8Rng::seed_from_u64(64);
    for n in [1u64 << 40, 1 << 63, u64::MAX] {
        let class = Intervals::new(n).unwrap();
        for (len, target) in [
            (0usize, (5u64, 9u64)),
            (1, (0, 0)),
            (80, (n / 3, n / 2)),
            (200, (n - 100, n - 1)),
        ] {
            let pairs: Vec<(u64, bool)> = (0..len)
                .map(|i| {
                    let x = if i % 9 == 4 {
                        n / 3
                    } else {
                        rng.random_range(0..n)
                    };
                    let flip = rng.random_range(0..10u32) == 0;
                    (x, (target.0..=target.1).contains(&x) ^ flip)
                })
                .collect();
            let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
            let levels = class.wide_error_levels(&sample).unwrap().unwrap();
            let total = levels
                .iter()
                .try_fold(0u128, |sum, l| sum.checked_add(l.count))
                .unwrap();
            assert_eq!(total, class.len(), "N = {n}, n = {len}");
            if let Ok(Some(narrow)) = class.error_levels(&sample) {
                let narrow: Vec<(u64, u128)> = narrow
                    .iter()
                    .map(|l| (l.errors, u128::from(l.count)))
                    .collect();
                let wide: Vec<(u64, u128)> = levels.iter().map(|l| (l.errors, l.count)).collect();
                assert_eq!(narrow, wide);
            }
            let mistakes = |parts: ConceptParts| {
                sample.iter().filter(|&(x, y)| label(parts, x) != y).count() as u64
            };
            for level in &levels {
                let mut offsets = vec![0, level.count - 1];
                offsets.extend((0..5).map(|_| rng.random_range(0..level.count)));
                offsets.sort_unstable();
                offsets.dedup();
                let members: Vec<ConceptParts> = offsets
                    .iter()
                    .map(|&offset| {
                        class
                            .parts_with_errors(&sample, level.errors, offset)
                            .unwrap()
                            .unwrap()
                    })
                    .collect();
                for &parts in &members {
                    assert_eq!(mistakes(parts), level.errors, "{parts:?}");
                    if let ConceptParts::Interval { low, high } = parts {
                        assert!(low <= high && high < n);
                    }
                }
                assert!(
                    members.windows(2).all(|w| key(w[0]) < key(w[1])),
                    "{members:?}"
                );
                assert_eq!(
                    class
                        .parts_with_errors(&sample, level.errors, level.count)
                        .unwrap(),
                    None
                );
            }
        }
    }
}

/// Where ids fit (N ≤ `MAX_INTERVALS_SIZE`), the member `parts_with_errors` names is the
/// interval of the id `concept_with_errors` gives, at seeded offsets over 2^30 points.
#[test]
fn interval_parts_are_the_concepts_of_the_id_walk() {
    let n = 1u64 << 30;
    let class = Intervals::new(n).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(65);
    let pairs: Vec<(u64, bool)> = (0..100)
        .map(|_| {
            let x = rng.random_range(0..n);
            (
                x,
                (n / 4..=n / 2).contains(&x) ^ (rng.random_range(0..8u32) == 0),
            )
        })
        .collect();
    let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
    for level in class.error_levels(&sample).unwrap().unwrap() {
        for _ in 0..5 {
            let offset = rng.random_range(0..level.count);
            let id = class
                .concept_with_errors(&sample, level.errors, offset)
                .unwrap()
                .unwrap();
            let parts = class
                .parts_with_errors(&sample, level.errors, u128::from(offset))
                .unwrap()
                .unwrap();
            let expected = match class.bounds(id) {
                None => ConceptParts::Empty,
                Some((low, high)) => ConceptParts::Interval { low, high },
            };
            assert_eq!(parts, expected);
        }
    }
}

/// Gaussian elimination at d = 20, 40, 64: labels of a random parity give a consistent
/// parity (checked on every example) no larger than the target's id; at d = 20 it is the
/// first zero of the Walsh–Hadamard profile. One flipped label among more than d + 20
/// independent examples is inconsistent (probability of a false "consistent" below 2^-20
/// per sample; fixed seeds).
#[test]
fn parities_are_learned_by_elimination_at_every_dimension() {
    let mut rng = ChaCha8Rng::seed_from_u64(66);
    for dim in [20u32, 40, 64] {
        let class = Parities::new(dim).unwrap();
        let mask = if dim == 64 {
            u64::MAX
        } else {
            (1u64 << dim) - 1
        };
        for n in [0usize, 5, dim as usize / 2, dim as usize + 40] {
            let target = rng.random::<u64>() & mask;
            let points: Vec<u64> = (0..n).map(|_| rng.random::<u64>() & mask).collect();
            let pairs: Vec<(u64, bool)> =
                points.iter().map(|&x| (x, class.eval(target, x))).collect();
            let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
            let Some(Consistency::Consistent(id)) = class.smallest_consistent(&sample).unwrap()
            else {
                panic!("d = {dim}, n = {n}: a consistent parity exists");
            };
            assert!(id <= target);
            assert!(sample.iter().all(|(x, y)| class.eval(id, x) == y));
            if n == 0 {
                assert_eq!(id, 0);
            }
            if dim == 20 {
                let counts = class.error_counts(&sample).unwrap();
                assert_eq!(Some(id as usize), counts.iter().position(|&e| e == 0));
            }
            if n > dim as usize + 20 {
                let mut noisy = pairs.clone();
                noisy[n / 2].1 ^= true;
                let sample = LabeledSample::from_pairs(class.domain(), &noisy).unwrap();
                assert_eq!(
                    class.smallest_consistent(&sample).unwrap(),
                    Some(Consistency::Inconsistent)
                );
            }
        }
    }
}

/// Beyond 2^28 parities the error profile is refused at once, naming the facts that stand
/// in the way (weight distributions of linear codes, maximum-likelihood decoding).
#[test]
fn parity_profiles_beyond_the_dense_limit_name_the_obstacle() {
    let class = Parities::new(40).unwrap();
    let sample = LabeledSample::from_pairs(class.domain(), &[(3, true), (5, false)]).unwrap();
    let error = class.error_runs(&sample).unwrap_err();
    let message = error.to_string();
    assert!(matches!(error, Error::OutOfReach { .. }), "{message}");
    assert!(message.contains("weight distribution") && message.contains("#P-hard"));
    assert!(message.contains("NP-hard"), "{message}");
}

/// `not(intervals)` and `both(intervals)` over 2^40 and 2^64 − 1 points (`both` has about
/// 2^128 concepts, its complements' ids beyond 64 bits): the wide levels sum to |C|, the
/// members `parts_with_errors` names at the first, last and seeded offsets of every level
/// make exactly the level's mistakes, complemented intervals appear as
/// [`ConceptParts::NotInterval`] (and in `both`, after the level's intervals), and one past
/// the end is `None`; the id-named complements of `both` are refused with a typed error.
#[test]
fn complemented_interval_wide_levels_hold_up_to_two_to_the_sixty_four_points() {
    let mut rng = ChaCha8Rng::seed_from_u64(6401);
    for n in [1u64 << 40, u64::MAX] {
        let classes: Vec<Box<dyn ConceptClass>> = vec![
            Box::new(Not::new(Intervals::new(n).unwrap())),
            Box::new(Both::new(Intervals::new(n).unwrap()).unwrap()),
        ];
        let (a, b) = (n / 3, n / 2);
        let pairs: Vec<(u64, bool)> = (0..120)
            .map(|_| {
                let x = rng.random_range(0..n);
                (x, !(a..=b).contains(&x) ^ (rng.random_range(0..10u32) == 0))
            })
            .collect();
        for class in classes {
            let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
            let levels = class.wide_error_levels(&sample).unwrap().unwrap();
            let total = levels
                .iter()
                .try_fold(0u128, |sum, l| sum.checked_add(l.count))
                .unwrap();
            assert_eq!(total, class.len(), "{}", class.name());
            let mut complemented = 0;
            for level in &levels {
                let mut offsets = vec![0, level.count - 1];
                offsets.extend((0..5).map(|_| rng.random_range(0..level.count)));
                for offset in offsets {
                    let parts = class
                        .parts_with_errors(&sample, level.errors, offset)
                        .unwrap()
                        .unwrap();
                    let mistakes = sample.iter().filter(|&(x, y)| label(parts, x) != y).count();
                    assert_eq!(mistakes as u64, level.errors, "{}: {parts:?}", class.name());
                    if matches!(parts, ConceptParts::NotInterval { .. } | ConceptParts::Full) {
                        complemented += 1;
                    }
                }
                assert_eq!(
                    class
                        .parts_with_errors(&sample, level.errors, level.count)
                        .unwrap(),
                    None
                );
            }
            assert!(complemented > 0, "{}", class.name());
        }
        let both = Both::new(Intervals::new(n).unwrap()).unwrap();
        let sample = LabeledSample::from_pairs(both.domain(), &pairs).unwrap();
        if both.len() > u128::from(u64::MAX) {
            assert!(matches!(
                both.error_runs(&sample),
                Err(crate::Error::TooLarge { .. })
            ));
        }
    }
}

/// both(thresholds:N) is accepted up to N = 2^63 − 1 (the largest complement id, 2N − 1,
/// fits in 64 bits) and refused above with the reason and the alternatives named; intervals
/// hold every threshold and its complement at every N.
#[test]
fn both_thresholds_beyond_64_bit_ids_say_why_and_what_instead() {
    let largest = u64::MAX / 2;
    let both = Both::new(Thresholds::new(largest).unwrap()).unwrap();
    assert_eq!(both.len(), 2 * u128::from(largest));
    assert!(!both.eval(2 * largest - 1, largest - 1)); // the complement of t = N − 1
    for size in [largest + 1, 1 << 63, u64::MAX] {
        let error = Both::new(Thresholds::new(size).unwrap()).unwrap_err();
        let message = error.to_string();
        assert!(
            matches!(error, crate::Error::InvalidClass { .. }),
            "{message}"
        );
        for needle in [
            format!("both(thresholds:{size})"),
            "2^63 − 1 = 9223372036854775807".into(),
            format!("intervals:{size}"),
            "not implemented".into(),
        ] {
            assert!(message.contains(&needle), "{needle}: {message}");
        }
        assert!(Both::new(Intervals::new(size).unwrap()).is_ok());
    }
}
