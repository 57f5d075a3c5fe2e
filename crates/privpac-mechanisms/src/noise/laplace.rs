//! The Laplace mechanism for real-valued queries, made sound for the implementation: the
//! query value is rounded to a power-of-two grid and exact discrete Laplace noise is added
//! in grid units, so the output lies on the grid and every probability is the
//! mathematical one.

use rand::Rng;

use crate::error::validate_sensitivity;
use crate::error::{Error, Result};
use crate::noise::discrete_laplace::DiscreteLaplace;
use privpac_accounting::{Privacy, Private};

/// Grid resolution of the default grid: the grid is `2^-20` of the sensitivity (rounded
/// down to a power of two), unless ε is so small that the noise scale in grid units would
/// leave the exact sampler's range.
const DEFAULT_RESOLUTION_BITS: i32 = 20;
/// `log2` of the largest noise scale the default grid aims for (one bit below the
/// exact sampler's limit of 2^40, see [`DiscreteLaplace::new`]).
const DEFAULT_SCALE_BITS: i32 = 38;

/// The Laplace mechanism for a real-valued query `f` of ℓ1-sensitivity Δ, on a grid
/// `g = 2^-k`: release `g · (round(f(D)/g) + Z)` with `Z ~ Lap_Z(Δ_g/ε)` sampled exactly,
/// where `Δ_g = ⌊Δ/g⌋ + 1` is the sensitivity of the rounded query in grid units.
///
/// This is the discretized Laplace mechanism: the textbook `f(D) + Lap(Δ/ε)` computed in
/// floating point is **not** ε-DP (Mironov, "On significance of the least significant
/// bits for differential privacy", CCS 2012: the set of reachable floating-point outputs
/// depends on `f(D)`), so this mechanism never adds floating-point noise. The output lies
/// on the fixed grid `gℤ` whatever the input, the integer noise is sampled from random bits
/// with exact rational arithmetic ([`DiscreteLaplace`], Canonne–Kamath–Steinke 2020,
/// Algorithm 2), and the only floating-point operations are exact ones (scaling by a
/// power of two, rounding to an integer) or deterministic post-processing of the noisy
/// integer.
///
/// # Privacy
/// ε-differentially private (pure), for the implementation and not only in real
/// arithmetic. Proof:
///
/// * **Neighbouring relation.** Neighbouring datasets `D ~ D'` are those whose query
///   values — the finite `f64` numbers passed to [`Self::release`] — satisfy
///   `|f(D) − f(D')| ≤ Δ` as real numbers and both lie in the range `|f| ≤ 2^61·g`
///   ([`Self::range`]). (If `f` is itself computed in floating point, Δ must bound the
///   sensitivity of the *computed* values.)
/// * **Rounded query.** The mechanism computes `n(D) = round(f(D)·2^k)`, the nearest
///   integer to `f(D)/g` (ties away from zero). Both steps are exact in `f64`: multiplying
///   by `2^k` only changes the exponent (a product below `2^-1022` may lose bits, but then
///   `|f(D)/g| < 1/2` and the result is 0 either way), and `round` is exact.
/// * **Its sensitivity.** `|round(x) − x| ≤ 1/2`, so
///   `|n(D) − n(D')| ≤ |f(D) − f(D')|/g + 1 ≤ Δ/g + 1`, and as an integer it is at most
///   `Δ_g = ⌊Δ/g⌋ + 1` (computed exactly: `Δ·2^k` is exact, its floor is exact). In real
///   units the rounded query `g·n` has sensitivity `g·Δ_g ≤ Δ + g`.
/// * **Ratio bound.** `Z ~ Lap_Z(b)` with `b ≥ Δ_g/ε` (the exact rational `Δ_g/ε`,
///   reading ε as the dyadic its `f64` stores; rounded up if it is not representable), so
///   for every integer `m`,
///   `Pr[n(D) + Z = m] / Pr[n(D') + Z = m] = exp((|m − n(D')| − |m − n(D)|)/b)
///   ≤ exp(|n(D) − n(D')|/b) ≤ exp(Δ_g · ε/Δ_g) = e^ε`
///   (the geometric mechanism: Ghosh, Roughgarden, Sundararajan 2009; Canonne, Kamath,
///   Steinke 2020, Fact 1). So `n(D) + Z` is ε-DP.
/// * **Post-processing.** The released index (or [`Error::Overflow`] when
///   `|n + Z| > 2^62`) and the released `f64` `g·(n + Z)` are deterministic functions of
///   `n(D) + Z`, so they are ε-DP too (Dwork–Roth, Proposition 2.1). The sampler returns
///   `Z' = sgn(Z)·min(|Z|, 2^63 − 1)`; `Z' ≠ Z` only when `|Z| ≥ 2^63`, and then, as
///   `|n| ≤ 2^61`, both `|n + Z|` and `|n + Z'|` exceed `2^63 − 1 − 2^61 > 2^62`, so the
///   computed overflow decision and output equal those of the exact `n + Z`.
///
/// Inputs outside the relation get typed errors that depend on the input, as every
/// input validation does: [`Error::NonFiniteQuery`] for NaN or infinite values and
/// [`Error::QueryOutOfRange`] for `|f(D)| > 2^61·g`. Clamp the query to a public range
/// first if its values can come near [`Self::range`] (with the default grid the range
/// is more than `2^40·Δ`). [`Error::Overflow`] needs `|Z| > 2^61`, which has probability
/// below `exp(-2^21)` for every accepted scale (at most `2^40`).
///
/// # Utility
/// The released value is `f(D) + e + g·Z` with rounding error `|e| ≤ g/2` and noise of
/// scale `g·b ≈ (g·Δ_g)/ε ≤ (Δ + g)/ε`, against `Δ/ε` for the ideal mechanism. The default
/// grid ([`Self::new`]) makes `g ≤ 2^-20·Δ`, so the excess is a factor of at most
/// `1 + 2^-20` (it is coarser only for ε below about `2^-18`, where the exact sampler's
/// scale limit of `2^40` grid units forces it).
///
/// # Running time
/// O(1) expected per release, independent of ε, Δ and the grid.
///
/// # Errors
/// Construction fails on invalid parameters ([`Self::with_grid`]); releases fail on
/// invalid query values or a noisy index outside `±2^62`.
///
/// # Example
/// ```
/// use privpac_mechanisms::{LaplaceMechanism, Privacy, Private};
/// use rand::SeedableRng;
/// let mech = LaplaceMechanism::new(Privacy::pure(1.0)?, 1.0)?;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
/// let noisy = mech.release(42.0, &mut rng)?;
/// // The output lies on the grid 2^-20.
/// assert_eq!(mech.grid(), 2f64.powi(-20));
/// assert_eq!((noisy / mech.grid()).fract(), 0.0);
/// assert_eq!(mech.privacy().epsilon(), 1.0);
///
/// // A coarser grid: multiples of 1/4.
/// let coarse = LaplaceMechanism::with_grid(Privacy::pure(1.0)?, 1.0, 2)?;
/// assert_eq!(coarse.grid_sensitivity(), 5); // ⌊1 / (1/4)⌋ + 1
/// let x = coarse.release(0.3, &mut rng)?;
/// assert_eq!((x * 4.0).fract(), 0.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # References
/// I. Mironov, "On significance of the least significant bits for differential privacy",
/// CCS 2012. C. Canonne, G. Kamath, T. Steinke, "The Discrete Gaussian for Differential
/// Privacy", NeurIPS 2020. A. Ghosh, T. Roughgarden, M. Sundararajan, "Universally
/// utility-maximizing privacy mechanisms", STOC 2009.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LaplaceMechanism {
    privacy: Privacy,
    sensitivity: f64,
    /// `k` in `g = 2^-k`.
    grid_exponent: i32,
    /// `2^k = 1/g`, exact.
    inverse_grid: f64,
    /// `Δ_g = ⌊Δ·2^k⌋ + 1`.
    grid_sensitivity: u64,
    /// `Lap_Z(Δ_g/ε)`.
    noise: DiscreteLaplace,
}

