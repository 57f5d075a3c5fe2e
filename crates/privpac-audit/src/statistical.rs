//! Statistical goodness-of-fit tests for samplers: Pearson's χ², the
//! Kolmogorov–Smirnov test and an exact binomial (Clopper–Pearson) test.
//!
//! Exact audits ([`crate::exact`]) check the *distributions* a mechanism claims
//! to sample from; these tests check that a *sampler* really draws from them.
//!
//! # False failures
//!
//! Every test takes a significance level `alpha` ∈ (0, 1), and **α is the
//! false-failure rate**: when the sampler is correct, the test rejects with
//! probability (about) α. Each run of a seeded test is one fixed draw, so a
//! test that passes for its seed keeps passing; α says how likely it was that
//! a correct sampler would have failed for a random seed, and how many seeds
//! a sweep may fail by chance. The χ² and KS p-values are asymptotic (accurate
//! for the sample sizes used in sampler tests); the binomial test is exact and
//! conservative (it rejects with probability *at most* α).
//!
//! The power of a test (its chance of catching a wrong sampler) grows with the
//! sample size. With α = 10⁻³ and a million samples, χ² reliably detects
//! probability errors of a few parts in a thousand in a bin of probability 0.1.
//!
//! # Example
//!
//! ```
//! // Counts of a die rolled 600 times, against the fair die, at α = 10⁻³.
//! let outcome = privpac_audit::chi_square_gof(&[95, 103, 101, 98, 97, 106], &[1.0 / 6.0; 6], 1e-3)?;
//! assert!(!outcome.rejected);
//! assert_eq!(outcome.dof, 5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::f64::consts::PI;

use statrs::distribution::{ChiSquared, ContinuousCDF};

use crate::error::{Error, Result};
use crate::numeric::{
    NORMALIZATION_TOLERANCE, neumaier_sum, validate_alpha, validate_probabilities,
};

/// The smallest expected count of a χ² bin: adjacent bins are merged until
/// each reaches it (Cochran's rule of thumb for the χ² approximation).
pub const MIN_EXPECTED_COUNT: f64 = 5.0;

/// The largest number of distinct values [`chi_square_integer_pmf`] bins (the
/// observed range `max − min + 1`); wider ranges return
/// [`Error::RangeTooLarge`].
pub const MAX_INTEGER_BINS: usize = 1 << 22;

/// The largest number of trials the binomial functions accept (2⁴⁰ ≈ 1.1 · 10¹²).
///
/// Their tails are exact sums whose length grows like the standard deviation
/// `√(n p (1 − p))`; the cap keeps one call well under a second.
pub const MAX_TRIALS: u64 = 1 << 40;

/// The outcome of a χ² goodness-of-fit test.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct GofOutcome {
    /// Pearson's statistic `Σ (observed − expected)² / expected` over the
    /// merged bins; `f64::INFINITY` if a value of probability zero was observed.
    pub statistic: f64,
    /// Degrees of freedom: the number of merged bins minus one.
    pub dof: usize,
    /// The probability that a correct sampler gives a statistic at least this
    /// large (χ² approximation).
    pub p_value: f64,
    /// The significance level the test was run at.
    pub alpha: f64,
    /// Whether `p_value < alpha`.
    pub rejected: bool,
}

/// The outcome of a Kolmogorov–Smirnov test.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct KsOutcome {
    /// The statistic `D = sup_x |F_n(x) − F(x)|`.
    pub statistic: f64,
    /// The number of samples `n`.
    pub sample_size: usize,
    /// The asymptotic Kolmogorov p-value of `D`.
    pub p_value: f64,
    /// The significance level the test was run at.
    pub alpha: f64,
    /// Whether `p_value < alpha`.
    pub rejected: bool,
}

