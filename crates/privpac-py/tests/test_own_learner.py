"""Your own learner from Python (issue 28 §2): `privpac.sample_complexity` runs a Python
learner through the engine's `Learner` trait (a thin adapter calling back into Python),
with the same scenario, trial streams and exact true errors as the built-ins."""

from __future__ import annotations

import numpy as np
import pytest

import privpac
from privpac import BadInputError, InvalidParameterError

N = 256


def exponential_thresholds(epsilon: float, size: int):
    """The generic learner on thresholds:size in numpy: the exponential mechanism over the
    thresholds t (concept t is 1 on x <= t) with score -errors(t), sensitivity 1, i.e.
    Pr[t] proportional to exp(-epsilon * errors(t) / 2), sampled with numpy's Generator
    seeded by the seed the engine passes."""

    def learner(points: np.ndarray, labels: np.ndarray, seed: int) -> int:
        rng = np.random.default_rng(seed)
        x = points.astype(np.int64)
        positives = np.bincount(x[labels], minlength=size)
        negatives = np.bincount(x[~labels], minlength=size)
        # errors(t): positives above t plus negatives at or below t.
        errors = (positives.sum() - np.cumsum(positives)) + np.cumsum(negatives)
        score = -epsilon * errors / 2.0
        weights = np.exp(score - score.max())
        return int(rng.choice(size, p=weights / weights.sum()))

    learner.__name__ = "numpy_generic"
    return learner


SEARCH = dict(alpha=0.1, beta=0.1, trials=200)


def own(learner, epsilon=1.0, seed=1, **kw):
    args = {**SEARCH, **kw}
    return privpac.sample_complexity(
        f"thresholds:{N}", learner, guarantee=privpac.Privacy(epsilon), seed=seed, **args
    )


def doubling_bracket(report) -> int:
    """The power of two at which the search's doubling phase (4, 8, 16, ...) first reached
    1 - beta: the first size tried that did."""
    first = next(e for e in report["evaluations"] if e["success_rate"] >= 1 - report["beta"])
    assert first["sample_size"] & (first["sample_size"] - 1) == 0
    return first["sample_size"]


@pytest.mark.parametrize("seed", [1, 2])
def test_numpy_generic_learner_matches_the_built_in(seed):
    """Tolerance: both searches land in the same doubling bracket (the search's coarse
    resolution, a factor of 2) and their n agree within 25%. Within the bracket the binary
    search stops where an observed success rate over 200 trials crosses 0.9: its standard
    deviation is sqrt(0.9 * 0.1 / 200) = 0.021 and near n = 55 the success rate rises about
    0.005 per example, so each n is uncertain by about 4-5 examples (8%), and the two
    learners' randomness is independent (their samples are the same trial streams): 25% is
    about 2.3 standard deviations of the difference. A learner with half the epsilon needs
    about 1.8 times as many examples and falls outside (the negative control below)."""
    builtin = privpac.sample_complexity(
        f"thresholds:{N}", "generic", epsilon=1.0, seed=seed, **SEARCH
    )
    mine = own(exponential_thresholds(1.0, N), seed=seed)
    n_builtin, n_mine = builtin["empirical_sample_size"], mine["empirical_sample_size"]
    assert doubling_bracket(mine) == doubling_bracket(builtin)
    assert abs(n_mine / n_builtin - 1) <= 0.25, (n_mine, n_builtin)
    assert mine["success_rate"] >= 0.9
    # The same scenario, the claimed guarantee, no bound and no spec.
    assert mine["target"] == builtin["target"] and mine["opt"] == 0.0
    assert mine["class"] == builtin["class"]
    assert mine["learner"] == "python:numpy_generic"
    assert mine["guarantee"] == {"kind": "differential_privacy", "epsilon": 1.0, "delta": 0.0}
    assert mine["bound"]["kind"] == "no_explicit_constants"
    assert "learner_spec" not in mine and builtin["learner_spec"] == "generic"
    # Negative control: half the epsilon is told apart by the tolerance.
    weaker = own(exponential_thresholds(0.5, N), epsilon=0.5, seed=seed)
    assert weaker["empirical_sample_size"] / n_builtin > 1.25


