//! The sparse vector technique: AboveThreshold and its c-fold repetition, over integer
//! queries with exact discrete Laplace noise.

use rand::Rng;

use crate::error::{Error, Result};
use crate::exact_bits::RandomBits;
use crate::noise::DiscreteLaplace;
use privpac_accounting::{CompositionRule, Privacy, Private, split_pure_budget};

mod stream;
pub use stream::{AnswerStream, EXPLICIT_QUESTIONS};

/// Sparse vector (Dwork–Roth Algorithms 1 and 2): answers a stream of integer queries of
/// sensitivity Δ with "above" or "below" a public threshold T, halting after `c` "above"
/// answers. Each of the `c` rounds is AboveThreshold with budget ε₀: a noisy threshold
/// `T + Lap_Z(2Δ/ε₀)` (drawn afresh after each "above"), and `q_i + Lap_Z(4Δ/ε₀)`
/// compared with it.
///
/// # Privacy
/// One round is ε₀-DP however many "below" answers it gives (Dwork–Roth Theorem 3.23; the
/// proof shifts the threshold noise by Δ and the winning query's noise by 2Δ, which works
/// verbatim for integer noise and integer Δ). The `c` rounds compose: with δ = 0 we use
/// ε₀ = ε/c (basic composition, Theorem 3.25); with δ > 0, the largest of ε/c, the ε₀
/// that solves the advanced-composition bound `√(2c ln(1/δ))·ε₀ + 2c·ε₀² = ε` (valid for
/// ε₀ ≤ 1, see [`crate::advanced_composition`]) and the ε₀ whose c-fold optimal
/// composition (Kairouz–Oh–Viswanath Theorem 3.3) is (ε, δ) ([`Self::round_budget`], which
/// also names the rule). The instance reports (ε, δ). Noise is sampled exactly and never
/// clamped ([`DiscreteLaplace::sample_wide_bits`]), and the noisy threshold and noisy
/// answers are computed exactly in `i128` for any `i64` threshold and answers (the ends of
/// the range included), so every comparison is the one the proof is about.
///
/// # Utility
/// AboveThreshold is (α, β)-accurate for k queries with `α = 8Δ(ln k + ln(2/β))/ε₀`
/// (Dwork–Roth Theorem 3.24).
///
/// # Running time
/// O(1) expected per query. A long stream whose answers are known by their counts is asked
/// at once by [`Self::first_above`], with the same distribution and no draw per question.
///
/// # Errors
/// Construction: [`Error::InvalidSensitivity`] for Δ = 0, [`Error::InvalidCount`] for
/// c = 0, [`Error::UnrepresentableScale`]. Queries: [`Error::SparseVectorExhausted`] after
/// c "above" answers.
///
/// # Example
/// ```
/// use privpac_mechanisms::{Privacy, SparseVector};
/// use rand::SeedableRng;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let mut svt = SparseVector::new(Privacy::pure(1.0)?, 1, 100, 1, &mut rng)?;
/// assert!(!svt.query(-10_000, &mut rng)?);
/// assert!(svt.query(10_000, &mut rng)?);
/// assert!(svt.query(5, &mut rng).is_err()); // budget of one "above" answer is spent
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SparseVector {
    privacy: Privacy,
    threshold: i64,
    threshold_noise: DiscreteLaplace,
    query_noise: DiscreteLaplace,
    max_above: u64,
    above_so_far: u64,
    noisy_threshold: i128,
    /// The rule that gave the per-round budget.
    rule: CompositionRule,
}

