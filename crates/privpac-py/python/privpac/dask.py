"""Run privpac's named experiments on a Dask cluster, one task per work unit.

An experiment (``privpac experiment list`` names them) expands into independent work units;
unit ``i``'s result depends on nothing but (experiment, scale, master seed, i). So the units
can run on any workers, in any order, and the merged rows, and every file written from them,
are byte for byte those of the single-machine run ``privpac experiment NAME --scale SCALE
--seed SEED``. This module needs ``dask.distributed`` (``pip install "dask[distributed]"``);
the workers need ``privpac`` installed (the same version as the client).

Example (a local cluster; the same code runs on a SLURM cluster from ``dask_jobqueue``)::

    from dask.distributed import Client, LocalCluster
    from privpac.dask import run_experiment

    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster) as client:
        rows = run_experiment(client, "threshold-domain", scale="quick", seed=1,
                              out_dir="threshold-domain")
"""

from __future__ import annotations

import os
import uuid
from typing import Any

from . import experiment

__all__ = ["run_experiment", "submit_units"]


def _run_unit(name: str, scale: str, seed: int, unit: int) -> dict:
    """Runs one work unit on a worker (``privpac.experiment.run_unit``) and returns its record.

    A module-level Python function so that Dask pickles it by reference (the native
    function itself is not picklable); the worker imports privpac.
    """
    return experiment.run_unit(name, scale, seed, unit)


def submit_units(
    client: Any, name: str | os.PathLike[str], scale: str = "quick", seed: int | None = None
) -> list:
    """Submits every work unit of experiment ``name`` to ``client``, one task per unit, and
    returns the futures in unit order (future ``i`` resolves to unit ``i``'s record, the dict
    of ``privpac.experiment.run_unit``).

    Task keys are ``privpac-NAME-SCALE-sSEED-uI-TOKEN`` with a fresh random token per call, so
    Dask never reuses a result cached under the same key from an earlier call (another
    privpac build, say), and the dashboard shows which unit each task is.

    ``name`` may be the path of an experiment file (ending in ``.toml``, readable by the
    workers at the same path), as for ``run_experiment``.

    Raises privpac.InvalidParameterError for an unknown name or scale or a bad experiment
    file (before submitting).
    """
    name = os.fspath(name)
    if seed is None:
        seed = experiment.default_seed(name)
    count = len(experiment.units(name, scale))
    token = uuid.uuid4().hex[:12]
    label = os.path.basename(name)
    return [
        client.submit(
            _run_unit,
            name,
            scale,
            int(seed),
            unit,
            key=f"privpac-{label}-{scale}-s{seed}-u{unit}-{token}",
            pure=False,
        )
        for unit in range(count)
    ]


def run_experiment(
    client: Any,
    name: str | os.PathLike[str],
    scale: str = "quick",
    seed: int | None = None,
    out_dir: str | os.PathLike | None = None,
) -> list[dict]:
    """Runs experiment ``name`` at ``scale`` ("tiny", "quick" or "full") with master seed
    ``seed`` on the Dask cluster behind ``client`` (a ``dask.distributed.Client``): one task
    per work unit, gathered, checked and merged.

    ``name`` is a catalogue name or the path of an experiment file (``.toml``, see the
    experiments guide; the workers read it at the same path), whose units run as
    ``privpac experiment run FILE`` runs them: without ``seed``, the file's own ``seed`` key
    (else 1, as for a catalogue name; ``privpac.experiment.default_seed``).

    Returns the rows in unit order (a list of dicts, ready for ``pandas.DataFrame``). With
    ``out_dir``, also writes ``results.csv``, ``results.json``, the SVG plots and
    ``README.md`` there (``privpac.experiment.write_outputs``).

    Guarantee: the rows, and every file written, are bit-identical to a single-machine run
    (``privpac experiment NAME --scale SCALE --seed SEED``, or the units run in one process),
    whatever the number of workers, their threads, or the order tasks finish in: each unit
    seeds its trials from (seed, unit) alone, and the merge checks that every unit is present
    once and belongs to this run, computed under the experiment (file) as it is now (each
    record states its settings and privpac version; a record computed under others, say by
    workers with another privpac or an edited file, raises BadInputError naming the key).
    A task that fails raises its exception here (the class from
    ``privpac.errors``) and nothing is written.
    """
    if seed is None:
        seed = experiment.default_seed(os.fspath(name))
    futures = submit_units(client, name, scale, seed)
    try:
        records = client.gather(futures)
    finally:
        for future in futures:
            future.release()
    name = os.fspath(name)
    rows = experiment.merge(records, name=name, scale=scale, seed=int(seed))
    if out_dir is not None:
        experiment.write_outputs(name, scale, int(seed), rows, os.fspath(out_dir))
    return rows
