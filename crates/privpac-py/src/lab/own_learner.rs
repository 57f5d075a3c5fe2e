//! Your own learner in the lab: the path of `sample_complexity` and `run_trials` when the
//! learner is a Python learner (`python_learner.rs`) rather than a built-in spec. It reads
//! the claimed `guarantee=`, refuses the built-in learners' knobs, picks how predictors'
//! true errors are obtained (`true_error`, `holdout`, `confidence`: exact on an enumerated
//! domain, else estimated on held-out samples by `crate::predictor`), runs the engine's
//! search or trials, and adds the Python learner's keys (`true_error`, `estimated`, the
//! intervals, the search's conclusion) to the report's dict.

use privpac_toolkit::SampleComplexityRequest;
use pyo3::prelude::*;

use super::{from_json, json_error};
use crate::errors::{self, invalid};
use crate::mechanisms::{Guarantee, Privacy};
use crate::predictor::{Estimator, SizeEstimates, TrueError};
use crate::python_learner::PythonLearner;

/// A Python learner takes no `epsilon` or `em_epsilon`: it states its guarantee.
pub(super) fn refuse_builtin_knobs(epsilon: Option<f64>, em_epsilon: Option<f64>) -> PyResult<()> {
    if epsilon.is_some() || em_epsilon.is_some() {
        return Err(invalid(
            "epsilon and em_epsilon are the built-in learners' knobs; a Python learner states \
             the guarantee it claims with guarantee=",
        ));
    }
    Ok(())
}

/// The keywords of a Python learner's true errors.
pub(super) struct OwnSetting<'a> {
    pub(super) true_error: &'a str,
    pub(super) holdout: Option<usize>,
    pub(super) confidence: f64,
}

/// Adds one size's estimates to its evaluation's dict.
fn annotate(evaluation: &Bound<'_, PyAny>, size: &SizeEstimates, trials: usize) -> PyResult<()> {
    evaluation.set_item("estimated_trials", size.estimated_trials)?;
    evaluation.set_item(
        "successes_by_point_estimate",
        size.successes_by_point_estimate,
    )?;
    evaluation.set_item(
        "success_rate_by_point_estimate",
        size.successes_by_point_estimate as f64 / trials as f64,
    )?;
    evaluation.set_item("mean_error_interval", size.mean_error_interval)
}

/// The default number of held-out points per trial for an estimated true error.
const DEFAULT_HOLDOUT: usize = 10_000;

/// How `sample_complexity` obtains a Python learner's predictors' true errors, from its
/// `true_error`, `holdout` and `confidence` arguments and the class's domain size.
fn true_error_mode(
    true_error: &str,
    holdout: Option<usize>,
    confidence: f64,
    domain_size: u128,
) -> PyResult<TrueError> {
    let enumerable = domain_size <= privpac_toolkit::MAX_EXACT_DOMAIN;
    let estimated = match true_error {
        "exact" if holdout.is_some() => {
            return Err(invalid(
                "holdout= is the size of the held-out sample of true_error=\"estimated\"; \
                 true_error=\"exact\" evaluates predictors on the whole domain",
            ));
        }
        "exact" if !enumerable => {
            return Err(invalid(format!(
                "true_error=\"exact\" evaluates predictors on every point of the domain, but \
                 it has {domain_size} points (at most 2^24 are enumerated); use \
                 true_error=\"estimated\"",
            )));
        }
        "exact" => false,
        "estimated" => true,
        "auto" => holdout.is_some() || !enumerable,
        other => {
            return Err(invalid(format!(
                "true_error must be \"auto\", \"exact\" or \"estimated\", got {other:?}"
            )));
        }
    };
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(invalid(format!(
            "confidence must be in (0, 1), got {confidence}"
        )));
    }
    if !estimated {
        return Ok(TrueError::Exact);
    }
    let holdout = holdout.unwrap_or(DEFAULT_HOLDOUT);
    if holdout == 0 || holdout > privpac_toolkit::limits::MAX_SAMPLE_SIZE {
        return Err(invalid(format!(
            "holdout must be between 1 and 2^24, got {holdout}"
        )));
    }
    Ok(TrueError::Estimated {
        holdout,
        confidence,
    })
}

