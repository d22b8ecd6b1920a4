"""Deterministic assignment of users to the variants of an experiment.

A user's variant is a pure function of the experiment name and the user id,
so every server, process and Python version puts the same user in the same
variant without sharing any state, and no random generator is involved.

The hash
--------
1. ``key = f"{experiment}\\x00{user_id}".encode("utf-8")`` (the NUL byte keeps
   ``("ab", "c")`` and ``("a", "bc")`` apart);
2. ``digest = hashlib.sha256(key).digest()``;
3. ``bucket = int.from_bytes(digest[:8], "big") / 2**64``, a number in [0, 1);
4. the variant is the first one whose cumulative weight share exceeds the
   bucket (weights ``(1, 1)`` send buckets below 0.5 to the first variant).

Step 4 is done in exact rational arithmetic, so a weight of 0.1 means the
decimal fraction its float stands for, with no rounding that could differ
between platforms. Because the experiment name is part of the key, the
buckets of one user in two experiments are independent.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from fractions import Fraction
from numbers import Integral, Real

from reteval.errors import InputError

__all__ = ["Experiment", "assign", "bucket"]

_TWO_64 = 1 << 64


def _hash64(experiment: str, user_id: str) -> int:
    key = f"{experiment}\x00{user_id}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big")


def _check_str(name: str, value: object) -> str:
    if not isinstance(value, str) or not value:
        raise InputError(f"{name} must be a non-empty string; got {value!r}")
    return value


def bucket(experiment: str, user_id: str) -> float:
    """Return the user's bucket in [0, 1) for an experiment.

    Parameters
    ----------
    experiment : str
        Experiment name.
    user_id : str
        User identifier. Integers are not accepted: ``1`` and ``"1"`` would
        otherwise be silently the same user.

    Returns
    -------
    float
        ``int.from_bytes(sha256(f"{experiment}\\x00{user_id}")[:8], "big") / 2**64``.

    Examples
    --------
    >>> round(bucket("ranker-v2", "user123"), 6)
    0.667023
    >>> 0.0 <= bucket("ranker-v2", "another user") < 1.0
    True
    """
    _check_str("experiment", experiment)
    _check_str("user_id", user_id)
    return _hash64(experiment, user_id) / _TWO_64


def _check_weights(weights: object, n: int) -> tuple[float, ...]:
    try:
        values = tuple(weights)  # type: ignore[arg-type]
    except TypeError:
        raise InputError(f"weights must be a sequence of numbers; got {weights!r}") from None
    if len(values) != n:
        raise InputError(f"weights must have one entry per variant ({n}); got {len(values)}")
    out = []
    for w in values:
        if isinstance(w, bool) or not isinstance(w, Real) or not math.isfinite(w) or w <= 0:
            raise InputError(f"weights must be positive finite numbers; got {w!r}")
        out.append(float(w))
    return tuple(out)


def assign(experiment: str, user_id: str, variants, *, weights=None) -> str:
    """Return the variant of ``user_id`` in ``experiment``.

    Parameters
    ----------
    experiment : str
        Experiment name (part of the hash key).
    user_id : str
        User identifier.
    variants : sequence of str
        Variant names, in a fixed order (the order is part of the design).
    weights : sequence of float, optional
        Relative traffic shares, one per variant; equal shares by default.

    Returns
    -------
    str
        One of ``variants``.

    Examples
    --------
    >>> assign("ranker-v2", "user123", ["A", "B"])
    'B'
    >>> assign("ranker-v2", "user123", ["A", "B"], weights=[9, 1])
    'A'
    """
    return Experiment(experiment, tuple(variants), weights=weights).assign(user_id)


@dataclass(frozen=True)
class Experiment:
    """The design of an experiment: its name, variants, traffic and feedback.

    Parameters
    ----------
    name : str
        Experiment name; part of the assignment hash.
    variants : tuple of str, default ("A", "B")
        Variant names; the first is the control.
    weights : tuple of float, optional
        Relative traffic shares (need not sum to 1); equal by default.
    feedback_values : tuple of int, default (0, 1)
        The explicit feedback values a log may hold (the chapter's 1 =
        satisfied, 0 = not satisfied). Positive values count as satisfied.

    Examples
    --------
    >>> exp = Experiment("ranker-v2", ("A", "B", "C"), weights=(2, 1, 1))
    >>> exp.control
    'A'
    >>> exp.shares
    (0.5, 0.25, 0.25)
    >>> exp.assign("user123") in exp.variants
    True
    """

    name: str
    variants: tuple[str, ...] = ("A", "B")
    weights: tuple[float, ...] | None = None
    feedback_values: tuple[int, ...] = (0, 1)

    def __post_init__(self):
        _check_str("name", self.name)
        if isinstance(self.variants, str):
            raise InputError(
                f"variants must be a sequence of names; got the string {self.variants!r}"
            )
        variants = tuple(self.variants)
        if len(variants) < 2:
            raise InputError(f"an experiment needs at least 2 variants; got {variants!r}")
        for v in variants:
            _check_str("each variant", v)
        if len(set(variants)) != len(variants):
            raise InputError(f"variant names must be unique; got {variants!r}")
        weights = (1.0,) * len(variants) if self.weights is None else self.weights
        weights = _check_weights(weights, len(variants))
        feedback = tuple(self.feedback_values)
        for f in feedback:
            if isinstance(f, bool) or not isinstance(f, Integral):
                raise InputError(f"feedback_values must be integers; got {f!r}")
        if not feedback or len(set(feedback)) != len(feedback):
            raise InputError(f"feedback_values must be distinct integers; got {feedback!r}")
        object.__setattr__(self, "variants", variants)
        object.__setattr__(self, "weights", weights)
        object.__setattr__(self, "feedback_values", tuple(int(f) for f in feedback))
        # exact cumulative boundaries on the 2**64 grid
        total = sum(Fraction(w) for w in weights)
        cum, bounds = Fraction(0), []
        for w in weights:
            cum += Fraction(w)
            bounds.append(cum / total * _TWO_64)
        # h < bound exactly when h < ceil(bound), h an integer: compared as integers
        object.__setattr__(self, "_bounds", tuple(math.ceil(b) for b in bounds))

    @property
    def control(self) -> str:
        """The first variant, the baseline every other is compared with."""
        return self.variants[0]

    @property
    def shares(self) -> tuple[float, ...]:
        """Traffic share of each variant (weights normalised to sum to 1)."""
        total = sum(self.weights)
        return tuple(w / total for w in self.weights)

    def assign(self, user_id: str) -> str:
        """Return the variant of ``user_id`` (see the module docstring for the hash)."""
        _check_str("user_id", user_id)
        h = _hash64(self.name, user_id)
        for variant, bound in zip(self.variants, self._bounds, strict=True):
            if h < bound:
                return variant
        return self.variants[-1]  # unreachable: the last bound is 2**64 > h
