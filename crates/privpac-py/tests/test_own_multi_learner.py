"""Your own multi-learner from Python (issue 28 §2): `privpac.k_curve` runs a Python
multi-learner through the engine's `MultiLearner` trait (a thin adapter calling back into
Python), with the same scenarios, trial streams, search and exact true errors as the
built-in multi-learners."""

from __future__ import annotations

import numpy as np
import pytest

import privpac
from privpac import BadInputError, InvalidParameterError

N = 256
CLASS = f"thresholds:{N}"
SEARCH = dict(alpha=0.1, beta=0.1, trials=200)


def exponential_threshold(points, labels, epsilon, rng):
    """The generic learner on thresholds:N in numpy (as in test_own_learner.py): the
    exponential mechanism over the thresholds with score -errors(t), sensitivity 1."""
    x = points.astype(np.int64)
    positives = np.bincount(x[labels], minlength=N)
    negatives = np.bincount(x[~labels], minlength=N)
    errors = (positives.sum() - np.cumsum(positives)) + np.cumsum(negatives)
    score = -epsilon * errors / 2.0
    weights = np.exp(score - score.max())
    return int(rng.choice(N, p=weights / weights.sum()))


def direct_sum(epsilon: float):
    """The direct sum of the generic learner in numpy: column j is learned by the
    exponential mechanism with epsilon / k (basic composition: the k-tuple is epsilon-DP
    for neighbouring samples differing in one whole row), one numpy Generator per call."""

    def numpy_direct_sum(points: np.ndarray, labels: np.ndarray, seed: int) -> np.ndarray:
        rng = np.random.default_rng(seed)
        k = labels.shape[1]
        return np.array(
            [exponential_threshold(points, labels[:, j], epsilon / k, rng) for j in range(k)]
        )

    return numpy_direct_sum


def own(learner, ks=(1, 2), epsilon=1.0, seed=1, **kw):
    args = {**SEARCH, **kw}
    return privpac.k_curve(
        CLASS, learner, list(ks), guarantee=privpac.Privacy(epsilon), seed=seed, **args
    )


def sizes(curve) -> list[int]:
    return [point["sample_size"] for point in curve["points"]]


def test_numpy_direct_sum_matches_the_built_in_k_curve():
    """Tolerance: at each k the two n agree within 25%, the single-label test's tolerance
    for the same reason. The two learners have the same output distribution and run on the
    same samples (same trial streams), so their success probabilities at each n are equal;
    the search stops where an observed success rate over 200 trials crosses 0.9 (binary
    search to n/64, finer than the noise), whose standard deviation sqrt(0.9*0.1/200) = 0.021
    makes each n uncertain by about 8-10% near the crossing, independently for the two
    learners (their randomness differs): 25% is over 2 standard deviations of the
    difference (measured with seed 1: built-in 55 and 125 at k = 1, 2, numpy 50 and 112).
    The fitted exponents then agree within ln(1.25/0.75)/ln 2 = 0.74. Negative control: the
    same direct sum with half the budget needs about 1.8 times as many examples at k = 2
    (measured 220) and falls outside."""
    ks = [1, 2]
    builtin = privpac.k_curve(CLASS, "direct-sum:generic", ks, epsilon=1.0, seed=1, **SEARCH)
    mine = own(direct_sum(1.0), ks=ks)
    assert [p["k"] for p in mine["points"]] == ks == [p["k"] for p in builtin["points"]]
    for n_mine, n_builtin in zip(sizes(mine), sizes(builtin)):
        assert abs(n_mine / n_builtin - 1) <= 0.25, (sizes(mine), sizes(builtin))
    assert abs(mine["fit"]["slope"] - builtin["fit"]["slope"]) <= 0.74
    for point in mine["points"]:
        assert point["outcome"]["success_rate"] >= 0.9
        assert point["guarantee"] == {"kind": "differential_privacy", "epsilon": 1.0, "delta": 0.0}
    assert builtin["points"][0]["guarantee"] == mine["points"][0]["guarantee"]
    assert mine["learner"] == "python:numpy_direct_sum"
    assert builtin["learner"] == "direct-sum(generic)"
    assert mine["class"] == builtin["class"] and mine["seed"] == builtin["seed"] == 1
    assert "learner_spec" not in mine and builtin["learner_spec"] == "direct-sum:generic"
    assert mine["trivial"] == builtin["trivial"] == []
    weaker = own(direct_sum(0.5), ks=[2], epsilon=0.5)
    assert sizes(weaker)[0] / sizes(builtin)[1] > 1.25


