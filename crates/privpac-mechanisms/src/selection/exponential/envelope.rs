//! The envelope-and-accept sampler over count-weighted score levels, written once for every
//! count width: `u128` counts (the `wide` path) and 256-bit counts (the `huge` path).
//!
//! # Why this is the exponential mechanism
//! Let `B` be the count width (128 or 256 bits). Level `ℓ` holds `c_ℓ < 2^B` candidates of
//! score `q_ℓ`; `k_ℓ` is the envelope band of its gap (see the parent module: `ŵ_ℓ ≤ 2^-k_ℓ
//! < 2ŵ_ℓ`). With `t_ℓ = bitlen(c_ℓ) − k_ℓ` and `T = max t_ℓ ∈ [1, B]` (the best level has
//! `k = 0`), the window is `S = B + 32 − T ∈ [32, B + 31]`. The sampler proposes one unit (a
//! candidate) from the envelope that gives each unit of level ℓ the integer weight
//! `2^(S − b_ℓ)`, `b_ℓ = min(k_ℓ, S)`, and accepts it with probability
//! `2^-(k_ℓ − b_ℓ) · ŵ_ℓ·2^(k_ℓ)` (fair coins for the part of the band beyond the window,
//! then the exact dyadic ratio, which lies in (2^(−1−10⁻⁹), 1], about (1/2, 1], the
//! margin of `band`). A round therefore ends with
//! candidate `j` of level ℓ with probability `ŵ_ℓ · 2^S / W` (W the envelope total), the
//! same for every candidate of a level, and rejected rounds are independent repetitions.
//! So the output is candidate `j` of level ℓ with probability exactly
//! `ŵ_ℓ / Σ_ℓ' c_ℓ'·ŵ_ℓ'`: the level with probability `c_ℓ·ŵ_ℓ / Σ c·ŵ`, then a uniform
//! member of it. This is the distribution of the exponential mechanism over the expanded
//! candidate list with the floating-point weights `ŵ_ℓ = exp(−λ·(q_max − q_ℓ))` (clamped as
//! in the parent module), whose privacy proof (ε, with the floating-point budget paid out of
//! ε) is the parent module's word for word: it never used the number of candidates.
//!
//! # Sizes and running time
//! Every level's envelope weight `c_ℓ·2^(S − b_ℓ)` is below `2^(T + S) = 2^(B + 32)`, so the
//! sums over fewer than 2^64 levels are below `2^(B + 96)`: 224 bits for `B = 128` (kept in
//! four 64-bit limbs, 256 bits) and 352 bits for `B = 256` (six limbs, 384 bits). A level
//! inside the window is accepted with probability above 1/2 per proposal; the levels beyond
//! it (`k_ℓ > S`) carry envelope mass at most `Σ c_ℓ < 2^B = 2^(T + S − 32)`, against at
//! least `2^(T + S − 1)` for the level that attains `T` (its weight is
//! `c·2^(S − k) ≥ 2^(bitlen(c) − 1 + S − k)`, and it lies inside the window: a level
//! beyond it has `t_ℓ < B − S = T − 32`), so a round is accepted with probability above
//! `(1/2)·(1 − 2^-31)`: at most about two expected rounds, each O(L) for L levels, whatever
//! the counts and gaps are.
//!
//! # Which random bits are used
//! A round draws the proposal `r < W` by rejection from the next power of two, as `bitlen(W)`
//! bits taken low limb first, 64 at a time; then, for a proposal beyond the window, the
//! `k_ℓ − S` fair coins, then the Bernoulli of the dyadic ratio. The bits of a draw depend on
//! the values only (not on the limb count of the integers that hold them), which is why the
//! wide path's draws did not change when it moved here.

use rand::Rng;

use super::{
    ExponentialMechanism, band, clamp_gap, integer_gap, normalize_log_weights,
    scale_by_power_of_two,
};
use crate::error::{Error, Result};
use crate::exact_bits::RandomBits;

/// An unsigned integer of `N` 64-bit limbs, little-endian: the envelope sums.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Limbs<const N: usize>(pub(super) [u64; N]);

impl<const N: usize> Limbs<N> {
    const ZERO: Self = Limbs([0; N]);

    /// `self · 2^shift`, when it fits (no bit may be shifted out).
    fn shl(self, shift: u32) -> Self {
        debug_assert!(
            self.bit_length() == 0 || self.bit_length() + shift <= 64 * N as u32,
            "envelope shift overflow"
        );
        let (whole, bits) = ((shift / 64) as usize, shift % 64);
        let mut out = [0u64; N];
        for (i, limb) in out.iter_mut().enumerate().skip(whole) {
            let src = i - whole;
            *limb = self.0[src] << bits;
            if bits > 0 && src > 0 {
                *limb |= self.0[src - 1] >> (64 - bits);
            }
        }
        Limbs(out)
    }