def test_runs_are_reproducible_and_seeds_come_from_the_trial_streams():
    seen: list[list[int]] = [[], []]

    def recording(run):
        inner = exponential_thresholds(1.0, N)

        def learner(points, labels, seed):
            assert points.dtype == np.uint64 and labels.dtype == np.bool_
            assert points.shape == labels.shape and points.ndim == 1
            seen[run].append(seed)
            return inner(points, labels, seed)

        return learner

    a = own(recording(0), trials=20)
    b = own(recording(1), trials=20)
    assert a == b
    # Trials run in parallel: the same seeds, in some order; distinct across trials.
    assert sorted(seen[0]) == sorted(seen[1])
    assert len(set(seen[0])) > len(seen[0]) // 2
    c = own(exponential_thresholds(1.0, N), trials=20, seed=2)
    assert c["evaluations"] != a["evaluations"]


def test_an_object_with_fit_is_a_learner():
    class Generic:
        def __init__(self):
            self.inner = exponential_thresholds(1.0, N)

        def fit(self, points, labels, seed):
            return np.uint64(self.inner(points, labels, seed))

    report = own(Generic(), trials=20)
    assert report["learner"] == "python:Generic"
    assert report == {**own(exponential_thresholds(1.0, N), trials=20), "learner": "python:Generic"}


def test_a_guarantee_object_is_reported_as_claimed():
    # The non-private ERM-like learner: always the threshold at the largest positive point.
    def erm(points, labels, seed):
        return int(points[labels].max()) if labels.any() else 0

    claimed = privpac.Learner("erm").guarantee(privpac.ConceptClass.from_spec("thresholds:8"), 4)
    report = privpac.sample_complexity(
        f"thresholds:{N}", erm, guarantee=claimed, seed=1, **SEARCH
    )
    assert claimed.kind == "none"
    assert report["guarantee"] == {"kind": "none"}
    assert report["guarantee_text"] == f"{claimed} (claimed)"
    assert report["guarantee_source"] == "claimed by the caller (not checked)"
    assert report["empirical_sample_size"] is not None


def test_a_python_learners_guarantee_is_marked_as_claimed():
    """Issue 37 §2: a Python learner's guarantee is its caller's claim, unchecked, and
    every lab result says so; a built-in's is proven and its text has no "(claimed)"."""
    search = dict(alpha=0.1, beta=0.1, trials=20, seed=1)
    mine = privpac.sample_complexity(
        f"thresholds:{N}", exponential_thresholds(1.0, N), guarantee=privpac.Privacy(1.0),
        **search,
    )
    builtin = privpac.sample_complexity(f"thresholds:{N}", "generic", epsilon=1.0, **search)
    assert mine["guarantee"] == builtin["guarantee"]
    assert mine["guarantee_source"] == "claimed by the caller (not checked)"
    assert builtin["guarantee_source"] == "proven (built-in learner)"
    assert mine["guarantee_text"] == builtin["guarantee_text"] + " (claimed)"
    assert "claimed" not in builtin["guarantee_text"]
    one = privpac.run_trials(
        f"thresholds:{N}", exponential_thresholds(1.0, N), 16,
        guarantee=privpac.Privacy(1.0), **search,
    )
    assert one["guarantee_source"] == "claimed by the caller (not checked)"

    def erm_per_column(points, labels, seed):
        # Not private at all: the claim below is false, and nothing checks it.
        return [
            int(points[labels[:, j]].max()) if labels[:, j].any() else 0
            for j in range(labels.shape[1])
        ]

    curve = privpac.k_curve(
        "thresholds:16", erm_per_column, [1], guarantee=privpac.Privacy(1.0), alpha=0.2,
        beta=0.2, seed=1, trials=10, max_size=256,
    )
    assert curve["guarantee_source"] == "claimed by the caller (not checked)"
    builtin_curve = privpac.k_curve(
        "thresholds:16", "direct-sum:generic", [1], epsilon=4.0, alpha=0.2, beta=0.2,
        seed=1, trials=10, max_size=256,
    )
    assert builtin_curve["guarantee_source"] == "proven (built-in learner)"


def test_errors_raised_by_the_learner_are_chained():
    def broken(points, labels, seed):
        raise ZeroDivisionError("my bug")

    with pytest.raises(BadInputError, match="my bug") as info:
        own(broken, trials=5)
    assert isinstance(info.value.__cause__, ZeroDivisionError)


@pytest.mark.parametrize("bad", [N, 10**30, -1])
def test_ids_outside_the_class_are_refused_by_name(bad):
    with pytest.raises(BadInputError, match=rf"concept id {bad}\b.*thresholds:{N}"):
        own(lambda p, l, s: bad, trials=5)


@pytest.mark.parametrize("bad", [3.0, "3", None, True, np.bool_(True)])
def test_results_that_are_not_integers_are_refused(bad):
    with pytest.raises(BadInputError, match="must return a concept id"):
        own(lambda p, l, s: bad, trials=5)