def test_arguments_seeds_and_reproducibility():
    seen: list[list[tuple[int, int, int]]] = [[], []]

    def recording(run):
        inner = direct_sum(1.0)

        def learner(points, labels, seed):
            assert points.dtype == np.uint64 and points.ndim == 1
            assert labels.dtype == np.bool_ and labels.shape[0] == points.shape[0]
            seen[run].append((labels.shape[1], points.shape[0], seed))
            return inner(points, labels, seed)

        return learner

    a = own(recording(0), ks=[1, 3], trials=10)
    b = own(recording(1), ks=[1, 3], trials=10)
    assert a == b
    assert sorted(seen[0]) == sorted(seen[1])
    assert {k for k, _, _ in seen[0]} == {1, 3}
    assert len({seed for _, _, seed in seen[0]}) > len(seen[0]) // 2
    assert own(direct_sum(1.0), ks=[1, 3], trials=10, seed=2)["points"] != a["points"]


def test_an_object_with_fit_and_a_list_result():
    class DirectSum:
        def fit(self, points, labels, seed):
            return [np.int64(i) for i in direct_sum(1.0)(points, labels, seed)]

    report = own(DirectSum(), trials=10)
    assert report["learner"] == "python:DirectSum"
    assert report == {**own(direct_sum(1.0), trials=10), "learner": "python:DirectSum"}


def test_errors_raised_by_the_learner_are_chained():
    def broken(points, labels, seed):
        raise ZeroDivisionError("my bug")

    with pytest.raises(BadInputError, match="my bug") as info:
        own(broken, trials=5)
    assert isinstance(info.value.__cause__, ZeroDivisionError)


@pytest.mark.parametrize(
    "result, shape",
    [
        (lambda k: np.zeros(k + 1, dtype=np.int64), r"shape \[2\]"),
        (lambda k: np.zeros((k, 1), dtype=np.int64), r"shape \[1, 1\]"),
        (lambda k: 0, r"shape \[\]"),
    ],
)
def test_results_of_the_wrong_shape_are_named(result, shape):
    with pytest.raises(BadInputError, match=rf"must return k = 1 concept ids.*{shape}"):
        own(lambda p, l, s: result(l.shape[1]), ks=[1], trials=5)


@pytest.mark.parametrize("bad", [N, 10**30, -1])
def test_ids_outside_the_class_are_named_with_their_column(bad):
    with pytest.raises(
        BadInputError, match=rf"\(column 1\) returned concept id {bad}\b.*thresholds:{N}"
    ):
        own(lambda p, l, s: [0, bad], ks=[2], trials=5)


@pytest.mark.parametrize("bad", [[0.0, 1.5], ["0", "1"], [True, False], [0, None]])
def test_results_that_are_not_integers_are_refused(bad):
    with pytest.raises(BadInputError, match="must return a concept id"):
        own(lambda p, l, s: bad, ks=[2], trials=5)


def test_bad_arguments():
    learner = direct_sum(1.0)
    with pytest.raises(InvalidParameterError, match="needs guarantee="):
        privpac.k_curve(CLASS, learner, [1], seed=1, **SEARCH)
    with pytest.raises(InvalidParameterError, match="budget; a Python"):
        privpac.k_curve(
            CLASS, learner, [1], epsilon=1.0, guarantee=privpac.Privacy(1.0), seed=1, **SEARCH
        )
    with pytest.raises(InvalidParameterError, match="a built-in reports its own"):
        privpac.k_curve(
            CLASS, "direct-sum", [1], epsilon=1.0, guarantee=privpac.Privacy(1.0), seed=1,
            **SEARCH,
        )
    with pytest.raises(InvalidParameterError, match="epsilon .* is required"):
        privpac.k_curve(CLASS, "direct-sum", [1], seed=1, **SEARCH)
    with pytest.raises(InvalidParameterError, match="not supported"):
        privpac.k_curve(CLASS, "direct-sum:private-prediction", [1], epsilon=1.0, seed=1, **SEARCH)
    with pytest.raises(InvalidParameterError, match="distribution"):
        own(learner, distribution="point")
    with pytest.raises(InvalidParameterError, match="k"):
        own(learner, ks=[0])
    with pytest.raises(TypeError, match="object with fit"):
        own(42)


def test_predictor_hypotheses_give_the_concept_ids_curve():
    """A multi-learner returning k threshold predictors (or a mix with concept ids) gives
    exactly the k-curve of returning the concept ids: the predictors are evaluated on every
    point of the domain, so their true errors are exact."""
    ids = direct_sum(1.0)

    def predictors(points, labels, seed):
        return [lambda x, t=t: x <= t for t in ids(points, labels, seed)]

    def mixed(points, labels, seed):
        chosen = ids(points, labels, seed)
        return [int(chosen[0])] + [lambda x, t=t: x <= t for t in chosen[1:]]

    reference = own(ids, trials=50)
    for learner in (predictors, mixed):
        curve = own(learner, trials=50)
        assert sizes(curve) == sizes(reference)
        assert curve["points"] == reference["points"]
    with pytest.raises(BadInputError, match=r"column 1\)'s predictor must be one label"):
        own(lambda p, l, s: [0, lambda x: (x <= 3)[:-1]], ks=[2], trials=5)
