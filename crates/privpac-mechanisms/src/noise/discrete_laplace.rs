//! The discrete Laplace distribution, sampled exactly, and the mechanism built on it.

use rand::Rng;
use rand::distr::Distribution;

use crate::error::{Error, Result};
use crate::exact_bits::{Dyadic, RandomBits};
use privpac_accounting::{Privacy, Private};

/// Largest supported scale: outputs then fit in `i64` except with probability below
/// `exp(-2^22)`.
const MAX_SCALE: f64 = (1u64 << 40) as f64;
/// Largest numerator or denominator of the rational scale.
const MAX_RATIO_PART: u64 = 1 << 62;

/// The discrete Laplace distribution `Lap_Z(b)` on the integers:
/// `Pr[X = k] = (1 - e^{-1/b}) / (1 + e^{-1/b}) · e^{-|k|/b}` (also called the two-sided
/// geometric distribution).
///
/// The scale is an exact rational `b = t/s`. Sampling follows Algorithm 2 of Canonne,
/// Kamath and Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020):
/// draw `U` uniform in `[0, t)` and accept it with probability `exp(-U/t)`, add `t·V` for
/// `V` geometric with parameter `exp(-1)`, divide by `s`, attach a random sign and reject
/// the duplicate negative zero. Every coin is exact (see the `exact_bits` module), so the
/// realized distribution is exactly `Lap_Z(t/s)`, with no floating-point rounding between
/// random bits and output. Expected cost: a small constant number of random bits, about
/// two `u64` words per draw, independent of the scale.
///
/// It implements [`rand::distr::Distribution<i64>`]; the trait's `sample` is the
/// inherent [`DiscreteLaplace::sample`]. To draw many values at one scale, build a
/// [`DiscreteLaplaceTable`](crate::DiscreteLaplaceTable): the same exact distribution at
/// about a tenth of the cost per draw, after a one-off table.
///
/// # Example
/// ```
/// use privpac_mechanisms::DiscreteLaplace;
/// use rand::SeedableRng;
/// use rand::distr::Distribution;
/// let noise = DiscreteLaplace::new(10.0)?;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
/// let mut draws = vec![0i64; 1000];
/// noise.fill(&mut draws, &mut rng);
/// assert!(draws.iter().any(|&k| k != 0));
/// // As a `rand` distribution.
/// let more: Vec<i64> = noise.sample_iter(&mut rng).take(10).collect();
/// assert_eq!(more.len(), 10);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiscreteLaplace {
    /// `t` in `b = t/s`.
    numerator: u64,
    /// `s` in `b = t/s`.
    denominator: u64,
}

impl DiscreteLaplace {
    /// `Lap_Z(scale)`, reading the `f64` as the exact dyadic rational it stores.
    ///
    /// When that rational needs a denominator above 2^62 (scales with more than 62
    /// fractional bits, i.e. below about 2^-9 with a full mantissa) it is rounded **up** to
    /// a multiple of 2^-62; more noise never weakens a privacy guarantee.
    ///
    /// # Errors
    /// [`Error::InvalidScale`] unless the scale is finite and > 0;
    /// [`Error::UnrepresentableScale`] above 2^40.
    pub fn new(scale: f64) -> Result<Self> {
        if !(scale.is_finite() && scale > 0.0) {
            return Err(Error::InvalidScale { value: scale });
        }
        if scale > MAX_SCALE {
            return Err(Error::UnrepresentableScale { value: scale });
        }
        let Dyadic { mantissa, exponent } = Dyadic::from_f64(scale);
        if exponent >= 0 {
            return DiscreteLaplace::from_ratio(mantissa << exponent, 1);
        }
        let shift = exponent.unsigned_abs();
        if shift <= 62 {
            return DiscreteLaplace::from_ratio(mantissa, 1 << shift);
        }
        // Round up onto the grid 2^-62: scale·2^62 is exact and not an integer here.
        let numerator = (scale * MAX_RATIO_PART as f64).ceil() as u64;
        DiscreteLaplace::from_ratio(numerator.max(1), MAX_RATIO_PART)
    }

