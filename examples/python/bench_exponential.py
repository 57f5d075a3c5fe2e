"""Speed of the Python binding of the exponential mechanism against the Rust call.

Selects from 10^6 float64 scores held in a numpy array (read in place, no per-element
Python work) and compares the median time per call with the same call made from Rust (the
release-built `exponential_timing` example, run here in the same session):

    python examples/python/bench_exponential.py

The target: the Python call within 1.2x of the Rust call. The same seeds are used on both
sides, and the chosen indices must agree.
"""

import json
import pathlib
import subprocess
import timeit

import numpy as np

import privpac

REPO = pathlib.Path(__file__).resolve().parents[2]
N, REPEATS = 1_000_000, 21


def main():
    rust = subprocess.run(
        ["cargo", "run", "--quiet", "--release", "-p", "privpac-py", "--example",
         "exponential_timing", "--", str(N), str(REPEATS)],
        cwd=REPO, check=True, capture_output=True, text=True,
    )
    rust = json.loads(rust.stdout)

    scores = ((np.arange(N, dtype=np.int64) * 7919) % 1000).astype(np.float64) / 10.0
    mech = privpac.ExponentialMechanism(1.0)
    checksum = 0
    times = []
    for seed in range(REPEATS):
        start = timeit.default_timer()
        checksum += mech.select(scores, seed=seed)
        times.append(timeit.default_timer() - start)
    times.sort()
    python_median = times[REPEATS // 2]
    assert checksum == rust["checksum"], "Python and Rust chose different indices"
    ratio = python_median / rust["median_seconds"]
    print(f"exponential mechanism, {N} scores, median of {REPEATS} calls:")
    print(f"  Rust   {rust['median_seconds'] * 1e3:8.3f} ms")
    print(f"  Python {python_median * 1e3:8.3f} ms   ratio {ratio:.3f} (target <= 1.2)")


if __name__ == "__main__":
    main()
