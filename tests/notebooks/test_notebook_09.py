"""Notebook 09 (continuous evaluation): the chapter's loop on a fake clock, the monitor's month."""

from datetime import datetime, timedelta, timezone

import pytest
from notebook_run import execute as run_notebook
from notebook_run import execute_solutions, pipeline_parameters

import reteval
from reteval.monitor import check_regression, history_frame, monitor_once
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
    loop = ContinuousEvaluation(
        search, search.eval_dataset(), alert_threshold=1.01, clock=clock, sleep=clock.sleep
    )
    with pytest.raises(ClockStopped):
        loop.start_scheduled_evaluation(interval_hours=24)
    # schedule's semantics: first run one interval after the start, then every 24 hours
    assert [h["timestamp"] for h in loop.history] == [
        START + timedelta(hours=24 * i) for i in (1, 2, 3)
    ]
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
    chapter = ContinuousEvaluation(
        search, search.eval_dataset(), clock=clock, sleep=clock.sleep
    ).run_evaluation()
    mine = reteval.evaluate(search.qrels, search.run(search.queries), ["R@5", "RR"]).mean()
    assert chapter["recall@5"] == pytest.approx(mine["R@5"], abs=1e-12)
    assert chapter["mrr"] == pytest.approx(mine["RR"], abs=1e-12)


def test_simulated_search_is_the_same_on_a_day_and_worse_after_the_regression():
    clock = FakeClock(START)
    search = SimulatedSearch(
        clock, START, regression_day=2, signal=3.0, regressed_signal=0.5, daily_sd=0.0, seed=2
    )
    first = search.run()
    again = SimulatedSearch(
        clock, START, regression_day=2, signal=3.0, regressed_signal=0.5, daily_sd=0.0, seed=2
    ).run()
    assert first.equals(again)
    before = reteval.evaluate(search.qrels, first, ["nDCG@10"])["nDCG@10"].mean()
    clock.sleep(2 * 86400)
    after = reteval.evaluate(search.qrels, search.run(), ["nDCG@10"])["nDCG@10"].mean()
    assert after < before - 0.1


def test_monitor_once_records_the_time_it_is_given(tmp_path):
    moment = datetime(2026, 5, 3, 6, 0, tzinfo=timezone.utc)
    monitor_once(
        tmp_path / "h.sqlite",
        run={"q1": ["d1"]},
        qrels={"q1": {"d1": 1}},
        measures=["RR"],
        created_utc=moment,
    )
    assert history_frame(tmp_path / "h.sqlite")["created_utc"].tolist() == [moment]


# ---- the notebook, through papermill


def execute(tmp_path, **parameters):
    return run_notebook("09_continuous_evaluation", tmp_path, **parameters)


def direct_month(results):
    """The simulated system evaluated by reteval.evaluate on each day, without the monitor."""
    start = datetime.fromisoformat(results["start"])
    clock = FakeClock(start)
    search = SimulatedSearch(clock, start, **results["system"])
    per_day = {}
    for day in range(1, results["days"] + 1):
        clock.now = start + timedelta(days=day)
        per_day[day] = reteval.evaluate(
            search.qrels, search.run(search.queries), results["measures"]
        )
    return per_day


