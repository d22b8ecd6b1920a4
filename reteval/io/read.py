"""Reading TREC and BEIR qrels and TREC runs: a fast Arrow path and a careful line reader.

Large plain runs of a simple shape are parsed by Arrow on several threads; anything else
(small, compressed or irregular files, and every error) goes through the line-by-line
reader, which names the line of each problem.
"""

from __future__ import annotations

import mmap
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd

from reteval.errors import InputError
from reteval.io.duplicates import check_unique
from reteval.io.lines import parse_qrels_lines, parse_run_lines
from reteval.io.tables import id_array
from reteval.textfile import (
    GZIP_MAGIC,
    as_path,
    decode,
    read_bytes,
)

__all__ = ["DUPLICATE_POLICIES", "read_qrels", "read_run"]

_COMMENT_LINE = re.compile(rb"(?:\A|[\r\n])[ \t\r\f\v]*#")  # after LF, CR LF or a lone CR
_FAST_MIN_BYTES = 1 << 20  # smaller runs are read line by line: start-up would cost more


def _run_table(query_ids, doc_ids, scores, lines) -> pd.DataFrame:
    """A run table indexed by line number; ``lines=None`` means lines 1..n."""
    frame = pd.DataFrame(
        {
            "query_id": id_array(query_ids),
            "doc_id": id_array(doc_ids),
            "score": np.asarray(scores, dtype=np.float64),
        },
        copy=False,
    )
    if lines is None:
        frame.index = pd.RangeIndex(1, len(frame) + 1, name="line")
    else:
        frame.index = pd.Index(np.asarray(lines, dtype=np.int64), name="line")
    return frame


def _parse_run_text(data: bytes, path: Path) -> pd.DataFrame:
    """Careful line-by-line reader: exact line numbers for every error."""
    return _run_table(*parse_run_lines(decode(data, path), path))


def _parse_run_fast(data, source=None) -> pd.DataFrame | None:
    """Multi-threaded reader for the common case: one space or one tab between fields.

    ``data`` is bytes or a read-only :class:`mmap.mmap` of the file, used here
    only to check the shape. Arrow parses ``source`` when given (the path of
    the same file), else ``data``, which must then be bytes.
    Arrow's reader threads may hold their input after the call returns, so a
    Python ``mmap`` is never handed to Arrow: closing it while a buffer is
    exported raises ``BufferError``. Returns None when the file is not of that
    simple shape, or holds anything the careful reader must explain
    (comments, blank lines, bad fields, non-finite scores).
    """
    try:
        import pyarrow as pa
        import pyarrow.csv as pacsv
    except ImportError:  # pragma: no cover - pyarrow is a dependency
        return None
    if len(data) < _FAST_MIN_BYTES or (data.find(b"#") >= 0 and _COMMENT_LINE.search(data)):
        return None
    head = data[: data.find(b"\n")]
    delimiter = "\t" if b"\t" in head else " "
    # Any other white space inside the lines (a tab in a space-separated file, vertical tabs,
    # form feeds) is a shape for the careful reader, which splits on all white space.
    other = (b" " if delimiter == "\t" else b"\t", b"\x0b", b"\x0c")
    if any(data.find(ch) >= 0 for ch in other):
        return None
    names = ["qid", "iter", "docno", "rank", "score", "tag"]
    if isinstance(data, mmap.mmap) and hasattr(mmap, "MADV_DONTNEED"):
        # The checks above paged the whole file into this process; Arrow reads it again in
        # blocks: drop these pages so they do not count twice in its memory.
        data.madvise(mmap.MADV_DONTNEED)
    try:
        table = pacsv.read_csv(
            source if source is not None else pa.BufferReader(pa.py_buffer(data)),
            read_options=pacsv.ReadOptions(column_names=names, block_size=1 << 24),
            # A blank line is an error here (so row i is line i + 1): the careful reader skips it.
            parse_options=pacsv.ParseOptions(
                delimiter=delimiter, quote_char=False, escape_char=False,
                newlines_in_values=False, ignore_empty_lines=False,
            ),
            convert_options=pacsv.ConvertOptions(
                include_columns=["qid", "docno", "score"],
                column_types={"qid": pa.large_string(), "docno": pa.large_string(),
                              "score": pa.float64()},
                null_values=[],
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    scores = table.column("score").to_numpy()
    if table.num_rows == 0 or not np.isfinite(scores).all():
        return None
    qids = table.column("qid").combine_chunks()
    docs = table.column("docno").combine_chunks()
    return _run_table(qids, docs, scores, None)


def _read_run_mapped(path: Path) -> pd.DataFrame | None:
    """Parse a large plain run file, without a copy of it in Python.

    The shape checks read a Python ``mmap`` that never leaves this function;
    Arrow then reads the file itself, in blocks.
    Returns None for anything the other readers handle: missing, unreadable,
    empty, compressed or irregular files.
    """
    try:
        with open(path, "rb") as handle, mmap.mmap(
            handle.fileno(), 0, access=mmap.ACCESS_READ
        ) as mapped:
            if mapped[:2] == GZIP_MAGIC or len(mapped) < _FAST_MIN_BYTES:
                return None
            return _parse_run_fast(mapped, str(path))
    except (OSError, ValueError):  # missing, unreadable or empty: the careful path says which
        return None


def read_run(path: str | os.PathLike, *, check_duplicates: bool = True) -> pd.DataFrame:
    """Read a TREC run file (``qid Q0 docno rank score tag``).

    Parameters
    ----------
    path : str or path-like
        The file; ``.gz`` compressed files are read too.
    check_duplicates : bool, default True
        Check that no document is listed twice for a query. :func:`reteval.evaluate`
        turns this off and makes the same check on integer keys while ranking.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id``, ``score`` (float64), indexed by the
        line number each row came from (index name ``line``).

    Raises
    ------
    InputError
        Missing or empty file, a line with fewer than six fields, a score that
        is not a finite number, or a document listed twice for one query; the
        message gives the path and line number.

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
    """
    path = as_path(path, "run path")
    frame = _read_run_mapped(path)
    if frame is None:
        data = read_bytes(path)
        frame = _parse_run_fast(data)
        if frame is None:
            frame = _parse_run_text(data, path)
    frame.attrs["source"] = str(path)
    if check_duplicates:
        check_unique(frame, "run")
    return frame


#: What :func:`read_qrels` does with a document judged twice for one query.
DUPLICATE_POLICIES = ("error", "last", "max")


def read_qrels(path: str | os.PathLike, *, layout: str = "auto",
               duplicates: str = "error") -> pd.DataFrame:
    """Read relevance judgments: TREC qrels (``qid iter docno rel``) or BEIR ``.tsv``.

    Fields are separated by ASCII white space (tabs or spaces), as trec_eval
    reads them. Negative relevance values are kept: reteval treats them as
    trec_eval does (in the judged pool but not judged, so neither relevant nor
    non-relevant).

    Parameters
    ----------
    path : str or path-like
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
        ``frame.attrs["duplicates"]``.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id``, ``relevance`` (int64), indexed by
        line number.

    Raises
    ------
    InputError
        Missing or empty file, wrong number of fields, a relevance that is not
        an integer, or (with ``duplicates="error"``) a document judged twice
        for one query.

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
            "relevance": np.asarray(rels, dtype=np.int64),
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
        frame = frame.assign(relevance=grades.astype(np.int64)).loc[~repeated]
    frame.attrs["duplicates"] = n_pairs
    return frame
