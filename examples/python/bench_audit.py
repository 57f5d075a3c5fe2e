"""Speed of auditing a Python mechanism: a vectorized numpy discrete Laplace count (the
difference of two geometric variables, scale 1/ε on a sensitivity-1 count, claimed
ε = 0.5) audited with privpac.audit.audit_finite at 10^6 runs per stage, against the same
audit of the Rust zoo's discrete-laplace entry through privpac.audit.audit_zoo (same
pairs, runs and seed), in the same process:

    python examples/python/bench_audit.py [RUNS]

The target: under 2 s on a 2-core machine, and within 1.5x of the Rust zoo entry. Medians
of 5 repetitions are printed with their ratio.
"""

import statistics
import sys
import time

import numpy as np

import privpac.audit as audit

EPSILON = 0.5


def laplace_count(value, n, seed):
    rng = np.random.default_rng(seed)
    p = -np.expm1(-EPSILON)  # P[geometric step] for Pr[k] ∝ e^{-ε|k|}
    return value + rng.geometric(p, n) - rng.geometric(p, n)


def median_seconds(run, repeats=5):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(runs=1_000_000):
    runs = int(runs)
    pairs = [(0, 1), (1, 0)]
    python = median_seconds(lambda: audit.audit_finite(laplace_count, pairs, runs=runs, seed=1))
    rust = median_seconds(lambda: audit.audit_zoo("discrete-laplace", EPSILON, runs=runs, seed=1))
    print(f"numpy discrete Laplace count, {runs} runs per stage: {python:.3f} s (median of 5)")
    print(f"Rust zoo discrete-laplace entry, same runs:          {rust:.3f} s (median of 5)")
    print(f"ratio: {python / rust:.2f}x")


if __name__ == "__main__":
    main(*sys.argv[1:2])
