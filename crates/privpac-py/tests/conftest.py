"""Shared fixtures: the `privpac` command-line binary, to check that the Python bindings
give the CLI's outputs for the same seed and inputs.

The binary is ``$PRIVPAC_CLI`` when set (CI sets it to the binary it has just built);
otherwise it is built here with ``cargo build --profile test -p privpac`` (the profile of
``cargo test``, so after the Rust tests this is a no-op) and found in cargo's target
directory.
"""

import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def cli_binary():
    """Path of the `privpac` binary."""
    given = os.environ.get("PRIVPAC_CLI")
    if given:
        path = pathlib.Path(given)
        assert path.is_file(), f"PRIVPAC_CLI={given} does not exist"
        return path
    subprocess.run(
        ["cargo", "build", "--quiet", "--profile", "test", "-p", "privpac"],
        cwd=REPO,
        check=True,
    )
    metadata = subprocess.run(
        ["cargo", "metadata", "--no-deps", "--format-version", "1", "--offline"],
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
    )
    target = pathlib.Path(json.loads(metadata.stdout)["target_directory"])
    path = target / "debug" / "privpac"
    assert path.is_file(), f"cargo built no binary at {path}"
    return path


@pytest.fixture(scope="session")
def cli(cli_binary):
    """Runs `privpac ARGS... --json` and returns the parsed JSON report."""

    def run(*args):
        done = subprocess.run(
            [str(cli_binary), *map(str, args), "--json"],
            check=True,
            capture_output=True,
            text=True,
        )
        return json.loads(done.stdout)

    return run


@pytest.fixture
def write_csv(tmp_path):
    """Writes rows (sequences) as a CSV file and returns its path."""

    def write(name, rows, header=None):
        path = tmp_path / name
        lines = [] if header is None else [header]
        lines += [",".join(str(int(v)) for v in row) for row in rows]
        path.write_text("\n".join(lines) + "\n")
        return path

    return write
