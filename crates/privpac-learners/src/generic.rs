//! The generic private learner: the exponential mechanism over the class, scored by
//! mistakes.

use privpac_accounting::{Guarantee, Privacy};
use privpac_classes::{
    ConceptClass, ErrorLevel, ErrorRun, Hypothesis, LabeledSample, WideErrorLevel,
};
use privpac_mechanisms::{ExponentialMechanism, MAX_TOTAL_COUNT, ScoreLevel, WideScoreLevel};
use rand::Rng;

use crate::error::{Error, Result};
use crate::learner::Learner;
use crate::predictor::Predictor;

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
/// One error profile as runs, grouped by error count in one counting pass (O(r) for r runs),
/// O(number of distinct error counts) to sample, and one pass over the runs to find the
/// chosen concept. Thresholds over 2^40 points cost O(n log n) (sorting the sample).
/// Classes that give their profile as levels ([`ConceptClass::error_levels`]: intervals,
/// whose runs in id order number about |X|·n) skip the runs: the levels are sampled the same
/// way and the class finds the chosen concept in id order, the concept the runs would give;
/// intervals over 2^30 points cost O(n log n + m·r) for m distinct points and r distinct
/// prefix sums.
///
/// # Classes beyond 2^60 concepts
/// A class with more than [`MAX_TOTAL_COUNT`] (2^60) concepts that gives wide levels
/// ([`ConceptClass::wide_error_levels`]: intervals, not(intervals) and both(intervals) over
/// up to 2^64 − 1 points, about 2^127 to 2^128 concepts) is sampled by [`GenericLearner::learn_by_wide_levels`]: a level `e` (a number
/// of mistakes, `c_e` concepts) with probability `c_e·exp(−ε·e/2) / Σ_e' c_e'·exp(−ε·e'/2)`
/// ([`ExponentialMechanism::select_wide_levels`]), then a uniform member of it, named by its
/// parts ([`Hypothesis::Interval`], [`Hypothesis::NotInterval`]). Each concept `c` with `e` mistakes is then output with
/// probability `(c_e·exp(−ε·e/2)/Z)·(1/c_e) = exp(−ε·errors(c)/2)/Z`: exactly the
/// exponential mechanism over the whole class, so the privacy proof above applies
/// unchanged (the same floating-point budget; the tests compare the output distribution
/// with the dense mechanism's on small domains and check the ratio on neighbouring samples).
///
/// A class with more than 2^60 concepts that gives no wide levels but whose profile comes
/// as runs of 64-bit ids (thresholds and point functions over up to 2^64 − 1 points) is
/// sampled by [`GenericLearner::learn_by_wide_runs`]: the same two steps, the levels'
/// exact 128-bit counts summed from the runs and the member found by walking the level's
/// runs in id order, so the output is concept `c` with probability `exp(−ε·errors(c)/2)/Z`
/// again and the proof is unchanged.
///
/// # Errors
/// [`Error::Mechanism`] for invalid ε or a class above 2^60 concepts; the class's errors.
///
/// # Example
/// ```
/// use privpac_classes::{ConceptClass, LabeledSample, Thresholds};
/// use privpac_accounting::Privacy;
/// use privpac_learners::{GenericLearner, Learner};
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
        let levels = match class.error_levels(sample)? {
            Some(levels) => score_levels(&levels)?,
            None => levels_of(&class.error_runs(sample)?)?,
        };
        let probabilities = self.mechanism.level_probabilities(&levels)?;
        Ok(levels
            .iter()
            .zip(probabilities)
            .map(|(level, p)| (level.score.unsigned_abs(), level.count, p))
            .collect())
    }

    /// The wide-levels path of [`Learner::learn`] (used there above 2^60 concepts), at any
    /// class size, or `None` when the class gives no wide levels: a level by
    /// [`ExponentialMechanism::select_wide_levels`], then the member the class names for the
    /// chosen offset ([`ConceptClass::parts_with_errors`]). Public so that its output
    /// distribution can be audited on small domains.
    ///
    /// # Errors
    /// As for [`Learner::learn`].
    pub fn learn_by_wide_levels(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Option<Predictor>> {
        let Some(class_levels) = class.wide_error_levels(sample)? else {
            return Ok(None);
        };
        let levels = wide_score_levels(&class_levels)?;
        let choice = self.mechanism.select_wide_levels(&levels, rng)?;
        let level = levels.get(choice.level).ok_or(Error::EmptySample)?;
        let parts = class
            .parts_with_errors(sample, level.score.unsigned_abs(), choice.offset)?
            .ok_or(Error::EmptySample)?; // unreachable: the offset is below the count
        Ok(Some(Hypothesis::from(parts).into()))
    }

    /// The wide path for classes that give their error profile as runs of 64-bit ids
    /// ([`ConceptClass::error_runs`]: thresholds and point functions over up to 2^64 − 1
    /// points, `both(thresholds)` over up to 2^63 − 1) but no wide levels: the runs grouped
    /// into levels with exact 128-bit counts (the narrow path's counts saturate and its
    /// sampler stops at 2^60 candidates), a level by
    /// [`ExponentialMechanism::select_wide_levels`], then the member of the chosen offset in
    /// id order among the level's runs. As for [`Self::learn_by_wide_levels`], concept `c`
    /// with `e` mistakes is output with probability `(c_e·ŵ_e/Σ c·ŵ)·(1/c_e) = ŵ_e/Σ c·ŵ`:
    /// the exponential mechanism over the whole class, with the same privacy proof and
    /// floating-point budget. `None` for a class of more than 2^64 concepts (no 64-bit ids,
    /// so no runs). Used by [`Learner::learn`] above 2^60 concepts when the class gives no
    /// wide levels; public so that its output distribution can be audited on small domains
    /// ([`Self::wide_run_level_distribution`]).
    ///
    /// # Errors
    /// As for [`Learner::learn`].
    pub fn learn_by_wide_runs(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Option<Predictor>> {
        if class.len() > u128::from(u64::MAX) + 1 {
            return Ok(None);
        }
        let runs = class.error_runs(sample)?;
        let levels = wide_levels_of(&runs)?;
        let choice = self.mechanism.select_wide_levels(&levels, rng)?;
        let level = levels.get(choice.level).ok_or(Error::EmptySample)?;
        let errors = level.score.unsigned_abs();
        // The offset-th concept of the level, walking its runs in id order (the level's
        // count is at most the class's 2^64 concepts, so every partial count fits u128 and
        // the id fits u64).
        let mut offset = choice.offset;
        for run in runs.iter().filter(|run| run.errors == errors) {
            if offset < u128::from(run.len) {
                return Ok(Some(
                    Hypothesis::Concept {
                        id: run.first + offset as u64,
                    }
                    .into(),
                ));
            }
            offset -= u128::from(run.len);
        }
        Err(Error::EmptySample) // unreachable: the offset is below the level's count
    }

    /// The exact probability of each level of [`Self::learn_by_wide_runs`]
    /// (`(errors, number of concepts, probability)`, sorted by errors), or `None` for a
    /// class of more than 2^64 concepts.
    ///
    /// # Errors
    /// As for [`Learner::learn`].
    pub fn wide_run_level_distribution(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
    ) -> Result<Option<Vec<(u64, u128, f64)>>> {
        if class.len() > u128::from(u64::MAX) + 1 {
            return Ok(None);
        }
        let levels = wide_levels_of(&class.error_runs(sample)?)?;
        let probabilities = self.mechanism.wide_level_probabilities(&levels)?;
        Ok(Some(
            levels
                .iter()
                .zip(probabilities)
                .map(|(level, p)| (level.score.unsigned_abs(), level.count, p))
                .collect(),
        ))
    }

    /// The exact probability of each wide level (`(errors, number of concepts,
    /// probability)`, sorted by errors) of [`Self::learn_by_wide_levels`], or `None` when
    /// the class gives no wide levels.
    ///
    /// # Errors
    /// As for [`Learner::learn`].
    pub fn wide_level_distribution(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
    ) -> Result<Option<Vec<(u64, u128, f64)>>> {
        let Some(class_levels) = class.wide_error_levels(sample)? else {
            return Ok(None);
        };
        let levels = wide_score_levels(&class_levels)?;
        let probabilities = self.mechanism.wide_level_probabilities(&levels)?;
        Ok(Some(
            levels
                .iter()
                .zip(probabilities)
                .map(|(level, p)| (level.score.unsigned_abs(), level.count, p))
                .collect(),
        ))
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

/// The score levels of an error profile, in increasing order of mistakes, with the number
/// of concepts in each (saturating at `u64::MAX`).
///
/// Mistakes are small integers (at most the sample size for a class that counts them
/// right), so when their range is at most twice the number of runs (plus a constant) one
/// counting pass over a table indexed by `mistakes − min` finds the levels in O(r) for r
/// runs; a wider range (possible only for a class reporting huge counts) sorts the runs'
/// counts instead, so the table never grows with an unchecked value. Both give the same
/// levels: a level's count is a saturating sum, which does not depend on the order.
fn levels_of(runs: &[ErrorRun]) -> Result<Vec<ScoreLevel>> {
    let (Some(min), Some(max)) = (
        runs.iter().map(|run| run.errors).min(),
        runs.iter().map(|run| run.errors).max(),
    ) else {
        return Ok(Vec::new());
    };
    // (mistakes, concepts) per level, in increasing order of mistakes.
    let totals: Vec<(u64, u64)> = if max - min <= 2 * runs.len() as u64 + 1024 {
        let mut table: Vec<Option<u64>> = vec![None; (max - min) as usize + 1];
        for run in runs {
            let slot = &mut table[(run.errors - min) as usize];
            *slot = Some(slot.unwrap_or(0).saturating_add(run.len));
        }
        table
            .iter()
            .enumerate()
            .filter_map(|(offset, count)| count.map(|count| (min + offset as u64, count)))
            .collect()
    } else {
        totals_by_sorting(runs)
    };
    totals
        .into_iter()
        .map(|(errors, count)| {
            let score = mistakes_score(errors)?;
            Ok(ScoreLevel { score, count })
        })
        .collect()
}

/// The exponential mechanism's score of a concept with `errors` mistakes, `−errors`
/// (refused above 2^63 − 1, which no score level can hold).
fn mistakes_score(errors: u64) -> Result<i64> {
    i64::try_from(errors)
        .map(|errors| -errors)
        .map_err(|_| Error::InvalidParameter {
            name: "number of mistakes",
            requirement: "below 2^63",
            value: errors as f64,
        })
}

/// The score levels of a class's own error levels ([`ConceptClass::error_levels`]).
fn score_levels(levels: &[ErrorLevel]) -> Result<Vec<ScoreLevel>> {
    levels
        .iter()
        .map(|level| {
            let score = mistakes_score(level.errors)?;
            Ok(ScoreLevel {
                score,
                count: level.count,
            })
        })
        .collect()
}

/// The score levels of a class's wide error levels ([`ConceptClass::wide_error_levels`]).
fn wide_score_levels(levels: &[WideErrorLevel]) -> Result<Vec<WideScoreLevel>> {
    levels
        .iter()
        .map(|level| {
            let score = mistakes_score(level.errors)?;
            Ok(WideScoreLevel {
                score,
                count: level.count,
            })
        })
        .collect()
}

/// The wide score levels of an error profile given as runs: (mistakes, concepts) per level
/// in increasing order of mistakes, with exact 128-bit counts (runs of 64-bit ids cover at
/// most 2^64 concepts, so no sum overflows).
fn wide_levels_of(runs: &[ErrorRun]) -> Result<Vec<WideScoreLevel>> {
    let mut pairs: Vec<(u64, u64)> = runs.iter().map(|run| (run.errors, run.len)).collect();
    pairs.sort_unstable_by_key(|&(errors, _)| errors);
    let mut totals: Vec<(u64, u128)> = Vec::new();
    for (errors, len) in pairs {
        match totals.last_mut() {
            Some((last, count)) if *last == errors => *count += u128::from(len),
            _ => totals.push((errors, u128::from(len))),
        }
    }
    totals
        .into_iter()
        .map(|(errors, count)| {
            Ok(WideScoreLevel {
                score: mistakes_score(errors)?,
                count,
            })
        })
        .collect()
}

/// (mistakes, concepts) per level in increasing order of mistakes, by sorting the runs'
/// counts: the path of [`levels_of`] for a wide range of counts.
fn totals_by_sorting(runs: &[ErrorRun]) -> Vec<(u64, u64)> {
    let mut pairs: Vec<(u64, u64)> = runs.iter().map(|run| (run.errors, run.len)).collect();
    pairs.sort_unstable_by_key(|&(errors, _)| errors);
    let mut totals: Vec<(u64, u64)> = Vec::new();
    for (errors, len) in pairs {
        match totals.last_mut() {
            Some((last, count)) if *last == errors => *count = count.saturating_add(len),
            _ => totals.push((errors, len)),
        }
    }
    totals
}

impl Learner for GenericLearner {
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Predictor> {
        // Beyond the narrow path's 2^60 candidates: wide levels, concepts by their parts;
        // or, for classes with runs of 64-bit ids but no wide levels (thresholds, points),
        // the runs grouped into levels with 128-bit counts.
        if class.len() > u128::from(MAX_TOTAL_COUNT) {
            if let Some(predictor) = self.learn_by_wide_levels(class, sample, rng)? {
                return Ok(predictor);
            }
            if let Some(predictor) = self.learn_by_wide_runs(class, sample, rng)? {
                return Ok(predictor);
            }
        }
        // Classes whose runs are too many (intervals) give their levels and find the chosen
        // concept themselves, in the id order of the walk below (so both paths give the
        // same seeded outputs).
        if let Some(class_levels) = class.error_levels(sample)? {
            let levels = score_levels(&class_levels)?;
            let choice = self.mechanism.select_levels(&levels, rng)?;
            let level = levels.get(choice.level).ok_or(Error::EmptySample)?;
            let id = class
                .concept_with_errors(sample, level.score.unsigned_abs(), choice.offset)?
                .ok_or(Error::EmptySample)?; // unreachable: the offset is below the count
            return Ok(Hypothesis::Concept { id }.into());
        }
        let runs = class.error_runs(sample)?;
        let levels = levels_of(&runs)?;
        let choice = self.mechanism.select_levels(&levels, rng)?;
        let level = levels.get(choice.level).ok_or(Error::EmptySample)?;
        let errors = level.score.unsigned_abs();
        // The offset-th concept of the level, walking its runs in id order.
        let mut offset = choice.offset;
        for run in runs.iter().filter(|run| run.errors == errors) {
            if offset < run.len {
                return Ok(Hypothesis::Concept {
                    id: run.first + offset,
                }
                .into());
            }
            offset -= run.len;
        }
        Err(Error::EmptySample) // unreachable: the offset is below the level's count
    }

    fn guarantee(&self, _examples: usize) -> Guarantee {
        privpac_accounting::Private::privacy(&self.mechanism).into()
    }

    /// The exponential mechanism at ε with a score of sensitivity 1 (errors change by at
    /// most 1 when one example is replaced) is ε-bounded-range; privpac's sampler is
    /// `(ε + 4η)`-BR (`privpac_mechanisms::exponential_mechanism_range`).
    fn bounded_range(&self, _examples: usize) -> Option<f64> {
        Some(privpac_mechanisms::exponential_mechanism_range(
            privpac_accounting::Private::privacy(&self.mechanism).epsilon(),
        ))
    }

    fn name(&self) -> String {
        "generic".into()
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    fn run(first: u64, len: u64, errors: u64) -> ErrorRun {
        ErrorRun { first, len, errors }
    }

    fn levels(totals: &[(u64, u64)]) -> Vec<ScoreLevel> {
        totals
            .iter()
            .map(|&(errors, count)| ScoreLevel {
                score: -(errors as i64),
                count,
            })
            .collect()
    }

    #[test]
    fn the_counting_pass_finds_the_levels_that_sorting_finds() {
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        for _ in 0..200 {
            let count = rng.random_range(1..60);
            let base = rng.random_range(0..1000);
            let runs: Vec<ErrorRun> = (0..count)
                .map(|i| run(i, rng.random_range(1..5), base + rng.random_range(0..40)))
                .collect();
            assert_eq!(levels_of(&runs).unwrap(), levels(&totals_by_sorting(&runs)));
        }
    }

    #[test]
    fn wide_ranges_of_mistakes_sort_and_counts_saturate() {
        let runs = [
            run(0, 2, 1 << 40),
            run(2, 1, 3),
            run(3, u64::MAX, 7),
            run(4, 5, 3),
            run(5, 9, 7),
        ];
        assert_eq!(
            levels_of(&runs).unwrap(),
            levels(&[(3, 6), (7, u64::MAX), (1 << 40, 2)])
        );
        // The counting pass saturates the same way.
        assert_eq!(
            levels_of(&runs[1..]).unwrap(),
            levels(&[(3, 6), (7, u64::MAX)])
        );
        assert!(levels_of(&[]).unwrap().is_empty());
        assert!(matches!(
            levels_of(&[run(0, 1, 1 << 63)]),
            Err(Error::InvalidParameter { .. })
        ));
    }

    /// Intervals without their levels: the runs path of the same class.
    #[derive(Debug)]
    struct RunsOnly(privpac_classes::Intervals);

    impl ConceptClass for RunsOnly {
        fn domain(&self) -> &privpac_classes::Domain {
            self.0.domain()
        }
        fn len(&self) -> u128 {
            self.0.len()
        }
        fn eval(&self, id: u64, x: privpac_classes::Point) -> bool {
            self.0.eval(id, x)
        }
        fn name(&self) -> String {
            self.0.name()
        }
    }

    /// The levels path (intervals) gives the runs path's level distribution and, seed for
    /// seed, its concept: the same exact distribution, realized the same way.
    #[test]
    fn the_levels_path_is_the_runs_path() {
        let learner = GenericLearner::new(Privacy::pure(1.5).unwrap()).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(40);
        for size in [1u64, 2, 5, 17, 60] {
            let class = privpac_classes::Intervals::new(size).unwrap();
            let runs_only = RunsOnly(class.clone());
            for _ in 0..10 {
                let n = rng.random_range(0..25);
                let pairs: Vec<(u64, bool)> = (0..n)
                    .map(|_| (rng.random_range(0..size), rng.random_bool(0.5)))
                    .collect();
                let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
                assert_eq!(
                    learner.level_distribution(&class, &sample).unwrap(),
                    learner.level_distribution(&runs_only, &sample).unwrap()
                );
                for seed in 0..20 {
                    let fit = |c: &dyn ConceptClass| {
                        learner
                            .learn(c, &sample, &mut ChaCha8Rng::seed_from_u64(seed))
                            .unwrap()
                    };
                    assert_eq!(fit(&class), fit(&runs_only), "N = {size}, {pairs:?}");
                }
            }
        }
    }

    /// Intervals over 2^30 points (2^59 concepts), which the runs path refuses: the learner
    /// finds the target interval to within a few points at ε = 1 from 2000 examples.
    #[test]
    fn learns_intervals_over_two_to_the_thirty_points() {
        let size = 1u64 << 30;
        let class = privpac_classes::Intervals::new(size).unwrap();
        assert!(
            class
                .error_runs(&LabeledSample::new(class.domain(), vec![], vec![]).unwrap())
                .is_err()
        );
        let (a, b) = (size / 4, size / 2);
        let mut rng = ChaCha8Rng::seed_from_u64(41);
        let pairs: Vec<(u64, bool)> = (0..2000)
            .map(|_| {
                let x = rng.random_range(0..size);
                (x, (a..=b).contains(&x))
            })
            .collect();
        let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
        let learner = GenericLearner::new(Privacy::pure(1.0).unwrap()).unwrap();
        let Predictor::Hypothesis(Hypothesis::Concept { id }) =
            learner.learn(&class, &sample, &mut rng).unwrap()
        else {
            panic!("not a concept");
        };
        let (found_a, found_b) = class.bounds(id).unwrap();
        // Disagreement below 1% of the domain.
        let off = found_a.abs_diff(a) + found_b.abs_diff(b);
        assert!(
            off < size / 100,
            "[{found_a}, {found_b}] against [{a}, {b}]"
        );
        // ERM finds an interval with no mistakes.
        let erm = crate::Erm::default()
            .learn(&class, &sample, &mut rng)
            .unwrap();
        let Predictor::Hypothesis(Hypothesis::Concept { id }) = erm else {
            panic!("not a concept")
        };
        assert!(sample.iter().all(|(x, y)| class.eval(id, x) == y));
    }
}
