//! One empirical sample-complexity measurement described by plain values (strings and
//! numbers), as front ends receive it: `privpac sample-complexity` and the Python bindings
//! both build a [`SampleComplexityRequest`] and call [`run_sample_complexity`], so the same
//! inputs and seed give the same [`SampleComplexityReport`] (the CLI's `--json`) in both.
//! A learner built outside the lab's specs (a Python learner behind the bindings' adapter)
//! is measured by [`run_sample_complexity_with`], which runs the same search on the same
//! scenario: only where the learner comes from differs. [`run_sample_complexity_evaluated`]
//! also leaves each size's trials to the caller (the bindings estimate a black-box
//! predictor's true error on a held-out sample), with the same scenario, search and report.

use std::sync::Arc;

use privpac_accounting::Guarantee;
use privpac_classes::Hypothesis;
use privpac_learners::{Learner, Predictor};
use serde::{Deserialize, Serialize};

use crate::{
    Bound, ClassSpec, Error, ExampleDistribution, LearnerParams, LearnerSpec, Result, Scenario,
    ScenarioKind, SearchConfig, TrialOutcome, bounds_for_buckets, build_learner,
    empirical_sample_complexity_observed,
};
use privpac_engine::evaluate_sized;
use privpac_engine::limits::{MAX_SAMPLE_SIZE, MAX_TRIALS};

/// The distribution of examples, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DistributionChoice {
    /// Uniform over the domain.
    #[default]
    Uniform,
    /// Zipf with exponent 1 over the domain's order.
    Zipf,
    /// Mass `min(2α, 1)` on the target's first positive point (or point 0), the rest
    /// uniform.
    Point,
}

impl std::str::FromStr for DistributionChoice {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "uniform" => Ok(Self::Uniform),
            "zipf" => Ok(Self::Zipf),
            "point" => Ok(Self::Point),
            other => Err(Error::UnknownDistribution { name: other.into() }),
        }
    }
}

/// What to measure: a class, a single-concept learner, (ε, α, β), the scenario and the
/// search's budget. Strings are the lab's spec strings ([`ClassSpec`], [`LearnerSpec`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SampleComplexityRequest {
    /// The class spec, e.g. `thresholds:1024`.
    pub class: String,
    /// The learner spec, e.g. `generic`.
    pub learner: String,
    /// The privacy target ε: the learner's reported guarantee (DP, or per prediction for
    /// the prediction learners) is at most ε. Required by every learner but `erm` and
    /// `stable`; refused by `stable` (not private; see `em_epsilon`).
    #[serde(default)]
    pub epsilon: Option<f64>,
    /// The stable learners' exponential-mechanism ε (an inner knob, not a guarantee):
    /// required by `stable`, optional for `private-prediction` (solved when absent).
    #[serde(default)]
    pub em_epsilon: Option<f64>,
    /// The privacy target δ of an (ε, δ) learner (`sanitizer:point`, any sanitizer learner
    /// given δ; default 0, pure): the learner's reported guarantee is within (ε, δ). The
    /// pure learners refuse δ > 0 as they do in `learn`.
    #[serde(default)]
    pub delta: f64,
    /// Accuracy α: a trial succeeds when the excess error (true error − OPT) is at most α;
    /// OPT is the label noise (0 when realizable).
    pub alpha: f64,
    /// Confidence β: the target success rate is 1 − β.
    pub beta: f64,
    /// The distribution of examples.
    pub distribution: DistributionChoice,
    /// The target concept id (default: [`crate::default_target`], a concept no constant
    /// hypothesis approximates under the uniform distribution).
    pub target: Option<u64>,
    /// Probability that a label is flipped (0: realizable, > 0: agnostic).
    pub label_noise: f64,
    /// Trials per sample size.
    pub trials: usize,
    /// Give up above this sample size.
    pub max_size: usize,
    /// The master seed (trial `j` at every size uses ChaCha8 stream `j` of it).
    pub seed: u64,
    /// Stable learners: the subset size t (default ⌈√n⌉).
    pub subset_size: Option<usize>,
    /// Private prediction: the label flip probability η.
    pub flip_probability: f64,
    /// Voting and relabeling: the number of voters.
    pub voters: usize,
    /// Relabeling: the vote's ε₂.
    pub vote_epsilon: f64,
    /// The improper point learner: its number of hash buckets (default `⌈16/(αβ)⌉` for
    /// this request's α and β).
    #[serde(default)]
    pub buckets: Option<u64>,
}

