"""The exceptions privpac raises.

Every error of the Rust library reaches Python as one of these, with the Rust error's
message; the class says what kind of problem it is:

- ``PrivpacError``: the base class of all of them (catch this to catch any privpac error).
- ``InvalidParameterError``: a privacy parameter, count or option is out of range (ε that is
  NaN or not > 0, δ outside [0, 1), an unknown spec string, a missing parameter). Also a
  ``ValueError``.
- ``BadInputError``: the data do not fit (a ragged or non-0/1 matrix, a point outside the
  domain, a label out of range, an empty sample, a non-finite score). Also a ``ValueError``.
- ``TooLargeError``: a size is above a documented limit, or an exact computation exceeded
  its state budget (checked before anything is allocated).
"""

__all__ = ["PrivpacError", "InvalidParameterError", "BadInputError", "TooLargeError"]


class PrivpacError(Exception):
    """Base class of every error privpac raises."""


class InvalidParameterError(PrivpacError, ValueError):
    """A parameter is out of range (ε, δ, a count, a spec string, a missing option)."""


class BadInputError(PrivpacError, ValueError):
    """Input data do not fit (shape, 0/1 values, domain, labels, non-finite scores)."""


class TooLargeError(PrivpacError):
    """A size is above a documented limit, or an exact computation exceeded its budget."""
