//! Concept-class bindings: classes from spec strings (the CLI's, through `privpac_toolkit::ClassSpec`)
//! or numpy 0/1 matrices, exact VC and Littlestone dimensions with their witnesses as Python
//! objects (re-checked by the Rust checkers on request), and the online learners SOA and
//! Halving, interactively and in the CLI's adversarial harness.
//!
//! Points are the Rust `Point` (`u64`): the integers `0..N` for ordered domains, bit masks
//! for the hypercube `{0,1}^d`, column indices for a class given as a matrix. Witnesses
//! report domain points, converted from the matrix columns they are computed on.

use std::sync::{Arc, OnceLock};

use numpy::{PyArray1, PyArray2, prelude::*};
use privpac_classes::dimension::{
    Budget, Engine, LittlestoneTree as RustTree, check_littlestone_tree, check_shattered,
    littlestone_dimension, vc_dimension,
};
use privpac_classes::online::{Adversary, Halving as RustHalving, OnlineLearner, Soa as RustSoa};
use privpac_classes::online::{TieRule, run_online as rust_run_online};
use privpac_classes::{
    ClassMatrix, ConceptClass as RustClass, DEFAULT_CELL_LIMIT, ExplicitClass, Point, materialize,
};
use pyo3::prelude::*;

use crate::arrays::{bool_matrix, slice, u64_vector};
use crate::errors;
use crate::rng::{Seed, rng};

/// A concept class: a set of 0/1 functions (concepts, with ids 0..len) over a domain.
///
/// Build one with `ConceptClass.from_spec("thresholds:16")` (the CLI's spec strings:
/// points:N, thresholds:N, intervals:N, parities:D, halfspaces:K, all:N, matrix:PATH,
/// xor(SPEC), zero(SPEC), not(SPEC), both(SPEC)) or `ConceptClass.from_matrix(m)` for a 0/1 numpy matrix with one
/// concept per row and one domain point per column.
#[pyclass(frozen, module = "privpac", name = "ConceptClass")]
#[derive(Debug)]
pub(crate) struct ConceptClass {
    pub(crate) inner: Arc<dyn RustClass>,
    /// The class as an explicit matrix, materialized on first use (dimensions, online).
    matrix: OnceLock<Arc<ClassMatrix>>,
}

impl ConceptClass {
    pub(crate) fn new(inner: Arc<dyn RustClass>) -> Self {
        ConceptClass {
            inner,
            matrix: OnceLock::new(),
        }
    }

    /// The class as a matrix (rows = concepts, columns = domain points in order).
    fn class_matrix(&self, py: Python<'_>) -> PyResult<Arc<ClassMatrix>> {
        if let Some(matrix) = self.matrix.get() {
            return Ok(matrix.clone());
        }
        let class = self.inner.clone();
        let matrix = py
            .detach(|| materialize(class.as_ref(), DEFAULT_CELL_LIMIT))
            .map_err(errors::classes)?;
        Ok(self.matrix.get_or_init(|| Arc::new(matrix)).clone())
    }

    /// The domain point of matrix column `column`.
    fn point_of(&self, column: usize) -> Point {
        self.inner
            .domain()
            .point_at(column as u64)
            .unwrap_or(column as u64)
    }

    /// The matrix column of domain point `point`.
    fn column_of(&self, point: Point) -> PyResult<usize> {
        self.inner
            .domain()
            .index_of(point)
            .map(|i| i as usize)
            .ok_or_else(|| {
                errors::bad_input(format!(
                    "point {point} is outside the domain ({})",
                    self.inner.domain()
                ))
            })
    }
}

#[pymethods]
impl ConceptClass {
    /// The class of a spec string, exactly as the CLI's `--class` reads it. Raises
    /// InvalidParameterError for a bad spec, BadInputError for a bad matrix file.
    #[staticmethod]
    fn from_spec(spec: &str) -> PyResult<Self> {
        let spec: privpac_toolkit::ClassSpec = spec.parse().map_err(errors::lab)?;
        let class = spec.build().map_err(errors::lab)?;
        Ok(ConceptClass::new(Arc::from(class)))
    }

