"""Progress bars: shown on a terminal, silent in pipes and with RETEVAL_PROGRESS=off."""

import io
import sys

import pytest

from reteval._util.progress import progress, progress_mode


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_modes_follow_the_environment_and_the_terminal(monkeypatch):
    monkeypatch.delenv("RETEVAL_PROGRESS", raising=False)
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert progress_mode() == "off"  # not a terminal: silent
    monkeypatch.setattr(sys, "stderr", _Terminal())
    assert progress_mode() == "text"
    monkeypatch.setenv("RETEVAL_PROGRESS", "off")
    assert progress_mode() == "off"
    monkeypatch.setenv("RETEVAL_PROGRESS", "text")
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert progress_mode() == "text"


@pytest.mark.parametrize("mode, shown", [("off", False), ("text", True)])
def test_long_work_shows_a_bar_and_yields_everything(monkeypatch, mode, shown):
    monkeypatch.setenv("RETEVAL_PROGRESS", mode)
    monkeypatch.setattr("reteval._util.progress._DELAY_SECONDS", 0)
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    assert list(progress(range(5), desc="counting", unit="q")) == [0, 1, 2, 3, 4]
    assert ("counting" in err.getvalue()) is shown
    if shown:
        assert "/5 " in err.getvalue()  # the bar knows the total


def test_quick_work_stays_silent_on_a_terminal(monkeypatch):
    monkeypatch.delenv("RETEVAL_PROGRESS", raising=False)
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    assert sum(progress(range(1000), desc="quick")) == 499500
    assert err.getvalue() == ""  # done before the half-second delay


def test_retriever_run_in_batches_gives_the_same_run(monkeypatch):
    from reteval.datasets import load
    from reteval.retrievers import base, make_retriever

    ds = load("teaching")
    retriever = make_retriever("bm25", ds.corpus)
    whole = retriever.run(ds.queries, k=20)
    monkeypatch.setattr(base, "_RUN_BATCH", 7)  # 36 queries: 6 batches, the last one short
    monkeypatch.setenv("RETEVAL_PROGRESS", "text")
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr("reteval._util.progress._DELAY_SECONDS", 0)
    batched = retriever.run(ds.queries, k=20)
    assert batched.equals(whole)
    assert "bm25: searching" in err.getvalue() and "/6 " in err.getvalue()
