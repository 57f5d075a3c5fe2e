//! A private learner of one's own, outside privpac's workspace: local randomized response on
//! every example, then ERM on the reports ([`RandomizedResponseErm`]).
//!
//! This crate is the worked example of the "Your own learner in your own crate" section of
//! `docs/guides/add-a-learner.md`. It shows the three things a researcher needs:
//!
//! 1. implementing [`privpac_learners::Learner`] for a type of one's own (this file, about a
//!    hundred lines of code), so that privpac's engine runs it like a built-in;
//! 2. an exact output distribution ([`RandomizedResponseErm::concept_distribution`]) and the
//!    exact audit of the claimed ε on every pair of neighbouring samples of a tiny domain
//!    with `privpac-audit` ([`exact_audit`]);
//! 3. the empirical sample complexity measured by `privpac-engine` beside a proved bound
//!    ([`RandomizedResponseErm::sample_size_bound`]); see `src/main.rs`.

use privpac_accounting::{Guarantee, Privacy};
use privpac_audit::{PureAuditReport, check_pure_claim, neighbouring_datasets, output_pairs};
use privpac_classes::{ConceptClass, Hypothesis, LabeledSample, Point};
use privpac_learners::{Error, Learner, Predictor, Result};
use rand::{Rng, RngExt};

/// The largest domain the learner accepts: 2^32 points, so that the number of report cells
/// `K = 2|X|` and `K − 1` are exact in `f64`.
pub const MAX_DOMAIN: u128 = 1 << 32;

/// The smallest ε the learner accepts (see the floating-point paragraph of
/// [`RandomizedResponseErm`]).
pub const MIN_EPSILON: f64 = 1e-6;

/// The most report sequences (`K^n`) and concepts
/// [`RandomizedResponseErm::concept_distribution`] enumerates: exact distributions are for
/// tiny instances.
pub const MAX_ENUMERATED: u128 = 1 << 20;

/// Local randomized response, then ERM: every example `(x, y)` is replaced by a report, itself
/// with probability `p = e^ε / (e^ε + K − 1)` and otherwise one of the other `K − 1` labeled
/// examples of the domain (`K = 2|X|` cells), uniformly; the hypothesis is the first concept
/// (smallest id) with the fewest mistakes on the reports (as [`privpac_learners::Erm`] in
/// agnostic mode).
///
/// # Privacy: ε-DP (δ = 0), with respect to samples of one size differing in one example
/// Proof. Reports are drawn independently, so for samples `S`, `S'` that differ only in
/// example `j` and any report sequence `z`, `Pr[z | S] / Pr[z | S'] = Pr[z_j | s_j] /
/// Pr[z_j | s'_j]`, which is `1`, `p/q` or `q/p` with `q = (1 − p)/(K − 1)`; and `p/q =
/// e^ε`. The hypothesis is a deterministic function of `z` (post-processing), so summing over
/// the `z` that give a concept `h` yields `Pr[h | S] ≤ e^ε · Pr[h | S']`. ∎
///
/// In floating point: `p` is computed as `1 / (1 + (K − 1)·e^{−ε})` (a few ulps of error) and
/// then lowered by `8·f64::EPSILON` relatively, so it is below the real `p`; rand's
/// `random_bool(p)` keeps with probability `⌊p·2^64⌋/2^64 ≤ p`, and the other cell is drawn
/// exactly uniformly (rand's `unbiased` feature). A smaller keep probability only lowers
/// `p/q`, so the realized `p/q` is at most `e^ε`. It raises `q/p` above `e^{−ε}`: with the
/// realized keep probability `p(1 − η)`, `q/p ≤ (e^{−ε} + η)/(1 − η)`, which is at most `e^ε`
/// when `η(1 + e^ε) ≤ 2·sinh ε`, so whenever `η ≤ ε/2` (for ε ≤ 1; easier above). Here
/// `η ≤ 12·f64::EPSILON + 2^{−64}·K ≤ 5·10^{−10}` (`p ≥ 1/K`, `K ≤ 2^33`), hence
/// ε ≥ [`MIN_EPSILON`] = 10^{−6}. [`exact_audit`] checks the claim on every pair of
/// neighbouring samples of tiny domains.
///
/// # Sample complexity (realizable)
/// With `γ = p − q = (e^ε − 1)/(e^ε + K − 1)`, `n ≥ 2·ln(2|C|/β)/(γα)²` examples drawn
/// from any distribution `D` and labeled by a concept of the finite class `C` give error at
/// most α with probability at least `1 − β` ([`Self::sample_size_bound`]).
///
/// Proof. A concept `c` misclassifies exactly one of the two cells `(x, 0)`, `(x, 1)` of
/// each point, so `|X|` of the `K` cells. A report lands on cell `u` with probability
/// `q + γ·Pr_D[u]`, so the fraction `m_c` of reports `c` misclassifies has mean `|X|·q +
/// γ·err_D(c)`. By Hoeffding's inequality and a union bound over `C`, with probability at
/// least `1 − 2|C|·e^{−n(γα)²/2}` every `m_c` is within `γα/2` of its mean. Then every `c`
/// with `err_D(c) > α` has `m_c > |X|q + γα/2 > m_{c*}` for the target `c*`
/// (`err_D(c*) = 0`), so ERM does not output it. ∎
///
/// The bound grows like `K²/ε²` for small ε: the price of randomizing every example locally,
/// against `O(ln|C|/(εα))` for the central exponential mechanism
/// ([`privpac_learners::GenericLearner`]).
///
/// # Errors
/// [`Error::Accounting`] for ε not finite and positive; [`Error::InvalidParameter`] for ε
/// below [`MIN_EPSILON`] or a domain above [`MAX_DOMAIN`] points; [`Error::Class`] for a sample outside the class's domain.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RandomizedResponseErm {
    privacy: Privacy,
}

