//! Mechanism bindings: privacy parameters and guarantees, the exponential mechanism, discrete
//! Laplace, report-noisy-max, `A_dist` (stable selection), sparse vector, composition and
//! the accountant. Each class wraps the `privpac-mechanisms` type of the same name and states the
//! guarantee it provides; every randomized method takes `seed=` (see `rng.rs`).

use numpy::{PyArray1, prelude::*};
use privpac_accounting::{Guarantee as RustGuarantee, Private};
use privpac_mechanisms::ExponentialMechanism as RustExponential;
use pyo3::prelude::*;

use crate::arrays::{self, f64_vector, i64_scalar, i64_vector, slice};
use crate::errors;
use crate::rng::{Seed, rng};

/// A validated privacy guarantee (ε, δ): ε finite and > 0, δ in [0, 1). δ = 0 is pure ε-DP.
///
/// Raises InvalidParameterError for ε that is not finite and > 0 (NaN included) or δ
/// outside [0, 1).
#[pyclass(frozen, module = "privpac", name = "Privacy", eq, from_py_object)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Privacy {
    pub(crate) inner: privpac_accounting::Privacy,
}

#[pymethods]
impl Privacy {
    #[new]
    #[pyo3(signature = (epsilon, delta = 0.0))]
    fn new(epsilon: f64, delta: f64) -> PyResult<Self> {
        let inner = privpac_accounting::Privacy::new(epsilon, delta).map_err(errors::mechanisms)?;
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

impl From<privpac_accounting::Privacy> for Privacy {
    fn from(inner: privpac_accounting::Privacy) -> Self {
        Privacy { inner }
    }
}

/// What an algorithm promises about its output, as reported by learners and sanitizers
/// (`privpac_accounting::Guarantee`).
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
    /// Guarantee.per_prediction(epsilon): each prediction on one query point is ε-DP with
    /// respect to the training sample (the claim of a private-prediction learner, e.g. for
    /// `privpac.audit.audit_learner`).
    ///
    /// Raises InvalidParameterError unless ε is finite and positive.
    #[staticmethod]
    fn per_prediction(epsilon: f64) -> PyResult<Self> {
        RustGuarantee::per_prediction(epsilon)
            .map(|inner| Guarantee { inner })
            .map_err(errors::mechanisms)
    }

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
        let privacy = privpac_accounting::Privacy::pure(epsilon).map_err(errors::mechanisms)?;
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
        seed: Option<Seed>,
    ) -> PyResult<usize> {
        let scores = f64_vector(scores, "scores")?;
        let scores = slice(&scores);
        let mechanism = self.inner;
        py.detach(|| mechanism.select(&scores, &mut rng(seed)))
            .map_err(errors::mechanisms)
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
        let scores = slice(&scores);
        let mechanism = self.inner;
        let result = py.detach(|| mechanism.probabilities(&scores));
        Ok(result.map_err(errors::mechanisms)?.into_pyarray(py))
    }

    /// Natural logarithms of the output probabilities of `select`, as a float64 array.
    fn log_probabilities<'py>(
        &self,
        py: Python<'py>,
        scores: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let scores = f64_vector(scores, "scores")?;
        let scores = slice(&scores);
        let mechanism = self.inner;
        let result = py.detach(|| mechanism.log_probabilities(&scores));
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

/// A privacy guarantee given as a `Privacy` (whole-output (ε, δ)) or a `Guarantee`.
fn guarantee_arg(obj: &Bound<'_, PyAny>) -> PyResult<RustGuarantee> {
    if let Ok(privacy) = obj.cast::<Privacy>() {
        return Ok(RustGuarantee::DifferentialPrivacy(privacy.get().inner));
    }
    if let Ok(guarantee) = obj.cast::<Guarantee>() {
        return Ok(guarantee.get().inner);
    }
    Err(errors::invalid(format!(
        "expected a privpac.Privacy or privpac.Guarantee, got {}",
        obj.get_type().name()?
    )))
}

/// A list of `Privacy` values.
fn privacy_list(items: &Bound<'_, PyAny>) -> PyResult<Vec<privpac_accounting::Privacy>> {
    items
        .try_iter()?
        .map(|item| {
            let item = item?;
            item.cast::<Privacy>()
                .map(|p| p.get().inner)
                .map_err(|_| errors::invalid("expected a sequence of privpac.Privacy"))
        })
        .collect()
}

/// Exact discrete Laplace noise Lap_Z(b): Pr[k] ∝ exp(−|k|/b) on the integers, sampled
/// exactly from random bits (Canonne–Kamath–Steinke 2020, Algorithm 2), so guarantees built
/// on it hold for the implementation. The float scale is read as the exact dyadic rational
/// it stores.
///
/// Raises InvalidParameterError unless 0 < b ≤ 2^40.
#[pyclass(frozen, module = "privpac", name = "DiscreteLaplace")]
#[derive(Debug)]
pub(crate) struct DiscreteLaplace {
    inner: privpac_mechanisms::DiscreteLaplace,
    /// The table sampler `sample` draws from, built on its first call.
    table: std::sync::OnceLock<privpac_mechanisms::DiscreteLaplaceTable>,
}

#[pymethods]
impl DiscreteLaplace {
    #[new]
    fn new(scale: f64) -> PyResult<Self> {
        let inner = privpac_mechanisms::DiscreteLaplace::new(scale).map_err(errors::mechanisms)?;
        Ok(DiscreteLaplace::from(inner))
    }

