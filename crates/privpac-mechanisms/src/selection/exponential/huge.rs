//! The count-weighted exponential mechanism for levels of up to 2^256 candidates in all.
//!
//! [`ExponentialMechanism::select_wide_levels`] takes at most 2^128 − 1 candidates. Pairs
//! of intervals over 2^40 points number about 2^158 (and 2^254 over 2^64 points), grouped
//! in a few score levels; [`ExponentialMechanism::select_huge_levels`] samples such levels
//! exactly with the wide sampler's envelope-and-accept scheme (one implementation, the
//! `envelope` module's), its counts 256 bits wide and its envelope sums carried in 384-bit
//! integers.
//!
//! # Why this is the exponential mechanism
//! The proof of the `envelope` module at count width `B = 256`: level `ℓ` holds
//! `c_ℓ < 2^256` candidates, the window is `S = 288 − T ∈ [32, 287]`, every level's envelope
//! weight is below `2^288` (so the sums over fewer than 2^64 levels fit 384 bits), and the
//! output is candidate j of level ℓ with probability exactly `ŵ_ℓ/Σ_ℓ′ c_ℓ′·ŵ_ℓ′`: the
//! exponential mechanism over the expanded candidate list with the floating-point weights
//! `ŵ_ℓ = exp(−λ·(q_max − q_ℓ))` (clamped as in the parent module), whose privacy proof
//! never used the number of candidates. Levels beyond the window (`k_ℓ > S`) carry envelope
//! mass below `2^-31` of the total, so a round is accepted with probability above
//! `(1/2)·(1 − 2^-31)`: at most about two expected rounds, each O(L) for L levels.

use rand::Rng;

use super::ExponentialMechanism;
use super::envelope::Level;
use crate::error::Result;

/// A group of candidates that share one integer score, with a 256-bit count
/// `count_high·2^128 + count_low`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HugeScoreLevel {
    /// The shared score (higher is better).
    pub score: i64,
    /// The high 128 bits of the count.
    pub count_high: u128,
    /// The low 128 bits of the count (the count is at least 1).
    pub count_low: u128,
}

/// The outcome of [`ExponentialMechanism::select_huge_levels`]: a level and a uniformly
/// chosen candidate in it, `offset_high·2^128 + offset_low` below the level's count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct HugeLevelChoice {
    /// Index into the slice of levels.
    pub level: usize,
    /// The high 128 bits of the offset.
    pub offset_high: u128,
    /// The low 128 bits of the offset.
    pub offset_low: u128,
}

impl Level<6> for HugeScoreLevel {
    type Count = (u128, u128);

    fn score(&self) -> i64 {
        self.score
    }

    fn count(&self) -> (u128, u128) {
        (self.count_high, self.count_low)
    }
}

impl ExponentialMechanism {
    /// The count-weighted path for up to `2^256 − 1` candidates in all: picks a level with
    /// probability proportional to `count · exp(λ·score)`, then one of its candidates
    /// uniformly (the exponential mechanism over the expanded candidate list; proof in the
    /// module documentation of `huge` and of the shared sampler, `envelope`). O(number of
    /// levels) per round, at most about 2 expected rounds. For the same levels it has the
    /// distribution of [`Self::select_wide_levels`] (not the same draws for a seed).
    ///
    /// # Errors
    /// [`Error::EmptyCandidates`](crate::Error::EmptyCandidates),
    /// [`Error::ZeroCount`](crate::Error::ZeroCount),
    /// [`Error::TooManyCandidates`](crate::Error::TooManyCandidates) if the
    /// counts sum to 2^256 or more (the reported limit is then `u64::MAX`, the largest value
    /// the error carries).
    pub fn select_huge_levels<R: Rng + ?Sized>(
        &self,
        levels: &[HugeScoreLevel],
        rng: &mut R,
    ) -> Result<HugeLevelChoice> {
        let (level, (offset_high, offset_low)) = self.select_counted(levels, rng)?;
        Ok(HugeLevelChoice {
            level,
            offset_high,
            offset_low,
        })
    }

