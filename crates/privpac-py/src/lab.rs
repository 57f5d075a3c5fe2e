//! Lab bindings: empirical sample complexity and trials on a scenario (the functions
//! `sample_complexity`, `run_trials`, `sample_complexity_curve`), and the named experiments
//! as work units for any scheduler (the submodule `privpac.experiment`: `names`, `units`,
//! `run_unit`, `merge`, `write_outputs`, `default_seed`), which `privpac.dask` runs on a Dask
//! cluster.
//!
//! Every function builds the lab's own request (`privpac_toolkit::SampleComplexityRequest`) or calls
//! `privpac_experiments` directly, the code paths of `privpac sample-complexity` and
//! `privpac experiment`, so the same inputs and seed give the same numbers as the CLI.
//! Results cross the boundary as plain Python values (dicts, lists, numbers, strings) made
//! from the Rust values' JSON (the CLI's `--json` and the results files), or as numpy arrays
//! for curves; floats round-trip exactly (shortest representation both ways). Long runs
//! release the GIL; every failure is one of `privpac.errors`' exceptions.
//!
//! `sample_complexity` also takes a Python learner: `python_learner.rs` wraps it as a
//! `Learner` and `privpac_toolkit::run_sample_complexity_with` runs the same search on it
//! (the submodule `own_learner`, shared with `run_trials`).
//! `k_curve` takes a multi-learner spec or a Python multi-learner (`python_multi_learner.rs`,
//! a `MultiLearner`) and runs the engine's k-curve search, `sample_complexity_curve`, on it.

use numpy::PyArray1;
use privpac_experiments::{Scale, UnitRecord};
use privpac_toolkit::{DistributionChoice, SampleComplexityRequest};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::arrays::{f64_vector, slice};
use crate::errors::{self, Kind, bad_input, invalid, raise};
use crate::python_learner::PythonLearner;
use crate::python_multi_learner::{PythonMultiLearner, SharedMultiLearner};
use crate::rng::Seed;

mod own_learner;

pub(crate) use own_learner::claimed_guarantee;
use own_learner::{OwnSetting, own_learner, refuse_builtin_knobs};

/// A JSON text as the Python value `json.loads` makes of it.
fn from_json<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// A Python value as JSON text (`json.dumps`, NaN and infinities refused), for serde.
fn to_json(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let kwargs = PyDict::new(obj.py());
    kwargs.set_item("allow_nan", false)?;
    obj.py()
        .import("json")?
        .call_method("dumps", (obj,), Some(&kwargs))
        .and_then(|text| text.extract::<String>())
        .map_err(|e| bad_input(format!("{what} is not JSON data: {e}")))
}

fn json_error(error: serde_json::Error) -> PyErr {
    raise(Kind::Other, format!("serializing a result: {error}"))
}

/// An experiment error as a Python exception: names, scales and unit indices out of range
/// are `InvalidParameterError`, results that do not fit together `BadInputError`, a failure
/// inside a unit the class of the underlying lab error (the message names the unit).
fn experiment_error(py: Python<'_>, error: privpac_experiments::Error) -> PyErr {
    use privpac_experiments::Error as E;
    let (unit, inner) = match error {
        E::Unit { unit, source } => (unit, errors::lab(*source)),
        E::Class { unit, source } => (unit, errors::classes(source)),
        E::Attack { unit, source } => (unit, errors::attacks(source)),
        other => {
            let kind = match &other {
                E::UnknownExperiment { .. }
                | E::BadExperimentFile { .. }
                | E::NameTaken { .. }
                | E::InvalidShard { .. }
                | E::MalformedShard { .. }
                | E::UnknownScale { .. }
                | E::UnitOutOfRange { .. } => Kind::InvalidParameter,
                E::BadResultsLine { .. }
                | E::MismatchedResults { .. }
                | E::MismatchedRecord { .. }
                | E::StaleRecord { .. }
                | E::ConflictingUnit { .. }
                | E::MissingUnits { .. } => Kind::BadInput,
                _ => Kind::Other,
            };
            return raise(kind, other);
        }
    };
    let message = inner
        .value(py)
        .str()
        .map(|text| text.to_string())
        .unwrap_or_default();
    PyErr::from_type(inner.get_type(py), format!("unit {unit}: {message}"))
}

fn scale(text: &str) -> PyResult<Scale> {
    text.parse::<Scale>().map_err(invalid)
}

fn distribution(text: &str) -> PyResult<DistributionChoice> {
    text.parse::<DistributionChoice>().map_err(errors::lab)
}

/// The request of the keyword arguments shared by the sample-complexity functions.
#[allow(
    clippy::too_many_arguments,
    reason = "one argument per keyword of the binding"
)]
fn request(
    class_spec: &str,
    learner: &str,
    (epsilon, em_epsilon, delta): (Option<f64>, Option<f64>, f64),
    alpha: f64,
    beta: f64,
    seed: u64,
    distribution_name: &str,
    target: Option<u64>,
    label_noise: f64,
    trials: usize,
    max_size: usize,
    subset_size: Option<usize>,
    flip_probability: Option<f64>,
    voters: usize,
    vote_epsilon: f64,
) -> PyResult<SampleComplexityRequest> {
    Ok(SampleComplexityRequest {
        class: class_spec.into(),
        learner: learner.into(),
        epsilon,
        em_epsilon,
        delta,
        alpha,
        beta,
        distribution: distribution(distribution_name)?,
        target,
        label_noise,
        trials,
        max_size,
        seed,
        subset_size,
        flip_probability: flip_probability
            .unwrap_or_else(|| privpac_toolkit::default_flip_probability(alpha)),
        voters,
        vote_epsilon,
        buckets: None,
    })
}