impl SampleComplexityRequest {
    /// A request with the CLI's defaults: uniform distribution, middle target, no label
    /// noise, 100 trials, sizes up to 2^20, default tuning. `epsilon` is the privacy
    /// target (for `stable`, set `epsilon` to None and `em_epsilon` instead).
    pub fn new(
        class: impl Into<String>,
        learner: impl Into<String>,
        epsilon: f64,
        alpha: f64,
        beta: f64,
        seed: u64,
    ) -> Self {
        SampleComplexityRequest {
            class: class.into(),
            learner: learner.into(),
            epsilon: Some(epsilon),
            em_epsilon: None,
            delta: 0.0,
            alpha,
            beta,
            distribution: DistributionChoice::Uniform,
            target: None,
            label_noise: 0.0,
            trials: 100,
            max_size: 1 << 20,
            seed,
            subset_size: None,
            flip_probability: crate::default_flip_probability(alpha),
            voters: 7,
            vote_epsilon: 1.0,
            buckets: None,
        }
    }
}

/// The result of [`run_sample_complexity`] (the JSON of `privpac sample-complexity`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SampleComplexityReport {
    /// The class's name.
    pub class: String,
    /// The learner as built (with its parameters), e.g. `relabeling(t=…)`.
    pub learner: String,
    /// The learner spec as given (absent for a learner given by
    /// [`run_sample_complexity_with`], which has no spec).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub learner_spec: Option<LearnerSpec>,
    /// The target concept id.
    pub target: u64,
    /// What the target is in the data's terms (`1 on x ≤ 17`, a parity's bit string).
    pub target_description: String,
    /// The distribution of examples.
    pub distribution: ExampleDistribution,
    /// The label noise.
    pub label_noise: f64,
    /// Realizable or agnostic.
    pub scenario: ScenarioKind,
    /// OPT, the smallest true error of a concept of the class: exactly the label noise (the
    /// target is in the class; 0 when realizable). A trial succeeds when its hypothesis's
    /// true error is at most OPT + α.
    pub opt: f64,
    /// The privacy target ε (None for `erm` and `stable`).
    pub epsilon: Option<f64>,
    /// The stable learners' exponential-mechanism ε, if given.
    pub em_epsilon: Option<f64>,
    /// α.
    pub alpha: f64,
    /// β.
    pub beta: f64,
    /// The smallest size found with success rate ≥ 1 − β; None for a trivial scenario
    /// (not searched).
    pub empirical_sample_size: Option<usize>,
    /// The success rate at that size (None for a trivial scenario).
    pub success_rate: Option<f64>,
    /// 95% Wilson interval of the success rate, `[low, high]` (None for a trivial
    /// scenario).
    pub interval: Option<(f64, f64)>,
    /// Trials per size.
    pub trials: usize,
    /// Set when a constant hypothesis (all zeros or all ones) already has excess error at
    /// most α on this scenario (under the uniform distribution on `points:N` the all-zero
    /// hypothesis errs 1/N): any learner that outputs a constant succeeds with no data, so
    /// no search is run and no sample size is reported (as for the trivial k of the
    /// multi-learners' curves).
    pub trivial: Option<crate::ConstantBaseline>,
    /// The bound with explicit constants for this learner and scenario kind, if any.
    pub bound: Bound,
    /// The learner's guarantee at the empirical sample size (from the learner as built;
    /// None for a trivial scenario).
    pub guarantee: Option<Guarantee>,
    /// The guarantee as text (None for a trivial scenario); for a learner given by
    /// [`run_sample_complexity_with`] it ends in ` (claimed)`.
    pub guarantee_text: Option<String>,
    /// Where the guarantee comes from: [`GUARANTEE_PROVEN`] for a built-in learner (a
    /// spec), [`GUARANTEE_CLAIMED`] for a learner given whole, whose guarantee is what its
    /// caller states and is not checked.
    pub guarantee_source: &'static str,
    /// Every size tried, in order (empty for a trivial scenario).
    pub evaluations: Vec<TrialOutcome>,
}

/// [`SampleComplexityReport::guarantee_source`] for a built-in learner.
pub const GUARANTEE_PROVEN: &str = "proven (built-in learner)";

