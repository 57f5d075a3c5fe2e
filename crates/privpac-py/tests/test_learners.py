"""Tests of the learner, sanitizer and multi-learner bindings: same hypotheses as the CLI
for the same spec, data and seed; guarantees as typed objects; error classes."""

import json

import numpy as np
import pytest

import privpac
from privpac.errors import BadInputError, InvalidParameterError, TooLargeError

CLASS = "thresholds:16"


def sample(n_per_point=10, cut=5):
    """Points 0..15, each n_per_point times, labeled by threshold concept `cut` (x <= cut)."""
    points = np.repeat(np.arange(16, dtype=np.uint64), n_per_point)
    return points, points <= cut


@pytest.mark.parametrize("spec", ["erm", "generic", "stable", "private-prediction", "voting",
                                  "relabeling", "dagan-feldman", "sanitizer:tree",
                                  "sanitizer:point", "interior-point"])
def test_learners_match_the_cli(cli, write_csv, spec):
    points, labels = sample()
    data = write_csv("data.csv", zip(points, labels), header="x,y")
    args = ["learn", "--class", CLASS, "--learner", spec, "--data", data, "--seed", 11]
    kwargs = {}
    if spec in ("sanitizer:point", "interior-point"):  # (ε, δ)-DP learners: they need δ > 0
        args += ["--delta", "1e-6"]
        kwargs["delta"] = 1e-6
    if spec == "stable":  # not private: its mechanism's ε, never a target
        args += ["--em-epsilon", "1"]
        kwargs["em_epsilon"] = 1.0
    elif spec != "erm":
        args += ["--epsilon", "1"]
        kwargs["epsilon"] = 1.0
    report = cli(*args)
    learner = privpac.Learner(spec, **kwargs)
    c = privpac.ConceptClass.from_spec(CLASS)
    h = learner.fit(c, points, labels, seed=11)
    assert json.loads(h.to_json()) == report["hypothesis"]
    assert h.learner == report["learner"]
    assert h.empirical_error(points, labels) == pytest.approx(report["empirical_error"], abs=1e-12)
    g = h.guarantee
    assert str(g) == report["guarantee_text"]
    kind = report["guarantee"]["kind"].replace("_", "-")
    assert g.kind == kind
    if kind in ("differential-privacy", "per-prediction"):
        assert g.epsilon == report["guarantee"]["epsilon"]
    if kind == "uniform-stability":
        assert g.beta == report["guarantee"]["beta"]
    assert learner.guarantee(c, len(points)) == g


def test_guarantee_kinds_are_typed():
    c = privpac.ConceptClass.from_spec(CLASS)
    g = privpac.Learner("generic", epsilon=0.5).guarantee(c, 48)
    assert (g.kind, g.epsilon, g.delta, g.beta) == ("differential-privacy", 0.5, 0.0, None)
    assert g.privacy == privpac.Privacy(0.5)
    g = privpac.Learner("voting", epsilon=0.5).guarantee(c, 48)
    assert (g.kind, g.epsilon, g.delta, g.privacy) == ("per-prediction", 0.5, None, None)
    g = privpac.Learner("stable", em_epsilon=0.5).guarantee(c, 48)
    assert g.kind == "uniform-stability" and 0 < g.beta <= 1 and g.epsilon is None
    g = privpac.Learner("erm").guarantee(c, 48)
    assert (g.kind, g.epsilon, g.beta) == ("none", None, None)


def test_hypotheses_evaluate_on_numpy_arrays():
    c = privpac.ConceptClass.from_spec(CLASS)
    points, labels = sample(n_per_point=20)
    erm = privpac.Learner("erm").fit(c, points, labels, seed=1)
    assert erm.is_deterministic and erm.kind == "concept" and erm.concept is not None
    grid = np.arange(16, dtype=np.uint64)
    np.testing.assert_array_equal(erm.labels(grid), grid <= 5)
    np.testing.assert_array_equal(erm.predict(grid), grid <= 5)
    np.testing.assert_array_equal(erm.probability_of_one(grid), (grid <= 5).astype(float))
    assert erm.concept == 5
    assert erm.empirical_error(points, labels) == 0.0
    flipped = privpac.Learner("private-prediction", epsilon=1.0).fit(c, points, labels, seed=1)
    assert not flipped.is_deterministic and flipped.kind == "flipped"
    p = flipped.probability_of_one(grid)
    assert ((p > 0) & (p < 1)).all()
    assert np.array_equal(flipped.predict(grid, seed=4), flipped.predict(grid, seed=4))
    with pytest.raises(BadInputError, match="outside the domain"):
        erm.predict([99])


