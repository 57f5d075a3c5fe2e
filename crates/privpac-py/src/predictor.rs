//! Predictor hypotheses of Python learners: a learner of `privpac.sample_complexity` may
//! return a vectorized predictor (a callable `points -> labels`, or an object with
//! `predict`) instead of a concept id.
//!
//! * **Exact** (the default where the scenario enumerates its domain, at most
//!   [`privpac_toolkit::MAX_EXACT_DOMAIN`] points): `python_learner.rs` evaluates the
//!   predictor on every point of the domain and the scenario computes the true error of
//!   that table exactly, as for concepts.
//! * **Estimated** (where the domain is not enumerated, or on request): [`Estimator`] runs
//!   each size's trials itself. A trial draws its sample and its learner's seed from the
//!   trial's stream exactly as the engine does (so the learner returns the same hypothesis
//!   as on the exact path), then a held-out sample of `holdout` points from the scenario's
//!   distribution with a generator seeded by the trial stream's next `u64`. The
//!   disagreement `d = Pr_x[h(x) ≠ t(x)]` with the target is estimated by the fraction `k/m`
//!   of held-out points where the prediction differs from the target's label, with the
//!   two-sided Clopper–Pearson interval at level `confidence`; the excess error is
//!   `(1 − 2η)·d` and the true error `η + (1 − 2η)·d` (η the label noise). **A trial counts
//!   as a success only when the interval's upper end of its excess error is at most α**
//!   (conservative: when the interval covers, the trial is a success on the exact error
//!   too); successes by the point estimate are reported beside. A learner that returns a
//!   concept id is judged on its exact error on this path too. Each size's mean error
//!   comes with a Hoeffding interval at the same level over the `T·m` held-out indicators
//!   (independent given the hypotheses): half-width `(1 − 2η)·√(T_p·ln(2/γ)/(2m))/T`, with
//!   `T_p` the trials whose error was estimated and γ = 1 − confidence.

use privpac_toolkit::{Scenario, TrialOutcome, trial_rng, wilson_interval};
use pyo3::prelude::*;
use rand::{Rng, SeedableRng};

use crate::predictions::predictions;
use crate::python_learner::{PythonLearner, Returned};

/// How the true error of a predictor is obtained.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum TrueError {
    /// Evaluated on every point of the domain.
    Exact,
    /// Estimated on `holdout` fresh points per trial, with intervals at `confidence`.
    Estimated { holdout: usize, confidence: f64 },
}

/// The estimates of one size's trials, beyond the engine's [`TrialOutcome`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SizeEstimates {
    /// The size.
    pub sample_size: usize,
    /// Trials whose hypothesis was a predictor (error estimated).
    pub estimated_trials: usize,
    /// Trials whose point estimate of the excess error is at most α.
    pub successes_by_point_estimate: usize,
    /// The Hoeffding interval of the mean true error (OPT included).
    pub mean_error_interval: (f64, f64),
}

/// Runs the trials of [`TrueError::Estimated`] (see the module docs) and keeps each
/// size's [`SizeEstimates`].
pub(crate) struct Estimator<'a> {
    pub learner: &'a PythonLearner,
    pub trials: usize,
    pub alpha: f64,
    pub master_seed: u64,
    pub holdout: usize,
    pub confidence: f64,
    pub sizes: Vec<SizeEstimates>,
}

impl Estimator<'_> {
    /// The outcome of the trials at size `n`: successes counted by the upper end of each
    /// trial's interval (a concept id by its exact error).
    pub(crate) fn evaluate(
        &mut self,
        scenario: &Scenario,
        n: usize,
    ) -> privpac_toolkit::Result<TrialOutcome> {
        let class = scenario.class();
        let scale = 1.0 - 2.0 * scenario.label_noise();
        let fail = |error: PyErr| {
            privpac_toolkit::Error::Learner(privpac_learners::Error::External {
                learner: self.learner.label().to_owned(),
                message: self.learner.record(error),
            })
        };
        let (mut successes, mut by_point, mut estimated) = (0, 0, 0);
        let mut total_excess = 0.0;
        for index in 0..self.trials {
            let mut rng = trial_rng(self.master_seed, index as u64);
            let sample = scenario.sample(n, &mut rng)?;
            let seed = rng.next_u64();
            let returned = self
                .learner
                .call_returned(class, &sample, seed)
                .map_err(fail)?;
            let (point, upper) = match returned {
                Returned::Concept(id) => {
                    let excess = scenario
                        .try_excess_error(&privpac_classes::Hypothesis::Concept { id }.into())?;
                    (excess, excess)
                }
                Returned::Predictor(predictor) => {
                    estimated += 1;
                    let mut holdout_rng = rand_chacha::ChaCha8Rng::seed_from_u64(rng.next_u64());
                    let holdout = scenario.sample(self.holdout, &mut holdout_rng)?;
                    let points = holdout.points();
                    let labels = Python::attach(|py| {
                        predictions(predictor.bind(py), points, self.learner.label())
                    })
                    .map_err(fail)?;
                    let target = scenario.target();
                    let disagreements = points
                        .iter()
                        .zip(&labels)
                        .filter(|&(&x, &label)| label != class.eval(target, x))
                        .count() as u64;
                    let m = self.holdout as u64;
                    let (_, high) =
                        privpac_audit::clopper_pearson(disagreements, m, self.confidence).map_err(
                            |_| privpac_toolkit::Error::InvalidParameter {
                                name: "confidence",
                                requirement: "in (0, 1)",
                                value: self.confidence,
                            },
                        )?;
                    (scale * disagreements as f64 / m as f64, scale * high)
                }
            };
            total_excess += point;
            successes += usize::from(upper <= self.alpha);
            by_point += usize::from(point <= self.alpha);
        }
        let trials = self.trials as f64;
        let opt = scenario.opt();
        let mean = opt + total_excess / trials;
        let gamma = 1.0 - self.confidence;
        let half = scale
            * (estimated as f64 * (2.0 / gamma).ln() / (2.0 * self.holdout as f64)).sqrt()
            / trials;
        self.sizes.push(SizeEstimates {
            sample_size: n,
            estimated_trials: estimated,
            successes_by_point_estimate: by_point,
            mean_error_interval: ((mean - half).max(opt), (mean + half).min(1.0)),
        });
        Ok(TrialOutcome {
            sample_size: n,
            trials: self.trials,
            successes,
            success_rate: successes as f64 / trials,
            interval: wilson_interval(successes, self.trials, 1.959_963_984_540_054),
            mean_error: mean,
        })
    }
}
