"""A TREC run file read into columns: Arrow strings for ids, numpy scores, line numbers.

Runs of 1 MiB or more of a simple shape (one space or one tab between fields, no comments
or blank lines) are parsed by Arrow's CSV reader on several threads: from a memory map of
the file from 16 MiB (one block of the reader) on, from its bytes in memory below that or
once decompressed; anything else (small or irregular files, and every error) goes through
the careful line reader (:mod:`reteval.io.lines`), which names the line of each problem.
No pandas is loaded: :func:`reteval.io.read_run` makes a table of the columns, and
``reteval evaluate`` ranks them as they are.
"""

from __future__ import annotations

import mmap
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from reteval.io.arrow import from_numpy, strings, to_numpy
from reteval.io.lines import parse_run_lines
from reteval.io.textfile import GZIP_MAGIC, as_path, decode, read_bytes

__all__ = ["RunColumns", "read_run_columns"]

_COMMENT_LINE = re.compile(rb"(?:\A|[\r\n])[ \t\r\f\v]*#")  # after LF, CR LF or a lone CR
_FAST_MIN_BYTES = 1 << 20  # smaller runs are read line by line: start-up would cost more
_BLOCK_BYTES = 1 << 24  # Arrow parses blocks of this size on its threads, one chunk each
# Runs smaller than one block are read into memory and parsed from there, their memory kept
# in Arrow's pool for the next one (mapping the file, and giving memory back to the system
# after every run, would cost more than the parse: a few ms each for a run of 50,000 lines).
_MAPPED_MIN_BYTES = _BLOCK_BYTES


# The fields of RunColumns before ``source``, as the readers return them.
_Columns = tuple[Any, Any, np.ndarray, Any]


@dataclass(frozen=True)
class RunColumns:
    """A run file's rows as columns.

    Attributes
    ----------
    query_ids : pyarrow.DictionaryArray
        The query id of each row, in file order, as int32 codes into the
        distinct ids (``query_ids.dictionary``: each id once, every one used).
    doc_ids : pyarrow.LargeStringArray or pyarrow.ChunkedArray
        The doc id of each row, in file order (chunked as Arrow parsed them).
    scores : numpy.ndarray
        float64, finite.
    lines : sequence of int
        The line each row came from (a ``range`` when every line is a row).
    source : str
        The file's path, for messages.
    """

    query_ids: Any
    doc_ids: Any
    scores: np.ndarray
    lines: Any
    source: str | None


def read_run_columns(path: str | os.PathLike) -> RunColumns:
    """Read a TREC run file (``qid Q0 docno rank score tag``) into :class:`RunColumns`.

    Errors are those of :func:`reteval.io.read_run`, except that documents
    listed twice are not looked for here.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.txt"
    >>> _ = p.write_text("q1 Q0 d1 1 2.5 sys\\n# a comment\\nq1 Q0 d2 2 1 sys\\n")
    >>> run = read_run_columns(p)
    >>> run.doc_ids.to_pylist(), run.scores.tolist(), list(map(int, run.lines))
    (['d1', 'd2'], [2.5, 1.0], [1, 3])
    """
    path = as_path(path, "run path")
    columns = _read_mapped(path)
    if columns is None:
        data = read_bytes(path)
        columns = _parse_fast(data)
        if columns is None:
            query_ids, doc_ids, scores, lines = parse_run_lines(decode(data, path), path)
            columns = (strings(query_ids).dictionary_encode(), strings(doc_ids),
                       np.asarray(scores, dtype=np.float64), np.asarray(lines, dtype=np.int64))
    query_column, doc_column, score_column, line_column = columns
    return RunColumns(query_column, doc_column, score_column, line_column, source=str(path))