    /// `Lap_Z(numerator / denominator)` for an exact rational scale.
    ///
    /// # Errors
    /// [`Error::InvalidScale`] if either part is zero; [`Error::UnrepresentableScale`] if a
    /// part exceeds 2^62 after reduction or the scale exceeds 2^40.
    pub fn from_ratio(numerator: u64, denominator: u64) -> Result<Self> {
        if numerator == 0 || denominator == 0 {
            return Err(Error::InvalidScale {
                value: numerator as f64 / denominator as f64,
            });
        }
        let divisor = gcd(numerator, denominator);
        let (numerator, denominator) = (numerator / divisor, denominator / divisor);
        let scale = numerator as f64 / denominator as f64;
        if numerator > MAX_RATIO_PART || denominator > MAX_RATIO_PART || scale > MAX_SCALE {
            return Err(Error::UnrepresentableScale { value: scale });
        }
        Ok(DiscreteLaplace {
            numerator,
            denominator,
        })
    }

    /// The noise for an ε-DP release of an integer query of sensitivity Δ: scale exactly
    /// `Δ/ε`, where ε is read as the exact rational its `f64` stores (rounded up to the
    /// next representable rational if that is impossible).
    ///
    /// # Errors
    /// [`Error::InvalidEpsilon`], [`Error::InvalidSensitivity`] for Δ = 0, or
    /// [`Error::UnrepresentableScale`] when Δ/ε exceeds 2^40.
    pub fn for_epsilon(epsilon: f64, sensitivity: u64) -> Result<Self> {
        crate::error::validate_epsilon(epsilon)?;
        if sensitivity == 0 {
            return Err(Error::InvalidSensitivity { value: 0.0 });
        }
        let Dyadic { mantissa, exponent } = Dyadic::from_f64(epsilon);
        // Δ/ε = Δ·2^-e / m.
        let (numerator, denominator) = if exponent <= 0 {
            let shift = exponent.unsigned_abs();
            let numerator = if shift < 64 {
                (sensitivity as u128) << shift
            } else {
                u128::MAX
            };
            (numerator, mantissa as u128)
        } else {
            let denominator = if exponent < 64 {
                (mantissa as u128) << exponent
            } else {
                u128::MAX
            };
            (sensitivity as u128, denominator)
        };
        let divisor = gcd_u128(numerator, denominator);
        let (numerator, denominator) = (numerator / divisor, denominator / divisor);
        if numerator <= MAX_RATIO_PART as u128 && denominator <= MAX_RATIO_PART as u128 {
            return DiscreteLaplace::from_ratio(numerator as u64, denominator as u64);
        }
        // Not representable exactly: round the scale up (a correctly rounded quotient is
        // within half an ulp, so its successor is an upper bound).
        DiscreteLaplace::new((sensitivity as f64 / epsilon).next_up())
    }

    /// The scale `b` as an `f64` (rounded; the sampler uses the exact rational).
    pub fn scale(&self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }

    /// The exact scale as `(t, s)` with `b = t/s`, in lowest terms.
    pub fn scale_ratio(&self) -> (u64, u64) {
        (self.numerator, self.denominator)
    }

