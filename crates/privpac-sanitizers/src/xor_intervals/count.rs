//! The exact counts of the interval-pair levels: `u128` up to [`super::INTERVAL_XOR_LIMIT`]
//! points, a 192-bit integer up to [`super::levels::INTERVAL_XOR_192_LIMIT`] (about 2^158
//! pairs over 2^40 points), a 256-bit one above, and the count-weighted exponential
//! mechanism for each (the narrow or wide sampler for `u128`, the huge one for 192 and 256
//! bits).
//!
//! # Why no count overflows
//! The arithmetic of [`Count`] checks overflow with `debug_assert` only (`add_mul` and
//! `add` are the inner loop of the dynamic program). It needs no release-mode check
//! because the callers' size checks rule overflow out:
//!
//! - `Mwem::run_interval_xor` refuses `N > ORDERED_XOR_LIMIT = 2^62` before it forms any
//!   count, uses `u128` counts for `N ≤ INTERVAL_XOR_LIMIT = 2^32 − 2`, [`U192`] up to
//!   `INTERVAL_XOR_192_LIMIT = 2^48 − 2` and [`U256`] above.
//! - Let `P = 1 + N(N + 1)/2`, the number of intervals over `[N]` (two of the `N + 1` cut
//!   points, or the empty interval). **Every value a `Count` operation produces is at most
//!   `P²`**, the number of ordered pairs:
//!   - a forward count of the dynamic program (a state and a partial sum, before or after a
//!     run) counts distinct partial pairs, each interval with no end placed (1 way), its
//!     left end placed (at most `N + 1 ≤ P` ways) or both ends placed or empty (at most `P`
//!     ways): at most `P²`;
//!   - in a step, the target accumulates contributions `c·w₁·w₂`, each the number of
//!     partial pairs that reach the target by one move, so every running value (`add`,
//!     `add_mul`, `mul_pair`, and `c·w₁ ≤ c·w₁·w₂` inside `mul_pair`) is at most the new
//!     forward count, at most `P²`; `add_mul` forms the exact sum limb by limb, so a
//!     carry out of the top limb would need a sum of `2^256` or more;
//!   - the rank walk forms `options = count·w₁·w₂`, again the partial pairs after a run
//!     through one move (at most `P²`), subtracts only when `rank ≥ options` or
//!     `rank ≥ below` (no borrow), and divides (`div_rem_small` only shrinks);
//!   - the level counts sum to the total `P²`, formed once as `P·P`.
//! - At the largest accepted N: for `N = 2^62`, `P = 2^123 + 2^61 + 1 < 2^124` and
//!   `P² = 2^246 + 2^185 + 2^124 + 2^122 + 2^62 + 1 < 2^247`, eight bits below `2^256`
//!   (with `u128` factors `w₁·w₂ ≤ (N(N + 1)/2)² < 2^248` used only through `mul_pair`,
//!   whose two products are each at most `P²`). For `u128` at `N = 2^32 − 2`,
//!   `P = 2^63 − 3·2^31 + 2 < 2^63`, so `P² < 2^126` and `w₁·w₂ < 2^126` fit 128 bits.
//!   For [`U192`] at `N = 2^48 − 2`, `P < 2^95 + 1`, so `P² < 2^191` fits 192 bits.
//!
//! The tests `totals_are_exact_at_the_largest_accepted_sizes` check it at both limits:
//! the level counts of the dynamic program sum to `P²` computed by hand, and the pairs of
//! the extreme ranks have the scores of their levels.

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

    use crate::xor_intervals::levels::{Cut, IntervalPairLevels};
    use crate::xor_intervals::run::query_ranges;

    /// Runs `(first, length, value)` covering the cut points `0..=n`: G = 0 at 0, then
    /// `values.len()` runs of nearly equal length with the given values.
    fn runs_over(n: u64, values: &[i64]) -> Vec<(u64, u64, i64)> {
        let mut runs = vec![(0, 1, 0)];
        let parts = values.len() as u64;
        let mut first = 1;
        for (i, &value) in values.iter().enumerate() {
            let len = if i as u64 + 1 == parts {
                n + 1 - first
            } else {
                n / parts
            };
            runs.push((first, len, value));
            first += len;
        }
        runs
    }

    /// The score of a pair by definition: `|Σ (G(b) − G(a))|` over the ranges `[a, b)` of
    /// its symmetric difference (the alternating sum of G over the sorted ends).
    fn score_of(runs: &[(u64, u64, i64)], pair: (Cut, Cut)) -> i64 {
        let g = |p: u64| {
            let run = runs.iter().find(|&&(f, l, _)| p >= f && p - f < l).unwrap();
            run.2
        };
        let sum: i64 = query_ranges(pair).iter().map(|&(a, b)| g(b) - g(a)).sum();
        sum.abs()
    }

    /// Checks that the pairs of ranks 0, 1 and count − 1 of every level lie in the domain
    /// and have the level's score.
    fn check_extreme_ranks<C: Count>(
        levels: &IntervalPairLevels<C>,
        runs: &[(u64, u64, i64)],
        n: u64,
    ) {
        for (&score, &count) in levels.counts() {
            let last = count.sub(C::from_u128(1));
            let second = if last.is_zero() {
                last
            } else {
                C::from_u128(1)
            };
            for rank in [C::default(), second, last] {
                let pair = levels.pair_at(score, rank);
                for (u, v) in [pair.0, pair.1].into_iter().flatten() {
                    assert!(u < v && v <= n, "{pair:?}");
                }
                assert_eq!(score_of(runs, pair), score, "{pair:?} at rank {rank:?}");
            }
        }
    }

    /// At the largest N of each count type (`INTERVAL_XOR_LIMIT` for `u128`, 2^62 for 256
    /// bits), the level counts of the dynamic program sum to the number of ordered pairs
    /// `P²`, `P = 1 + N(N + 1)/2`, computed by hand (module documentation), for one run and
    /// for runs with several values; and the extreme ranks of every level map to pairs of
    /// that level's score.
    #[test]
    fn totals_are_exact_at_the_largest_accepted_sizes() {
        let shapes: [&[i64]; 3] = [&[0], &[1, -1], &[3, -2, 5, 0, -7]];
        // u128 at N = 2^32 − 2: P = 1 + (2^31 − 1)(2^32 − 1) = 2^63 − 3·2^31 + 2 < 2^63.
        let n = super::super::INTERVAL_XOR_LIMIT;
        assert_eq!(n, (1 << 32) - 2);
        let p: u128 = (1 << 63) - 3 * (1 << 31) + 2;
        assert_eq!(p, 1 + u128::from(n) * u128::from(n + 1) / 2);
        for values in shapes {
            let runs = runs_over(n, values);
            let levels = IntervalPairLevels::<u128>::from_runs(runs.clone());
            let total = levels.counts().values().sum::<u128>();
            assert_eq!(total, p * p, "{values:?}");
            check_extreme_ranks(&levels, &runs, n);
        }
        // 256 bits at N = 2^62: P = 2^123 + 2^61 + 1, P² = 2^246 + 2^185 + 2^124 + 2^122 +
        // 2^62 + 1, as (high, low) 128-bit halves.
        let n = crate::ordered::ORDERED_XOR_LIMIT;
        assert_eq!(n, 1 << 62);
        let expected = U256::from_parts(
            (1 << 118) + (1 << 57),
            (1 << 124) + (1 << 122) + (1 << 62) + 1,
        );
        let concepts = 1 + u128::from(n) * u128::from(n + 1) / 2;
        assert_eq!(concepts, (1 << 123) + (1 << 61) + 1);
        // The total as `Mwem::run_interval_xor` forms it.
        assert_eq!(U256::from_u128(concepts).mul_small(concepts), expected);
        for values in shapes {
            let runs = runs_over(n, values);
            let levels = IntervalPairLevels::<U256>::from_runs(runs.clone());
            let total = levels
                .counts()
                .values()
                .fold(U256::default(), |sum, &c| sum.add(c));
            assert_eq!(total, expected, "{values:?}");
            if values.len() == 1 {
                // One value of G: every pair has score 0.
                assert_eq!(levels.counts().len(), 1);
            }
            check_extreme_ranks(&levels, &runs, n);
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
