"""Private thresholds on real data: one feature of scikit-learn's breast-cancer dataset.

Run after `pip install ./crates/privpac-py matplotlib scikit-learn`:

    python examples/python/real_data_thresholds.py [OUTPUT.png]

The Wisconsin diagnostic breast-cancer data (569 tumours, shipped with scikit-learn) has a
real-valued feature "worst perimeter"; large values go with malignant tumours. We learn the
rule "malignant iff worst perimeter ≥ t" (or ≤ t: the learner picks the orientation) with
an ε-differentially private learner, at several ε, and compare its test error with the
non-private empirical risk minimizer (ERM) on the same class.

1. Public bounds. The feature is mapped to 1024 bins of [0, 256] with
   `privpac.data.Discretizer`; values outside are clipped. The bounds and the number of bins
   are fixed in this script *before looking at the data* (a perimeter is non-negative, and
   256 is a generous cap fixed in advance): the guarantee of a learner on the bins holds for
   the raw values only when the discretization is public. Bounds computed from the data (its
   minimum and maximum, quantiles) would depend on every example and void the guarantee.
2. Both orientations. `both(thresholds:1024)` holds "1 on x ≤ t" and its complement
   "1 on x > t" (the class `not(thresholds:1024)`), VC dimension 2 and Littlestone
   dimension 11; plain `thresholds:1024` can only say "1 on x ≤ t", which is the wrong way
   round here. `intervals:1024` is learned too.
3. Private learner. `generic` is the exponential mechanism over the class, with the
   number of training mistakes as its score: ε-differentially private in the training set
   (Kasiviswanathan et al. 2008). Each ε is run 50 times (seeds 0..49) on one fixed,
   seeded train/test split; the test error is reported as mean ± standard deviation.
4. Output in data units. `Discretizer.describe` writes a learned hypothesis as a statement
   about the feature ("1 on x ≥ 111.5"), not about bin 446.

The figure shows test error against ε with the ERM and majority-class baselines (left) and
the feature's distribution by class with the ERM threshold and private thresholds (right).
"""

import sys
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from sklearn.datasets import load_breast_cancer  # type: ignore[import-untyped]

import privpac
from privpac.data import Discretizer

FEATURE = "worst perimeter"
# Public: fixed in advance, not computed from the data.
LOW, HIGH, BINS = 0.0, 256.0, 1024
EPSILONS = [0.01, 0.03, 0.1, 0.3, 1.0, 3.0]
RUNS = 50
CLASSES = {
    "thresholds, both orientations": f"both(thresholds:{BINS})",
    "intervals": f"intervals:{BINS}",
}


@dataclass
class ClassResult:
    """One class: ERM's hypothesis and test error, and the private learner's test errors
    (mean and standard deviation over the runs) and run-0 hypothesis per ε."""

    erm: privpac.Hypothesis
    erm_error: float
    means: list[float] = field(default_factory=list)
    spreads: list[float] = field(default_factory=list)
    examples: list[privpac.Hypothesis] = field(default_factory=list)


@dataclass
class Results:
    x: npt.NDArray[np.float64]
    y: npt.NDArray[np.bool_]
    bins: Discretizer
    majority: float
    classes: dict[str, ClassResult]


def load() -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """The feature and the labels (True for malignant)."""
    data = load_breast_cancer()
    column = list(data.feature_names).index(FEATURE)
    return np.asarray(data.data[:, column], dtype=np.float64), np.asarray(data.target == 0)


def test_error(
    h: privpac.Hypothesis, points: npt.NDArray[np.uint64], labels: npt.NDArray[np.bool_]
) -> float:
    return float(np.mean(h.predict(points) != labels))


