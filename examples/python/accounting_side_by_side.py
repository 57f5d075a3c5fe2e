"""privpac's PLD accountant beside Google's dp_accounting and Microsoft's prv-accountant, in
one process (issue 29 §3). Prints, for each composition: privpac's [lower, upper] bounds
(``Accountant.pld_bounds`` at the requested ``epsilon_error``) and time; dp_accounting's
pessimistic ε at its default grid (1e-4) and at a fine grid (1e-5, a stand-in for the truth:
itself an upper bound) with their times; prv-accountant's (lower, estimate, upper) and time
where it has the mechanism ((ε, δ) steps only). Times are medians of ``--repeat`` runs (5 by
default; one for the fine grid and prv-accountant), printed, never asserted.

Run (a release build of the bindings, dp-accounting and optionally prv-accountant
installed)::

    python examples/python/accounting_side_by_side.py            # every row
    python examples/python/accounting_side_by_side.py --quick    # skip the slowest runs

dp_accounting has no bounded-range mechanism: its side is privpac's dominating pair (loss
density ∝ e^{l/2} on [−ε, ε]) binned pessimistically on its grid and handed to
``from_two_probability_mass_functions``.
"""

import argparse
import math
import time
from typing import Any

import privpac
from dp_accounting.pld import privacy_loss_distribution as dp_pld  # type: ignore[import-untyped]

try:
    import prv_accountant  # type: ignore[import-not-found, import-untyped, unused-ignore]
except ImportError:  # optional
    prv_accountant = None

# (name, steps, δ′, epsilon_error, run dp_accounting?, run its fine grid?)
# Steps: ("dl", scale, sensitivity, rate, count), ("dp", ε, δ, count), ("br", ε, count).
ROWS = [
    ("3000 × DL b=2, q=0.005", [("dl", 2.0, 1, 0.005, 3000)], 1e-6, 0.01, True, True),
    ("10^4 × DL b=1, q=0.001", [("dl", 1.0, 1, 0.001, 10_000)], 1e-6, 0.01, True, True),
    ("500 × DL b=5", [("dl", 5.0, 1, 1.0, 500)], 1e-5, None, True, True),
    ("1000 × (0.01, 0)", [("dp", 0.01, 0.0, 1000)], 1e-6, 0.01, True, True),
    ("300 × (0.02, 0) + 300 × (0.05, 1e-9)", [("dp", 0.02, 0.0, 300), ("dp", 0.05, 1e-9, 300)],
     1e-6, 0.01, True, True),
    ("200 × bounded-range 0.1", [("br", 0.1, 200)], 1e-6, 0.01, True, True),
    ("mixed: 500 DL b=2 q=0.01, 50 (0.05, 1e-8), 30 BR 0.1",
     [("dl", 2.0, 1, 0.01, 500), ("dp", 0.05, 1e-8, 50), ("br", 0.1, 30)], 1e-6, 0.01, True, True),
    ("100,000 × (0.001, 0)", [("dp", 0.001, 0.0, 100_000)], 1e-6, None, True, False),
    ("10^6 × DL b=2, q=0.001", [("dl", 2.0, 1, 0.001, 1_000_000)], 1e-6, None, True, False),
    ("10^4 heterogeneous (ε_i = 0.001·(1 + i/10^4))",
     [("dp", 0.001 * (1 + i / 10_000), 0.0, 1) for i in range(10_000)], 1e-6, None, False, False),
]
SLOW = {"10^6 × DL b=2, q=0.001", "10^4 heterogeneous (ε_i = 0.001·(1 + i/10^4))"}


def privpac_accountant(steps):
    accountant = privpac.Accountant()
    for index, (kind, *params, count) in enumerate(steps):
        for i in range(count):
            label = f"{index}.{i}"
            if kind == "dl":
                scale, sensitivity, rate = params
                accountant.record_discrete_laplace(label, scale, sensitivity, rate=rate)
            elif kind == "dp":
                accountant.record(label, privpac.Privacy(*params))
            else:
                accountant.record_bounded_range(label, params[0])
    return accountant


def canonical_pmfs(epsilon, delta):
    likely = (1 - delta) / (1 + math.exp(-epsilon))
    unlikely = (1 - delta) / (1 + math.exp(epsilon))
    upper = {"a": math.log(likely), "b": math.log(unlikely)}
    lower = {"a": math.log(unlikely), "b": math.log(likely)}
    if delta > 0:
        upper["only upper"] = math.log(delta)
        lower["only lower"] = math.log(delta)
    return lower, upper


