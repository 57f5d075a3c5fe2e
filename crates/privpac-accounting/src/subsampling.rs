//! Privacy amplification by subsampling.

use crate::error::{Error, Result};
use crate::privacy::Privacy;
use crate::privacy::composed;
use crate::rounding::{div_up, exp_m1_up, ln_1p_up, mul_up, to_f64_down, to_f64_up};

/// How the subsample handed to the mechanism is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Subsampling {
    /// Every row is kept independently with probability `rate` (neighbours: add or remove
    /// one row).
    Poisson {
        /// The inclusion probability q ∈ (0, 1].
        rate: f64,
    },
    /// A uniformly random subset of `sample_size` of the `population_size` rows
    /// (neighbours: replace one row).
    WithoutReplacement {
        /// Rows handed to the mechanism (m ≥ 1).
        sample_size: u64,
        /// Rows in the dataset (n ≥ m).
        population_size: u64,
    },
}

/// Amplification by subsampling: running an (ε, δ)-DP mechanism on a subsample drawn with
/// rate `q` (q = m/n for sampling without replacement) is `(ln(1 + q(e^ε − 1)), qδ)`-DP.
///
/// Balle, Barthe, Gaboardi, "Privacy amplification by subsampling: tight analyses via
/// couplings and divergences" (NeurIPS 2018): Theorem 8 for Poisson subsampling with
/// add/remove neighbours, Theorem 9 for sampling without replacement with substitution
/// neighbours. Both values are rounded up, never down.
///
/// # Errors
/// [`Error::InvalidProbability`] for a rate outside (0, 1]; [`Error::InvalidCount`] for an
/// empty sample or a sample larger than the population.
///
/// # Example
/// ```
/// use privpac_accounting::{amplification_by_subsampling, Privacy, Subsampling};
/// let amplified = amplification_by_subsampling(
///     Privacy::pure(1.0)?,
///     Subsampling::WithoutReplacement { sample_size: 100, population_size: 10_000 },
/// )?;
/// assert!((amplified.epsilon() - (1.0 + 0.01 * 1f64.exp_m1()).ln()).abs() < 1e-15);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn amplification_by_subsampling(each: Privacy, sampling: Subsampling) -> Result<Privacy> {
    let rate = match sampling {
        Subsampling::Poisson { rate } => {
            if !(rate > 0.0 && rate <= 1.0) {
                return Err(Error::InvalidProbability {
                    name: "sampling rate",
                    range: "(0, 1]",
                    value: rate,
                });
            }
            rate
        }
        Subsampling::WithoutReplacement {
            sample_size,
            population_size,
        } => {
            if sample_size == 0 {
                return Err(Error::InvalidCount {
                    name: "sample size",
                    requirement: "at least 1",
                    value: 0,
                });
            }
            if population_size < sample_size {
                return Err(Error::InvalidCount {
                    name: "population size",
                    requirement: "at least the sample size",
                    value: population_size,
                });
            }
            div_up(to_f64_up(sample_size), to_f64_down(population_size)).min(1.0)
        }
    };
    // ln(1 + q(e^ε − 1)) ≤ ε exactly for q ≤ 1, so capping the rounded value at ε keeps an
    // upper bound.
    let epsilon = ln_1p_up(mul_up(rate, exp_m1_up(each.epsilon()))).min(each.epsilon());
    composed(
        epsilon,
        mul_up(rate, each.delta()),
        "subsampling gives delta >= 1",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_formula_and_never_amplifies_above_the_original() {
        let base = Privacy::new(2.0, 1e-5).unwrap();
        for rate in [1e-4, 0.01, 0.5, 1.0] {
            let got = amplification_by_subsampling(base, Subsampling::Poisson { rate }).unwrap();
            let expected = (1.0 + rate * (2f64.exp() - 1.0)).ln();
            assert!((got.epsilon() - expected).abs() < 1e-12);
            assert!(got.epsilon() <= 2.0 + 1e-15);
            assert!((got.delta() - rate * 1e-5).abs() < 1e-20);
        }
        // Small rates give roughly q(e^ε − 1).
        let tiny = amplification_by_subsampling(base, Subsampling::Poisson { rate: 1e-6 }).unwrap();
        assert!((tiny.epsilon() / (1e-6 * 2f64.exp_m1()) - 1.0).abs() < 1e-5);
    }

    #[test]
    fn rounds_up_where_the_naive_rate_rounds_down() {
        // 1/3 to nearest is below 1/3, so the naive δ = (1/3)·0.5 is below 1/6.
        let got = amplification_by_subsampling(
            Privacy::new(1.0, 0.5).unwrap(),
            Subsampling::WithoutReplacement {
                sample_size: 1,
                population_size: 3,
            },
        )
        .unwrap();
        let naive = (1.0 / 3.0) * 0.5;
        assert!(3f64.mul_add(naive, -0.5) < 0.0, "the naive δ is below 1/6");
        assert!(
            3f64.mul_add(got.delta(), -0.5) >= 0.0,
            "ours is at least 1/6"
        );
        // ε: ln(1 + (e − 1)/3) ≈ 0.4596, never below the platform evaluation.
        let naive_epsilon = ((1.0 / 3.0) * 1f64.exp_m1()).ln_1p();
        assert!(got.epsilon() > naive_epsilon);
        assert!(got.epsilon() - naive_epsilon < 1e-14);
    }

    #[test]
    fn a_delta_below_the_subnormal_range_stays_positive() {
        // Issue 27: q·δ = 1e-30·1e-300 is 0 to nearest (and its residual too), which made
        // the amplified guarantee pure. Rounded up it is the smallest positive float.
        let got = amplification_by_subsampling(
            Privacy::new(1.0, 1e-300).unwrap(),
            Subsampling::Poisson { rate: 1e-30 },
        )
        .unwrap();
        assert!(!got.is_pure(), "{got}");
        assert_eq!(got.delta(), f64::from_bits(1));
    }

    #[test]
    fn invalid_input_gives_typed_errors() {
        let base = Privacy::pure(1.0).unwrap();
        for rate in [0.0, -0.1, 1.5, f64::NAN] {
            assert!(matches!(
                amplification_by_subsampling(base, Subsampling::Poisson { rate }),
                Err(Error::InvalidProbability { .. })
            ));
        }
        let empty = Subsampling::WithoutReplacement {
            sample_size: 0,
            population_size: 5,
        };
        assert!(matches!(
            amplification_by_subsampling(base, empty),
            Err(Error::InvalidCount { .. })
        ));
        let too_big = Subsampling::WithoutReplacement {
            sample_size: 6,
            population_size: 5,
        };
        assert!(matches!(
            amplification_by_subsampling(base, too_big),
            Err(Error::InvalidCount { .. })
        ));
    }
}
