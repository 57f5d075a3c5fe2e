"""Tests of the checked conversion of array arguments (``src/arrays.rs``): every value is
read exactly or refused with an error naming the argument; nothing is truncated, wrapped or
rounded. One test per target type (int64 scores and values, uint64 points, 0/1 labels and
matrices, float64 scores, audit outputs), with the three examples of issue 27."""

import fractions

import numpy as np
import pytest

import privpac
from privpac import audit
from privpac.errors import BadInputError

# A class over 2^64 − 1 points (0 … 2^64 − 2): every uint64 but the largest is a point.
HUGE = "thresholds:18446744073709551615"
BIG_POINT = 2**63 + 5


def integer_argument_calls():
    """(name, call) for every argument read as int64, each taking the array to check."""
    rnm = privpac.ReportNoisyMax(5.0)
    stable = privpac.StableSelection(1.0, 1e-6)
    laplace = privpac.DiscreteLaplaceMechanism(1.0)
    return [
        ("scores", lambda a: rnm.select(a, seed=1)),
        ("scores", lambda a: stable.select(a, seed=1)),
        ("scores", lambda a: stable.output_distribution(a)),
        ("value", lambda a: laplace.release(a, seed=1)),
    ]


def test_array_issue_examples_are_refused():
    # Issue 27: float scores were truncated to [0, 0, 0].
    with pytest.raises(BadInputError, match=r"scores.*scores\[0\] is 0\.4"):
        privpac.ReportNoisyMax(5.0).select([0.4, 0.9, -0.7])
    # Issue 27: 2.9 was released as 2 plus noise.
    mech = privpac.DiscreteLaplaceMechanism(1.0)
    with pytest.raises(BadInputError, match=r"value.*2\.9"):
        mech.release([2.9])
    with pytest.raises(BadInputError, match=r"value.*2\.9"):
        mech.release(np.array([2.9]))
    with pytest.raises(BadInputError, match=r"value.*2\.9"):
        mech.release(2.9)
    # Issue 27: a uint64 of 2^63 + 5 was wrapped to −9223372036854775803.
    for name, call in integer_argument_calls():
        with pytest.raises(BadInputError, match=rf"{name}.*{BIG_POINT}"):
            call(np.array([1, BIG_POINT], dtype=np.uint64))
    # ... while as a point (uint64) it is exact.
    c = privpac.ConceptClass.from_spec(HUGE)
    for points in (np.array([BIG_POINT], dtype=np.uint64), [BIG_POINT],
                   np.array([BIG_POINT], dtype=object)):
        assert c.eval(BIG_POINT, points).tolist() == [True]
        assert c.eval(BIG_POINT - 1, points).tolist() == [False]


@pytest.mark.parametrize("bad", [[0.5], [1.0, np.nan], [np.inf], [-np.inf], [2.0**63],
                                 [-(2.0**63) - 2048], [2**63], [-(2**63) - 1], [2**70],
                                 np.array([1, 2**63], dtype=np.uint64)])
def test_array_int64_arguments_refuse_inexact_values(bad):
    for name, call in integer_argument_calls():
        with pytest.raises(BadInputError, match=rf"^{name} must hold integers in \[-2\^63"):
            call(bad)


@pytest.mark.parametrize("bad", [["1"], [b"1"], [1 + 0j], [None], [1, "a"],
                                 [fractions.Fraction(1, 2)], np.array(["2"])])
def test_array_non_numbers_are_type_errors(bad):
    for name, call in integer_argument_calls():
        with pytest.raises(TypeError, match=rf"^{name} must hold numbers"):
            call(bad)
    with pytest.raises(TypeError, match="^scores must hold numbers"):
        privpac.ExponentialMechanism(1.0).probabilities(bad)
    with pytest.raises(TypeError, match="^points must hold numbers"):
        privpac.ConceptClass.from_spec("thresholds:8").eval(0, bad)


