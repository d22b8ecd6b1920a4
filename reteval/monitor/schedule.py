"""Repeating an evaluation in the foreground, and stopping cleanly.

The preferred way to schedule evaluations is outside reteval: one
``reteval monitor`` invocation does one evaluation, and cron, a systemd timer
or a workflow engine decides when. For a foreground process (a container, a
terminal) :func:`repeat` runs a task at a fixed interval:

* the first run starts at once; run *n* starts ``n * interval`` after the
  first (fixed rate, no drift). A run that takes longer than the interval
  skips the slots it overran: the next run starts at the next slot of the
  grid, so that runs stay at the same time of day; missed slots are not
  caught up.
* the first SIGINT or SIGTERM asks it to stop: a wait ends at once; a run in
  progress is **finished** (its history entry is committed) and then the loop
  returns.
* a second signal during a run **aborts** it: ``KeyboardInterrupt`` is raised
  inside the run, whose write transaction is rolled back, so the history gets
  no partial entry.
"""

from __future__ import annotations

import contextlib
import math
import re
import select
import signal
import socket
import threading
import time
from collections.abc import Callable

from reteval.errors import InputError

__all__ = ["parse_interval", "repeat"]

#: The longest interval ``--every`` takes (366 days): longer waits are a calendar's job.
MAX_INTERVAL = 366 * 86400.0
_UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
_PART = re.compile(r"([0-9]+(?:\.[0-9]*)?|\.[0-9]+)([smhd])")


def parse_interval(text: str) -> float:
    """Parse an interval such as ``"24h"``, ``"30m"``, ``"1h30m"``, ``"90s"``, ``"1d"``.

    Units: ``s`` seconds, ``m`` minutes, ``h`` hours, ``d`` days; parts add up.

    Returns
    -------
    float
        Seconds, > 0.

    Examples
    --------
    >>> parse_interval("24h"), parse_interval("1h30m"), parse_interval("0.5s")
    (86400.0, 5400.0, 0.5)
    >>> parse_interval("24")
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: interval must be a number with a unit s, m, h or d, \
e.g. '24h', '30m', '1h30m'; got '24'
    """
    raw = str(text).strip().lower().replace(" ", "")
    parts = _PART.findall(raw)
    if not raw or "".join(n + u for n, u in parts) != raw:
        raise InputError(
            "interval must be a number with a unit s, m, h or d, e.g. '24h', '30m', '1h30m'; "
            f"got {text!r}"
        )
    seconds = sum(float(n) * _UNITS[u] for n, u in parts)
    if not (math.isfinite(seconds) and seconds > 0):
        raise InputError(f"interval must be longer than 0 s; got {text!r}")
    if seconds > MAX_INTERVAL:
        raise InputError(f"interval must be at most {MAX_INTERVAL / 86400:.0f} days; got {text!r}")
    return seconds


class _Stopper:
    """Signal handler: the first signal asks to stop, a second during a run aborts it.

    The handler itself takes no lock: it runs in the main thread between two bytecodes, maybe
    while that thread holds one (``threading.Event.set`` would then wait for it forever). It sets
    a flag and writes a byte to a socket pair, which :meth:`wait` watches.
    """

    def __init__(self, on_signal: Callable[[str, bool], None] | None):
        self.stopping = False
        self.running = False
        self.on_signal = on_signal
        self._wake, self._waker = socket.socketpair()
        self._waker.setblocking(False)

    def __call__(self, signum, frame):
        name = signal.Signals(signum).name
        abort = self.stopping and self.running
        self.stopping = True
        with contextlib.suppress(OSError):  # the buffer is full: a byte is waiting already
            self._waker.send(b"\0")
        if self.on_signal is not None:
            self.on_signal(name, abort)
        if abort:
            raise KeyboardInterrupt(name)

    def wait(self, seconds: float) -> None:
        """Wait ``seconds``, or less if a signal asks to stop (one arriving after the flag was
        read still ends the wait: its byte is there to read)."""
        if not self.stopping:
            select.select([self._wake], [], [], seconds)

    def close(self) -> None:
        self._wake.close()
        self._waker.close()


def repeat(
    task: Callable[[], object],
    interval: float,
    *,
    on_error: Callable[[Exception], None] | None = None,
    on_signal: Callable[[str, bool], None] | None = None,
    max_runs: int | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """Run ``task()`` now and then every ``interval`` seconds until a signal arrives.

    Parameters
    ----------
    task : callable
        One evaluation.
    interval : float
        Seconds between the starts of two runs.
    on_error : callable, optional
        Called with an exception (``Exception``, not ``KeyboardInterrupt``)
        raised by a run *after the first*; the loop then goes on. Without it
        such errors propagate. The first run's errors always propagate, so
        that a wrong configuration fails at once.
    on_signal : callable, optional
        Called as ``on_signal(signal_name, aborting)`` when SIGINT or SIGTERM
        arrives (from the main thread, inside the signal handler).
    max_runs : int, optional
        Stop after this many runs (default: no limit).
    clock : callable, default time.monotonic

    Returns
    -------
    int
        The number of runs made (failed runs reported to ``on_error`` included).

    Raises
    ------
    KeyboardInterrupt
        A second signal arrived during a run (the run was aborted).

    Notes
    -----
    SIGINT and SIGTERM handlers are installed for the duration of the call
    (which must then be in the main thread) and restored afterwards.

    Examples
    --------
    >>> calls = []
    >>> repeat(lambda: calls.append(1), 0.01, max_runs=3), len(calls)
    (3, 3)
    """
    if not (isinstance(interval, (int, float)) and math.isfinite(interval) and interval > 0):
        raise InputError(f"interval must be a positive number of seconds; got {interval!r}")
    if max_runs is not None and (isinstance(max_runs, bool) or not isinstance(max_runs, int)
                                 or max_runs < 1):
        raise InputError(f"max_runs must be a positive integer or None; got {max_runs!r}")
    stopper = _Stopper(on_signal)
    in_main = threading.current_thread() is threading.main_thread()
    previous = {}
    if in_main:
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, stopper)
    try:
        start = clock()
        runs = 0
        while not stopper.stopping:
            stopper.running = True
            try:
                task()
            except Exception as exc:
                if runs == 0 or on_error is None:
                    raise
                on_error(exc)
            finally:
                stopper.running = False
            runs += 1
            if max_runs is not None and runs >= max_runs:
                break
            now = clock()
            slots = max(runs, math.floor((now - start) / interval) + 1)
            stopper.wait(max(0.0, start + slots * interval - now))
        return runs
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        stopper.close()
