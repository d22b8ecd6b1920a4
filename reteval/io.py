"""Reading and writing qrels and runs, and turning any accepted input into tables.

Every input ends up as one of two pandas DataFrames:

* qrels: columns ``query_id`` (str), ``doc_id`` (str), ``relevance`` (int64);
* run: columns ``query_id`` (str), ``doc_id`` (str), ``score`` (float64).

File formats
------------
TREC qrels
    ``qid iter docno rel``, whitespace separated, exactly four fields.
BEIR qrels
    tab separated with the header ``query-id corpus-id score`` (``.tsv``).
TREC run
    ``qid Q0 docno rank score tag``, whitespace separated; fields after the
    sixth are ignored and the rank column is never used (as trec_eval does).

Lines whose first non-blank character is ``#`` are comments and blank lines are
skipped; a ``#`` anywhere else belongs to its field, so doc ids such as
``msmarco_doc_00#4`` are read whole (trec_eval 10). Files ending in ``.gz`` are
decompressed. Relevance must be an integer and a score a finite number.

Errors name the file, the line and the offending text, and a document listed
twice for one query (in a run or in qrels) is an error naming both lines, as
in trec_eval.
"""

from __future__ import annotations

import gzip
import math
import mmap
import os
import re
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
from pandas.api.types import is_bool_dtype, is_integer_dtype, is_numeric_dtype

from reteval.errors import InputError
from reteval.textfile import (
    GZIP_MAGIC,
    INT64_MAX,
    INT64_MIN,
    as_path,
    decode,
    parse_decimal,
    parse_integer,
    read_bytes,
    split_lines,
)

__all__ = [
    "DUPLICATE_POLICIES",
    "QRELS_COLUMNS",
    "RUN_COLUMNS",
    "as_qrels",
    "as_run",
    "read_qrels",
    "read_run",
    "write_qrels",
    "write_run",
]

QRELS_COLUMNS = ("query_id", "doc_id", "relevance")
RUN_COLUMNS = ("query_id", "doc_id", "score")

_COMMENT_LINE = re.compile(rb"(?:\A|[\r\n])[ \t\r\f\v]*#")  # after LF, CR LF or a lone CR
_FIELD_SEPARATOR = re.compile(r"[ \t\x0b\x0c]+")  # ASCII white space, as trec_eval's isspace()
_BEIR_HEADER = ("query-id", "corpus-id", "score")
_FAST_MIN_BYTES = 1 << 20  # smaller runs are read line by line: start-up would cost more


# ---------------------------------------------------------------- reading files


def _content_lines(text: str):
    """Yield (line number, fields) for every line that is neither blank nor a comment."""
    for number, line in enumerate(split_lines(text), 1):
        fields = [field for field in _FIELD_SEPARATOR.split(line) if field]
        if fields and not fields[0].startswith("#"):
            yield number, fields, line


def _empty_error(path, what):
    return InputError(f"empty {what} file: no judgments or results found", path=path)


ID_DTYPE = pd.StringDtype("pyarrow")  # ids are Arrow strings: compact, and hashed in C++


def _ids(values) -> pd.api.extensions.ExtensionArray:
    try:
        return pd.array(values, dtype=ID_DTYPE)
    except UnicodeEncodeError as exc:  # a lone surrogate: not Unicode text
        raise InputError(f"an id is not valid Unicode text: {exc.object[exc.start:exc.end]!r} "
                         f"in {exc.object!r}") from None


