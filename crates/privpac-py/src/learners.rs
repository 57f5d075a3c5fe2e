//! Learner, sanitizer and multi-learner bindings, built from the CLI's spec strings with the
//! lab's builders (`privpac_toolkit::LearnerSpec` + `build_learner`, `privpac_toolkit::SanitizerSpec` +
//! `build_sanitizer`, `privpac_toolkit::MultiLearnerSpec` + `build_multi_learner`) and the CLI's
//! defaults, so the same spec, parameters, data and seed give the same hypothesis as
//! `privpac learn`, `privpac sanitize` and `privpac multi-learn`. Data come in as numpy
//! arrays (points, 0/1 labels, 0/1 label matrices); hypotheses evaluate on numpy arrays and
//! carry their learner's guarantee as a `Guarantee`.

use std::sync::Arc;

use numpy::{PyArray1, PyUntypedArrayMethods, prelude::*};
use privpac_accounting::{Guarantee as RustGuarantee, Privacy as RustPrivacy, Private};
use privpac_classes::{ConceptClass as RustClass, Hypothesis as RustHypothesis, LabeledSample};
use privpac_learners::Predictor as RustPredictor;
use privpac_multi::MultiLabeledSample;
use privpac_toolkit::{
    LearnerParams, LearnerSpec, MultiLearnerSpec, SanitizerParams, SanitizerSpec,
};
use pyo3::prelude::*;

use crate::arrays::{bool_matrix, bool_vector, slice, u64_vector};
use crate::classes::ConceptClass;
use crate::errors;
use crate::mechanisms::{Guarantee, Privacy};
use crate::rng::{Seed, rng};

/// The points of a sample as an owned vector (the Rust samples own their points).
fn points_of(points: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
    let points = u64_vector(points, "points")?;
    Ok(slice(&points).into_owned())
}

/// The labeled sample of `points` and 0/1 `labels`, validated against the class's domain.
fn labeled_sample(
    class: &dyn RustClass,
    points: &Bound<'_, PyAny>,
    labels: &Bound<'_, PyAny>,
) -> PyResult<LabeledSample> {
    let points = points_of(points)?;
    let labels = bool_vector(labels, "labels")?;
    let labels = slice(&labels).into_owned();
    LabeledSample::new(class.domain(), points, labels).map_err(errors::classes)
}

/// The sanitizer knobs shared by learners, sanitizers and multi-learners (CLI defaults).
fn sanitizer_params(alpha: f64, rounds: usize, database_size: usize) -> SanitizerParams {
    SanitizerParams {
        alpha,
        rounds,
        database_size,
    }
}

/// A learned hypothesis: evaluates on numpy arrays of points and carries the guarantee of
/// the learner that produced it.
///
/// `predict` draws the randomness of randomized hypotheses (private prediction: flipped
/// labels, noisy votes) from `seed` with exact samplers (a noisy vote with the exponential
/// mechanism the voting learner uses); `probability_of_one` gives the Pr[h(x) = 1] they
/// realize, rounded to the nearest float (so 1.0 may stand for 1 − 10⁻¹⁷);
/// `labels` gives the label of a deterministic hypothesis (the base or majority label of a
/// randomized one).
#[pyclass(frozen, module = "privpac", name = "Hypothesis")]
#[derive(Debug)]
pub(crate) struct Hypothesis {
    class: Arc<dyn RustClass>,
    inner: RustPredictor,
    guarantee: RustGuarantee,
    learner: String,
}

impl Hypothesis {
    /// The class the hypothesis labels and the Rust predictor (for `privpac.data`).
    pub(crate) fn parts(&self) -> (&dyn RustClass, &RustPredictor) {
        (self.class.as_ref(), &self.inner)
    }

    fn checked_points(&self, points: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
        let points = points_of(points)?;
        for &x in &points {
            self.class.domain().check(x).map_err(errors::classes)?;
        }
        Ok(points)
    }
}

