//! Tests of the statistical audits: hand-computed statistics, reference values
//! from high-precision (mpmath, 50 digits) computations, seeded samplers that
//! must pass and biased ones that must fail, every error variant, and no-panic
//! property tests.
//!
//! Seeded tests are deterministic: they pass or fail for their fixed seed
//! every time. The α of each states how likely a correct sampler would have
//! failed for a random seed.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::error::Error;
use crate::statistical::{
    GofOutcome, KsOutcome, MAX_INTEGER_BINS, MAX_TRIALS, binomial_p_value, binomial_within,
    chi_square_gof, chi_square_integer_pmf, clopper_pearson, kolmogorov_survival,
    kolmogorov_survival_large, kolmogorov_survival_small, ks_test,
};

/// Significance level of the seeded sampler tests: a correct sampler fails one
/// of them for one random seed in a thousand.
const ALPHA: f64 = 1e-3;

#[track_caller]
fn assert_relative(actual: f64, expected: f64, relative: f64) {
    assert!(
        actual == expected || (actual - expected).abs() <= relative * expected.abs(),
        "{actual} is not within relative {relative} of {expected}"
    );
}

// ---------------------------------------------------------------------------
// chi_square_gof

#[track_caller]
fn check_gof(observed: &[u64], probabilities: &[f64], statistic: f64, dof: usize, p_value: f64) {
    let outcome = chi_square_gof(observed, probabilities, ALPHA).unwrap();
    assert_relative(outcome.statistic, statistic, 1e-12);
    assert_eq!(outcome.dof, dof, "{outcome:?}");
    assert_relative(outcome.p_value, p_value, 1e-9);
    assert_eq!(outcome.alpha, ALPHA);
    assert_eq!(outcome.rejected, p_value < ALPHA);
}

#[test]
fn gof_by_hand_one_degree_of_freedom() {
    // χ² = (10² + 10²) / 20 = 10; P(χ²₁ > 10) = erfc(√5).
    check_gof(&[30, 10], &[0.5, 0.5], 10.0, 1, 0.0015654022580025497);
}

#[test]
fn gof_by_hand_two_degrees_of_freedom() {
    // Expected 20, 20, 20: χ² = (100 + 0 + 100) / 20 = 10; P(χ²₂ > x) = e^{-x/2}.
    check_gof(&[30, 20, 10], &[1.0 / 3.0; 3], 10.0, 2, (-5.0_f64).exp());
}

#[test]
fn gof_perfect_fit() {
    let outcome = chi_square_gof(&[10, 20, 30], &[1.0 / 6.0, 2.0 / 6.0, 3.0 / 6.0], ALPHA).unwrap();
    assert!(outcome.statistic < 1e-25, "{outcome:?}");
    assert_relative(outcome.p_value, 1.0, 1e-12);
    assert!(!outcome.rejected);
}

#[test]
fn gof_merges_small_leading_bins() {
    // Expected 2, 2, 2, 94: the first three merge into one bin of 6.
    let outcome = chi_square_gof(&[2, 2, 2, 94], &[0.02, 0.02, 0.02, 0.94], ALPHA).unwrap();
    assert_eq!(outcome.dof, 1);
}

#[test]
fn gof_merges_small_remainder_into_last_bin() {
    // Expected 50, 46, 2, 2: the trailing 4 joins the 46. Observed 40 vs 50
    // and 60 vs 50: χ² = 2 + 2 = 4.
    check_gof(
        &[40, 56, 2, 2],
        &[0.5, 0.46, 0.02, 0.02],
        4.0,
        1,
        0.0455002638963584,
    );
}

#[test]
fn gof_impossible_value_rejects_outright() {
    let outcome = chi_square_gof(&[10, 10, 1], &[0.5, 0.5, 0.0], ALPHA).unwrap();
    assert_eq!(
        outcome,
        GofOutcome {
            statistic: f64::INFINITY,
            dof: 1,
            p_value: 0.0,
            alpha: ALPHA,
            rejected: true
        }
    );
}