def _parse_fast(data, source=None) -> _Columns | None:
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
    import pyarrow as pa
    import pyarrow.csv as pacsv

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
    # Every field is read (the unused ones as bytes, a copy of a few bytes each), so that an
    # empty field (two separators in a row, a separator at the start or end of a line) is
    # seen here and sends the file to the careful reader, which splits on runs of white
    # space as trec_eval does: the same line means the same thing whatever the file's size.
    if isinstance(data, mmap.mmap) and hasattr(mmap, "MADV_DONTNEED"):
        # The checks above paged the whole file into this process; Arrow reads it again in
        # blocks: drop these pages so they do not count twice in its memory.
        data.madvise(mmap.MADV_DONTNEED)
    try:
        table = pacsv.read_csv(
            source if source is not None else pa.BufferReader(pa.py_buffer(data)),
            read_options=pacsv.ReadOptions(column_names=names, block_size=_BLOCK_BYTES),
            # A blank line is an error here (so row i is line i + 1): the careful reader skips it.
            parse_options=pacsv.ParseOptions(
                delimiter=delimiter, quote_char=False, escape_char=False,
                newlines_in_values=False, ignore_empty_lines=False,
            ),
            convert_options=pacsv.ConvertOptions(
                # Query ids are coded by the parser threads: a run has few distinct ones.
                column_types={"qid": pa.dictionary(pa.int32(), pa.large_string()),
                              "docno": pa.large_string(), "score": pa.float64(),
                              "iter": pa.binary(), "rank": pa.binary(), "tag": pa.binary()},
                null_values=[],  # an empty score is not a number: Arrow refuses it
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    if any(_has_empty(table.column(name)) for name in ("iter", "docno", "rank", "tag")):
        return None  # an empty field
    table = table.select(["qid", "docno", "score"])
    scores = to_numpy(table.column("score").combine_chunks())
    if table.num_rows == 0 or not np.isfinite(scores).all():
        return None
    rows = table.num_rows
    table = table.unify_dictionaries()  # one dictionary for all blocks
    chunks = table.column("qid").chunks
    if "" in chunks[0].dictionary.to_pylist():
        return None  # an empty query id: a separator at the start of a line
    qids = pa.DictionaryArray.from_arrays(
        from_numpy(np.concatenate([to_numpy(chunk.indices) for chunk in chunks])),
        chunks[0].dictionary)
    docs = table.column("docno")
    if docs.num_chunks == 1:
        docs = docs.chunk(0)
    del table, chunks
    if len(data) >= _MAPPED_MIN_BYTES:
        # The parser's blocks are freed now; give their memory back rather than keep it pooled.
        pa.default_memory_pool().release_unused()
    return qids, docs, scores, range(1, rows + 1)


def _has_empty(column) -> bool:
    """Whether a chunked Arrow binary or string column holds an empty value (two equal offsets)."""
    for chunk in column.chunks:
        width = np.int64 if chunk.type in (_large_types()) else np.int32
        offsets = np.frombuffer(chunk.buffers()[1], dtype=width)[
            chunk.offset: chunk.offset + len(chunk) + 1]
        if (offsets[1:] == offsets[:-1]).any():
            return True
    return False


def _large_types():
    import pyarrow as pa

    return (pa.large_string(), pa.large_binary())


def _read_mapped(path: Path) -> _Columns | None:
    """Parse a large plain run file (one Arrow block or more), without a copy of it in Python.

    The shape checks read a Python ``mmap`` that never leaves this function;
    Arrow then reads the file itself, in blocks.
    Returns None for anything the other readers handle: missing, unreadable,
    empty, compressed or irregular files.
    """
    try:
        # Only a regular file is opened here: a named pipe opened twice would lose its writer.
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as handle, mmap.mmap(
            handle.fileno(), 0, access=mmap.ACCESS_READ
        ) as mapped:
            if mapped[:2] == GZIP_MAGIC or len(mapped) < _MAPPED_MIN_BYTES:
                return None
            return _parse_fast(mapped, str(path))
    except (OSError, ValueError):  # missing, unreadable or empty: the careful path says which
        return None
