//! Exact privacy loss between the output distributions of a finite-output
//! mechanism on two neighbouring inputs.
//!
//! # The math
//!
//! Let a mechanism `M` have finitely many outputs `0..n` and let `x`, `x'` be
//! neighbouring inputs. Write `p_i = P[M(x) = i]` and `q_i = P[M(x') = i]`.
//!
//! * The **privacy loss** of output `i` is `L_i = ln(p_i / q_i)`.
//! * `M` is **ε-DP** (pure) iff `|L_i| ≤ ε` for every output and every pair of
//!   neighbours, with the conventions `ln(0/0)` = "ignore" and
//!   `ln(p/0) = +∞` for `p > 0`. The smallest such ε for one pair is the
//!   symmetric **max divergence** `max(D_∞(p‖q), D_∞(q‖p)) = max_i |L_i|`,
//!   computed by [`max_divergence`] and, from natural-log probabilities, by
//!   [`max_divergence_log`].
//! * `M` is **(ε, δ)-DP** iff for every pair of neighbours and every event `S`,
//!   `p(S) ≤ e^ε q(S) + δ`. The worst event is `S = {i : p_i > e^ε q_i}`, so
//!   the condition is that the **hockey-stick divergence**
//!
//!   ```text
//!   H_{e^ε}(p ‖ q) = sup_S p(S) − e^ε q(S) = Σ_i max(0, p_i − e^ε q_i)
//!   ```
//!
//!   is at most δ for every *ordered* pair of neighbours (Barthe and Olmedo
//!   2013; Balle, Barthe and Gaboardi 2018). [`hockey_stick`] computes one
//!   direction, and [`hockey_stick_symmetric`] the maximum over both, which is
//!   what a symmetric neighbour relation needs. As a function of ε this is the
//!   **privacy curve** δ(ε) ([`delta_curve`]); it is continuous and
//!   non-increasing, equals the total variation distance at ε = 0, and is zero
//!   from ε = max divergence on. [`epsilon_for_delta`] inverts it.
//!
//! [`check_claim`], [`check_pure_claim`] and [`check_pure_claim_log`] run these
//! measurements over many neighbouring pairs and compare them with a claimed
//! guarantee. An audit over the pairs you supply can *refute* a claim; it
//! *confirms* the claim only for those pairs, so supply the worst-case
//! neighbours (or all of them, for a small input domain).
//!
//! # Numerics
//!
//! * Inputs are validated (entries in [0, 1], sums within
//!   [`NORMALIZATION_TOLERANCE`](crate::NORMALIZATION_TOLERANCE) of one) but
//!   not renormalized: the functions measure the numbers they are given.
//! * Log-ratios of nearby probabilities use `ln_1p((p − q) / q)`, which is exact
//!   to a few ulps even when `p ≈ q`; far-apart ones use `ln(p / q)`, falling
//!   back to `ln p − ln q` when the ratio would overflow or underflow.
//! * Probabilities below about `1e-308` underflow to zero in `f64`, which turns
//!   a finite privacy loss into an infinite one (or hides it). Mechanisms with
//!   such outputs should be audited with the log-probability functions, which
//!   never exponentiate.
//! * Sums use Neumaier's compensated summation.
//!
//! # References
//!
//! * G. Barthe and F. Olmedo. *Beyond differential privacy: composition
//!   theorems and relational logic for f-divergences between probabilistic
//!   programs.* ICALP 2013.
//! * B. Balle, G. Barthe and M. Gaboardi. *Privacy amplification by
//!   subsampling: tight analyses via couplings and divergences.* NeurIPS 2018.
//! * C. Dwork and A. Roth. *The algorithmic foundations of differential
//!   privacy.* Foundations and Trends in TCS, 2014 (privacy loss, §3.5).

use crate::error::{Error, Result};
use crate::numeric::{
    neumaier_sum, validate_delta, validate_epsilon, validate_log_probabilities,
    validate_probabilities, validate_same_length, validate_tolerance,
};

