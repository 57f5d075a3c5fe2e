//! The count-weighted exponential mechanism for levels of up to 2^128 candidates.
//!
//! [`ExponentialMechanism::select_levels`] keeps its envelope sums in `u128` and so takes
//! at most 2^60 candidates in all. Classes such as intervals over 2^64 points have about
//! 2^127 concepts, grouped in a few levels of equal score (at most `2n + 1` for n examples):
//! [`ExponentialMechanism::select_wide_levels`] samples such levels exactly with the same
//! envelope-and-accept scheme as the narrow path, with `u128` counts and the envelope sums
//! carried in 256-bit integers.
//!
//! # Why this is the exponential mechanism
//! The sampler is the `envelope` module's, at count width `B = 128`: the window is
//! `S = 160 − T ∈ [32, 159]` with `T = max (bitlen(c_ℓ) − k_ℓ)`, every level's envelope weight
//! is below `2^160`, and the output is candidate `j` of level ℓ with probability exactly
//! `ŵ_ℓ / Σ_ℓ' c_ℓ'·ŵ_ℓ'` (the proof is in that module): the exponential mechanism over
//! the expanded candidate list with the floating-point weights `ŵ_ℓ = exp(−λ·(q_max − q_ℓ))`,
//! whose privacy proof (ε, with the floating-point budget paid out of ε) is the parent
//! module's word for word: it never used the number of candidates. At most about two
//! expected rounds, each O(L) for L levels, whatever the counts (up to 2^128) and gaps are.

use rand::Rng;

use super::ExponentialMechanism;
use super::envelope::Level;
use crate::error::Result;

/// A group of candidates that share one integer score, with a 128-bit count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WideScoreLevel {
    /// The shared score (higher is better; `-(mistakes)` for error counts).
    pub score: i64,
    /// How many candidates have this score (at least 1).
    pub count: u128,
}

/// The outcome of [`ExponentialMechanism::select_wide_levels`]: a level and a uniformly
/// chosen candidate in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct WideLevelChoice {
    /// Index into the slice of levels.
    pub level: usize,
    /// Which of the level's `count` candidates, uniform in `0..count`.
    pub offset: u128,
}

impl Level<4> for WideScoreLevel {
    type Count = u128;

    fn score(&self) -> i64 {
        self.score
    }

    fn count(&self) -> u128 {
        self.count
    }
}

impl ExponentialMechanism {
    /// The count-weighted path for up to `2^128 − 1` candidates in all: picks a level with
    /// probability proportional to `count · exp(λ·score)`, then one of its candidates
    /// uniformly (the exponential mechanism over the expanded candidate list; proof in the
    /// module documentation of `wide` and of the shared sampler, `envelope`). O(number of
    /// levels) per round, at most about 2 expected rounds. For the same levels it has the
    /// distribution of [`Self::select_levels`] (not the same draws for a seed).
    ///
    /// # Errors
    /// [`Error::EmptyCandidates`](crate::Error::EmptyCandidates),
    /// [`Error::ZeroCount`](crate::Error::ZeroCount),
    /// [`Error::TooManyCandidates`](crate::Error::TooManyCandidates) if the
    /// counts sum above `u128::MAX` (the reported limit is then `u64::MAX`, the largest
    /// value the error carries).
    pub fn select_wide_levels<R: Rng + ?Sized>(
        &self,
        levels: &[WideScoreLevel],
        rng: &mut R,
    ) -> Result<WideLevelChoice> {
        let (level, offset) = self.select_counted(levels, rng)?;
        Ok(WideLevelChoice { level, offset })
    }

