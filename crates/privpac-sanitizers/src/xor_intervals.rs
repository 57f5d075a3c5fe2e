//! The XOR class of intervals, `INTERVAL ⊕ INTERVAL` over `[N]`, by its structure: the
//! query class of the sanitizer learners for intervals, answered without the class's ids
//! (`(1 + N(N+1)/2)²` ordered pairs, about 3·10^23 for N = 2^20, more than 64-bit ids
//! name).
//!
//! # The structure
//! Write an interval `[a, b]` by its cut points `[a, b + 1)`. For two intervals with cut
//! points `u₁ < v₁` and `u₂ < v₂`, sort the four ends as `p₁ ≤ p₂ ≤ p₃ ≤ p₄`; then the
//! symmetric difference is `[p₁, p₂) ∪ [p₃, p₄)`: a point lies in exactly one of the two
//! intervals iff an odd number of the four ends are at or below it, which is the case
//! exactly on those two ranges (disjoint, overlapping and nested pairs alike; ties make a
//! range empty). With the empty interval the difference is the other interval. So every
//! query of the class is a union of at most two disjoint intervals, and its count on any
//! distribution is `F(p₂) − F(p₁) + F(p₄) − F(p₃)` with `F` the distribution's CDF over
//! cut points: a signed sum of four threshold (prefix) queries.
//!
//! # Which sanitizers answer it here
//! [`crate::Sanitizer::sanitize_interval_xor`] is the trait's entry point.
//! - The binary-tree [`crate::ThresholdSanitizer`] and the [`crate::PointSanitizer`] read
//!   no query at all: their output depends only on the domain and the data (the tree
//!   releases noisy prefix counts, the point sanitizer a thresholded histogram). They run
//!   exactly as [`crate::Sanitizer::sanitize`] on `Xor::new(intervals)` does, with the same
//!   draws for the same generator, so with the same guarantee, without building the XOR
//!   class. By the structure above, a tree output that is α-accurate for thresholds is
//!   4α-accurate for `INTERVAL ⊕ INTERVAL`.
//! - MWEM selects among the queries. On domains small enough for its query matrix it takes
//!   the dense path ([`crate::Sanitizer::sanitize_xor`], the draws it always had); above it,
//!   up to 2^62 points, it runs by structure ([`crate::Mwem::run_interval_xor`]): the
//!   synthetic distribution is kept as pieces, and each round's exponential mechanism
//!   samples a score level whose pairs the `levels` module counts exactly by a dynamic
//!   program over the runs of the score's step function (in `u128` up to
//!   [`INTERVAL_XOR_LIMIT`] points, in 192 bits up to about 2^48 (2^40 points have about
//!   2^158 pairs) and in 256 bits above),
//!   then a uniform pair of that level. Its score is the prefix-floor variant
//!   `|Σ ±(⌊n·P(p)⌋ − D(p))|` over the four sorted ends (sensitivity 1, within 2 of the
//!   dense score); the privacy proof is [`crate::Mwem`]'s.
//! - Private multiplicative weights selects by the sparse vector technique over every
//!   question; it takes the dense path where its query matrix fits and above it refuses
//!   with the reason ([`dense_only_refusal`]).

mod count;
mod levels;
mod run;

pub use levels::INTERVAL_XOR_LIMIT;
pub use run::{IntervalEnds, IntervalMwemRun};

use crate::interval_synthetic::interval_xor_matrix_bits;

use crate::error::Error;

/// `None` when the dense query matrix of `INTERVAL ⊕ INTERVAL` over `[N]` fits
/// [`crate::QUERY_MATRIX_LIMIT`] (then the sanitizer takes the dense path), otherwise the
/// refusal of a query-selecting sanitizer (MWEM, private multiplicative weights) above it,
/// naming what stands in the way: its selection reads every query's answer, there are
/// `(1 + N(N+1)/2)²` of them (about 3.7·10^47 for N = 2^40, beyond `u128`, so the count is
/// stated in floating point), and the structured alternative (counting the pairs at each
/// score level from the four ends, as is done for `THRESH ⊕ THRESH`) is not implemented.
pub(crate) fn dense_only_refusal(algorithm: &'static str, size: u64) -> Option<Error> {
    if interval_xor_matrix_bits(size) <= crate::QUERY_MATRIX_LIMIT {
        return None;
    }
    let n = size as f64;
    let pairs = (1.0 + n * (n + 1.0) / 2.0).powi(2);
    Some(Error::UnsupportedDomain {
        algorithm,
        requirement: "a query matrix of INTERVAL ⊕ INTERVAL within 2^31 bits (its selection \
                      reads the answer of every pair of intervals; selecting by score levels \
                      counted from the pairs' four ends is not implemented)",
        domain: format!(
            "[{size}], whose {pairs:.3e} pairs × {size} points need {:.3e} bits",
            pairs * n
        ),
    })
}

