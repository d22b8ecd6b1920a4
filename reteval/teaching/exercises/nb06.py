"""Exercises of notebook 06 (continuous evaluation): the chapter's loop, thresholds, baselines."""

from __future__ import annotations

from reteval.teaching.exercises import Exercise

__all__ = ["EXERCISES"]


def _evaluations_in_70_hours(answer) -> bool:
    if isinstance(answer, bool):
        return False
    return float(answer) == 2


def _best_recall_at_5(answer) -> bool:
    if isinstance(answer, bool):
        return False
    return abs(float(answer) - 5 / 8) < 1e-3


def _baseline(answer) -> bool:
    return str(answer).strip().lower() == "first"


EXERCISES = {
    "06.1": Exercise(
        _evaluations_in_70_hours,
        "schedule 的 every(24).hours 不会立即运行：第一次评估在启动 24 小时之后。"
        "用 FakeClock(start, until=start + timedelta(hours=70)) 运行本章的循环，数一数 history。",
        "schedule's every(24).hours does not run at once: the first evaluation comes 24 hours "
        "after the start. Run the chapter's loop on FakeClock(start, until=start + "
        "timedelta(hours=70)) and count its history.",
    ),
    "06.2": Exercise(
        _best_recall_at_5,
        "前 5 个结果里最多只有 5 篇相关文档，而每个查询有 8 篇：Recall@5 最多是 5/8。",
        "The top 5 hold at most 5 relevant documents, and each query has 8: R@5 is at most 5/8.",
    ),
    "06.3": Exercise(
        _baseline,
        "'latest' 每天和前一天比较，所以只在下降的那一天告警；要一直和下降之前的状态比较，"
        "基线应固定为第一条记录。",
        "'latest' compares each day with the day before, so it alerts only on the day of the "
        "drop; to keep comparing with the state before the drop, pin the baseline to the "
        "first entry.",
    ),
}
