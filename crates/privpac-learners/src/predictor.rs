//! `Predictor`: what a learner outputs, a deterministic [`Hypothesis`] or a randomized
//! predictor built on hypotheses (a label flip, a noisy vote), evaluable on any point of
//! the domain and serializable.
//!
//! Randomized predictors sample their predictions exactly: a noisy vote with
//! `privpac_mechanisms`' exponential mechanism (the sampler the voting learner itself
//! uses, which pays its floating-point error out of ε), a flip with an exact Bernoulli
//! coin; [`Predictor::probability_of_label`] gives the probabilities these samplers
//! realize. The JSON form is the hypothesis's own for a deterministic predictor
//! (`{"kind":"concept","id":3}`) and `{"kind":"flipped",…}` / `{"kind":"noisy_vote",…}`
//! for the randomized ones: one `kind` tag over all six.

use privpac_accounting::Privacy;
use privpac_classes::{ConceptClass, Hypothesis, Point};
use privpac_mechanisms::{ExponentialMechanism, RandomBits};
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// A learner's output ([`crate::Learner::learn`]). Proper learners return a
/// [`Hypothesis::Concept`] in [`Predictor::Hypothesis`]; improper ones may return any
/// hypothesis, and private-prediction learners a randomized predictor.
///
/// Serialized with one `kind` tag: a deterministic predictor as its hypothesis
/// (`{"kind":"concept","id":3}`), a flip as `{"kind":"flipped","base":…,
/// "flip_probability":…}`, a noisy vote as `{"kind":"noisy_vote","members":[…],
/// "epsilon":…}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Predictor {
    /// A randomized predictor: each prediction is the base predictor's label, flipped
    /// independently with probability `flip_probability` (randomized response on the
    /// prediction, as in private-prediction algorithms), with an exact coin
    /// (`privpac_mechanisms::RandomBits::bernoulli_f64`, which reads the `f64` as the exact
    /// dyadic rational it stores).
    Flipped {
        /// The predictor whose labels are flipped: a hypothesis, or a noisy vote
        /// (Dagan–Feldman's predictor flips its vote).
        base: Box<Predictor>,
        /// The flip probability in [0, 1/2].
        flip_probability: f64,
    },
    /// A randomized predictor: a noisy majority vote of deterministic members. With `v₁`
    /// members voting 1 and `v₀` voting 0 at x, each prediction is the exponential
    /// mechanism with parameter ε over the two labels scored by their votes (sensitivity 1;
    /// subsample-and-aggregate private prediction): ideally 1 with probability
    /// `1/(1 + exp(ε(v₀ − v₁)/2))`. It is sampled exactly as
    /// `privpac_mechanisms::ExponentialMechanism::select_integer` samples (the voting
    /// learner's own sampler), which runs at `ε − 4η` (η = 2·10⁻¹², the mechanism's
    /// floating-point budget) so that its ε-DP guarantee covers its rounding; so every label
    /// keeps a positive probability however large the margin.
    NoisyVote {
        /// The voting deterministic hypotheses.
        members: Vec<Hypothesis>,
        /// The exponential mechanism's parameter ε (> 0).
        epsilon: f64,
    },
    /// A deterministic predictor: the hypothesis itself (serialized as the hypothesis,
    /// with its own `kind`).
    #[serde(untagged)]
    Hypothesis(Hypothesis),
}

impl From<Hypothesis> for Predictor {
    fn from(hypothesis: Hypothesis) -> Self {
        Predictor::Hypothesis(hypothesis)
    }
}

impl Predictor {
    /// The hypothesis of a deterministic predictor; `None` for a randomized one.
    pub fn as_hypothesis(&self) -> Option<&Hypothesis> {
        match self {
            Predictor::Hypothesis(h) => Some(h),
            _ => None,
        }
    }

    /// The hypothesis of a deterministic predictor, by value; `None` for a randomized one.
    pub fn into_hypothesis(self) -> Option<Hypothesis> {
        match self {
            Predictor::Hypothesis(h) => Some(h),
            _ => None,
        }
    }

