"""Checks of the arguments that many reteval functions share.

One rule per kind of argument, so that every function refuses a bad value the
same way: with :class:`reteval.errors.InputError` naming the argument and the
value, never a bare ``TypeError`` or ``ValueError`` from deep inside numpy.

>>> check_probability(0.05, "alpha")
0.05
>>> check_probability(1.5, "alpha")
Traceback (most recent call last):
...
reteval.errors.InputError: alpha must be strictly between 0 and 1; got 1.5
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from reteval.errors import InputError

__all__ = [
    "ALTERNATIVES",
    "check_alternative",
    "check_confidence_level",
    "check_n_resamples",
    "check_number",
    "check_positive_int",
    "check_probability",
    "check_rng",
]

#: The alternative hypotheses of the one- and two-sided tests, as statsmodels names them.
ALTERNATIVES = ("two-sided", "larger", "smaller")


def check_rng(rng, name: str = "rng") -> np.random.Generator:
    """A random generator from a Generator, an integer seed or None (fresh entropy).

    Examples
    --------
    >>> int(check_rng(7).integers(10)) == int(check_rng(7).integers(10))
    True
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or (isinstance(rng, (int, np.integer)) and not isinstance(rng, bool)):
        try:
            return np.random.default_rng(rng)
        except ValueError:  # a negative seed
            pass
    raise InputError(
        f"{name} must be a numpy.random.Generator, a non-negative integer seed or None; "
        f"got {rng!r:.60}"
    )


def _real(value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return math.nan
    return float(value)


def check_probability(value, name: str, *, closed: bool = False) -> float:
    """A probability: strictly between 0 and 1, or in [0, 1] with ``closed=True``.

    Examples
    --------
    >>> check_probability(0, "feedback_rate", closed=True)
    0.0
    """
    p = _real(value)
    if closed and 0.0 <= p <= 1.0:
        return p
    if not closed and 0.0 < p < 1.0:
        return p
    bounds = "a probability in [0, 1]" if closed else "strictly between 0 and 1"
    raise InputError(f"{name} must be {bounds}; got {value!r}")


def check_number(value, name: str, *, minimum: float, strict: bool = False,
                 requirement: str) -> float:
    """A finite number at least ``minimum`` (above it with ``strict=True``), as a float.

    What ``float()`` takes counts as a number; the error says ``{name} must be
    {requirement}; got {value!r}``.

    Examples
    --------
    >>> check_number(2, "timeout", minimum=0, strict=True,
    ...              requirement="a positive number of seconds")
    2.0
    >>> check_number(float("inf"), "min_drop", minimum=0, requirement="a finite number >= 0")
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: min_drop must be a finite number >= 0; got inf
    """
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        number = math.nan
    if not (math.isfinite(number) and (number > minimum if strict else number >= minimum)):
        raise InputError(f"{name} must be {requirement}; got {value!r}")
    return number


def check_confidence_level(confidence_level) -> float:
    """A confidence level, strictly between 0 and 1 (0.95, not 95).

    Examples
    --------
    >>> check_confidence_level(0.9)
    0.9
    """
    return check_probability(confidence_level, "confidence_level")


def check_positive_int(value, name: str, *, minimum: int = 1) -> int:
    """An integer (not a bool; a numpy integer too) of at least ``minimum``, as an int.

    Examples
    --------
    >>> check_positive_int(10, "depth", minimum=10)
    10
    >>> check_positive_int(5, "depth", minimum=10)
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: depth must be an integer of at least 10; got 5
    >>> check_positive_int(0, "k")
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: k must be a positive integer; got 0
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        what = "a positive integer" if minimum == 1 else f"an integer of at least {minimum}"
        raise InputError(f"{name} must be {what}; got {value!r}")
    return int(value)


def check_n_resamples(n_resamples) -> int:
    """A number of resamples: a positive integer.

    Examples
    --------
    >>> check_n_resamples(1000)
    1000
    """
    return check_positive_int(n_resamples, "n_resamples")


def check_alternative(alternative) -> str:
    """One of :data:`ALTERNATIVES`.

    Examples
    --------
    >>> check_alternative("larger")
    'larger'
    """
    if not isinstance(alternative, str) or alternative not in ALTERNATIVES:
        raise InputError(f"alternative must be one of {ALTERNATIVES!r}; got {alternative!r}")
    return alternative
