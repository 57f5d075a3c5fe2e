//! A Python learner as a [`Learner`]: the thin adapter that lets the lab's search run a
//! learner written in Python exactly as it runs the built-ins (same scenario, trial
//! streams, exact true errors of the concepts the learner returns).
//!
//! The learner is a callable `learner(points, labels, seed) -> int` or an object with
//! `fit(points, labels, seed) -> int`: `points` a uint64 array, `labels` a bool array (a
//! fresh copy per call), `seed` the first `u64` of the trial's ChaCha8 generator (so a run
//! is a function of the lab's seed), the result the id of a concept of the class (a Python
//! or numpy integer in `0..len`). Its guarantee is what the caller claims: the adapter
//! reports it and cannot check it (`privpac.audit` can refute it).
//!
//! The learner may instead return a vectorized predictor (a callable `points -> labels`,
//! or an object with `predict`): with a support (see [`PythonLearner::with_support`],
//! every point of a domain the scenario enumerates) the adapter evaluates it on the whole
//! support and hands the engine the table of its labels there, so its true error is
//! exact as for concepts; without one, predictors are refused, and
//! `crate::predictor` estimates their true errors on held-out samples instead.
//!
//! Each call takes the GIL; the lab releases it while the search runs, and while
//! [`PythonLearner::serve`] runs a search the calls run on the calling thread, which
//! checks for signals between them (`crate::interrupt`: Ctrl-C stops the search within a
//! trial). A failure (the learner raises, returns something that is not an integer, or an
//! id outside the class) becomes [`privpac_learners::Error::External`] for the engine, and
//! the first such Python exception is kept so that the binding raises it (or chains it)
//! when the search ends; an exception that is not an `Exception` (`KeyboardInterrupt`,
//! `SystemExit`) is kept unchanged, stops the remaining calls and is raised as it is.

use std::sync::{Arc, Mutex};

use numpy::PyArray1;
use privpac_accounting::Guarantee;
use privpac_classes::{ConceptClass, Hypothesis, LabeledSample};
use privpac_learners::{Error, Learner, Predictor};
use pyo3::prelude::*;
use rand::Rng;

use crate::errors::{Kind, bad_input, raise};
use crate::interrupt::{MainThread, is_interrupt};
use crate::predictions::predictions;

/// What a Python learner returned: a concept id of the class, or a predictor.
pub(crate) enum Returned {
    /// A concept id, checked against the class.
    Concept(u64),
    /// A vectorized predictor: a callable or an object with `predict`, not yet called.
    Predictor(Py<PyAny>),
}

/// A Python learner behind the [`Learner`] trait.
#[derive(Debug)]
pub(crate) struct PythonLearner {
    /// The callable: the learner itself, or its bound `fit` method.
    call: Arc<Py<PyAny>>,
    /// Where the calls run, and whether the run was interrupted.
    main: Arc<MainThread>,
    name: String,
    guarantee: Guarantee,
    /// The first failure, as the Python exception the binding raises.
    first: Mutex<Option<PyErr>>,
    /// Every point of the domain, sorted: where a predictor is evaluated (None: predictors
    /// are refused by `learn`).
    support: Option<Vec<u64>>,
}