def test_learner_errors_raise_the_right_class():
    c = privpac.ConceptClass.from_spec(CLASS)
    points, labels = sample()
    with pytest.raises(InvalidParameterError, match="unknown learner"):
        privpac.Learner("perceptron")
    with pytest.raises(InvalidParameterError, match="epsilon"):
        privpac.Learner("generic")
    with pytest.raises(InvalidParameterError, match="epsilon"):
        privpac.Learner("generic", epsilon=float("nan")).fit(c, points, labels)
    with pytest.raises(InvalidParameterError, match="pure"):
        privpac.Learner("generic", epsilon=1.0, delta=1e-6).fit(c, points, labels)
    generic = privpac.Learner("generic", epsilon=1.0)
    with pytest.raises(BadInputError, match="0 and 1"):
        generic.fit(c, points, np.full(len(points), 2))  # label out of range
    with pytest.raises(BadInputError, match="outside the domain"):
        generic.fit(c, np.array([3, 40], dtype=np.uint64), [0, 1])
    with pytest.raises(BadInputError, match="labels"):
        generic.fit(c, points, labels[:-1])
    with pytest.raises(BadInputError, match="at least"):
        privpac.Learner("relabeling", epsilon=1.0).fit(c, points[:20], labels[:20])
    with pytest.raises(BadInputError):
        generic.fit(c, [[0, 1], [2]], [0, 1])  # ragged points
    with pytest.raises(TooLargeError):
        privpac.Learner("voting", epsilon=1.0, voters=10**12).fit(c, points, labels)


def test_sanitizers_match_the_cli(cli, write_csv):
    points, _ = sample()
    data = write_csv("points.csv", ([x] for x in points))
    report = cli("sanitize", "--class", CLASS, "--sanitizer", "tree", "--epsilon", "1",
                 "--data", data, "--seed", 2)
    c = privpac.ConceptClass.from_spec(CLASS)
    sanitizer = privpac.Sanitizer("tree", 1.0)
    db = sanitizer.sanitize(c, points, seed=2)
    assert db.sanitizer == report["sanitizer"]
    assert db.support_len == report["support_points"]
    assert db.max_query_error(points) == (report["max_query_error"], report["worst_concept"])
    support, weights = db.weights()
    dense = np.array(report["synthetic"]["body"]["dense"]["weights"])
    np.testing.assert_array_equal(support, np.flatnonzero(dense))
    np.testing.assert_array_equal(weights, dense[dense > 0])
    assert weights.sum() == pytest.approx(1.0)
    assert db.answer(15) == pytest.approx(1.0)  # threshold 15 labels every point 1
    assert db.answer(0) == weights[0] if support[0] == 0 else db.answer(0) == 0.0
    assert db.privacy == sanitizer.privacy == privpac.Privacy(1.0)


def test_sanitizer_errors():
    c = privpac.ConceptClass.from_spec(CLASS)
    with pytest.raises(InvalidParameterError, match="unknown sanitizer"):
        privpac.Sanitizer("magic", 1.0)
    with pytest.raises(InvalidParameterError):
        privpac.Sanitizer("tree", float("nan"))
    with pytest.raises(BadInputError, match="empty"):
        privpac.Sanitizer("tree", 1.0).sanitize(c, np.array([], dtype=np.uint64))
    with pytest.raises(BadInputError):
        privpac.Sanitizer("tree", 1.0).sanitize(c, [3, 99])
    db = privpac.Sanitizer("tree", 1.0).sanitize(c, [1, 2, 3], seed=1)
    with pytest.raises(BadInputError):
        db.answer(16)


@pytest.mark.parametrize("spec,cls,delta", [("direct-sum", "thresholds:16", 0.0),
                                            ("generic:tree", "thresholds:16", 0.0),
                                            ("point", "points:16", 1e-6)])
def test_multi_learners_match_the_cli(cli, write_csv, spec, cls, delta):
    points = np.repeat(np.arange(16, dtype=np.uint64), 12)
    labels = np.stack([points <= 3, points <= 9, points == 4], axis=1).astype(np.uint8)
    data = write_csv("k.csv", (np.concatenate([[x], y]) for x, y in zip(points, labels)))
    report = cli("multi-learn", "--class", cls, "--learner", spec, "--epsilon", "4",
                 "--delta", delta, "--data", data, "--seed", 5)
    c = privpac.ConceptClass.from_spec(cls)
    learner = privpac.MultiLearner(spec, 4.0, delta=delta)
    hypotheses = learner.fit(c, points, labels, seed=5)
    assert len(hypotheses) == 3 == report["k"]
    for h, column in zip(hypotheses, report["columns"]):
        assert json.loads(h.to_json()) == column["hypothesis"]
        assert h.guarantee.epsilon == report["epsilon"] and h.guarantee.delta == report["delta"]
    assert learner.guarantee(len(points), 3) == hypotheses[0].guarantee
    # A Fortran-ordered (non-contiguous rows) label matrix gives the same hypotheses.
    again = learner.fit(c, points, np.asfortranarray(labels), seed=5)
    assert [a.to_json() for a in again] == [h.to_json() for h in hypotheses]


