"""Progress bars for long work: a notebook widget, a terminal bar, or nothing.

:func:`progress` wraps an iterable the way ``tqdm`` does. Where it shows:

* in a Jupyter kernel with ipywidgets: tqdm's notebook widget;
* on a terminal (standard error is a TTY): tqdm's text bar;
* anywhere else (output piped to a file, a CI log, ``--quiet``): nothing.

A bar appears only when the work lasts longer than half a second, so short
calls stay silent, and a notebook widget is emptied when its work ends, so that an
executed notebook (papermill, ``reteval run``, nbconvert) keeps no bar stuck at
the percentage it had when it was shown. The environment variable ``RETEVAL_PROGRESS`` overrides the
choice: ``off`` (never), ``text`` (a text bar on standard error even when it is
not a terminal), ``notebook`` or ``auto`` (the default rules above).
``reteval run`` sets ``RETEVAL_PROGRESS=off`` for the notebooks it executes
headless (no front end is live there to show a widget; the pipeline shows its
own bar per notebook and per cell), and the CLI's ``--quiet`` sets it too.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable, Iterator

__all__ = ["progress", "progress_counter", "progress_mode"]

_MODES = ("auto", "off", "text", "notebook")
_DELAY_SECONDS = 0.5


def _in_kernel() -> bool:
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    shell = ipython.get_ipython()
    return shell is not None and hasattr(shell, "kernel")


def progress_mode() -> str:
    """How :func:`progress` shows right now: ``"off"``, ``"text"`` or ``"notebook"``.

    Examples
    --------
    >>> import os
    >>> os.environ["RETEVAL_PROGRESS"] = "off"
    >>> progress_mode()
    'off'
    >>> del os.environ["RETEVAL_PROGRESS"]
    """
    wanted = os.environ.get("RETEVAL_PROGRESS", "auto").strip().lower()
    if wanted not in _MODES:
        wanted = "auto"
    stream = sys.stderr
    usable = stream is not None and not getattr(stream, "closed", False)  # 2>&- leaves None
    if wanted == "off" or not usable:
        return "off"
    if wanted == "text":
        return wanted
    if _in_kernel():
        try:
            import ipywidgets  # noqa: F401
        except ImportError:
            return "text"
        return "notebook"
    if wanted == "notebook":
        return "text"
    return "text" if stream.isatty() else "off"


def progress(iterable: Iterable, *, total: int | None = None, desc: str | None = None,
             unit: str = "it") -> Iterator:
    """Iterate over ``iterable``, showing a progress bar where one can be seen.

    Parameters
    ----------
    iterable : iterable
        What to iterate over; it is yielded unchanged.
    total : int, optional
        Number of items, when ``len(iterable)`` does not tell.
    desc : str, optional
        Label of the bar.
    unit : str, default "it"
        Name of one item (``"query"``, ``"doc"``...).

    Yields
    ------
    object
        The items of ``iterable``.

    Examples
    --------
    >>> list(progress(range(3), desc="counting"))
    [0, 1, 2]
    """
    mode = progress_mode()
    if mode == "off":
        yield from iterable
        return
    with _bar(mode, iterable, total=total, desc=desc, unit=unit) as bar:
        yield from bar


@contextlib.contextmanager
def progress_counter(total: int | None, *, desc: str | None = None, unit: str = "it",
                     unit_scale: bool = False):
    """A progress bar advanced by hand, for work that is not a loop (e.g. a task graph).

    Shows under the same rules as :func:`progress`.

    Parameters
    ----------
    total : int or None
        Number of steps, if known.
    desc, unit : str
        As for :func:`progress`.
    unit_scale : bool, default False
        Show counts with k/M/G prefixes (for bytes: ``unit="B"``).

    Yields
    ------
    callable
        ``advance(n=1)``: call it as steps finish.

    Examples
    --------
    >>> with progress_counter(3, desc="tasks") as advance:
    ...     for _ in range(3):
    ...         advance()
    """
    mode = progress_mode()
    if mode == "off":
        yield lambda n=1: None
        return
    scale = {"unit_scale": True, "unit_divisor": 1024} if unit_scale else {}
    with _bar(mode, None, total=total, desc=desc, unit=unit, **scale) as bar:
        yield bar.update


def _bar(mode: str, iterable, **kwargs):
    kwargs.update(leave=False, delay=_DELAY_SECONDS)
    if mode == "notebook":
        return _notebook_bar()(iterable, **kwargs)
    from tqdm import tqdm

    return tqdm(iterable, file=sys.stderr, dynamic_ncols=True, **kwargs)


def _notebook_bar():
    """tqdm's notebook widget, shown after the delay and emptied when it closes.

    A saved notebook keeps a widget's output as the text it had when it was shown
    (``reading corpus: 0%``): papermill and nbconvert save no widget state. So the
    widget is shown under a display id, and on closing that display becomes an
    empty text: an executed notebook keeps no bar, as a live one shows none at the end.
    """
    from IPython.display import display
    from tqdm.notebook import tqdm

    class NotebookBar(tqdm):
        _handle = None

        def display(self, *args, check_delay=True, **kwargs):
            show = check_delay and self.delay > 0 and not self.displayed
            self.displayed = self.displayed or show  # tqdm's own display is skipped
            super().display(*args, check_delay=check_delay, **kwargs)
            if show:
                self._handle = display(self.container, display_id=True)

        def close(self):
            super().close()
            if self._handle is not None:
                self._handle.update({"text/plain": ""}, raw=True)
                self._handle = None

    return NotebookBar
