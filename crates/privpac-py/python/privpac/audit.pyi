# Type stubs of privpac.audit (a native submodule of privpac._privpac).

from collections.abc import Callable, Sequence
from typing import Any, final

import numpy.typing as npt

from ._privpac import Guarantee, Privacy, _PredictorLearner

__all__ = [
    "Audit",
    "audit_finite",
    "audit_real",
    "audit_learner",
    "zoo_names",
    "audit_zoo",
    "statdp_patterns",
]

@final
class Audit:
    @property
    def epsilon_lower_bound(self) -> float: ...
    @property
    def confidence(self) -> float: ...
    @property
    def delta(self) -> float: ...
    @property
    def runs(self) -> int: ...
    @property
    def selection_runs(self) -> int: ...
    @property
    def screening_runs(self) -> int: ...
    @property
    def total_runs(self) -> int: ...
    @property
    def pairs(self) -> list[dict[str, Any]]: ...
    def refutes(self, epsilon: float) -> bool: ...
    def delta_lower_bound(self, epsilon: float) -> float: ...

_Mechanism = Callable[[Any, int, int], npt.ArrayLike]

def audit_finite(
    mechanism: _Mechanism,
    pairs: Sequence[tuple[Any, Any]],
    *,
    runs: int,
    seed: int,
    confidence: float = 0.95,
    delta: float = 0.0,
    selection_runs: int | None = None,
    screening_runs: int | None = None,
    certified_pairs: int = 1,
) -> Audit: ...
def audit_real(
    mechanism: _Mechanism,
    pairs: Sequence[tuple[Any, Any]],
    *,
    runs: int,
    seed: int,
    confidence: float = 0.95,
    delta: float = 0.0,
    selection_runs: int | None = None,
    screening_runs: int | None = None,
    certified_pairs: int = 1,
) -> Audit: ...
def audit_learner(
    learner: _PredictorLearner,
    class_spec: str,
    guarantee: Privacy | Guarantee,
    *,
    runs: int,
    seed: int,
    pairs: Sequence[tuple[tuple[npt.ArrayLike, npt.ArrayLike], tuple[npt.ArrayLike, npt.ArrayLike]]]
    | None = None,
    sample_size: int = 1,
    random_pairs: int = 8,
    confidence: float = 0.95,
    selection_runs: int | None = None,
    screening_runs: int | None = None,
    certified_pairs: int = 1,
    exhaustive: int = 16,
    query_points: npt.ArrayLike | None = None,
) -> Audit: ...
def zoo_names() -> list[str]: ...
def audit_zoo(name: str, epsilon: float, *, runs: int, seed: int, confidence: float = 0.95) -> Audit: ...
def statdp_patterns(length: int) -> list[tuple[list[float], list[float]]]: ...
