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
from collections.abc import Mapping

from reteval.teaching.exercises import Exercise, WrongAnswer, WrongType, letters, word

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
        raise WrongType("columns", answer)
    given = {_chapter_key(name) for name in answer}
    table = _chapter_table()
    tied = {col for col in table.columns if int((table[col] == table[col].max()).sum()) > 1}
    return given == tied


def _choice(right: str):
    def is_correct(answer) -> bool:
        return letters(answer) == {right}
    return is_correct


# 10.4: the hidden tables ({retriever: {measure: mean}}, the name of what each is about).
_TABLES = [
    ({"bm25": {"recall@5": 0.52, "mrr": 0.61}, "vector": {"recall@5": 0.58, "mrr": 0.55},
      "hybrid": {"recall@5": 0.55, "mrr": 0.59}},
     "no_ties"),
    ({"bm25": {"precision@1": 0.75, "ndcg@5": 0.62},
      "vector": {"precision@1": 0.75, "ndcg@5": 0.66},
      "hybrid": {"precision@1": 0.5, "ndcg@5": 0.64}},
     "tied_first"),
    ({"hybrid": {"precision@1": 0.5, "ndcg@5": 0.64},
      "vector": {"precision@1": 0.75, "ndcg@5": 0.66},
      "bm25": {"precision@1": 0.75, "ndcg@5": 0.62}},
     "reversed"),
    ({"a": {"recall@1": 1.0, "mrr": 0.9}, "b": {"recall@1": 1.0, "mrr": 0.8},
      "c": {"recall@1": 1.0, "mrr": 0.7}},
     "tied_column"),
    ({"a": {"recall@10": 0.9}, "b": {"recall@10": 0.7}, "c": {"recall@10": 0.7}},
     "tied_second"),
    ({"a": {"recall@1": 0.0, "mrr": 0.0}, "b": {"recall@1": 0.0, "mrr": 0.25}},
     "zeros"),
    ({"only": {"recall@5": 0.4, "mrr": 0.3}},
     "single"),
    # means that differ only in the 5th decimal: rounded to 2, 3 or 4 decimals they tie
    ({"bm25": {"ndcg@10": 0.62961, "mrr": 0.71}, "vector": {"ndcg@10": 0.62959, "mrr": 0.7},
      "hybrid": {"ndcg@10": 0.5, "mrr": 0.7}},
     "close_not_tied"),
    ({"a": {"precision@5": 0.5, "recall@5": 0.31}, "b": {"precision@5": 0.5, "recall@5": 0.3},
      "c": {"precision@5": 0.49999, "recall@5": 0.2}},
     "close_to_a_tie"),
]


def _best(table: dict) -> dict[str, set[str]]:
    measures = list(next(iter(table.values())))
    return {m: {s for s, row in table.items() if row[m] == max(r[m] for r in table.values())}
            for m in measures}


def _best_retrievers(answer) -> bool:
    import copy

    if not callable(answer):
        raise WrongType("function", answer)
    for table, case in _TABLES:
        try:
            result = answer(copy.deepcopy(table))
        except Exception as error:  # the student's code may fail in any way
            raise WrongAnswer("raised", case=case, error=type(error).__name__) from error
        if not isinstance(result, Mapping):
            raise WrongType("dict", result, returned=True)
        try:
            got = {m: ({names} if isinstance(names, str) else set(names))
                   for m, names in result.items()}
        except TypeError as error:  # a measure's value is not a collection of names
            raise WrongType("names", result, returned=True) from error
        if got != _best(table):
            raise WrongAnswer("wrong", case=case)
    return True


EXERCISES = {
    "10.1": Exercise(_overall_best_with_recall_100),
    "10.2": Exercise(_tied_columns),
    "10.3": Exercise(_choice("B")),
    "10.4": Exercise(_best_retrievers, code=True),
}
