"""Exercises of notebook 02 (comparing retrievers).

The computed exercises are checked against values the checker recomputes with
the library on the bundled teaching collection (depth 100, reteval's default
retrievers), so the exercise and its check cannot drift apart. Worked
solutions: ``notebooks/solutions/02_solutions.ipynb``.

* ``02.1`` (computed): the mean number of documents bm25 returns per query
  (``NumRet``) on the teaching collection, asked for 100: a number.
* ``02.2`` (computed): the p-value of the paired t-test of vector against
  bm25 on ``AP@20`` (uncorrected): a number.
* ``02.3`` (why re-ranking cannot reach the other language): a letter of
  :data:`WHY_IDENTICAL`.
* ``02.4`` (the chapter's nDCG): the reteval measure that gives exactly the
  chapter's ``ndcg@10``: a measure name.
"""

from __future__ import annotations

import functools

from reteval.teaching.exercises import Exercise, number

__all__ = ["DEPTH", "EXERCISES", "WHY_IDENTICAL"]

#: Documents asked of every retriever in the computed exercises.
DEPTH = 100

#: 02.3: why does reranked find no more cross-language relevant documents in its top 100
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
        "看 RerankedRetriever 的第二阶段能看到哪些文档，"
        "再对比第 4 节表中 bm25 与 reranked 的 R@100。",
        "Look at which documents RerankedRetriever's second stage ever sees, and compare the "
        "R@100 of bm25 and reranked in section 4's table.",
    ),
    "02.4": Exercise(
        _check_measure,
        "章节的 dcg_at_k 用指数增益 2**rel - 1；"
        "reteval 中用指数增益的 nDCG 叫什么？写成 \"名称@10\"。",
        "The chapter's dcg_at_k uses the exponential gain 2**rel - 1; what is reteval's nDCG "
        "with that gain called? Write it as \"name@10\".",
    ),
}