impl LaplaceMechanism {
    /// The smallest accepted `k` (coarsest grid `2^960`).
    pub const MIN_GRID_EXPONENT: i32 = -960;
    /// The largest accepted `k` (finest grid `2^-960`).
    pub const MAX_GRID_EXPONENT: i32 = 960;
    /// The largest accepted grid index `|round(f/g)|` of a query value: `2^61`.
    pub const MAX_GRID_INDEX: i64 = 1 << 61;
    /// The largest released noisy index `|n + Z|`: `2^62`.
    pub const MAX_NOISY_INDEX: i64 = 1 << 62;

    /// Builds the mechanism for a pure guarantee and a sensitivity Δ on the default grid
    /// `g = 2^-k` with `k = j − ⌊log2 Δ⌋`, `j = min(20, max(0, 38 + ⌊log2 ε⌋))` (clamped to
    /// the accepted exponents), so that `Δ/g ∈ [2^j, 2^(j+1))`: `g ≤ 2^-20·Δ` for
    /// ε ≥ 2^-18, and a coarser grid only where ε is so small that `Δ_g/ε` would otherwise
    /// exceed the exact sampler's limit of 2^40 (see the type's `# Utility`).
    ///
    /// # Errors
    /// As [`Self::with_grid`].
    pub fn new(privacy: Privacy, sensitivity: f64) -> Result<Self> {
        let sensitivity = validate_sensitivity(sensitivity)?;
        let resolution =
            (DEFAULT_SCALE_BITS + floor_log2(privacy.epsilon())).clamp(0, DEFAULT_RESOLUTION_BITS);
        let grid_exponent = (resolution - floor_log2(sensitivity))
            .clamp(Self::MIN_GRID_EXPONENT, Self::MAX_GRID_EXPONENT);
        LaplaceMechanism::with_grid(privacy, sensitivity, grid_exponent)
    }