/// [`SampleComplexityReport::guarantee_source`] for a learner given whole (a Python
/// learner): its guarantee is its caller's claim, not checked.
pub const GUARANTEE_CLAIMED: &str = "claimed by the caller (not checked)";

/// Where a request's learner comes from: a spec built at every size, or a learner given
/// whole (its guarantee is what it claims; the lab knows no bound for it).
enum Source {
    Spec(LearnerSpec, LearnerParams),
    Given(Arc<dyn Learner>),
}

/// A given learner as the box the engine's `learner_for` returns (shared, not copied).
#[derive(Debug)]
struct SharedLearner(Arc<dyn Learner>);

impl Learner for SharedLearner {
    fn learn(
        &self,
        class: &dyn privpac_classes::ConceptClass,
        sample: &privpac_classes::LabeledSample,
        rng: &mut dyn rand::Rng,
    ) -> privpac_learners::Result<Predictor> {
        self.0.learn(class, sample, rng)
    }
    fn guarantee(&self, examples: usize) -> Guarantee {
        self.0.guarantee(examples)
    }
    fn error_floor(&self, examples: usize) -> Option<privpac_learners::ErrorFloor> {
        self.0.error_floor(examples)
    }
    fn name(&self) -> String {
        self.0.name()
    }
}

/// What a request builds before any trial: the learner's source, the scenario, the
/// learner's name and the bound.
struct Prepared {
    source: Source,
    scenario: Scenario,
    distribution: ExampleDistribution,
    learner_name: String,
    class_name: String,
    bound: Bound,
}

impl Prepared {
    /// `given`: the learner to run instead of `request.learner`'s spec (then ignored).
    fn new(request: &SampleComplexityRequest, given: Option<Arc<dyn Learner>>) -> Result<Self> {
        crate::check_count("trials", request.trials, MAX_TRIALS)?;
        crate::check_count("max_size", request.max_size, MAX_SAMPLE_SIZE)?;
        if request.max_size == 0 {
            // A search up to 0 tries nothing: refuse it rather than report "no sample size
            // up to 0 reached success" as if it had been measured.
            return Err(Error::InvalidParameter {
                name: "max_size",
                requirement: "at least 1",
                value: 0.0,
            });
        }
        let spec: Option<LearnerSpec> = match given {
            Some(_) => None,
            None => Some(request.learner.parse()?),
        };
        let class = request.class.parse::<ClassSpec>()?.build()?;
        let target = request
            .target
            .unwrap_or_else(|| crate::default_target(class.as_ref()));
        let distribution = match request.distribution {
            DistributionChoice::Uniform => ExampleDistribution::Uniform,
            DistributionChoice::Zipf => ExampleDistribution::Zipf { exponent: 1.0 },
            DistributionChoice::Point => ExampleDistribution::mass_on_target(
                class.as_ref(),
                target,
                (2.0 * request.alpha).min(1.0),
            ),
        };
        let class_name = class.name();
        let scenario = Scenario::new(class, distribution.clone(), target, request.label_noise)?;
        let (Some(spec), None) = (spec, &given) else {
            let learner = given.expect("a spec is parsed exactly when no learner is given");
            return Ok(Prepared {
                learner_name: learner.name(),
                source: Source::Given(learner),
                scenario,
                distribution,
                class_name,
                bound: Bound::NoExplicitConstants {
                    reason: "the lab knows no bound for a learner given from outside its specs"
                        .into(),
                },
            });
        };
        let params = LearnerParams {
            epsilon: request.epsilon,
            em_epsilon: request.em_epsilon,
            delta: request.delta,
            subset_size: request.subset_size,
            flip_probability: request.flip_probability,
            voters: request.voters,
            vote_epsilon: request.vote_epsilon,
            class_size: Some(scenario.class().len()),
            alpha: request.alpha,
            beta: request.beta,
            buckets: request.buckets,
            sanitizer: crate::SanitizerParams::default(),
        };
        // α and β first (the bounds below need them in (0, 1)): an α out of range is named
        // as such, not through the flip α/2 it defaults.
        if spec != LearnerSpec::InteriorPoint {
            crate::bounds::check_accuracy(request.alpha, request.beta)?;
        }
        // Build once at the largest size so that invalid parameters fail before any trial.
        let learner_name = match build_learner(spec, &params, request.max_size) {
            Ok(learner) => learner.name(),
            Err(Error::Learner(privpac_learners::Error::SampleTooSmall { .. })) => spec.to_string(),
            Err(error) => return Err(error),
        };
        let bound = match spec {
            LearnerSpec::InteriorPoint => crate::interior_point_bound(
                scenario.class(),
                scenario.kind(),
                request.epsilon.unwrap_or(f64::NAN),
                request.delta,
                request.alpha,
                request.beta,
            ),
            _ => bounds_for_buckets(
                spec,
                scenario.class(),
                scenario.kind(),
                request.epsilon.unwrap_or(f64::NAN),
                request.alpha,
                request.beta,
                request.buckets,
            )?,
        };
        Ok(Prepared {
            source: Source::Spec(spec, params),
            scenario,
            distribution,
            learner_name,
            class_name,
            bound,
        })
    }

