"""``evaluate``: per-query measure values of a run against relevance judgments."""

from __future__ import annotations

import math
import numbers
import os
import warnings
from collections.abc import Iterable
from typing import TYPE_CHECKING

from reteval._util.dask import is_dask_collection
from reteval.errors import InputError, outside_stacklevel
from reteval.evaluation.measures import measure_columns, parse_measure
from reteval.io.textfile import INT64_MAX

if TYPE_CHECKING:
    import pandas as pd

# numpy, pandas, pyarrow and the modules that need them are imported inside the functions:
# ``import reteval`` (and so every command line call, ``reteval --help`` too) does not pay
# for them.

__all__ = ["MISSING_POLICIES", "MissingQueriesWarning", "aggregate", "check_arguments",
           "check_missing", "evaluate", "evaluate_columns", "evaluate_preferences",
           "evaluate_runs", "relevance_strings", "summarize"]

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
        query_ids, values = _values(qrels, run, measures, relevance_level, missing,
                                    judged_only=judged_only, max_docs=max_docs,
                                    num_docs=num_docs, zscores=zscores)
    import numpy as np
    import pandas as pd

    frame = pd.DataFrame(values, index=pd.Index(query_ids, name="query_id"))
    frame = frame.astype(np.float64)
    if zscores is not None:
        frame.attrs["zscores"] = True
    return frame


def evaluate_columns(qrels, run, measures, *, relevance_level: int = 1,
                     missing: str = "zero", judged_only: bool = False,
                     max_docs: int | None = None, num_docs: int = 0,
                     zscores=None) -> tuple[list[str], dict]:
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
    return _values(qrels, run, measures, relevance_level, missing, judged_only=judged_only,
                   max_docs=max_docs, num_docs=num_docs, zscores=zscores)


def evaluate_runs(qrels, runs, measures, *, relevance_level: int = 1,
                  missing: str = "zero") -> dict:
    """:func:`evaluate_columns` of several runs against the same qrels, read once.

    ``runs`` maps a name to a run (anything :func:`evaluate` takes); the qrels
    are read (or converted) once for all of them, and run files are read one ahead,
    on a second thread, while the run before is scored. Returns
    ``{name: (query ids, {column: values})}``, each as :func:`evaluate_columns`
    gives it.

    Examples
    --------
    >>> out = evaluate_runs({"q1": {"d1": 1}}, {"a": {"q1": ["d1"]}, "b": {"q1": ["d2", "d1"]}},
    ...                     ["RR"])
    >>> {name: values["RR"].tolist() for name, (ids, values) in out.items()}
    {'a': [1.0], 'b': [0.5]}
    """
    from concurrent.futures import ThreadPoolExecutor

    from reteval.io.columns import as_qrels_columns, as_run_columns

    check_arguments(measures, relevance_level, missing)
    items = list(runs.items())
    out = {}
    # Run files are read one ahead on a second thread (Arrow parses them outside the GIL)
    # while the run before is ranked and scored here; runs are scored in their order, so
    # warnings and the first error come as they would one after the other.
    with ThreadPoolExecutor(max_workers=1) as pool:

        def read_ahead(k):
            run = items[k][1] if k < len(items) else None
            return (pool.submit(as_run_columns, run) if isinstance(run, (str, os.PathLike))
                    else None)

        ahead = read_ahead(0)
        judged = as_qrels_columns(qrels)
        for k, (name, run) in enumerate(items):
            read, ahead = ahead, read_ahead(k + 1)
            out[name] = _values(judged, run if read is None else read.result(), measures,
                                relevance_level, missing)
    return out


def _check_options(judged_only, max_docs, num_docs):
    if not isinstance(judged_only, bool):
        raise InputError(f"judged_only must be True or False; got {judged_only!r}")
    for name, value in (("max_docs", max_docs), ("num_docs", num_docs)):
        if value is None and name == "max_docs":
            continue
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
            raise InputError(f"{name} must be a non-negative integer; got {value!r}")


