//! Randomized response (label flipping): each bit is kept with probability `e^ε/(1+e^ε)`
//! and flipped otherwise, sampled exactly.

use rand::Rng;

use crate::error::Result;
use crate::exact_bits::RandomBits;
use privpac_accounting::{Privacy, Private};

/// Randomized response (Warner 1965): report a private bit truthfully with probability
/// `e^ε/(1+e^ε)` and flipped with probability `1/(1+e^ε)`.
///
/// # Privacy
/// ε-differentially private for one bit (local model): the two output distributions are
/// `(e^ε, 1)/(1+e^ε)` and `(1, e^ε)/(1+e^ε)`, whose ratio is at most `e^ε` (Dwork–Roth
/// §3.2). Applied to each label of a dataset it is ε-DP with respect to changing one label
/// (label flipping). The flip coin is exact: with a fair coin `C` and `B ~
/// Bernoulli(e^{-ε})` (exact, Canonne–Kamath–Steinke Algorithm 1), flip if `C = 1, B = 1`,
/// keep if `C = 0`, retry otherwise, so `Pr[flip] = e^{-ε}/(1 + e^{-ε})` exactly.
///
/// # Running time
/// O(1) expected per bit.
///
/// # Errors
/// None beyond constructing the [`Privacy`] (δ is ignored: the mechanism is pure).
///
/// # Example
/// ```
/// use privpac_mechanisms::{Privacy, RandomizedResponse};
/// use rand::SeedableRng;
/// let rr = RandomizedResponse::new(Privacy::pure(2.0)?);
/// assert!((rr.flip_probability() - 1.0 / (1.0 + 2f64.exp())).abs() < 1e-15);
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let noisy = rr.flip_labels(&[true, false, true], &mut rng);
/// assert_eq!(noisy.len(), 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RandomizedResponse {
    privacy: Privacy,
}

impl RandomizedResponse {
    /// Randomized response at `privacy.epsilon()`; the guarantee is pure.
    pub fn new(privacy: Privacy) -> Self {
        RandomizedResponse {
            privacy: Privacy::pure(privacy.epsilon()).unwrap_or(privacy),
        }
    }

    /// The flip probability `1/(1+e^ε)` that gives ε-DP.
    pub fn flip_probability(&self) -> f64 {
        flip_probability_for(self.privacy.epsilon())
    }

    /// Reports one bit.
    pub fn respond<R: Rng + ?Sized>(&self, bit: bool, rng: &mut R) -> bool {
        bit ^ self.flip(&mut RandomBits::new(rng))
    }

    /// Applies randomized response independently to every label.
    pub fn flip_labels<R: Rng + ?Sized>(&self, labels: &[bool], rng: &mut R) -> Vec<bool> {
        let mut bits = RandomBits::new(rng);
        labels
            .iter()
            .map(|&bit| bit ^ self.flip(&mut bits))
            .collect()
    }

    /// The exact output distribution `[Pr[0], Pr[1]]` for input `bit`, for audits.
    pub fn output_distribution(&self, bit: bool) -> [f64; 2] {
        let flip = self.flip_probability();
        if bit {
            [flip, 1.0 - flip]
        } else {
            [1.0 - flip, flip]
        }
    }

    fn flip<R: Rng + ?Sized>(&self, bits: &mut RandomBits<'_, R>) -> bool {
        loop {
            if !bits.bit() {
                return false;
            }
            if bits.bernoulli_exp_minus_f64(self.privacy.epsilon()) {
                return true;
            }
        }
    }
}

impl Private for RandomizedResponse {
    fn privacy(&self) -> Privacy {
        self.privacy
    }
}

/// The flip probability `1/(1+e^ε)` of ε-DP randomized response.
pub fn flip_probability_for(epsilon: f64) -> f64 {
    // 1/(1+e^ε) = e^{-ε}/(1+e^{-ε}) without overflow for large ε.
    let r = (-epsilon).exp();
    r / (1.0 + r)
}

/// The ε achieved by flipping with probability `p ∈ (0, 1/2)`: `ln((1-p)/p)`.
///
/// # Errors
/// [`crate::Error::InvalidProbability`] unless `0 < p < 1/2`.
pub fn epsilon_for_flip_probability(p: f64) -> Result<f64> {
    if p > 0.0 && p < 0.5 {
        Ok(((1.0 - p) / p).ln())
    } else {
        Err(crate::Error::InvalidProbability {
            name: "flip probability",
            range: "(0, 1/2)",
            value: p,
        })
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    #[test]
    fn exact_output_distributions_give_exactly_epsilon() {
        for epsilon in [0.1, 1.0, 3.0, 20.0] {
            let rr = RandomizedResponse::new(Privacy::pure(epsilon).unwrap());
            let p = rr.output_distribution(false);
            let q = rr.output_distribution(true);
            let measured = privpac_audit::max_divergence(&p, &q).unwrap();
            assert!(
                (measured - epsilon).abs() < 1e-9 * epsilon.max(1.0),
                "{measured}"
            );
            assert!(privpac_audit::check_claim([(&p[..], &q[..])], epsilon, 0.0, 1e-12).is_ok());
            // A claim of a smaller ε must be refuted.
            assert!(
                privpac_audit::check_claim([(&p[..], &q[..])], epsilon * 0.9, 0.0, 1e-12).is_err()
            );
        }
    }

    #[test]
    fn flip_rate_matches_the_probability() {
        for epsilon in [0.2, 1.0, 4.0] {
            let rr = RandomizedResponse::new(Privacy::pure(epsilon).unwrap());
            let mut rng = ChaCha8Rng::seed_from_u64(13);
            let labels = vec![true; 200_000];
            let flipped = rr
                .flip_labels(&labels, &mut rng)
                .iter()
                .filter(|&&b| !b)
                .count();
            // Clopper–Pearson at α = 1e-6.
            let ok = privpac_audit::binomial_within(
                flipped as u64,
                200_000,
                rr.flip_probability(),
                1e-6,
            )
            .unwrap();
            assert!(ok, "ε = {epsilon}: {flipped} flips");
            let single = (0..20_000).filter(|_| !rr.respond(true, &mut rng)).count() as u64;
            assert!(
                privpac_audit::binomial_within(single, 20_000, rr.flip_probability(), 1e-6)
                    .unwrap()
            );
        }
    }

    #[test]
    fn flip_probability_round_trips() {
        for epsilon in [0.01, 0.5, 5.0] {
            let p = flip_probability_for(epsilon);
            assert!((epsilon_for_flip_probability(p).unwrap() - epsilon).abs() < 1e-9);
        }
        assert_eq!(flip_probability_for(1e4), 0.0);
        for bad in [0.0, 0.5, 0.7, -0.1, f64::NAN] {
            assert!(epsilon_for_flip_probability(bad).is_err());
        }
    }
}
