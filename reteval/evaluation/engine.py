"""``evaluate``: per-query measure values of a run against relevance judgments."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from reteval._util.dask import is_dask_collection
from reteval.errors import InputError
from reteval.evaluation.checks import MISSING_POLICIES, check_missing, check_trec_options
from reteval.evaluation.columns import GEOMETRIC_FLOOR, evaluate_columns, values_frame
from reteval.measures import measure_columns, parse_measure

if TYPE_CHECKING:
    from collections.abc import Callable

    import pandas as pd

__all__ = ["aggregate", "aggregate_values", "evaluate", "evaluate_preferences", "summarize"]


def evaluate(qrels, run, measures, *, relevance_level: float = 1,
             missing: str = "zero", judged_only: bool = False, max_docs: int | None = None,
             num_docs: int = 0, zscores=None, rel_format: str = "qrels") -> pd.DataFrame:
    """Evaluate a run: one row per query, one column per measure, as trec_eval.

    Parameters
    ----------
    qrels : path, DataFrame, dict or EvaluationQuery records
        Relevance judgments, in any form :func:`reteval.io.as_qrels` takes.
    run : path, DataFrame or dict
        Retrieval results, in any form :func:`reteval.io.as_run` takes. A Dask
        DataFrame too large for memory is evaluated partition by partition with
        the same kernels and the same result
        (:func:`reteval.evaluation.distributed.evaluate_dask`).
    measures : str or sequence of str
        Measure names such as ``"nDCG@10"``, ``"AP"``, ``"MRR"``,
        ``"P(rel=2)@10"`` or trec_eval's ``"P_5,10"`` and ``"official"``
        (see :mod:`reteval.measures`; lists and defaults expand into several
        columns, named by :func:`reteval.measures.measure_columns`).
    relevance_level : int or float, default 1
        Minimum judged relevance that counts as relevant (trec_eval ``-l``);
        a measure's own ``rel`` parameter overrides it for that measure.
        It does not change nDCG gains. It must be 0 or more: a negative
        judgment ("in the pool, not judged") is never relevant, whatever the
        level, so a negative level is refused rather than given a meaning.
        Grades may be fractional (an LLM judge's 0.7): binary measures count a
        grade >= the level (``relevance_level=0.5``), nDCG and DCG take the
        grade as its gain; with fractional grades and a level of 1 a
        :class:`~reteval.evaluation.FractionalGradesWarning` says so.
    missing : {"zero", "skip", "error"}, default "zero"
        What to do with judged queries that have no results in the run:
        ``"zero"`` scores them as empty rankings and warns
        (:class:`MissingQueriesWarning`; trec_eval ``-c``), ``"skip"``
        evaluates only queries in both, ``"error"`` raises. Run queries without
        judgments are always ignored.
    judged_only : bool, default False
        Remove the documents without a judgment (absent from the qrels or judged
        negative) from every ranking before scoring (trec_eval ``-J``; a measure's
        own ``judged_only=True``, as ``AP(judged_only=True)``, does it for that measure).
    max_docs : int, optional
        Only the first ``max_docs`` documents of each ranking count (trec_eval ``-M``).
    num_docs : int, default 0
        Number of documents of the collection (trec_eval ``-N``), used by ``Utility``'s
        ``d`` weight only.
    zscores : path or dict, optional
        Standardise every value with a ``query measure mean stddev`` file (trec_eval
        ``-Z``; :func:`reteval.io.zscores.read_zscores`): ``(value - mean) / stddev``,
        -1000000 where the file has no entry (or a deviation of 0 and another value),
        as trec_eval. The result's ``attrs["zscores"]`` is True, and :func:`aggregate`
        then averages the standardised values as trec_eval does.
    rel_format : {"qrels", "prefs", "qrels_prefs", "qrels_jg"}, default "qrels"
        The format of ``qrels`` (trec_eval ``-R``): preferences or several judgment
        groups are evaluated by :func:`evaluate_preferences` (a path to a file).

    Returns
    -------
    pandas.DataFrame
        Index ``query_id`` (sorted), one float64 column per measure, named as
        given and in the order given. ``.mean()`` is the aggregate trec_eval
        reports, except for the counts (``NumRet``, ``NumRel``,
        ``NumRelRet``, ``NumQ``), which trec_eval sums: :func:`aggregate` does both.

    Raises
    ------
    InputError
        Malformed inputs, an unknown measure, a bad option, or missing queries
        with ``missing="error"``.

    Examples
    --------
    >>> qrels = {"q1": {"d1": 2, "d2": 1, "d3": 0}, "q2": {"d4": 1}}
    >>> run = {"q1": {"d1": 0.9, "d3": 0.8, "d2": 0.7}, "q2": {"d5": 0.9, "d4": 0.5}}
    >>> evaluate(qrels, run, ["P@2", "RR", "AP"])
              P@2   RR        AP
    query_id
    q1        0.5  1.0  0.833333
    q2        0.5  0.5  0.500000
    >>> evaluate(qrels, run, ["P@2", "RR", "AP"]).mean()
    P@2    0.500000
    RR     0.750000
    AP     0.666667
    dtype: float64
    """
    if is_dask_collection(run) or is_dask_collection(qrels):
        from reteval.evaluation.distributed import evaluate_dask

        given = {"judged_only": judged_only, "max_docs": max_docs, "num_docs": num_docs,
                 "zscores": zscores, "rel_format": rel_format != "qrels"}
        if any(value for value in given.values()):
            raise InputError(f"{', '.join(k for k, v in given.items() if v)}: not available "
                             "for a Dask collection; evaluate it in memory")
        return evaluate_dask(qrels, run, measures, relevance_level=relevance_level,
                             missing=missing)
    if rel_format != "qrels":
        if zscores is not None:
            raise InputError(f"zscores are not available with rel_format={rel_format!r}")
        query_ids, values = evaluate_preferences(
            qrels, run, measures, rel_format=rel_format, relevance_level=relevance_level,
            missing=missing, max_docs=max_docs, judged_only=judged_only)
    else:
        query_ids, values = evaluate_columns(qrels, run, measures,
                                             relevance_level=relevance_level, missing=missing,
                                             judged_only=judged_only, max_docs=max_docs,
                                             num_docs=num_docs, zscores=zscores)
    return values_frame(query_ids, values, zscored=zscores is not None)



def aggregate(per_query: pd.DataFrame, *, measures=None) -> pd.Series:
    """The values trec_eval reports for ``all``: the mean, or the sum for counts.

    Parameters
    ----------
    per_query : pandas.DataFrame
        A result of :func:`evaluate`.
    measures : mapping, optional
        ``{column label: Measure}``, the columns parsed already (as
        :func:`reteval.measures.measure_columns` gives them); a column it does not have
        is parsed from its label, as :func:`summarize` does.

    Returns
    -------
    pandas.Series
        One value per measure column.

    Examples
    --------
    >>> per_query = evaluate({"q1": {"d1": 1}, "q2": {"d2": 1}},
    ...                      {"q1": ["d1", "d9"], "q2": ["d2"]}, ["P@1", "NumRet"])
    >>> aggregate(per_query)
    P@1       1.0
    NumRet    3.0
    dtype: float64
    """
    import pandas as pd

    zscored = bool(per_query.attrs.get("zscores", False))
    # summed in trec_eval's order, the query ids as text, whatever the rows' order
    order = sorted(range(len(per_query)), key=lambda i: str(per_query.index[i]))
    values = [summarize({column: per_query.iloc[:, i].to_numpy(dtype=float)[order]},
                        zscored=zscored, measures=measures)[column]
              for i, column in enumerate(per_query.columns)]  # by position: names may repeat
    return pd.Series(values, index=per_query.columns, dtype=float)


def summarize(values, *, zscored: bool = False, measures=None) -> dict:
    """:func:`aggregate` on columns: ``{column: per-query values}`` -> ``{column: value}``.

    How a measure aggregates is its family's ``aggregate`` in the measure registry
    (:func:`aggregate_values`); the measure of a column is ``measures[column]`` when
    ``measures`` (a mapping ``{label: Measure}``, parsed already) has it, else its label
    parsed.

    Examples
    --------
    >>> summarize({"AP": [0.5, 1.0, float("nan")], "NumRet": [10, 5, 0]})
    {'AP': 0.75, 'NumRet': 15.0}
    """
    known = measures or {}
    return {column: aggregate_values(
                column_values, (known[column] if column in known
                                else parse_measure(column)).spec.aggregate, zscored=zscored)
            for column, column_values in values.items()}


def aggregate_values(values, how: str, *, zscored: bool = False) -> float:
    """One measure's per-query values made one number, as trec_eval's ``all`` line.

    ``how`` is the family's ``aggregate``: ``"mean"``, the mean of the values that are
    not NaN (NaN when none is); ``"sum"``, their sum (the counts: ``NumRet``,
    ``NumRel``...), summed one query after the other in the given order as trec_eval sums
    them (so the last bit, and a printed 4th decimal on a tie, is trec_eval's; pandas'
    pairwise ``mean`` may differ in the last bit); ``"gmean"``, the geometric mean with
    trec_eval's floor of 0.00001 (``GMAP``, ``GMBpref``); ``"queries"``, the number of
    queries (``NumQ``). With ``zscored`` (values standardised by trec_eval's ``-Z``) the
    geometric means average values that are already logarithms.

    Examples
    --------
    >>> aggregate_values([0.5, 1.0, float("nan")], "mean"), aggregate_values([10, 5], "sum")
    (0.75, 15.0)
    >>> round(aggregate_values([0.1, 0.001], "gmean"), 12)
    0.01
    """
    import numpy as np

    column_values = np.asarray(values, dtype=np.float64)
    missing = np.isnan(column_values)
    if how == "queries":
        return float(len(column_values))
    if how == "gmean":
        kept = column_values[~missing]
        if not zscored:
            kept = np.log(np.maximum(kept, GEOMETRIC_FLOOR))
        return (float(np.exp(np.cumsum(kept)[-1] / len(kept))) if len(kept)
                else math.nan)  # summed in order, as trec_eval
    # summed one query after the other, in the rows' order, as trec_eval sums them: a
    # pairwise sum can differ in the last bit and print 0.0063 where trec_eval has 0.0064
    kept = np.where(missing, 0.0, column_values)
    total = float(np.cumsum(kept)[-1]) if len(kept) else 0.0
    if how == "sum":
        return total
    count = len(column_values) - int(missing.sum())
    return total / count if count else float("nan")


def evaluate_preferences(qrels, run, measures, *, rel_format: str, relevance_level: float = 1,
                         missing: str = "zero", max_docs: int | None = None,
                         judged_only: bool = False) -> tuple[list[str], dict]:
    """Measures of preference judgments (``rel_format="prefs"`` or ``"qrels_prefs"``) or of
    several judgment groups (``"qrels_jg"``): ``(query ids, {column: values})``.

    trec_eval's ``-R`` formats (:mod:`reteval.io.prefs`); the measures are those of the
    registry whose ``judgments`` is ``"prefs"`` or ``"qrels_jg"`` (``-m all_prefs``,
    ``-m qrels_jg``), and ``num_q``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "prefs").write_text("q1 u s a 2\\nq1 u s b 1\\nq1 u s c 0\\n")
    >>> _ = (folder / "run").write_text("q1 Q0 b 1 3 t\\nq1 Q0 a 2 2 t\\n")
    >>> ids, values = evaluate_preferences(folder / "prefs", folder / "run",
    ...                                    ["prefs_simp", "prefs_num_prefs_poss"],
    ...                                    rel_format="prefs")
    >>> ids, {k: v.tolist() for k, v in values.items()}
    (['q1'], {'prefs_simp': [0.6666666666666666], 'prefs_num_prefs_poss': [3.0]})
    """
    import numpy as np

    from reteval.evaluation.preferences import (
        judge_group_values,
        preference_values,
        ranked_run,
    )
    from reteval.io.prefs import read_prefs, read_qrels_jg, read_qrels_prefs

    readers: dict[str, Callable[..., dict]] = {
        "prefs": read_prefs, "qrels_prefs": read_qrels_prefs, "qrels_jg": read_qrels_jg}
    if rel_format not in readers:
        raise InputError(f"rel_format must be one of qrels, {', '.join(readers)}; got "
                         f"{rel_format!r}")
    if missing not in MISSING_POLICIES:
        raise InputError(f"missing must be one of {MISSING_POLICIES}; got {missing!r}")
    check_trec_options(judged_only, max_docs, 0)
    columns = measure_columns(measures)
    wanted = "qrels_jg" if rel_format == "qrels_jg" else "prefs"
    for label, spec in columns:
        if spec.family != "NumQ" and spec.spec.judgments != wanted:
            nickname = "qrels_jg" if wanted == "qrels_jg" else "all_prefs"
            raise InputError(f"measure {label!r} is not computed from -R {rel_format} "
                             f"judgments (use -m {nickname})")
    judgments = readers[rel_format](qrels)
    ranked = ranked_run(run, max_docs, ties_ascending=wanted == "prefs")
    judged = sorted(judgments, key=lambda q: q.encode())
    check_missing(set(judged) - set(ranked), missing, judged, len(ranked))
    queries = [q for q in judged if q in ranked or missing == "zero"]
    values = {}
    if wanted == "prefs":
        names = [label for label, spec in columns if spec.family != "NumQ"]
        trec = {label: spec.spec.trec[0].name for label, spec in columns}
        computed = preference_values(judgments, ranked, [trec[n] for n in names], queries)
        for label, spec in columns:
            values[label] = (np.ones(len(queries)) if spec.family == "NumQ"
                             else np.asarray(computed[trec[label]], dtype=np.float64))
        return queries, values
    jg_columns = [(label, spec) for label, spec in columns if spec.family != "NumQ"]
    computed = judge_group_values(judgments, ranked, jg_columns, queries,
                                  relevance_level=relevance_level, max_docs=max_docs,
                                  judged_only=judged_only)
    for label, spec in columns:
        values[label] = np.ones(len(queries)) if spec.family == "NumQ" else computed[label]
    return queries, values