impl SparseVector {
    /// Starts a sparse-vector instance and draws the first noisy threshold.
    ///
    /// # Errors
    /// See the type documentation.
    pub fn new<R: Rng + ?Sized>(
        privacy: Privacy,
        sensitivity: u64,
        threshold: i64,
        max_above: u64,
        rng: &mut R,
    ) -> Result<Self> {
        if sensitivity == 0 {
            return Err(Error::InvalidSensitivity { value: 0.0 });
        }
        if max_above == 0 {
            return Err(Error::InvalidCount {
                name: "max_above",
                requirement: "at least 1",
                value: 0,
            });
        }
        let (epsilon_round, rule) = SparseVector::round_budget(privacy, max_above);
        let doubled = sensitivity
            .checked_mul(2)
            .ok_or(Error::InvalidSensitivity {
                value: sensitivity as f64,
            })?;
        let quadrupled = sensitivity
            .checked_mul(4)
            .ok_or(Error::InvalidSensitivity {
                value: sensitivity as f64,
            })?;
        let threshold_noise = DiscreteLaplace::for_epsilon(epsilon_round, doubled)?;
        let query_noise = DiscreteLaplace::for_epsilon(epsilon_round, quadrupled)?;
        let noisy_threshold = exact_noisy(threshold, threshold_noise, rng);
        Ok(SparseVector {
            privacy,
            threshold,
            threshold_noise,
            query_noise,
            max_above,
            above_so_far: 0,
            noisy_threshold,
            rule,
        })
    }

    /// The per-round budget ε₀ for `c` rounds under `privacy` (see the type docs).
    pub fn round_epsilon(privacy: Privacy, max_above: u64) -> f64 {
        SparseVector::round_budget(privacy, max_above).0
    }

    /// The per-round budget ε₀ for `c` rounds under `privacy` and the composition rule that
    /// gives it: [`privpac_accounting::split_pure_budget`] (the largest ε₀ among basic,
    /// advanced and, for δ > 0, optimal composition, each checked rounding up).
    ///
    /// # Example
    /// ```
    /// use privpac_accounting::CompositionRule;
    /// use privpac_mechanisms::{Privacy, SparseVector};
    /// let (each, rule) = SparseVector::round_budget(Privacy::new(1.0, 1e-6)?, 100);
    /// assert!(matches!(rule, CompositionRule::Optimal { .. }));
    /// assert!(each > 0.0240); // advanced composition: 0.0178; basic: 0.01
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn round_budget(privacy: Privacy, max_above: u64) -> (f64, CompositionRule) {
        split_pure_budget(privacy, max_above)
    }

    /// The composition rule of the c rounds (see [`Self::round_budget`]).
    pub fn rule(&self) -> CompositionRule {
        self.rule
    }

