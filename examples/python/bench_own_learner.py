"""The engine's per-trial cost around a Python learner, beyond the learner's own time:
privpac.sample_complexity with a trivial Python learner (it returns the target, so the
search succeeds at every size it tries: 4, 2 and 1, TRIALS trials each), against

- the learner's own time: the same calls on arrays of the same shape, in a Python loop;
- the engine's own cost: the same scenario's search with the built-in "erm" (sampling,
  learning and the exact true error, no Python; its search tries sizes 4 to 32, so its
  per-trial cost is if anything above that of sizes 4, 2 and 1).

    python examples/python/bench_own_learner.py [TRIALS]

The target: under 50 µs per trial of overhead (total minus the learner's own time). Medians
of 5 repetitions are printed.
"""

import statistics
import sys
import time

import numpy as np

import privpac

CLASS = "thresholds:256"
TARGET = 128
SIZES = [4, 2, 1]


def trivial(points: np.ndarray, labels: np.ndarray, seed: int) -> int:
    return TARGET


def median_seconds(run, repeats=5):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(trials=10_000):
    trials = int(trials)
    search = dict(alpha=0.1, beta=0.1, seed=1, trials=trials, target=TARGET)

    def python_search():
        report = privpac.sample_complexity(
            CLASS, trivial, guarantee=privpac.Privacy(1.0), **search
        )
        assert [e["sample_size"] for e in report["evaluations"]] == SIZES, report

    def builtin_search():
        report = privpac.sample_complexity(CLASS, "erm", **search)
        builtin_trials[0] = sum(e["trials"] for e in report["evaluations"])

    builtin_trials = [0]

    arrays = [(np.zeros(n, dtype=np.uint64), np.zeros(n, dtype=bool)) for n in SIZES]

    def own_time():
        for points, labels in arrays:
            for seed in range(trials):
                trivial(points, labels, seed)

    calls = trials * len(SIZES)
    total = median_seconds(python_search) / calls
    builtin = median_seconds(builtin_search)
    builtin /= builtin_trials[0]
    own = median_seconds(own_time) / calls
    print(f"per trial: python learner search {total * 1e6:.1f} µs, learner's own time "
          f"{own * 1e6:.2f} µs, built-in erm search {builtin * 1e6:.1f} µs")
    print(f"overhead beyond the learner's own time: {(total - own) * 1e6:.1f} µs per trial "
          f"(of which the adapter, beyond the built-in's engine cost: "
          f"{(total - own - builtin) * 1e6:.1f} µs)")


if __name__ == "__main__":
    main(*sys.argv[1:])
