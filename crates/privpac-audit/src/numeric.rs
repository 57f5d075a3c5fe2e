//! Small numerical building blocks shared by the exact and statistical audits:
//! compensated summation, log-sum-exp and input validation.

use crate::error::{Error, Result};

/// How far from one a probability vector may sum (or how far from zero a
/// log-probability vector may log-sum-exp) and still count as normalized.
///
/// The tolerance absorbs rounding in mechanisms that compute their output
/// distribution in floating point. Inputs are *not* renormalized: the audits
/// measure the numbers they are given.
pub const NORMALIZATION_TOLERANCE: f64 = 1e-6;

/// Sums `values` with Neumaier's compensated summation, so the error does not
/// grow with the number of terms.
pub(crate) fn neumaier_sum(values: impl IntoIterator<Item = f64>) -> f64 {
    let mut sum = 0.0_f64;
    let mut compensation = 0.0_f64;
    for value in values {
        let total = sum + value;
        if sum.abs() >= value.abs() {
            compensation += (sum - total) + value;
        } else {
            compensation += (value - total) + sum;
        }
        sum = total;
    }
    let result = sum + compensation;
    // Infinite terms make the compensation NaN; the plain sum is right then.
    if result.is_nan() { sum } else { result }
}

/// `ln Σ exp(values)`, computed without overflow or underflow. Returns `−∞` for
/// an empty slice or when every value is `−∞`.
pub(crate) fn log_sum_exp(values: &[f64]) -> f64 {
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY || !max.is_finite() {
        return max;
    }
    max + neumaier_sum(values.iter().map(|&value| (value - max).exp())).ln()
}

/// Checks that `probabilities` is a non-empty vector of numbers in [0, 1]
/// summing to one within [`NORMALIZATION_TOLERANCE`].
pub(crate) fn validate_probabilities(probabilities: &[f64]) -> Result<()> {
    if probabilities.is_empty() {
        return Err(Error::EmptyDistribution);
    }
    for (index, &value) in probabilities.iter().enumerate() {
        if !(0.0..=1.0).contains(&value) {
            return Err(Error::InvalidProbability { index, value });
        }
    }
    let sum = neumaier_sum(probabilities.iter().copied());
    if (sum - 1.0).abs() > NORMALIZATION_TOLERANCE {
        return Err(Error::NotNormalized { sum });
    }
    Ok(())
}

/// Checks that `log_probabilities` is a non-empty vector of numbers in
/// [−∞, +∞) whose log-sum-exp is zero within [`NORMALIZATION_TOLERANCE`].
pub(crate) fn validate_log_probabilities(log_probabilities: &[f64]) -> Result<()> {
    if log_probabilities.is_empty() {
        return Err(Error::EmptyDistribution);
    }
    for (index, &value) in log_probabilities.iter().enumerate() {
        if value.is_nan() || value == f64::INFINITY {
            return Err(Error::InvalidLogProbability { index, value });
        }
    }
    let log_sum = log_sum_exp(log_probabilities);
    if log_sum.abs() > NORMALIZATION_TOLERANCE || log_sum.is_nan() {
        return Err(Error::NotNormalizedLog { log_sum });
    }
    Ok(())
}

/// Checks two distributions describe the same number of outputs.
pub(crate) fn validate_same_length(left: &[f64], right: &[f64]) -> Result<()> {
    if left.len() != right.len() {
        return Err(Error::LengthMismatch {
            left: left.len(),
            right: right.len(),
        });
    }
    Ok(())
}

/// ε must be non-negative (`+∞` is allowed and means "no multiplicative bound").
pub(crate) fn validate_epsilon(epsilon: f64) -> Result<()> {
    if epsilon.is_nan() || epsilon < 0.0 {
        return Err(Error::InvalidEpsilon { value: epsilon });
    }
    Ok(())
}

/// δ must lie in [0, 1].
pub(crate) fn validate_delta(delta: f64) -> Result<()> {
    if !(0.0..=1.0).contains(&delta) {
        return Err(Error::InvalidDelta { value: delta });
    }
    Ok(())
}

/// A tolerance must be finite and non-negative.
pub(crate) fn validate_tolerance(tolerance: f64) -> Result<()> {
    if !tolerance.is_finite() || tolerance < 0.0 {
        return Err(Error::InvalidTolerance { value: tolerance });
    }
    Ok(())
}

/// A significance level must lie strictly between zero and one.
pub(crate) fn validate_alpha(alpha: f64) -> Result<()> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(Error::InvalidAlpha { value: alpha });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::numeric::{log_sum_exp, neumaier_sum};

    #[track_caller]
    fn check_sum(values: &[f64], expected: f64) {
        let actual = neumaier_sum(values.iter().copied());
        assert!(
            actual == expected || (actual - expected).abs() <= 1e-15 * expected.abs(),
            "sum of {values:?}: {actual} != {expected}"
        );
    }

    #[test]
    fn sum_recovers_cancelled_terms() {
        check_sum(&[1.0, 1e100, 1.0, -1e100], 2.0);
    }

    #[test]
    fn sum_of_tenths() {
        check_sum(&[0.1; 10], 1.0);
    }

    #[test]
    fn sum_with_infinity() {
        check_sum(&[1.0, f64::INFINITY], f64::INFINITY);
    }

    #[track_caller]
    fn check_log_sum_exp(values: &[f64], expected: f64) {
        let actual = log_sum_exp(values);
        assert!(
            actual == expected || (actual - expected).abs() <= 1e-14,
            "log-sum-exp of {values:?}: {actual} != {expected}"
        );
    }

    #[test]
    fn log_sum_exp_of_halves() {
        check_log_sum_exp(&[0.5_f64.ln(), 0.5_f64.ln()], 0.0);
    }

    #[test]
    fn log_sum_exp_far_below_underflow() {
        check_log_sum_exp(&[-800.0, -800.0], -800.0 + 2.0_f64.ln());
    }

    #[test]
    fn log_sum_exp_of_zero_probabilities() {
        check_log_sum_exp(&[f64::NEG_INFINITY, f64::NEG_INFINITY], f64::NEG_INFINITY);
    }

    #[test]
    fn log_sum_exp_of_empty() {
        check_log_sum_exp(&[], f64::NEG_INFINITY);
    }
}
