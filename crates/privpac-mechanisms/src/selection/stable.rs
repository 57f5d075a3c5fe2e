//! Stability-based selection, `A_dist`: release the best candidate only when it wins by a
//! noisy margin.

use rand::Rng;

use crate::error::{Error, Result};
use crate::exact_bits::RandomBits;
use crate::noise::DiscreteLaplace;
use privpac_accounting::{Privacy, Private};

/// The result of [`StableSelection::select`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StableSelectionOutcome {
    /// The highest-scoring candidate (lowest index among ties) was released.
    Selected(usize),
    /// The noisy gap was below the threshold: no answer (⊥).
    Bottom,
}

/// `A_dist`: stability-based selection of Smith and Thakurta (2013), as stated in
/// Algorithm 3 of Bun, Nissim and Stemmer, "Simultaneous private learning of multiple
/// concepts" (ITCS 2016).
///
/// With `f1` the best candidate (lowest index among ties) and `gap = q(f1) − max_{f≠f1}
/// q(f)`, release `f1` if `gap + Z ≥ τ` and ⊥ otherwise, where `Z ~ Lap_Z(b)`, `b = 2Δ/ε`,
/// and `τ = 2Δ + ⌈b·ln(1/δ)⌉ + 1`.
///
/// # Privacy
/// (ε, δ)-differentially private for integer scores of sensitivity Δ. The gap has
/// sensitivity 2Δ (the best score can rise by Δ while the runner-up falls by Δ), so this
/// implementation calibrates the noise to 2Δ rather than Δ: Algorithm 3 as printed (with
/// its Proposition 3.11(1)) adds `Lap(1/ε)` and compares with `(1/ε)·log(1/δ)`, which for
/// a sensitivity-1 quality is only about `(2ε, e^{2ε}δ/2)`-DP. With the corrected noise
/// the utility threshold roughly doubles, and so do the constants of the algorithms built
/// on it (their Algorithms 4 and 5). Proof for this calibration: on neighbours `D, D'`
/// with the same best candidate, the output is post-processing of the discrete Laplace
/// mechanism on the gap, hence ε-DP. If the best candidate differs, both gaps are at most
/// 2Δ, so `Pr[A(D) = f1(D)] ≤ Pr[Z ≥ τ − 2Δ] ≤ e^{-(τ−2Δ)/b} ≤ δ` while `Pr[A(D') =
/// f1(D)] = 0`, and the probabilities of ⊥ differ by a factor at most `e^{2Δ/b} = e^ε`.
/// The noise is sampled exactly.
///
/// # Utility
/// If `gap ≥ τ + b·ln(1/β)` the best candidate is released with probability ≥ 1 − β.
///
/// # Running time
/// O(N) for N candidates and one noise draw.
///
/// # Errors
/// Construction: [`Error::InvalidDelta`] if δ = 0 (A_dist needs δ > 0),
/// [`Error::InvalidSensitivity`] for Δ = 0, [`Error::UnrepresentableScale`]. Selection:
/// [`Error::TooFewCandidates`] for fewer than two candidates.
///
/// # Example
/// ```
/// use privpac_mechanisms::{Privacy, StableSelection, StableSelectionOutcome};
/// use rand::SeedableRng;
/// let a_dist = StableSelection::new(Privacy::new(1.0, 1e-6)?, 1)?;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
/// let clear_winner = a_dist.select(&[1000, 3, 2], &mut rng)?;
/// assert_eq!(clear_winner, StableSelectionOutcome::Selected(0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # References
/// A. Smith, A. Thakurta, "Differentially private feature selection via stability
/// arguments, and the robustness of the Lasso", COLT 2013.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StableSelection {
    privacy: Privacy,
    noise: DiscreteLaplace,
    threshold: i64,
}