#[cfg(test)]
mod structured_tests;

#[cfg(test)]
mod tests {
    use privpac_accounting::Privacy;
    use privpac_classes::{ConceptClass, Intervals, ThresholdStructure, Xor};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::IntervalXorSynthetic;
    use crate::{
        Mwem, PointSanitizer, PrivateMultiplicativeWeights, Sanitizer, ThresholdSanitizer,
    };

    /// The query-free sanitizers give, for the same generator, exactly what they give on
    /// the dense XOR class (point) or on thresholds (tree); MWEM and private multiplicative
    /// weights take the dense path where its matrix fits and refuse with the reason above.
    #[test]
    fn query_free_sanitizers_answer_by_structure_and_the_others_say_why_not() {
        let class = Intervals::new(12).unwrap();
        let xor = Xor::new(&class as &dyn ConceptClass).unwrap();
        let data: Vec<u64> = (0..500u64).map(|i| (i * 7) % 5 + 2).collect();
        let point = PointSanitizer::new(Privacy::new(1.0, 1e-6).unwrap(), 0.1).unwrap();
        let tree = ThresholdSanitizer::new(Privacy::pure(1.0).unwrap()).unwrap();
        for seed in 0..5 {
            let mut a = ChaCha8Rng::seed_from_u64(seed);
            let mut b = ChaCha8Rng::seed_from_u64(seed);
            let structured = point
                .sanitize_interval_xor(12, &data, &mut a)
                .unwrap()
                .unwrap();
            let dense = point.sanitize(&xor, &data, &mut b).unwrap();
            assert_eq!(structured, IntervalXorSynthetic::Database(dense));
            let structured = tree
                .sanitize_interval_xor(12, &data, &mut a)
                .unwrap()
                .unwrap();
            let pieces = tree
                .sanitize_threshold_xor(ThresholdStructure::Plain(12), &data, &mut b)
                .unwrap()
                .unwrap();
            assert_eq!(structured, IntervalXorSynthetic::Pieces(pieces));
            assert_eq!(structured.size(), 12);
        }
        let mwem = Mwem::new(Privacy::pure(1.0).unwrap(), 5).unwrap();
        let pmw = PrivateMultiplicativeWeights::new(Privacy::pure(1.0).unwrap(), 0.1).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for sanitizer in [&mwem as &dyn Sanitizer, &pmw] {
            // 79² pairs × 12 points fit the query matrix: the dense path.
            assert!(
                sanitizer
                    .sanitize_interval_xor(12, &data, &mut rng)
                    .is_none()
            );
        }
        // MWEM runs by structure above the dense cap, up to 2^62 points.
        for size in [256u64, 1 << 20, 1 << 40] {
            let out = mwem
                .sanitize_interval_xor(size, &data, &mut rng)
                .unwrap()
                .unwrap();
            assert!(matches!(out, IntervalXorSynthetic::Pieces(_)));
            assert_eq!(out.size(), size);
        }
        let refusals = [
            (&pmw as &dyn Sanitizer, 256u64),
            (&pmw, 1 << 20),
            (&pmw, 1 << 40),
            (&mwem, (1 << 62) + 1),
        ];
        for (sanitizer, size) in refusals {
            let refusal = sanitizer
                .sanitize_interval_xor(size, &data, &mut rng)
                .unwrap()
                .unwrap_err()
                .to_string();
            assert!(refusal.contains("INTERVAL ⊕ INTERVAL"), "{refusal}");
            assert!(refusal.contains(&format!("[{size}]")), "{refusal}");
            assert!(!refusal.contains(&u128::MAX.to_string()), "{refusal}");
        }
        assert_eq!(interval_xor_matrix_bits(256), 32_897u128 * 32_897 * 256);
        // Blum–Ligett–Roth: its candidate databases, not the XOR class's ids, are what it
        // cannot enumerate; within its limit the class path runs.
        let blr = crate::BlumLigettRoth::new(Privacy::pure(1.0).unwrap(), 4).unwrap();
        assert!(blr.sanitize_interval_xor(3, &[0, 1], &mut rng).is_none());
        for size in [256u64, 1 << 20, 1 << 40, u64::MAX] {
            let refusal = blr
                .sanitize_interval_xor(size, &data, &mut rng)
                .unwrap()
                .unwrap_err()
                .to_string();
            assert!(refusal.contains("candidate databases"), "{refusal}");
        }
    }
}