    /// One draw (the same as [`Distribution::sample`]).
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        self.sample_bits(&mut RandomBits::new(rng))
    }

    /// Fills `out` with independent draws, sharing one bit buffer (the fast way to draw
    /// many).
    pub fn fill<R: Rng + ?Sized>(&self, out: &mut [i64], rng: &mut R) {
        let mut bits = RandomBits::new(rng);
        for slot in out {
            *slot = self.sample_bits(&mut bits);
        }
    }

    /// One draw from an existing bit source, as an `i64`: the exact draw
    /// ([`Self::sample_wide_bits`]) with its magnitude clamped to `2^63 − 1`. The clamp
    /// changes a draw only when `|Z| ≥ 2^63`, which needs `V ≥ 2^22` geometric steps at a
    /// scale of at most 2^40: probability below `exp(-2^22)`. A mechanism that adds this
    /// draw to a value near the ends of `i64` is *not* a post-processing of the exact
    /// noisy value; the mechanisms of this crate use [`Self::sample_wide_bits`] instead.
    pub fn sample_bits<R: Rng + ?Sized>(&self, bits: &mut RandomBits<'_, R>) -> i64 {
        let draw = self.sample_wide_bits(bits);
        let limit = i128::from(i64::MAX);
        // In range after the clamp, so the cast is exact.
        draw.clamp(-limit, limit) as i64
    }

    /// One exact draw as an `i128`, never clamped: `|Z| < 2^127` always (`Z = ±⌊(U +
    /// t·V)/s⌋` with `U < t ≤ 2^62` and the geometric count `V` a `u64`). Adding it to an
    /// `i64` value in `i128` is exact, so a release computed from `value + Z` is a
    /// post-processing of the exact noisy value. (The count `V` would leave `u64` only
    /// after 2^64 loop steps, which no run reaches.) Consumes the same bits as
    /// [`Self::sample_bits`], which returns the same draw whenever `|Z| < 2^63`.
    pub fn sample_wide_bits<R: Rng + ?Sized>(&self, bits: &mut RandomBits<'_, R>) -> i128 {
        let t = self.numerator;
        let s = self.denominator;
        loop {
            let u = bits.uniform_below(t);
            if !bits.bernoulli_exp_minus(u, t) {
                continue;
            }
            let mut v: u64 = 0;
            while bits.bernoulli_exp_minus_one() {
                v += 1;
            }
            // X = U + t·V; |Y| = ⌊X / s⌋. 64-bit arithmetic unless X overflows it.
            let magnitude = match t.checked_mul(v).and_then(|tv| tv.checked_add(u)) {
                Some(x) if s.is_power_of_two() => u128::from(x >> s.trailing_zeros()),
                Some(x) => u128::from(x / s),
                None => (u128::from(u) + u128::from(t) * u128::from(v)) / u128::from(s),
            };
            let negative = bits.bit();
            if negative && magnitude == 0 {
                continue;
            }
            // Below 2^126 + 2^62 (t ≤ 2^62, v < 2^64, u < t): the cast is exact.
            let magnitude = magnitude as i128;
            return if negative { -magnitude } else { magnitude };
        }
    }

    /// `Pr[X = k]` (computed in floating point, for tests and reporting).
    pub fn pmf(&self, k: i64) -> f64 {
        let rate = -1.0 / self.scale();
        let r = rate.exp();
        (1.0 - r) / (1.0 + r) * (rate * k.unsigned_abs() as f64).exp()
    }

    /// `Pr[X ≥ k]` (computed in floating point, for tests and thresholds).
    pub fn survival(&self, k: i64) -> f64 {
        let r = (-1.0 / self.scale()).exp();
        if k >= 1 {
            r.powf(k as f64) / (1.0 + r)
        } else {
            // Pr[X ≥ k] = 1 - Pr[X ≤ k - 1] = 1 - Pr[X ≥ 1 - k] by symmetry (1 - k in i128:
            // it is 2^63 + 1 at k = i64::MIN).
            1.0 - r.powf((1 - i128::from(k)) as f64) / (1.0 + r)
        }
    }
}

impl Distribution<i64> for DiscreteLaplace {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        DiscreteLaplace::sample(self, rng)
    }
}

