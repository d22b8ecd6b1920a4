"""Exercises of notebook 09 (continuous evaluation): the chapter's loop, thresholds, baselines.

* ``09.1`` (computed): evaluations the chapter's loop makes in 70 hours: a
  whole number.
* ``09.2`` (computed): the smallest cutoff at which recall can reach the
  chapter's 0.7 threshold when every query has 12 relevant documents: a whole
  number.
* ``09.3`` (word): the baseline that keeps comparing with the state before a
  drop: a word, in Chinese or English.
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
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

from reteval.teaching.exercises import (
    Exercise,
    WrongAnswer,
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
          "第一个", "第一次", "第一次评估", "最早", "最早的记录", "第一"}


def _evaluations_in_70_hours(answer) -> bool:
    return whole_number(answer, 2)


def _smallest_cutoff(answer) -> bool:
    return whole_number(answer, math.ceil(THRESHOLD * RELEVANT_PER_QUERY - 1e-9))


def _baseline(answer) -> bool:
    return word(answer, _FIRST)


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
        raise TypeError("a function is expected")
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
                raise WrongAnswer("你的函数在等待（调用了 sleep）："
                                  "一次性的评估应当立即运行并返回。",
                                  "Your function waits (it calls sleep): a one-shot evaluation "
                                  "runs at once and returns.") from error
            except Exception as error:  # the student's code may fail in any way
                raise WrongAnswer(f"在一个隐藏的日子上，你的函数出错：{type(error).__name__}。",
                                  f"On a hidden day your function raised "
                                  f"{type(error).__name__}.") from error
            recall = evaluation.history[-1]["results"]["recall@5"] if evaluation.history else None
            if not isinstance(results, dict) or recall is None \
                    or abs(number(results.get("recall@5")) - recall) > 1e-12:
                raise WrongAnswer("函数应当返回这一次评估的结果"
                                  "（本章 run_evaluation 返回的字典）。",
                                  "The function must return this evaluation's results (the "
                                  "dict the chapter's run_evaluation returns).")
            expected.append(recall)
            kept = _lines(path)
            if len(kept) != len(expected) or any(
                    abs(number(line.get("recall@5")) - r) > 1e-12
                    for line, r in zip(kept, expected, strict=True)) or any("timestamp" not in line
                                                              for line in kept):
                raise WrongAnswer("历史文件应当每次评估追加一行 JSON（含 timestamp 和 recall@5），"
                                  "并保留以前的行。",
                                  "The history file must gain one JSON line per evaluation "
                                  "(with timestamp and recall@5) and keep the earlier ones.")
        clock = FakeClock(start, until=start)
        broken = ContinuousEvaluation(_Broken(), SimulatedSearch(
            clock, start, n_queries=3, seed=7).eval_dataset(), clock=clock, sleep=clock.sleep)
        raised = False
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                answer(broken, path)
        except ClockStopped as error:
            raise WrongAnswer("你的函数在等待（调用了 sleep）。",
                              "Your function waits (it calls sleep).") from error
        except Exception:  # noqa: BLE001 - any exception will do: the scheduler sees a failed run
            raised = True
        if not raised:
            raise WrongAnswer("检索服务出错时，你的函数没有报错：调度器会以为这次评估成功了。",
                              "When the search service fails your function does not raise: "
                              "the scheduler would take the run for a success.")
        if len(_lines(path)) != len(expected):
            raise WrongAnswer("失败的评估改动了历史文件。",
                              "A failed evaluation changed the history file.")
    return True


EXERCISES = {
    "09.1": Exercise(
        _evaluations_in_70_hours,
        hints_zh=(
            "答案是一个整数。schedule 的 every(24).hours 会立即运行一次吗？",
            "every(24).hours 不会立即运行：第一次评估在启动 24 小时之后，之后每 24 小时一次。",
            ("用 FakeClock(start, until=start + timedelta(hours=70)) 运行本章的循环"
            "（用 contextlib.suppress(ClockStopped) 接住时钟停止），再数 history 的长度。"),
        ),
        hints_en=(
            "The answer is a whole number. Does schedule's every(24).hours run once at the start?",
            ("every(24).hours does not run at once: the first evaluation comes 24 hours after "
            "the start, then one every 24 hours."),
            ("Run the chapter's loop on FakeClock(start, until=start + timedelta(hours=70)) "
            "(catch the clock's stop with contextlib.suppress(ClockStopped)) and count its "
            "history."),
        ),
    ),
    "09.2": Exercise(
        _smallest_cutoff,
        hints_zh=(
            "答案是一个整数（截断位置 k）。前 k 个结果里最多有几篇相关文档？",
            "一个完美的系统把相关文档都排在最前面：它的 Recall@k 是 min(k, 12) / 12。",
            "找出使 min(k, 12) / 12 ≥ 0.7 的最小的 k。",
        ),
        hints_en=(
            ("The answer is a whole number (a cutoff k). How many relevant documents can the "
            "top k hold?"),
            ("A perfect system ranks every relevant document first: its Recall@k is "
            "min(k, 12) / 12."),
            "Find the smallest k with min(k, 12) / 12 >= 0.7.",
        ),
    ),
    "09.3": Exercise(
        _baseline,
        hints_zh=(
            ("答案是 baseline 参数的一个取值（一个词，中文或英文都可以）。"
            "看 reteval.monitor 的文档里 baseline 有哪几种取值。"),
            "'latest' 每天都和前一天比较，所以下降之后的第二天，基线本身已经是下降后的状态。",
            "要一直和下降之前的状态比较，基线就不能随每天的记录移动：应当固定在历史中的哪一条？",
        ),
        hints_en=(
            ("The answer is a value of the baseline parameter (one word, in Chinese or "
            "English). See which values reteval.monitor's documentation lists for baseline."),
            ("'latest' compares each day with the day before, so the day after the drop the "
            "baseline is itself after the drop."),
            ("To keep comparing with the state before the drop the baseline must not move "
            "with each day's entry: which entry of the history should it stay on?"),
        ),
    ),
    "09.4": Exercise(
        _run_once,
        hints_zh=(
            ("写一个函数 run_once(evaluation, history_file)：evaluation 是本章的 "
            "ContinuousEvaluation，函数评估一次、把结果追加到文件里、返回结果，不循环也不等待。"),
            ("评估一次就是调用 evaluation.run_evaluation()（它也会检查告警）；"
            "不要调用 start_scheduled_evaluation，也不要 sleep。"),
            ("把 {\"timestamp\": evaluation.clock().isoformat(), \"recall@5\": ...} 用 json.dumps "
            "写成一行，以追加模式（\"a\"）写入 history_file；出错时让异常传出去，"
            "而且在评估成功之前不要写文件。"),
        ),
        hints_en=(
            ("Write a function run_once(evaluation, history_file): evaluation is the chapter's "
            "ContinuousEvaluation; the function evaluates once, appends the result to the "
            "file and returns it, with no loop and no waiting."),
            ("Evaluating once is calling evaluation.run_evaluation() (it checks the alert "
            "too); do not call start_scheduled_evaluation, and do not sleep."),
            ("Write {\"timestamp\": evaluation.clock().isoformat(), \"recall@5\": ...} as one "
            "json.dumps line, opening history_file for appending (\"a\"); let an exception "
            "propagate, and write nothing before the evaluation has succeeded."),
        ),
        code=True,
    ),
    "09.5": Exercise(
        _rescored_recall,
        hints_zh=(
            "答案是 0 到 1 之间的一个数。这一周，基线的前 10 名变了吗？",
            "R@10 = 前 10 名中的相关片段数 / 判断中的相关片段总数：这一周变的是哪一个？",
            "分子还是 6；这个查询在本周的判断中有 10 + 2 个相关片段。",
        ),
        hints_en=(
            "The answer is a number between 0 and 1. Did the baseline's top 10 change this week?",
            ("R@10 = relevant chunks in the top 10 / relevant chunks in the judgments: which of "
             "the two changed this week?"),
            "The numerator is still 6; this week's judgments hold 10 + 2 relevant chunks for it.",
        ),
    ),
}