impl PythonLearner {
    /// Wraps `learner` (a callable, or an object with a callable `fit`) claiming `guarantee`.
    ///
    /// # Errors
    /// `TypeError` when `learner` is neither callable nor has a callable `fit`.
    pub(crate) fn new(learner: &Bound<'_, PyAny>, guarantee: Guarantee) -> PyResult<Self> {
        let call = match learner.getattr("fit") {
            Ok(fit) if fit.is_callable() => fit,
            _ if learner.is_callable() => learner.clone(),
            _ => {
                return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                    "a learner is a spec string, a callable learner(points, labels, seed) or an \
                     object with fit(points, labels, seed); got {}",
                    learner.get_type().name()?
                )));
            }
        };
        let name = learner
            .getattr("__name__")
            .or_else(|_| learner.get_type().getattr("__name__"))
            .and_then(|name| name.extract::<String>())
            .unwrap_or_else(|_| "learner".into());
        Ok(PythonLearner {
            call: Arc::new(call.unbind()),
            main: Arc::default(),
            name: format!("python:{name}"),
            guarantee,
            first: Mutex::new(None),
            support: None,
        })
    }

    /// Accepts predictors in `learn`, evaluated on `support` (every point of the domain the
    /// scenario draws from): their hypothesis is the table of their labels there, whose
    /// true error the scenario computes exactly.
    pub(crate) fn with_support(mut self, mut support: Vec<u64>) -> Self {
        support.sort_unstable();
        support.dedup();
        self.support = Some(support);
        self
    }

    /// The support predictors are evaluated on, if any.
    pub(crate) fn support(&self) -> Option<&[u64]> {
        self.support.as_deref()
    }

    /// The learner's name, `python:NAME`.
    pub(crate) fn label(&self) -> &str {
        &self.name
    }

    /// The callable: the learner itself, or its bound `fit` method.
    pub(crate) fn callable(&self) -> &Arc<Py<PyAny>> {
        &self.call
    }

    /// Runs `f` under the GIL where the learner's calls run (see [`MainThread::run`]; the
    /// caller must not hold the GIL).
    pub(crate) fn run<R: Send + 'static>(
        &self,
        f: impl FnOnce(Python<'_>) -> PyResult<R> + Send + 'static,
    ) -> PyResult<R> {
        self.main.run(f)
    }

    /// Runs `work` (a search calling this learner) on a scoped thread while this thread
    /// serves the learner's calls and checks for signals (see [`MainThread::serve`]):
    /// `Err` is the exception a signal handler raised between calls.
    pub(crate) fn serve<R: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce() -> R + Send,
    ) -> PyResult<R> {
        self.main.serve(py, work)
    }

    /// The first failure of the learner, if any (taken: a second call gives None); an
    /// interrupt (`KeyboardInterrupt`, `SystemExit`) wins over earlier failures.
    pub(crate) fn take_failure(&self) -> Option<PyErr> {
        self.first.lock().ok().and_then(|mut slot| slot.take())
    }

    /// Keeps `error` if it is the first failure (or the first interrupt), and returns its
    /// message.
    pub(crate) fn record(&self, error: PyErr) -> String {
        let (message, interrupt) = Python::attach(|py| {
            let message = error
                .value(py)
                .str()
                .map(|s| s.to_string())
                .unwrap_or_default();
            (message, is_interrupt(py, &error))
        });
        if let Ok(mut slot) = self.first.lock() {
            let replace = interrupt
                && slot
                    .as_ref()
                    .is_none_or(|kept| Python::attach(|py| !is_interrupt(py, kept)));
            if replace {
                *slot = Some(error);
            } else {
                slot.get_or_insert(error);
            }
        }
        if interrupt {
            format!("interrupted ({message})")
        } else {
            message
        }
    }

    fn fail(&self, error: PyErr) -> Error {
        Error::External {
            learner: self.name.clone(),
            message: self.record(error),
        }
    }

    /// One call under the GIL: the concept id, checked against the class (predictors are
    /// refused).
    pub(crate) fn call(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        seed: u64,
    ) -> PyResult<u64> {
        let out = self.invoke(sample, seed)?;
        Python::attach(|py| concept_id(out.bind(py), class, &self.name))
    }

    /// One call under the GIL: a concept id checked against the class, or a predictor (a
    /// callable or an object with a callable `predict`).
    pub(crate) fn call_returned(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        seed: u64,
    ) -> PyResult<Returned> {
        let out = self.invoke(sample, seed)?;
        Python::attach(|py| {
            let out = out.into_bound(py);
            if is_predictor(&out)? {
                return Ok(Returned::Predictor(out.unbind()));
            }
            concept_id(&out, class, &self.name).map(Returned::Concept)
        })
    }

    /// The learner's raw result, called where [`PythonLearner::run`] runs calls (the
    /// caller must not hold the GIL); an exception becomes BadInputError chained to it
    /// (an interrupt is returned unchanged: [`learner_raised`]).
    fn invoke(&self, sample: &LabeledSample, seed: u64) -> PyResult<Py<PyAny>> {
        let call = Arc::clone(&self.call);
        let name = self.name.clone();
        let points = sample.points().to_vec();
        let labels = sample.labels().to_vec();
        self.run(move |py| {
            let points = PyArray1::from_vec(py, points);
            let labels = PyArray1::from_vec(py, labels);
            call.bind(py)
                .call1((points, labels, seed))
                .map(Bound::unbind)
                .map_err(|cause| learner_raised(py, cause, &name))
        })
    }
}

