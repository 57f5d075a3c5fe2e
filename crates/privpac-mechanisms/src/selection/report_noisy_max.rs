//! Report-noisy-max over integer scores with exact discrete Laplace noise.

use rand::Rng;

use crate::error::{Error, Result};
use crate::exact_bits::RandomBits;
use crate::noise::DiscreteLaplace;
use privpac_accounting::{Privacy, Private};

/// Report-noisy-max: add independent `Lap_Z(2Δ/ε)` noise to every integer score and
/// return the index of the largest noisy score (the lowest index among ties).
///
/// # Privacy
/// ε-differentially private for integer scores of sensitivity Δ. Proof sketch (the
/// argument of Dwork–Roth Claim 3.9, adapted to integer noise and arbitrary, not only
/// monotone, scores): fix the noise of all other candidates; candidate `i` wins exactly
/// when its noise `Z_i` is at least an integer threshold `t_i` determined by the other
/// noisy scores and the tie rule. On a neighbouring input every score moves by at most Δ,
/// so `t_i` moves by at most 2Δ, and `Pr[Z ≥ t] / Pr[Z ≥ t + 2Δ] ≤ e^{2Δ/b} = e^ε` for
/// `b = 2Δ/ε`. The noise is sampled exactly and never clamped
/// ([`DiscreteLaplace::sample_wide_bits`]), and every noisy score `q_i + Z_i` is computed
/// exactly in `i128`, for scores anywhere in `i64` (the ends included), so the output is
/// the argmax of the exact noisy scores and the guarantee holds for the implementation.
/// For monotone scores (counting queries) scale `Δ/ε` would suffice; this
/// type does not assume monotonicity.
///
/// # Running time
/// O(N) noise draws for N candidates.
///
/// # Errors
/// [`Error::InvalidDelta`] for a non-pure guarantee, [`Error::InvalidSensitivity`] for
/// Δ = 0, [`Error::UnrepresentableScale`] when 2Δ/ε exceeds 2^40;
/// [`Error::EmptyCandidates`] when selecting from nothing.
///
/// # Example
/// ```
/// use privpac_mechanisms::{Privacy, ReportNoisyMax};
/// use rand::SeedableRng;
/// let rnm = ReportNoisyMax::new(Privacy::pure(1.0)?, 1)?;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
/// let winner = rnm.select(&[10, 500, 3], &mut rng)?;
/// assert_eq!(winner, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReportNoisyMax {
    privacy: Privacy,
    noise: DiscreteLaplace,
}

impl ReportNoisyMax {
    /// Builds the mechanism for a pure guarantee and integer sensitivity Δ ≥ 1.
    ///
    /// # Errors
    /// See the type documentation.
    pub fn new(privacy: Privacy, sensitivity: u64) -> Result<Self> {
        if !privacy.is_pure() {
            return Err(Error::InvalidDelta {
                value: privacy.delta(),
            });
        }
        let doubled = sensitivity
            .checked_mul(2)
            .ok_or(Error::InvalidSensitivity {
                value: sensitivity as f64,
            })?;
        let noise = DiscreteLaplace::for_epsilon(privacy.epsilon(), doubled)?;
        Ok(ReportNoisyMax { privacy, noise })
    }

    /// The per-score noise distribution `Lap_Z(2Δ/ε)`.
    pub fn noise(&self) -> DiscreteLaplace {
        self.noise
    }

    /// The index of the largest noisy score.
    ///
    /// # Errors
    /// [`Error::EmptyCandidates`].
    pub fn select<R: Rng + ?Sized>(&self, scores: &[i64], rng: &mut R) -> Result<usize> {
        if scores.is_empty() {
            return Err(Error::EmptyCandidates);
        }
        let mut bits = RandomBits::new(rng);
        let mut best_index = 0;
        let mut best_value = i128::MIN;
        for (index, &score) in scores.iter().enumerate() {
            // Exact: |score| ≤ 2^63 and the unclamped draw is below 2^126 + 2^63.
            let noisy = i128::from(score) + self.noise.sample_wide_bits(&mut bits);
            if noisy > best_value {
                best_value = noisy;
                best_index = index;
            }
        }
        Ok(best_index)
    }
}

