"""Exercises of notebook 04 (building and trusting the evaluation set).

Each checker recomputes the right answer from the exercise's data with
:mod:`reteval.judging`, so the exercise text and its check cannot drift apart.
Worked solutions: ``notebooks/solutions/04_solutions.ipynb``.

* ``04.1`` (kappa by hand): Cohen's kappa between :data:`ASSESSOR_A` and
  :data:`ASSESSOR_B`, a number.
* ``04.2`` (where a swap happens): ``(tau_AP of TOP_SWAP, tau_AP of BOTTOM_SWAP)``
  against :data:`TRUTH`, a pair of numbers (Kendall's tau is the same for both).
* ``04.3`` (pooling): how many (query, document) pairs the depth-3 pool of
  :data:`POOL_RUNS` sends to the assessors, a number.
* ``04.4`` (reusability): P@3 of run ``"c"`` of :data:`POOL_RUNS` when it is
  left out of the depth-3 pool, judged by :data:`POOL_QRELS` (unjudged = not
  relevant), and when it contributes to the pool: a pair of numbers (left out
  first), as a tuple or list, a dict keyed by what each is, or text ``"a, b"``.
* ``04.5`` (code): ``kappa(a, b)``, plain Cohen's kappa of two lists of grades,
  run on hidden judgments against :func:`reteval.judging.cohen_kappa`.
"""

from __future__ import annotations

import functools
import numbers
import re
from collections.abc import Iterable
from decimal import Decimal

import pandas as pd

from reteval.teaching.exercises import (
    Exercise,
    WrongAnswer,
    WrongType,
    close_to,
    number,
    returned_number,
    whole_number,
)

__all__ = [
    "ASSESSOR_A",
    "ASSESSOR_B",
    "BOTTOM_SWAP",
    "EXERCISES",
    "POOL_QRELS",
    "POOL_RUNS",
    "TOP_SWAP",
    "TRUTH",
]

#: 04.1: two assessors' binary labels of the same ten documents.
ASSESSOR_A = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0]
ASSESSOR_B = [1, 1, 1, 1, 0, 1, 1, 0, 0, 0]

#: 04.2: a ranking of five systems (system -> score) and two rankings with one swap each.
TRUTH = {"s1": 0.50, "s2": 0.45, "s3": 0.40, "s4": 0.35, "s5": 0.30}
TOP_SWAP = {"s2": 0.50, "s1": 0.45, "s3": 0.40, "s4": 0.35, "s5": 0.30}
BOTTOM_SWAP = {"s1": 0.50, "s2": 0.45, "s3": 0.40, "s5": 0.35, "s4": 0.30}

#: 04.3 and 04.4: three runs of one query (best first) and the complete judgments.
POOL_RUNS = {
    "a": {"q1": ["d1", "d2", "d3", "d4"]},
    "b": {"q1": ["d2", "d5", "d1", "d6"]},
    "c": {"q1": ["d7", "d8", "d2", "d1"]},
}
POOL_QRELS = {"q1": {"d1": 1, "d2": 1, "d3": 0, "d5": 0, "d6": 1, "d7": 1, "d8": 0}}

# 04.5: the hidden judgments (two assessors' grades, the name of what the case is about).
_KAPPA_CASES = [
    ([1, 1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 1], [1, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1, 1],
     "binary"),
    ([0, 0, 0, 0, 0, 1, 1, 2, 3, 3, 2, 0], [0, 0, 0, 1, 0, 1, 1, 2, 3, 2, 2, 0],
     "graded"),
    ([0, 0, 1, 1, 2, 0, 1, 0], [0, 0, 1, 3, 2, 0, 1, 0],
     "one_assessor"),
    ([2, 0, 1, 2, 0, 1], [2, 0, 1, 2, 0, 1],
     "perfect"),
    ([1, 0, 1, 0, 1, 0, 1, 0], [0, 1, 0, 1, 0, 1, 1, 0],
     "worse_than_chance"),
    ([0] * 40 + [1] * 6 + [2] * 3 + [3], [0] * 37 + [1] * 3 + [1] * 4 + [0] * 2 + [2] * 3 + [3],
     "mostly_irrelevant"),
]