#[pymethods]
impl Hypothesis {
    /// One prediction per point (1-D uint64 array in, bool array out), drawing the
    /// randomness of a randomized hypothesis from `seed` (one generator for the whole
    /// array) with exact samplers (a noisy vote draws from the voting learner's own
    /// exponential mechanism). For per-prediction guarantees, each prediction is one ε-DP
    /// release. Raises BadInputError for a point outside the domain.
    #[pyo3(signature = (points, *, seed = None))]
    fn predict<'py>(
        &self,
        py: Python<'py>,
        points: &Bound<'py, PyAny>,
        seed: Option<Seed>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let points = self.checked_points(points)?;
        let labels: Vec<bool> = py
            .detach(|| {
                let mut generator = rng(seed);
                points
                    .iter()
                    .map(|&x| self.inner.predict(self.class.as_ref(), x, &mut generator))
                    .collect::<Result<_, _>>()
            })
            .map_err(errors::learners)?;
        Ok(labels.into_pyarray(py))
    }

    /// Pr[h(x) = 1] for each point as `predict` realizes it, as a float64 array (0 or 1 for
    /// deterministic ones), rounded to the nearest float.
    fn probability_of_one<'py>(
        &self,
        py: Python<'py>,
        points: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let points = self.checked_points(points)?;
        let p: Vec<f64> = py.detach(|| {
            points
                .iter()
                .map(|&x| self.inner.probability_of_one(self.class.as_ref(), x))
                .collect()
        });
        Ok(p.into_pyarray(py))
    }

    /// The deterministic label of each point (for a randomized hypothesis: its base label,
    /// or the strict majority of a noisy vote).
    fn labels<'py>(
        &self,
        py: Python<'py>,
        points: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let points = self.checked_points(points)?;
        let labels: Vec<bool> = py.detach(|| {
            points
                .iter()
                .map(|&x| self.inner.eval(self.class.as_ref(), x))
                .collect()
        });
        Ok(labels.into_pyarray(py))
    }

    /// The fraction of the examples the hypothesis mislabels, in expectation for randomized
    /// hypotheses (the CLI's "empirical error").
    fn empirical_error(
        &self,
        py: Python<'_>,
        points: &Bound<'_, PyAny>,
        labels: &Bound<'_, PyAny>,
    ) -> PyResult<f64> {
        let sample = labeled_sample(self.class.as_ref(), points, labels)?;
        if sample.is_empty() {
            return Err(errors::classes(privpac_classes::Error::EmptySample));
        }
        Ok(py.detach(|| {
            let total: f64 = sample
                .iter()
                .map(|(x, y)| {
                    let one = self.inner.probability_of_one(self.class.as_ref(), x);
                    if y { 1.0 - one } else { one }
                })
                .sum();
            total / sample.len() as f64
        }))
    }

    /// Whether the hypothesis is deterministic.
    #[getter]
    fn is_deterministic(&self) -> bool {
        self.inner.is_deterministic()
    }

    /// The concept id for a proper hypothesis (a concept of the class), else None.
    #[getter]
    fn concept(&self) -> Option<u64> {
        match self.inner {
            RustPredictor::Hypothesis(RustHypothesis::Concept { id }) => Some(id),
            _ => None,
        }
    }

    /// The guarantee of the learner that produced this hypothesis, at this sample size
    /// (for a multi-learner: the guarantee of the whole k-tuple of hypotheses).
    #[getter]
    fn guarantee(&self) -> Guarantee {
        self.guarantee.into()
    }

    /// The learner as built, e.g. "generic".
    #[getter]
    fn learner(&self) -> String {
        self.learner.clone()
    }

    /// The hypothesis's kind: "concept", "constant", "table", "hash-bucket", "interval",
    /// "not-interval", "flipped" or "noisy-vote".
    #[getter]
    fn kind(&self) -> &'static str {
        match &self.inner {
            RustPredictor::Hypothesis(h) => match h {
                RustHypothesis::Concept { .. } => "concept",
                RustHypothesis::Constant { .. } => "constant",
                RustHypothesis::Table { .. } => "table",
                RustHypothesis::HashBucket { .. } => "hash-bucket",
                RustHypothesis::Interval { .. } => "interval",
                RustHypothesis::NotInterval { .. } => "not-interval",
            },
            RustPredictor::Flipped { .. } => "flipped",
            RustPredictor::NoisyVote { .. } => "noisy-vote",
        }
    }

    /// The hypothesis as JSON, exactly as the CLI's `--json` reports print it (the
    /// `hypothesis` field of `privpac learn --json`).
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.inner).map_err(|e| errors::raise(errors::Kind::Other, e))
    }

    fn __repr__(&self) -> String {
        format!(
            "Hypothesis(kind={:?}, learner={:?}, guarantee={:?})",
            self.kind(),
            self.learner,
            self.guarantee.to_string()
        )
    }
}

