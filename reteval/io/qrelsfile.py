"""Reading a qrels file into columns, without pandas: the twin of :mod:`reteval.io.runfile`."""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from reteval.io.arrow import strings
from reteval.io.duplicates import check_unique_ids
from reteval.io.grades import grade_array
from reteval.io.lines import parse_qrels_lines
from reteval.io.textfile import as_path, decode, read_bytes

__all__ = ["QrelsColumns", "read_qrels_columns"]


@dataclass(frozen=True)
class QrelsColumns:
    """Judgments as columns.

    Attributes
    ----------
    query_ids, doc_ids : pyarrow.LargeStringArray
        The ids of each judgment, in input order.
    relevance : numpy.ndarray
        The grades: int64 when all are integers, else float64 (negative: judged "in
        the pool, not assessed").
    """

    query_ids: object
    doc_ids: object
    relevance: np.ndarray


def read_qrels_columns(path: str | os.PathLike) -> QrelsColumns:
    """Read a TREC qrels file (``qid iter docno rel``) into :class:`QrelsColumns`.

    Errors are those of :func:`reteval.io.read_qrels`: malformed lines, and a
    document judged twice for one query (both lines named).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "qrels.txt"
    >>> _ = p.write_text("q1 0 d1 2\\nq1 0 d2 0\\n")
    >>> qrels = read_qrels_columns(p)
    >>> qrels.doc_ids.to_pylist(), qrels.relevance.tolist()
    (['d1', 'd2'], [2, 0])
    """
    path = as_path(path, "qrels path")
    query_ids, doc_ids, rels, lines = parse_qrels_lines(decode(read_bytes(path), path), path)
    query_ids, doc_ids = strings(query_ids), strings(doc_ids)
    check_unique_ids(query_ids, doc_ids, "qrels", labels=lines, labels_are_lines=True,
                     source=str(path))
    return QrelsColumns(query_ids, doc_ids, grade_array(rels))