    /// `⌊self / 2^shift⌋`.
    fn shr(self, shift: u32) -> Self {
        let (whole, bits) = ((shift / 64) as usize, shift % 64);
        let mut out = [0u64; N];
        for (i, limb) in out.iter_mut().enumerate() {
            let src = i + whole;
            if src >= N {
                break;
            }
            *limb = self.0[src] >> bits;
            if bits > 0 && src + 1 < N {
                *limb |= self.0[src + 1] << (64 - bits);
            }
        }
        Limbs(out)
    }

    /// `self + other`, when it fits (the sizes above guarantee it).
    fn add(self, other: Self) -> Self {
        let mut out = [0u64; N];
        let mut carry = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (s, c1) = self.0[i].overflowing_add(other.0[i]);
            let (s, c2) = s.overflowing_add(u64::from(carry));
            *limb = s;
            carry = c1 || c2;
        }
        debug_assert!(!carry, "envelope sum overflow");
        Limbs(out)
    }

    /// `self − other` for `other ≤ self`.
    fn sub(self, other: Self) -> Self {
        let mut out = [0u64; N];
        let mut borrow = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (d, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (d, b2) = d.overflowing_sub(u64::from(borrow));
            *limb = d;
            borrow = b1 || b2;
        }
        debug_assert!(!borrow, "envelope difference underflow");
        Limbs(out)
    }

    fn less_than(&self, other: &Self) -> bool {
        for i in (0..N).rev() {
            if self.0[i] != other.0[i] {
                return self.0[i] < other.0[i];
            }
        }
        false
    }

    fn bit_length(&self) -> u32 {
        (0..N)
            .rev()
            .find(|&i| self.0[i] != 0)
            .map_or(0, |i| 64 * i as u32 + 64 - self.0[i].leading_zeros())
    }

    /// The limbs `2i` and `2i + 1` as one `u128` (zero beyond the top).
    fn word(&self, i: usize) -> u128 {
        let limb = |j: usize| self.0.get(j).copied().map_or(0, u128::from);
        limb(2 * i) | (limb(2 * i + 1) << 64)
    }

    /// A uniform value in `[0, self)` by rejection from the next power of two (fewer than
    /// two attempts on average); `self` must be positive. Each attempt takes `bitlen(self)`
    /// bits, low limb first.
    fn uniform_below<R: Rng + ?Sized>(self, bits: &mut RandomBits<'_, R>) -> Self {
        let width = self.bit_length();
        loop {
            let mut limbs = [0u64; N];
            let mut left = width;
            for limb in &mut limbs {
                let take = left.min(64);
                *limb = bits.bits(take);
                left -= take;
            }
            let candidate = Limbs(limbs);
            if candidate.less_than(&self) {
                return candidate;
            }
        }
    }
}

/// The integer operations the sampler needs from a level's count, for counts of
/// [`Count::BITS`] bits whose envelope sums live in `N` limbs.
pub(super) trait Count<const N: usize>: Copy {
    /// The width `B` of the count type (128 or 256).
    const BITS: u32;
    fn is_zero(self) -> bool;
    fn checked_add(self, other: Self) -> Option<Self>;
    fn bit_length(self) -> u32;
    /// `self · 2^shift` as an envelope integer. The sampler's shifts are `S − b_ℓ ≤ B + 31`,
    /// and the product fits because the window keeps it below `2^(T + S) = 2^(B + 32)` (see
    /// "Sizes and running time"), not because of the shift's bound alone.
    fn envelope(self, shift: u32) -> Limbs<N>;
    /// The low `B` bits of an envelope integer.
    fn from_envelope(value: Limbs<N>) -> Self;
    /// The count as `f64` (rounded), for the probability formulas.
    fn to_f64(self) -> f64;
}

impl Count<4> for u128 {
    const BITS: u32 = 128;

    fn is_zero(self) -> bool {
        self == 0
    }

    fn checked_add(self, other: Self) -> Option<Self> {
        u128::checked_add(self, other)
    }

    fn bit_length(self) -> u32 {
        128 - self.leading_zeros()
    }

    fn envelope(self, shift: u32) -> Limbs<4> {
        Limbs([self as u64, (self >> 64) as u64, 0, 0]).shl(shift)
    }

    fn from_envelope(value: Limbs<4>) -> Self {
        value.word(0)
    }

    fn to_f64(self) -> f64 {
        self as f64
    }
}

