//! Group privacy.

use crate::accounting::composed;
use crate::error::{Error, Result};
use crate::privacy::Privacy;

/// Group privacy: an (ε, δ)-DP mechanism is `(kε, k·e^{(k−1)ε}·δ)`-DP for datasets that
/// differ in at most k rows (Dwork–Roth Theorem 2.2 for δ = 0; Vadhan, "The Complexity of
/// Differential Privacy", Lemma 2.2 for δ > 0).
///
/// # Errors
/// [`Error::InvalidCount`] for k = 0; [`Error::VacuousGuarantee`] if the δ bound reaches 1.
///
/// # Example
/// ```
/// use dp_mechanisms::{group_privacy, Privacy};
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
    let k_f = k as f64;
    let delta = if each.is_pure() {
        0.0
    } else {
        k_f * ((k_f - 1.0) * each.epsilon()).exp() * each.delta()
    };
    composed(
        k_f * each.epsilon(),
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
        let same = group_privacy(Privacy::pure(0.7).unwrap(), 1).unwrap();
        assert_eq!(same, Privacy::pure(0.7).unwrap());
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