/// `sample_complexity` of a Python learner: concept ids and predictors, their true errors
/// exact or estimated (`crate::predictor`); the report's dict gains `true_error`,
/// `estimated` and, when estimated, the intervals and the search's conclusion. Its
/// `guarantee_source` says the guarantee is the caller's claim, not checked (the
/// toolkit's report for a given learner; set here on `run_trials`' outcomes).
pub(super) fn own_learner<'py>(
    py: Python<'py>,
    request: &SampleComplexityRequest,
    own: PythonLearner,
    setting: OwnSetting<'_>,
    size: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    use std::sync::Arc;
    let OwnSetting {
        true_error,
        holdout,
        confidence,
    } = setting;
    let class = request
        .class
        .parse::<privpac_toolkit::ClassSpec>()
        .and_then(|spec| spec.build())
        .map_err(errors::lab)?;
    let domain = class.domain();
    let mode = true_error_mode(true_error, holdout, confidence, domain.size())?;
    let TrueError::Estimated {
        holdout,
        confidence,
    } = mode
    else {
        let support = (0..domain.size() as u64)
            .map(|i| domain.point_at(i).unwrap_or(i))
            .collect();
        let own = Arc::new(own.with_support(support));
        let shared: Arc<dyn privpac_learners::Learner> = own.clone();
        let failed = |error| own.take_failure().unwrap_or_else(|| errors::lab(error));
        let json = match size {
            Some(n) => serde_json::to_string(
                &own.serve(py, || {
                    privpac_toolkit::run_trials_at_with(request, shared, n)
                })?
                .map_err(failed)?,
            ),
            None => serde_json::to_string(
                &own.serve(py, || {
                    privpac_toolkit::run_sample_complexity_with(request, shared, &mut |_| {})
                })?
                .map_err(failed)?,
            ),
        };
        let out = from_json(py, &json.map_err(json_error)?)?;
        if size.is_some() {
            // A search's report says so itself (and its guarantee_text ends in
            // "(claimed)"); a run of trials carries no guarantee but the same caveat.
            out.set_item("guarantee_source", privpac_toolkit::GUARANTEE_CLAIMED)?;
        }
        out.set_item("true_error", "exact")?;
        out.set_item("estimated", false)?;
        return Ok(out);
    };
    let own = Arc::new(own);
    let mut estimator = Estimator {
        learner: &own,
        trials: request.trials,
        alpha: request.alpha,
        master_seed: request.seed,
        holdout,
        confidence,
        sizes: Vec::new(),
    };
    let shared: Arc<dyn privpac_learners::Learner> = own.clone();
    let failed = |error| own.take_failure().unwrap_or_else(|| errors::lab(error));
    if let Some(n) = size {
        let outcome = own
            .serve(py, || {
                privpac_toolkit::run_trials_at_evaluated(
                    request,
                    shared,
                    &mut |scenario, n| estimator.evaluate(scenario, n),
                    n,
                )
            })?
            .map_err(failed)?;
        let out = from_json(py, &serde_json::to_string(&outcome).map_err(json_error)?)?;
        out.set_item("guarantee_source", privpac_toolkit::GUARANTEE_CLAIMED)?;
        let estimated = estimator.sizes.first().map(|s| s.estimated_trials > 0);
        out.set_item(
            "true_error",
            if estimated == Some(true) {
                "estimated"
            } else {
                "exact"
            },
        )?;
        out.set_item("estimated", estimated == Some(true))?;
        out.set_item("holdout", holdout)?;
        out.set_item("confidence", confidence)?;
        out.set_item("error_interval", "clopper-pearson")?;
        out.set_item("success_rule", "upper")?;
        if let Some(estimates) = estimator.sizes.first() {
            annotate(&out, estimates, request.trials)?;
        }
        return Ok(out);
    }
    let report = own
        .serve(py, || {
            privpac_toolkit::run_sample_complexity_evaluated(
                request,
                shared,
                &mut |scenario, n| estimator.evaluate(scenario, n),
                &mut |_| {},
            )
        })?
        .map_err(failed)?;
    let out = from_json(py, &serde_json::to_string(&report).map_err(json_error)?)?;
    let sizes = estimator.sizes;
    let any_estimated = sizes.iter().any(|size| size.estimated_trials > 0);
    // Exact when every trial returned a concept id (judged exactly on this path too).
    out.set_item(
        "true_error",
        if any_estimated { "estimated" } else { "exact" },
    )?;
    out.set_item("estimated", any_estimated)?;
    out.set_item("holdout", holdout)?;
    out.set_item("confidence", confidence)?;
    out.set_item("error_interval", "clopper-pearson")?;
    out.set_item("mean_error_interval_method", "hoeffding")?;
    out.set_item("success_rule", "upper")?;
    let evaluations = out.get_item("evaluations")?;
    for (index, size) in sizes.iter().enumerate() {
        annotate(&evaluations.get_item(index)?, size, request.trials)?;
    }
    let found = report.empirical_sample_size.and_then(|n| {
        sizes
            .iter()
            .rev()
            .find(|size| size.sample_size == n)
            .map(|size| (n, size))
    });
    let conclusion = match found {
        None => "trivial: a constant hypothesis already has excess error at most α; no \
                 search ran"
            .to_owned(),
        Some((n, size)) => {
            let outcome = report.evaluations.iter().rev().find(|o| o.sample_size == n);
            let successes = outcome.map_or(0, |o| o.successes);
            out.set_item("mean_error", outcome.map(|o| o.mean_error))?;
            out.set_item("mean_error_interval", size.mean_error_interval)?;
            format!(
                "n = {n} is the smallest size the search found at which at least 1 - beta = \
                 {target} of the {trials} trials succeeded counting a trial only when the \
                 upper end of the {level}% Clopper-Pearson interval of its excess error, \
                 estimated on {holdout} held-out points ({estimated} of {trials} trials were \
                 estimated; the rest returned concept ids, judged exactly), is at most \
                 alpha = {alpha}: {successes} trials did, and {by_point} by the point \
                 estimates. Counting by the upper end is conservative: where the intervals \
                 cover, these trials also succeed on their exact errors. The mean true error \
                 there is {mean:.6} (a {level}% Hoeffding interval [{low:.6}, {high:.6}]).",
                target = 1.0 - request.beta,
                trials = request.trials,
                level = confidence * 100.0,
                estimated = size.estimated_trials,
                alpha = request.alpha,
                by_point = size.successes_by_point_estimate,
                mean = outcome.map_or(f64::NAN, |o| o.mean_error),
                low = size.mean_error_interval.0,
                high = size.mean_error_interval.1,
            )
        }
    };
    out.set_item("conclusion", conclusion)?;
    Ok(out)
}

