"""Tests of reteval.monitor that run in-process: history, alerts, channels, trend, CLI.

The collections are built by hand: 30 queries with one relevant document each;
a run puts query i's relevant document at 0-based position ``positions[i]``
among 10 documents, so RR(i) = 1 / (positions[i] + 1) and
R@5(i) = 1 if positions[i] < 5 else 0. Reference p-values come from
scipy.stats.ttest_rel and statsmodels' Holm correction.
Process-level tests (signals, SIGKILL, concurrent writers) are in
test_monitor_processes.py.
"""

from __future__ import annotations

import hashlib
import http.server
import json
import re
import signal
import socket
import sqlite3
import sys
import threading
import time
from datetime import timezone

import numpy as np
import pandas as pd
import pytest
from commit_hook import connect_calling
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests

import reteval
from reteval.cli import main
from reteval.errors import InputError, RetevalError, UnknownMeasureError
from reteval.monitor import (
    ALERT_EXIT_STATUS,
    HistoryError,
    HistoryLockedError,
    RetrieverError,
    check_regression,
    fingerprint,
    history_frame,
    monitor_once,
    open_history,
    parse_interval,
    parse_threshold,
    plot_history,
    repeat,
)
from reteval.monitor.channels import check_url
from reteval.monitor.fingerprint import _judgment_line, _query_line

N_QUERIES = 30


# --------------------------------------------------------------------------- helpers


def write_qrels(path, *, changed=False):
    """TREC qrels; ``changed`` gives query q0 a second relevant document."""
    lines = [f"q{i} 0 d{i} 1" for i in range(N_QUERIES)]
    if changed:
        lines.append("q0 0 x3 1")
    path.write_text("\n".join(lines) + "\n")
    return path


def write_queries(path):
    path.write_text("".join(f'{{"_id": "q{i}", "text": "topic {i}"}}\n' for i in range(N_QUERIES)))
    return path


def run_dict(positions=None):
    positions = positions or {}
    run = {}
    for i in range(N_QUERIES):
        docs = [f"x{j}" for j in range(9)]
        docs.insert(positions.get(i, 0), f"d{i}")
        run[f"q{i}"] = docs
    return run


def write_run(path, positions=None):
    lines = []
    for qid, docs in run_dict(positions).items():
        lines.extend(f"{qid} Q0 {d} {r + 1} {10 - r} test" for r, d in enumerate(docs))
    path.write_text("\n".join(lines) + "\n")
    return path


def per_query_by_hand(positions):
    """RR and R@5 per query, by the formulas in the module docstring."""
    pos = np.array([positions.get(i, 0) for i in range(N_QUERIES)])
    return 1.0 / (pos + 1), (pos < 5).astype(float)


GOOD = {}                                   # every relevant doc first
BAD = {i: 5 for i in range(20)}             # 20 queries lose it to rank 6
SLIGHT = {0: 5}                             # one query does


@pytest.fixture
def files(tmp_path):
    return {
        "qrels": write_qrels(tmp_path / "qrels.txt"),
        "qrels2": write_qrels(tmp_path / "qrels2.txt", changed=True),
        "queries": write_queries(tmp_path / "queries.jsonl"),
        "good": write_run(tmp_path / "good.txt", GOOD),
        "bad": write_run(tmp_path / "bad.txt", BAD),
        "slight": write_run(tmp_path / "slight.txt", SLIGHT),
        "history": tmp_path / "history.sqlite",
    }


def monitor(files, run, **options):
    options.setdefault("measures", ["RR", "R@5"])
    options.setdefault("name", "sys")
    return monitor_once(files["history"], run=files[run], qrels=files["qrels"], **options)


# --------------------------------------------------------------------------- fingerprint


def test_fingerprint_is_sha256_of_the_documented_canonical_form():
    fp = fingerprint({"q2": {"d1": 0}, "q1": {"d2": 1, "d1": 2}}, {"q2": "b\tc", "q1": "a"})
    qrels_text = b'["q1","d1",2]\n["q1","d2",1]\n["q2","d1",0]\n'
    queries_text = b'["q1","a"]\n["q2","b\\tc"]\n'
    assert fp.qrels_sha256 == hashlib.sha256(qrels_text).hexdigest()
    assert fp.queries_sha256 == hashlib.sha256(queries_text).hexdigest()
    combined = f"reteval-dataset-v1\nqrels {fp.qrels_sha256}\nqueries {fp.queries_sha256}\n"
    assert fp.digest == hashlib.sha256(combined.encode()).hexdigest()


@settings(max_examples=60, deadline=None)
@given(st.text(), st.text(), st.integers(-(2**63), 2**63 - 1))
def test_fingerprint_lines_are_json_dumps_written_directly(first, second, grade):
    # The canonical lines are what json.dumps writes (no spaces, ensure_ascii=False), for any
    # text: quotes, backslashes, control characters, tabs, newlines, any script.
    def dumps(values):
        return json.dumps(values, ensure_ascii=False, separators=(",", ":")) + "\n"

    assert _judgment_line(first, second, grade) == dumps([first, second, grade])
    assert _query_line(first, second) == dumps([first, second])


def test_fingerprint_ignores_format_and_order_but_not_content(files, tmp_path):
    from_file = fingerprint(files["qrels"])
    reversed_dict = {f"q{i}": {f"d{i}": 1} for i in reversed(range(N_QUERIES))}
    assert fingerprint(reversed_dict) == from_file
    assert fingerprint(files["qrels2"]) != from_file
    assert fingerprint(files["qrels"], {"q1": "a"}).differences(from_file) == ("queries",)


# --------------------------------------------------------------------------- thresholds


