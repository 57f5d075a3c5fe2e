"""Predictor hypotheses of your own learner (issue 28 §2): `privpac.sample_complexity`
accepts a learner whose hypothesis is a vectorized predictor (a callable points -> labels,
or an object with `predict`). Where the domain is enumerated its true error is exact (the
predictor is evaluated on every point); elsewhere, or with true_error="estimated", it is
estimated on a fresh held-out sample with a Clopper-Pearson interval, and a trial counts
as a success only when the interval's upper end is at most alpha."""

from __future__ import annotations

import numpy as np
import pytest

import privpac
from privpac import BadInputError, InvalidParameterError

N = 256
SEARCH = dict(alpha=0.1, beta=0.1, trials=100)


def exponential_threshold(epsilon: float, size: int, points, labels, seed) -> int:
    """The generic learner on thresholds:size in numpy (concept t is 1 on x <= t)."""
    rng = np.random.default_rng(seed)
    x = points.astype(np.int64)
    positives = np.bincount(x[labels], minlength=size)
    negatives = np.bincount(x[~labels], minlength=size)
    errors = (positives.sum() - np.cumsum(positives)) + np.cumsum(negatives)
    score = -epsilon * errors / 2.0
    weights = np.exp(score - score.max())
    return int(rng.choice(size, p=weights / weights.sum()))


def concept_learner(points, labels, seed):
    return exponential_threshold(1.0, N, points, labels, seed)


def predictor_learner(points, labels, seed):
    t = exponential_threshold(1.0, N, points, labels, seed)
    return lambda x: x <= t


def run(learner, spec=f"thresholds:{N}", seed=1, **kw):
    args = {**SEARCH, **kw}
    return privpac.sample_complexity(
        spec, learner, guarantee=privpac.Privacy(1.0), seed=seed, **args
    )


def common_sizes(a, b):
    sizes = {e["sample_size"] for e in a["evaluations"]} & {
        e["sample_size"] for e in b["evaluations"]
    }
    by_size = lambda r: {e["sample_size"]: e for e in r["evaluations"]}  # noqa: E731
    return [(by_size(a)[n], by_size(b)[n]) for n in sorted(sizes)]


def test_a_threshold_predictor_gives_the_concept_ids_sample_complexity_exactly():
    ids = run(concept_learner)
    predictor = run(predictor_learner)
    assert predictor["true_error"] == "exact" and predictor["estimated"] is False
    assert ids["true_error"] == "exact" and ids["estimated"] is False
    # Same hypotheses (same trial streams and seeds), errors evaluated on every point of
    # the domain: the same search, size by size (uniform masses on 256 points are exact
    # dyadic sums).
    assert predictor["empirical_sample_size"] == ids["empirical_sample_size"]
    assert predictor["evaluations"] == ids["evaluations"]
    assert predictor == {**ids, "learner": "python:predictor_learner"}


def test_an_object_with_predict_is_a_predictor_and_labels_may_be_integers():
    class Threshold:
        def __init__(self, t):
            self.t = t

        def predict(self, x):
            return (x <= self.t).astype(np.int64)

    def learner(points, labels, seed):
        return Threshold(exponential_threshold(1.0, N, points, labels, seed))

    assert run(learner, trials=20) == {
        **run(concept_learner, trials=20), "learner": "python:learner"
    }


def test_the_estimated_path_agrees_with_the_exact_one_within_its_intervals():
    exact = run(predictor_learner)
    estimated = run(predictor_learner, true_error="estimated", holdout=2_000)
    assert estimated["true_error"] == "estimated" and estimated["estimated"] is True
    assert estimated["holdout"] == 2_000 and estimated["confidence"] == 0.95
    assert estimated["error_interval"] == "clopper-pearson"
    assert estimated["success_rule"] == "upper"
    pairs = common_sizes(exact, estimated)
    assert len(pairs) >= 3
    for e, s in pairs:
        low, high = s["mean_error_interval"]
        # The trials' hypotheses are the same on both paths: the exact mean error lies in
        # the estimate's Hoeffding interval, which is narrow.
        assert low <= e["mean_error"] <= high, (e, s)
        assert high - low < 0.01
        assert s["estimated_trials"] == SEARCH["trials"]
        # Counting by the upper end is conservative; by the point estimate it is close to
        # the exact count.
        assert s["successes"] <= e["successes"], (e, s)
        assert abs(s["successes_by_point_estimate"] - e["successes"]) <= 10, (e, s)
    # The conservative search needs at least the exact n, and not much more.
    n_exact, n_est = exact["empirical_sample_size"], estimated["empirical_sample_size"]
    assert n_exact <= n_est <= 1.5 * n_exact, (n_exact, n_est)
    assert estimated["mean_error_interval"][0] <= estimated["mean_error"]
    assert "Clopper-Pearson" in estimated["conclusion"]
    assert f"n = {n_est}" in estimated["conclusion"]
    # Reproducible: the held-out samples come from the trial streams.
    short = dict(true_error="estimated", holdout=500, trials=10, max_size=64)
    assert run(predictor_learner, **short) == run(predictor_learner, **short)
    assert run(predictor_learner, **short) != run(predictor_learner, seed=2, **short)


