//! Secrecy of the sample: privacy amplification when a learner sees a random subsample of
//! a larger dataset.

use crate::accounting::composed;
use crate::error::{Error, Result};
use crate::privacy::Privacy;

/// Secrecy of the sample (Kasiviswanathan, Lee, Nissim, Raskhodnikova, Smith 2008;
/// Bun, Nissim, Stemmer, Vadhan 2015; as stated in Bun–Nissim–Stemmer, "Simultaneous
/// private learning of multiple concepts", ITCS 2016, the lemma "secrecy of the sample"):
/// let `A` be (ε, δ)-DP on databases of `inner_size` rows, with ε ≤ 1. The algorithm that
/// draws `inner_size` rows uniformly **with replacement** from a database of
/// `outer_size ≥ 2·inner_size` rows and runs `A` on them is (ε̃, δ̃)-DP with
///
/// `ε̃ = 6ε·inner/outer` and `δ̃ = 4·exp(6ε·inner/outer)·(inner/outer)·δ`.
///
/// (The issue tracker states the formula with the roles of m and n swapped; with the
/// database of size `outer ≥ 2·inner` the ratio is `inner/outer ≤ 1/2`, so the bound
/// amplifies.)
///
/// # Errors
/// [`Error::InvalidEpsilon`] if ε > 1 (the lemma's hypothesis), [`Error::InvalidCount`]
/// if `inner_size` is 0 or `outer_size < 2·inner_size`, [`Error::VacuousGuarantee`] if
/// δ̃ ≥ 1.
///
/// # Example
/// ```
/// use dp_mechanisms::{secrecy_of_the_sample, Privacy};
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
    let ratio = inner_size as f64 / outer_size as f64;
    let epsilon = 6.0 * each.epsilon() * ratio;
    let delta = 4.0 * epsilon.exp() * ratio * each.delta();
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
        assert!((got.delta() - 4.0 * eps.exp() * 0.05 * 1e-4).abs() < 1e-18);
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
