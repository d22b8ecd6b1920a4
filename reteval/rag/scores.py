"""The two formulas: context precision and context recall from yes/no verdicts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from reteval.errors import InputError
from reteval.rag.inputs import show

__all__ = ["context_precision_score", "context_recall_score"]


def _verdicts(values: object, name: str) -> np.ndarray:
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(
        values, (Sequence, np.ndarray)
    ):
        raise InputError(f"{name} must be a sequence of booleans; got {show(values)}")
    out = np.zeros(len(values), dtype=bool)
    for k, v in enumerate(values):
        if isinstance(v, (bool, np.bool_)) or (
            isinstance(v, (int, np.integer)) and int(v) in (0, 1)
        ):
            out[k] = bool(v)
        else:
            raise InputError(f"{name}[{k}] must be a boolean (or 0/1); got {show(v)}")
    return out


def context_precision_score(relevant: Sequence[bool]) -> float:
    """Context precision of one ranked list of relevance verdicts.

    ``sum_k precision@k * v_k / sum_k v_k`` over the ranks ``k = 1..K``.

    Parameters
    ----------
    relevant : sequence of bool
        ``relevant[k]`` says whether the context at rank ``k + 1`` is
        relevant (``v_k``); 0 and 1 are accepted too.

    Returns
    -------
    float
        A value in [0, 1]; 0.0 when no context is relevant (including an
        empty sequence).

    Raises
    ------
    InputError
        If `relevant` is not a sequence of booleans.

    Examples
    --------
    Relevant contexts at ranks 3 and 4 of 5: (1/3 + 2/4) / 2.

    >>> round(context_precision_score([0, 0, 1, 1, 0]), 6)
    0.416667
    >>> context_precision_score([False, False])
    0.0
    """
    v = _verdicts(relevant, "relevant")
    n_relevant = int(v.sum())
    if n_relevant == 0:
        return 0.0
    precision_at_k = np.cumsum(v) / np.arange(1, v.size + 1)
    return float(precision_at_k[v].sum() / n_relevant)


def context_recall_score(supported: Sequence[bool]) -> float:
    """Context recall from one verdict per reference statement.

    Parameters
    ----------
    supported : sequence of bool
        ``supported[i]`` says whether the retrieved contexts support the
        reference's statement ``i``; 0 and 1 are accepted too.

    Returns
    -------
    float
        The share of supported statements; NaN when there are no statements
        (recall of nothing is undefined).

    Raises
    ------
    InputError
        If `supported` is not a sequence of booleans.

    Examples
    --------
    >>> context_recall_score([True, False, True, True])
    0.75
    >>> context_recall_score([])
    nan
    """
    v = _verdicts(supported, "supported")
    return float(v.mean()) if v.size else float("nan")