impl RandomizedResponseErm {
    /// The learner with privacy parameter ε.
    ///
    /// # Errors
    /// [`Error::Accounting`] unless ε is finite and positive; [`Error::InvalidParameter`]
    /// below [`MIN_EPSILON`].
    pub fn new(epsilon: f64) -> Result<Self> {
        let privacy = Privacy::pure(epsilon)?;
        if epsilon < MIN_EPSILON {
            return Err(Error::InvalidParameter {
                name: "epsilon",
                requirement: "at least 1e-6 (below, rounding could exceed the claim)",
                value: epsilon,
            });
        }
        Ok(Self { privacy })
    }

    /// The number of report cells `K = 2|X|` of the class's domain.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] above [`MAX_DOMAIN`] points.
    pub fn cells(class: &dyn ConceptClass) -> Result<u64> {
        let size = class.domain().size();
        if size > MAX_DOMAIN {
            return Err(Error::InvalidParameter {
                name: "domain size",
                requirement: "at most 2^32 points",
                value: size as f64,
            });
        }
        Ok(2 * size as u64)
    }

    /// The probability `p` that a report is the example itself, rounded down (see the type's
    /// documentation); every other cell has probability `(1 − p)/(K − 1)`.
    pub fn keep_probability(&self, cells: u64) -> f64 {
        let others = (cells - 1) as f64;
        let p = 1.0 / (1.0 + others * (-self.privacy.epsilon()).exp());
        p * (1.0 - 8.0 * f64::EPSILON)
    }

    /// The exact distribution of the learned concept id on `sample`, by enumerating every
    /// report sequence (`K^n` of them) and running the same ERM as [`Learner::learn`].
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] if `K^n` or the class size exceeds [`MAX_ENUMERATED`];
    /// as for [`Learner::learn`].
    pub fn concept_distribution(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
    ) -> Result<Vec<f64>> {
        let cells = Self::cells(class)?;
        sample.check_domain(class.domain())?;
        let sequences = (cells as u128).checked_pow(sample.len() as u32);
        let size = sequences.filter(|&s| s <= MAX_ENUMERATED && class.len() <= MAX_ENUMERATED);
        let Some(sequences) = size else {
            return Err(Error::InvalidParameter {
                name: "report sequences K^n (and concepts)",
                requirement: "at most 2^20",
                value: sequences.map_or(f64::INFINITY, |s| s as f64),
            });
        };
        let truth: Vec<u64> = sample.iter().map(|(x, y)| cell(class, x, y)).collect();
        let keep = self.keep_probability(cells);
        let other = (1.0 - keep) / (cells - 1) as f64;
        let mut distribution = vec![0.0; class.len() as usize];
        let mut reports = vec![0u64; truth.len()];
        for _ in 0..sequences {
            let probability: f64 = (reports.iter().zip(&truth))
                .map(|(r, t)| if r == t { keep } else { other })
                .product();
            distribution[erm(class, &reports)? as usize] += probability;
            // The next sequence, as an odometer over base K.
            for digit in &mut reports {
                *digit += 1;
                if *digit < cells {
                    break;
                }
                *digit = 0;
            }
        }
        Ok(distribution)
    }

    /// The proved sample size `2·ln(2|C|/β)/(γα)²` (see the type's documentation), in the
    /// realizable case.
    ///
    /// # Errors
    /// As for [`Self::cells`].
    pub fn sample_size_bound(
        &self,
        class: &dyn ConceptClass,
        alpha: f64,
        beta: f64,
    ) -> Result<f64> {
        let cells = Self::cells(class)?;
        let keep = self.keep_probability(cells);
        let gamma = keep - (1.0 - keep) / (cells - 1) as f64;
        Ok((2.0 * (2.0 * class.len() as f64 / beta).ln() / (gamma * alpha).powi(2)).ceil())
    }
}

