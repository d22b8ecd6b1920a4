"""The chapter's continuous evaluation, runnable on a fake clock.

:class:`ContinuousEvaluation` is the chapter's class (the chapter names it
``ContinuousEvaluation``), kept as written except for what lets it run on a
fake clock for a few iterations, in a notebook, without waiting:

* ``clock`` and ``sleep`` are parameters (default ``datetime.now`` and
  ``time.sleep``, the chapter's); ``run_evaluation`` stamps the history with
  ``self.clock()`` and the loop calls ``self.sleep(3600)``;
* the chapter's ``schedule`` library keeps its own clock (``datetime.now``),
  so the loop uses :class:`Scheduler`, the same ``every(n).hours.do(job)`` /
  ``run_pending()`` calls on the injected clock.

It calls the chapter's ``RetrievalEvaluator``
(:mod:`reteval.teaching.chapter_evaluator`).

Its flaws, which the notebook shows: the ``while True`` loop never returns (the
only way out is an exception, and an exception in an evaluation also ends it:
Python prints a traceback and the process exits, and nothing restarts it); the first evaluation runs only after ``interval_hours``; the
history is a list in memory, lost when the process stops, and nothing reads
it; the alert is a fixed threshold on one measure, blind to the dataset (R@5
cannot reach 0.7 when queries have more than seven relevant documents) and to
chance (no test: one query's worth of noise can cross it); the alert is a
``print``. ``reteval monitor`` (:func:`reteval.monitor.monitor_once`) is the
one-shot replacement.

Teaching props, not the chapter's code: :class:`FakeClock` (a clock whose
``sleep`` advances it) and :class:`SimulatedSearch` (a search system whose
quality drifts day by day and drops on a known day).
"""

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import numpy as np
import pandas as pd

from reteval.teaching.chapter_evaluator import RetrievalEvaluator, evaluation_set

__all__ = [
    "ClockStopped",
    "ContinuousEvaluation",
    "Document",
    "FakeClock",
    "Scheduler",
    "SimulatedSearch",
]


# ---------------------------------------------------------------------------
# the chapter's code


class ContinuousEvaluation:
    def __init__(self, retriever, eval_dataset, alert_threshold=0.7,
                 clock=datetime.now, sleep=time.sleep):  # injected: clock, sleep
        self.retriever = retriever
        self.eval_dataset = eval_dataset
        self.alert_threshold = alert_threshold
        self.history = []
        self.clock = clock  # injected
        self.sleep = sleep  # injected
        self.schedule = Scheduler(clock)  # injected: `schedule`'s calls, on this clock

    def run_evaluation(self):
        """运行评估"""
        evaluator = RetrievalEvaluator(self.eval_dataset)
        results = evaluator.evaluate_retriever(self.retriever.invoke)

        # 记录历史
        self.history.append({
            'timestamp': self.clock(),
            'results': results
        })

        # 检查是否需要告警
        if results['recall@5'] < self.alert_threshold:
            self.send_alert(results)

        return results

    def send_alert(self, results):
        """发送告警"""
        print(f"⚠️ 告警: Recall@5 低于阈值: {results['recall@5']:.4f}")

    def start_scheduled_evaluation(self, interval_hours=24):
        """启动定时评估"""
        self.schedule.every(interval_hours).hours.do(self.run_evaluation)

        while True:
            self.schedule.run_pending()
            self.sleep(3600)


# ---------------------------------------------------------------------------
# what the chapter's code needs to run on a fake clock


class Scheduler:
    """The calls of the ``schedule`` library the chapter uses, on a given clock.

    ``every(n).hours.do(job)`` schedules ``job`` ``n`` hours after now (as
    ``schedule`` does: not at once); ``run_pending()`` runs every job that is
    due and schedules its next run ``n`` hours after the time it ran.

    Examples
    --------
    >>> from datetime import timezone
    >>> clock = FakeClock(datetime(2026, 5, 1, tzinfo=timezone.utc))
    >>> s = Scheduler(clock)
    >>> runs = []
    >>> _ = s.every(2).hours.do(lambda: runs.append(clock().hour))
    >>> for _ in range(5):
    ...     s.run_pending()
    ...     clock.sleep(3600)
    >>> runs
    [2, 4]
    """

    def __init__(self, clock: Callable[[], datetime] = datetime.now):
        self.clock = clock
        self.jobs: list[_Job] = []

    def every(self, interval: int = 1) -> "_Job":
        return _Job(self, interval)

    def run_pending(self) -> None:
        now = self.clock()
        for job in list(self.jobs):
            if job.next_run is not None and now >= job.next_run:
                job.function()
                job.next_run = self.clock() + job.period


@dataclass
class _Job:
    scheduler: Scheduler
    interval: int
    period: timedelta | None = None
    function: Callable | None = None
    next_run: datetime | None = None

    @property
    def hours(self) -> "_Job":
        self.period = timedelta(hours=self.interval)
        return self

    def do(self, function: Callable) -> "_Job":
        if self.period is None:
            raise ValueError("say the unit first: every(n).hours.do(job)")
        self.function = function
        self.next_run = self.scheduler.clock() + self.period
        self.scheduler.jobs.append(self)
        return self


class ClockStopped(Exception):
    """Raised by :meth:`FakeClock.sleep` when a sleep would pass the clock's end."""


