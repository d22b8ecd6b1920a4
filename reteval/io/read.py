"""Reading TREC and BEIR qrels and TREC runs into tables.

Runs are read into columns by :mod:`reteval.io.runfile` (Arrow's CSV reader for large plain
files, the careful line reader otherwise), qrels by the careful line reader
(:mod:`reteval.io.lines`); this module makes pandas tables of them.
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

__all__ = ["DUPLICATE_POLICIES", "read_qrels", "read_run"]



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


def _frame_only(path, what: str, **options) -> None:
    given = [f"{name}={value!r}" for name, value in options.items() if value is not None]
    if given:
        raise InputError(f"{', '.join(given)}: column names apply to a DataFrame, not to a "
                         f"{what} file (its fields are fixed); got {path!r:.80}")


def read_run(path: str | os.PathLike | pd.DataFrame, *, check_duplicates: bool = True,
             query_id: str | None = None, doc_id: str | None = None,
             score: str | None = None, rank: str | None = None) -> pd.DataFrame:
    """Read a TREC run file (``qid Q0 docno rank score tag``), or a frame with its own columns.

    Parameters
    ----------
    path : str, path-like or pandas.DataFrame
        The file; ``.gz`` compressed files are read too. Or a DataFrame, one row per
        retrieved document, whose columns are named by the four options below
        (:func:`reteval.io.named.run_from_frame`).
    check_duplicates : bool, default True
        Check that no document is listed twice for a query. :func:`reteval.evaluate`
        turns this off and makes the same check on integer keys while ranking.
    query_id, doc_id : str, optional
        A frame's columns of query and document ids (default ``query_id``,
        ``doc_id``). Ids are kept as given.
    score : str, optional
        A frame's column of scores (default ``score``), higher is better.
    rank : str, optional
        Instead of `score`, a frame's column of ranks (1 or 0 = top; integers, each
        once per query): the run is read in rank order, its scores set to
        ``largest rank + 1 - rank`` so that trec_eval's order (score descending)
        reproduces the ranks.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id``, ``score`` (float64), indexed by the
        line number each row came from (index name ``line``); from a frame,
        indexed 0..n-1.

    Raises
    ------
    InputError
        Missing or empty file, a line with fewer than six fields, a score that
        is not a finite number, or a document listed twice for one query; the
        message gives the path and line number. For a frame: a missing column,
        a bad id, score or rank, both `score` and `rank`; the message names the
        column and the row. Column options given with a file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.txt"
    >>> _ = p.write_text("q1 Q0 d1 1 2.5 sys\\nq1 Q0 d2 2 1.0 sys\\n")
    >>> read_run(p)
         query_id doc_id  score
    line
    1          q1     d1    2.5
    2          q1     d2    1.0

    A retriever's frame, given by positions only:

    >>> chunks = pd.DataFrame({"question_id": ["q1", "q1"], "chunk_id": ["c4", "c1"],
    ...                        "position": [2, 1]})
    >>> read_run(chunks, query_id="question_id", doc_id="chunk_id", rank="position")
      query_id doc_id  score
    0       q1     c4    1.0
    1       q1     c1    2.0
    """
    if isinstance(path, pd.DataFrame):
        from reteval.io.named import run_from_frame

        return run_from_frame(path, query_id=query_id, doc_id=doc_id, score=score, rank=rank,
                              check_duplicates=check_duplicates)
    _frame_only(path, "run", query_id=query_id, doc_id=doc_id, score=score, rank=rank)
    run = read_run_columns(path)
    query_ids = run.query_ids.dictionary.take(run.query_ids.indices)
    frame = _run_table(query_ids, run.doc_ids, run.scores, run.lines)
    frame.attrs["source"] = run.source
    if check_duplicates:
        check_unique(frame, "run")
    return frame


#: What :func:`read_qrels` does with a document judged twice for one query.
DUPLICATE_POLICIES = ("error", "last", "max")


def read_qrels(path: str | os.PathLike | pd.DataFrame, *, layout: str = "auto",
               duplicates: str = "error", query_id: str | None = None,
               doc_id: str | None = None, relevance: str | None = None) -> pd.DataFrame:
    """Read relevance judgments: TREC qrels (``qid iter docno rel``), BEIR ``.tsv``, or a frame.

    Fields are separated by ASCII white space (tabs or spaces), as trec_eval
    reads them. Negative relevance values are kept: reteval treats them as
    trec_eval does (in the judged pool but not judged, so neither relevant nor
    non-relevant).

    Parameters
    ----------
    path : str, path-like or pandas.DataFrame
        The file, or a DataFrame with one row per judgment whose columns are
        named by the three options below
        (:func:`reteval.io.named.qrels_from_frame`); a frame's grades are
        checked as :func:`reteval.io.as_qrels` checks them.
    layout : {"auto", "trec", "beir"}, default "auto"
        ``"trec"``: four fields per line. ``"beir"``: three fields
        (``query-id corpus-id score``); the first line is a header when its
        score field holds no digit. ``"auto"``: BEIR when the first line is the
        header ``query-id corpus-id score``, TREC otherwise.
    duplicates : {"error", "last", "max"}, default "error"
        A document judged twice for one query: ``"error"`` raises an
        :class:`InputError` naming both lines; ``"last"`` keeps the grade of
        the last line, ``"max"`` the highest grade, each at the place (and
        line number) of the first judgment. The number of pairs merged is in
        ``frame.attrs["duplicates"]``. A frame allows only ``"error"``.
    query_id, doc_id, relevance : str, optional
        A frame's columns (default ``query_id``, ``doc_id``, ``relevance``).
        Ids are kept as given.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id``, ``relevance`` (int64, or float64 when a
        grade is fractional), indexed by
        line number; from a frame, indexed 0..n-1.

    Raises
    ------
    InputError
        Missing or empty file, wrong number of fields, a relevance that is not
        a finite number, or (with ``duplicates="error"``) a document judged twice
        for one query. For a frame: a missing column, a bad id or grade (the
        message names the column and the row), or file options.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "qrels.tsv"
    >>> _ = p.write_text("query-id\\tcorpus-id\\tscore\\nq1\\td1\\t2\\nq1\\td1\\t1\\n")
    >>> read_qrels(p, duplicates="last")
         query_id doc_id  relevance
    line
    2          q1     d1          1
    >>> read_qrels(p)
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: ...: document 'd1' appears twice for query 'q1' in the qrels, \
on lines 2 and 3
    """
    if isinstance(path, pd.DataFrame):
        if layout != "auto" or duplicates != "error":
            raise InputError(f"layout and duplicates apply to a qrels file, not to a DataFrame; "
                             f"got layout={layout!r}, duplicates={duplicates!r}")
        from reteval.io.named import qrels_from_frame

        return qrels_from_frame(path, query_id=query_id, doc_id=doc_id, relevance=relevance)
    _frame_only(path, "qrels", query_id=query_id, doc_id=doc_id, relevance=relevance)
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
