"""Context precision and context recall from verdicts already made, one row per verdict.

When the verdicts come from elsewhere (an LLM judge run last week, a
spreadsheet of human labels), the two measures need no judge: a frame with
one row per retrieved context (its question, its rank, whether it is
relevant) gives context precision, and a frame with one row per reference
statement (its question, whether the contexts support it) gives context
recall. The formulas are those of :mod:`reteval.rag.scores`.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np
import pandas as pd

from reteval.errors import InputError
from reteval.rag.inputs import show

__all__ = ["context_precision", "context_recall"]


def _frame(data: object, name: str) -> pd.DataFrame:
    if isinstance(data, pd.DataFrame):
        return data
    if isinstance(data, (str, bytes)) or data is None:
        raise InputError(f"{name} must be a pandas DataFrame (or a mapping of columns); "
                         f"got {show(data)}")
    try:
        return pd.DataFrame(data)
    except (TypeError, ValueError) as err:
        raise InputError(f"{name} must be a pandas DataFrame (or a mapping of columns); "
                         f"got {show(data)}: {err}") from None


def _columns(frame: pd.DataFrame, name: str, **roles: str) -> None:
    for role, column in roles.items():
        if not isinstance(column, Hashable) or column not in frame.columns:
            raise InputError(
                f"{name} has no column {column!r} (the {role} column; pass {role}=...); "
                f"its columns: {list(frame.columns)}"
            )
    if frame.empty:
        raise InputError(f"{name} has no rows")


def _bad_row(frame: pd.DataFrame, mask: np.ndarray, column: str, what: str) -> InputError:
    position = int(np.flatnonzero(mask)[0])
    value = frame[column].iloc[position]
    if isinstance(value, np.generic):
        value = value.item()
    return InputError(f"column {column!r}, row {frame.index[position]!r}: {what}; "
                      f"got {show(value)}")


def _booleans(frame: pd.DataFrame, column: str, hint: str = "") -> np.ndarray:
    """The column as bools: bools, or integers 0 and 1."""
    values = frame[column].to_numpy(dtype=object)
    ok = np.array([isinstance(v, (bool, np.bool_))
                   or (isinstance(v, (int, np.integer)) and v in (0, 1)) for v in values],
                  dtype=bool)
    if not ok.all():
        raise _bad_row(frame, ~ok, column, f"must be a boolean (or 0/1){hint}")
    return values.astype(bool)


def _grades(frame: pd.DataFrame, column: str, level: object) -> np.ndarray:
    """``grade >= level`` for a column of finite numbers."""
    if isinstance(level, (bool, np.bool_)) or not isinstance(level, (int, float, np.number)) \
            or not np.isfinite(level):
        raise InputError(f"level must be a finite number; got {show(level)}")
    values = frame[column].to_numpy(dtype=object)
    ok = np.array([isinstance(v, (int, float, np.integer, np.floating))
                   and not isinstance(v, (bool, np.bool_)) and bool(np.isfinite(v))
                   for v in values], dtype=bool)
    if not ok.all():
        raise _bad_row(frame, ~ok, column,
                       f"must be a finite number (a grade compared with level={level!r})")
    return values.astype(float) >= float(level)


def _question_ids(frame: pd.DataFrame, column: str) -> pd.Series:
    ids = frame[column]
    missing = ids.isna().to_numpy()
    if missing.any():
        raise _bad_row(frame, missing, column, "a question id is missing")
    return ids


def context_precision(
    verdicts: object,
    *,
    question_id: str = "question_id",
    rank: str = "rank",
    relevant: str = "relevant",
    level: float | None = None,
) -> pd.Series:
    """Context precision of every question, from one relevance verdict per retrieved context.

    RAGAS's definition, for a question whose retriever returned ``K`` contexts::

        context_precision = sum_k (precision@k * v_k) / (number of relevant contexts in top K)

    where ``v_k`` is 1 when the context at rank ``k`` is relevant and 0 otherwise, and
    ``precision@k`` is the share of relevant contexts among the first ``k``; 0.0 when no
    context of the question is relevant. The same formula as
    :func:`reteval.rag.context_precision_score`, per question.

    Parameters
    ----------
    verdicts : pandas.DataFrame or mapping of columns
        One row per retrieved context, with the columns below (others are ignored). Not
        modified.
    question_id : str, default "question_id"
        The column of question ids; they are kept as given (type and spelling).
    rank : str, default "rank"
        The column of ranks: integers, the ranks of one question 1..K (or 0..K-1 when the
        frame's smallest rank is 0), each once. A gap or a repeat is an error, since it
        means a verdict is missing or doubled.
    relevant : str, default "relevant"
        The column of verdicts: booleans (or 0/1) when `level` is None, otherwise grades.
    level : float, optional
        When given, `relevant` holds finite numeric grades and a context is relevant when
        its grade >= `level` (``level=2`` on a 0-3 scale, ``level=0.5`` on [0, 1]).

    Returns
    -------
    pandas.Series
        Named ``context_precision``, indexed by question id (the index named after the
        `question_id` column), the questions in order of first appearance.

    Raises
    ------
    InputError
        If a column is missing, a question id is missing, a rank is not an integer, a
        question's ranks have a gap or a repeat, or a verdict is not a boolean (a grade
        that is not a finite number when `level` is given); the message names the column
        and the row.

    See Also
    --------
    context_recall : the share of reference statements supported, per question.
    evaluate_contexts : both measures, asking a judge for the verdicts.

    Examples
    --------
    Question ``q1``: relevant contexts at ranks 1 and 3 of 3, so (1/1 + 2/3) / 2;
    ``q2``: none relevant, so 0.

    >>> import pandas as pd
    >>> verdicts = pd.DataFrame({
    ...     "question_id": ["q1", "q1", "q1", "q2", "q2"],
    ...     "rank":        [1, 2, 3, 1, 2],
    ...     "relevant":    [True, False, True, False, False]})
    >>> context_precision(verdicts).round(6)
    question_id
    q1    0.833333
    q2    0.000000
    Name: context_precision, dtype: float64

    Grades from an LLM judge on a 0-3 scale, relevant from 2 up: the same verdicts.

    >>> verdicts["grade"] = [3, 1, 2, 0, 1]
    >>> context_precision(verdicts, relevant="grade", level=2).round(6).tolist()
    [0.833333, 0.0]
    """
    frame = _frame(verdicts, "verdicts")
    _columns(frame, "verdicts", question_id=question_id, rank=rank, relevant=relevant)
    ids = _question_ids(frame, question_id)
    if level is None:
        grades = frame[relevant].dtype.kind in "fiu"
        v = _booleans(frame, relevant, "; for grades pass level=, e.g. level=1" if grades else "")
    else:
        if frame[relevant].dtype == bool:
            raise InputError(f"column {relevant!r} holds booleans; level={level!r} applies "
                             "to grades only: leave level out")
        v = _grades(frame, relevant, level)
    ranks = frame[rank].to_numpy(dtype=object)
    integral = np.array([isinstance(r, (int, np.integer)) and not isinstance(r, (bool, np.bool_))
                         or (isinstance(r, (float, np.floating)) and float(r).is_integer())
                         for r in ranks], dtype=bool)
    if not integral.all():
        raise _bad_row(frame, ~integral, rank, "a rank must be an integer")
    ranks = ranks.astype(np.int64)
    base = 0 if ranks.min() == 0 else 1
    codes, uniques = pd.factorize(ids, sort=False)
    order = np.lexsort((ranks, codes))
    codes_s, ranks_s, v_s = codes[order], ranks[order], v[order]
    starts = np.flatnonzero(np.r_[True, codes_s[1:] != codes_s[:-1]])
    sizes = np.diff(np.r_[starts, codes_s.size])
    position = np.arange(codes_s.size) - np.repeat(starts, sizes)  # 0-based within question
    wrong = ranks_s != position + base
    if wrong.any():
        first = int(np.flatnonzero(wrong)[0])
        question = uniques[codes_s[first]]
        got = sorted(ranks[codes == codes_s[first]].tolist())
        raise InputError(
            f"column {rank!r}: the ranks of question {question!r} must be "
            f"{base}..K, each once (a gap or a repeat means a verdict is missing or doubled); "
            f"got {show(got)}"
        )
    hits = v_s.astype(np.int64)
    cum = np.cumsum(hits)
    cum_within = cum - np.repeat(np.r_[0, cum[starts[1:] - 1]], sizes)
    terms = np.where(v_s, cum_within / (position + 1), 0.0)
    total = np.add.reduceat(terms, starts)
    n_relevant = np.add.reduceat(hits, starts)
    score = np.divide(total, n_relevant, out=np.zeros(starts.size), where=n_relevant > 0)
    # factorize numbers the questions in order of first appearance, so the groups of
    # the sorted rows are the questions in that order
    return pd.Series(score, index=pd.Index(uniques, name=question_id), name="context_precision")


def context_recall(
    statements: object,
    *,
    question_id: str = "question_id",
    supported: str = "supported",
) -> pd.Series:
    """Context recall of every question, from one verdict per reference statement.

    The share of the reference's statements that the retrieved contexts support, as
    :func:`reteval.rag.context_recall_score` computes it, per question.

    Parameters
    ----------
    statements : pandas.DataFrame or mapping of columns
        One row per statement of a question's reference, with the columns below (others,
        such as the statement's text, are ignored). Not modified.
    question_id : str, default "question_id"
        The column of question ids; they are kept as given.
    supported : str, default "supported"
        The column of verdicts: booleans (or 0/1).

    Returns
    -------
    pandas.Series
        Named ``context_recall``, indexed by question id (the index named after the
        `question_id` column), the questions in order of first appearance.

    Raises
    ------
    InputError
        If a column is missing, a question id is missing or a verdict is not a boolean;
        the message names the column and the row.

    Examples
    --------
    ``q1``: 2 of 3 statements supported; ``q2``: 1 of 1.

    >>> import pandas as pd
    >>> statements = pd.DataFrame({
    ...     "question_id": ["q1", "q1", "q1", "q2"],
    ...     "supported":   [True, False, True, True]})
    >>> context_recall(statements).round(6)
    question_id
    q1    0.666667
    q2    1.000000
    Name: context_recall, dtype: float64
    """
    frame = _frame(statements, "statements")
    _columns(frame, "statements", question_id=question_id, supported=supported)
    ids = _question_ids(frame, question_id)
    v = _booleans(frame, supported)
    codes, uniques = pd.factorize(ids, sort=False)
    counts = np.bincount(codes, minlength=uniques.size)
    hits = np.bincount(codes, weights=v.astype(float), minlength=uniques.size)
    return pd.Series(hits / counts, index=pd.Index(uniques, name=question_id),
                     name="context_recall")
