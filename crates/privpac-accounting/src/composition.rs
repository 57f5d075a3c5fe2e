//! Basic and advanced composition.

use crate::error::{Error, Result};
use crate::privacy::Privacy;
use crate::privacy::composed;
use crate::rounding::{add_up, exp_m1_up, mul_up, neg_ln_up, sqrt_up, to_f64_up, upper_sum};

/// Basic composition: running mechanisms with guarantees `(ε_i, δ_i)` (adaptively) is
/// `(Σ ε_i, Σ δ_i)`-DP (Dwork–Roth Theorem 3.16 and its adaptive form, Theorem B.1).
/// The floating-point sums are rounded up, never down.
///
/// # Errors
/// [`Error::InvalidCount`] for an empty list; [`Error::VacuousGuarantee`] if Σδ ≥ 1.
///
/// # Example
/// ```
/// use privpac_accounting::{basic_composition, Privacy};
/// let total = basic_composition(&[Privacy::pure(0.5)?, Privacy::new(0.25, 1e-6)?])?;
/// assert!(total.epsilon() >= 0.75 && total.epsilon() < 0.75 + 1e-15);
/// assert!(total.delta() >= 1e-6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn basic_composition(guarantees: &[Privacy]) -> Result<Privacy> {
    if guarantees.is_empty() {
        return Err(Error::InvalidCount {
            name: "number of mechanisms",
            requirement: "at least 1",
            value: 0,
        });
    }
    let epsilon = upper_sum(guarantees.iter().map(|p| p.epsilon()));
    let delta = upper_sum(guarantees.iter().map(|p| p.delta()));
    composed(epsilon, delta, "basic composition gives delta >= 1")
}

/// Advanced composition of `m` mechanisms that are each (ε, δ)-DP: for any δ' > 0 the
/// adaptive composition is `(ε', mδ + δ')`-DP with
/// `ε' = √(2m ln(1/δ'))·ε + 2mε²`.
///
/// This is the form stated by Bun, Nissim and Stemmer (and by Dwork, Rothblum, Vadhan
/// 2010), which follows from the sharper `√(2m ln(1/δ'))·ε + mε(e^ε − 1)` (Dwork–Roth
/// Theorem 3.20) because `e^ε − 1 ≤ 2ε` for ε ≤ 1. For ε > 1 that inequality fails, so
/// there we return the sharper Dwork–Roth form, which is always valid. (Bun–Nissim–Stemmer
/// Theorem 2.16(2) prints the left side as ϵ; it is the composed ε′.)
///
/// Both results are rounded up, never down: every operation rounds toward +∞ (see the
/// accounting module's rounding helpers), so the reported ε′ and δ are at least the exact
/// values of the formulas.
///
/// # Errors
/// [`Error::InvalidCount`] for m = 0, [`Error::InvalidDelta`] unless 0 < δ' < 1,
/// [`Error::VacuousGuarantee`] if mδ + δ' ≥ 1.
///
/// # Example
/// ```
/// use privpac_accounting::{advanced_composition, Privacy};
/// let total = advanced_composition(Privacy::pure(0.01)?, 1000, 1e-6)?;
/// let expected = (2.0 * 1000.0 * (1e6f64).ln()).sqrt() * 0.01 + 2.0 * 1000.0 * 1e-4;
/// assert!(total.epsilon() >= expected && total.epsilon() - expected < 1e-14);
/// assert!(total.epsilon() < 10.0); // basic composition would give 10
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn advanced_composition(each: Privacy, m: u64, delta_prime: f64) -> Result<Privacy> {
    if m == 0 {
        return Err(Error::InvalidCount {
            name: "number of mechanisms",
            requirement: "at least 1",
            value: 0,
        });
    }
    validate_delta_prime(delta_prime)?;
    let m_f = to_f64_up(m);
    let epsilon = each.epsilon();
    let second_order = if epsilon <= 1.0 {
        mul_up(2.0 * m_f, mul_up(epsilon, epsilon))
    } else {
        mul_up(mul_up(m_f, epsilon), exp_m1_up(epsilon))
    };
    let first_order = mul_up(sqrt_up(mul_up(2.0 * m_f, neg_ln_up(delta_prime))), epsilon);
    composed(
        add_up(first_order, second_order),
        add_up(mul_up(m_f, each.delta()), delta_prime),
        "advanced composition gives delta >= 1",
    )
}

