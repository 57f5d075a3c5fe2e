# Type stubs of privpac.experiment (a native submodule of privpac._privpac).

from os import PathLike
from typing import Any

__all__ = [
    "names",
    "units",
    "run_unit",
    "default_seed",
    "merge",
    "write_outputs",
    "figures",
    "figure_layout",
]

def names() -> list[dict[str, str]]: ...
def units(name: str, scale: str = "quick") -> list[dict[str, Any]]: ...
def default_seed(name: str) -> int: ...
def run_unit(name: str, scale: str, seed: int, unit: int) -> dict[str, Any]: ...
def merge(
    records: list[dict[str, Any]],
    name: str | None = None,
    scale: str | None = None,
    seed: int | None = None,
) -> list[dict[str, Any]]: ...
def write_outputs(
    name: str, scale: str, seed: int, rows: list[dict[str, Any]], out_dir: str | PathLike[str]
) -> list[str]: ...
def figures(name: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]: ...
def figure_layout(figure: dict[str, Any]) -> dict[str, Any]: ...
