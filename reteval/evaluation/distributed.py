"""Evaluation on Dask, for runs larger than one machine.

A production run of 100M judged rows does not fit in one process. This module
runs the *same* in-memory code on pieces of a Dask DataFrame and combines the
pieces, so the results are identical, bit for bit, to the in-memory results on the same data:

Evaluation (:func:`evaluate_dask`)
    1. Every query's rows are brought into one partition: a hash shuffle on
       ``query_id``. The shuffle is skipped when the frame is indexed by
       ``query_id`` with known divisions (``ddf.set_index("query_id")``, or a
       parquet dataset read with ``calculate_divisions=True``): then each
       query already lies in exactly one partition.
    2. The qrels (small: judgments, not results) are sent once to every
       worker, and each partition is evaluated by :func:`reteval.evaluate`
       with the qrels of the queries it holds. Every measure is a per-query
       value, and a query's value depends only on that query's rows, so the
       per-partition values are the values of the whole.
    3. The per-query rows (one per query, small) are concatenated on the
       client; judged queries absent from the run are then handled exactly as
       in memory (``missing="zero"``, ``"skip"`` or ``"error"``).

    A document listed twice for one query is found per partition after the
    shuffle, wherever the two rows were in the input.

Dask is an optional dependency (``pip install "reteval[dask]"``). This module
imports it only inside its functions (through :mod:`reteval._util.dask`); the A/B log
reduction on Dask is :func:`reteval.ab.dask.reduce_log_dask`.
"""

from __future__ import annotations

import glob
import os
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from reteval._util.dask import compute, dask_client, import_dask, is_dask_collection, share
from reteval.errors import InputError
from reteval.evaluation.checks import (
    MissingQueriesWarning,
    check_arguments,
    check_missing,
    relevance_level_value,
)
from reteval.evaluation.columns import evaluate_columns, values_frame
from reteval.io import RUN_COLUMNS, as_qrels, read_run
from reteval.io.order import query_order

__all__ = ["evaluate_dask", "evaluate_on_cluster", "read_run_dask"]

_PARQUET_SUFFIXES = (".parquet", ".parq", ".pq")


def _evaluate(qrels, run, measures, *, relevance_level, missing) -> pd.DataFrame:
    """One partition (or the whole of a small input) evaluated in memory, as a table."""
    return values_frame(*evaluate_columns(qrels, run, measures, relevance_level=relevance_level,
                                          missing=missing))


def _empty_run() -> pd.DataFrame:
    return pd.DataFrame({"query_id": pd.Series([], dtype=object),
                         "doc_id": pd.Series([], dtype=object),
                         "score": pd.Series([], dtype=np.float64)})


# ---------------------------------------------------------------- evaluation


def _by_query(run):
    """The run with each query's rows in one partition."""
    if not hasattr(run, "columns"):
        raise InputError(f"a Dask run must be a Dask DataFrame with columns query_id, doc_id, "
                         f"score; got {type(run).__name__}")
    columns = list(run.columns)
    index_name = run.index.name
    available = columns + ([index_name] if index_name else [])
    missing = [c for c in RUN_COLUMNS if c not in available]
    if missing:
        raise InputError(
            f"a run Dask DataFrame needs columns query_id, doc_id, score; missing {missing}, "
            f"got {columns}" + (f" and index {index_name!r}" if index_name else "")
        )
    if "query_id" not in columns:
        if run.known_divisions:
            return run  # indexed by query_id with known divisions: already grouped
        run = run.reset_index()
    return run.shuffle(on="query_id")


def _duplicate_error(part: pd.DataFrame) -> None:
    """Raise InputError naming a document listed twice for one query of ``part``, if any.

    Rows read by :func:`read_run_dask` from TREC files are named by file and line.
    """
    duplicated = part.duplicated(["query_id", "doc_id"], keep=False).to_numpy()
    if not duplicated.any():
        return
    rows = part[duplicated]
    first = rows.iloc[0]
    same = rows[(rows["query_id"] == first["query_id"]) & (rows["doc_id"] == first["doc_id"])]
    where = ""
    if part.index.name == "line":
        places = [f"line {line}" for line in same.index[:2]]
        if "source" in part.columns:
            places = [f"{source} {place}"
                      for source, place in zip(same["source"], places, strict=False)]
        where = f", on {places[0]} and {places[1]}"
    raise InputError(
        f"document {first['doc_id']!r} appears twice for query {first['query_id']!r} "
        f"in the run{where}; a run lists each document at most once per query"
    )


