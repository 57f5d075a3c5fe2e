//! Subsample-and-aggregate private prediction: ERM on disjoint blocks of the sample, then
//! a noisy majority vote at the query point.
//!
//! This is the realizable private-prediction learner that the relabeling pipeline
//! ([`crate::RelabelingPredictor`]) runs last, and a private-prediction learner in its own
//! right (the aggregation approach of Dwork and Feldman, "Privacy-preserving prediction",
//! COLT 2018, with the exponential mechanism as the private vote).

use privpac_accounting::{Guarantee, Privacy};
use privpac_classes::{ConceptClass, Consistency, Hypothesis, LabeledSample, Point};
use privpac_mechanisms::ExponentialMechanism;
use rand::Rng;

use crate::erm::best_run;
use crate::error::{Error, Result};
use crate::learner::{ErrorFloor, Learner};
use crate::predictor::Predictor;

/// Splits the sample into `k` contiguous blocks by position, runs ERM (fewest mistakes,
/// smallest id) on each, and answers a query x with the exponential mechanism over the
/// labels {0, 1} scored by their votes: label 1 with probability
/// `1/(1 + exp(ε(v₀ − v₁)/2))`.
///
/// # Privacy (per prediction, any data)
/// For every query x the predicted bit is ε_pred-differentially private, with
/// `ε_pred = min{ε, εk/2 + 10⁻⁹}`, with respect to samples of the same size that differ in
/// the example at one position (the blocks are fixed by position, so the learner is not
/// order-invariant; shuffle the data first, or use it inside
/// [`crate::RelabelingPredictor`], which is).
/// - ε: the differing example lies in exactly one block; only that block's ERM can
///   change, which moves at most one vote, so each label's score has sensitivity 1 and
///   the exponential mechanism (McSherry–Talwar 2007, Theorem 6) gives ε.
/// - εk/2: every prediction probability lies in `[η, 1 − η]` with `η = 1/(1 + e^{εk/2})`,
///   since `|v₀ − v₁| ≤ k`, so any two prediction probabilities (of either label) are
///   within a factor `(1 − η)/η = e^{εk/2}`, whatever the data; 10⁻⁹ covers the float
///   rounding of the weights. With one voter this halves the guarantee.
///
/// The guarantee is for one prediction per trained model; answering many queries from
/// the same model composes.
///
/// # Accuracy
/// If every block's ERM is within α_b of a common target h in disagreement mass, then by
/// Markov at most a 4α_b fraction of points (under the distribution) see k/4 or more
/// wrong votes, and elsewhere the vote margin exceeds k/2, so the expected prediction
/// error against h is at most `4α_b + 1/(1 + e^{εk/4})`. On data realizable by C with
/// blocks of `m = n/k` examples, α_b comes from the realizable VC bound
/// ([`crate::bounds::vc_realizable_sample_size`]) with failure β/k per block, so
/// `k = O(ln(1/α)/ε)` voters and `n = Õ(d/(αε))` examples suffice. The privacy proof does
/// not use realizability, but on agnostic data near-optimal block ERMs need not agree
/// with one common target, and the argument above then gives nothing better than about
/// `4(OPT + α)`.
///
/// # Running time
/// k error profiles of blocks of n/k examples, compressed (runs, or levels for intervals,
/// with 128-bit counts above 2^60 intervals: [`Self::member_hypotheses`]), so independent
/// of |X| on the structured classes, intervals over up to 2^64 − 1 points included.
/// Parities take a block's ERM from Gaussian elimination when the block is consistent
/// (O(n·d) per block at every d ≤ 64, the same concept as the profile's first best run)
/// and from the O(d·2^d) profile only otherwise.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VotingPredictor {
    epsilon: f64,
    voters: usize,
    mechanism: ExponentialMechanism,
}

impl VotingPredictor {
    /// The predictor with vote parameter ε and `voters` blocks.
    ///
    /// # Errors
    /// [`Error::Mechanism`] for an invalid ε; [`Error::InvalidParameter`] for zero voters.
    pub fn new(epsilon: f64, voters: usize) -> Result<Self> {
        if voters == 0 {
            return Err(Error::InvalidParameter {
                name: "number of voters",
                requirement: "at least 1",
                value: 0.0,
            });
        }
        Ok(VotingPredictor {
            epsilon,
            voters,
            mechanism: ExponentialMechanism::new(Privacy::pure(epsilon)?, 1.0)?,
        })
    }

