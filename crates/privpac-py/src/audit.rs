//! `privpac.audit`: the black-box auditor for Python mechanisms (vectorized: one call
//! draws many runs), for Python learners (`audit_learner`: one call per run on
//! neighbouring samples, the concept id as the finite output, through the same
//! `audit_finite_batched`), the built-in zoo, and StatDP's neighbour patterns.

use std::sync::Mutex;

use privpac_audit::black_box::{
    BlackBoxConfig, StatisticalAudit, audit_finite_batched, audit_real_batched,
    statdp_patterns as rust_statdp_patterns,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::arrays::{bool_vector, f64_vector_with_non_finite, i64_vector, slice, u64_vector};
use crate::errors::{self, Kind, bad_input, invalid, raise};
use crate::predictions::predictions;
use crate::python_learner::{PythonLearner, Returned};
use crate::rng::Seed;

/// The result of an audit: a lower bound on ε that holds with the stated confidence.
#[pyclass(frozen, module = "privpac.audit", name = "Audit")]
#[derive(Debug)]
pub(crate) struct Audit {
    inner: StatisticalAudit,
}

#[pymethods]
impl Audit {
    /// The certified lower bound on ε at δ (the largest over the certified pairs; 0 when
    /// nothing is certified).
    #[getter]
    fn epsilon_lower_bound(&self) -> f64 {
        self.inner.epsilon_lower_bound
    }

    /// The probability that every reported bound holds.
    #[getter]
    fn confidence(&self) -> f64 {
        self.inner.confidence
    }

    /// The δ at which ε is bounded.
    #[getter]
    fn delta(&self) -> f64 {
        self.inner.delta
    }

    /// Certification runs per input of each certified pair.
    #[getter]
    fn runs(&self) -> u64 {
        self.inner.runs
    }

    /// Selection runs per input of each finalist pair.
    #[getter]
    fn selection_runs(&self) -> u64 {
        self.inner.selection_runs
    }

    /// Screening runs per input of each pair (0 when there was no screening).
    #[getter]
    fn screening_runs(&self) -> u64 {
        self.inner.screening_runs
    }

    /// All runs of the mechanism the audit made.
    #[getter]
    fn total_runs(&self) -> u64 {
        self.inner.total_runs
    }

    /// The certified pairs: dicts with "pair" (index into `pairs`), "swapped", "event" (a
    /// description), "hits_large", "hits_small", "large_lower", "small_upper",
    /// "epsilon_lower_bound".
    #[getter]
    fn pairs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for pair in &self.inner.pairs {
            let entry = PyDict::new(py);
            entry.set_item("pair", pair.pair)?;
            entry.set_item("swapped", pair.swapped)?;
            entry.set_item("event", pair.event.to_string())?;
            entry.set_item("hits_large", pair.hits_large)?;
            entry.set_item("hits_small", pair.hits_small)?;
            entry.set_item("large_lower", pair.large_lower)?;
            entry.set_item("small_upper", pair.small_upper)?;
            entry.set_item("epsilon_lower_bound", pair.epsilon_lower_bound)?;
            list.append(entry)?;
        }
        Ok(list)
    }

    /// Whether the audit refutes a claim of ε-DP (at the audit's δ): its certified lower
    /// bound exceeds `epsilon`.
    fn refutes(&self, epsilon: f64) -> bool {
        self.inner.refutes(epsilon)
    }

    /// The certified lower bound on δ at `epsilon`.
    fn delta_lower_bound(&self, epsilon: f64) -> f64 {
        self.inner.delta_lower_bound(epsilon)
    }

    fn __repr__(&self) -> String {
        format!(
            "Audit(epsilon_lower_bound={}, confidence={}, delta={}, runs={})",
            self.inner.epsilon_lower_bound,
            self.inner.confidence,
            self.inner.delta,
            self.inner.runs
        )
    }
}