/// sample_complexity(class_spec, learner, *, epsilon=None, delta=0.0, alpha, beta, seed,
/// distribution="uniform", target=None, label_noise=0.0, trials=100, max_size=2**20,
/// subset_size=None, flip_probability=None, voters=7, vote_epsilon=1.0, em_epsilon=None,
/// guarantee=None, true_error="auto", holdout=None, confidence=0.95)
///
/// The empirical sample complexity of a single-concept learner on a scenario: the smallest
/// sample size n at which at least 1 − β of `trials` independent trials give a hypothesis
/// with excess error at most α, i.e. true error at most OPT + α (doubling from 4, then
/// binary search), with the bound that has explicit constants for this learner and scenario
/// (if any) and the learner's own privacy guarantee at that n.
///
/// `epsilon` is the privacy target: the learner's reported guarantee (differential
/// privacy, or the ε of each prediction for the prediction learners, whose inner
/// parameters are solved for it at every n) is at most ε. It is required by every learner
/// but "erm" and "stable"; "stable" is not private, refuses it and takes its exponential
/// mechanism's `em_epsilon` instead (also an optional knob of "private-prediction").
/// `delta` is the privacy target δ of an (ε, δ) learner ("sanitizer:point",
/// "interior-point", as the CLI's `--delta`); a pure learner refuses δ > 0.
///
/// `class_spec` and `learner` are the CLI's spec strings ("thresholds:1024", "generic",
/// "stable", "relabeling", "erm", ...); `distribution` is "uniform", "zipf" (exponent 1) or
/// "point" (mass min(2α, 1) on the target's first positive point, the rest uniform);
/// `label_noise` > 0 makes the scenario agnostic, with OPT = `label_noise` (the target is in
/// the class), reported as `opt`. True errors are exact (no test set). When a constant
/// hypothesis already has excess error at most α, `trivial` names it and no search runs:
/// `empirical_sample_size`, `success_rate`, `interval` and `guarantee` are None and
/// `evaluations` is empty.
///
/// Returns a dict, exactly the JSON of `privpac sample-complexity ... --seed SEED --json`
/// for the same arguments: `opt`, `empirical_sample_size`, `success_rate`, `interval` (95% Wilson),
/// `bound` (`{"kind": "explicit", "sample_size": ..., ...}` or `no_explicit_constants`),
/// `guarantee`, `guarantee_text`, `guarantee_source` ("proven (built-in learner)" for a
/// spec), `evaluations` (every size tried, in order: a list of dicts, ready for
/// `pandas.DataFrame`), and the inputs. Deterministic in its arguments (trial j at every
/// size uses ChaCha8 stream j of `seed`), whatever the number of threads. Releases the GIL.
///
/// Your own learner: `learner` may instead be a Python callable
/// `learner(points, labels, seed) -> int` or an object with `fit(points, labels, seed)`,
/// with the guarantee it claims as `guarantee=` (a `Privacy`, read as (ε, δ)-DP of the
/// hypothesis, or a `Guarantee`; required). `points` is a uint64 array, `labels` a bool
/// array, `seed` an integer drawn from the trial's generator (so the run is a function of
/// `seed`); the learner returns the id of a concept of the class (an integer in
/// `0..len`), whose exact true error the search uses as for the built-ins: the same
/// search, through the same `Learner` trait (a thin adapter calls back into Python with the
/// GIL). The report's `learner` is "python:NAME", `guarantee` the claimed one (reported, not
/// checked: `privpac.audit` can refute it; `guarantee_source` is "claimed by the caller
/// (not checked)" and `guarantee_text` ends in "(claimed)"), `bound`
/// `no_explicit_constants`, and it has no
/// `learner_spec`. `epsilon`, `delta` and `em_epsilon` are refused, the built-ins' other knobs
/// unused. A learner that raises ends the search with BadInputError chained to its
/// exception (`__cause__`); a result that is not an integer or a predictor, or an id
/// outside the class, is BadInputError naming it.
///
/// Predictors: the learner may instead return a vectorized predictor, a callable
/// `predictor(points) -> labels` or an object with `predict(points)`, called with a uint64
/// array and returning one label 0 or 1 per point (bools, or integers or floats equal to
/// 0 or 1). Its true error is exact where the domain is enumerated (at most 2^24 points,
/// `true_error="exact"`, the default there): the predictor is called once per trial on
/// every point of the domain. Elsewhere (`true_error="auto"` on a larger domain), or with
/// `true_error="estimated"` or a `holdout=` size, it is estimated: each trial draws
/// `holdout` fresh points (default 10000) from the scenario's distribution with a
/// generator seeded from the trial's stream, the disagreement with the target on them
/// gives the excess error with its two-sided Clopper-Pearson interval at `confidence`,
/// and a trial counts as a success only when the interval's upper end is at most α
/// (conservative: where the intervals cover, such a trial also succeeds on its exact
/// error, so the exact n is at most about the one found). A learner returning concept
/// ids on this path is judged on their exact errors. The dict of a Python learner has
/// `true_error` ("exact" or "estimated") and `estimated` (whether any trial's error was
/// estimated); on the estimated path also `holdout`, `confidence`, `error_interval`
/// ("clopper-pearson"), `success_rule` ("upper"), at the size found `mean_error` and
/// `mean_error_interval` (a Hoeffding interval at `confidence` over every held-out
/// point), `conclusion` (what the search concluded, in words), and in every evaluation
/// `estimated_trials`, `successes_by_point_estimate`, `success_rate_by_point_estimate` and
/// `mean_error_interval`. A predictor that raises is BadInputError chained to its
/// exception; predictions of the wrong shape, length, type or values are BadInputError
/// naming the problem. `true_error`, `holdout` and `confidence` are refused for the
/// built-in learners (InvalidParameterError), as are an unknown `true_error`,
/// `true_error="exact"` on a domain above 2^24 points or with `holdout`, a `holdout`
/// outside [1, 2^24] and a `confidence` outside (0, 1).
///
/// Raises InvalidParameterError (bad spec, ε, α, β, distribution), TooLargeError (trials or
/// max_size above the lab's limits) and PrivpacError when no size up to `max_size` reaches
/// 1 − β.
#[pyfunction]
#[pyo3(signature = (class_spec, learner, *, epsilon = None, delta = 0.0, alpha, beta, seed,
    distribution = "uniform", target = None, label_noise = 0.0, trials = 100,
    max_size = 1 << 20, subset_size = None, flip_probability = None, voters = 7,
    vote_epsilon = 1.0, em_epsilon = None, guarantee = None, true_error = "auto",
    holdout = None, confidence = 0.95))]