/// The smallest ε ≥ 0 with `p_i ≤ e^ε q_i` and `q_i ≤ e^ε p_i` for every
/// output `i`: the symmetric max divergence, i.e. the pure-DP privacy loss of
/// this pair of neighbouring output distributions.
///
/// Outputs with `p_i = q_i = 0` are ignored. The result is `f64::INFINITY` when
/// the supports differ (some output has probability zero under one input and
/// positive probability under the other).
///
/// # Running time
///
/// O(n) for n outputs.
///
/// # Errors
///
/// [`Error::EmptyDistribution`], [`Error::InvalidProbability`] or
/// [`Error::NotNormalized`] if `p` or `q` is not a probability vector, and
/// [`Error::LengthMismatch`] if their lengths differ.
///
/// # Example
///
/// Randomized response on one bit, reporting the truth with probability
/// `e^ε / (1 + e^ε)`, loses exactly ε:
///
/// ```
/// let epsilon = 1.0_f64;
/// let truth = epsilon.exp() / (1.0 + epsilon.exp());
/// let loss = privpac_audit::max_divergence(&[truth, 1.0 - truth], &[1.0 - truth, truth])?;
/// assert!((loss - epsilon).abs() < 1e-12);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn max_divergence(p: &[f64], q: &[f64]) -> Result<f64> {
    validate_pair(p, q)?;
    Ok(max_divergence_unchecked(p, q))
}

/// [`max_divergence`] from natural-log probabilities, for distributions whose
/// probabilities are too small for `f64` (below about `e^-708`).
///
/// `log_p[i] = ln p_i`, and `−∞` stands for probability zero. The privacy loss
/// of an output is `|log_p[i] − log_q[i]|`, computed without exponentiating,
/// so its absolute error is a few ulps of `max(|log_p[i]|, |log_q[i]|)`.
///
/// # Errors
///
/// [`Error::EmptyDistribution`], [`Error::InvalidLogProbability`] (NaN or
/// `+∞`) or [`Error::NotNormalizedLog`] (log-sum-exp not within
/// [`NORMALIZATION_TOLERANCE`](crate::NORMALIZATION_TOLERANCE) of zero) if an
/// input is not a log-probability vector, and [`Error::LengthMismatch`] if
/// their lengths differ.
///
/// # Example
///
/// ```
/// // Both outputs have probabilities far below f64's smallest subnormal.
/// let log_p = [0.0, -800.0];
/// let log_q = [0.0, -801.0];
/// assert_eq!(privpac_audit::max_divergence_log(&log_p, &log_q)?, 1.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn max_divergence_log(log_p: &[f64], log_q: &[f64]) -> Result<f64> {
    validate_log_pair(log_p, log_q)?;
    Ok(max_divergence_log_unchecked(log_p, log_q))
}

/// The hockey-stick divergence `H_{e^ε}(p ‖ q) = Σ_i max(0, p_i − e^ε q_i)`:
/// the smallest δ such that `p(S) ≤ e^ε q(S) + δ` for every event `S`.
///
/// This is one direction only; use [`hockey_stick_symmetric`] for a symmetric
/// neighbour relation. ε may be `+∞`, giving the mass `p` puts outside the
/// support of `q`.
///
/// # Errors
///
/// The validation errors of [`max_divergence`], and [`Error::InvalidEpsilon`]
/// if ε is NaN or negative.
///
/// # Example
///
/// ```
/// let p = [0.5, 0.3, 0.2];
/// let q = [0.2, 0.3, 0.5];
/// // At e^ε = 2 only the first output exceeds its bound: 0.5 − 2 · 0.2.
/// let delta = privpac_audit::hockey_stick(&p, &q, 2.0_f64.ln())?;
/// assert!((delta - 0.1).abs() < 1e-15);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn hockey_stick(p: &[f64], q: &[f64], epsilon: f64) -> Result<f64> {
    validate_pair(p, q)?;
    validate_epsilon(epsilon)?;
    Ok(hockey_stick_unchecked(p, q, epsilon.exp()))
}

/// `max(H_{e^ε}(p ‖ q), H_{e^ε}(q ‖ p))`: the δ a pair of neighbouring
/// distributions needs at this ε under a symmetric neighbour relation.
///
/// # Errors
///
/// As [`hockey_stick`].
///
/// # Example
///
/// ```
/// // Disjoint supports: no finite ε helps, δ = 1.
/// assert_eq!(privpac_audit::hockey_stick_symmetric(&[1.0, 0.0], &[0.0, 1.0], 10.0)?, 1.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn hockey_stick_symmetric(p: &[f64], q: &[f64], epsilon: f64) -> Result<f64> {
    validate_pair(p, q)?;
    validate_epsilon(epsilon)?;
    Ok(hockey_stick_symmetric_unchecked(p, q, epsilon.exp()))
}

