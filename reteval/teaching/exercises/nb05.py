"""Exercises of notebook 05 (comparing retrievers).

The computed exercises are checked against values the checker recomputes with
the library on the bundled teaching collection (depth 100, reteval's default
retrievers), so the exercise and its check cannot drift apart. Worked
solutions: ``notebooks/solutions/05_solutions.ipynb``. The exercises on many
retrievers at once are notebook 06's (:mod:`reteval.teaching.exercises.nb06`).

* ``05.1`` (computed): on how many queries bm25, asked for 100 documents,
  returns fewer than 10 (``NumRet < 10``): a whole number.
* ``05.2`` (computed): the p-value of the paired t-test of vector against
  bm25 on ``AP@20`` (uncorrected): a number.
* ``05.3`` (why re-ranking cannot reach the other language): a letter of
  :data:`WHY_IDENTICAL`.
* ``05.4`` (the chapter's nDCG): the reteval measure that gives exactly the
  chapter's ``ndcg@10``: a measure name.
* ``05.5`` (code): ``top_k(run, k)``, a run cut to its top ``k`` documents
  per query in trec_eval's order, run on hidden runs.
"""

from __future__ import annotations

import functools

import pandas as pd

from reteval.teaching.exercises import (
    Exercise,
    WrongAnswer,
    close_to,
    letters,
    whole_number,
)

__all__ = ["DEPTH", "EXERCISES", "SHORT", "WHY_IDENTICAL"]

#: Documents asked of every retriever in the computed exercises.
DEPTH = 100

#: 05.1: a list shorter than this is "short" (P@10 counts its missing ranks as not relevant).
SHORT = 10

#: 05.3: why does reranked find no more cross-language relevant documents in its top 100
#: than bm25, although its second stage is vector's multilingual model? (The name is kept
#: for the notebook cell that prints the options.)
WHY_IDENTICAL = {
    "zh": {
        "A": "reranked 的第二阶段是 LSA，只会匹配词项。",
        "B": "reranked 只给 BM25 的候选文档重新排序：BM25 没有返回的文档（多半是与查询没有"
             "共同词项的另一种语言的文档）根本到不了第二阶段。",
        "C": "多语言句向量模型无法比较中文和英文文本。",
        "D": "未判断的文档按不相关计算。",
    },
    "en": {
        "A": "reranked's second stage is LSA, which only matches words.",
        "B": "reranked only re-orders BM25's candidates: a document BM25 did not return (mostly "
             "one in the other language, sharing no term with the query) never reaches the "
             "second stage.",
        "C": "The multilingual sentence encoder cannot compare Chinese and English texts.",
        "D": "Unjudged documents count as non-relevant.",
    },
}


@functools.lru_cache(maxsize=1)
def _teaching_runs():
    from reteval.datasets import load
    from reteval.retrievers import make_retriever

    collection = load("teaching")
    bm25 = make_retriever("bm25", collection.corpus)
    vector = make_retriever("vector", collection.corpus)
    return collection, {"bm25": bm25.run(collection.queries, k=DEPTH),
                        "vector": vector.run(collection.queries, k=DEPTH)}


def _short_queries() -> int:
    from reteval.evaluation.engine import evaluate

    collection, runs = _teaching_runs()
    numret = evaluate(collection.qrels, runs["bm25"], ["NumRet"])["NumRet"]
    return int((numret < SHORT).sum())


def _ap20_pvalue() -> float:
    from reteval.evaluation.engine import evaluate
    from reteval.stats import paired_t_test

    collection, runs = _teaching_runs()
    scores = {name: evaluate(collection.qrels, run, ["AP@20"])["AP@20"]
              for name, run in runs.items()}
    return float(paired_t_test(scores["vector"], scores["bm25"]).pvalue)


def _check_short(answer) -> bool:
    return whole_number(answer, _short_queries())


def _check_pvalue(answer) -> bool:
    return close_to(answer, _ap20_pvalue(), decimals=2, significant=2)


def _check_letter(answer) -> bool:
    return letters(answer) == {"B"}


def _check_measure(answer) -> bool:
    if not isinstance(answer, str):
        raise TypeError("a measure name is expected")
    return answer.strip().replace(" ", "").lower() == "ndcg_exp@10"


def _run(rows) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])


# 05.5: hidden runs, each with what it is about.
_TOP_K_CASES = [
    (_run([("q1", "d1", 0.2), ("q1", "d2", 0.9), ("q1", "d3", 0.5), ("q1", "d4", 0.7)]), 2,
     "行没有按分数排序", "rows not sorted by score"),
    (_run([("q1", "d1", 0.5), ("q1", "d7", 0.5), ("q1", "d3", 0.5), ("q1", "d9", 0.1)]), 2,
     "第 k 名处有同分的文档", "tied scores at rank k"),
    (_run([("q2", "d1", 3.0), ("q1", "d2", 2.0), ("q2", "d3", 1.0), ("q1", "d4", 4.0),
           ("q2", "d5", 2.5)]), 1,
     "多个查询交错出现", "several queries, interleaved"),
    (_run([("q1", "d1", 1.0), ("q2", "d2", 1.0), ("q2", "d3", 0.5)]), 5,
     "查询的文档少于 k 篇", "queries with fewer than k documents"),
    (_run([("q1", "doc10", 1.0), ("q1", "doc9", 1.0), ("q1", "doc2", 1.0)]), 1,
     "文档 id 按字符串比较", "doc ids compared as strings"),
]