/// Pearson's χ² goodness-of-fit test of observed counts against expected
/// probabilities.
///
/// The expected count of bin `i` is `n · p_i / Σ p` for `n` total counts (the
/// renormalization absorbs the [`NORMALIZATION_TOLERANCE`]). Bins are
/// merged in order, each merged bin taking adjacent bins until its
/// expected count reaches [`MIN_EXPECTED_COUNT`]; a remainder below it joins
/// the last merged bin. The statistic is compared with the χ² distribution with
/// (merged bins − 1) degrees of freedom. A count in a bin of probability zero
/// rejects outright (statistic ∞, p-value 0), however many bins there are:
/// the sampler produced an impossible value.
///
/// **α is the false-failure rate**: a correct sampler is rejected with
/// probability about α (the χ² approximation is good once every merged bin
/// expects at least five counts).
///
/// # Running time
///
/// O(number of bins).
///
/// # Errors
///
/// * [`Error::InvalidAlpha`] unless 0 < α < 1;
/// * [`Error::EmptyDistribution`], [`Error::InvalidProbability`] or
///   [`Error::NotNormalized`] if `expected_probs` is not a probability vector;
/// * [`Error::LengthMismatch`] if the two slices differ in length;
/// * [`Error::EmptySample`] if all counts are zero;
/// * [`Error::TooFewBins`] if fewer than two bins remain after merging (the
///   sample is too small).
///
/// # Example
///
/// ```
/// // 30 heads and 10 tails: χ² = 10 with one degree of freedom.
/// let outcome = privpac_audit::chi_square_gof(&[30, 10], &[0.5, 0.5], 1e-3)?;
/// assert_eq!(outcome.statistic, 10.0);
/// assert!((outcome.p_value - 0.0015654).abs() < 1e-6);
/// assert!(!outcome.rejected); // 0.0016 > α = 0.001
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn chi_square_gof(observed: &[u64], expected_probs: &[f64], alpha: f64) -> Result<GofOutcome> {
    validate_alpha(alpha)?;
    validate_probabilities(expected_probs)?;
    if observed.len() != expected_probs.len() {
        return Err(Error::LengthMismatch {
            left: observed.len(),
            right: expected_probs.len(),
        });
    }
    pearson_test(observed, expected_probs, alpha)
}

/// χ² test of integer samples against a probability mass function with
/// possibly infinite support (discrete Laplace, geometric, binomial, ...).
///
/// One bin per integer in the observed range `[min, max]`, with probability
/// `pmf(k)`, plus one bin for everything outside the range, with probability
/// `1 − Σ_{k=min}^{max} pmf(k)` (its observed count is zero by construction);
/// then the test of [`chi_square_gof`], merging adjacent bins. Because the
/// range comes from the data the test is approximate, as is usual for
/// infinite supports; the tails are covered by the outside bin.
///
/// **α is the false-failure rate**: a correct sampler is rejected with
/// probability about α.
///
/// # Running time
///
/// O(samples + (max − min)) plus `max − min + 1` calls of `pmf`.
///
/// # Errors
///
/// * [`Error::InvalidAlpha`] unless 0 < α < 1;
/// * [`Error::EmptySample`] if `samples` is empty;
/// * [`Error::RangeTooLarge`] if `max − min + 1` exceeds [`MAX_INTEGER_BINS`];
/// * [`Error::InvalidPmfValue`] if `pmf` returns NaN or a value outside [0, 1];
/// * [`Error::NotNormalized`] if the pmf over the range sums to more than one
///   (beyond [`NORMALIZATION_TOLERANCE`]);
/// * [`Error::TooFewBins`] as in [`chi_square_gof`].
///
/// # Example
///
/// ```
/// // Geometric counts P(k) = 2^-(k+1) on k ≥ 0.
/// let samples = [0, 0, 0, 0, 1, 0, 2, 1, 0, 1, 0, 3, 0, 0, 1, 0, 1, 2, 0, 0];
/// let pmf = |k: i64| if k < 0 { 0.0 } else { 0.5_f64.powi(k as i32 + 1) };
/// let outcome = privpac_audit::chi_square_integer_pmf(&samples, pmf, 1e-3)?;
/// assert!(!outcome.rejected);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn chi_square_integer_pmf(
    samples: &[i64],
    pmf: impl Fn(i64) -> f64,
    alpha: f64,
) -> Result<GofOutcome> {
    validate_alpha(alpha)?;
    let (Some(&min), Some(&max)) = (samples.iter().min(), samples.iter().max()) else {
        return Err(Error::EmptySample);
    };
    let span = i128::from(max) - i128::from(min) + 1;
    let span = match usize::try_from(span) {
        Ok(span) if span <= MAX_INTEGER_BINS => span,
        _ => return Err(Error::RangeTooLarge { min, max }),
    };
    // One bin per value in [min, max], then the outside-the-range bin.
    let mut counts = vec![0_u64; span + 1];
    for &sample in samples {
        let offset = i128::from(sample) - i128::from(min);
        // In range by construction of min and max.
        if let Some(count) = usize::try_from(offset)
            .ok()
            .and_then(|offset| counts.get_mut(offset))
        {
            *count += 1;
        }
    }
    let mut probabilities = Vec::with_capacity(span + 1);
    for point in min..=max {
        let value = pmf(point);
        if !(0.0..=1.0).contains(&value) {
            return Err(Error::InvalidPmfValue { point, value });
        }
        probabilities.push(value);
    }
    let covered = neumaier_sum(probabilities.iter().copied());
    if covered > 1.0 + NORMALIZATION_TOLERANCE {
        return Err(Error::NotNormalized { sum: covered });
    }
    probabilities.push((1.0 - covered).max(0.0));
    pearson_test(&counts, &probabilities, alpha)
}

