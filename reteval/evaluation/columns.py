"""The in-memory engine: a run's values as columns (numpy, Arrow), no pandas.

:func:`evaluate_columns` and :func:`evaluate_runs` (several runs, the qrels read once)
give what :func:`reteval.evaluate` gives, without the table; the Dask engine evaluates
each partition with them.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from reteval._util.dask import is_dask_collection
from reteval.errors import InputError
from reteval.evaluation.checks import (
    MISSING_POLICIES,
    check_arguments,
    check_missing,
    check_trec_options,
    relevance_level_value,
    warn_fractional_grades,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["evaluate_columns", "evaluate_runs", "relevance_strings", "values_frame"]

def evaluate_columns(qrels, run, measures, *, relevance_level: float = 1,
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


def evaluate_runs(qrels, runs, measures, *, relevance_level: float = 1,
                  missing: str = "zero") -> dict:
    """:func:`evaluate_columns` of several runs against the same qrels, read once.

    ``runs`` maps a name to a run (anything :func:`evaluate` takes); the qrels
    are read (or converted) and the measures parsed once for all of them (``measures``
    may be the mapping ``{label: Measure}`` of an earlier parse), and run files are read
    one ahead, on a second thread, while the run before is scored. Returns
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

    columns = dict(check_arguments(measures, relevance_level, missing))  # parsed once
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
            out[name] = _values(judged, run if read is None else read.result(), columns,
                                relevance_level, missing)
    return out



def _values(qrels, run, measures, relevance_level, missing, *, judged_only=False,
            max_docs=None, num_docs=0, zscores=None):
    columns = check_arguments(measures, relevance_level, missing)
    check_trec_options(judged_only, max_docs, num_docs)
    table = None
    if zscores is not None:
        from reteval.io.zscores import read_zscores

        table = read_zscores(zscores)
    if is_dask_collection(run) or is_dask_collection(qrels):
        raise InputError("a Dask collection is evaluated by reteval.evaluate, which gives the "
                         "values partition by partition; evaluate_columns works in memory")
    from reteval.measures import compute, limit_ranking
    from reteval.measures import judged_only as only_judged

    ranking = _rank(qrels, run, missing)
    ranking, absent = _placeholder_rankings(ranking)
    if max_docs is not None:
        ranking = limit_ranking(ranking, int(max_docs))
    if judged_only:
        ranking = only_judged(ranking)
    level = relevance_level_value(relevance_level)
    warn_fractional_grades(ranking.judged_rel, level, columns)
    values = {
        label: compute(ranking, spec, relevance_level=level,
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
    from reteval.measures import trec_name

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
    check_trec_options(judged_only, max_docs, 0)
    from reteval.measures import judged_only as only_judged
    from reteval.measures import limit_ranking, relevance_strings

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

    from reteval.measures import trec_name

    out = {}
    for label, spec in columns:
        name = trec_name(spec, label=label) or label
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
    check_missing(judged - retrieved, missing, judged, len(retrieved))
    return judged & retrieved if missing == "skip" else judged


def _rank(qrels, run, missing):
    """Both inputs as columns (each read once, whatever its form), then ranked."""
    from concurrent.futures import ThreadPoolExecutor

    from reteval.evaluation.ranking import rank
    from reteval.io.columns import as_qrels_columns, as_run_columns
    from reteval.io.qrelsfile import QrelsColumns

    if isinstance(qrels, QrelsColumns):  # already read (evaluate_runs reads them once)
        run = as_run_columns(run)
    elif not isinstance(qrels, (str, os.PathLike)):  # in memory: no file to parse meanwhile
        run = as_run_columns(run)  # first: the run's error is the one reported
        qrels = as_qrels_columns(qrels)
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




def values_frame(query_ids, values, *, zscored: bool = False) -> pd.DataFrame:
    """The table of :func:`evaluate_columns`' result: one row per query, one column per
    measure (float64), index ``query_id``, all-digit ids in numeric order
    (:func:`reteval.io.order.query_order`)."""
    import numpy as np
    import pandas as pd

    from reteval.io.order import query_order

    frame = pd.DataFrame(values, index=pd.Index(query_ids, name="query_id"))
    frame = frame.astype(np.float64).iloc[query_order(frame.index)]
    if zscored:
        frame.attrs["zscores"] = True
    return frame
