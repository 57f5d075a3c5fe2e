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
    with pytest.raises(InvalidParameterError, match="seed"):
        mech.select(scores, seed=-1)
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


@pytest.mark.parametrize("seed", [0, 1, 7, 42, 2**63 + 5])
def test_exponential_select_matches_the_cli(cli, seed):
    scores = [3.0, 1.0, 0.0, 2.5, -4.0]
    report = cli("mech", "exponential", "--scores", ",".join(map(str, scores)),
                 "--epsilon", "1.5", "--seed", seed)
    mech = privpac.ExponentialMechanism(1.5)
    assert mech.select(np.array(scores), seed=seed) == report["chosen"]


def test_exponential_probabilities_match_the_cli(cli):
    report = cli("mech", "exponential", "--scores", "3,1,0", "--epsilon", "1",
                 "--sensitivity", "2", "--probabilities")
    got = privpac.ExponentialMechanism(1.0, sensitivity=2.0).probabilities([3, 1, 0])
    np.testing.assert_array_equal(got, np.array(report["probabilities"]))


def test_exponential_sampling_frequencies_follow_the_probabilities():
    # 4000 seeded draws; chi-square with 2 degrees of freedom, critical value 13.8 for a
    # false-failure rate of alpha = 0.001.
    mech = privpac.ExponentialMechanism(1.0)
    scores = np.array([2.0, 1.0, 0.0])
    counts = np.bincount([mech.select(scores, seed=s) for s in range(4000)], minlength=3)
    expected = 4000 * mech.probabilities(scores)
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 13.8, (counts, expected)


def test_discrete_laplace_mechanism_matches_the_cli(cli):
    report = cli("mech", "laplace", "--value", "120", "--epsilon", "0.5", "--discrete",
                 "--count", "6", "--seed", "7")
    mech = privpac.DiscreteLaplaceMechanism(0.5)
    released = mech.release(np.full(6, 120), seed=7)
    assert released.dtype == np.int64
    assert released.tolist() == report["releases"]
    assert mech.release(120, seed=7) == report["releases"][0]
    assert mech.privacy.epsilon == report["guarantee_each"]["epsilon"]
    assert mech.noise.scale == 2.0


def test_discrete_laplace_noise_is_exact_and_validated():
    noise = privpac.DiscreteLaplace(2.0)
    # Pr[k] = (1 - p) / (1 + p) * p^|k| with p = exp(-1/b).
    p = math.exp(-0.5)
    assert noise.pmf(3) == pytest.approx((1 - p) / (1 + p) * p**3, rel=1e-12)
    draws = noise.sample(20000, seed=3)
    assert draws.dtype == np.int64 and draws.shape == (20000,)
    assert np.array_equal(draws, noise.sample(20000, seed=3))
    # Var = 2p/(1-p)^2 = 7.92; the sample mean has sd 0.02, so |mean| < 0.1 fails with
    # probability below 1e-6.
    assert abs(draws.mean()) < 0.1
    # The frequencies of -2..2 against the pmf, each within 5 standard errors (false
    # failure below 3e-6 in all); a wrong scale (3.0) is off by about 26 at k = 0.
    for k in range(-2, 3):
        expected = noise.pmf(k)
        se = math.sqrt(expected * (1 - expected) / draws.size)
        assert abs((draws == k).mean() - expected) < 5 * se, k
    wrong = privpac.DiscreteLaplace(3.0).sample(20000, seed=3)
    assert abs((wrong == 0).mean() - noise.pmf(0)) > 5 * math.sqrt(
        noise.pmf(0) * (1 - noise.pmf(0)) / 20000
    )
    with pytest.raises(InvalidParameterError):
        privpac.DiscreteLaplace(float("nan"))
    with pytest.raises(privpac.TooLargeError):
        noise.sample(10**9)
    with pytest.raises(InvalidParameterError):
        privpac.DiscreteLaplaceMechanism(1.0, sensitivity=0)


def test_report_noisy_max_picks_a_clear_winner_and_validates():
    rnm = privpac.ReportNoisyMax(1.0)
    assert rnm.select(np.array([10, 500, 3]), seed=2) == 1
    assert rnm.privacy.is_pure
    with pytest.raises(BadInputError):
        rnm.select(np.array([], dtype=np.int64), seed=2)
    with pytest.raises(InvalidParameterError):
        privpac.ReportNoisyMax(float("nan"))


def test_stable_selection_releases_or_returns_none():
    a_dist = privpac.StableSelection(1.0, 1e-6)
    assert a_dist.select([1000, 3, 2], seed=8) == 0
    # A tie has gap 0, far below the threshold: ⊥ with overwhelming probability.
    assert a_dist.select([5, 5, 1], seed=8) is None
    dist = a_dist.output_distribution([1000, 3, 2])
    assert dist.shape == (4,) and dist.sum() == pytest.approx(1.0)
    assert a_dist.threshold > 2
    with pytest.raises(InvalidParameterError, match="delta"):
        privpac.StableSelection(1.0, 0.0)
    with pytest.raises(BadInputError):
        a_dist.select([3], seed=1)


