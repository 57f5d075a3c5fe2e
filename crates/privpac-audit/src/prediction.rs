//! Prediction-level measurements for learners: uniform stability and the privacy loss of
//! a single prediction, from the exact probabilities `Pr[A(S)(x) = 1]` on neighbouring
//! samples.
//!
//! Both functions take, for two neighbouring samples S and S', the vectors
//! `p[x] = Pr[A(S)(x) = 1]` and `q[x] = Pr[A(S')(x) = 1]` over the points x of a finite
//! domain (each entry a probability of its own, so the vectors need not sum to 1).

use crate::error::{Error, Result};
use crate::numeric::validate_same_length;

/// The uniform-stability parameter seen on one pair: `max_x |p[x] − q[x]|` (uniform
/// stability of predictions in the sense of Bousquet and Elisseeff 2002, as used by Dagan
/// and Feldman 2020: the largest change of a prediction probability between neighbouring
/// samples).
///
/// # Errors
/// [`Error::EmptyDistribution`], [`Error::LengthMismatch`], or
/// [`Error::InvalidProbability`] for an entry outside `[0, 1]` or NaN.
pub fn prediction_stability(p: &[f64], q: &[f64]) -> Result<f64> {
    validate(p, q)?;
    Ok(p.iter()
        .zip(q)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max))
}

/// The privacy loss of a single prediction seen on one pair: the smallest ε such that at
/// every x both outcomes satisfy the ε-DP ratio bound, i.e.
/// `max_x max{|ln(p/q)|, |ln((1−p)/(1−q))|}` (∞ when one side has probability 0 and the
/// other not).
///
/// # Errors
/// As for [`prediction_stability`].
pub fn prediction_privacy_loss(p: &[f64], q: &[f64]) -> Result<f64> {
    validate(p, q)?;
    let ratio = |a: f64, b: f64| -> f64 {
        match (a == 0.0, b == 0.0) {
            (true, true) => 0.0,
            (true, false) | (false, true) => f64::INFINITY,
            (false, false) => (a.ln() - b.ln()).abs(),
        }
    };
    Ok(p.iter()
        .zip(q)
        .map(|(&a, &b)| ratio(a, b).max(ratio(1.0 - a, 1.0 - b)))
        .fold(0.0, f64::max))
}

fn validate(p: &[f64], q: &[f64]) -> Result<()> {
    if p.is_empty() {
        return Err(Error::EmptyDistribution);
    }
    validate_same_length(p, q)?;
    for (index, &value) in p.iter().chain(q).enumerate() {
        if !(0.0..=1.0).contains(&value) {
            return Err(Error::InvalidProbability {
                index: index % p.len(),
                value,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_known_pairs() {
        assert_eq!(
            prediction_stability(&[0.2, 0.9], &[0.25, 0.5]).unwrap(),
            0.4
        );
        let flip = 1.0 / (1.0 + 2f64.exp());
        let loss = prediction_privacy_loss(&[flip], &[1.0 - flip]).unwrap();
        assert!((loss - 2.0).abs() < 1e-12);
        assert_eq!(
            prediction_privacy_loss(&[0.0], &[0.1]).unwrap(),
            f64::INFINITY
        );
        assert_eq!(
            prediction_privacy_loss(&[1.0, 0.0], &[1.0, 0.0]).unwrap(),
            0.0
        );
    }

    #[test]
    fn rejects_bad_input() {
        assert_eq!(
            prediction_stability(&[], &[]),
            Err(Error::EmptyDistribution)
        );
        assert!(matches!(
            prediction_stability(&[0.1], &[0.1, 0.2]),
            Err(Error::LengthMismatch { .. })
        ));
        assert!(matches!(
            prediction_privacy_loss(&[1.5], &[0.1]),
            Err(Error::InvalidProbability { index: 0, .. })
        ));
        assert!(matches!(
            prediction_stability(&[0.5], &[f64::NAN]),
            Err(Error::InvalidProbability { .. })
        ));
    }
}
