//! The count-weighted exponential mechanism for levels of up to 2^128 candidates.
//!
//! [`ExponentialMechanism::select_levels`] keeps its envelope sums in `u128` and so takes
//! at most 2^60 candidates in all. Classes such as intervals over 2^64 points have about
//! 2^127 concepts, grouped in a few levels of equal score (at most `2n + 1` for n examples):
//! [`ExponentialMechanism::select_wide_levels`] samples such levels exactly with the same
//! envelope-and-accept scheme as the narrow path, the envelope sums carried in 256-bit
//! integers.
//!
//! # Why this is the exponential mechanism
//! A level `ℓ` holds `c_ℓ` candidates of score `q_ℓ`; `k_ℓ` is the envelope band of its gap
//! (see the parent module: `ŵ_ℓ ≤ 2^-k_ℓ < 2ŵ_ℓ`). With `t_ℓ = bitlen(c_ℓ) − k_ℓ` and `T =
//! max t_ℓ ≥ 1` (the best level has `k = 0`), the window is `S = 160 − T ∈ [32, 159]`. The
//! sampler proposes one unit (a candidate) from the envelope that gives each unit of level ℓ
//! the integer weight `2^(S − b_ℓ)`, `b_ℓ = min(k_ℓ, S)`, and accepts it with probability
//! `2^-(k_ℓ − b_ℓ) · ŵ_ℓ·2^(k_ℓ)` (fair coins for the part of the band beyond the window,
//! then the exact dyadic ratio, which lies in (1/2, 1]). A round therefore ends with
//! candidate `j` of level ℓ with probability `ŵ_ℓ · 2^S / W` (W the envelope total), the
//! same for every candidate of a level, and rejected rounds are independent repetitions. So the output is
//! candidate `j` of level ℓ with probability exactly `ŵ_ℓ / Σ_ℓ' c_ℓ'·ŵ_ℓ'`: the level
//! with probability `c_ℓ·ŵ_ℓ / Σ c·ŵ`, then a uniform member of it. This is the
//! distribution of the exponential mechanism over the expanded candidate list with the
//! floating-point weights `ŵ_ℓ = exp(−λ·(q_max − q_ℓ))` (clamped as in the parent module),
//! whose privacy proof (ε, with the floating-point budget paid out of ε) is the parent
//! module's word for word: it never used the number of candidates.
//!
//! Every level's envelope weight is below `2^(T + S) = 2^160`, so the sums fit 256 bits. A
//! level inside the window is accepted with probability above 1/2 per proposal; the levels
//! beyond it (`k_ℓ > S`) carry envelope mass at most `Σ c_ℓ·2^-S < 2^(128 − S) = 2^(T − 32)`
//! (in units where the best level's weight `c·2^-k ≥ 2^(T − 1)`), so the expected number of
//! rounds is at most `2/(1 − 2^-30)`, each O(L) for L levels, whatever the counts (up to
//! 2^128) and gaps are.

use rand::Rng;

use super::{
    ExponentialMechanism, band, clamp_gap, integer_gap, normalize_log_weights,
    scale_by_power_of_two,
};
use crate::error::{Error, Result};
use crate::exact_bits::RandomBits;

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

/// An unsigned 256-bit integer, wide enough for the envelope sums (each weight below 2^160,
/// at most 2^64 levels).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
struct U256 {
    // Field order matters: the derived order compares `high` first.
    high: u128,
    low: u128,
}

impl U256 {
    /// `value · 2^shift` for `shift < 256`, when it fits in 256 bits.
    fn shifted(value: u128, shift: u32) -> U256 {
        debug_assert!(shift < 256);
        match shift {
            0 => U256 {
                high: 0,
                low: value,
            },
            1..128 => U256 {
                high: value >> (128 - shift),
                low: value << shift,
            },
            _ => U256 {
                high: value << (shift - 128),
                low: 0,
            },
        }
    }

    fn add(self, other: U256) -> U256 {
        let (low, carry) = self.low.overflowing_add(other.low);
        U256 {
            high: self.high + other.high + u128::from(carry),
            low,
        }
    }

    /// `self − other` for `other ≤ self`.
    fn sub(self, other: U256) -> U256 {
        let (low, borrow) = self.low.overflowing_sub(other.low);
        U256 {
            high: self.high - other.high - u128::from(borrow),
            low,
        }
    }

    /// `⌊self / 2^shift⌋` for `shift < 256`, when it fits in 128 bits.
    fn shr(self, shift: u32) -> u128 {
        debug_assert!(shift < 256);
        match shift {
            0 => self.low,
            1..128 => (self.low >> shift) | (self.high << (128 - shift)),
            _ => self.high >> (shift - 128),
        }
    }

    fn bit_length(self) -> u32 {
        if self.high != 0 {
            256 - self.high.leading_zeros()
        } else {
            128 - self.low.leading_zeros()
        }
    }

    /// A uniform value in `[0, self)` by rejection from the next power of two (fewer than
    /// two attempts on average); `self` must be positive.
    fn uniform_below<R: Rng + ?Sized>(self, bits: &mut RandomBits<'_, R>) -> U256 {
        let width = self.bit_length();
        loop {
            let mut limbs = [0u64; 4];
            let mut left = width;
            for limb in &mut limbs {
                let take = left.min(64);
                *limb = bits.bits(take);
                left -= take;
            }
            let candidate = U256 {
                low: u128::from(limbs[0]) | (u128::from(limbs[1]) << 64),
                high: u128::from(limbs[2]) | (u128::from(limbs[3]) << 64),
            };
            if candidate < self {
                return candidate;
            }
        }
    }
}

