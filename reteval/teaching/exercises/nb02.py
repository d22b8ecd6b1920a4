"""Exercises of notebook 02 (a cheating leaderboard).

Each checker recomputes the right answer from the exercise's data with the
library (or the chapter's own function), so the exercise text and its check
cannot drift apart. Worked solutions: ``notebooks/solutions/02_solutions.ipynb``.

* ``02.1`` (stopping early): ``(m, AP)``: the fewest documents of
  :data:`STOP_RANKING` that maximise the chapter's ``average_precision`` against
  :data:`STOP_RELEVANT`, and trec_eval's AP of that cut list.
* ``02.2`` (code): ``duplicate_ranks(ranking)``, the ranks (from 1) of the first
  document found listed a second time, going down the list, or ``None``; run on
  hidden cases.
* ``02.3`` (padding by chance): the expected gain in P@10 when the list of
  :data:`PAD_QUERY` is filled up to 10 with random documents, a number.
* ``02.4`` (a tie band): ``(worst, trec_eval, best)``, the AP of :data:`TIE_RUN`
  against :data:`TIE_QRELS` under the least favourable order of its ties,
  trec_eval's order and the most favourable one.
"""

from __future__ import annotations

import pandas as pd

from reteval.teaching.exercises import Exercise, WrongAnswer, WrongType, close_to, number

__all__ = [
    "EXERCISES",
    "PAD_QUERY",
    "STOP_RANKING",
    "STOP_RELEVANT",
    "TIE_QRELS",
    "TIE_RUN",
]

#: 02.1: an honest ranked list and the query's relevant documents (d4 and d9 never retrieved).
STOP_RANKING = ["d8", "d3", "d7", "d6", "d5", "d1"]
STOP_RELEVANT = ["d1", "d3", "d4", "d9"]

#: 02.3: one query's list before padding (4 documents, 1 of them relevant), its relevant
#: documents (7, all in the collection) and the collection's size.
PAD_QUERY = {"listed": 4, "listed_relevant": 1, "relevant": 7, "collection": 204, "k": 10}

#: 02.4: one query: three documents tie at 0.5; d6 is relevant and never retrieved.
TIE_RUN = {"q": {"d1": 0.9, "d2": 0.5, "d3": 0.5, "d4": 0.5, "d5": 0.1}}
TIE_QRELS = {"q": {"d1": 1, "d2": 0, "d3": 1, "d4": 0, "d5": 1, "d6": 1}}

# 02.2: the hidden cases (ranked list, the name of what the case is about).
_DUPLICATE_CASES = [
    (["a", "b", "c"], "no_repeats"),
    (["a", "a", "b"], "right_after"),
    (["a", "b", "c", "b"], "further_down"),
    (["a", "b", "b", "a"], "two_repeated"),
    ([], "empty"),
    (["D1", "d1"], "case_only"),
    ([f"d{i}" for i in range(1000)] + ["d500"], "long"),
]


def _duplicate_ranks(ranking):
    seen = {}
    for rank, doc in enumerate(ranking, 1):
        if doc in seen:
            return seen[doc], rank
        seen[doc] = rank
    return None


def _trec_ap(ranking, relevant) -> float:
    import reteval

    run = pd.DataFrame({"query_id": "q", "doc_id": list(ranking),
                        "score": [float(len(ranking) - i) for i in range(len(ranking))]})
    return float(reteval.evaluate({"q": {d: 1 for d in relevant}}, run, ["AP"])["AP"].iloc[0])


def _pair(answer, size):
    if isinstance(answer, (str, bytes)):
        raise WrongType(f"numbers.{size}", answer)
    values = list(answer)
    if len(values) != size:
        raise ValueError(f"{size} numbers are expected")
    return values


def _check_02_1(answer) -> bool:
    from reteval.teaching.chapter_metrics import average_precision

    m, ap = _pair(answer, 2)
    chapter = [float(average_precision(STOP_RANKING[:cut], STOP_RELEVANT))
               for cut in range(1, len(STOP_RANKING) + 1)]
    best = chapter.index(max(chapter)) + 1  # the fewest documents with the highest value
    if number(m) != best:
        return False
    return close_to(ap, _trec_ap(STOP_RANKING[:best], STOP_RELEVANT), decimals=2)


def _check_02_2(answer) -> bool:
    if not callable(answer):
        raise WrongType("function", answer)
    for ranking, case in _DUPLICATE_CASES:
        try:
            got = answer(list(ranking))
        except Exception as error:  # the student's code may fail in any way
            raise WrongAnswer("raised", case=case, error=type(error).__name__) from error
        expected = _duplicate_ranks(ranking)
        same = got is None if expected is None else (
            got is not None and not isinstance(got, (str, bytes))
            and [number(x) for x in got] == list(expected))
        if not same:
            raise WrongAnswer("wrong", case=case)
    return True


def _pad_expectation() -> float:
    from reteval.teaching.cheats import expected_padding_gain

    q = PAD_QUERY
    doc_ids = [f"d{i:03d}" for i in range(q["collection"])]
    relevant = doc_ids[:q["relevant"]]
    listed = relevant[:q["listed_relevant"]] + doc_ids[-(q["listed"] - q["listed_relevant"]):]
    gain = expected_padding_gain({"q": {d: 1 for d in relevant}}, {"q": listed}, doc_ids, q["k"])
    return float(gain.loc["q", f"P@{q['k']}"])


def _check_02_3(answer) -> bool:
    return close_to(answer, _pad_expectation(), decimals=4)


def _check_02_4(answer) -> bool:
    from reteval.evaluation import tie_bounds

    worst, value, best = _pair(answer, 3)
    bounds = tie_bounds(TIE_QRELS, TIE_RUN, ["AP"])
    return all(close_to(given, float(frame.loc["q", "AP"]), decimals=2)
               for given, frame in ((worst, bounds.worst), (value, bounds.value),
                                    (best, bounds.best)))


EXERCISES = {
    "02.1": Exercise(_check_02_1),
    "02.2": Exercise(_check_02_2, code=True),
    "02.3": Exercise(_check_02_3),
    "02.4": Exercise(_check_02_4),
}
