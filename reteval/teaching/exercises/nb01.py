"""Exercises of notebook 01 (metrics, the evaluation set, RAG context metrics).

Each checker recomputes the right answer from the exercise's data with the
library (or the chapter's own function), so the exercise text and its check
cannot drift apart. Worked solutions: ``notebooks/solutions/01_solutions.ipynb``.

* ``01.1`` (computed): trec_eval's AP of :data:`RANKING` against
  :data:`RELEVANT`, a number.
* ``01.2`` (the chapter's AP flaw): a ranked list of doc ids for which the
  chapter's ``average_precision`` gives 1.0 while trec_eval's AP is at most
  0.25, with the relevant documents :data:`FLAW_RELEVANT`.
* ``01.3`` (unjudged documents): ``(Judged@5, highest possible P@5)`` of
  :data:`JUDGED_RANKING` against :data:`JUDGMENTS`, a pair of numbers.
* ``01.4`` (RAG): the coverage of the reference statement by the context
  under ``OverlapJudge(cjk="bigram")`` for the chapter's second sample, a
  number.
"""

from __future__ import annotations

import pandas as pd

from reteval.teaching.exercises import Exercise, number

__all__ = [
    "EXERCISES",
    "FLAW_RELEVANT",
    "JUDGED_RANKING",
    "JUDGMENTS",
    "RAG_CONTEXT",
    "RAG_STATEMENT",
    "RANKING",
    "RELEVANT",
]

#: 01.1: a ranked list and its relevant documents (one of them, d8, never retrieved).
RANKING = ["d3", "d7", "d1", "d9", "d4"]
RELEVANT = ["d1", "d3", "d4", "d8"]

#: 01.2: the relevant documents of the query; the answer is a ranked list of doc ids.
FLAW_RELEVANT = ["d1", "d2", "d3", "d4"]

#: 01.3: a ranked list and the qrels of its query (grade 0 = judged not relevant).
JUDGED_RANKING = ["d1", "d2", "d3", "d4", "d5"]
JUDGMENTS = {"d1": 1, "d2": 0, "d4": 2, "d6": 3}

#: 01.4: the chapter's second RAG sample: the retrieved context and the reference.
RAG_CONTEXT = "机器学习是AI的分支"
RAG_STATEMENT = "机器学习是人工智能的分支"

_TOLERANCE = 1e-3


def _close(answer, expected: float) -> bool:
    if isinstance(answer, (str, bytes)):
        raise TypeError("a number is expected, not text")
    return abs(number(answer) - expected) <= _TOLERANCE


def _trec_ap(ranking, relevant) -> float:
    import reteval

    run = pd.DataFrame({"query_id": "q", "doc_id": list(ranking),
                        "score": [float(len(ranking) - i) for i in range(len(ranking))]})
    return float(reteval.evaluate({"q": {d: 1 for d in relevant}}, run, ["AP"])["AP"].iloc[0])


def _check_01_1(answer) -> bool:
    return _close(answer, _trec_ap(RANKING, RELEVANT))


def _check_01_2(answer) -> bool:
    from reteval.teaching.chapter_metrics import average_precision

    if isinstance(answer, (str, bytes)) or not all(isinstance(d, str) for d in answer):
        raise TypeError("a list of doc ids is expected")
    ranking = list(answer)
    if not ranking or len(set(ranking)) != len(ranking):
        return False  # an empty list, or one with a document twice, is not a ranking
    return (abs(float(average_precision(ranking, FLAW_RELEVANT)) - 1.0) < 1e-12
            and _trec_ap(ranking, FLAW_RELEVANT) <= 0.25 + 1e-12)


def _check_01_3(answer) -> bool:
    import reteval

    if isinstance(answer, (str, bytes)):
        raise TypeError("a pair of numbers is expected")
    judged_at_5, max_p_at_5 = answer
    run = pd.DataFrame({"query_id": "q", "doc_id": JUDGED_RANKING,
                        "score": [5.0, 4.0, 3.0, 2.0, 1.0]})
    scores = reteval.evaluate({"q": JUDGMENTS}, run, ["Judged@5", "P@5"]).iloc[0]
    unjudged = (1 - scores["Judged@5"]) * len(JUDGED_RANKING)
    best = scores["P@5"] + unjudged / 5
    return _close(judged_at_5, scores["Judged@5"]) and _close(max_p_at_5, best)


def _check_01_4(answer) -> bool:
    from reteval.rag import OverlapJudge

    return _close(answer, OverlapJudge(cjk="bigram").coverage(RAG_CONTEXT, RAG_STATEMENT))


EXERCISES = {
    "01.1": Exercise(
        _check_01_1,
        hint_zh="平均精度（trec_eval 的 AP）在每个相关文档所在的位置取精确率，求和后除以"
                "全部相关文档的数量（这里是 4，包括从未被检索到的 d8），而不是除以检索到的"
                "相关文档数。答案是一个数。",
        hint_en="Average precision (trec_eval's AP) takes the precision at the rank of each "
                "relevant document, sums them and divides by the number of ALL relevant "
                "documents (4 here, d8 included, though it is never retrieved), not by the "
                "relevant documents retrieved. The answer is a number.",
    ),
    "01.2": Exercise(
        _check_01_2,
        hint_zh="本章的 average_precision 只对检索到的相关文档取平均：让列表只含相关文档、"
                "且从第 1 位开始连续排列，它就给出 1.0；而 trec_eval 的 AP 还要除以全部 4 个"
                "相关文档。答案是一个文档 id 的列表，例如 [\"d1\", \"d9\"]，不能重复。",
        hint_en="The chapter's average_precision averages over the relevant documents "
                "retrieved only: a list whose relevant documents all come first, from rank 1, "
                "gets 1.0, while trec_eval's AP still divides by all 4 relevant documents. The "
                "answer is a list of doc ids, e.g. [\"d1\", \"d9\"], without repeats.",
    ),
    "01.3": Exercise(
        _check_01_3,
        hint_zh="Judged@5 是前 5 个文档中出现在相关性判断（qrels）里的比例，判为 0 分的文档"
                "也算“已判断”；未判断的文档按不相关计分。P@5 的上限假设每个未判断的文档其实都"
                "相关。答案是一对数：(Judged@5, P@5 的上限)。",
        hint_en="Judged@5 is the share of the top 5 that appears in the qrels; a document "
                "judged 0 counts as judged. Unjudged documents are scored as not relevant. "
                "The highest possible P@5 assumes every unjudged document is in fact relevant. "
                "The answer is a pair: (Judged@5, highest possible P@5).",
    ),
    "01.4": Exercise(
        _check_01_4,
        hint_zh="覆盖率 = 参考陈述中不同的词元有多少比例出现在上下文里。cjk=\"bigram\" 时，"
                "中文按相邻两个字切分：先列出“机器学习是人工智能的分支”的全部双字词元，再数其中"
                "有几个出现在“机器学习是AI的分支”的双字词元里。答案是一个数（0 到 1 之间）。",
        hint_en="Coverage = the share of the statement's distinct tokens that occur in the "
                "context. With cjk=\"bigram\" Chinese is cut into overlapping character pairs: "
                "list the pairs of 机器学习是人工智能的分支, then count how many occur among the "
                "pairs of 机器学习是AI的分支. The answer is a number between 0 and 1.",
    ),
}