#[test]
fn gof_zero_probability_bins_without_counts_are_fine() {
    check_gof(
        &[30, 0, 10],
        &[0.5, 0.0, 0.5],
        10.0,
        1,
        0.0015654022580025497,
    );
}

/// Rolls `n_rolls` dice from `faces`, counting each of the six faces.
fn roll(seed: u64, n_rolls: usize, sample_face: impl Fn(&mut ChaCha8Rng) -> usize) -> [u64; 6] {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut counts = [0; 6];
    for _ in 0..n_rolls {
        counts[sample_face(&mut rng)] += 1;
    }
    counts
}

#[test]
fn gof_fair_die_passes() {
    // False-failure rate α = 1e-3 for a random seed; deterministic for this one.
    let counts = roll(20240601, 60_000, |rng| rng.random_range(0..6));
    let outcome = chi_square_gof(&counts, &[1.0 / 6.0; 6], ALPHA).unwrap();
    assert!(!outcome.rejected, "{outcome:?} for counts {counts:?}");
}

#[test]
fn gof_biased_die_fails() {
    // A die that turns a 6 into a 1 one time in ten: probabilities 0.183 and
    // 0.15 instead of 0.167. The expected statistic is about 200 against a
    // critical value of 20.5 (5 degrees of freedom, α = 1e-3).
    let counts = roll(20240601, 60_000, |rng| {
        let face = rng.random_range(0..6);
        if face == 5 && rng.random_bool(0.1) {
            0
        } else {
            face
        }
    });
    let outcome = chi_square_gof(&counts, &[1.0 / 6.0; 6], ALPHA).unwrap();
    assert!(outcome.rejected, "{outcome:?} for counts {counts:?}");
    assert!(outcome.p_value < 1e-20, "{outcome:?}");
}

// ---------------------------------------------------------------------------
// chi_square_integer_pmf

/// Discrete Laplace on the integers: P(k) ∝ q^|k| with q = e^(−1/scale).
fn discrete_laplace_pmf(scale: f64) -> impl Fn(i64) -> f64 {
    let q = (-1.0 / scale).exp();
    move |k: i64| (1.0 - q) / (1.0 + q) * q.powf(k.unsigned_abs() as f64)
}

/// Samples discrete Laplace as the difference of two geometric variables,
/// each drawn by inversion. A test helper, not a production sampler.
fn discrete_laplace_samples(seed: u64, scale: f64, n_samples: usize) -> Vec<i64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let ln_q = -1.0 / scale;
    let geometric = |rng: &mut ChaCha8Rng| {
        let uniform: f64 = 1.0 - rng.random::<f64>(); // in (0, 1]
        (uniform.ln() / ln_q).floor() as i64
    };
    (0..n_samples)
        .map(|_| geometric(&mut rng) - geometric(&mut rng))
        .collect()
}

#[test]
fn integer_pmf_correct_discrete_laplace_passes() {
    // False-failure rate α = 1e-3 for a random seed; deterministic for this one.
    let samples = discrete_laplace_samples(7, 3.0, 100_000);
    let outcome = chi_square_integer_pmf(&samples, discrete_laplace_pmf(3.0), ALPHA).unwrap();
    assert!(!outcome.rejected, "{outcome:?}");
    assert!(outcome.dof > 20, "{outcome:?}");
}

#[test]
fn integer_pmf_wrong_scale_fails() {
    // Samples with scale 3 tested against scale 3.3: a 10% error in the scale.
    let samples = discrete_laplace_samples(7, 3.0, 100_000);
    let outcome = chi_square_integer_pmf(&samples, discrete_laplace_pmf(3.3), ALPHA).unwrap();
    assert!(outcome.rejected, "{outcome:?}");
}

#[test]
fn integer_pmf_value_outside_support_rejects_outright() {
    // Even values only, but the sampler produced a 1.
    let pmf = |k: i64| if k == 0 || k == 2 { 0.5 } else { 0.0 };
    let samples: Vec<i64> = [0; 50].into_iter().chain([2; 50]).chain([1]).collect();
    let outcome = chi_square_integer_pmf(&samples, pmf, ALPHA).unwrap();
    assert!(outcome.rejected && outcome.p_value == 0.0, "{outcome:?}");
}

