//! A table-driven exact sampler of the discrete Laplace distribution, for drawing many
//! values at one scale.
//!
//! [`DiscreteLaplace`]'s own sampler (Canonne–Kamath–Steinke's Algorithm 2) needs no
//! precomputation but spends several exact coin flips per draw. When the same scale is
//! drawn from many times, one `u64` per draw is enough: the magnitude is found by comparing
//! a uniform `U` with the survival function `c_m = Pr[|X| ≥ m]` through a table of the
//! exact first 63 binary digits of each `c_m`, and the 64th random bit is the sign.

use num_bigint::BigUint;
use rand::Rng;
use rand::distr::Distribution;

use crate::exact_bits::RandomBits;
use crate::noise::discrete_laplace::DiscreteLaplace;
use crate::noise::survival_digits::{survival_floor, survival_table};

/// Largest number of table entries (32 KiB of thresholds).
pub const MAX_TABLE_LEN: usize = 4096;
/// The table covers every `m ≤ 46·b` (up to [`MAX_TABLE_LEN`], and at least `m = 1`): beyond,
/// `c_m < 2e^{-46} < 2^{-63}`. The last entry's `c_M` itself may be larger (see
/// [`DiscreteLaplaceTable`]: the tail branch).
const COVERED_EXPONENT: u128 = 46;
/// Bits of `U` that index the bucket table.
const BUCKET_BITS: u32 = 12;
const BUCKET_SHIFT: u32 = 63 - BUCKET_BITS;
const LOW_63: u64 = (1 << 63) - 1;

/// The discrete Laplace distribution `Lap_Z(b)` with a precomputed table: exact, like
/// [`DiscreteLaplace`], and about one `u64` of randomness and a few nanoseconds per draw.
///
/// # How it samples
/// A draw reads one `u64`: its top bit is the sign and its low 63 bits are the first binary
/// digits of a uniform `U ∈ [0, 1)`. The magnitude is `#{m ≤ M : U < c_m}`, where
/// `c_m = 2e^{-m/b}/(1 + e^{-1/b})` is `Pr[|X| ≥ m]`. The table stores `T_m = ⌊c_m·2^63⌋`,
/// computed exactly with big integers (the enclosing interval of `e^{m/b}` is refined until
/// its floor is unique). Then the 63-bit prefix `u` decides `U < c_m` whenever `u ≠ T_m`:
/// `u < T_m` implies `U < (u+1)/2^63 ≤ c_m`, and `u > T_m` implies `U ≥ (T_m+1)/2^63 > c_m`
/// (`c_m` is irrational, so it is never a multiple of `2^{-63}`). When `u = T_m`, which
/// happens with probability `2^{-63}` per comparison, further bits of `U` are drawn and
/// compared with further exact digits of `c_m`. A bucket index on the top 12 bits of `u`
/// starts the search at most a few entries before its end.
///
/// The table has `M = min(⌊46·b⌋, 4096)` entries (at least one). If `U < c_M`, the magnitude
/// is `M + G` with `G` drawn fresh from `Pr[G ≥ j] = e^{-j/b}`: `Pr[|X| ≥ M + j | |X| ≥ M]
/// = c_{M+j}/c_M = e^{-j/b}`, so the result is exactly `Lap_Z(b)`. `G` is `|Y| − 1` for a draw
/// `Y ≠ 0` of the bit-level sampler. This branch is taken with probability exactly
/// `c_M = Pr[|X| ≥ M]`. For scales from about 0.55 to 89 that is below `2^{-63}`
/// (`M/b > 46 − 1/b`); below about 0.55 the floor in `⌊46·b⌋` can leave `c_M` well above
/// it (about `8.5·10^{-18}` at `b = 0.1`, and up to `c_1 = 2e^{-1/b}/(1 + e^{-1/b})`, about
/// `2·10^{-10}`, just below `b = 1/23`, where the table has a single entry), and above 89
/// the cap of 4096 entries makes it larger still. Either way the draw is exact; only its
/// cost grows with `c_M`.
///
/// [`Self::sample`] returns an `i64` (magnitudes clamped at `2^63 − 1`, which needs
/// probability below `exp(-2^22)`); [`Self::sample_wide`] returns the exact draw as an
/// `i128`, for mechanisms whose noisy values must be exact at the ends of `i64` (the binary
/// tree threshold sanitizer). Both read the same words and agree below `2^63`.
///
/// No floating-point number takes part in any decision: the realized distribution is
/// exactly `Lap_Z(b)` for the exact rational scale of the [`DiscreteLaplace`] it was built
/// from, so every privacy guarantee stated for that distribution holds for this sampler.
///
/// # Cost
/// Building the table takes about `M` big-integer products (well under a millisecond at
/// scale 10, a few milliseconds at the cap). Seeded draws differ from
/// [`DiscreteLaplace::fill`]'s: the same distribution, another use of the random bits.
///
/// # Example
/// ```
/// use privpac_mechanisms::{DiscreteLaplace, DiscreteLaplaceTable};
/// use rand::SeedableRng;
/// let table = DiscreteLaplaceTable::new(DiscreteLaplace::new(10.0)?);
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
/// let mut draws = vec![0i64; 10_000];
/// table.fill(&mut draws, &mut rng);
/// let mean_magnitude = draws.iter().map(|k| k.abs() as f64).sum::<f64>() / 1e4;
/// // E|X| = 2p/(1 − p²) ≈ 9.98 for p = e^{-1/10}; a mean of 10^4 draws is within 0.5 (5σ).
/// assert!((mean_magnitude - 9.98).abs() < 0.5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscreteLaplaceTable {
    noise: DiscreteLaplace,
    /// `thresholds[i] = ⌊c_{i+1} · 2^63⌋`, non-increasing.
    thresholds: Vec<u64>,
    /// `bucket_start[j] = #{i : thresholds[i] > u}` for the largest `u` of bucket `j`: a
    /// lower bound of the magnitude of every `u` in the bucket.
    bucket_start: Vec<u16>,
}