/// The cell `2·index(x) + y` of a labeled example (`x` is in the domain).
fn cell(class: &dyn ConceptClass, x: Point, y: bool) -> u64 {
    2 * class.domain().index_of(x).unwrap_or(0) + u64::from(y)
}

/// ERM on the reports given as cells: the first concept (smallest id) with the fewest
/// mistakes, as [`privpac_learners::Erm`] in agnostic mode.
fn erm(class: &dyn ConceptClass, reports: &[u64]) -> Result<u64> {
    let domain = class.domain();
    let pairs: Vec<(Point, bool)> = reports
        .iter()
        .map(|&c| (domain.point_at(c / 2).unwrap_or(0), c % 2 == 1))
        .collect();
    let reported = LabeledSample::from_pairs(domain, &pairs)?;
    // The runs are in id order and `min_by_key` keeps the first minimum.
    let runs = class.error_runs(&reported)?;
    let best = runs.iter().min_by_key(|run| run.errors);
    best.map(|run| run.first).ok_or(Error::EmptySample)
}

impl Learner for RandomizedResponseErm {
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Predictor> {
        let cells = Self::cells(class)?;
        sample.check_domain(class.domain())?;
        let keep = self.keep_probability(cells);
        let mut reports = Vec::with_capacity(sample.len());
        for (x, y) in sample.iter() {
            let truth = cell(class, x, y);
            let report = if rng.random_bool(keep) {
                truth
            } else {
                // Uniform over the K − 1 other cells.
                let other = rng.random_range(0..cells - 1);
                other + u64::from(other >= truth)
            };
            reports.push(report);
        }
        Ok(Hypothesis::Concept {
            id: erm(class, &reports)?,
        }
        .into())
    }

    fn guarantee(&self, _examples: usize) -> Guarantee {
        Guarantee::DifferentialPrivacy(self.privacy)
    }

    fn name(&self) -> String {
        format!("rr-erm(ε={})", self.privacy.epsilon())
    }
}

