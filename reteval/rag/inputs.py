"""Reading RAG samples: the accepted containers and column names, checked once."""

from __future__ import annotations

import math
import reprlib
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from reteval.errors import InputError, UnknownMeasureError

__all__ = ["METRICS", "check_metrics", "is_sequence", "read_question_ids", "read_samples",
           "show"]

#: The measure names reteval.rag computes, in their default order.
METRICS: tuple[str, ...] = ("context_recall", "context_precision")

# Accepted column names for each role, the preferred (chapter) name first.
_QUESTION_COLUMNS = ("question", "user_input")
_CONTEXTS_COLUMNS = ("contexts", "retrieved_contexts")
_REFERENCE_COLUMNS = ("ground_truth", "reference", "ground_truths")

_repr = reprlib.Repr()
_repr.maxstring = 60
_repr.maxother = 60
_repr.maxlist = 4


def show(value: object) -> str:
    """Short type-and-value text for error messages."""
    return f"{type(value).__name__} {_repr.repr(value)}"




def is_sequence(value: object) -> bool:
    """Whether `value` is a list-like of values (not a string, bytes or mapping)."""
    return not isinstance(value, (str, bytes, Mapping)) and isinstance(
        value, (Sequence, np.ndarray, pd.Series, pd.Index)
    )


def _columns_getter(data: object) -> Callable[[str], object]:
    """Return ``get(column) -> values or KeyError`` for any accepted container."""
    if isinstance(data, pd.DataFrame):
        return lambda col: data[col].tolist() if col in data.columns else _missing(col)
    if isinstance(data, Mapping):
        return lambda col: data[col] if col in data else _missing(col)
    if isinstance(data, (str, bytes)) or is_sequence(data):
        raise InputError(
            "data must be a mapping of columns ('question', 'contexts', 'ground_truth'), "
            f"a Dataset-like object or a pandas DataFrame; got {show(data)} "
            "(for a list of records, pass pandas.DataFrame(records))"
        )
    to_dict = getattr(data, "to_dict", None)
    if callable(to_dict):
        columns = to_dict()
        if not isinstance(columns, Mapping):
            raise InputError(
                f"data.to_dict() must return a mapping of columns; got {show(columns)}"
            )
        return lambda col: columns[col] if col in columns else _missing(col)
    if hasattr(data, "__getitem__"):

        def get(col: str) -> object:
            try:
                return data[col]  # type: ignore[index]
            except (KeyError, IndexError, ValueError):
                return _missing(col)

        return get
    raise InputError(
        "data must be a mapping of columns, a Dataset-like object (with .to_dict() or "
        f"[column] access) or a pandas DataFrame; got {show(data)}"
    )


def _missing(col: str):
    raise KeyError(col)


def _column(get: Callable[[str], object], names: tuple[str, ...]) -> tuple[str, list]:
    found = {}
    for name in names:
        try:
            found[name] = get(name)
        except KeyError:
            continue
    if not found:
        raise InputError(f"data has no column {names[0]!r} (also accepted: {list(names[1:])})")
    if len(found) > 1:
        raise InputError(
            f"data has several columns for the same role: {sorted(found)}; keep only one"
        )
    (name, values), = found.items()
    if not is_sequence(values):
        raise InputError(f"column {name!r} must be a list with one value per sample; "
                         f"got {show(values)}")
    return name, list(values)