impl DiscreteLaplaceTable {
    /// Builds the table for `noise`'s exact scale.
    pub fn new(noise: DiscreteLaplace) -> Self {
        let (t, s) = noise.scale_ratio();
        // M = ⌊46·t/s⌋ clamped to [1, MAX_TABLE_LEN].
        let covered = COVERED_EXPONENT * u128::from(t) / u128::from(s);
        let len = covered.clamp(1, MAX_TABLE_LEN as u128) as usize;
        let thresholds = survival_table(s, t, len);
        let bucket_start = (0..1u64 << BUCKET_BITS)
            .map(|bucket| {
                let largest = ((bucket + 1) << BUCKET_SHIFT) - 1;
                // The table has at most 4096 entries, so the count fits in u16.
                thresholds.partition_point(|&threshold| threshold > largest) as u16
            })
            .collect();
        DiscreteLaplaceTable {
            noise,
            thresholds,
            bucket_start,
        }
    }

    /// The distribution this table samples.
    pub fn noise(&self) -> DiscreteLaplace {
        self.noise
    }

    /// Number of table entries `M`.
    pub fn len(&self) -> usize {
        self.thresholds.len()
    }

    /// Always `false`: a table has at least one entry.
    pub fn is_empty(&self) -> bool {
        self.thresholds.is_empty()
    }

    /// `⌊Pr[|X| ≥ m] · 2^63⌋` for `1 ≤ m ≤ M` (the table's entry), `None` outside.
    pub fn threshold(&self, m: usize) -> Option<u64> {
        m.checked_sub(1)
            .and_then(|index| self.thresholds.get(index).copied())
    }