/// The symmetric privacy curve δ(ε) of one pair, evaluated at each of
/// `epsilons` (see [`hockey_stick_symmetric`]).
///
/// # Errors
///
/// As [`hockey_stick`]; [`Error::InvalidEpsilon`] names the first invalid ε.
///
/// # Example
///
/// ```
/// let p = [0.5, 0.3, 0.2];
/// let q = [0.2, 0.3, 0.5];
/// let curve = privpac_audit::delta_curve(&p, &q, &[0.0, 2.5_f64.ln()])?;
/// assert!((curve[0] - 0.3).abs() < 1e-15); // total variation distance
/// assert!(curve[1] < 1e-15); // zero from the max divergence ln 2.5 on
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn delta_curve(p: &[f64], q: &[f64], epsilons: &[f64]) -> Result<Vec<f64>> {
    validate_pair(p, q)?;
    epsilons
        .iter()
        .map(|&epsilon| {
            validate_epsilon(epsilon)?;
            Ok(hockey_stick_symmetric_unchecked(p, q, epsilon.exp()))
        })
        .collect()
}

/// The smallest ε ≥ 0 at which the symmetric privacy curve of one pair drops to
/// `delta` or below: the inverse of [`delta_curve`].
///
/// Returns `f64::INFINITY` if no finite ε suffices, i.e. if one distribution
/// puts more than `delta` mass outside the other's support. With `delta = 0`
/// this is [`max_divergence`] up to rounding. The answer is found by bisection
/// to adjacent floats and the upper end is returned, so it errs on the side of
/// a larger ε.
///
/// # Errors
///
/// The validation errors of [`max_divergence`], and [`Error::InvalidDelta`] if
/// `delta` is NaN or outside [0, 1].
///
/// # Example
///
/// ```
/// let p = [0.5, 0.3, 0.2];
/// let q = [0.2, 0.3, 0.5];
/// // δ(ε) = 0.5 − 0.2 e^ε on [ln 1.5, ln 2.5], so δ = 0.1 needs ε = ln 2.
/// let epsilon = privpac_audit::epsilon_for_delta(&p, &q, 0.1)?;
/// assert!((epsilon - 2.0_f64.ln()).abs() < 1e-12);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn epsilon_for_delta(p: &[f64], q: &[f64], delta: f64) -> Result<f64> {
    validate_pair(p, q)?;
    validate_delta(delta)?;
    let curve = |epsilon: f64| hockey_stick_symmetric_unchecked(p, q, epsilon.exp());
    if curve(0.0) <= delta {
        return Ok(0.0);
    }
    // From the largest finite loss on, only the mass outside the supports
    // counts: the exact curve there is this mass (the computed one may exceed
    // it by rounding).
    let outside_support = |a: &[f64], b: &[f64]| {
        neumaier_sum(
            a.iter()
                .zip(b)
                .filter(|&(_, &b_i)| b_i == 0.0)
                .map(|(&a_i, _)| a_i),
        )
    };
    if outside_support(p, q).max(outside_support(q, p)) > delta {
        return Ok(f64::INFINITY);
    }
    let largest_finite_loss = p
        .iter()
        .zip(q)
        .filter(|&(&p_i, &q_i)| p_i > 0.0 && q_i > 0.0)
        .map(|(&p_i, &q_i)| log_ratio(p_i, q_i).abs())
        .fold(0.0, f64::max);
    let mut low = 0.0_f64;
    let mut high = largest_finite_loss;
    // Invariant: curve(low) > delta >= exact curve(high). The loop stops at
    // adjacent floats, after at most about 1100 halvings.
    for _ in 0..2100 {
        let middle = low + (high - low) / 2.0;
        if middle <= low || middle >= high {
            break;
        }
        if curve(middle) <= delta {
            high = middle;
        } else {
            low = middle;
        }
    }
    Ok(high)
}

