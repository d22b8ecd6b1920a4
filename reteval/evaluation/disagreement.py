"""Pairs of queries that two measures order in opposite ways.

Each measure scores every query, so each measure also says which of two queries
the system served better. Measures look at different things (the top 5, the
first relevant document, the whole list, graded gains with a discount), so they
do not always say the same: P@5 may put query a above query b while AP puts b
above a. Such pairs are where a student sees what each measure rewards.

**Disagree**, precisely. A measure m *orders* a pair of queries (a, b) when its
values differ by more than a margin δ >= 0: m puts a above b when
``m(a) - m(b) > δ``. A pair *disagrees at margin δ* when one measure puts a above b
and another puts b above a, both by more than δ. Ties do not count: a measure that
scores the two queries equally (within δ) orders neither way, and a pair on which
one measure ties and another does not is not a disagreement. The pair's ``margin``
is the largest δ at which it still disagrees, ``min(max over the measures for a of
m(a) - m(b), max over the measures for b of m(b) - m(a))``: both sides have a
measure that separates the two queries by at least that much. Differences of
1e-12 or less are always ties (the rounding of equal values computed two ways).
The measures are compared on their own scales: mixing measures that live on
different scales (a count such as ``NumRet`` beside ``AP``) makes margins meaningless.

:func:`disagreeing_pairs` finds the pairs in a per-query table (what
:func:`reteval.evaluate` returns); :func:`disagreeing_queries` evaluates a run first.
"""

from __future__ import annotations

import math
from numbers import Real

import numpy as np
import pandas as pd

from reteval.errors import InputError
from reteval.evaluation.engine import evaluate
from reteval.evaluation.ranked_lists import DEFAULT_FIGURE_MEASURES

__all__ = ["TIE_TOLERANCE", "disagreeing_pairs", "disagreeing_queries"]

#: Differences of at most this much are ties, whatever the margin asked for.
TIE_TOLERANCE = 1e-12


def _check_margin(min_margin) -> float:
    if (isinstance(min_margin, bool) or not isinstance(min_margin, Real)
            or not math.isfinite(min_margin) or min_margin < 0):
        raise InputError(f"min_margin must be a finite number >= 0; got {min_margin!r}")
    return float(min_margin)


