"""One input-hygiene rule for every text file reteval reads.

Every reader (TREC runs and qrels, BEIR corpus, queries and qrels, A/B logs in
CSV or JSON Lines, the parts of a Dask run) goes through these functions, so
that the same file means the same thing whichever reader takes it:

* **Compression.** A file whose first bytes are gzip's magic number is
  decompressed, whatever its name. A truncated stream or damaged deflate data
  is an :class:`~reteval.errors.InputError` naming the file.
* **Encoding.** Text is UTF-8. A byte-order mark at the start is dropped.
  Bytes that are not UTF-8 are an error naming the file and the line.
* **Line endings.** A line ends at LF, CR LF or a lone CR (old Mac files are
  read line by line, never as one long line).
* **Numbers.** Only what trec_eval's readers take as a number, and only the
  whole field (trec_eval's ``atol``/``atof`` would read ``1_0`` as 1; reteval
  refuses it instead of guessing)::

      integer := [+-]? [0-9]+                        (within int64)
      decimal := [+-]? ([0-9]+ ('.' [0-9]*)? | '.' [0-9]+) ([eE] [+-]? [0-9]+)?

  ASCII digits only: no ``_`` separators, no hexadecimal, no ``inf`` or
  ``nan``, no other scripts' digits, no space inside the field. A decimal must
  be finite as a float64.
"""

from __future__ import annotations

import gzip
import json
import math
import os
import re
import zlib
from collections.abc import Iterator
from pathlib import Path

from reteval.errors import InputError

__all__ = [
    "INT64_MAX",
    "INT64_MIN",
    "as_path",
    "decode",
    "iter_lines",
    "parse_decimal",
    "parse_grade",
    "parse_integer",
    "parse_json",
    "read_bytes",
    "split_fields",
    "split_lines",
]

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1

BOM = b"\xef\xbb\xbf"
GZIP_MAGIC = b"\x1f\x8b"
_GZIP_ERRORS = (OSError, EOFError, zlib.error)  # truncated, not gzip, bad deflate data
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_FIELD_SEPARATOR = re.compile(r"[ \t\x0b\x0c]+")  # ASCII white space, as trec_eval's isspace()
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_NON_FINITE = re.compile(r"[+-]?(?:inf|infinity|nan)", re.IGNORECASE)
_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def as_path(path, what: str = "path") -> Path:
    """``path`` as a :class:`~pathlib.Path`; anything but a string or path-like is an InputError.

    Examples
    --------
    >>> as_path("runs/bm25.txt")
    PosixPath('runs/bm25.txt')
    >>> as_path(None, "run")
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: run must be a file path (str or path-like); got None
    """
    if isinstance(path, (str, os.PathLike)) and not isinstance(path, bytes):
        text = os.fspath(path)
        if isinstance(text, str) and text:
            return Path(text)
    raise InputError(f"{what} must be a file path (str or path-like); got {path!r:.80}")


def _open_error(exc: OSError, path) -> InputError:
    if isinstance(exc, FileNotFoundError):
        return InputError("no such file", path=path)
    if isinstance(exc, IsADirectoryError):
        return InputError("is a directory, not a file", path=path)
    return InputError(f"cannot read: {exc.strerror or exc}", path=path)


def _gzip_error(exc: BaseException, path) -> InputError:
    return InputError(f"damaged gzip data, cannot decompress: {exc}", path=path)


