"""Exercises of notebook 10 (the evaluation report).

* ``10.1`` (computed): the chapter's "best overall" once ``recall@100`` is in
  the table: a system name.
* ``10.2`` (computed): the columns whose highest mean is shared: column names.
* ``10.3`` (choice): what would show that two systems are equally good: a letter.
* ``10.4`` (code): ``best_retrievers(results)``, every retriever with the
  highest mean of each measure (ties kept, whatever the order of the
  retrievers), run on hidden tables.

The two computed exercises are about the chapter's table of notebook 05: the
teaching collection, the retrievers bm25, vector, hybrid and reranked, 100
documents per query, cutoffs 1, 3, 5 and 10. Their checks compute the right
answer with reteval (the first check takes a few seconds: it runs the four
retrievers).
"""

from __future__ import annotations

import functools
import re

from reteval.teaching.exercises import Exercise, WrongAnswer, letters, word

__all__ = ["EXERCISES"]

RETRIEVERS = ("bm25", "vector", "hybrid", "reranked")
K_VALUES = (1, 3, 5, 10)
DEPTH = 100


@functools.lru_cache(maxsize=1)
def _teaching_runs():
    from reteval.datasets import load
    from reteval.retrievers import make_retriever

    collection = load("teaching")
    runs = {name: make_retriever(name, collection.corpus).run(collection.queries, k=DEPTH)
            for name in RETRIEVERS}
    return collection.qrels, runs


def _chapter_table(extra_recall: tuple[int, ...] = ()):
    import pandas as pd

    from reteval.teaching.chapter_report import chapter_results

    qrels, runs = _teaching_runs()
    table = pd.DataFrame(chapter_results(qrels, runs, k_values=K_VALUES)).T
    if extra_recall:
        extra = pd.DataFrame(chapter_results(qrels, runs, k_values=extra_recall)).T
        table = table.join(extra[[f"recall@{k}" for k in extra_recall]])
    return table


def _overall_best_with_recall_100(answer) -> bool:
    table = _chapter_table(extra_recall=(100,))
    return word(answer, {table.mean(axis=1).idxmax()})


_OURS = {"r": "recall", "p": "precision", "ndcg": "ndcg"}


def _chapter_key(name: str) -> str:
    """``"R@1"`` or ``"recall@1"`` -> ``"recall@1"``; ``"RR"``/``"MRR"`` -> ``"mrr"``."""
    text = str(name).strip().lower()
    if text in ("rr", "mrr"):
        return "mrr"
    match = re.fullmatch(r"([a-z]+)@(\d+)", text)
    if not match:
        raise ValueError(name)
    return f"{_OURS.get(match.group(1), match.group(1))}@{int(match.group(2))}"


def _tied_columns(answer) -> bool:
    if isinstance(answer, str) or not hasattr(answer, "__iter__"):
        raise TypeError("a collection of column names")
    given = {_chapter_key(name) for name in answer}
    table = _chapter_table()
    tied = {col for col in table.columns if int((table[col] == table[col].max()).sum()) > 1}
    return given == tied


def _choice(right: str):
    def is_correct(answer) -> bool:
        return letters(answer) == {right}
    return is_correct


# 10.4: the hidden tables ({retriever: {measure: mean}}, what the table is about).
_TABLES = [
    ({"bm25": {"recall@5": 0.52, "mrr": 0.61}, "vector": {"recall@5": 0.58, "mrr": 0.55},
      "hybrid": {"recall@5": 0.55, "mrr": 0.59}},
     "没有并列的表", "a table without ties"),
    ({"bm25": {"precision@1": 0.75, "ndcg@5": 0.62},
      "vector": {"precision@1": 0.75, "ndcg@5": 0.66},
      "hybrid": {"precision@1": 0.5, "ndcg@5": 0.64}},
     "两个检索器并列第一", "two retrievers tied first"),
    ({"hybrid": {"precision@1": 0.5, "ndcg@5": 0.64},
      "vector": {"precision@1": 0.75, "ndcg@5": 0.66},
      "bm25": {"precision@1": 0.75, "ndcg@5": 0.62}},
     "同一张表，检索器顺序倒过来", "the same table, the retrievers in reverse order"),
    ({"a": {"recall@1": 1.0, "mrr": 0.9}, "b": {"recall@1": 1.0, "mrr": 0.8},
      "c": {"recall@1": 1.0, "mrr": 0.7}},
     "所有检索器在一列上并列", "every retriever tied on a column"),
    ({"a": {"recall@10": 0.9}, "b": {"recall@10": 0.7}, "c": {"recall@10": 0.7}},
     "只有第二名并列", "a tie for second place only"),
    ({"a": {"recall@1": 0.0, "mrr": 0.0}, "b": {"recall@1": 0.0, "mrr": 0.25}},
     "一列全是 0", "a column of zeros"),
    ({"only": {"recall@5": 0.4, "mrr": 0.3}},
     "只有一个检索器", "a single retriever"),
]