    /// The explicit class of a 0/1 matrix (numpy array or nested lists; bool or integer
    /// dtype, read in place when bool): concept i is row i, over the points 0..columns.
    /// Raises BadInputError for a ragged, empty or non-0/1 matrix, TooLargeError above
    /// 2^32 cells.
    #[staticmethod]
    #[pyo3(signature = (matrix, name = "matrix"))]
    fn from_matrix(py: Python<'_>, matrix: &Bound<'_, PyAny>, name: &str) -> PyResult<Self> {
        let array = bool_matrix(matrix, "matrix")?;
        let view = array.as_array();
        let (rows, columns) = view.dim();
        if rows == 0 || columns == 0 {
            return Err(errors::bad_input(format!(
                "the class matrix is empty (shape {rows} × {columns})"
            )));
        }
        let matrix = py
            .detach(|| ClassMatrix::from_fn(rows, columns, DEFAULT_CELL_LIMIT, |c, x| view[[c, x]]))
            .map_err(errors::classes)?;
        let class = ExplicitClass::new(matrix.clone(), name).map_err(errors::classes)?;
        let class = ConceptClass::new(Arc::new(class));
        let _ = class.matrix.set(Arc::new(matrix));
        Ok(class)
    }

    /// The class's name, as in CLI reports.
    #[getter]
    fn name(&self) -> String {
        self.inner.name()
    }

    /// |C|, the number of concepts (an int, possibly beyond 2^64).
    fn __len__(&self) -> PyResult<usize> {
        usize::try_from(self.inner.len()).map_err(|_| {
            errors::raise(
                errors::Kind::TooLarge,
                "the class has more concepts than len() can return; use n_concepts",
            )
        })
    }

    /// |C| as a Python int.
    #[getter]
    fn n_concepts(&self) -> u128 {
        self.inner.len()
    }

    /// |X|, the size of the domain.
    #[getter]
    fn domain_size(&self) -> u128 {
        self.inner.domain().size()
    }

    /// The labels concept `concept` gives the points (1-D uint64 array), as a bool array.
    /// Raises BadInputError for a concept id out of range or a point outside the domain.
    fn eval<'py>(
        &self,
        py: Python<'py>,
        concept: u64,
        points: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        if u128::from(concept) >= self.inner.len() {
            return Err(errors::classes(privpac_classes::Error::ConceptOutOfRange {
                id: concept,
                len: self.inner.len(),
            }));
        }
        let points = u64_vector(points, "points")?;
        let points = slice(&points);
        let class = self.inner.clone();
        let labels = py
            .detach(|| {
                points
                    .iter()
                    .map(|&x| {
                        class.domain().check(x)?;
                        Ok(class.eval(concept, x))
                    })
                    .collect::<Result<Vec<bool>, privpac_classes::Error>>()
            })
            .map_err(errors::classes)?;
        Ok(labels.into_pyarray(py))
    }

    /// The class as a bool numpy matrix (rows = concepts, columns = domain points in
    /// order). Raises TooLargeError above 2^32 cells.
    fn to_matrix<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let matrix = self.class_matrix(py)?;
        let (rows, columns) = (matrix.n_concepts(), matrix.n_points());
        let cells: Vec<bool> = py.detach(|| {
            (0..rows)
                .flat_map(|c| (0..columns).map(move |x| (c, x)))
                .map(|(c, x)| matrix.get(c, x))
                .collect()
        });
        let array = numpy::ndarray::Array2::from_shape_vec((rows, columns), cells)
            .map_err(|e| errors::bad_input(e.to_string()))?;
        Ok(array.into_pyarray(py))
    }

    /// The exact VC dimension with a shattered set of that size as witness (Vapnik and
    /// Chervonenkis 1971; branch and bound). The GIL is released. Raises TooLargeError when
    /// the search exceeds `max_states` nodes (default 20 million) or the class has more
    /// than 2^32 matrix cells.
    #[pyo3(signature = (*, max_states = None))]
    fn vc_dimension(&self, py: Python<'_>, max_states: Option<u64>) -> PyResult<VcDimension> {
        let matrix = self.class_matrix(py)?;
        let budget = budget(max_states);
        let result = py
            .detach(|| vc_dimension(&matrix, &budget))
            .map_err(errors::classes)?;
        Ok(VcDimension {
            dimension: result.dimension,
            shattered: result.shattered.iter().map(|&c| self.point_of(c)).collect(),
        })
    }

    /// The exact Littlestone dimension with a shattered Littlestone tree of that depth as
    /// witness (Littlestone 1988). `engine` is "pruned" (default) or "plain" (the
    /// unpruned reference recursion). The GIL is released. Raises TooLargeError when the
    /// search exceeds `max_states` memo entries (default 20 million).
    #[pyo3(signature = (*, engine = "pruned", max_states = None))]
    fn littlestone_dimension(
        &self,
        py: Python<'_>,
        engine: &str,
        max_states: Option<u64>,
    ) -> PyResult<LittlestoneDimension> {
        let engine = match engine {
            "pruned" => Engine::Pruned,
            "plain" => Engine::Plain,
            other => {
                return Err(errors::invalid(format!(
                    "unknown engine {other:?} (expected pruned or plain)"
                )));
            }
        };
        let matrix = self.class_matrix(py)?;
        let budget = budget(max_states);
        let result = py
            .detach(|| littlestone_dimension(&matrix, engine, &budget))
            .map_err(errors::classes)?;
        Ok(LittlestoneDimension {
            dimension: result.dimension,
            tree: Py::new(py, self.tree(result.tree))?,
        })
    }

    /// Checks that the points are shattered (every labeling appears); raises BadInputError
    /// naming the missing labeling otherwise.
    fn check_shattered(&self, py: Python<'_>, points: &Bound<'_, PyAny>) -> PyResult<()> {
        let points = u64_vector(points, "points")?;
        let matrix = self.class_matrix(py)?;
        let columns = slice(&points)
            .iter()
            .map(|&x| self.column_of(x))
            .collect::<PyResult<Vec<usize>>>()?;
        check_shattered(&matrix, &columns).map_err(errors::classes)
    }

    /// Checks that the tree is a shattered Littlestone tree of the class and returns its
    /// depth; raises BadInputError otherwise.
    fn check_littlestone_tree(&self, py: Python<'_>, tree: &LittlestoneTree) -> PyResult<u32> {
        let matrix = self.class_matrix(py)?;
        let columns = columns_tree(&tree.inner, &|x| self.column_of(x))?;
        check_littlestone_tree(&matrix, &columns).map_err(errors::classes)
    }

    fn __repr__(&self) -> String {
        format!("ConceptClass({:?})", self.inner.name())
    }
}