#[allow(
    clippy::too_many_arguments,
    reason = "one argument per keyword of the binding"
)]
fn config(
    runs: u64,
    confidence: f64,
    delta: f64,
    seed: Seed,
    selection_runs: Option<u64>,
    screening_runs: Option<u64>,
    certified_pairs: usize,
) -> PyResult<BlackBoxConfig> {
    let audit_error = |e: privpac_audit::Error| raise(Kind::InvalidParameter, e);
    let mut config = BlackBoxConfig::new(runs, confidence, seed.0)
        .and_then(|c| c.with_delta(delta))
        .and_then(|c| c.with_certified_pairs(certified_pairs))
        .map_err(audit_error)?;
    if let Some(runs) = selection_runs {
        config = config.with_selection_runs(runs).map_err(audit_error)?;
    }
    if let Some(runs) = screening_runs {
        config = config.with_screening_runs(runs).map_err(audit_error)?;
    }
    Ok(config)
}

/// Calls `mechanism(input, n, seed)` under the GIL and converts its result, recording the
/// first Python exception so that it can be chained to the error the audit raises.
fn call<T>(
    mechanism: &Py<PyAny>,
    input: &Py<PyAny>,
    n: u64,
    seed: u64,
    first: &Mutex<Option<PyErr>>,
    convert: impl Fn(&Bound<'_, PyAny>, u64) -> PyResult<Vec<T>>,
) -> Result<Vec<T>, String> {
    Python::attach(|py| {
        let outcome = mechanism
            .bind(py)
            .call1((input.bind(py), n, seed))
            .and_then(|out| convert(&out, n));
        outcome.map_err(|error| {
            let message = error.to_string();
            if let Ok(mut slot) = first.lock() {
                slot.get_or_insert(error);
            }
            message
        })
    })
}

/// Integer outputs: a 1-D array (or sequence) of n integers in int64 (a uint64 above
/// 2^63 − 1 is refused, not wrapped onto a negative output); negative values are mapped
/// one to one onto codes.
fn integers(out: &Bound<'_, PyAny>, n: u64) -> PyResult<Vec<u64>> {
    let numpy = out.py().import("numpy")?;
    let array = numpy.call_method1("asarray", (out,))?;
    let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" && kind != "b" {
        return Err(bad_input(format!(
            "audit_finite: the mechanism must return integers, got dtype {}",
            array.getattr("dtype")?
        )));
    }
    let values = i64_vector(&array, "audit_finite: the mechanism's output")?;
    let values = slice(&values);
    check_length(values.len(), n)?;
    Ok(values
        .iter()
        .map(|&v| ((v << 1) ^ (v >> 63)) as u64)
        .collect())
}

/// Real outputs: a 1-D array (or sequence) of n numbers, each exactly a float64 (an
/// integer above 2^53 that is not one is refused rather than rounded onto another output;
/// NaN falls in no event).
fn reals(out: &Bound<'_, PyAny>, n: u64) -> PyResult<Vec<f64>> {
    let values = f64_vector_with_non_finite(out, "audit_real: the mechanism's output")?;
    let values = slice(&values).into_owned();
    check_length(values.len(), n)?;
    Ok(values)
}

fn check_length(len: usize, n: u64) -> PyResult<()> {
    if len as u64 == n {
        Ok(())
    } else {
        Err(bad_input(format!(
            "the mechanism returned {len} outputs for n = {n}"
        )))
    }
}

/// The audit's failure as a Python exception, chained to the mechanism's own.
fn failure(py: Python<'_>, error: privpac_audit::Error, first: Mutex<Option<PyErr>>) -> PyErr {
    let cause = first.into_inner().ok().flatten();
    match (error, cause) {
        (privpac_audit::Error::Mechanism { reason }, Some(cause)) => {
            let error = bad_input(format!("the mechanism under audit failed: {reason}"));
            error.set_cause(py, Some(cause));
            error
        }
        (error, _) => errors::audit(error),
    }
}

/// A batched Rust audit, over a mechanism given as a trait object.
type BatchedAudit<T> = for<'a> fn(
    &'a (dyn Fn(&Py<PyAny>, u64, u64) -> Result<Vec<T>, String> + Sync + 'a),
    &'a [(Py<PyAny>, Py<PyAny>)],
    &'a BlackBoxConfig,
) -> privpac_audit::Result<StatisticalAudit>;