def bounded_range_pmfs(epsilon, width):
    c = math.exp(epsilon / 2) / math.expm1(epsilon)
    lower: dict[Any, float] = {}
    upper: dict[Any, float] = {}
    q_total = 0.0
    for j in range(math.floor(-epsilon / width) + 1, math.ceil(epsilon / width) + 1):
        a, b = max((j - 1) * width, -epsilon), min(j * width, epsilon)
        if b <= a:
            continue
        p = c * (math.exp(b / 2) - math.exp(a / 2))
        q = p * math.exp(-j * width)
        upper[j], lower[j] = math.log(p), math.log(q)
        q_total += q
    if q_total < 1:
        lower["only lower"] = math.log1p(-q_total)
    return lower, upper


def dp_accounting_epsilon(steps, interval, delta):
    total: Any = None
    for kind, *params, count in steps:
        if kind == "dl":
            scale, sensitivity, rate = params
            one = dp_pld.from_discrete_laplace_mechanism(
                1.0 / scale, sensitivity=sensitivity, sampling_prob=rate,
                value_discretization_interval=interval)
        else:
            lower, upper = (canonical_pmfs(*params) if kind == "dp"
                            else bounded_range_pmfs(params[0], interval))
            one = dp_pld.from_two_probability_mass_functions(
                lower, upper, value_discretization_interval=interval)
        one = one.self_compose(count) if count > 1 else one
        total = one if total is None else total.compose(one)
    return total.get_epsilon_for_delta(delta)


def prv_epsilon(steps, delta, eps_error):
    if prv_accountant is None or any(kind != "dp" for kind, *_ in steps) or len(steps) > 10:
        return None
    prvs = [prv_accountant.PureDPMechanism(eps) if d == 0
            else prv_accountant.ApproximateDPMechanism(eps, d) for _, eps, d, _ in steps]
    counts = [count for *_, count in steps]
    accountant = prv_accountant.PRVAccountant(
        prvs=prvs, max_self_compositions=counts, eps_error=eps_error, delta_error=delta * 1e-3)
    return accountant.compute_epsilon(delta=delta, num_self_compositions=counts)


def timed(f, *args, repeat=1):
    """The value of ``f(*args)`` and the median time of ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            value = f(*args)
        except Exception as e:  # a refused or failed run is a result of the comparison
            value = f"{type(e).__name__}: {e}"[:60]
        times.append(time.perf_counter() - start)
    return value, sorted(times)[len(times) // 2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="skip the slowest rows")
    parser.add_argument("--repeat", type=int, default=5,
                        help="runs of privpac and of dp_accounting's default grid per row "
                             "(the median time is printed; the fine grid and prv-accountant "
                             "run once)")
    args = parser.parse_args()
    print("| composition | privpac [lower, upper] | time | dp_accounting 1e-4 | time "
          "| dp_accounting 1e-5 (fine) | time | prv-accountant (lower, est., upper) | time |")
    print("|---|---|---:|---:|---:|---:|---:|---|---:|")
    for name, steps, delta_prime, eps_error, run_dp, run_fine in ROWS:
        if args.quick and name in SLOW:
            continue
        accountant = privpac_accountant(steps)
        bounds, t_ours = timed(lambda: accountant.pld_bounds(delta_prime, epsilon_error=eps_error),
                               repeat=args.repeat)
        if isinstance(bounds, str):
            ours, delta = bounds, delta_prime
        else:
            ours = f"[{bounds['lower']:.4f}, {bounds['upper']:.4f}]"
            delta = bounds["delta"]
        cells = [name, ours, f"{t_ours * 1e3:.0f} ms"]
        for run, interval, repeat in [(run_dp, 1e-4, args.repeat), (run_fine, 1e-5, 1)]:
            if run:
                value, t = timed(dp_accounting_epsilon, steps, interval, delta, repeat=repeat)
                cells += [f"{value:.4f}" if isinstance(value, float) else value,
                          f"{t * 1e3:.0f} ms"]
            else:
                cells += ["—", ""]
        prv_error = eps_error if eps_error is not None else 0.01
        value, t = timed(prv_epsilon, steps, delta, prv_error)
        if value is None:
            cells += ["—", ""]
        elif isinstance(value, str):
            cells += [value, f"{t * 1e3:.0f} ms"]
        else:
            cells += ["(" + ", ".join(f"{v:.4f}" for v in value) + ")", f"{t * 1e3:.0f} ms"]
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
