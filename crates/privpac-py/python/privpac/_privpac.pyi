# Type stubs of the native module privpac._privpac (written by hand from the bindings in
# crates/privpac-py/src; CI checks them against the module with mypy.stubtest).

from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol, final

import numpy as np
import numpy.typing as npt

from . import audit as audit, data as data, experiment as experiment

__version__: str

__all__ = [
    "__version__",
    "Privacy",
    "Guarantee",
    "ExponentialMechanism",
    "DiscreteLaplace",
    "DiscreteLaplaceMechanism",
    "ReportNoisyMax",
    "StableSelection",
    "SparseVector",
    "Accountant",
    "basic_composition",
    "advanced_composition",
    "optimal_composition",
    "optimal_composition_delta",
    "heterogeneous_advanced_composition",
    "group_privacy",
    "amplification_by_subsampling",
    "secrecy_of_the_sample",
    "ConceptClass",
    "VcDimension",
    "LittlestoneDimension",
    "LittlestoneTree",
    "Soa",
    "Halving",
    "OnlineResult",
    "run_online",
    "Hypothesis",
    "Learner",
    "Sanitizer",
    "SyntheticDatabase",
    "MultiLearner",
    "sample_complexity",
    "run_trials",
    "sample_complexity_curve",
    "k_curve",
    "fingerprinting_attack",
    "section_1_3_tables",
    "experiment",
    "audit",
    "data",
]

_Seed = int | None

# ----- mechanisms -----

@final
class Privacy:
    def __new__(cls, epsilon: float, delta: float = 0.0) -> Privacy: ...
    @property
    def epsilon(self) -> float: ...
    @property
    def delta(self) -> float: ...
    @property
    def is_pure(self) -> bool: ...
    def __eq__(self, value: object, /) -> bool: ...

@final
class Guarantee:
    @staticmethod
    def per_prediction(epsilon: float) -> Guarantee: ...
    @property
    def kind(self) -> Literal["differential-privacy", "per-prediction", "uniform-stability", "none"]: ...
    @property
    def epsilon(self) -> float | None: ...
    @property
    def delta(self) -> float | None: ...
    @property
    def beta(self) -> float | None: ...
    @property
    def privacy(self) -> Privacy | None: ...
    def __eq__(self, value: object, /) -> bool: ...

@final
class DiscreteLaplace:
    def __new__(cls, scale: float) -> DiscreteLaplace: ...
    @property
    def scale(self) -> float: ...
    def pmf(self, k: int) -> float: ...
    def sample(self, size: int, *, seed: _Seed = None) -> npt.NDArray[np.int64]: ...

@final
class DiscreteLaplaceMechanism:
    def __new__(cls, epsilon: float, sensitivity: int = 1) -> DiscreteLaplaceMechanism: ...
    @property
    def noise(self) -> DiscreteLaplace: ...
    @property
    def privacy(self) -> Privacy: ...
    def release(self, value: int | npt.ArrayLike, *, seed: _Seed = None) -> Any: ...

@final
class ExponentialMechanism:
    def __new__(cls, epsilon: float, sensitivity: float = 1.0) -> ExponentialMechanism: ...
    @property
    def privacy(self) -> Privacy: ...
    @property
    def sensitivity(self) -> float: ...
    def select(self, scores: npt.ArrayLike, *, seed: _Seed = None) -> int: ...
    def probabilities(self, scores: npt.ArrayLike) -> npt.NDArray[np.float64]: ...
    def log_probabilities(self, scores: npt.ArrayLike) -> npt.NDArray[np.float64]: ...

@final
class ReportNoisyMax:
    def __new__(cls, epsilon: float, sensitivity: int = 1) -> ReportNoisyMax: ...
    @property
    def privacy(self) -> Privacy: ...
    def select(self, scores: npt.ArrayLike, *, seed: _Seed = None) -> int: ...

@final
class StableSelection:
    def __new__(cls, epsilon: float, delta: float, sensitivity: int = 1) -> StableSelection: ...
    @property
    def privacy(self) -> Privacy: ...
    @property
    def threshold(self) -> float: ...
    def select(self, scores: npt.ArrayLike, *, seed: _Seed = None) -> int | None: ...
    def output_distribution(self, scores: npt.ArrayLike) -> npt.NDArray[np.float64]: ...