    /// The scale b.
    #[getter]
    fn scale(&self) -> f64 {
        self.inner.scale()
    }

    /// Pr[X = k].
    fn pmf(&self, k: i64) -> f64 {
        self.inner.pmf(k)
    }

    /// `size` independent draws as an int64 array, from the exact table sampler (one 64-bit
    /// word per draw; the table is built on the first call, about 0.2 ms at scale 10), with
    /// the GIL released. `size` is limited to 10^8.
    #[pyo3(signature = (size, *, seed = None))]
    fn sample<'py>(
        &self,
        py: Python<'py>,
        size: usize,
        seed: Option<Seed>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        check_size("size", size, MAX_DRAWS)?;
        let draws = py.detach(|| {
            let table = self
                .table
                .get_or_init(|| privpac_mechanisms::DiscreteLaplaceTable::new(self.inner));
            let mut out = vec![0i64; size];
            table.fill(&mut out, &mut rng(seed));
            out
        });
        Ok(draws.into_pyarray(py))
    }

    fn __repr__(&self) -> String {
        format!("DiscreteLaplace(scale={})", self.inner.scale())
    }
}

impl From<privpac_mechanisms::DiscreteLaplace> for DiscreteLaplace {
    fn from(inner: privpac_mechanisms::DiscreteLaplace) -> Self {
        DiscreteLaplace {
            inner,
            table: std::sync::OnceLock::new(),
        }
    }
}

/// The largest number of draws or releases one call makes.
const MAX_DRAWS: usize = 100_000_000;

fn check_size(name: &str, value: usize, limit: usize) -> PyResult<()> {
    if value > limit {
        return Err(errors::raise(
            errors::Kind::TooLarge,
            format!("{name} is {value}, above the limit of {limit}"),
        ));
    }
    Ok(())
}

/// The discrete Laplace mechanism for integer queries: releases value + Lap_Z(Δ/ε).
///
/// Guarantee: pure ε-DP for one release of a query of integer sensitivity Δ (Dwork–Roth
/// Theorem 3.6 with the integer noise of Canonne–Kamath–Steinke 2020, Theorem 2.1 there);
/// the noise is exact.
///
/// Raises InvalidParameterError for a bad ε or Δ = 0.
#[pyclass(frozen, module = "privpac", name = "DiscreteLaplaceMechanism")]
#[derive(Debug)]
pub(crate) struct DiscreteLaplaceMechanism {
    inner: privpac_mechanisms::DiscreteLaplaceMechanism,
}

#[pymethods]
impl DiscreteLaplaceMechanism {
    #[new]
    #[pyo3(signature = (epsilon, sensitivity = 1))]
    fn new(epsilon: f64, sensitivity: u64) -> PyResult<Self> {
        let privacy = privpac_accounting::Privacy::pure(epsilon).map_err(errors::mechanisms)?;
        let inner = privpac_mechanisms::DiscreteLaplaceMechanism::new(privacy, sensitivity)
            .map_err(errors::mechanisms)?;
        Ok(DiscreteLaplaceMechanism { inner })
    }

