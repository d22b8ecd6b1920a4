"""Reading TREC and BEIR qrels files and TREC run files into tables.

Runs are read into columns by :mod:`reteval.io.runfile` (Arrow's CSV reader for large plain
files, the careful line reader otherwise), qrels by the careful line reader
(:mod:`reteval.io.lines`); this module makes pandas tables of them. It reads files only:
:func:`reteval.io.read_run` and :func:`reteval.io.read_qrels` (:mod:`reteval.io.named`)
read a file with it, or a frame with its own column names.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from reteval.errors import InputError
from reteval.io.duplicates import check_unique
from reteval.io.grades import grade_array
from reteval.io.lines import parse_qrels_lines
from reteval.io.runfile import read_run_columns
from reteval.io.tables import id_array
from reteval.io.textfile import (
    as_path,
    decode,
    read_bytes,
)

__all__ = ["DUPLICATE_POLICIES", "read_qrels_file", "read_run_file"]



def _run_table(query_ids, doc_ids, scores, lines) -> pd.DataFrame:
    """A run table indexed by line number."""
    frame = pd.DataFrame(
        {
            "query_id": id_array(query_ids),
            "doc_id": id_array(doc_ids),
            "score": np.asarray(scores, dtype=np.float64),
        },
        copy=False,
    )
    if isinstance(lines, range):
        frame.index = pd.RangeIndex(lines.start, lines.stop, name="line")
    else:
        frame.index = pd.Index(np.asarray(lines, dtype=np.int64), name="line")
    return frame


def read_run_file(path: str | os.PathLike, *,
                  check_duplicates: bool = True) -> pd.DataFrame:
    """Read a TREC run file (``qid Q0 docno rank score tag``) into a run table.

    :func:`reteval.io.read_run` reads a file with it (and a frame with its own columns).
    ``.gz`` files are read too. Returns the columns ``query_id``, ``doc_id``, ``score``
    (float64), indexed by the line each row came from (index name ``line``); raises
    :class:`~reteval.errors.InputError` naming the path and line of a bad line, and,
    with ``check_duplicates``, of a document listed twice for a query.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.txt.gz"
    >>> import gzip; _ = p.write_bytes(gzip.compress(b"7 Q0 d9 1 0.5 bm25\\n"))
    >>> read_run_file(p).to_dict("list")
    {'query_id': ['7'], 'doc_id': ['d9'], 'score': [0.5]}
    """
    run = read_run_columns(path)
    query_ids = run.query_ids.dictionary.take(run.query_ids.indices)
    frame = _run_table(query_ids, run.doc_ids, run.scores, run.lines)
    frame.attrs["source"] = run.source
    if check_duplicates:
        check_unique(frame, "run")
    return frame


#: What :func:`reteval.io.read_qrels` does with a document judged twice for one query.
DUPLICATE_POLICIES = ("error", "last", "max")


def read_qrels_file(path: str | os.PathLike, *, layout: str = "auto",
                    duplicates: str = "error") -> pd.DataFrame:
    """Read a TREC (``qid iter docno rel``) or BEIR (``.tsv``) qrels file into a qrels table.

    :func:`reteval.io.read_qrels` reads a file with it (and a frame with its own columns),
    and documents ``layout`` and ``duplicates``. Returns the columns ``query_id``,
    ``doc_id``, ``relevance``, indexed by line number.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "qrels"
    >>> _ = p.write_text("q1 0 d1 2\\nq1 0 d2 -1\\n")
    >>> read_qrels_file(p, layout="trec")["relevance"].tolist()
    [2, -1]
    """
    if layout not in ("auto", "trec", "beir"):
        raise InputError(f"layout must be 'auto', 'trec' or 'beir'; got {layout!r}")
    if duplicates not in DUPLICATE_POLICIES:
        raise InputError(f"duplicates must be one of {', '.join(map(repr, DUPLICATE_POLICIES))}; "
                         f"got {duplicates!r}")
    path = as_path(path, "qrels path")
    qids, docs, rels, lines = parse_qrels_lines(decode(read_bytes(path), path), path, layout)
    frame = pd.DataFrame(
        {
            "query_id": id_array(qids),
            "doc_id": id_array(docs),
            "relevance": grade_array(rels),
        }
    )
    frame.index = pd.Index(np.asarray(lines, dtype=np.int64), name="line")
    frame.attrs["source"] = str(path)
    if duplicates == "error":
        check_unique(frame, "qrels")
        frame.attrs["duplicates"] = 0
        return frame
    return _merge_duplicates(frame, duplicates)


def _merge_duplicates(frame: pd.DataFrame, policy: str) -> pd.DataFrame:
    """One row per (query, document): the ``"last"`` or ``"max"`` grade, at the first row."""
    keys = ["query_id", "doc_id"]
    repeated = frame.duplicated(keys, keep="first")
    n_pairs = int(frame.loc[repeated, keys].drop_duplicates().shape[0])
    if n_pairs:
        grades = frame.groupby(keys, sort=False)["relevance"].transform(policy)
        frame = frame.assign(relevance=grade_array(grades.to_numpy())).loc[~repeated]
    frame.attrs["duplicates"] = n_pairs
    return frame