/// What can go wrong in [`exact_audit`].
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// The learner failed (a too large instance).
    #[error(transparent)]
    Learner(#[from] Error),
    /// The audit refuted the claim (`privpac_audit::Error::PureClaimViolated`) or its input
    /// was invalid.
    #[error(transparent)]
    Audit(#[from] privpac_audit::Error),
}

/// Checks the claimed pure ε of `learner` exactly on every pair of neighbouring samples of
/// `n` examples over `class` (a tiny one): every sample is a sequence of `n` cells of the
/// `2|X|` labeled examples, and `privpac-audit` enumerates the pairs that differ in one.
///
/// # Errors
/// [`AuditError::Audit`] wrapping `privpac_audit::Error::PureClaimViolated` if some pair's
/// privacy loss exceeds `claimed_epsilon` (plus a tolerance of 1e-12), or the audit's
/// size errors; [`AuditError::Learner`] for an instance too large to enumerate.
pub fn exact_audit(
    learner: &RandomizedResponseErm,
    class: &dyn ConceptClass,
    n: usize,
    claimed_epsilon: f64,
) -> Result<PureAuditReport, AuditError> {
    let domain = class.domain();
    let pairs = neighbouring_datasets(RandomizedResponseErm::cells(class)?, n)?;
    let mut failure = None;
    let outputs = output_pairs(&pairs, |cells| {
        let examples: Vec<(Point, bool)> = cells
            .iter()
            .map(|&c| (domain.point_at(c / 2).unwrap_or(0), c % 2 == 1))
            .collect();
        let distribution = LabeledSample::from_pairs(domain, &examples)
            .map_err(Error::from)
            .and_then(|sample| learner.concept_distribution(class, &sample));
        distribution.unwrap_or_else(|error| {
            failure.get_or_insert(error);
            Vec::new()
        })
    });
    if let Some(error) = failure {
        return Err(error.into());
    }
    Ok(check_pure_claim(outputs, claimed_epsilon, 1e-12)?)
}

#[cfg(test)]
mod tests {
    use privpac_audit::chi_square_gof;
    use privpac_classes::Thresholds;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    type TestResult = std::result::Result<(), Box<dyn std::error::Error>>;

    /// The claimed ε passes the exact audit on every pair of neighbouring samples, and with
    /// one example the loss is exactly ε: the claim is tight.
    #[test]
    fn the_claim_passes_the_exact_audit_and_is_attained() -> TestResult {
        for (m, n) in [(3, 1), (2, 3), (4, 2)] {
            let class = Thresholds::new(m)?;
            for epsilon in [0.25, 1.0, 3.0] {
                let learner = RandomizedResponseErm::new(epsilon)?;
                let claimed = learner.guarantee(n).epsilon().ok_or("no ε")?;
                assert_eq!(claimed, epsilon);
                let report = exact_audit(&learner, &class, n, claimed)?;
                assert!(
                    report.worst_epsilon <= epsilon + 1e-12,
                    "{m}, {n}, {epsilon}"
                );
                if n == 1 {
                    // Report (j, 1) gives threshold j ≥ 1: probability p on sample (j, 1),
                    // q on any other.
                    assert!((report.worst_epsilon - epsilon).abs() < 1e-9, "{report:?}");
                }
            }
        }
        Ok(())
    }

    /// Negative control: the same learner claiming half its ε is refuted by the same audit.
    /// (Not on every instance: ERM over several reports can lose much less than ε, e.g.
    /// 0.1247 < ε/2 with 3 examples over 2 points at ε = 1/4.)
    #[test]
    fn half_the_claim_is_refuted() -> TestResult {
        for (m, n) in [(3, 1), (4, 1), (4, 2)] {
            let class = Thresholds::new(m)?;
            for epsilon in [0.25, 1.0, 3.0] {
                let learner = RandomizedResponseErm::new(epsilon)?;
                let refuted = exact_audit(&learner, &class, n, epsilon / 2.0);
                assert!(
                    matches!(
                        refuted,
                        Err(AuditError::Audit(
                            privpac_audit::Error::PureClaimViolated { .. }
                        ))
                    ),
                    "{m}, {n}, {epsilon}: {refuted:?}"
                );
            }
        }
        Ok(())
    }

    /// `learn` samples the distribution the audit checks (seeded, so deterministic; a
    /// correct sampler would fail with probability about α = 1e-6 over seeds).
    #[test]
    fn learn_samples_the_exact_distribution() -> TestResult {
        let class = Thresholds::new(4)?;
        let sample =
            LabeledSample::from_pairs(class.domain(), &[(1, true), (2, false), (3, false)])?;
        let learner = RandomizedResponseErm::new(1.5)?;
        let exact = learner.concept_distribution(&class, &sample)?;
        assert!((exact.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let mut counts = vec![0u64; exact.len()];
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..20_000 {
            match learner.learn(&class, &sample, &mut rng)? {
                Predictor::Hypothesis(Hypothesis::Concept { id }) => counts[id as usize] += 1,
                other => return Err(format!("not a concept: {other:?}").into()),
            }
        }
        let outcome = chi_square_gof(&counts, &exact, 1e-6)?;
        assert!(
            !outcome.rejected,
            "{counts:?} against {exact:?}: {outcome:?}"
        );
        Ok(())
    }

    /// The bound is `2·ln(2|C|/β)/(γα)²`: with e^ε = 3 and K = 16, p = 1/6, q = 1/18, γ = 1/9.
    #[test]
    fn the_bound_matches_a_hand_computation() -> TestResult {
        let class = Thresholds::new(8)?;
        let learner = RandomizedResponseErm::new(3f64.ln())?;
        assert!((learner.keep_probability(16) - 1.0 / 6.0).abs() < 1e-14);
        let bound = learner.sample_size_bound(&class, 0.1, 0.1)?;
        let by_hand = 2.0 * 160f64.ln() * 8100.0; // 82 218.1…
        assert!((bound - by_hand).abs() <= 1.0, "{bound} against {by_hand}");
        Ok(())
    }

    #[test]
    fn bad_inputs_are_typed_errors() -> TestResult {
        for epsilon in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(matches!(
                RandomizedResponseErm::new(epsilon),
                Err(Error::Accounting(_))
            ));
        }
        assert!(matches!(
            RandomizedResponseErm::new(MIN_EPSILON / 2.0),
            Err(Error::InvalidParameter { .. })
        ));
        assert!(RandomizedResponseErm::new(MIN_EPSILON).is_ok());
        let learner = RandomizedResponseErm::new(1.0)?;
        let class = Thresholds::new(4)?;
        // 8^7 = 2^21 report sequences: too many to enumerate.
        let pairs: Vec<(u64, bool)> = (0..7).map(|i| (i % 4, i % 2 == 0)).collect();
        let sample = LabeledSample::from_pairs(class.domain(), &pairs)?;
        assert!(matches!(
            learner.concept_distribution(&class, &sample),
            Err(Error::InvalidParameter { .. })
        ));
        // A sample over a larger domain than the class's.
        let wide = LabeledSample::from_pairs(Thresholds::new(10)?.domain(), &[(9, true)])?;
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert!(matches!(
            learner.learn(&class, &wide, &mut rng),
            Err(Error::Class(_))
        ));
        let huge = Thresholds::new(1 << 40)?;
        assert!(matches!(
            learner.learn(&huge, &sample, &mut rng),
            Err(Error::InvalidParameter { .. })
        ));
        Ok(())
    }
}