def test_parse_threshold_rejects_malformed_rules():
    assert parse_threshold(" R@5 = 0.7 ").minimum == 0.7
    with pytest.raises(InputError, match="MEASURE=VALUE"):
        parse_threshold("R@5")
    with pytest.raises(InputError, match="finite number; got 'abc'"):
        parse_threshold("R@5=abc")
    with pytest.raises(UnknownMeasureError, match="recal@5"):
        parse_threshold("recal@5=0.7")
    assert parse_threshold("Recall@5=0.7").measure == "R@5"  # the chapter's name


def test_threshold_fires_below_and_not_at_or_above(files, tmp_path):
    # 9 of 30 queries miss the top 5: R@5 = 21/30 = 0.7 exactly.
    at = write_run(tmp_path / "at.txt", {i: 7 for i in range(9)})
    below = write_run(tmp_path / "below.txt", {i: 7 for i in range(10)})  # 20/30
    r1 = monitor_once(files["history"], run=at, qrels=files["qrels"], measures=["RR"],
                      thresholds=["R@5=0.7"], baseline=None)
    assert r1.entry.aggregates["R@5"] == pytest.approx(21 / 30)
    assert r1.entry.measures == ("RR", "R@5")          # the threshold's measure was added
    assert not r1.alerted
    r2 = monitor_once(files["history"], run=at, qrels=files["qrels"], measures=["RR"],
                      thresholds=["R@5=0.71"], baseline=None)
    assert [(a.kind, a.measure, a.reference) for a in r2.alerts] == [("threshold", "R@5", 0.71)]
    r3 = monitor_once(files["history"], run=below, qrels=files["qrels"],
                      thresholds=["R@5=0.7"], baseline=None)
    assert r3.alerts[0].value == pytest.approx(20 / 30)
    assert r3.alerts[0].message == "R@5 = 0.6667 is below the threshold 0.7"


# --------------------------------------------------------------------------- regression


def test_regression_fires_on_a_significant_drop(files):
    monitor(files, "good")
    result = monitor(files, "bad")
    rr_base, r5_base = per_query_by_hand(GOOD)
    rr_bad, r5_bad = per_query_by_hand(BAD)
    p_rr = sps.ttest_rel(rr_bad, rr_base).pvalue       # scipy.stats.ttest_rel(current, baseline)
    p_r5 = sps.ttest_rel(r5_bad, r5_base).pvalue
    holm = multipletests([p_rr, p_r5], method="holm")[1]
    assert [(a.kind, a.measure) for a in result.alerts] == [("regression", "RR"),
                                                          ("regression", "R@5")]
    assert result.baseline.id == 1
    assert result.alerts[0].pvalue == pytest.approx(holm[0], rel=1e-9)
    assert result.alerts[1].pvalue == pytest.approx(holm[1], rel=1e-9)
    rr = result.regression.comparisons[0]
    assert rr.mean_difference == pytest.approx(rr_bad.mean() - 1.0)
    assert rr.pvalue == pytest.approx(p_rr, rel=1e-9)


def test_regression_silent_when_the_mean_is_lower_but_not_significantly(files):
    monitor(files, "good")
    result = monitor(files, "slight")
    rr_base, _ = per_query_by_hand(GOOD)
    rr_cur, _ = per_query_by_hand(SLIGHT)
    p_rr = sps.ttest_rel(rr_cur, rr_base).pvalue       # one query of 30 differs: p ~ 0.33
    assert p_rr > 0.05
    rr = result.regression.comparisons[0]
    assert rr.mean_difference < 0
    assert rr.pvalue == pytest.approx(p_rr, rel=1e-9)
    assert not result.alerted


def test_regression_silent_on_a_significant_improvement(files):
    monitor(files, "bad")
    result = monitor(files, "good")
    assert result.regression.comparisons[0].pvalue < 1e-3
    assert not result.alerted


def test_regression_min_drop_and_correction_none(files):
    monitor(files, "good")
    # RR drops by 20 * (1 - 1/6) / 30 = 0.5556, more than 0.5 but less than 0.6.
    assert monitor(files, "bad", min_drop=0.5, baseline=1).alerted
    assert not monitor(files, "bad", min_drop=0.6, baseline=1, measures=["RR"]).alerted
    result = monitor(files, "bad", correction="none", baseline=1)
    rr_bad, _ = per_query_by_hand(BAD)
    assert result.alerts[0].pvalue == pytest.approx(
        sps.ttest_rel(rr_bad, np.ones(N_QUERIES)).pvalue, rel=1e-9)


def test_check_regression_pairs_only_common_queries():
    ids = [f"q{i}" for i in range(6)]
    base = pd.DataFrame({"AP": [0.9, 0.8, 0.7, 0.9, 0.8, 0.5]},
                        index=pd.Index(ids, name="query_id"))
    cur = pd.DataFrame({"AP": [0.1, 0.2, 0.3, 0.2, 0.1]},
                       index=pd.Index(ids[1:], name="query_id"))
    report = check_regression(cur, base)
    p = sps.ttest_rel([0.1, 0.2, 0.3, 0.2, 0.1], [0.8, 0.7, 0.9, 0.8, 0.5]).pvalue
    assert report.comparisons[0].n == 5
    assert report.comparisons[0].pvalue == pytest.approx(p, rel=1e-9)
    assert any("5 queries both" in note and "1 only in the baseline" in note
               for note in report.notes)
    with pytest.raises(InputError, match="alpha must be strictly between 0 and 1; got 1.5"):
        check_regression(cur, base, alpha=1.5)
    with pytest.raises(InputError, match="test must be one of"):
        check_regression(cur, base, test="z")