#[allow(
    clippy::too_many_arguments,
    reason = "keyword arguments of a Python function"
)]
fn sample_complexity<'py>(
    py: Python<'py>,
    class_spec: &str,
    learner: &Bound<'py, PyAny>,
    epsilon: Option<f64>,
    delta: f64,
    alpha: f64,
    beta: f64,
    seed: Seed,
    distribution: &str,
    target: Option<u64>,
    label_noise: f64,
    trials: usize,
    max_size: usize,
    subset_size: Option<usize>,
    flip_probability: Option<f64>,
    voters: usize,
    vote_epsilon: f64,
    em_epsilon: Option<f64>,
    guarantee: Option<&Bound<'py, PyAny>>,
    true_error: &str,
    holdout: Option<usize>,
    confidence: f64,
) -> PyResult<Bound<'py, PyAny>> {
    let seed = seed.0;
    let spec = builtin_spec(learner, guarantee, true_error, holdout, confidence)?;
    let request = request(
        class_spec,
        spec.as_deref().unwrap_or("python"),
        (epsilon, em_epsilon, delta),
        alpha,
        beta,
        seed,
        distribution,
        target,
        label_noise,
        trials,
        max_size,
        subset_size,
        flip_probability,
        voters,
        vote_epsilon,
    )?;
    let report = match spec {
        Some(_) => py
            .detach(|| privpac_toolkit::run_sample_complexity(&request, &mut |_| {}))
            .map_err(errors::lab)?,
        None => {
            refuse_builtin_knobs(epsilon, em_epsilon)?;
            if delta != 0.0 {
                return Err(invalid(
                    "delta is a built-in learner's budget; a Python learner claims its own with guarantee=",
                ));
            }
            let own = PythonLearner::new(learner, claimed_guarantee(guarantee)?)?;
            let setting = OwnSetting {
                true_error,
                holdout,
                confidence,
            };
            return own_learner(py, &request, own, setting, None);
        }
    };
    from_json(py, &serde_json::to_string(&report).map_err(json_error)?)
}

/// The spec string of a built-in learner (None for a Python learner), refusing the Python
/// learners' keywords for a built-in.
fn builtin_spec(
    learner: &Bound<'_, PyAny>,
    guarantee: Option<&Bound<'_, PyAny>>,
    true_error: &str,
    holdout: Option<usize>,
    confidence: f64,
) -> PyResult<Option<String>> {
    let Ok(spec) = learner.extract::<String>() else {
        return Ok(None);
    };
    if guarantee.is_some() {
        return Err(invalid(
            "guarantee= is for a Python learner; a built-in learner reports its own",
        ));
    }
    if true_error != "auto" || holdout.is_some() || confidence != 0.95 {
        return Err(invalid(
            "true_error=, holdout= and confidence= are for a Python learner's predictors; a \
             built-in learner's true errors are exact",
        ));
    }
    Ok(Some(spec))
}

/// run_trials(class_spec, learner, sample_size, *, epsilon=None, alpha, seed, beta=0.1,
/// distribution="uniform", target=None, label_noise=0.0, trials=100, subset_size=None,
/// flip_probability=None, voters=7, vote_epsilon=1.0, em_epsilon=None, guarantee=None,
/// true_error="auto", holdout=None, confidence=0.95)
///
/// `trials` independent trials of the learner at one sample size on the scenario of
/// `sample_complexity` (same arguments): exactly the evaluation that `sample_complexity`
/// records when its search tries `sample_size` with the same seed (a learner that refuses
/// so few examples counts as zero successes). Returns a dict: `sample_size`, `trials`,
/// `successes` (trials with excess error at most α: true error at most OPT + α, OPT =
/// `label_noise`), `success_rate`, `interval` (95% Wilson), `mean_error` (mean exact true
/// error, OPT included). β only matters for validation. Deterministic in its arguments;
/// releases the GIL.
///
/// Your own learner: `learner` may be a Python learner with `guarantee=`, returning
/// concept ids or predictors, with `true_error`, `holdout` and `confidence` as for
/// `sample_complexity`: the dict is exactly the evaluation `sample_complexity` records
/// when its search tries `sample_size`, with `true_error`, `estimated` and
/// `guarantee_source` ("claimed by the caller (not checked)"), and on the
/// estimated path `holdout`, `confidence`, `error_interval`, `success_rule` and the
/// evaluation's `estimated_trials`, `successes_by_point_estimate`,
/// `success_rate_by_point_estimate` and `mean_error_interval`.
///
/// Raises as `sample_complexity`.
#[pyfunction]
#[pyo3(signature = (class_spec, learner, sample_size, *, epsilon = None, alpha, seed,
    beta = 0.1, distribution = "uniform", target = None, label_noise = 0.0, trials = 100,
    subset_size = None, flip_probability = None, voters = 7, vote_epsilon = 1.0,
    em_epsilon = None, guarantee = None, true_error = "auto", holdout = None,
    confidence = 0.95))]