/// One-sample Kolmogorov–Smirnov test of `samples` against a continuous CDF.
///
/// Sorts `samples` in place, computes `D = sup_x |F_n(x) − F(x)|` and its
/// p-value from the asymptotic Kolmogorov distribution
/// `P(K > t) = 2 Σ_{k≥1} (−1)^{k−1} e^{−2k²t²}` at
/// `t = D (√n + 0.12 + 0.11/√n)` (Stephens' correction, which keeps the
/// approximation usable for small n). For small t the equivalent
/// Jacobi-theta series `1 − (√(2π)/t) Σ_{k≥1} e^{−(2k−1)²π²/(8t²)}` is summed
/// instead, so both converge in four terms.
///
/// The CDF must be continuous: for discrete distributions (ties in the sample)
/// the test is conservative and loses power; use [`chi_square_integer_pmf`].
///
/// **α is the false-failure rate**: a correct sampler is rejected with
/// probability about α.
///
/// # Running time
///
/// O(n log n) for the sort, plus n calls of `cdf`.
///
/// # Errors
///
/// * [`Error::InvalidAlpha`] unless 0 < α < 1;
/// * [`Error::EmptySample`] if `samples` is empty;
/// * [`Error::InvalidSample`] if a sample is NaN (infinities are allowed);
/// * [`Error::InvalidCdfValue`] if `cdf` returns NaN or a value outside [0, 1].
///
/// # Example
///
/// ```
/// let mut samples = [0.11, 0.93, 0.42, 0.57, 0.25, 0.78, 0.64, 0.05, 0.36, 0.89];
/// let outcome = privpac_audit::ks_test(&mut samples, |x| x.clamp(0.0, 1.0), 1e-3)?;
/// assert!(!outcome.rejected);
/// assert_eq!(samples[0], 0.05); // sorted in place
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # References
///
/// * M. A. Stephens. *Use of the Kolmogorov–Smirnov, Cramér–von Mises and
///   related statistics without extensive tables.* JRSS B, 1970.
/// * W. H. Press et al. *Numerical Recipes*, 3rd ed., §6.14 and §14.3.3.
pub fn ks_test(samples: &mut [f64], cdf: impl Fn(f64) -> f64, alpha: f64) -> Result<KsOutcome> {
    validate_alpha(alpha)?;
    if samples.is_empty() {
        return Err(Error::EmptySample);
    }
    if let Some((index, &value)) = samples.iter().enumerate().find(|(_, value)| value.is_nan()) {
        return Err(Error::InvalidSample { index, value });
    }
    samples.sort_unstable_by(f64::total_cmp);
    let n = samples.len() as f64;
    let mut statistic = 0.0_f64;
    for (index, &point) in samples.iter().enumerate() {
        let value = cdf(point);
        if !(0.0..=1.0).contains(&value) {
            return Err(Error::InvalidCdfValue { point, value });
        }
        let below = index as f64 / n;
        let above = (index + 1) as f64 / n;
        statistic = statistic.max(value - below).max(above - value);
    }
    let sqrt_n = n.sqrt();
    let p_value = kolmogorov_survival((sqrt_n + 0.12 + 0.11 / sqrt_n) * statistic);
    Ok(KsOutcome {
        statistic,
        sample_size: samples.len(),
        p_value,
        alpha,
        rejected: p_value < alpha,
    })
}

