"""Shared input checks of the statistical tests: scores, paired differences, effect size."""

from __future__ import annotations

import math

import numpy as np

from reteval.errors import InputError

__all__ = [
    "EXTREME_RTOL",
    "align_queries",
    "as_scores",
    "check_unique_queries",
    "describe_differences",
    "effect_size_dz",
    "paired_differences",
    "power_of_two_scale",
    "scaled_std",
    "score_matrix",
]

#: Relative tolerance of "at least as extreme" in the tests: a resample whose statistic
#: equals the observed one up to floating-point rounding counts.
EXTREME_RTOL = 1e-9


def _shown(labels, limit: int = 5) -> str:
    labels = list(labels)
    more = len(labels) - limit
    return ", ".join(repr(q) for q in labels[:limit]) + (f" and {more} more" if more > 0 else "")


def check_unique_queries(values, name: str) -> None:
    """Refuse per-query scores (a Series or a frame indexed by query) that list a query
    twice: it would count as two queries."""
    index = getattr(values, "index", None)
    if index is not None and hasattr(index, "is_unique") and not index.is_unique:
        repeated = index[index.duplicated()].unique()
        raise InputError(f"{name} lists a query more than once: {_shown(repeated)}; "
                         f"each query must appear once")


def align_queries(x, y, names: tuple[str, str] = ("x", "y")):
    """Two Series of per-query scores (indexed by query) in the same query order, ``y``
    reindexed to ``x``; other inputs are returned as they are (paired by position).

    Raises
    ------
    InputError
        A query listed twice, or a query only one of the two holds (named).
    """
    check_unique_queries(x, names[0])
    check_unique_queries(y, names[1])
    if not (hasattr(x, "reindex") and hasattr(y, "reindex")
            and getattr(x, "ndim", 0) == 1 and getattr(y, "ndim", 0) == 1):
        return x, y
    for a, b, label in ((y, x, names[0]), (x, y, names[1])):
        missing = a.index.difference(b.index, sort=False)
        if len(missing):
            raise InputError(f"{names[0]} and {names[1]} must be scored on the same queries; "
                             f"{label} misses {_shown(missing)}")
    return x, y.reindex(x.index)


def as_scores(values, name: str) -> np.ndarray:
    check_unique_queries(values, name)
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{name} must be a sequence of numbers; got {values!r:.80}") from exc
    if arr.ndim != 1:
        raise InputError(f"{name} must be one-dimensional; got an array of shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        bad = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise InputError(f"{name} must hold finite numbers; got {arr[bad]} at position {bad}")
    return arr


def paired_differences(x, y) -> np.ndarray:
    x, y = align_queries(x, y)
    x = as_scores(x, "x")
    y = as_scores(y, "y")
    if x.shape != y.shape:
        raise InputError(
            f"x and y must be paired scores of the same queries; got {x.size} and {y.size} values"
        )
    if x.size < 2:
        raise InputError(f"a paired test needs at least 2 queries; got {x.size}")
    return x - y


def score_matrix(scores) -> np.ndarray:
    try:
        arr = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError("scores must be a numeric (n_systems, n_queries) array") from exc
    if arr.ndim != 2:
        raise InputError(
            f"scores must be a 2-D array (n_systems, n_queries); got shape {arr.shape}"
        )
    if not np.all(np.isfinite(arr)):
        raise InputError("scores must hold finite numbers; got NaN or infinity")
    return arr



def effect_size_dz(mean: float, sd: float) -> float:
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.float64(mean) / np.float64(sd))


def power_of_two_scale(values: np.ndarray) -> float:
    """The power of two just above the largest ``|value|`` (1 for none or all 0): dividing
    by it is exact, and keeps the squares of scores near 1e155 from overflowing."""
    peak = float(np.max(np.abs(values))) if values.size else 0.0
    return math.ldexp(1.0, math.frexp(peak)[1]) if peak > 0 else 1.0


def scaled_std(values: np.ndarray) -> float:
    """Sample standard deviation (``ddof=1``), of the values scaled by
    :func:`power_of_two_scale` and scaled back: the same bits as ``values.std(ddof=1)``
    where that does not overflow, and finite where it would."""
    scale = power_of_two_scale(values)
    return float((values / scale).std(ddof=1)) * scale


def describe_differences(d: np.ndarray) -> tuple[float, float, int]:
    return float(d.mean()), scaled_std(d), int(d.size)