#[allow(
    clippy::too_many_arguments,
    reason = "keyword arguments of a Python function"
)]
fn run_trials<'py>(
    py: Python<'py>,
    class_spec: &str,
    learner: &Bound<'py, PyAny>,
    sample_size: usize,
    epsilon: Option<f64>,
    alpha: f64,
    seed: Seed,
    beta: f64,
    distribution: &str,
    target: Option<u64>,
    label_noise: f64,
    trials: usize,
    subset_size: Option<usize>,
    flip_probability: Option<f64>,
    voters: usize,
    vote_epsilon: f64,
    em_epsilon: Option<f64>,
    guarantee: Option<&Bound<'py, PyAny>>,
    true_error: &str,
    holdout: Option<usize>,
    confidence: f64,
) -> PyResult<Bound<'py, PyAny>> {
    let seed = seed.0;
    let spec = builtin_spec(learner, guarantee, true_error, holdout, confidence)?;
    let request = request(
        class_spec,
        spec.as_deref().unwrap_or("python"),
        (epsilon, em_epsilon, 0.0),
        alpha,
        beta,
        seed,
        distribution,
        target,
        label_noise,
        trials,
        sample_size.max(1),
        subset_size,
        flip_probability,
        voters,
        vote_epsilon,
    )?;
    if spec.is_none() {
        refuse_builtin_knobs(epsilon, em_epsilon)?;
        let own = PythonLearner::new(learner, claimed_guarantee(guarantee)?)?;
        let setting = OwnSetting {
            true_error,
            holdout,
            confidence,
        };
        return own_learner(py, &request, own, setting, Some(sample_size));
    }
    let outcome = py
        .detach(|| privpac_toolkit::run_trials_at(&request, sample_size))
        .map_err(errors::lab)?;
    from_json(py, &serde_json::to_string(&outcome).map_err(json_error)?)
}

/// sample_complexity_curve(class_spec, learner, epsilons, *, alpha, beta, seed, ...)
///
/// `sample_complexity` once per ε in `epsilons` (same seed for every ε, all other keyword
/// arguments as for `sample_complexity`), as numpy arrays for plotting: a dict with
/// `epsilon`, `sample_size` (the empirical n, NaN for a trivial scenario), `success_rate`
/// (NaN for a trivial scenario), `bound` (the explicit bound's n, NaN where the learner has
/// none) as float64 arrays, and `reports`, the list of
/// the full `sample_complexity` dicts. Each entry equals `sample_complexity(...,
/// epsilon=e, ...)`. Releases the GIL while it runs.
///
/// Raises as `sample_complexity` (for the first ε that fails).
#[pyfunction]
#[pyo3(signature = (class_spec, learner, epsilons, *, alpha, beta, seed,
    distribution = "uniform", target = None, label_noise = 0.0, trials = 100,
    max_size = 1 << 20, subset_size = None, flip_probability = None, voters = 7,
    vote_epsilon = 1.0))]
#[allow(
    clippy::too_many_arguments,
    reason = "keyword arguments of a Python function"
)]
fn sample_complexity_curve<'py>(
    py: Python<'py>,
    class_spec: &str,
    learner: &str,
    epsilons: &Bound<'py, PyAny>,
    alpha: f64,
    beta: f64,
    seed: Seed,
    distribution: &str,
    target: Option<u64>,
    label_noise: f64,
    trials: usize,
    max_size: usize,
    subset_size: Option<usize>,
    flip_probability: Option<f64>,
    voters: usize,
    vote_epsilon: f64,
) -> PyResult<Bound<'py, PyDict>> {
    let seed = seed.0;
    let epsilons = slice(&f64_vector(epsilons, "epsilons")?).into_owned();
    let requests = epsilons
        .iter()
        .map(|&epsilon| {
            request(
                class_spec,
                learner,
                (Some(epsilon), None, 0.0),
                alpha,
                beta,
                seed,
                distribution,
                target,
                label_noise,
                trials,
                max_size,
                subset_size,
                flip_probability,
                voters,
                vote_epsilon,
            )
        })
        .collect::<PyResult<Vec<_>>>()?;
    let reports = py
        .detach(|| {
            requests
                .iter()
                .map(|request| privpac_toolkit::run_sample_complexity(request, &mut |_| {}))
                .collect::<privpac_toolkit::Result<Vec<_>>>()
        })
        .map_err(errors::lab)?;
    // Sizes up to the lab's MAX_SAMPLE_SIZE are exact in f64; NaN for a trivial scenario.
    let sizes: Vec<f64> = reports
        .iter()
        .map(|r| r.empirical_sample_size.map_or(f64::NAN, |n| n as f64))
        .collect();
    let rates: Vec<f64> = reports
        .iter()
        .map(|r| r.success_rate.unwrap_or(f64::NAN))
        .collect();
    let bounds: Vec<f64> = reports
        .iter()
        .map(|r| r.bound.sample_size().unwrap_or(f64::NAN))
        .collect();
    let out = PyDict::new(py);
    out.set_item("epsilon", PyArray1::from_vec(py, epsilons))?;
    out.set_item("sample_size", PyArray1::from_vec(py, sizes))?;
    out.set_item("success_rate", PyArray1::from_vec(py, rates))?;
    out.set_item("bound", PyArray1::from_vec(py, bounds))?;
    out.set_item(
        "reports",
        from_json(py, &serde_json::to_string(&reports).map_err(json_error)?)?,
    )?;
    Ok(out)
}