class FakeClock:
    """A clock that only moves when someone sleeps: ``clock()`` is now, ``clock.sleep(s)`` advances.

    Parameters
    ----------
    start : datetime
        The first "now".
    until : datetime, optional
        A sleep that would end after this moment raises :class:`ClockStopped`
        instead: the only way to leave a ``while True`` loop that sleeps.

    Attributes
    ----------
    sleeps : int
        How many times ``sleep`` was called.

    Examples
    --------
    >>> from datetime import timezone
    >>> start = datetime(2026, 5, 1, tzinfo=timezone.utc)
    >>> clock = FakeClock(start, until=start + timedelta(hours=2))
    >>> clock.sleep(3600); clock().hour
    1
    >>> clock.sleep(3600); clock.sleep(3600)
    Traceback (most recent call last):
    ...
    reteval.teaching.chapter_continuous.ClockStopped: the fake clock stops at 2026-05-01 02:00:00+00:00
    """

    def __init__(self, start: datetime, until: datetime | None = None):
        self.now = start
        self.until = until
        self.sleeps = 0

    def __call__(self) -> datetime:
        return self.now

    def sleep(self, seconds: float) -> None:
        after = self.now + timedelta(seconds=seconds)
        if self.until is not None and after > self.until:
            raise ClockStopped(f"the fake clock stops at {self.until}")
        self.sleeps += 1
        self.now = after


# ---------------------------------------------------------------------------
# a search system to monitor


@dataclass(frozen=True)
class Document:
    """A retrieved document as the chapter's code expects it (LangChain's shape)."""

    page_content: str
    metadata: dict = field(default_factory=dict)


class SimulatedSearch:
    """A search system whose ranking changes a little every day and gets worse on a known day.

    Each query has ``docs_per_query`` candidate documents with graded labels
    (from :func:`reteval.ab.synthetic_collection`). On day ``d`` (whole days
    since ``start``) a document scores ``signal * label + e + u_d``: ``e`` is
    fixed noise (the ranker's own errors), ``u_d`` a fresh ``N(0, daily_sd)``
    per day (index updates, new documents). From ``regression_day`` on, the
    signal is ``regressed_signal`` (say, a worse embedding model deployed).
    Everything is seeded by ``seed``: day ``d`` gives the same ranking whoever
    asks and however often.

    Parameters
    ----------
    clock : callable
        Returns the current datetime; the day is taken from it.
    start : datetime
        Day 0.
    n_queries, docs_per_query : int
    label_shares : tuple of float
        Share of labels 0, 1, 2, 3.
    signal, regressed_signal : float
    daily_sd : float
    regression_day : int
    depth : int, default 10
        Documents returned per query.
    seed : int

    Examples
    --------
    >>> from datetime import timezone
    >>> start = datetime(2026, 5, 1, tzinfo=timezone.utc)
    >>> clock = FakeClock(start)
    >>> search = SimulatedSearch(clock, start, n_queries=3, regression_day=2, seed=0)
    >>> search.day, len(search.invoke(search.queries["q000"]))
    (0, 10)
    """

    name = "simulated-search"

    def __init__(self, clock: Callable[[], datetime], start: datetime, *, n_queries: int = 60,
                 docs_per_query: int = 30, label_shares=(0.9, 0.05, 0.03, 0.02),
                 signal: float = 1.6, regressed_signal: float = 1.2, daily_sd: float = 0.5,
                 regression_day: int = 18, depth: int = 10, seed: int = 0):
        from reteval.ab import synthetic_collection

        self.clock = clock
        self.start = start
        self.signal = float(signal)
        self.regressed_signal = float(regressed_signal)
        self.daily_sd = float(daily_sd)
        self.regression_day = int(regression_day)
        self.depth = int(depth)
        self.seed = int(seed)
        self.qrels, _, _ = synthetic_collection(n_queries=n_queries, docs_per_query=docs_per_query,
                                                label_shares=tuple(label_shares),
                                                rng=np.random.default_rng([seed, 1]))
        self._labels = self.qrels["relevance"].to_numpy(dtype=float)
        self._noise = np.random.default_rng([seed, 2]).standard_normal(len(self._labels))
        self.queries = {q: f"query {q}" for q in self.qrels["query_id"].unique()}
        self._by_text = {text: q for q, text in self.queries.items()}
        self._cache = (None, None, None)

    @property
    def day(self) -> int:
        """Whole days from ``start`` to the clock's now."""
        return (self.clock() - self.start) // timedelta(days=1)

    def run(self, queries=None) -> pd.DataFrame:
        """Today's run (``query_id, doc_id, score``, top ``depth`` per query) for ``{query_id: text}``."""
        table = self._ranking(self.day)
        if queries is not None:
            table = table[table["query_id"].isin(set(queries))]
        return table.reset_index(drop=True)

    def invoke(self, query: str) -> list:
        """Today's ranked documents for a query text, as the chapter's code calls a retriever."""
        ranked = self._lists(self.day)[self._by_text[query]]
        return [Document(f"document {d}", {"id": d}) for d in ranked]

    def _ranking(self, day: int) -> pd.DataFrame:
        if self._cache[0] != day:
            signal = self.signal if day < self.regression_day else self.regressed_signal
            daily = np.random.default_rng([self.seed, 3, max(day, 0)]).standard_normal(
                len(self._labels))
            table = self.qrels[["query_id", "doc_id"]].assign(
                score=signal * self._labels + self._noise + self.daily_sd * daily)
            table = table.sort_values(["query_id", "score", "doc_id"],
                                      ascending=[True, False, False])
            self._cache = (day, table.groupby("query_id", sort=True).head(self.depth), None)
        return self._cache[1]

    def _lists(self, day: int) -> dict:
        table = self._ranking(day)
        if self._cache[2] is None:
            lists: dict = {}
            for qid, doc in zip(table["query_id"], table["doc_id"]):
                lists.setdefault(qid, []).append(doc)
            self._cache = (day, table, lists)
        return self._cache[2]

    def eval_dataset(self) -> list:
        """The judgments as the chapter's ``EvaluationQuery`` list (label >= 1 is relevant)."""
        return evaluation_set(self.queries, self.qrels)
