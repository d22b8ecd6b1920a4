"""Reading a run or qrels: from a file, or from a pandas frame with its own column names.

:func:`read_run` and :func:`read_qrels` read a file (:mod:`reteval.io.read`) or a frame.

A retriever's output frame says ``question_id``, ``chunk_id``, ``similarity`` (or only a
``position``); a judge's says ``question_id``, ``chunk_id``, ``grade``. These functions
name the columns to read and hand the renamed frame to :func:`reteval.io.as_run` /
:func:`reteval.io.as_qrels`, so every check (ids, numbers, grades, duplicates) is made in
one place, and the message names the frame's own column.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from reteval.errors import InputError
from reteval.io.frames import arrow_table_frame
from reteval.io.read import read_qrels_file, read_run_file

__all__ = ["qrels_from_frame", "read_qrels", "read_run", "run_from_frame"]


def _pick(frame: pd.DataFrame, what: str, named: dict[str, str | None]) -> pd.DataFrame:
    """The frame's columns, renamed to the canonical names given in `named`."""
    columns = {}
    for canonical, column in named.items():
        if column is None:
            column = canonical
        if column not in frame.columns:
            raise InputError(f"the {what} frame has no column {column!r} (read as {canonical}; "
                             f"pass {canonical}=...); its columns: {list(frame.columns)}")
        if (frame.columns == column).sum() > 1:
            raise InputError(f"the {what} frame has more than one column {column!r}")
        columns[canonical] = column
    out = pd.DataFrame({canonical: frame[column] for canonical, column in columns.items()})
    out.index = frame.index
    return out


def _checked(convert, frame: pd.DataFrame, what: str, renamed: dict[str, str]):
    """``convert(frame)``, its errors naming the caller's columns."""
    try:
        return convert(frame)
    except InputError as exc:
        message = str(exc)
        shown = [f"{canonical} is the column {column!r}" for canonical, column in renamed.items()
                 if canonical != column and canonical in message]
        if not shown:
            raise
        raise InputError(f"{message} (in the {what} frame, {'; '.join(shown)})") from None


def _scores_from_ranks(frame: pd.DataFrame, column: str) -> np.ndarray:
    """Scores that order each query's rows as their ranks do: ``largest rank + 1 - rank``."""
    values = frame["rank"].to_numpy(dtype=object)
    ok = np.array([(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)))
                   or (isinstance(v, (float, np.floating)) and np.isfinite(v)
                       and float(v).is_integer()) for v in values], dtype=bool)
    if ok.all():
        ranks = values.astype(np.int64)
        ok = ranks >= 0
    if not ok.all():
        position = int(np.flatnonzero(~ok)[0])
        value = values[position]
        value = value.item() if isinstance(value, np.generic) else value
        hint = " (not text: convert the column with pd.to_numeric first)" \
            if isinstance(value, str) else ""
        raise InputError(f"run column {column!r} (the rank) must hold integers >= 0{hint}; "
                         f"got {value!r} on row {position}")
    repeated = pd.DataFrame({"q": frame["query_id"].to_numpy(), "r": ranks}).duplicated()
    if repeated.any():
        position = int(np.flatnonzero(repeated.to_numpy())[0])
        raise InputError(f"run column {column!r}: rank {ranks[position]} appears twice for "
                         f"query {frame['query_id'].iloc[position]!r} (second time on row "
                         f"{position}); ranks must order a query's documents")
    return (ranks.max() + 1 - ranks).astype(np.float64) if ranks.size else ranks.astype(float)