/// k_curve(class_spec, learner, ks, *, epsilon=None, delta=0.0, alpha, beta, seed,
/// distribution=None, label_noise=0.0, trials=100, max_size=2**20, guarantee=None)
///
/// The empirical sample complexity of a multi-learner against the number of label
/// columns k (`privpac sample-complexity --k`): for each k in `ks`, the smallest n at which
/// at least 1 − β of `trials` trials give k hypotheses whose multi-error (exact, from the
/// k true errors) is at most α, and the least-squares fit of ln n against ln k. The
/// scenario at k: `distribution` "uniform" or "zipf" over the domain with k targets drawn
/// from the class with `seed`, or "point" (point classes only, their default): the
/// heavy-point scenario. A k whose constant hypotheses already meet α is listed under
/// `trivial`, not measured.
///
/// `learner` is a multi-learner spec ("direct-sum:generic", "parity", "point",
/// "generic:mwem", ...) with `epsilon` (required) and `delta` the total budget of the
/// k-tuple, or your own multi-learner: a Python callable
/// `multi_learner(points, labels, seed)` or an object with `fit(points, labels, seed)`,
/// with the guarantee it claims for the whole k-tuple as `guarantee=` (a `Privacy` or a
/// `Guarantee`; required; `epsilon` and `delta` are then refused). `points` is a uint64
/// array of n points, `labels` an n × k bool array, `seed` an integer drawn from the
/// trial's generator; it returns k concept ids of the class (a sequence or 1-D array of
/// integers in `0..len`, id j for column j), whose exact true errors the search uses as
/// for the built-ins: the same search (`privpac_toolkit::sample_complexity_curve`)
/// through the same `MultiLearner` trait. Its `learner` is "python:NAME" and each point's
/// `guarantee` the claimed one (reported, not checked: `privpac.audit` can refute it). A
/// learner that raises ends the search with BadInputError chained to its exception
/// (`__cause__`); a result that is not k ids (its shape named), not integers, or an id
/// outside the class (its column named) is BadInputError. Any of the k entries may
/// instead be a vectorized predictor (a callable `points -> labels` or an object with
/// `predict`, as for `sample_complexity`) on a domain of at most 2^24 points: it is
/// evaluated on every point of the domain, so its true error is exact; bad predictions are
/// BadInputError naming the column (on larger domains predictors are refused, as their
/// errors are not estimated here).
///
/// Returns a dict: `class`, `learner`, `learner_spec` (built-ins only), `seed`,
/// `guarantee_source` ("proven (built-in learner)", or "claimed by the caller (not
/// checked)" for a Python multi-learner), `points`
/// (per measured k: `k`, `sample_size`, `guarantee`, `outcome`), `trivial`, `fit` (None
/// for fewer than two measured k), as the CLI's `--json` curve. Deterministic in its
/// arguments. Releases the GIL while it runs.
///
/// Raises InvalidParameterError (bad spec, ε, α, β, k, distribution; a direct sum of a
/// sized learner, whose per-prediction guarantee holds at one n only), TooLargeError
/// (trials, max_size, k or more than 64 ks) and PrivpacError when no size up to
/// `max_size` reaches 1 − β.
#[pyfunction]
#[pyo3(signature = (class_spec, learner, ks, *, epsilon = None, delta = 0.0, alpha, beta,
    seed, distribution = None, label_noise = 0.0, trials = 100, max_size = 1 << 20,
    guarantee = None))]
