"""privpac.data: real-valued features with public bounds (issue 31 §2), complements of
classes usable by learners, and hypotheses printed back in the data's units."""

import sys
import numpy as np
import pytest

import privpac
import privpac.data
from privpac.data import Discretizer, discretize
from privpac.errors import BadInputError, InvalidParameterError, TooLargeError


def test_discretize_clips_and_bins_in_order():
    values = np.array([-np.inf, -5.0, 0.0, 1.999, 2.0, 3.9, 9.99, 10.0, 11.0, np.inf])
    bins = discretize(values, 0.0, 10.0, 5)
    assert bins.dtype == np.uint64
    assert bins.tolist() == [0, 0, 0, 0, 1, 1, 4, 4, 4, 4]
    # Lists, integer arrays and strided views are values too.
    assert discretize([1, 5, 9], 0, 10, 5).tolist() == [0, 2, 4]
    assert discretize(values[::3], 0.0, 10.0, 5).tolist() == [0, 0, 4, 4]  # -inf, 1.999, 9.99, inf
    assert discretize(np.array([], dtype=float), 0.0, 1.0, 3).tolist() == []
    d = Discretizer(0.0, 10.0, 5)
    assert d.bin(values).tolist() == bins.tolist()
    assert (d.low, d.high, d.bins) == (0.0, 10.0, 5)
    assert repr(d) == "Discretizer(low=0.0, high=10.0, bins=5)"


def test_bins_map_back_to_data_units_exactly():
    d = Discretizer(40.0, 200.0, 1600)
    b = int(d.bin([104.35])[0])
    assert b == 643
    assert d.interval(b) == (104.3, 104.4)
    assert d.value(0) == pytest.approx(40.05)
    assert d.edge(0) == 40.0 and d.edge(1600) == 200.0
    edges = d.edges()
    assert edges.shape == (1601,) and edges[643] == 104.3
    # Every value lies in the interval of its bin.
    values = np.random.default_rng(3).uniform(30.0, 210.0, size=2000)
    for x, b in zip(values, d.bin(values)):
        lo, hi = d.interval(int(b))
        assert (lo <= x or b == 0) and (x < hi or b == 1599)


def test_error_paths():
    with pytest.raises(BadInputError, match=r"values\[1\] is NaN"):
        discretize(np.array([1.0, np.nan, 2.0]), 0.0, 10.0, 5)
    with pytest.raises(BadInputError, match=r"values\[0\] is NaN"):
        Discretizer(0.0, 1.0, 2).bin([float("nan")])
    with pytest.raises(InvalidParameterError, match="low < high"):
        discretize([1.0], 5.0, 5.0, 3)
    with pytest.raises(InvalidParameterError, match="low < high"):
        Discretizer(6.0, 5.0, 3)
    with pytest.raises(InvalidParameterError, match="bins must be between 1"):
        discretize([1.0], 0.0, 1.0, 0)
    with pytest.raises(InvalidParameterError, match="bins must be between 1"):
        Discretizer(0.0, 1.0, 2**53 + 1)
    with pytest.raises(InvalidParameterError, match="finite"):
        Discretizer(float("-inf"), 1.0, 4)
    with pytest.raises(InvalidParameterError, match="overflows"):
        Discretizer(-1e308, 1e308, 4)
    # Not 1-D: refused, not flattened.
    with pytest.raises(BadInputError):
        discretize(np.zeros((2, 3)), 0.0, 1.0, 4)
    with pytest.raises(BadInputError):
        discretize(np.float64(0.5), 0.0, 1.0, 4)
    with pytest.raises(TypeError):
        discretize(["a"], 0.0, 1.0, 4)
    d = Discretizer(0.0, 1.0, 4)
    with pytest.raises(InvalidParameterError, match="outside"):
        d.interval(4)
    with pytest.raises(InvalidParameterError):
        d.edge(5)
    with pytest.raises(TooLargeError):
        Discretizer(0.0, 1.0, 2**30).edges()


def test_complements_are_classes_learners_use():
    # Labels 1 on x ≥ 5 over 0..15: no threshold "1 on x ≤ t" fits, its complement does.
    points = np.arange(16, dtype=np.uint64).repeat(3)
    labels = points >= 5
    erm = privpac.Learner("erm")
    for spec, fits in [
        ("thresholds:16", False),
        ("not(thresholds:16)", True),
        ("both(thresholds:16)", True),
    ]:
        c = privpac.ConceptClass.from_spec(spec)
        h = erm.fit(c, points, labels, seed=1)
        assert (h.empirical_error(points, labels) == 0.0) == fits, spec
    both = privpac.ConceptClass.from_spec("both(thresholds:16)")
    assert len(both) == 32
    assert both.vc_dimension().dimension == 2
    assert both.littlestone_dimension().dimension == 5  # ⌊log2 16⌋ + 1
    not_thresholds = privpac.ConceptClass.from_spec("not(thresholds:16)")
    assert not_thresholds.littlestone_dimension().dimension == 4  # that of thresholds:16
    h = privpac.Learner("generic", epsilon=1.0).fit(both, points, labels, seed=2)
    assert h.guarantee.epsilon <= 1.0
    assert h.concept is not None


def test_hypotheses_are_described_in_data_units():
    rng = np.random.default_rng(7)
    x = rng.uniform(0.0, 20.0, size=400)
    y = x >= 12.5
    d = Discretizer(0.0, 20.0, 200)
    c = privpac.ConceptClass.from_spec("both(thresholds:200)")
    h = privpac.Learner("erm").fit(c, d.bin(x), y, seed=1)
    text = d.describe(h)
    assert text.startswith("1 on x ≥ "), text
    cut = float(text.removeprefix("1 on x ≥ "))
    assert 12.0 <= cut <= 13.0
    # The statement is the hypothesis: it labels every value as the hypothesis labels its bin.
    grid = np.linspace(-5.0, 25.0, 3001)
    assert np.array_equal(grid >= cut, h.predict(d.bin(grid)))
    assert d.describe_concept(c, 10) == "1 on x < 1.1"
    assert d.describe_concept(c, 200 + 10) == "1 on x ≥ 1.1"
    intervals = privpac.ConceptClass.from_spec("intervals:200")
    assert d.describe_concept(intervals, 0) == "0 on every x"
    assert d.describe_concept(intervals, 1) == "1 on x < 0.1"
    # A class over other points than the bins is refused.
    with pytest.raises(BadInputError, match="200 bins"):
        d.describe_concept(privpac.ConceptClass.from_spec("thresholds:100"), 3)
    with pytest.raises(BadInputError):
        d.describe_concept(c, 400)


def test_the_submodule_is_importable_and_documented():
    assert sys.modules["privpac.data"] is privpac.data  # the submodule, as an attribute
    assert "public" in (privpac.data.__doc__ or "")
    assert "public" in (Discretizer.__doc__ or "")
