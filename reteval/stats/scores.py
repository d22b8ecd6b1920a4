"""One measure's per-topic scores of several systems, checked: the input of
:mod:`reteval.stats.multiple` (the two-way ANOVA, Tukey's HSD, discriminative power).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from reteval.errors import InputError

__all__ = ["score_frame"]


def _topic_list(topics, limit: int = 5) -> str:
    shown = ", ".join(repr(t) for t in list(topics)[:limit])
    more = len(topics) - limit
    return shown + (f" and {more} more" if more > 0 else "")


def _frame_from_mapping(scores: Mapping) -> pd.DataFrame:
    series = {}
    for name, values in scores.items():
        s = values if isinstance(values, pd.Series) else pd.Series(values)
        if not s.index.is_unique:
            dup = s.index[s.index.duplicated()].unique()
            raise InputError(f"system {name!r} has duplicate topics: {_topic_list(dup)}")
        series[name] = s
    if not series:
        raise InputError("scores must hold at least 2 systems; got none")
    indexes = [s.index for s in series.values()]
    union = indexes[0]
    for index in indexes[1:]:
        union = union.union(index, sort=False)
    for name, s in series.items():
        missing = union.difference(s.index, sort=False)
        if len(missing):
            raise InputError(f"systems must be scored on the same topics; system {name!r} "
                             f"misses {_topic_list(missing)}")
    return pd.DataFrame({name: s.reindex(union) for name, s in series.items()}, index=union)


def score_frame(scores) -> pd.DataFrame:
    """Check per-topic scores of several systems; a float frame, topics x systems.

    Accepts a DataFrame (rows topics, columns systems), a mapping
    ``system -> Series`` indexed by topic (every system must have the same
    topics), or an array of shape ``(n_topics, n_systems)`` (systems named
    ``0 .. m - 1``).

    Raises
    ------
    InputError
        Fewer than 2 topics or systems, NaN or infinite scores, duplicate
        topics or systems, or systems with different topic sets (the error
        names the missing topics).

    Examples
    --------
    >>> score_frame({"a": pd.Series({"q1": 0.5, "q2": 0.25}),
    ...              "b": pd.Series({"q2": 0.0, "q1": 1.0})})
          a    b
    q1  0.50  1.0
    q2  0.25  0.0
    >>> score_frame({"a": pd.Series({"q1": 0.5, "q2": 0.25}),
    ...              "b": pd.Series({"q1": 1.0})})
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: systems must be scored on the same topics; system 'b' misses 'q2'
    """
    if isinstance(scores, pd.DataFrame):
        frame = scores
    elif isinstance(scores, Mapping):
        frame = _frame_from_mapping(scores)
    else:
        try:
            arr = np.asarray(scores, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise InputError("scores must be a DataFrame (topics x systems), a mapping "
                             "system -> Series, or a numeric (n_topics, n_systems) array") from exc
        if arr.ndim != 2:
            raise InputError(f"scores must be 2-D (n_topics, n_systems); got shape {arr.shape}")
        frame = pd.DataFrame(arr)
    if not frame.columns.is_unique:
        raise InputError(f"systems must have distinct names; got {list(frame.columns)!r}")
    if not frame.index.is_unique:
        dup = frame.index[frame.index.duplicated()].unique()
        raise InputError(f"topics must be distinct; got duplicates {_topic_list(dup)}")
    n_topics, n_systems = frame.shape
    if n_systems < 2:
        raise InputError(f"comparing systems needs at least 2 systems; got {n_systems}")
    if n_topics < 2:
        raise InputError(f"comparing systems needs at least 2 topics; got {n_topics}")
    try:
        values = frame.to_numpy(dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError("scores must be numbers") from exc
    bad = ~np.isfinite(values)
    if bad.any():
        j, i = (int(k[0]) for k in np.nonzero(bad))
        raise InputError(f"scores must be finite numbers; system {frame.columns[i]!r} has "
                         f"{values[j, i]} at topic {frame.index[j]!r}")
    return pd.DataFrame(values, index=frame.index.copy(), columns=frame.columns.copy())
