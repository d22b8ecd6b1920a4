"""Exercises of notebook 04 (the evaluation report).

The two computed exercises are about the chapter's table of notebook 02: the
teaching collection, the retrievers bm25, vector, hybrid and reranked, 100
documents per query, cutoffs 1, 3, 5 and 10. Their checks compute the right
answer with reteval (the first check takes a few seconds: it runs the four
retrievers).
"""

from __future__ import annotations

import functools
import re

from reteval.teaching.exercises import Exercise

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
    if not isinstance(answer, str):
        raise TypeError("a system name")
    table = _chapter_table(extra_recall=(100,))
    return answer.strip() == table.mean(axis=1).idxmax()


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
        if not isinstance(answer, str):
            raise TypeError("a letter")
        return answer.strip().upper() == right
    return is_correct


def _choices(right: set[str]):
    def is_correct(answer) -> bool:
        if isinstance(answer, str):
            answer = re.findall(r"[A-Za-z]", answer)
        return {str(a).strip().upper() for a in answer} == right
    return is_correct


EXERCISES = {
    "04.1": Exercise(
        _overall_best_with_recall_100,
        "把 recall@100（召回率 R@100）加入笔记本 02 的表，再交给本章的函数："
        "各列的均值谁最高？bm25 每个查询平均只返回约 19 篇文档，它的 R@100 会怎样？",
        "Add recall@100 (R@100) to notebook 02's table and run the chapter's function again: "
        "whose mean of means is highest? bm25 returns about 19 documents per query; what "
        "does that do to its R@100?",
    ),
    "04.2": Exercise(
        _tied_columns,
        "逐列比较：哪些列的最高均值由不止一个检索器共享？不要只看 4 位小数，用 == 比较"
        "完整的数值；前 10 位相同的两个检索器在截断位置 10 以内的每一列都并列。",
        "Compare column by column: in which columns is the highest mean shared by more than "
        "one system? Compare the full values with ==, not the four printed decimals; two "
        "systems with the same top 10 tie in every column with a cutoff of 10 or less.",
    ),
    "04.3": Exercise(
        _choice("C"),
        "“不显著”不等于“相等”，也不等于“更好”：它说的是这些查询能证明什么。",
        "'Not significant' means neither 'equal' nor 'better': it is about what these "
        "queries can show.",
    ),
    "04.4": Exercise(
        _choices({"A", "B", "C"}),
        "想想只保留 mrr 一列时谁是“综合最佳”，0.016 的差距意味着什么，以及 idxmax 的速度"
        "与结论无关。",
        "Think of who is 'best overall' with the mrr column alone, of what a lead of 0.016 "
        "means, and that the speed of idxmax has nothing to do with the conclusion.",
    ),
}