/// The exact (Clopper–Pearson) two-sided confidence interval for a binomial
/// success probability, at the given confidence level.
///
/// The lower end `p_L` solves `P(X ≥ successes | p_L) = (1 − confidence) / 2`
/// and the upper end `p_U` solves `P(X ≤ successes | p_U) = (1 − confidence) / 2`
/// for `X ~ Binomial(trials, p)`; the ends are 0 and 1 when there are no
/// successes or no failures. The interval covers the true p with probability
/// at least `confidence`.
///
/// The ends are the beta quantiles of the textbook formula, but computed by
/// bisection to adjacent floats on exact binomial tails (Loader's saddle-point
/// binomial probabilities summed outward), and rounded outward. statrs'
/// `Beta::inverse_cdf` is not used because it does not terminate for some
/// large shape parameters (for example 10 successes in 10⁷ trials).
///
/// # Running time
///
/// About 64 tail evaluations of O(√(trials · p (1 − p)) + 1) each.
///
/// # Errors
///
/// * [`Error::ZeroTrials`], [`Error::TooManyTrials`] (above [`MAX_TRIALS`]) or
///   [`Error::SuccessesExceedTrials`] for impossible counts;
/// * [`Error::InvalidConfidence`] unless 0 < confidence < 1.
///
/// # Example
///
/// ```
/// let (low, high) = privpac_audit::clopper_pearson(5, 10, 0.95)?;
/// assert!((low - 0.187086).abs() < 1e-6 && (high - 0.812914).abs() < 1e-6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # References
///
/// * C. J. Clopper and E. S. Pearson. *The use of confidence or fiducial limits
///   illustrated in the case of the binomial.* Biometrika, 1934.
/// * C. Loader. *Fast and accurate computation of binomial probabilities.*
///   2000.
pub fn clopper_pearson(successes: u64, trials: u64, confidence: f64) -> Result<(f64, f64)> {
    validate_counts(successes, trials)?;
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(Error::InvalidConfidence { value: confidence });
    }
    let tail_target = (1.0 - confidence) / 2.0;
    let estimate = successes as f64 / trials as f64;
    let lower = if successes == 0 {
        0.0
    } else {
        // P(X ≥ successes | p) increases in p; it is 0 at p = 0 and at least
        // 1/2 at the estimate (the median of Binomial(n, k/n) is k).
        bisect(0.0, estimate, |p| {
            upper_tail(successes, trials, p, 1.0 - p) < tail_target
        })
        .0
    };
    let upper = if successes == trials {
        1.0
    } else {
        // P(X ≤ successes | p) decreases in p, from at least 1/2 at the estimate
        // to 0 at p = 1.
        bisect(estimate, 1.0, |p| {
            lower_tail(successes, trials, p, 1.0 - p) >= tail_target
        })
        .1
    };
    Ok((lower, upper))
}

