//! The count-weighted exponential mechanism for levels of up to 2^256 candidates in all.
//!
//! [`ExponentialMechanism::select_wide_levels`] takes at most 2^128 − 1 candidates. Pairs
//! of intervals over 2^40 points number about 2^158 (and 2^254 over 2^64 points), grouped
//! in a few score levels; [`ExponentialMechanism::select_huge_levels`] samples such levels
//! exactly with the wide sampler's envelope-and-accept scheme, its envelope sums carried in
//! 384-bit integers.
//!
//! # Why this is the exponential mechanism
//! The proof of the `wide` module, with its constants widened. Level `ℓ` holds `c_ℓ < 2^256`
//! candidates of score `q_ℓ`, `k_ℓ` is the envelope band of its gap (`ŵ_ℓ ≤ 2^-k_ℓ < 2ŵ_ℓ`),
//! `t_ℓ = bitlen(c_ℓ) − k_ℓ`, `T = max t_ℓ ∈ [1, 256]` (the best level has `k = 0`), and
//! the window is `S = 288 − T ∈ [32, 287]`. The sampler proposes one unit (a candidate)
//! from the envelope that gives each unit of level ℓ the integer weight `2^(S − b_ℓ)`,
//! `b_ℓ = min(k_ℓ, S)`, and accepts it with probability `2^-(k_ℓ − b_ℓ)·ŵ_ℓ·2^(k_ℓ)` (fair
//! coins for the part of the band beyond the window, then the exact dyadic ratio in
//! (1/2, 1]). A round ends with candidate j of level ℓ with probability `ŵ_ℓ·2^S/W` (W the
//! envelope total), the same for every candidate of a level, and rejected rounds are
//! independent repetitions; so the output is candidate j of level ℓ with probability
//! exactly `ŵ_ℓ/Σ_ℓ′ c_ℓ′·ŵ_ℓ′`: the exponential mechanism over the expanded candidate list
//! with the floating-point weights `ŵ_ℓ = exp(−λ·(q_max − q_ℓ))` (clamped as in the parent
//! module), whose privacy proof never used the number of candidates.
//!
//! Every level's envelope weight is below `2^(T + S) = 2^288`, so the sums over fewer than
//! 2^64 levels fit 384 bits. Levels beyond the window (`k_ℓ > S`) carry envelope mass at
//! most `Σ c_ℓ < 2^256 = 2^(T + S − 32)`, against the best level's at least `2^(T + S − 1)`,
//! so a round is accepted with probability above `(1/2)·(1 − 2^-31)`: at most about two
//! expected rounds, each O(L) for L levels.

use rand::Rng;

use super::{
    ExponentialMechanism, band, clamp_gap, integer_gap, normalize_log_weights,
    scale_by_power_of_two,
};
use crate::error::{Error, Result};
use crate::exact_bits::RandomBits;

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

/// Limbs of the envelope integers (384 bits, little-endian).
const LIMBS: usize = 6;

/// An unsigned 384-bit integer, little-endian 64-bit limbs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct U384([u64; LIMBS]);

impl U384 {
    fn from_parts(high: u128, low: u128) -> Self {
        U384([
            low as u64,
            (low >> 64) as u64,
            high as u64,
            (high >> 64) as u64,
            0,
            0,
        ])
    }

    /// `self · 2^shift`, when it fits.
    fn shl(self, shift: u32) -> Self {
        let (whole, bits) = ((shift / 64) as usize, shift % 64);
        let mut out = [0u64; LIMBS];
        for (i, limb) in out.iter_mut().enumerate().skip(whole) {
            let src = i - whole;
            *limb = self.0[src] << bits;
            if bits > 0 && src > 0 {
                *limb |= self.0[src - 1] >> (64 - bits);
            }
        }
        U384(out)
    }

    /// `⌊self / 2^shift⌋`.
    fn shr(self, shift: u32) -> Self {
        let (whole, bits) = ((shift / 64) as usize, shift % 64);
        let mut out = [0u64; LIMBS];
        for (i, limb) in out.iter_mut().enumerate() {
            let src = i + whole;
            if src >= LIMBS {
                break;
            }
            *limb = self.0[src] >> bits;
            if bits > 0 && src + 1 < LIMBS {
                *limb |= self.0[src + 1] << (64 - bits);
            }
        }
        U384(out)
    }

    fn add(self, other: Self) -> Self {
        let mut out = [0u64; LIMBS];
        let mut carry = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (s, c1) = self.0[i].overflowing_add(other.0[i]);
            let (s, c2) = s.overflowing_add(u64::from(carry));
            *limb = s;
            carry = c1 || c2;
        }
        U384(out)
    }

    /// `self − other` for `other ≤ self`.
    fn sub(self, other: Self) -> Self {
        let mut out = [0u64; LIMBS];
        let mut borrow = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (d, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (d, b2) = d.overflowing_sub(u64::from(borrow));
            *limb = d;
            borrow = b1 || b2;
        }
        U384(out)
    }

    fn less_than(&self, other: &Self) -> bool {
        for i in (0..LIMBS).rev() {
            if self.0[i] != other.0[i] {
                return self.0[i] < other.0[i];
            }
        }
        false
    }

    fn bit_length(&self) -> u32 {
        (0..LIMBS)
            .rev()
            .find(|&i| self.0[i] != 0)
            .map_or(0, |i| 64 * i as u32 + 64 - self.0[i].leading_zeros())
    }

    /// The low 256 bits as `(high, low)`.
    fn parts(self) -> (u128, u128) {
        (
            u128::from(self.0[2]) | (u128::from(self.0[3]) << 64),
            u128::from(self.0[0]) | (u128::from(self.0[1]) << 64),
        )
    }

    /// A uniform value in `[0, self)` by rejection from the next power of two (fewer than
    /// two attempts on average); `self` must be positive.
    fn uniform_below<R: Rng + ?Sized>(self, bits: &mut RandomBits<'_, R>) -> Self {
        let width = self.bit_length();
        loop {
            let mut limbs = [0u64; LIMBS];
            let mut left = width;
            for limb in &mut limbs {
                let take = left.min(64);
                *limb = bits.bits(take);
                left -= take;
            }
            let candidate = U384(limbs);
            if candidate.less_than(&self) {
                return candidate;
            }
        }
    }
}

