"""Per-query results in the shapes other tools read: trec_eval's text, long rows.

* :func:`to_trec_eval` prints what ``trec_eval`` prints (``-q`` for the
  per-query lines): ``measure<TAB>query<TAB>value``, measure names as trec_eval
  spells them, counts as integers, other values with 4 decimals, the ``all``
  lines last. Scripts that parse trec_eval's output read it unchanged.
* :func:`to_long` gives ``query_id, measure, value`` rows, the shape of
  ir_measures' ``iter_calc`` and of most plotting code.
"""

from __future__ import annotations

import pandas as pd

from reteval.errors import InputError
from reteval.evaluation.engine import aggregate
from reteval.evaluation.measures import parse_measure, trec_name

__all__ = ["to_long", "to_trec_eval"]

_COUNTS = ("NumQ", "NumRet", "NumRel", "NumRelRet")


def _check(per_query) -> pd.DataFrame:
    if not isinstance(per_query, pd.DataFrame):
        raise InputError(
            f"per_query must be a DataFrame from reteval.evaluate; got {type(per_query).__name__}"
        )
    for axis, what in ((per_query.columns, "measure"), (per_query.index, "query")):
        if axis.has_duplicates:
            twice = axis[axis.duplicated()][0]
            raise InputError(
                f"per_query has the {what} {twice!r} twice: it must be one result of "
                "reteval.evaluate (concatenated results? convert each one, then join the rows)")
    return per_query


def to_trec_eval(per_query: pd.DataFrame, *, queries: bool = False) -> str:
    """The text ``trec_eval`` prints for these results.

    Parameters
    ----------
    per_query : pandas.DataFrame
        A result of :func:`reteval.evaluate`.
    queries : bool, default False
        Also print every query's values before the ``all`` lines (``trec_eval -q``).

    Returns
    -------
    str
        One line per measure (and query), ``name`` padded to 22 characters as
        trec_eval pads it. A measure trec_eval does not have (``Judged@10``,
        ``P(rel=2)@10``) is printed under the name it was asked by. ``NumQ``
        (``num_q``) has no per-query line, as in trec_eval; the run's tag
        (trec_eval's ``runid`` line) is not printed.

    Examples
    --------
    >>> from reteval import evaluate
    >>> per_query = evaluate({"q1": {"d1": 1}, "q2": {"d2": 1}},
    ...                      {"q1": ["d1", "d9"], "q2": ["d9", "d2"]}, ["num_q", "map", "P_1"])
    >>> print(to_trec_eval(per_query, queries=True), end="")
    map                   	q1	1.0000
    P_1                   	q1	1.0000
    map                   	q2	0.5000
    P_1                   	q2	0.0000
    num_q                 	all	2
    map                   	all	0.7500
    P_1                   	all	0.5000
    """
    per_query = _check(per_query)
    names, counts = [], []
    for column in per_query.columns:
        measure = parse_measure(column)
        names.append(trec_name(measure) or str(column))
        counts.append(measure.family in _COUNTS)
    lines = []

    def line(name, query, value, count):
        text = f"{round(value)}" if count else f"{value:.4f}"
        lines.append(f"{name:<22}\t{query}\t{text}")

    if queries:
        for query, row in zip(per_query.index, per_query.itertuples(index=False), strict=True):
            for name, count, value, column in zip(names, counts, row, per_query.columns,
                                                  strict=True):
                if parse_measure(column).family != "NumQ":
                    line(name, query, value, count)
    overall = aggregate(per_query)
    for name, count, value in zip(names, counts, overall, strict=True):
        line(name, "all", value, count)
    return "\n".join(lines) + "\n"


def to_long(per_query: pd.DataFrame) -> pd.DataFrame:
    """Per-query results as rows of ``query_id, measure, value``.

    Examples
    --------
    >>> from reteval import evaluate
    >>> to_long(evaluate({"q1": {"d1": 1}}, {"q1": ["d1"]}, ["P@1", "RR"]))
      query_id measure  value
    0       q1     P@1    1.0
    1       q1      RR    1.0
    """
    per_query = _check(per_query)
    long = per_query.rename_axis(index="query_id", columns="measure").stack().rename("value")
    return long.reset_index().astype({"query_id": str, "measure": str, "value": "float64"})