@final
class SparseVector:
    def __new__(
        cls,
        epsilon: float,
        threshold: int,
        *,
        delta: float = 0.0,
        sensitivity: int = 1,
        max_above: int = 1,
        seed: _Seed = None,
    ) -> SparseVector: ...
    @property
    def privacy(self) -> Privacy: ...
    @property
    def remaining(self) -> int: ...
    def query(self, answer: int) -> bool: ...

@final
class Accountant:
    def __new__(cls) -> Accountant: ...
    def __len__(self) -> int: ...
    def record(self, label: str, guarantee: Privacy | Guarantee) -> None: ...
    def record_subsampled(self, label: str, guarantee: Privacy, rate: float) -> None: ...
    def record_discrete_laplace(
        self, label: str, scale: float, sensitivity: int = 1, *, rate: float = 1.0
    ) -> None: ...
    def record_bounded_range(self, label: str, epsilon: float, *, rate: float = 1.0) -> None: ...
    def entries(self) -> list[tuple[str, Guarantee]]: ...
    def total(
        self,
        rule: Literal["basic", "advanced", "optimal", "pld", "best"] = "basic",
        *,
        delta_prime: float | None = None,
        epsilon_error: float | None = None,
    ) -> Privacy: ...
    def pld_bounds(
        self, delta_prime: float, *, epsilon_error: float | None = None
    ) -> dict[str, float]: ...

def basic_composition(guarantees: list[Privacy]) -> Privacy: ...
def advanced_composition(each: Privacy, m: int, delta_prime: float) -> Privacy: ...
def heterogeneous_advanced_composition(guarantees: list[Privacy], delta_prime: float) -> Privacy: ...
def optimal_composition(each: Privacy, k: int, delta_prime: float) -> Privacy: ...
def optimal_composition_delta(each: Privacy, k: int, epsilon_prime: float) -> float: ...
def group_privacy(each: Privacy, k: int) -> Privacy: ...
def amplification_by_subsampling(
    each: Privacy,
    *,
    rate: float | None = None,
    sample_size: int | None = None,
    population_size: int | None = None,
) -> Privacy: ...
def secrecy_of_the_sample(each: Privacy, inner_size: int, outer_size: int) -> Privacy: ...

# ----- concept classes and online learning -----

@final
class VcDimension:
    @property
    def dimension(self) -> int: ...
    @property
    def shattered(self) -> list[int]: ...

@final
class LittlestoneTree:
    @property
    def depth(self) -> int: ...
    @property
    def is_leaf(self) -> bool: ...
    @property
    def point(self) -> int | None: ...
    @property
    def zero(self) -> LittlestoneTree | None: ...
    @property
    def one(self) -> LittlestoneTree | None: ...
    def paths(self) -> list[list[tuple[int, bool]]]: ...
    def to_json(self) -> str: ...

@final
class LittlestoneDimension:
    @property
    def dimension(self) -> int: ...
    @property
    def tree(self) -> LittlestoneTree: ...

