//! Group privacy.

use crate::error::{Error, Result};
use crate::privacy::Privacy;
use crate::privacy::composed;
use crate::rounding::{exp_up, mul_up, to_f64_up};

/// Group privacy: an (ε, δ)-DP mechanism is `(kε, k·e^{(k−1)ε}·δ)`-DP for datasets that
/// differ in at most k rows (Dwork–Roth Theorem 2.2 for δ = 0; Vadhan, "The Complexity of
/// Differential Privacy", Lemma 2.2 for δ > 0). Both values are rounded up, never down.
///
/// # Errors
/// [`Error::InvalidCount`] for k = 0; [`Error::VacuousGuarantee`] if the δ bound reaches 1.
///
/// # Example
/// ```
/// use privpac_accounting::{group_privacy, Privacy};
/// let group = group_privacy(Privacy::pure(0.5)?, 3)?;
/// assert_eq!(group.epsilon(), 1.5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn group_privacy(each: Privacy, k: u64) -> Result<Privacy> {
    if k == 0 {
        return Err(Error::InvalidCount {
            name: "group size",
            requirement: "at least 1",
            value: 0,
        });
    }
    let k_f = to_f64_up(k);
    let delta = if each.is_pure() {
        0.0
    } else {
        let exponent = mul_up(to_f64_up(k - 1), each.epsilon());
        mul_up(mul_up(k_f, exp_up(exponent)), each.delta())
    };
    composed(
        mul_up(k_f, each.epsilon()),
        delta,
        "group privacy gives delta >= 1",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_formula() {
        let got = group_privacy(Privacy::new(0.2, 1e-6).unwrap(), 4).unwrap();
        assert!((got.epsilon() - 0.8).abs() < 1e-15);
        assert!((got.delta() - 4.0 * (0.6f64).exp() * 1e-6).abs() < 1e-18);
        assert!(got.delta() >= 4.0 * (0.6f64).exp() * 1e-6);
        let same = group_privacy(Privacy::pure(0.7).unwrap(), 1).unwrap();
        assert_eq!(same, Privacy::pure(0.7).unwrap());
    }

    #[test]
    fn rounds_up_where_the_naive_product_rounds_down() {
        // 3 × 0.7 to nearest is below the exact product of the two floats; 7 × 0.1 and
        // 10 × 0.3 are not (they must stay unchanged).
        for (k, epsilon) in [(3u64, 0.7f64), (7, 0.1), (10, 0.3)] {
            let naive = k as f64 * epsilon;
            let exact_error = (k as f64).mul_add(epsilon, -naive);
            let got = group_privacy(Privacy::pure(epsilon).unwrap(), k).unwrap();
            if exact_error > 0.0 {
                assert_eq!(got.epsilon(), naive.next_up(), "k = {k}, ε = {epsilon}");
            } else {
                assert_eq!(got.epsilon(), naive, "k = {k}, ε = {epsilon}");
            }
            // Never below the exact value: got − naive is exact (one float apart or zero).
            assert!(got.epsilon() - naive >= exact_error);
        }
        let naive = 3.0 * 0.7f64;
        assert!(
            3f64.mul_add(0.7, -naive) > 0.0,
            "the chosen case must round down"
        );
    }

    #[test]
    fn invalid_input_gives_typed_errors() {
        assert!(matches!(
            group_privacy(Privacy::pure(1.0).unwrap(), 0),
            Err(Error::InvalidCount { .. })
        ));
        assert!(matches!(
            group_privacy(Privacy::new(1.0, 0.01).unwrap(), 10),
            Err(Error::VacuousGuarantee { .. })
        ));
    }
}
