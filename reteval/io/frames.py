"""Any accepted input (path, DataFrame, dict, EvaluationQuery records) as a checked table."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from pandas.api.types import infer_dtype, is_bool_dtype, is_integer_dtype, is_numeric_dtype

from reteval.errors import InputError
from reteval.io.duplicates import check_unique, rows_named
from reteval.io.grades import grade_array
from reteval.io.read import read_qrels_file, read_run_file
from reteval.io.tables import ID_DTYPE, QRELS_COLUMNS, id_array
from reteval.io.textfile import INT64_MAX, INT64_MIN, parse_decimal

__all__ = ["arrow_table_frame", "as_qrels", "as_run"]


def _where(index: pd.Index, position: int) -> str:
    """``line N`` for a table read from a file, else ``row N`` (N from 0) and its index label
    when the index is not 0, 1, 2, ... (:func:`reteval.io.duplicates.rows_named`)."""
    return rows_named(index, [position], lines=index.name == "line")


def _id_column(column: pd.Series, what: str) -> pd.api.extensions.ExtensionArray:
    """An id column as Arrow strings: every id a string or an integer, none missing.

    The rule of dict inputs (:func:`_nested_id`) for every dtype: a missing id
    (None, NaN, ``pd.NA``, a categorical's NaN, an Arrow null) is an error, and
    so is a float, a boolean or any other object (``10.0`` would be the id
    ``"10.0"``, which no ``"10"`` matches).
    """
    missing = column.isna()
    if missing.any():
        position = int(np.flatnonzero(missing.to_numpy())[0])
        raise InputError(f"{what} {column.name} is missing on {_where(column.index, position)} "
                         "(every id must be a string or an integer)")
    if column.dtype == ID_DTYPE:
        return column.array
    dtype = column.dtype
    values = pd.Series(dtype.categories) if isinstance(dtype, pd.CategoricalDtype) else column
    kind = infer_dtype(values, skipna=False)
    if kind == "mixed-integer" and all(_is_id(value) for value in values.to_numpy(object)):
        kind = "integer"
    if kind not in ("string", "integer", "empty") and len(column):  # no row, no wrong id
        objects = column.to_numpy(object)
        position = next((i for i, v in enumerate(objects) if not _is_id(v)), 0)
        value = objects[position]
        raise InputError(
            f"{what} {column.name} must hold strings or integers; got {_shown(value)} "
            f"({type(value).__name__}) on {_where(column.index, position)}"
            + (": a float id such as 10.0 never matches the id '10'; convert the column "
               "first (.astype('Int64') or .astype(str))" if kind in _FLOAT_KINDS else ""))
    return id_array(column if kind == "string" else column.astype(str))


_FLOAT_KINDS = ("floating", "mixed-integer-float", "decimal")


def _shown(value) -> str:
    return f"{value!r:.80}" if isinstance(value, (str, bytes)) else f"{value!s:.80}"


def _is_id(value) -> bool:
    return isinstance(value, (str, int, np.integer)) and not isinstance(value, (bool, np.bool_))


#: PyTerrier's column names (``qid, docno, score`` runs, ``qid, docno, label`` qrels),
#: read when reteval's own names are absent. PyTerrier's ``docid`` is an internal
#: integer id, never the document's name, so it is not read.
_PYTERRIER_COLUMNS = {"query_id": "qid", "doc_id": "docno", "relevance": "label", "score": "score"}


def arrow_table_frame(table):
    """A table of another library that exports Arrow data (the Arrow PyCapsule interface,
    ``__arrow_c_stream__``: pyarrow tables and record batches, polars DataFrames, DuckDB
    results) as a pandas DataFrame, its strings as reteval's id strings; a pandas DataFrame
    or anything that is not such a table (a column, a dict) as it is.

    Examples
    --------
    >>> import pyarrow as pa
    >>> arrow_table_frame(pa.table({"query_id": ["q1"], "doc_id": ["d1"], "score": [0.5]}))
      query_id doc_id  score
    0       q1     d1    0.5
    """
    if isinstance(table, pd.DataFrame) or not hasattr(table, "__arrow_c_stream__"):
        return table
    import pyarrow as pa

    try:
        arrow = pa.table(table)
    except (pa.ArrowInvalid, TypeError):  # an array or a column: not a table
        return table
    strings = (pa.string(), pa.large_string(), pa.string_view())  # polars exports views
    return arrow.to_pandas(types_mapper={t: ID_DTYPE for t in strings}.get)


def _from_frame(frame: pd.DataFrame, value_column: str, what: str) -> pd.DataFrame:
    if frame.index.name == "line" and frame.attrs.get("source") is None:
        frame = frame.rename_axis(index=None)  # a user's index named so: not a file's lines
    wanted = ("query_id", "doc_id", value_column)
    names = {c: c if c in frame.columns else _PYTERRIER_COLUMNS[c] for c in wanted}
    missing = [c for c in wanted if names[c] not in frame.columns]
    doubled = sorted({names[c] for c in wanted} & set(frame.columns[frame.columns.duplicated()]))
    if doubled:
        raise InputError(f"a {what} DataFrame must have one column of each name; "
                         f"{doubled} appear more than once in {list(frame.columns)}")
    if missing:
        ids = "".join(f"{name}={names[name]!r}, " for name in ("query_id", "doc_id")
                      if names[name] != name)
        hint = (f"; for a run given by ranks only, read it with read_run(frame, {ids}rank='rank')"
                if missing == ["score"] and "rank" in frame.columns else "")
        raise InputError(
            f"a {what} DataFrame needs columns query_id, doc_id, {value_column} "
            f"(or PyTerrier's qid, docno, {_PYTERRIER_COLUMNS[value_column]}); "
            f"missing {missing}, got {list(frame.columns)}{hint}"
        )
    out = pd.DataFrame(
        {
            "query_id": _id_column(frame[names["query_id"]].rename("query_id"), what),
            "doc_id": _id_column(frame[names["doc_id"]].rename("doc_id"), what),
            value_column: frame[names[value_column]],
        }
    )
    out.index = frame.index  # the errors of the checks name rows by it; reset after them
    out.attrs.update(frame.attrs)
    return out


def _to_number(value, grade: bool):
    """One value of an object column as a number, or None when it cannot be one.

    A score may be given as text (read with the file readers' grammar); a grade may not.
    """
    if isinstance(value, (bool, np.bool_)) or value is None or value is pd.NA:
        return None
    if isinstance(value, str):
        if grade:
            return None
        try:
            return parse_decimal(value.strip())
        except InputError:
            return None
    if isinstance(value, (int, np.integer)):
        value = int(value)
        if grade:
            return value if INT64_MIN <= value <= INT64_MAX else None
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def _check_values(frame: pd.DataFrame, column: str, what: str, grade: bool) -> pd.DataFrame:
    """Check and convert a value column in place: finite grades (int64 when all are
    integers, else float64, :func:`reteval.io.grades.grade_array`), finite float64 scores.

    Scores given as strings are read with the file readers' number grammar
    (:mod:`reteval.io.textfile`); grades given as strings are refused (an LLM judge's
    answer is parsed by the caller, not guessed here); booleans are not numbers.
    """
    raw = frame[column]
    kind = raw.dtype.kind if isinstance(raw.dtype, np.dtype) else "O"
    values: Any = None
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
        elif kind == "u" and grade:
            bad = values > INT64_MAX
        else:
            bad = np.zeros(len(values), dtype=bool)
        converted = None
    else:
        converted = [_to_number(v, grade) for v in raw.to_numpy(dtype=object)]
        bad = np.fromiter((v is None for v in converted), dtype=bool, count=len(converted))
    if bad.any():
        position = int(np.flatnonzero(bad)[0])
        value = raw.iloc[position]
        kind_text = "a finite number"
        if grade and isinstance(value, str):
            kind_text += " (not text: convert the column with pd.to_numeric first)"
        shown = repr(value) if isinstance(value, str) else str(value)
        raise InputError(
            f"{what} {column} must be {kind_text}; got {shown} "
            f"on {_where(frame.index, position)}",
            path=frame.attrs.get("source"),
        )
    if converted is not None:
        values = np.array(converted) if grade else np.array(converted, dtype=np.float64)
    frame[column] = grade_array(values) if grade else values.astype(np.float64)
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
        {"query_id": id_array(qids), "doc_id": id_array(docs),
         value_column: pd.array(values, dtype=object)}
    )


def _from_evaluation_queries(records) -> pd.DataFrame:
    rows: list[tuple] = []
    for record in records:
        scores = dict(getattr(record, "relevance_scores", None) or {})
        for doc in getattr(record, "relevant_docs", None) or []:
            scores.setdefault(doc, 1)
        qid = _nested_id(record.query_id, "qrels")
        rows.extend((qid, _nested_id(doc, "qrels"), rel) for doc, rel in scores.items())
    frame = pd.DataFrame(rows, columns=list(QRELS_COLUMNS), dtype=object)
    frame["query_id"] = id_array(frame["query_id"])
    frame["doc_id"] = id_array(frame["doc_id"])
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
          ``docno``, ``label``; or a table of another library that exports Arrow
          data (``__arrow_c_stream__``: a pyarrow or polars table, a DuckDB result);
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
        return read_qrels_file(qrels)
    qrels = arrow_table_frame(qrels)
    if isinstance(qrels, pd.DataFrame):
        frame = _from_frame(qrels, "relevance", "qrels")
    elif isinstance(qrels, Mapping):
        frame = _from_nested(qrels, "relevance", "qrels")
    elif isinstance(qrels, Sequence) and qrels and all(_is_evaluation_query(r) for r in qrels):
        frame = _from_evaluation_queries(qrels)
    else:
        raise InputError(
            "qrels must be a file path, a DataFrame (query_id, doc_id, relevance) or another "
            "library's table that exports Arrow data, a dict "
            f"{{query_id: {{doc_id: relevance}}}} or EvaluationQuery records; "
            f"got {type(qrels).__name__}"
        )
    if frame.empty:
        raise InputError("the qrels hold no judgments")
    frame = _check_values(frame, "relevance", "qrels", grade=True)
    check_unique(frame, "qrels")
    return _numbered(frame)


def as_run(run, *, check_duplicates: bool = True) -> pd.DataFrame:
    """Turn any accepted form of retrieval results into a run table.

    Parameters
    ----------
    run : path, DataFrame or mapping
        * a path to a TREC run file;
        * a DataFrame with columns ``query_id``, ``doc_id``, ``score``, or
          PyTerrier's ``qid``, ``docno``, ``score`` (a ``pt.Experiment``-style
          result frame; its other columns are ignored); or a table of another library
          that exports Arrow data, as for :func:`as_qrels`;
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
        return read_run_file(run, check_duplicates=check_duplicates)
    run = arrow_table_frame(run)
    if isinstance(run, pd.DataFrame):
        frame = _from_frame(run, "score", "run")
    elif isinstance(run, Mapping):
        frame = _from_nested(run, "score", "run")
    else:
        raise InputError(
            "a run must be a file path, a DataFrame (query_id, doc_id, score) or another "
            "library's table that exports Arrow data, a dict "
            f"{{query_id: {{doc_id: score}}}} or {{query_id: [doc ids]}}; got {type(run).__name__}"
        )
    frame = _check_values(frame, "score", "run", grade=False)
    if check_duplicates:
        check_unique(frame, "run")
    return _numbered(frame)


def _numbered(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its rows numbered from 0, unless they are a file's lines."""
    if frame.index.name != "line":
        frame.index = pd.RangeIndex(len(frame))
    return frame
