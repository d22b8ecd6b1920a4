"""``evaluate``: per-query measure values of a run against relevance judgments."""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Iterable
from typing import TYPE_CHECKING

from reteval._util.dask import is_dask_collection
from reteval.errors import InputError, outside_stacklevel
from reteval.evaluation.measures import measure_columns, parse_measures
from reteval.io.textfile import INT64_MAX

if TYPE_CHECKING:
    import pandas as pd

# numpy, pandas, pyarrow and the modules that need them are imported inside the functions:
# ``import reteval`` (and so every command line call, ``reteval --help`` too) does not pay
# for them.

__all__ = ["MISSING_POLICIES", "MissingQueriesWarning", "aggregate", "check_arguments",
           "check_missing", "evaluate", "evaluate_columns", "summarize"]

MISSING_POLICIES = ("zero", "skip", "error")


class MissingQueriesWarning(UserWarning):
    """Judged queries had no results in the run and were scored 0."""


def _describe(ids, limit=10) -> str:
    ids = sorted(ids)
    shown = ", ".join(repr(i) for i in ids[:limit])
    return shown + (f" and {len(ids) - limit} more" if len(ids) > limit else "")


def check_missing(absent, missing: str, judged=None) -> None:
    """Apply the ``missing`` policy to judged queries absent from the run.

    Raises for ``"error"``, warns (:class:`MissingQueriesWarning`) for ``"zero"``;
    ``"skip"`` says nothing, unless it skips every judged query (``judged``, when
    given): then no query is evaluated and every mean is NaN, which it warns about.
    """
    if absent and missing == "skip" and judged is not None and len(absent) == len(judged):
        warnings.warn(
            f"no judged query has results in the run: all {len(absent)} are skipped "
            f"(missing 'skip'), so nothing is evaluated and every mean is NaN; "
            f"judged queries: {_describe(absent)}",
            MissingQueriesWarning,
            stacklevel=outside_stacklevel(),
        )
    if absent and missing == "error":
        raise InputError(
            f"{len(absent)} judged queries have no results in the run: {_describe(absent)} "
            "(missing 'zero' scores them 0, 'skip' leaves them out)"
        )
    if absent and missing == "zero":
        warnings.warn(
            f"{len(absent)} judged queries have no results in the run and score 0: "
            f"{_describe(absent)}",
            MissingQueriesWarning,
            stacklevel=outside_stacklevel(),
        )


def check_arguments(measures, relevance_level, missing) -> list:
    """Check :func:`evaluate`'s options; return the ``(label, measure)`` columns.

    ``relevance_level`` (and a measure's ``rel=``) must be an integer from 0 to
    2**63 - 1. A negative level is refused: negative judgments mean "in the pool
    but not judged" (trec_eval), so they can never count as relevant.
    """
    if missing not in MISSING_POLICIES:
        raise InputError(f"missing must be one of {MISSING_POLICIES}; got {missing!r}")
    if isinstance(relevance_level, bool) or not isinstance(relevance_level, numbers.Integral):
        raise InputError(f"relevance_level must be an integer; got {relevance_level!r}")
    if not 0 <= int(relevance_level) <= INT64_MAX:
        raise InputError(f"relevance_level must be from 0 to {INT64_MAX} (negative judgments "
                         f"are never relevant); got {relevance_level!r}")
    if measures is None or not (isinstance(measures, str) or hasattr(measures, "__iter__")
                                or hasattr(measures, "family")):
        raise InputError("measures must be a measure name or a list of names such as "
                         f"['nDCG@10', 'AP']; got {measures!r}")
    if not isinstance(measures, str) and isinstance(measures, Iterable):
        measures = list(measures)
        odd = [m for m in measures if not isinstance(m, str) and not hasattr(m, "family")
               and type(m).__module__.partition(".")[0] != "ir_measures"]
        if odd:
            raise InputError(f"a measure must be a name such as 'nDCG@10'; got {odd[0]!r}")
    columns = measure_columns(measures)
    for label, spec in columns:
        rel = getattr(spec, "rel", None)
        if rel is not None and not 0 <= rel <= INT64_MAX:
            raise InputError(f"measure {label!r}: rel must be from 0 to {INT64_MAX} (negative "
                             f"judgments are never relevant); got {rel}")
    return columns


