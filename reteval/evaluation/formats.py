"""Per-query results in the shapes other tools read: trec_eval's text, long rows.

* :func:`to_trec_eval` prints what ``trec_eval`` prints (``-q`` for the
  per-query lines): ``measure<TAB>query<TAB>value``, measure names as trec_eval
  spells them, counts as integers, other values with 4 decimals, the ``all``
  lines last. Scripts that parse trec_eval's output read it unchanged.
* :func:`to_long` gives ``query_id, measure, value`` rows, the shape of
  ir_measures' ``iter_calc`` and of most plotting code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import pandas as pd

from reteval.errors import InputError
from reteval.evaluation.engine import aggregate
from reteval.measures import parse_measure, trec_name, trec_order

if TYPE_CHECKING:
    from reteval.measures import Measure

__all__ = ["to_long", "to_trec_eval"]

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


def to_trec_eval(per_query: pd.DataFrame, *, queries: bool = False, runid: str | None = None,
                 relstrings: tuple[str, dict[str, str]] | None = None,
                 measures: Mapping[str, Measure] | None = None) -> str:
    """The text ``trec_eval`` prints for these results.

    Parameters
    ----------
    per_query : pandas.DataFrame
        A result of :func:`reteval.evaluate`.
    queries : bool, default False
        Also print every query's values before the ``all`` lines (``trec_eval -q``).
    runid : str, optional
        The run's tag, printed first as trec_eval's ``runid`` line.
    relstrings : (str, dict), optional
        trec_eval's ``relstring`` lines: the printed name and ``{query: string}``
        (:func:`reteval.measures.relevance_strings`).
    measures : mapping, optional
        ``{column label: Measure}`` of the columns, parsed already (the columns of
        :func:`reteval.measures.measure_columns`); a column it does not have is parsed
        from its label.

    Returns
    -------
    str
        One line per measure (and query), ``name`` padded to 22 characters as
        trec_eval pads it, measures in trec_eval's order (its table of measures;
        measures trec_eval does not have come last, in their order). A measure
        trec_eval does not have (``Judged@10``, ``P(rel=2)@10``) is printed under
        the name it was asked by. ``num_q``, ``gm_map`` and ``gm_bpref`` have no
        per-query line, as in trec_eval. Values standardised by ``zscores`` (trec_eval
        ``-Z``) are printed as trec_eval prints them: names prefixed with ``Z``, counts
        with 4 decimals.

    Examples
    --------
    >>> from reteval import evaluate
    >>> per_query = evaluate({"q1": {"d1": 1}, "q2": {"d2": 1}},
    ...                      {"q1": ["d1", "d9"], "q2": ["d9", "d2"]}, ["map", "P_1", "num_q"])
    >>> print(to_trec_eval(per_query, queries=True), end="")
    map                   \tq1\t1.0000
    P_1                   \tq1\t1.0000
    map                   \tq2\t0.5000
    P_1                   \tq2\t0.0000
    num_q                 \tall\t2
    map                   \tall\t0.7500
    P_1                   \tall\t0.5000
    """
    per_query = _check(per_query)
    zscored = bool(per_query.attrs.get("zscores", False))
    known = measures or {}
    columns = []
    for position, column in enumerate(per_query.columns):
        measure = known[column] if column in known else parse_measure(column)
        columns.append((trec_order(measure), position,
                        trec_name(measure, label=str(column)) or str(column),
                        measure.spec.count and not zscored, measure.spec.query_lines))
    relstring_of: dict[str, str] = {}
    if relstrings is not None:
        columns.append((12, -1, relstrings[0], None, True))
        relstring_of = relstrings[1]
    columns.sort(key=lambda c: c[:2])
    lines = []
    prefix = "Z" if zscored else ""

    def line(name, query, value, count):
        if count is None:  # relstring: quoted, never standardised
            lines.append(f"{name:<22}\t{query}\t'{value}'")
            return
        text = f"{int(value)}" if count else f"{value:.4f}"
        lines.append(f"{prefix}{name:<22}\t{query}\t{text}")

    values = per_query.to_numpy(dtype=float)
    if queries:  # trec_eval's order: the query ids as text
        for row in sorted(range(len(per_query)), key=lambda i: str(per_query.index[i])):
            query = per_query.index[row]
            for _, position, name, count, query_lines in columns:
                if not query_lines:
                    continue
                if position < 0:
                    line(name, query, relstring_of.get(query, ""), None)
                else:
                    line(name, query, values[row, position], count)
    overall = aggregate(per_query, measures=known)
    if runid is not None:
        lines.append(f"{'runid':<22}\tall\t{runid}")
    for _, position, name, count, _ in columns:
        if position >= 0:
            line(name, "all", overall.iloc[position], count)
    return "".join(f"{text}\n" for text in lines)  # nothing at all for relstring alone


def to_long(per_query: pd.DataFrame) -> pd.DataFrame:
    """Per-query results as rows of ``query_id, measure, value``.

    Results of several systems side by side (``pd.concat({"bm25": a, "dense": b}, axis=1)``,
    columns ``(system, measure)``) give rows of ``query_id, system, measure, value``; the
    column levels keep their names when they have them. A query one system has and another
    has not gives the other a row whose value is NaN, as the joined table shows it.

    Examples
    --------
    >>> import pandas as pd
    >>> from reteval import evaluate
    >>> a = evaluate({"q1": {"d1": 1}}, {"q1": ["d1"]}, ["P@1", "RR"])
    >>> to_long(a)
      query_id measure  value
    0       q1     P@1    1.0
    1       q1      RR    1.0
    >>> to_long(pd.concat({"bm25": a, "dense": a / 2}, axis=1))
      query_id system measure  value
    0       q1   bm25     P@1    1.0
    1       q1   bm25      RR    1.0
    2       q1  dense     P@1    0.5
    3       q1  dense      RR    0.5
    """
    per_query = _check(per_query)
    columns = per_query.columns
    if columns.nlevels == 1:
        levels = ["measure"]
    elif columns.nlevels == 2:
        levels = [name or default for name, default in zip(columns.names, ("system", "measure"),
                                                            strict=True)]
    else:
        raise InputError(f"per_query must have one level of columns (measures) or two (system, "
                         f"measure); got {columns.nlevels}")
    long = per_query.rename_axis(index="query_id").set_axis(columns.set_names(levels), axis=1)
    long = long.stack(list(range(columns.nlevels))).rename("value")
    types = {"query_id": str, **dict.fromkeys(levels, str), "value": "float64"}
    return long.reset_index().astype(types)