def test_latest_baseline_is_chosen_per_retriever_name(files):
    monitor(files, "good", name="a")
    monitor(files, "bad", name="b")
    result = monitor(files, "bad", name="a")
    assert result.baseline.id == 1 and result.baseline.retriever == "a"
    assert result.alerted
    first = monitor(files, "good", name="b", baseline="first")
    assert first.baseline.id == 2
    with pytest.raises(InputError, match="no entry 99 in the history"):
        monitor(files, "good", baseline=99)


def test_a_last_good_baseline_fails_a_regressed_run_however_often_it_runs(files, capsys):
    """Against the latest entry without a threshold or regression alert, a bad run fails every
    time; against the latest entry, the same bad run passes once a bad entry precedes it: a
    CI job run again turns green. A dataset alert does not disqualify an entry."""
    monitor(files, "good", name="a")
    assert monitor(files, "bad", name="a").alerted
    for _ in range(2):
        again = monitor(files, "bad", name="a", baseline="last-good")
        assert again.alerted and again.baseline.id == 1
    args = ["monitor", str(files["history"]), "--run", str(files["bad"]), "--qrels",
            str(files["qrels"]), "--name", "a", "-m", "RR", "-m", "R@5"]
    assert main([*args, "--baseline", "last-good"]) == 3  # against entry 1 again
    assert main(args) == 0  # against the latest entry, as bad
    capsys.readouterr()
    assert monitor(files, "good", name="b", thresholds=["R@5=1.01"]).alerted
    unmatched = monitor(files, "good", name="b", baseline="last-good")
    assert unmatched.baseline is None
    assert unmatched.notices == (("no entry of 'b' in the history without an alert (baseline "
                                  "'last-good'): regression check skipped"),)
    monitor(files, "good", name="c")
    forget_runs(files["history"])  # no run to score again: a change of qrels is an alert
    changed = monitor_once(files["history"], run=files["good"], qrels=files["qrels2"],
                           measures=["RR"], name="c", on_dataset_change="alert")
    assert [alert.kind for alert in changed.alerts] == ["dataset"]
    moved = monitor_once(files["history"], run=files["good"], qrels=files["qrels2"],
                         measures=["RR"], name="c", baseline="last-good")
    assert moved.baseline.id == changed.entry.id
    with pytest.raises(InputError, match="baseline must be 'latest', 'last-good', 'first'"):
        monitor(files, "good", baseline="best")


def forget_runs(history):
    """The history as a reteval that kept no runs wrote it (no table ``runs``)."""
    con = sqlite3.connect(history)
    con.execute("DROP TABLE IF EXISTS runs")
    con.commit()
    con.close()


def test_baseline_on_another_dataset_is_not_compared(files):
    # a baseline without a kept run (tests/monitor/test_rescore.py: with one, a change of
    # the qrels alone scores the baseline's run again)
    monitor(files, "good")
    forget_runs(files["history"])
    changed = monitor_once(files["history"], run=files["bad"], qrels=files["qrels2"],
                           measures=["RR", "R@5"], name="sys")
    assert not changed.alerted                   # a big drop, but not comparable
    assert changed.regression is None
    assert changed.notices == (
        ("baseline entry 1 was evaluated on another dataset (qrels differ); "
         "regression check skipped"),)
    forget_runs(files["history"])
    loud = monitor_once(files["history"], run=files["bad"], qrels=files["qrels"],
                        measures=["RR", "R@5"], name="sys", on_dataset_change="alert")
    assert [a.kind for a in loud.alerts] == ["dataset"]      # entry 2 was on qrels2
    level = monitor(files, "good", relevance_level=2)
    assert "another relevance level" in level.notices[0]


# --------------------------------------------------------------------------- history store


def test_history_roundtrip_and_schema(files):
    result = monitor(files, "slight", parameters={"model": "v2"})
    entry = result.entry
    expected = reteval.evaluate(files["qrels"], files["slight"], ["RR", "R@5"])
    with open_history(files["history"]) as store:
        pd.testing.assert_frame_equal(store.per_query(entry.id), expected)
        again = store.entry(entry.id)
    assert again == entry
    assert entry.created_utc.tzinfo == timezone.utc
    assert abs(time.time() - entry.created_utc.timestamp()) < 60
    assert entry.reteval_version == reteval.__version__
    assert entry.parameters["user"] == {"model": "v2"}
    assert entry.parameters["qrels"] == str(files["qrels"].resolve())
    assert entry.fingerprint == fingerprint(files["qrels"])
    rr, _ = per_query_by_hand(SLIGHT)
    assert entry.aggregates["RR"] == pytest.approx(rr.mean())
    con = sqlite3.connect(files["history"])
    assert con.execute("PRAGMA user_version").fetchone()[0] == 1
    assert con.execute("PRAGMA application_id").fetchone()[0] == 0x52455456
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert con.execute("SELECT count(*) FROM query_scores").fetchone()[0] == 2 * N_QUERIES
    assert con.execute("SELECT count(*) FROM aggregates").fetchone()[0] == 2
    con.close()


def test_a_failed_write_leaves_no_partial_entry(files, monkeypatch):
    monitor(files, "good")

    def boom():  # after the entry's rows are inserted, before its COMMIT
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(sqlite3, "connect", connect_calling(boom))
    with pytest.raises(RuntimeError, match="disk on fire"):
        monitor(files, "bad")
    with open_history(files["history"]) as store:
        assert len(store) == 1
        assert store.verify() == []
    con = sqlite3.connect(files["history"])
    assert con.execute("SELECT count(*) FROM query_scores").fetchone()[0] == 2 * N_QUERIES
    con.close()


