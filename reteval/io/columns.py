"""Any accepted qrels or run as columns: the one form the evaluation reads.

Files are read straight into Arrow ids and numpy values (:mod:`reteval.io.runfile`,
:mod:`reteval.io.qrelsfile`), without pandas; tables, dicts and records go through
:func:`reteval.io.as_qrels` / :func:`reteval.io.as_run` once and are then taken as
columns. Documents listed twice in a run are looked for while ranking (on the hashed
keys the ranking needs anyway); twice-judged documents are refused here.
"""

from __future__ import annotations

import os

import numpy as np

from reteval.io.grades import grade_array
from reteval.io.qrelsfile import QrelsColumns, read_qrels_columns
from reteval.io.runfile import RunColumns, read_run_columns

__all__ = ["as_qrels_columns", "as_run_columns", "id_column"]


def id_column(column):
    """A pandas column of string ids as one contiguous Arrow array (large_string).

    Examples
    --------
    >>> import pandas as pd
    >>> id_column(pd.Series(["q1", "q2"])).to_pylist()
    ['q1', 'q2']
    """
    import pyarrow as pa

    array = pa.array(column, type=pa.large_string(), from_pandas=True)
    return array.combine_chunks() if isinstance(array, pa.ChunkedArray) else array


def _is_path(value) -> bool:
    return isinstance(value, (str, os.PathLike))


def as_qrels_columns(qrels) -> QrelsColumns:
    """Judgments in any form :func:`reteval.io.as_qrels` takes, as :class:`QrelsColumns`.

    Examples
    --------
    >>> as_qrels_columns({"q1": {"d1": 1}}).relevance.tolist()
    [1]
    """
    if _is_path(qrels):
        return read_qrels_columns(qrels)
    from reteval.io.frames import as_qrels

    frame = as_qrels(qrels)
    return QrelsColumns(id_column(frame["query_id"]), id_column(frame["doc_id"]),
                        grade_array(frame["relevance"].to_numpy()))


def as_run_columns(run) -> RunColumns:
    """A run in any form :func:`reteval.io.as_run` takes, as :class:`RunColumns` (which is
    returned as it is).

    Duplicates are not looked for here (the ranking finds them). ``lines`` are
    the rows' labels: line numbers when ``source`` names the file they were read
    from, the given table's index otherwise.

    Examples
    --------
    >>> run = as_run_columns({"q1": {"d1": 0.5, "d2": 0.25}})
    >>> run.doc_ids.to_pylist(), run.scores.tolist()
    (['d1', 'd2'], [0.5, 0.25])
    """
    if isinstance(run, RunColumns):
        return run
    if _is_path(run):
        return read_run_columns(run)
    import pandas as pd

    from reteval.io.frames import as_run

    frame = as_run(run, check_duplicates=False)
    source = frame.attrs.get("source") if frame.index.name == "line" else None
    labels = run.index if source is None and isinstance(run, pd.DataFrame) else frame.index
    return RunColumns(id_column(frame["query_id"]), id_column(frame["doc_id"]),
                      frame["score"].to_numpy(dtype=np.float64), labels, source)