def test_a_domain_too_large_to_enumerate_is_estimated_by_default():
    # thresholds:2^30 is not enumerated (its errors are in closed form for concepts).
    spec = f"thresholds:{1 << 30}"

    def largest_positive(points, labels):
        return int(points[labels].max()) if labels.any() else 0

    def ids(points, labels, seed):
        return largest_positive(points, labels)

    def predictor(points, labels, seed):
        t = largest_positive(points, labels)
        return lambda x: x <= t

    exact = run(ids, spec=spec, trials=40)
    estimated = run(predictor, spec=spec, trials=40, holdout=5_000)
    assert exact["true_error"] == "exact" and exact["estimated"] is False
    assert estimated["true_error"] == "estimated" and estimated["estimated"] is True
    auto = run(predictor, spec=spec, trials=10, max_size=64)
    assert auto["true_error"] == "estimated" and auto["holdout"] == 10_000
    for e, s in common_sizes(exact, estimated):
        low, high = s["mean_error_interval"]
        assert low <= e["mean_error"] <= high, (e, s)
    with pytest.raises(InvalidParameterError, match="at most 2\\^24"):
        run(predictor, spec=spec, trials=10, true_error="exact")


@pytest.mark.parametrize("true_error", ["exact", "estimated"])
@pytest.mark.parametrize(
    "bad, message",
    [
        (lambda x: (x <= 3).reshape(-1, 1), "must be a 1-dimensional array"),
        (lambda x: True, "must be a 1-dimensional array"),
        (lambda x: (x <= 3)[:-1], "one label per point"),
        (lambda x: np.where(x <= 3, 2, 0), "only 0 and 1"),
        (lambda x: np.full(len(x), 0.5), "only 0 and 1"),
        (lambda x: np.array(["a"] * len(x)), "must be labels 0 or 1"),
        (lambda x: [None] * len(x), "must be labels 0 or 1"),
    ],
)
def test_bad_predictions_are_refused_by_name(true_error, bad, message):
    with pytest.raises(BadInputError, match=message) as info:
        run(lambda p, l, s: bad, trials=5, true_error=true_error)
    assert "python:<lambda>'s predictor" in str(info.value)


@pytest.mark.parametrize("true_error", ["exact", "estimated"])
def test_a_predictor_that_raises_is_chained(true_error):
    def predict(x):
        raise KeyError("predictor bug")

    with pytest.raises(BadInputError, match="predictor returned by.*raised.*predictor bug") as info:
        run(lambda p, l, s: predict, trials=5, true_error=true_error)
    assert isinstance(info.value.__cause__, KeyError)


def test_bad_arguments():
    with pytest.raises(InvalidParameterError, match="true_error must be"):
        run(predictor_learner, true_error="approximate")
    with pytest.raises(InvalidParameterError, match="holdout= is the size"):
        run(predictor_learner, true_error="exact", holdout=100)
    with pytest.raises(InvalidParameterError, match="holdout must be between"):
        run(predictor_learner, holdout=0)
    with pytest.raises(InvalidParameterError, match="confidence must be in"):
        run(predictor_learner, true_error="estimated", confidence=1.0)
    with pytest.raises(InvalidParameterError, match="are for a Python learner"):
        privpac.sample_complexity(
            f"thresholds:{N}", "generic", epsilon=1.0, seed=1, true_error="estimated",
            **SEARCH,
        )


def test_privpac_lab_is_a_module_with_the_lab_functions():
    import privpac.lab

    assert privpac.lab.sample_complexity is privpac.sample_complexity
    assert privpac.lab.k_curve is privpac.k_curve
    assert set(privpac.lab.__all__) >= {"sample_complexity", "k_curve"}
    report = privpac.lab.sample_complexity(
        f"thresholds:{N}", predictor_learner, guarantee=privpac.Privacy(1.0), seed=1,
        alpha=0.1, beta=0.1, trials=10, max_size=64,
    )
    assert report["true_error"] == "exact"
    curve = privpac.lab.k_curve(
        "thresholds:16", "direct-sum:generic", [1, 2], epsilon=4.0, alpha=0.2, beta=0.2,
        seed=1, trials=10, max_size=256,
    )
    assert [p["k"] for p in curve["points"]] == [1, 2]


@pytest.mark.parametrize("options", [{}, {"true_error": "estimated", "holdout": 500}])
def test_run_trials_takes_a_python_learner(options):
    """run_trials of a Python learner is the evaluation the search records at that size."""
    report = run(predictor_learner, trials=20, **options)
    for evaluation in report["evaluations"][:3]:
        n = evaluation["sample_size"]
        one = privpac.run_trials(
            f"thresholds:{N}", predictor_learner, n, guarantee=privpac.Privacy(1.0),
            alpha=0.1, beta=0.1, seed=1, trials=20, **options,
        )
        assert {k: one[k] for k in evaluation} == evaluation
        assert one["true_error"] == report["true_error"]
        assert one["estimated"] is report["estimated"]
    ids = privpac.run_trials(
        f"thresholds:{N}", concept_learner, 16, guarantee=privpac.Privacy(1.0), alpha=0.1,
        seed=1, trials=20,
    )
    assert ids["true_error"] == "exact" and ids["sample_size"] == 16
    with pytest.raises(InvalidParameterError, match="needs guarantee="):
        privpac.run_trials(f"thresholds:{N}", concept_learner, 16, alpha=0.1, seed=1)
    with pytest.raises(InvalidParameterError, match="built-in learners' knobs"):
        privpac.run_trials(
            f"thresholds:{N}", concept_learner, 16, guarantee=privpac.Privacy(1.0),
            epsilon=1.0, alpha=0.1, seed=1,
        )
    with pytest.raises(BadInputError, match="predictor returned by.*raised.*division by zero"):
        privpac.run_trials(
            f"thresholds:{N}", lambda p, l, s: (lambda x: 1 / 0), 16,
            guarantee=privpac.Privacy(1.0), alpha=0.1, seed=1, trials=2,
        )