    /// Releases `value + Lap_Z(Δ/ε)` for an int, or for each entry of a 1-D integer array
    /// (an int64 array back; the draws come one after another from one generator, so
    /// `release(np.full(n, v), seed=s)` equals `privpac mech laplace --discrete --value v
    /// --count n --seed s`). Each release is ε-DP; n releases about the same data are
    /// nε-DP together (basic composition).
    ///
    /// Values are read exactly (as every array argument; see `help(privpac)`): an integral float such as
    /// 2.0 is the integer 2, but 2.9, NaN, ±∞ or an integer outside int64 raises
    /// BadInputError naming `value` (never a truncated or wrapped value plus noise).
    /// Raises TooLargeError if a noisy answer overflows int64.
    #[pyo3(signature = (value, *, seed = None))]
    fn release<'py>(
        &self,
        py: Python<'py>,
        value: &Bound<'py, PyAny>,
        seed: Option<Seed>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mechanism = self.inner;
        if let Some(single) = arrays::scalar(value)? {
            let single = i64_scalar(&single, "value")?;
            let released = mechanism
                .release(single, &mut rng(seed))
                .map_err(errors::mechanisms)?;
            return Ok(released.into_pyobject(py)?.into_any());
        }
        let values = i64_vector(value, "value")?;
        check_size("the number of values", values.len(), MAX_DRAWS)?;
        let values = slice(&values);
        let released = py
            .detach(|| {
                let mut generator = rng(seed);
                values
                    .iter()
                    .map(|&v| mechanism.release(v, &mut generator))
                    .collect::<Result<Vec<i64>, _>>()
            })
            .map_err(errors::mechanisms)?;
        Ok(released.into_pyarray(py).into_any())
    }

    /// The guarantee of one release: pure ε-DP.
    #[getter]
    fn privacy(&self) -> Privacy {
        self.inner.privacy().into()
    }

    /// The noise distribution Lap_Z(Δ/ε).
    #[getter]
    fn noise(&self) -> DiscreteLaplace {
        DiscreteLaplace::from(self.inner.noise())
    }
}

/// Report-noisy-max over integer scores: adds independent Lap_Z(2Δ/ε) to every score and
/// returns the index of the largest noisy score (lowest index among ties).
///
/// Guarantee: pure ε-DP for integer scores of sensitivity Δ, monotone or not (the argument
/// of Dwork–Roth Claim 3.9 adapted to integer noise); the noise is exact.
#[pyclass(frozen, module = "privpac", name = "ReportNoisyMax")]
#[derive(Debug)]
pub(crate) struct ReportNoisyMax {
    inner: privpac_mechanisms::ReportNoisyMax,
}

#[pymethods]
impl ReportNoisyMax {
    #[new]
    #[pyo3(signature = (epsilon, sensitivity = 1))]
    fn new(epsilon: f64, sensitivity: u64) -> PyResult<Self> {
        let privacy = privpac_accounting::Privacy::pure(epsilon).map_err(errors::mechanisms)?;
        let inner = privpac_mechanisms::ReportNoisyMax::new(privacy, sensitivity)
            .map_err(errors::mechanisms)?;
        Ok(ReportNoisyMax { inner })
    }

    /// The chosen index for a 1-D integer score array (read in place when int64; GIL
    /// released). Raises BadInputError for no candidates.
    #[pyo3(signature = (scores, *, seed = None))]
    fn select(
        &self,
        py: Python<'_>,
        scores: &Bound<'_, PyAny>,
        seed: Option<Seed>,
    ) -> PyResult<usize> {
        let scores = i64_vector(scores, "scores")?;
        let scores = slice(&scores);
        let mechanism = self.inner;
        py.detach(|| mechanism.select(&scores, &mut rng(seed)))
            .map_err(errors::mechanisms)
    }

    /// The guarantee: pure ε-DP.
    #[getter]
    fn privacy(&self) -> Privacy {
        self.inner.privacy().into()
    }
}

/// A_dist, stability-based selection (Smith–Thakurta 2013; Algorithm 3 of
/// Bun–Nissim–Stemmer, "Simultaneous private learning of multiple concepts", ITCS 2016):
/// releases the best candidate f1 when its gap over the runner-up plus Lap_Z(2Δ/ε) reaches
/// τ = 2Δ + ⌈b·ln(1/δ)⌉ + 1, and None (⊥) otherwise.
///
/// Guarantee: (ε, δ)-DP for integer scores of sensitivity Δ. The noise is calibrated to the
/// gap's sensitivity 2Δ; Algorithm 3 as printed (Lap(1/ε)) is only about (2ε, e^{2ε}δ/2)-DP.
/// Utility: if the gap is at least τ + b·ln(1/β), f1 is released with probability ≥ 1 − β.
///
/// Raises InvalidParameterError for δ = 0 (A_dist needs δ > 0) or Δ = 0.
#[pyclass(frozen, module = "privpac", name = "StableSelection")]
#[derive(Debug)]
pub(crate) struct StableSelection {
    inner: privpac_mechanisms::StableSelection,
}