/// A single-concept learner built from the CLI's learner spec: "erm", "generic",
/// "improper-point", "stable", "private-prediction", "voting", "relabeling",
/// "dagan-feldman", "sanitizer[:NAME]".
///
/// Parameters and defaults are the CLI's (`privpac learn`): `epsilon`, the privacy target
/// (required by every private learner; the reported guarantee is at most ε: differential
/// privacy, or the ε of each prediction for `private-prediction`, `voting`, `relabeling`
/// and `dagan-feldman`, whose inner parameters are solved for it at `fit`), `em_epsilon`
/// (the stable learners' exponential-mechanism ε, a tuning knob and not a guarantee:
/// required by `stable`, which is not private and refuses `epsilon`; optional for
/// `private-prediction`), `delta` (0; only the sanitizer learners and `interior-point` accept δ > 0, and
/// `interior-point` needs it), `subset_size`
/// (default ⌈√n⌉ for `stable`, solved for `private-prediction`), `flip_probability` (α/2, from `alpha`), `voters` (7), `vote_epsilon` (1.0), and the
/// sanitizer knobs `alpha` (0.1), `rounds` (20), `database_size` (4); `improper-point` is
/// built for accuracy `alpha` and failure probability `beta` (0.1) with ⌈16/(αβ)⌉ hash
/// buckets unless `buckets` is given. The learner is built at `fit`, when the sample size
/// and the class size are known, exactly as the CLI does.
///
/// Guarantees (reported by `guarantee(n)` and on every hypothesis): `generic` is ε-DP
/// (the exponential mechanism over the class, Kasiviswanathan et al. 2008); `improper-point`
/// is ε-DP (Beimel–Nissim–Stemmer's hash buckets; point functions only); `sanitizer` is
/// (ε, δ)-DP (Bun–Nissim–Stemmer 2016, Theorem 2.23 / Algorithm 2); `interior-point` is
/// (ε, δ)-DP (TreeLog, Kaplan et al. 2020, through the interior point reduction; thresholds only); `stable` is uniformly
/// β-stable; `private-prediction`, `voting`, `relabeling` and `dagan-feldman` are ε-DP per
/// prediction; `erm` has none.
///
/// Raises InvalidParameterError for an unknown spec, a missing ε (a missing `em_epsilon`
/// or a given `epsilon` for `stable`), δ > 0 for a pure learner, or a bad parameter; a
/// per-prediction target that cannot be met at the sample size raises at `fit` (naming
/// the smallest sample size that works).
#[pyclass(frozen, module = "privpac", name = "Learner")]
#[derive(Debug)]
pub(crate) struct Learner {
    spec: LearnerSpec,
    params: LearnerParams,
}

impl Learner {
    fn build(
        &self,
        class: &dyn RustClass,
        examples: usize,
    ) -> PyResult<Box<dyn privpac_learners::Learner>> {
        let params = LearnerParams {
            class_size: Some(class.len()),
            ..self.params
        };
        privpac_toolkit::build_learner(self.spec, &params, examples).map_err(errors::lab)
    }
}