/// A 256-bit count as `(high, low)`: `high·2^128 + low`.
impl Count<6> for (u128, u128) {
    const BITS: u32 = 256;

    fn is_zero(self) -> bool {
        self == (0, 0)
    }

    fn checked_add(self, other: Self) -> Option<Self> {
        let (low, carry) = self.1.overflowing_add(other.1);
        let high = self
            .0
            .checked_add(other.0)?
            .checked_add(u128::from(carry))?;
        Some((high, low))
    }

    fn bit_length(self) -> u32 {
        if self.0 != 0 {
            256 - self.0.leading_zeros()
        } else {
            128 - self.1.leading_zeros()
        }
    }

    fn envelope(self, shift: u32) -> Limbs<6> {
        let (high, low) = self;
        let limbs = [
            low as u64,
            (low >> 64) as u64,
            high as u64,
            (high >> 64) as u64,
            0,
            0,
        ];
        Limbs(limbs).shl(shift)
    }

    fn from_envelope(value: Limbs<6>) -> Self {
        (value.word(1), value.word(0))
    }

    fn to_f64(self) -> f64 {
        self.0 as f64 * 2f64.powi(128) + self.1 as f64
    }
}

/// A group of candidates sharing one integer score, as the sampler sees it.
pub(super) trait Level<const N: usize> {
    type Count: Count<N>;
    fn score(&self) -> i64;
    fn count(&self) -> Self::Count;
}

/// Checks levels (every count positive, the total below `2^B`) and returns the best score.
fn validate<L: Level<N>, const N: usize>(levels: &[L]) -> Result<i64> {
    let mut best = None::<i64>;
    let mut total: Option<L::Count> = None;
    for (index, level) in levels.iter().enumerate() {
        let count = level.count();
        if count.is_zero() {
            return Err(Error::ZeroCount { index });
        }
        let sum = total.map_or(Some(count), |t| t.checked_add(count));
        total = Some(sum.ok_or(Error::TooManyCandidates { limit: u64::MAX })?);
        best = Some(best.map_or(level.score(), |b| b.max(level.score())));
    }
    best.ok_or(Error::EmptyCandidates)
}