impl StableSelection {
    /// Builds `A_dist` for an (ε, δ) guarantee with δ > 0 and integer sensitivity Δ ≥ 1.
    ///
    /// # Errors
    /// See the type documentation.
    pub fn new(privacy: Privacy, sensitivity: u64) -> Result<Self> {
        if privacy.is_pure() {
            return Err(Error::InvalidDelta { value: 0.0 });
        }
        let doubled = sensitivity
            .checked_mul(2)
            .filter(|&d| d > 0 && d < 1 << 40)
            .ok_or(Error::InvalidSensitivity {
                value: sensitivity as f64,
            })?;
        let noise = DiscreteLaplace::for_epsilon(privacy.epsilon(), doubled)?;
        // The rational scale is at least 2Δ/ε; +1 absorbs rounding in the float product.
        let tail = (noise.scale() * (1.0 / privacy.delta()).ln()).ceil() + 1.0;
        let threshold = doubled as f64 + tail;
        if !(threshold.is_finite() && threshold < (1u64 << 62) as f64) {
            return Err(Error::UnrepresentableScale { value: threshold });
        }
        Ok(StableSelection {
            privacy,
            noise,
            threshold: threshold as i64,
        })
    }

    /// The noise distribution `Lap_Z(2Δ/ε)`.
    pub fn noise(&self) -> DiscreteLaplace {
        self.noise
    }

    /// The threshold τ the noisy gap must reach.
    pub fn threshold(&self) -> i64 {
        self.threshold
    }

    /// The best candidate and its gap over the runner-up (lowest index wins ties).
    ///
    /// # Errors
    /// [`Error::TooFewCandidates`] for fewer than two candidates.
    pub fn best_and_gap(scores: &[i64]) -> Result<(usize, i128)> {
        if scores.len() < 2 {
            return Err(Error::TooFewCandidates {
                count: scores.len(),
            });
        }
        let mut best = 0;
        for (index, &score) in scores.iter().enumerate() {
            if score > scores[best] {
                best = index;
            }
        }
        let runner_up = scores
            .iter()
            .enumerate()
            .filter(|&(index, _)| index != best)
            .map(|(_, &score)| score)
            .max()
            .unwrap_or(scores[best]);
        Ok((best, scores[best] as i128 - runner_up as i128))
    }

    /// Runs `A_dist` on integer scores.
    ///
    /// # Errors
    /// [`Error::TooFewCandidates`] for fewer than two candidates.
    pub fn select<R: Rng + ?Sized>(
        &self,
        scores: &[i64],
        rng: &mut R,
    ) -> Result<StableSelectionOutcome> {
        let (best, gap) = StableSelection::best_and_gap(scores)?;
        // Exact: |gap| ≤ 2^64 and the unclamped draw is below 2^127 − 2^64.
        let noisy_gap = gap + self.noise.sample_wide_bits(&mut RandomBits::new(rng));
        Ok(if noisy_gap >= self.threshold as i128 {
            StableSelectionOutcome::Selected(best)
        } else {
            StableSelectionOutcome::Bottom
        })
    }

    /// The exact output distribution over `[candidate 0, …, candidate N−1, ⊥]` (computed
    /// in floating point from the discrete Laplace tail), for audits and teaching.
    ///
    /// # Errors
    /// [`Error::TooFewCandidates`] for fewer than two candidates.
    pub fn output_distribution(&self, scores: &[i64]) -> Result<Vec<f64>> {
        let (best, gap) = StableSelection::best_and_gap(scores)?;
        let needed = (self.threshold as i128 - gap).clamp(i64::MIN as i128, i64::MAX as i128);
        let selected = self.noise.survival(needed as i64);
        let mut distribution = vec![0.0; scores.len() + 1];
        distribution[best] = selected;
        distribution[scores.len()] = 1.0 - selected;
        Ok(distribution)
    }
}

