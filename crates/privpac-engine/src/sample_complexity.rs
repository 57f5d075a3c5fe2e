//! Empirical sample complexity: the smallest sample size at which a learner succeeds with
//! probability at least 1 − β, found by doubling and then binary search.

use privpac_learners::Learner;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::limits::{MAX_SAMPLE_SIZE, MAX_TRIALS, check_count};
use crate::scenario::Scenario;
use crate::trials::{TrialConfig, TrialOutcome, run_trials, wilson_interval};

/// How to search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchConfig {
    /// Accuracy α: a trial succeeds when the true error is at most α.
    pub alpha: f64,
    /// Confidence β: the target success rate is 1 − β.
    pub beta: f64,
    /// Trials per sample size.
    pub trials: usize,
    /// Master seed (each size reuses it, so sizes are compared on common randomness).
    pub master_seed: u64,
    /// The first size tried.
    pub start: usize,
    /// Give up above this size.
    pub max_size: usize,
}

/// The result of [`empirical_sample_complexity`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SampleComplexity {
    /// The smallest size found whose observed success rate is at least 1 − β.
    pub sample_size: usize,
    /// The trial outcome at that size.
    pub outcome: TrialOutcome,
    /// Every size tried, in order, with its outcome.
    pub evaluations: Vec<TrialOutcome>,
}

/// Finds the smallest `n` (up to the resolution of the search) at which the observed
/// success rate over `trials` trials reaches `1 − β`: double `n` from `start` until it
/// succeeds, then binary search between the last failure and the first success. Assumes
/// success is monotone in `n` (true in expectation for the learners here); the recorded
/// evaluations show every size tried.
///
/// # Errors
/// [`Error::InvalidParameter`] for β outside (0, 1) or `start` = 0; [`Error::TooLarge`]
/// for trials or `max_size` above the [`crate::limits`];
/// [`Error::SampleComplexityNotReached`] if `max_size` is not enough; trial errors.
pub fn empirical_sample_complexity(
    scenario: &Scenario,
    learner: &dyn Learner,
    config: SearchConfig,
) -> Result<SampleComplexity> {
    search(config, |n| {
        run_trials(
            scenario,
            learner,
            TrialConfig {
                trials: config.trials,
                sample_size: n,
                alpha: config.alpha,
                master_seed: config.master_seed,
            },
        )
    })
}

/// As [`empirical_sample_complexity`], for learners whose parameters depend on the
/// sample size (a subsample of √n examples, a subsample sized to meet a per-prediction
/// ε): `learner_for(n)` builds the learner run at size n. A size at which building or
/// running the learner fails with [`privpac_learners::Error::SampleTooSmall`] counts as a failure
/// (zero successes, mean error 1) rather than an error.
///
/// # Errors
/// As for [`empirical_sample_complexity`], plus other errors of `learner_for`.
pub fn empirical_sample_complexity_sized(
    scenario: &Scenario,
    learner_for: &dyn Fn(usize) -> std::result::Result<Box<dyn Learner>, privpac_learners::Error>,
    config: SearchConfig,
) -> Result<SampleComplexity> {
    let learner_for = |n: usize| -> Result<Box<dyn Learner>> { Ok(learner_for(n)?) };
    empirical_sample_complexity_observed(scenario, &learner_for, config, &mut |_| {})
}

/// As [`empirical_sample_complexity_sized`] with a builder that returns this crate's
/// errors (e.g. `build_learner` of privpac-toolkit), calling `observe` with each size's outcome as
/// soon as it is known (a front end shows progress with it). A size at which building or
/// running fails with [`privpac_learners::Error::SampleTooSmall`] counts as a failure.
///
/// # Errors
/// As for [`empirical_sample_complexity_sized`].
pub fn empirical_sample_complexity_observed(
    scenario: &Scenario,
    learner_for: &dyn Fn(usize) -> Result<Box<dyn Learner>>,
    config: SearchConfig,
    observe: &mut dyn FnMut(&TrialOutcome),
) -> Result<SampleComplexity> {
    search_observed(config, observe, |n| {
        evaluate_sized(scenario, learner_for, config, n)
    })
}