def test_verify_reports_an_incomplete_entry(files):
    monitor(files, "good")
    con = sqlite3.connect(files["history"])
    con.execute("DELETE FROM query_scores WHERE query_id = 'q3'")
    con.commit()
    con.close()
    with open_history(files["history"]) as store:
        assert store.verify() == [
            "entry 1: 58 per-query values, expected 2 measures x 30 queries = 60"]


def test_corrupt_history_gives_a_clear_error(files, capsys):
    files["history"].write_bytes(np.random.default_rng(7).bytes(8192))
    with pytest.raises(HistoryError, match="corrupt") as info:
        monitor(files, "good")
    assert str(files["history"]) in str(info.value)
    assert main(["history", str(files["history"])]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(files["history"]) in err[0] and "not a readable" in err[0]


def test_locked_history_times_out_with_a_clear_error(files):
    monitor(files, "good")
    other = sqlite3.connect(files["history"], isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    other.execute("DELETE FROM aggregates")          # holds the write lock, uncommitted
    try:
        started = time.monotonic()
        with pytest.raises(HistoryLockedError, match="locked by another process") as info:
            monitor(files, "good", lock_timeout=0.3)
        waited = time.monotonic() - started
        assert str(files["history"]) in str(info.value)
        assert 0.25 <= waited < 5
        # WAL: readers are not blocked by the writer and see the committed state.
        assert history_frame(files["history"])["RR"].tolist() == [1.0]
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_history_file_errors(files, tmp_path):
    with pytest.raises(HistoryError, match="no such history file"):
        open_history(tmp_path / "none.sqlite")
    with pytest.raises(HistoryError, match="folder .* does not exist"):
        open_history(tmp_path / "no" / "h.sqlite", create=True)
    foreign = tmp_path / "foreign.sqlite"
    con = sqlite3.connect(foreign)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    with pytest.raises(HistoryError, match=re.escape(
            "not a reteval history: an SQLite database holding tables ['t']")):
        open_history(foreign, create=True)
    monitor(files, "good")
    con = sqlite3.connect(files["history"])
    con.execute("PRAGMA user_version = 9")
    con.commit()
    con.close()
    with pytest.raises(HistoryError, match="newer reteval .* version 9"):
        open_history(files["history"])
    assert issubclass(HistoryError, RetevalError)


# --------------------------------------------------------------------------- retrievers


RETRIEVER_MODULE = '''
def search(queries):
    return {q: ["d" + q[1:]] for q in queries}

class Engine:
    name = "engine"
    def run(self, queries):
        return {q: ["x", "d" + q[1:]] for q in queries}

engine = Engine()

def broken(queries):
    raise RuntimeError("index offline")

def not_a_run(queries):
    return 42
'''


@pytest.fixture
def retriever_module(tmp_path, monkeypatch):
    name = f"monitor_retrievers_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(RETRIEVER_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    sys.modules.pop(name, None)


def test_retriever_specs(files, retriever_module):
    mod = retriever_module
    common = {"qrels": files["qrels"], "queries": files["queries"], "measures": ["RR"],
              "baseline": None}
    fn = monitor_once(files["history"], retriever=f"{mod}:search", **common)
    assert fn.entry.retriever == f"{mod}:search"
    assert fn.entry.aggregates["RR"] == 1.0
    assert fn.entry.fingerprint.queries_sha256 is not None
    obj = monitor_once(files["history"], retriever=f"{mod}:engine", **common)
    assert obj.entry.aggregates["RR"] == 0.5
    with pytest.raises(RetrieverError, match="raised RuntimeError: index offline"):
        monitor_once(files["history"], retriever=f"{mod}:broken", **common)
    with pytest.raises(RetrieverError, match="did not return a run"):
        monitor_once(files["history"], retriever=f"{mod}:not_a_run", **common)
    with pytest.raises(InputError, match="has no attribute 'nothing'"):
        monitor_once(files["history"], retriever=f"{mod}:nothing", **common)
    with pytest.raises(InputError, match="cannot import module 'no_such_module_x'"):
        monitor_once(files["history"], retriever="no_such_module_x:f", **common)
    with pytest.raises(InputError, match="needs query texts"):
        monitor_once(files["history"], retriever=f"{mod}:search", qrels=files["qrels"])
    with open_history(files["history"]) as store:
        assert len(store) == 2                    # failures recorded nothing


def test_retriever_on_the_teaching_dataset(tmp_path):
    seen = {}

    def echo(queries):
        seen.update(queries)
        return {q: ["nothing"] for q in queries}

    from reteval.datasets import load

    result = monitor_once(tmp_path / "h.sqlite", retriever=echo, dataset="teaching",
                          measures=["RR"], name="echo")
    data = load("teaching")
    assert seen == data.queries
    assert result.entry.dataset_name == "teaching"
    assert result.entry.fingerprint == fingerprint(data.qrels, data.queries)
    assert result.entry.aggregates["RR"] == 0.0


@pytest.mark.slow
def test_reference_retriever_by_name(tmp_path):
    result = monitor_once(tmp_path / "h.sqlite", retriever="bm25", dataset="teaching",
                          measures=["nDCG@10"])
    assert result.entry.retriever == "bm25"
    assert 0.0 < result.entry.aggregates["nDCG@10"] <= 1.0


# --------------------------------------------------------------------------- channels


class _Hook(http.server.BaseHTTPRequestHandler):
    """Records each POST; subclassed per test with its own ``received`` list."""

    received: list
    status: int

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).received.append((self.path, self.headers["Content-Type"], body))
        self.send_response(type(self).status)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def hook_server():
    handler = type("Hook", (_Hook,), {"received": [], "status": 200})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield handler, f"http://127.0.0.1:{server.server_address[1]}/hook"
    server.shutdown()
    server.server_close()


def cli(files, run, *extra):
    return main(["monitor", str(files["history"]), "--run", str(files[run]),
                 "--qrels", str(files["qrels"]), "-m", "RR", "-m", "R@5", "--name", "sys",
                 *extra])


def test_alert_url_receives_the_payload(files, hook_server, capsys):
    handler, url = hook_server
    assert cli(files, "good", "--alert-url", url) == 0
    assert handler.received == []                # no alert, no POST
    assert cli(files, "bad", "--alert-url", url) == ALERT_EXIT_STATUS
    (path, content_type, body), = handler.received
    payload = json.loads(body)
    assert path == "/hook" and content_type.startswith("application/json")
    assert payload["entry_id"] == 2 and payload["alert"] is True
    assert [a["measure"] for a in payload["alerts"]] == ["RR", "R@5"]
    assert payload["baseline_id"] == 1
    err = capsys.readouterr().err
    assert "reteval: ALERT: RR dropped from 1.0000 to 0.4444" in err


def test_alert_url_failure_is_reported_and_keeps_the_entry(files, hook_server, capsys):
    handler, url = hook_server
    handler.status = 500
    cli(files, "good")
    assert cli(files, "bad", "--alert-url", url) == ALERT_EXIT_STATUS
    assert "alert delivery failed (url " in capsys.readouterr().err
    with socket.socket() as s:                   # a port with nobody listening
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}/"
    assert cli(files, "bad", "--baseline", "1", "--alert-url", dead,
               "--alert-timeout", "2") == ALERT_EXIT_STATUS
    assert "cannot reach the server" in capsys.readouterr().err
    with open_history(files["history"]) as store:
        assert len(store) == 3 and store.verify() == []


