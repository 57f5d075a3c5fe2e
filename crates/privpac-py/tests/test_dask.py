"""``privpac.dask.run_experiment`` on a real 2-process Dask cluster: the merged rows and the
written files are byte for byte those of the in-process run and of ``privpac experiment``.

Skips only when ``dask.distributed`` is not installed (CI installs it); the CLI comparison
runs the binary of the ``cli_binary`` fixture (conftest.py).
"""

import os
import subprocess
from pathlib import Path

import pytest

import privpac.experiment as experiment
from privpac.errors import InvalidParameterError

distributed = pytest.importorskip(
    "distributed", reason="dask.distributed is not installed (pip install 'dask[distributed]')"
)

from privpac.dask import run_experiment, submit_units  # noqa: E402

EXPERIMENTS = ["sample-complexity", "online-mistakes", "tracing-attack"]


@pytest.fixture(scope="module")
def client():
    """A LocalCluster of 2 worker processes with 1 thread each, and its client."""
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        yield client


def local_rows(name, scale, seed):
    """The rows of the single-process run: every unit in order in this process, merged."""
    count = len(experiment.units(name, scale))
    return experiment.merge([experiment.run_unit(name, scale, seed, u) for u in range(count)])


def files_of(directory):
    """{file name: bytes} of every file in a directory."""
    return {p.name: p.read_bytes() for p in sorted(Path(directory).iterdir()) if p.is_file()}


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_dask_run_is_bit_identical_to_the_local_run(client, tmp_path, name):
    rows = run_experiment(client, name, scale="tiny", seed=11, out_dir=tmp_path / "dask")
    local = local_rows(name, "tiny", 11)
    assert rows == local
    experiment.write_outputs(name, "tiny", 11, local, tmp_path / "local")
    dask_files = files_of(tmp_path / "dask")
    assert "results.csv" in dask_files and "README.md" in dask_files
    assert dask_files == files_of(tmp_path / "local")


def test_dask_run_matches_the_cli(client, cli_binary, tmp_path):
    name = "sample-complexity"
    run_experiment(client, name, scale="tiny", seed=11, out_dir=tmp_path / "dask")
    done = subprocess.run(
        [str(cli_binary), "experiment", name, "--scale", "tiny", "--seed", "11", "--out", str(tmp_path / "cli")],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    cli_files = files_of(tmp_path / "cli")
    cli_files.pop("units-tiny.jsonl")  # the CLI's results file; Dask keeps records in memory
    assert files_of(tmp_path / "dask") == cli_files


def test_tasks_are_one_per_unit_with_distinct_uncached_keys(client):
    name = "online-mistakes"
    first = submit_units(client, name, "tiny", 2)
    second = submit_units(client, name, "tiny", 2)
    count = len(experiment.units(name, "tiny"))
    assert len(first) == len(second) == count
    keys = [f.key for f in first + second]
    assert len(set(keys)) == 2 * count
    assert all(f"-u{u}-" in first[u].key for u in range(count))
    records = client.gather(first)
    assert [r["unit"] for r in records] == list(range(count))
    assert records == client.gather(second)
    # The work ran in the worker processes.
    pids = set(client.run(os.getpid).values())
    assert len(pids) == 2 and os.getpid() not in pids


def test_dask_errors_are_the_privpac_exceptions(client):
    with pytest.raises(InvalidParameterError, match="unknown experiment"):
        run_experiment(client, "nope", scale="tiny")
    with pytest.raises(InvalidParameterError, match="unknown scale"):
        run_experiment(client, "online-mistakes", scale="huge")


SHIPPED = Path(__file__).resolve().parents[2] / "privpac-experiments" / "experiments"

MY_SWEEP = """name = "py-sweep"
learners = ["generic"]
beta = 0.2
search = { start = 2, max_size = 4096 }
figures = ["epsilon"]
classes = ["thresholds:16"]
trials = 4

[[grid]]
name = "epsilon"
epsilon = [1.0, 2.0]
alpha = [0.2]
"""


def test_dask_runs_experiment_files(client, tmp_path):
    # The shipped file of a catalogue experiment gives the catalogue's rows and bytes.
    shipped = SHIPPED / "threshold-domain.toml"
    rows = run_experiment(client, shipped, scale="tiny", seed=3, out_dir=tmp_path / "file")
    assert rows == local_rows("threshold-domain", "tiny", 3)
    experiment.write_outputs("threshold-domain", "tiny", 3, rows, tmp_path / "named")
    assert files_of(tmp_path / "file") == files_of(tmp_path / "named")
    # A file of one's own: the same rows as its units run in this process.
    mine = tmp_path / "py-sweep.toml"
    mine.write_text(MY_SWEEP)
    rows = run_experiment(client, mine, scale="tiny", seed=5, out_dir=tmp_path / "mine")
    count = len(experiment.units(str(mine), "tiny"))
    assert count == 2
    local = [experiment.run_unit(str(mine), "tiny", 5, u) for u in range(count)]
    assert rows == experiment.merge(local, name=str(mine))
    assert [r["epsilon"] for r in rows] == [1.0, 2.0]
    assert "# Experiment `py-sweep`" in (tmp_path / "mine" / "README.md").read_text()


def test_bad_experiment_files_are_refused_before_submitting(client, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(MY_SWEEP.replace("trials = 4", "trials = 4\ntrails = 5"))
    with pytest.raises(InvalidParameterError, match="line 8, key `trails`"):
        run_experiment(client, bad, scale="tiny")


def test_an_experiment_files_seed_key_is_the_default_seed(client, tmp_path):
    seeded = tmp_path / "seeded.toml"
    seeded.write_text(MY_SWEEP.replace('name = "py-sweep"\n', 'name = "py-sweep"\nseed = 7\n'))
    assert experiment.default_seed(str(seeded)) == 7
    plain = tmp_path / "plain.toml"
    plain.write_text(MY_SWEEP)
    assert experiment.default_seed(str(plain)) == 1
    assert experiment.default_seed("online-mistakes") == 1
    # Without seed=, the file's seed, as `privpac experiment run FILE`; seed= overrides it.
    records = client.gather(submit_units(client, seeded, "tiny"))
    assert {r["seed"] for r in records} == {7}
    rows = run_experiment(client, seeded, scale="tiny")
    count = len(experiment.units(str(seeded), "tiny"))
    local = [experiment.run_unit(str(seeded), "tiny", 7, u) for u in range(count)]
    assert rows == experiment.merge(local, name=str(seeded))
    records = client.gather(submit_units(client, seeded, "tiny", 3))
    assert {r["seed"] for r in records} == {3}
    assert {r["seed"] for r in client.gather(submit_units(client, plain, "tiny"))} == {1}