def _values(qrels, run, measures, relevance_level, missing, *, judged_only=False,
            max_docs=None, num_docs=0, zscores=None):
    columns = check_arguments(measures, relevance_level, missing)
    _check_options(judged_only, max_docs, num_docs)
    table = None
    if zscores is not None:
        from reteval.io.zscores import read_zscores

        table = read_zscores(zscores)
    if is_dask_collection(run) or is_dask_collection(qrels):
        raise InputError("a Dask collection is evaluated by reteval.evaluate, which gives the "
                         "values partition by partition; evaluate_columns works in memory")
    from reteval.evaluation.metrics import compute, limit_ranking
    from reteval.evaluation.metrics import judged_only as only_judged

    ranking = _rank(qrels, run, missing)
    ranking, absent = _placeholder_rankings(ranking)
    if max_docs is not None:
        ranking = limit_ranking(ranking, int(max_docs))
    if judged_only:
        ranking = only_judged(ranking)
    values = {
        label: compute(ranking, spec, relevance_level=int(relevance_level),
                       num_docs=int(num_docs))
        for label, spec in columns
    }
    if absent.any():
        _clean_placeholders(values, columns, absent)
    query_ids = ranking.query_ids.astype(str).tolist()
    if table is not None:
        values = _standardise(query_ids, values, columns, table)
    return query_ids, values


def _placeholder_rankings(ranking):
    """trec_eval's ``-c``: a judged query without results is ranked as one document that no
    judgment names (trec_eval's "bogus ranking"), so that every measure is computed as for
    a real ranking; :func:`_clean_placeholders` then zeroes what trec_eval zeroes."""
    import dataclasses

    import numpy as np

    absent = np.asarray(ranking.num_ret) == 0
    if absent.any():
        ranking = dataclasses.replace(ranking, num_ret=np.where(absent, 1, ranking.num_ret)
                                      .astype(ranking.num_ret.dtype))
    return ranking, absent


def _clean_placeholders(values, columns, absent) -> None:
    """Zero, for the placeholder rankings, the values trec_eval zeroes by name: ``num_ret``,
    ``utility`` (not ``utility_a,b,c,d``), ``unj_*`` and ``rbp_resid``."""
    from reteval.evaluation.measures import trec_name

    for label, spec in columns:
        name = trec_name(spec) or ""
        if name in ("num_ret", "utility", "rbp_resid") or name.startswith("unj"):
            values[label][absent] = 0.0


def relevance_strings(qrels, run, length: int = 10, *, missing: str = "zero",
                      judged_only: bool = False, max_docs: int | None = None) -> dict:
    """trec_eval's ``relstring.LENGTH`` per query: the grades of the top documents as text.

    Examples
    --------
    >>> relevance_strings({"q1": {"a": 1, "b": 0, "c": -1}}, {"q1": ["a", "x", "b", "c"]})
    {'q1': '1-0.'}
    """
    if missing not in MISSING_POLICIES:
        raise InputError(f"missing must be one of {MISSING_POLICIES}; got {missing!r}")
    _check_options(judged_only, max_docs, 0)
    from reteval.evaluation.metrics import judged_only as only_judged
    from reteval.evaluation.metrics import limit_ranking, relevance_strings

    ranking = _rank(qrels, run, missing)
    if max_docs is not None:
        ranking = limit_ranking(ranking, int(max_docs))
    if judged_only:
        ranking = only_judged(ranking)
    return relevance_strings(ranking, length)


MISSING_ZSCORE = -1000000.0  # trec_eval's MISSING_ZSCORE_VALUE
GEOMETRIC_FLOOR = 0.00001  # trec_eval's MIN_GEO_MEAN


