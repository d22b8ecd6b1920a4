"""Exercises of notebook 01 (the measures).

Each checker recomputes the right answer from the exercise's data with the
library (or the chapter's own function), so the exercise text and its check
cannot drift apart. Worked solutions: ``notebooks/solutions/01_solutions.ipynb``.
The exercises on the evaluation set and the RAG context measures are notebook
03's (:mod:`reteval.teaching.exercises.nb03`).

* ``01.1`` (computed): trec_eval's AP of :data:`RANKING` against
  :data:`RELEVANT`, a number.
* ``01.2`` (the chapter's AP flaw): a ranked list of doc ids (any iterable)
  for which the chapter's ``average_precision`` gives 1.0 while trec_eval's
  AP is at most 0.25, with the relevant documents :data:`FLAW_RELEVANT`.
* ``01.3`` (code): a corrected ``average_precision(retrieved_docs,
  relevant_docs)``, run on hidden cases against trec_eval's AP.
"""

from __future__ import annotations

import pandas as pd

from reteval.teaching.exercises import Exercise, WrongAnswer, close_to, number

__all__ = ["EXERCISES", "FLAW_RELEVANT", "RANKING", "RELEVANT"]

#: 01.1: a ranked list and its relevant documents (one of them, d8, never retrieved).
RANKING = ["d3", "d7", "d1", "d9", "d4"]
RELEVANT = ["d1", "d3", "d4", "d8"]

#: 01.2: the relevant documents of the query; the answer is a ranked list of doc ids.
FLAW_RELEVANT = ["d1", "d2", "d3", "d4"]

# 01.3: the hidden cases (ranked list, relevant documents, what the case is about).
_AP_CASES = [
    (["d2", "d9", "d4", "d7"], ["d2", "d4", "d6"],
     "一个相关文档始终没有被检索到", "a relevant document that is never retrieved"),
    (["d1", "d2", "d3"], ["d7", "d8"],
     "没有检索到任何相关文档", "no relevant document retrieved"),
    (["d1", "d2"], [],
     "查询没有相关文档（应得 0）", "a query with no relevant document (it scores 0)"),
    (["d5", "d1", "d2", "d3"], ["d1", "d2", "d3"],
     "相关文档全部找到，但不在最前面", "every relevant document found, not at the top"),
    (["d3"], ["d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12"],
     "只返回一个文档的短列表", "a short list of one document"),
    ([f"d{i}" for i in range(40)], [f"d{i}" for i in range(0, 60, 7)],
     "一个较长的列表", "a longer list"),
]


def _trec_ap(ranking, relevant) -> float:
    import reteval

    ranking = list(ranking)
    if not relevant:
        return 0.0
    run = pd.DataFrame({"query_id": "q", "doc_id": ranking,
                        "score": [float(len(ranking) - i) for i in range(len(ranking))]})
    return float(reteval.evaluate({"q": {d: 1 for d in relevant}}, run, ["AP"])["AP"].iloc[0])


def _check_01_1(answer) -> bool:
    return close_to(answer, _trec_ap(RANKING, RELEVANT), decimals=2)


def _doc_ids(answer) -> list[str]:
    if isinstance(answer, (str, bytes)):
        raise TypeError("a list of doc ids is expected")
    ranking = list(answer)
    if not all(isinstance(d, str) for d in ranking):
        raise TypeError("a list of doc ids is expected")
    return ranking


def _check_01_2(answer) -> bool:
    from reteval.teaching.chapter_metrics import average_precision

    ranking = _doc_ids(answer)
    if not ranking or len(set(ranking)) != len(ranking):
        return False  # an empty list, or one with a document twice, is not a ranking
    return (abs(float(average_precision(ranking, FLAW_RELEVANT)) - 1.0) < 1e-12
            and _trec_ap(ranking, FLAW_RELEVANT) <= 0.25 + 1e-12)