/// What the binding makes of an exception the learner `name` raised: BadInputError
/// chained to it, or, for an interrupt (`KeyboardInterrupt`, `SystemExit`), the exception
/// itself.
pub(crate) fn learner_raised(py: Python<'_>, cause: PyErr, name: &str) -> PyErr {
    if is_interrupt(py, &cause) {
        return cause;
    }
    let error = bad_input(format!("the Python learner {name} raised: {cause}"));
    error.set_cause(py, Some(cause));
    error
}

/// Whether a learner's result is a predictor: not an integer, and callable or with a
/// callable `predict`.
pub(crate) fn is_predictor(out: &Bound<'_, PyAny>) -> PyResult<bool> {
    if out.is_instance_of::<pyo3::types::PyInt>() {
        return Ok(false);
    }
    Ok(out.is_callable()
        || out
            .getattr("predict")
            .map(|p| p.is_callable())
            .unwrap_or(false))
}

/// The learner's result as a concept id of `class`: an integer (Python or numpy, not a
/// bool) in `0..class.len()`. Predictors are refused (where they are not supported: the
/// audit and the multi-learners), other results are BadInputError.
pub(crate) fn concept_id(
    out: &Bound<'_, PyAny>,
    class: &dyn ConceptClass,
    name: &str,
) -> PyResult<u64> {
    let py = out.py();
    let is_integer = !out.is_instance_of::<pyo3::types::PyBool>()
        && !out.is_instance(&py.import("numpy")?.getattr("bool_")?)?
        && out.is_instance(&py.import("numbers")?.getattr("Integral")?)?;
    if !is_integer {
        let what = out.get_type().name()?;
        if out.is_callable() || out.hasattr("predict")? {
            return Err(raise(
                Kind::Other,
                format!(
                    "the Python learner {name} returned a predictor ({what}); only concept ids \
                     of the class are supported here (privpac.sample_complexity takes \
                     predictors): predictor hypotheses here are not implemented yet"
                ),
            ));
        }
        return Err(bad_input(format!(
            "the Python learner {name} must return a concept id (an integer), got {what}"
        )));
    }
    let len = class.len();
    let id: Option<u64> = out.extract::<u64>().ok();
    match id {
        Some(id) if u128::from(id) < len => Ok(id),
        _ => Err(bad_input(format!(
            "the Python learner {name} returned concept id {out}, outside the class {} \
             (ids 0 ≤ id < {len})",
            class.name()
        ))),
    }
}

impl Learner for PythonLearner {
    /// Calls the Python learner with the sample and a seed drawn from `rng` (its first
    /// `u64`), and returns the concept it names.
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &LabeledSample,
        rng: &mut dyn Rng,
    ) -> privpac_learners::Result<Predictor> {
        let seed = rng.next_u64();
        let Some(support) = &self.support else {
            return self
                .call(class, sample, seed)
                .map(|id| Hypothesis::Concept { id }.into())
                .map_err(|error| self.fail(error));
        };
        let table = |returned| match returned {
            Returned::Concept(id) => Ok(Hypothesis::Concept { id }.into()),
            Returned::Predictor(predictor) => Python::attach(|py| {
                let labels = predictions(predictor.bind(py), support, &self.name)?;
                Ok(table_of(support, &labels).into())
            }),
        };
        self.call_returned(class, sample, seed)
            .and_then(table)
            .map_err(|error| self.fail(error))
    }

    /// The claimed guarantee, whatever the size.
    fn guarantee(&self, _examples: usize) -> Guarantee {
        self.guarantee
    }

    fn name(&self) -> String {
        self.name.clone()
    }
}

/// The hypothesis that labels the sorted `support` with `labels` (elsewhere, off the
/// support, it is never evaluated): a table listing the points whose label is not the
/// majority's, the majority label the default.
pub(crate) fn table_of(support: &[u64], labels: &[bool]) -> Hypothesis {
    let ones = labels.iter().filter(|&&label| label).count();
    let default = 2 * ones > labels.len();
    let (points, labels) = support
        .iter()
        .zip(labels)
        .filter(|&(_, &label)| label != default)
        .map(|(&x, &label)| (x, label))
        .unzip();
    Hypothesis::Table {
        points,
        labels,
        default,
    }
}