/// Advanced composition for mechanisms with different guarantees `(ε_i, δ_i)`:
/// `(√(2 ln(1/δ') Σ ε_i²) + Σ ε_i(e^{ε_i} − 1), Σ δ_i + δ')`-DP (Kairouz, Oh, Viswanath
/// 2015, Theorem 3.5, in the Dwork–Roth form). Rounded up, never down.
///
/// # Errors
/// As for [`advanced_composition`].
pub fn heterogeneous_advanced_composition(
    guarantees: &[Privacy],
    delta_prime: f64,
) -> Result<Privacy> {
    if guarantees.is_empty() {
        return Err(Error::InvalidCount {
            name: "number of mechanisms",
            requirement: "at least 1",
            value: 0,
        });
    }
    validate_delta_prime(delta_prime)?;
    let sum_squares = upper_sum(guarantees.iter().map(|p| mul_up(p.epsilon(), p.epsilon())));
    let second_order = upper_sum(
        guarantees
            .iter()
            .map(|p| mul_up(p.epsilon(), exp_m1_up(p.epsilon()))),
    );
    let first_order = sqrt_up(mul_up(2.0 * neg_ln_up(delta_prime), sum_squares));
    let delta = upper_sum(
        guarantees
            .iter()
            .map(|p| p.delta())
            .chain(std::iter::once(delta_prime)),
    );
    composed(
        add_up(first_order, second_order),
        delta,
        "advanced composition gives delta >= 1",
    )
}