def _best(table: dict) -> dict[str, set[str]]:
    measures = list(next(iter(table.values())))
    return {m: {s for s, row in table.items() if row[m] == max(r[m] for r in table.values())}
            for m in measures}


def _best_retrievers(answer) -> bool:
    import copy

    if not callable(answer):
        raise TypeError("a function is expected")
    for table, zh, en in _TABLES:
        try:
            got = dict(answer(copy.deepcopy(table)))
            got = {m: ({names} if isinstance(names, str) else set(names))
                   for m, names in got.items()}
        except Exception as error:  # the student's code may fail in any way
            raise WrongAnswer(f"在隐藏的表“{zh}”上，你的函数出错：{type(error).__name__}。",
                              f"On the hidden table \"{en}\" your function raised "
                              f"{type(error).__name__}.") from error
        if got != _best(table):
            raise WrongAnswer(f"在隐藏的表“{zh}”上，结果不对。",
                              f"On the hidden table \"{en}\" the result is wrong.")
    return True


EXERCISES = {
    "10.1": Exercise(
        _overall_best_with_recall_100,
        hints_zh=(
            "答案是一个检索器名（字符串）。先用 chapter_results 算出加了 recall@100 的表。",
            "本章的“综合最佳”是各列均值的平均（df.mean(axis=1)）最高的那一行。",
            ("bm25 每个查询平均只返回约 19 篇文档：它的 R@100 与返回 100 篇的检索器相比会怎样？"
            "这一列对均值的均值有多大影响？"),
        ),
        hints_en=(
            ("The answer is a retriever's name (a string). First compute the table with "
            "recall@100 added, with chapter_results."),
            ("The chapter's \"best overall\" is the row with the highest mean of the columns "
            "(df.mean(axis=1))."),
            ("bm25 returns about 19 documents per query: how does its R@100 compare with that "
            "of the retrievers that return 100? How much does that one column move the mean "
            "of means?"),
        ),
    ),
    "10.2": Exercise(
        _tied_columns,
        hints_zh=(
            "答案是列名的集合，如 {\"recall@1\"}。逐列找出最高均值，再数有几个检索器达到它。",
            "不要只看打印的 4 位小数：用 == 比较完整的数值。",
            ("前 K 名完全相同的两个检索器，在截断位置不超过 K 的每一列都并列；"
            "每一列都要检查，包括 mrr。"),
        ),
        hints_en=(
            ("The answer is a set of column names, such as {\"recall@1\"}. Find each column's "
            "highest mean, then count the retrievers that reach it."),
            "Do not go by the four printed decimals: compare the full values with ==.",
            ("Two retrievers with the same top K tie in every column with a cutoff of K or "
            "less; check every column, mrr included."),
        ),
    ),
    "10.3": Exercise(
        _choice("B"),
        hints_zh=(
            "答案是一个字母。“一样好”需要什么样的证据？",
            ("大于 0.05 的 p 值只说明这些查询没有显示出差异，它不是“相等”的证据；"
            "四位小数相同或报告里的名次也不是。"),
            "要说明差异在 ±0.01 之内，就要说明差异的合理范围整个落在这个区间里。",
        ),
        hints_en=(
            "The answer is one letter. What kind of evidence does \"equally good\" need?",
            ("A p-value above 0.05 only says that these queries show no difference; it is no "
            "evidence of equality, and neither are equal printed decimals or a report's ranking."),
            ("To show that the difference is within ±0.01, show that the whole range of "
            "plausible differences lies inside that interval."),
        ),
    ),
    "10.4": Exercise(
        _best_retrievers,
        hints_zh=(
            ("写一个函数 best_retrievers(results)，返回一个字典：每个指标对应一组检索器名。"
             "先把 results 转成 DataFrame（行是检索器，列是指标）。"),
            "不要用 idxmax：它只返回第一个最大值。每一列先求最大值，再找出所有等于它（==）的行。",
            ("对每一列 m：top = df[m].max()，保留 df[m] == top 的那些行的名字；"
             "返回的字典要包含每一个指标，并列时值里有几个名字。"),
        ),
        hints_en=(
            ("Write a function best_retrievers(results) that returns a dict: for each measure, a "
             "collection of retriever names. Start by turning results into a DataFrame (rows: "
             "retrievers, columns: measures)."),
            ("Do not use idxmax: it returns the first maximum only. Take each column's maximum, "
             "then find every row equal (==) to it."),
            ("For each column m: top = df[m].max(), then keep the names of the rows where "
             "df[m] == top; the dict has every measure, with several names where they tie."),
        ),
        code=True,
    ),
}
