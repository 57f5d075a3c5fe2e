//! The exact counts of the interval-pair levels: `u128` up to [`super::INTERVAL_XOR_LIMIT`]
//! points, a 192-bit integer up to [`super::levels::INTERVAL_XOR_192_LIMIT`] (about 2^158
//! pairs over 2^40 points), a 256-bit one above, and the count-weighted exponential
//! mechanism for each (the narrow or wide sampler for `u128`, the huge one for 192 and 256
//! bits).

use privpac_mechanisms::{ExponentialMechanism, HugeScoreLevel, WideScoreLevel};
use rand::Rng;

use crate::error::Result;

/// An exact nonnegative count of pairs with the operations the dynamic program and the
/// rank walk need. Every value the program forms is a count of (partial) pairs, so it
/// fits the type in use (see the `levels` module).
pub(crate) trait Count: Copy + Default + PartialEq + PartialOrd + std::fmt::Debug {
    fn from_u128(x: u128) -> Self;
    fn is_zero(&self) -> bool;
    fn add(self, other: Self) -> Self;
    /// `self − other` for `other ≤ self`.
    fn sub(self, other: Self) -> Self;
    /// `self · w`.
    fn mul_small(self, w: u128) -> Self;
    /// `self · w1 · w2`.
    fn mul_pair(self, w1: u128, w2: u128) -> Self {
        self.mul_small(w1).mul_small(w2)
    }
    /// `self + c · w` (the dynamic program's inner step).
    fn add_mul(self, c: Self, w: u128) -> Self {
        self.add(c.mul_small(w))
    }
    /// `(⌊self / w⌋, self mod w)` for `w ≥ 1`.
    fn div_rem_small(self, w: u128) -> (Self, u128);
    /// The exponential mechanism over levels `(score, count)` (all counts positive, the
    /// total `total`): `(level index, uniform offset in the level)`.
    fn select<R: Rng + ?Sized>(
        mechanism: &ExponentialMechanism,
        total: Self,
        levels: &[(i64, Self)],
        rng: &mut R,
    ) -> Result<(usize, Self)>;
}

impl Count for u128 {
    fn from_u128(x: u128) -> Self {
        x
    }
    fn is_zero(&self) -> bool {
        *self == 0
    }
    fn add(self, other: Self) -> Self {
        self + other
    }
    fn sub(self, other: Self) -> Self {
        self - other
    }
    fn mul_small(self, w: u128) -> Self {
        self * w
    }
    /// One product: `w1·w2 ≤ ((N + 1)²/2)² < 2^128` for N up to the `u128` limit.
    fn mul_pair(self, w1: u128, w2: u128) -> Self {
        self * (w1 * w2)
    }
    fn div_rem_small(self, w: u128) -> (Self, u128) {
        (self / w, self % w)
    }
    /// [`crate::ordered::select`]: the narrow sampler up to 2^60 pairs, the wide one above.
    fn select<R: Rng + ?Sized>(
        mechanism: &ExponentialMechanism,
        total: Self,
        levels: &[(i64, Self)],
        rng: &mut R,
    ) -> Result<(usize, Self)> {
        let wide: Vec<WideScoreLevel> = levels
            .iter()
            .map(|&(score, count)| WideScoreLevel { score, count })
            .collect();
        crate::ordered::select(mechanism, total, &wide, rng)
    }
}

/// An unsigned integer of `L` little-endian 64-bit limbs (`L ≤ 4`): [`U192`] and [`U256`].
/// The dynamic program's cost is dominated by [`Count::add_mul`], whose work is the number
/// of limbs, so the narrowest width that holds every count is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Wide<const L: usize>([u64; L]);

/// 192 bits: the counts over up to [`super::levels::INTERVAL_XOR_192_LIMIT`] ≈ 2^48 points.
pub(crate) type U192 = Wide<3>;

/// 256 bits: the counts over up to 2^62 points.
pub(crate) type U256 = Wide<4>;

impl<const L: usize> Default for Wide<L> {
    fn default() -> Self {
        Wide([0; L])
    }
}

impl<const L: usize> Wide<L> {
    /// `(high, low)` 128-bit halves (the limbs above the fourth do not exist).
    pub(crate) fn parts(self) -> (u128, u128) {
        let limb = |i: usize| u128::from(self.0.get(i).copied().unwrap_or(0));
        (limb(2) | (limb(3) << 64), limb(0) | (limb(1) << 64))
    }

    /// The value `high·2^128 + low`, which must fit `L` limbs.
    pub(crate) fn from_parts(high: u128, low: u128) -> Self {
        let all = [
            low as u64,
            (low >> 64) as u64,
            high as u64,
            (high >> 64) as u64,
        ];
        debug_assert!(all[L..].iter().all(|&x| x == 0), "count overflow");
        let mut out = [0u64; L];
        out.copy_from_slice(&all[..L]);
        Wide(out)
    }

