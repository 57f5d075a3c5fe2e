//! `SparseVector::first_above` on hostile streams (issue 38): answers at and near
//! `i64::MIN` and `i64::MAX`, thresholds at the ends of `i64`, and streams of up to
//! `u128::MAX` questions. Property tests over random run-length streams check that the
//! sampler never panics or overflows and that where the law is degenerate it returns the
//! right answer.
//!
//! The degenerate law: with ε = 1 and sensitivity 1 the query and threshold noises have
//! scales 8 and 4 (`SparseVector::new`), so an answer at least 2^40 above the threshold is
//! "below" with probability at most `e^{-2^40/16}`, and one at least 2^40 below it is
//! "above" with at most that probability; over at most 2^128 questions and 256 cases a
//! wrong index has probability below `2^136·e^{-2^36}`: these tests cannot fail by
//! chance. Streams with answers near the threshold are covered by the χ² tests of the
//! law beside the sampler (`sparse_vector/stream/tests.rs`).

use privpac_accounting::Privacy;
use privpac_mechanisms::{AnswerStream, EXPLICIT_QUESTIONS, SparseVector};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A stream given as runs `(answer, length)` whose lengths sum to at most `u128::MAX`.
#[derive(Debug, Clone)]
struct Runs(Vec<(i64, u128)>);

impl AnswerStream for Runs {
    fn questions(&self) -> u128 {
        self.0.iter().map(|&(_, l)| l).sum()
    }
    fn answer(&self, index: u128) -> i64 {
        let mut start = 0u128;
        for &(a, l) in &self.0 {
            if index - start < l {
                return a;
            }
            start += l;
        }
        unreachable!("index {index} beyond the stream")
    }
    fn prefix_counts(&self, m: u128) -> Vec<(i64, u128)> {
        let mut out = Vec::new();
        let mut left = m;
        for &(a, l) in &self.0 {
            let take = left.min(l);
            out.push((a, take));
            left -= take;
        }
        out
    }
}

/// Far from any threshold the noise can reach (module documentation).
const FAR: i128 = 1 << 40;

/// The index of the first answer far above `threshold` when every earlier answer is far
/// below it: `Some(index)` (or `None` when there is none), else `Err(())` (the law is not
/// degenerate and only the absence of a panic is checked).
fn degenerate_first_above(runs: &Runs, threshold: i64) -> Result<Option<u128>, ()> {
    let mut start = 0u128;
    for &(a, l) in &runs.0 {
        if l == 0 {
            continue;
        }
        let gap = i128::from(a) - i128::from(threshold);
        if gap >= FAR {
            return Ok(Some(start));
        }
        if gap > -FAR {
            return Err(());
        }
        start += l;
    }
    Ok(None)
}

/// Answers from the ends of `i64` and around zero.
fn answer() -> impl Strategy<Value = i64> {
    prop_oneof![
        Just(i64::MIN),
        Just(i64::MIN + 1),
        Just(i64::MAX),
        Just(i64::MAX - 1),
        Just(-(1i64 << 62)),
        Just(1i64 << 62),
        -3i64..=3,
    ]
}

/// Run lengths: short, around the explicit prefix, and huge.
fn length() -> impl Strategy<Value = u128> {
    prop_oneof![
        0u128..=3,
        Just(EXPLICIT_QUESTIONS - 1),
        Just(EXPLICIT_QUESTIONS),
        Just(EXPLICIT_QUESTIONS + 1),
        Just(1u128 << 64),
        Just(u128::MAX / 4),
        1u128..=1_000_000_000_000_000_000,
    ]
}

/// 1 to 6 runs; the lengths are cut so that they sum to at most `u128::MAX`, and with
/// `fill` the last run is extended so that the stream has exactly `u128::MAX` questions.
fn stream() -> impl Strategy<Value = Runs> {
    (
        proptest::collection::vec((answer(), length()), 1..=6),
        any::<bool>(),
    )
        .prop_map(|(mut runs, fill)| {
            let mut total = 0u128;
            for run in &mut runs {
                run.1 = run.1.min(u128::MAX - total);
                total += run.1;
            }
            if fill {
                let last = runs.len() - 1;
                runs[last].1 += u128::MAX - total;
            }
            Runs(runs)
        })
}

fn threshold() -> impl Strategy<Value = i64> {
    prop_oneof![Just(i64::MIN), Just(i64::MAX), Just(0i64), -5i64..=5]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Never a panic or an overflow; an index inside the stream; and the degenerate law's
    /// answer where it is degenerate. A second call continues or reports exhaustion.
    #[test]
    fn extreme_streams_never_panic_and_degenerate_laws_hold(
        runs in stream(),
        threshold in threshold(),
        seed in any::<u64>(),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let privacy = Privacy::pure(1.0).unwrap();
        let mut svt = SparseVector::new(privacy, 1, threshold, 2, &mut rng).unwrap();
        let total = runs.questions();
        let first = svt.first_above(&runs, &mut rng).unwrap();
        if let Some(index) = first {
            prop_assert!(index < total, "{index} of {total}");
        }
        if let Ok(expected) = degenerate_first_above(&runs, threshold) {
            prop_assert_eq!(first, expected, "{:?} threshold {}", runs, threshold);
        }
        // The second round of a budget of two: still no panic, the budget then spent.
        let second = svt.first_above(&runs, &mut rng);
        prop_assert!(second.is_ok());
        if first.is_some() && second.unwrap().is_some() {
            prop_assert_eq!(svt.remaining(), 0);
            prop_assert!(svt.first_above(&runs, &mut rng).is_err());
        }
    }
}

/// The boundary cases the property test may miss, named: the only far-above answer is the
/// last of `u128::MAX` questions, or the first after the explicit prefix; answers of
/// `i64::MAX` against a threshold of `i64::MIN` (the widest gap, 2^64 − 1) and the other
/// way round.
#[test]
fn named_extremes() {
    let mut rng = ChaCha8Rng::seed_from_u64(38);
    let privacy = Privacy::pure(1.0).unwrap();
    let cases: Vec<(Runs, i64, Option<u128>)> = vec![
        (
            Runs(vec![(i64::MIN, u128::MAX - 1), (i64::MAX, 1)]),
            0,
            Some(u128::MAX - 1),
        ),
        (
            Runs(vec![(i64::MIN, EXPLICIT_QUESTIONS), (i64::MAX, 1)]),
            0,
            Some(EXPLICIT_QUESTIONS),
        ),
        (Runs(vec![(i64::MAX, u128::MAX)]), i64::MIN, Some(0)),
        (Runs(vec![(i64::MIN, u128::MAX)]), i64::MAX, None),
        (
            Runs(vec![(i64::MIN, u128::MAX)]),
            i64::MIN + (1 << 41),
            None,
        ),
    ];
    for (runs, threshold, expected) in cases {
        let mut svt = SparseVector::new(privacy, 1, threshold, 1, &mut rng).unwrap();
        assert_eq!(
            svt.first_above(&runs, &mut rng).unwrap(),
            expected,
            "{runs:?} threshold {threshold}"
        );
    }
}
