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
* ``02.5`` (computed): the number of queries a one-way ANOVA of the four
  default retrievers needs to detect a range of 0.03 in AP (alpha 0.05, power
  0.8), with the residual variance of their AP on the teaching collection: an
  integer.
* ``02.6`` (pairwise tests or Tukey's HSD): a letter of :data:`PAIRWISE_VS_TUKEY`.
* ``02.7`` (computed): TRisk of vector against bm25 on nDCG@10 with alpha = 1:
  a number.
"""

from __future__ import annotations

import functools

from reteval.teaching.exercises import Exercise, number

__all__ = ["DEPTH", "EXERCISES", "PAIRWISE_VS_TUKEY", "WHY_IDENTICAL"]

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

#: 02.6: on R@10, bm25 - hybrid is significant by pairwise t tests with Holm's correction but
#: not by Tukey's HSD, and bm25 - vector the other way round. Why can both happen?
PAIRWISE_VS_TUKEY = {
    "zh": {
        "A": "Tukey HSD 的随机化有误差；换一个种子，两种方法就会一致。",
        "B": "两种方法衡量噪声的方式不同：两两检验用这一对自己的逐查询差值，"
             "Tukey HSD 对所有各对用同一把尺子（所有检索器的残差方差 V_E）；"
             "差值比这把尺子更一致的一对在两两检验下更容易显著，"
             "更分散的一对在 Tukey 下更容易显著。",
        "C": "Holm 校正总是比 Tukey HSD 更保守，所以两两检验不可能比 Tukey 先显著。",
        "D": "方差分析不显著时 Tukey HSD 不会给出任何显著的对。",
    },
    "en": {
        "A": "Tukey's HSD is randomised; with another seed the two procedures would agree.",
        "B": "They measure the noise differently: a pairwise test by this pair's own per-query "
             "differences, Tukey's HSD by one yardstick for every pair (the residual variance "
             "V_E of all retrievers); a pair whose differences are more consistent than that "
             "yardstick passes more easily pairwise, a more spread-out pair under Tukey.",
        "C": "Holm's correction is always more conservative than Tukey's HSD, so a pairwise "
             "test can never be significant before Tukey.",
        "D": "Tukey's HSD gives no significant pair when the ANOVA is not significant.",
    },
}

_TOLERANCE = 5e-3
_RETRIEVERS = ("bm25", "vector", "hybrid", "reranked")



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


@functools.lru_cache(maxsize=1)
def _all_scores(measure: str):
    """Per-query scores of the four default retrievers (queries x retrievers)."""
    import pandas as pd

    from reteval.datasets import load
    from reteval.evaluation.engine import evaluate
    from reteval.retrievers import make_retriever

    collection = load("teaching")
    return pd.DataFrame({
        name: evaluate(collection.qrels,
                       make_retriever(name, collection.corpus).run(collection.queries, k=DEPTH),
                       [measure])[measure]
        for name in _RETRIEVERS})


def _queries_for_range() -> int:
    from reteval.stats import pilot_variance, queries_needed_anova

    scores = _all_scores("AP")
    return queries_needed_anova(0.03, pilot_variance(scores), len(_RETRIEVERS))


def _trisk_ndcg() -> float:
    from reteval.stats import trisk

    scores = _all_scores("nDCG@10")
    return float(trisk(scores["vector"], scores["bm25"], alpha=1.0).statistic)


def _check_queries(answer) -> bool:
    value = number(answer)
    return value == int(value) and int(value) == _queries_for_range()


def _check_pairwise_letter(answer) -> bool:
    if not isinstance(answer, str):
        raise TypeError("a letter is expected")
    return answer.strip().upper() == "B"


def _check_trisk(answer) -> bool:
    return abs(number(answer) - _trisk_ndcg()) <= _TOLERANCE


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
    "02.5": Exercise(
        _check_queries,
        "用 reteval.stats.pilot_variance 估计四个检索器逐查询 AP 的残差方差，"
        "再调用 queries_needed_anova(0.03, 方差, 4)；答案是整数，不是第 9.2 节表中 0.02 的结果。",
        "Estimate the residual variance of the four retrievers' per-query AP with "
        "reteval.stats.pilot_variance, then call queries_needed_anova(0.03, variance, 4); the "
        "answer is an integer, not the table's value for 0.02 in section 9.2.",
    ),
    "02.6": Exercise(
        _check_pairwise_letter,
        "比较两种方法各用什么来衡量噪声：这一对自己的差值，还是所有检索器的离散程度；"
        "再比较两对差值的标准差与 √(2 V_E)。",
        "Compare what each procedure measures the noise by: this pair's own differences, or "
        "the spread of all retrievers; then compare both pairs' standard deviations of the "
        "differences with sqrt(2 V_E).",
    ),
    "02.7": Exercise(
        _check_trisk,
        "计算 vector 和 bm25 的逐查询 nDCG@10，"
        "再用 reteval.stats.trisk(vector, bm25, alpha=1) 取 statistic；不是 AP 的结果。",
        "Compute the per-query nDCG@10 of vector and of bm25, then "
        "reteval.stats.trisk(vector, bm25, alpha=1).statistic; not the AP value.",
    ),
}