#[pymethods]
impl StableSelection {
    #[new]
    #[pyo3(signature = (epsilon, delta, sensitivity = 1))]
    fn new(epsilon: f64, delta: f64, sensitivity: u64) -> PyResult<Self> {
        let privacy =
            privpac_accounting::Privacy::new(epsilon, delta).map_err(errors::mechanisms)?;
        let inner = privpac_mechanisms::StableSelection::new(privacy, sensitivity)
            .map_err(errors::mechanisms)?;
        Ok(StableSelection { inner })
    }

    /// The best index, or None (⊥) when the noisy gap is below τ. Raises BadInputError
    /// for fewer than two candidates.
    #[pyo3(signature = (scores, *, seed = None))]
    fn select(
        &self,
        py: Python<'_>,
        scores: &Bound<'_, PyAny>,
        seed: Option<Seed>,
    ) -> PyResult<Option<usize>> {
        let scores = i64_vector(scores, "scores")?;
        let scores = slice(&scores);
        let mechanism = self.inner;
        let outcome = py
            .detach(|| mechanism.select(&scores, &mut rng(seed)))
            .map_err(errors::mechanisms)?;
        Ok(match outcome {
            privpac_mechanisms::StableSelectionOutcome::Selected(index) => Some(index),
            _ => None,
        })
    }

    /// The exact output distribution over [candidate 0, …, candidate N−1, ⊥] as a float64
    /// array of length N + 1.
    fn output_distribution<'py>(
        &self,
        py: Python<'py>,
        scores: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let scores = i64_vector(scores, "scores")?;
        let distribution = self
            .inner
            .output_distribution(&slice(&scores))
            .map_err(errors::mechanisms)?;
        Ok(distribution.into_pyarray(py))
    }

    /// The threshold τ the noisy gap must reach.
    #[getter]
    fn threshold(&self) -> i64 {
        self.inner.threshold()
    }

    /// The guarantee: (ε, δ)-DP.
    #[getter]
    fn privacy(&self) -> Privacy {
        self.inner.privacy().into()
    }
}

/// The sparse vector technique (Dwork–Roth Algorithms 1 and 2): answers a stream of integer
/// queries of sensitivity Δ with above (True) or below (False) a public threshold T,
/// halting after `max_above` above answers. Each round is AboveThreshold with budget ε₀:
/// noisy threshold T + Lap_Z(2Δ/ε₀), queries q + Lap_Z(4Δ/ε₀).
///
/// Guarantee: (ε, δ)-DP for the whole stream. One round is ε₀-DP however many below
/// answers it gives (Dwork–Roth Theorem 3.23); the rounds compose with ε₀ = ε/c (basic,
/// δ = 0) or the larger ε₀ of advanced composition (δ > 0), rounded so the composition fits
/// ε. The instance keeps its own generator, seeded once from `seed` at construction.
///
/// Raises InvalidParameterError for Δ = 0 or max_above = 0; `query` raises PrivpacError once
/// the above answers are spent.
#[pyclass(module = "privpac", name = "SparseVector")]
#[derive(Debug)]
pub(crate) struct SparseVector {
    inner: privpac_mechanisms::SparseVector,
    rng: rand_chacha::ChaCha8Rng,
}

#[pymethods]
impl SparseVector {
    #[new]
    #[pyo3(signature = (epsilon, threshold, *, delta = 0.0, sensitivity = 1, max_above = 1, seed = None))]
    fn new(
        epsilon: f64,
        threshold: i64,
        delta: f64,
        sensitivity: u64,
        max_above: u64,
        seed: Option<Seed>,
    ) -> PyResult<Self> {
        let privacy =
            privpac_accounting::Privacy::new(epsilon, delta).map_err(errors::mechanisms)?;
        let mut generator = rng(seed);
        let inner = privpac_mechanisms::SparseVector::new(
            privacy,
            sensitivity,
            threshold,
            max_above,
            &mut generator,
        )
        .map_err(errors::mechanisms)?;
        Ok(SparseVector {
            inner,
            rng: generator,
        })
    }

    /// True if the noisy answer is at or above the noisy threshold.
    fn query(&mut self, answer: i64) -> PyResult<bool> {
        self.inner
            .query(answer, &mut self.rng)
            .map_err(errors::mechanisms)
    }

