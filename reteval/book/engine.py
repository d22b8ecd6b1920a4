"""The papermill engine of ``reteval run``: the executed notebook written every few seconds.

papermill's own engine writes the whole executed notebook, figures and all, when each cell
starts and when it ends: 80 writes for a notebook of 40 cells, each one copied, validated
and serialised (0.7 s of CPU a notebook on average, 2 s for notebook 08). This engine
writes it when :data:`SAVE_EVERY` seconds have passed since the last write, and always when
the notebook ends, however it ends (an error, a kernel that died, a timeout): the file then
holds every cell run so far and marks the one that failed, as papermill's does. A long
notebook can still be watched as it runs; a process killed outright loses at most the last
few seconds.

When the last cell has run, the kernel is stopped at once (nbclient's
``shutdown_kernel="immediate"``, its process group killed) rather than asked to exit and
waited for, 0.6-0.9 s a notebook: its work is done, its outputs received and its files
closed by the cells that wrote them.

On POSIX systems the kernel is reached over Unix sockets (ZeroMQ's ``ipc`` transport) rather
than TCP. Over TCP, jupyter_client picks five free ports and closes them before the kernel
starts and binds them; any process that opens a connection in between may take one, and the
kernel then dies at start (``Address already in use``). Many kernels and clusters started at
once on one machine, as a test suite or editions run side by side do, make that likely;
socket files named after a random id cannot be taken.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import uuid
import warnings

from jupyter_client.manager import AsyncKernelManager
from papermill.engines import (
    NBClientEngine,
    NotebookExecutionManager,
    catch_nb_assignment,
    papermill_engines,
)

__all__ = ["ENGINE_NAME", "SAVE_EVERY", "close_thread_event_loop"]

ENGINE_NAME = "reteval"
#: Seconds between two writes of the executed notebook while it runs.
SAVE_EVERY = 10.0


class _EveryFewSeconds(NotebookExecutionManager):
    """papermill's execution manager, writing the notebook at most every SAVE_EVERY seconds
    but always at the end."""

    ending = False

    @catch_nb_assignment
    def save(self, **kwargs):
        waited = (self.now() - self.last_save_time).total_seconds()
        if self.ending or waited >= SAVE_EVERY:
            super().save(**kwargs)

    def notebook_complete(self, **kwargs):
        self.ending = True
        super().notebook_complete(**kwargs)


class _UnixSocketKernelManager(AsyncKernelManager):
    """nbclient's kernel manager, the kernel's sockets being files of a name no one else has."""

    def __init__(self, **kwargs):
        kwargs.setdefault("transport", "ipc")
        kwargs.setdefault("ip", os.path.join(tempfile.gettempdir(),
                                             f"reteval-kernel-{uuid.uuid4().hex[:16]}"))
        super().__init__(**kwargs)


def _kernel_manager_class() -> type[AsyncKernelManager]:
    """Unix sockets where there are any and their path fits (108 bytes on Linux, 104 on
    macOS, with the ``-N`` suffix of each socket); TCP otherwise."""
    fits = len(os.fsencode(tempfile.gettempdir())) + len("/reteval-kernel-") + 16 + 3 < 104
    return _UnixSocketKernelManager if os.name == "posix" and fits else AsyncKernelManager


class _Engine(NBClientEngine):
    @classmethod
    def execute_notebook(cls, nb, kernel_name, output_path=None, progress_bar=True,
                         log_output=False, autosave_cell_every=30, **kwargs):
        manager = _EveryFewSeconds(nb, output_path=output_path, progress_bar=progress_bar,
                                   log_output=log_output, autosave_cell_every=autosave_cell_every)
        manager.notebook_start()
        try:
            cls.execute_managed_notebook(manager, kernel_name, log_output=log_output, **kwargs)
        finally:
            manager.cleanup_pbar()
            manager.notebook_complete()
        return manager.nb

    @classmethod
    def execute_managed_notebook(cls, nb_man, kernel_name, **kwargs):
        kwargs.setdefault("shutdown_kernel", "immediate")
        kwargs.setdefault("kernel_manager_class", _kernel_manager_class())
        return super().execute_managed_notebook(nb_man, kernel_name, **kwargs)


papermill_engines.register(ENGINE_NAME, _Engine)


def close_thread_event_loop() -> None:
    """Close the event loop left set in this thread, if any.

    nbclient runs its coroutines through jupyter_core's ``run_sync``, which makes an event loop
    for each thread that executes a notebook and never closes it. Called at the end of a thread
    that executed notebooks (``reteval run``'s editions side by side), this closes it, with the
    socket pair it holds, instead of leaving it to the garbage collector (a ResourceWarning).
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # Python 3.10-3.11 with no loop
        try:
            loop = asyncio.get_event_loop()
        except RuntimeError:  # none was set in this thread
            return
    if not loop.is_running():
        asyncio.set_event_loop(None)
        loop.close()
