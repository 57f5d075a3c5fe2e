//! Secrecy of the sample: privacy amplification when a learner sees a random subsample of
//! a larger dataset.

use crate::error::{Error, Result};
use crate::privacy::Privacy;
use crate::privacy::composed;
use crate::rounding::{div_up, exp_up, mul_up, to_f64_down, to_f64_up};

/// Secrecy of the sample (Bun–Nissim–Stemmer, "Simultaneous private learning of multiple
/// concepts", Lemma 2.25, after Kasiviswanathan et al. 2008 and Bun–Nissim–Stemmer–Vadhan
/// 2015), in the paper's letters: let `A` be (ε, δ)-DP on databases of **n** =
/// `inner_size` rows, with ε ≤ 1. The algorithm `Ã` that draws n rows uniformly **with
/// replacement** from a database of **m** = `outer_size ≥ 2n` rows and runs `A` on them is
/// (ε̃, δ̃)-DP with
///
/// `ε̃ = 6εn/m` and `δ̃ = 4·exp(6εn/m)·(n/m)·δ`.
///
/// The lemma as printed has the ratio inverted (`ε̃ = 6εm/n`), which does not amplify
/// and would contradict the paper's own Theorem 2.24, whose proof applies this lemma with
/// m = 9n to keep (ε, δ); the form above is the one that holds. Theorem 2.24's choice
/// m = 9n gives `ε̃ = 2ε/3 ≤ ε`
/// and `δ̃ = (4/9)·e^{2ε/3}·δ ≤ 0.87δ ≤ δ` for ε ≤ 1.
///
/// Both values are rounded up, never down.
///
/// # Errors
/// [`Error::InvalidEpsilon`] if ε > 1 (the lemma's hypothesis), [`Error::InvalidCount`]
/// if `inner_size` is 0 or `outer_size < 2·inner_size`, [`Error::VacuousGuarantee`] if
/// δ̃ ≥ 1.
///
/// # Example
/// ```
/// use privpac_accounting::{secrecy_of_the_sample, Privacy};
/// let amplified = secrecy_of_the_sample(Privacy::new(1.0, 1e-6)?, 100, 1000)?;
/// assert!((amplified.epsilon() - 0.6).abs() < 1e-12);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn secrecy_of_the_sample(each: Privacy, inner_size: u64, outer_size: u64) -> Result<Privacy> {
    if each.epsilon() > 1.0 {
        return Err(Error::InvalidEpsilon {
            value: each.epsilon(),
        });
    }
    if inner_size == 0 {
        return Err(Error::InvalidCount {
            name: "inner sample size",
            requirement: "at least 1",
            value: 0,
        });
    }
    if outer_size / 2 < inner_size {
        return Err(Error::InvalidCount {
            name: "outer database size",
            requirement: "at least twice the inner sample size",
            value: outer_size,
        });
    }
    let ratio = div_up(to_f64_up(inner_size), to_f64_down(outer_size));
    let epsilon = mul_up(mul_up(6.0, each.epsilon()), ratio);
    let delta = mul_up(mul_up(4.0 * exp_up(epsilon), ratio), each.delta());
    composed(epsilon, delta, "secrecy of the sample gives delta >= 1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_formula() {
        let got = secrecy_of_the_sample(Privacy::new(0.5, 1e-4).unwrap(), 50, 1000).unwrap();
        let eps = 6.0 * 0.5 * 0.05;
        assert!((got.epsilon() - eps).abs() < 1e-15);
        assert!(got.epsilon() >= eps);
        assert!((got.delta() - 4.0 * eps.exp() * 0.05 * 1e-4).abs() < 1e-18);
    }

    #[test]
    fn rounds_up_where_the_naive_formula_rounds_down() {
        // (ε, inner, outer) where 6·ε·(inner/outer) evaluated naively is below the exact
        // rational value (checked with exact rationals when the cases were chosen).
        for (epsilon, inner, outer) in [
            (1.0f64, 1u64, 7u64),
            (0.7, 1, 3),
            (0.3, 1, 3),
            (0.7, 10, 30),
        ] {
            let naive = 6.0 * epsilon * (inner as f64 / outer as f64);
            let got = secrecy_of_the_sample(Privacy::pure(epsilon).unwrap(), inner, outer)
                .unwrap()
                .epsilon();
            // Exact comparison got·outer ≥ 6ε·inner with fused multiply-adds: both sides
            // as unevaluated sums hi + lo; the hi parts are close, so their difference is
            // exact.
            let (o, i) = (outer as f64, inner as f64);
            let (got_hi, got_lo) = (got * o, got.mul_add(o, -(got * o)));
            let six_i = 6.0 * i; // a small integer, exact
            let (need_hi, need_lo) = (six_i * epsilon, six_i.mul_add(epsilon, -(six_i * epsilon)));
            assert!(
                (got_hi - need_hi) + (got_lo - need_lo) >= 0.0,
                "{epsilon} {inner}/{outer}"
            );
            let (naive_hi, naive_lo) = (naive * o, naive.mul_add(o, -(naive * o)));
            assert!(
                (naive_hi - need_hi) + (naive_lo - need_lo) < 0.0,
                "the chosen case must round down naively: {epsilon} {inner}/{outer}"
            );
            assert!(got - naive <= 4.0 * f64::EPSILON * naive);
        }
    }

    #[test]
    fn a_delta_below_the_subnormal_range_stays_positive() {
        // Issue 27: δ̃ = 4·e^{6ε/m}·(1/m)·δ ≈ 4e-326 for δ = 1e-320, m = 10^6, which is 0
        // to nearest and turned the approximate guarantee into a pure one.
        let got = secrecy_of_the_sample(Privacy::new(1.0, 1e-320).unwrap(), 1, 1_000_000).unwrap();
        assert!(!got.is_pure(), "{got}");
        assert_eq!(got.delta(), f64::from_bits(1));
    }

    #[test]
    fn invalid_input_gives_typed_errors() {
        let base = Privacy::pure(0.5).unwrap();
        assert!(matches!(
            secrecy_of_the_sample(base, 0, 10),
            Err(Error::InvalidCount { .. })
        ));
        assert!(matches!(
            secrecy_of_the_sample(base, 10, 19),
            Err(Error::InvalidCount { .. })
        ));
        assert!(secrecy_of_the_sample(base, 10, 20).is_ok());
        assert!(matches!(
            secrecy_of_the_sample(Privacy::pure(1.5).unwrap(), 1, 10),
            Err(Error::InvalidEpsilon { .. })
        ));
    }
}