def check_month(output_dir, results):
    per_day = direct_month(results)
    days = list(per_day)
    threshold = results["threshold"]
    r5 = [per_day[d]["R@5"].mean() for d in days]
    monitor, chapter = results["monitor"], results["chapter"]
    # the history the monitor wrote, one entry per day, evaluates to what reteval.evaluate gives
    frame = history_frame(output_dir / "history.sqlite")
    assert len(frame) == results["days"]
    assert monitor["days"] == days
    for m in results["measures"]:
        expected = [per_day[d][m].mean() for d in days]
        assert monitor["values"][m] == pytest.approx(expected, abs=1e-12)
        assert frame[m].tolist() == pytest.approx(expected, abs=1e-12)
    # the threshold alert is the chapter's rule, and the chapter's loop computed the same R@5
    below = [d for d, v in zip(days, r5, strict=True) if v < threshold]
    assert monitor["threshold_alert_days"] == below
    assert chapter["days"] == days and chapter["recall@5"] == pytest.approx(r5, abs=1e-12)
    assert chapter["alert_days"] == below
    assert chapter["hours_simulated"] == 24 * results["days"] == chapter["sleeps"]
    rd = results["regression_day"]
    assert monitor["threshold_false_alarms"] == sum(d < rd for d in below)
    assert monitor["threshold_missed_after"] == sum(d >= rd and d not in below for d in days)
    # the significant-regression alert catches the injected regression on its day
    assert monitor["first_detection"] == rd
    assert "R@5" in monitor["regression_alert_measures"][str(rd)]
    report = check_regression(per_day[rd], per_day[rd - 1], alpha=0.05, test="t", correction="holm")
    assert {a.measure for a in report.alerts} == set(monitor["regression_alert_measures"][str(rd)])
    return per_day


@pytest.mark.notebook
@pytest.mark.slow
def test_default_month_records_the_library_values_and_the_conclusions_its_prose_draws(tmp_path):
    parameters = pipeline_parameters("09_continuous_evaluation")
    output_dir, results = execute(tmp_path, lang="en", **parameters)
    assert results["regression_day"] == parameters["regression_day"] == 18
    check_month(output_dir, results)
    monitor = results["monitor"]
    # the prose: the regression alert fires on the injected day only; the threshold alert fires on
    # (almost) every day after it and raised no false alarm before it
    assert monitor["regression_alert_days"] == [18]
    assert monitor["threshold_false_alarms"] == 0 and monitor["regression_false_alarms"] == 0
    assert monitor["threshold_after"] >= 0.8 * (results["days"] - 18 + 1)
    # the threshold table: a lower threshold misses days after, a higher one raises false alarms
    table = results["threshold_table"]
    thresholds = sorted(table, key=float)
    missed = [table[t][2] for t in thresholds]
    false_alarms = [table[t][0] for t in thresholds]
    assert missed == sorted(missed, reverse=True) and false_alarms == sorted(false_alarms)
    assert (output_dir / "figures" / "trend.png").stat().st_size > 1000
    # the prose of section 4: an exception in an evaluation ends the chapter's loop (here on day
    # 3, after the evaluations of days 1 and 2), and nothing runs after it
    assert results["exception"] == {"error": "TimeoutError: the search service timed out",
                                    "entries": 2, "day": 3}
    assert results["history"] == "history.sqlite"  # no build-machine path in the results


@pytest.mark.notebook
@pytest.mark.slow
def test_another_month_records_the_library_values(tmp_path):
    output_dir, results = execute(
        tmp_path,
        lang="zh",
        days=16,
        regression_day=9,
        seed=3,
        threshold=0.75,
        measures=["R@5", "AP"],
        n_queries=50,
    )
    assert results["measures"] == ["R@5", "AP"] and results["days"] == 16
    check_month(output_dir, results)
    # the Chinese edition's simulated failure speaks Chinese too
    assert results["exception"] == {"error": "TimeoutError: 检索服务超时", "entries": 2, "day": 3}


# ---- exercises


@pytest.mark.notebook
@pytest.mark.slow
def test_the_solutions_notebook_passes_its_own_checks(tmp_path):
    execute_solutions("09", tmp_path, "en")  # each solution cell asserts check() accepts it


def test_the_checks_reject_plausible_wrong_answers():
    from reteval.teaching.exercises import check

    assert check("09.1", 2)
    assert not check("09.1", 3)  # as if the first evaluation ran at once
    assert not check("09.1", 70) and not check("09.1", True)
    assert check("09.2", 9) and check("09.2", 9.0) and check("09.2", "9")
    assert not check("09.2", 8) and not check("09.2", 0.7) and not check("09.2", 12)
    assert check("09.3", "first") and check("09.3", "First ") and check("09.3", "第一条记录")
    assert not check("09.3", "latest") and not check("09.3", "none") and not check("09.3", 1)