    fn learner_for(&self, n: usize) -> Result<Box<dyn Learner>> {
        match &self.source {
            Source::Spec(spec, params) => build_learner(*spec, params, n),
            Source::Given(learner) => Ok(Box::new(SharedLearner(Arc::clone(learner)))),
        }
    }

    fn spec(&self) -> Option<LearnerSpec> {
        match &self.source {
            Source::Spec(spec, _) => Some(*spec),
            Source::Given(_) => None,
        }
    }

    fn config(request: &SampleComplexityRequest) -> SearchConfig {
        SearchConfig {
            alpha: request.alpha,
            beta: request.beta,
            trials: request.trials,
            master_seed: request.seed,
            start: 4,
            max_size: request.max_size,
        }
    }
}

/// Builds the scenario and learner of `request`, searches for the smallest sample size with
/// success rate ≥ 1 − β ([`empirical_sample_complexity_observed`], doubling then binary
/// search from 4; a trial succeeds when its excess error is at most α, i.e. its true error
/// at most OPT + α) and reports it with OPT, the bound and the learner's guarantee at that
/// size. When a constant hypothesis already has excess error at most α the scenario is
/// trivial: no search runs and the report says so ([`SampleComplexityReport::trivial`]).
/// `observe` sees every size tried (for progress display). Deterministic in the request
/// (including its seed), whatever the number of threads.
///
/// # Errors
/// Counts above the [`privpac_engine::limits`], bad specs or parameters (checked before any trial),
/// and the search's errors.
pub fn run_sample_complexity(
    request: &SampleComplexityRequest,
    observe: &mut dyn FnMut(&TrialOutcome),
) -> Result<SampleComplexityReport> {
    report(request, Prepared::new(request, None)?, None, observe)
}

/// As [`run_sample_complexity`] for a learner given whole rather than by
/// `request.learner`'s spec (which is ignored): the same scenario, trial streams, search
/// and report. The report's `guarantee` is what `learner` claims at the size found (not
/// checked against `request.epsilon`, which only the specs' learners use; leave it None),
/// `bound` is [`Bound::NoExplicitConstants`] and `learner_spec` is absent.
///
/// # Errors
/// As for [`run_sample_complexity`]; the learner's own errors (the first in trial order
/// at the first size where one occurs) end the search.
pub fn run_sample_complexity_with(
    request: &SampleComplexityRequest,
    learner: Arc<dyn Learner>,
    observe: &mut dyn FnMut(&TrialOutcome),
) -> Result<SampleComplexityReport> {
    report(
        request,
        Prepared::new(request, Some(learner))?,
        None,
        observe,
    )
}

/// The trials of one size, run by the caller: `evaluate(scenario, n)` gives the outcome of
/// the request's trials at size `n` on the request's scenario.
pub type EvaluateSize<'a> = dyn FnMut(&Scenario, usize) -> Result<TrialOutcome> + 'a;