#[test]
fn integer_pmf_by_hand() {
    // Bins 0, 1 with probabilities 0.5, 0.3 and the outside bin 0.2: expected
    // 50, 30, 20 for 100 samples, observed 60, 40, 0. χ² = 2 + 10/3 + 20.
    let pmf = |k: i64| match k {
        0 => 0.5,
        1 => 0.3,
        2 => 0.2,
        _ => 0.0,
    };
    let samples: Vec<i64> = [0; 60].into_iter().chain([1; 40]).collect();
    let outcome = chi_square_integer_pmf(&samples, pmf, ALPHA).unwrap();
    assert_relative(outcome.statistic, 2.0 + 10.0 / 3.0 + 20.0, 1e-12);
    assert_eq!(outcome.dof, 2);
    assert!(outcome.rejected);
}

// ---------------------------------------------------------------------------
// ks_test and the Kolmogorov distribution

#[track_caller]
fn check_kolmogorov(t: f64, expected: f64) {
    assert_relative(kolmogorov_survival(t), expected, 1e-12);
}

#[test]
fn kolmogorov_reference_values() {
    // P(K > t) from mpmath at 50 digits.
    check_kolmogorov(0.3, 0.9999906941986655);
    check_kolmogorov(0.5, 0.9639452436648751);
    check_kolmogorov(1.0, 0.2699996716773545);
    check_kolmogorov(1.18, 0.12345380942976568);
    check_kolmogorov(1.36, 0.04948587675537791);
    check_kolmogorov(2.0, 0.0006709252557796953);
    check_kolmogorov(3.0, 3.045995948942526e-08);
}

#[test]
fn kolmogorov_series_agree_at_switch_point() {
    for t in [1.0, 1.1, 1.18, 1.3] {
        assert_relative(
            kolmogorov_survival_small(t),
            kolmogorov_survival_large(t),
            1e-13,
        );
    }
}

#[test]
fn kolmogorov_extremes() {
    assert_eq!(kolmogorov_survival(0.0), 1.0);
    assert_eq!(kolmogorov_survival(0.01), 1.0);
    assert_eq!(kolmogorov_survival(100.0), 0.0);
    assert_eq!(kolmogorov_survival(f64::INFINITY), 0.0);
}

#[track_caller]
fn check_ks_statistic(samples: &[f64], statistic: f64) {
    let outcome = ks_test(&mut samples.to_vec(), |x| x.clamp(0.0, 1.0), ALPHA).unwrap();
    assert_relative(outcome.statistic, statistic, 1e-15);
    assert_eq!(outcome.sample_size, samples.len());
}

#[test]
fn ks_statistic_by_hand() {
    // One sample at 0.5: the empirical CDF jumps from 0 to 1 where F = 0.5.
    check_ks_statistic(&[0.5], 0.5);
    // Samples 0.1, 0.6: max(0.1 − 0, 0.5 − 0.1, 0.6 − 0.5, 1 − 0.6) = 0.4.
    check_ks_statistic(&[0.6, 0.1], 0.4);
    // A sample beyond the support: F(∞) = 1.
    check_ks_statistic(&[f64::INFINITY], 1.0);
}

fn uniform_samples(seed: u64, n_samples: usize) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n_samples).map(|_| rng.random::<f64>()).collect()
}

#[test]
fn ks_correct_uniform_passes() {
    // False-failure rate α = 1e-3 for a random seed; deterministic for this one.
    let mut samples = uniform_samples(11, 10_000);
    let outcome = ks_test(&mut samples, |x| x.clamp(0.0, 1.0), ALPHA).unwrap();
    assert!(!outcome.rejected, "{outcome:?}");
}

#[test]
fn ks_correct_exponential_passes() {
    // Exponential(1) by inversion. False-failure rate α = 1e-3.
    let mut samples: Vec<f64> = uniform_samples(12, 10_000)
        .into_iter()
        .map(|u| -(1.0 - u).ln())
        .collect();
    let outcome = ks_test(
        &mut samples,
        |x| if x <= 0.0 { 0.0 } else { -(-x).exp_m1() },
        ALPHA,
    )
    .unwrap();
    assert!(!outcome.rejected, "{outcome:?}");
}