/// Checks wide levels and returns the best score.
fn validate_wide_levels(levels: &[WideScoreLevel]) -> Result<i64> {
    let mut best = None::<i64>;
    let mut total: u128 = 0;
    for (index, level) in levels.iter().enumerate() {
        if level.count == 0 {
            return Err(Error::ZeroCount { index });
        }
        total = total
            .checked_add(level.count)
            .ok_or(Error::TooManyCandidates { limit: u64::MAX })?;
        best = Some(best.map_or(level.score, |b| b.max(level.score)));
    }
    best.ok_or(Error::EmptyCandidates)
}

impl ExponentialMechanism {
    /// The count-weighted path for up to `2^128 − 1` candidates in all: picks a level with
    /// probability proportional to `count · exp(λ·score)`, then one of its candidates
    /// uniformly (the exponential mechanism over the expanded candidate list; proof in the
    /// module documentation of `wide`). O(number of levels) per round, at most 2 expected
    /// rounds. For the same levels it has the distribution of [`Self::select_levels`] (not
    /// the same draws for a seed).
    ///
    /// # Errors
    /// [`Error::EmptyCandidates`], [`Error::ZeroCount`], [`Error::TooManyCandidates`] if the
    /// counts sum above `u128::MAX` (the reported limit is then `u64::MAX`, the largest
    /// value the error carries).
    pub fn select_wide_levels<R: Rng + ?Sized>(
        &self,
        levels: &[WideScoreLevel],
        rng: &mut R,
    ) -> Result<WideLevelChoice> {
        let best = validate_wide_levels(levels)?;
        let lambda = self.lambda;
        let gap = |i: usize| clamp_gap(lambda * integer_gap(best, levels[i].score));
        let bands: Vec<u32> = (0..levels.len()).map(|i| band(gap(i))).collect();
        // The window S = 160 − max(bitlen(count) − k) (see the module documentation).
        let top = (0..levels.len())
            .map(|i| i64::from(128 - levels[i].count.leading_zeros()) - i64::from(bands[i]))
            .max()
            .unwrap_or(1)
            .clamp(1, 128);
        let window = (160 - top) as u32;
        let head = |k: u32| k.min(window);
        // Envelope weight of a level: count · 2^(S − min(k, S)) in units of 2^-S.
        let weight = |i: usize| U256::shifted(levels[i].count, window - head(bands[i]));
        let total = (0..levels.len()).fold(U256::default(), |sum, i| sum.add(weight(i)));
        let mut bits = RandomBits::new(rng);
        loop {
            let mut r = total.uniform_below(&mut bits);
            let mut chosen = levels.len() - 1;
            for i in 0..levels.len() {
                let w = weight(i);
                if r < w {
                    chosen = i;
                    break;
                }
                r = r.sub(w);
            }
            // r < count · 2^(S − b): the unit is ⌊r / 2^(S − b)⌋ < count.
            let k = bands[chosen];
            let offset = r.shr(window - head(k));
            if k > window && !bits.all_zero_bits(k - window) {
                continue;
            }
            if bits.bernoulli_f64(scale_by_power_of_two(gap(chosen), k)) {
                return Ok(WideLevelChoice {
                    level: chosen,
                    offset,
                });
            }
        }
    }

    /// For each wide level, the probability that [`Self::select_wide_levels`] picks it.
    ///
    /// # Errors
    /// As for [`Self::select_wide_levels`].
    pub fn wide_level_probabilities(&self, levels: &[WideScoreLevel]) -> Result<Vec<f64>> {
        let best = validate_wide_levels(levels)?;
        let log_weights = levels
            .iter()
            .map(|level| {
                (level.count as f64).ln() - clamp_gap(self.lambda * integer_gap(best, level.score))
            })
            .collect();
        Ok(normalize_log_weights(log_weights)
            .into_iter()
            .map(f64::exp)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::selection::exponential::ScoreLevel;
    use privpac_accounting::Privacy;

    /// False-failure rate of each seeded goodness-of-fit test here.
    const ALPHA: f64 = 1e-6;

    fn mechanism(epsilon: f64) -> ExponentialMechanism {
        ExponentialMechanism::new(Privacy::pure(epsilon).unwrap(), 1.0).unwrap()
    }

    #[test]
    fn u256_arithmetic_matches_u128_where_it_fits() {
        let high = U256::shifted(3, 200);
        assert_eq!((high.high, high.low), (3 << 72, 0));
        assert_eq!(high.shr(200), 3);
        assert_eq!(high.shr(130), 3 << 70);
        for (value, shift) in [(0u128, 0u32), (5, 3), (u64::MAX as u128, 64), (1 << 63, 1)] {
            let x = U256::shifted(value, shift);
            assert_eq!(x.high, 0);
            assert_eq!(x.low, value << shift);
            assert_eq!(x.shr(shift), value);
        }
        let big = U256::shifted(u128::MAX, 64);
        assert_eq!(big.high, u128::from(u64::MAX));
        assert_eq!(big.low, u128::MAX << 64);
        assert_eq!(big.shr(64), u128::MAX);
        assert_eq!(big.bit_length(), 192);
        let sum = big.add(U256::shifted(1, 64));
        assert_eq!(sum.sub(U256::shifted(1, 64)), big);
        assert!(big < sum);
        assert_eq!(sum.high, 1 << 64);
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