#[pymethods]
impl Learner {
    #[new]
    #[pyo3(signature = (spec, *, epsilon = None, delta = 0.0, subset_size = None,
        flip_probability = None, voters = 7, vote_epsilon = 1.0, alpha = 0.1, rounds = 20,
        database_size = 4, beta = 0.1, buckets = None, em_epsilon = None))]
    #[allow(clippy::too_many_arguments, reason = "the CLI's keyword options")]
    fn new(
        spec: &str,
        epsilon: Option<f64>,
        delta: f64,
        subset_size: Option<usize>,
        flip_probability: Option<f64>,
        voters: usize,
        vote_epsilon: f64,
        alpha: f64,
        rounds: usize,
        database_size: usize,
        beta: f64,
        buckets: Option<u64>,
        em_epsilon: Option<f64>,
    ) -> PyResult<Self> {
        let spec: LearnerSpec = spec.parse().map_err(errors::lab)?;
        if spec == LearnerSpec::Stable {
            if epsilon.is_some() {
                return Err(errors::invalid(
                    "stable is uniformly stable, not differentially private, so no epsilon can be guaranteed; give its exponential mechanism's parameter as em_epsilon (or use private-prediction for an epsilon per prediction)".to_string(),
                ));
            }
            if em_epsilon.is_none() {
                return Err(errors::invalid(
                    "em_epsilon (its exponential mechanism's epsilon) is required for stable, which is uniformly stable, not private".to_string(),
                ));
            }
        }
        if spec.needs_epsilon() && epsilon.is_none() {
            return Err(errors::invalid(format!(
                "epsilon is required for private learners ({spec})"
            )));
        }
        Ok(Learner {
            spec,
            params: LearnerParams {
                epsilon,
                em_epsilon,
                delta,
                subset_size,
                flip_probability: flip_probability
                    .unwrap_or_else(|| privpac_toolkit::default_flip_probability(alpha)),
                voters,
                vote_epsilon,
                class_size: None,
                alpha,
                beta,
                buckets,
                sanitizer: sanitizer_params(alpha, rounds, database_size),
            },
        })
    }

    /// Learns a hypothesis for the class from points (1-D uint64) and 0/1 labels (1-D),
    /// like `privpac learn` (same seed, same hypothesis). The GIL is released while
    /// learning. Raises BadInputError for a point outside the domain, a label other than
    /// 0/1, lengths that differ or an empty sample.
    #[pyo3(signature = (concept_class, points, labels, *, seed = None))]
    fn fit(
        &self,
        py: Python<'_>,
        concept_class: &ConceptClass,
        points: &Bound<'_, PyAny>,
        labels: &Bound<'_, PyAny>,
        seed: Option<Seed>,
    ) -> PyResult<Hypothesis> {
        let class = concept_class.inner.clone();
        let sample = labeled_sample(class.as_ref(), points, labels)?;
        let learner = self.build(class.as_ref(), sample.len())?;
        let hypothesis = py
            .detach(|| learner.learn(class.as_ref(), &sample, &mut rng(seed)))
            .map_err(errors::learners)?;
        Ok(Hypothesis {
            guarantee: learner.guarantee(sample.len()),
            learner: learner.name(),
            class,
            inner: hypothesis,
        })
    }

    /// The guarantee of one `fit` on `examples` examples of the class.
    fn guarantee(&self, concept_class: &ConceptClass, examples: usize) -> PyResult<Guarantee> {
        let learner = self.build(concept_class.inner.as_ref(), examples)?;
        Ok(learner.guarantee(examples).into())
    }

    /// The spec string.
    #[getter]
    fn spec(&self) -> String {
        self.spec.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Learner({:?})", self.spec.to_string())
    }
}

/// A private synthetic database: weights on domain points (summing to 1) that answer the
/// class's counting queries.
#[pyclass(frozen, module = "privpac", name = "SyntheticDatabase")]
#[derive(Debug)]
pub(crate) struct SyntheticDatabase {
    class: Arc<dyn RustClass>,
    inner: privpac_sanitizers::SyntheticDatabase,
    privacy: RustPrivacy,
    sanitizer: String,
}

#[pymethods]
impl SyntheticDatabase {
    /// The support points with positive weight and their weights, as (uint64 array,
    /// float64 array), in domain order.
    fn weights<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArray1<u64>>, Bound<'py, PyArray1<f64>>) {
        let (points, weights): (Vec<u64>, Vec<f64>) = self
            .inner
            .weights()
            .into_iter()
            .filter(|&(_, w)| w > 0.0)
            .unzip();
        (points.into_pyarray(py), weights.into_pyarray(py))
    }

    /// The counting query c(D̂): the fraction of the database's mass that concept `concept`
    /// labels 1. Raises BadInputError for a concept id out of range.
    fn answer(&self, concept: u64) -> PyResult<f64> {
        if u128::from(concept) >= self.class.len() {
            return Err(errors::classes(privpac_classes::Error::ConceptOutOfRange {
                id: concept,
                len: self.class.len(),
            }));
        }
        Ok(self.inner.answer(self.class.as_ref(), concept))
    }

    /// max over the class of |c(D) − c(D̂)| against the real data points, with a concept
    /// attaining it, as (error, concept id). Not private: it reads the real data.
    fn max_query_error(&self, py: Python<'_>, points: &Bound<'_, PyAny>) -> PyResult<(f64, u64)> {
        let points = points_of(points)?;
        py.detach(|| privpac_sanitizers::max_query_error(self.class.as_ref(), &points, &self.inner))
            .map_err(errors::sanitizers)
    }

    /// How many points carry positive weight.
    #[getter]
    fn support_len(&self) -> usize {
        self.inner.support_len()
    }

    /// The sanitizer's guarantee: the database is (ε, δ)-DP.
    #[getter]
    fn privacy(&self) -> Privacy {
        self.privacy.into()
    }

    /// The sanitizer as built.
    #[getter]
    fn sanitizer(&self) -> String {
        self.sanitizer.clone()
    }
}