/// The two-sided exact binomial p-value of observing `successes` in `trials`
/// if the success probability is `p`: `min(1, 2 · min(P(X ≤ successes), P(X ≥
/// successes)))` for `X ~ Binomial(trials, p)` (the "central" p-value, dual to
/// the [`clopper_pearson`] interval).
///
/// # Errors
///
/// The count errors of [`clopper_pearson`], and
/// [`Error::InvalidSuccessProbability`] if `p` is NaN or outside [0, 1].
///
/// # Example
///
/// ```
/// // 30 heads in 100 fair flips.
/// let p_value = privpac_audit::binomial_p_value(30, 100, 0.5)?;
/// assert!((p_value - 7.8501e-5).abs() < 1e-9);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn binomial_p_value(successes: u64, trials: u64, p: f64) -> Result<f64> {
    validate_counts(successes, trials)?;
    if !(0.0..=1.0).contains(&p) {
        return Err(Error::InvalidSuccessProbability { value: p });
    }
    let q = 1.0 - p;
    let smaller_tail = lower_tail(successes, trials, p, q).min(upper_tail(successes, trials, p, q));
    Ok((2.0 * smaller_tail).min(1.0))
}

/// Whether `successes` in `trials` is consistent with success probability `p`:
/// true iff `p` lies in the [`clopper_pearson`] interval at confidence 1 − α,
/// i.e. iff [`binomial_p_value`] ≥ α.
///
/// Use it to check that an event (a sampler's output landing in a set, a bad
/// event of a mechanism) happens with its claimed probability.
///
/// **α is the false-failure rate**: a correct sampler is rejected with
/// probability at most α (the test is exact and conservative).
///
/// # Errors
///
/// The errors of [`binomial_p_value`], and [`Error::InvalidAlpha`] unless
/// 0 < α < 1.
///
/// # Example
///
/// ```
/// assert!(privpac_audit::binomial_within(4_980, 10_000, 0.5, 1e-3)?);
/// assert!(!privpac_audit::binomial_within(4_500, 10_000, 0.5, 1e-3)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn binomial_within(successes: u64, trials: u64, p: f64, alpha: f64) -> Result<bool> {
    validate_alpha(alpha)?;
    Ok(binomial_p_value(successes, trials, p)? >= alpha)
}

/// The shared χ² computation: `probabilities` are validated up to the
/// normalization tolerance and renormalized here.
fn pearson_test(observed: &[u64], probabilities: &[f64], alpha: f64) -> Result<GofOutcome> {
    let total: u128 = observed.iter().map(|&count| u128::from(count)).sum();
    if total == 0 {
        return Err(Error::EmptySample);
    }
    let sample_size = total as f64;
    let probability_sum = neumaier_sum(probabilities.iter().copied());
    let impossible_observed = observed
        .iter()
        .zip(probabilities)
        .any(|(&count, &probability)| count > 0 && probability == 0.0);

    // (expected, observed) per merged bin.
    let mut bins: Vec<(f64, u128)> = Vec::new();
    let (mut expected, mut counted) = (0.0_f64, 0_u128);
    for (&count, &probability) in observed.iter().zip(probabilities) {
        expected += sample_size * (probability / probability_sum);
        counted += u128::from(count);
        if expected >= MIN_EXPECTED_COUNT {
            bins.push((expected, counted));
            (expected, counted) = (0.0, 0);
        }
    }
    if expected > 0.0 || counted > 0 {
        match bins.last_mut() {
            Some(last) => {
                last.0 += expected;
                last.1 += counted;
            }
            None => bins.push((expected, counted)),
        }
    }
    let dof = bins.len().saturating_sub(1);
    if impossible_observed {
        return Ok(GofOutcome {
            statistic: f64::INFINITY,
            dof,
            p_value: 0.0,
            alpha,
            rejected: true,
        });
    }
    if bins.len() < 2 {
        return Err(Error::TooFewBins { bins: bins.len() });
    }
    let statistic = neumaier_sum(bins.iter().map(|&(expected, counted)| {
        let difference = counted as f64 - expected;
        difference * difference / expected
    }));
    let p_value = chi_square_survival(statistic, dof);
    Ok(GofOutcome {
        statistic,
        dof,
        p_value,
        alpha,
        rejected: p_value < alpha,
    })
}