def test_array_int64_arguments_accept_every_exact_form():
    rnm = privpac.ReportNoisyMax(1.0)
    reference = np.array([3, -1, 7, 0], dtype=np.int64)
    expected = [rnm.select(reference, seed=s) for s in range(20)]
    stable = privpac.StableSelection(1.0, 1e-6)
    distribution = stable.output_distribution(reference)
    forms = [
        reference.tolist(),
        [3.0, -1.0, 7.0, -0.0],
        np.array([3, -1, 7, 0], dtype=np.int8),
        np.array([3, -1, 7, 0], dtype=np.int32),
        np.array([3.0, -1.0, 7.0, 0.0], dtype=np.float32),
        np.array([3, -1, 7, 0], dtype=object),
        np.array([0, 3, 0, -1, 0, 7, 0, 0], dtype=np.int64)[1::2],  # strided view
        np.array([3, -1, 7, 0], dtype=">i8"),  # big-endian
    ]
    for form in forms:
        assert [rnm.select(form, seed=s) for s in range(20)] == expected, form
        np.testing.assert_array_equal(stable.output_distribution(form), distribution)
    # Unsigned widths, bools (0/1) and the int64 extremes.
    unsigned = np.array([3, 1, 7, 0], dtype=np.uint64)
    assert rnm.select(unsigned, seed=3) == rnm.select([3, 1, 7, 0], seed=3)
    assert rnm.select(np.array([3, 1, 7, 0], dtype=np.uint16), seed=3) == rnm.select(
        [3, 1, 7, 0], seed=3)
    assert rnm.select([True, False], seed=4) == rnm.select([1, 0], seed=4)
    mech = privpac.DiscreteLaplaceMechanism(1.0)
    released = mech.release(np.array([2**63 - 1, -(2**63)], dtype=object), seed=1)
    assert released.dtype == np.int64 and len(released) == 2
    # Scalars: ints, integral floats, numpy scalars and 0-d arrays.
    base = mech.release(2, seed=9)
    for scalar in (2.0, np.int8(2), np.uint64(2), np.float32(2.0), np.longdouble(2.0),
                   np.array(2), np.array(2.0)):
        assert mech.release(scalar, seed=9) == base
    assert isinstance(mech.release(np.int64(2), seed=9), int)
    for bad in (np.float64(2.5), float("nan"), 2**63, -(2**63) - 1, np.uint64(2**63)):
        with pytest.raises(BadInputError, match="^value must be an integer"):
            mech.release(bad, seed=1)
    with pytest.raises(TypeError, match="^value must hold numbers"):
        mech.release(np.array("2"), seed=1)


def test_array_uint64_points_are_exact():
    c = privpac.ConceptClass.from_spec(HUGE)
    # −2 was wrapped to 2^64 − 2, a point of this domain.
    for bad in ([-2], np.array([-2]), np.array([-2], dtype=np.int8), [1.5], [np.nan],
                [2.0**64], [2**64], np.array([2**64], dtype=object)):
        with pytest.raises(BadInputError, match=r"^points must hold integers in \[0, 2\^64 - 1\]"):
            c.eval(0, bad)
    # Integral floats are the points they equal; 2^63 is exactly a float.
    assert c.eval(2**63, [2.0**63, 2.0**63 + 2048]).tolist() == [True, False]
    assert c.eval(2**63, [-0.0]).tolist() == [True]
    # A list mixing a negative with a huge int is refused (numpy alone would round it).
    with pytest.raises(BadInputError, match="points"):
        c.eval(0, [-1, BIG_POINT])
    # Every path that reads points: learners, hypotheses, sanitizers, shattering.
    small = privpac.ConceptClass.from_spec("thresholds:16")
    learner = privpac.Learner("erm")
    points = np.arange(16, dtype=np.uint64)
    h = learner.fit(small, points, points <= 5, seed=1)
    assert learner.fit(small, points.astype(float), points <= 5, seed=1).to_json() == h.to_json()
    with pytest.raises(BadInputError, match="^points"):
        learner.fit(small, points + 0.5, points <= 5, seed=1)
    for method in (h.predict, h.labels, h.probability_of_one):
        np.testing.assert_array_equal(method([3.0, 9.0]), method(np.array([3, 9], dtype=np.uint8)))
        with pytest.raises(BadInputError, match="^points"):
            method([3.5])
    with pytest.raises(BadInputError, match="^points"):
        h.empirical_error([3.5], [1])
    with pytest.raises(BadInputError, match="^points"):
        privpac.Sanitizer("tree", 1.0).sanitize(small, [1, 2.5], seed=1)
    db = privpac.Sanitizer("tree", 1.0).sanitize(small, [1, 2, 3], seed=1)
    with pytest.raises(BadInputError, match="^points"):
        db.max_query_error([-1])
    with pytest.raises(BadInputError, match="^points"):
        privpac.MultiLearner("direct-sum", 4.0).fit(small, [0.5] * 16, np.zeros((16, 2)))
    matrix = privpac.ConceptClass.from_matrix([[0, 1], [1, 0], [1, 1], [0, 0]])
    matrix.check_shattered([0.0, 1.0])
    matrix.check_shattered(np.array([0, 1], dtype=np.int16))
    with pytest.raises(BadInputError, match="^points"):
        matrix.check_shattered([-1])
    with pytest.raises(BadInputError, match="^points"):
        matrix.check_shattered([0.5])