def _standardise(query_ids, values, columns, table):
    """trec_eval's -Z: every value as (value - mean) / stddev of its (query, measure)."""
    import numpy as np

    from reteval.evaluation.measures import trec_name

    out = {}
    for label, spec in columns:
        name = trec_name(label) or label
        column = np.asarray(values[label], dtype=np.float64)
        if spec.spec.aggregate == "gmean":
            column = np.log(np.maximum(column, GEOMETRIC_FLOOR))
        converted = np.empty_like(column)
        for i, query in enumerate(query_ids):
            entry = table.get((query, name))
            if entry is None:
                converted[i] = MISSING_ZSCORE
            elif entry[1]:
                converted[i] = (column[i] - entry[0]) / entry[1]
            else:
                converted[i] = 0.0 if column[i] == entry[0] else MISSING_ZSCORE
        out[label] = converted
    return out


def _evaluated_queries(judged: set, retrieved: set, missing: str) -> set:
    check_missing(judged - retrieved, missing, judged)
    return judged & retrieved if missing == "skip" else judged


def _rank(qrels, run, missing):
    """Both inputs as columns (each read once, whatever its form), then ranked."""
    from concurrent.futures import ThreadPoolExecutor

    from reteval.evaluation.ranking import rank
    from reteval.io.columns import as_qrels_columns, as_run_columns
    from reteval.io.qrelsfile import QrelsColumns

    if isinstance(qrels, QrelsColumns):  # already read (evaluate_runs reads them once)
        run = as_run_columns(run)
    else:
        # The qrels are read while the run is: a large run file is parsed by Arrow outside
        # the GIL. The run's error, if any, is the one reported (it is raised first).
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

    zscored = bool(per_query.attrs.get("zscores", False))
    values = [summarize({column: per_query.iloc[:, i].to_numpy(dtype=float)},
                        zscored=zscored)[column]
              for i, column in enumerate(per_query.columns)]  # by position: names may repeat
    return pd.Series(values, index=per_query.columns, dtype=float)


def summarize(values, *, zscored: bool = False) -> dict:
    """:func:`aggregate` on columns: ``{column: per-query values}`` -> ``{column: value}``.

    How a measure aggregates is its family's ``aggregate`` in the measure registry: the
    mean of the values that are not NaN (NaN when none is), or their sum for the counts
    (``NumRet``, ``NumRel``...), as pandas' ``mean`` and ``sum`` give them, bit for bit;
    the geometric mean with trec_eval's floor of 0.00001 for ``GMAP`` and ``GMBpref``;
    the number of queries for ``NumQ``. With ``zscored`` (values standardised by
    trec_eval's ``-Z``) the geometric means average values that are already logarithms.

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
        how = parse_measure(column).spec.aggregate
        if how == "queries":
            summary[column] = float(len(column_values))
            continue
        if how == "gmean":
            kept = column_values[~missing]
            if not zscored:
                kept = np.log(np.maximum(kept, GEOMETRIC_FLOOR))
            summary[column] = (float(np.exp(np.cumsum(kept)[-1] / len(kept))) if len(kept)
                               else math.nan)  # summed in order, as trec_eval
            continue
        total = float(np.where(missing, 0.0, column_values).sum())
        if how == "sum":
            summary[column] = total
        else:
            count = len(column_values) - int(missing.sum())
            summary[column] = total / count if count else float("nan")
    return summary


def evaluate_preferences(qrels, run, measures, *, rel_format: str, relevance_level: int = 1,
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

    readers = {"prefs": read_prefs, "qrels_prefs": read_qrels_prefs, "qrels_jg": read_qrels_jg}
    if rel_format not in readers:
        raise InputError(f"rel_format must be one of qrels, {', '.join(readers)}; got "
                         f"{rel_format!r}")
    if missing not in MISSING_POLICIES:
        raise InputError(f"missing must be one of {MISSING_POLICIES}; got {missing!r}")
    _check_options(judged_only, max_docs, 0)
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
    check_missing(set(judged) - set(ranked), missing)
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