    /// The vote's exponential-mechanism parameter ε.
    pub fn epsilon(&self) -> f64 {
        self.epsilon
    }

    /// The per-prediction privacy parameter, `min{ε, εk/2 + 10⁻⁹}` (the second term is
    /// [`Self::floor_epsilon`]).
    pub fn prediction_epsilon(&self) -> f64 {
        self.epsilon.min(self.floor_epsilon())
    }

    /// The floor bound `εk/2 + 10⁻⁹`: any two prediction probabilities of the same label
    /// are within a factor `e^{εk/2 + 10⁻⁹}` of each other **whatever the data** of the two
    /// votes (not only for neighbouring samples), since each lies in `[η, 1 − η]`,
    /// `η = 1/(1 + e^{εk/2})`. So it bounds the loss of any pipeline that feeds the vote
    /// data-dependent training sets, such as [`crate::RelabelingPredictor`], where the
    /// ε term of [`Self::prediction_epsilon`] (one example changed) does not apply.
    ///
    /// The sampler realizes exactly `ŵ/(1 + ŵ)` and `1/(1 + ŵ)`, with ŵ the floating-point
    /// weight of the minority label: `exp(−λ·gap)` with `λ = (ε − 8·10⁻¹²)/2` and
    /// `gap ≤ k`, up to the rounding the mechanism budgets (below 2·10⁻¹² in the
    /// exponent), or `e^{−700}` once clamped. Every ratio of two such probabilities is at
    /// most `1/ŵ ≤ e^{εk/2 + 10⁻¹¹}`; the 10⁻⁹ covers that and the rounding of εk/2 here.
    pub fn floor_epsilon(&self) -> f64 {
        self.epsilon * self.voters as f64 / 2.0 + 1e-9
    }

    /// The number of blocks (voters) k.
    pub fn voters(&self) -> usize {
        self.voters
    }

    /// The smallest prediction probability of either label, `1/(1 + e^{εk/2})`.
    pub fn floor(&self) -> f64 {
        1.0 / (1.0 + (self.epsilon * self.voters as f64 / 2.0).exp())
    }

    /// The voting members: ERM on each of the k contiguous blocks.
    ///
    /// # Errors
    /// [`Error::SampleTooSmall`] when the sample has fewer examples than voters; errors of
    /// the class's error profile.
    pub fn members(&self, class: &dyn ConceptClass, sample: &LabeledSample) -> Result<Vec<u64>> {
        self.blocks(class, sample)?
            .iter()
            .map(|part| block_erm(class, part))
            .collect()
    }

    /// The voting members as hypotheses: [`Self::members`] as [`Hypothesis::Concept`]s,
    /// except on classes above [`privpac_mechanisms::MAX_TOTAL_COUNT`] (2^60) concepts
    /// with wide levels ([`ConceptClass::wide_error_levels`]: intervals over more than
    /// about 2^30.5 points), where each block's ERM is the first concept of the lowest
    /// level named by its parts ([`Hypothesis::Interval`] or [`Hypothesis::NotInterval`],
    /// as [`crate::Erm`] outputs it),
    /// since its id may not fit 64 bits. The same concepts as [`Self::members`] wherever
    /// both run.
    ///
    /// # Errors
    /// As for [`Self::members`].
    pub fn member_hypotheses(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
    ) -> Result<Vec<Hypothesis>> {
        self.blocks(class, sample)?
            .iter()
            .map(|part| block_hypothesis(class, part))
            .collect()
    }

    /// The k contiguous blocks of the sample.
    fn blocks(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
    ) -> Result<Vec<LabeledSample>> {
        let n = sample.len();
        if n < self.voters {
            return Err(Error::SampleTooSmall {
                needed: self.voters,
                got: n,
            });
        }
        let domain = class.domain();
        (0..self.voters)
            .map(|block| {
                let (start, end) = (block * n / self.voters, (block + 1) * n / self.voters);
                Ok(LabeledSample::new(
                    domain,
                    sample.points()[start..end].to_vec(),
                    (start..end).map(|i| sample.labels()[i]).collect(),
                )?)
            })
            .collect()
    }

    /// The exact probability that the vote over `members` answers 1 at x, as the
    /// mechanism samples it.
    ///
    /// # Errors
    /// Errors of the exponential mechanism (none for valid parameters).
    pub fn vote_probability(
        &self,
        class: &dyn ConceptClass,
        members: &[u64],
        x: Point,
    ) -> Result<f64> {
        let scores = vote_scores(class, members, x);
        let log = self.mechanism.log_probabilities_integer(&scores)?;
        Ok(log[1].exp())
    }