@final
class ConceptClass:
    @staticmethod
    def from_spec(spec: str) -> ConceptClass: ...
    @staticmethod
    def from_matrix(matrix: npt.ArrayLike, name: str = "matrix") -> ConceptClass: ...
    def __len__(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def n_concepts(self) -> int: ...
    @property
    def domain_size(self) -> int: ...
    def eval(self, concept: int, points: npt.ArrayLike) -> npt.NDArray[np.bool_]: ...
    def to_matrix(self) -> npt.NDArray[np.bool_]: ...
    def vc_dimension(self, *, max_states: int | None = None) -> VcDimension: ...
    def littlestone_dimension(
        self, *, engine: Literal["pruned", "memo"] = "pruned", max_states: int | None = None
    ) -> LittlestoneDimension: ...
    def check_shattered(self, points: npt.ArrayLike) -> None: ...
    def check_littlestone_tree(self, tree: LittlestoneTree) -> int: ...

@final
class Soa:
    def __new__(
        cls, concept_class: ConceptClass, *, tie: str = "one", max_states: int | None = None
    ) -> Soa: ...
    def predict(self, x: int) -> bool: ...
    def update(self, x: int, y: bool) -> None: ...
    def current_ldim(self) -> int: ...

@final
class Halving:
    def __new__(cls, concept_class: ConceptClass, *, tie: str = "one") -> Halving: ...
    def predict(self, x: int) -> bool: ...
    def update(self, x: int, y: bool) -> None: ...

@final
class OnlineResult:
    @property
    def learner(self) -> str: ...
    @property
    def littlestone_dimension(self) -> int: ...
    @property
    def mistake_bound(self) -> int: ...
    @property
    def mistakes(self) -> int: ...
    @property
    def rounds(self) -> int: ...
    @property
    def transcript(self) -> list[tuple[int, bool, bool]]: ...

def run_online(
    concept_class: ConceptClass,
    *,
    learner: Literal["soa", "halving"] = "soa",
    adversary: Literal["tree", "random"] = "tree",
    rounds: int = 100,
    tie: str = "one",
    seed: _Seed = None,
) -> OnlineResult: ...

# ----- learners, sanitizers, multi-learners -----

@final
class Hypothesis:
    @property
    def kind(self) -> str: ...
    @property
    def concept(self) -> int | None: ...
    @property
    def is_deterministic(self) -> bool: ...
    @property
    def learner(self) -> str: ...
    @property
    def guarantee(self) -> Guarantee: ...
    def labels(self, points: npt.ArrayLike) -> npt.NDArray[np.bool_]: ...
    def predict(self, points: npt.ArrayLike, *, seed: _Seed = None) -> npt.NDArray[np.bool_]: ...
    def probability_of_one(self, points: npt.ArrayLike) -> npt.NDArray[np.float64]: ...
    def empirical_error(self, points: npt.ArrayLike, labels: npt.ArrayLike) -> float: ...
    def to_json(self) -> str: ...

@final
class Learner:
    def __new__(
        cls,
        spec: str,
        *,
        epsilon: float | None = None,
        delta: float = 0.0,
        subset_size: int | None = None,
        flip_probability: float | None = None,
        voters: int = 7,
        vote_epsilon: float = 1.0,
        alpha: float = 0.1,
        rounds: int = 20,
        database_size: int = 4,
        beta: float = 0.1,
        buckets: int | None = None,
        em_epsilon: float | None = None,
    ) -> Learner: ...
    @property
    def spec(self) -> str: ...
    def fit(
        self,
        concept_class: ConceptClass,
        points: npt.ArrayLike,
        labels: npt.ArrayLike,
        *,
        seed: _Seed = None,
    ) -> Hypothesis: ...
    def guarantee(self, concept_class: ConceptClass, examples: int) -> Guarantee: ...

@final
class MultiLearner:
    def __new__(
        cls,
        spec: str,
        epsilon: float,
        *,
        delta: float = 0.0,
        subset_size: int | None = None,
        flip_probability: float | None = None,
        voters: int = 7,
        vote_epsilon: float = 1.0,
        alpha: float = 0.1,
        rounds: int = 20,
        database_size: int = 4,
        beta: float = 0.1,
        buckets: int | None = None,
        em_epsilon: float | None = None,
    ) -> MultiLearner: ...
    @property
    def spec(self) -> str: ...
    def fit(
        self,
        concept_class: ConceptClass,
        points: npt.ArrayLike,
        labels: npt.ArrayLike,
        *,
        seed: _Seed = None,
    ) -> list[Hypothesis]: ...
    def guarantee(self, examples: int, k: int) -> Guarantee: ...

@final
class SyntheticDatabase:
    @property
    def sanitizer(self) -> str: ...
    @property
    def privacy(self) -> Privacy: ...
    @property
    def support_len(self) -> int: ...
    def answer(self, concept: int) -> float: ...
    def max_query_error(self, points: npt.ArrayLike) -> tuple[float, int]: ...
    def weights(self) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.float64]]: ...

@final
class Sanitizer:
    def __new__(
        cls,
        spec: str,
        epsilon: float,
        *,
        delta: float = 0.0,
        alpha: float = 0.1,
        rounds: int = 20,
        database_size: int = 4,
    ) -> Sanitizer: ...
    @property
    def name(self) -> str: ...
    @property
    def privacy(self) -> Privacy: ...
    def sanitize(
        self, concept_class: ConceptClass, points: npt.ArrayLike, *, seed: _Seed = None
    ) -> SyntheticDatabase: ...

# ----- the lab -----

class _FitLearner(Protocol):
    def fit(
        self, points: npt.NDArray[np.uint64], labels: npt.NDArray[np.bool_], seed: int, /
    ) -> int | np.integer[Any]: ...

_PythonLearner = (
    Callable[[npt.NDArray[np.uint64], npt.NDArray[np.bool_], int], int | np.integer[Any]]
    | _FitLearner
)

class _HasPredict(Protocol):
    def predict(self, points: npt.NDArray[np.uint64], /) -> npt.ArrayLike: ...

