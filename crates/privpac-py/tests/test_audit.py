"""Tests of privpac.audit: vectorized numpy mechanisms audited from Python (broken ones
refuted, correct ones not, seeded results reproducible), the built-in zoo, StatDP's
patterns, and the error paths (wrong length or dtype, a mechanism that raises, bad
parameters). Each audit's false-refutation rate for a correct mechanism is at most
1 − confidence = 0.05 by construction; the seeds are fixed, so these outcomes are pinned."""

import numpy as np
import pytest

import privpac
import privpac.audit as audit
from privpac.errors import BadInputError, InvalidParameterError


def randomized_response(epsilon):
    truth = np.exp(epsilon) / (1 + np.exp(epsilon))

    def mechanism(bit, n, seed):
        rng = np.random.default_rng(seed)
        keep = rng.random(n) < truth
        return np.where(keep, bit, 1 - bit).astype(np.int64)

    return mechanism


def laplace_count(scale):
    def mechanism(value, n, seed):
        return value + np.random.default_rng(seed).laplace(0.0, scale, n)

    return mechanism


def test_finite_audits_refute_broken_and_pass_correct_mechanisms():
    broken = audit.audit_finite(randomized_response(1.0), [(0, 1)], runs=20_000, seed=3)
    assert broken.refutes(0.5) and 0.5 < broken.epsilon_lower_bound <= 1.0
    correct = audit.audit_finite(randomized_response(0.5), [(0, 1)], runs=20_000, seed=3)
    assert not correct.refutes(0.5)
    again = audit.audit_finite(randomized_response(1.0), [(0, 1)], runs=20_000, seed=3)
    assert again.epsilon_lower_bound == broken.epsilon_lower_bound
    assert broken.runs == 20_000 and broken.total_runs >= 4 * 20_000
    assert broken.confidence == 0.95 and broken.delta == 0.0
    assert broken.selection_runs == 20_000 and broken.screening_runs == 0  # one pair: no screening
    assert "epsilon_lower_bound" in repr(broken)
    custom = audit.audit_finite(randomized_response(1.0), [(0, 1), (1, 0)], runs=4_000, seed=3,
                                confidence=0.9, delta=1e-3, selection_runs=2_000,
                                screening_runs=500, certified_pairs=2)
    assert (custom.confidence, custom.delta, custom.selection_runs) == (0.9, 1e-3, 2_000)
    assert len(custom.pairs) == 2
    (pair,) = broken.pairs
    assert pair["pair"] == 0 and "output" in pair["event"]
    assert broken.delta_lower_bound(0.5) > 0.0


def test_real_audits_refute_a_laplace_count_with_half_the_noise():
    broken = audit.audit_real(laplace_count(0.5), [(0.0, 1.0)], runs=50_000, seed=1)
    assert broken.refutes(1.0)
    correct = audit.audit_real(laplace_count(1.0), [(0.0, 1.0)], runs=50_000, seed=1)
    assert not correct.refutes(1.0)


def test_the_zoo_and_statdp_patterns_are_reachable():
    names = audit.zoo_names()
    assert "broken-noise-scale-epsilon" in names and "discrete-laplace" in names
    assert audit.audit_zoo("broken-noise-scale-epsilon", 0.5, runs=20_000, seed=11).refutes(0.5)
    assert not audit.audit_zoo("discrete-laplace", 0.5, runs=20_000, seed=11).refutes(0.5)
    patterns = audit.statdp_patterns(3)
    assert patterns and all(len(a) == len(b) == 3 for a, b in patterns)


def test_mechanism_failures_and_bad_parameters_are_typed_errors():
    def short(bit, n, seed):
        return np.zeros(n - 1, dtype=np.int64)

    with pytest.raises(BadInputError, match="outputs"):
        audit.audit_finite(short, [(0, 1)], runs=1000, seed=1)

    def floats(bit, n, seed):
        return np.zeros(n)

    with pytest.raises(BadInputError, match="integers"):
        audit.audit_finite(floats, [(0, 1)], runs=1000, seed=1)

    def raises(bit, n, seed):
        raise ValueError("boom")

    with pytest.raises(BadInputError, match="boom") as info:
        audit.audit_real(raises, [(0.0, 1.0)], runs=1000, seed=1)
    assert isinstance(info.value.__cause__, ValueError)
    with pytest.raises(InvalidParameterError):
        audit.audit_finite(randomized_response(1.0), [(0, 1)], runs=0, seed=1)
    with pytest.raises(InvalidParameterError):
        audit.audit_finite(randomized_response(1.0), [(0, 1)], runs=10**15, seed=1)
    with pytest.raises(InvalidParameterError):
        audit.statdp_patterns(0)
    with pytest.raises(InvalidParameterError):
        audit.audit_finite(randomized_response(1.0), [], runs=1000, seed=1)
    with pytest.raises(InvalidParameterError):
        audit.audit_finite(randomized_response(1.0), [(0, 1)], runs=1000, seed=1, confidence=1.5)
    with pytest.raises(InvalidParameterError):
        audit.audit_zoo("no-such-mechanism", 1.0, runs=1000, seed=1)
    with pytest.raises(BadInputError):
        audit.audit_finite(randomized_response(1.0), [0, 1], runs=1000, seed=1)