    /// How many above answers remain.
    #[getter]
    fn remaining(&self) -> u64 {
        self.inner.remaining()
    }

    /// The guarantee of the whole stream.
    #[getter]
    fn privacy(&self) -> Privacy {
        self.inner.privacy().into()
    }
}

/// Basic composition: running mechanisms with guarantees (ε_i, δ_i), adaptively, is
/// (Σε_i, Σδ_i)-DP (Dwork–Roth Theorem 3.16; Theorem B.1 for the adaptive form). Rounded
/// up, never down. Raises InvalidParameterError for an empty list or Σδ ≥ 1.
#[pyfunction]
fn basic_composition(guarantees: &Bound<'_, PyAny>) -> PyResult<Privacy> {
    let list = privacy_list(guarantees)?;
    privpac_accounting::basic_composition(&list)
        .map(Privacy::from)
        .map_err(errors::mechanisms)
}

/// Advanced composition of m runs of an (ε, δ)-DP mechanism: (ε', mδ + δ')-DP for
/// 0 < δ' < 1, with ε' = √(2m ln(1/δ'))·ε + 2mε² for ε ≤ 1 (the form of Bun–Nissim–Stemmer
/// Theorem 2.16 and Dwork–Rothblum–Vadhan 2010) and ε' = √(2m ln(1/δ'))·ε + mε(e^ε − 1)
/// for ε > 1 (Dwork–Roth Theorem 3.20). For ε ≤ 1 the 2mε² term is at least the
/// Dwork–Roth mε(e^ε − 1) (e^ε − 1 ≤ 2ε there), so the result is valid but looser than
/// Theorem 3.20 by up to mε² (about 2× in the second term for small ε);
/// `heterogeneous_advanced_composition([each] * m, delta_prime)` gives the sharper
/// mε(e^ε − 1) form. Rounded up, never down. Raises InvalidParameterError for m = 0 or
/// δ' outside (0, 1), and when mδ + δ' ≥ 1.
#[pyfunction]
fn advanced_composition(each: &Privacy, m: u64, delta_prime: f64) -> PyResult<Privacy> {
    privpac_accounting::advanced_composition(each.inner, m, delta_prime)
        .map(Privacy::from)
        .map_err(errors::mechanisms)
}

/// Optimal composition of k runs of an (ε, δ)-DP mechanism (Kairouz–Oh–Viswanath 2015,
/// Theorem 3.3): the smallest ε' with hockey-stick divergence at most delta_prime between
/// k randomized responses, giving (ε', 1 − (1 − δ)^k(1 − δ'))-DP. Exact up to a relative
/// 1e-6 margin, always rounded up; k up to 10^7. Raises InvalidParameterError for k = 0,
/// k above 10^7, or delta_prime outside [0, 1).
#[pyfunction]
fn optimal_composition(each: &Privacy, k: u64, delta_prime: f64) -> PyResult<Privacy> {
    privpac_accounting::optimal_composition(each.inner, k, delta_prime)
        .map(Privacy::from)
        .map_err(errors::mechanisms)
}

/// The δ of k-fold composition of an (ε, δ)-DP mechanism at ε' (Kairouz–Oh–Viswanath
/// 2015, Theorem 3.3, for every ε' ≥ 0): exact up to a relative 1e-6, rounded up.
#[pyfunction]
fn optimal_composition_delta(each: &Privacy, k: u64, epsilon_prime: f64) -> PyResult<f64> {
    privpac_accounting::optimal_composition_delta(each.inner, k, epsilon_prime)
        .map_err(errors::mechanisms)
}

/// Advanced composition of different guarantees (ε_i, δ_i): (√(2 ln(1/δ') Σε_i²) +
/// Σε_i(e^{ε_i} − 1), Σδ_i + δ')-DP (Kairouz–Oh–Viswanath 2015, Theorem 3.5, in the
/// Dwork–Roth form). Rounded up, never down.
#[pyfunction]
fn heterogeneous_advanced_composition(
    guarantees: &Bound<'_, PyAny>,
    delta_prime: f64,
) -> PyResult<Privacy> {
    let list = privacy_list(guarantees)?;
    privpac_accounting::heterogeneous_advanced_composition(&list, delta_prime)
        .map(Privacy::from)
        .map_err(errors::mechanisms)
}

