//! The textbook floating-point Laplace sampler, kept as a plain noise distribution and a
//! known-broken baseline: it claims no privacy guarantee (feature
//! `unsound-float-laplace`).

use rand::Rng;
use rand::distr::Distribution;

use crate::error::{Error, Result};

/// The Laplace distribution `Lap(b)` centred at 0, with density `exp(-|x|/b) / (2b)`,
/// sampled in floating point.
///
/// Sampled by inversion, `X = -b · sgn(V) · ln(1 - 2|V|)` with `V` uniform on the grid
/// `{(j + 1/2)/2^53 − 1/2}` built from 53 random bits.
///
/// # Privacy
/// **None.** This type has no [`crate::Private`] impl and must not be used to release
/// `f(D) + X` as a differentially private answer. Mironov ("On significance of the least
/// significant bits for differential privacy", CCS 2012) showed that for this textbook
/// construction the set of floating-point numbers `f(D) + X` can take depends on `f(D)`:
/// the sampled `X` has finitely many, unevenly spaced values, and the rounding of the sum
/// makes many outputs reachable from one input and impossible from a neighbouring one.
/// For a substantial fraction of draws a single output then rules out one of two
/// neighbouring inputs with certainty (the privacy loss is infinite on those outputs),
/// whatever ε the scale was computed from. Mironov's fix is the snapping mechanism; this crate's fix is the grid
/// construction of [`crate::LaplaceMechanism`], whose output lies on a fixed grid and
/// whose noise is sampled exactly.
///
/// The type exists, behind the opt-in cargo feature `unsound-float-laplace`, as a noise
/// distribution for non-private uses (simulation, benchmarks) and as the known-broken
/// mechanism that statistical privacy auditors must be able to catch.
///
/// # Example
/// ```
/// use privpac_mechanisms::Laplace;
/// use rand::SeedableRng;
/// use rand::distr::Distribution;
/// let lap = Laplace::new(2.0)?;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let x = lap.sample(&mut rng);
/// let ys: Vec<f64> = lap.sample_iter(&mut rng).take(3).collect();
/// assert!(x.is_finite() && ys.iter().all(|y| y.is_finite()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Laplace {
    scale: f64,
}

impl Laplace {
    /// Builds `Lap(scale)`.
    ///
    /// # Errors
    /// [`Error::InvalidScale`] unless the scale is finite and > 0.
    pub fn new(scale: f64) -> Result<Self> {
        if scale.is_finite() && scale > 0.0 {
            Ok(Laplace { scale })
        } else {
            Err(Error::InvalidScale { value: scale })
        }
    }

    /// The scale `b`.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// One draw (the same as [`Distribution::sample`]).
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        loop {
            if let Some(x) = self.value_at(rng.next_u64() >> 11) {
                return x;
            }
        }
    }

    /// The draw for 53 random bits `k < 2^53`: `V = (k + 1/2)/2^53 − 1/2`, then the
    /// inversion; `None` at the single point where the logarithm is infinite.
    fn value_at(&self, k: u64) -> Option<f64> {
        let v = (k as f64 + 0.5) / (1u64 << 53) as f64 - 0.5;
        let magnitude = -self.scale * (1.0 - 2.0 * v.abs()).ln();
        magnitude
            .is_finite()
            .then_some(if v < 0.0 { -magnitude } else { magnitude })
    }

    /// The cumulative distribution function.
    pub fn cdf(&self, x: f64) -> f64 {
        if x < 0.0 {
            0.5 * (x / self.scale).exp()
        } else {
            1.0 - 0.5 * (-x / self.scale).exp()
        }
    }
}

impl Distribution<f64> for Laplace {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        Laplace::sample(self, rng)
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    #[test]
    fn samples_follow_the_laplace_cdf() {
        // Kolmogorov–Smirnov at α = 1e-6: a correct sampler fails this seeded test with
        // probability 1e-6 over seeds.
        let lap = Laplace::new(2.5).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut samples: Vec<f64> = (0..100_000).map(|_| lap.sample(&mut rng)).collect();
        let outcome = privpac_audit::ks_test(&mut samples, |x| lap.cdf(x), 1e-6).unwrap();
        assert!(!outcome.rejected, "{outcome:?}");
    }

    #[test]
    fn wrong_scale_is_detected() {
        // The same test must reject samples of the wrong scale: it can fail.
        let lap = Laplace::new(2.5).unwrap();
        let other = Laplace::new(2.0).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut samples: Vec<f64> = (0..100_000).map(|_| other.sample(&mut rng)).collect();
        let outcome = privpac_audit::ks_test(&mut samples, |x| lap.cdf(x), 1e-6).unwrap();
        assert!(outcome.rejected, "{outcome:?}");
    }

    #[test]
    fn distribution_trait_draws_what_the_inherent_method_draws() {
        let lap = Laplace::new(0.7).unwrap();
        let mut a = ChaCha8Rng::seed_from_u64(4);
        let mut b = ChaCha8Rng::seed_from_u64(4);
        let inherent: Vec<f64> = (0..100).map(|_| lap.sample(&mut a)).collect();
        let via_trait: Vec<f64> = Distribution::sample_iter(lap, &mut b).take(100).collect();
        assert_eq!(inherent, via_trait);
        // Through `&dyn`-free generic code as well.
        fn draw<D: Distribution<f64>>(d: &D, rng: &mut ChaCha8Rng) -> f64 {
            d.sample(rng)
        }
        assert_eq!(draw(&lap, &mut a), lap.sample(&mut b));
    }

    /// Whether the float `y` is a possible draw of `lap`: binary search over the 2^53 bit
    /// patterns (the map from bits to draws is non-decreasing) for the first draw ≥ `y`.
    fn is_possible_draw(lap: &Laplace, y: f64) -> bool {
        let at = |k: u64| lap.value_at(k).unwrap_or(f64::INFINITY);
        let (mut lo, mut hi) = (0u64, 1u64 << 53);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if at(mid) < y {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo < 1 << 53 && at(lo) == y
    }

    #[test]
    fn mironov_attack_separates_neighbouring_inputs() {
        // Why this sampler has no privacy claim: release f(D) + X in floating point for
        // the neighbouring values f(D) = 0 and f(D') = 1 (Δ = 1, scale 1, "ε = 1"). Every
        // output of 0 + X is a possible draw; many outputs of 1 + X are not possible
        // outputs of 0 + X at all, so observing one rules out D with certainty (infinite
        // privacy loss). Deterministic for this seed: 1784 of the 2000 outputs are
        // impossible from 0; the test asserts more than half.
        let lap = Laplace::new(1.0).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(2012);
        let draws = 2000;
        let mut impossible_from_zero = 0;
        for _ in 0..draws {
            let x = lap.sample(&mut rng);
            // Control: the search finds every genuine draw, so "impossible" is not an
            // artefact of the search.
            assert!(is_possible_draw(&lap, 0.0 + x), "missed the draw {x}");
            if !is_possible_draw(&lap, 1.0 + x) {
                impossible_from_zero += 1;
            }
        }
        assert!(
            impossible_from_zero * 2 > draws,
            "only {impossible_from_zero} of {draws} outputs of 1 + X are impossible from 0"
        );
    }

    #[test]
    fn invalid_parameters_are_typed_errors() {
        for scale in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(matches!(
                Laplace::new(scale),
                Err(Error::InvalidScale { .. })
            ));
        }
    }
}
