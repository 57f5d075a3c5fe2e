//! Calling a vectorized predictor returned by a Python learner: [`predictions`] hands it
//! the points and checks that it gives back one label 0 or 1 per point. Every path that
//! evaluates a predictor goes through it (the exact tables of `python_learner.rs` and
//! `python_multi_learner.rs`, the held-out estimates of `predictor.rs`, the audit's
//! queries), so their errors name the learner in the same words.

use numpy::PyArray1;
use pyo3::prelude::*;

use crate::arrays::{bool_vector, slice};
use crate::errors::{BadInputError, bad_input};

/// The labels `predictor` gives `points`: it is called once with a uint64 array of the
/// points (a fresh copy), or its `predict` method is if it has one, and must return one
/// label per point, 0 or 1 (bools, or integers or floats equal to 0 or 1, under the
/// package's array rules).
///
/// # Errors
/// BadInputError naming the learner when the predictor raises (chained to its
/// exception), returns something that is not a one-dimensional array of numbers, of
/// another length, or a value other than 0 and 1.
pub(crate) fn predictions(
    predictor: &Bound<'_, PyAny>,
    points: &[u64],
    name: &str,
) -> PyResult<Vec<bool>> {
    let py = predictor.py();
    let call = match predictor.getattr("predict") {
        Ok(predict) if predict.is_callable() => predict,
        _ => predictor.clone(),
    };
    let out = call
        .call1((PyArray1::from_slice(py, points),))
        .map_err(|cause| {
            let error = bad_input(format!(
                "the predictor returned by the Python learner {name} raised: {cause}"
            ));
            error.set_cause(py, Some(cause));
            error
        })?;
    let what = format!("the predictions of the Python learner {name}'s predictor");
    let labels = bool_vector(&out, &what).map_err(|error| {
        if error.is_instance_of::<BadInputError>(py) {
            return error;
        }
        let message = error
            .value(py)
            .str()
            .map(|s| s.to_string())
            .unwrap_or_default();
        let wrapped = bad_input(format!("{what} must be labels 0 or 1: {message}"));
        wrapped.set_cause(py, Some(error));
        wrapped
    })?;
    let labels = slice(&labels).into_owned();
    if labels.len() != points.len() {
        return Err(bad_input(format!(
            "{what} must be one label per point: {} labels for {} points",
            labels.len(),
            points.len()
        )));
    }
    Ok(labels)
}
