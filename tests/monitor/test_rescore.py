"""The run kept with each history entry, and the baseline scored again under new judgments.

The week this is for: a new retriever brings chunks nobody judged, a judge fills the
holes, the judgments grow, and last week's entry must be compared on equal terms. Every
expected value is computed by hand (RR of the ranked lists below) or by scipy.
"""

from __future__ import annotations

import sqlite3

import pytest
from scipy import stats as sps

from reteval.cli import main
from reteval.monitor import history as history_module
from reteval.monitor import monitor_once, open_history
from reteval.monitor.runstore import keep_run, kept_run, load_kept

QUERIES = [f"q{i}" for i in range(1, 9)]

# Week 1: each query's relevant chunk is a_i. The baseline ranks n_i (unjudged) first,
# then a_i: RR 1/2 everywhere.
QRELS_1 = {q: {f"a{q}": 1} for q in QUERIES}
BASELINE = {q: [f"n{q}", f"a{q}"] for q in QUERIES}
# Week 2: the judge filled the holes: n_i is relevant too, x_i and y_i are not.
QRELS_2 = {q: {f"a{q}": 1, f"n{q}": 1, f"x{q}": 0, f"y{q}": 0} for q in QUERIES}
# The new retriever: x_i first (RR 1/2) on q1..q4, x_i then y_i first (RR 1/3) on q5..q8.
CURRENT = {q: ([f"x{q}", f"a{q}"] if i < 4 else [f"x{q}", f"y{q}", f"a{q}"])
           for i, q in enumerate(QUERIES)}


def week(history, run, qrels, **options):
    return monitor_once(history, run=run, qrels=qrels, measures=["RR"], name="rag",
                        **options)