    /// For each wide level, the probability that [`Self::select_wide_levels`] picks it.
    ///
    /// # Errors
    /// As for [`Self::select_wide_levels`].
    pub fn wide_level_probabilities(&self, levels: &[WideScoreLevel]) -> Result<Vec<f64>> {
        self.counted_probabilities(levels)
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::error::Error;
    use crate::selection::exponential::ScoreLevel;
    use privpac_accounting::Privacy;

    /// False-failure rate of each seeded goodness-of-fit test here.
    const ALPHA: f64 = 1e-6;

    fn mechanism(epsilon: f64) -> ExponentialMechanism {
        ExponentialMechanism::new(Privacy::pure(epsilon).unwrap(), 1.0).unwrap()
    }

    /// Where counts fit the narrow path, the wide path's level probabilities are the narrow
    /// path's (the same exponential mechanism), bit for bit.
    #[test]
    fn wide_probabilities_equal_the_narrow_ones() {
        for epsilon in [0.1, 1.0, 5.0, 300.0] {
            let mech = mechanism(epsilon);
            let narrow = [
                ScoreLevel { score: 0, count: 3 },
                ScoreLevel {
                    score: -1,
                    count: 1 << 40,
                },
                ScoreLevel {
                    score: -7,
                    count: 1,
                },
                ScoreLevel {
                    score: -2000,
                    count: 12,
                },
            ];
            let wide: Vec<WideScoreLevel> = narrow
                .iter()
                .map(|l| WideScoreLevel {
                    score: l.score,
                    count: u128::from(l.count),
                })
                .collect();
            assert_eq!(
                mech.wide_level_probabilities(&wide).unwrap(),
                mech.level_probabilities(&narrow).unwrap()
            );
        }
    }

    /// Seeded χ² tests (false-failure rate 10⁻⁶ each) of the level frequencies against the
    /// exact probabilities, with counts near 2^127 and with tail bands (gaps beyond 64
    /// envelope bands whose weights still matter because their counts are huge).
    #[test]
    fn wide_levels_are_sampled_with_their_probabilities() {
        let cases: [(f64, Vec<WideScoreLevel>); 3] = [
            (
                1.0,
                vec![
                    WideScoreLevel { score: 0, count: 1 },
                    WideScoreLevel {
                        score: -3,
                        count: 40,
                    },
                    WideScoreLevel {
                        score: -5,
                        count: 1000,
                    },
                ],
            ),
            (
                1.0,
                vec![
                    WideScoreLevel {
                        score: -10,
                        count: 1 << 20,
                    },
                    WideScoreLevel {
                        score: -40,
                        count: 1 << 40,
                    },
                    WideScoreLevel {
                        score: -90,
                        count: 1 << 60,
                    },
                    WideScoreLevel {
                        score: -150,
                        count: 1 << 100,
                    },
                ],
            ),
            (
                2.0,
                vec![
                    WideScoreLevel { score: 0, count: 7 },
                    WideScoreLevel {
                        score: -80,
                        count: (1 << 127) - 3,
                    },
                    WideScoreLevel {
                        score: -81,
                        count: 1 << 126,
                    },
                ],
            ),
        ];
        for (epsilon, levels) in cases {
            let mech = mechanism(epsilon);
            let expected = mech.wide_level_probabilities(&levels).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
            let mut counts = vec![0u64; levels.len()];
            for _ in 0..40_000 {
                let choice = mech.select_wide_levels(&levels, &mut rng).unwrap();
                assert!(choice.offset < levels[choice.level].count);
                counts[choice.level] += 1;
            }
            let outcome = privpac_audit::chi_square_gof(&counts, &expected, ALPHA).unwrap();
            assert!(!outcome.rejected, "{counts:?} vs {expected:?}: {outcome:?}");
        }
    }

    /// The offset is uniform within its level: for one level of 3·2^125 candidates, the
    /// offset's position in thirds of the level is uniform (χ², false-failure rate 10⁻⁶), and
    /// for a level of 5 candidates every offset appears with frequency 1/5.
    #[test]
    fn offsets_are_uniform_within_a_level() {
        let mech = mechanism(1.0);
        for count in [3u128 << 125, 5] {
            let levels = [
                WideScoreLevel { score: 0, count },
                WideScoreLevel {
                    score: -1,
                    count: 2,
                },
            ];
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            let buckets = if count == 5 { 5 } else { 3 };
            let mut counts = vec![0u64; buckets];
            let mut drawn = 0;
            while drawn < 30_000 {
                let choice = mech.select_wide_levels(&levels, &mut rng).unwrap();
                if choice.level == 0 {
                    counts[(choice.offset / (count / buckets as u128)) as usize] += 1;
                    drawn += 1;
                }
            }
            let expected = vec![1.0 / buckets as f64; buckets];
            let outcome = privpac_audit::chi_square_gof(&counts, &expected, ALPHA).unwrap();
            assert!(!outcome.rejected, "{counts:?}: {outcome:?}");
        }
    }

    #[test]
    fn invalid_wide_levels_are_refused() {
        let mech = mechanism(1.0);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert!(matches!(
            mech.select_wide_levels(&[], &mut rng),
            Err(Error::EmptyCandidates)
        ));
        assert!(matches!(
            mech.select_wide_levels(&[WideScoreLevel { score: 0, count: 0 }], &mut rng),
            Err(Error::ZeroCount { index: 0 })
        ));
        let overflow = [
            WideScoreLevel {
                score: 0,
                count: u128::MAX,
            },
            WideScoreLevel { score: 0, count: 1 },
        ];
        assert!(matches!(
            mech.select_wide_levels(&overflow, &mut rng),
            Err(Error::TooManyCandidates { .. })
        ));
    }
}