#[test]
fn ks_wrong_distribution_fails() {
    // Uniform samples against F(x) = x²: D ≈ 1/4 with 10,000 samples.
    let mut samples = uniform_samples(11, 10_000);
    let outcome = ks_test(&mut samples, |x| x.clamp(0.0, 1.0).powi(2), ALPHA).unwrap();
    assert!(outcome.rejected && outcome.p_value < 1e-100, "{outcome:?}");
}

// ---------------------------------------------------------------------------
// clopper_pearson, binomial_p_value, binomial_within

#[track_caller]
fn check_clopper_pearson(successes: u64, trials: u64, confidence: f64, low: f64, high: f64) {
    let (actual_low, actual_high) = clopper_pearson(successes, trials, confidence).unwrap();
    assert_relative(actual_low, low, 1e-10);
    assert_relative(actual_high, high, 1e-10);
    // Mirror image: failures instead of successes.
    let (mirror_low, mirror_high) =
        clopper_pearson(trials - successes, trials, confidence).unwrap();
    assert!((mirror_low - (1.0 - high)).abs() < 1e-15 && (mirror_high - (1.0 - low)).abs() < 1e-15);
}

#[test]
fn clopper_pearson_reference_values() {
    // Reference ends from mpmath at 50 digits.
    check_clopper_pearson(0, 10, 0.95, 0.0, 0.30849710781876083);
    check_clopper_pearson(5, 10, 0.95, 0.18708602844739852, 0.8129139715526015);
    check_clopper_pearson(50, 100, 0.999, 0.33558193719052315, 0.6644180628094768);
    check_clopper_pearson(1, 1000, 0.99, 5.0125292607775065e-06, 0.007406286938352938);
    check_clopper_pearson(3000, 10_000, 0.999, 0.28502669169379846, 0.3152766951657622);
}

#[test]
fn clopper_pearson_rare_events_in_many_trials() {
    // statrs' Beta::inverse_cdf does not terminate on this one.
    check_clopper_pearson(
        10,
        10_000_000,
        0.999,
        2.6990339563591124e-07,
        2.5255540114886878e-06,
    );
}

#[test]
fn clopper_pearson_no_successes_closed_form() {
    // With no successes the upper end solves (1 − p)^n = (1 − confidence) / 2.
    let (low, high) = clopper_pearson(0, 20, 0.9).unwrap();
    assert_eq!(low, 0.0);
    assert_relative(high, 1.0 - 0.05_f64.powf(1.0 / 20.0), 1e-13);
}

#[test]
fn clopper_pearson_in_a_billion_trials() {
    let (low, high) = clopper_pearson(500_000_000, 1_000_000_000, 0.999).unwrap();
    // Normal approximation: 0.5 ± 3.2905 · √(0.25 / 10⁹).
    let half_width = 3.290_526_731_491_926 * (0.25e-9_f64).sqrt();
    assert_relative(0.5 - low, half_width, 1e-4);
    assert_relative(high - 0.5, half_width, 1e-4);
}

#[track_caller]
fn check_p_value(successes: u64, trials: u64, p: f64, expected: f64) {
    assert_relative(
        binomial_p_value(successes, trials, p).unwrap(),
        expected,
        1e-11,
    );
}

#[test]
fn binomial_p_value_reference_values() {
    // Twice the smaller tail, from mpmath at 60 digits.
    check_p_value(30, 100, 0.5, 7.85013964559367e-05);
    check_p_value(60, 100, 0.5, 2.0 * 0.028443966820490395);
    check_p_value(3, 1_000_000, 1e-5, 2.0 * 0.010335785844433468);
    check_p_value(50, 100, 0.5, 1.0);
}