def _run_table(query_ids, doc_ids, scores, lines) -> pd.DataFrame:
    """A run table indexed by line number; ``lines=None`` means lines 1..n."""
    frame = pd.DataFrame(
        {
            "query_id": _ids(query_ids),
            "doc_id": _ids(doc_ids),
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
    text = decode(data, path)
    qids, docs, scores, lines = [], [], [], []
    for number, fields, line in _content_lines(text):
        if len(fields) < 6:
            raise InputError(
                "expected 6 whitespace-separated fields 'qid Q0 docno rank score tag', "
                f"got {len(fields)}: {line.strip()!r}",
                path=path,
                line=number,
            )
        qids.append(fields[0])
        docs.append(fields[2])
        scores.append(parse_decimal(fields[4], what="score", path=path, line=number))
        lines.append(number)
    if not qids:
        raise _empty_error(path, "run")
    return _run_table(qids, docs, scores, lines)


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
    text = decode(read_bytes(path), path)
    qids, docs, rels, lines = [], [], [], []
    beir = None if layout == "auto" else layout == "beir"
    first = True
    for number, fields, line in _content_lines(text):
        if first:
            first = False
            header = tuple(f.lower() for f in fields) == _BEIR_HEADER
            if beir is None:
                beir = header
            if beir and (header or (len(fields) == 3
                                    and not any(c.isdigit() for c in fields[2]))):
                continue
        expected = 3 if beir else 4
        if len(fields) != expected:
            layout_text = "'query-id corpus-id score'" if beir else "'qid iter docno rel'"
            raise InputError(
                f"expected {expected} whitespace-separated fields {layout_text}, "
                f"got {len(fields)}: {line.strip()!r}",
                path=path,
                line=number,
            )
        qids.append(fields[0])
        docs.append(fields[-2])
        rels.append(parse_integer(fields[-1], what="relevance", path=path, line=number))
        lines.append(number)
    if not qids:
        raise _empty_error(path, "qrels")
    frame = pd.DataFrame(
        {
            "query_id": _ids(qids),
            "doc_id": _ids(docs),
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


# ---------------------------------------------------------------- writing files


def _atomic_write(path: Path, text: str) -> None:
    """Write beside ``path`` and rename: readers see the old file or the whole new one."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(tmp, "wt", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror or exc}", path=path) from None
    finally:
        tmp.unlink(missing_ok=True)


_UNWRITABLE = "[ \t\n\r\x0b\x0c]"  # ASCII white space and line breaks split a TREC field


def _check_writable(frame: pd.DataFrame, path, tag: str | None = None) -> None:
    """Refuse ids a TREC file cannot hold, so that what is written reads back the same.

    An id must be non-empty and free of white space and line breaks; a query id
    must not start with ``#`` (the line would be a comment) or a byte-order mark.
    """
    checks = [("query_id", frame["query_id"], True), ("doc_id", frame["doc_id"], False)]
    if tag is not None:
        checks.append(("tag", pd.Series([tag], dtype=ID_DTYPE), False))
    for name, column, first in checks:
        column = column.astype(ID_DTYPE)
        bad = (column.str.len() == 0) | column.str.contains(_UNWRITABLE, regex=True)
        if first:
            bad |= column.str.startswith("#") | column.str.startswith("\ufeff")
        bad = bad.to_numpy(dtype=bool, na_value=True)
        if bad.any():
            value = column.iloc[int(np.flatnonzero(bad)[0])]
            raise InputError(
                f"cannot write {name} {value!r} in a TREC file: ids must be non-empty, without "
                "white space or line breaks, and a query id must not start with '#'",
                path=path,
            )


def write_run(run, path: str | os.PathLike, *, tag: str = "reteval") -> None:
    """Write a run as a TREC run file, ranked as trec_eval ranks it.

    Raises
    ------
    InputError
        An id or the tag that the TREC format cannot hold: empty, with white
        space or a line break, or a query id starting with ``#``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.txt"
    >>> write_run({"q1": {"d1": 0.5, "d2": 0.9}}, p)
    >>> print(p.read_text(), end="")
    q1 Q0 d2 1 0.9 reteval
    q1 Q0 d1 2 0.5 reteval
    """
    path = as_path(path, "output path")
    if not isinstance(tag, str):
        raise InputError(f"tag must be a str; got {tag!r:.80}")
    frame = sort_run(as_run(run))
    _check_writable(frame, path, tag)
    rank = frame.groupby("query_id", sort=False).cumcount() + 1
    lines = (
        frame["query_id"].astype(str) + " Q0 " + frame["doc_id"].astype(str) + " "
        + rank.astype(str) + " " + frame["score"].map(repr) + f" {tag}\n"
    )
    _atomic_write(path, "".join(lines))


def write_qrels(qrels, path: str | os.PathLike) -> None:
    """Write judgments as a TREC qrels file (``qid 0 docno rel``).

    Raises
    ------
    InputError
        An id that the TREC format cannot hold (see :func:`write_run`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "qrels.txt"
    >>> write_qrels({"q1": {"d1": 2}}, p)
    >>> print(p.read_text(), end="")
    q1 0 d1 2
    >>> write_qrels({"q 1": {"d1": 2}}, p)
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: ...cannot write query_id 'q 1' in a TREC file: ...
    """
    path = as_path(path, "output path")
    frame = as_qrels(qrels)
    _check_writable(frame, path)
    lines = (
        frame["query_id"].astype(str) + " 0 " + frame["doc_id"].astype(str) + " "
        + frame["relevance"].astype(str) + "\n"
    )
    _atomic_write(path, "".join(lines))


def sort_run(run: pd.DataFrame) -> pd.DataFrame:
    """Order a run as trec_eval does: query id, then score descending, then doc id descending."""
    frame = run.sort_values(
        ["query_id", "score", "doc_id"], ascending=[True, False, False], kind="stable"
    )
    return frame.reset_index(drop=True)


# ---------------------------------------------------------------- any input -> table


def check_unique(frame: pd.DataFrame, what: str) -> None:
    """Raise InputError if a (query, document) pair occurs twice, naming both rows.

    Rows are named by the frame's index: line numbers for files read here,
    row positions otherwise.
    """
    import pyarrow as pa

    query = pa.array(frame["query_id"], type=pa.large_string(), from_pandas=True)
    if isinstance(query, pa.ChunkedArray):
        query = query.combine_chunks()
    doc = pa.array(frame["doc_id"], type=pa.large_string(), from_pandas=True)
    if isinstance(doc, pa.ChunkedArray):
        doc = doc.combine_chunks()
    codes = query.dictionary_encode().indices.to_numpy().astype(np.int64)
    pair = first_duplicate(codes, doc)
    if pair is None:
        return
    where = "lines" if frame.index.name == "line" else "rows"
    labels = frame.index[list(pair)]
    raise duplicate_error(what, str(query[pair[0]]), str(doc[pair[0]]),
                          f"{where} {labels[0]} and {labels[1]}", frame.attrs.get("source"))


def duplicate_error(what, query_id, doc_id, where, source) -> InputError:
    """The error for a document listed twice for one query."""
    return InputError(
        f"document {doc_id!r} appears twice for query {query_id!r} in the {what}, on {where}",
        path=source,
    )


_CHUNK_ROWS = 1 << 15


def _stable_order(codes: np.ndarray) -> np.ndarray:
    """``argsort(codes, kind="stable")`` for non-negative integer codes, several times faster.

    Each code is packed with its row number into one 64-bit integer and the integers are
    sorted as values (numpy sorts those with SIMD instructions; an argsort cannot).
    """
    n = len(codes)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    row_bits = max(n - 1, 1).bit_length()
    if int(codes.max()).bit_length() + row_bits > 64:  # pragma: no cover - beyond 2**64 rows
        return np.argsort(codes, kind="stable")
    packed = codes.astype(np.uint64) << np.uint64(row_bits)
    packed |= np.arange(n, dtype=np.uint64)
    packed.sort()
    packed &= np.uint64((1 << row_bits) - 1)
    return packed.view(np.int64)


def first_duplicate(query: np.ndarray, doc) -> tuple[int, int] | None:
    """Row positions of a document listed twice for one query, or None.

    Parameters
    ----------
    query : numpy.ndarray
        An integer code per row (equal codes, same query).
    doc : pyarrow.Array
        The doc id of each row.

    Notes
    -----
    Rows are grouped by query (they usually are already; otherwise by a stable
    sort of the codes) and cut into chunks of whole queries of about 33,000
    rows. Each chunk's doc ids are hashed on their own, so the hash tables stay
    small and in cache, and equal (query, doc) keys are found by sorting.

    Examples
    --------
    >>> import numpy as np, pyarrow as pa
    >>> first_duplicate(np.array([0, 0, 1, 0]), pa.array(["a", "b", "a", "a"]))
    (0, 3)
    >>> first_duplicate(np.array([0, 0, 1]), pa.array(["a", "b", "a"])) is None
    True
    """
    import pyarrow as pa

    n = len(query)
    if n < 2:
        return None
    starts = np.flatnonzero(np.concatenate(([True], query[1:] != query[:-1])))
    if len(starts) == np.count_nonzero(np.bincount(query)):
        order = None  # every query's rows are contiguous already
    else:
        order = _stable_order(query)
        query = query[order]
        doc = doc.take(pa.array(order))
        starts = np.flatnonzero(np.concatenate(([True], query[1:] != query[:-1])))
    cuts = starts[np.searchsorted(starts, np.arange(0, n, _CHUNK_ROWS), side="right") - 1]
    edges = np.unique(np.concatenate((cuts, [n])))

    def chunk_duplicate(lo, hi):
        codes = doc.slice(lo, hi - lo).dictionary_encode().indices.to_numpy().astype(np.int64)
        group = np.cumsum(query[lo + 1:hi] != query[lo:hi - 1])
        keys = codes
        keys[1:] += group * (int(codes.max()) + 1)
        if keys.max() < 2**31:
            keys = keys.astype(np.int32)
        if not (np.diff(np.sort(keys)) == 0).any():
            return None
        by_key = np.argsort(keys, kind="stable")
        same = np.flatnonzero(keys[by_key][1:] == keys[by_key][:-1])[0]
        return lo + by_key[same], lo + by_key[same + 1]

    # Arrow and numpy release the GIL while hashing and sorting: chunks run in parallel.
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        for pair in pool.map(chunk_duplicate, edges[:-1], edges[1:]):
            if pair is not None:
                if order is not None:
                    pair = order[pair[0]], order[pair[1]]
                return tuple(sorted((int(pair[0]), int(pair[1]))))
    return None


def _id_column(column: pd.Series) -> pd.api.extensions.ExtensionArray:
    if column.dtype == ID_DTYPE:
        return column.array
    if column.isna().any():
        position = int(np.flatnonzero(column.isna().to_numpy())[0])
        raise InputError(f"{column.name} is missing on row {position}")
    return _ids(column.astype(str))


#: PyTerrier's column names (``qid, docno, score`` runs, ``qid, docno, label`` qrels),
#: read when reteval's own names are absent. PyTerrier's ``docid`` is an internal
#: integer id, never the document's name, so it is not read.
_PYTERRIER_COLUMNS = {"query_id": "qid", "doc_id": "docno", "relevance": "label", "score": "score"}


def _from_frame(frame: pd.DataFrame, value_column: str, what: str) -> pd.DataFrame:
    wanted = ("query_id", "doc_id", value_column)
    names = {c: c if c in frame.columns else _PYTERRIER_COLUMNS[c] for c in wanted}
    missing = [c for c in wanted if names[c] not in frame.columns]
    if missing:
        raise InputError(
            f"a {what} DataFrame needs columns query_id, doc_id, {value_column} "
            f"(or PyTerrier's qid, docno, {_PYTERRIER_COLUMNS[value_column]}); "
            f"missing {missing}, got {list(frame.columns)}"
        )
    out = pd.DataFrame(
        {
            "query_id": _id_column(frame[names["query_id"]].rename("query_id")),
            "doc_id": _id_column(frame[names["doc_id"]].rename("doc_id")),
            value_column: frame[names[value_column]],
        }
    )
    if frame.index.name == "line":
        out.index = frame.index
    else:
        out.index = pd.RangeIndex(len(out))
    out.attrs.update(frame.attrs)
    return out


def _to_number(value, integer: bool):
    """One value of an object column as a number, or None when it cannot be one."""
    if isinstance(value, (bool, np.bool_)) or value is None or value is pd.NA:
        return None
    if isinstance(value, str):
        try:
            return (parse_integer if integer else parse_decimal)(value.strip())
        except InputError:
            return None
    if isinstance(value, (int, np.integer)):
        value = int(value)
        if integer:
            return value if INT64_MIN <= value <= INT64_MAX else None
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    if not math.isfinite(number) or (integer and not (number.is_integer()
                                                      and INT64_MIN <= number < 2.0**63)):
        return None
    return int(number) if integer else number


def _check_values(frame: pd.DataFrame, column: str, what: str, integer: bool) -> pd.DataFrame:
    """Check and convert a value column in place: int64 relevance, finite float64 scores.

    Strings are read with the file readers' number grammar
    (:mod:`reteval.textfile`); booleans are not numbers.
    """
    raw = frame[column]
    kind = raw.dtype.kind if isinstance(raw.dtype, np.dtype) else "O"
    values = None
    if kind == "O" and is_numeric_dtype(raw.dtype) and not is_bool_dtype(raw.dtype):
        # nullable or Arrow-backed numbers: a missing value becomes NaN, refused below
        values = raw.to_numpy(dtype=np.float64, na_value=np.nan)
        if is_integer_dtype(raw.dtype) and not raw.isna().any():
            values = raw.to_numpy(dtype=np.int64)
        kind = values.dtype.kind
    if kind in "iuf":  # numeric column: checked at once
        values = raw.to_numpy() if values is None else values
        if kind == "f":
            bad = ~np.isfinite(values)
            if integer:
                bad |= ~bad & ((np.floor(values) != values) | (values < -(2.0**63))
                               | (values >= 2.0**63))
        elif kind == "u" and integer:
            bad = values > INT64_MAX
        else:
            bad = np.zeros(len(values), dtype=bool)
        converted = None
    else:
        converted = [_to_number(v, integer) for v in raw.to_numpy(dtype=object)]
        bad = np.fromiter((v is None for v in converted), dtype=bool, count=len(converted))
    if bad.any():
        position = int(np.flatnonzero(bad)[0])
        label = frame.index[position]
        where = "line" if frame.index.name == "line" else "row"
        kind_text = "an integer (within int64)" if integer else "a finite number"
        value = raw.iloc[position]
        shown = repr(value) if isinstance(value, str) else str(value)
        raise InputError(
            f"{what} {column} must be {kind_text}; got {shown} "
            f"on {where} {label}",
            path=frame.attrs.get("source"),
        )
    dtype = np.int64 if integer else np.float64
    if converted is None:
        frame[column] = values.astype(dtype)
    else:
        frame[column] = np.array(converted, dtype=dtype)
    return frame


def _nested_id(value, what: str) -> str:
    """A query or document id of a dict input: a str or an integer, never None or a float."""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return str(value)
    raise InputError(f"{what} ids must be strings (or integers); got {value!r:.80}")


def _from_nested(data: Mapping, value_column: str, what: str) -> pd.DataFrame:
    qids, docs, values = [], [], []
    for qid, docs_of_query in data.items():
        if isinstance(docs_of_query, Mapping):
            items = list(docs_of_query.items())
        elif isinstance(docs_of_query, Sequence) and not isinstance(docs_of_query, str):
            # A ranked list (run: earlier is better) or a list of relevant documents (qrels).
            n = len(docs_of_query)
            if value_column == "score":
                items = [(doc, float(n - i)) for i, doc in enumerate(docs_of_query)]
            else:
                items = [(doc, 1) for doc in docs_of_query]
        else:
            raise InputError(
                f"{what} for query {qid!r} must be a mapping doc_id -> value or a list of doc "
                f"ids; got {type(docs_of_query).__name__}"
            )
        for doc, value in items:
            qids.append(_nested_id(qid, what))
            docs.append(_nested_id(doc, what))
            values.append(value)
    return pd.DataFrame(
        {"query_id": _ids(qids), "doc_id": _ids(docs), value_column: pd.array(values, dtype=object)}
    )


def _from_evaluation_queries(records) -> pd.DataFrame:
    rows = []
    for record in records:
        scores = dict(getattr(record, "relevance_scores", None) or {})
        for doc in getattr(record, "relevant_docs", None) or []:
            scores.setdefault(doc, 1)
        rows.extend((str(record.query_id), str(doc), rel) for doc, rel in scores.items())
    frame = pd.DataFrame(rows, columns=list(QRELS_COLUMNS), dtype=object)
    frame["query_id"] = _ids(frame["query_id"])
    frame["doc_id"] = _ids(frame["doc_id"])
    return frame


def _is_evaluation_query(obj) -> bool:
    return hasattr(obj, "query_id") and (
        hasattr(obj, "relevance_scores") or hasattr(obj, "relevant_docs")
    )


def as_qrels(qrels) -> pd.DataFrame:
    """Turn any accepted form of relevance judgments into a qrels table.

    Parameters
    ----------
    qrels : path, DataFrame, mapping or sequence of EvaluationQuery
        * a path to a TREC or BEIR qrels file;
        * a DataFrame with columns ``query_id``, ``doc_id``, ``relevance``
          (ir_datasets' ``qrels_iter()`` fields), or PyTerrier's ``qid``,
          ``docno``, ``label``;
        * ``{query_id: {doc_id: relevance}}`` as pytrec_eval takes, or
          ``{query_id: [relevant doc ids]}`` (relevance 1);
        * records with ``query_id``, ``relevant_docs`` and ``relevance_scores``
          (the chapter's ``EvaluationQuery``): the graded scores, and
          relevance 1 for a relevant doc without a score.

    Returns
    -------
    pandas.DataFrame
        A new table (the input is never modified).

    Examples
    --------
    >>> as_qrels({"q1": {"d1": 2, "d2": 0}})
      query_id doc_id  relevance
    0       q1     d1          2
    1       q1     d2          0
    """
    if isinstance(qrels, (str, os.PathLike)):
        return read_qrels(qrels)
    if isinstance(qrels, pd.DataFrame):
        frame = _from_frame(qrels, "relevance", "qrels")
    elif isinstance(qrels, Mapping):
        frame = _from_nested(qrels, "relevance", "qrels")
    elif isinstance(qrels, Sequence) and qrels and all(_is_evaluation_query(r) for r in qrels):
        frame = _from_evaluation_queries(qrels)
    else:
        raise InputError(
            "qrels must be a file path, a DataFrame (query_id, doc_id, relevance), a dict "
            f"{{query_id: {{doc_id: relevance}}}} or EvaluationQuery records; "
            f"got {type(qrels).__name__}"
        )
    if frame.empty:
        raise InputError("the qrels hold no judgments")
    frame = _check_values(frame, "relevance", "qrels", integer=True)
    check_unique(frame, "qrels")
    return frame


def as_run(run, *, check_duplicates: bool = True) -> pd.DataFrame:
    """Turn any accepted form of retrieval results into a run table.

    Parameters
    ----------
    run : path, DataFrame or mapping
        * a path to a TREC run file;
        * a DataFrame with columns ``query_id``, ``doc_id``, ``score``, or
          PyTerrier's ``qid``, ``docno``, ``score`` (a ``pt.Experiment``-style
          result frame; its other columns are ignored);
        * ``{query_id: {doc_id: score}}`` as pytrec_eval takes;
        * ``{query_id: [doc ids in rank order]}``, as the chapter's functions
          take: the first gets the highest score.
    check_duplicates : bool, default True
        Raise if a document is listed twice for one query.

    Returns
    -------
    pandas.DataFrame
        A new table (the input is never modified). An empty run is allowed.

    Examples
    --------
    >>> as_run({"q1": ["d3", "d1"]})
      query_id doc_id  score
    0       q1     d3    2.0
    1       q1     d1    1.0
    """
    if isinstance(run, (str, os.PathLike)):
        return read_run(run, check_duplicates=check_duplicates)
    if isinstance(run, pd.DataFrame):
        frame = _from_frame(run, "score", "run")
    elif isinstance(run, Mapping):
        frame = _from_nested(run, "score", "run")
    else:
        raise InputError(
            "a run must be a file path, a DataFrame (query_id, doc_id, score), a dict "
            f"{{query_id: {{doc_id: score}}}} or {{query_id: [doc ids]}}; got {type(run).__name__}"
        )
    frame = _check_values(frame, "score", "run", integer=False)
    if check_duplicates:
        check_unique(frame, "run")
    return frame
