//! Checked conversion of every array argument of the Python API: one function per target
//! element type, each exact or an error naming the argument. No value is ever truncated,
//! wrapped or rounded on the way in.
//!
//! - An array that already has the target dtype (float64, int64, uint64, bool) and the
//!   right number of dimensions is borrowed read-only in place (no copy); float64 arrays
//!   are still checked for NaN and infinities.
//! - Anything else (a list, a tuple, another dtype) goes once through `numpy.asarray`
//!   without a dtype, and every value is then converted exactly:
//!   - integers of any width and sign (numpy or Python ints, also beyond 64 bits in object
//!     arrays) are accepted when the target type holds them exactly: a uint64 of 2^63 + 5 is
//!     a valid `u64` point but not an `i64` score; a negative integer is not a point; an
//!     integer above 2^53 is a `float64` only if it is exactly one;
//!   - floats are accepted for an integer target only when they are integral and in range
//!     (2.0 is the point 2; 2.9, NaN and ±∞ are refused), and for a float target when they
//!     are finite (float16/float32 widen exactly; a long double must be exactly a float64);
//!   - bools are 0 and 1 (False and True) for every target: a bool array is a valid label
//!     vector, score vector or point vector;
//!   - object arrays are read element by element under the same rules; an element that is
//!     not a number (None, a string, a Fraction, a Decimal) raises `TypeError`, as does an
//!     array of strings, bytes, complex numbers, dates or records.
//! - A value the target cannot hold exactly raises `BadInputError` (a `ValueError`; the
//!   class `privpac.errors` documents for data that do not fit) naming the argument, the
//!   first offending index and its value, e.g. `scores must hold integers in [-2^63,
//!   2^63 - 1]; scores[0] is 0.4`. A ragged nested list or a wrong number of dimensions also
//!   raises `BadInputError`.
//!
//! While the GIL is released the borrowed buffer must not change: numpy's borrow flags stop
//! other Rust code from writing to it, but Python code in another thread that writes into the
//! same array during a call gets unspecified results (as with any numpy C extension).

use std::fmt::Display;

use numpy::ndarray::{ArrayD, Dimension, IxDyn};
use numpy::{
    Element, PyArray, PyArrayDyn, PyReadonlyArray, PyUntypedArray, PyUntypedArrayMethods,
    prelude::*,
};
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{IntoPyDict, PyBool, PyFloat, PyInt};

use crate::errors::bad_input;

/// 2^53: every integer of at most this magnitude is exactly a float64.
const EXACT_FLOAT_INTEGERS: f64 = 9_007_199_254_740_992.0;

/// A number read exactly from an input element.
#[derive(Debug, Clone, Copy)]
enum Number {
    /// An integer (numpy or Python int, bool as 0/1). Python ints beyond i128 never reach
    /// here: they are out of range for every target and refused at extraction.
    Int(i128),
    /// A float, widened exactly to f64.
    Float(f64),
}

impl Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Number::Int(v) => write!(f, "{v}"),
            Number::Float(v) => write!(f, "{v:?}"),
        }
    }
}

/// How the numbers of one argument become elements of type `T`.
#[derive(Clone, Copy)]
struct Rule<T> {
    /// What the values must be, for the error message ("integers in [0, 2^64 - 1]").
    expected: &'static str,
    /// The exact conversion, `None` when the number is not a valid `T`.
    convert: fn(Number) -> Option<T>,
    /// The number a value of an array that already has dtype `T` stands for (checked with
    /// `convert` too: a float64 array may hold NaN).
    native: fn(T) -> Number,
}

/// The float `v` as an integer in `[lo, hi)` when it is one exactly; `lo` and `hi` are
/// powers of two (exact floats), so the comparison is exact.
fn integral(v: f64, lo: f64, hi: f64) -> Option<i128> {
    // A finite float in [lo, hi) with no fractional part is an integer |v| ≤ 2^64, which
    // `as i128` converts exactly.
    (v.is_finite() && v.trunc() == v && v >= lo && v < hi).then_some(v as i128)
}

/// The integer `v` as a float64 when it is exactly one.
fn exact_float(v: i128) -> Option<f64> {
    let f = v as f64;
    // Below 2^127 in magnitude `f as i128` is exact, so equality means `f` is `v` exactly.
    (f.abs() < 2f64.powi(127) && f as i128 == v).then_some(f)
}