/// A sanitizer (private synthetic data for the class's counting queries) from the CLI's
/// spec: "point" (point functions), "blr" (Blum–Ligett–Roth), "pmw" (private
/// multiplicative weights), "mwem" (MWEM), "tree" (binary-tree thresholds),
/// "treelog-quantiles" (thresholds from interior-point calls; needs δ > 0), with the CLI's
/// defaults (`privpac sanitize`): alpha 0.1, rounds 20, database_size 4.
///
/// Guarantee: one `sanitize` is (ε, δ)-DP (`privacy`); which sanitizers need δ > 0 or
/// δ = 0 is checked at construction (InvalidParameterError).
#[pyclass(frozen, module = "privpac", name = "Sanitizer")]
#[derive(Debug)]
pub(crate) struct Sanitizer {
    inner: Box<dyn privpac_sanitizers::Sanitizer>,
}

#[pymethods]
impl Sanitizer {
    #[new]
    #[pyo3(signature = (spec, epsilon, *, delta = 0.0, alpha = 0.1, rounds = 20, database_size = 4))]
    fn new(
        spec: &str,
        epsilon: f64,
        delta: f64,
        alpha: f64,
        rounds: usize,
        database_size: usize,
    ) -> PyResult<Self> {
        let spec: SanitizerSpec = spec.parse().map_err(errors::lab)?;
        let privacy = RustPrivacy::new(epsilon, delta).map_err(errors::mechanisms)?;
        let inner = privpac_toolkit::build_sanitizer(
            spec,
            privacy,
            &sanitizer_params(alpha, rounds, database_size),
        )
        .map_err(errors::lab)?;
        Ok(Sanitizer { inner })
    }

    /// Sanitizes the data points (1-D uint64 array) for the class's counting queries, like
    /// `privpac sanitize` (same seed, same database). GIL released. Raises BadInputError for
    /// empty data or a point outside the domain.
    #[pyo3(signature = (concept_class, points, *, seed = None))]
    fn sanitize(
        &self,
        py: Python<'_>,
        concept_class: &ConceptClass,
        points: &Bound<'_, PyAny>,
        seed: Option<Seed>,
    ) -> PyResult<SyntheticDatabase> {
        let class = concept_class.inner.clone();
        let points = u64_vector(points, "points")?;
        let points = slice(&points);
        let synthetic = py
            .detach(|| self.inner.sanitize(class.as_ref(), &points, &mut rng(seed)))
            .map_err(errors::sanitizers)?;
        Ok(SyntheticDatabase {
            class,
            inner: synthetic,
            privacy: self.inner.privacy(),
            sanitizer: self.inner.name(),
        })
    }

    /// The guarantee of one `sanitize`: (ε, δ)-DP.
    #[getter]
    fn privacy(&self) -> Privacy {
        self.inner.privacy().into()
    }

    /// The sanitizer as built.
    #[getter]
    fn name(&self) -> String {
        self.inner.name()
    }
}

/// A multi-learner (k concepts at once from one sample with k label columns), from the
/// CLI's spec: "direct-sum[:NAME]" (budget split over k single-concept learners),
/// "generic[:SANITIZER]" (Bun–Nissim–Stemmer 2016, Algorithm 2, guarantees of Lemma 3.7),
/// "parity" (Algorithm 4) or "point" (Algorithm 5), with the CLI's defaults
/// (`privpac multi-learn`). `epsilon`, `delta` are the total budget for the k-tuple.
///
/// Guarantee: the k-tuple of hypotheses is (ε, δ)-DP with respect to samples that differ
/// in one whole row (x, y_1, …, y_k); for a direct sum of a prediction learner
/// ("direct-sum:private-prediction", "direct-sum:voting", ...) the k predictions, one query
/// per model, are ε-DP (per-prediction targets ε/k, basic composition); a direct sum of
/// "stable" (not private) is refused. See `guarantee(examples, k)`. `em_epsilon` is the
/// inner exponential mechanism's ε of "direct-sum:private-prediction" (a knob, not a
/// guarantee).
#[pyclass(frozen, module = "privpac", name = "MultiLearner")]
#[derive(Debug)]
pub(crate) struct MultiLearner {
    spec: MultiLearnerSpec,
    total: RustPrivacy,
    params: LearnerParams,
}

impl MultiLearner {
    pub(crate) fn build(
        &self,
        k: usize,
        examples: usize,
    ) -> PyResult<Box<dyn privpac_multi::MultiLearner>> {
        privpac_toolkit::build_multi_learner(self.spec, self.total, k, &self.params, examples)
            .map_err(errors::lab)
    }
}