impl Private for StableSelection {
    fn privacy(&self) -> Privacy {
        self.privacy
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    fn a_dist(epsilon: f64, delta: f64, sensitivity: u64) -> StableSelection {
        StableSelection::new(Privacy::new(epsilon, delta).unwrap(), sensitivity).unwrap()
    }

    #[test]
    fn exact_output_distributions_satisfy_the_claim() {
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        for trial in 0..400 {
            let (epsilon, delta) = [(0.5, 1e-3), (1.0, 1e-6), (2.0, 0.05)][trial % 3];
            let sensitivity = 1 + (trial % 2) as u64;
            let mech = a_dist(epsilon, delta, sensitivity);
            let n = rng.random_range(2..6);
            // Scores near the threshold make the audit meaningful.
            let spread = mech.threshold() + 4;
            let scores: Vec<i64> = (0..n).map(|_| rng.random_range(0..spread)).collect();
            let s = sensitivity as i64;
            let neighbour: Vec<i64> = scores
                .iter()
                .map(|q| q + rng.random_range(-s..=s))
                .collect();
            let p = mech.output_distribution(&scores).unwrap();
            let q = mech.output_distribution(&neighbour).unwrap();
            let report =
                privpac_audit::check_claim([(p.as_slice(), q.as_slice())], epsilon, delta, 1e-12);
            assert!(
                report.is_ok(),
                "trial {trial}: {scores:?} vs {neighbour:?}: {report:?}"
            );
        }
    }

    #[test]
    fn calibrating_to_the_gap_sensitivity_is_necessary() {
        // Negative control: a mechanism told Δ = 1 while neighbours move every score by 2
        // sees the gap move by 4, twice what its noise covers; the audit must reject it.
        let wrong = a_dist(1.0, 1e-6, 1);
        let base = wrong.threshold();
        let scores = [base, 0];
        let neighbour = [base + 2, -2]; // each score moved by 2 = twice the told Δ
        let p = wrong.output_distribution(&scores).unwrap();
        let q = wrong.output_distribution(&neighbour).unwrap();
        let result = privpac_audit::check_claim([(p.as_slice(), q.as_slice())], 1.0, 1e-6, 1e-12);
        assert!(result.is_err(), "{result:?}");
    }

    #[test]
    fn sampler_matches_the_exact_distribution() {
        let mech = a_dist(1.0, 1e-3, 1);
        let scores = [mech.threshold(), 0, 1];
        let exact = mech.output_distribution(&scores).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        let trials = 100_000;
        let selected = (0..trials)
            .filter(|_| {
                mech.select(&scores, &mut rng).unwrap() == StableSelectionOutcome::Selected(0)
            })
            .count() as u64;
        // Clopper–Pearson at α = 1e-6.
        assert!(privpac_audit::binomial_within(selected, trials, exact[0], 1e-6).unwrap());
    }

    #[test]
    fn clear_winners_are_released() {
        let mech = a_dist(1.0, 1e-6, 1);
        let beta: f64 = 1e-9;
        let margin = mech.threshold() + (mech.noise().scale() * (1.0 / beta).ln()).ceil() as i64;
        let dist = mech.output_distribution(&[margin, 0]).unwrap();
        assert!(dist[0] >= 1.0 - beta, "{dist:?}");
    }

    #[test]
    fn invalid_input_gives_typed_errors() {
        let pure = Privacy::pure(1.0).unwrap();
        assert!(matches!(
            StableSelection::new(pure, 1),
            Err(Error::InvalidDelta { .. })
        ));
        let approx = Privacy::new(1.0, 1e-6).unwrap();
        assert!(matches!(
            StableSelection::new(approx, 0),
            Err(Error::InvalidSensitivity { .. })
        ));
        let mech = a_dist(1.0, 1e-6, 1);
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert_eq!(
            mech.select(&[5], &mut rng),
            Err(Error::TooFewCandidates { count: 1 })
        );
        assert_eq!(
            mech.output_distribution(&[]),
            Err(Error::TooFewCandidates { count: 0 })
        );
    }
}
