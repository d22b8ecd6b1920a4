"""Exercises of notebook 03 (the evaluation set, RAG context metrics).

Each checker recomputes the right answer from the exercise's data with the
library, so the exercise text and its check cannot drift apart. Worked
solutions: ``notebooks/solutions/03_solutions.ipynb``.

* ``03.1`` (unjudged documents): ``(Judged@5, highest possible P@5)`` of
  :data:`JUDGED_RANKING` against :data:`JUDGMENTS`, a pair of numbers.
* ``03.2`` (RAG): the coverage of the statement :data:`RAG_STATEMENT` by the
  context :data:`RAG_CONTEXT` under ``OverlapJudge(cjk="bigram")``, a number
  (not a pair of the notebook, whose coverage the notebook prints).
* ``03.3`` (code): ``context_precision(relevant)`` from the yes/no verdicts of
  the ranked contexts, run on hidden cases against
  :func:`reteval.rag.context_precision_score`.
"""

from __future__ import annotations

import pandas as pd

from reteval.teaching.exercises import Exercise, WrongAnswer, close_to, number

__all__ = ["EXERCISES", "JUDGED_RANKING", "JUDGMENTS", "RAG_CONTEXT", "RAG_STATEMENT"]

#: 03.1: a ranked list and the qrels of its query (grade 0 = judged not relevant).
JUDGED_RANKING = ["d1", "d2", "d3", "d4", "d5"]
JUDGMENTS = {"d1": 1, "d2": 0, "d4": 2, "d6": 3}

#: 03.2: a retrieved context and a reference statement that says a little more.
RAG_CONTEXT = "向量检索用嵌入表示文档"
RAG_STATEMENT = "向量检索用嵌入向量表示文档和查询"

# 03.3: the hidden cases (the verdicts v_1..v_K, what the case is about).
_PRECISION_CASES = [
    ([True, False], "本章的例子：唯一相关的上下文排在第 1 位",
     "the chapter's example: the only relevant context at rank 1"),
    ([False, False, True, True, False], "相关的上下文不在最前面",
     "relevant contexts not at the top"),
    ([False, False, False], "没有相关的上下文（应得 0）", "no relevant context (it scores 0)"),
    ([], "一个上下文也没有（应得 0）", "no context at all (it scores 0)"),
    ([True, True, True], "每个上下文都相关", "every context relevant"),
    ([False, True, False, True, False, False, True, False], "一个较长的列表", "a longer list"),
]


def _check_03_1(answer) -> bool:
    import reteval

    if isinstance(answer, (str, bytes)):
        raise TypeError("a pair of numbers is expected")
    judged_at_5, max_p_at_5 = list(answer)
    run = pd.DataFrame({"query_id": "q", "doc_id": JUDGED_RANKING,
                        "score": [5.0, 4.0, 3.0, 2.0, 1.0]})
    scores = reteval.evaluate({"q": JUDGMENTS}, run, ["Judged@5", "P@5"]).iloc[0]
    unjudged = (1 - scores["Judged@5"]) * len(JUDGED_RANKING)
    best = scores["P@5"] + unjudged / 5
    return (close_to(judged_at_5, scores["Judged@5"], decimals=1)
            and close_to(max_p_at_5, best, decimals=1))


def _check_03_2(answer) -> bool:
    from reteval.rag import OverlapJudge

    expected = OverlapJudge(cjk="bigram").coverage(RAG_CONTEXT, RAG_STATEMENT)
    return close_to(answer, expected, decimals=2)


def _check_03_3(answer) -> bool:
    from reteval.rag import context_precision_score

    if not callable(answer):
        raise TypeError("a function is expected")
    for verdicts, zh, en in _PRECISION_CASES:
        try:
            got = number(answer(list(verdicts)))
        except Exception as error:  # the student's code may fail in any way
            raise WrongAnswer(f"在一个隐藏的测试用例上（{zh}），你的函数出错："
                              f"{type(error).__name__}。",
                              f"On a hidden case ({en}) your function raised "
                              f"{type(error).__name__}.") from error
        if abs(got - context_precision_score(verdicts)) > 1e-9:
            raise WrongAnswer(f"在一个隐藏的测试用例上（{zh}），"
                              "结果与 reteval 的上下文精确率不同。",
                              f"On a hidden case ({en}) the result differs from reteval's "
                              "context precision.")
    return True


EXERCISES = {
    "03.1": Exercise(
        _check_03_1,
        hints_zh=(
            "答案是一对数：(Judged@5, P@5 的上限)。先数前 5 个文档中有几个出现在相关性判断里。",
            "判为 0 分的文档也算“已判断”；d3 和 d5 没有判断。",
            ("未判断的文档按不相关计分；P@5 的上限假设每个未判断的文档其实都相关："
            "在已判断为相关的文档之外，再加上未判断的文档。"),
        ),
        hints_en=(
            ("The answer is a pair: (Judged@5, highest possible P@5). First count how many of "
            "the top 5 appear in the judgments."),
            "A document judged 0 counts as judged; d3 and d5 are unjudged.",
            ("Unjudged documents are scored as not relevant; the highest possible P@5 assumes "
            "each unjudged document is in fact relevant: add them to the documents judged "
            "relevant."),
        ),
    ),
    "03.2": Exercise(
        _check_03_2,
        hints_zh=(
            "覆盖率 = 参考陈述中不同的词元有多少比例出现在上下文里。答案是 0 到 1 之间的一个数。",
            ("cjk=\"bigram\" 时，中文按相邻两个字切分：先列出参考陈述的全部双字词元，"
             "重复的只算一次（不同的有几个？）。"),
            "再数其中有几个也出现在上下文的双字词元里：参考陈述多出来的“向量”“和查询”带来了新的字对。",
        ),
        hints_en=(
            ("Coverage = the share of the statement's distinct tokens that occur in the "
            "context. The answer is a number between 0 and 1."),
            ("With cjk=\"bigram\" Chinese is cut into overlapping character pairs: list the "
             "pairs of the statement, each distinct pair once (how many are there?)."),
            ("Then count how many also occur among the pairs of the context: the statement's "
             "extra 向量 and 和查询 bring new pairs."),
        ),
    ),
    "03.3": Exercise(
        _check_03_3,
        hints_zh=(
            ("写一个函数 context_precision(relevant)：relevant[i] 表示第 i+1 位的上下文是否相关。"
             "在每个相关上下文所在的名次 k 上，取前 k 个上下文的精确率。"),
            ("把这些精确率加起来，再除以列表中相关上下文的个数（不是列表的长度）。"
             "没有相关上下文时（包括空列表）返回 0。"),
            ("用 enumerate(relevant, 1) 逐个名次走一遍：记下到目前为止的相关上下文数；"
             "遇到相关的上下文时，把“相关数 ÷ 名次”加到总和上；最后用总和除以相关数。"
             "这和笔记本 01 里本章的 average_precision 是同一个分母。"),
        ),
        hints_en=(
            ("Write a function context_precision(relevant), where relevant[i] says whether the "
             "context at rank i+1 is relevant. At the rank k of each relevant context, take "
             "the precision of the first k contexts."),
            ("Sum those precisions and divide by the number of relevant contexts in the list "
             "(not by its length). With no relevant context (an empty list included), "
             "return 0."),
            ("Walk the ranks with enumerate(relevant, 1), counting the relevant contexts so "
             "far; at a relevant one, add count ÷ rank to a total; at the end divide the total "
             "by the count. It is the denominator of the chapter's average_precision in "
             "notebook 01."),
        ),
        code=True,
    ),
}
