//! Exact random bits: a buffered bit source, exact uniform integers, and exact Bernoulli
//! samplers for rational probabilities and for `exp(-γ)` with rational γ.
//!
//! These are the primitives behind every sampler of this crate that claims exactness. No
//! floating-point number is rounded on the way from random bits to a decision, so the
//! realized probabilities are exactly the mathematical ones: the sampler of
//! `Bernoulli(a/b)` compares a lazily drawn uniform binary fraction with the binary
//! expansion of `a/b` (expected two bits per call), and `Bernoulli(exp(-γ))` is
//! Algorithm 1 of Canonne, Kamath and Steinke, "The Discrete Gaussian for Differential
//! Privacy" (NeurIPS 2020).
//!
//! Every `f64` is a dyadic rational `m · 2^e`, so the samplers also accept `f64`
//! probabilities and exponents and treat them as exact rationals.
//!
//! Randomness is consumed one `u64` at a time and buffered, so a coin costs one bit rather
//! than one call to the generator; this is what makes the exact discrete Laplace sampler
//! fast.

use rand::Rng;

/// A buffered source of uniform random bits over any [`Rng`].
#[derive(Debug)]
pub struct RandomBits<'a, R: Rng + ?Sized> {
    rng: &'a mut R,
    /// Unused bits, least significant first; always `< 2^available`.
    buffer: u64,
    available: u32,
}

impl<'a, R: Rng + ?Sized> RandomBits<'a, R> {
    /// Wraps a generator. Unused buffered bits are discarded when the source is dropped.
    pub fn new(rng: &'a mut R) -> Self {
        RandomBits {
            rng,
            buffer: 0,
            available: 0,
        }
    }

    /// One uniform bit.
    #[inline]
    pub fn bit(&mut self) -> bool {
        if self.available == 0 {
            self.buffer = self.rng.next_u64();
            self.available = 64;
        }
        let bit = self.buffer & 1 == 1;
        self.buffer >>= 1;
        self.available -= 1;
        bit
    }

    /// `count` uniform bits as the low bits of a `u64` (`count ≤ 64`; larger values are
    /// clamped to 64).
    #[inline]
    pub fn bits(&mut self, count: u32) -> u64 {
        let count = count.min(64);
        if count == 0 {
            return 0;
        }
        if count <= self.available {
            let out = self.buffer & low_mask(count);
            self.buffer = if count == 64 { 0 } else { self.buffer >> count };
            self.available -= count;
            return out;
        }
        let have = self.available;
        let low = self.buffer;
        let need = count - have;
        let fresh = self.rng.next_u64();
        let high = fresh & low_mask(need);
        self.buffer = if need == 64 { 0 } else { fresh >> need };
        self.available = 64 - need;
        low | (high << have)
    }

    /// A uniform integer in `[0, n)`, by rejection from the next power of two (fewer than
    /// two attempts on average). Returns 0 when `n ≤ 1`.
    #[inline]
    pub fn uniform_below(&mut self, n: u64) -> u64 {
        if n <= 1 {
            return 0;
        }
        let width = 64 - (n - 1).leading_zeros();
        loop {
            let candidate = self.bits(width);
            if candidate < n {
                return candidate;
            }
        }
    }

    /// A uniform integer in `[0, n)` for 128-bit `n`. Returns 0 when `n ≤ 1`.
    pub fn uniform_below_u128(&mut self, n: u128) -> u128 {
        if n <= 1 {
            return 0;
        }
        let width = 128 - (n - 1).leading_zeros();
        loop {
            let low = self.bits(width.min(64)) as u128;
            let high = if width > 64 {
                self.bits(width - 64) as u128
            } else {
                0
            };
            let candidate = low | (high << 64);
            if candidate < n {
                return candidate;
            }
        }
    }