def run_from_frame(frame: pd.DataFrame, *, query_id: str | None = None,
                   doc_id: str | None = None, score: str | None = None,
                   rank: str | None = None, check_duplicates: bool = True) -> pd.DataFrame:
    """A run table from a frame's columns: scores, or ranks only.

    Parameters
    ----------
    frame : pandas.DataFrame
        One row per retrieved document; other columns are ignored. Not modified.
    query_id, doc_id : str, optional
        The columns of query and document ids (default ``query_id``, ``doc_id``, or
        PyTerrier's ``qid``, ``docno``). Ids are kept as given (integers become their
        decimal text, the one form ids take).
    score : str, optional
        The column of scores (default ``score``), higher is better.
    rank : str, optional
        Instead of `score`: the column of ranks (1 or 0 = top), integers, each once per
        query (gaps are allowed). The run gets the scores ``largest rank + 1 - rank``, so
        trec_eval's order (score descending) is the rank order, whatever the document ids.
    check_duplicates : bool, default True
        Raise if a document is listed twice for one query.

    Returns
    -------
    pandas.DataFrame
        ``query_id``, ``doc_id``, ``score``: the run every function takes.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"question_id": [7, 7, 7], "chunk_id": ["c9", "c2", "c5"],
    ...                       "position": [2, 1, 3]})
    >>> run_from_frame(frame, query_id="question_id", doc_id="chunk_id", rank="position")
      query_id doc_id  score
    0        7     c9    2.0
    1        7     c2    3.0
    2        7     c5    1.0
    """
    from reteval.io.frames import as_run

    if not isinstance(frame, pd.DataFrame):
        raise InputError(f"frame must be a pandas DataFrame; got {type(frame).__name__}")
    if score is not None and rank is not None:
        raise InputError(f"give the run's score column or its rank column, not both; got "
                         f"score={score!r}, rank={rank!r}")
    if query_id is None and doc_id is None and score is None and rank is None:
        return as_run(frame, check_duplicates=check_duplicates)  # canonical or PyTerrier names
    value = ("rank", rank) if rank is not None else ("score", score)
    picked = _pick(frame, "run", {"query_id": query_id, "doc_id": doc_id, value[0]: value[1]})
    renamed = {"query_id": query_id or "query_id", "doc_id": doc_id or "doc_id",
               "score": score or "score"}
    if rank is not None:
        picked = picked.assign(score=_scores_from_ranks(picked, rank)).drop(columns="rank")
        picked = picked[["query_id", "doc_id", "score"]]
    return _checked(lambda f: as_run(f, check_duplicates=check_duplicates), picked, "run",
                    renamed)


def qrels_from_frame(frame: pd.DataFrame, *, query_id: str | None = None,
                     doc_id: str | None = None, relevance: str | None = None) -> pd.DataFrame:
    """A qrels table from a frame's columns.

    Parameters
    ----------
    frame : pandas.DataFrame
        One row per judgment; other columns (the judge, its votes) are ignored. Not
        modified.
    query_id, doc_id : str, optional
        The columns of query and document ids (default ``query_id``, ``doc_id``, or
        PyTerrier's ``qid``, ``docno``); ids are kept as given.
    relevance : str, optional
        The column of grades (default ``relevance``, or PyTerrier's ``label``), checked
        as :func:`reteval.io.as_qrels` checks every grade.

    Returns
    -------
    pandas.DataFrame
        ``query_id``, ``doc_id``, ``relevance``: the qrels every function takes.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"question_id": ["q1", "q1"], "chunk_id": ["c2", "c5"],
    ...                       "grade": [2, 0]})
    >>> qrels_from_frame(frame, query_id="question_id", doc_id="chunk_id", relevance="grade")
      query_id doc_id  relevance
    0       q1     c2          2
    1       q1     c5          0
    """
    from reteval.io.frames import as_qrels

    if not isinstance(frame, pd.DataFrame):
        raise InputError(f"frame must be a pandas DataFrame; got {type(frame).__name__}")
    named = {"query_id": query_id, "doc_id": doc_id, "relevance": relevance}
    if all(v is None for v in named.values()):
        return as_qrels(frame)  # the canonical names, or PyTerrier's
    picked = _pick(frame, "qrels", named)
    return _checked(as_qrels, picked, "qrels",
                    {k: v or k for k, v in named.items()})


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
        The file; ``.gz`` compressed files are read too. Or a DataFrame (or another
        library's table that exports Arrow data, :func:`reteval.io.frames.arrow_table_frame`),
        one row per retrieved document, whose columns are named by the four options below
        (:func:`run_from_frame`).
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
    path = arrow_table_frame(path)
    if isinstance(path, pd.DataFrame):
        return run_from_frame(path, query_id=query_id, doc_id=doc_id, score=score, rank=rank,
                              check_duplicates=check_duplicates)
    _frame_only(path, "run", query_id=query_id, doc_id=doc_id, score=score, rank=rank)
    return read_run_file(path, check_duplicates=check_duplicates)


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
        (:func:`qrels_from_frame`); a frame's grades are
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
    path = arrow_table_frame(path)
    if isinstance(path, pd.DataFrame):
        if layout != "auto" or duplicates != "error":
            raise InputError(f"layout and duplicates apply to a qrels file, not to a DataFrame; "
                             f"got layout={layout!r}, duplicates={duplicates!r}")
        return qrels_from_frame(path, query_id=query_id, doc_id=doc_id, relevance=relevance)
    _frame_only(path, "qrels", query_id=query_id, doc_id=doc_id, relevance=relevance)
    return read_qrels_file(path, layout=layout, duplicates=duplicates)