/// The discrete Laplace (geometric) mechanism: release `f(D) + Lap_Z(Δ/ε)` for an
/// integer-valued query of sensitivity Δ.
///
/// # Privacy
/// ε-differentially private (pure) for integer queries with `|f(D) - f(D')| ≤ Δ` on
/// neighbours: `Pr[X = k] / Pr[X = k + d] ≤ e^{|d|/b} ≤ e^ε` for `|d| ≤ Δ` and `b ≥ Δ/ε`
/// (Ghosh, Roughgarden, Sundararajan 2009, the geometric mechanism; Canonne, Kamath,
/// Steinke 2020, Fact 1). The guarantee holds for the implementation: the noise is
/// sampled exactly.
///
/// # Running time
/// O(1) expected per release, independent of ε and Δ.
///
/// The noisy answer `f(D) + Z` is computed exactly (in `i128`, with the unclamped draw
/// [`DiscreteLaplace::sample_wide_bits`]) for every `i64` value, the ends of the range
/// included, and [`Self::release`] returns it or [`Error::Overflow`] when it leaves `i64`:
/// a deterministic function of the exact noisy answer, so the guarantee covers the error
/// outcome too (post-processing, Dwork–Roth Proposition 2.1).
///
/// # Errors
/// Construction fails on invalid parameters; [`Self::release`] fails with
/// [`Error::Overflow`] if the noisy answer leaves `i64`.
///
/// # Example
/// ```
/// use privpac_mechanisms::{DiscreteLaplaceMechanism, Privacy, Private};
/// use rand::SeedableRng;
/// let mech = DiscreteLaplaceMechanism::new(Privacy::pure(0.5)?, 1)?;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
/// let noisy_count = mech.release(120, &mut rng)?;
/// assert_eq!(mech.noise().scale(), 2.0);
/// assert_eq!(mech.privacy().epsilon(), 0.5);
/// # let _ = noisy_count;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DiscreteLaplaceMechanism {
    privacy: Privacy,
    sensitivity: u64,
    noise: DiscreteLaplace,
}

impl DiscreteLaplaceMechanism {
    /// Builds the mechanism for a pure guarantee and an integer sensitivity Δ ≥ 1.
    ///
    /// # Errors
    /// [`Error::InvalidDelta`] if `privacy` is not pure, [`Error::InvalidSensitivity`] for
    /// Δ = 0, [`Error::UnrepresentableScale`] if Δ/ε exceeds 2^40.
    pub fn new(privacy: Privacy, sensitivity: u64) -> Result<Self> {
        if !privacy.is_pure() {
            return Err(Error::InvalidDelta {
                value: privacy.delta(),
            });
        }
        let noise = DiscreteLaplace::for_epsilon(privacy.epsilon(), sensitivity)?;
        Ok(DiscreteLaplaceMechanism {
            privacy,
            sensitivity,
            noise,
        })
    }

    /// The noise distribution.
    pub fn noise(&self) -> DiscreteLaplace {
        self.noise
    }

    /// The sensitivity Δ.
    pub fn sensitivity(&self) -> u64 {
        self.sensitivity
    }

    /// Releases `value + Lap_Z(Δ/ε)`, computed exactly.
    ///
    /// # Errors
    /// [`Error::Overflow`] if the exact sum leaves the range of `i64` (a function of the
    /// noisy answer, so it does not weaken the guarantee).
    pub fn release<R: Rng + ?Sized>(&self, value: i64, rng: &mut R) -> Result<i64> {
        let noise = self.noise.sample_wide_bits(&mut RandomBits::new(rng));
        // |value| ≤ 2^63 and |noise| < 2^126 + 2^63: the sum is exact in i128.
        i64::try_from(i128::from(value) + noise).map_err(|_| Error::Overflow)
    }
}

