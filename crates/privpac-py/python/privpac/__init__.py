"""privpac: differentially private PAC learning, from Python.

Bindings of the privpac Rust workspace: mechanisms (exponential mechanism, discrete
Laplace, report-noisy-max, A_dist, sparse vector, composition, the accountant), concept
classes with exact VC and Littlestone dimensions and their witnesses, SOA and Halving, and
the learners, sanitizers and multi-learners of the command-line tool, built from the same
spec strings. Inputs are numpy arrays; every randomized call takes ``seed=`` (ChaCha8,
seeded exactly as the CLI's ``--seed``, so the outputs match ``privpac``'s), and every
algorithm reports its guarantee. Errors are the exceptions of :mod:`privpac.errors`.
"""

from . import _privpac
from ._privpac import *  # noqa: F401,F403
from .errors import BadInputError, InvalidParameterError, PrivpacError, TooLargeError

__version__ = _privpac.__version__

__all__ = [name for name in dir(_privpac) if not name.startswith("_")] + [
    "PrivpacError",
    "InvalidParameterError",
    "BadInputError",
    "TooLargeError",
]