/// Runs `audit` on the Python mechanism with the GIL released (each call re-acquires
/// it), converting its outputs with `convert`; a failure of the mechanism is raised
/// chained to its own exception.
fn run_audit<T>(
    py: Python<'_>,
    mechanism: &Py<PyAny>,
    pairs: &Bound<'_, PyAny>,
    config: &BlackBoxConfig,
    convert: fn(&Bound<'_, PyAny>, u64) -> PyResult<Vec<T>>,
    audit: BatchedAudit<T>,
) -> PyResult<Audit> {
    let pairs = pairs_of(pairs)?;
    let first = Mutex::new(None);
    let draw = |input: &Py<PyAny>, n: u64, chunk_seed: u64| {
        call(mechanism, input, n, chunk_seed, &first, convert)
    };
    let result = py.detach(|| audit(&draw, &pairs, config));
    match result {
        Ok(inner) => Ok(Audit { inner }),
        Err(error) => Err(failure(py, error, first)),
    }
}

fn pairs_of(pairs: &Bound<'_, PyAny>) -> PyResult<Vec<(Py<PyAny>, Py<PyAny>)>> {
    let mut out = Vec::new();
    for pair in pairs.try_iter()? {
        let pair = pair?;
        let (a, b): (Bound<'_, PyAny>, Bound<'_, PyAny>) = pair
            .extract()
            .map_err(|_| bad_input("pairs must be a list of (a, b) tuples"))?;
        out.push((a.unbind(), b.unbind()));
    }
    Ok(out)
}

/// audit_finite(mechanism, pairs, *, runs, seed, confidence=0.95, delta=0.0,
/// selection_runs=None, screening_runs=None, certified_pairs=1) -> Audit
///
/// Audits a mechanism with integer outputs on neighbouring inputs. `mechanism(input, n,
/// seed)` returns a 1-D array of n integer outputs of n independent runs on `input`, with
/// all its randomness drawn from `seed` (for example `numpy.random.default_rng(seed)`);
/// it is called once per chunk of runs, each chunk seeded from (seed, pair, input, stage,
/// chunk), so the result does not depend on threads. `pairs` is a list of (a, b) inputs of
/// any type. Stages and guarantees are the Rust auditor's (privpac_audit::black_box):
/// selection on half the runs, ranking on the rest, certification on fresh runs with
/// Clopper–Pearson bounds, Bonferroni over the certified pairs; a correct ε-DP mechanism is
/// refuted at ε with probability at most 1 − confidence.
///
/// Raises InvalidParameterError for zero or too many runs, a confidence outside (0, 1) or
/// an empty pair list; BadInputError when the mechanism returns the wrong length or dtype,
/// or raises (its exception is chained as the cause).
#[pyfunction]
#[pyo3(signature = (mechanism, pairs, *, runs, seed, confidence = 0.95, delta = 0.0,
    selection_runs = None, screening_runs = None, certified_pairs = 1))]
#[allow(
    clippy::too_many_arguments,
    reason = "one argument per keyword of the binding"
)]
fn audit_finite(
    py: Python<'_>,
    mechanism: Py<PyAny>,
    pairs: &Bound<'_, PyAny>,
    runs: u64,
    seed: Seed,
    confidence: f64,
    delta: f64,
    selection_runs: Option<u64>,
    screening_runs: Option<u64>,
    certified_pairs: usize,
) -> PyResult<Audit> {
    let config = config(
        runs,
        confidence,
        delta,
        seed,
        selection_runs,
        screening_runs,
        certified_pairs,
    )?;
    run_audit(
        py,
        &mechanism,
        pairs,
        &config,
        integers,
        |draw, pairs, config| audit_finite_batched(draw, pairs, config),
    )
}

/// audit_real(mechanism, pairs, *, runs, seed, confidence=0.95, delta=0.0,
/// selection_runs=None, screening_runs=None, certified_pairs=1) -> Audit
///
/// As `audit_finite`, for a mechanism with real outputs (a 1-D float array of n outputs;
/// NaN falls in no event), with threshold and interval events.
#[pyfunction]
#[pyo3(signature = (mechanism, pairs, *, runs, seed, confidence = 0.95, delta = 0.0,
    selection_runs = None, screening_runs = None, certified_pairs = 1))]
