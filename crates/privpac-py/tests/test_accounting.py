"""Optimal composition beside the field's accountants: privpac's δ(ε') is never below the
exact value (a brute force over all 2^k outcome sequences in exact rationals), and its ε'
is never looser than Google's dp_accounting PLD (pessimistic discretization) by more than
that accountant's discretization error; a split 1% above the optimum fails the exact check
(negative control)."""

import math
from fractions import Fraction
from itertools import product

import pytest

import privpac

# dp_accounting (PyPI dp-accounting) is a test requirement: CI installs it, and these tests
# fail rather than skip without it.
from dp_accounting.pld import common, privacy_loss_distribution


def exact_delta(base, k, r):
    """δ of k randomized responses with e^ε = base at e^ε' = r, exactly (all 2^k sequences)."""
    total = Fraction(0)
    for s in product((0, 1), repeat=k):
        truthful = k - sum(s)
        p = Fraction(base**truthful, (base + 1) ** k)
        q = Fraction(base ** (k - truthful), (base + 1) ** k)
        total += max(Fraction(0), p - r * q)
    return total


@pytest.mark.parametrize("base,k", [(2, 6), (3, 10), (5, 12)])
def test_optimal_delta_is_never_below_the_exact_value(base, k):
    each = privpac.Privacy(math.log(base))
    for r in [Fraction(1), Fraction(3, 2), Fraction(7), Fraction(base) ** 3]:
        exact = exact_delta(base, k, r)
        got = privpac.optimal_composition_delta(each, k, math.log(r))
        assert got >= float(exact) * (1 - 1e-15)
        assert got <= float(exact) * (1 + 2e-6) + 1e-300


@pytest.mark.parametrize("epsilon,k,delta_prime", [(0.01, 1000, 1e-6), (0.1, 100, 1e-6),
                                                    (0.5, 50, 1e-5), (1.0, 16, 1e-3)])
def test_optimal_is_within_the_pld_accountants_discretization(epsilon, k, delta_prime):
    interval = 1e-4
    pld = privacy_loss_distribution.from_privacy_parameters(
        common.DifferentialPrivacyParameters(epsilon, 0.0), value_discretization_interval=interval
    ).self_compose(k)
    theirs = pld.get_epsilon_for_delta(delta_prime)
    ours = privpac.optimal_composition(privpac.Privacy(epsilon), k, delta_prime).epsilon
    advanced = privpac.advanced_composition(privpac.Privacy(epsilon), k, delta_prime).epsilon
    # The PLD's pessimistic discretization moves each of the k losses by at most one
    # interval: its ε is within k·interval of the exact one, so ours (exact up to 1e-6
    # relative in δ) may exceed it by at most that.
    assert ours <= theirs + k * interval
    assert ours >= theirs - k * interval
    assert ours <= advanced and ours <= k * epsilon


def test_a_split_one_percent_above_the_optimum_fails_the_exact_check():
    # Negative control: 10 steps of (ln 2)-RR compose to ε' = ln 2^4 with some δ; a
    # splitter that uses e^ε = 2·1.01^{...} instead must see a larger exact δ than claimed.
    k, r = 10, Fraction(16)
    claimed = privpac.optimal_composition_delta(privpac.Privacy(math.log(2)), k, math.log(16))
    assert float(exact_delta(2, k, r)) <= claimed
    # The same claim for steps 1% larger in ε (e^ε = 2^1.01, not rational: use the float
    # brute force, accurate to 1e-15 here).
    step = math.log(2) * 1.01
    brute = 0.0
    for s in product((0, 1), repeat=k):
        flips = sum(s)
        p = math.exp(-flips * step) / (1 + math.exp(-step)) ** k
        loss = (k - 2 * flips) * step
        brute += max(0.0, p * (1 - math.exp(math.log(16) - loss)))
    assert brute > claimed


def test_pld_rule_of_a_mixed_accountant_matches_dp_accounting():
    steps = [(0.02, 0.0), (0.05, 1e-9)] * 150
    accountant = privpac.Accountant()
    for i, (epsilon, delta) in enumerate(steps):
        accountant.record(f"step {i}", privpac.Privacy(epsilon, delta))
    ours = accountant.total("pld", delta_prime=1e-6)
    advanced = accountant.total("advanced", delta_prime=1e-6)
    interval = 1e-4
    theirs_pld = None
    for epsilon, delta in steps:
        one = privacy_loss_distribution.from_privacy_parameters(
            common.DifferentialPrivacyParameters(epsilon, delta),
            value_discretization_interval=interval,
        )
        theirs_pld = one if theirs_pld is None else theirs_pld.compose(one)
    theirs = theirs_pld.get_epsilon_for_delta(ours.delta)
    assert abs(ours.epsilon - theirs) <= len(steps) * interval
    assert ours.epsilon < advanced.epsilon
    with pytest.raises(privpac.InvalidParameterError):
        accountant.total("pld")  # needs delta_prime