#[allow(
    clippy::too_many_arguments,
    reason = "keyword arguments of a Python function"
)]
fn k_curve<'py>(
    py: Python<'py>,
    class_spec: &str,
    learner: &Bound<'py, PyAny>,
    ks: Vec<usize>,
    epsilon: Option<f64>,
    delta: f64,
    alpha: f64,
    beta: f64,
    seed: Seed,
    distribution: Option<&str>,
    label_noise: f64,
    trials: usize,
    max_size: usize,
    guarantee: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    use privpac_toolkit::limits::{MAX_SAMPLE_SIZE, MAX_TRIALS};
    use privpac_toolkit::{
        ClassSpec, ExampleDistribution, MultiLearnerSpec, MultiScenario, MultiTargets, SearchConfig,
    };
    let seed = seed.0;
    let check = |name, value, limit| privpac_toolkit::check_count(name, value, limit);
    check("trials", trials, MAX_TRIALS).map_err(errors::lab)?;
    check("max_size", max_size, MAX_SAMPLE_SIZE).map_err(errors::lab)?;
    check("number of k values", ks.len(), 64).map_err(errors::lab)?;
    let class_spec: ClassSpec = class_spec.parse().map_err(errors::lab)?;
    let is_points = class_spec.to_string().starts_with("points");
    let distribution = match distribution.unwrap_or(if is_points { "point" } else { "uniform" }) {
        "uniform" => Some(ExampleDistribution::Uniform),
        "zipf" => Some(ExampleDistribution::Zipf { exponent: 1.0 }),
        "point" if is_points => None,
        "point" => {
            return Err(invalid(
                "distribution=\"point\" is the heavy-point scenario of point functions; use \
                 \"uniform\" or \"zipf\"",
            ));
        }
        other => {
            return Err(invalid(format!(
                "distribution must be \"uniform\", \"zipf\" or \"point\", got {other:?}"
            )));
        }
    };
    let scenario_for = |k: usize| -> privpac_toolkit::Result<MultiScenario> {
        let class = class_spec.build()?;
        match &distribution {
            Some(distribution) => MultiScenario::new(
                class,
                distribution,
                MultiTargets::Random { k, seed },
                label_noise,
            ),
            None => MultiScenario::heavy_points(class, k, seed, label_noise),
        }
    };
    let config = SearchConfig {
        alpha,
        beta,
        trials,
        master_seed: seed,
        start: 4,
        max_size,
    };
    let (curve, spec, source) = match learner.extract::<String>() {
        Ok(spec) => {
            if guarantee.is_some() {
                return Err(invalid(
                    "guarantee= is for a Python multi-learner; a built-in reports its own",
                ));
            }
            let spec: MultiLearnerSpec = spec.parse().map_err(errors::lab)?;
            // As the CLI: a sized inner learner meets its per-prediction ε at one n only,
            // and the search builds one learner per k for every n it tries.
            if let MultiLearnerSpec::DirectSum(inner) = spec
                && inner.is_sized()
                && inner != privpac_toolkit::LearnerSpec::Stable
            {
                return Err(invalid(format!(
                    "the k-curve runs one learner per k at every sample size it tries, but \
                     {inner} solves its parameters for one sample size: direct-sum:{inner} is \
                     not supported here"
                )));
            }
            let Some(epsilon) = epsilon else {
                return Err(invalid(
                    "epsilon (the total ε of the k-tuple) is required for a built-in multi-learner",
                ));
            };
            let total =
                privpac_accounting::Privacy::new(epsilon, delta).map_err(errors::mechanisms)?;
            let mut params = privpac_toolkit::LearnerParams {
                epsilon: Some(epsilon),
                delta,
                alpha,
                beta,
                ..Default::default()
            };
            params.sanitizer.alpha = alpha;
            let largest = ks.iter().copied().max().unwrap_or(1);
            privpac_toolkit::build_multi_learner(spec, total, largest, &params, max_size)
                .map_err(errors::lab)?;
            let learner_for =
                |k: usize| privpac_toolkit::build_multi_learner(spec, total, k, &params, max_size);
            let curve = py
                .detach(|| {
                    privpac_toolkit::sample_complexity_curve(
                        &ks,
                        &scenario_for,
                        &learner_for,
                        config,
                        &mut |_, _| {},
                    )
                })
                .map_err(errors::lab)?;
            (curve, Some(spec), privpac_toolkit::GUARANTEE_PROVEN)
        }
        Err(_) => {
            if epsilon.is_some() || delta != 0.0 {
                return Err(invalid(
                    "epsilon and delta are the built-in multi-learners' budget; a Python \
                     multi-learner states the guarantee it claims with guarantee=",
                ));
            }
            let guarantee = claimed_guarantee(guarantee)?;
            let mut own = PythonMultiLearner::new(learner, guarantee)?;
            // Predictors among the k hypotheses are evaluated on every point of a domain the
            // scenario enumerates (exact true errors); on a larger one only concept ids.
            let class = class_spec.build().map_err(errors::lab)?;
            let domain = class.domain();
            if domain.size() <= privpac_toolkit::MAX_EXACT_DOMAIN {
                let support = (0..domain.size() as u64)
                    .map(|i| domain.point_at(i).unwrap_or(i))
                    .collect();
                own = own.with_support(support);
            }
            let own = std::sync::Arc::new(own);
            let learner_for =
                |_k: usize| -> privpac_toolkit::Result<Box<dyn privpac_multi::MultiLearner>> {
                    Ok(Box::new(SharedMultiLearner(std::sync::Arc::clone(&own))))
                };
            let curve = own
                .serve(py, || {
                    privpac_toolkit::sample_complexity_curve(
                        &ks,
                        &scenario_for,
                        &learner_for,
                        config,
                        &mut |_, _| {},
                    )
                })?
                .map_err(|error| own.take_failure().unwrap_or_else(|| errors::lab(error)))?;
            (curve, None, privpac_toolkit::GUARANTEE_CLAIMED)
        }
    };
    let out = from_json(py, &serde_json::to_string(&curve).map_err(json_error)?)?;
    out.set_item("class", class_spec.to_string())?;
    out.set_item("seed", seed)?;
    out.set_item("guarantee_source", source)?;
    if let Some(spec) = spec {
        out.set_item("learner_spec", spec.to_string())?;
    }
    Ok(out)
}

// ----- privpac.experiment -----

/// names() -> list of dicts {"name", "summary"}: the named experiments, in the order
/// `privpac experiment list` shows them.
#[pyfunction]
fn names<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for info in privpac_experiments::EXPERIMENTS {
        let entry = PyDict::new(py);
        entry.set_item("name", info.name)?;
        entry.set_item("summary", info.summary)?;
        list.append(entry)?;
    }
    Ok(list)
}

