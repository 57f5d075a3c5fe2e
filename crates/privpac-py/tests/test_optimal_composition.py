"""Optimal composition (Kairouz–Oh–Viswanath) from Python, at the edges of its parameter
space: δ' = 0, where the exact answer is basic composition's kε, and δ' down to the smallest
subnormal, checked against KOV's hockey-stick sum evaluated with 120-digit decimals."""

import decimal
import math
import random

import pytest

import privpac


def exact_hockey_stick(epsilon: float, k: int, epsilon_prime: float) -> decimal.Decimal:
    """H(ε') = Σ_ℓ C(k, ℓ)e^{−ℓε}(1 − e^{ε' − (k−2ℓ)ε})/(1 + e^{−ε})^k over the ℓ whose loss
    (k − 2ℓ)ε exceeds ε', with the floats converted exactly and 120 significant digits."""
    with decimal.localcontext() as ctx:
        ctx.prec = 120
        ctx.Emin = -10**9
        eps, eps_prime = decimal.Decimal(epsilon), decimal.Decimal(epsilon_prime)
        x = (-eps).exp()
        norm = (1 + x) ** k
        total = decimal.Decimal(0)
        for flips in range(k // 2 + 1):
            loss = (k - 2 * flips) * eps
            if loss <= eps_prime:
                break
            term = math.comb(k, flips) * x**flips * (1 - (eps_prime - loss).exp())
            total += term / norm
        return total


@pytest.mark.parametrize("epsilon", [1e-4, 0.01, 0.5, 1.0, 5.0])
@pytest.mark.parametrize("k", [1, 2, 3, 10, 1000, 1_000_000])
def test_optimal_at_delta_prime_zero_is_basic_composition(epsilon, k):
    each = privpac.Privacy(epsilon, 0.0)
    optimal = privpac.optimal_composition(each, k, 0.0)
    assert optimal.delta == 0.0
    # k·ε rounded up: never below the exact product (checked with exact fractions).
    from fractions import Fraction

    assert Fraction(optimal.epsilon) >= k * Fraction(epsilon)
    assert Fraction(math.nextafter(optimal.epsilon, 0.0)) < k * Fraction(epsilon)


def test_accountant_optimal_at_delta_prime_zero_is_basic_composition():
    # Before the fix: (9.98, 0) for 1000 steps of (0.01, 0), and 419.98 for 10^6 of them.
    accountant = privpac.Accountant()
    for _ in range(1000):
        accountant.record("step", privpac.Privacy(0.01, 0.0))
    assert accountant.total("optimal", delta_prime=0.0).epsilon >= 10.0
    assert privpac.optimal_composition(privpac.Privacy(0.01, 0.0), 1_000_000, 0.0).epsilon >= 10_000.0


def test_optimal_is_never_below_the_exact_kov_value_down_to_subnormal_delta_prime():
    rng = random.Random(27)
    deltas = [0.0, 5e-324, 1e-320, 1e-310, 1e-300, 1e-100, 1e-10, 1e-6, 0.1]
    for _ in range(60):
        epsilon = 10 ** rng.uniform(-3, 1)
        k = int(round(10 ** rng.uniform(0, 2.5)))
        delta_prime = rng.choice(deltas)
        optimal = privpac.optimal_composition(privpac.Privacy(epsilon, 0.0), k, delta_prime)
        h = exact_hockey_stick(epsilon, k, optimal.epsilon)
        assert h <= decimal.Decimal(delta_prime), (epsilon, k, delta_prime, optimal.epsilon, h)
