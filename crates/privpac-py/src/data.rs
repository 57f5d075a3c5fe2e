//! `privpac.data`: real-valued features onto the ordered domain of a class, through
//! `privpac_toolkit::Discretizer` (public bounds and a number of bins, values clipped, NaN
//! refused), and hypotheses learned on the bins written back in the data's units
//! (`privpac_toolkit::describe_in_units`).
//!
//! The guarantee of a learner run on the bins holds for the raw values only when the bounds
//! and the number of bins are public: chosen without looking at the data.

use numpy::{PyArray1, prelude::*};
use privpac_toolkit::{DiscretizeError, Discretizer as RustDiscretizer, describe_in_units};
use pyo3::prelude::*;

use crate::arrays::{f64_vector_with_non_finite, slice};
use crate::classes::ConceptClass;
use crate::errors::{self, Kind};
use crate::learners::Hypothesis;

/// The most edges `Discretizer.edges()` lists (2^24 + 1).
const MAX_LISTED_EDGES: u64 = (1 << 24) + 1;

/// A `DiscretizeError` as a Python exception: NaN values and a class over other bins are bad
/// input, everything else a bad parameter.
fn discretize_error(error: DiscretizeError) -> PyErr {
    let kind = match error {
        DiscretizeError::NaN | DiscretizeError::BinsMismatch { .. } => Kind::BadInput,
        _ => Kind::InvalidParameter,
    };
    errors::raise(kind, error)
}

/// The bins of a 1-D array of values, refusing NaN with its index.
fn bins_of<'py>(
    py: Python<'py>,
    discretizer: &RustDiscretizer,
    values: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let array = f64_vector_with_non_finite(values, "values")?;
    let values = slice(&array);
    let bins: Result<Vec<u64>, usize> = py.detach(|| {
        values
            .iter()
            .enumerate()
            .map(|(index, &x)| discretizer.bin(x).map_err(|_| index))
            .collect()
    });
    match bins {
        Ok(bins) => Ok(bins.into_pyarray(py)),
        Err(index) => Err(errors::bad_input(format!(
            "values[{index}] is NaN; a value to discretize must be a number (±inf are clipped)"
        ))),
    }
}

/// Public bounds [low, high] cut into `bins` bins of equal width (up to rounding): the map
/// from a real feature to the points 0..bins of `thresholds:BINS`, `intervals:BINS`,
/// `both(thresholds:BINS)`, … Values below `low` go to bin 0, above `high` to the last bin;
/// NaN is refused. Bin b is exactly the values in [edge(b), edge(b + 1)) (the last bin
/// also holds `high`).
///
/// The bounds and the number of bins must be public — chosen without looking at the data
/// (a physical range, a previous study) — for a learner's guarantee on the bins to hold for
/// the raw values: discretizing with public parameters is a fixed map applied to each
/// example on its own, so neighbouring datasets stay neighbouring. Bounds taken from the
/// data (its minimum and maximum, quantiles) leak it.
///
/// Raises InvalidParameterError unless low < high are finite (with a finite width) and
/// 1 <= bins <= 2^53.
#[pyclass(frozen, module = "privpac.data", name = "Discretizer")]
#[derive(Debug)]
pub(crate) struct Discretizer {
    inner: RustDiscretizer,
}

#[pymethods]
impl Discretizer {
    #[new]
    fn new(low: f64, high: f64, bins: u64) -> PyResult<Self> {
        Ok(Discretizer {
            inner: RustDiscretizer::new(low, high, bins).map_err(discretize_error)?,
        })
    }

    /// The lower bound.
    #[getter]
    fn low(&self) -> f64 {
        self.inner.low()
    }

    /// The upper bound.
    #[getter]
    fn high(&self) -> f64 {
        self.inner.high()
    }

    /// The number of bins (the size of the class's ordered domain).
    #[getter]
    fn bins(&self) -> u64 {
        self.inner.bins()
    }

    /// The bin of each value of a 1-D array (uint64 points of the class's domain), values
    /// out of bounds (and ±inf) clipped. Raises BadInputError naming the index of a NaN, or
    /// for an array that is not 1-D or not numeric.
    fn bin<'py>(
        &self,
        py: Python<'py>,
        values: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<u64>>> {
        bins_of(py, &self.inner, values)
    }