impl ExponentialMechanism {
    /// The level (an index into `levels`) and the offset inside it, with the law of the
    /// module documentation.
    pub(super) fn select_counted<L: Level<N>, const N: usize, R: Rng + ?Sized>(
        &self,
        levels: &[L],
        rng: &mut R,
    ) -> Result<(usize, L::Count)> {
        let best = validate(levels)?;
        let lambda = self.lambda;
        let gap = |i: usize| clamp_gap(lambda * integer_gap(best, levels[i].score()));
        let bands: Vec<u32> = (0..levels.len()).map(|i| band(gap(i))).collect();
        // The window S = B + 32 − max(bitlen(count) − k) (see the module documentation).
        let bits_of_count = L::Count::BITS;
        let top = (0..levels.len())
            .map(|i| i64::from(levels[i].count().bit_length()) - i64::from(bands[i]))
            .max()
            .unwrap_or(1)
            .clamp(1, i64::from(bits_of_count));
        let window = bits_of_count + 32 - top as u32;
        let head = |k: u32| k.min(window);
        // Envelope weight of a level: count · 2^(S − min(k, S)) in units of 2^-S.
        let weight = |i: usize| levels[i].count().envelope(window - head(bands[i]));
        let total = (0..levels.len()).fold(Limbs::ZERO, |sum, i| sum.add(weight(i)));
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
            // r < count · 2^(S − b): the unit is ⌊r / 2^(S − b)⌋ < count.
            let k = bands[chosen];
            let offset = L::Count::from_envelope(r.shr(window - head(k)));
            if k > window && !bits.all_zero_bits(k - window) {
                continue;
            }
            if bits.bernoulli_f64(scale_by_power_of_two(gap(chosen), k)) {
                return Ok((chosen, offset));
            }
        }
    }

    /// For each level, the probability that [`Self::select_counted`] picks it.
    pub(super) fn counted_probabilities<L: Level<N>, const N: usize>(
        &self,
        levels: &[L],
    ) -> Result<Vec<f64>> {
        let best = validate(levels)?;
        let log_weights = levels
            .iter()
            .map(|level| {
                let gap = clamp_gap(self.lambda * integer_gap(best, level.score()));
                level.count().to_f64().ln() - gap
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
    use super::*;

    /// The envelope integers of the `u128` path against `u128` arithmetic where it fits.
    #[test]
    fn four_limb_arithmetic_matches_u128_where_it_fits() {
        let high = 3u128.envelope(200);
        assert_eq!((high.word(1), high.word(0)), (3 << 72, 0));
        assert_eq!(u128::from_envelope(high.shr(200)), 3);
        assert_eq!(u128::from_envelope(high.shr(130)), 3 << 70);
        for (value, shift) in [(0u128, 0u32), (5, 3), (u64::MAX as u128, 64), (1 << 63, 1)] {
            let x = value.envelope(shift);
            assert_eq!(x.word(1), 0);
            assert_eq!(x.word(0), value << shift);
            assert_eq!(u128::from_envelope(x.shr(shift)), value);
        }
        let big = u128::MAX.envelope(64);
        assert_eq!(big.word(1), u128::from(u64::MAX));
        assert_eq!(big.word(0), u128::MAX << 64);
        assert_eq!(u128::from_envelope(big.shr(64)), u128::MAX);
        assert_eq!(big.bit_length(), 192);
        let sum = big.add(1u128.envelope(64));
        assert_eq!(sum.sub(1u128.envelope(64)), big);
        assert!(big.less_than(&sum));
        assert_eq!(sum.word(1), 1 << 64);
    }

    /// The envelope integers of the 256-bit path.
    #[test]
    fn six_limb_arithmetic_is_exact() {
        let x = (3u128, u128::MAX).envelope(0);
        assert_eq!(x.bit_length(), 130);
        assert_eq!(x.shl(100).shr(100), x);
        assert_eq!(x.shl(200).bit_length(), 330);
        assert_eq!(<(u128, u128)>::from_envelope(x.shr(128)), (0, 3));
        let one = (0u128, 1u128).envelope(0);
        let sum = x.add(one);
        assert_eq!(<(u128, u128)>::from_envelope(sum), (4, 0));
        assert_eq!(sum.sub(one), x);
        assert!(x.less_than(&sum) && !sum.less_than(&x) && !x.less_than(&x));
        assert_eq!(one.shl(383).bit_length(), 384);
        assert_eq!(one.shl(383).shr(383), one);
    }

    /// The 256-bit count's addition reports overflow exactly at 2^256.
    #[test]
    fn wide_count_addition_stops_at_the_width() {
        let max = (u128::MAX, u128::MAX);
        assert_eq!(max.checked_add((0, 1)), None);
        assert_eq!((u128::MAX, 0).checked_add((1, 0)), None);
        assert_eq!((0, u128::MAX).checked_add((0, 1)), Some((1, 0)));
        assert_eq!(
            (u128::MAX - 1, u128::MAX).checked_add((0, 1)),
            Some((u128::MAX, 0))
        );
        assert_eq!(Count::<4>::checked_add(u128::MAX, 1), None);
        assert_eq!((0u128, 0u128).bit_length(), 0);
        assert_eq!((1u128, 0u128).bit_length(), 129);
    }

    /// Scripted-bits tests of the branch for levels beyond the window (`k_ℓ > S`): its
    /// envelope mass is below 2^-31 of the total, so no statistical test reaches it. The
    /// script feeds the exact bits the sampler reads (see "Which random bits are used"):
    /// the proposal `r` (`bitlen(W)` bits, low first), the `k − S` fair coins (read in
    /// chunks of 64), then the acceptance Bernoulli of the ratio
    /// `p = ŵ·2^k ∈ (2^(−1−10⁻⁹), 1]`,
    /// where one 0 bit accepts (a uniform `U` whose first binary digit is 0 is below any
    /// `p > 1/2`; for `p = 1` no bit is read). Each test rejects one round on its last coin,
    /// then accepts the next, and the output is the second round's unit, computed by hand.
    mod beyond_window {
        use privpac_accounting::Privacy;

        use crate::exact_bits::script::BitScript;
        use crate::selection::exponential::{
            ExponentialMechanism, HugeScoreLevel, WideScoreLevel, band, clamp_gap,
        };

        fn mechanism() -> ExponentialMechanism {
            ExponentialMechanism::new(Privacy::pure(1.0).unwrap(), 1.0).unwrap()
        }

        /// Pushes the low `width` bits of the little-endian `limbs`, least significant first.
        fn push_number(script: &mut BitScript, limbs: &[u64], width: u32) {
            for i in 0..width {
                script.push((limbs[(i / 64) as usize] >> (i % 64)) & 1 == 1);
            }
        }

        /// One round that proposes `proposal` (a `width`-bit number), reads `coins` fair
        /// coins and is rejected on the last one (`reject`) or accepted after them.
        fn push_round(
            script: &mut BitScript,
            proposal: &[u64],
            width: u32,
            coins: u32,
            reject: bool,
        ) {
            push_number(script, proposal, width);
            for c in 0..coins {
                script.push(reject && c + 1 == coins);
            }
            if !reject {
                script.push(false);
            }
        }

        /// The gaps used below and their bands, by hand: a clamped gap 700 has band
        /// `⌊700·log2 e⌋ = ⌊1009.89⌋ = 1009`, and a gap of 200 score units at
        /// `λ = ε_int/2 ≈ 1/2` is `x ≈ 100`, band `⌊144.27⌋ = 144`.
        #[test]
        fn the_bands_used_below() {
            let mech = mechanism();
            assert_eq!(band(700.0), 1009);
            assert_eq!(band(clamp_gap(mech.lambda * 1e6)), 1009);
            assert_eq!(band(mech.lambda * 200.0), 144);
        }

        /// 256-bit counts. Case 1: levels `(0, 1)` and `(−10^6, c = 5·2^128 + 7)`: `T = 1`,
        /// `S = 287`, the far level's band 1009 (clamped gap), its weight `c·2^0`, the best
        /// level's `2^287`, `W = 2^287 + c` (288 bits), `1009 − 287 = 722` coins. A proposal
        /// `2^287 + t` with `t < c` is unit `t` of the far level. Case 2: levels
        /// `(0, 2^200)` and `(−200, c = 7·2^128 + 11)`: `T = 201`, `S = 87`, band 144, weights
        /// `2^287` and `c`, `144 − 87 = 57` coins.
        #[test]
        fn huge_sampler_beyond_the_window_returns_the_scripted_unit() {
            let mech = mechanism();
            let far = |score: i64, count_high: u128, count_low: u128| HugeScoreLevel {
                score,
                count_high,
                count_low,
            };
            // (levels, coins, rejected unit t1, accepted unit t2) with t = (high, low).
            let cases = [
                (
                    [far(0, 0, 1), far(-1_000_000, 5, 7)],
                    722,
                    (1u64, 9u64),
                    (3u64, 2u64),
                ),
                ([far(0, 1 << 72, 0), far(-200, 7, 11)], 57, (6, 10), (6, 5)),
            ];
            for (levels, coins, rejected, accepted) in cases {
                let mut script = BitScript::default();
                for (unit, reject) in [(rejected, true), (accepted, false)] {
                    // 2^287 + unit.high·2^128 + unit.low, as six limbs.
                    let proposal = [unit.1, 0, unit.0, 0, 1 << 31, 0];
                    push_round(&mut script, &proposal, 288, coins, reject);
                }
                let choice = mech.select_huge_levels(&levels, &mut script).unwrap();
                assert_eq!(
                    (choice.level, choice.offset_high, choice.offset_low),
                    (1, u128::from(accepted.0), u128::from(accepted.1)),
                    "{levels:?}"
                );
            }
        }

        /// `u128` counts. Case 1: levels `(0, 1)` and `(−10^6, c = 5·2^64 + 7)`: `T = 1`,
        /// `S = 159`, band 1009, weights `2^159` and `c`, `W = 2^159 + c` (160 bits), `850`
        /// coins (13 full chunks of 64, then 18). Case 2: levels `(0, 2^100)` and
        /// `(−200, c = 2^90 + 3)`: `T = 101`, `S = 59`, band 144, weights `2^159` and `c`,
        /// `85` coins.
        #[test]
        fn wide_sampler_beyond_the_window_returns_the_scripted_unit() {
            let mech = mechanism();
            let level = |score: i64, count: u128| WideScoreLevel { score, count };
            // (levels, coins, rejected unit t1, accepted unit t2) with t = (high, low) limbs.
            let cases = [
                (
                    [level(0, 1), level(-1_000_000, (5 << 64) + 7)],
                    850,
                    (1u64, 9u64),
                    (3u64, 2u64),
                ),
                (
                    [level(0, 1 << 100), level(-200, (1 << 90) + 3)],
                    85,
                    (1 << 26, 2),
                    (0, 5),
                ),
            ];
            for (levels, coins, rejected, accepted) in cases {
                let mut script = BitScript::default();
                for (unit, reject) in [(rejected, true), (accepted, false)] {
                    // 2^159 + unit.high·2^64 + unit.low, as three limbs.
                    let proposal = [unit.1, unit.0, 1 << 31];
                    push_round(&mut script, &proposal, 160, coins, reject);
                }
                let choice = mech.select_wide_levels(&levels, &mut script).unwrap();
                let offset = (u128::from(accepted.0) << 64) | u128::from(accepted.1);
                assert_eq!((choice.level, choice.offset), (1, offset), "{levels:?}");
            }
        }
    }
}