def test_baseline_rescored_under_the_new_judgments(tmp_path, capsys):
    history = tmp_path / "history.sqlite"
    first = week(history, BASELINE, QRELS_1)
    assert first.entry.aggregates == {"RR": 0.5}
    second = week(history, CURRENT, QRELS_2)
    assert second.rescored and second.baseline.id == 1
    # the baseline's run under week 2's judgments: n_i at rank 1 is relevant -> RR 1 everywhere
    # (its stored values say 0.5); the current run: 1/2 on four queries, 1/3 on four
    (comparison,) = second.regression.comparisons
    assert comparison.baseline_mean == pytest.approx(1.0)
    assert comparison.current_mean == pytest.approx((4 * 0.5 + 4 / 3) / 8)
    current = [0.5] * 4 + [1 / 3] * 4
    p = sps.ttest_rel(current, [1.0] * 8).pvalue  # one measure: holm changes nothing
    assert comparison.pvalue == pytest.approx(p)
    assert [a.measure for a in second.alerts] == ["RR"]
    assert any("baseline entry 1 was evaluated on other judgments (qrels differ); its run "
               "was scored again under the current judgments" in n for n in second.notices)
    assert second.entry.parameters["baseline_rescored"] == 1
    assert second.payload()["baseline_rescored"] is True
    # reteval history shows it
    assert main(["history", str(history)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "[baseline re-scored]" in lines[2] and "[baseline re-scored]" not in lines[1]
    assert main(["history", str(history), "--format", "csv"]) == 0
    csv = capsys.readouterr().out.splitlines()
    assert csv[0].endswith(",rescored") and csv[1].endswith(",False")
    assert csv[2].endswith(",True")


def test_same_judgments_compare_the_stored_values(tmp_path):
    history = tmp_path / "history.sqlite"
    week(history, BASELINE, QRELS_2)
    again = week(history, BASELINE, QRELS_2)
    assert not again.rescored and again.regression is not None and not again.alerts


def test_a_history_written_before_keeps_the_skip(tmp_path):
    history = tmp_path / "history.sqlite"
    week(history, BASELINE, QRELS_1)
    # the file as a reteval that kept no runs wrote it: the four tables of schema 1
    con = sqlite3.connect(history)
    con.execute("DROP TABLE runs")
    con.commit()
    con.close()
    second = week(history, CURRENT, QRELS_2)
    assert not second.rescored and second.regression is None and not second.alerts
    assert ("baseline entry 1 was evaluated on another dataset (qrels differ); regression "
            "check skipped") in second.notices
    with open_history(history) as store:
        assert store.verify() == []
        assert store.kept_run(1) is None and store.kept_run(2) is not None
    con = sqlite3.connect(history)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 1
    con.close()
    # the next week compares with entry 2, whose run was kept
    third = week(history, CURRENT, {**QRELS_2, "q1": {**QRELS_2["q1"], "z": 1}})
    assert third.rescored and third.baseline.id == 2


def test_other_differences_still_skip(tmp_path):
    history = tmp_path / "history.sqlite"
    week(history, BASELINE, QRELS_1)
    other_level = week(history, CURRENT, QRELS_2, relevance_level=2)
    assert not other_level.rescored and other_level.regression is None
    queries = {q: "text" for q in QUERIES}
    history2 = tmp_path / "h2.sqlite"
    monitor_once(history2, run=BASELINE, qrels=QRELS_1, queries=queries, measures=["RR"])
    changed = monitor_once(history2, run=CURRENT, qrels=QRELS_2,
                           queries={q: "other text" for q in QUERIES}, measures=["RR"])
    assert not changed.rescored and changed.regression is None


def test_run_file_kept_by_path_and_hash(tmp_path):
    history = tmp_path / "history.sqlite"
    run_file = tmp_path / "rag.trec"
    run_file.write_text("".join(f"{q} Q0 {d} {r} {10 - r} s\n" for q, docs in BASELINE.items()
                                for r, d in enumerate(docs, start=1)))
    first = monitor_once(history, run=run_file, qrels=QRELS_1, measures=["RR"], name="rag",
                         keep_run_bytes=0)
    with open_history(history) as store:
        kept = store.kept_run(first.entry.id)
    assert kept.kind == "file" and kept.data is None and kept.path == str(run_file)
    second = week(history, CURRENT, QRELS_2)
    assert second.rescored
    assert second.regression.comparisons[0].baseline_mean == pytest.approx(1.0)
    # the file changes: the baseline can no longer be scored again, and the notice says why
    run_file.write_text("q1 Q0 other 1 1 s\n")
    history2 = tmp_path / "h2.sqlite"
    monitor_once(history2, run=run_file, qrels=QRELS_1, measures=["RR"], name="rag",
                 keep_run_bytes=0)
    run_file.write_text("q1 Q0 changed 1 1 s\n")
    third = week(history2, CURRENT, QRELS_2)
    assert not third.rescored
    assert any("regression check skipped (its run file" in n and "has changed since" in n
               for n in third.notices)


def test_run_kept_in_the_entry_transaction(tmp_path, monkeypatch):
    history = tmp_path / "history.sqlite"
    week(history, BASELINE, QRELS_1)
    real = history_module.store_kept

    def fail_after_writing(con, entry_id, kept):
        real(con, entry_id, kept)
        raise RuntimeError("killed")

    monkeypatch.setattr(history_module, "store_kept", fail_after_writing)
    with pytest.raises(RuntimeError, match="killed"):
        week(history, CURRENT, QRELS_2)
    with open_history(history) as store:
        assert len(store) == 1  # neither the entry nor its run
        con = sqlite3.connect(history)
        assert con.execute("SELECT entry_id FROM runs").fetchall() == [(1,)]
        con.close()


def test_keep_run_tiers():
    from reteval.io import as_run

    # two judged queries of 30 documents each, one unjudged query
    run = as_run({q: [f"{q}d{i}" for i in range(30)] for q in ("q1", "q2", "q3")})
    full = keep_run(run, judged_queries=["q1", "q2"], measures=["P@5", "nDCG@10"],
                    max_bytes=10**6)
    assert full.kind == "full" and full.rows == 90
    assert load_kept(full).equals(run)
    # too large whole: the judged queries, down to the deepest cutoff (10)
    judged = keep_run(run, judged_queries=["q1", "q2"], measures=["P@5", "nDCG@10"],
                      max_bytes=full.size - 1)
    assert judged.kind == "judged" and judged.rows == 20
    part = load_kept(judged)
    assert part[part["query_id"] == "q1"]["doc_id"].tolist() == [f"q1d{i}" for i in range(10)]
    # a measure without a cutoff needs the whole ranked list of the judged queries
    whole = keep_run(run, judged_queries=["q1", "q2"], measures=["P@5", "RR"],
                     max_bytes=full.size - 1)
    assert whole.kind == "judged" and whole.rows == 60
    # a condensed list (judged documents only) needs the whole list too
    condensed = keep_run(run, judged_queries=["q1", "q2"],
                         measures=["P@5", "nDCG(judged_only=True)@10"], max_bytes=full.size - 1)
    assert condensed.rows == 60
    assert keep_run(run, judged_queries=["q1"], measures=["RR"], max_bytes=10) is None


def test_run_not_kept_is_said(tmp_path):
    history = tmp_path / "history.sqlite"
    result = week(history, BASELINE, QRELS_1, keep_run_bytes=0)
    assert any("the run is not kept in the history" in n for n in result.notices)
    con = sqlite3.connect(history)
    assert kept_run(con, result.entry.id) is None
    con.close()


def test_keep_run_bytes_checked():
    from reteval.errors import InputError
    from reteval.monitor import MonitorOptions

    with pytest.raises(InputError, match="keep_run_bytes must be an integer >= 0; got -1"):
        MonitorOptions(keep_run_bytes=-1)


def test_command_line_says_so(tmp_path, capsys):
    def write(name, text):
        path = tmp_path / name
        path.write_text(text)
        return str(path)

    def qrels_file(qrels, name):
        return write(name, "".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items()
                                   for d, g in docs.items()))

    def run_file(run, name):
        return write(name, "".join(f"{q} Q0 {d} {r} {10 - r} s\n" for q, docs in run.items()
                                   for r, d in enumerate(docs, start=1)))

    history = str(tmp_path / "history.sqlite")
    common = ["-m", "RR", "--name", "rag", "--keep-run-bytes", "0"]
    assert main(["monitor", history, "--run", run_file(BASELINE, "a.trec"),
                 "--qrels", qrels_file(QRELS_1, "q1.txt"), *common]) == 0
    capsys.readouterr()
    status = main(["monitor", history, "--run", run_file(CURRENT, "b.trec"),
                   "--qrels", qrels_file(QRELS_2, "q2.txt"), *common])
    err = capsys.readouterr().err
    assert status == 3  # ALERT_EXIT_STATUS
    assert ("reteval: warning: baseline entry 1 was evaluated on other judgments (qrels "
            "differ); its run was scored again under the current judgments") in err
    assert "reteval: ALERT: RR dropped from 1.0000 to 0.4167" in err
    with open_history(history) as store:
        assert store.kept_run(1).kind == "file"  # --keep-run-bytes 0: the path and hash
