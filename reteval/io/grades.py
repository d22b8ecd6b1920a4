"""Relevance grades as one numpy column: integers stay int64, fractional grades are float64.

A grade is any finite number. Integer grades (trec_eval's) are kept as ``int64``, so that
integer-graded judgments are evaluated exactly as before; a column with a fractional
grade (an LLM judge's 0.7) is ``float64``. Negative grades keep trec_eval's meaning:
"in the pool, not assessed".
"""

from __future__ import annotations

import numpy as np

__all__ = ["grade_array", "is_fractional"]


def grade_array(values) -> np.ndarray:
    """Grades as an ``int64`` array when every one is an integer, else ``float64``.

    Examples
    --------
    >>> grade_array([2, 0, -1]).dtype.name, grade_array([1, 0.5]).tolist()
    ('int64', [1.0, 0.5])
    >>> grade_array([1.0, 2.0]).dtype.name
    'int64'
    """
    values = np.asarray(values)
    if values.dtype.kind in "iub":
        return values.astype(np.int64, copy=False)
    values = values.astype(np.float64, copy=False)
    if len(values) and bool(np.all(values == np.round(values))) and (
            np.abs(values).max() < 2.0**63):
        return values.astype(np.int64)
    return values


def is_fractional(grades: np.ndarray) -> bool:
    """Whether a grade column holds a grade that is not an integer.

    Examples
    --------
    >>> is_fractional(np.array([1, 2])), is_fractional(np.array([0.5, 1.0]))
    (False, True)
    """
    grades = np.asarray(grades)
    return grades.dtype.kind == "f" and bool(np.any(grades != np.round(grades)))