/// As [`run_sample_complexity_with`], with each size's trials run by `evaluate` (given the
/// request's scenario and the size) instead of the engine's [`crate::run_trials`]: the
/// same scenario, search ([`privpac_engine::search_sample_sizes`]) and report, for
/// hypotheses the engine cannot judge exactly (a black-box predictor whose true error the
/// caller estimates on a held-out sample, and whose successes it counts by its own rule).
/// `learner` gives the report's name and guarantee only; `evaluate` is not called for a
/// trivial scenario.
///
/// # Errors
/// As for [`run_sample_complexity_with`], and the errors of `evaluate`.
pub fn run_sample_complexity_evaluated(
    request: &SampleComplexityRequest,
    learner: Arc<dyn Learner>,
    evaluate: &mut EvaluateSize<'_>,
    observe: &mut dyn FnMut(&TrialOutcome),
) -> Result<SampleComplexityReport> {
    report(
        request,
        Prepared::new(request, Some(learner))?,
        Some(evaluate),
        observe,
    )
}

fn report(
    request: &SampleComplexityRequest,
    prepared: Prepared,
    evaluate: Option<&mut EvaluateSize<'_>>,
    observe: &mut dyn FnMut(&TrialOutcome),
) -> Result<SampleComplexityReport> {
    let trivial = [false, true]
        .into_iter()
        .filter_map(|label| {
            let excess = prepared
                .scenario
                .try_excess_error(&Hypothesis::Constant { label }.into())
                .ok()?;
            (excess <= request.alpha).then(|| crate::ConstantBaseline {
                hypothesis: if label { "all ones" } else { "all zeros" }.into(),
                excess_error: excess,
            })
        })
        .min_by(|a, b| a.excess_error.total_cmp(&b.excess_error));
    // A trivial scenario is not searched (as the k-curves skip their trivial k).
    let found = match trivial {
        Some(_) => None,
        None => match evaluate {
            None => {
                let learner_for = |n: usize| prepared.learner_for(n);
                Some(empirical_sample_complexity_observed(
                    &prepared.scenario,
                    &learner_for,
                    Prepared::config(request),
                    observe,
                )?)
            }
            Some(evaluate) => Some(privpac_engine::search_sample_sizes(
                Prepared::config(request),
                observe,
                &mut |n| evaluate(&prepared.scenario, n),
            )?),
        },
    };
    let guarantee = match &found {
        Some(found) => Some(
            prepared
                .learner_for(found.sample_size)?
                .guarantee(found.sample_size),
        ),
        None => None,
    };
    let outcome = found.as_ref().map(|found| &found.outcome);
    let learner_spec = prepared.spec();
    let claimed = learner_spec.is_none();
    Ok(SampleComplexityReport {
        class: prepared.class_name,
        learner: prepared.learner_name,
        learner_spec,
        target: prepared.scenario.target(),
        target_description: prepared
            .scenario
            .class()
            .describe(prepared.scenario.target()),
        distribution: prepared.distribution,
        label_noise: request.label_noise,
        scenario: prepared.scenario.kind(),
        opt: prepared.scenario.opt(),
        epsilon: request.epsilon,
        em_epsilon: request.em_epsilon,
        alpha: request.alpha,
        beta: request.beta,
        empirical_sample_size: found.as_ref().map(|found| found.sample_size),
        success_rate: outcome.map(|o| o.success_rate),
        interval: outcome.map(|o| o.interval),
        trials: request.trials,
        trivial,
        bound: prepared.bound,
        guarantee,
        guarantee_text: guarantee.map(|g| {
            if claimed {
                format!("{g} (claimed)")
            } else {
                g.to_string()
            }
        }),
        guarantee_source: if claimed {
            GUARANTEE_CLAIMED
        } else {
            GUARANTEE_PROVEN
        },
        evaluations: found.map(|found| found.evaluations).unwrap_or_default(),
    })
}

/// The request's trials at one sample size `n` (its `max_size` is ignored except for the
/// limit check): exactly the evaluation [`run_sample_complexity`] records when its search
/// tries `n` (same scenario, learner, seed and trial streams; a learner that refuses `n`
/// examples counts as zero successes). For curves of success rate against n.
///
/// # Errors
/// As for [`run_sample_complexity`], and [`privpac_engine::limits::MAX_SAMPLE_SIZE`] for `n`.
pub fn run_trials_at(request: &SampleComplexityRequest, n: usize) -> Result<TrialOutcome> {
    crate::check_count("sample_size", n, MAX_SAMPLE_SIZE)?;
    let prepared = Prepared::new(request, None)?;
    let learner_for = |n: usize| prepared.learner_for(n);
    evaluate_sized(
        &prepared.scenario,
        &learner_for,
        Prepared::config(request),
        n,
    )
}