def disagreeing_pairs(scores: pd.DataFrame, measures=None, *,
                      min_margin: float = 0.0) -> pd.DataFrame:
    """The pairs of queries on which two of ``measures`` disagree, clearest first.

    Parameters
    ----------
    scores : pandas.DataFrame
        One row per query (the index holds the query ids), one column per measure:
        :func:`reteval.evaluate`'s result. Missing values (NaN) order no pair.
    measures : sequence of str, optional
        Two or more columns of ``scores`` (default: all of them). Their order
        orients each pair (below).
    min_margin : float, default 0.0
        Keep the pairs that disagree at this margin: one measure puts a above b, another
        b above a, both by more than ``min_margin`` (see the module's definition).

    Returns
    -------
    pandas.DataFrame
        One row per disagreeing pair, largest ``margin`` first (then by query ids),
        with a fresh index and the columns

        * ``query_a``, ``query_b``: the pair, oriented so that the first of ``measures``
          that orders it puts ``query_a`` above ``query_b``;
        * ``above_a``: the measures that put ``query_a`` above ``query_b`` (a tuple, in the
          order of ``measures``); ``above_b``: those that put ``query_b`` above; the
          others tie the pair;
        * ``margin``: the largest margin at which the pair disagrees;
        * ``<measure>_a``, ``<measure>_b`` for each measure: its values on the two queries.

        Empty (with these columns) when no pair disagrees.

    Raises
    ------
    InputError
        ``scores`` not a DataFrame, a measure that is not one of its columns, fewer than
        two measures, a bad ``min_margin``, or query ids listed twice.

    Notes
    -----
    Every pair is compared: time grows with the square of the number of queries (a
    thousand queries make half a million pairs, a second or so).

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame({"P@5": [0.6, 0.2, 0.2], "AP": [0.14, 1.0, 0.5]},
    ...                       index=pd.Index(["qa", "qb", "qc"], name="query_id"))
    >>> pairs = disagreeing_pairs(scores)
    >>> pairs[["query_a", "query_b", "above_a", "above_b", "margin"]]
      query_a query_b above_a above_b  margin
    0      qa      qb  (P@5,)   (AP,)    0.40
    1      qa      qc  (P@5,)   (AP,)    0.36
    >>> len(disagreeing_pairs(scores, min_margin=0.38))
    1
    """
    if not isinstance(scores, pd.DataFrame):
        raise InputError("scores must be a DataFrame of per-query values (what "
                         f"reteval.evaluate returns); got {type(scores).__name__}")
    names = list(scores.columns) if measures is None else (
        [measures] if isinstance(measures, str) else list(measures))
    unknown = [m for m in names if m not in scores.columns]
    if unknown:
        raise InputError(f"measure {unknown[0]!r} is not a column of scores; its columns are "
                         f"{list(scores.columns)}")
    if len(set(names)) < 2:
        raise InputError(f"a disagreement needs two or more measures; got {names}")
    if scores.index.has_duplicates:
        raise InputError("scores lists query "
                         f"{scores.index[scores.index.duplicated()][0]!r} twice")
    threshold = max(_check_margin(min_margin), TIE_TOLERANCE)

    ids = scores.index.to_numpy(dtype=object)
    values = scores[names].to_numpy(dtype=np.float64)
    n = len(ids)
    rows_a, rows_b, margins = [], [], []
    for i in range(n - 1):
        diff = values[i] - values[i + 1:]  # (pairs, measures): a's value minus b's
        with np.errstate(invalid="ignore"):
            up, down = diff > threshold, diff < -threshold
        both = up.any(axis=1) & down.any(axis=1)
        if not both.any():
            continue
        d, up, down = diff[both], up[both], down[both]
        margin = np.minimum(np.where(up, d, -np.inf).max(axis=1),
                            np.where(down, -d, -np.inf).max(axis=1))
        first = np.argmax(up | down, axis=1)  # the first measure that orders the pair
        flip = down[np.arange(len(d)), first]
        later = i + 1 + np.flatnonzero(both)
        rows_a.append(np.where(flip, later, i))
        rows_b.append(np.where(flip, i, later))
        margins.append(margin)
    columns = ["query_a", "query_b", "above_a", "above_b", "margin",
               *[f"{m}{side}" for m in names for side in ("_a", "_b")]]
    if not rows_a:
        return pd.DataFrame({c: pd.Series(dtype=np.float64 if c not in columns[:4] else object)
                             for c in columns})
    a, b, margin = np.concatenate(rows_a), np.concatenate(rows_b), np.concatenate(margins)
    diff = values[a] - values[b]
    with np.errstate(invalid="ignore"):
        up, down = diff > threshold, diff < -threshold
    out = {
        "query_a": ids[a], "query_b": ids[b],
        "above_a": [tuple(m for m, u in zip(names, row, strict=True) if u) for row in up],
        "above_b": [tuple(m for m, d in zip(names, row, strict=True) if d) for row in down],
        "margin": margin,
    }
    for j, m in enumerate(names):
        out[f"{m}_a"], out[f"{m}_b"] = values[a, j], values[b, j]
    table = pd.DataFrame(out, columns=columns)
    order = np.lexsort((table["query_b"].astype(str), table["query_a"].astype(str),
                        -table["margin"].to_numpy()))
    return table.iloc[order].reset_index(drop=True)


def disagreeing_queries(qrels, run, measures=DEFAULT_FIGURE_MEASURES, *,
                        min_margin: float = 0.0, relevance_level: int = 1,
                        missing: str = "zero") -> pd.DataFrame:
    """:func:`disagreeing_pairs` of a run's per-query values.

    Evaluates ``run`` with :func:`reteval.evaluate` (``measures``, ``relevance_level``
    and ``missing`` as there), then finds the pairs of queries the measures order in
    opposite ways (see the module's definition of *disagree*).

    Examples
    --------
    >>> qrels = {"qa": {f"d{i}": 1 for i in range(10)}, "qb": {"d0": 1}}
    >>> run = {"qa": ["x1", "x2", "d0", "d1", "d2"], "qb": ["d0", "x1", "x2"]}
    >>> pairs = disagreeing_queries(qrels, run, ["P@5", "RR", "AP"])
    >>> pairs.loc[0, ["query_a", "query_b", "above_a", "above_b"]].tolist()
    ['qa', 'qb', ('P@5',), ('RR', 'AP')]
    >>> pairs.loc[0, ["P@5_a", "P@5_b", "AP_a", "AP_b"]].round(4).tolist()
    [0.6, 0.2, 0.1433, 1.0]
    """
    _check_margin(min_margin)
    scores = evaluate(qrels, run, measures, relevance_level=relevance_level, missing=missing)
    return disagreeing_pairs(scores, min_margin=min_margin)