impl ConceptClass {
    /// A witness tree over matrix columns as a Python tree over domain points.
    fn tree(&self, tree: RustTree) -> LittlestoneTree {
        LittlestoneTree {
            inner: points_tree(tree, &|c| self.point_of(c)),
        }
    }
}

fn budget(max_states: Option<u64>) -> Budget {
    max_states.map_or_else(Budget::default, |max_states| Budget { max_states })
}

/// The same tree with every node's point mapped.
fn points_tree(tree: RustTree, map: &dyn Fn(usize) -> Point) -> RustTree {
    match tree {
        RustTree::Leaf => RustTree::Leaf,
        RustTree::Node { point, zero, one } => RustTree::Node {
            point: map(point) as usize,
            zero: Box::new(points_tree(*zero, map)),
            one: Box::new(points_tree(*one, map)),
        },
    }
}

/// The tree with domain points turned back into matrix columns.
fn columns_tree(tree: &RustTree, map: &dyn Fn(Point) -> PyResult<usize>) -> PyResult<RustTree> {
    Ok(match tree {
        RustTree::Leaf => RustTree::Leaf,
        RustTree::Node { point, zero, one } => RustTree::Node {
            point: map(*point as Point)?,
            zero: Box::new(columns_tree(zero, map)?),
            one: Box::new(columns_tree(one, map)?),
        },
    })
}

/// The VC dimension of a class and its witness: a shattered set of domain points of that
/// size (every one of the 2^d labelings is realized by a concept).
#[pyclass(frozen, get_all, module = "privpac", name = "VcDimension")]
#[derive(Debug)]
pub(crate) struct VcDimension {
    /// The VC dimension d.
    dimension: u32,
    /// A shattered set of d points.
    shattered: Vec<Point>,
}

#[pymethods]
impl VcDimension {
    fn __repr__(&self) -> String {
        format!(
            "VcDimension(dimension={}, shattered={:?})",
            self.dimension, self.shattered
        )
    }
}

/// The Littlestone dimension of a class and its witness: a complete binary tree of that
/// depth whose every root-to-leaf path (points with the labels of the edges taken) is
/// realized by a concept.
#[pyclass(frozen, get_all, module = "privpac", name = "LittlestoneDimension")]
#[derive(Debug)]
pub(crate) struct LittlestoneDimension {
    /// Ldim(C).
    dimension: u32,
    /// A shattered Littlestone tree of depth Ldim(C).
    tree: Py<LittlestoneTree>,
}

