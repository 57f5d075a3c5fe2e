//! Mechanism bindings: privacy parameters and guarantees, the exponential mechanism, discrete
//! Laplace, report-noisy-max, `A_dist` (stable selection), sparse vector, composition and
//! the accountant. Each class wraps the `dp-mechanisms` type of the same name and states the
//! guarantee it provides; every randomized method takes `seed=` (see `rng.rs`).

use dp_mechanisms::{ExponentialMechanism as RustExponential, Guarantee as RustGuarantee, Private};
use numpy::{PyArray1, prelude::*};
use pyo3::prelude::*;

use crate::arrays::f64_vector;
use crate::errors;
use crate::rng::rng;

/// A validated privacy guarantee (ε, δ): ε finite and > 0, δ in [0, 1). δ = 0 is pure ε-DP.
///
/// Raises InvalidParameterError for ε that is not finite and > 0 (NaN included) or δ
/// outside [0, 1).
#[pyclass(frozen, module = "privpac", name = "Privacy", eq, from_py_object)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Privacy {
    pub(crate) inner: dp_mechanisms::Privacy,
}

#[pymethods]
impl Privacy {
    #[new]
    #[pyo3(signature = (epsilon, delta = 0.0))]
    fn new(epsilon: f64, delta: f64) -> PyResult<Self> {
        let inner = dp_mechanisms::Privacy::new(epsilon, delta).map_err(errors::mechanisms)?;
        Ok(Privacy { inner })
    }

    /// ε.
    #[getter]
    fn epsilon(&self) -> f64 {
        self.inner.epsilon()
    }

    /// δ (0 for pure differential privacy).
    #[getter]
    fn delta(&self) -> f64 {
        self.inner.delta()
    }

    /// True when δ = 0.
    #[getter]
    fn is_pure(&self) -> bool {
        self.inner.is_pure()
    }

    fn __repr__(&self) -> String {
        format!(
            "Privacy(epsilon={}, delta={})",
            self.inner.epsilon(),
            self.inner.delta()
        )
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }
}

impl From<dp_mechanisms::Privacy> for Privacy {
    fn from(inner: dp_mechanisms::Privacy) -> Self {
        Privacy { inner }
    }
}

/// What an algorithm promises about its output, as reported by learners and sanitizers
/// (`dp_mechanisms::Guarantee`).
///
/// `kind` is one of:
/// - "differential-privacy": the whole output is (ε, δ)-DP (`epsilon`, `delta` set);
/// - "per-prediction": each prediction on one query point is ε-DP with respect to the
///   training sample; the model itself is not private (`epsilon` set);
/// - "uniform-stability": a prediction's probability changes by at most β when one training
///   example is replaced; not differential privacy (`beta` set);
/// - "none": no privacy guarantee (a non-private baseline).
///
/// Fields that do not apply to the kind are None.
#[pyclass(frozen, module = "privpac", name = "Guarantee", eq, from_py_object)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Guarantee {
    pub(crate) inner: RustGuarantee,
}

#[pymethods]
impl Guarantee {
    /// "differential-privacy", "per-prediction", "uniform-stability" or "none".
    #[getter]
    fn kind(&self) -> &'static str {
        match self.inner {
            RustGuarantee::DifferentialPrivacy(_) => "differential-privacy",
            RustGuarantee::PerPrediction { .. } => "per-prediction",
            RustGuarantee::UniformStability { .. } => "uniform-stability",
            _ => "none",
        }
    }

    /// ε of a differential-privacy or per-prediction guarantee, else None.
    #[getter]
    fn epsilon(&self) -> Option<f64> {
        match self.inner {
            RustGuarantee::DifferentialPrivacy(privacy) => Some(privacy.epsilon()),
            RustGuarantee::PerPrediction { epsilon } => Some(epsilon),
            _ => None,
        }
    }

    /// δ of a differential-privacy guarantee, else None.
    #[getter]
    fn delta(&self) -> Option<f64> {
        match self.inner {
            RustGuarantee::DifferentialPrivacy(privacy) => Some(privacy.delta()),
            _ => None,
        }
    }

    /// β of a uniform-stability guarantee, else None.
    #[getter]
    fn beta(&self) -> Option<f64> {
        match self.inner {
            RustGuarantee::UniformStability { beta } => Some(beta),
            _ => None,
        }
    }

    /// The (ε, δ) of a differential-privacy guarantee as a Privacy, else None.
    #[getter]
    fn privacy(&self) -> Option<Privacy> {
        match self.inner {
            RustGuarantee::DifferentialPrivacy(privacy) => Some(privacy.into()),
            _ => None,
        }
    }

    fn __repr__(&self) -> String {
        format!("Guarantee({:?})", self.inner.to_string())
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }
}

