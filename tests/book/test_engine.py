"""The papermill engine of `reteval run`: the notebook written every few seconds and at the end."""

import asyncio
import os
import shutil
import tempfile
import threading
from pathlib import Path

import nbformat
import papermill
import pytest
from jupyter_client.manager import AsyncKernelManager

from reteval.book import engine


def _notebook(path, *sources):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, str(path))
    return path


@pytest.mark.notebook
@pytest.mark.parametrize(("save_every", "writes"), [
    (0.0, 1 + 2 * 3 + 1),  # papermill's: the start, each cell's start and end, the end
    (3600.0, 1),  # the end only
])
def test_the_notebook_is_written_every_few_seconds_and_at_the_end(tmp_path, monkeypatch,
                                                                    save_every, writes):
    written = []
    monkeypatch.setattr(engine, "SAVE_EVERY", save_every)
    monkeypatch.setattr(papermill.engines, "write_ipynb",
                        lambda nb, path: written.append(path) or nbformat.write(nb, path))
    path = _notebook(tmp_path / "a.ipynb", "x = 1", "print(x + 1)", "x")
    papermill.execute_notebook(str(path), str(path), kernel_name="python3", progress_bar=False,
                               engine_name=engine.ENGINE_NAME)
    assert len(written) == writes  # papermill's write after the engine's end is not counted
    cells = nbformat.read(path, as_version=4).cells
    assert cells[1].outputs[0]["text"] == "2\n"
    assert [c.metadata["papermill"]["status"] for c in cells] == ["completed"] * 3


@pytest.fixture
def private_tempdir(monkeypatch):
    """A temporary folder of the test's own (a short path, as a socket's must be): the kernel's
    socket and connection files."""
    folder = Path(tempfile.mkdtemp(prefix="k"))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    yield folder
    shutil.rmtree(folder)


@pytest.mark.notebook
@pytest.mark.skipif(os.name != "posix", reason="Unix sockets are POSIX's")
def test_the_kernel_is_reached_over_unix_sockets_removed_at_the_end(tmp_path, private_tempdir):
    path = _notebook(tmp_path / "a.ipynb", "import os\n"
                     "from ipykernel.kernelapp import IPKernelApp\n"
                     "app = IPKernelApp.instance()\n"
                     "folder = os.path.dirname(app.ip)\n"
                     "print(app.transport, folder, len(os.listdir(folder)))")
    papermill.execute_notebook(str(path), str(path), kernel_name="python3", progress_bar=False,
                               engine_name=engine.ENGINE_NAME)
    seen = nbformat.read(path, as_version=4).cells[0].outputs[0]["text"]
    assert seen == f"ipc {private_tempdir} 6\n"  # five sockets and the connection file
    assert not list(private_tempdir.iterdir())


def test_a_temporary_folder_too_deep_for_a_socket_path_falls_back_to_tcp(monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", "/" + "d" * 90)
    assert engine._kernel_manager_class() is AsyncKernelManager
    monkeypatch.setattr(tempfile, "tempdir", "/tmp")
    unix = engine._UnixSocketKernelManager if os.name == "posix" else AsyncKernelManager
    assert engine._kernel_manager_class() is unix


@pytest.mark.notebook
def test_a_dead_kernel_leaves_the_cells_run_so_far_and_the_one_it_died_in(tmp_path, monkeypatch,
                                                                        private_tempdir):
    monkeypatch.setattr(engine, "SAVE_EVERY", 3600.0)
    path = _notebook(tmp_path / "a.ipynb", "print('before')", "import os; os._exit(1)", "x = 2")
    with pytest.raises(Exception, match="(?i)kernel died"):
        papermill.execute_notebook(str(path), str(path), kernel_name="python3",
                                   progress_bar=False, engine_name=engine.ENGINE_NAME)
    cells = nbformat.read(path, as_version=4).cells
    assert cells[0].outputs[0]["text"] == "before\n"
    assert cells[1].metadata["papermill"]["start_time"]
    assert not cells[2].metadata["papermill"]["start_time"]
    assert not list(private_tempdir.iterdir())  # no socket or connection file left behind


def test_a_threads_event_loop_is_closed_and_unset_and_none_is_no_error():
    seen = {}

    def in_thread():
        engine.close_thread_event_loop()  # no loop in this thread yet: nothing to do
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        engine.close_thread_event_loop()
        seen["closed"] = loop.is_closed()
        try:
            asyncio.get_event_loop()
        except RuntimeError:
            seen["unset"] = True

    thread = threading.Thread(target=in_thread)
    thread.start()
    thread.join()
    assert seen == {"closed": True, "unset": True}
