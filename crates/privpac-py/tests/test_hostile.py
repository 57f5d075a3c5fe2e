"""Hostile inputs through the Python API (issue 38): the boundary sizes of the structured
paths and out-of-range parameters raise privpac's exceptions (ValueError subclasses for
bad parameters), never a Rust panic (``PanicException``, a ``BaseException``) or a hang.

Found by a sweep of every learner x class x boundary size; the sweep itself is not part of
the suite (it takes minutes), these are its boundary cases, each fast.
"""

import math

import pytest

import privpac
from privpac.errors import InvalidParameterError, PrivpacError, TooLargeError

SIZES = [1, 2, 3, 2**32, 2**62, 2**62 + 1, 2**63 - 1, 2**63, 2**64 - 1]
KINDS = ["points:{}", "thresholds:{}", "both(thresholds:{})", "intervals:{}"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_size_of_two_to_the_sixty_four_is_a_value_error(kind):
    spec = kind.format(2**64)
    with pytest.raises(InvalidParameterError, match=r"at most 2\^64 − 1") as caught:
        privpac.ConceptClass.from_spec(spec)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("learner", ["erm", "generic", "voting", "sanitizer:mwem"])
@pytest.mark.parametrize("kind", KINDS)
def test_boundary_sizes_measure_or_raise_a_privpac_error(kind, learner):
    for size in SIZES:
        spec = kind.format(size)
        kwargs = {} if learner == "erm" else {"epsilon": 1.0}
        try:
            report = privpac.sample_complexity(
                spec, learner, alpha=0.1, beta=0.2, seed=1, trials=2, max_size=64, **kwargs
            )
        except PrivpacError as error:
            assert "\n" not in str(error), f"{spec} {learner}: {error}"
        else:
            assert report["class"] == spec


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"epsilon": math.nan}, "epsilon must be finite and > 0"),
        ({"epsilon": 0.0}, "epsilon must be finite and > 0"),
        ({"epsilon": 1.0, "delta": 2.0}, r"delta must be in \[0, 1\)"),
        ({"max_size": 0}, "max_size must be at least 1"),
    ],
)
def test_erm_and_the_search_refuse_parameters_that_are_none(kwargs, needle):
    with pytest.raises(InvalidParameterError, match=needle):
        privpac.sample_complexity(
            "thresholds:16", "erm", **{"alpha": 0.1, "beta": 0.2, "seed": 1, **kwargs}
        )


def test_a_derived_bucket_count_names_its_rule():
    with pytest.raises(InvalidParameterError, match="16/"):
        privpac.sample_complexity(
            "points:16", "improper-point", epsilon=1.0, alpha=1e-300, beta=0.2, seed=1
        )


@pytest.mark.parametrize(
    ("spec", "error"),
    [
        # 20 rounds over the 4 queries of points:2: a parameter out of range.
        ("points:2", InvalidParameterError),
        # MWEM on the XOR class of thresholds above 2^62 points: a size above a limit.
        (f"thresholds:{2**62 + 1}", TooLargeError),
        # MWEM on intervals above 2^62 points: a domain the structured path refuses.
        (f"intervals:{2**62 + 1}", InvalidParameterError),
    ],
)
def test_sanitizer_refusals_inside_a_learner_keep_their_class(spec, error):
    # These reached Python as the bare PrivpacError: the learner kept only the message.
    with pytest.raises(error):
        privpac.sample_complexity(
            spec, "sanitizer:mwem", epsilon=1.0, alpha=0.1, beta=0.2, seed=1, trials=2
        )
