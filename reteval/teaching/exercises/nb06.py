"""Exercises of notebook 06 (many systems: ANOVA, Tukey's HSD, effect sizes).

The computed exercises are checked against values the checker recomputes with
the library on the bundled teaching collection (the four default retrievers,
depth 100), so the exercise and its check cannot drift apart. Worked
solutions: ``notebooks/solutions/06_solutions.ipynb``.

* ``06.1`` (computed): the number of queries a one-way ANOVA of the four
  default retrievers needs to detect a range of 0.03 in AP (alpha 0.05, power
  0.8), with the residual variance of their AP on the teaching collection: an
  integer.
* ``06.2`` (pairwise tests or Tukey's HSD): a letter of :data:`PAIRWISE_VS_TUKEY`.
* ``06.3`` (computed): TRisk of vector against bm25 on nDCG@10 with alpha = 1:
  a number.
* ``06.4`` (code): ``effect_size(scores, system, other)``, the effect size
  ``(mean difference) / sqrt(V_E)`` of two columns of a queries x systems
  frame, ``V_E`` the residual variance of the two-way ANOVA without
  replication; run on hidden frames.
"""

from __future__ import annotations

import functools
import math

import pandas as pd

from reteval._util.catalogue import LANGUAGES, phrases
from reteval.teaching.exercises import (
    Exercise,
    WrongAnswer,
    WrongType,
    close_to,
    letters,
    returned_number,
    whole_number,
)

__all__ = ["DEPTH", "EXERCISES", "PAIRWISE_VS_TUKEY"]

#: Documents asked of every retriever in the computed exercises.
DEPTH = 100

#: 06.2: on R@10, bm25 - hybrid is significant by pairwise t tests with Holm's correction but
#: not by Tukey's HSD, and bm25 - vector the other way round. Why can both happen?
PAIRWISE_VS_TUKEY = {lang: phrases("teaching.exercise.06.2.option.", lang) for lang in LANGUAGES}

_RETRIEVERS = ("bm25", "vector", "hybrid", "reranked")


@functools.lru_cache(maxsize=2)
def _all_scores(measure: str):
    """Per-query scores of the four default retrievers (queries x retrievers)."""
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
    return whole_number(answer, _queries_for_range())


def _check_pairwise_letter(answer) -> bool:
    return letters(answer) == {"B"}


def _check_trisk(answer) -> bool:
    return close_to(answer, _trisk_ndcg(), decimals=2)


def _frame(rows, columns) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=list(columns),
                        index=[f"q{i}" for i in range(1, len(rows) + 1)])


# 06.4: hidden score frames (queries x systems), the pair asked for, the name of what each
# is about.
_EFFECT_SIZE_CASES = [
    (_frame([[0.2, 0.5], [0.4, 0.6], [0.9, 0.8], [0.1, 0.4]], "ab"), "b", "a",
     "two_systems"),
    (_frame([[0.1, 0.2, 0.0], [0.9, 1.0, 0.7], [0.5, 0.8, 0.4], [0.3, 0.3, 0.1],
             [0.6, 0.9, 0.5]], "abc"), "b", "c",
     "difficulty"),
    (_frame([[0.5, 0.3, 0.6], [0.2, 0.1, 0.4], [0.8, 0.4, 0.7], [0.4, 0.4, 0.9]], "abc"),
     "b", "c", "lower_mean"),
    (_frame([[0.1, 0.3, 0.5], [0.6, 0.8, 0.2], [0.4, 0.6, 0.9], [0.7, 0.9, 0.3]], "abc"),
     "b", "a", "equal_differences"),
    (_frame([[0.2, 0.5, 0.1, 0.7], [0.4, 0.3, 0.2, 0.9], [0.6, 0.9, 0.5, 0.8],
             [0.3, 0.2, 0.4, 0.6], [0.5, 0.7, 0.3, 0.9]], "wxyz"), "z", "x",
     "four_systems"),
]


def _check_effect_size(answer) -> bool:
    from reteval.stats import anova

    if not callable(answer):
        raise WrongType("function", answer)
    for scores, system, other, case in _EFFECT_SIZE_CASES:
        residual_sd = math.sqrt(anova(scores).residual_variance)
        expected = (scores[system].mean() - scores[other].mean()) / residual_sd
        try:
            result = answer(scores.copy(), system, other)
        except Exception as error:  # the student's code may fail in any way
            raise WrongAnswer("raised", case=case, error=type(error).__name__) from error
        got = returned_number(result)
        if not math.isclose(got, expected, rel_tol=1e-6, abs_tol=1e-9):
            raise WrongAnswer("wrong", case=case)
    return True


EXERCISES = {
    "06.1": Exercise(_check_queries),
    "06.2": Exercise(_check_pairwise_letter),
    "06.3": Exercise(_check_trisk),
    "06.4": Exercise(_check_effect_size, code=True),
}
