"""The careful line-by-line readers of TREC runs and TREC/BEIR qrels, into plain lists.

They split every line on ASCII white space (as trec_eval's ``isspace()``), skip blank
lines and comments, and name the file and line of every problem. They need neither
pandas nor Arrow: :mod:`reteval.io.read` makes tables of their lists, and small inputs
are evaluated from the lists directly (the command line starts faster).
"""

from __future__ import annotations

from reteval.errors import InputError
from reteval.io.textfile import parse_decimal, parse_grade, split_fields, split_lines

__all__ = ["parse_qrels_lines", "parse_run_lines"]

_BEIR_HEADER = ("query-id", "corpus-id", "score")


def _content_lines(text: str):
    """Yield (line number, fields, line) for every line that is neither blank nor a comment."""
    for number, line in enumerate(split_lines(text), 1):
        fields = split_fields(line)
        if fields and not fields[0].startswith("#"):
            yield number, fields, line


def _empty_error(path, what):
    return InputError(f"empty {what} file: no judgments or results found", path=path)


def parse_run_lines(text: str, path) -> tuple[list, list, list, list]:
    """Query ids, doc ids, scores and line numbers of a TREC run's text.

    Examples
    --------
    >>> parse_run_lines("q1 Q0 d1 1 2.5 t\\n# note\\nq1 Q0 d2 2 1 t\\n", "run.txt")
    (['q1', 'q1'], ['d1', 'd2'], [2.5, 1.0], [1, 3])
    >>> parse_run_lines("q1 Q0 d1 1\\n", "run.txt")
    Traceback (most recent call last):
    reteval.errors.InputError: run.txt:1: expected 6 whitespace-separated fields \
'qid Q0 docno rank score tag', got 4: 'q1 Q0 d1 1'
    """
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
    return qids, docs, scores, lines


def parse_qrels_lines(text: str, path, layout: str = "auto") -> tuple[list, list, list, list]:
    """Query ids, doc ids, relevance values and line numbers of a qrels file's text.

    ``layout`` is ``"trec"`` (``qid iter docno rel``), ``"beir"`` (``query-id
    corpus-id score``, the first line a header when its score holds no digit) or
    ``"auto"`` (BEIR when the first line is that header). A BEIR line of three
    tab-separated fields is split on its tabs, so that its ids may hold spaces; other
    lines are split on white space.

    Examples
    --------
    >>> parse_qrels_lines("query-id\\tcorpus-id\\tscore\\nq1\\td1\\t2\\n", "q.tsv")
    (['q1'], ['d1'], [2], [2])
    >>> parse_qrels_lines("query-id\\tcorpus-id\\tscore\\nq 1\\tdoc A\\t1\\n", "q.tsv")
    (['q 1'], ['doc A'], [1], [2])
    >>> parse_qrels_lines("q1 0 d1 0.75\\n", "qrels.txt")
    (['q1'], ['d1'], [0.75], [1])
    >>> parse_qrels_lines("q1 0 d1 high\\n", "qrels.txt")
    Traceback (most recent call last):
    reteval.errors.InputError: qrels.txt:1: relevance is not a number: 'high'
    """
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
        if beir and line.count("\t") == 2:  # a tab-separated line: an id may hold spaces
            fields = [field.strip() for field in line.split("\t")]
            if not all(fields):
                raise InputError(
                    f"field {fields.index('') + 1} of 3 tab-separated fields "
                    f"'query-id corpus-id score' is empty: {line.strip()!r}",
                    path=path, line=number)
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
        rels.append(parse_grade(fields[-1], what="relevance", path=path, line=number))
        lines.append(number)
    if not qids:
        raise _empty_error(path, "qrels")
    return qids, docs, rels, lines