    /// Edge i, 0 <= i <= bins: edge(0) = low, edge(bins) = high.
    fn edge(&self, i: u64) -> PyResult<f64> {
        self.inner.edge(i).map_err(discretize_error)
    }

    /// All bins + 1 edges as a float64 array (refused above 2^24 bins: TooLargeError).
    fn edges<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let count = self.inner.bins() + 1;
        if count > MAX_LISTED_EDGES {
            return Err(errors::raise(
                Kind::TooLarge,
                format!(
                    "{count} edges are more than the {MAX_LISTED_EDGES} edges() lists; use edge(i)"
                ),
            ));
        }
        let edges: PyResult<Vec<f64>> = (0..count)
            .map(|i| self.inner.edge(i).map_err(discretize_error))
            .collect();
        Ok(edges?.into_pyarray(py))
    }

    /// Bin b in data units: (lo, hi), the half-open interval [lo, hi) of the values mapped
    /// to b (the last bin also holds hi = high).
    fn interval(&self, b: u64) -> PyResult<(f64, f64)> {
        self.inner.interval(b).map_err(discretize_error)
    }

    /// The midpoint of bin b in data units.
    fn value(&self, b: u64) -> PyResult<f64> {
        self.inner.value(b).map_err(discretize_error)
    }

    /// A hypothesis learned on these bins as a statement about the values: "1 on x < 104.3"
    /// for a threshold, "1 on x ≥ 104.3" for its complement (not(…), both(…)), "1 on 52.5 ≤
    /// x < 60" for an interval; constants and flipped hypotheses too; anything else in bins,
    /// saying so. Raises BadInputError if the hypothesis's class is not over these bins.
    fn describe(&self, hypothesis: &Hypothesis) -> PyResult<String> {
        let (class, inner) = hypothesis.parts();
        describe_in_units(inner, class, &self.inner).map_err(discretize_error)
    }

    /// Concept `concept` of a class over these bins, as `describe` writes it.
    fn describe_concept(&self, concept_class: &ConceptClass, concept: u64) -> PyResult<String> {
        let class = concept_class.inner.as_ref();
        privpac_classes::check_concept(class, concept).map_err(errors::classes)?;
        describe_in_units(
            &privpac_classes::Hypothesis::Concept { id: concept }.into(),
            class,
            &self.inner,
        )
        .map_err(discretize_error)
    }

    fn __repr__(&self) -> String {
        format!(
            "Discretizer(low={:?}, high={:?}, bins={})",
            self.inner.low(),
            self.inner.high(),
            self.inner.bins()
        )
    }
}

/// discretize(values, low, high, bins) -> uint64 array: the bin of each value of a 1-D
/// array, with public bounds [low, high] and `bins` bins (`Discretizer(low, high,
/// bins).bin(values)`): values out of bounds clipped, NaN refused (BadInputError naming its
/// index), a bad low/high/bins an InvalidParameterError. The bounds must be public (chosen
/// without looking at the data) for a learner's guarantee to hold for the raw values.
#[pyfunction]
fn discretize<'py>(
    py: Python<'py>,
    values: &Bound<'py, PyAny>,
    low: f64,
    high: f64,
    bins: u64,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let discretizer = RustDiscretizer::new(low, high, bins).map_err(discretize_error)?;
    bins_of(py, &discretizer, values)
}

pub(crate) fn register(py: Python<'_>, module: &Bound<'_, PyModule>) -> PyResult<()> {
    let sub = PyModule::new(py, "data")?;
    sub.setattr(
        "__doc__",
        "Real-valued features onto a class's ordered domain: public bounds and a number of \
         bins (discretize, Discretizer), values clipped, NaN refused; hypotheses learned on \
         the bins written back in the data's units (Discretizer.describe). The bounds must be \
         public (chosen without looking at the data) for a learner's guarantee to hold for \
         the raw values.",
    )?;
    sub.add_class::<Discretizer>()?;
    sub.add_function(wrap_pyfunction!(discretize, &sub)?)?;
    module.add_submodule(&sub)?;
    // `import privpac.data` looks in sys.modules (a native submodule is not a file).
    py.import("sys")?
        .getattr("modules")?
        .set_item("privpac.data", &sub)?;
    Ok(())
}