const I64: Rule<i64> = Rule {
    expected: "integers in [-2^63, 2^63 - 1]",
    convert: |n| match n {
        Number::Int(v) => i64::try_from(v).ok(),
        Number::Float(v) => {
            integral(v, -(2f64.powi(63)), 2f64.powi(63)).and_then(|v| i64::try_from(v).ok())
        }
    },
    native: |v| Number::Int(i128::from(v)),
};

const U64: Rule<u64> = Rule {
    expected: "integers in [0, 2^64 - 1]",
    convert: |n| match n {
        Number::Int(v) => u64::try_from(v).ok(),
        // −0.0 ≥ 0.0, so −0.0 is the point 0.
        Number::Float(v) => integral(v, 0.0, 2f64.powi(64)).and_then(|v| u64::try_from(v).ok()),
    },
    native: |v| Number::Int(i128::from(v)),
};

const BOOL: Rule<bool> = Rule {
    expected: "only 0 and 1 (or False and True)",
    convert: |n| match n {
        Number::Int(0) => Some(false),
        Number::Int(1) => Some(true),
        // −0.0 matches 0.0.
        Number::Float(0.0) => Some(false),
        Number::Float(1.0) => Some(true),
        _ => None,
    },
    native: |v| Number::Int(i128::from(v)),
};

const FINITE_F64: Rule<f64> = Rule {
    expected: "finite numbers that are exactly float64 values",
    convert: |n| match n {
        Number::Int(v) => exact_float(v),
        Number::Float(v) => v.is_finite().then_some(v),
    },
    native: Number::Float,
};

const ANY_F64: Rule<f64> = Rule {
    expected: "numbers that are exactly float64 values",
    convert: |n| match n {
        Number::Int(v) => exact_float(v),
        Number::Float(v) => Some(v),
    },
    native: Number::Float,
};