/// Group privacy: an (ε, δ)-DP mechanism is (kε, k·e^{(k−1)ε}·δ)-DP for datasets that
/// differ in at most k rows (Dwork–Roth Theorem 2.2 for δ = 0; Vadhan, "The Complexity of
/// Differential Privacy", Lemma 2.2 for δ > 0). Rounded up, never down.
#[pyfunction]
fn group_privacy(each: &Privacy, k: u64) -> PyResult<Privacy> {
    privpac_accounting::group_privacy(each.inner, k)
        .map(Privacy::from)
        .map_err(errors::mechanisms)
}

/// Amplification by subsampling: an (ε, δ)-DP mechanism run on a subsample is
/// (ln(1 + q(e^ε − 1)), qδ)-DP (Balle–Barthe–Gaboardi, NeurIPS 2018: Theorem 8 for Poisson
/// subsampling with rate q, add/remove neighbours; Theorem 9 for sampling m of n rows
/// without replacement, q = m/n, substitution neighbours). Give either `rate` or both
/// `sample_size` and `population_size`. Rounded up, never down.
#[pyfunction]
#[pyo3(signature = (each, *, rate = None, sample_size = None, population_size = None))]
fn amplification_by_subsampling(
    each: &Privacy,
    rate: Option<f64>,
    sample_size: Option<u64>,
    population_size: Option<u64>,
) -> PyResult<Privacy> {
    let sampling = match (rate, sample_size, population_size) {
        (Some(rate), None, None) => privpac_accounting::Subsampling::Poisson { rate },
        (None, Some(sample_size), Some(population_size)) => {
            privpac_accounting::Subsampling::WithoutReplacement {
                sample_size,
                population_size,
            }
        }
        _ => {
            return Err(errors::invalid(
                "give either rate= (Poisson) or both sample_size= and population_size=",
            ));
        }
    };
    privpac_accounting::amplification_by_subsampling(each.inner, sampling)
        .map(Privacy::from)
        .map_err(errors::mechanisms)
}

/// Secrecy of the sample (Bun–Nissim–Stemmer, "Simultaneous private learning of multiple
/// concepts", Lemma 2.25 with the ratio as it holds): an (ε, δ)-DP algorithm on n =
/// `inner_size` rows drawn with replacement from m = `outer_size` ≥ 2n rows, ε ≤ 1, is
/// (6εn/m, 4·exp(6εn/m)·(n/m)·δ)-DP. Rounded up, never down.
#[pyfunction]
fn secrecy_of_the_sample(each: &Privacy, inner_size: u64, outer_size: u64) -> PyResult<Privacy> {
    privpac_accounting::secrecy_of_the_sample(each.inner, inner_size, outer_size)
        .map(Privacy::from)
        .map_err(errors::mechanisms)
}

/// A privacy accountant: record the guarantees of (possibly adaptive) runs on the same
/// dataset, then ask for the total under basic, advanced or the better of the two rules.
/// Per-prediction guarantees count as one ε-DP release each; a total over an entry without
/// an (ε, δ) guarantee (uniform stability, none) raises InvalidParameterError naming it.
#[pyclass(module = "privpac", name = "Accountant")]
#[derive(Debug, Default)]
pub(crate) struct Accountant {
    inner: privpac_accounting::Accountant,
}

#[pymethods]
impl Accountant {
    #[new]
    fn new() -> Self {
        Accountant::default()
    }

    /// Records a run with a label and its guarantee (a Privacy or a Guarantee).
    fn record(&mut self, label: String, guarantee: &Bound<'_, PyAny>) -> PyResult<()> {
        let guarantee = guarantee_arg(guarantee)?;
        self.inner.record(label, guarantee);
        Ok(())
    }

    /// Records a run of an (ε, δ)-DP mechanism on a Poisson subsample that keeps each row
    /// with probability `rate` (neighbours: add or remove one row). Basic, advanced and
    /// optimal composition see its amplified guarantee (Balle–Barthe–Gaboardi Theorem 8);
    /// the "pld" rule composes its own subsampled pair (Zhu–Dong–Wang), in both
    /// directions.
    fn record_subsampled(&mut self, label: String, guarantee: &Privacy, rate: f64) -> PyResult<()> {
        self.record_step(
            label,
            privpac_accounting::PldStep::private(guarantee.inner).poisson_subsampled(rate),
        )
    }

    /// Records a run of the discrete Laplace mechanism with scale `scale` on an integer
    /// query of sensitivity `sensitivity` (ε = sensitivity/scale), optionally on a Poisson
    /// subsample of rate `rate`; the "pld" rule composes its exact loss distribution.
    #[pyo3(signature = (label, scale, sensitivity = 1, *, rate = 1.0))]
    fn record_discrete_laplace(
        &mut self,
        label: String,
        scale: f64,
        sensitivity: u64,
        rate: f64,
    ) -> PyResult<()> {
        self.record_step(
            label,
            privpac_accounting::PldStep::discrete_laplace(scale, sensitivity)
                .and_then(|step| step.poisson_subsampled(rate)),
        )
    }

