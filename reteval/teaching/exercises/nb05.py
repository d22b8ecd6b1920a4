"""Exercises of notebook 05 (exploring measures interactively).

The computed exercises are checked against values the checker recomputes with
the library, so the exercise and its check cannot drift apart. Worked
solutions: ``notebooks/solutions/05_solutions.ipynb``.

* ``05.1`` (computed): trec_eval's AP of the ranked list :data:`GRADES` with
  the judged, unretrieved documents :data:`UNRETRIEVED`: a number.
* ``05.2`` (computed): users per group to detect an increase of
  :data:`EFFECT` over a baseline rate :data:`BASELINE` (alpha 0.05, power 0.8,
  two-sided): an integer.
* ``05.3`` (the shape of nDCG@K on the teaching collection): a letter.
"""

from __future__ import annotations

import math
import numbers

from reteval.teaching.exercises import Exercise, number

__all__ = ["BASELINE", "EFFECT", "EXERCISES", "GRADES", "UNRETRIEVED"]

#: 05.1: grades of the documents at ranks 1..10, and of the relevant documents not retrieved.
GRADES = (3, 0, 2, 0, 1, 0, 0, 1, 0, 0)
UNRETRIEVED = (2,)

#: 05.2: the A/B test to plan.
BASELINE = 0.10
EFFECT = 0.005



def _check_ap(answer) -> bool:
    from reteval.evaluation.engine import evaluate

    judged = {f"d{i}": g for i, g in enumerate(GRADES, 1)}
    judged.update({f"u{i}": g for i, g in enumerate(UNRETRIEVED, 1)})
    run = {f"d{i}": float(len(GRADES) - i) for i in range(1, len(GRADES) + 1)}
    expected = evaluate({"q": judged}, {"q": run}, ["AP"])["AP"].iloc[0]
    return abs(number(answer) - expected) <= 1e-3


def _check_users(answer) -> bool:
    from reteval.stats.planning import proportion_effect_size, two_sample_size

    if isinstance(answer, bool) or not isinstance(answer, numbers.Integral):
        raise TypeError("an integer is expected")
    h = proportion_effect_size(BASELINE + EFFECT, BASELINE)
    return int(answer) == math.ceil(two_sample_size(h, power=0.8, alpha=0.05) - 1e-9)


def _check_shape(answer) -> bool:
    if not isinstance(answer, str):
        raise TypeError("a letter is expected")
    return answer.strip().upper() == "C"


EXERCISES = {
    "05.1": Exercise(
        _check_ap,
        "相关文档在第 1、3、5、8 名，再加上未检索到的一篇，R = 5；"
        "AP 把每个相关位置的 P@i 相加后除以 R，"
        "而不是除以检索到的相关文档数。",
        "The relevant documents are at ranks 1, 3, 5 and 8, plus the unretrieved one: R = 5. "
        "AP sums P@i at the relevant ranks and divides by R, not by the relevant documents "
        "retrieved.",
    ),
    "05.2": Exercise(
        _check_users,
        "用 reteval.widgets.plan_sample_size(0.10, 0.005) 的 n_per_group（每组，不是两组合计）；"
        "它大约是 0.01 时的四倍。",
        "Take n_per_group of reteval.widgets.plan_sample_size(0.10, 0.005) (per group, not the "
        "total of both); it is about four times the number for 0.01.",
    ),
    "05.3": Exercise(
        _check_shape,
        "看 notebook 02 中 nDCG@K 的图，一直看到 K = 100；"
        "也可以在本 notebook 中把 max_k 调大。",
        "Look at notebook 02's nDCG@K panel all the way to K = 100, or raise max_k in this "
        "notebook.",
    ),
}