def _check_top_k(answer) -> bool:
    from reteval.io import sort_run

    if not callable(answer):
        raise TypeError("a function is expected")
    for run, k, zh, en in _TOP_K_CASES:
        try:
            got = pd.DataFrame(answer(run.copy(), k))
            pairs = set(zip(got["query_id"], got["doc_id"], strict=True))
        except Exception as error:  # the student's code may fail in any way
            raise WrongAnswer(f"在一个隐藏的 run 上（{zh}），你的函数出错："
                              f"{type(error).__name__}。",
                              f"On a hidden run ({en}) your function raised "
                              f"{type(error).__name__}.") from error
        expected = sort_run(run).groupby("query_id", sort=False).head(k)
        if len(got) != len(expected) or pairs != set(zip(expected["query_id"],
                                                         expected["doc_id"], strict=True)):
            raise WrongAnswer(f"在一个隐藏的 run 上（{zh}），保留的文档不对。",
                              f"On a hidden run ({en}) the documents kept are not the right "
                              f"ones.")
    return True


EXERCISES = {
    "05.1": Exercise(
        _check_short,
        hints_zh=(
            "答案是一个整数（查询的个数）。NumRet 是一个查询实际返回的文档数。",
            ("对 bm25 在教学数据集上的 run（k=100）计算逐查询的 NumRet："
            "reteval.evaluate(qrels, run, [\"NumRet\"])，再数其中小于 10 的有几个。"),
            ("BM25 只返回与查询至少共享一个词项的文档，所以 NumRet 可以远小于 100；"
            "不要数等于 10 的查询。"),
        ),
        hints_en=(
            ("The answer is a whole number (of queries). NumRet is the number of documents a "
            "query actually gets."),
            ("Evaluate per-query NumRet on bm25's run over the teaching collection (k=100): "
            "reteval.evaluate(qrels, run, [\"NumRet\"]), then count the values below 10."),
            ("BM25 returns only documents sharing at least one term with the query, so NumRet "
            "can be far below 100; do not count queries with exactly 10."),
        ),
    ),
    "05.2": Exercise(
        _check_pvalue,
        hints_zh=(
            "答案是一个 p 值（0 到 1 之间，至少两位有效数字）。先得到两个检索器的逐查询 AP@20。",
            ("reteval.evaluate(qrels, run, [\"AP@20\"])[\"AP@20\"] 给出逐查询的值；"
            "两个检索器要用同一组查询。"),
            ("用 reteval.stats.paired_t_test(vector 的值, bm25 的值).pvalue（未校正）；"
            "不是全深度 AP 的 p 值。"),
        ),
        hints_en=(
            ("The answer is a p-value (between 0 and 1, with at least two significant "
            "digits). First get both retrievers' per-query AP@20."),
            ("reteval.evaluate(qrels, run, [\"AP@20\"])[\"AP@20\"] gives the per-query values; "
            "both retrievers must be on the same queries."),
            ("Use reteval.stats.paired_t_test(vector's values, bm25's values).pvalue "
            "(uncorrected); not the p-value of full-depth AP."),
        ),
    ),
    "05.3": Exercise(
        _check_letter,
        hints_zh=(
            "答案是一个字母。reranked 的第二阶段能看到哪些文档？",
            ("看 RerankedRetriever 的第二阶段能看到哪些文档，"
            "再对比第 4 节表中 bm25 与 reranked 的 R@100。"),
        ),
        hints_en=(
            "The answer is one letter. Which documents does reranked's second stage see?",
            ("Look at which documents RerankedRetriever's second stage ever sees, and compare "
            "the R@100 of bm25 and reranked in section 4's table."),
        ),
    ),
    "05.4": Exercise(
        _check_measure,
        hints_zh=(
            "答案是一个 reteval 指标名，写成 \"名称@10\" 的形式。",
            "章节的 dcg_at_k 用什么增益？看它的源代码中对 rel 做了什么。",
            ("章节用指数增益 2**rel - 1，而 reteval 的 nDCG@10 用线性增益（与 trec_eval 相同）；"
            "reteval 中另有一个用指数增益的 nDCG。"),
        ),
        hints_en=(
            "The answer is a reteval measure name, written as \"name@10\".",
            "Which gain does the chapter's dcg_at_k use? Look at what its source does to rel.",
            ("The chapter uses the exponential gain 2**rel - 1, while reteval's nDCG@10 uses "
            "the linear gain (as trec_eval does); reteval has another nDCG with the "
            "exponential gain."),
        ),
    ),
    "05.5": Exercise(
        _check_top_k,
        hints_zh=(
            ("写一个函数 top_k(run, k)：run 是有 query_id、doc_id、score 三列的 DataFrame，"
             "返回每个查询排在前 k 名的行。"),
            ("排序要和 trec_eval 一样：分数降序；分数相同时，doc_id 按字符串降序。"
             "输入的行不一定已经排好。"),
            ("可以先用 sort_values 按 [\"query_id\", \"score\", \"doc_id\"] 排序"
             "（升序、降序、降序），再按 query_id 分组取前 k 行；文档不足 k 篇的查询保留全部。"),
        ),
        hints_en=(
            ("Write a function top_k(run, k): run is a DataFrame with the columns query_id, "
             "doc_id and score; return each query's rows at ranks 1 to k."),
            ("Rank as trec_eval does: score descending; equal scores by doc_id descending, as "
             "strings. The rows given may be in any order."),
            ("Sort with sort_values on [\"query_id\", \"score\", \"doc_id\"] (ascending, "
             "descending, descending), then group by query_id and take the first k rows; a "
             "query with fewer than k documents keeps them all."),
        ),
        code=True,
    ),
}