    /// Records a run of an ε-bounded-range mechanism (its privacy loss at any neighbouring
    /// inputs spans an interval of width ε), such as the exponential mechanism at privacy ε,
    /// optionally on a Poisson subsample of rate `rate`. The "pld" rule composes the pair
    /// that dominates every such mechanism (tighter than the ε-DP pair); the other rules see
    /// ε-DP (amplified when subsampled).
    #[pyo3(signature = (label, epsilon, *, rate = 1.0))]
    fn record_bounded_range(&mut self, label: String, epsilon: f64, rate: f64) -> PyResult<()> {
        self.record_step(
            label,
            privpac_accounting::PldStep::bounded_range(epsilon)
                .and_then(|step| step.poisson_subsampled(rate)),
        )
    }

    /// The recorded runs as a list of (label, Guarantee).
    fn entries(&self) -> Vec<(String, Guarantee)> {
        self.inner
            .entries()
            .iter()
            .map(|e| (e.label.clone(), e.guarantee.into()))
            .collect()
    }

    /// The total guarantee: rule "basic" (Dwork–Roth Theorem 3.16), "advanced"
    /// (Kairouz–Oh–Viswanath Theorem 3.5, needs delta_prime), "optimal" (Kairouz–Oh–
    /// Viswanath Theorem 3.3, the exact region; every run must have the same guarantee;
    /// needs delta_prime), "pld" (privacy loss distribution: the rigorous upper bound of
    /// `pld_bounds`, within `epsilon_error` of a rigorous lower bound, default
    /// max(0.01, 1% of ε); needs delta_prime) or "best" (the smallest ε of those that apply;
    /// needs delta_prime). delta_prime = 0 asks the pure question (advanced composition
    /// then does not apply); an exact ε of 0 is reported as the smallest positive float.
    /// Rounded up, never down.
    #[pyo3(signature = (rule = "basic", *, delta_prime = None, epsilon_error = None))]
    fn total(
        &self,
        py: Python<'_>,
        rule: &str,
        delta_prime: Option<f64>,
        epsilon_error: Option<f64>,
    ) -> PyResult<Privacy> {
        if let ("pld", Some(delta_prime)) = (rule, delta_prime) {
            // The accountant's PLD rule is the upper end of these bounds; here it also warns
            // when they miss the accuracy (asked for, or the default).
            let bounds = self
                .inner
                .pld_bounds(delta_prime, epsilon_error)
                .map_err(errors::mechanisms)?;
            warn_if_inaccurate(py, &bounds, epsilon_error)?;
            return bounds
                .privacy()
                .map(Privacy::from)
                .map_err(errors::mechanisms);
        }
        if epsilon_error.is_some() && rule != "pld" {
            return Err(errors::invalid(format!(
                "epsilon_error applies to rule \"pld\" only, not {rule:?}"
            )));
        }
        let rule = match (rule, delta_prime) {
            ("basic", None) => privpac_accounting::CompositionRule::Basic,
            ("advanced", Some(delta_prime)) => {
                privpac_accounting::CompositionRule::Advanced { delta_prime }
            }
            ("optimal", Some(delta_prime)) => {
                privpac_accounting::CompositionRule::Optimal { delta_prime }
            }
            ("best", Some(delta_prime)) => {
                privpac_accounting::CompositionRule::Best { delta_prime }
            }
            ("basic", Some(_)) => {
                return Err(errors::invalid("rule \"basic\" takes no delta_prime"));
            }
            ("advanced" | "optimal" | "pld" | "best", None) => {
                return Err(errors::invalid(format!("rule {rule:?} needs delta_prime")));
            }
            _ => {
                return Err(errors::invalid(format!(
                    "unknown composition rule {rule:?} (expected basic, advanced, optimal, pld or best)"
                )));
            }
        };
        self.inner
            .total(rule)
            .map(Privacy::from)
            .map_err(errors::mechanisms)
    }