/// The multi-index of the `flat`-th element (C order) of an array of `shape`, as
/// `[i]` or `[i, j]`.
fn index_text(flat: usize, shape: &[usize]) -> String {
    let mut rest = flat;
    let mut index = vec![0; shape.len()];
    for (axis, &len) in shape.iter().enumerate().rev() {
        if len > 0 {
            index[axis] = rest % len;
            rest /= len;
        }
    }
    let parts: Vec<String> = index.iter().map(usize::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// The error for the `flat`-th element, shown as `value`, that `rule` refuses.
fn refused<T>(what: &str, rule: &Rule<T>, flat: usize, shape: &[usize], value: &str) -> PyErr {
    bad_input(format!(
        "{what} must hold {}; {what}{} is {value}",
        rule.expected,
        index_text(flat, shape)
    ))
}

/// The elements of a typed numpy array converted with `rule`, in C order.
fn convert_typed<S: Element + Copy, T>(
    array: &Bound<'_, PyAny>,
    what: &str,
    rule: &Rule<T>,
    number: fn(S) -> Number,
) -> PyResult<Vec<T>> {
    let array = array
        .cast::<PyArrayDyn<S>>()
        .map_err(|e| bad_input(format!("{what}: {e}")))?
        .try_readonly()
        .map_err(|e| bad_input(format!("{what}: {e}")))?;
    let view = array.as_array();
    let mut out = Vec::with_capacity(view.len());
    for (flat, &value) in view.iter().enumerate() {
        let n = number(value);
        match (rule.convert)(n) {
            Some(v) => out.push(v),
            None => return Err(refused(what, rule, flat, view.shape(), &n.to_string())),
        }
    }
    Ok(out)
}

/// The number an element of an object array (or a scalar argument) holds exactly; a
/// `TypeError` for anything that is not an int, a float or a bool.
fn number_of(element: &Bound<'_, PyAny>, what: &str) -> PyResult<Result<Number, String>> {
    let numpy = element.py().import("numpy")?;
    if element.is_instance_of::<PyBool>() || element.is_instance(&numpy.getattr("bool_")?)? {
        return Ok(Ok(Number::Int(i128::from(element.is_truthy()?))));
    }
    // Python floats and numpy float64 (a float subclass).
    if element.is_instance_of::<PyFloat>() {
        return Ok(Ok(Number::Float(element.extract::<f64>()?)));
    }
    if element.is_instance_of::<PyInt>() || element.is_instance(&numpy.getattr("integer")?)? {
        return Ok(match element.extract::<i128>() {
            Ok(v) => Ok(Number::Int(v)),
            // Beyond 128 bits: out of range for every target.
            Err(e) if e.is_instance_of::<PyOverflowError>(element.py()) => {
                Err(element.repr()?.to_string())
            }
            Err(e) => return Err(e),
        });
    }
    // float16 and float32 widen exactly; a long double counts only if it is exactly a
    // float64 (NaN stays NaN), and is refused rather than rounded otherwise.
    if element.is_instance(&numpy.getattr("floating")?)? {
        let value = element.extract::<f64>()?;
        let exact = element.getattr("itemsize")?.extract::<usize>()? <= 8
            || value.is_nan()
            || element.eq(value)?;
        return Ok(if exact {
            Ok(Number::Float(value))
        } else {
            Err(format!("{} (not exactly a float64)", element.repr()?))
        });
    }
    Err(PyTypeError::new_err(format!(
        "{what} must hold numbers (int, float or bool), got {} {}",
        element.get_type().name()?,
        element.repr()?
    )))
}

/// The elements of an object array converted with `rule`, in C order.
fn convert_objects<T>(array: &Bound<'_, PyAny>, what: &str, rule: &Rule<T>) -> PyResult<Vec<T>> {
    let shape: Vec<usize> = array.getattr("shape")?.extract()?;
    let flat = array.call_method1("reshape", (-1,))?;
    let mut out = Vec::new();
    for (index, element) in flat.try_iter()?.enumerate() {
        let element = element?;
        let converted = match number_of(&element, what)? {
            Ok(n) => (rule.convert)(n).ok_or_else(|| n.to_string()),
            Err(shown) => Err(shown),
        };
        match converted {
            Ok(v) => out.push(v),
            Err(shown) => return Err(refused(what, rule, index, &shape, &shown)),
        }
    }
    Ok(out)
}

/// `obj` as a read-only numpy array of element `T` and `ndim` dimensions (`D`), every value
/// converted exactly with `rule` (see the module docs).
fn checked<'py, T: Element + Copy, D: Dimension>(
    obj: &Bound<'py, PyAny>,
    ndim: usize,
    what: &str,
    rule: Rule<T>,
) -> PyResult<PyReadonlyArray<'py, T, D>> {
    let py = obj.py();
    if let Ok(array) = obj.cast::<PyArray<T, D>>() {
        let array = array
            .try_readonly()
            .map_err(|e| bad_input(format!("{what}: {e}")))?;
        let view = array.as_array();
        for (flat, &value) in view.iter().enumerate() {
            let n = (rule.native)(value);
            if (rule.convert)(n).is_none() {
                return Err(refused(what, &rule, flat, view.shape(), &n.to_string()));
            }
        }
        return Ok(array);
    }
    let numpy = py.import("numpy")?;
    let not_an_array = |e: PyErr| {
        bad_input(format!(
            "{what} is not a {ndim}-dimensional array of numbers: {e}"
        ))
    };
    // A list mixing huge and negative Python ints overflows numpy's inference; an object
    // array keeps every int exact.
    let converted = match numpy.call_method1("asarray", (obj,)) {
        Ok(converted) => converted,
        Err(e) if e.is_instance_of::<PyOverflowError>(py) => numpy
            .call_method1("asarray", (obj, "object"))
            .map_err(not_an_array)?,
        Err(e) => return Err(not_an_array(e)),
    };
    let untyped = converted
        .cast::<PyUntypedArray>()
        .map_err(|e| bad_input(format!("{what}: {e}")))?;
    if untyped.ndim() != ndim {
        return Err(bad_input(format!(
            "{what} must be a {ndim}-dimensional array, got {} dimensions (shape {:?})",
            untyped.ndim(),
            untyped.shape()
        )));
    }
    let shape = untyped.shape().to_vec();
    let dtype = converted.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    let itemsize: usize = dtype.getattr("itemsize")?.extract()?;
    let no_copy = [("copy", false)].into_py_dict(py)?;
    let astype = |name: &str| converted.call_method("astype", (name,), Some(&no_copy));
    let values = match kind.as_str() {
        "u" if itemsize == 8 => convert_typed::<u64, T>(&astype("uint64")?, what, &rule, |v| {
            Number::Int(i128::from(v))
        })?,
        // Every other integer dtype (and bool) fits int64 exactly.
        "b" | "i" | "u" => convert_typed::<i64, T>(&astype("int64")?, what, &rule, |v| {
            Number::Int(i128::from(v))
        })?,
        "f" => {
            let widened = astype("float64")?;
            if itemsize > 8 {
                let equal_nan = [("equal_nan", true)].into_py_dict(py)?;
                let same = numpy
                    .call_method("array_equal", (&widened, &converted), Some(&equal_nan))?
                    .is_truthy()?;
                if !same {
                    return Err(bad_input(format!(
                        "{what} holds extended-precision values that are not exactly float64 \
                         values"
                    )));
                }
            }
            // numpy infers float64 for a list mixing negative ints with ints above 2^63,
            // rounding them; beyond 2^53 such a list is read again element by element.
            let large = !obj.is_instance(&numpy.getattr("ndarray")?)?
                && numpy
                    .call_method1(
                        "any",
                        (numpy
                            .call_method1("abs", (&widened,))?
                            .rich_compare(EXACT_FLOAT_INTEGERS, CompareOp::Ge)?,),
                    )?
                    .is_truthy()?;
            if large {
                convert_objects(
                    &numpy.call_method1("asarray", (obj, "object"))?,
                    what,
                    &rule,
                )?
            } else {
                convert_typed::<f64, T>(&widened, what, &rule, Number::Float)?
            }
        }
        "O" => convert_objects(&converted, what, &rule)?,
        _ => {
            return Err(PyTypeError::new_err(format!(
                "{what} must hold numbers (int, float or bool), got an array of dtype {}",
                dtype
            )));
        }
    };
    let array = ArrayD::from_shape_vec(IxDyn(&shape), values)
        .map_err(|e| bad_input(format!("{what}: {e}")))?
        .into_dimensionality::<D>()
        .map_err(|e| bad_input(format!("{what}: {e}")))?;
    PyArray::from_owned_array(py, array)
        .try_readonly()
        .map_err(|e| bad_input(format!("{what}: {e}")))
}