#[pymethods]
impl LittlestoneDimension {
    fn __repr__(&self) -> String {
        format!("LittlestoneDimension(dimension={})", self.dimension)
    }
}

/// A Littlestone tree: a leaf, or a node with a domain point, the subtree `zero` followed
/// when the label is 0 and the subtree `one` followed when it is 1.
#[pyclass(frozen, module = "privpac", name = "LittlestoneTree")]
#[derive(Debug, Clone)]
pub(crate) struct LittlestoneTree {
    /// The tree over domain points.
    inner: RustTree,
}

#[pymethods]
impl LittlestoneTree {
    /// True for a leaf.
    #[getter]
    fn is_leaf(&self) -> bool {
        matches!(self.inner, RustTree::Leaf)
    }

    /// The point queried at this node (None at a leaf).
    #[getter]
    fn point(&self) -> Option<Point> {
        match &self.inner {
            RustTree::Node { point, .. } => Some(*point as Point),
            RustTree::Leaf => None,
        }
    }

    /// The subtree for label 0 (None at a leaf).
    #[getter]
    fn zero(&self) -> Option<LittlestoneTree> {
        match &self.inner {
            RustTree::Node { zero, .. } => Some(LittlestoneTree {
                inner: (**zero).clone(),
            }),
            RustTree::Leaf => None,
        }
    }

    /// The subtree for label 1 (None at a leaf).
    #[getter]
    fn one(&self) -> Option<LittlestoneTree> {
        match &self.inner {
            RustTree::Node { one, .. } => Some(LittlestoneTree {
                inner: (**one).clone(),
            }),
            RustTree::Leaf => None,
        }
    }

    /// The depth (length of every root-to-leaf path of a witness tree).
    #[getter]
    fn depth(&self) -> u32 {
        self.inner.depth()
    }

    /// Every root-to-leaf path as a list of (point, label) pairs.
    fn paths(&self) -> Vec<Vec<(Point, bool)>> {
        fn walk(
            tree: &RustTree,
            prefix: &mut Vec<(Point, bool)>,
            out: &mut Vec<Vec<(Point, bool)>>,
        ) {
            match tree {
                RustTree::Leaf => out.push(prefix.clone()),
                RustTree::Node { point, zero, one } => {
                    for (label, child) in [(false, zero), (true, one)] {
                        prefix.push((*point as Point, label));
                        walk(child, prefix, out);
                        prefix.pop();
                    }
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.inner, &mut Vec::new(), &mut out);
        out
    }

    /// The tree as JSON, in the format of `privpac dim --json` (`littlestone_tree`).
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.inner).map_err(|e| errors::raise(errors::Kind::Other, e))
    }

    fn __repr__(&self) -> String {
        match &self.inner {
            RustTree::Leaf => "LittlestoneTree(leaf)".to_owned(),
            RustTree::Node { point, .. } => {
                format!(
                    "LittlestoneTree(point={point}, depth={})",
                    self.inner.depth()
                )
            }
        }
    }
}

fn tie_rule(tie: &str) -> PyResult<TieRule> {
    match tie {
        "one" => Ok(TieRule::PredictOne),
        "zero" => Ok(TieRule::PredictZero),
        other => Err(errors::invalid(format!(
            "unknown tie rule {other:?} (expected one or zero)"
        ))),
    }
}

/// Which online learner an `OnlineLearner` object runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OnlineKind {
    Soa,
    Halving,
}

/// The state shared by the interactive `Soa` and `Halving`: the class matrix and the
/// examples seen so far. Each prediction replays the examples into a fresh Rust learner
/// (the Rust learners borrow their matrix, which a Python object cannot hold), so a
/// prediction costs O(examples · |C|/64) word operations plus, for SOA, two Littlestone
/// dimension computations without the memo of earlier rounds.
#[derive(Debug)]
struct OnlineState {
    class: Py<ConceptClass>,
    matrix: Arc<ClassMatrix>,
    tie_rule: TieRule,
    history: Vec<(usize, bool)>,
    max_states: Option<u64>,
}

impl OnlineState {
    fn new(
        py: Python<'_>,
        class: Py<ConceptClass>,
        tie: &str,
        max_states: Option<u64>,
    ) -> PyResult<Self> {
        let matrix = class.get().class_matrix(py)?;
        Ok(OnlineState {
            class,
            matrix,
            tie_rule: tie_rule(tie)?,
            history: Vec::new(),
            max_states,
        })
    }