    /// `Pr[h(x) = 1]` as [`Self::predict`] realizes it (0 or 1 for deterministic
    /// predictors): [`Self::probability_of_label`] for label 1. The value is rounded to the
    /// nearest `f64`, so a probability within 2⁻⁵⁴ of 1 reads as 1.0 although the other
    /// label keeps a positive probability; use [`Self::probability_of_label`] for the
    /// small one. NaN for a randomized predictor with invalid parameters (which
    /// [`Self::predict`] refuses).
    pub fn probability_of_one(&self, class: &dyn ConceptClass, x: Point) -> f64 {
        self.probability_of_label(class, x, true)
    }

    /// `Pr[h(x) = label]` as [`Self::predict`] realizes it, each label's probability
    /// computed in its own right (so a tiny probability keeps its relative precision):
    /// - a noisy vote: the exponential mechanism's own output probability
    ///   (`ExponentialMechanism::log_probabilities_integer` on the votes). The sampler
    ///   realizes exactly `ŵ_label/(ŵ₀ + ŵ₁)` for its floating-point weights ŵ; this is
    ///   that ratio up to the few roundings of a log-sum-exp (relative error below 10⁻¹⁵);
    /// - a flipped predictor: `η·Pr_base[¬label] + (1 − η)·Pr_base[label]`, with η the
    ///   exact flip probability of the coin, up to the rounding of this expression;
    /// - a deterministic predictor: 0 or 1, exactly.
    ///
    /// NaN for a randomized predictor with invalid parameters (a vote's ε that the
    /// exponential mechanism refuses, a flip probability outside [0, 1]).
    pub fn probability_of_label(&self, class: &dyn ConceptClass, x: Point, label: bool) -> f64 {
        match self {
            Predictor::Hypothesis(h) => h.probability_of_label(class, x, label),
            Predictor::Flipped {
                base,
                flip_probability,
            } => {
                if check_flip_probability(*flip_probability).is_err() {
                    return f64::NAN;
                }
                let same = base.probability_of_label(class, x, label);
                let other = base.probability_of_label(class, x, !label);
                same * (1.0 - flip_probability) + other * flip_probability
            }
            Predictor::NoisyVote { members, epsilon } => {
                let (zeros, ones) = votes(members, class, x);
                Self::vote_probability(*epsilon, zeros, ones, label)
            }
        }
    }

    /// `Pr[label]` of a noisy vote with parameter ε at a point where `zeros` members vote
    /// 0 and `ones` vote 1: what [`Self::probability_of_label`] gives there (the
    /// exponential mechanism's own output probability on the scores `[zeros, ones]`).
    /// The probability depends on the point only through the two counts, so a caller that
    /// knows where the counts change (a vote of interval-shaped members is constant
    /// between their endpoints) can integrate it without visiting every point. NaN for an
    /// ε the exponential mechanism refuses.
    pub fn vote_probability(epsilon: f64, zeros: usize, ones: usize, label: bool) -> f64 {
        let Ok(mechanism) = vote_mechanism(epsilon) else {
            return f64::NAN;
        };
        match mechanism.log_probabilities_integer(&[zeros as i64, ones as i64]) {
            Ok(log) => log[usize::from(label)].exp(),
            Err(_) => f64::NAN, // unreachable: two candidates
        }
    }

    /// What the predictor is, in the data's terms: a hypothesis as
    /// [`Hypothesis::describe`] gives it (`concept 46: parity of coordinates {1, 2, 3, 5}
    /// (bit string 0111010000)`, `all zeros`, …), a randomized predictor's base and noise.
    pub fn describe(&self, class: &dyn ConceptClass) -> String {
        const SHOWN: usize = 8;
        match self {
            Predictor::Hypothesis(h) => h.describe(class),
            Predictor::Flipped {
                base,
                flip_probability,
            } => format!(
                "{} with labels flipped w.p. {flip_probability}",
                base.describe(class)
            ),
            Predictor::NoisyVote { members, epsilon } => {
                let shown: Vec<String> = members
                    .iter()
                    .take(SHOWN)
                    .map(|m| m.describe(class))
                    .collect();
                let more = if members.len() > SHOWN { ", …" } else { "" };
                format!(
                    "noisy vote (ε = {epsilon}) of {} members: {}{more}",
                    members.len(),
                    shown.join("; ")
                )
            }
        }
    }