    /// `true` with probability exactly `numerator / denominator`.
    ///
    /// Requires `denominator ≤ 2^127`; a numerator at least the denominator gives `true`,
    /// a zero numerator or denominator gives `false`. Expected cost: two bits.
    pub fn bernoulli_ratio(&mut self, numerator: u128, denominator: u128) -> bool {
        if denominator <= 1 << 63 {
            // The common case, in cheaper 64-bit arithmetic.
            return self.bernoulli_ratio_u64(numerator.min(denominator) as u64, denominator as u64);
        }
        debug_assert!(denominator <= 1 << 127);
        compare_with_expansion(self, numerator, denominator)
    }

    /// `true` with probability exactly `p` for any `f64` in `[0, 1]` (read as the exact
    /// dyadic rational it stores). Values outside `[0, 1]` or NaN are clamped: `p ≥ 1`
    /// gives `true`, anything else not in range gives `false`.
    pub fn bernoulli_f64(&mut self, p: f64) -> bool {
        if p.is_nan() || p <= 0.0 {
            return false;
        }
        if p >= 1.0 {
            return true;
        }
        let Dyadic { mantissa, exponent } = Dyadic::from_f64(p);
        // p = mantissa · 2^exponent with exponent < 0.
        let shift = exponent.unsigned_abs();
        if shift <= 120 {
            self.bernoulli_ratio(mantissa as u128, 1u128 << shift)
        } else {
            // p = (mantissa / 2^120) · 2^-(shift-120): the first shift-120 bits of U must be
            // zero, then the rest of U is compared with mantissa / 2^120 (at most 1).
            self.all_zero_bits(shift - 120) && self.bernoulli_ratio(mantissa as u128, 1u128 << 120)
        }
    }

    /// `true` when the next `count` bits are all zero (probability `2^-count`); stops at the
    /// first one bit.
    pub fn all_zero_bits(&mut self, count: u32) -> bool {
        let mut remaining = count;
        while remaining > 0 {
            let take = remaining.min(64);
            if self.bits(take) != 0 {
                return false;
            }
            remaining -= take;
        }
        true
    }

    /// `true` with probability exactly `numerator / denominator`, in 64-bit arithmetic.
    ///
    /// Requires `denominator ≤ 2^63`; otherwise as [`Self::bernoulli_ratio`].
    #[inline]
    pub fn bernoulli_ratio_u64(&mut self, numerator: u64, denominator: u64) -> bool {
        debug_assert!(denominator <= 1 << 63);
        compare_with_expansion(self, numerator, denominator)
    }

    /// `true` with probability exactly `exp(-numerator / denominator)`.
    ///
    /// Canonne–Kamath–Steinke 2020, Algorithm 1: for γ ∈ [0, 1], draw `A_k ~
    /// Bernoulli(γ/k)` for k = 1, 2, … until the first failure at step K, and return
    /// whether K is odd; for γ > 1, `exp(-γ) = exp(-1)^⌊γ⌋ · exp(-(γ - ⌊γ⌋))`, sampled as
    /// independent coins with early exit. Expected cost is O(1) bits for every γ.
    /// A zero denominator is read as γ = ∞ (probability 0).
    pub fn bernoulli_exp_minus(&mut self, numerator: u64, denominator: u64) -> bool {
        if denominator == 0 {
            return false;
        }
        if numerator < denominator {
            return self.bernoulli_exp_minus_fraction(numerator, denominator);
        }
        let whole = numerator / denominator;
        let fraction = numerator % denominator;
        for _ in 0..whole {
            if !self.bernoulli_exp_minus_one() {
                return false;
            }
        }
        self.bernoulli_exp_minus_fraction(fraction, denominator)
    }

    /// `true` with probability exactly `exp(-1)` (CKS Algorithm 1 with γ = 1).
    #[inline]
    pub fn bernoulli_exp_minus_one(&mut self) -> bool {
        // Step k = 1 succeeds with probability γ/1 = 1, so start at k = 2.
        let mut k: u64 = 2;
        while self.bernoulli_ratio_u64(1, k) {
            k += 1;
        }
        k % 2 == 1
    }