# A vectorized predictor: labels (0/1) of a uint64 array of points.
_Predictor = Callable[[npt.NDArray[np.uint64]], npt.ArrayLike] | _HasPredict

class _FitPredictorLearner(Protocol):
    def fit(
        self, points: npt.NDArray[np.uint64], labels: npt.NDArray[np.bool_], seed: int, /
    ) -> int | np.integer[Any] | _Predictor: ...

_PredictorLearner = (
    Callable[
        [npt.NDArray[np.uint64], npt.NDArray[np.bool_], int],
        int | np.integer[Any] | _Predictor,
    ]
    | _FitPredictorLearner
)

def sample_complexity(
    class_spec: str,
    learner: str | _PredictorLearner,
    *,
    epsilon: float | None = None,
    delta: float = 0.0,
    alpha: float,
    beta: float,
    seed: int,
    distribution: Literal["uniform", "zipf", "point"] = "uniform",
    target: int | None = None,
    label_noise: float = 0.0,
    trials: int = 100,
    max_size: int = ...,
    subset_size: int | None = None,
    flip_probability: float | None = None,
    voters: int = 7,
    vote_epsilon: float = 1.0,
    em_epsilon: float | None = None,
    guarantee: Privacy | Guarantee | Literal["none"] | None = None,
    true_error: Literal["auto", "exact", "estimated"] = "auto",
    holdout: int | None = None,
    confidence: float = 0.95,
) -> dict[str, Any]: ...
def run_trials(
    class_spec: str,
    learner: str | _PredictorLearner,
    sample_size: int,
    *,
    epsilon: float | None = None,
    alpha: float,
    seed: int,
    beta: float = 0.1,
    distribution: Literal["uniform", "zipf", "point"] = "uniform",
    target: int | None = None,
    label_noise: float = 0.0,
    trials: int = 100,
    subset_size: int | None = None,
    flip_probability: float | None = None,
    voters: int = 7,
    vote_epsilon: float = 1.0,
    em_epsilon: float | None = None,
    guarantee: Privacy | Guarantee | Literal["none"] | None = None,
    true_error: Literal["auto", "exact", "estimated"] = "auto",
    holdout: int | None = None,
    confidence: float = 0.95,
) -> dict[str, Any]: ...
def sample_complexity_curve(
    class_spec: str,
    learner: str,
    epsilons: npt.ArrayLike,
    *,
    alpha: float,
    beta: float,
    seed: int,
    distribution: Literal["uniform", "zipf", "point"] = "uniform",
    target: int | None = None,
    label_noise: float = 0.0,
    trials: int = 100,
    max_size: int = ...,
    subset_size: int | None = None,
    flip_probability: float | None = None,
    voters: int = 7,
    vote_epsilon: float = 1.0,
) -> dict[str, Any]: ...

class _FitMultiLearner(Protocol):
    def fit(
        self, points: npt.NDArray[np.uint64], labels: npt.NDArray[np.bool_], seed: int, /
    ) -> npt.ArrayLike | Sequence[int | np.integer[Any] | _Predictor]: ...

_PythonMultiLearner = (
    Callable[
        [npt.NDArray[np.uint64], npt.NDArray[np.bool_], int],
        npt.ArrayLike | Sequence[int | np.integer[Any] | _Predictor],
    ]
    | _FitMultiLearner
)

def k_curve(
    class_spec: str,
    learner: str | _PythonMultiLearner,
    ks: list[int],
    *,
    epsilon: float | None = None,
    delta: float = 0.0,
    alpha: float,
    beta: float,
    seed: int,
    distribution: Literal["uniform", "zipf", "point"] | None = None,
    label_noise: float = 0.0,
    trials: int = 100,
    max_size: int = ...,
    guarantee: Privacy | Guarantee | Literal["none"] | None = None,
) -> dict[str, Any]: ...

# ----- multi-learning lower bounds (Bun–Nissim–Stemmer §4, §1.3) -----

def fingerprinting_attack(
    learner: Literal["erm"] | MultiLearner,
    class_spec: str,
    k: int,
    users: int,
    *,
    code: Literal["boneh-shaw", "tardos"] = "boneh-shaw",
    trials: int = 100,
    xi: float = 0.1,
    padding: float | None = None,
    confidence: float = 0.95,
    seed: _Seed = None,
) -> dict[str, Any]: ...
def section_1_3_tables() -> list[dict[str, Any]]: ...
