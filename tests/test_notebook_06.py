"""Notebook 06 (continuous evaluation): the chapter's loop on a fake clock, the monitor's month."""

from datetime import datetime, timedelta, timezone

import pytest

import reteval
from reteval.monitor import history_frame, monitor_once
from reteval.teaching.chapter_continuous import (
    ClockStopped,
    ContinuousEvaluation,
    FakeClock,
    Scheduler,
    SimulatedSearch,
)

START = datetime(2026, 5, 1, tzinfo=timezone.utc)


def test_the_chapter_loop_runs_on_a_fake_clock_without_waiting(capsys):
    clock = FakeClock(START, until=START + timedelta(days=3))
    search = SimulatedSearch(clock, START, n_queries=10, regression_day=2, seed=1)
    loop = ContinuousEvaluation(search, search.eval_dataset(), alert_threshold=1.01,
                                clock=clock, sleep=clock.sleep)
    with pytest.raises(ClockStopped):
        loop.start_scheduled_evaluation(interval_hours=24)
    # schedule's semantics: first run one interval after the start, then every 24 hours
    assert [h["timestamp"] for h in loop.history] == [START + timedelta(hours=24 * i)
                                                      for i in (1, 2, 3)]
    assert clock.sleeps == 72
    # every evaluation is below a threshold above 1: three printed alerts
    assert capsys.readouterr().out.count("告警") == 3


def test_scheduler_runs_a_job_every_n_hours_from_one_interval_after_scheduling():
    clock = FakeClock(START)
    scheduler = Scheduler(clock)
    ran = []
    scheduler.every(5).hours.do(lambda: ran.append(clock()))
    for _ in range(12):
        scheduler.run_pending()
        clock.sleep(3600)
    assert ran == [START + timedelta(hours=5), START + timedelta(hours=10)]


def test_the_chapter_recall_at_5_is_reteval_r_at_5_on_the_same_day():
    clock = FakeClock(START + timedelta(days=4))
    search = SimulatedSearch(clock, START, n_queries=15, regression_day=3, seed=5)
    chapter = ContinuousEvaluation(search, search.eval_dataset(), clock=clock,
                                   sleep=clock.sleep).run_evaluation()
    mine = reteval.evaluate(search.qrels, search.run(search.queries), ["R@5", "RR"]).mean()
    assert chapter["recall@5"] == pytest.approx(mine["R@5"], abs=1e-12)
    assert chapter["mrr"] == pytest.approx(mine["RR"], abs=1e-12)


def test_simulated_search_is_the_same_on_a_day_and_worse_after_the_regression():
    clock = FakeClock(START)
    search = SimulatedSearch(clock, START, regression_day=2, signal=3.0, regressed_signal=0.5,
                             daily_sd=0.0, seed=2)
    first = search.run()
    again = SimulatedSearch(clock, START, regression_day=2, signal=3.0, regressed_signal=0.5,
                            daily_sd=0.0, seed=2).run()
    assert first.equals(again)
    before = reteval.evaluate(search.qrels, first, ["nDCG@10"])["nDCG@10"].mean()
    clock.sleep(2 * 86400)
    after = reteval.evaluate(search.qrels, search.run(), ["nDCG@10"])["nDCG@10"].mean()
    assert after < before - 0.1


def test_monitor_once_records_the_time_it_is_given(tmp_path):
    moment = datetime(2026, 5, 3, 6, 0, tzinfo=timezone.utc)
    monitor_once(tmp_path / "h.sqlite", run={"q1": ["d1"]}, qrels={"q1": {"d1": 1}},
                 measures=["RR"], created_utc=moment)
    assert history_frame(tmp_path / "h.sqlite")["created_utc"].tolist() == [moment]