def test_multi_learner_errors():
    c = privpac.ConceptClass.from_spec("thresholds:16")
    points = np.arange(16, dtype=np.uint64)
    learner = privpac.MultiLearner("direct-sum", 4.0)
    with pytest.raises(InvalidParameterError, match="unknown multi-learner"):
        privpac.MultiLearner("magic", 1.0)
    with pytest.raises(InvalidParameterError):
        privpac.MultiLearner("direct-sum", float("nan"))
    with pytest.raises(BadInputError):
        learner.fit(c, points, [[0, 1]] * 15 + [[1]])  # ragged label matrix
    with pytest.raises(BadInputError, match="0 and 1"):
        learner.fit(c, points, np.full((16, 2), 3))  # label out of range
    with pytest.raises(BadInputError):
        learner.fit(c, points, np.zeros((16, 0)))  # no label columns
    with pytest.raises(BadInputError):
        learner.fit(c, points, np.zeros((15, 2)))  # not one row per point
    with pytest.raises(InvalidParameterError):
        privpac.MultiLearner("parity", 1.0).fit(c, points, np.zeros((16, 2)))


def test_improper_point_learner_matches_the_cli_on_a_huge_domain(cli, write_csv):
    cls = "points:1099511627776"
    points = np.array([987654321987 if i % 3 == 0 else i * 549755813 for i in range(600)],
                      dtype=np.uint64)
    labels = points == 987654321987
    data = write_csv("huge.csv", zip(points, labels.astype(int)), header="x,y")
    report = cli("learn", "--class", cls, "--learner", "improper-point", "--epsilon", "1",
                 "--alpha", "0.05", "--data", data, "--seed", 5)
    learner = privpac.Learner("improper-point", epsilon=1.0, alpha=0.05)
    c = privpac.ConceptClass.from_spec(cls)
    h = learner.fit(c, points, labels, seed=5)
    assert json.loads(h.to_json()) == report["hypothesis"]
    assert h.kind == "hash-bucket" and h.is_deterministic
    assert report["hypothesis"]["hash"]["buckets"] == 3200  # ceil(16 / (0.05 * 0.1))
    assert h.labels(np.array([987654321987], dtype=np.uint64))[0]
    assert privpac.Learner("improper-point", epsilon=1.0, buckets=9).fit(
        c, points, labels, seed=5).kind in ("hash-bucket", "constant")
    with pytest.raises(InvalidParameterError):
        privpac.Learner("improper-point", epsilon=1.0, beta=1.5).fit(c, points, labels, seed=5)


def test_epsilon_is_the_target_of_every_learner():
    """Issue 27 §3: `epsilon` is the guarantee a learner reports at most. The old build
    passed it to private-prediction's inner exponential mechanism (reporting 0.17 at
    epsilon=0.01); stable, not private, refuses it and takes em_epsilon."""
    c = privpac.ConceptClass.from_spec("thresholds:256")
    for epsilon in (0.01, 0.5, 2.0):
        for spec in ("private-prediction", "voting", "relabeling", "dagan-feldman", "generic"):
            g = privpac.Learner(spec, epsilon=epsilon).guarantee(c, 20_000)
            assert g.epsilon <= epsilon, (spec, epsilon, g)
    # em_epsilon = 0.1 fits the budget at flip 0.1 (the default flip is now alpha/2 = 0.05,
    # whose budget it exceeds).
    g = privpac.Learner("private-prediction", epsilon=0.5, em_epsilon=0.1,
                        flip_probability=0.1).guarantee(c, 1000)
    assert g.kind == "per-prediction" and g.epsilon <= 0.5
    with pytest.raises(InvalidParameterError, match="em_epsilon"):
        privpac.Learner("stable", epsilon=1.0)
    with pytest.raises(InvalidParameterError, match="em_epsilon"):
        privpac.Learner("stable")
    with pytest.raises(InvalidParameterError, match="below"):
        privpac.Learner("private-prediction", epsilon=0.01, em_epsilon=1.0).guarantee(c, 1000)
    with pytest.raises(BadInputError, match="needs at least 797"):
        privpac.Learner("private-prediction", epsilon=0.01,
                        flip_probability=0.1).guarantee(c, 100)