    /// Builds the mechanism on the grid `g = 2^-grid_exponent`.
    ///
    /// A finer grid (larger `k`) rounds less but needs a larger integer scale `Δ_g/ε`; a
    /// grid coarser than Δ adds noise of scale `g/ε > Δ/ε`.
    ///
    /// # Errors
    /// [`Error::InvalidDelta`] if `privacy` is not pure; [`Error::InvalidSensitivity`]
    /// unless Δ is finite and > 0; [`Error::InvalidGridExponent`] outside
    /// [`Self::MIN_GRID_EXPONENT`]`..=`[`Self::MAX_GRID_EXPONENT`];
    /// [`Error::UnrepresentableScale`] when the scale `Δ_g/ε` in grid units exceeds the
    /// exact sampler's limit of 2^40 (choose a coarser grid).
    pub fn with_grid(privacy: Privacy, sensitivity: f64, grid_exponent: i32) -> Result<Self> {
        if !privacy.is_pure() {
            return Err(Error::InvalidDelta {
                value: privacy.delta(),
            });
        }
        let sensitivity = validate_sensitivity(sensitivity)?;
        if !(Self::MIN_GRID_EXPONENT..=Self::MAX_GRID_EXPONENT).contains(&grid_exponent) {
            return Err(Error::InvalidGridExponent {
                value: grid_exponent,
                min: Self::MIN_GRID_EXPONENT,
                max: Self::MAX_GRID_EXPONENT,
            });
        }
        let inverse_grid = power_of_two(grid_exponent);
        // Exact (a power-of-two scaling), or +∞ on overflow, or below 2^-1022 where the
        // floor is 0 either way.
        let scaled = sensitivity * inverse_grid;
        // Never NaN: Δ is finite and positive.
        if scaled >= Self::MAX_NOISY_INDEX as f64 {
            return Err(Error::UnrepresentableScale {
                value: scaled / privacy.epsilon(),
            });
        }
        // ⌊Δ/g⌋ < 2^62, so the cast is exact.
        let grid_sensitivity = scaled.floor() as u64 + 1;
        let noise = DiscreteLaplace::for_epsilon(privacy.epsilon(), grid_sensitivity)?;
        Ok(LaplaceMechanism {
            privacy,
            sensitivity,
            grid_exponent,
            inverse_grid,
            grid_sensitivity,
            noise,
        })
    }

    /// The sensitivity Δ the mechanism was built for.
    pub fn sensitivity(&self) -> f64 {
        self.sensitivity
    }

    /// The grid spacing `g = 2^-k` (exact).
    pub fn grid(&self) -> f64 {
        power_of_two(-self.grid_exponent)
    }

    /// The grid exponent `k` in `g = 2^-k`.
    pub fn grid_exponent(&self) -> i32 {
        self.grid_exponent
    }

