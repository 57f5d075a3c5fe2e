"""Tests of the mechanism bindings: results, seeds against the CLI, and error classes."""

import math

import numpy as np
import pytest

import privpac
from privpac.errors import BadInputError, InvalidParameterError, PrivpacError


def test_privacy_validates_and_reports():
    p = privpac.Privacy(0.5, 1e-6)
    assert p.epsilon == 0.5 and p.delta == 1e-6 and not p.is_pure
    assert privpac.Privacy(1.0).is_pure
    with pytest.raises(InvalidParameterError, match="epsilon"):
        privpac.Privacy(float("nan"))
    with pytest.raises(InvalidParameterError, match="delta"):
        privpac.Privacy(1.0, 1.0)


def test_error_classes_are_value_errors_and_privpac_errors():
    assert issubclass(InvalidParameterError, ValueError)
    assert issubclass(BadInputError, ValueError)
    assert issubclass(privpac.TooLargeError, PrivpacError)
    assert not issubclass(privpac.TooLargeError, ValueError)


def test_exponential_probabilities_are_exact():
    mech = privpac.ExponentialMechanism(1.0, sensitivity=1.0)
    scores = np.array([3.0, 1.0, 0.0])
    p = mech.probabilities(scores)
    assert isinstance(p, np.ndarray) and p.dtype == np.float64
    # exp(ε q / 2Δ) normalized; the implementation runs at ε − 8e-12.
    w = np.exp(0.5 * scores)
    np.testing.assert_allclose(p, w / w.sum(), rtol=1e-9)
    np.testing.assert_allclose(mech.log_probabilities(scores), np.log(w / w.sum()), rtol=1e-9)
    assert mech.privacy.is_pure and mech.privacy.epsilon == 1.0


def test_exponential_select_is_seeded_and_accepts_lists_and_views():
    mech = privpac.ExponentialMechanism(2.0)
    scores = np.linspace(0.0, 5.0, 11)
    first = mech.select(scores, seed=7)
    assert first == mech.select(scores, seed=7)
    assert first == mech.select(list(scores), seed=7)
    # A strided view goes through the non-contiguous path with the same result.
    doubled = np.repeat(scores, 2)[::2]
    assert not doubled.flags["C_CONTIGUOUS"]
    assert first == mech.select(doubled, seed=7)
    draws = {mech.select(scores, seed=s) for s in range(200)}
    assert draws <= set(range(11)) and len(draws) > 1


@pytest.mark.parametrize("epsilon", [float("nan"), 0.0, -1.0, float("inf")])
def test_exponential_rejects_bad_epsilon(epsilon):
    with pytest.raises(InvalidParameterError):
        privpac.ExponentialMechanism(epsilon)


def test_exponential_rejects_bad_scores():
    mech = privpac.ExponentialMechanism(1.0)
    with pytest.raises(BadInputError, match="empty"):
        mech.select(np.array([]), seed=1)
    with pytest.raises(BadInputError, match="finite"):
        mech.select(np.array([1.0, math.nan]), seed=1)
    with pytest.raises(BadInputError, match="dimensional"):
        mech.select(np.zeros((2, 2)), seed=1)
    with pytest.raises(BadInputError):
        mech.select([[1.0], [1.0, 2.0]], seed=1)