    fn bit(&self, i: u32) -> bool {
        self.0[(i / 64) as usize] >> (i % 64) & 1 == 1
    }
}

impl<const L: usize> PartialOrd for Wide<L> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        // Most significant limb first.
        Some(self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

impl<const L: usize> Count for Wide<L> {
    fn from_u128(x: u128) -> Self {
        Wide::from_parts(0, x)
    }
    fn is_zero(&self) -> bool {
        self.0.iter().all(|&x| x == 0)
    }
    fn add(self, other: Self) -> Self {
        let mut out = [0u64; L];
        let mut carry = 0u128;
        for (i, limb) in out.iter_mut().enumerate() {
            let s = u128::from(self.0[i]) + u128::from(other.0[i]) + carry;
            *limb = s as u64;
            carry = s >> 64;
        }
        debug_assert_eq!(carry, 0, "count overflow");
        Wide(out)
    }
    fn sub(self, other: Self) -> Self {
        let mut out = [0u64; L];
        let mut borrow = false;
        for (i, limb) in out.iter_mut().enumerate() {
            let (d, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (d, b2) = d.overflowing_sub(u64::from(borrow));
            *limb = d;
            borrow = b1 || b2;
        }
        debug_assert!(!borrow, "negative count");
        Wide(out)
    }
    fn mul_small(self, w: u128) -> Self {
        let w = [w as u64, (w >> 64) as u64];
        // L + 2 ≤ 6 limbs of product.
        let mut out = [0u64; 6];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u128;
            for (j, &b) in w.iter().enumerate() {
                let t = u128::from(a) * u128::from(b) + u128::from(out[i + j]) + carry;
                out[i + j] = t as u64;
                carry = t >> 64;
            }
            let mut k = i + 2;
            while carry > 0 && k < 6 {
                let t = u128::from(out[k]) + carry;
                out[k] = t as u64;
                carry = t >> 64;
                k += 1;
            }
        }
        debug_assert!(out[L..].iter().all(|&x| x == 0), "count overflow");
        let mut limbs = [0u64; L];
        limbs.copy_from_slice(&out[..L]);
        Wide(limbs)
    }
    /// Fused: the limbs of `c · w` are added into `self` as they are formed (every partial
    /// sum `a·b + limb + carry` is at most `(2^64 − 1)² + 2·(2^64 − 1) = 2^128 − 1`).
    fn add_mul(self, c: Self, w: u128) -> Self {
        let mut out = self.0;
        for (shift, b) in [(0usize, w as u64), (1, (w >> 64) as u64)] {
            if b == 0 {
                continue;
            }
            let mut carry = 0u128;
            for (i, &a) in c.0.iter().enumerate() {
                if i + shift >= L {
                    debug_assert!(a == 0 && carry == 0, "count overflow");
                    break;
                }
                let t = u128::from(a) * u128::from(b) + u128::from(out[i + shift]) + carry;
                out[i + shift] = t as u64;
                carry = t >> 64;
            }
            debug_assert_eq!(carry, 0, "count overflow");
        }
        Wide(out)
    }
    fn div_rem_small(self, w: u128) -> (Self, u128) {
        // Shift-subtract, one bit at a time from the top; the remainder stays below w.
        let mut quotient = [0u64; L];
        let mut rem = 0u128;
        for i in (0..64 * L as u32).rev() {
            let overflow = rem >> 127 == 1;
            rem = (rem << 1) | u128::from(self.bit(i));
            if overflow || rem >= w {
                rem = rem.wrapping_sub(w);
                quotient[(i / 64) as usize] |= 1 << (i % 64);
            }
        }
        (Wide(quotient), rem)
    }
    /// [`ExponentialMechanism::select_huge_levels`] (every width gives it the same 256-bit
    /// values, so the same draws).
    fn select<R: Rng + ?Sized>(
        mechanism: &ExponentialMechanism,
        _total: Self,
        levels: &[(i64, Self)],
        rng: &mut R,
    ) -> Result<(usize, Self)> {
        let huge: Vec<HugeScoreLevel> = levels
            .iter()
            .map(|&(score, count)| {
                let (count_high, count_low) = count.parts();
                HugeScoreLevel {
                    score,
                    count_high,
                    count_low,
                }
            })
            .collect();
        let choice = mechanism.select_huge_levels(&huge, rng)?;
        Ok((
            choice.level,
            Wide::from_parts(choice.offset_high, choice.offset_low),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 256-bit arithmetic against u128 where it fits, and products and quotients beyond.
    #[test]
    fn wide_counts_are_exact() {
        let pairs = [
            (0u128, 1u128),
            (7, 3),
            (u64::MAX as u128, 1 << 70),
            (1 << 100, 12345),
        ];
        for (a, b) in pairs {
            let x = U256::from_u128(a);
            assert_eq!(x.add(U256::from_u128(b)).parts(), (0, a + b));
            assert_eq!(
                x.mul_small(b % (1 << 27) + 1).parts(),
                (0, a * (b % (1 << 27) + 1))
            );
            let (q, r) = x.div_rem_small(b.max(1));
            assert_eq!((q.parts(), r), ((0, a / b.max(1)), a % b.max(1)));
        }
        // (2^128 − 1)·(2^100 + 3) = q·w + r round trips, and ordering is numeric.
        let big = U256::from_u128(u128::MAX).mul_small((1 << 100) + 3);
        for w in [1u128, 3, (1 << 64) + 1, u128::MAX, (1 << 127) + 5] {
            let (q, r) = big.div_rem_small(w);
            assert!(r < w);
            assert_eq!(q.mul_small(w).add(U256::from_u128(r)), big);
        }
        assert!(U256::from_parts(1, 0) > U256::from_u128(u128::MAX));
        assert_eq!(
            U256::from_parts(1, 0).sub(U256::from_u128(1)),
            U256::from_u128(u128::MAX)
        );
        assert!(!big.is_zero() && U256::default().is_zero());
        // The fused step against the two-step one, across limb boundaries and both halves
        // of the factor (one- and two-limb factors, carries into every limb).
        let bases = [
            U256::default(),
            U256::from_u128(u128::MAX),
            U256::from_parts(u128::from(u64::MAX), u128::MAX),
        ];
        let sources = [
            U256::from_u128(1),
            U256::from_u128(u128::from(u64::MAX)),
            U256::from_parts(0, u128::MAX),
            U256::from_parts(1 << 40, 1 << 90),
        ];
        assert_eq!(5u128.add_mul(7, 9), 68);
        let factors = [1u128, 3, u128::from(u64::MAX), 1 << 64, (1 << 80) + 7];
        for base in bases {
            for c in sources {
                for w in factors {
                    assert_eq!(base.add_mul(c, w), base.add(c.mul_small(w)), "{w}");
                }
            }
        }
    }

    /// The 192-bit count gives the 256-bit one's values wherever they fit: every operation
    /// on random operands of random sizes with results below 2^192 (one- and two-limb
    /// factors, carries across limbs), and the order.
    #[test]
    fn narrow_counts_agree_with_wide_ones() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(192);
        let wide_of = |x: U192| {
            let (high, low) = x.parts();
            U256::from_parts(high, low)
        };
        for round in 0..20_000 {
            // Operands below 2^(129 + high_bits), factors below 2^(62 − high_bits), so
            // every product stays below 2^191; every fourth round a small operand and a
            // two-limb factor instead.
            let (a, b, w, half) = if round % 4 == 3 {
                let a = U192::from_u128(u128::from(rng.random::<u64>()));
                let b = U192::from_u128(rng.random::<u128>());
                (a, b, rng.random::<u128>(), u128::from(rng.random::<u32>()))
            } else {
                let high_bits: u32 = rng.random_range(0..=62);
                let mut operand = || {
                    U192::from_parts(
                        rng.random::<u128>() >> (127 - high_bits),
                        rng.random::<u128>(),
                    )
                };
                let (a, b) = (operand(), operand());
                let room = 62 - high_bits;
                let w = rng.random::<u128>() >> (128 - room.max(1));
                let half = rng.random::<u128>() >> (128 - (room / 2).max(1));
                (a, b, w, half)
            };
            let (wa, wb) = (wide_of(a), wide_of(b));
            assert_eq!(wide_of(a.add(b)), wa.add(wb));
            assert_eq!(wide_of(a.mul_small(w)), wa.mul_small(w));
            assert_eq!(wide_of(b.add_mul(a, w)), wb.add_mul(wa, w));
            assert_eq!(wide_of(a.mul_pair(half, half)), wa.mul_pair(half, half));
            let divisor = w.max(1);
            let (q, r) = a.div_rem_small(divisor);
            let (wq, wr) = wa.div_rem_small(divisor);
            assert_eq!((wide_of(q), r), (wq, wr));
            assert_eq!(a.partial_cmp(&b), wa.partial_cmp(&wb));
            let (big, small) = if a >= b { (a, b) } else { (b, a) };
            assert_eq!(wide_of(big.sub(small)), wide_of(big).sub(wide_of(small)));
            assert_eq!(a.is_zero(), wa.is_zero());
        }
        assert!(U192::default().is_zero());
        assert!(U192::from_parts(1, 0) > U192::from_u128(u128::MAX));
    }
}