    /// For each huge level, the probability that [`Self::select_huge_levels`] picks it.
    ///
    /// # Errors
    /// As for [`Self::select_huge_levels`].
    pub fn huge_level_probabilities(&self, levels: &[HugeScoreLevel]) -> Result<Vec<f64>> {
        self.counted_probabilities(levels)
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::WideScoreLevel;
    use crate::error::Error;
    use privpac_accounting::Privacy;

    /// False-failure rate of each seeded goodness-of-fit test here.
    const ALPHA: f64 = 1e-6;

    fn mechanism(epsilon: f64) -> ExponentialMechanism {
        ExponentialMechanism::new(Privacy::pure(epsilon).unwrap(), 1.0).unwrap()
    }

    fn level(score: i64, high: u128, low: u128) -> HugeScoreLevel {
        HugeScoreLevel {
            score,
            count_high: high,
            count_low: low,
        }
    }

    /// Where counts fit the wide path, the huge path's level probabilities are the wide
    /// path's (the same exponential mechanism), bit for bit.
    #[test]
    fn huge_probabilities_equal_the_wide_ones() {
        for epsilon in [0.1, 1.0, 300.0] {
            let mech = mechanism(epsilon);
            let wide = [
                WideScoreLevel { score: 0, count: 3 },
                WideScoreLevel {
                    score: -1,
                    count: 1 << 100,
                },
                WideScoreLevel {
                    score: -2000,
                    count: 12,
                },
            ];
            let huge: Vec<HugeScoreLevel> =
                wide.iter().map(|l| level(l.score, 0, l.count)).collect();
            assert_eq!(
                mech.huge_level_probabilities(&huge).unwrap(),
                mech.wide_level_probabilities(&wide).unwrap()
            );
        }
    }

    /// Seeded χ² tests (false-failure rate 10⁻⁶ each) of the level frequencies against the
    /// exact probabilities, with counts far beyond 2^128 and tail bands; and the offset's
    /// position in halves of a level of 2^200 candidates is uniform.
    #[test]
    fn huge_levels_are_sampled_with_their_probabilities() {
        let cases: [(f64, Vec<HugeScoreLevel>); 2] = [
            (
                1.0,
                vec![
                    level(0, 0, 7),
                    level(-60, 1 << 20, 0),
                    level(-100, 1 << 60, 5),
                    level(-200, 1 << 126, 0),
                ],
            ),
            (
                2.0,
                vec![
                    level(0, 1, 0),
                    level(-3, 0, 1 << 126),
                    level(-90, 1 << 127, 1),
                ],
            ),
        ];
        for (epsilon, levels) in cases {
            let mech = mechanism(epsilon);
            let expected = mech.huge_level_probabilities(&levels).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
            let mut counts = vec![0u64; levels.len()];
            for _ in 0..40_000 {
                let choice = mech.select_huge_levels(&levels, &mut rng).unwrap();
                let l = levels[choice.level];
                assert!(
                    (choice.offset_high, choice.offset_low) < (l.count_high, l.count_low),
                    "{choice:?}"
                );
                counts[choice.level] += 1;
            }
            let outcome = privpac_audit::chi_square_gof(&counts, &expected, ALPHA).unwrap();
            assert!(!outcome.rejected, "{counts:?} vs {expected:?}: {outcome:?}");
        }
        let mech = mechanism(1.0);
        let levels = [level(0, 1 << 72, 0), level(-1, 0, 2)];
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut halves = [0u64; 2];
        let mut drawn = 0;
        while drawn < 20_000 {
            let choice = mech.select_huge_levels(&levels, &mut rng).unwrap();
            if choice.level == 0 {
                halves[usize::from(choice.offset_high >= 1 << 71)] += 1;
                drawn += 1;
            }
        }
        let outcome = privpac_audit::chi_square_gof(&halves, &[0.5, 0.5], ALPHA).unwrap();
        assert!(!outcome.rejected, "{halves:?}: {outcome:?}");
    }

    #[test]
    fn bad_huge_levels_are_refused() {
        let mech = mechanism(1.0);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert!(matches!(
            mech.select_huge_levels(&[], &mut rng),
            Err(Error::EmptyCandidates)
        ));
        assert!(matches!(
            mech.select_huge_levels(&[level(0, 0, 0)], &mut rng),
            Err(Error::ZeroCount { index: 0 })
        ));
        let full = level(0, u128::MAX, u128::MAX);
        assert!(matches!(
            mech.select_huge_levels(&[full, level(-1, 0, 1)], &mut rng),
            Err(Error::TooManyCandidates { .. })
        ));
    }
}