def test_alert_command_gets_payload_and_environment(files, tmp_path, capsys):
    out = tmp_path / "payload.json"
    env = tmp_path / "env.txt"
    command = f'cat > {out}; printf "%s|%s" "$RETEVAL_ENTRY_ID" "$RETEVAL_ALERT_COUNT" > {env}'
    cli(files, "good")
    assert cli(files, "bad", "--alert-command", command) == ALERT_EXIT_STATUS
    assert json.loads(out.read_text())["entry_id"] == 2
    assert env.read_text() == "2|2"
    assert cli(files, "bad", "--baseline", "1",
               "--alert-command", "echo nope >&2; exit 7") == ALERT_EXIT_STATUS
    assert "exit status 7: nope" in capsys.readouterr().err
    with pytest.raises(InputError, match="http:// or https://"):
        check_url("ftp://example.org/x")


# --------------------------------------------------------------------------- schedule


def test_parse_interval():
    assert parse_interval("24h") == 86400
    assert parse_interval("1d") == 86400
    assert parse_interval("1h30m") == 5400
    assert parse_interval("45s") == 45
    for bad in ("", "10", "5x", "h", "-1h", "1h 30"):
        with pytest.raises(InputError, match="interval must be"):
            parse_interval(bad)
    with pytest.raises(InputError, match="longer than 0 s"):
        parse_interval("0s")


def test_repeat_keeps_a_fixed_rate_and_survives_later_errors():
    starts = []

    def task():
        starts.append(time.monotonic())
        if len(starts) == 2:
            raise ValueError("transient")

    errors = []
    t0 = time.monotonic()
    assert repeat(task, 0.05, on_error=errors.append, max_runs=4) == 4
    assert [str(e) for e in errors] == ["transient"]
    # run i starts on the grid t0 + k * 0.05 with k >= i (a late run may skip slots)
    offsets = np.array(starts) - t0
    assert np.all(offsets >= np.arange(4) * 0.05 - 1e-6), offsets

    def fails_first():
        raise InputError("bad configuration")

    with pytest.raises(InputError, match="bad configuration"):
        repeat(fails_first, 0.05, on_error=errors.append)


def test_a_signal_at_the_end_of_a_run_stops_the_loop_before_its_wait():
    # as `reteval monitor --every` gets SIGTERM from a test that reads the run's last line
    before = signal.getsignal(signal.SIGTERM)
    seen = []

    def task():
        signal.raise_signal(signal.SIGTERM)  # handled here, at the end of the run

    t0 = time.monotonic()
    assert repeat(task, 3600.0, on_signal=lambda name, aborting: seen.append(name)) == 1
    assert seen == ["SIGTERM"] and time.monotonic() - t0 < 60
    assert signal.getsignal(signal.SIGTERM) == before  # the handler is restored


# --------------------------------------------------------------------------- trend and CLI


