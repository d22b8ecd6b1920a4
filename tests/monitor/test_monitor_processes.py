"""Process-level reliability of the monitor: concurrent writers, SIGKILL, SIGTERM/SIGINT.

Each test starts ``reteval monitor`` in subprocesses. With ``pause=SECONDS`` it runs through
``commit_hook.py``, which makes the process sleep inside its write transaction (after inserting
the rows, before COMMIT) and say so on stderr, so that a test can act while an entry is
half-written.
"""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from commit_hook import PAUSE_MARK
from test_monitor import N_QUERIES, write_qrels, write_run

from reteval.monitor import monitor_once, open_history

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
]

COMMIT_HOOK = Path(__file__).with_name("commit_hook.py")


@pytest.fixture
def files(tmp_path):
    return {
        "qrels": write_qrels(tmp_path / "qrels.txt"),
        "run": write_run(tmp_path / "run.txt"),
        "history": tmp_path / "history.sqlite",
    }


def spawn(files, *extra, pause=None):
    start = [sys.executable, "-m", "reteval.cli"] if pause is None else [
        sys.executable, str(COMMIT_HOOK), str(pause)]
    command = [*start, "monitor", str(files["history"]), "--run", str(files["run"]),
               "--qrels", str(files["qrels"]), "-m", "RR", "--baseline", "none", *extra]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_line(stream, text, timeout=60):
    """Read lines until one contains ``text``; return the lines read."""
    deadline = time.monotonic() + timeout
    lines = []
    while time.monotonic() < deadline:
        line = stream.readline()
        if not line:
            raise AssertionError(f"stream ended before {text!r}; got {lines!r}")
        lines.append(line)
        if text in line:
            return lines
    raise AssertionError(f"timed out waiting for {text!r}")


def entry_count(files):
    with open_history(files["history"]) as store:
        assert store.verify() == []
        return len(store)


def test_two_processes_writing_at_once_both_keep_their_entries(files):
    # Both start on a file that does not exist yet (both create the schema) and both
    # hold their transaction open for 1 s, so the second must wait for the first.
    procs = [spawn(files, "--name", name, pause=1.0) for name in ("a", "b")]
    results = [p.communicate(timeout=90) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], results
    assert all(PAUSE_MARK in err for _, err in results)
    with open_history(files["history"]) as store:
        assert store.verify() == []
        assert sorted(e.retriever for e in store.entries()) == ["a", "b"]
        assert all(e.num_queries == N_QUERIES for e in store.entries())


def test_sigkill_while_writing_leaves_a_valid_history_without_the_entry(files):
    monitor_once(files["history"], run=files["run"], qrels=files["qrels"], measures=["RR"])
    proc = spawn(files, pause=60)
    wait_for_line(proc.stderr, PAUSE_MARK)
    proc.kill()                                   # SIGKILL: no handler, no cleanup
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert entry_count(files) == 1                # integrity_check ok, entry 1 complete
    con = sqlite3.connect(files["history"])
    assert con.execute("SELECT count(*) FROM query_scores").fetchone()[0] == N_QUERIES
    con.close()
    again = monitor_once(files["history"], run=files["run"], qrels=files["qrels"],
                         measures=["RR"])
    assert again.entry.id == 2                    # the killed entry's id was never committed


def test_sigterm_stops_a_repeating_monitor_cleanly(files):
    proc = spawn(files, "--every", "0.5s")
    out = wait_for_line(proc.stdout, "entry 2 ")  # it repeats
    proc.send_signal(signal.SIGTERM)
    rest, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "SIGTERM: stopping" in err and "stopped after" in err
    recorded = [line for line in out + rest.splitlines() if line.startswith("entry ")]
    assert entry_count(files) == len(recorded) >= 2


def test_sigterm_during_an_evaluation_finishes_it_first(files):
    proc = spawn(files, "--every", "1h", pause=1.5)
    wait_for_line(proc.stderr, PAUSE_MARK)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "stopped after 1 evaluation(s)" in err
    assert out.startswith("entry 1 ")
    assert entry_count(files) == 1


def test_a_second_signal_aborts_the_evaluation_without_a_partial_entry(files):
    monitor_once(files["history"], run=files["run"], qrels=files["qrels"], measures=["RR"])
    proc = spawn(files, "--every", "1h", pause=60)
    wait_for_line(proc.stderr, PAUSE_MARK)
    proc.send_signal(signal.SIGTERM)
    wait_for_line(proc.stderr, "SIGTERM: stopping")
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "SIGINT: aborting" in err and "interrupted" in err
    assert out == ""
    assert entry_count(files) == 1
