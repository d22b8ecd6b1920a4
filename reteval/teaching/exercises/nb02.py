"""Exercises of notebook 02 (comparing retrievers).

The computed exercises are checked against values the checker recomputes with
the library on the bundled teaching collection (depth 100, reteval's default
retrievers), so the exercise and its check cannot drift apart. Worked
solutions: ``notebooks/solutions/02_solutions.ipynb``.

* ``02.1`` (computed): the mean number of documents bm25 returns per query
  (``NumRet``) on the teaching collection, asked for 100: a number.
* ``02.2`` (computed): the p-value of the paired t-test of vector against
  bm25 on ``AP@20`` (uncorrected): a number.
* ``02.3`` (why two systems are identical): a letter of :data:`WHY_IDENTICAL`.
* ``02.4`` (the chapter's nDCG): the reteval measure that gives exactly the
  chapter's ``ndcg@10``: a measure name.
"""

from __future__ import annotations

import functools

from reteval.teaching.exercises import Exercise, number

__all__ = ["DEPTH", "EXERCISES", "WHY_IDENTICAL"]

#: Documents asked of every retriever in the computed exercises.
DEPTH = 100

#: 02.3: why are vector and reranked identical at every cutoff of the chapter's table?
WHY_IDENTICAL = {
    "zh": {
        "A": "巧合：两个模型碰巧给出了相同的排序。",
        "B": "reranked 用与 vector 完全相同的 LSA 模型给 BM25 的候选文档重新打分；"
             "与查询没有共同词项的文档在 LSA 中得分接近 0，"
             "所以 vector 排在最前面的正是这些候选文档，顺序相同。",
        "C": "reranked 的第二阶段是交叉编码器，它学会了模仿 vector。",
        "D": "两者都只返回 BM25 的结果，没有做任何重排。",
    },
    "en": {
        "A": "A coincidence: the two models happen to rank alike.",
        "B": "reranked re-scores BM25's candidates with exactly the LSA model vector uses; "
             "documents sharing no term with the query score near 0 in LSA, so vector's top "
             "ranks are those same candidates, in the same order.",
        "C": "reranked's second stage is a cross-encoder that learnt to imitate vector.",
        "D": "Both return BM25's results without re-ranking anything.",
    },
}

_TOLERANCE = 5e-3



@functools.lru_cache(maxsize=1)
def _teaching_runs():
    from reteval.datasets import load
    from reteval.retrievers import make_retriever

    collection = load("teaching")
    bm25 = make_retriever("bm25", collection.corpus)
    vector = make_retriever("vector", collection.corpus)
    return collection, {"bm25": bm25.run(collection.queries, k=DEPTH),
                        "vector": vector.run(collection.queries, k=DEPTH)}


def _mean_numret() -> float:
    from reteval.evaluation.engine import evaluate

    collection, runs = _teaching_runs()
    return float(evaluate(collection.qrels, runs["bm25"], ["NumRet"])["NumRet"].mean())


def _ap20_pvalue() -> float:
    from reteval.evaluation.engine import evaluate
    from reteval.stats import paired_t_test

    collection, runs = _teaching_runs()
    scores = {name: evaluate(collection.qrels, run, ["AP@20"])["AP@20"]
              for name, run in runs.items()}
    return float(paired_t_test(scores["vector"], scores["bm25"]).pvalue)


def _check_numret(answer) -> bool:
    return abs(number(answer) - _mean_numret()) <= 0.01


def _check_pvalue(answer) -> bool:
    return abs(number(answer) - _ap20_pvalue()) <= _TOLERANCE


def _check_letter(answer) -> bool:
    if not isinstance(answer, str):
        raise TypeError("a letter is expected")
    return answer.strip().upper() == "B"


def _check_measure(answer) -> bool:
    if not isinstance(answer, str):
        raise TypeError("a measure name is expected")
    return answer.strip().replace(" ", "").lower() == "ndcg_exp@10"


EXERCISES = {
    "02.1": Exercise(
        _check_numret,
        "对 bm25 在教学集上的 run（k=100）计算 NumRet，再对所有查询取平均；"
        "不是 100：BM25 只返回与查询共享词项的文档。",
        "Evaluate NumRet on bm25's run over the teaching collection (k=100) and average over "
        "the queries. It is not 100: BM25 returns only documents sharing a term with the query.",
    ),
    "02.2": Exercise(
        _check_pvalue,
        "分别计算 vector 和 bm25 的逐查询 AP@20，"
        "再用 reteval.stats.paired_t_test(vector, bm25) 取 pvalue（未校正）；"
        "不是 AP（全深度）的 p 值。",
        "Compute the per-query AP@20 of vector and of bm25, then "
        "reteval.stats.paired_t_test(vector, bm25).pvalue (uncorrected); not the p-value of "
        "full-depth AP.",
    ),
    "02.3": Exercise(
        _check_letter,
        "看 RerankedRetriever 的第二阶段是什么模型，"
        "以及 vector 在 BM25 候选文档之后给出的得分有多大。",
        "Look at which model RerankedRetriever's second stage is, and at the scores vector gives "
        "after BM25's candidates run out.",
    ),
    "02.4": Exercise(
        _check_measure,
        "章节的 dcg_at_k 用指数增益 2**rel - 1；"
        "reteval 中用指数增益的 nDCG 叫什么？写成 \"名称@10\"。",
        "The chapter's dcg_at_k uses the exponential gain 2**rel - 1; what is reteval's nDCG "
        "with that gain called? Write it as \"name@10\".",
    ),
}