    /// One draw as an `i64`: the exact draw ([`Self::sample_wide`]) with its magnitude
    /// clamped to `2^63 − 1`, which changes it only when `|X| ≥ 2^63` (probability below
    /// `exp(-2^22)` at a scale of at most 2^40, as for [`DiscreteLaplace::sample_bits`]).
    #[inline]
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        let (word, magnitude) = self.sample_magnitude(rng);
        // |X| ≥ 2^63 has probability below exp(-2^22) for b ≤ 2^40 (as in DiscreteLaplace).
        with_sign(word, i64::try_from(magnitude).unwrap_or(i64::MAX))
    }

    /// One exact draw as an `i128`, never clamped, for mechanisms that add it to a count
    /// and need the sum to be the exact noisy value (so that what follows is
    /// post-processing): the magnitude is at most `M − 1 + |Y|` for a bit-level draw `Y`
    /// ([`DiscreteLaplace::sample_wide_bits`], `|Y| < 2^126 + 2^62`), below `2^127`.
    /// It consumes the same random words as [`Self::sample`] and returns the same value
    /// whenever `|X| < 2^63`.
    #[inline]
    pub fn sample_wide<R: Rng + ?Sized>(&self, rng: &mut R) -> i128 {
        let (word, magnitude) = self.sample_magnitude(rng);
        // Below 2^127 (see above): the cast is exact.
        with_sign(word, magnitude as i128)
    }

    /// The sign word and the exact magnitude of one draw.
    #[inline]
    fn sample_magnitude<R: Rng + ?Sized>(&self, rng: &mut R) -> (u64, u128) {
        let word = rng.next_u64();
        let prefix = word & LOW_63;
        let thresholds = self.thresholds.as_slice();
        let mut magnitude = usize::from(self.bucket_start[(prefix >> BUCKET_SHIFT) as usize]);
        while magnitude < thresholds.len() && thresholds[magnitude] > prefix {
            magnitude += 1;
        }
        if magnitude == thresholds.len() || thresholds[magnitude] == prefix {
            return (word, self.finish_rarely(word, magnitude, rng));
        }
        (word, magnitude as u128)
    }

    /// Fills `out` with independent draws.
    pub fn fill<R: Rng + ?Sized>(&self, out: &mut [i64], rng: &mut R) {
        for slot in out {
            *slot = self.sample(rng);
        }
    }

    /// The two rare endings of a draw: a prefix equal to a threshold (decided with more
    /// digits) and a magnitude past the table (the geometric tail). Returns the exact
    /// magnitude.
    #[cold]
    fn finish_rarely<R: Rng + ?Sized>(&self, word: u64, mut magnitude: usize, rng: &mut R) -> u128 {
        let prefix = word & LOW_63;
        let (t, s) = self.noise.scale_ratio();
        let mut bits = RandomBits::new(rng);
        let mut uniform: Option<LazyUniform> = None;
        while let Some(&threshold) = self.thresholds.get(magnitude) {
            let below = match threshold.cmp(&prefix) {
                std::cmp::Ordering::Greater => true,
                std::cmp::Ordering::Less => false,
                std::cmp::Ordering::Equal => uniform
                    .get_or_insert_with(|| LazyUniform::new(prefix))
                    .is_below_survival(s, t, magnitude as u64 + 1, &mut bits),
            };
            if !below {
                return magnitude as u128;
            }
            magnitude += 1;
        }
        // U < c_M: the magnitude is M + G, G geometric with ratio e^{-1/b}, taken exactly
        // from an unclamped bit-level draw.
        let tail = loop {
            let draw = self.noise.sample_wide_bits(&mut bits);
            if draw != 0 {
                break draw.unsigned_abs() - 1;
            }
        };
        magnitude as u128 + tail
    }
}

impl Distribution<i64> for DiscreteLaplaceTable {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        DiscreteLaplaceTable::sample(self, rng)
    }
}

/// The sign from the word's top bit (a zero magnitude ignores it).
#[inline]
fn with_sign<T: std::ops::Neg<Output = T>>(word: u64, magnitude: T) -> T {
    if word >> 63 == 1 {
        -magnitude
    } else {
        magnitude
    }
}

/// A uniform `U ∈ [0, 1)` known to `width` binary digits: `U ∈ [A/2^w, (A+1)/2^w)`.
#[derive(Debug)]
struct LazyUniform {
    prefix: BigUint,
    width: u32,
}

impl LazyUniform {
    /// `U` whose first 63 digits are `prefix`.
    fn new(prefix: u64) -> Self {
        LazyUniform {
            prefix: BigUint::from(prefix),
            width: 63,
        }
    }

    /// Whether `U < c_m = Pr[|Lap_Z(t/s)| ≥ m]`, drawing 64 more digits of `U` while its
    /// prefix equals `⌊c_m·2^w⌋`. Ends with probability 1 (each round continues with
    /// probability `2^{-64}`).
    fn is_below_survival<R: Rng + ?Sized>(
        &mut self,
        s: u64,
        t: u64,
        m: u64,
        bits: &mut RandomBits<'_, R>,
    ) -> bool {
        loop {
            let floor = survival_floor(s, t, m, self.width);
            match self.prefix.cmp(&floor) {
                std::cmp::Ordering::Less => return true,
                std::cmp::Ordering::Greater => return false,
                std::cmp::Ordering::Equal => {
                    self.prefix = (&self.prefix << 64u32) | BigUint::from(bits.bits(64));
                    self.width += 64;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