def test_predictor_hypotheses_are_measured():
    # Predictors were refused as not implemented; now their true errors are exact here
    # (tests/test_own_predictor.py covers them). The target is concept 128 (1 on x <= 128).
    report = own(lambda p, l, s: (lambda x: x <= N // 2), trials=5)
    assert report["true_error"] == "exact" and report["estimated"] is False
    assert report["empirical_sample_size"] == 1
    assert all(e["mean_error"] == 0.0 for e in report["evaluations"])


def test_bad_arguments():
    learner = exponential_thresholds(1.0, N)
    with pytest.raises(InvalidParameterError, match="needs guarantee="):
        privpac.sample_complexity(f"thresholds:{N}", learner, seed=1, **SEARCH)
    with pytest.raises(InvalidParameterError, match="built-in learners' knobs"):
        privpac.sample_complexity(
            f"thresholds:{N}", learner, epsilon=1.0, guarantee=privpac.Privacy(1.0), seed=1,
            **SEARCH,
        )
    with pytest.raises(InvalidParameterError, match="a built-in learner reports its own"):
        privpac.sample_complexity(
            f"thresholds:{N}", "generic", epsilon=1.0, guarantee=privpac.Privacy(1.0), seed=1,
            **SEARCH,
        )
    with pytest.raises(TypeError, match="privpac.Privacy or privpac.Guarantee"):
        privpac.sample_complexity(f"thresholds:{N}", learner, guarantee=1.0, seed=1, **SEARCH)
    with pytest.raises(TypeError, match="object with fit"):
        own(42)


# ----- privpac.audit.audit_learner -----

K = 16


def exponential_cdf(epsilon: float, sensitivity: float, size: int = K):
    """The generic learner on thresholds:size with the exponential mechanism's sensitivity
    as a parameter: Pr[t] proportional to exp(-epsilon * errors(t) / (2 * sensitivity)),
    sampled by inverting the CDF (one uniform from numpy's PCG64 seeded by `seed`).
    Sensitivity 1 is the correct, epsilon-DP learner; 0.5 is the planted bug (the
    exponential mechanism with the sensitivity halved), which is only 2*epsilon-DP."""

    def learner(points: np.ndarray, labels: np.ndarray, seed: int) -> int:
        x = points.astype(np.int64)
        positives = np.bincount(x[labels], minlength=size)
        negatives = np.bincount(x[~labels], minlength=size)
        errors = (positives.sum() - np.cumsum(positives)) + np.cumsum(negatives)
        cdf = np.cumsum(np.exp(-epsilon * (errors - errors.min()) / (2.0 * sensitivity)))
        u = np.random.Generator(np.random.PCG64(seed)).random()
        return int(np.searchsorted(cdf, u * cdf[-1], side="right"))

    return learner


def test_audit_learner_does_not_refute_the_correct_learner():
    """On the default pairs (label flips at every point, random neighbours; one example)
    every concept's error count changes by at most 1, so the correct learner's loss is at
    most epsilon = 1 (at most 0.94 here: the flip at x = 1 moves 15 of 16 concepts the other
    way); a correct claim is refuted with probability at most 1 - confidence."""
    a = privpac.audit.audit_learner(
        exponential_cdf(1.0, 1.0), f"thresholds:{K}", privpac.Privacy(1.0), runs=3000, seed=1
    )
    assert not a.refutes(1.0), a
    assert a.epsilon_lower_bound > 0  # the learner does depend on its data
    assert a.total_runs > 0 and a.delta == 0.0


def test_audit_learner_refutes_the_halved_sensitivity():
    """The planted bug's loss on the flip at x = 1 is ln(e * (e^-1 + 15) / (1 + 15 e^-1)) =
    1.86 > 1: refuted at the claimed epsilon = 1."""
    a = privpac.audit.audit_learner(
        exponential_cdf(1.0, 0.5), f"thresholds:{K}", privpac.Privacy(1.0), runs=3000, seed=1
    )
    assert a.refutes(1.0), a
    assert a.epsilon_lower_bound > 1.0


def test_audit_learner_is_reproducible_and_takes_pairs():
    def uniform(points, labels, seed):  # ignores its data: 0-DP
        return int(np.random.default_rng(seed).integers(K))

    pairs = [(([1, 2], [True, False]), ([1, 3], [True, False]))]
    run = lambda: privpac.audit.audit_learner(  # noqa: E731
        uniform, f"thresholds:{K}", privpac.Privacy(0.1), runs=500, seed=3, pairs=pairs
    )
    a, b = run(), run()
    assert a.epsilon_lower_bound == b.epsilon_lower_bound
    assert a.pairs == b.pairs and a.pairs[0]["pair"] == 0
    assert not a.refutes(0.1)


def test_audit_learner_errors():
    learner = exponential_cdf(1.0, 1.0)
    spec = f"thresholds:{K}"

    def broken(points, labels, seed):
        raise KeyError("audit bug")

    with pytest.raises(BadInputError, match="audit bug") as info:
        privpac.audit.audit_learner(broken, spec, privpac.Privacy(1.0), runs=50, seed=1)
    assert isinstance(info.value.__cause__, KeyError)
    with pytest.raises(BadInputError, match=rf"concept id {K}\b"):
        privpac.audit.audit_learner(
            lambda p, l, s: K, spec, privpac.Privacy(1.0), runs=50, seed=1
        )
    # A predictor is audited under a DP claim (by its labels on the domain), so one whose
    # predictions are not labels is refused as for privpac.sample_complexity.
    with pytest.raises(BadInputError, match="only 0 and 1"):
        privpac.audit.audit_learner(
            lambda p, l, s: (lambda x: x), spec, privpac.Privacy(1.0), runs=50, seed=1
        )
    none = privpac.Learner("erm").guarantee(privpac.ConceptClass.from_spec(spec), 4)
    with pytest.raises(InvalidParameterError, match="differential-privacy claim"):
        privpac.audit.audit_learner(learner, spec, none, runs=50, seed=1)
    two_changes = [(([1, 2], [True, True]), ([3, 4], [True, True]))]
    with pytest.raises(BadInputError, match="exactly one example"):
        privpac.audit.audit_learner(
            learner, spec, privpac.Privacy(1.0), runs=50, seed=1, pairs=two_changes
        )
    outside = [(([K], [True]), ([0], [True]))]
    with pytest.raises(BadInputError, match=r"pairs\[0\]\[0\]"):
        privpac.audit.audit_learner(
            learner, spec, privpac.Privacy(1.0), runs=50, seed=1, pairs=outside
        )
    with pytest.raises(InvalidParameterError, match="sample_size"):
        privpac.audit.audit_learner(
            learner, spec, privpac.Privacy(1.0), runs=50, seed=1, sample_size=0
        )
    with pytest.raises(InvalidParameterError):
        privpac.audit.audit_learner(learner, "nope:3", privpac.Privacy(1.0), runs=50, seed=1)


def test_audit_learner_finds_a_bug_only_the_worst_case_patterns_show():
    """A learner that is the exponential mechanism except on samples with two distinct
    points, where it returns the ERM (a "clean sample" shortcut): label flips (all copies
    of one point) never show it; the exhaustive neighbouring samples over points of the
    domain (the exact audits' worst-case patterns) do."""
    size = 4
    spec = f"thresholds:{size}"
    correct = exponential_thresholds(1.0, size)

    def shortcut(points, labels, seed):
        if len(np.unique(points)) < 2:
            return correct(points, labels, seed)
        x = points.astype(np.int64)
        positives = np.bincount(x[labels], minlength=size)
        negatives = np.bincount(x[~labels], minlength=size)
        errors = (positives.sum() - np.cumsum(positives)) + np.cumsum(negatives)
        return int(np.argmin(errors))

    claim = privpac.Privacy(1.0)
    kw = dict(runs=1000, seed=3, sample_size=2, random_pairs=0)
    caught = privpac.audit.audit_learner(shortcut, spec, claim, exhaustive=64, **kw)
    assert caught.refutes(1.0), caught.epsilon_lower_bound
    # Label flips alone (exhaustive=0, the audit before the patterns) miss it.
    missed = privpac.audit.audit_learner(shortcut, spec, claim, exhaustive=0, **kw)
    assert not missed.refutes(1.0), missed.epsilon_lower_bound
    fine = privpac.audit.audit_learner(correct, spec, claim, exhaustive=64, **kw)
    assert not fine.refutes(1.0), fine.epsilon_lower_bound
    with pytest.raises(InvalidParameterError, match="exhaustive must be at most"):
        privpac.audit.audit_learner(correct, spec, claim, exhaustive=1 << 17, **kw)


def per_prediction_erm(epsilon: float):
    """ERM on thresholds, then randomized response on the one prediction: flip with
    probability 1/(1 + e^epsilon). Any deterministic base makes each prediction epsilon-DP
    (the two labels' probabilities differ by a factor e^epsilon at most); the model itself
    (the ERM) is not private."""
    flip = 1.0 / (1.0 + np.exp(epsilon))

    def learner(points, labels, seed):
        t = int(points[labels].max()) if labels.any() else -1
        rng = np.random.default_rng(seed)

        def predict(x):
            return (x <= t) ^ (rng.random(len(x)) < flip)

        return predict

    return learner


def test_audit_learner_audits_per_prediction_claims():
    spec = "thresholds:4"
    claim = privpac.Guarantee.per_prediction(1.0)
    kw = dict(runs=2000, seed=2, random_pairs=0, exhaustive=0, query_points=[0, 3])
    fine = privpac.audit.audit_learner(per_prediction_erm(1.0), spec, claim, **kw)
    assert not fine.refutes(1.0), fine.epsilon_lower_bound
    # Randomized response at 2 epsilon while claiming epsilon: refuted.
    loose = privpac.audit.audit_learner(per_prediction_erm(2.0), spec, claim, **kw)
    assert loose.refutes(1.0), loose.epsilon_lower_bound
    # A learner returning concept ids: its prediction at the query is the concept's label
    # (the ERM's: deterministic, not private per prediction).
    def erm(points, labels, seed):
        return int(points[labels].max()) if labels.any() else 0

    assert privpac.audit.audit_learner(erm, spec, claim, **kw).refutes(1.0)
    with pytest.raises(InvalidParameterError, match="query_points= are the fixed points"):
        privpac.audit.audit_learner(erm, spec, privpac.Privacy(1.0), runs=50, seed=1,
                                    query_points=[0])
    with pytest.raises(BadInputError, match="query_points"):
        privpac.audit.audit_learner(erm, spec, claim, runs=50, seed=1, query_points=[9])
    with pytest.raises(InvalidParameterError, match="1 to 64 points"):
        privpac.audit.audit_learner(erm, spec, claim, runs=50, seed=1, query_points=[])
    with pytest.raises(BadInputError, match="only 0 and 1"):
        privpac.audit.audit_learner(
            lambda p, l, s: (lambda x: np.full(len(x), 2)), spec, claim, runs=50, seed=1
        )


def test_a_non_private_baseline_claims_none():
    """guarantee="none" measures a non-private learner of one's own: the report says it is
    not private and carries no epsilon."""

    def erm(points, labels, seed):
        return int(points[labels].max()) if labels.any() else 0

    report = privpac.sample_complexity(
        f"thresholds:{N}", erm, guarantee="none", seed=1, **SEARCH
    )
    assert report["guarantee"] == {"kind": "none"}
    assert "not private" in report["guarantee_text"]
    assert report["epsilon"] is None
    assert report["empirical_sample_size"] is not None
    outcome = privpac.lab.run_trials(f"thresholds:{N}", erm, 64, guarantee="none", seed=1, **SEARCH)
    assert outcome["successes"] > 0
    with pytest.raises(InvalidParameterError, match='"none"'):
        privpac.sample_complexity(f"thresholds:{N}", erm, guarantee="pure", seed=1, **SEARCH)


def as_predictor(learner):
    """The learner returning its threshold as a predictor (a callable on points) instead of
    a concept id: the same hypothesis, so the same guarantee."""

    def predictor_learner(points, labels, seed):
        t = learner(points, labels, seed)
        return lambda xs: np.asarray(xs) <= t

    return predictor_learner


def test_audit_learner_audits_predictors_under_a_dp_claim():
    """Under a differential-privacy claim a predictor's output is its labels on every point
    of the 16-point domain (post-processing of the hypothesis): the correct exponential
    mechanism is not refuted (a correct claim is refuted with probability at most
    1 - confidence = 0.05) and the planted bug (loss 1.86 on the flip at x = 1, as for
    concept ids) is refuted."""
    spec = f"thresholds:{K}"
    good = privpac.audit.audit_learner(
        as_predictor(exponential_cdf(1.0, 1.0)), spec, privpac.Privacy(1.0), runs=3000, seed=1
    )
    assert not good.refutes(1.0), good
    assert good.epsilon_lower_bound > 0
    bad = privpac.audit.audit_learner(
        as_predictor(exponential_cdf(1.0, 0.5)), spec, privpac.Privacy(1.0), runs=3000, seed=1
    )
    assert bad.refutes(1.0), bad
    assert bad.epsilon_lower_bound > 1.0