/// One size of [`empirical_sample_complexity_observed`]'s search: `config.trials` trials at
/// size `n` of the learner `learner_for(n)`, a [`privpac_learners::Error::SampleTooSmall`] counting
/// as zero successes with mean error 1.
///
/// # Errors
/// As for [`run_trials`], and any error of `learner_for` other than a refused size.
pub fn evaluate_sized(
    scenario: &Scenario,
    learner_for: &dyn Fn(usize) -> Result<Box<dyn Learner>>,
    config: SearchConfig,
    n: usize,
) -> Result<TrialOutcome> {
    let refused = |n: usize| TrialOutcome {
        sample_size: n,
        trials: config.trials,
        successes: 0,
        success_rate: 0.0,
        interval: wilson_interval(0, config.trials, 1.959_963_984_540_054),
        mean_error: 1.0,
    };
    let learner = match learner_for(n) {
        Ok(learner) => learner,
        Err(Error::Learner(privpac_learners::Error::SampleTooSmall { .. })) => {
            return Ok(refused(n));
        }
        Err(other) => return Err(other),
    };
    let outcome = run_trials(
        scenario,
        learner.as_ref(),
        TrialConfig {
            trials: config.trials,
            sample_size: n,
            alpha: config.alpha,
            master_seed: config.master_seed,
        },
    );
    match outcome {
        Err(Error::Learner(privpac_learners::Error::SampleTooSmall { .. })) => Ok(refused(n)),
        other => other,
    }
}

/// The search of [`empirical_sample_complexity_observed`] (doubling from `config.start`,
/// then binary search; success at a size means a success rate of at least 1 − β) over
/// sizes whose outcomes `evaluate_size` computes, for trials the engine's [`run_trials`]
/// cannot judge: a front end whose hypotheses are black-box predictors, whose true errors
/// it estimates on held-out samples, counts its own successes. `observe` sees each outcome.
///
/// # Errors
/// As for [`empirical_sample_complexity`], and the errors of `evaluate_size`.
pub fn search_sample_sizes(
    config: SearchConfig,
    observe: &mut dyn FnMut(&TrialOutcome),
    evaluate_size: &mut dyn FnMut(usize) -> Result<TrialOutcome>,
) -> Result<SampleComplexity> {
    search_observed(config, observe, evaluate_size)
}

/// Doubling, then binary search, over sizes evaluated by `evaluate`.
fn search(
    config: SearchConfig,
    evaluate_size: impl FnMut(usize) -> Result<TrialOutcome>,
) -> Result<SampleComplexity> {
    search_observed(config, &mut |_| {}, evaluate_size)
}

/// [`search`], reporting each outcome to `observe`.
pub(crate) fn search_observed(
    config: SearchConfig,
    observe: &mut dyn FnMut(&TrialOutcome),
    mut evaluate_size: impl FnMut(usize) -> Result<TrialOutcome>,
) -> Result<SampleComplexity> {
    check_count("trials", config.trials, MAX_TRIALS)?;
    check_count("largest sample size", config.max_size, MAX_SAMPLE_SIZE)?;
    if !(config.beta > 0.0 && config.beta < 1.0) {
        return Err(Error::InvalidParameter {
            name: "beta",
            requirement: "in (0, 1)",
            value: config.beta,
        });
    }
    if config.start == 0 {
        return Err(Error::InvalidParameter {
            name: "start",
            requirement: "at least 1",
            value: 0.0,
        });
    }
    let target = 1.0 - config.beta;
    let mut evaluations = Vec::new();
    let mut evaluate = |n: usize| -> Result<TrialOutcome> {
        let outcome = evaluate_size(n)?;
        observe(&outcome);
        evaluations.push(outcome.clone());
        Ok(outcome)
    };
    let mut low = 0; // largest size known to fail (0: none tried)
    let mut high = config.start;
    let mut best = loop {
        let outcome = evaluate(high)?;
        if outcome.success_rate >= target {
            break outcome;
        }
        low = high;
        if high >= config.max_size {
            return Err(Error::SampleComplexityNotReached {
                max_size: config.max_size,
                target,
            });
        }
        high = (high * 2).min(config.max_size);
    };
    while high - low > 1.max(high / 64) {
        let middle = low + (high - low) / 2;
        let outcome = evaluate(middle)?;
        if outcome.success_rate >= target {
            high = middle;
            best = outcome;
        } else {
            low = middle;
        }
    }
    Ok(SampleComplexity {
        sample_size: high,
        outcome: best,
        evaluations,
    })
}