fn validate_delta_prime(delta_prime: f64) -> Result<()> {
    if delta_prime > 0.0 && delta_prime < 1.0 {
        Ok(())
    } else {
        Err(Error::InvalidDelta { value: delta_prime })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pure(epsilon: f64) -> Privacy {
        Privacy::pure(epsilon).unwrap()
    }

    #[test]
    fn basic_composition_adds() {
        let total =
            basic_composition(&[pure(0.1), pure(0.2), Privacy::new(0.3, 0.01).unwrap()]).unwrap();
        assert!((total.epsilon() - 0.6).abs() < 1e-15);
        assert!(total.epsilon() >= 0.6);
        assert!(total.delta() >= 0.01 && total.delta() < 0.01 + 1e-17);
        let many = basic_composition(&vec![pure(0.01); 1000]).unwrap();
        assert!(
            many.epsilon() >= 10.0 && many.epsilon() < 10.0 + 1e-14,
            "{}",
            many.epsilon()
        );
    }

    #[test]
    fn advanced_composition_matches_the_stated_formula() {
        for (epsilon, m, delta_prime) in [(0.1, 10u64, 1e-5), (0.01, 10_000, 1e-9), (1.0, 3, 0.1)] {
            let got =
                advanced_composition(Privacy::new(epsilon, 1e-8).unwrap(), m, delta_prime).unwrap();
            let m_f = m as f64;
            let expected = (2.0 * m_f * (1.0 / delta_prime).ln()).sqrt() * epsilon
                + 2.0 * m_f * epsilon * epsilon;
            assert!((got.epsilon() - expected).abs() < 1e-12 * expected);
            assert!(got.epsilon() >= expected);
            // Rounded up: at least the formula's value and within two floats of it.
            let delta = m_f * 1e-8 + delta_prime;
            assert!(got.delta() >= delta && got.delta() <= delta.next_up().next_up());
        }
    }

    /// Knuth's two-sum error `(a + b) − fl(a + b)`, exact.
    fn sum_error(a: f64, b: f64) -> f64 {
        let s = a + b;
        let b_virtual = s - a;
        (a - (s - b_virtual)) + (b - b_virtual)
    }

    #[test]
    fn advanced_composition_rounds_up_where_naive_evaluation_rounds_down() {
        let mut rounded_down = 0;
        for epsilon in [0.001f64, 0.01, 0.03, 0.1, 0.3, 0.7] {
            for m in [2u64, 3, 10, 77, 1000] {
                for delta_prime in [1e-9f64, 1e-6, 1e-3, 0.1] {
                    let m_f = m as f64;
                    let first = (2.0 * m_f * (1.0 / delta_prime).ln()).sqrt() * epsilon;
                    let second = 2.0 * m_f * epsilon * epsilon;
                    let naive = first + second;
                    let got = advanced_composition(pure(epsilon), m, delta_prime)
                        .unwrap()
                        .epsilon();
                    assert!(got >= naive);
                    assert!(got - naive <= 1e-14 * naive, "rounded up, not loose");
                    // The naive final sum lost a positive remainder: ours must be above it.
                    if sum_error(first, second) > 0.0 {
                        rounded_down += 1;
                        assert!(got > naive, "ε = {epsilon}, m = {m}, δ' = {delta_prime}");
                    }
                }
            }
        }
        assert!(rounded_down > 0, "the grid must contain naive round-downs");
        // The second-order term alone: 2·3·0.7² naively rounds down (0.7² does).
        assert!(0.7f64.mul_add(0.7, -(0.7 * 0.7)) > 0.0);
        let heterogeneous = heterogeneous_advanced_composition(&[pure(0.7); 3], 0.5).unwrap();
        let naive = (2.0 * 2f64.ln() * 3.0 * 0.49).sqrt() + 3.0 * 0.7 * 0.7f64.exp_m1();
        assert!(heterogeneous.epsilon() > naive);
        assert!(heterogeneous.epsilon() - naive < 1e-14);
    }

    #[test]
    fn large_epsilon_uses_the_always_valid_form() {
        let got = advanced_composition(pure(3.0), 2, 1e-3).unwrap();
        let expected = (4.0 * (1e3f64).ln()).sqrt() * 3.0 + 2.0 * 3.0 * 3f64.exp_m1();
        assert!((got.epsilon() - expected).abs() < 1e-9);
    }

    #[test]
    fn heterogeneous_form_agrees_with_dwork_roth_for_equal_parts() {
        let parts = vec![pure(0.05); 200];
        let got = heterogeneous_advanced_composition(&parts, 1e-6).unwrap();
        let m: f64 = 200.0;
        let expected = (2.0 * m * (1e6f64).ln()).sqrt() * 0.05 + m * 0.05 * 0.05f64.exp_m1();
        assert!((got.epsilon() - expected).abs() < 1e-12);
        // Never worse than the 2mε² form for ε ≤ 1.
        assert!(
            got.epsilon()
                <= advanced_composition(pure(0.05), 200, 1e-6)
                    .unwrap()
                    .epsilon()
        );
    }

    #[test]
    fn invalid_input_gives_typed_errors() {
        assert!(matches!(
            basic_composition(&[]),
            Err(Error::InvalidCount { .. })
        ));
        assert!(matches!(
            advanced_composition(pure(1.0), 0, 1e-6),
            Err(Error::InvalidCount { .. })
        ));
        for bad in [0.0, 1.0, -1.0, f64::NAN] {
            assert!(matches!(
                advanced_composition(pure(1.0), 5, bad),
                Err(Error::InvalidDelta { .. })
            ));
        }
        let heavy = Privacy::new(0.1, 0.3).unwrap();
        assert!(matches!(
            basic_composition(&[heavy, heavy, heavy, heavy]),
            Err(Error::VacuousGuarantee { .. })
        ));
        assert!(matches!(
            advanced_composition(heavy, 4, 1e-3),
            Err(Error::VacuousGuarantee { .. })
        ));
        assert!(matches!(
            heterogeneous_advanced_composition(&[], 1e-3),
            Err(Error::InvalidCount { .. })
        ));
    }
}
