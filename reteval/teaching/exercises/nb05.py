"""Exercises of notebook 05 (comparing retrievers).

The computed exercises are checked against values the checker recomputes (05.1
with the library on the bundled teaching collection, depth 100, reteval's
default bm25; 05.3 with the chapter's own ``ndcg_at_k``), so the exercise and its
check cannot drift apart. Worked
solutions: ``notebooks/solutions/05_solutions.ipynb``. The exercises on many
retrievers at once are notebook 06's (:mod:`reteval.teaching.exercises.nb06`).

* ``05.1`` (computed): on how many queries bm25, asked for 100 documents,
  returns fewer than 5 (``NumRet < 5``; the notebooks print the count below 10
  and 20, not this one): a whole number.
* ``05.2`` (what would let a re-ranker reach the other language): a letter of
  :data:`WHY_IDENTICAL`.
* ``05.3`` (computed, the chapter's nDCG): the chapter's ``ndcg@10`` of one
  ranking of :data:`GRADES` (its exponential gain, not reteval's linear one): a
  number.
* ``05.4`` (code): ``top_k(run, k)``, a run cut to its top ``k`` documents
  per query in trec_eval's order, run on hidden runs.
"""

from __future__ import annotations

import functools

import pandas as pd

from reteval._util.catalogue import LANGUAGES, phrases
from reteval.teaching.exercises import (
    Exercise,
    WrongAnswer,
    WrongType,
    close_to,
    letters,
    whole_number,
)

__all__ = ["DEPTH", "EXERCISES", "GRADES", "SHORT", "WHY_IDENTICAL"]

#: Documents asked of every retriever in the computed exercises.
DEPTH = 100

#: 05.1: a list shorter than this is "short" (P@5 counts its missing ranks as not relevant).
SHORT = 5

#: 05.2: what would let a re-ranker with vector's model as its second stage find the
#: cross-language relevant documents bm25 misses? (The name is kept for the notebook cell
#: that prints the options.) {lang: {letter: option}}.
WHY_IDENTICAL = {lang: phrases("teaching.exercise.05.2.option.", lang) for lang in LANGUAGES}

#: 05.3: the grades of one query's ranking, rank 1 first; the query has no other relevant
#: document, so the ideal ranking is these grades sorted.
GRADES = (1, 2)


@functools.lru_cache(maxsize=1)
def _short_queries() -> int:
    from reteval.datasets import load
    from reteval.evaluation.engine import evaluate
    from reteval.retrievers import make_retriever

    collection = load("teaching")
    run = make_retriever("bm25", collection.corpus).run(collection.queries, k=DEPTH)
    numret = evaluate(collection.qrels, run, ["NumRet"])["NumRet"]
    return int((numret < SHORT).sum())


def _check_short(answer) -> bool:
    return whole_number(answer, _short_queries())


def _check_letter(answer) -> bool:
    return letters(answer) == {"B"}


def _chapter_ndcg() -> float:
    from reteval.teaching.chapter_metrics import ndcg_at_k

    ranking = [f"d{rank}" for rank in range(1, len(GRADES) + 1)]
    return float(ndcg_at_k(ranking, dict(zip(ranking, GRADES, strict=True)), 10))


def _check_chapter_ndcg(answer) -> bool:
    return close_to(answer, _chapter_ndcg(), decimals=3)


def _run(rows) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])


# 05.4: hidden runs, each with the name of what it is about.
_TOP_K_CASES = [
    (_run([("q1", "d1", 0.2), ("q1", "d2", 0.9), ("q1", "d3", 0.5), ("q1", "d4", 0.7)]), 2,
     "unsorted"),
    (_run([("q1", "d1", 0.5), ("q1", "d7", 0.5), ("q1", "d3", 0.5), ("q1", "d9", 0.1)]), 2,
     "tied_at_k"),
    (_run([("q2", "d1", 3.0), ("q1", "d2", 2.0), ("q2", "d3", 1.0), ("q1", "d4", 4.0),
           ("q2", "d5", 2.5)]), 1,
     "interleaved"),
    (_run([("q1", "d1", 1.0), ("q2", "d2", 1.0), ("q2", "d3", 0.5)]), 5,
     "fewer_than_k"),
    (_run([("q1", "doc10", 1.0), ("q1", "doc9", 1.0), ("q1", "doc2", 1.0)]), 1,
     "string_ids"),
]


def _check_top_k(answer) -> bool:
    from reteval.io import sort_run

    if not callable(answer):
        raise WrongType("function", answer)
    for run, k, case in _TOP_K_CASES:
        try:
            got = pd.DataFrame(answer(run.copy(), k))
            pairs = set(zip(got["query_id"], got["doc_id"], strict=True))
        except Exception as error:  # the student's code may fail in any way
            raise WrongAnswer("raised", case=case, error=type(error).__name__) from error
        expected = sort_run(run).groupby("query_id", sort=False).head(k)
        if len(got) != len(expected) or pairs != set(zip(expected["query_id"],
                                                         expected["doc_id"], strict=True)):
            raise WrongAnswer("wrong", case=case)
    return True


EXERCISES = {
    "05.1": Exercise(_check_short),
    "05.2": Exercise(_check_letter),
    "05.3": Exercise(_check_chapter_ndcg),
    "05.4": Exercise(_check_top_k, code=True),
}