def _check_01_3(answer) -> bool:
    if not callable(answer):
        raise TypeError("a function is expected")
    for ranking, relevant, zh, en in _AP_CASES:
        try:
            got = number(answer(list(ranking), list(relevant)))
        except Exception as error:  # the student's code may fail in any way
            raise WrongAnswer(f"在一个隐藏的测试用例上（{zh}），你的函数出错："
                              f"{type(error).__name__}。",
                              f"On a hidden case ({en}) your function raised "
                              f"{type(error).__name__}.") from error
        if abs(got - _trec_ap(ranking, relevant)) > 1e-9:
            raise WrongAnswer(f"在一个隐藏的测试用例上（{zh}），结果与 trec_eval 的 AP 不同。",
                              f"On a hidden case ({en}) the result differs from trec_eval's AP.")
    return True


EXERCISES = {
    "01.1": Exercise(
        _check_01_1,
        hints_zh=(
            "AP 在每个相关文档所在的名次上取一次精确率，再求平均。先找出相关文档在哪几个名次。",
            ("相关文档 d3、d1、d4 在第 1、3、5 位；在每个位置上，"
             "精确率 = 到该位置为止的相关文档数 ÷ 名次。"),
            ("trec_eval 把这些精确率的和除以全部相关文档的数量（包括从未被检索到的 d8），"
            "而不是除以检索到的相关文档数。"),
        ),
        hints_en=(
            ("AP takes the precision at the rank of each relevant document, then averages. "
            "First find the ranks of the relevant documents."),
            ("The relevant d3, d1 and d4 are at ranks 1, 3 and 5; at each, precision = relevant "
            "documents so far ÷ rank."),
            ("trec_eval divides the sum of those precisions by the number of ALL relevant "
            "documents (d8, never retrieved, included), not by the relevant documents retrieved."),
        ),
    ),
    "01.2": Exercise(
        _check_01_2,
        hints_zh=(
            "答案是一个文档 id 的列表（不重复），例如 [\"d1\", \"d9\"]。比较两种 AP 的分母。",
            ("本章的 average_precision 只对检索到的相关文档取平均：检索到的每个相关文档前面"
            "都没有不相关文档时，它给出 1.0。"),
            ("trec_eval 的 AP 除以全部 4 个相关文档：检索到的相关文档越少，它越低。"
            "最少要检索到几个相关文档，才能让本章的函数不返回 0？"),
        ),
        hints_en=(
            ("The answer is a list of doc ids without repeats, e.g. [\"d1\", \"d9\"]. Compare the "
            "denominators of the two APs."),
            ("The chapter's average_precision averages over the relevant documents retrieved "
            "only: when no irrelevant document comes before any retrieved relevant one, it "
            "gives 1.0."),
            ("trec_eval's AP divides by all 4 relevant documents: the fewer relevant documents "
            "retrieved, the lower it is. How few can be retrieved so that the chapter's "
            "function does not return 0?"),
        ),
    ),
    "01.3": Exercise(
        _check_01_3,
        hints_zh=(
            ("写一个函数 average_precision(retrieved_docs, relevant_docs)，返回 trec_eval 的 AP；"
            "可以从本章的代码改起（teaching.show_source(teaching.average_precision)）。"),
            "本章的代码只有一处要改：最后求平均时的分母。没有相关文档的查询应得 0。",
            ("精确率仍在每个检索到的相关文档的名次上计算；求和以后，除以 len(relevant_docs)，"
            "而不是除以 precisions 的个数。"),
        ),
        hints_en=(
            ("Write a function average_precision(retrieved_docs, relevant_docs) that returns "
            "trec_eval's AP; you may start from the chapter's code "
            "(teaching.show_source(teaching.average_precision))."),
            ("Only one thing in the chapter's code must change: the denominator of the final "
            "average. A query with no relevant document scores 0."),
            ("Precision is still taken at the rank of each relevant document retrieved; sum "
            "them and divide by len(relevant_docs), not by the number of precisions."),
        ),
        code=True,
    ),
}