#[allow(
    clippy::too_many_arguments,
    reason = "one argument per keyword of the binding"
)]
fn audit_real(
    py: Python<'_>,
    mechanism: Py<PyAny>,
    pairs: &Bound<'_, PyAny>,
    runs: u64,
    seed: Seed,
    confidence: f64,
    delta: f64,
    selection_runs: Option<u64>,
    screening_runs: Option<u64>,
    certified_pairs: usize,
) -> PyResult<Audit> {
    let config = config(
        runs,
        confidence,
        delta,
        seed,
        selection_runs,
        screening_runs,
        certified_pairs,
    )?;
    run_audit(
        py,
        &mechanism,
        pairs,
        &config,
        reals,
        |draw, pairs, config| audit_real_batched(draw, pairs, config),
    )
}

/// The default neighbouring samples of `audit_learner` over a domain of `domain` points:
/// label flips (`sample_size` copies of (x, 1) against the same with the last label 0) at
/// every point when the domain has at most 32, else at 32 points spread over it (0 and the
/// last included), then `random_pairs` random neighbours (points uniform, labels of a
/// uniformly random concept, one example replaced by a uniform point with a uniform label),
/// from a generator seeded by `seed` (a stream the audit's own runs do not use), then the
/// [`exhaustive_pairs`] (at most `exhaustive` of them).
fn learner_pairs(
    class: &dyn privpac_classes::ConceptClass,
    sample_size: usize,
    random_pairs: usize,
    exhaustive: usize,
    seed: u64,
) -> PyResult<Vec<(Sample, Sample)>> {
    use rand::{Rng, RngExt, SeedableRng};
    let domain = u64::try_from(class.domain().size()).unwrap_or(u64::MAX);
    let points = spread_points(domain, domain.min(32));
    let mut pairs = Vec::new();
    for x in points {
        let base = (vec![x; sample_size], vec![true; sample_size]);
        let mut flipped = base.clone();
        flipped.1[sample_size - 1] = false;
        pairs.push((base, flipped));
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(u64::MAX);
    let concepts = u64::try_from(class.len()).unwrap_or(u64::MAX);
    for _ in 0..random_pairs {
        let concept = rng.random_range(0..concepts);
        let points: Vec<u64> = (0..sample_size)
            .map(|_| rng.random_range(0..domain))
            .collect();
        let labels: Vec<bool> = points.iter().map(|&x| class.eval(concept, x)).collect();
        let base = (points, labels);
        let mut other = base.clone();
        let position = rng.random_range(0..sample_size);
        other.0[position] = rng.random_range(0..domain);
        other.1[position] = rng.next_u64() & 1 == 1;
        if other != base {
            pairs.push((base, other));
        }
    }
    pairs.extend(exhaustive_pairs(domain, sample_size, exhaustive)?);
    Ok(pairs)
}

/// The worst-case patterns of the exact audits: every unordered pair of neighbouring
/// labeled samples of `sample_size` examples over `k` points of the domain (spread over it,
/// 0 and the last included; all of them when the domain is that small), the enumeration
/// the exact audits take their worst case over (`privpac_audit::neighbouring_datasets` over
/// the labeled points `2x + y`), with `k` the largest for which there are at most `cap`
/// pairs. Besides label flips these hold every point moved, with its label or not, next
/// to every other example, so a learner's loss on any sample of that size over those
/// points is among them. `cap = 0` gives none.
fn exhaustive_pairs(
    domain: u64,
    sample_size: usize,
    cap: usize,
) -> PyResult<Vec<(Sample, Sample)>> {
    let unordered = |k: u64| -> Option<u128> {
        let labeled = 2 * u128::from(k);
        labeled
            .checked_pow(u32::try_from(sample_size).ok()?)?
            .checked_mul(sample_size as u128)?
            .checked_mul(labeled - 1)
            .map(|ordered| ordered / 2)
    };
    let within = |k: u64| unordered(k).is_some_and(|count| count <= cap as u128);
    let mut k = 0;
    while k < domain && within(k + 1) {
        k += 1;
    }
    if k == 0 {
        return Ok(Vec::new());
    }
    let points = spread_points(domain, k);
    let sample = |labeled: &[u64]| -> Sample {
        labeled
            .iter()
            .map(|&p| (points[(p / 2) as usize], p % 2 == 1))
            .unzip()
    };
    let ordered =
        privpac_audit::neighbouring_datasets(2 * k, sample_size).map_err(errors::audit)?;
    Ok(ordered
        .iter()
        .filter(|(a, b)| a < b)
        .map(|(a, b)| (sample(a), sample(b)))
        .collect())
}

/// A labeled sample: points and labels.
type Sample = (Vec<u64>, Vec<bool>);

/// A user's pairs of neighbouring samples: `((points, labels), (points, labels))`, each
/// checked against the class's domain, of the same size, differing in exactly one example.
fn user_pairs(
    pairs: &Bound<'_, PyAny>,
    class: &dyn privpac_classes::ConceptClass,
) -> PyResult<Vec<(Sample, Sample)>> {
    let sample = |obj: &Bound<'_, PyAny>, what: &str| -> PyResult<Sample> {
        let (points, labels): (Bound<'_, PyAny>, Bound<'_, PyAny>) = obj
            .extract()
            .map_err(|_| bad_input(format!("{what} must be a (points, labels) tuple")))?;
        let points = slice(&u64_vector(&points, "points")?).into_owned();
        let labels = slice(&bool_vector(&labels, "labels")?).into_owned();
        privpac_classes::LabeledSample::new(class.domain(), points.clone(), labels.clone())
            .map_err(|e| bad_input(format!("{what}: {e}")))?;
        Ok((points, labels))
    };
    let mut out = Vec::new();
    for (index, pair) in pairs.try_iter()?.enumerate() {
        let pair = pair?;
        let (a, b): (Bound<'_, PyAny>, Bound<'_, PyAny>) = pair
            .extract()
            .map_err(|_| bad_input("pairs must be a list of (sample, sample) tuples"))?;
        let (a, b) = (
            sample(&a, &format!("pairs[{index}][0]"))?,
            sample(&b, &format!("pairs[{index}][1]"))?,
        );
        let differing =
            a.0.iter()
                .zip(&a.1)
                .zip(b.0.iter().zip(&b.1))
                .filter(|(x, y)| x != y)
                .count();
        if a.0.len() != b.0.len() || differing != 1 {
            return Err(bad_input(format!(
                "pairs[{index}]: neighbouring samples have the same size and differ in exactly \
                 one example"
            )));
        }
        out.push((a, b));
    }
    Ok(out)
}