#[cfg(test)]
mod tests {
    use privpac_classes::Thresholds;
    use privpac_learners::{Erm, Learner, VotingPredictor};

    use super::*;
    use crate::distribution::ExampleDistribution;

    fn config() -> SearchConfig {
        SearchConfig {
            alpha: 0.1,
            beta: 0.1,
            trials: 40,
            master_seed: 3,
            start: 4,
            max_size: 1 << 14,
        }
    }

    fn scenario() -> Scenario {
        Scenario::new(
            Box::new(Thresholds::new(64).unwrap()),
            ExampleDistribution::Uniform,
            20,
            0.0,
        )
        .unwrap()
    }

    #[test]
    fn sized_search_counts_too_small_sizes_as_failures() {
        let scenario = scenario();
        // ERM that refuses to run below 200 examples: the search must land at ≥ 200 and
        // record the refused sizes as failures.
        let learner_for =
            |n: usize| -> std::result::Result<Box<dyn Learner>, privpac_learners::Error> {
                if n < 200 {
                    Err(privpac_learners::Error::SampleTooSmall {
                        needed: 200,
                        got: n,
                    })
                } else {
                    Ok(Box::new(Erm::default()))
                }
            };
        let found = empirical_sample_complexity_sized(&scenario, &learner_for, config()).unwrap();
        assert!(found.sample_size >= 200, "{}", found.sample_size);
        assert!(found.sample_size <= 256, "{}", found.sample_size);
        assert!(
            found
                .evaluations
                .iter()
                .filter(|o| o.sample_size < 200)
                .all(|o| o.successes == 0 && o.mean_error == 1.0)
        );
        // A plain ERM needs far fewer (BEHW: tens of examples here).
        let plain = empirical_sample_complexity(&scenario, &Erm::default(), config()).unwrap();
        assert!(plain.sample_size < 200, "{}", plain.sample_size);
    }

    #[test]
    fn sized_search_counts_learners_refusing_small_samples_as_failures() {
        // Voting with 50 voters refuses samples smaller than 50 when it runs.
        let learner_for =
            |_: usize| -> std::result::Result<Box<dyn Learner>, privpac_learners::Error> {
                Ok(Box::new(VotingPredictor::new(4.0, 50)?))
            };
        let found = empirical_sample_complexity_sized(&scenario(), &learner_for, config()).unwrap();
        assert!(found.sample_size >= 50, "{}", found.sample_size);
    }

    /// Intervals over 2^30 points (2^59 concepts, structured true errors, levels instead of
    /// runs): the generic learner's sample-complexity search runs end to end and lands
    /// within its realizable bound.
    #[test]
    fn the_generic_learner_is_measured_on_intervals_over_two_to_the_thirty_points() {
        use privpac_classes::Intervals;
        let class = Intervals::new(1 << 30).unwrap();
        let target = crate::middle_target(&class);
        let scenario =
            Scenario::new(Box::new(class), ExampleDistribution::Uniform, target, 0.0).unwrap();
        assert!(scenario.has_fast_true_errors());
        let learner =
            privpac_learners::GenericLearner::new(privpac_accounting::Privacy::pure(1.0).unwrap())
                .unwrap();
        let found = empirical_sample_complexity(&scenario, &learner, config()).unwrap();
        let bound = privpac_learners::bounds::realizable_generic_learner_sample_size(
            scenario.class().len() as f64,
            1.0,
            0.1,
            0.1,
        );
        assert!(
            found.outcome.success_rate >= 0.9 && (found.sample_size as f64) < bound,
            "{} against {bound}",
            found.sample_size
        );
    }

    #[test]
    fn sized_search_passes_other_learner_errors_through() {
        let scenario = scenario();
        let learner_for =
            |_: usize| -> std::result::Result<Box<dyn Learner>, privpac_learners::Error> {
                Ok(Box::new(VotingPredictor::new(-1.0, 3)?))
            };
        assert!(matches!(
            empirical_sample_complexity_sized(&scenario, &learner_for, config()),
            Err(Error::Learner(privpac_learners::Error::Accounting(_)))
        ));
    }
}
