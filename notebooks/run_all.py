"""Re-executes every notebook in this directory in a fresh kernel and fails on any error.

Run from the repository root with the environment that has privpac installed, plus
nbclient, nbformat and ipykernel:

    python notebooks/run_all.py            # execute each, print its time, exit 1 on error
    python notebooks/run_all.py --write    # also save the executed notebooks (outputs)
    python notebooks/run_all.py NAME.ipynb # only these notebooks

Each notebook ends with a check cell that asserts its headline numbers, so a regression
in privpac makes the notebook, and this script, fail. The kernel is the ``python3``
kernel of the interpreter running this script (ipykernel), started in the notebooks'
directory. CI runs this script after pytest (``.ci/run``).
"""

import argparse
import pathlib
import sys
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

HERE = pathlib.Path(__file__).resolve().parent
TIMEOUT_PER_CELL = 600


def execute(path, write):
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=TIMEOUT_PER_CELL,
        kernel_name="python3",
        resources={"metadata": {"path": str(HERE)}},
    )
    start = time.perf_counter()
    client.execute()
    elapsed = time.perf_counter() - start
    if write:
        nbformat.write(notebook, path)
    return elapsed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", help="notebooks to run (default: all)")
    parser.add_argument("--write", action="store_true", help="save the executed notebooks")
    args = parser.parse_args(argv)
    paths = [HERE / name for name in args.notebooks] or sorted(HERE.glob("*.ipynb"))
    if not paths:
        print("no notebooks found", file=sys.stderr)
        return 1
    failed = []
    total = 0.0
    for path in paths:
        try:
            elapsed = execute(path, args.write)
        except CellExecutionError as error:
            print(f"FAILED {path.name}\n{error}", file=sys.stderr)
            failed.append(path.name)
            continue
        total += elapsed
        print(f"ok {path.name}: {elapsed:.1f} s", flush=True)
    print(f"{len(paths) - len(failed)} of {len(paths)} notebooks ran ({total:.1f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