    /// `exp(-γ)` for γ = numerator/denominator ∈ [0, 1] (CKS Algorithm 1).
    #[inline]
    fn bernoulli_exp_minus_fraction(&mut self, numerator: u64, denominator: u64) -> bool {
        let mut k: u64 = 1;
        loop {
            // Bernoulli(γ / k) = Bernoulli(numerator / (denominator · k)); k stays tiny (its
            // tail is 1/k!), so 128 bits always suffice.
            let scaled = denominator as u128 * k as u128;
            let hit = if scaled <= 1 << 63 {
                self.bernoulli_ratio_u64(numerator, scaled as u64)
            } else {
                self.bernoulli_ratio(numerator as u128, scaled)
            };
            if !hit {
                return k % 2 == 1;
            }
            k += 1;
        }
    }

    /// `true` with probability exactly `exp(-gamma)` for any finite `f64` γ ≥ 0, read as an
    /// exact dyadic rational. NaN or negative γ is treated as 0 (probability 1) and +∞ as
    /// probability 0; callers validate their inputs before reaching here.
    pub fn bernoulli_exp_minus_f64(&mut self, gamma: f64) -> bool {
        if gamma.is_nan() || gamma <= 0.0 {
            return true;
        }
        if gamma.is_infinite() {
            return false;
        }
        let whole = gamma.floor();
        let fraction = gamma - whole; // exact: subtracting the integer part of a float
        // Integer part: ⌊γ⌋ independent exp(-1) coins with early exit.
        let mut k = 0.0;
        while k < whole {
            if !self.bernoulli_exp_minus_one() {
                return false;
            }
            k += 1.0;
        }
        if fraction == 0.0 {
            return true;
        }
        let Dyadic { mantissa, exponent } = Dyadic::from_f64(fraction);
        let shift = exponent.unsigned_abs();
        if shift <= 63 {
            self.bernoulli_exp_minus_fraction(mantissa, 1u64 << shift)
        } else {
            // γ < 2^-10 here. Bernoulli(γ/k) = 2^-(shift-63) · (mantissa / (k·2^63)).
            let extra = shift - 63;
            let mut k: u128 = 1;
            loop {
                let hit = self.all_zero_bits(extra)
                    && self.bernoulli_ratio(mantissa as u128, (1u128 << 63) * k);
                if !hit {
                    return k % 2 == 1;
                }
                k += 1;
            }
        }
    }
}

/// Unsigned integers wide enough for the long division in [`compare_with_expansion`].
trait Word: Copy + PartialOrd + std::ops::Shl<u32, Output = Self> + std::ops::SubAssign {
    const ZERO: Self;
}

impl Word for u64 {
    const ZERO: Self = 0;
}

impl Word for u128 {
    const ZERO: Self = 0;
}

/// `true` with probability exactly `numerator / denominator`: compares a uniform binary
/// fraction `U = 0.u1u2…`, drawn lazily, with the binary expansion `p = 0.c1c2…` computed
/// by long division, and stops at the first differing digit (two bits on average). The
/// denominator must leave one bit of headroom (`≤ 2^(width − 1)`).
#[inline]
fn compare_with_expansion<R: Rng + ?Sized, W: Word>(
    bits: &mut RandomBits<'_, R>,
    numerator: W,
    denominator: W,
) -> bool {
    if numerator == W::ZERO || denominator == W::ZERO {
        return false;
    }
    if numerator >= denominator {
        return true;
    }
    let mut remainder = numerator;
    loop {
        remainder = remainder << 1;
        let digit = remainder >= denominator;
        if digit {
            remainder -= denominator;
        }
        if bits.bit() != digit {
            return digit; // U < p exactly when p has the 1 where U has the 0
        }
        if remainder == W::ZERO {
            return false; // p's expansion ended; U ≥ p
        }
    }
}

#[inline]
fn low_mask(count: u32) -> u64 {
    if count >= 64 {
        u64::MAX
    } else {
        (1u64 << count) - 1
    }
}

/// A finite non-negative `f64` as `mantissa · 2^exponent` with an odd mantissa (or zero).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Dyadic {
    pub(crate) mantissa: u64,
    pub(crate) exponent: i32,
}