def _evaluate_partition(part: pd.DataFrame, qrels: pd.DataFrame, names, relevance_level: float,
                        number: int):
    """In-memory evaluation of one partition: ``(its number of queries, the values of its
    judged queries or None)``.

    ``qrels`` is sorted by query id, so the judgments of the partition's
    queries are found by binary search.
    """
    if "query_id" not in part.columns:
        part = part.reset_index()
    if part.empty:
        return 0, None
    for column in ("query_id", "doc_id"):  # a partition of unjudged queries is skipped: check first
        missing = part[column].isna().to_numpy()
        if missing.any():
            raise InputError(f"run {column} is missing on row {int(np.flatnonzero(missing)[0])} "
                             f"of partition {number} of the run (every id must be a string "
                             "or an integer)")
    ids = np.sort(pd.unique(part["query_id"]).astype(str).astype(object))
    judged = qrels["query_id"].to_numpy()
    lo = np.searchsorted(judged, ids, side="left")
    hi = np.searchsorted(judged, ids, side="right")
    keep = hi > lo
    if not keep.any():
        return len(ids), None
    lo, sizes = lo[keep], (hi - lo)[keep]
    rows = np.arange(sizes.sum()) + np.repeat(lo - (np.cumsum(sizes) - sizes), sizes)
    try:
        return len(ids), _evaluate(qrels.iloc[rows], part, names,
                                   relevance_level=relevance_level, missing="skip")
    except InputError as exc:
        # A duplicate among the evaluated queries: name its file and lines when known.
        _duplicate_error(part[part["query_id"].astype(str).isin(ids[keep])])
        raise InputError(f"{exc} (in partition {number} of the run, grouped by query_id)") from None


def evaluate_dask(qrels, run, measures, *, relevance_level: float = 1,
                  missing: str = "zero") -> pd.DataFrame:
    """Evaluate a Dask DataFrame run: the values :func:`reteval.evaluate` gives in memory.

    :func:`reteval.evaluate` calls this function when it is given a Dask
    DataFrame; call it directly or through ``evaluate``, the result is the
    same. The computation runs on the current Dask scheduler: the
    ``distributed.Client`` created last, if any (see :func:`dask_client`).

    Parameters
    ----------
    qrels : path, DataFrame, dict or Dask DataFrame
        Relevance judgments, as :func:`reteval.io.as_qrels` takes; a Dask
        DataFrame is computed (judgments are assumed to fit in memory).
    run : dask.dataframe.DataFrame
        Columns ``query_id``, ``doc_id``, ``score``, partitioned in any way;
        ``query_id`` may instead be the index. A frame indexed by
        ``query_id`` with known divisions is used as it is; any other is
        shuffled on ``query_id`` first. A pandas DataFrame (or any other
        in-memory run) is evaluated in memory.
    measures : str or sequence of str
    relevance_level : int or float, default 1
    missing : {"zero", "skip", "error"}, default "zero"
        As for :func:`reteval.evaluate`, with the same warning
        (:class:`reteval.evaluation.MissingQueriesWarning`) and error.

    Returns
    -------
    pandas.DataFrame
        Exactly what :func:`reteval.evaluate` returns for the same data held
        in memory: index ``query_id`` (sorted), one float64 column per
        measure.

    Raises
    ------
    InputError
        As :func:`reteval.evaluate`; also when a query's rows lie in two
        partitions of a frame declared grouped by its divisions, and when a
        document appears twice for a query anywhere in the run.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> run = pd.DataFrame({"query_id": ["q1", "q1", "q1", "q2", "q2"],
    ...                     "doc_id": ["d1", "d3", "d2", "d5", "d4"],
    ...                     "score": [0.9, 0.8, 0.7, 0.9, 0.5]})
    >>> qrels = {"q1": {"d1": 2, "d2": 1, "d3": 0}, "q2": {"d4": 1}}
    >>> evaluate_dask(qrels, dd.from_pandas(run, npartitions=2), ["P@2", "RR", "AP"])
              P@2   RR        AP
    query_id
    q1        0.5  1.0  0.833333
    q2        0.5  0.5  0.500000
    """
    if not isinstance(measures, str) and hasattr(measures, "__iter__"):
        measures = list(measures)
    # the same checks as in memory; unknown measures fail here, before any work is sent out.
    # The partitions are given the measures parsed here, {label: Measure}.
    names = dict(check_arguments(measures, relevance_level, missing))
    relevance_level = relevance_level_value(relevance_level)
    if is_dask_collection(qrels):
        qrels = qrels.compute()
    qrels = as_qrels(qrels)
    if not is_dask_collection(run):
        return _evaluate(qrels, run, names, relevance_level=relevance_level, missing=missing)
    dask, _ = import_dask()

    grouped = _by_query(run)
    qrels = qrels.sort_values("query_id", kind="stable")
    shared = share(dask, qrels)
    task = dask.delayed(_evaluate_partition, pure=True)
    parts = [task(part, shared, names, relevance_level, number)
             for number, part in enumerate(grouped.to_delayed())]
    counted = compute(dask, parts, "evaluating partitions")
    results = [values for _, values in counted if values is not None]

    per_query = pd.concat(results) if results else None
    if per_query is not None and per_query.index.has_duplicates:
        split = per_query.index[per_query.index.duplicated()].unique()
        raise InputError(
            f"{len(split)} queries have rows in more than one partition of the run, e.g. "
            f"{split[0]!r}; a run indexed by query_id must hold each query in one partition "
            "(its divisions say so); call evaluate on run.reset_index() to shuffle instead"
        )
    judged = set(qrels["query_id"].unique())
    retrieved = set() if per_query is None else set(per_query.index)
    absent = judged - retrieved
    check_missing(absent, missing, judged, sum(n for n, _ in counted))
    if absent and missing == "zero":
        # The in-memory values of empty rankings, computed by the in-memory code itself.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MissingQueriesWarning)
            zeros = _evaluate(qrels[qrels["query_id"].isin(absent)], _empty_run(), names,
                             relevance_level=relevance_level, missing="zero")
        results.append(zeros)
    if not results:
        with warnings.catch_warnings():  # said above
            warnings.simplefilter("ignore", MissingQueriesWarning)
            return _evaluate(qrels, _empty_run(), names, relevance_level=relevance_level,
                            missing="skip")
    per_query = pd.concat(results)
    return per_query.iloc[query_order(per_query.index)]