/// audit_learner(learner, class_spec, guarantee, *, runs, seed, pairs=None, sample_size=1,
/// random_pairs=8, confidence=0.95, selection_runs=None, screening_runs=None,
/// certified_pairs=1, exhaustive=16, query_points=None) -> Audit
///
/// Audits a Python learner's claimed guarantee black-box: the learner is run on
/// neighbouring samples and its output, the concept id, is the finite output audited by
/// `audit_finite`'s auditor (the same stages, events and Clopper–Pearson certification).
/// `learner` is as for `privpac.sample_complexity` (a callable `learner(points, labels,
/// seed) -> int` or an object with `fit`), each run with its own seed drawn from the
/// audit's chunk seeds, so the audit is a function of `seed`. `guarantee` is the claim: a
/// `Privacy` or a differential-privacy `Guarantee`; the audit is at its δ, and
/// `audit.refutes(guarantee.epsilon)` says whether it is refuted (a correct claim is refuted
/// with probability at most 1 − confidence). `pairs` are `((points, labels), (points,
/// labels))` samples differing in one example; by default, label flips (`sample_size`
/// copies of (x, 1) against the same with the last label 0) at every point of a domain of
/// at most 32 points (else at 32 points spread over it), plus `random_pairs` random
/// neighbours, plus the worst-case patterns of the exact audits: every pair of
/// neighbouring labeled samples of `sample_size` examples over the largest number of
/// points spread over the domain (all of them on a tiny domain) for which there are at
/// most `exhaustive` such pairs (`privpac_audit::neighbouring_datasets` over the labeled
/// points 2x + y; `exhaustive=0` for none).
///
/// A per-prediction claim (`Guarantee.per_prediction(ε)`, as the private-prediction
/// learners report: each prediction on one query point is ε-DP in the training sample) is
/// audited with the prediction at a fixed query point as the output: for every
/// neighbouring pair and every point of `query_points` (a uint64 array of 1 to 64 points
/// of the domain; default up to 4 points spread over it, 0 and the last included), each run
/// trains once and makes one prediction (the concept's label, or the returned predictor
/// called on that one point), and the pair of prediction distributions is audited at
/// δ = 0. `audit.refutes(ε)` then refutes the per-prediction claim.
///
/// Under a differential-privacy claim a learner may also return a predictor (a callable
/// on points or an object with `predict`): the audited output is then its labels on every
/// point of a domain of at most 63 points (else on 63 points spread over it), a
/// deterministic function of the hypothesis, so a refutation refutes the claim (a pass
/// says nothing about the labels elsewhere). Randomized predictors are called once per
/// run, their randomness part of the audited mechanism.
///
/// Raises InvalidParameterError for a bad class spec, a guarantee that is neither
/// differential privacy nor per prediction, `query_points` with a differential-privacy
/// claim or of a bad size, or bad audit parameters; BadInputError for bad pairs or query
/// points, a learner that raises (chained to its exception), or returns anything but a
/// concept id of the class or a predictor (whose bad predictions are named as for
/// `privpac.sample_complexity`).
#[pyfunction]
#[pyo3(signature = (learner, class_spec, guarantee, *, runs, seed, pairs = None,
    sample_size = 1, random_pairs = 8, confidence = 0.95, selection_runs = None,
    screening_runs = None, certified_pairs = 1, exhaustive = 16, query_points = None))]