def test_history_frame_and_plot(files, tmp_path):
    monitor(files, "good", thresholds=["R@5=0.7"])
    monitor(files, "bad", thresholds=["R@5=0.7"])
    monitor_once(files["history"], run=files["good"], qrels=files["qrels2"],
                 measures=["RR", "R@5"], name="sys", thresholds=["R@5=0.7"])
    frame = history_frame(files["history"])
    assert list(frame.index) == [1, 2, 3]
    assert isinstance(frame["created_utc"].dtype, pd.DatetimeTZDtype)
    assert str(frame["created_utc"].dt.tz) == "UTC"
    rr_bad, r5_bad = per_query_by_hand(BAD)
    assert frame["RR"].tolist() == pytest.approx([1.0, rr_bad.mean(), 1.0])
    assert frame["alert"].tolist() == [False, True, False]
    assert frame.loc[2, "alerts"] == "threshold:R@5; regression:RR; regression:R@5"
    assert frame["fingerprint"].nunique() == 2
    assert list(history_frame(files["history"], measures=["MRR"]).columns).count("RR") == 1
    with pytest.raises(InputError, match="not in the history"):
        history_frame(files["history"], measures=["AP"])

    fig = plot_history(files["history"])
    ax = fig.axes[0]
    # Entry 2 alerted "threshold:R@5; regression:RR; regression:R@5": a star on RR, a triangle
    # and a star on R@5; each kind of mark once in the legend, the threshold line once.
    lines = ax.get_lines()
    assert [line.get_label() for line in lines[:5]] == [
        "sys RR", "regression alert", "sys R@5", "threshold alert", "_regression"]
    assert [line.get_marker() for line in lines[1:5]] == ["*", "o", "v", "*"]
    assert list(lines[1].get_ydata()) == pytest.approx([rr_bad.mean()])
    assert list(lines[3].get_ydata()) == list(lines[4].get_ydata()) == pytest.approx(
        [r5_bad.mean()])
    assert r5_bad.mean() < 0.7                   # the threshold alert is real
    horizontal = [line for line in ax.get_lines() if list(line.get_ydata()) == [0.7, 0.7]]
    assert len(horizontal) == 1                  # the R@5 threshold
    legend = [text.get_text() for text in ax.get_legend().get_texts()]
    assert legend == ["sys RR", "regression alert", "sys R@5", "threshold alert",
                      "R@5 threshold 0.7"]
    png = tmp_path / "trend.png"
    fig.savefig(png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_history_formats(files, tmp_path, capsys):
    cli(files, "good")
    cli(files, "bad", "--threshold", "R@5=0.7")
    capsys.readouterr()
    assert main(["history", str(files["history"])]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ["id", "created_utc", "retriever", "dataset", "queries", "RR",
                                "R@5", "alerts"]
    assert "0.4444!" in table[2] and "0.3333!" in table[2]
    assert table[2].endswith("threshold:R@5; regression:RR; regression:R@5")
    assert "!" not in table[1]
    png = tmp_path / "plot.png"
    assert main(["history", str(files["history"]), "--format", "csv", "-m", "R@5",
                 "--plot", str(png)]) == 0
    from io import StringIO

    csv = pd.read_csv(StringIO(capsys.readouterr().out))
    assert csv["R@5"].tolist() == pytest.approx([1.0, 10 / 30])
    assert "RR" not in csv.columns
    assert png.stat().st_size > 1000
    assert main(["history", str(files["history"]), "--format", "json", "--last", "1"]) == 0
    (record,) = json.loads(capsys.readouterr().out)
    assert record["entry_id"] == 2 and record["alert"] is True
    assert main(["history", str(files["history"]), "--check"]) == 0
    assert "ok, 2 entries" in capsys.readouterr().out


def test_cli_monitor_output_and_errors(files, capsys):
    assert cli(files, "good", "--format", "json", "--param", "build=17") == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["measures"] == {"RR": 1.0, "R@5": 1.0} and doc["alerts"] == []
    with open_history(files["history"]) as store:
        assert store.entry(1).parameters["user"] == {"build": 17}
    assert cli(files, "slight") == 0
    out = capsys.readouterr().out
    assert out.startswith("entry 2 ") and "RR=0.9722" in out
    for bad in (["--every", "10"], ["--threshold", "R@5"], ["--alert-url", "file:///x"],
                ["--baseline", "yesterday"], ["--param", "novalue"]):
        assert cli(files, "good", *bad) == 2, bad
        assert capsys.readouterr().err.startswith("reteval: error: ")
    with open_history(files["history"]) as store:
        assert len(store) == 2


def test_retriever_module_is_found_in_the_working_directory(files, tmp_path, monkeypatch):
    name = f"cwd_retriever_{tmp_path.name.replace('-', '_')}"
    folder = tmp_path / "job"
    folder.mkdir()
    (folder / f"{name}.py").write_text(RETRIEVER_MODULE)
    monkeypatch.chdir(folder)
    before = list(sys.path)
    try:
        result = monitor_once(files["history"], retriever=f"{name}:search", qrels=files["qrels"],
                              queries=files["queries"], measures=["RR"], baseline=None)
    finally:
        sys.modules.pop(name, None)
    assert result.entry.aggregates["RR"] == 1.0
    assert sys.path == before                     # no lasting change to sys.path


def test_damaged_entry_gives_one_line_errors(tmp_path, capsys):
    import sqlite3

    from reteval.cli import main
    from reteval.monitor.runner import monitor_once

    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\n")
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 d1 1 1.5 t\n")
    history = tmp_path / "history.sqlite"
    monitor_once(history, run=str(run), qrels=str(qrels), measures=["RR"])
    with sqlite3.connect(history) as con:
        con.execute("UPDATE entries SET measures = '{not json'")
    assert main(["history", str(history)]) == 2
    err = capsys.readouterr().err
    assert "entry 1 is damaged" in err and "Traceback" not in err
    assert main(["history", "--check", str(history)]) == 2
    captured = capsys.readouterr()
    assert "entry 1: measures is not valid JSON" in captured.out + captured.err


# --------------------------------------------------------------------------- damaged histories


def _damage_old_pages(path):
    """Overwrite part of every page after the first two, as a disk fault might."""
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = con.execute("PRAGMA page_size").fetchone()[0]
    count = con.execute("PRAGMA page_count").fetchone()[0]
    con.close()
    data = bytearray(path.read_bytes())
    for number in range(2, count - 1):
        offset = number * page + 100
        data[offset:offset + 200] = b"\xaa" * 200
    path.write_bytes(bytes(data))


def test_monitor_never_appends_to_a_damaged_history(files, capsys):
    for _ in range(3):
        monitor(files, "good", baseline="none")
    _damage_old_pages(files["history"])
    before = files["history"].read_bytes()
    with pytest.raises(HistoryError, match="damaged, so reteval will not append") as info:
        monitor(files, "good", baseline="none")
    assert str(files["history"]) in str(info.value)
    assert files["history"].read_bytes() == before
    argv = ["monitor", str(files["history"]), "--run", str(files["good"]), "--qrels",
            str(files["qrels"]), "--baseline", "none", "-m", "RR"]
    assert main(argv) == 2
    assert main(["history", str(files["history"])]) == 2  # no table of gaps
    captured = capsys.readouterr()
    errors = captured.err.strip().splitlines()
    assert len(errors) == 2 and all(e.startswith("reteval: error: ") for e in errors)
    assert "damaged" in errors[1] and "Traceback" not in captured.err
    assert captured.out == ""
    assert main(["history", "--check", str(files["history"])]) == 2
    assert "integrity" in capsys.readouterr().err


@pytest.mark.parametrize(("column", "value", "message"), [
    ("measures", '{"RR": 1}', "measures is not a list of str"),
    ("measures", "[1, 2]", "measures is not a list of str"),
    ("measures", "[]", "measures is not a list of distinct names"),
    ("measures", '["RR", "RR"]', "measures is not a list of distinct names"),
    ("measures", "[" * 100_000, "measures is not valid JSON"),
    ("measures", b"[]", "measures is bytes, not JSON text"),
    ("num_queries", "many", "num_queries is not a count"),
    ("num_queries", -3, "num_queries is not a count"),
    ("created_utc", "yesterday", "created_utc is not a UTC timestamp"),
    ("created_utc", 42, "created_utc is not a UTC timestamp"),
    ("retriever", b"\x00", "retriever is not a non-empty text"),
    ("parameters", "[1]", "parameters is not dict"),
    ("notices", "[1]", "notices is not a list of str"),
])
def test_damaged_entry_fields_name_the_entry(files, capsys, column, value, message):
    monitor(files, "good", baseline="none")
    monitor(files, "good", baseline="none")
    con = sqlite3.connect(files["history"])
    con.execute(f"UPDATE entries SET {column} = ? WHERE id = 1", (value,))
    con.commit()
    con.close()
    with open_history(files["history"]) as store:
        assert store.entry(2).id == 2  # the other entry still reads
        with pytest.raises(HistoryError, match=f"entry 1 is damaged: {re.escape(message)}"):
            store.entry(1)
        problems = store.verify()
    assert len(problems) == 1 and problems[0].startswith(f"entry 1: {message}")
    assert main(["history", str(files["history"])]) == 2
    err = capsys.readouterr().err
    assert "entry 1 is damaged" in err and "Traceback" not in err and len(err.splitlines()) == 1
    assert main(["history", "--check", str(files["history"])]) == 2
    assert f"entry 1: {message}" in capsys.readouterr().err


# --------------------------------------------------------------------------- alert channels


class _Odd(http.server.BaseHTTPRequestHandler):
    """A redirecting server (``/redirect``) and one that answers one byte at a time."""

    received: list

    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        type(self).received.append(self.path)
        if self.path == "/redirect":
            self.send_response(307)
            self.send_header("Location", "/target")
            self.end_headers()
            return
        if self.path == "/target":
            self.send_response(200)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Length", "100")
        self.end_headers()
        try:
            for _ in range(100):  # each byte within a per-read timeout, the whole far beyond
                self.wfile.write(b"x")
                self.wfile.flush()
                time.sleep(0.1)
        except OSError:  # the client gave up, as it should
            pass

    def log_message(self, *args):
        pass


@pytest.fixture
def odd_server():
    handler = type("Odd", (_Odd,), {"received": []})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield handler, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_alert_url_does_not_follow_redirects(odd_server):
    from reteval.monitor.channels import post_json

    handler, base = odd_server
    delivery = post_json(f"{base}/redirect", {"a": 1}, timeout=5)
    assert not delivery.ok and "HTTP 307" in delivery.detail and "redirect" in delivery.detail
    assert handler.received == ["/redirect"]  # never sent on to the target


def test_alert_url_timeout_is_a_deadline_for_the_whole_request(odd_server):
    from reteval.monitor.channels import post_json

    _, base = odd_server
    start = time.monotonic()
    delivery = post_json(f"{base}/slow", {"a": 1}, timeout=1)
    assert time.monotonic() - start < 3
    assert not delivery.ok and "within 1 s" in delivery.detail


def _running(pid: int) -> bool:
    """Alive and not a zombie (a killed orphan may wait for its reaper)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_alert_command_timeout_ends_the_whole_group_and_ignores_inherited_pipes(tmp_path):
    from reteval.monitor.channels import run_command

    pid_file = tmp_path / "child.pid"
    start = time.monotonic()
    delivery = run_command(f"sleep 60 & echo $! > {pid_file}; wait", {}, timeout=1)
    assert not delivery.ok and "timed out" in delivery.detail
    assert time.monotonic() - start < 5
    child = int(pid_file.read_text())
    time.sleep(0.2)
    assert not _running(child)
    # A command that exits at once but leaves a child holding its stderr: no wait.
    start = time.monotonic()
    delivery = run_command(f"(sleep 3 >&2 & echo $! > {pid_file}); exit 0", {}, timeout=30)
    assert delivery.ok and time.monotonic() - start < 2
    import os
    import signal

    os.kill(int(pid_file.read_text()), signal.SIGKILL)


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-1", "601", "1e300"])
def test_absurd_alert_timeout_is_refused_before_anything_is_recorded(files, capsys, value):
    try:
        status = cli(files, "good", "--alert-timeout", value)
    except SystemExit as exc:  # argparse: not a number at all
        status = exc.code
    assert status == 2
    assert not files["history"].exists()
    err = capsys.readouterr().err
    assert "--alert-timeout" in err and "Traceback" not in err


# --------------------------------------------------------------------------- retrievers that fail


FAILING_MODULES = {
    "exits_on_import": "import sys\nsys.exit('no GPU here')\n",
    "raises_on_import": "raise ValueError('line one\\nline two')\n",
    "bad_syntax": "def f(:\n",
    "lazy_attr": "def __getattr__(name):\n    raise RuntimeError('lazy failure')\n",
    "calls_exit": "import sys\ndef search(queries):\n    sys.exit(3)\n",
    "odd_run": ("class Weird:\n    def __iter__(self):\n        raise TypeError('no')\n"
                "def search(queries):\n    return {q: Weird() for q in queries}\n"),
    "multiline": "def search(queries):\n    raise KeyError('a\\nb')\n",
}


@pytest.mark.parametrize("name", sorted(FAILING_MODULES))
def test_any_retriever_failure_is_one_line_and_status_2(files, tmp_path, monkeypatch, capsys, name):
    module = f"failing_{name}_{tmp_path.name[-6:].replace('-', '_')}"
    (tmp_path / f"{module}.py").write_text(FAILING_MODULES[name])
    monkeypatch.chdir(tmp_path)
    try:
        status = main(["monitor", str(files["history"]), "--retriever", f"{module}:search",
                       "--qrels", str(files["qrels"]), "--queries", str(files["queries"]),
                       "-m", "RR"])
    finally:
        sys.modules.pop(module, None)
    err = capsys.readouterr().err
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("reteval: error: retriever"), err
    assert "Traceback" not in err
    assert not files["history"].exists() or len(open_history(files["history"])) == 0


@pytest.mark.parametrize("name", ["two\nlines", "tab\there", "cr\rname", "_private", "__x\n"])
def test_odd_names_keep_the_table_and_the_legend(files, capsys, name):
    monitor(files, "good", name=name, baseline="none")
    monitor(files, "good", name="plain", baseline="none")
    capsys.readouterr()
    assert main(["history", str(files["history"])]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3  # header and one row per entry
    assert len({len(line) for line in lines}) >= 1 and "\r" not in "".join(lines)
    from reteval.monitor.trend import display_name

    assert display_name(name) in lines[1]
    with open_history(files["history"]) as store:
        fig = plot_history(store, measures=["RR"])
    labels = [text.get_text() for text in fig.axes[0].get_legend().get_texts()]
    assert any(display_name(name) in label for label in labels), labels
    assert any("plain" in label for label in labels)


def test_plot_is_written_atomically_and_errors_name_the_file(files, tmp_path, capsys):
    monitor(files, "good", baseline="none")
    target = tmp_path / "trend.png"
    target.write_bytes(b"old image")
    bad_plot = str(tmp_path / "trend.nosuchformat")
    assert main(["history", str(files["history"]), "--plot", bad_plot]) == 2
    assert "trend.nosuchformat: cannot write the plot" in capsys.readouterr().err
    assert main(["history", str(files["history"]), "--plot", str(tmp_path / "no" / "t.png")]) == 2
    assert "cannot write the plot" in capsys.readouterr().err
    assert main(["history", str(files["history"]), "--plot", str(target)]) == 0
    assert target.read_bytes().startswith(b"\x89PNG")
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_history_json_is_strict(files, capsys):
    monitor(files, "good", baseline="none", measures=["RR"])
    monitor(files, "good", baseline="none", measures=["R@5"])  # RR missing here: NaN in the frame
    capsys.readouterr()
    assert main(["history", str(files["history"]), "--format", "json"]) == 0
    out = capsys.readouterr().out
    records = json.loads(out, parse_constant=lambda name: pytest.fail(f"{name} in JSON"))
    assert records[1]["RR"] is None


def test_monitor_options_object_and_keywords_agree(files):
    from reteval.monitor import MonitorOptions

    options = MonitorOptions(measures=("RR",), name="prod", thresholds="RR=0.99", baseline="none")
    assert options.thresholds == ("RR=0.99",) and options.measure_names == ["RR"]
    a = monitor_once(files["history"], run=files["good"], qrels=files["qrels"], options=options)
    b = monitor_once(files["history"], run=files["good"], qrels=files["qrels"], measures=["RR"],
                     name="prod", thresholds=["RR=0.99"], baseline="none")
    c = monitor_once(files["history"], run=files["good"], qrels=files["qrels"], options=options,
                     name="other")  # a keyword replaces the option's field
    assert (a.entry.retriever, b.entry.retriever, c.entry.retriever) == ("prod", "prod", "other")
    assert a.entry.parameters == {**b.entry.parameters} and a.entry.aggregates == b.entry.aggregates
    assert [x.kind for x in a.alerts] == [x.kind for x in b.alerts]
    with pytest.raises(TypeError, match=r"unexpected keyword argument\(s\) \['measure'\]"):
        monitor_once(files["history"], run=files["good"], qrels=files["qrels"], measure=["RR"])
    with pytest.raises(InputError, match="on_dataset_change must be one of"):
        MonitorOptions(on_dataset_change="ignore")
    with pytest.raises(InputError, match="baseline must be"):
        MonitorOptions(baseline="yesterday")
    with pytest.raises(InputError, match="options must be a MonitorOptions"):
        monitor_once(files["history"], run=files["good"], qrels=files["qrels"], options={})
    assert len(history_frame(files["history"])) == 3  # nothing recorded by the failures
