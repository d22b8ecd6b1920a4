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
    "11.1": Exercise(
        _check_ap,
        hints_zh=(
            ("答案是一个数。可以把等级和未检索到的文档交给 reteval.widgets.MetricState，"
            "也可以手算。"),
            "等级至少为 1 的文档算相关。R 是全部相关文档的数量：列表里的，加上未检索到的。",
            "AP 把每个相关文档所在位置的 P@i 相加，再除以 R，而不是除以检索到的相关文档数。",
        ),
        hints_en=(
            ("The answer is a number. Give the grades and the unretrieved documents to "
            "reteval.widgets.MetricState, or compute by hand."),
            ("A document of grade 1 or more is relevant. R counts every relevant document: "
            "those in the list plus those not retrieved."),
            ("AP sums P@i at the ranks of the relevant documents and divides by R, not by the "
            "relevant documents retrieved."),
        ),
    ),
    "11.2": Exercise(
        _check_users,
        hints_zh=(
            "答案是一个整数：每组（不是两组合计）的用户数。",
            "用 reteval.widgets.plan_sample_size(基线, 提升) 或本 notebook 的 A/B 规划器。",
            ("plan_sample_size 的结果里，n_per_group 才是每组的人数；与 0.01 的结果比一比，"
            "效应减半时样本量约变为几倍？"),
        ),
        hints_en=(
            "The answer is a whole number: users per group (not both groups together).",
            ("Use reteval.widgets.plan_sample_size(baseline, increase), or this notebook's A/B "
            "planner."),
            ("In plan_sample_size's result n_per_group is the number per group; compare it "
            "with the one for 0.01: how does the sample grow when the effect halves?"),
        ),
    ),
    "11.3": Exercise(
        _check_unchanged,
        hints_zh=(
            "答案是字母的集合，如 {\"A\"}。可以在指标探索器里把未检索到的文档从 2 改成 3 试试。",
            "等级从 2 变成 3，这篇文档仍然是相关的：只看“相关与否”的指标会变吗？",
            "哪个指标用等级本身作增益，而且它的理想排序会把这篇文档算进去？",
        ),
        hints_en=(
            ("The answer is a set of letters, such as {\"A\"}. Try it in the metric explorer: "
            "change the unretrieved document from 2 to 3."),
            ("Graded 3 instead of 2, the document is still relevant: do the measures that only "
            "ask \"relevant or not\" move?"),
            ("Which measure uses the grade itself as the gain, with an ideal ranking that "
            "counts this document?"),
        ),
    ),
}
