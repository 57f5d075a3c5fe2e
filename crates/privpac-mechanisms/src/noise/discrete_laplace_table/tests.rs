//! Tests of the table sampler: χ² fits over scales (the tail and the largest scale included)
//! with a wrong-scale control, table entries against directly computed digits, crafted
//! words that hit a threshold exactly (decided by more digits) or take the tail, tiny
//! scales, and a property test over the whole range of exact scales.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::*;

/// A generator that replays fixed words, then a fallback word forever.
struct Words {
    words: Vec<u64>,
    next: usize,
    fallback: u64,
}

impl Words {
    fn new(words: &[u64], fallback: u64) -> Self {
        Words {
            words: words.to_vec(),
            next: 0,
            fallback,
        }
    }
}

impl rand::TryRng for Words {
    type Error = std::convert::Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.try_next_u64()? as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let word = self.words.get(self.next).copied().unwrap_or(self.fallback);
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

fn table(scale: f64) -> DiscreteLaplaceTable {
    DiscreteLaplaceTable::new(DiscreteLaplace::new(scale).unwrap())
}

#[track_caller]
fn check_distribution(table: &DiscreteLaplaceTable, seed: u64, draws: usize) {
    // χ² goodness of fit at α = 1e-6 (false-failure rate 1e-6 for a correct sampler).
    let noise = table.noise();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = vec![0i64; draws];
    table.fill(&mut out, &mut rng);
    let outcome = privpac_audit::chi_square_integer_pmf(&out, |k| noise.pmf(k), 1e-6).unwrap();
    assert!(!outcome.rejected, "scale {}: {outcome:?}", noise.scale());
}

#[test]
fn samples_follow_the_pmf() {
    for scale in [0.3, 1.0, 2.5, 10.0, 60.0] {
        check_distribution(&table(scale), 17, 200_000);
    }
    let ratio = DiscreteLaplace::from_ratio(7, 3).unwrap();
    check_distribution(&DiscreteLaplaceTable::new(ratio), 5, 200_000);
    let small_epsilon = DiscreteLaplace::for_epsilon(0.1, 1).unwrap();
    check_distribution(&DiscreteLaplaceTable::new(small_epsilon), 8, 200_000);
}

#[test]
fn scales_past_the_table_use_the_tail_and_still_follow_the_pmf() {
    // b = 1000: M = 4096 and Pr[|X| ≥ M] ≈ 1.7%, so about 3400 of the draws take the tail.
    let wide = table(1000.0);
    assert_eq!(wide.len(), MAX_TABLE_LEN);
    check_distribution(&wide, 41, 200_000);
    // b = 2^40 (the largest scale): the tail is almost every draw. Pr[|X| ≥ m] = c_m; at
    // m = ⌈b ln 2⌉, c_m ≈ 1/2. Binomial check at 5.5σ (false-failure rate below 1e-7).
    let huge = table((1u64 << 40) as f64);
    let m = ((1u64 << 40) as f64 * std::f64::consts::LN_2).ceil() as i64;
    let expected = huge.noise().survival(m) * 2.0;
    let mut rng = ChaCha8Rng::seed_from_u64(43);
    let n = 20_000;
    let hits = (0..n).filter(|_| huge.sample(&mut rng).abs() >= m).count() as f64;
    let sd = (n as f64 * expected * (1.0 - expected)).sqrt();
    assert!(
        (hits - n as f64 * expected).abs() < 5.5 * sd,
        "{hits} vs {expected}"
    );
}

#[test]
fn a_wrong_scale_is_detected() {
    // Negative control for the χ² check above.
    let noise = DiscreteLaplace::new(3.0).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    let mut out = vec![0i64; 200_000];
    table(3.3).fill(&mut out, &mut rng);
    let outcome = privpac_audit::chi_square_integer_pmf(&out, |k| noise.pmf(k), 1e-6).unwrap();
    assert!(outcome.rejected, "{outcome:?}");
}

#[test]
fn table_entries_are_the_exact_digits() {
    for scale in [0.3, 1.0, 10.0, 89.0, 1000.0] {
        let table = table(scale);
        let (t, s) = table.noise().scale_ratio();
        for m in (1..=table.len()).step_by(7).chain([table.len()]) {
            let entry = table.threshold(m).unwrap();
            assert_eq!(BigUint::from(entry), survival_floor(s, t, m as u64, 63));
            // And against floating point, loosely (f64 has 53 bits).
            let float = table.noise().survival(m as i64) * 2.0 * (1u64 << 63) as f64;
            assert!(
                (entry as f64 - float).abs() <= float * 1e-12 + 2.0,
                "b = {scale}, m = {m}"
            );
        }
        assert_eq!(table.threshold(0), None);
        assert_eq!(table.threshold(table.len() + 1), None);
    }
    // Small scales cover everything down to 2^-63; the entry past M would be zero.
    let b10 = table(10.0);
    assert_eq!(b10.len(), 460);
    assert_eq!(survival_floor(1, 10, 461, 63), BigUint::ZERO);
}

#[test]
fn a_prefix_equal_to_a_threshold_is_decided_by_more_digits() {
    let table = table(10.0);
    let (t, s) = table.noise().scale_ratio();
    for m in [1usize, 2, 17, 200] {
        let threshold = table.threshold(m).unwrap();
        // The next 64 digits of c_m.
        let next = survival_floor(s, t, m as u64, 127) - (BigUint::from(threshold) << 64u32);
        let next = u64::try_from(&next).unwrap();
        // U's next digits below c_m's: U < c_m, so |X| = m (as T_{m+1} < T_m); above: m − 1.
        for (sign, signed) in [(0u64, 1i64), (1 << 63, -1)] {
            let below = table.sample(&mut Words::new(&[sign | threshold, next - 1], 0));
            let above = table.sample(&mut Words::new(&[sign | threshold, next + 1], 0));
            assert_eq!(below, signed * m as i64, "m = {m}");
            assert_eq!(above, signed * (m as i64 - 1), "m = {m}");
        }
        // Equal again at 127 digits: a third word decides (against the digits at 191).
        let third =
            survival_floor(s, t, m as u64, 191) - (survival_floor(s, t, m as u64, 127) << 64u32);
        let third = u64::try_from(&third).unwrap();
        let draw = table.sample(&mut Words::new(&[threshold, next, third + 1], 0));
        assert_eq!(draw, m as i64 - 1);
        let draw = table.sample(&mut Words::new(&[threshold, next, third - 1], 0));
        assert_eq!(draw, m as i64);
    }
}

#[test]
fn a_prefix_below_the_last_threshold_takes_the_tail() {
    // b = 1000: U < c_M for the prefix 0, so |X| = M + G with G ≥ 0.
    let table = table(1000.0);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..50 {
        let mut words = Words::new(&[0], rng.next_u64());
        let draw = table.sample(&mut words);
        assert!(draw >= table.len() as i64, "{draw}");
    }
}

#[test]
fn tiny_scales_give_zero_and_decide_the_zero_prefix_exactly() {
    // b = 2^-9: c_1 ≈ 2e^{-512}, so T_1 = 0 and only the prefix 0 needs more digits.
    let table = table(1.0 / 512.0);
    assert_eq!(table.len(), 1);
    assert_eq!(table.threshold(1), Some(0));
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut out = vec![1i64; 10_000];
    table.fill(&mut out, &mut rng);
    assert!(out.iter().all(|&k| k == 0));
    assert_eq!(table.sample(&mut Words::new(&[0, 0, 0], 5)), 0);
    // The smallest representable scale, 2^-62 (x = 2^62): built at once, all zero, and the
    // zero prefix is still decided (the exact digits are 0 at every width).
    let smallest = DiscreteLaplaceTable::new(DiscreteLaplace::from_ratio(1, 1 << 62).unwrap());
    assert_eq!(smallest.threshold(1), Some(0));
    assert_eq!(smallest.sample(&mut Words::new(&[0, 0, 0, 0], 9)), 0);
    assert_eq!(smallest.sample(&mut rng), 0);
}

#[test]
fn the_distribution_trait_draws_what_sample_draws() {
    let table = table(2.5);
    let mut a = ChaCha8Rng::seed_from_u64(31);
    let mut b = ChaCha8Rng::seed_from_u64(31);
    let inherent: Vec<i64> = (0..1000).map(|_| table.sample(&mut a)).collect();
    let via_trait: Vec<i64> = Distribution::sample_iter(&table, &mut b)
        .take(1000)
        .collect();
    assert_eq!(inherent, via_trait);
}

/// `sample_wide` is `sample` without the clamp: the same words consumed, the same value
/// (no draw of these 4·10^5 reaches 2^63), at the tree sanitizer's scale 40 (2^20 points,
/// ε = 1) and across the table's regimes (tiny, covered, capped with the tail).
#[test]
fn wide_draws_equal_the_clamped_draws_below_2_63() {
    for scale in [0.3, 10.0, 40.0, 1000.0] {
        let table = table(scale);
        let mut a = ChaCha8Rng::seed_from_u64(41);
        let mut b = ChaCha8Rng::seed_from_u64(41);
        for _ in 0..100_000 {
            assert_eq!(table.sample_wide(&mut a), i128::from(table.sample(&mut b)));
        }
        assert_eq!(
            a.next_u64(),
            b.next_u64(),
            "b = {scale}: words consumed differ"
        );
    }
}

/// χ² goodness of fit of `sample_wide` at the tree sanitizer's scale 40 (false-failure rate
/// 10^-6 for an exact sampler), with a wrong-scale control that must be rejected.
#[test]
fn wide_draws_follow_the_pmf() {
    let table = table(40.0);
    let mut rng = ChaCha8Rng::seed_from_u64(43);
    let draws: Vec<i64> = (0..200_000)
        .map(|_| i64::try_from(table.sample_wide(&mut rng)).unwrap())
        .collect();
    let noise = table.noise();
    let outcome = privpac_audit::chi_square_integer_pmf(&draws, |k| noise.pmf(k), 1e-6).unwrap();
    assert!(!outcome.rejected, "{outcome:?}");
    let wrong = DiscreteLaplace::new(44.0).unwrap();
    let outcome = privpac_audit::chi_square_integer_pmf(&draws, |k| wrong.pmf(k), 1e-6).unwrap();
    assert!(outcome.rejected, "{outcome:?}");
}

/// Words whose bits, least significant first (as `RandomBits` reads them), are `bits`.
fn words_of_bits(bits: impl IntoIterator<Item = bool>) -> Vec<u64> {
    let mut words = Vec::new();
    for (i, bit) in bits.into_iter().enumerate() {
        if i % 64 == 0 {
            words.push(0);
        }
        if bit {
            *words.last_mut().unwrap() |= 1 << (i % 64);
        }
    }
    words
}

/// A tail draw past `i64` is exact in `sample_wide` and clamped in `sample`. At scale 2^40
/// the table has its 4096 entries, the prefix 0 is below all of them, so the magnitude is
/// `4096 + |Y| − 1` with a bit-level draw `Y`; the scripted `Y` has `U = 0` (40 zero bits)
/// and `V = 2^23` (successes of the `exp(-1)` coin: bits 0, 1; then a failure, 1; then its
/// sign, 0), so `|Y| = 2^40·2^23 = 2^63` and the draw is `±(2^63 + 4095)`.
#[test]
fn wide_draws_are_exact_beyond_i64() {
    let table = DiscreteLaplaceTable::new(DiscreteLaplace::from_ratio(1 << 40, 1).unwrap());
    assert_eq!(table.len(), MAX_TABLE_LEN);
    let tail = std::iter::repeat_n(false, 40)
        .chain(std::iter::repeat_n([false, true], 1 << 23).flatten())
        .chain([true, false]);
    let tail = words_of_bits(tail);
    let expected = (1i128 << 63) + 4095;
    for (sign, signed) in [(0u64, 1i128), (1 << 63, -1)] {
        let script: Vec<u64> = std::iter::once(sign).chain(tail.iter().copied()).collect();
        let wide = table.sample_wide(&mut Words::new(&script, u64::MAX));
        assert_eq!(wide, signed * expected);
        let clamped = table.sample(&mut Words::new(&script, u64::MAX));
        assert_eq!(i128::from(clamped), signed * i128::from(i64::MAX));
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]

    /// Over the whole range of exact scales t/s (from 2^-62 up to the 2^40 limit; a tiny
    /// scale once made the table compute e^{2^62} term by term), every
    /// sampled table entry equals the directly computed floor, the entries do not increase,
    /// and the bucket index never starts past a prefix's magnitude.
    #[test]
    fn tables_are_exact_for_any_scale(
        t_exponent in 0u32..=40,
        t_mantissa in 1u64..1000,
        s_exponent in 0u32..=50,
        s_mantissa in 1u64..5000,
        probe in proptest::prelude::any::<u64>(),
    ) {
        let t = (t_mantissa << t_exponent).min(1 << 40);
        let s = (s_mantissa << s_exponent).min(1 << 62);
        let Ok(noise) = DiscreteLaplace::from_ratio(t, s) else { return Ok(()) };
        let table = DiscreteLaplaceTable::new(noise);
        let (t, s) = noise.scale_ratio();
        proptest::prop_assert!(table.thresholds.windows(2).all(|w| w[0] >= w[1]));
        let len = table.len();
        for m in [1, 2, len / 2 + 1, len].into_iter().filter(|&m| m <= len) {
            let entry = table.threshold(m).unwrap();
            proptest::prop_assert_eq!(BigUint::from(entry), survival_floor(s, t, m as u64, 63));
        }
        let prefix = probe & LOW_63;
        let start = usize::from(table.bucket_start[(prefix >> BUCKET_SHIFT) as usize]);
        let magnitude = table.thresholds.partition_point(|&threshold| threshold > prefix);
        proptest::prop_assert!(start <= magnitude);
    }
}