/// As [`run_trials_at`] for a learner given whole (see [`run_sample_complexity_with`]):
/// exactly the evaluation that function records when its search tries `n`.
///
/// # Errors
/// As for [`run_trials_at`], and the learner's own errors.
pub fn run_trials_at_with(
    request: &SampleComplexityRequest,
    learner: Arc<dyn Learner>,
    n: usize,
) -> Result<TrialOutcome> {
    crate::check_count("sample_size", n, MAX_SAMPLE_SIZE)?;
    let prepared = Prepared::new(request, Some(learner))?;
    let learner_for = |n: usize| prepared.learner_for(n);
    evaluate_sized(
        &prepared.scenario,
        &learner_for,
        Prepared::config(request),
        n,
    )
}

/// As [`run_trials_at_with`] with the trials run by `evaluate` on the request's scenario
/// (see [`run_sample_complexity_evaluated`]): exactly the evaluation that function records
/// when its search tries `n`.
///
/// # Errors
/// As for [`run_trials_at`], and the errors of `evaluate`.
pub fn run_trials_at_evaluated(
    request: &SampleComplexityRequest,
    learner: Arc<dyn Learner>,
    evaluate: &mut EvaluateSize<'_>,
    n: usize,
) -> Result<TrialOutcome> {
    crate::check_count("sample_size", n, MAX_SAMPLE_SIZE)?;
    let prepared = Prepared::new(request, Some(learner))?;
    evaluate(&prepared.scenario, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_request_gives_the_same_report_and_the_seed_matters() {
        let mut request =
            SampleComplexityRequest::new("thresholds:64", "generic", 1.0, 0.2, 0.2, 3);
        request.trials = 20;
        let mut seen = Vec::new();
        let a = run_sample_complexity(&request, &mut |o| seen.push(o.sample_size)).unwrap();
        let b = run_sample_complexity(&request, &mut |_| {}).unwrap();
        assert_eq!(a, b);
        assert_eq!(
            seen,
            a.evaluations
                .iter()
                .map(|o| o.sample_size)
                .collect::<Vec<_>>()
        );
        assert!(a.empirical_sample_size.unwrap() >= 4);
        assert!(a.success_rate.unwrap() >= 0.8);
        assert_eq!(a.opt, 0.0);
        assert_eq!(a.target, 32);
        // Every evaluation of the search is what run_trials_at gives at that size.
        for evaluation in &a.evaluations {
            assert_eq!(
                &run_trials_at(&request, evaluation.sample_size).unwrap(),
                evaluation
            );
        }
        request.seed = 4;
        let c = run_sample_complexity(&request, &mut |_| {}).unwrap();
        assert_ne!(
            serde_json::to_string(&a.evaluations).unwrap(),
            serde_json::to_string(&c.evaluations).unwrap()
        );
    }

    /// A caller's evaluator that runs the engine's own trials gives the report of
    /// [`run_sample_complexity_with`]; it is given the request's scenario and every size
    /// the search tries, in order.
    #[test]
    fn an_evaluator_running_the_engines_trials_gives_the_same_report() {
        let mut request =
            SampleComplexityRequest::new("thresholds:64", "generic", 1.0, 0.2, 0.2, 3);
        request.epsilon = None;
        request.trials = 20;
        let learner: Arc<dyn Learner> = Arc::new(
            privpac_learners::GenericLearner::new(privpac_accounting::Privacy::pure(1.0).unwrap())
                .unwrap(),
        );
        let with = run_sample_complexity_with(&request, Arc::clone(&learner), &mut |_| {}).unwrap();
        let mut sizes = Vec::new();
        let mut evaluate = |scenario: &Scenario, n: usize| {
            assert_eq!(scenario.target(), 32);
            sizes.push(n);
            crate::run_trials(
                scenario,
                learner.as_ref(),
                crate::TrialConfig {
                    trials: request.trials,
                    sample_size: n,
                    alpha: request.alpha,
                    master_seed: request.seed,
                },
            )
        };
        let evaluated = run_sample_complexity_evaluated(
            &request,
            Arc::clone(&learner),
            &mut evaluate,
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(evaluated, with);
        assert_eq!(
            sizes,
            with.evaluations
                .iter()
                .map(|o| o.sample_size)
                .collect::<Vec<_>>()
        );
        assert!(sizes.len() >= 2);
        let mut engine = |scenario: &Scenario, n: usize| {
            crate::run_trials(
                scenario,
                learner.as_ref(),
                crate::TrialConfig {
                    trials: request.trials,
                    sample_size: n,
                    alpha: request.alpha,
                    master_seed: request.seed,
                },
            )
        };
        // One size of each: the evaluation its search recorded.
        for outcome in &with.evaluations {
            let n = outcome.sample_size;
            assert_eq!(
                &run_trials_at_with(&request, Arc::clone(&learner), n).unwrap(),
                outcome
            );
            assert_eq!(
                &run_trials_at_evaluated(&request, Arc::clone(&learner), &mut engine, n).unwrap(),
                outcome
            );
        }
    }

    /// The probe: with label noise 0.1 (OPT = 0.1) and α = 0.05 the generic learner
    /// reaches success 0.9 (a trial succeeds at true error ≤ OPT + α; judged on the true
    /// error, no size up to 2^20 ever did), OPT is reported, and every trial of the search
    /// met 1 − β only with excess error ≤ α.
    #[test]
    fn agnostic_requests_measure_excess_error_and_report_opt() {
        let mut request =
            SampleComplexityRequest::new("thresholds:1024", "generic", 3.0, 0.05, 0.1, 1);
        request.label_noise = 0.1;
        request.trials = 30;
        request.max_size = 1 << 14;
        let report = run_sample_complexity(&request, &mut |_| {}).unwrap();
        assert_eq!(report.scenario, ScenarioKind::Agnostic);
        assert_eq!(report.opt, 0.1);
        assert!(report.trivial.is_none());
        let n = report.empirical_sample_size.unwrap();
        assert!(report.success_rate.unwrap() >= 0.9, "{report:?}");
        // The mean true error at n is above OPT: these successes are not true error ≤ α.
        let last = report
            .evaluations
            .iter()
            .find(|o| o.sample_size == n)
            .unwrap();
        assert!(last.mean_error > report.opt, "{last:?}");
        // The agnostic bound printed beside it is for the same accuracy (error ≤ OPT + α).
        assert!(matches!(report.bound, Bound::Explicit { .. }), "{report:?}");
    }

    /// A scenario that a constant hypothesis already solves is reported trivial without a
    /// search (no trial runs, no sample size): here thresholds over 64 points with the last
    /// threshold as target, so the all-ones hypothesis is exact.
    #[test]
    fn trivial_scenarios_are_not_searched() {
        let mut request =
            SampleComplexityRequest::new("thresholds:64", "generic", 1.0, 0.1, 0.1, 1);
        request.target = Some(63);
        let report = run_sample_complexity(&request, &mut |_| panic!("a trial ran")).unwrap();
        let trivial = report.trivial.as_ref().unwrap();
        assert_eq!(trivial.hypothesis, "all ones");
        assert_eq!(trivial.excess_error, 0.0);
        assert_eq!(report.empirical_sample_size, None);
        assert_eq!(report.success_rate, None);
        assert_eq!(report.guarantee, None);
        assert!(report.evaluations.is_empty());
        // With noise the constant's excess error, not its true error, is compared with α:
        // target 61 of 64 with η = 0.2 has all-ones excess 0.6·2/64 ≈ 0.019 ≤ 0.05 (true
        // error 0.219 > α) and is trivial too.
        request.target = Some(61);
        request.alpha = 0.05;
        request.label_noise = 0.2;
        let report = run_sample_complexity(&request, &mut |_| panic!("a trial ran")).unwrap();
        let trivial = report.trivial.unwrap();
        assert!((trivial.excess_error - 0.6 * 2.0 / 64.0).abs() < 1e-12);
        assert_eq!(report.opt, 0.2);
    }

    /// A learner given whole runs the same search as its spec: the generic learner built
    /// by hand gives the spec's evaluations exactly, with its own guarantee, no bound and
    /// no spec.
    #[test]
    fn a_given_learner_runs_the_specs_search() {
        let mut request =
            SampleComplexityRequest::new("thresholds:64", "generic", 1.0, 0.2, 0.2, 3);
        request.trials = 20;
        let by_spec = run_sample_complexity(&request, &mut |_| {}).unwrap();
        let learner =
            privpac_learners::GenericLearner::new(privpac_accounting::Privacy::pure(1.0).unwrap())
                .unwrap();
        request.learner = "ignored".into();
        request.epsilon = None;
        let given = run_sample_complexity_with(&request, Arc::new(learner), &mut |_| {}).unwrap();
        assert_eq!(given.evaluations, by_spec.evaluations);
        assert_eq!(given.empirical_sample_size, by_spec.empirical_sample_size);
        assert_eq!(given.guarantee, by_spec.guarantee);
        // The same guarantee, but the given learner's is its caller's claim.
        assert_eq!(by_spec.guarantee_source, GUARANTEE_PROVEN);
        assert_eq!(given.guarantee_source, GUARANTEE_CLAIMED);
        let text = by_spec.guarantee_text.clone().unwrap();
        assert_eq!(given.guarantee_text, Some(format!("{text} (claimed)")));
        assert!(!text.contains("claimed"), "{text}");
        assert_eq!(given.learner, by_spec.learner);
        assert_eq!(given.learner_spec, None);
        assert!(matches!(given.bound, Bound::NoExplicitConstants { .. }));
        let json = serde_json::to_value(&given).unwrap();
        assert!(json.get("learner_spec").is_none());
        assert_eq!(
            serde_json::to_value(&by_spec).unwrap()["learner_spec"],
            "generic"
        );
    }

    #[test]
    fn bad_requests_are_typed_errors_before_any_trial() {
        let request = |f: &dyn Fn(&mut SampleComplexityRequest)| {
            let mut r = SampleComplexityRequest::new("thresholds:8", "generic", 1.0, 0.1, 0.1, 1);
            f(&mut r);
            run_sample_complexity(&r, &mut |_| panic!("a trial ran"))
        };
        assert!(matches!(
            request(&|r| r.trials = usize::MAX),
            Err(Error::TooLarge { name: "trials", .. })
        ));
        assert!(matches!(
            request(&|r| r.learner = "nope".into()),
            Err(Error::UnknownLearner { .. })
        ));
        assert!(request(&|r| r.class = "nope:3".into()).is_err());
        // A search up to 0 tried nothing and used to report "no sample size up to 0".
        assert!(matches!(
            request(&|r| r.max_size = 0),
            Err(Error::InvalidParameter {
                name: "max_size",
                ..
            })
        ));
        // ERM ignores ε and δ but refuses values that are none.
        for (epsilon, delta) in [(Some(f64::NAN), 0.0), (Some(0.0), 0.0), (None, 2.0)] {
            assert!(
                request(&|r| {
                    r.learner = "erm".into();
                    r.epsilon = epsilon;
                    r.delta = delta;
                })
                .is_err()
            );
        }
        assert!(request(&|r| r.epsilon = Some(-1.0)).is_err());
        assert!(request(&|r| r.beta = 1.5).is_err());
        assert!("cauchy".parse::<DistributionChoice>().is_err());
        assert_eq!(
            "point".parse::<DistributionChoice>().unwrap(),
            DistributionChoice::Point
        );
    }

    /// Issue 27 §5: the improper point learner's bound follows `buckets`. The old report
    /// printed the bound for the default ⌈16/(αβ)⌉ = 1600 buckets beside a run with 50
    /// (for which its derivation gives nothing) or with 800 (another bound).
    #[test]
    fn the_improper_point_bound_is_for_the_buckets_in_use() {
        let bound = |buckets| {
            let mut r =
                SampleComplexityRequest::new("points:1048576", "improper-point", 1.0, 0.1, 0.1, 1);
            r.buckets = buckets;
            Prepared::new(&r, None).unwrap().bound
        };
        let default = bound(None).sample_size().unwrap();
        assert_eq!(bound(Some(1600)).sample_size(), Some(default));
        let at_800 = privpac_learners::bounds::improper_point_learner_sample_size_for_buckets(
            1.0, 0.1, 0.1, 800, false,
        )
        .unwrap()
        .ceil();
        assert_eq!(bound(Some(800)).sample_size(), Some(at_800));
        assert_ne!(at_800, default);
        match bound(Some(50)) {
            Bound::NoExplicitConstants { reason } => assert!(reason.contains("m = 50"), "{reason}"),
            other => panic!("{other:?}"),
        }
    }
}