    /// `Δ_g = ⌊Δ/g⌋ + 1`, the sensitivity of the rounded query in grid units.
    pub fn grid_sensitivity(&self) -> u64 {
        self.grid_sensitivity
    }

    /// The integer noise `Lap_Z(Δ_g/ε)`, in grid units.
    pub fn noise(&self) -> DiscreteLaplace {
        self.noise
    }

    /// The largest accepted `|f(D)|`: `2^61·g`.
    pub fn range(&self) -> f64 {
        power_of_two(61 - self.grid_exponent)
    }

    /// The grid index `n = round(value/g)` of a query value (ties away from zero), exact.
    ///
    /// # Errors
    /// [`Error::NonFiniteQuery`] for NaN or ±∞; [`Error::QueryOutOfRange`] when
    /// `|value/g| > 2^61`.
    pub fn grid_index(&self, value: f64) -> Result<i64> {
        if !value.is_finite() {
            return Err(Error::NonFiniteQuery { value });
        }
        let scaled = value * self.inverse_grid;
        // Never NaN: the value is finite (an overflow gives ±∞, which is rejected here).
        if scaled.abs() > Self::MAX_GRID_INDEX as f64 {
            return Err(Error::QueryOutOfRange {
                value,
                limit: self.range(),
            });
        }
        // An integer of magnitude at most 2^61: the cast is exact.
        Ok(scaled.round() as i64)
    }

    /// The value `index·g` of a grid index (exact for `|index| ≤ 2^53`; beyond, the index
    /// is rounded to 53 significant bits first).
    pub fn grid_value(&self, index: i64) -> f64 {
        index as f64 * self.grid()
    }

    /// Releases the noisy grid index `round(value/g) + Z`; the private value is
    /// `index·g` ([`Self::grid_value`]).
    ///
    /// # Errors
    /// As [`Self::grid_index`], and [`Error::Overflow`] when the noisy index leaves
    /// `±2^62` (a function of the noisy index, so it does not weaken the guarantee).
    pub fn release_index<R: Rng + ?Sized>(&self, value: f64, rng: &mut R) -> Result<i64> {
        let center = self.grid_index(value)?;
        add_noise(center, self.noise.sample(rng))
    }

    /// Releases `g·(round(value/g) + Z)`, a multiple of the grid `g`.
    ///
    /// # Errors
    /// As [`Self::release_index`].
    pub fn release<R: Rng + ?Sized>(&self, value: f64, rng: &mut R) -> Result<f64> {
        Ok(self.grid_value(self.release_index(value, rng)?))
    }

    /// `Pr[release_index(value) = index]`, computed in floating point from the discrete
    /// Laplace pmf, for audits. It ignores the [`Error::Overflow`] outcome, whose
    /// probability is below `exp(-2^21)`.
    ///
    /// # Errors
    /// As [`Self::grid_index`].
    pub fn index_pmf(&self, value: f64, index: i64) -> Result<f64> {
        let center = self.grid_index(value)?;
        Ok(self.noise.pmf(index.saturating_sub(center)))
    }
}

impl Private for LaplaceMechanism {
    fn privacy(&self) -> Privacy {
        self.privacy
    }
}

/// The noisy index `center + noise`, or [`Error::Overflow`] beyond `±2^62` (see the
/// post-processing step of the proof on [`LaplaceMechanism`]).
fn add_noise(center: i64, noise: i64) -> Result<i64> {
    let noisy = i128::from(center) + i128::from(noise);
    if noisy.abs() > i128::from(LaplaceMechanism::MAX_NOISY_INDEX) {
        return Err(Error::Overflow);
    }
    i64::try_from(noisy).map_err(|_| Error::Overflow)
}

/// `2^exponent` for `|exponent| ≤ 1022`, built from its bits (exact).
fn power_of_two(exponent: i32) -> f64 {
    debug_assert!((-1022..=1023).contains(&exponent));
    f64::from_bits(((exponent + 1023) as u64) << 52)
}

/// `⌊log2 x⌋` for a finite `x > 0`, from the exponent field (−1023 for subnormals, an
/// upper bound there; callers clamp).
fn floor_log2(x: f64) -> i32 {
    let field = ((x.to_bits() >> 52) & 0x7ff) as i32;
    field.max(0) - 1023
}

#[cfg(test)]
mod tests;