def read_bytes(path: str | os.PathLike) -> bytes:
    """The content of a file: decompressed if gzip, without a UTF-8 byte-order mark.

    Raises
    ------
    InputError
        Missing, unreadable, a folder, or damaged gzip data; names the file.

    Examples
    --------
    >>> import gzip, tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "a.txt.gz"
    >>> _ = p.write_bytes(gzip.compress(b"\\xef\\xbb\\xbfq1 0 d1 1\\n"))
    >>> read_bytes(p)
    b'q1 0 d1 1\\n'
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise _open_error(exc, path) from None
    if data[:2] == GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except _GZIP_ERRORS as exc:
            raise _gzip_error(exc, path) from None
    return data[3:] if data[:3] == BOM else data


def _line_of(data: bytes, offset: int) -> int:
    """Line number (from 1) of a byte offset, counting LF, CR LF and lone CR."""
    head = data[:offset]
    return head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1


def decode(data: bytes, path=None, *, first_line: int = 1) -> str:
    """UTF-8 text of ``data`` without a leading byte-order mark.

    Raises
    ------
    InputError
        Bytes that are not UTF-8, naming the file, the line and the byte.

    Examples
    --------
    >>> decode(b"\\xef\\xbb\\xbfq1")
    'q1'
    >>> decode(b"ok\\n\\xff", "run.txt")
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: run.txt:2: not UTF-8 text (byte b'\\xff')
    """
    if data[:3] == BOM:
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if data[:4] == b"PAR1" and first_line == 1:  # Parquet's magic number
            raise InputError("a Parquet file, not text: read it with pandas.read_parquet and "
                             "give the table (or evaluate it with --engine dask)",
                             path=path) from None
        line = first_line + _line_of(data, exc.start) - 1
        raise InputError(
            f"not UTF-8 text (byte {data[exc.start:exc.start + 1]!r})", path=path, line=line
        ) from None


def split_lines(text: str) -> list[str]:
    """Split at LF, CR LF or a lone CR (and nothing else).

    Examples
    --------
    >>> split_lines("a\\r\\nb\\rc\\nd")
    ['a', 'b', 'c', 'd']
    """
    return _LINE_BREAK.split(text)


def split_fields(line: str) -> list[str]:
    """The fields of a line, split on ASCII white space only (space, tab, vertical tab,
    form feed: trec_eval's ``isspace()``); a no-break space or U+0085 stays inside a field.

    Examples
    --------
    >>> split_fields("q1 0\td\u00a01  2 ")
    ['q1', '0', 'd\xa01', '2']
    """
    return [field for field in _FIELD_SEPARATOR.split(line) if field]


def iter_lines(path: str | os.PathLike) -> Iterator[tuple[int, bytes]]:
    """Stream ``(line number, raw line without its ending)`` from a possibly gzipped file.

    For files too large to hold in memory; decode each line with :func:`decode`.
    The byte-order mark is dropped from the first line.

    Raises
    ------
    InputError
        Missing, unreadable, a folder, or damaged gzip data; names the file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "a.jsonl"
    >>> _ = p.write_bytes(b"\\xef\\xbb\\xbf{}\\r{}\\r\\n{}")
    >>> list(iter_lines(p))
    [(1, b'{}'), (2, b'{}'), (3, b'{}')]
    """
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise _open_error(exc, path) from None
    with handle:
        stream = gzip.GzipFile(fileobj=handle) if handle.peek(2)[:2] == GZIP_MAGIC else handle
        number = 0
        try:
            for chunk in stream:  # split at LF; a CR inside is a line break too
                if number == 0 and chunk[:3] == BOM:
                    chunk = chunk[3:]
                if chunk.endswith(b"\n"):
                    chunk = chunk[:-1]
                    if chunk.endswith(b"\r"):
                        chunk = chunk[:-1]
                for line in chunk.split(b"\r") if b"\r" in chunk else (chunk,):
                    number += 1
                    yield number, line
        except _GZIP_ERRORS as exc:
            raise _gzip_error(exc, path) from None


def parse_integer(text: str, *, what: str = "value", path=None, line: int | None = None) -> int:
    """An integer in trec_eval's grammar (see the module docstring), within int64.

    Examples
    --------
    >>> parse_integer("-2"), parse_integer("+07")
    (-2, 7)
    >>> parse_integer("1_0", what="relevance")
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: relevance is not an integer: '1_0'
    """
    if not _INTEGER.fullmatch(text):
        raise InputError(f"{what} is not an integer: {text!r}", path=path, line=line)
    value = int(text)
    if not INT64_MIN <= value <= INT64_MAX:
        raise InputError(f"{what} is outside the 64-bit integer range: {text!r}",
                         path=path, line=line)
    return value


def parse_grade(text: str, *, what: str = "relevance", path=None,
                line: int | None = None) -> int | float:
    """A relevance grade: an integer (an ``int``) or a finite decimal (a ``float``).

    Examples
    --------
    >>> parse_grade("2"), parse_grade("0.25"), parse_grade("-1")
    (2, 0.25, -1)
    >>> parse_grade("nan", path="qrels.txt", line=3)
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: qrels.txt:3: relevance must be finite; got 'nan'
    """
    if _INTEGER.fullmatch(text):
        return parse_integer(text, what=what, path=path, line=line)
    return parse_decimal(text, what=what, path=path, line=line)


def parse_decimal(text: str, *, what: str = "value", path=None, line: int | None = None) -> float:
    """A finite decimal number in trec_eval's grammar (see the module docstring).

    Examples
    --------
    >>> parse_decimal("2.5e-1"), parse_decimal(".5"), parse_decimal("-3.")
    (0.25, 0.5, -3.0)
    >>> parse_decimal("1e999", what="score")
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: score must be finite; got '1e999'
    """
    if _NON_FINITE.fullmatch(text):
        raise InputError(f"{what} must be finite; got {text!r}", path=path, line=line)
    if not _DECIMAL.fullmatch(text):
        raise InputError(f"{what} is not a number: {text!r}", path=path, line=line)
    value = float(text)
    if not math.isfinite(value):
        raise InputError(f"{what} must be finite; got {text!r}", path=path, line=line)
    return value


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large for a float64")
    return value


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def parse_json(text: str, *, path=None, line: int | None = None):
    """One JSON value, strictly: no ``NaN``/``Infinity``, no lone surrogate, bounded nesting.

    Python's :func:`json.loads` accepts ``NaN`` and ``Infinity`` (not JSON),
    decodes ``"\\ud800"`` to a string that cannot be written as UTF-8, and
    overflows the stack on deeply nested arrays: each is an error here.

    Raises
    ------
    InputError
        Naming the file and line when given.

    Examples
    --------
    >>> parse_json('{"a": [1, 2.5]}')
    {'a': [1, 2.5]}
    >>> parse_json('{"feedback": NaN}', path="log.jsonl", line=3)
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: log.jsonl:3: not valid JSON: NaN is not a JSON number
    """
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
        if _SURROGATE_ESCAPE.search(text):  # rare: check that every string is real text
            json.dumps(value, ensure_ascii=False).encode("utf-8")
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg} at column {exc.colno}",
                         path=path, line=line) from None
    except UnicodeEncodeError:
        raise InputError("not valid JSON text: a string holds a lone surrogate (\\ud800-\\udfff)",
                         path=path, line=line) from None
    except ValueError as exc:
        raise InputError(f"not valid JSON: {exc}", path=path, line=line) from None
    except RecursionError:
        raise InputError("not valid JSON here: nested too deeply", path=path, line=line) from None
    return value
