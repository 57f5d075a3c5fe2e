//! A Python multi-learner as a [`MultiLearner`]: the thin adapter that lets the k-curve
//! search (`privpac_toolkit::sample_complexity_curve`) run a multi-learner written in
//! Python exactly as it runs the built-ins (same scenarios, trial streams, exact true
//! errors of the k concepts the learner returns).
//!
//! The multi-learner is a callable `multi_learner(points, labels, seed)` or an object with
//! `fit(points, labels, seed)`: `points` a uint64 array of n points, `labels` an n × k bool
//! array (row i the k labels of point i; a fresh copy per call), `seed` the first `u64` of
//! the trial's ChaCha8 generator, the result k concept ids of the class (anything
//! `numpy.asarray` makes a 1-D array of k integers of; id j is the hypothesis for column
//! j). Its guarantee, for the whole k-tuple, is what the caller claims: reported, not
//! checked (`privpac.audit` can refute it).
//!
//! Failures are handled as in [`crate::python_learner`] (whose [`PythonLearner`] this
//! wraps for the callable, the name and the first failure): the learner raising, a result
//! of the wrong shape, a non-integer or an id outside the class become
//! [`privpac_multi::Error::Learner`] for the engine, and the first Python exception is
//! kept so that the binding raises it (chained) when the search ends.

use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use privpac_accounting::Guarantee;
use privpac_classes::{ConceptClass, Hypothesis};
use privpac_learners::{Learner, Predictor};
use privpac_multi::{MultiLabeledSample, MultiLearner};
use pyo3::prelude::*;
use rand::Rng;

use crate::errors::bad_input;
use crate::predictions::predictions;
use crate::python_learner::{PythonLearner, concept_id, is_predictor, learner_raised, table_of};

/// A Python multi-learner behind the [`MultiLearner`] trait.
#[derive(Debug)]
pub(crate) struct PythonMultiLearner {
    /// The callable, its name ("python:NAME"), the claimed guarantee and the first failure.
    inner: PythonLearner,
}

impl PythonMultiLearner {
    /// Wraps `learner` (a callable, or an object with a callable `fit`) claiming
    /// `guarantee` for the k-tuple.
    ///
    /// # Errors
    /// `TypeError` when `learner` is neither callable nor has a callable `fit`.
    pub(crate) fn new(learner: &Bound<'_, PyAny>, guarantee: Guarantee) -> PyResult<Self> {
        Ok(PythonMultiLearner {
            inner: PythonLearner::new(learner, guarantee)?,
        })
    }

    /// Accepts predictors among the k hypotheses, evaluated on `support` (every point of
    /// the domain; see [`PythonLearner::with_support`]).
    pub(crate) fn with_support(self, support: Vec<u64>) -> Self {
        PythonMultiLearner {
            inner: self.inner.with_support(support),
        }
    }

    /// The first failure of the learner, if any (taken).
    pub(crate) fn take_failure(&self) -> Option<PyErr> {
        self.inner.take_failure()
    }

    /// Runs `work` while this thread serves the learner's calls (see
    /// [`PythonLearner::serve`]).
    pub(crate) fn serve<R: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce() -> R + Send,
    ) -> PyResult<R> {
        self.inner.serve(py, work)
    }

    /// One call under the GIL: the k hypotheses, concept ids checked against the class,
    /// predictors evaluated on the support (refused without one).
    fn call(
        &self,
        class: &dyn ConceptClass,
        sample: &MultiLabeledSample,
        seed: u64,
    ) -> PyResult<Vec<Predictor>> {
        let name = Learner::name(&self.inner);
        let (n, k) = (sample.len(), sample.k());
        let points = sample.points().to_vec();
        let flat: Vec<bool> = (0..n)
            .flat_map(|i| (0..k).map(move |j| (i, j)))
            .map(|(i, j)| sample.label(i, j))
            .collect();
        let call = std::sync::Arc::clone(self.inner.callable());
        let called = name.clone();
        let out = self.inner.run(move |py| {
            let points = PyArray1::from_vec(py, points);
            let labels = PyArray1::from_vec(py, flat).reshape([n, k])?;
            call.bind(py)
                .call1((points, labels, seed))
                .map(Bound::unbind)
                .map_err(|cause| learner_raised(py, cause, &called))
        })?;
        Python::attach(|py| {
            let out = out.into_bound(py);
            let shape_error = |shape: String| {
                bad_input(format!(
                    "the Python multi-learner {name} must return k = {k} concept ids (one per \
                     label column, a 1-D array), got {shape}"
                ))
            };
            let what = out.get_type().name()?.to_string();
            let array = py
                .import("numpy")?
                .call_method1("asarray", (&out,))
                .map_err(|_| shape_error(format!("a {what}")))?;
            let array = array
                .cast_into::<numpy::PyUntypedArray>()
                .map_err(|_| shape_error("something numpy cannot read".into()))?;
            if array.shape() != [k] {
                return Err(shape_error(format!("shape {:?}", array.shape())));
            }
            (0..k)
                .map(|j| {
                    let item = array.get_item(j)?;
                    let column = format!("{name} (column {j})");
                    match self.inner.support() {
                        Some(support) if is_predictor(&item)? => {
                            let labels = predictions(&item, support, &column)?;
                            Ok(table_of(support, &labels).into())
                        }
                        _ => concept_id(&item, class, &column)
                            .map(|id| Hypothesis::Concept { id }.into()),
                    }
                })
                .collect()
        })
    }
}

impl MultiLearner for PythonMultiLearner {
    /// Calls the Python multi-learner with the sample and a seed drawn from `rng` (its
    /// first `u64`), and returns the k concepts it names.
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &MultiLabeledSample,
        rng: &mut dyn Rng,
    ) -> privpac_multi::Result<Vec<Predictor>> {
        let seed = rng.next_u64();
        self.call(class, sample, seed).map_err(|error| {
            privpac_multi::Error::Learner(privpac_learners::Error::External {
                learner: Learner::name(&self.inner),
                message: self.inner.record(error),
            })
        })
    }

    /// The claimed guarantee of the k-tuple, whatever the size and k.
    fn guarantee(&self, examples: usize, _k: usize) -> Guarantee {
        Learner::guarantee(&self.inner, examples)
    }

    fn name(&self) -> String {
        Learner::name(&self.inner)
    }
}

/// One [`PythonMultiLearner`] shared by the searches at every k (the curve builds a
/// learner per k; the Python one is the same object at each).
#[derive(Debug)]
pub(crate) struct SharedMultiLearner(pub(crate) std::sync::Arc<PythonMultiLearner>);

impl MultiLearner for SharedMultiLearner {
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &MultiLabeledSample,
        rng: &mut dyn Rng,
    ) -> privpac_multi::Result<Vec<Predictor>> {
        self.0.learn(class, sample, rng)
    }

    fn guarantee(&self, examples: usize, k: usize) -> Guarantee {
        self.0.guarantee(examples, k)
    }

    fn name(&self) -> String {
        self.0.name()
    }
}
