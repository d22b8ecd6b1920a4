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


@pytest.mark.parametrize("stream", ["none", "closed"])
@pytest.mark.parametrize("mode", ["text", "notebook", "auto"])
def test_no_stderr_means_no_bar(monkeypatch, stream, mode):
    # `2>&-` leaves sys.stderr None; a closed stream refuses writes: the work still runs.
    from reteval._util.progress import progress_counter

    monkeypatch.setenv("RETEVAL_PROGRESS", mode)
    closed = io.StringIO()
    closed.close()
    monkeypatch.setattr(sys, "stderr", None if stream == "none" else closed)
    assert progress_mode() == "off"
    assert list(progress(range(3), desc="x")) == [0, 1, 2]
    with progress_counter(2, desc="y") as advance:
        advance()
        advance()


def test_cli_with_stderr_closed(tmp_path):
    import os
    import subprocess

    (tmp_path / "q.txt").write_text("q1 0 d1 1\n")
    (tmp_path / "r.txt").write_text("q1 Q0 d1 1 2.0 s\n")
    env = {**os.environ, "RETEVAL_PROGRESS": "text", "PYTHONPATH": os.pathsep.join(sys.path)}
    code = "import sys; from reteval.cli import main; sys.exit(main())"
    done = subprocess.run([sys.executable, "-c", code, "evaluate", "q.txt", "r.txt", "-m", "AP"],
                          cwd=tmp_path, env=env, stderr=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, text=True, check=False,
                          preexec_fn=lambda: os.close(2))
    assert done.returncode == 0
    assert "AP" in done.stdout and "1.0000" in done.stdout


WORK = """\
import time
from reteval._util.progress import progress, progress_counter, progress_mode
mode = progress_mode()
quick = list(progress(range(3), desc="quick"))
slow = [time.sleep(0.4) or i for i in progress(range(4), desc="slow")]
with progress_counter(2, desc="by hand") as advance:
    time.sleep(0.7)
    advance(2)
print(mode, len(quick), len(slow))
"""


@pytest.mark.notebook
def test_an_executed_notebook_keeps_no_progress_widget(tmp_path, monkeypatch):
    import nbformat
    import papermill
    from nbformat import v4

    monkeypatch.delenv("RETEVAL_PROGRESS", raising=False)  # as a plain papermill run
    nb = v4.new_notebook(cells=[v4.new_code_cell(WORK)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    path = tmp_path / "work.ipynb"
    nbformat.write(nb, path)
    papermill.execute_notebook(str(path), str(path), kernel_name="python3",
                               progress_bar=False)
    outputs = nbformat.read(path, as_version=4).cells[0].outputs
    assert [o["text"] for o in outputs if o["output_type"] == "stream"] == ["notebook 3 4\n"]
    # The bars were widgets (the kernel has ipywidgets); none is left, and no "0%" text.
    displays = [o for o in outputs if o["output_type"] == "display_data"]
    assert len(displays) == 2  # the two bars of work longer than the delay; the quick one none
    assert all(o["data"] == {"text/plain": ""} for o in displays)
    assert "widget-view+json" not in path.read_text(encoding="utf-8")
