"""What the SQLite files reteval keeps (the monitoring history, the A/B log) share.

An :mod:`sqlite3` error says what went wrong in words only; :class:`SQLiteErrors`
sorts it into one of three faults and lets each file kind word its own error,
naming the file:

* ``"locked"``: another process held the write lock longer than the timeout;
* ``"damaged"``: not an SQLite database, or a corrupt one;
* ``"other"``: anything else (disk full, read-only folder ...).
"""

from __future__ import annotations

import math
import sqlite3

from reteval.errors import InputError

__all__ = ["SQLiteErrors", "check_timeout", "sqlite_fault"]


def sqlite_fault(exc: sqlite3.Error) -> str:
    """``"locked"``, ``"damaged"`` or ``"other"`` for an :mod:`sqlite3` error.

    Examples
    --------
    >>> sqlite_fault(sqlite3.OperationalError("database is locked"))
    'locked'
    >>> sqlite_fault(sqlite3.DatabaseError("file is not a database"))
    'damaged'
    """
    text = str(exc)
    if "locked" in text or "busy" in text:
        return "locked"
    if isinstance(exc, sqlite3.DatabaseError) and (
            "not a database" in text or "malformed" in text or "corrupt" in text):
        return "damaged"
    return "other"


class SQLiteErrors:
    """Context manager that turns an :mod:`sqlite3` error into the caller's error.

    Subclasses define :meth:`error`, which returns the exception to raise for
    a fault (see :func:`sqlite_fault`) and SQLite's message.
    """

    def __init__(self, doing: str):
        self.doing = doing

    def error(self, fault: str, text: str) -> Exception:  # pragma: no cover - abstract
        raise NotImplementedError

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc is None or not isinstance(exc, sqlite3.Error):
            return False
        raise self.error(sqlite_fault(exc), str(exc)) from None


def check_timeout(timeout, name: str = "timeout") -> float:
    """A lock timeout in seconds: finite, from 0 to SQLite's largest busy timeout (about 24 days).

    Examples
    --------
    >>> check_timeout(2)
    2.0
    >>> check_timeout(float("nan"), "lock_timeout")
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: lock_timeout must be a number of seconds from 0 to 2147483; got nan
    """
    try:
        value = float(timeout)
    except (TypeError, ValueError, OverflowError):
        value = math.nan
    if not (math.isfinite(value) and 0 <= value <= 2**31 // 1000):
        raise InputError(f"{name} must be a number of seconds from 0 to {2**31 // 1000}; "
                         f"got {timeout!r}")
    return value
