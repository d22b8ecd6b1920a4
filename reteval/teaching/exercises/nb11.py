"""Exercises of notebook 11 (exploring measures interactively).

The computed exercises are checked against values the checker recomputes with
the library, so the exercise and its check cannot drift apart. Worked
solutions: ``notebooks/solutions/11_solutions.ipynb``.

* ``11.1`` (computed): trec_eval's AP of the ranked list :data:`GRADES` with
  the judged, unretrieved documents :data:`UNRETRIEVED`: a number.
* ``11.2`` (computed): users per group to detect an increase of
  :data:`EFFECT` over a baseline rate :data:`BASELINE` (alpha 0.05, power 0.8,
  two-sided): a whole number.
* ``11.3`` (choices): which measures of the metric explorer's default list do
  not move when its unretrieved document is graded 3 instead of 2: letters.
"""

from __future__ import annotations

import math

from reteval.teaching.exercises import Exercise, close_to, letters, whole_number

__all__ = ["BASELINE", "EFFECT", "EXERCISES", "GRADES", "UNRETRIEVED"]

#: 11.1: grades of the documents at ranks 1..10, and of the relevant documents not retrieved.
GRADES = (0, 2, 0, 3, 0, 0, 1, 0, 0, 0)
UNRETRIEVED = (1, 3)

#: 11.2: the A/B test to plan.
BASELINE = 0.10
EFFECT = 0.005

#: 11.3: the options (letter -> measure of the metric explorer at K = 5).
OPTIONS = {"A": "P@5", "B": "R@5", "C": "RR", "D": "AP", "E": "nDCG@5"}


def _evaluate(grades, unretrieved, measures):
    from reteval.evaluation.engine import evaluate

    judged = {f"d{i}": g for i, g in enumerate(grades, 1)}
    judged.update({f"u{i}": g for i, g in enumerate(unretrieved, 1)})
    run = {f"d{i}": float(len(grades) - i) for i in range(1, len(grades) + 1)}
    return evaluate({"q": judged}, {"q": run}, measures).iloc[0]


def _check_ap(answer) -> bool:
    return close_to(answer, float(_evaluate(GRADES, UNRETRIEVED, ["AP"])["AP"]), decimals=2)


def _check_users(answer) -> bool:
    from reteval.stats.planning import proportion_effect_size, two_sample_size

    h = proportion_effect_size(BASELINE + EFFECT, BASELINE)
    return whole_number(answer, math.ceil(two_sample_size(h, power=0.8, alpha=0.05) - 1e-9))


def _check_unchanged(answer) -> bool:
    default = (3, 0, 2, 0, 1, 0, 0, 1, 0, 0)
    measures = list(OPTIONS.values())
    before = _evaluate(default, (2,), measures)
    after = _evaluate(default, (3,), measures)
    unchanged = {letter for letter, m in OPTIONS.items() if abs(before[m] - after[m]) < 1e-12}
    return letters(answer) == unchanged


EXERCISES = {
    "11.1": Exercise(_check_ap),
    "11.2": Exercise(_check_users),
    "11.3": Exercise(_check_unchanged),
}
