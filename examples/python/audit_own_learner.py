"""Auditing your own learner: privpac.audit.audit_learner on three numpy learners over
thresholds:1024 that all claim (1, 0)-DP, each audited on label flips at four large points
(where the non-private shortcut is most visible):

- the generic learner (the exponential mechanism, score -errors, sensitivity 1): correct;
- the same with the sensitivity halved: only 2-DP;
- the correct learner, except that 1% of calls return the ERM (the largest positive
  point): not epsilon-DP for any epsilon.

    python examples/python/audit_own_learner.py [RUNS]

With RUNS = 10000 (the default; about 4 s per audit on a loaded 2-core machine) the two
buggy learners are refuted and the correct one is not. The ERM-on-1% bug needs about that
many runs: at 2000-3000 runs its certified lower bound ranged from 0 to 1.25 over five seeds,
so the test suite (tests/test_own_learner.py) audits only the halved sensitivity.
"""

import sys

import numpy as np

import privpac
import privpac.audit as audit

SIZE = 1024


def generic(sensitivity: float):
    def learner(points: np.ndarray, labels: np.ndarray, seed: int) -> int:
        x = points.astype(np.int64)
        positives = np.bincount(x[labels], minlength=SIZE)
        negatives = np.bincount(x[~labels], minlength=SIZE)
        errors = (positives.sum() - np.cumsum(positives)) + np.cumsum(negatives)
        cdf = np.cumsum(np.exp(-(errors - errors.min()) / (2.0 * sensitivity)))
        u = np.random.Generator(np.random.PCG64(seed)).random()
        return int(np.searchsorted(cdf, u * cdf[-1], side="right"))

    return learner


def erm_on_one_percent(points: np.ndarray, labels: np.ndarray, seed: int) -> int:
    if np.random.Generator(np.random.PCG64(seed ^ 0x5EED)).random() < 0.01:
        return int(points[labels].max()) if labels.any() else 0
    return generic(1.0)(points, labels, seed)


def main(runs=10_000):
    runs = int(runs)
    pairs = [(([x], [True]), ([x], [False])) for x in (1023, 960, 896, 768)]
    for name, learner in [
        ("correct", generic(1.0)),
        ("sensitivity halved", generic(0.5)),
        ("ERM on 1% of calls", erm_on_one_percent),
    ]:
        result = audit.audit_learner(
            learner, f"thresholds:{SIZE}", privpac.Privacy(1.0), runs=runs, seed=1, pairs=pairs
        )
        verdict = "refuted" if result.refutes(1.0) else "not refuted"
        print(f"{name}: certified epsilon >= {result.epsilon_lower_bound:.2f}: {verdict}")


if __name__ == "__main__":
    main(*sys.argv[1:])