#[test]
fn binomial_p_value_at_certain_probabilities() {
    check_p_value(0, 10, 0.0, 1.0);
    check_p_value(1, 10, 0.0, 0.0);
    check_p_value(10, 10, 1.0, 1.0);
    check_p_value(9, 10, 1.0, 0.0);
}

#[test]
fn binomial_within_is_dual_to_clopper_pearson() {
    for (successes, trials) in [(1, 10), (5, 10), (37, 1000), (999, 1000), (12, 1_000_000)] {
        let (low, high) = clopper_pearson(successes, trials, 1.0 - ALPHA).unwrap();
        let inside = |p: f64| binomial_within(successes, trials, p, ALPHA).unwrap();
        // Move both ends towards the estimate by a fraction of their distance
        // to 0 and to 1 respectively (negative: away from it).
        let towards_estimate =
            |fraction: f64| (low * (1.0 + fraction), high - (1.0 - high) * fraction);
        let (low_inside, high_inside) = towards_estimate(1e-8);
        assert!(
            inside(low_inside) && inside(high_inside),
            "{successes}/{trials}"
        );
        let (low_outside, high_outside) = towards_estimate(-1e-5);
        assert!(
            !inside(low_outside) && !inside(high_outside),
            "{successes}/{trials}"
        );
        assert_relative(
            binomial_p_value(successes, trials, low).unwrap(),
            ALPHA,
            1e-9,
        );
    }
}

#[test]
fn binomial_within_seeded_coin() {
    // False-failure rate α = 1e-3 for a random seed; deterministic for this one.
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let trials = 100_000;
    let heads = (0..trials).filter(|_| rng.random_bool(0.3)).count() as u64;
    assert!(
        binomial_within(heads, trials, 0.3, ALPHA).unwrap(),
        "{heads} heads"
    );
    // 0.31 is about seven standard deviations of the estimate away from 0.3
    // (4.8 from this seed's 30,298 heads).
    assert!(
        !binomial_within(heads, trials, 0.31, ALPHA).unwrap(),
        "{heads} heads"
    );
}

// ---------------------------------------------------------------------------
// Every error variant of the statistical audits.

#[track_caller]
fn check_error(actual: Result<impl std::fmt::Debug, Error>, expected: Error) {
    match actual {
        Err(error) => assert_eq!(error, expected),
        Ok(value) => panic!("expected {expected:?}, got Ok({value:?})"),
    }
}

#[test]
fn error_invalid_alpha() {
    for alpha in [0.0, 1.0, -0.5, 2.0, f64::INFINITY] {
        let expected = Error::InvalidAlpha { value: alpha };
        check_error(
            chi_square_gof(&[1, 1], &[0.5, 0.5], alpha),
            expected.clone(),
        );
        check_error(
            chi_square_integer_pmf(&[0], |_| 1.0, alpha),
            expected.clone(),
        );
        check_error(ks_test(&mut [0.5], |x| x, alpha), expected.clone());
        check_error(binomial_within(1, 2, 0.5, alpha), expected);
    }
    let error = ks_test(&mut [0.5], |x| x, f64::NAN).unwrap_err();
    assert!(matches!(error, Error::InvalidAlpha { value } if value.is_nan()));
}

#[test]
fn error_gof_distribution() {
    check_error(chi_square_gof(&[], &[], ALPHA), Error::EmptyDistribution);
    check_error(
        chi_square_gof(&[1, 1], &[0.5, -0.5], ALPHA),
        Error::InvalidProbability {
            index: 1,
            value: -0.5,
        },
    );
    check_error(
        chi_square_gof(&[1, 1], &[0.5, 0.25], ALPHA),
        Error::NotNormalized { sum: 0.75 },
    );
    check_error(
        chi_square_gof(&[1, 1, 1], &[0.5, 0.5], ALPHA),
        Error::LengthMismatch { left: 3, right: 2 },
    );
}

#[test]
fn error_empty_sample() {
    check_error(
        chi_square_gof(&[0, 0], &[0.5, 0.5], ALPHA),
        Error::EmptySample,
    );
    check_error(
        chi_square_integer_pmf(&[], |_| 1.0, ALPHA),
        Error::EmptySample,
    );
    check_error(ks_test(&mut [], |x| x, ALPHA), Error::EmptySample);
}