#[pymethods]
impl MultiLearner {
    #[new]
    #[pyo3(signature = (spec, epsilon, *, delta = 0.0, subset_size = None,
        flip_probability = None, voters = 7, vote_epsilon = 1.0, alpha = 0.1, rounds = 20,
        database_size = 4, beta = 0.1, buckets = None, em_epsilon = None))]
    #[allow(clippy::too_many_arguments, reason = "the CLI's keyword options")]
    fn new(
        spec: &str,
        epsilon: f64,
        delta: f64,
        subset_size: Option<usize>,
        flip_probability: Option<f64>,
        voters: usize,
        vote_epsilon: f64,
        alpha: f64,
        rounds: usize,
        database_size: usize,
        beta: f64,
        buckets: Option<u64>,
        em_epsilon: Option<f64>,
    ) -> PyResult<Self> {
        let spec: MultiLearnerSpec = spec.parse().map_err(errors::lab)?;
        let total = RustPrivacy::new(epsilon, delta).map_err(errors::mechanisms)?;
        Ok(MultiLearner {
            spec,
            total,
            params: LearnerParams {
                epsilon: Some(epsilon),
                em_epsilon,
                delta,
                subset_size,
                flip_probability: flip_probability
                    .unwrap_or_else(|| privpac_toolkit::default_flip_probability(alpha)),
                voters,
                vote_epsilon,
                class_size: None,
                alpha,
                beta,
                buckets,
                sanitizer: sanitizer_params(alpha, rounds, database_size),
            },
        })
    }

    /// Learns one hypothesis per label column from points (1-D uint64, n entries) and an
    /// n × k 0/1 label matrix, like `privpac multi-learn` (same seed, same hypotheses).
    /// Returns a list of k Hypothesis objects, each carrying the k-tuple's guarantee.
    /// Raises BadInputError for a label matrix that is ragged, not 0/1, has no columns or
    /// not one row per point.
    #[pyo3(signature = (concept_class, points, labels, *, seed = None))]
    fn fit(
        &self,
        py: Python<'_>,
        concept_class: &ConceptClass,
        points: &Bound<'_, PyAny>,
        labels: &Bound<'_, PyAny>,
        seed: Option<Seed>,
    ) -> PyResult<Vec<Hypothesis>> {
        let class = concept_class.inner.clone();
        let points = points_of(points)?;
        let matrix = bool_matrix(labels, "labels")?;
        let view = matrix.as_array();
        let (rows, k) = view.dim();
        if k == 0 {
            return Err(errors::multi(privpac_multi::Error::NoLabelColumns));
        }
        // Rows are read in place from a C-ordered matrix; any other layout (Fortran order,
        // a strided view) is copied once in row-major order.
        let owned;
        let flat: &[bool] = match matrix.as_slice() {
            Ok(flat) if matrix.is_c_contiguous() => flat,
            _ => {
                owned = view.iter().copied().collect::<Vec<bool>>();
                &owned
            }
        };
        let row_slices: Vec<&[bool]> = flat.chunks(k).take(rows).collect();
        let sample = MultiLabeledSample::from_rows(class.domain(), points, &row_slices)
            .map_err(errors::multi)?;
        let learner = self.build(k, sample.len())?;
        let hypotheses = py
            .detach(|| learner.learn(class.as_ref(), &sample, &mut rng(seed)))
            .map_err(errors::multi)?;
        let guarantee = learner.guarantee(sample.len(), k);
        let name = learner.name();
        Ok(hypotheses
            .into_iter()
            .map(|inner| Hypothesis {
                class: class.clone(),
                inner,
                guarantee,
                learner: name.clone(),
            })
            .collect())
    }

    /// The guarantee of one `fit` on `examples` rows with `k` label columns (for the whole
    /// k-tuple).
    fn guarantee(&self, examples: usize, k: usize) -> PyResult<Guarantee> {
        Ok(self.build(k, examples)?.guarantee(examples, k).into())
    }

    /// The spec string.
    #[getter]
    fn spec(&self) -> String {
        self.spec.to_string()
    }
}

/// Adds the learner, sanitizer and multi-learner bindings to the native module.
pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Hypothesis>()?;
    module.add_class::<Learner>()?;
    module.add_class::<Sanitizer>()?;
    module.add_class::<SyntheticDatabase>()?;
    module.add_class::<MultiLearner>()?;
    Ok(())
}