#[allow(
    clippy::too_many_arguments,
    reason = "one argument per keyword of the binding"
)]
fn audit_learner(
    py: Python<'_>,
    learner: &Bound<'_, PyAny>,
    class_spec: &str,
    guarantee: &Bound<'_, PyAny>,
    runs: u64,
    seed: Seed,
    pairs: Option<&Bound<'_, PyAny>>,
    sample_size: usize,
    random_pairs: usize,
    confidence: f64,
    selection_runs: Option<u64>,
    screening_runs: Option<u64>,
    certified_pairs: usize,
    exhaustive: usize,
    query_points: Option<&Bound<'_, PyAny>>,
) -> PyResult<Audit> {
    use rand::{Rng, SeedableRng};
    let claimed = crate::lab::claimed_guarantee(Some(guarantee))?;
    let (delta, per_prediction) = match claimed {
        privpac_accounting::Guarantee::DifferentialPrivacy(privacy) => (privacy.delta(), false),
        privpac_accounting::Guarantee::PerPrediction { .. } => (0.0, true),
        other => {
            return Err(invalid(format!(
                "audit_learner audits a differential-privacy claim or a per-prediction \
                 claim, got {other}"
            )));
        }
    };
    if sample_size == 0 || sample_size > 1 << 20 {
        return Err(invalid(format!(
            "sample_size must be between 1 and 2^20, got {sample_size}"
        )));
    }
    if exhaustive > 1 << 16 {
        return Err(invalid(format!(
            "exhaustive must be at most 2^16, got {exhaustive}"
        )));
    }
    if random_pairs > 1 << 16 {
        return Err(invalid(format!(
            "random_pairs must be at most 2^16, got {random_pairs}"
        )));
    }
    let spec: privpac_toolkit::ClassSpec = class_spec.parse().map_err(errors::lab)?;
    let class = spec.build().map_err(errors::lab)?;
    let pairs = match pairs {
        Some(pairs) => user_pairs(pairs, class.as_ref())?,
        None => learner_pairs(
            class.as_ref(),
            sample_size,
            random_pairs,
            exhaustive,
            seed.0,
        )?,
    };
    let config = config(
        runs,
        confidence,
        delta,
        seed,
        selection_runs,
        screening_runs,
        certified_pairs,
    )?;
    let learner = PythonLearner::new(learner, claimed)?;
    let samples = pairs
        .iter()
        .flat_map(|(a, b)| [a, b])
        .map(|(points, labels)| {
            privpac_classes::LabeledSample::new(class.domain(), points.clone(), labels.clone())
                .map_err(bad_input)
        })
        .collect::<PyResult<Vec<_>>>()?;
    // Per-prediction claims: one audited pair per neighbouring pair and query point, the
    // input (sample, query) and the output the prediction at the query (one query per
    // trained model, as the guarantee reads).
    if query_points.is_some() && !per_prediction {
        return Err(invalid(
            "query_points= are the fixed points of a per-prediction claim; a \
             differential-privacy claim audits the concept id (or a predictor's labels on \
             every point of a domain of at most 63 points, else on 63 spread over it)",
        ));
    }
    // Per prediction: the audited query points. Under a differential-privacy claim: the
    // points on which a returned predictor is evaluated (its restriction to them is the
    // audited output; at most 63, so that the labels and a tag fit one u64).
    let limit = 64;
    let given = match query_points {
        Some(given) => {
            let given = slice(&u64_vector(given, "query_points")?).into_owned();
            if given.is_empty() || given.len() > limit {
                return Err(invalid(format!(
                    "query_points must hold 1 to {limit} points, got {}",
                    given.len()
                )));
            }
            privpac_classes::LabeledSample::new(
                class.domain(),
                given.clone(),
                vec![false; given.len()],
            )
            .map_err(|e| bad_input(format!("query_points: {e}")))?;
            Some(given)
        }
        None => None,
    };
    let domain = u64::try_from(class.domain().size()).unwrap_or(u64::MAX);
    let default_points = |count: u64| {
        spread_points(domain, domain.min(count))
            .into_iter()
            .map(|i| class.domain().point_at(i).unwrap_or(i))
            .collect::<Vec<u64>>()
    };
    let (queries, restriction): (Vec<u64>, Vec<u64>) = match (per_prediction, given) {
        (true, Some(given)) => (given, Vec::new()),
        (true, None) => (spread_points(domain, domain.min(4)), Vec::new()),
        (false, _) => (vec![0], default_points(63)),
    };
    let indexed: Vec<((usize, usize), (usize, usize))> = (0..pairs.len())
        .flat_map(|i| (0..queries.len()).map(move |q| ((2 * i, q), (2 * i + 1, q))))
        .collect();
    let draw = |input: &(usize, usize), n: u64, chunk_seed: u64| -> Result<Vec<u64>, String> {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(chunk_seed);
        let (sample, query) = (&samples[input.0], queries[input.1]);
        (0..n)
            .map(|_| {
                let seed = rng.next_u64();
                let output = if per_prediction {
                    learner
                        .call_returned(class.as_ref(), sample, seed)
                        .and_then(|returned| match returned {
                            Returned::Concept(id) => Ok(u64::from(class.eval(id, query))),
                            Returned::Predictor(predictor) => Python::attach(|py| {
                                predictions(predictor.bind(py), &[query], learner.label())
                                    .map(|labels| u64::from(labels[0]))
                            }),
                        })
                } else {
                    learner
                        .call_returned(class.as_ref(), sample, seed)
                        .and_then(|returned| {
                            dp_output(returned, class.as_ref(), &restriction, learner.label())
                        })
                };
                output.map_err(|error| learner.record(error))
            })
            .collect()
    };
    let result = learner.serve(py, || audit_finite_batched(draw, &indexed, &config))?;
    match result {
        Ok(inner) => Ok(Audit { inner }),
        Err(error) => Err(learner
            .take_failure()
            .unwrap_or_else(|| errors::audit(error))),
    }
}