#[test]
fn error_too_few_bins() {
    // Expected 2.5 and 2.5: a single merged bin.
    check_error(
        chi_square_gof(&[3, 2], &[0.5, 0.5], ALPHA),
        Error::TooFewBins { bins: 1 },
    );
    check_error(
        chi_square_integer_pmf(&[0, 0, 0], |_| 0.5, ALPHA),
        Error::TooFewBins { bins: 1 },
    );
}

#[test]
fn error_range_too_large() {
    check_error(
        chi_square_integer_pmf(&[i64::MIN, i64::MAX], |_| 0.0, ALPHA),
        Error::RangeTooLarge {
            min: i64::MIN,
            max: i64::MAX,
        },
    );
    let max = MAX_INTEGER_BINS as i64;
    check_error(
        chi_square_integer_pmf(&[0, max], |_| 0.0, ALPHA),
        Error::RangeTooLarge { min: 0, max },
    );
}

#[test]
fn error_invalid_pmf_value() {
    check_error(
        chi_square_integer_pmf(&[0, 1], |k| if k == 1 { 1.5 } else { 0.5 }, ALPHA),
        Error::InvalidPmfValue {
            point: 1,
            value: 1.5,
        },
    );
    let error = chi_square_integer_pmf(&[-3], |_| f64::NAN, ALPHA).unwrap_err();
    assert!(matches!(error, Error::InvalidPmfValue { point: -3, value } if value.is_nan()));
}

#[test]
fn error_pmf_not_normalized() {
    check_error(
        chi_square_integer_pmf(&[0, 1], |_| 0.75, ALPHA),
        Error::NotNormalized { sum: 1.5 },
    );
}

#[test]
fn error_invalid_sample() {
    let error = ks_test(&mut [0.5, f64::NAN], |x| x, ALPHA).unwrap_err();
    assert!(matches!(error, Error::InvalidSample { index: 1, value } if value.is_nan()));
}

#[test]
fn error_invalid_cdf_value() {
    check_error(
        ks_test(&mut [0.5, 2.0], |x| x, ALPHA),
        Error::InvalidCdfValue {
            point: 2.0,
            value: 2.0,
        },
    );
    let error = ks_test(&mut [0.5], |_| f64::NAN, ALPHA).unwrap_err();
    assert!(matches!(error, Error::InvalidCdfValue { point: 0.5, value } if value.is_nan()));
}

#[test]
fn error_binomial_counts() {
    check_error(clopper_pearson(0, 0, 0.95), Error::ZeroTrials);
    check_error(binomial_p_value(0, 0, 0.5), Error::ZeroTrials);
    check_error(
        clopper_pearson(0, MAX_TRIALS + 1, 0.95),
        Error::TooManyTrials {
            trials: MAX_TRIALS + 1,
        },
    );
    check_error(
        binomial_within(11, 10, 0.5, ALPHA),
        Error::SuccessesExceedTrials {
            successes: 11,
            trials: 10,
        },
    );
}

#[test]
fn error_invalid_confidence() {
    for confidence in [0.0, 1.0, -1.0, f64::INFINITY] {
        check_error(
            clopper_pearson(1, 2, confidence),
            Error::InvalidConfidence { value: confidence },
        );
    }
}

#[test]
fn error_invalid_success_probability() {
    for p in [-0.1, 1.1, f64::NEG_INFINITY] {
        check_error(
            binomial_p_value(1, 2, p),
            Error::InvalidSuccessProbability { value: p },
        );
    }
    let error = binomial_within(1, 2, f64::NAN, ALPHA).unwrap_err();
    assert!(matches!(error, Error::InvalidSuccessProbability { value } if value.is_nan()));
}

// ---------------------------------------------------------------------------
// No panics on arbitrary input.

fn cyclic(values: Vec<f64>) -> impl Fn(usize) -> f64 {
    move |index| {
        if values.is_empty() {
            0.5
        } else {
            values[index % values.len()]
        }
    }
}