def test_array_labels_and_matrices_are_zero_one():
    c = privpac.ConceptClass.from_spec("thresholds:16")
    points = np.arange(16, dtype=np.uint64)
    labels = points <= 5
    learner = privpac.Learner("erm")
    h = learner.fit(c, points, labels, seed=1)
    # Bools, 0/1 integers of any width and 0.0/1.0 floats are the same labels.
    for form in (labels.astype(np.uint8), labels.astype(np.int64), labels.astype(float),
                 labels.tolist(), labels.astype(object), labels.astype(np.float32)):
        assert learner.fit(c, points, form, seed=1).to_json() == h.to_json()
    for bad in (labels * 0.5, np.where(labels, 2, 0), np.where(labels, np.nan, 0.0),
                np.where(labels, -1, 0)):
        with pytest.raises(BadInputError, match=r"^labels must hold only 0 and 1"):
            learner.fit(c, points, bad, seed=1)
    with pytest.raises(TypeError, match="^labels must hold numbers"):
        learner.fit(c, points, ["1"] * 16, seed=1)
    # Matrices: class matrices and label matrices; the message gives the 2-D index.
    m = privpac.ConceptClass.from_matrix([[0, 1], [1, 0]])
    for form in ([[0.0, 1.0], [1.0, 0.0]], np.array([[False, True], [True, False]]),
                 np.asfortranarray(np.array([[0, 1], [1, 0]], dtype=np.int8))):
        np.testing.assert_array_equal(privpac.ConceptClass.from_matrix(form).to_matrix(),
                                      m.to_matrix())
    with pytest.raises(BadInputError, match=r"matrix\[1, 0\] is 0\.5"):
        privpac.ConceptClass.from_matrix([[0, 1], [0.5, 0]])
    multi = privpac.MultiLearner("direct-sum", 4.0)
    with pytest.raises(BadInputError, match=r"labels\[3, 1\] is 0\.5"):
        matrix = np.zeros((16, 2))
        matrix[3, 1] = 0.5
        multi.fit(c, points, matrix)


def test_array_float_scores_are_exact_and_finite():
    mech = privpac.ExponentialMechanism(1.0)
    reference = mech.probabilities(np.array([0.5, 2.0, -1.0]))
    for form in ([0.5, 2.0, -1.0], np.array([0.5, 2.0, -1.0], dtype=np.float32),
                 np.array([0.5, 2.0, -1.0], dtype=object), (0.5, 2, -1)):
        np.testing.assert_array_equal(mech.probabilities(form), reference)
    # Integer scores are read as floats when exact (2^60 is), refused when not.
    np.testing.assert_array_equal(mech.probabilities([2**60, 2**60]), [0.5, 0.5])
    np.testing.assert_array_equal(mech.probabilities(np.array([2**60, 2**60], dtype=np.uint64)),
                                  [0.5, 0.5])
    for bad in ([2**53 + 1, 0], np.array([2**53 + 1, 0], dtype=np.int64),
                np.array([2**64 - 1], dtype=np.uint64), [-1, 2**63 + 5]):
        with pytest.raises(BadInputError, match="^scores must hold finite numbers"):
            mech.probabilities(bad)
    for bad in ([np.nan, 0.0], np.array([0.0, np.inf]), [0.0, -np.inf]):
        for call in (mech.probabilities, mech.log_probabilities, mech.select):
            with pytest.raises(BadInputError, match="^scores must hold finite numbers"):
                call(bad)
    longdouble = np.array([1.0, 2.0], dtype=np.longdouble)
    np.testing.assert_array_equal(mech.probabilities(longdouble), mech.probabilities([1.0, 2.0]))
    if np.finfo(np.longdouble).eps < np.finfo(np.float64).eps:
        inexact = np.array([1.0, 1.0], dtype=np.longdouble) + np.finfo(np.longdouble).eps
        with pytest.raises(BadInputError, match="scores"):
            mech.probabilities(inexact)
        with pytest.raises(BadInputError, match=r"scores\[0\] is .*not exactly a float64"):
            mech.probabilities(inexact.astype(object))
        with pytest.raises(BadInputError, match="^value must be an integer"):
            privpac.DiscreteLaplaceMechanism(1.0).release(inexact[0])


def test_array_epsilons_of_a_curve_are_checked():
    with pytest.raises(BadInputError, match="^epsilons must hold finite numbers"):
        privpac.sample_complexity_curve("thresholds:16", "generic", [1.0, float("nan")],
                                        alpha=0.1, beta=0.1, seed=1)
    with pytest.raises(TypeError, match="^epsilons must hold numbers"):
        privpac.sample_complexity_curve("thresholds:16", "generic", ["1"], alpha=0.1,
                                        beta=0.1, seed=1)


def test_array_audit_outputs_are_not_wrapped_or_rounded():
    def huge(bit, n, seed):
        return np.full(n, BIG_POINT, dtype=np.uint64)

    with pytest.raises(BadInputError, match="failed") as info:
        audit.audit_finite(huge, [(0, 1)], runs=1000, seed=1)
    assert str(BIG_POINT) in str(info.value.__cause__)

    def inexact(bit, n, seed):
        return np.full(n, 2**53 + 1, dtype=np.int64)

    with pytest.raises(BadInputError, match="failed") as info:
        audit.audit_real(inexact, [(0.0, 1.0)], runs=1000, seed=1)
    assert str(2**53 + 1) in str(info.value.__cause__)

    # Integer outputs of narrower or unsigned types in range, and NaN real outputs, are fine.
    def small(bit, n, seed):
        return np.random.default_rng(seed).integers(0, 2, n).astype(np.uint8)

    assert not audit.audit_finite(small, [(0, 1)], runs=2000, seed=1).refutes(0.5)

    def with_nan(bit, n, seed):
        out = np.random.default_rng(seed).random(n)
        out[::7] = np.nan
        return out

    audit.audit_real(with_nan, [(0.0, 1.0)], runs=2000, seed=1)
