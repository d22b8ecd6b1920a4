"""Exercises of notebook 03 (the evaluation set, RAG context metrics).

Each checker recomputes the right answer from the exercise's data with the
library, so the exercise text and its check cannot drift apart. Worked
solutions: ``notebooks/solutions/03_solutions.ipynb``.

* ``03.1`` (unjudged documents): ``(Judged@5, highest possible P@5)`` of
  :data:`JUDGED_RANKING` against :data:`JUDGMENTS`, a pair of numbers.
* ``03.2`` (RAG): the coverage of the statement :data:`RAG_STATEMENT` by the
  context :data:`RAG_CONTEXT` under ``OverlapJudge(cjk="bigram")``, a number
  (not a pair of the notebook, whose coverage the notebook prints).
* ``03.3`` (code): ``context_precision(relevant)`` from the yes/no verdicts of
  the ranked contexts, run on hidden cases against
  :func:`reteval.rag.context_precision_score`.
"""

from __future__ import annotations

import pandas as pd

from reteval.teaching.exercises import Exercise, WrongAnswer, WrongType, close_to, returned_number

__all__ = ["EXERCISES", "JUDGED_RANKING", "JUDGMENTS", "RAG_CONTEXT", "RAG_STATEMENT"]

#: 03.1: a ranked list and the qrels of its query (grade 0 = judged not relevant).
JUDGED_RANKING = ["d1", "d2", "d3", "d4", "d5"]
JUDGMENTS = {"d1": 1, "d2": 0, "d4": 2, "d6": 3}

#: 03.2: a retrieved context and a reference statement that says a little more.
RAG_CONTEXT = "向量检索用嵌入表示文档"
RAG_STATEMENT = "向量检索用嵌入向量表示文档和查询"

# 03.3: the hidden cases (the verdicts v_1..v_K, the name of what the case is about).
_PRECISION_CASES = [
    ([True, False], "chapter_example"),
    ([False, False, True, True, False], "not_at_top"),
    ([False, False, False], "no_relevant"),
    ([], "no_context"),
    ([True, True, True], "all_relevant"),
    ([False, True, False, True, False, False, True, False], "longer"),
]


def _check_03_1(answer) -> bool:
    import reteval

    if isinstance(answer, (str, bytes)):
        raise WrongType("pair", answer)
    judged_at_5, max_p_at_5 = list(answer)
    run = pd.DataFrame({"query_id": "q", "doc_id": JUDGED_RANKING,
                        "score": [5.0, 4.0, 3.0, 2.0, 1.0]})
    scores = reteval.evaluate({"q": JUDGMENTS}, run, ["Judged@5", "P@5"]).iloc[0]
    unjudged = (1 - scores["Judged@5"]) * len(JUDGED_RANKING)
    best = scores["P@5"] + unjudged / 5
    return (close_to(judged_at_5, scores["Judged@5"], decimals=1)
            and close_to(max_p_at_5, best, decimals=1))


def _check_03_2(answer) -> bool:
    from reteval.rag import OverlapJudge

    expected = OverlapJudge(cjk="bigram").coverage(RAG_CONTEXT, RAG_STATEMENT)
    return close_to(answer, expected, decimals=2)


def _check_03_3(answer) -> bool:
    from reteval.rag import context_precision_score

    if not callable(answer):
        raise WrongType("function", answer)
    for verdicts, case in _PRECISION_CASES:
        try:
            result = answer(list(verdicts))
        except Exception as error:  # the student's code may fail in any way
            raise WrongAnswer("raised", case=case, error=type(error).__name__) from error
        got = returned_number(result)
        if abs(got - context_precision_score(verdicts)) > 1e-9:
            raise WrongAnswer("differs", case=case)
    return True


EXERCISES = {
    "03.1": Exercise(_check_03_1),
    "03.2": Exercise(_check_03_2),
    "03.3": Exercise(_check_03_3, code=True),
}