/// The experiment `name` names: an experiment file when it ends in `.toml`, else a
/// catalogue name. A file is checked for `scale` only (a broken level of another scale does
/// not stop it, as for `privpac experiment run FILE --scale SCALE`); without a scale (the
/// functions that do not depend on one), for the first of quick, tiny and full whose level
/// is sound (the error of the check of every level, naming its scale, when none is).
fn experiment(
    py: Python<'_>,
    name: &str,
    scale: Option<privpac_experiments::Scale>,
) -> PyResult<privpac_experiments::Experiment> {
    use privpac_experiments::{Experiment, Scale};
    let found = if name.ends_with(".toml") {
        let path = std::path::Path::new(name);
        match scale {
            Some(scale) => Experiment::from_file_for(path, scale),
            None => Experiment::from_file(path).or_else(|strict| {
                [Scale::Quick, Scale::Tiny, Scale::Full]
                    .into_iter()
                    .find_map(|scale| Experiment::from_file_for(path, scale).ok())
                    .ok_or(strict)
            }),
        }
    } else {
        Experiment::named(name)
    };
    found.map_err(|e| experiment_error(py, e))
}

/// units(name, scale="quick") -> list of dicts: the parameters of every work unit of the
/// experiment at `scale` ("tiny", "quick" or "full"), in unit order (unit i is element i).
/// `name` is a catalogue name or the path of an experiment file (ending in `.toml`), here
/// and in `run_unit`, `merge`, `write_outputs` and `figures`.
///
/// Raises InvalidParameterError for an unknown name or scale or a bad experiment file.
#[pyfunction]
#[pyo3(signature = (name, scale = "quick"))]
fn units<'py>(py: Python<'py>, name: &str, scale: &str) -> PyResult<Bound<'py, PyAny>> {
    let scale = self::scale(scale)?;
    let units = experiment(py, name, Some(scale))?.units(scale);
    from_json(py, &serde_json::to_string(&units).map_err(json_error)?)
}

/// default_seed(name) -> int: the master seed a run of the experiment uses when none is
/// given, as `privpac experiment run FILE` does: an experiment file's `seed` key, else 1
/// (a catalogue name, or a file without the key).
///
/// Raises InvalidParameterError for an unknown name or a bad experiment file.
#[pyfunction]
fn default_seed(py: Python<'_>, name: &str) -> PyResult<u64> {
    Ok(experiment(py, name, None)?.default_seed().unwrap_or(1))
}

/// run_unit(name, scale, seed, unit) -> dict: runs work unit `unit` of the experiment with
/// master seed `seed` and returns its record `{"experiment", "scale", "seed", "unit",
/// "params", "row"}` (`params`: everything the row depends on besides the seed, the
/// settings such as `trials`, `beta`, `label_noise`, `search.max_size` and the
/// `privpac_version`; `merge` refuses records whose params differ from the experiment's
/// now), exactly the line `privpac experiment NAME --scale SCALE --seed SEED` writes to
/// its results file for that unit. A function of (name, scale, seed, unit) alone: any
/// process on any machine computes the same record (the unit's trials use ChaCha8 streams
/// of a seed derived from (seed, unit)). Releases the GIL while the unit runs; the unit's
/// trials run on the process's rayon threads (`RAYON_NUM_THREADS`).
///
/// Raises InvalidParameterError for an unknown name or scale or a unit out of range, and
/// the class of the failure inside the unit otherwise.
#[pyfunction]
fn run_unit<'py>(
    py: Python<'py>,
    name: &str,
    scale: &str,
    seed: Seed,
    unit: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let seed = seed.0;
    let scale = self::scale(scale)?;
    let experiment = experiment(py, name, Some(scale))?;
    let record = py
        .detach(|| experiment.run_unit(scale, seed, unit))
        .map_err(|e| experiment_error(py, e))?;
    from_json(py, &serde_json::to_string(&record).map_err(json_error)?)
}

/// merge(records, name=None, scale=None, seed=None) -> list of row dicts: checks records
/// from `run_unit` (in any order, from any processes) and returns every unit's row in unit
/// order, with the checks of `privpac experiment merge`: every record of the same
/// experiment, scale and seed, every unit present, a unit present twice with the same row,
/// every record's `params` those of the experiment as it is now (an edited experiment file
/// or another privpac version: the error names the unit and the key that changed).
/// `name`, `scale` and `seed` default to the first record's.
///
/// Raises BadInputError for records that are malformed, mixed, missing, conflicting or
/// stale.
#[pyfunction]
#[pyo3(signature = (records, name = None, scale = None, seed = None))]
fn merge<'py>(
    py: Python<'py>,
    records: &Bound<'py, PyAny>,
    name: Option<&str>,
    scale: Option<&str>,
    seed: Option<Seed>,
) -> PyResult<Bound<'py, PyAny>> {
    let records: Vec<UnitRecord> = serde_json::from_str(&to_json(records, "records")?)
        .map_err(|e| bad_input(format!("records: {e}")))?;
    let first = records.first();
    let name = match (name, first) {
        (Some(name), _) => name.to_owned(),
        (None, Some(record)) => record.experiment.clone(),
        (None, None) => return Err(bad_input("no records and no experiment name")),
    };
    let scale = match (scale, first) {
        (Some(text), _) => self::scale(text)?,
        (None, Some(record)) => record.scale,
        (None, None) => return Err(bad_input("no records and no scale")),
    };
    let seed = match (seed, first) {
        (Some(Seed(seed)), _) => seed,
        (None, Some(record)) => record.seed,
        (None, None) => return Err(bad_input("no records and no seed")),
    };
    let rows = experiment(py, &name, Some(scale))?
        .merge_records(scale, seed, records)
        .map_err(|e| experiment_error(py, e))?;
    from_json(py, &serde_json::to_string(&rows).map_err(json_error)?)
}