def read_samples(data: object) -> list[tuple[str, tuple[str, ...], str]]:
    """Check `data` and return its samples as ``(question, contexts, reference)``.

    The accepted containers and columns are those of
    :func:`reteval.rag.evaluate_contexts`; a ``ground_truths`` list is joined
    by line breaks.

    Examples
    --------
    >>> read_samples({"question": ["q"], "contexts": [["c1", "c2"]], "reference": ["r"]})
    [('q', ('c1', 'c2'), 'r')]
    """
    get = _columns_getter(data)
    cols = [_column(get, names) for names in (_QUESTION_COLUMNS, _CONTEXTS_COLUMNS,
                                                 _REFERENCE_COLUMNS)]
    (q_name, questions), (c_name, contexts), (r_name, references) = cols
    lengths = {name: len(values) for name, values in cols}
    if len(set(lengths.values())) > 1:
        raise InputError(
            "the columns must have one value per sample, so equal lengths; got "
            + ", ".join(f"{n!r}: {k}" for n, k in lengths.items())
        )
    if not questions:
        raise InputError("data has no samples")
    samples = []
    for i, (q, ctx, ref) in enumerate(zip(questions, contexts, references, strict=True)):
        if not isinstance(q, str):
            raise InputError(f"{q_name}[{i}] must be a string; got {show(q)}")
        if not is_sequence(ctx):
            raise InputError(f"{c_name}[{i}] must be a list of strings; got {show(ctx)}")
        ctx = tuple(ctx)
        if not ctx:
            raise InputError(
                f"{c_name}[{i}] is empty; every sample needs at least one retrieved context; "
                f"got {show(list(ctx))}"
            )
        for j, c in enumerate(ctx):
            if not isinstance(c, str):
                raise InputError(f"{c_name}[{i}][{j}] must be a string; got {show(c)}")
        if r_name == "ground_truths":
            if not is_sequence(ref) or not all(isinstance(r, str) for r in ref):
                raise InputError(f"{r_name}[{i}] must be a list of strings; got {show(ref)}")
            ref = "\n".join(ref)
        elif not isinstance(ref, str):
            raise InputError(f"{r_name}[{i}] must be a string; got {show(ref)}")
        samples.append((str(q), tuple(str(c) for c in ctx), str(ref)))
    return samples


def read_question_ids(data: object, column: str, *, required: bool) -> list | None:
    """The question ids of `data`'s column `column`, as given; None when it has none.

    Only a missing column that is not `required` gives None. The ids must be present,
    hashable and distinct (they index the scores).

    Examples
    --------
    >>> read_question_ids({"question_id": [7, 3]}, "question_id", required=False)
    [7, 3]
    >>> read_question_ids({"question": ["q"]}, "question_id", required=False) is None
    True
    """
    get = _columns_getter(data)
    try:
        values = get(column)
    except KeyError:
        if required:
            raise InputError(f"data has no column {column!r} (the question_id column)") from None
        return None
    if not is_sequence(values):
        raise InputError(f"column {column!r} must be a list with one id per sample; "
                         f"got {show(values)}")
    ids = list(values)
    seen: dict = {}
    for i, qid in enumerate(ids):
        if qid is None or (isinstance(qid, float) and math.isnan(qid)) or isinstance(
            qid, (list, dict, set, tuple)
        ):
            raise InputError(f"{column}[{i}] must be a question id (a string or a number); "
                             f"got {show(qid)}")
        if qid in seen:
            raise InputError(f"{column}[{i}] repeats the id of sample {seen[qid]}: {qid!r}; "
                             "question ids must be distinct")
        seen[qid] = i
    return ids


def check_metrics(metrics: object) -> tuple[str, ...]:
    """Return the requested metric names as a tuple, checked against :data:`METRICS`."""
    if isinstance(metrics, str):
        metrics = (metrics,)
    if not is_sequence(metrics) and not isinstance(metrics, (set, frozenset)):
        raise InputError(f"metrics must be a sequence of names from {METRICS}; "
                         f"got {show(metrics)}")
    names = tuple(metrics)
    if not names:
        raise InputError(f"metrics must name at least one of {METRICS}; got {names!r}")
    for name in names:
        if name not in METRICS:
            raise UnknownMeasureError(f"unknown metric {name!r}; expected one of {METRICS}")
    if len(set(names)) != len(names):
        raise InputError(f"metrics must not repeat a name; got {names!r}")
    return names
