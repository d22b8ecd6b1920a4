"""Exercises of notebook 01 (the measures).

Each checker recomputes the right answer from the exercise's data with the
library (or the chapter's own function), so the exercise text and its check
cannot drift apart. Worked solutions: ``notebooks/solutions/01_solutions.ipynb``.
The exercises on the evaluation set and the RAG context measures are notebook
03's (:mod:`reteval.teaching.exercises.nb03`).

* ``01.1`` (computed): trec_eval's AP of :data:`RANKING` against
  :data:`RELEVANT`, a number.
* ``01.2`` (the chapter's AP flaw): a ranked list of doc ids (any iterable)
  for which the chapter's ``average_precision`` gives 1.0 while trec_eval's
  AP is at most 0.25, with the relevant documents :data:`FLAW_RELEVANT`.
* ``01.3`` (code): a corrected ``average_precision(retrieved_docs,
  relevant_docs)``, run on hidden cases against trec_eval's AP.
"""

from __future__ import annotations

import pandas as pd

from reteval.teaching.exercises import Exercise, WrongAnswer, WrongType, close_to, returned_number

__all__ = ["EXERCISES", "FLAW_RELEVANT", "RANKING", "RELEVANT"]

#: 01.1: a ranked list and its relevant documents (one of them, d8, never retrieved).
RANKING = ["d3", "d7", "d1", "d9", "d4"]
RELEVANT = ["d1", "d3", "d4", "d8"]

#: 01.2: the relevant documents of the query; the answer is a ranked list of doc ids.
FLAW_RELEVANT = ["d1", "d2", "d3", "d4"]

# 01.3: the hidden cases (ranked list, relevant documents, the name of what it is about).
_AP_CASES = [
    (["d2", "d9", "d4", "d7"], ["d2", "d4", "d6"], "never_retrieved"),
    (["d1", "d2", "d3"], ["d7", "d8"], "none_retrieved"),
    (["d1", "d2"], [], "no_relevant"),
    (["d5", "d1", "d2", "d3"], ["d1", "d2", "d3"], "not_at_top"),
    (["d3"], ["d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12"], "short"),
    ([f"d{i}" for i in range(40)], [f"d{i}" for i in range(0, 60, 7)], "longer"),
]


def _trec_ap(ranking, relevant) -> float:
    import reteval

    ranking = list(ranking)
    if not relevant:
        return 0.0
    run = pd.DataFrame({"query_id": "q", "doc_id": ranking,
                        "score": [float(len(ranking) - i) for i in range(len(ranking))]})
    return float(reteval.evaluate({"q": {d: 1 for d in relevant}}, run, ["AP"])["AP"].iloc[0])


def _check_01_1(answer) -> bool:
    return close_to(answer, _trec_ap(RANKING, RELEVANT), decimals=2)


def _doc_ids(answer) -> list[str]:
    if isinstance(answer, (str, bytes)):
        raise WrongType("doc_ids", answer)
    ranking = list(answer)
    if not all(isinstance(d, str) for d in ranking):
        raise WrongType("doc_ids", answer)
    return ranking


def _check_01_2(answer) -> bool:
    from reteval.teaching.chapter_metrics import average_precision

    ranking = _doc_ids(answer)
    if not ranking or len(set(ranking)) != len(ranking):
        return False  # an empty list, or one with a document twice, is not a ranking
    return (abs(float(average_precision(ranking, FLAW_RELEVANT)) - 1.0) < 1e-12
            and _trec_ap(ranking, FLAW_RELEVANT) <= 0.25 + 1e-12)


def _check_01_3(answer) -> bool:
    if not callable(answer):
        raise WrongType("function", answer)
    for ranking, relevant, case in _AP_CASES:
        try:
            result = answer(list(ranking), list(relevant))
        except Exception as error:  # the student's code may fail in any way
            raise WrongAnswer("raised", case=case, error=type(error).__name__) from error
        got = returned_number(result)
        if abs(got - _trec_ap(ranking, relevant)) > 1e-9:
            raise WrongAnswer("differs", case=case)
    return True


EXERCISES = {
    "01.1": Exercise(_check_01_1),
    "01.2": Exercise(_check_01_2),
    "01.3": Exercise(_check_01_3, code=True),
}
