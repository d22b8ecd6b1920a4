"""Writing runs and qrels as TREC files that read back to the same values, atomically."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import numpy as np
import pandas as pd

from reteval.errors import InputError
from reteval.io.frames import as_qrels, as_run
from reteval.io.tables import ID_DTYPE, sort_run
from reteval.io.textfile import as_path

__all__ = ["write_qrels", "write_run"]

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