    /// Answers one query: `true` if the noisy answer is at or above the noisy threshold.
    ///
    /// # Errors
    /// [`Error::SparseVectorExhausted`] once `max_above` "above" answers were given.
    pub fn query<R: Rng + ?Sized>(&mut self, answer: i64, rng: &mut R) -> Result<bool> {
        if self.above_so_far >= self.max_above {
            return Err(Error::SparseVectorExhausted {
                limit: self.max_above,
            });
        }
        let noisy = exact_noisy(answer, self.query_noise, rng);
        if noisy >= self.noisy_threshold {
            self.above_so_far += 1;
            self.noisy_threshold = exact_noisy(self.threshold, self.threshold_noise, rng);
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// How many "above" answers remain.
    pub fn remaining(&self) -> u64 {
        self.max_above - self.above_so_far
    }
}

/// `value + Z` for an unclamped draw `Z`, exact in `i128` (`|value| ≤ 2^63`,
/// `|Z| < 2^126 + 2^63`).
fn exact_noisy<R: Rng + ?Sized>(value: i64, noise: DiscreteLaplace, rng: &mut R) -> i128 {
    i128::from(value) + noise.sample_wide_bits(&mut RandomBits::new(rng))
}

impl Private for SparseVector {
    fn privacy(&self) -> Privacy {
        self.privacy
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use privpac_accounting::{advanced_composition, optimal_composition};

    /// Exact distribution of the index of the first "above" among queries `answers` (or
    /// "none" as the last entry) for one AboveThreshold round, by summing over the
    /// threshold noise in a window holding all but ~1e-30 of its mass.
    fn exact_first_above(svt: &SparseVector, answers: &[i64]) -> Vec<f64> {
        let tn = svt.threshold_noise;
        let qn = svt.query_noise;
        let window = (tn.scale() * 80.0).ceil() as i64 + 2;
        let mut out = vec![0.0; answers.len() + 1];
        for z in -window..=window {
            let weight = tn.pmf(z);
            let noisy_threshold = svt.threshold + z;
            let mut still_below = 1.0;
            for (i, &a) in answers.iter().enumerate() {
                let above = qn.survival(noisy_threshold - a);
                out[i] += weight * still_below * above;
                still_below *= 1.0 - above;
            }
            out[answers.len()] += weight * still_below;
        }
        out
    }

    #[test]
    fn above_threshold_is_exactly_private_on_small_streams() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for epsilon in [0.5, 1.0, 2.0] {
            let svt =
                SparseVector::new(Privacy::pure(epsilon).unwrap(), 1, 3, 1, &mut rng).unwrap();
            let streams = [
                (vec![0, 1, 2, 3], vec![1, 2, 3, 4]),
                (vec![3, 3, 3], vec![2, 2, 4]),
                (vec![-5, 10, 0], vec![-4, 9, 1]),
                (vec![2, 2, 2, 2, 2], vec![3, 3, 3, 3, 3]),
            ];
            for (d, d_prime) in &streams {
                let p = exact_first_above(&svt, d);
                let q = exact_first_above(&svt, d_prime);
                let measured = privpac_audit::max_divergence(&p, &q).unwrap();
                assert!(measured <= epsilon + 1e-9, "ε = {epsilon}: {measured}");
            }
        }
    }

    #[test]
    fn sampled_first_above_matches_the_exact_distribution() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let answers = [0, 2, 3, 5];
        let template = SparseVector::new(Privacy::pure(1.0).unwrap(), 1, 3, 1, &mut rng).unwrap();
        let exact = exact_first_above(&template, &answers);
        let mut counts = vec![0u64; answers.len() + 1];
        for _ in 0..100_000 {
            let mut svt =
                SparseVector::new(Privacy::pure(1.0).unwrap(), 1, 3, 1, &mut rng).unwrap();
            let first = answers
                .iter()
                .position(|&a| svt.query(a, &mut rng).unwrap())
                .unwrap_or(answers.len());
            counts[first] += 1;
        }
        // χ² at α = 1e-6.
        let outcome = privpac_audit::chi_square_gof(&counts, &exact, 1e-6).unwrap();
        assert!(!outcome.rejected, "{counts:?} vs {exact:?}: {outcome:?}");
    }

    #[test]
    fn round_budget_follows_the_composition_rule() {
        let pure = Privacy::pure(1.0).unwrap();
        assert_eq!(SparseVector::round_epsilon(pure, 4), 0.25);
        assert_eq!(
            SparseVector::round_budget(pure, 4).1,
            CompositionRule::Basic
        );
        let approx = Privacy::new(1.0, 1e-6).unwrap();
        let (e0, rule) = SparseVector::round_budget(approx, 400);
        assert_eq!(rule, CompositionRule::Optimal { delta_prime: 1e-6 });
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let svt = SparseVector::new(approx, 1, 0, 400, &mut rng).unwrap();
        assert_eq!(svt.rule(), rule);
        let pure_svt = SparseVector::new(pure, 1, 0, 4, &mut rng).unwrap();
        assert_eq!(pure_svt.rule(), CompositionRule::Basic);
        let composed = optimal_composition(Privacy::pure(e0).unwrap(), 400, 1e-6)
            .unwrap()
            .epsilon();
        assert!(composed <= 1.0 && composed > 1.0 - 1e-9, "{composed}");
        // Larger than the advanced-composition root, which composes to 1 under its own rule.
        let a = (800.0f64 * 1e6f64.ln()).sqrt();
        let advanced = (-a + (a * a + 3200.0).sqrt()) / 1600.0;
        let by_advanced = advanced_composition(Privacy::pure(advanced).unwrap(), 400, 1e-6)
            .unwrap()
            .epsilon();
        assert!((by_advanced - 1.0).abs() < 1e-9, "{by_advanced}");
        assert!(e0 > 1.1 * advanced, "{e0} vs {advanced}");
        // Negative control: 1% more per round composes above ε.
        let over = optimal_composition(Privacy::pure(e0 * 1.01).unwrap(), 400, 1e-6).unwrap();
        assert!(over.epsilon() > 1.0);
    }

    /// The exact real product c·ε₀ is at most ε (a fused multiply-add gives its sign).
    fn basic_fits(c: u64, e0: f64, epsilon: f64) -> bool {
        (c as f64).mul_add(e0, -epsilon) <= 0.0
    }

    #[test]
    fn round_budget_composes_to_at_most_epsilon_after_rounding_up() {
        let mut shrunk = 0;
        for epsilon in [0.1, 0.3, 0.7, 1.0, 2.5] {
            for c in [1u64, 2, 3, 7, 10, 33, 49, 400, 1000, 65_537] {
                let pure = Privacy::pure(epsilon).unwrap();
                let e0 = SparseVector::round_epsilon(pure, c);
                assert!(basic_fits(c, e0, epsilon), "ε = {epsilon}, c = {c}: {e0}");
                assert!(e0 >= epsilon / c as f64 * (1.0 - 1e-12));
                shrunk += usize::from(e0 < epsilon / c as f64);
                for delta in [1e-9, 1e-6, 1e-3] {
                    let approx = Privacy::new(epsilon, delta).unwrap();
                    let (e0, rule) = SparseVector::round_budget(approx, c);
                    let each = Privacy::pure(e0).unwrap();
                    let total = match rule {
                        CompositionRule::Basic => {
                            assert!(basic_fits(c, e0, epsilon), "ε = {epsilon}, c = {c}");
                            continue;
                        }
                        CompositionRule::Advanced { .. } => advanced_composition(each, c, delta),
                        CompositionRule::Optimal { .. } => optimal_composition(each, c, delta),
                        other => panic!("unexpected rule {other:?}"),
                    };
                    let total = total.unwrap().epsilon();
                    assert!(
                        total <= epsilon,
                        "ε = {epsilon}, δ = {delta}, c = {c}: {e0}, {total}"
                    );
                    // Never below what basic composition alone allows.
                    assert!(e0 >= epsilon / c as f64 * (1.0 - 1e-12));
                }
            }
        }
        // Some ε/c round up in floating point (1/10 does: 10 × 0.1 > 1): those had to shrink.
        assert!(!basic_fits(10, 1.0 / 10.0, 1.0));
        assert!(shrunk > 0);
    }

    /// Issue 27: with draws clamped to `±(2^63 − 1)`, the query `i64::MIN` against the
    /// threshold `i64::MAX` could never be "above" (it needs `Z_q − Z_T ≥ 2^64 − 1`) while
    /// the neighbouring answer `i64::MIN + 1` could: probability 0 against a positive
    /// one. With exact noisy values, `Z_T = −2^63` and `Z_q = 2^63` give the noisy threshold
    /// −1 and the noisy answer 0: "above".
    #[test]
    fn noisy_values_at_the_ends_of_i64_are_exact() {
        use crate::exact_bits::script::BitScript;
        // ε₀ = 2^-38: threshold noise at scale 2^39, query noise at scale 2^40.
        let privacy = Privacy::pure(2f64.powi(-38)).unwrap();
        let mut script = BitScript::default();
        script.push_draw(39, 1 << 24, true);
        script.align(); // each draw reads a fresh bit buffer
        script.push_draw(40, 1 << 23, false);
        script.align();
        script.push_draw(39, 0, false); // the fresh threshold after an "above"
        let mut svt = SparseVector::new(privacy, 1, i64::MAX, 1, &mut script).unwrap();
        assert_eq!(svt.threshold_noise.scale_ratio(), (1 << 39, 1));
        assert_eq!(svt.query_noise.scale_ratio(), (1 << 40, 1));
        assert_eq!(svt.noisy_threshold, -1);
        assert!(svt.query(i64::MIN, &mut script).unwrap());
    }

    #[test]
    fn invalid_input_gives_typed_errors() {
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let pure = Privacy::pure(1.0).unwrap();
        assert!(matches!(
            SparseVector::new(pure, 0, 0, 1, &mut rng),
            Err(Error::InvalidSensitivity { .. })
        ));
        assert!(matches!(
            SparseVector::new(pure, 1, 0, 0, &mut rng),
            Err(Error::InvalidCount { .. })
        ));
        let mut svt = SparseVector::new(pure, 1, 0, 1, &mut rng).unwrap();
        assert!(svt.query(1 << 40, &mut rng).unwrap());
        assert_eq!(svt.remaining(), 0);
        assert_eq!(
            svt.query(0, &mut rng),
            Err(Error::SparseVectorExhausted { limit: 1 })
        );
    }
}
