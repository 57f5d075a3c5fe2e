//! The generic private learner: the exponential mechanism over the class, scored by
//! mistakes.

use concept_classes::{ConceptClass, ErrorRun, Hypothesis, LabeledSample};
use dp_mechanisms::{ExponentialMechanism, Guarantee, Privacy, ScoreLevel};
use rand::Rng;

use crate::error::{Error, Result};
use crate::learner::Learner;

/// The generic private learner of Kasiviswanathan, Lee, Nissim, Raskhodnikova and Smith:
/// output concept `c` with probability proportional to `exp(−ε·errors_S(c)/2)`.
///
/// # Privacy
/// ε-differentially private (pure) with respect to changing one example: each concept's
/// number of mistakes has sensitivity 1, so this is the exponential mechanism with Δ = 1
/// (Bun–Nissim–Stemmer Proposition 3.8(1); Dwork–Roth Theorem 3.10; the privacy step of
/// Sivakumar's Theorem 3.3 and of Kalavasis's Lecture 5 Theorem 1). Sampling uses the
/// count-weighted path of [`ExponentialMechanism`], whose floating-point error is paid for
/// out of ε.
///
/// # Sample complexity
/// Proper and agnostic: `n = O((ln|C| + ln(1/β))·(1/(εα) + 1/α²))` examples suffice
/// (Kasiviswanathan et al., as quoted in Bun–Nissim–Stemmer Theorem 2.22 and Kalavasis's
/// Lecture 5 Theorem 1). Explicit constants, one function per scenario:
/// [`crate::bounds::generic_learner_sample_size`] (agnostic: error at most OPT + α) and
/// [`crate::bounds::realizable_generic_learner_sample_size`] (target in C: error at most
/// α, linear in 1/α).
///
/// # Running time
/// One error profile as runs, sorted by error count (O(r log r) for r runs), then
/// O(number of distinct error counts) to sample. Thresholds over 2^40 points cost O(n log n).
///
/// # Errors
/// [`Error::Mechanism`] for invalid ε or a class above 2^60 concepts; the class's errors.
///
/// # Example
/// ```
/// use concept_classes::{ConceptClass, LabeledSample, Thresholds};
/// use dp_mechanisms::Privacy;
/// use learners::{GenericLearner, Learner};
/// use rand::SeedableRng;
/// let class = Thresholds::new(1 << 20)?;
/// let pairs: Vec<(u64, bool)> = (0..2000u64).map(|i| (i * 500, i * 500 <= 300_000)).collect();
/// let sample = LabeledSample::from_pairs(class.domain(), &pairs)?;
/// let learner = GenericLearner::new(Privacy::pure(1.0)?)?;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let hypothesis = learner.learn(&class, &sample, &mut rng)?;
/// # let _ = hypothesis;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # References
/// S. P. Kasiviswanathan, H. K. Lee, K. Nissim, S. Raskhodnikova, A. Smith, "What can we
/// learn privately?", FOCS 2008 / SIAM J. Comput. 2011 (through the statements of the
/// lecture notes and of Bun–Nissim–Stemmer cited above).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GenericLearner {
    mechanism: ExponentialMechanism,
}

impl GenericLearner {
    /// The learner for a pure ε.
    ///
    /// # Errors
    /// [`Error::Mechanism`] if `privacy` is not pure or ε is below the mechanism's minimum.
    pub fn new(privacy: Privacy) -> Result<Self> {
        Ok(GenericLearner {
            mechanism: ExponentialMechanism::new(privacy, 1.0)?,
        })
    }

    /// The exact probability of outputting each error level: `(errors, number of concepts,
    /// probability)` sorted by errors, for tests and teaching.
    ///
    /// # Errors
    /// As for [`Learner::learn`].
    pub fn level_distribution(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
    ) -> Result<Vec<(u64, u64, f64)>> {
        let Levels { levels, .. } = levels_of(&class.error_runs(sample)?)?;
        let probabilities = self.mechanism.level_probabilities(&levels)?;
        Ok(levels
            .iter()
            .zip(probabilities)
            .map(|(level, p)| (level.score.unsigned_abs(), level.count, p))
            .collect())
    }

    /// The exact output distribution over concept ids (for small classes; tests and
    /// audits): `Pr[output = id]` for every id.
    ///
    /// # Errors
    /// As for [`Learner::learn`], and the class's dense-profile limit.
    pub fn concept_distribution(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
    ) -> Result<Vec<f64>> {
        let counts = class.error_counts(sample)?;
        let scores: Vec<i64> = counts.iter().map(|&e| -(e as i64)).collect();
        Ok(self
            .mechanism
            .log_probabilities_integer(&scores)?
            .into_iter()
            .map(f64::exp)
            .collect())
    }
}

/// The score levels of an error profile: the runs sorted by their number of mistakes (a
/// stable sort, so the runs of one level stay in id order), the levels in increasing order
/// of mistakes with the number of concepts in each, and where each level starts in
/// `order`. One sort and no allocation per level.
struct Levels {
    order: Vec<usize>,
    levels: Vec<ScoreLevel>,
    starts: Vec<usize>,
}

fn levels_of(runs: &[ErrorRun]) -> Result<Levels> {
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by_key(|&i| runs[i].errors);
    let mut levels: Vec<ScoreLevel> = Vec::new();
    let mut starts = Vec::new();
    let mut current = None;
    for (position, &i) in order.iter().enumerate() {
        let run = &runs[i];
        if current != Some(run.errors) {
            let score = i64::try_from(run.errors).map_err(|_| Error::InvalidParameter {
                name: "number of mistakes",
                requirement: "below 2^63",
                value: run.errors as f64,
            })?;
            levels.push(ScoreLevel {
                score: -score,
                count: 0,
            });
            starts.push(position);
            current = Some(run.errors);
        }
        if let Some(level) = levels.last_mut() {
            level.count = level.count.saturating_add(run.len);
        }
    }
    Ok(Levels {
        order,
        levels,
        starts,
    })
}

impl Learner for GenericLearner {
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Hypothesis> {
        let runs = class.error_runs(sample)?;
        let Levels {
            order,
            levels,
            starts,
        } = levels_of(&runs)?;
        let choice = self.mechanism.select_levels(&levels, rng)?;
        let start = *starts.get(choice.level).ok_or(Error::EmptySample)?;
        let end = starts.get(choice.level + 1).copied().unwrap_or(order.len());
        // The offset-th concept of the level, walking its runs in id order.
        let mut offset = choice.offset;
        for &i in &order[start..end] {
            let run = &runs[i];
            if offset < run.len {
                return Ok(Hypothesis::Concept {
                    id: run.first + offset,
                });
            }
            offset -= run.len;
        }
        Err(Error::EmptySample) // unreachable: the offset is below the level's count
    }

    fn guarantee(&self, _examples: usize) -> Guarantee {
        dp_mechanisms::Private::privacy(&self.mechanism).into()
    }

    fn name(&self) -> String {
        "generic".into()
    }
}