@pytest.mark.parametrize("scale,rate,k", [(1.0, 0.01, 1000), (2.0, 0.1, 200), (0.5, 0.3, 50)])
def test_subsampled_discrete_laplace_matches_dp_accounting(scale, rate, k):
    # dp_accounting builds its subsampled pairs from the mechanism's definition (its own
    # code, add and remove directions); privpac builds them from the same mechanism. Both
    # discretize pessimistically, each within k·interval of the exact ε, so they differ by at
    # most that.
    interval, delta_prime = 1e-4, 1e-6
    accountant = privpac.Accountant()
    for i in range(k):
        accountant.record_discrete_laplace(f"count {i}", scale, 1, rate=rate)
    ours = accountant.total("pld", delta_prime=delta_prime)
    theirs = privacy_loss_distribution.from_discrete_laplace_mechanism(
        1.0 / scale, sensitivity=1, sampling_prob=rate, value_discretization_interval=interval
    ).self_compose(k).get_epsilon_for_delta(delta_prime)
    assert abs(ours.epsilon - theirs) <= k * interval, (ours, theirs)
    assert ours.delta == pytest.approx(delta_prime, rel=1e-9)
    # The other rules see the amplified ε = ln(1 + q(e^{1/b} − 1)) and are looser.
    amplified = math.log1p(rate * math.expm1(1.0 / scale))
    assert accountant.total("basic").epsilon == pytest.approx(k * amplified, rel=1e-12)
    assert ours.epsilon < accountant.total("optimal", delta_prime=delta_prime).epsilon
    best = accountant.total("best", delta_prime=delta_prime)
    assert best.epsilon <= ours.epsilon


def test_subsampled_guarantees_use_their_pairs_and_check_their_input():
    subsampled = privpac.Accountant()
    amplified = privpac.Accountant()
    each = privpac.Privacy(1.0)
    for i in range(1000):
        subsampled.record_subsampled(f"batch {i}", each, 0.01)
        amplified.record(f"batch {i}", privpac.amplification_by_subsampling(each, rate=0.01))
    pairs = subsampled.total("pld", delta_prime=1e-6).epsilon
    first = amplified.total("optimal", delta_prime=1e-6).epsilon
    assert pairs < 0.7 * first
    assert subsampled.total("basic") == amplified.total("basic")
    with pytest.raises(privpac.InvalidParameterError):
        subsampled.record_subsampled("bad", each, 1.5)
    with pytest.raises(privpac.InvalidParameterError):
        subsampled.record_discrete_laplace("bad", 0.0)
    with pytest.raises(privpac.InvalidParameterError):
        subsampled.record_discrete_laplace("bad", 1.0, 0)
    assert len(subsampled) == 1000


def test_bounded_range_steps_compose_below_their_pure_guarantees():
    # 100 exponential mechanisms at ε = 0.1: the PLD of the bounded-range pair against
    # optimal composition of 0.1-DP steps (which the other rules see).
    accountant = privpac.Accountant()
    for i in range(100):
        accountant.record_bounded_range(f"em {i}", 0.1)
    pld = accountant.total("pld", delta_prime=1e-6).epsilon
    optimal = accountant.total("optimal", delta_prime=1e-6).epsilon
    assert pld < 0.6 * optimal, (pld, optimal)
    assert accountant.total("basic").epsilon == pytest.approx(10.0, rel=1e-12)
    with pytest.raises(privpac.InvalidParameterError):
        accountant.record_bounded_range("bad", -1.0)
    with pytest.raises(privpac.InvalidParameterError):
        accountant.record_bounded_range("bad", 1.0, rate=0.0)