/// A one-dimensional float64 array of finite values (scores, query values).
pub(crate) fn f64_vector<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<PyReadonlyArray<'py, f64, numpy::Ix1>> {
    checked(obj, 1, what, FINITE_F64)
}

/// A one-dimensional float64 array whose values may be NaN or infinite (a mechanism's
/// real outputs under audit).
pub(crate) fn f64_vector_with_non_finite<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<PyReadonlyArray<'py, f64, numpy::Ix1>> {
    checked(obj, 1, what, ANY_F64)
}

/// A one-dimensional int64 array (integer scores, released values).
pub(crate) fn i64_vector<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<PyReadonlyArray<'py, i64, numpy::Ix1>> {
    checked(obj, 1, what, I64)
}

/// The number `obj` holds when it is a scalar (a Python or numpy int, float or bool, or a
/// 0-dimensional array), `None` when it is to be read as an array.
pub(crate) fn scalar<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    if let Ok(array) = obj.cast::<PyUntypedArray>() {
        return (array.ndim() == 0).then(|| obj.get_item(())).transpose();
    }
    let numpy = obj.py().import("numpy")?;
    let scalar = obj.is_instance_of::<PyInt>()
        || obj.is_instance_of::<PyFloat>()
        || obj.is_instance(&numpy.getattr("generic")?)?;
    Ok(scalar.then(|| obj.clone()))
}

/// One int64 value (a released value given as a scalar), under the rules of `i64_vector`.
pub(crate) fn i64_scalar(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<i64> {
    let refused = |shown: &dyn Display| {
        bad_input(format!(
            "{what} must be an integer in [-2^63, 2^63 - 1]; it is {shown}"
        ))
    };
    match number_of(obj, what)? {
        Ok(n) => (I64.convert)(n).ok_or_else(|| refused(&n)),
        Err(shown) => Err(refused(&shown)),
    }
}

/// A one-dimensional uint64 array (points of a domain).
pub(crate) fn u64_vector<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<PyReadonlyArray<'py, u64, numpy::Ix1>> {
    checked(obj, 1, what, U64)
}

/// A two-dimensional bool array (0/1 matrices: class matrices, label matrices).
pub(crate) fn bool_matrix<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<PyReadonlyArray<'py, bool, numpy::Ix2>> {
    checked(obj, 2, what, BOOL)
}

/// A one-dimensional bool array (labels).
pub(crate) fn bool_vector<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<PyReadonlyArray<'py, bool, numpy::Ix1>> {
    checked(obj, 1, what, BOOL)
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