impl Private for DiscreteLaplaceMechanism {
    fn privacy(&self) -> Privacy {
        self.privacy
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn gcd_u128(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    #[track_caller]
    fn check_distribution(noise: DiscreteLaplace, seed: u64) {
        // χ² goodness of fit at α = 1e-6 (false-failure rate 1e-6 for a correct sampler).
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut draws = vec![0i64; 200_000];
        noise.fill(&mut draws, &mut rng);
        let outcome =
            privpac_audit::chi_square_integer_pmf(&draws, |k| noise.pmf(k), 1e-6).unwrap();
        assert!(!outcome.rejected, "scale {}: {outcome:?}", noise.scale());
    }

    #[test]
    fn samples_follow_the_pmf() {
        for scale in [0.3, 1.0, 2.5, 10.0, 1000.0] {
            check_distribution(DiscreteLaplace::new(scale).unwrap(), 17);
        }
        check_distribution(DiscreteLaplace::from_ratio(7, 3).unwrap(), 5);
        check_distribution(DiscreteLaplace::for_epsilon(0.1, 1).unwrap(), 8);
    }

    #[test]
    fn single_draws_and_fill_agree_in_distribution() {
        let noise = DiscreteLaplace::new(3.0).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(23);
        let draws: Vec<i64> = (0..100_000).map(|_| noise.sample(&mut rng)).collect();
        let outcome =
            privpac_audit::chi_square_integer_pmf(&draws, |k| noise.pmf(k), 1e-6).unwrap();
        assert!(!outcome.rejected, "{outcome:?}");
    }

    #[test]
    fn distribution_trait_draws_what_the_inherent_method_draws() {
        let noise = DiscreteLaplace::new(2.5).unwrap();
        let mut a = ChaCha8Rng::seed_from_u64(31);
        let mut b = ChaCha8Rng::seed_from_u64(31);
        let inherent: Vec<i64> = (0..1000).map(|_| noise.sample(&mut a)).collect();
        let via_trait: Vec<i64> = Distribution::sample_iter(noise, &mut b)
            .take(1000)
            .collect();
        assert_eq!(inherent, via_trait);
        fn draw<D: Distribution<i64>>(d: &D, rng: &mut ChaCha8Rng) -> i64 {
            d.sample(rng)
        }
        assert_eq!(draw(&noise, &mut a), noise.sample(&mut b));
    }

    #[test]
    fn distribution_trait_samples_follow_the_pmf() {
        // χ² at α = 1e-6, as above, through the trait's `sample_iter`.
        let noise = DiscreteLaplace::new(4.0).unwrap();
        let rng = ChaCha8Rng::seed_from_u64(37);
        let draws: Vec<i64> = noise.sample_iter(rng).take(100_000).collect();
        let outcome =
            privpac_audit::chi_square_integer_pmf(&draws, |k| noise.pmf(k), 1e-6).unwrap();
        assert!(!outcome.rejected, "{outcome:?}");
    }

    #[test]
    fn wrong_scale_is_detected() {
        let noise = DiscreteLaplace::new(3.0).unwrap();
        let other = DiscreteLaplace::new(3.3).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(29);
        let mut draws = vec![0i64; 200_000];
        other.fill(&mut draws, &mut rng);
        let outcome =
            privpac_audit::chi_square_integer_pmf(&draws, |k| noise.pmf(k), 1e-6).unwrap();
        assert!(outcome.rejected, "{outcome:?}");
    }

    #[test]
    fn scale_is_exact_when_representable() {
        assert_eq!(DiscreteLaplace::new(2.5).unwrap().scale_ratio(), (5, 2));
        assert_eq!(DiscreteLaplace::new(8.0).unwrap().scale_ratio(), (8, 1));
        assert_eq!(
            DiscreteLaplace::for_epsilon(0.5, 1).unwrap().scale_ratio(),
            (2, 1)
        );
        assert_eq!(
            DiscreteLaplace::for_epsilon(2.0, 3).unwrap().scale_ratio(),
            (3, 2)
        );
        // ε = 0.1 is the dyadic m·2^-56, so Δ/ε = 2^56/m exactly.
        let (t, s) = DiscreteLaplace::for_epsilon(0.1, 1).unwrap().scale_ratio();
        assert_eq!(t, 1 << 55);
        assert_eq!(s as f64 / t as f64, 0.1);
    }

    #[test]
    fn unrepresentable_scales_round_up() {
        let scale = 1.0 / 3.0 * 1e-3; // many fractional bits
        let noise = DiscreteLaplace::new(scale).unwrap();
        let (t, s) = noise.scale_ratio();
        assert!(t as f64 / s as f64 >= scale);
        assert!((t as f64 / s as f64 - scale) / scale < 1e-12);
    }

    /// The script of one draw `±2^40·v` at scale 2^40.
    fn scripted(v: u64, negative: bool) -> crate::exact_bits::script::BitScript {
        let mut script = crate::exact_bits::script::BitScript::default();
        script.push_draw(40, v, negative);
        script
    }

    /// Issue 27: draws of magnitude 2^63 or more were clamped to `2^63 − 1` before being
    /// added, so `release(i64::MIN)` with `Z = 2^63` gave −1, an output whose probability on
    /// the input `i64::MIN` is `Pr[Z ≥ 2^63 − 1]` but on its neighbour `i64::MIN + 1` only
    /// `Pr[Z = 2^63 − 2]`: a ratio `r/(1 − r)` with `r = e^{-1/b}`, about `b = 2^40`
    /// (a loss near 27.7 against the claimed ε = 2^-40). The noisy value is now exact.
    #[test]
    fn releases_at_the_ends_of_i64_add_the_exact_draw() {
        let mech =
            DiscreteLaplaceMechanism::new(Privacy::pure(2f64.powi(-40)).unwrap(), 1).unwrap();
        assert_eq!(mech.noise().scale_ratio(), (1 << 40, 1));
        // The script draws what it says.
        assert_eq!(mech.noise().sample(&mut scripted(3, false)), 3 << 40);
        assert_eq!(mech.noise().sample(&mut scripted(5, true)), -(5 << 40));
        // Z = 2^63: clamped as an i64 draw, exact as a wide one.
        assert_eq!(mech.noise().sample(&mut scripted(1 << 23, false)), i64::MAX);
        let wide = mech
            .noise()
            .sample_wide_bits(&mut RandomBits::new(&mut scripted(1 << 23, false)));
        assert_eq!(wide, 1i128 << 63);
        // The releases are the exact noisy values (or Overflow beyond i64).
        assert_eq!(mech.release(i64::MIN, &mut scripted(1 << 23, false)), Ok(0));
        assert_eq!(mech.release(i64::MAX, &mut scripted(1 << 23, true)), Ok(-1));
        assert_eq!(
            mech.release(-1, &mut scripted(1 << 23, false)),
            Ok(i64::MAX)
        );
        assert_eq!(
            mech.release(0, &mut scripted(1 << 23, false)),
            Err(Error::Overflow)
        );
        assert_eq!(
            mech.release(i64::MIN, &mut scripted((1 << 24) + 1, false)),
            Err(Error::Overflow)
        );
    }

    #[test]
    fn survival_matches_pmf_sums() {
        let noise = DiscreteLaplace::new(1.7).unwrap();
        for k in [-3i64, 0, 1, 4] {
            let direct: f64 = (k..k + 400).map(|j| noise.pmf(j)).sum();
            assert!((direct - noise.survival(k)).abs() < 1e-12, "k = {k}");
        }
    }

    #[test]
    fn survival_holds_at_the_ends_of_i64() {
        // 1 - i64::MIN overflowed (a panic with overflow checks, ±∞ without).
        let noise = DiscreteLaplace::new(1.7).unwrap();
        assert_eq!(noise.survival(i64::MIN), 1.0);
        assert_eq!(noise.survival(i64::MIN + 1), 1.0);
        assert_eq!(noise.survival(i64::MAX), 0.0);
    }

    #[test]
    fn invalid_parameters_are_typed_errors() {
        for scale in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(matches!(
                DiscreteLaplace::new(scale),
                Err(Error::InvalidScale { .. })
            ));
        }
        assert!(matches!(
            DiscreteLaplace::new(1e13),
            Err(Error::UnrepresentableScale { .. })
        ));
        assert!(matches!(
            DiscreteLaplace::from_ratio(0, 1),
            Err(Error::InvalidScale { .. })
        ));
        assert!(matches!(
            DiscreteLaplace::for_epsilon(1.0, 0),
            Err(Error::InvalidSensitivity { .. })
        ));
        assert!(matches!(
            DiscreteLaplace::for_epsilon(f64::NAN, 1),
            Err(Error::InvalidEpsilon { .. })
        ));
        assert!(matches!(
            DiscreteLaplace::for_epsilon(1e-20, 1),
            Err(Error::UnrepresentableScale { .. })
        ));
        let approx = Privacy::new(1.0, 1e-9).unwrap();
        assert!(matches!(
            DiscreteLaplaceMechanism::new(approx, 1),
            Err(Error::InvalidDelta { .. })
        ));
        let mech = DiscreteLaplaceMechanism::new(Privacy::pure(1.0).unwrap(), 1).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        // i64::MAX plus a non-negative draw overflows for about half of the draws.
        let overflowed = (0..64).any(|_| mech.release(i64::MAX, &mut rng) == Err(Error::Overflow));
        assert!(overflowed);
    }
}