/// The result of a successful [`check_claim`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct AuditReport {
    /// How many pairs were checked.
    pub pairs_checked: usize,
    /// Index of the pair with the largest δ at the claimed ε (the first such
    /// pair on ties).
    pub worst_pair: usize,
    /// The largest symmetric hockey-stick divergence at the claimed ε.
    pub worst_delta: f64,
    /// The largest max divergence over all pairs: the ε these pairs would need
    /// with δ = 0 (`f64::INFINITY` if some pair has different supports).
    pub max_epsilon_at_zero_delta: f64,
}

/// The result of a successful [`check_pure_claim`] or
/// [`check_pure_claim_log`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct PureAuditReport {
    /// How many pairs were checked.
    pub pairs_checked: usize,
    /// Index of the pair with the largest max divergence (the first such pair
    /// on ties).
    pub worst_pair: usize,
    /// The largest max divergence over all pairs.
    pub worst_epsilon: f64,
}

/// Checks a claimed (ε, δ)-DP guarantee on every pair of neighbouring output
/// distributions: passes iff `max(H_{e^ε}(p‖q), H_{e^ε}(q‖p)) ≤ δ + tolerance`
/// for each pair `(p, q)`.
///
/// `tolerance` absorbs floating-point error in the mechanism's probabilities
/// (for exactly computed distributions, `1e-12` is a sensible choice). Pairs
/// are checked in order and the first violation is returned.
///
/// A pair is anything slice-like: `(&[f64], &[f64])`, `(Vec<f64>, Vec<f64>)`,
/// arrays, or references to them; for a `&[(Vec<f64>, Vec<f64>)]` pass
/// `pairs.iter().map(|(p, q)| (p, q))`. See the
/// [module documentation](crate::exact) for the math and for what a passing
/// audit does and does not show.
///
/// # Running time
///
/// O(total number of outputs over all pairs).
///
/// # Errors
///
/// * [`Error::InvalidEpsilon`], [`Error::InvalidDelta`] or
///   [`Error::InvalidTolerance`] for an invalid claim, checked before any pair;
/// * [`Error::NoPairs`] if `pairs` is empty;
/// * [`Error::InvalidPair`] wrapping the validation error of
///   [`max_divergence`] for the first invalid pair;
/// * [`Error::ClaimViolated`] for the first pair that violates the claim.
///
/// # Example
///
/// ```
/// use privpac_audit::Error;
///
/// let epsilon = 0.5_f64;
/// let truth = epsilon.exp() / (1.0 + epsilon.exp());
/// let yes = [truth, 1.0 - truth];
/// let no = [1.0 - truth, truth];
///
/// let report = privpac_audit::check_claim([(&yes[..], &no[..])], epsilon, 0.0, 1e-12)?;
/// assert!((report.max_epsilon_at_zero_delta - epsilon).abs() < 1e-12);
///
/// // Claiming a smaller ε fails, and says by how much.
/// let verdict = privpac_audit::check_claim([(&yes[..], &no[..])], 0.4, 0.0, 1e-12);
/// assert!(matches!(verdict, Err(Error::ClaimViolated { pair_index: 0, .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_claim<P, Q>(
    pairs: impl IntoIterator<Item = (P, Q)>,
    epsilon: f64,
    delta: f64,
    tolerance: f64,
) -> Result<AuditReport>
where
    P: AsRef<[f64]>,
    Q: AsRef<[f64]>,
{
    validate_epsilon(epsilon)?;
    validate_delta(delta)?;
    validate_tolerance(tolerance)?;
    let exp_epsilon = epsilon.exp();
    let mut report: Option<AuditReport> = None;
    for (pair_index, (p, q)) in pairs.into_iter().enumerate() {
        let (p, q) = (p.as_ref(), q.as_ref());
        validate_pair(p, q).map_err(|error| in_pair(pair_index, error))?;
        let measured_delta = hockey_stick_symmetric_unchecked(p, q, exp_epsilon);
        if measured_delta > delta + tolerance {
            return Err(Error::ClaimViolated {
                pair_index,
                epsilon,
                claimed_delta: delta,
                measured_delta,
            });
        }
        let loss = max_divergence_unchecked(p, q);
        report = Some(match report {
            None => AuditReport {
                pairs_checked: 1,
                worst_pair: pair_index,
                worst_delta: measured_delta,
                max_epsilon_at_zero_delta: loss,
            },
            Some(previous) => {
                let worse = measured_delta > previous.worst_delta;
                AuditReport {
                    pairs_checked: previous.pairs_checked + 1,
                    worst_pair: if worse {
                        pair_index
                    } else {
                        previous.worst_pair
                    },
                    worst_delta: if worse {
                        measured_delta
                    } else {
                        previous.worst_delta
                    },
                    max_epsilon_at_zero_delta: previous.max_epsilon_at_zero_delta.max(loss),
                }
            }
        });
    }
    report.ok_or(Error::NoPairs)
}