impl Private for ReportNoisyMax {
    fn privacy(&self) -> Privacy {
        self.privacy
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// Exact `Pr[output = 0]` for two candidates: `Pr[q0 + Z0 ≥ q1 + Z1]` (ties go to 0),
    /// summing over `Z1` in a window that holds all but ~1e-30 of the mass.
    fn exact_first_wins(noise: DiscreteLaplace, q0: i64, q1: i64) -> f64 {
        let window = (noise.scale() * 80.0).ceil() as i64 + 2;
        (-window..=window)
            .map(|z1| noise.pmf(z1) * noise.survival(q1 + z1 - q0))
            .sum()
    }

    #[test]
    fn two_candidate_output_distribution_is_exactly_private() {
        let mut pairs = Vec::new();
        for epsilon in [0.5, 1.0, 2.0] {
            let rnm = ReportNoisyMax::new(Privacy::pure(epsilon).unwrap(), 1).unwrap();
            for (q0, q1) in [(0, 0), (3, 1), (-2, 4), (10, 10)] {
                for (d0, d1) in [(1, -1), (-1, 1), (1, 1), (0, -1)] {
                    let p = exact_first_wins(rnm.noise(), q0, q1);
                    let q = exact_first_wins(rnm.noise(), q0 + d0, q1 + d1);
                    pairs.push((epsilon, vec![p, 1.0 - p], vec![q, 1.0 - q]));
                }
            }
        }
        for (epsilon, p, q) in &pairs {
            let measured = privpac_audit::max_divergence(p, q).unwrap();
            assert!(
                measured <= epsilon + 1e-9,
                "ε = {epsilon}: measured {measured}"
            );
        }
    }

    #[test]
    fn sampled_winner_frequencies_match_the_exact_computation() {
        let rnm = ReportNoisyMax::new(Privacy::pure(1.0).unwrap(), 1).unwrap();
        let p = exact_first_wins(rnm.noise(), 2, 0);
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let trials = 100_000;
        let wins = (0..trials)
            .filter(|_| rnm.select(&[2, 0], &mut rng).unwrap() == 0)
            .count() as u64;
        // Clopper–Pearson at α = 1e-6.
        assert!(
            privpac_audit::binomial_within(wins, trials, p, 1e-6).unwrap(),
            "{wins} vs {p}"
        );
    }

    /// Issue 27: with draws clamped to `±(2^63 − 1)`, candidate 0 could never win on the
    /// scores `[i64::MIN, i64::MAX]` (it needs `Z_0 − Z_1 ≥ 2^64 − 1`) but could on the
    /// neighbour `[i64::MIN + 1, i64::MAX − 1]` (Δ = 1): an output of probability 0 on one
    /// input and positive on the other. With exact noisy scores, the draws `Z_0 = 2^63`,
    /// `Z_1 = −2^63` make the noisy scores 0 and −1, and candidate 0 wins.
    #[test]
    fn noisy_scores_at_the_ends_of_i64_are_exact() {
        let rnm = ReportNoisyMax::new(Privacy::pure(2f64.powi(-39)).unwrap(), 1).unwrap();
        assert_eq!(rnm.noise().scale_ratio(), (1 << 40, 1));
        let mut script = crate::exact_bits::script::BitScript::default();
        script.push_draw(40, 1 << 23, false);
        script.push_draw(40, 1 << 23, true);
        assert_eq!(rnm.select(&[i64::MIN, i64::MAX], &mut script).unwrap(), 0);
        // The same draws one step inside the range: noisy scores 1 and −2.
        let mut script = crate::exact_bits::script::BitScript::default();
        script.push_draw(40, 1 << 23, false);
        script.push_draw(40, 1 << 23, true);
        assert_eq!(
            rnm.select(&[i64::MIN + 1, i64::MAX - 1], &mut script)
                .unwrap(),
            0
        );
    }

    #[test]
    fn invalid_input_gives_typed_errors() {
        let pure = Privacy::pure(1.0).unwrap();
        assert!(matches!(
            ReportNoisyMax::new(pure, 0),
            Err(Error::InvalidSensitivity { .. })
        ));
        assert!(matches!(
            ReportNoisyMax::new(Privacy::new(1.0, 0.1).unwrap(), 1),
            Err(Error::InvalidDelta { .. })
        ));
        let rnm = ReportNoisyMax::new(pure, 1).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert_eq!(rnm.select(&[], &mut rng), Err(Error::EmptyCandidates));
    }
}