/// zoo_names() -> list of str: the built-in mechanisms of the zoo (correct ones and
/// known-broken twins, whose names start with "broken-").
#[pyfunction]
fn zoo_names() -> Vec<&'static str> {
    privpac_zoo::Zoo::ALL.iter().map(|z| z.name()).collect()
}

/// audit_zoo(name, epsilon, *, runs, seed, confidence=0.95) -> Audit: audits the zoo
/// entry `name` at a claimed ε (at the entry's own δ), exactly as `privpac audit
/// --mechanism NAME`.
///
/// Raises InvalidParameterError for an unknown name or bad parameters.
#[pyfunction]
#[pyo3(signature = (name, epsilon, *, runs, seed, confidence = 0.95))]
fn audit_zoo(
    py: Python<'_>,
    name: &str,
    epsilon: f64,
    runs: u64,
    seed: Seed,
    confidence: f64,
) -> PyResult<Audit> {
    let entry = privpac_zoo::Zoo::from_name(name).map_err(invalid)?;
    let config = BlackBoxConfig::new(runs, confidence, seed.0)
        .and_then(|c| c.with_delta(entry.claimed_delta()))
        .map_err(|e| raise(Kind::InvalidParameter, e))?;
    let inner = py
        .detach(|| entry.audit(epsilon, &config))
        .map_err(invalid)?;
    Ok(Audit { inner })
}