/// Checks a claimed pure ε-DP guarantee on every pair of neighbouring output
/// distributions: passes iff [`max_divergence`] `≤ ε + tolerance` for each pair.
///
/// # Errors
///
/// * [`Error::InvalidEpsilon`] or [`Error::InvalidTolerance`] for an invalid
///   claim, checked before any pair;
/// * [`Error::NoPairs`] if `pairs` is empty;
/// * [`Error::InvalidPair`] wrapping the validation error of
///   [`max_divergence`] for the first invalid pair;
/// * [`Error::PureClaimViolated`] for the first pair that violates the claim.
///
/// # Example
///
/// ```
/// let p = [0.5, 0.5];
/// let q = [0.4, 0.6];
/// let report = privpac_audit::check_pure_claim([(p, q)], 0.3, 1e-12)?;
/// assert!((report.worst_epsilon - 1.25_f64.ln()).abs() < 1e-15);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_pure_claim<P, Q>(
    pairs: impl IntoIterator<Item = (P, Q)>,
    epsilon: f64,
    tolerance: f64,
) -> Result<PureAuditReport>
where
    P: AsRef<[f64]>,
    Q: AsRef<[f64]>,
{
    check_pure_claim_with(pairs, epsilon, tolerance, |p, q| {
        validate_pair(p, q)?;
        Ok(max_divergence_unchecked(p, q))
    })
}

/// [`check_pure_claim`] on natural-log probabilities (`−∞` for probability
/// zero): passes iff [`max_divergence_log`] `≤ ε + tolerance` for each pair.
///
/// Use this when the mechanism computes its output distribution in log space
/// (exponential mechanism with large scores, long compositions), where
/// probabilities may underflow in `f64`.
///
/// # Errors
///
/// As [`check_pure_claim`], with the validation errors of
/// [`max_divergence_log`] inside [`Error::InvalidPair`].
///
/// # Example
///
/// ```
/// use privpac_audit::Error;
///
/// // ln(1 − e^-750) rounds to 0.
/// let log_p = vec![0.0, -750.0];
/// let log_q = vec![0.0, -752.0];
/// let report = privpac_audit::check_pure_claim_log([(&log_p, &log_q)], 2.0, 1e-9)?;
/// assert_eq!(report.worst_epsilon, 2.0);
///
/// let verdict = privpac_audit::check_pure_claim_log([(&log_p, &log_q)], 1.0, 1e-9);
/// assert!(matches!(verdict, Err(Error::PureClaimViolated { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_pure_claim_log<P, Q>(
    pairs: impl IntoIterator<Item = (P, Q)>,
    epsilon: f64,
    tolerance: f64,
) -> Result<PureAuditReport>
where
    P: AsRef<[f64]>,
    Q: AsRef<[f64]>,
{
    check_pure_claim_with(pairs, epsilon, tolerance, |log_p, log_q| {
        validate_log_pair(log_p, log_q)?;
        Ok(max_divergence_log_unchecked(log_p, log_q))
    })
}

