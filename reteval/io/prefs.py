"""trec_eval's preference and multi-judge judgment formats (``-R prefs``, ``qrels_prefs``,
``qrels_jg``).

* ``prefs``: ``qid jg jsg docno rel_level`` lines. Within a judgment sub-group (jsg) of a
  judgment group (jg), a document with a higher ``rel_level`` is preferred to one with a
  lower level; 0 means not relevant.
* ``qrels_prefs``: a qrels file read as preferences: ``qid jg docno rel_level`` (the
  qrels' second column is the judgment group, with one sub-group).
* ``qrels_jg``: a qrels file whose second column names the judgment group (one set of
  judgments per user): ``qid jg docno rel``.

The grammar is the runs' and qrels' (:mod:`reteval.io.lines`): lines end at LF, CR LF or
CR, fields are split on ASCII white space only, a line whose first field starts with
``#`` is a comment, blank lines are skipped, and numbers are trec_eval's (no ``1_0``, no
``inf``; :mod:`reteval.io.textfile`). A file with no judgment line (empty, or only
comments) is refused, as the qrels reader refuses it. Every error names the file and the
line, and the query and document of the line once they are read.
"""

from __future__ import annotations

from reteval.errors import InputError

__all__ = ["read_prefs", "read_qrels_jg", "read_qrels_prefs"]


def _lines(source, what: str, fields: int, grammar: str):
    from reteval.io.textfile import as_path, decode, read_bytes, split_fields, split_lines

    path = as_path(source, what)
    found = False
    for number, line in enumerate(split_lines(decode(read_bytes(path), path)), 1):
        parts = split_fields(line)
        if not parts or parts[0].startswith("#"):
            continue
        if len(parts) != fields:
            raise InputError(f"a {what} line is '{grammar}', {fields} fields; got "
                             f"{len(parts)}: {line.strip()!r}", path=path, line=number)
        found = True
        yield path, number, parts
    if not found:
        raise InputError(f"empty {what} file: no judgments found (only blank lines or "
                         f"comments)", path=path)


def _level(text: str, path, number: int, qid: str, docno: str) -> float:
    from reteval.io.textfile import parse_decimal

    return parse_decimal(text, what=f"the relevance level of document {docno!r} of query "
                                    f"{qid!r}", path=path, line=number)


def read_prefs(source) -> dict[str, list[tuple[str, str, str, float]]]:
    """Read a ``prefs`` file: ``{qid: [(jg, jsg, docno, rel_level), ...]}``.

    Raises
    ------
    InputError
        A line without 5 fields, a level that is no finite number, a file with no
        judgment line; each names the file and the line (and the query and document).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "prefs"
    >>> _ = path.write_text("# a comment\\nq1 u1 s1 d1 2\\nq1 u1 s1 d2 0\\n")
    >>> read_prefs(path)
    {'q1': [('u1', 's1', 'd1', 2.0), ('u1', 's1', 'd2', 0.0)]}
    """
    table: dict = {}
    for path, number, (qid, jg, jsg, docno, rel) in _lines(source, "prefs", 5,
                                                            "qid jg jsg docno rel_level"):
        table.setdefault(qid, []).append((jg, jsg, docno, _level(rel, path, number, qid, docno)))
    return table


def read_qrels_prefs(source) -> dict[str, list[tuple[str, str, str, float]]]:
    """Read a qrels file as preferences (``-R qrels_prefs``): ``{qid: [(jg, "0", docno, rel)]}``.

    Raises
    ------
    InputError
        As :func:`read_prefs`, for lines of 4 fields.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "qrels"
    >>> _ = path.write_text("q1 0 d1 1\\nq1 0 d2 0\\n")
    >>> read_qrels_prefs(path)["q1"][0]
    ('0', '0', 'd1', 1.0)
    """
    table: dict = {}
    for path, number, (qid, jg, docno, rel) in _lines(source, "qrels_prefs", 4,
                                                      "qid jg docno rel_level"):
        table.setdefault(qid, []).append((jg, "0", docno, _level(rel, path, number, qid, docno)))
    return table


def read_qrels_jg(source) -> dict[str, dict[str, dict[str, int]]]:
    """Read a multi-judge qrels file (``-R qrels_jg``): ``{qid: {jg: {docno: rel}}}``.

    Raises
    ------
    InputError
        A line without 4 fields, a relevance that is not a finite number, a document judged
        twice by one group, a file with no judgment line; each names the file and the
        line (and the query and document).

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
    for path, number, (qid, jg, docno, rel) in _lines(source, "qrels_jg", 4,
                                                      "qid jg docno rel"):
        value = parse_grade(rel, what=f"the relevance of document {docno!r} of query {qid!r}",
                              path=path, line=number)
        docs = table.setdefault(qid, {}).setdefault(jg, {})
        if docno in docs:
            raise InputError(f"document {docno!r} of query {qid!r} is judged twice by judgment "
                             f"group {jg!r}", path=path, line=number)
        docs[docno] = value
    return table