/// statdp_patterns(length) -> list of (list, list): StatDP's neighbouring query-answer
/// patterns for `length` answers of sensitivity 1 (Ding et al. 2018, §5), as used by
/// DP-Sniper.
#[pyfunction]
fn statdp_patterns(length: usize) -> PyResult<Vec<(Vec<f64>, Vec<f64>)>> {
    if length == 0 || length > 1 << 20 {
        return Err(invalid(format!(
            "length must be between 1 and 2^20, got {length}"
        )));
    }
    Ok(rust_statdp_patterns(length))
}

/// Adds the submodule `audit` (importable as `privpac.audit`).
pub(crate) fn register(py: Python<'_>, module: &Bound<'_, PyModule>) -> PyResult<()> {
    let sub = PyModule::new(py, "audit")?;
    sub.setattr(
        "__doc__",
        "Black-box privacy audits of Python mechanisms (vectorized: mechanism(input, n, seed) \
         returns n outputs), of Python learners (audit_learner), of the built-in zoo, and \
         StatDP's neighbour patterns.",
    )?;
    sub.add_class::<Audit>()?;
    sub.add_function(wrap_pyfunction!(audit_finite, &sub)?)?;
    sub.add_function(wrap_pyfunction!(audit_real, &sub)?)?;
    sub.add_function(wrap_pyfunction!(audit_learner, &sub)?)?;
    sub.add_function(wrap_pyfunction!(zoo_names, &sub)?)?;
    sub.add_function(wrap_pyfunction!(audit_zoo, &sub)?)?;
    sub.add_function(wrap_pyfunction!(statdp_patterns, &sub)?)?;
    module.add_submodule(&sub)?;
    py.import("sys")?
        .getattr("modules")?
        .set_item("privpac.audit", &sub)?;
    Ok(())
}

/// `k ≤ domain` points spread evenly over `0..domain`, 0 and the last included: every point
/// when `k = domain`, `[0]` when `k = 1`, none when `k = 0`.
/// The audited output of one run under a differential-privacy claim: a concept id below
/// 2^63 as it is; a predictor (or a concept id from 2^63 on) as its labels on
/// `restriction`, bit i the label at `restriction[i]`, tagged with bit 63. Either is a
/// deterministic function of the learner's hypothesis (post-processing), so the
/// hypothesis is (ε, δ)-DP only if this output is: a refutation of this output refutes the
/// claim (and a pass says nothing about the hypothesis off the restriction).
fn dp_output(
    returned: Returned,
    class: &dyn privpac_classes::ConceptClass,
    restriction: &[u64],
    name: &str,
) -> PyResult<u64> {
    let labels = match returned {
        Returned::Concept(id) if id < 1 << 63 => return Ok(id),
        Returned::Concept(id) => restriction.iter().map(|&x| class.eval(id, x)).collect(),
        Returned::Predictor(predictor) => {
            Python::attach(|py| predictions(predictor.bind(py), restriction, name))?
        }
    };
    Ok(labels
        .iter()
        .enumerate()
        .fold(1 << 63, |bits, (i, &label)| bits | (u64::from(label) << i)))
}

fn spread_points(domain: u64, k: u64) -> Vec<u64> {
    if k <= 1 {
        return vec![0; k as usize];
    }
    (0..k)
        .map(|i| ((u128::from(domain - 1) * u128::from(i)) / u128::from(k - 1)) as u64)
        .collect()
}