/// write_outputs(name, scale, seed, rows, out_dir) -> list of str: writes `results.csv`,
/// `results.json`, the SVG plots and `README.md` for the merged rows into `out_dir`
/// (created if needed) and returns the paths written. Every file is a function of the rows
/// alone: the same rows give the same bytes as `privpac experiment` (rows from `merge` of
/// the same units are the same rows).
///
/// Raises InvalidParameterError for an unknown name or scale, BadInputError for rows that
/// are not lists of dicts, PrivpacError for I/O errors.
#[pyfunction]
fn write_outputs(
    py: Python<'_>,
    name: &str,
    scale: &str,
    seed: Seed,
    rows: &Bound<'_, PyAny>,
    out_dir: std::path::PathBuf,
) -> PyResult<Vec<String>> {
    let seed = seed.0;
    let scale = self::scale(scale)?;
    let rows: Vec<privpac_experiments::Row> = serde_json::from_str(&to_json(rows, "rows")?)
        .map_err(|e| bad_input(format!("rows: {e}")))?;
    let experiment = experiment(py, name, Some(scale))?;
    let written = py
        .detach(|| experiment.write_outputs(scale, seed, &rows, &out_dir))
        .map_err(|e| experiment_error(py, e))?;
    Ok(written
        .into_iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect())
}

/// figures(name, rows) -> list of dicts: the figures `write_outputs` draws for the rows,
/// as data: `{"file", "title", "x_label", "y_label", "log_x", "log_y", "series"}`, each
/// series `{"label", "points": [[x, y], ...], "style"}` with style "measured", "bound"
/// (dashed, the colour of the measured series before it) or "reference" (dashed, grey).
/// `privpac.plot` draws them with matplotlib.
///
/// Raises InvalidParameterError for an unknown name, BadInputError for rows that are not
/// lists of dicts.
#[pyfunction]
fn figures<'py>(
    py: Python<'py>,
    name: &str,
    rows: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let rows: Vec<privpac_experiments::Row> = serde_json::from_str(&to_json(rows, "rows")?)
        .map_err(|e| bad_input(format!("rows: {e}")))?;
    let figures = experiment(py, name, None)?
        .figures(&rows)
        .map_err(|e| experiment_error(py, e))?;
    from_json(py, &serde_json::to_string(&figures).map_err(json_error)?)
}

/// figure_layout(figure) -> dict: the axes and colours of a figure dict (from
/// `experiment.figures`, or built by hand in the same shape): `{"x": axis, "y": axis,
/// "colours": ["#rrggbb", ...]}`, each axis `{"lo", "hi", "log", "ticks": [[value,
/// label], ...]}` in data units. The SVG figures use the same layout: the data's range
/// padded by 5%, ticks at 1-2-5 multiples of powers of ten on log axes with distinct
/// labels, a new colour per measured series.
///
/// Raises BadInputError for a dict that is not a figure.
#[pyfunction]
fn figure_layout<'py>(py: Python<'py>, figure: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let figure: privpac_experiments::Figure = serde_json::from_str(&to_json(figure, "figure")?)
        .map_err(|e| bad_input(format!("figure: {e}")))?;
    from_json(
        py,
        &serde_json::to_string(&figure.layout()).map_err(json_error)?,
    )
}

/// Adds the lab functions to the native module, and the submodule `experiment` (also
/// importable as `privpac.experiment`).
pub(crate) fn register(py: Python<'_>, module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(sample_complexity, module)?)?;
    module.add_function(wrap_pyfunction!(run_trials, module)?)?;
    module.add_function(wrap_pyfunction!(sample_complexity_curve, module)?)?;
    module.add_function(wrap_pyfunction!(k_curve, module)?)?;
    let sub = PyModule::new(py, "experiment")?;
    sub.setattr(
        "__doc__",
        "Named, seeded experiments as work units: `units` lists them, `run_unit` computes one \
         record anywhere, `merge` checks and combines records, `write_outputs` writes the \
         CSV, JSON, SVG plots and report. Bit-identical to `privpac experiment`.",
    )?;
    sub.add_function(wrap_pyfunction!(names, &sub)?)?;
    sub.add_function(wrap_pyfunction!(units, &sub)?)?;
    sub.add_function(wrap_pyfunction!(run_unit, &sub)?)?;
    sub.add_function(wrap_pyfunction!(default_seed, &sub)?)?;
    sub.add_function(wrap_pyfunction!(merge, &sub)?)?;
    sub.add_function(wrap_pyfunction!(write_outputs, &sub)?)?;
    sub.add_function(wrap_pyfunction!(figures, &sub)?)?;
    sub.add_function(wrap_pyfunction!(figure_layout, &sub)?)?;
    module.add_submodule(&sub)?;
    // `import privpac.experiment` looks in sys.modules (a native submodule is not a file).
    py.import("sys")?
        .getattr("modules")?
        .set_item("privpac.experiment", &sub)?;
    Ok(())
}