/// Shared loop of the pure-claim checkers; `measure` validates one pair and
/// returns its max divergence.
fn check_pure_claim_with<P, Q>(
    pairs: impl IntoIterator<Item = (P, Q)>,
    epsilon: f64,
    tolerance: f64,
    measure: impl Fn(&[f64], &[f64]) -> Result<f64>,
) -> Result<PureAuditReport>
where
    P: AsRef<[f64]>,
    Q: AsRef<[f64]>,
{
    validate_epsilon(epsilon)?;
    validate_tolerance(tolerance)?;
    let mut report: Option<PureAuditReport> = None;
    for (pair_index, (p, q)) in pairs.into_iter().enumerate() {
        let measured_epsilon =
            measure(p.as_ref(), q.as_ref()).map_err(|error| in_pair(pair_index, error))?;
        if measured_epsilon > epsilon + tolerance {
            return Err(Error::PureClaimViolated {
                pair_index,
                claimed_epsilon: epsilon,
                measured_epsilon,
            });
        }
        report = Some(match report {
            None => PureAuditReport {
                pairs_checked: 1,
                worst_pair: pair_index,
                worst_epsilon: measured_epsilon,
            },
            Some(previous) => {
                let worse = measured_epsilon > previous.worst_epsilon;
                PureAuditReport {
                    pairs_checked: previous.pairs_checked + 1,
                    worst_pair: if worse {
                        pair_index
                    } else {
                        previous.worst_pair
                    },
                    worst_epsilon: if worse {
                        measured_epsilon
                    } else {
                        previous.worst_epsilon
                    },
                }
            }
        });
    }
    report.ok_or(Error::NoPairs)
}

fn in_pair(pair_index: usize, error: Error) -> Error {
    Error::InvalidPair {
        pair_index,
        error: Box::new(error),
    }
}

fn validate_pair(p: &[f64], q: &[f64]) -> Result<()> {
    validate_probabilities(p)?;
    validate_probabilities(q)?;
    validate_same_length(p, q)
}

fn validate_log_pair(log_p: &[f64], log_q: &[f64]) -> Result<()> {
    validate_log_probabilities(log_p)?;
    validate_log_probabilities(log_q)?;
    validate_same_length(log_p, log_q)
}

/// `ln(p / q)` for positive finite `p` and `q`, accurate to a few ulps.
fn log_ratio(p: f64, q: f64) -> f64 {
    // Nearby values: p − q is exact (Sterbenz) and ln_1p keeps full precision.
    let relative_difference = (p - q) / q;
    if relative_difference.abs() < 0.5 {
        return relative_difference.ln_1p();
    }
    let ratio = p / q;
    if ratio.is_normal() {
        ratio.ln()
    } else {
        // The ratio overflows or underflows; the logs of p and q are finite.
        p.ln() - q.ln()
    }
}

fn max_divergence_unchecked(p: &[f64], q: &[f64]) -> f64 {
    let mut worst = 0.0_f64;
    for (&p_i, &q_i) in p.iter().zip(q) {
        let loss = match (p_i > 0.0, q_i > 0.0) {
            (false, false) => continue,
            (true, true) => log_ratio(p_i, q_i).abs(),
            _ => return f64::INFINITY,
        };
        worst = worst.max(loss);
    }
    worst
}

fn max_divergence_log_unchecked(log_p: &[f64], log_q: &[f64]) -> f64 {
    let mut worst = 0.0_f64;
    for (&log_p_i, &log_q_i) in log_p.iter().zip(log_q) {
        let loss = match (log_p_i > f64::NEG_INFINITY, log_q_i > f64::NEG_INFINITY) {
            (false, false) => continue,
            (true, true) => (log_p_i - log_q_i).abs(),
            _ => return f64::INFINITY,
        };
        worst = worst.max(loss);
    }
    worst
}

/// `Σ max(0, p_i − e^ε q_i)`, given `exp_epsilon = e^ε` (possibly `+∞`).
fn hockey_stick_unchecked(p: &[f64], q: &[f64], exp_epsilon: f64) -> f64 {
    let terms = p.iter().zip(q).map(|(&p_i, &q_i)| {
        // Avoid ∞ · 0 = NaN: an output impossible under q is bounded by 0.
        let bound = if q_i == 0.0 { 0.0 } else { exp_epsilon * q_i };
        (p_i - bound).max(0.0)
    });
    // A probability, even if the inputs were normalized only approximately.
    neumaier_sum(terms).min(1.0)
}

fn hockey_stick_symmetric_unchecked(p: &[f64], q: &[f64], exp_epsilon: f64) -> f64 {
    hockey_stick_unchecked(p, q, exp_epsilon).max(hockey_stick_unchecked(q, p, exp_epsilon))
}

#[cfg(test)]
mod tests;