def test_sparse_vector_answers_and_stops():
    svt = privpac.SparseVector(1.0, 100, max_above=1, seed=1)
    assert svt.query(-10_000) is False
    assert svt.query(10_000) is True
    assert svt.remaining == 0
    with pytest.raises(PrivpacError, match="already answered"):
        svt.query(5)
    with pytest.raises(InvalidParameterError):
        privpac.SparseVector(1.0, 0, max_above=0)


def test_composition_rules_round_up():
    a, b = privpac.Privacy(0.5), privpac.Privacy(0.25, 1e-6)
    total = privpac.basic_composition([a, b])
    assert 0.75 <= total.epsilon < 0.75 + 1e-15 and total.delta >= 1e-6
    adv = privpac.advanced_composition(privpac.Privacy(0.01), 1000, 1e-6)
    expected = math.sqrt(2 * 1000 * math.log(1e6)) * 0.01 + 2 * 1000 * 1e-4
    assert expected <= adv.epsilon < expected + 1e-14
    het = privpac.heterogeneous_advanced_composition([privpac.Privacy(0.01)] * 1000, 1e-6)
    # Kairouz–Oh–Viswanath form: √(2 ln(1/δ') Σε²) + Σε(e^ε − 1), rounded up.
    het_expected = math.sqrt(2 * math.log(1e6) * 1000 * 0.01**2) + 1000 * 0.01 * math.expm1(0.01)
    assert het_expected <= het.epsilon < het_expected + 1e-12
    # As documented: for ε ≤ 1 the looser 2mε² second term (valid: e^ε − 1 ≤ 2ε), for
    # ε > 1 the Dwork–Roth mε(e^ε − 1); the heterogeneous form is the sharper one.
    assert het.epsilon < adv.epsilon
    big = privpac.advanced_composition(privpac.Privacy(1.5), 10, 1e-6)
    big_expected = math.sqrt(2 * 10 * math.log(1e6)) * 1.5 + 10 * 1.5 * math.expm1(1.5)
    assert big_expected <= big.epsilon < big_expected * (1 + 1e-12)
    assert privpac.group_privacy(privpac.Privacy(0.5), 3).epsilon == 1.5
    amp = privpac.amplification_by_subsampling(
        privpac.Privacy(1.0), sample_size=100, population_size=10_000)
    assert amp.epsilon == pytest.approx(math.log(1 + 0.01 * math.expm1(1.0)), abs=1e-15)
    poisson = privpac.amplification_by_subsampling(privpac.Privacy(1.0), rate=0.01)
    assert poisson.epsilon >= amp.epsilon * (1 - 1e-12)
    sec = privpac.secrecy_of_the_sample(privpac.Privacy(1.0, 1e-6), 100, 900)
    assert sec.epsilon >= 2 / 3 and sec.delta <= 1e-6
    with pytest.raises(InvalidParameterError):
        privpac.basic_composition([])
    with pytest.raises(InvalidParameterError):
        privpac.basic_composition([privpac.Privacy(1.0, 0.6), privpac.Privacy(1.0, 0.6)])
    with pytest.raises(InvalidParameterError):
        privpac.amplification_by_subsampling(privpac.Privacy(1.0))
    with pytest.raises(InvalidParameterError):
        privpac.amplification_by_subsampling(privpac.Privacy(1.0), rate=1.5)
    with pytest.raises(InvalidParameterError):
        privpac.group_privacy(privpac.Privacy(1.0), 0)


def test_accountant_totals_and_rejects_non_dp_entries():
    acc = privpac.Accountant()
    for i in range(100):
        acc.record(f"query {i}", privpac.Privacy(0.01))
    assert len(acc) == 100
    basic = acc.total()
    best = acc.total("best", delta_prime=1e-6)
    assert abs(basic.epsilon - 1.0) < 1e-12 and best.epsilon <= basic.epsilon
    label, guarantee = acc.entries()[0]
    assert label == "query 0" and guarantee.kind == "differential-privacy"
    with pytest.raises(InvalidParameterError, match="delta_prime"):
        acc.total("advanced")
    with pytest.raises(InvalidParameterError, match="unknown"):
        acc.total("magic")
    with pytest.raises(InvalidParameterError):
        acc.record("x", 0.5)
    empty = privpac.Accountant()
    with pytest.raises(InvalidParameterError):
        empty.total()
    # A uniformly stable learner's guarantee is not DP: the total names it.
    stable = privpac.Learner("stable", em_epsilon=1.0).guarantee(
        privpac.ConceptClass.from_spec("thresholds:8"), 16)
    assert stable.kind == "uniform-stability" and stable.beta is not None
    acc.record("stable learner", stable)
    with pytest.raises(InvalidParameterError, match="stable learner"):
        acc.total()