/// The bit length of a 256-bit count.
fn count_bits(level: &HugeScoreLevel) -> u32 {
    if level.count_high != 0 {
        256 - level.count_high.leading_zeros()
    } else {
        128 - level.count_low.leading_zeros()
    }
}

/// Checks huge levels (every count positive, the total below 2^256) and returns the best
/// score.
fn validate_huge_levels(levels: &[HugeScoreLevel]) -> Result<i64> {
    let mut best = None::<i64>;
    let mut total = U384::default();
    for (index, level) in levels.iter().enumerate() {
        if level.count_high == 0 && level.count_low == 0 {
            return Err(Error::ZeroCount { index });
        }
        total = total.add(U384::from_parts(level.count_high, level.count_low));
        if total.bit_length() > 256 {
            return Err(Error::TooManyCandidates { limit: u64::MAX });
        }
        best = Some(best.map_or(level.score, |b| b.max(level.score)));
    }
    best.ok_or(Error::EmptyCandidates)
}

impl ExponentialMechanism {
    /// The count-weighted path for up to `2^256 − 1` candidates in all: picks a level with
    /// probability proportional to `count · exp(λ·score)`, then one of its candidates
    /// uniformly (the exponential mechanism over the expanded candidate list; proof in the
    /// module documentation of `huge`). O(number of levels) per round, at most about 2
    /// expected rounds. For the same levels it has the distribution of
    /// [`Self::select_wide_levels`] (not the same draws for a seed).
    ///
    /// # Errors
    /// [`Error::EmptyCandidates`], [`Error::ZeroCount`], [`Error::TooManyCandidates`] if the
    /// counts sum to 2^256 or more (the reported limit is then `u64::MAX`, the largest value
    /// the error carries).
    pub fn select_huge_levels<R: Rng + ?Sized>(
        &self,
        levels: &[HugeScoreLevel],
        rng: &mut R,
    ) -> Result<HugeLevelChoice> {
        let best = validate_huge_levels(levels)?;
        let lambda = self.lambda;
        let gap = |i: usize| clamp_gap(lambda * integer_gap(best, levels[i].score));
        let bands: Vec<u32> = (0..levels.len()).map(|i| band(gap(i))).collect();
        // The window S = 288 − max(bitlen(count) − k) (see the module documentation).
        let top = (0..levels.len())
            .map(|i| i64::from(count_bits(&levels[i])) - i64::from(bands[i]))
            .max()
            .unwrap_or(1)
            .clamp(1, 256);
        let window = (288 - top) as u32;
        let head = |k: u32| k.min(window);
        let weight = |i: usize| {
            U384::from_parts(levels[i].count_high, levels[i].count_low).shl(window - head(bands[i]))
        };
        let total = (0..levels.len()).fold(U384::default(), |sum, i| sum.add(weight(i)));
        let mut bits = RandomBits::new(rng);
        loop {
            let mut r = total.uniform_below(&mut bits);
            let mut chosen = levels.len() - 1;
            for i in 0..levels.len() {
                let w = weight(i);
                if r.less_than(&w) {
                    chosen = i;
                    break;
                }
                r = r.sub(w);
            }
            let k = bands[chosen];
            let (offset_high, offset_low) = r.shr(window - head(k)).parts();
            if k > window && !bits.all_zero_bits(k - window) {
                continue;
            }
            if bits.bernoulli_f64(scale_by_power_of_two(gap(chosen), k)) {
                return Ok(HugeLevelChoice {
                    level: chosen,
                    offset_high,
                    offset_low,
                });
            }
        }
    }

    /// For each huge level, the probability that [`Self::select_huge_levels`] picks it.
    ///
    /// # Errors
    /// As for [`Self::select_huge_levels`].
    pub fn huge_level_probabilities(&self, levels: &[HugeScoreLevel]) -> Result<Vec<f64>> {
        let best = validate_huge_levels(levels)?;
        let log_weights = levels
            .iter()
            .map(|level| {
                let count = level.count_high as f64 * 2f64.powi(128) + level.count_low as f64;
                count.ln() - clamp_gap(self.lambda * integer_gap(best, level.score))
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
    use crate::WideScoreLevel;
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

    #[test]
    fn u384_arithmetic_is_exact() {
        let x = U384::from_parts(3, u128::MAX);
        assert_eq!(x.bit_length(), 130);
        assert_eq!(x.shl(100).shr(100), x);
        assert_eq!(x.shl(200).bit_length(), 330);
        assert_eq!(x.shr(128).parts(), (0, 3));
        let one = U384::from_parts(0, 1);
        let sum = x.add(one);
        assert_eq!(sum.parts(), (4, 0));
        assert_eq!(sum.sub(one), x);
        assert!(x.less_than(&sum) && !sum.less_than(&x) && !x.less_than(&x));
        assert_eq!(one.shl(383).bit_length(), 384);
        assert_eq!(one.shl(383).shr(383), one);
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