/// `P(χ²_dof > statistic)` for `dof ≥ 1`.
fn chi_square_survival(statistic: f64, dof: usize) -> f64 {
    if statistic <= 0.0 {
        return 1.0;
    }
    if !statistic.is_finite() {
        return 0.0;
    }
    // `dof ≥ 1`, so construction cannot fail; if it did, reject (p = 0)
    // rather than silently pass.
    ChiSquared::new(dof as f64).map_or(0.0, |distribution| distribution.sf(statistic))
}

/// `P(K > t)` for the Kolmogorov distribution.
fn kolmogorov_survival(t: f64) -> f64 {
    if t.is_nan() || t <= 0.0 {
        1.0
    } else if t < 1.18 {
        kolmogorov_survival_small(t)
    } else {
        kolmogorov_survival_large(t)
    }
}

/// `1 − (√(2π)/t) Σ_{k≥1} e^{−(2k−1)²π²/(8t²)}`, accurate for `t < 1.18`.
fn kolmogorov_survival_small(t: f64) -> f64 {
    let w = (-PI * PI / (8.0 * t * t)).exp();
    let series = w + w.powi(9) + w.powi(25) + w.powi(49);
    (1.0 - (2.0 * PI).sqrt() / t * series).clamp(0.0, 1.0)
}

/// `2 Σ_{k≥1} (−1)^{k−1} e^{−2k²t²}`, accurate for `t ≥ 1.18`.
fn kolmogorov_survival_large(t: f64) -> f64 {
    let x = (-2.0 * t * t).exp();
    (2.0 * (x - x.powi(4) + x.powi(9) - x.powi(16))).clamp(0.0, 1.0)
}

fn validate_counts(successes: u64, trials: u64) -> Result<()> {
    if trials == 0 {
        return Err(Error::ZeroTrials);
    }
    if trials > MAX_TRIALS {
        return Err(Error::TooManyTrials { trials });
    }
    if successes > trials {
        return Err(Error::SuccessesExceedTrials { successes, trials });
    }
    Ok(())
}

/// Bisects `[low, high]` (0 ≤ low < high ≤ 1) down to adjacent floats, where
/// `is_low(x)` is true below some threshold and false above it; returns the
/// final `(low, high)`. Works on bit patterns, which order non-negative floats,
/// so tiny thresholds get full relative precision.
fn bisect(low: f64, high: f64, is_low: impl Fn(f64) -> bool) -> (f64, f64) {
    let (mut low_bits, mut high_bits) = (low.to_bits(), high.to_bits());
    while high_bits - low_bits > 1 {
        let middle_bits = low_bits + (high_bits - low_bits) / 2;
        if is_low(f64::from_bits(middle_bits)) {
            low_bits = middle_bits;
        } else {
            high_bits = middle_bits;
        }
    }
    (f64::from_bits(low_bits), f64::from_bits(high_bits))
}

/// `P(X ≤ k)` for `X ~ Binomial(n, p)`, given `q = 1 − p`.
fn lower_tail(k: u64, n: u64, p: f64, q: f64) -> f64 {
    // X ≤ k iff n − X ≥ n − k, and n − X ~ Binomial(n, q).
    upper_tail(n - k, n, q, p)
}

/// `P(X ≥ k)` for `X ~ Binomial(n, p)` with `k ≤ n ≤ MAX_TRIALS`, given
/// `q = 1 − p`.
///
/// Sums the pmf from `k` away from the mean when `k` is above the mean, and
/// otherwise returns one minus the sum below `k`; either way the terms decrease
/// and the sum stops once they no longer change it.
fn upper_tail(k: u64, n: u64, p: f64, q: f64) -> f64 {
    if k == 0 || q == 0.0 {
        return 1.0;
    }
    if p == 0.0 {
        return 0.0;
    }
    let odds = p / q;
    if k as f64 > n as f64 * p {
        let mut term = binomial_pmf(k, n, p, q);
        let mut sum = term;
        let mut j = k;
        while j < n && term > sum * 1e-18 {
            term *= (n - j) as f64 / (j + 1) as f64 * odds;
            sum += term;
            j += 1;
        }
        sum.min(1.0)
    } else {
        let mut j = k - 1;
        let mut term = binomial_pmf(j, n, p, q);
        let mut sum = term;
        while j > 0 && term > sum * 1e-18 {
            term *= j as f64 / (n - j + 1) as f64 / odds;
            sum += term;
            j -= 1;
        }
        (1.0 - sum).max(0.0)
    }
}

