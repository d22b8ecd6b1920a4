"""trec_eval's preference and multi-judge judgment formats (``-R prefs``, ``qrels_prefs``,
``qrels_jg``).

* ``prefs``: ``qid jg jsg docno rel_level`` lines. Within a judgment sub-group (jsg) of a
  judgment group (jg), a document with a higher ``rel_level`` is preferred to one with a
  lower level; 0 means not relevant.
* ``qrels_prefs``: a qrels file read as preferences: ``qid jg docno rel_level`` (the
  qrels' second column is the judgment group, with one sub-group).
* ``qrels_jg``: a qrels file whose second column names the judgment group (one set of
  judgments per user): ``qid jg docno rel``.

Lines starting with ``#`` are comments; blank lines are skipped.
"""

from __future__ import annotations

import math

from reteval.errors import InputError

__all__ = ["read_prefs", "read_qrels_jg", "read_qrels_prefs"]


def _lines(source, what: str, fields: int):
    from reteval.io.textfile import as_path, decode, read_bytes

    path = as_path(source, what)
    for number, line in enumerate(decode(read_bytes(path), path).splitlines(), 1):
        if line.startswith("#") or not line.strip():
            continue
        parts = line.split()
        if len(parts) != fields:
            raise InputError(f"{path}, line {number}: a {what} line has {fields} fields; got "
                             f"{len(parts)}: {line.strip()!r}")
        yield path, number, parts


def _level(text: str, path, number: int) -> float:
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{path}, line {number}: the relevance level must be a number; got "
                         f"{text!r}") from None
    if not math.isfinite(value):
        raise InputError(f"{path}, line {number}: the relevance level must be finite")
    return value


def read_prefs(source) -> dict[str, list[tuple[str, str, str, float]]]:
    """Read a ``prefs`` file: ``{qid: [(jg, jsg, docno, rel_level), ...]}``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "prefs"
    >>> _ = path.write_text("# a comment\\nq1 u1 s1 d1 2\\nq1 u1 s1 d2 0\\n")
    >>> read_prefs(path)
    {'q1': [('u1', 's1', 'd1', 2.0), ('u1', 's1', 'd2', 0.0)]}
    """
    table: dict = {}
    for path, number, (qid, jg, jsg, docno, rel) in _lines(source, "prefs", 5):
        table.setdefault(qid, []).append((jg, jsg, docno, _level(rel, path, number)))
    return table


def read_qrels_prefs(source) -> dict[str, list[tuple[str, str, str, float]]]:
    """Read a qrels file as preferences (``-R qrels_prefs``): ``{qid: [(jg, "0", docno, rel)]}``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "qrels"
    >>> _ = path.write_text("q1 0 d1 1\\nq1 0 d2 0\\n")
    >>> read_qrels_prefs(path)["q1"][0]
    ('0', '0', 'd1', 1.0)
    """
    table: dict = {}
    for path, number, (qid, jg, docno, rel) in _lines(source, "qrels_prefs", 4):
        table.setdefault(qid, []).append((jg, "0", docno, _level(rel, path, number)))
    return table


def read_qrels_jg(source) -> dict[str, dict[str, dict[str, int]]]:
    """Read a multi-judge qrels file (``-R qrels_jg``): ``{qid: {jg: {docno: rel}}}``.

    Raises
    ------
    InputError
        A relevance that is not a finite number, a document judged twice by one group.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "qrels"
    >>> _ = path.write_text("q1 0 d1 1\\nq1 1 d1 0\\n")
    >>> read_qrels_jg(path)
    {'q1': {'0': {'d1': 1}, '1': {'d1': 0}}}
    """
    from reteval.io.textfile import parse_grade

    table: dict = {}
    for path, number, (qid, jg, docno, rel) in _lines(source, "qrels_jg", 4):
        try:
            value = parse_grade(rel, what="relevance")
        except InputError as exc:
            raise InputError(f"{path}, line {number}: {exc}") from None
        docs = table.setdefault(qid, {}).setdefault(jg, {})
        if docno in docs:
            raise InputError(f"{path}, line {number}: document {docno!r} of query {qid!r} is "
                             f"judged twice by judgment group {jg!r}")
        docs[docno] = value
    return table
