"""Exercises of notebook 09 (continuous evaluation): the chapter's loop, thresholds, baselines.

* ``09.1`` (computed): evaluations the chapter's loop makes in 70 hours: a
  whole number.
* ``09.2`` (computed): the smallest cutoff at which recall can reach the
  chapter's 0.7 threshold when every query has 12 relevant documents: a whole
  number.
* ``09.3`` (word): the baseline that keeps comparing with the state before a
  drop: a word, in Chinese or English, or the id of an entry before the drop.
* ``09.4`` (code): ``run_once(evaluation, history_file)``, one evaluation of
  the chapter's ``ContinuousEvaluation`` kept in a file, run on hidden days.
* ``09.5`` (computed): a baseline's R@10 on one query once scored again under
  judgments that found more relevant chunks: a number.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import numbers
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

from reteval.teaching.exercises import (
    Exercise,
    WrongAnswer,
    WrongType,
    close_to,
    number,
    whole_number,
    word,
)

__all__ = ["EXERCISES", "FOUND", "RELEVANT_BEFORE", "RELEVANT_PER_QUERY", "RETRIEVED",
           "THRESHOLD"]

#: 09.2: relevant documents per query, and the chapter's alert threshold.
RELEVANT_PER_QUERY = 12
THRESHOLD = 0.7
#: 09.5: relevant chunks of the query in last week's judgments, how many of them the
#: baseline's top 10 holds, and the relevant chunks this week's judgments add (none of them
#: in the baseline's top 10).
RELEVANT_BEFORE, RETRIEVED, FOUND = 10, 6, 2

_FIRST = {"first", "first entry", "the first entry", "the first", "first record",
          "the first record", "baseline=first", "第一条", "第一条记录", "首条", "首条记录",
          "第一个", "第一次", "第一次评估", "最早", "最早的记录", "第一", "earliest",
          "the earliest", "earliest entry", "the earliest entry", "oldest", "the oldest entry"}
#: The notebook's default month: entry n is day n's evaluation, and from day 18 on the
#: system is worse, so entries 1 to 17 hold the state before the drop.
REGRESSION_DAY = 18


def _evaluations_in_70_hours(answer) -> bool:
    return whole_number(answer, 2)


def _smallest_cutoff(answer) -> bool:
    return whole_number(answer, math.ceil(THRESHOLD * RELEVANT_PER_QUERY - 1e-9))


def _baseline(answer) -> bool:
    if isinstance(answer, str) and not any(c.isdigit() for c in answer):
        return word(answer, _FIRST)
    if isinstance(answer, (str, numbers.Real)) and not isinstance(answer, bool):  # an entry id
        return any(whole_number(answer, entry) for entry in range(1, REGRESSION_DAY))
    raise WrongType("word", answer)


def _rescored_recall(answer) -> bool:
    return close_to(answer, RETRIEVED / (RELEVANT_BEFORE + FOUND), decimals=2)


class _Broken:
    def invoke(self, query):
        raise RuntimeError("the search service timed out")


def _lines(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def _run_once(answer) -> bool:
    from reteval.teaching.chapter_continuous import (
        ClockStopped,
        ContinuousEvaluation,
        FakeClock,
        SimulatedSearch,
    )

    if not callable(answer):
        raise WrongType("function", answer)
    start = datetime(2026, 5, 1, tzinfo=timezone.utc)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "history.jsonl"
        expected = []
        for day in (3, 25):  # one day before the regression, one after
            clock = FakeClock(start + timedelta(days=day), until=start + timedelta(days=day))
            search = SimulatedSearch(clock, start, n_queries=12, regression_day=18, seed=7)
            evaluation = ContinuousEvaluation(search, search.eval_dataset(), clock=clock,
                                              sleep=clock.sleep)
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    results = answer(evaluation, path)
            except ClockStopped as error:
                raise WrongAnswer("waits") from error
            except Exception as error:  # the student's code may fail in any way
                raise WrongAnswer("raised", error=type(error).__name__) from error
            recall = evaluation.history[-1]["results"]["recall@5"] if evaluation.history else None
            if not isinstance(results, dict) or recall is None \
                    or abs(number(results.get("recall@5")) - recall) > 1e-12:
                raise WrongAnswer("returns")
            expected.append(recall)
            kept = _lines(path)
            if len(kept) != len(expected) or any(
                    abs(number(line.get("recall@5")) - r) > 1e-12
                    for line, r in zip(kept, expected, strict=True)) or any("timestamp" not in line
                                                              for line in kept):
                raise WrongAnswer("history")
        clock = FakeClock(start, until=start)
        broken = ContinuousEvaluation(_Broken(), SimulatedSearch(
            clock, start, n_queries=3, seed=7).eval_dataset(), clock=clock, sleep=clock.sleep)
        raised = False
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                answer(broken, path)
        except ClockStopped as error:
            raise WrongAnswer("waits_on_failure") from error
        except Exception:  # noqa: BLE001 - any exception will do: the scheduler sees a failed run
            raised = True
        if not raised:
            raise WrongAnswer("silent_failure")
        if len(_lines(path)) != len(expected):
            raise WrongAnswer("failure_changed_history")
    return True


EXERCISES = {
    "09.1": Exercise(_evaluations_in_70_hours),
    "09.2": Exercise(_smallest_cutoff),
    "09.3": Exercise(_baseline),
    "09.4": Exercise(_run_once, code=True),
    "09.5": Exercise(_rescored_recall),
}