/// The `guarantee=` of a Python learner: a `Privacy` ((ε, δ)-DP of the hypothesis), a
/// `Guarantee`, or the string `"none"`: a non-private baseline of one's own, reported as
/// `{"kind": "none"}` and "none (not private)" (no ε to check or fit against); required.
pub(crate) fn claimed_guarantee(
    guarantee: Option<&Bound<'_, PyAny>>,
) -> PyResult<privpac_accounting::Guarantee> {
    let Some(guarantee) = guarantee else {
        return Err(invalid(
            "a Python learner needs guarantee=, the guarantee it claims (a privpac.Privacy or \
             privpac.Guarantee, or \"none\" for a non-private baseline)",
        ));
    };
    if let Ok(word) = guarantee.extract::<String>() {
        if word == "none" {
            return Ok(privpac_accounting::Guarantee::None);
        }
        return Err(invalid(format!(
            "guarantee= as a string must be \"none\" (a non-private learner), got {word:?}; \
             a private learner claims a privpac.Privacy or privpac.Guarantee"
        )));
    }
    if let Ok(privacy) = guarantee.extract::<Privacy>() {
        return Ok(privpac_accounting::Guarantee::DifferentialPrivacy(
            privacy.inner,
        ));
    }
    if let Ok(claimed) = guarantee.extract::<Guarantee>() {
        return Ok(claimed.inner);
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "guarantee= must be a privpac.Privacy or privpac.Guarantee (or \"none\"), got {}",
        guarantee.get_type().name()?
    )))
}