    /// Rigorous bounds on the ε of the recorded runs' composed dominating pairs at
    /// δ = 1 − Π(1 − δ_i)(1 − delta_prime), with upper − lower ≤ epsilon_error (default
    /// max(0.01, 1% of ε)): a dict with "lower", "estimate", "upper" (what rule "pld"
    /// reports), "delta", "interval" (the grid step used), "epsilon_error" (the accuracy
    /// asked for, or the default) and "lower_applies_to_mechanisms" (False when a recorded
    /// step is bounded-range: its envelope pair, which no bounded-range mechanism attains,
    /// gives the lower end, so only the upper end bounds the mechanisms). delta_prime = 0 is
    /// answered (the steps' largest losses summed; "interval" is then 0). If the bounds
    /// cannot reach epsilon_error, the tightest reached are returned with a RuntimeWarning
    /// naming what limited them (the upper bound is still a valid guarantee); so does
    /// `total("pld", epsilon_error=…)`.
    #[pyo3(signature = (delta_prime, *, epsilon_error = None))]
    fn pld_bounds<'py>(
        &self,
        py: Python<'py>,
        delta_prime: f64,
        epsilon_error: Option<f64>,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let bounds = self
            .inner
            .pld_bounds(delta_prime, epsilon_error)
            .map_err(errors::mechanisms)?;
        let wanted = warn_if_inaccurate(py, &bounds, epsilon_error)?;
        let dict = pyo3::types::PyDict::new(py);
        dict.set_item("lower", bounds.lower)?;
        dict.set_item("estimate", bounds.estimate)?;
        dict.set_item("upper", bounds.upper)?;
        dict.set_item("delta", bounds.delta)?;
        dict.set_item("interval", bounds.interval)?;
        dict.set_item("epsilon_error", wanted)?;
        dict.set_item(
            "lower_applies_to_mechanisms",
            bounds.lower_applies_to_mechanisms,
        )?;
        Ok(dict)
    }

    fn __len__(&self) -> usize {
        self.inner.entries().len()
    }
}

/// Warns (`RuntimeWarning`) when PLD bounds are further apart than the accuracy asked for
/// (`None`: the default of their lower end), and returns that accuracy.
fn warn_if_inaccurate(
    py: Python<'_>,
    bounds: &privpac_accounting::PldBounds,
    epsilon_error: Option<f64>,
) -> PyResult<f64> {
    let wanted =
        epsilon_error.unwrap_or_else(|| privpac_accounting::default_epsilon_error(bounds.lower));
    if bounds.gap() > wanted {
        let cause = bounds.limited_by.map_or_else(
            || "the finest grid that fits in memory was reached".to_string(),
            |limit| limit.to_string(),
        );
        let message = std::ffi::CString::new(format!(
            "PLD bounds: upper - lower = {:.3e} is above the accuracy asked for ({wanted:.3e}): \
             {cause} (the upper bound is still a valid guarantee)",
            bounds.gap()
        ))
        .unwrap_or_default();
        let category = py.get_type::<pyo3::exceptions::PyRuntimeWarning>();
        PyErr::warn(py, category.as_any(), &message, 1)?;
    }
    Ok(wanted)
}

impl Accountant {
    /// Records a step built by one of the `record_*` methods, or raises its error.
    fn record_step(
        &mut self,
        label: String,
        step: privpac_accounting::Result<privpac_accounting::PldStep>,
    ) -> PyResult<()> {
        step.and_then(|step| self.inner.record_step(label, step))
            .map_err(errors::mechanisms)
    }
}

/// Adds the mechanism bindings to the native module.
pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Privacy>()?;
    module.add_class::<Guarantee>()?;
    module.add_class::<ExponentialMechanism>()?;
    module.add_class::<DiscreteLaplace>()?;
    module.add_class::<DiscreteLaplaceMechanism>()?;
    module.add_class::<ReportNoisyMax>()?;
    module.add_class::<StableSelection>()?;
    module.add_class::<SparseVector>()?;
    module.add_class::<Accountant>()?;
    module.add_function(wrap_pyfunction!(basic_composition, module)?)?;
    module.add_function(wrap_pyfunction!(advanced_composition, module)?)?;
    module.add_function(wrap_pyfunction!(optimal_composition, module)?)?;
    module.add_function(wrap_pyfunction!(optimal_composition_delta, module)?)?;
    module.add_function(wrap_pyfunction!(
        heterogeneous_advanced_composition,
        module
    )?)?;
    module.add_function(wrap_pyfunction!(group_privacy, module)?)?;
    module.add_function(wrap_pyfunction!(amplification_by_subsampling, module)?)?;
    module.add_function(wrap_pyfunction!(secrecy_of_the_sample, module)?)?;
    Ok(())
}