impl From<RustGuarantee> for Guarantee {
    fn from(inner: RustGuarantee) -> Self {
        Guarantee { inner }
    }
}

/// The exponential mechanism over a finite candidate list (McSherry–Talwar 2007;
/// Dwork–Roth Theorem 3.10): candidate i is chosen with probability proportional to
/// exp(ε·q_i / (2Δ)) for scores q_i (higher is better) of sensitivity Δ.
///
/// Guarantee: pure ε-differential privacy for the implementation. Sampling is exact in
/// proportion to the floating-point weights, and the proven rounding error of those weights
/// (η = 2e-12 per log-weight) is paid out of ε: the ideal mechanism runs at ε − 4η. Scores
/// more than 700/λ below the best are clamped (the exponential mechanism on clamped scores,
/// same sensitivity, same ε).
///
/// Args:
///     epsilon: ε, finite and at least 1e-9.
///     sensitivity: Δ, the most one individual can change any score (default 1).
///
/// Raises InvalidParameterError for a bad ε or Δ.
#[pyclass(frozen, module = "privpac", name = "ExponentialMechanism")]
#[derive(Debug)]
pub(crate) struct ExponentialMechanism {
    inner: RustExponential,
}

#[pymethods]
impl ExponentialMechanism {
    #[new]
    #[pyo3(signature = (epsilon, sensitivity = 1.0))]
    fn new(epsilon: f64, sensitivity: f64) -> PyResult<Self> {
        let privacy = dp_mechanisms::Privacy::pure(epsilon).map_err(errors::mechanisms)?;
        let inner = RustExponential::new(privacy, sensitivity).map_err(errors::mechanisms)?;
        Ok(ExponentialMechanism { inner })
    }

    /// Chooses a candidate index for the scores (a 1-D float64 numpy array is read in place,
    /// without a copy; other array-likes are converted once). The GIL is released while
    /// sampling. Same seed and scores as `privpac mech exponential --seed` give the same
    /// index.
    ///
    /// Raises BadInputError for an empty list or a non-finite score.
    #[pyo3(signature = (scores, *, seed = None))]
    fn select(
        &self,
        py: Python<'_>,
        scores: &Bound<'_, PyAny>,
        seed: Option<u64>,
    ) -> PyResult<usize> {
        let scores = f64_vector(scores, "scores")?;
        let mechanism = self.inner;
        let result = match scores.as_slice() {
            Ok(slice) => py.detach(|| mechanism.select(slice, &mut rng(seed))),
            Err(_) => {
                let owned = scores.as_array().to_vec();
                py.detach(|| mechanism.select(&owned, &mut rng(seed)))
            }
        };
        result.map_err(errors::mechanisms)
    }

    /// The exact output probabilities of `select` on the scores (of the ideal mechanism the
    /// sampler realizes up to a factor e^(±2η)), as a float64 array. Probabilities below
    /// about 1e-308 underflow to 0; use `log_probabilities` for those.
    fn probabilities<'py>(
        &self,
        py: Python<'py>,
        scores: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let scores = f64_vector(scores, "scores")?;
        let mechanism = self.inner;
        let owned;
        let slice = match scores.as_slice() {
            Ok(slice) => slice,
            Err(_) => {
                owned = scores.as_array().to_vec();
                &owned
            }
        };
        let result = py.detach(|| mechanism.probabilities(slice));
        Ok(result.map_err(errors::mechanisms)?.into_pyarray(py))
    }

    /// Natural logarithms of the output probabilities of `select`, as a float64 array.
    fn log_probabilities<'py>(
        &self,
        py: Python<'py>,
        scores: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let scores = f64_vector(scores, "scores")?;
        let mechanism = self.inner;
        let owned;
        let slice = match scores.as_slice() {
            Ok(slice) => slice,
            Err(_) => {
                owned = scores.as_array().to_vec();
                &owned
            }
        };
        let result = py.detach(|| mechanism.log_probabilities(slice));
        Ok(result.map_err(errors::mechanisms)?.into_pyarray(py))
    }

    /// The guarantee: pure ε-DP.
    #[getter]
    fn privacy(&self) -> Privacy {
        self.inner.privacy().into()
    }

    /// The score sensitivity Δ.
    #[getter]
    fn sensitivity(&self) -> f64 {
        self.inner.sensitivity()
    }

    fn __repr__(&self) -> String {
        format!(
            "ExponentialMechanism(epsilon={}, sensitivity={})",
            self.inner.privacy().epsilon(),
            self.inner.sensitivity()
        )
    }
}

/// Adds the mechanism bindings to the native module.
pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Privacy>()?;
    module.add_class::<Guarantee>()?;
    module.add_class::<ExponentialMechanism>()?;
    Ok(())
}