impl Dyadic {
    /// Decomposes a finite, non-negative `f64` exactly. Zero gives mantissa 0.
    pub(crate) fn from_f64(value: f64) -> Dyadic {
        debug_assert!(value.is_finite() && value >= 0.0);
        let bits = value.to_bits();
        let exponent_field = ((bits >> 52) & 0x7ff) as i32;
        let fraction = bits & ((1u64 << 52) - 1);
        let (mut mantissa, mut exponent) = if exponent_field == 0 {
            (fraction, -1074)
        } else {
            (fraction | (1u64 << 52), exponent_field - 1075)
        };
        if mantissa == 0 {
            return Dyadic {
                mantissa: 0,
                exponent: 0,
            };
        }
        let zeros = mantissa.trailing_zeros();
        mantissa >>= zeros;
        exponent += zeros as i32;
        Dyadic { mantissa, exponent }
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    const DRAWS: u64 = 200_000;
    /// False-failure rate of each seeded binomial check below.
    const ALPHA: f64 = 1e-6;

    #[track_caller]
    fn check_rate(p: f64, mut coin: impl FnMut(&mut RandomBits<'_, ChaCha8Rng>) -> bool) {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut bits = RandomBits::new(&mut rng);
        let hits = (0..DRAWS).filter(|_| coin(&mut bits)).count() as u64;
        assert!(
            privpac_audit::binomial_within(hits, DRAWS, p, ALPHA).unwrap(),
            "{hits} of {DRAWS} hits is inconsistent with p = {p}"
        );
    }

    #[test]
    fn dyadic_decomposition_is_exact() {
        assert_eq!(
            Dyadic::from_f64(0.75),
            Dyadic {
                mantissa: 3,
                exponent: -2
            }
        );
        assert_eq!(
            Dyadic::from_f64(6.0),
            Dyadic {
                mantissa: 3,
                exponent: 1
            }
        );
        assert_eq!(Dyadic::from_f64(0.0).mantissa, 0);
        let tiny = Dyadic::from_f64(f64::from_bits(1));
        assert_eq!(
            tiny,
            Dyadic {
                mantissa: 1,
                exponent: -1074
            }
        );
        for value in [0.1, 1.0 / 3.0, 123.456, 1e-300] {
            let Dyadic { mantissa, exponent } = Dyadic::from_f64(value);
            assert_eq!(mantissa as f64 * 2f64.powi(exponent), value);
        }
    }

    #[test]
    fn bits_are_consumed_in_order_and_uniform() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let expected = {
            let mut copy = ChaCha8Rng::seed_from_u64(1);
            copy.next_u64()
        };
        let mut bits = RandomBits::new(&mut rng);
        let low = bits.bits(10);
        let high = bits.bits(54);
        assert_eq!(low | (high << 10), expected);
        // Straddling a word boundary must still give uniform values.
        let mut counts = [0u64; 8];
        for _ in 0..80_000 {
            counts[bits.bits(3) as usize] += 1;
            let _ = bits.bits(61);
        }
        let outcome = privpac_audit::chi_square_gof(&counts, &[0.125; 8], 1e-6).unwrap();
        assert!(!outcome.rejected, "{outcome:?}");
    }

    #[test]
    fn uniform_below_is_uniform() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut bits = RandomBits::new(&mut rng);
        assert_eq!(bits.uniform_below(1), 0);
        assert_eq!(bits.uniform_below(0), 0);
        for n in [2u64, 3, 7, 10, 1000] {
            let mut counts = vec![0u64; n as usize];
            for _ in 0..(n * 200) {
                counts[bits.uniform_below(n) as usize] += 1;
            }
            let probs = vec![1.0 / n as f64; n as usize];
            let outcome = privpac_audit::chi_square_gof(&counts, &probs, 1e-6).unwrap();
            assert!(!outcome.rejected, "n = {n}: {outcome:?}");
        }
        let big = (1u128 << 100) + 12345;
        for _ in 0..1000 {
            assert!(bits.uniform_below_u128(big) < big);
        }
    }