# ---------------------------------------------------------------- reading runs


def _read_trec_part(path: str, number: int, files: list[str]) -> pd.DataFrame:
    frame = read_run(path)
    frame["source"] = pd.Categorical.from_codes(np.full(len(frame), number), categories=files)
    return frame


def read_run_dask(path: str | os.PathLike):
    """Open a run too large for memory as a Dask DataFrame.

    Parameters
    ----------
    path : str or path-like
        * a folder holding a parquet dataset (any partitioning, hive
          folders included), or one parquet file, with columns ``query_id``,
          ``doc_id``, ``score``;
        * a TREC run file, or a glob pattern such as ``"runs/part-*.trec"``
          matching several (quote it in a shell): one partition per file, read
          with :func:`reteval.io.read_run`. Files may cut through queries.

    Returns
    -------
    dask.dataframe.DataFrame
        Lazy; nothing is read until it is computed. From TREC files the
        index is the line number in its file (``line``) and a categorical
        column ``source`` names the file, so that errors can point at both.

    Raises
    ------
    InputError
        Nothing matches ``path``, or a parquet dataset lacks a run column.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.trec").write_text("q1 Q0 d1 1 2.5 sys\\n")
    >>> _ = (folder / "b.trec").write_text("q2 Q0 d7 1 1.0 sys\\n")
    >>> run = read_run_dask(folder / "*.trec")
    >>> run.npartitions
    2
    >>> run.compute()[["query_id", "doc_id", "score"]]
         query_id doc_id  score
    line
    1          q1     d1    2.5
    1          q2     d7    1.0
    """
    _, dd = import_dask()
    import dask

    text = os.fspath(path)
    if glob.has_magic(text):
        files = sorted(glob.glob(text))
        if not files:
            raise InputError("no file matches this pattern", path=text)
    elif Path(text).is_dir() or text.endswith(_PARQUET_SUFFIXES):
        if not Path(text).exists():
            raise InputError("no such file or folder", path=text)
        files = None
    else:
        if not Path(text).is_file():
            raise InputError("no such file", path=text)
        files = [text]
    if files is not None and all(f.endswith(_PARQUET_SUFFIXES) for f in files):
        text, files = files, None
    if files is None:
        try:
            run = dd.read_parquet(text)
        except (ValueError, OSError) as exc:  # no parquet files, not parquet, unreadable
            first = str(exc).strip().splitlines()[-1].replace("Original Message: ", "")
            raise InputError(f"cannot read as a parquet run: {first}",
                             path=os.fspath(path)) from None
        missing = [c for c in RUN_COLUMNS if c not in run.columns and c != run.index.name]
        if missing:
            raise InputError(f"a parquet run needs columns query_id, doc_id, score; missing "
                             f"{missing}, got {list(run.columns)}", path=os.fspath(path))
        return run
    meta = pd.DataFrame({
        "query_id": pd.Series([], dtype=object), "doc_id": pd.Series([], dtype=object),
        "score": pd.Series([], dtype=np.float64),
        "source": pd.Categorical.from_codes([], categories=files),
    }, index=pd.Index([], dtype=np.int64, name="line"))
    parts = [dask.delayed(_read_trec_part, pure=True)(f, i, files) for i, f in enumerate(files)]
    return dd.from_delayed(parts, meta=meta, verify_meta=False)


# ---------------------------------------------------------------- clusters


def evaluate_on_cluster(qrels, run, measures, *, scheduler: str | None = None,
                        relevance_level: float = 1, missing: str = "zero") -> pd.DataFrame:
    """Open ``run`` with :func:`read_run_dask` and evaluate it on a Dask cluster.

    What ``reteval evaluate --engine dask`` does: connect to ``scheduler``
    (or start a local cluster, closed afterwards), then
    :func:`evaluate_dask`. ``run`` may also be a Dask DataFrame.
    """
    with dask_client(scheduler):
        frame = run if is_dask_collection(run) else read_run_dask(run)
        return evaluate_dask(qrels, frame, measures, relevance_level=relevance_level,
                             missing=missing)


