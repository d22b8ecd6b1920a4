"""Notebook 09 (continuous evaluation): the chapter's loop on a fake clock, the monitor's month."""

from datetime import datetime, timedelta, timezone

import pytest
from notebook_run import default_run_fits_one_class, pipeline_parameters, run_solutions
from notebook_run import execute as run_notebook

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
    check_week(output_dir, results)  # the week of this edition too
    monitor = results["monitor"]
    # the prose: the regression alert fires on the injected day only; the threshold alert fires on
    # every day from it on (13 of 13) and raised no false alarm before it
    assert monitor["regression_alert_days"] == [18]
    assert monitor["threshold_false_alarms"] == 0 and monitor["regression_false_alarms"] == 0
    assert monitor["threshold_after"] == results["days"] - 18 + 1 == 13
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


# ---- exercises


@pytest.mark.slow
def test_the_solutions_notebook_passes_its_own_checks():
    run_solutions("09", "en")  # each solution cell asserts check() accepts it


def test_the_checks_reject_plausible_wrong_answers():
    from reteval.teaching.exercises import check

    assert check("09.1", 2)
    assert not check("09.1", 3)  # as if the first evaluation ran at once
    assert not check("09.1", 70) and not check("09.1", True)
    assert check("09.2", 9) and check("09.2", 9.0) and check("09.2", "9")
    assert not check("09.2", 8) and not check("09.2", 0.7) and not check("09.2", 12)
    assert check("09.3", "first") and check("09.3", "First ") and check("09.3", "第一条记录")
    assert not check("09.3", "latest") and not check("09.3", "none") and not check("09.3", 18)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_exercise_3_asks_only_for_a_baseline_the_prose_introduced(lang):
    from paths import ROOT

    from reteval.book.editions import edition

    cells = edition(ROOT / "notebooks" / "09_continuous_evaluation.ipynb", lang).cells
    prose = [c.source for c in cells if c.cell_type == "markdown"]
    exercises = next(i for i, text in enumerate(prose)
                     if text.startswith(("## 练习", "## Exercises")))
    before = "\n".join(prose[:exercises])
    assert all(f'`"{value}"`' in before for value in ("latest", "first", "none"))


# ---- section 8, the week: a new retriever's holes, the judge's cache, the baseline re-scored


def independent_week(week, *, alpha=0.05):
    """The week of section 8 computed without holes(), judge(), llm_judge() or the monitor: the
    runs' top `depth` by trec_eval's order, set arithmetic on the pairs, the term-overlap rule
    called directly on the texts judge() hands a judge, reteval.evaluate, scipy's paired t test
    and Holm's correction by hand."""
    import math

    import pandas as pd
    from scipy import stats

    from reteval.datasets import load
    from reteval.judging import TermOverlapJudge
    from reteval.retrievers import make_retriever

    teaching = load("teaching")
    depth, measures = week["depth"], week["measures"]
    human = teaching.qrels[["query_id", "doc_id", "relevance"]]
    judged_by_people = set(zip(human["query_id"], human["doc_id"], strict=True))

    def top(name):
        run = make_retriever(name, teaching.corpus).run(teaching.queries, k=depth)
        ranked = run.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, False])
        ranked = ranked.groupby("query_id").head(depth)
        return run, set(zip(ranked["query_id"], ranked["doc_id"], strict=True))

    old_run, old_top = top(week["old_retriever"])
    new_run, new_top = top(week["new_retriever"])
    old_holes, new_holes = old_top - judged_by_people, new_top - judged_by_people
    rule = TermOverlapJudge()

    def text(doc):
        return "\n".join(p for p in (doc.get("title") or "", doc.get("text") or "") if p)

    def grades(pairs):
        rows = [(q, d, rule(teaching.queries[q], text(teaching.corpus[d]))) for q, d in pairs]
        return pd.concat([human, pd.DataFrame(rows, columns=["query_id", "doc_id", "relevance"])],
                         ignore_index=True)

    last_week, this_week = grades(sorted(old_holes)), grades(sorted(old_holes | new_holes))
    scores = {
        "recorded": reteval.evaluate(last_week, old_run, measures),
        "rescored_values": reteval.evaluate(this_week, old_run, measures),
        "unfilled": reteval.evaluate(last_week, new_run, measures),
        "new": reteval.evaluate(this_week, new_run, measures),
    }
    base = scores["rescored_values"]
    current = scores["new"].reindex(base.index)
    raw = {m: stats.ttest_rel(current[m], base[m]).pvalue for m in measures}
    # Holm over the measures with a p-value ((k - i) * p, made monotone, at most 1); a measure
    # on which every query ties has none (scipy: nan) and is no regression
    order = sorted((m for m in measures if not math.isnan(raw[m])), key=raw.get)
    adjusted, running = dict.fromkeys(measures), 0.0
    for i, m in enumerate(order):
        running = max(running, min(1.0, (len(order) - i) * raw[m]))
        adjusted[m] = running
    regressions = [m for m in order
                   if adjusted[m] < alpha and current[m].mean() < base[m].mean()]
    regressions = [m for m in measures if m in regressions]
    return {"old_holes": old_holes, "new_holes": new_holes, "scores": scores,
            "pvalue_adjusted": adjusted, "regressions": regressions}