def test_pld_bounds_bracket_the_exact_composition_within_the_requested_error():
    # 1000 × (0.01, 0): optimal composition is exact (up to a relative 1e-6 in δ).
    accountant = privpac.Accountant()
    for i in range(1000):
        accountant.record(f"q{i}", privpac.Privacy(0.01))
    exact = privpac.optimal_composition(privpac.Privacy(0.01), 1000, 1e-6).epsilon
    bounds = accountant.pld_bounds(1e-6, epsilon_error=0.002)
    assert set(bounds) == {
        "lower", "estimate", "upper", "delta", "interval", "epsilon_error",
        "lower_applies_to_mechanisms",
    }
    assert bounds["lower_applies_to_mechanisms"] is True  # pure steps: the pairs are attained
    assert bounds["epsilon_error"] == 0.002
    assert bounds["lower"] <= exact + 1e-7 and exact - 1e-6 <= bounds["upper"], (bounds, exact)
    assert bounds["upper"] - bounds["lower"] <= 0.002
    assert bounds["lower"] <= bounds["estimate"] <= bounds["upper"]
    total = accountant.total("pld", delta_prime=1e-6, epsilon_error=0.002)
    assert total.epsilon == bounds["upper"] and total.delta == bounds["delta"]
    # The default accuracy: max(0.01, 1% of ε).
    default = accountant.pld_bounds(1e-6)
    assert default["upper"] - default["lower"] <= max(0.01, 0.01 * default["lower"])
    # 100,000 steps compose (the direct convolutions refused them before issue 29).
    long = privpac.Accountant()
    for i in range(100_000):
        long.record_discrete_laplace(f"s{i}", 1.0, rate=0.001)
    assert 0.0 < long.pld_bounds(1e-6)["upper"] < 2.0
    with pytest.raises(privpac.InvalidParameterError):
        accountant.pld_bounds(1e-6, epsilon_error=0.0)
    with pytest.raises(privpac.InvalidParameterError):
        accountant.total("optimal", delta_prime=1e-6, epsilon_error=0.01)


def test_an_accuracy_no_grid_reaches_is_a_warning_with_valid_bounds():
    # 1000 × (0.01, 0) at epsilon_error 1e-12: the two atoms' lattice gives a gap of a few
    # 1e-6 and no finer grid fits in memory. The bounds still bracket the exact value, and
    # a RuntimeWarning says the accuracy was not met (before: silent, or a "vacuous" error).
    accountant = privpac.Accountant()
    for i in range(1000):
        accountant.record(f"q{i}", privpac.Privacy(0.01))
    exact = privpac.optimal_composition(privpac.Privacy(0.01), 1000, 1e-6).epsilon
    with pytest.warns(RuntimeWarning, match="above the accuracy asked for"):
        bounds = accountant.pld_bounds(1e-6, epsilon_error=1e-12)
    assert bounds["lower"] <= exact + 1e-7 and exact - 1e-6 <= bounds["upper"], (bounds, exact)
    assert bounds["upper"] - bounds["lower"] > 1e-12 and bounds["epsilon_error"] == 1e-12
    with pytest.warns(RuntimeWarning, match="above the accuracy asked for"):
        total = accountant.total("pld", delta_prime=1e-6, epsilon_error=1e-12)
    assert total.epsilon == bounds["upper"]


def test_zero_slack_and_an_exact_zero_epsilon_are_answered():
    # Issue 37 §6: total("best", delta_prime=0.0) said "delta must be in [0, 1), got 0",
    # total("pld", delta_prime=0) called ten pure steps vacuous, and an exact ε of 0 (ten
    # 1-DP steps at δ′ = 0.999999) was "epsilon must be finite and > 0, got 0".
    accountant = privpac.Accountant()
    for i in range(10):
        accountant.record(f"q{i}", privpac.Privacy(1.0))
    for rule in ("best", "pld", "optimal"):
        total = accountant.total(rule, delta_prime=0.0)
        assert 10.0 <= total.epsilon < 10.0 + 1e-9 and total.delta == 0.0, (rule, total)
    bounds = accountant.pld_bounds(0.0)
    assert 10.0 - 1e-9 < bounds["lower"] <= 10.0 and bounds["interval"] == 0.0, bounds
    zero = accountant.total("pld", delta_prime=0.999999)
    assert zero.epsilon == math.ulp(0.0) and zero.delta >= 0.999999, zero
    # One (ε, δ) step at ε = 50: the lower bound was 0; it is now within the accuracy.
    large = privpac.Accountant()
    large.record("big", privpac.Privacy(50.0))
    b = large.pld_bounds(1e-10)
    assert 49.9 < b["lower"] <= 50.0 <= b["upper"] + 1e-9, b