proptest! {
    #[test]
    fn gof_never_panics(
        observed in prop::collection::vec(any::<u64>(), 0..6),
        probabilities in prop::collection::vec(prop::num::f64::ANY, 0..6),
        alpha in prop::num::f64::ANY,
    ) {
        let _ = chi_square_gof(&observed, &probabilities, alpha);
        let _ = chi_square_gof(&observed, &probabilities, ALPHA);
    }

    #[test]
    fn gof_never_panics_on_valid_probabilities(
        (observed, weights) in (1..8_usize).prop_flat_map(|n| (
            prop::collection::vec(prop_oneof![Just(0_u64), 0..100_u64, any::<u64>()], n),
            prop::collection::vec(prop_oneof![Just(0.0), 0.0..1.0_f64], n),
        )),
    ) {
        let total: f64 = weights.iter().sum();
        let probabilities: Vec<f64> = weights.iter().map(|w| w / total).collect();
        if let Ok(outcome) = chi_square_gof(&observed, &probabilities, ALPHA) {
            prop_assert!((0.0..=1.0).contains(&outcome.p_value), "{outcome:?}");
        }
    }

    #[test]
    fn integer_pmf_never_panics(
        samples in prop::collection::vec(prop_oneof![-20..20_i64, any::<i64>()], 0..30),
        pmf_values in prop::collection::vec(prop::num::f64::ANY, 0..5),
        alpha in prop_oneof![Just(ALPHA), prop::num::f64::ANY],
    ) {
        let pmf = cyclic(pmf_values);
        let _ = chi_square_integer_pmf(&samples, |k| pmf(k.unsigned_abs() as usize), alpha);
        let _ = chi_square_integer_pmf(&samples, |k| if k == 0 { 1.0 } else { 0.0 }, alpha);
    }

    #[test]
    fn ks_never_panics(
        mut samples in prop::collection::vec(prop::num::f64::ANY, 0..30),
        cdf_values in prop::collection::vec(prop::num::f64::ANY, 0..5),
        alpha in prop_oneof![Just(ALPHA), prop::num::f64::ANY],
    ) {
        let cdf = cyclic(cdf_values);
        let _ = ks_test(&mut samples.clone(), |x| cdf(x.to_bits() as usize), alpha);
        if let Ok(outcome) = ks_test(&mut samples, |x| if x.is_nan() { 0.5 } else { x.clamp(0.0, 1.0) }, alpha) {
            prop_assert!((0.0..=1.0).contains(&outcome.p_value), "{outcome:?}");
            prop_assert!((0.0..=1.0).contains(&outcome.statistic), "{outcome:?}");
        }
    }

    #[test]
    fn binomial_never_panics(
        successes in any::<u64>(),
        trials in any::<u64>(),
        number in prop::num::f64::ANY,
    ) {
        let _ = clopper_pearson(successes, trials, number);
        let _ = binomial_p_value(successes, trials, number);
        let _ = binomial_within(successes, trials, number, number);
    }

    #[test]
    fn clopper_pearson_brackets_the_estimate(
        (successes, trials) in (1..1_000_000_u64).prop_flat_map(|n| (0..=n, Just(n))),
        confidence in prop_oneof![0.5..0.999_999, prop::num::f64::ANY],
        p in prop_oneof![0.0..=1.0, prop::num::f64::ANY],
    ) {
        if let Ok((low, high)) = clopper_pearson(successes, trials, confidence) {
            let estimate = successes as f64 / trials as f64;
            prop_assert!(0.0 <= low && low <= estimate && estimate <= high && high <= 1.0);
            if let Ok(within) = binomial_within(successes, trials, estimate, 1.0 - confidence) {
                prop_assert!(within);
            }
        }
        if let Ok(p_value) = binomial_p_value(successes, trials, p) {
            prop_assert!((0.0..=1.0).contains(&p_value));
        }
    }
}

#[test]
fn public_types_are_send_sync_unpin() {
    fn has_autotraits<T: Send + Sync + Unpin>() {}
    has_autotraits::<GofOutcome>();
    has_autotraits::<KsOutcome>();
}