def check_week(output_dir, results):
    """The recorded week against the independent computation, and the history it left."""
    week = results["week"]
    expected = independent_week(week)
    old_holes, new_holes = expected["old_holes"], expected["new_holes"]
    assert week["human_judgments"] == 554
    assert week["old_holes"] == len(old_holes) == week["old_calls"]
    assert week["new_holes"] == len(new_holes)
    assert week["pool"] == len(old_holes | new_holes) == week["judged_items"]
    # the judge (and the stand-in model behind it) was asked only about the pairs never asked
    never_asked = new_holes - old_holes
    assert week["calls"] == week["prompts"] == len(never_asked)
    assert week["cached"] == len(old_holes)
    for key, frame in expected["scores"].items():
        assert week[key] == pytest.approx(frame.mean().to_dict(), abs=1e-12), key
    for m, p in expected["pvalue_adjusted"].items():
        assert week["pvalue_adjusted"][m] == (None if p is None else pytest.approx(p, rel=1e-9))
    assert week["regressions"] == expected["regressions"]
    # the history: two entries under one name, the second re-scored its baseline, the first
    assert week["rescored"] is True and week["baseline_id"] == 1
    frame = history_frame(output_dir / week["history"])
    assert frame["retriever"].tolist() == ["search", "search"]
    for m in week["measures"]:
        assert frame[m].tolist() == pytest.approx([week["recorded"][m], week["new"][m]], abs=1e-12)
    assert (output_dir / week["cache"]).is_file()
    return expected


@pytest.mark.notebook
@pytest.mark.slow
def test_the_week_finds_the_regression_after_scoring_the_baseline_again(tmp_path, capsys):
    """The week of the default run in English (the run the test of the month made and checked
    against the independent computation); the Chinese edition's week is checked by the test
    of another month and week."""
    output_dir, results = execute(tmp_path, lang="en", **pipeline_parameters(
        "09_continuous_evaluation"))
    week = results["week"]
    assert (week["old_retriever"], week["new_retriever"], week["depth"]) == ("hybrid", "lsa", 10)
    assert week["measures"] == ["nDCG@10", "R@10"]
    # the printed numbers of the default week
    assert (week["old_holes"], week["new_holes"], week["pool"]) == (105, 103, 176)
    assert (week["calls"], week["cached"]) == (71, 105)
    # the prose: the regression is found on both measures once the baseline is scored again;
    # under the new judgments the baseline's values only go down (more relevant chunks, none
    # in its top 10), and the new retriever's holes had counted as not relevant
    assert week["regressions"] == ["nDCG@10", "R@10"]
    for m in week["measures"]:
        assert week["rescored_values"][m] < week["recorded"][m]
        assert week["unfilled"][m] < week["new"][m]
        assert week["new"][m] < week["rescored_values"][m]
        assert week["pvalue_adjusted"][m] < 0.05
    # and `reteval history` marks the entry
    from reteval.cli import main

    assert main(["history", str(output_dir / "week.sqlite")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "[baseline re-scored]" in lines[2] and "[baseline re-scored]" not in lines[1]


@pytest.mark.notebook
@pytest.mark.slow
def test_another_month_and_week_record_the_library_values(tmp_path):
    """Every parameter of both simulations changed, in the edition the defaults' month is not
    checked in (one kernel for the month and the week)."""
    output_dir, results = execute(
        tmp_path, lang="zh", days=16, regression_day=9, seed=3, threshold=0.75,
        measures=["R@5", "AP"], n_queries=50, old_retriever="bm25", new_retriever="hybrid",
        depth=5, week_measures=["P@5", "nDCG@5", "RR"],
    )
    assert results["measures"] == ["R@5", "AP"] and results["days"] == 16
    check_month(output_dir, results)
    # the Chinese edition's simulated failure speaks Chinese too
    assert results["exception"] == {"error": "TimeoutError: 检索服务超时", "entries": 2, "day": 3}
    week = results["week"]
    assert week["measures"] == ["P@5", "nDCG@5", "RR"] and week["depth"] == 5
    expected = check_week(output_dir, results)
    # hybrid's top 5 shares pairs with bm25's holes: some answers come from the cache
    assert 0 < len(expected["new_holes"] & expected["old_holes"]) < len(expected["new_holes"])


def test_the_rescored_recall_exercise_takes_six_of_twelve_and_no_plausible_slip():
    from reteval.teaching.exercises import check

    # by hand: the baseline's top 10 still holds 6 relevant chunks, the judgments now 10 + 2
    assert check("09.5", 0.5) and check("09.5", "6/12") and check("09.5", "50%")
    assert not check("09.5", 0.6)  # the value recorded under last week's judgments
    assert not check("09.5", "8/12") and not check("09.5", 0.8)  # the new chunks counted as found
    assert not check("09.5", True) and not check("09.5", "0.5 or so")


@pytest.mark.notebook
@pytest.mark.slow
def test_the_executed_notebook_fits_one_class(tmp_path):
    """Notebook 09 on the pipeline's defaults, in English (the run a test above
    reads): at most one 90-minute class in either edition."""
    default_run_fits_one_class("09_continuous_evaluation", tmp_path, lang="en")