    /// Answers one query: trains on `sample` and draws the vote at x with the exact
    /// sampler.
    ///
    /// # Errors
    /// As for [`Self::members`].
    pub fn predict(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        x: Point,
        rng: &mut dyn Rng,
    ) -> Result<bool> {
        let members = self.members(class, sample)?;
        let scores = vote_scores(class, &members, x);
        Ok(self.mechanism.select_integer(&scores, rng)? == 1)
    }

    /// The exact `Pr[prediction at x = 1]` on `sample` (the blocks are deterministic).
    ///
    /// # Errors
    /// As for [`Self::members`].
    pub fn prediction_probability(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        x: Point,
    ) -> Result<f64> {
        let members = self.members(class, sample)?;
        self.vote_probability(class, &members, x)
    }
}

impl Learner for VotingPredictor {
    /// The block ERMs as a [`Predictor::NoisyVote`], whose `predict` draws the vote with
    /// the same exact sampler as [`Self::predict`]. Its per-prediction guarantee holds for
    /// a single query per call of `learn`.
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        _rng: &mut dyn Rng,
    ) -> Result<Predictor> {
        if sample.is_empty() {
            return Err(Error::EmptySample);
        }
        Ok(Predictor::NoisyVote {
            members: self.member_hypotheses(class, sample)?,
            epsilon: self.epsilon,
        })
    }

    fn guarantee(&self, _examples: usize) -> Guarantee {
        Guarantee::per_prediction(self.prediction_epsilon()).unwrap_or(Guarantee::None)
    }

    /// Both labels keep probability at least [`Self::floor`] = `1/(1 + e^{εk/2})` at every
    /// point (the vote margin is at most k; the sampler runs at a slightly smaller ε, which
    /// only raises the minority label's probability), lowered by one part in 10⁶ to cover
    /// the rounding of `exp`.
    fn error_floor(&self, _examples: usize) -> Option<ErrorFloor> {
        Some(ErrorFloor {
            flip: self.floor() * (1.0 - 1e-6),
            source: format!(
                "the noisy vote of {} voters at ε = {} keeps each label with probability at least 1/(1 + e^(εk/2))",
                self.voters, self.epsilon
            ),
        })
    }

    fn name(&self) -> String {
        "voting".into()
    }
}

/// ERM on one block, as [`crate::Erm`] chooses: the smallest id with the fewest mistakes,
/// from the class's consistency test when it has one and a consistent concept exists
/// (parities: Gaussian elimination in O(n·d), the first concept with 0 mistakes, where
/// the profile costs O(d·2^d)), else from the class's levels when it gives them
/// (intervals at every size, without runs) or else from its error runs.
fn block_erm(class: &dyn ConceptClass, part: &LabeledSample) -> Result<u64> {
    if let Some(Consistency::Consistent(id)) = class.smallest_consistent(part)? {
        return Ok(id);
    }
    if let Some(levels) = class.error_levels(part)? {
        let lowest = levels.first().ok_or(Error::EmptySample)?;
        return class
            .concept_with_errors(part, lowest.errors, 0)?
            .ok_or(Error::EmptySample);
    }
    best_run(&class.error_runs(part)?)
        .map(|run| run.first)
        .ok_or(Error::EmptySample)
}

/// ERM on one block as a hypothesis: [`block_erm`]'s concept, or above 2^60 concepts on
/// a class with wide levels the first concept of the lowest wide level by its parts (the
/// concept [`block_erm`] names by id wherever that id fits).
fn block_hypothesis(class: &dyn ConceptClass, part: &LabeledSample) -> Result<Hypothesis> {
    if class.len() > u128::from(privpac_mechanisms::MAX_TOTAL_COUNT)
        && let Some(levels) = class.wide_error_levels(part)?
    {
        let lowest = levels.first().ok_or(Error::EmptySample)?;
        let parts = class
            .parts_with_errors(part, lowest.errors, 0)?
            .ok_or(Error::EmptySample)?; // unreachable: every level has a member
        return Ok(Hypothesis::from(parts));
    }
    Ok(Hypothesis::Concept {
        id: block_erm(class, part)?,
    })
}

/// The scores (votes) of labels 0 and 1 at x.
fn vote_scores(class: &dyn ConceptClass, members: &[u64], x: Point) -> [i64; 2] {
    let ones = members.iter().filter(|&&c| class.eval(c, x)).count() as i64;
    [members.len() as i64 - ones, ones]
}
