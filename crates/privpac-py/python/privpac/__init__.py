"""privpac: differentially private PAC learning, from Python.

Bindings of the privpac Rust workspace: mechanisms (exponential mechanism, discrete
Laplace, report-noisy-max, A_dist, sparse vector, composition, the accountant), concept
classes with exact VC and Littlestone dimensions and their witnesses, SOA and Halving, and
the learners, sanitizers and multi-learners of the command-line tool, built from the same
spec strings. Inputs are numpy arrays; every randomized call takes ``seed=`` (ChaCha8,
seeded exactly as the CLI's ``--seed``, so the outputs match ``privpac``'s), and every
algorithm reports its guarantee. Errors are the exceptions of :mod:`privpac.errors`.

Array arguments (scores, values, points, labels, matrices) may be numpy arrays of any
numeric dtype, lists or tuples; every value is converted exactly or refused, never cast. An
array already of the target dtype (float64 scores, int64 integer scores and values, uint64
points, bool labels) is read in place. Integers of any width are accepted where the target
holds them (a uint64 of 2^63 + 5 is a point but not an int64 score); floats are accepted for
integer targets only when integral (2.0 is 2; 2.9 is refused, not truncated); bools are 0
and 1 everywhere, and labels must be 0 or 1. A value that does not fit (a non-integral
float, NaN, ±inf, an integer out of range, a score above 2^53 that is not exactly a float64)
raises ``BadInputError`` naming the argument and the index; a non-number (a string, a
complex number, None) raises ``TypeError``.
"""

from . import _privpac
from ._privpac import *  # noqa: F401,F403
from . import lab as lab
from .errors import BadInputError, InvalidParameterError, PrivpacError, TooLargeError

__version__ = _privpac.__version__

__all__ = [name for name in dir(_privpac) if not name.startswith("_")] + [
    "PrivpacError",
    "InvalidParameterError",
    "BadInputError",
    "TooLargeError",
]