    fn with_learner<T>(
        &self,
        kind: OnlineKind,
        f: impl FnOnce(&mut dyn OnlineLearner) -> privpac_classes::Result<T>,
    ) -> privpac_classes::Result<T> {
        let mut learner: Box<dyn OnlineLearner + '_> = match kind {
            OnlineKind::Soa => Box::new(RustSoa::new(
                &self.matrix,
                self.tie_rule,
                budget(self.max_states),
            )),
            OnlineKind::Halving => Box::new(RustHalving::new(&self.matrix, self.tie_rule)),
        };
        for &(x, y) in &self.history {
            learner.update(x, y)?;
        }
        f(learner.as_mut())
    }

    fn predict(&self, py: Python<'_>, kind: OnlineKind, x: Point) -> PyResult<bool> {
        let column = self.class.get().column_of(x)?;
        py.detach(|| self.with_learner(kind, |learner| learner.predict(column)))
            .map_err(errors::classes)
    }

    fn update(&mut self, kind: OnlineKind, x: Point, y: bool) -> PyResult<()> {
        let column = self.class.get().column_of(x)?;
        self.with_learner(kind, |learner| learner.update(column, y))
            .map_err(errors::classes)?;
        self.history.push((column, y));
        Ok(())
    }
}

/// The Standard Optimal Algorithm (Littlestone 1988), interactively: predicts the label
/// whose version space has the larger Littlestone dimension (ties by `tie`, "one" or
/// "zero"). Guarantee (mistake bound): at most Ldim(C) mistakes on any realizable
/// sequence, which is optimal. `update` raises BadInputError when no concept is consistent
/// with the examples (the version space is left as it was).
#[pyclass(module = "privpac", name = "Soa")]
#[derive(Debug)]
pub(crate) struct Soa {
    state: OnlineState,
}

#[pymethods]
impl Soa {
    #[new]
    #[pyo3(signature = (concept_class, *, tie = "one", max_states = None))]
    fn new(
        py: Python<'_>,
        concept_class: Py<ConceptClass>,
        tie: &str,
        max_states: Option<u64>,
    ) -> PyResult<Self> {
        Ok(Soa {
            state: OnlineState::new(py, concept_class, tie, max_states)?,
        })
    }

    /// The prediction for point x (GIL released).
    fn predict(&self, py: Python<'_>, x: Point) -> PyResult<bool> {
        self.state.predict(py, OnlineKind::Soa, x)
    }

    /// Reveals the true label y of x.
    fn update(&mut self, x: Point, y: bool) -> PyResult<()> {
        self.state.update(OnlineKind::Soa, x, y)
    }

    /// Ldim of the current version space.
    fn current_ldim(&self, py: Python<'_>) -> PyResult<i32> {
        let state = &self.state;
        let matrix = state.matrix.clone();
        let history = state.history.clone();
        let (tie_rule, max_states) = (state.tie_rule, state.max_states);
        py.detach(|| {
            let mut soa = RustSoa::new(&matrix, tie_rule, budget(max_states));
            for (x, y) in history {
                soa.update(x, y)?;
            }
            soa.current_ldim()
        })
        .map_err(errors::classes)
    }
}

/// The Halving algorithm, interactively: predicts the majority label of the version space
/// (ties by `tie`). Guarantee (mistake bound): at most ⌊log2 |C|⌋ mistakes on any
/// realizable sequence (each mistake at least halves the version space).
#[pyclass(module = "privpac", name = "Halving")]
#[derive(Debug)]
pub(crate) struct Halving {
    state: OnlineState,
}

#[pymethods]
impl Halving {
    #[new]
    #[pyo3(signature = (concept_class, *, tie = "one"))]
    fn new(py: Python<'_>, concept_class: Py<ConceptClass>, tie: &str) -> PyResult<Self> {
        Ok(Halving {
            state: OnlineState::new(py, concept_class, tie, None)?,
        })
    }

    /// The prediction for point x.
    fn predict(&self, py: Python<'_>, x: Point) -> PyResult<bool> {
        self.state.predict(py, OnlineKind::Halving, x)
    }

    /// Reveals the true label y of x.
    fn update(&mut self, x: Point, y: bool) -> PyResult<()> {
        self.state.update(OnlineKind::Halving, x, y)
    }
}