def evaluate(qrels, run, measures, *, relevance_level: int = 1,
             missing: str = "zero") -> pd.DataFrame:
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
        (see :mod:`reteval.evaluation.measures`; lists and defaults expand into several
        columns, named by :func:`reteval.evaluation.measures.measure_columns`).
    relevance_level : int, default 1
        Minimum judged relevance that counts as relevant (trec_eval ``-l``);
        a measure's own ``rel`` parameter overrides it for that measure.
        It does not change nDCG gains. It must be 0 or more: a negative
        judgment ("in the pool, not judged") is never relevant, whatever the
        level, so a negative level is refused rather than given a meaning.
    missing : {"zero", "skip", "error"}, default "zero"
        What to do with judged queries that have no results in the run:
        ``"zero"`` scores them as empty rankings and warns
        (:class:`MissingQueriesWarning`; trec_eval ``-c``), ``"skip"``
        evaluates only queries in both, ``"error"`` raises. Run queries without
        judgments are always ignored.

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

        return evaluate_dask(qrels, run, measures, relevance_level=relevance_level,
                             missing=missing)
    query_ids, values = _values(qrels, run, measures, relevance_level, missing)
    import numpy as np
    import pandas as pd

    frame = pd.DataFrame(values, index=pd.Index(query_ids, name="query_id"))
    return frame.astype(np.float64)


def evaluate_columns(qrels, run, measures, *, relevance_level: int = 1,
                     missing: str = "zero") -> tuple[list[str], dict]:
    """:func:`evaluate`'s values without the DataFrame: ``(query ids, {column: values})``.

    Files are read into Arrow and numpy columns and evaluated without loading
    pandas (the command line answers sooner); the values are those of
    :func:`evaluate`, bit for bit.

    Examples
    --------
    >>> ids, values = evaluate_columns({"q1": {"d1": 1}}, {"q1": ["d2", "d1"]}, ["RR", "P@2"])
    >>> ids, {k: v.tolist() for k, v in values.items()}
    (['q1'], {'RR': [0.5], 'P@2': [0.5]})
    """
    return _values(qrels, run, measures, relevance_level, missing)


def _values(qrels, run, measures, relevance_level, missing):
    columns = check_arguments(measures, relevance_level, missing)
    if is_dask_collection(run) or is_dask_collection(qrels):
        raise InputError("a Dask collection is evaluated by reteval.evaluate, which gives the "
                         "values partition by partition; evaluate_columns works in memory")
    from reteval.evaluation.metrics import compute

    ranking = _rank(qrels, run, missing)
    values = {
        label: compute(ranking, spec, relevance_level=int(relevance_level))
        for label, spec in columns
    }
    return ranking.query_ids.astype(str).tolist(), values


def _evaluated_queries(judged: set, retrieved: set, missing: str) -> set:
    check_missing(judged - retrieved, missing, judged)
    return judged & retrieved if missing == "skip" else judged


def _rank(qrels, run, missing):
    """Both inputs as columns (each read once, whatever its form), then ranked."""
    from concurrent.futures import ThreadPoolExecutor

    from reteval.evaluation.ranking import rank
    from reteval.io.columns import as_qrels_columns, as_run_columns

    # The qrels are read while the run is: a large run file is parsed by Arrow outside the
    # GIL. The run's error, if any, is the one reported (it is raised first).
    with ThreadPoolExecutor(max_workers=1) as pool:
        qrels = pool.submit(as_qrels_columns, qrels)
        run = as_run_columns(run)
        qrels = qrels.result()
    queries = _evaluated_queries(_distinct(qrels.query_ids), _distinct(run.query_ids), missing)
    return rank(qrels, run, queries)


def _distinct(ids) -> set:
    """The distinct ids of an Arrow column (a dictionary array lists each once already)."""
    import pyarrow as pa

    return set((ids.dictionary if pa.types.is_dictionary(ids.type) else ids.unique()).to_pylist())


_SUMMED_FAMILIES = ("NumQ", "NumRet", "NumRel", "NumRelRet")


def aggregate(per_query: pd.DataFrame) -> pd.Series:
    """The values trec_eval reports for ``all``: the mean, or the sum for counts.

    Parameters
    ----------
    per_query : pandas.DataFrame
        A result of :func:`evaluate`.

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

    values = [summarize({column: per_query.iloc[:, i].to_numpy(dtype=float)})[column]
              for i, column in enumerate(per_query.columns)]  # by position: names may repeat
    return pd.Series(values, index=per_query.columns, dtype=float)


def summarize(values) -> dict:
    """:func:`aggregate` on columns: ``{column: per-query values}`` -> ``{column: value}``.

    The mean of the values that are not NaN (NaN when none is), or their sum for the
    counts (``NumQ``, ``NumRet``, ``NumRel``, ``NumRelRet``), as pandas' ``mean``
    and ``sum`` give them, bit for bit.

    Examples
    --------
    >>> summarize({"AP": [0.5, 1.0, float("nan")], "NumRet": [10, 5, 0]})
    {'AP': 0.75, 'NumRet': 15.0}
    """
    import numpy as np

    summary = {}
    for column, column_values in values.items():
        column_values = np.asarray(column_values, dtype=np.float64)
        missing = np.isnan(column_values)
        total = float(np.where(missing, 0.0, column_values).sum())
        if parse_measures([column])[0].family in _SUMMED_FAMILIES:
            summary[column] = total
        else:
            count = len(column_values) - int(missing.sum())
            summary[column] = total / count if count else float("nan")
    return summary