def run() -> Results:
    """Test errors per class: ERM's, and the private learner's mean and spread per ε, with
    the hypotheses in data units."""
    x, y = load()
    order = np.random.default_rng(2026).permutation(len(x))
    train, test = order[: 2 * len(x) // 3], order[2 * len(x) // 3 :]
    bins = Discretizer(LOW, HIGH, BINS)
    x_train, x_test = bins.bin(x[train]), bins.bin(x[test])
    y_train, y_test = y[train], y[test]
    majority = float(np.mean(y_test != (np.mean(y_train) >= 0.5)))
    print(f"{FEATURE}: {len(train)} training and {len(test)} test tumours; public bounds "
          f"[{LOW}, {HIGH}] in {BINS} bins; majority-class test error {majority:.3f}")

    one_way = privpac.ConceptClass.from_spec(f"thresholds:{BINS}")
    h = privpac.Learner("erm").fit(one_way, x_train, y_train, seed=0)
    print(f"  one orientation only (thresholds:{BINS}), ERM: {bins.describe(h)}, "
          f"test error {test_error(h, x_test, y_test):.3f}")

    classes: dict[str, ClassResult] = {}
    for name, spec in CLASSES.items():
        concept_class = privpac.ConceptClass.from_spec(spec)
        erm = privpac.Learner("erm").fit(concept_class, x_train, y_train, seed=0)
        result = ClassResult(erm, test_error(erm, x_test, y_test))
        print(f"{name} ({spec}): non-private ERM {bins.describe(erm)}, "
              f"test error {result.erm_error:.3f}")
        for epsilon in EPSILONS:
            learner = privpac.Learner("generic", epsilon=epsilon)
            hypotheses = [learner.fit(concept_class, x_train, y_train, seed=s) for s in range(RUNS)]
            for h in hypotheses:
                reported = h.guarantee.epsilon
                assert reported is not None and reported <= epsilon
            errors = [test_error(h, x_test, y_test) for h in hypotheses]
            result.means.append(float(np.mean(errors)))
            result.spreads.append(float(np.std(errors)))
            result.examples.append(hypotheses[0])
            print(f"  generic, ε = {epsilon:<5}: test error {result.means[-1]:.3f} ± "
                  f"{result.spreads[-1]:.3f} over {RUNS} runs (ERM {result.erm_error:.3f}); "
                  f"run 0: {bins.describe(hypotheses[0])}")
        classes[name] = result
    return Results(x, y, bins, majority, classes)


def plot(results: Results, output: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(12.0, 4.6))
    for (name, result), colour in zip(results.classes.items(), ["#1f77b4", "#d62728"]):
        left.errorbar(EPSILONS, result.means, yerr=result.spreads, fmt="-o", color=colour,
                      capsize=3, label=f"private ({name})")
        left.axhline(result.erm_error, color=colour, linestyle="--",
                     label=f"non-private ERM ({name})")
    left.axhline(results.majority, color="grey", linestyle=":", label="majority class")
    left.set_xscale("log")
    left.set_xlabel("privacy parameter ε")
    left.set_ylabel(f"test error (mean ± sd over {RUNS} runs)")
    left.set_title(f"breast cancer, '{FEATURE}', {BINS} public bins")
    left.legend(fontsize=8)

    x, y = results.x, results.y
    right.hist([x[~y], x[y]], bins=list(np.linspace(40.0, 260.0, 56)), stacked=True,
               color=["#9ecae1", "#fc9272"], label=["benign", "malignant"])
    thresholds = results.classes[next(iter(CLASSES))]
    lines = [(thresholds.erm, "ERM", "black")] + [
        (h, f"private, ε = {e}", colour)
        for e, h, colour in zip(EPSILONS, thresholds.examples, ["", "", "#31a354", "", "#756bb1", ""])
        if colour
    ]
    for h, label, colour in lines:
        text = results.bins.describe(h)  # "1 on x ≥ 110.25"
        try:
            cut = float(text.rsplit(" ", 1)[1])
        except ValueError:  # a constant hypothesis ("1 on every x") has no cut to draw
            continue
        right.axvline(cut, color=colour, linestyle="-" if label == "ERM" else "--",
                      label=f"{label}: {text}")
    right.set_xlabel(FEATURE)
    right.set_ylabel("tumours")
    right.set_title("the feature by class, with learned thresholds (run 0)")
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(output, dpi=120)
    print(f"wrote {output}")


def main(output: str = "real_data_thresholds.png") -> None:
    plot(run(), output)


if __name__ == "__main__":
    main(*sys.argv[1:2])