/// The outcome of `run_online`: mistakes against the learner's mistake bound, and the
/// transcript of (point, true label, prediction) per round.
#[pyclass(frozen, get_all, module = "privpac", name = "OnlineResult")]
#[derive(Debug)]
pub(crate) struct OnlineResult {
    /// "soa" or "halving".
    learner: String,
    /// Rounds played.
    rounds: usize,
    /// Mistakes made.
    mistakes: usize,
    /// The learner's mistake bound: Ldim(C) for SOA, ⌊log2 |C|⌋ for Halving.
    mistake_bound: i64,
    /// Ldim(C).
    littlestone_dimension: i32,
    /// One (point, label, prediction) per round.
    transcript: Vec<(Point, bool, bool)>,
}

#[pymethods]
impl OnlineResult {
    fn __repr__(&self) -> String {
        format!(
            "OnlineResult(learner={:?}, rounds={}, mistakes={}, mistake_bound={})",
            self.learner, self.rounds, self.mistakes, self.mistake_bound
        )
    }
}

/// Plays `rounds` rounds of an adversary against SOA or Halving, as `privpac online`
/// does (same seed, same transcript). `adversary` "tree" walks a shattered Littlestone
/// tree and forces a mistake per level (exactly Ldim(C) mistakes on SOA), then labels random
/// points by a consistent concept; "random" labels random points by a random target.
/// Raises TooLargeError for more than 2^24 rounds.
#[pyfunction]
#[pyo3(signature = (concept_class, *, learner = "soa", adversary = "tree", rounds = 100, tie = "one", seed = None))]
fn run_online(
    py: Python<'_>,
    concept_class: &ConceptClass,
    learner: &str,
    adversary: &str,
    rounds: usize,
    tie: &str,
    seed: Option<Seed>,
) -> PyResult<OnlineResult> {
    privpac_toolkit::check_count("rounds", rounds, privpac_classes::online::MAX_ONLINE_ROUNDS)
        .map_err(errors::lab)?;
    let kind = match learner {
        "soa" => OnlineKind::Soa,
        "halving" => OnlineKind::Halving,
        other => {
            return Err(errors::invalid(format!(
                "unknown online learner {other:?} (expected soa or halving)"
            )));
        }
    };
    let use_tree = match adversary {
        "tree" => true,
        "random" => false,
        other => {
            return Err(errors::invalid(format!(
                "unknown adversary {other:?} (expected tree or random)"
            )));
        }
    };
    let tie_rule = tie_rule(tie)?;
    let matrix = concept_class.class_matrix(py)?;
    let report = py
        .detach(|| -> privpac_classes::Result<_> {
            let mut solver = privpac_classes::dimension::LittlestoneSolver::new(
                &matrix,
                Engine::Pruned,
                Budget::default(),
            );
            let all = matrix.all_concepts();
            let ldim = solver.ldim(&all)?;
            let adversary = if use_tree {
                Adversary::Tree(solver.tree(&all)?)
            } else {
                Adversary::Random
            };
            let (mut learner, bound): (Box<dyn OnlineLearner + '_>, i64) = match kind {
                OnlineKind::Soa => (
                    Box::new(RustSoa::new(&matrix, tie_rule, Budget::default())),
                    i64::from(ldim),
                ),
                OnlineKind::Halving => (
                    Box::new(RustHalving::new(&matrix, tie_rule)),
                    i64::from(matrix.n_concepts().max(1).ilog2()),
                ),
            };
            let played = rust_run_online(
                learner.as_mut(),
                &matrix,
                &adversary,
                rounds,
                &mut rng(seed),
            )?;
            Ok((played, bound, ldim))
        })
        .map_err(errors::classes)?;
    let (played, mistake_bound, littlestone_dimension) = report;
    Ok(OnlineResult {
        learner: played.learner,
        rounds: played.rounds,
        mistakes: played.mistakes,
        mistake_bound,
        littlestone_dimension,
        transcript: played
            .transcript
            .iter()
            .map(|&(x, y, p)| (concept_class.point_of(x), y, p))
            .collect(),
    })
}

/// Adds the concept-class bindings to the native module.
pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<ConceptClass>()?;
    module.add_class::<VcDimension>()?;
    module.add_class::<LittlestoneDimension>()?;
    module.add_class::<LittlestoneTree>()?;
    module.add_class::<Soa>()?;
    module.add_class::<Halving>()?;
    module.add_class::<OnlineResult>()?;
    module.add_function(wrap_pyfunction!(run_online, module)?)?;
    Ok(())
}