    #[test]
    fn bernoulli_ratio_matches_its_probability() {
        check_rate(1.0 / 3.0, |b| b.bernoulli_ratio(1, 3));
        check_rate(0.7, |b| b.bernoulli_ratio(7, 10));
        check_rate(1.0 / 1024.0 * 5.0, |b| b.bernoulli_ratio(5, 1024));
        check_rate(0.0, |b| b.bernoulli_ratio(0, 5));
        check_rate(1.0, |b| b.bernoulli_ratio(5, 5));
    }

    #[test]
    fn bernoulli_f64_matches_its_probability() {
        for p in [0.1, 0.5, 0.999, 1e-3] {
            check_rate(p, |b| b.bernoulli_f64(p));
        }
        check_rate(0.0, |b| b.bernoulli_f64(f64::NAN));
        check_rate(1.0, |b| b.bernoulli_f64(2.0));
    }

    #[test]
    fn bernoulli_exp_minus_matches_its_probability() {
        check_rate((-0.5f64).exp(), |b| b.bernoulli_exp_minus(1, 2));
        check_rate((-1.0f64).exp(), |b| b.bernoulli_exp_minus_one());
        check_rate(0.3, |b| b.bernoulli_ratio_u64(3, 10));
        check_rate((-0.25f64).exp(), |b| {
            b.bernoulli_exp_minus(1 << 61, 1 << 63)
        });
        check_rate((-1.0f64).exp(), |b| b.bernoulli_exp_minus(1, 1));
        check_rate((-2.75f64).exp(), |b| b.bernoulli_exp_minus(11, 4));
        check_rate(1.0, |b| b.bernoulli_exp_minus(0, 4));
        for gamma in [0.3f64, 1.7, 1e-5, 4.0] {
            check_rate((-gamma).exp(), |b| b.bernoulli_exp_minus_f64(gamma));
        }
    }
}

/// Test support: a generator that replays a scripted bit sequence, and the script of a
/// discrete Laplace draw of a chosen (huge) magnitude, so tests can reach outputs whose
/// probability is far too small to sample.
#[cfg(test)]
pub(crate) mod script {
    /// Bits packed into `u64` words in the order [`super::RandomBits`] reads them (least
    /// significant first); all-ones words after the end (with which every sampler here
    /// stops quickly, where all-zero words would make the `exp(-1)` coins loop forever).
    #[derive(Debug, Default)]
    pub(crate) struct BitScript {
        words: Vec<u64>,
        len: usize,
        next: usize,
    }

    impl BitScript {
        pub(crate) fn push(&mut self, bit: bool) {
            if self.len.is_multiple_of(64) {
                self.words.push(0);
            }
            if bit {
                self.words[self.len / 64] |= 1 << (self.len % 64);
            }
            self.len += 1;
        }

        /// Pads to a word boundary: the next draw starts on a fresh word (what a new
        /// [`super::RandomBits`] over the same generator reads).
        pub(crate) fn align(&mut self) {
            self.len = self.words.len() * 64;
        }

        /// The bits of one `DiscreteLaplace` draw at scale `t/1` with `t = 2^t_bits`: `U =
        /// 0` (`t_bits` zero bits, accepted with no coin since `exp(-0/t) = 1`), then `V`
        /// successes of the `exp(-1)` coin (bits 0, 1 each: `A_2` succeeds, `A_3` fails),
        /// one failure (bit 1), then the sign. The draw is `±t·V`.
        pub(crate) fn push_draw(&mut self, t_bits: u32, v: u64, negative: bool) {
            for _ in 0..t_bits {
                self.push(false);
            }
            for _ in 0..v {
                self.push(false);
                self.push(true);
            }
            self.push(true);
            self.push(negative);
        }
    }

    impl rand::TryRng for BitScript {
        type Error = std::convert::Infallible;

        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(self.try_next_u64()? as u32)
        }

        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            let word = self.words.get(self.next).copied().unwrap_or(u64::MAX);
            self.next += 1;
            Ok(word)
        }

        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            for chunk in dst.chunks_mut(8) {
                let word = self.try_next_u64()?.to_le_bytes();
                chunk.copy_from_slice(&word[..chunk.len()]);
            }
            Ok(())
        }
    }
}