def _close(answer, expected: float) -> bool:
    return close_to(answer, expected, decimals=2)


def _check_1(answer) -> bool:
    from reteval.judging import cohen_kappa

    return _close(answer, cohen_kappa(ASSESSOR_A, ASSESSOR_B))


def _check_2(answer) -> bool:
    from reteval.judging import tau_ap

    if isinstance(answer, (str, bytes)):
        raise WrongType("pair", answer)
    top, bottom = list(answer)
    truth = pd.Series(TRUTH)
    return (_close(top, tau_ap(truth, pd.Series(TOP_SWAP)))
            and _close(bottom, tau_ap(truth, pd.Series(BOTTOM_SWAP))))


def _check_3(answer) -> bool:
    from reteval.judging import pool

    return whole_number(answer, len(pool(POOL_RUNS, depth=3)))


# 04.4: the words a dict answer may key its two numbers by (compared without case, spaces, _ or -).
_LEFT_OUT_KEYS = {"leftout", "left", "out", "without", "excluded", "notpooled", "unpooled",
                  "不参与", "未参与", "没有参与", "不参与建池", "未参与建池", "排除"}
_POOLED_KEYS = {"pooled", "with", "in", "included", "contributing", "contributed",
                "参与", "参与建池", "建池"}


def _left_out_and_pooled(answer) -> tuple:
    """``(left out, pooled)`` from a pair, a dict keyed by what each is, or text ``"a, b"``."""
    if isinstance(answer, dict):
        found = {}
        for key, value in answer.items():
            name = "".join(str(key).lower().split()).replace("_", "").replace("-", "")
            side = ("left_out" if name in _LEFT_OUT_KEYS
                    else "pooled" if name in _POOLED_KEYS else None)
            if side is None or side in found:
                raise WrongAnswer("keys")
            found[side] = value
        if len(found) != 2:
            raise WrongAnswer("keys")
        return found["left_out"], found["pooled"]
    if isinstance(answer, str):
        parts = [part for part in re.split(r"[,，;；\s]+", answer.strip(" ()[]（）")) if part]
        if len(parts) == 1:
            number(parts[0])  # one number: said below
            raise WrongAnswer("one_number")
        answer = parts
    if isinstance(answer, (numbers.Number, Decimal)) and not isinstance(answer, bool):
        raise WrongAnswer("one_number")
    if isinstance(answer, (bytes, bytearray)) or not isinstance(answer, Iterable):
        raise WrongType("pair", answer)
    values = list(answer)
    if len(values) != 2:
        raise WrongType("pair", answer)
    return values[0], values[1]


@functools.lru_cache(maxsize=1)
def _run_c_left_out_and_pooled() -> tuple[float, float]:
    """P@3 of run "c" left out of the depth-3 pool and pooled (computed once: 0.2 s)."""
    from reteval.judging import leave_one_out

    table = leave_one_out(POOL_QRELS, POOL_RUNS, measure="P@3", depth=3).table
    return table.loc["c", "left_out"], table.loc["c", "pooled"]


def _check_4(answer) -> bool:
    left_out, pooled = _left_out_and_pooled(answer)
    expected_out, expected_pooled = _run_c_left_out_and_pooled()
    if _close(pooled, expected_out) and _close(left_out, expected_pooled):
        raise WrongAnswer("swapped")
    return _close(left_out, expected_out) and _close(pooled, expected_pooled)


def _kappa_function(answer) -> bool:
    from reteval.judging import cohen_kappa

    if not callable(answer):
        raise WrongType("function", answer)
    for a, b, case in _KAPPA_CASES:
        try:
            result = answer(list(a), list(b))
        except Exception as error:  # the student's code may fail in any way
            raise WrongAnswer("raised", case=case, error=type(error).__name__) from error
        got = returned_number(result)
        if abs(got - cohen_kappa(a, b)) > 1e-9:
            raise WrongAnswer("wrong", case=case)
    return True


EXERCISES = {
    "04.1": Exercise(_check_1),
    "04.2": Exercise(_check_2),
    "04.3": Exercise(_check_3),
    "04.4": Exercise(_check_4),
    "04.5": Exercise(_kappa_function, code=True),
}