    /// Whether the predictor is deterministic (a [`Predictor::Hypothesis`]).
    pub fn is_deterministic(&self) -> bool {
        matches!(self, Predictor::Hypothesis(_))
    }

    /// The label of a deterministic predictor; a randomized one gives its base's label, or
    /// for a noisy vote the strict majority, 0 on ties.
    pub fn eval(&self, class: &dyn ConceptClass, x: Point) -> bool {
        match self {
            Predictor::Hypothesis(h) => h.eval(class, x),
            Predictor::Flipped { base, .. } => base.eval(class, x),
            Predictor::NoisyVote { members, .. } => {
                let (zeros, ones) = votes(members, class, x);
                ones > zeros
            }
        }
    }

    /// One prediction, drawing the randomness of randomized predictors from `rng`, with
    /// exact samplers: a noisy vote draws from the exponential mechanism exactly as the
    /// voting learner does (so the learner's per-prediction guarantee covers this call), a
    /// flip is an exact Bernoulli coin. A deterministic predictor draws nothing.
    /// [`Self::probability_of_label`] gives the probabilities realized.
    ///
    /// # Errors
    /// [`Error::InvalidHypothesis`] for a noisy vote whose ε the exponential mechanism
    /// refuses (not finite, or below its minimum 10⁻⁹) or a flip probability outside
    /// [0, 1] (possible only for a predictor built by hand or deserialized).
    pub fn predict<R: Rng + ?Sized>(
        &self,
        class: &dyn ConceptClass,
        x: Point,
        rng: &mut R,
    ) -> Result<bool> {
        match self {
            Predictor::Hypothesis(h) => Ok(h.eval(class, x)),
            Predictor::Flipped {
                base,
                flip_probability,
            } => {
                check_flip_probability(*flip_probability)?;
                let label = base.predict(class, x, rng)?;
                Ok(label ^ RandomBits::new(rng).bernoulli_f64(*flip_probability))
            }
            Predictor::NoisyVote { members, epsilon } => {
                let mechanism = vote_mechanism(*epsilon)?;
                let chosen = mechanism
                    .select_integer(&vote_scores(members, class, x), rng)
                    .map_err(|e| Error::InvalidHypothesis {
                        reason: e.to_string(),
                    })?;
                Ok(chosen == 1)
            }
        }
    }
}

/// The exponential mechanism of a noisy vote with parameter ε (scores of sensitivity 1).
fn vote_mechanism(epsilon: f64) -> Result<ExponentialMechanism> {
    Privacy::pure(epsilon)
        .map_err(privpac_mechanisms::Error::from)
        .and_then(|privacy| ExponentialMechanism::new(privacy, 1.0))
        .map_err(|e| Error::InvalidHypothesis {
            reason: format!("noisy vote with ε = {epsilon}: {e}"),
        })
}

/// A flip probability must be a probability.
fn check_flip_probability(flip_probability: f64) -> Result<()> {
    if (0.0..=1.0).contains(&flip_probability) {
        Ok(())
    } else {
        Err(Error::InvalidHypothesis {
            reason: format!("flip probability {flip_probability} is not in [0, 1]"),
        })
    }
}

/// The scores of labels 0 and 1 at x: their numbers of votes (as `[zeros, ones]`).
fn vote_scores(members: &[Hypothesis], class: &dyn ConceptClass, x: Point) -> [i64; 2] {
    let (zeros, ones) = votes(members, class, x);
    [zeros as i64, ones as i64]
}

/// The numbers of members voting 0 and 1 at x.
fn votes(members: &[Hypothesis], class: &dyn ConceptClass, x: Point) -> (usize, usize) {
    let ones = members.iter().filter(|m| m.eval(class, x)).count();
    (members.len() - ones, ones)
}

#[cfg(test)]
mod tests;
