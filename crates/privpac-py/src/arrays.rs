//! numpy inputs without copies: a float64 (or int64, uint64, bool) array that is already of
//! the right dtype and shape is borrowed read-only in place; anything else (a list, another
//! dtype) goes once through `numpy.asarray`. A ragged nested list, a wrong number of
//! dimensions or a value numpy cannot convert raises `BadInputError`.
//!
//! While the GIL is released the borrowed buffer must not change: numpy's borrow flags stop
//! other Rust code from writing to it, but Python code in another thread that writes into the
//! same array during a call gets unspecified results (as with any numpy C extension).

use numpy::{Element, PyArray, PyReadonlyArray, PyUntypedArrayMethods, prelude::*};
use pyo3::prelude::*;

use crate::errors::bad_input;

/// `obj` as a read-only numpy array of element `T` and `ndim` dimensions (`D`), borrowed
/// when it already is one, converted with `numpy.asarray(obj, dtype)` otherwise.
fn array<'py, T: Element, D: numpy::ndarray::Dimension>(
    obj: &Bound<'py, PyAny>,
    dtype: &str,
    ndim: usize,
    what: &str,
) -> PyResult<PyReadonlyArray<'py, T, D>> {
    if let Ok(array) = obj.cast::<PyArray<T, D>>() {
        return array
            .try_readonly()
            .map_err(|e| bad_input(format!("{what}: {e}")));
    }
    let numpy = obj.py().import("numpy")?;
    let converted = numpy.call_method1("asarray", (obj, dtype)).map_err(|e| {
        bad_input(format!(
            "{what} is not a {ndim}-dimensional {dtype} array: {e}"
        ))
    })?;
    let untyped = converted
        .cast::<numpy::PyUntypedArray>()
        .map_err(|e| bad_input(format!("{what}: {e}")))?;
    if untyped.ndim() != ndim {
        return Err(bad_input(format!(
            "{what} must be a {ndim}-dimensional array, got {} dimensions (shape {:?})",
            untyped.ndim(),
            untyped.shape()
        )));
    }
    let typed = converted
        .cast_into::<PyArray<T, D>>()
        .map_err(|e| bad_input(format!("{what}: {e}")))?;
    typed
        .try_readonly()
        .map_err(|e| bad_input(format!("{what}: {e}")))
}

/// A one-dimensional float64 array (scores, query values).
pub(crate) fn f64_vector<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<PyReadonlyArray<'py, f64, numpy::Ix1>> {
    array(obj, "float64", 1, what)
}

/// A one-dimensional int64 array (integer scores, released values).
pub(crate) fn i64_vector<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<PyReadonlyArray<'py, i64, numpy::Ix1>> {
    array(obj, "int64", 1, what)
}

/// A one-dimensional uint64 array (points of a domain).
pub(crate) fn u64_vector<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<PyReadonlyArray<'py, u64, numpy::Ix1>> {
    array(obj, "uint64", 1, what)
}

/// A two-dimensional bool array (0/1 matrices: class matrices, label matrices). Integer 0/1
/// entries are accepted; any other value raises `BadInputError`.
pub(crate) fn bool_matrix<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<PyReadonlyArray<'py, bool, numpy::Ix2>> {
    check_zero_one(obj, 2, what)?;
    array(obj, "bool", 2, what)
}

/// A one-dimensional bool array (labels). Integer 0/1 entries are accepted; any other value
/// raises `BadInputError`.
pub(crate) fn bool_vector<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<PyReadonlyArray<'py, bool, numpy::Ix1>> {
    check_zero_one(obj, 1, what)?;
    array(obj, "bool", 1, what)
}

/// Rejects values other than 0 and 1 before a cast to bool would silently turn 2 into
/// `True`: a bool array passes as it is; anything else is checked with numpy (vectorized,
/// no per-element Python work).
fn check_zero_one(obj: &Bound<'_, PyAny>, ndim: usize, what: &str) -> PyResult<()> {
    if obj.cast::<PyArray<bool, numpy::IxDyn>>().is_ok() {
        return Ok(());
    }
    let numpy = obj.py().import("numpy")?;
    let converted = numpy
        .call_method1("asarray", (obj,))
        .map_err(|e| bad_input(format!("{what} is not a {ndim}-dimensional 0/1 array: {e}")))?;
    let zero_one = numpy
        .call_method1("isin", (&converted, (0, 1)))?
        .call_method0("all")?
        .is_truthy()?;
    if !zero_one {
        return Err(bad_input(format!("{what} must hold only 0 and 1")));
    }
    Ok(())
}

/// The elements of a one-dimensional array as a slice: borrowed when the array is
/// contiguous (no copy), copied once otherwise (a strided view).
pub(crate) fn slice<'a, T: Element + Clone>(
    array: &'a PyReadonlyArray<'_, T, numpy::Ix1>,
) -> std::borrow::Cow<'a, [T]> {
    match array.as_slice() {
        Ok(slice) => std::borrow::Cow::Borrowed(slice),
        Err(_) => std::borrow::Cow::Owned(array.as_array().to_vec()),
    }
}