/// `P(X = k)` for `X ~ Binomial(n, p)`, given `q = 1 − p`, by Loader's
/// saddle-point formula, accurate to a few ulps for any `n`.
fn binomial_pmf(k: u64, n: u64, p: f64, q: f64) -> f64 {
    let (k_f, n_f) = (k as f64, n as f64);
    if k == 0 {
        let log = if p < 0.1 {
            -deviance(n_f, n_f * q) - n_f * p
        } else {
            n_f * q.ln()
        };
        return log.exp();
    }
    if k == n {
        let log = if q < 0.1 {
            -deviance(n_f, n_f * p) - n_f * q
        } else {
            n_f * p.ln()
        };
        return log.exp();
    }
    let failures = (n - k) as f64;
    let log = stirling_error(n_f)
        - stirling_error(k_f)
        - stirling_error(failures)
        - deviance(k_f, n_f * p)
        - deviance(failures, n_f * q);
    let log_normalizer = (2.0 * PI).ln() + k_f.ln() + (-k_f / n_f).ln_1p();
    (log - 0.5 * log_normalizer).exp()
}

/// `ln n! − ln(√(2π n) (n/e)^n)` for integers `n ≥ 1`.
fn stirling_error(n: f64) -> f64 {
    const SMALL: [f64; 15] = [
        0.08106146679532726,
        0.0413406959554093,
        0.02767792568499834,
        0.020790672103765093,
        0.016644691189821193,
        0.013876128823070748,
        0.01189670994589177,
        0.010411265261972096,
        0.009255462182712733,
        0.00833056343336287,
        0.007573675487951841,
        0.00694284010720953,
        0.006408994188004207,
        0.0059513701127588475,
        0.005554733551962801,
    ];
    const S0: f64 = 1.0 / 12.0;
    const S1: f64 = 1.0 / 360.0;
    const S2: f64 = 1.0 / 1260.0;
    const S3: f64 = 1.0 / 1680.0;
    const S4: f64 = 1.0 / 1188.0;
    if n <= 15.0 {
        // Integer in 1..=15: the truncation is exact.
        return SMALL[(n as usize).clamp(1, 15) - 1];
    }
    let nn = n * n;
    if n > 500.0 {
        (S0 - S1 / nn) / n
    } else if n > 80.0 {
        (S0 - (S1 - S2 / nn) / nn) / n
    } else if n > 35.0 {
        (S0 - (S1 - (S2 - S3 / nn) / nn) / nn) / n
    } else {
        (S0 - (S1 - (S2 - (S3 - S4 / nn) / nn) / nn) / nn) / n
    }
}

/// The deviance term `x ln(x / m) + m − x` of Loader's formula, computed
/// without cancellation when `x ≈ m`.
fn deviance(x: f64, mean: f64) -> f64 {
    if (x - mean).abs() < 0.1 * (x + mean) {
        let mut v = (x - mean) / (x + mean);
        let mut sum = (x - mean) * v;
        if sum.abs() < f64::MIN_POSITIVE {
            return sum;
        }
        let mut term = 2.0 * x * v;
        v *= v;
        for j in 1..1000 {
            term *= v;
            let next = sum + term / f64::from(2 * j + 1);
            if next == sum {
                return next;
            }
            sum = next;
        }
    }
    x * (x / mean).ln() + mean - x
}

#[cfg(test)]
mod tests;
