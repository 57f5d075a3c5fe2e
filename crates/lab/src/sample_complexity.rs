//! Empirical sample complexity: the smallest sample size at which a learner succeeds with
//! probability at least 1 − β, found by doubling and then binary search.

use learners::Learner;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::scenario::Scenario;
use crate::trials::{TrialConfig, TrialOutcome, run_trials};

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
/// [`Error::InvalidParameter`] for β outside (0, 1) or `start` = 0;
/// [`Error::SampleComplexityNotReached`] if `max_size` is not enough; trial errors.
pub fn empirical_sample_complexity(
    scenario: &Scenario,
    learner: &dyn Learner,
    config: SearchConfig,
) -> Result<SampleComplexity> {
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
        let outcome = run_trials(
            scenario,
            learner,
            TrialConfig {
                trials: config.trials,
                sample_size: n,
                alpha: config.alpha,
                master_seed: config.master_seed,
            },
        )?;
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
