"""The one storage layer of the SQLite files reteval keeps (the monitoring history, the A/B log).

Each file kind is described by a :class:`FileKind` (its name, ``PRAGMA application_id``,
schema version and ``CREATE`` statements) and opened with :func:`open_file`, which
makes every decision once for every kind:

* the connection runs in autocommit mode with a busy timeout, so a writer waits
  for another one's lock up to ``timeout`` seconds instead of failing at once;
* the file is checked before anything is written into it: its
  ``application_id`` says which kind it is (another reteval kind, another
  application's database or an empty file), its ``user_version`` refuses a
  schema newer than this reteval; an empty database gets the schema, the
  application id and the version in one transaction;
* WAL journal mode (readers never block the writer), ``synchronous=FULL`` by
  default (a committed transaction survives a power cut) and foreign keys on;
* :func:`immediate` wraps one write in ``BEGIN IMMEDIATE ... COMMIT`` (rolled
  back on any error);
* :class:`Translate` turns an :mod:`sqlite3` error into the kind's
  :class:`~reteval.errors.InputError` naming the file, sorted into three faults
  by :func:`sqlite_fault`:

  * ``"locked"``: another process held the write lock longer than the timeout;
  * ``"damaged"``: not an SQLite database, or a corrupt one;
  * ``"other"``: anything else (disk full, read-only folder ...).

Each store keeps only its own tables and queries.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from reteval.errors import InputError

__all__ = [
    "KNOWN_FILES",
    "FileKind",
    "Translate",
    "check_timeout",
    "immediate",
    "open_file",
    "sqlite_fault",
]

#: What each reteval ``PRAGMA application_id`` marks, to say what a wrong file is.
KNOWN_FILES = {
    0x52455441: "a reteval interaction log",  # ASCII "RETA"
    0x5245544A: "a reteval judgment cache",  # ASCII "RETJ"
    0x52455456: "a reteval monitoring history",  # ASCII "RETV"
}


@dataclass(frozen=True)
class FileKind:
    """One kind of reteval SQLite file.

    Attributes
    ----------
    noun : str
        What the file is called in messages ("interaction log", "history").
    application_id : int
        Its ``PRAGMA application_id``.
    schema_version : int
        The ``PRAGMA user_version`` this reteval writes and reads up to.
    schema : tuple of str
        The ``CREATE`` statements of its tables and indexes.
    tables : frozenset of str
        Its tables (with ``sqlite_sequence`` when a table is AUTOINCREMENT): an
        unmarked file holding exactly these at ``schema_version`` is adopted
        (files written before the application id existed).
    error : type
        The :class:`~reteval.errors.InputError` subclass raised for a bad file.
    locked_error : type
        Raised when another process holds the lock beyond the timeout.
    """

    noun: str
    application_id: int
    schema_version: int
    schema: tuple[str, ...]
    tables: frozenset[str]
    error: type = InputError
    locked_error: type = InputError


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


class Translate:
    """Context manager that turns an :mod:`sqlite3` error into the kind's error naming the file.

    Examples
    --------
    >>> kind = FileKind("log", 1, 1, (), frozenset())
    >>> with Translate(kind, "db.sqlite", "write to", 2.0):
    ...     raise sqlite3.OperationalError("database is locked")
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: db.sqlite: the log is locked by another process (waited 2 s \
to write to it); try again later or give a longer timeout
    """

    def __init__(self, kind: FileKind, path, doing: str, timeout: float):
        self.kind, self.path, self.doing, self.timeout = kind, str(path), doing, timeout

    def error(self, fault: str, text: str) -> Exception:
        """The exception for a fault (see :func:`sqlite_fault`) and SQLite's message."""
        noun = self.kind.noun
        if fault == "locked":
            return self.kind.locked_error(
                f"the {noun} is locked by another process (waited {self.timeout:g} s to "
                f"{self.doing} it); try again later or give a longer timeout", path=self.path)
        if fault == "damaged":
            return self.kind.error(
                f"not a readable reteval {noun}: {text} (the file is corrupt or not an SQLite "
                f"database; restore it from a backup or start a new {noun})", path=self.path)
        return self.kind.error(f"cannot {self.doing} the {noun}: {text}", path=self.path)

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


@contextmanager
def immediate(con: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction: ``BEGIN IMMEDIATE``, then ``COMMIT``, or ``ROLLBACK`` on any error.

    Examples
    --------
    >>> con = sqlite3.connect(":memory:", isolation_level=None)
    >>> with immediate(con):
    ...     _ = con.execute("CREATE TABLE t (x)")
    >>> con.in_transaction
    False
    """
    con.execute("BEGIN IMMEDIATE")
    try:
        yield con
        con.execute("COMMIT")
    except BaseException:
        if con.in_transaction:
            con.execute("ROLLBACK")
        raise


def open_file(kind: FileKind, path: Path, *, timeout: float, create: bool = True,
              durable: bool = True) -> sqlite3.Connection:
    """Open (and, in an empty database, create) a file of ``kind``; return the connection.

    Parameters
    ----------
    kind : FileKind
    path : Path
        The file; the caller checks beforehand that it is a file or may be created.
    timeout : float
        Seconds to wait for another process's lock (see :func:`check_timeout`).
    create : bool, default True
        Write the schema into an empty database. Without it an empty database is an error.
    durable : bool, default True
        ``synchronous=FULL``; False uses ``NORMAL`` (the file stays consistent,
        the last transactions may be lost if the machine goes down).

    Returns
    -------
    sqlite3.Connection
        In autocommit mode (``isolation_level=None``): write with :func:`immediate`.

    Raises
    ------
    InputError
        ``kind.error`` for a file of another kind, another application's
        database, a newer schema, a damaged file; ``kind.locked_error`` when the
        lock stays held beyond ``timeout``. The message names the file. Nothing
        is written into a file that is not of ``kind``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> kind = FileKind("notebook", 0x4E4F5445, 1, ("CREATE TABLE notes (x)",),
    ...                 frozenset({"notes"}))
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "notes.sqlite"
    >>> con = open_file(kind, path, timeout=1)
    >>> con.execute("PRAGMA user_version").fetchone(), con.execute("PRAGMA journal_mode").fetchone()
    ((1,), ('wal',))
    >>> con.close()
    """
    with Translate(kind, path, "open", timeout):
        con = sqlite3.connect(str(path), timeout=timeout, isolation_level=None)
    try:
        with Translate(kind, path, "open", timeout):
            con.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
            if not _is_current(kind, path, con):
                with immediate(con):  # check again under the lock: another process may write
                    if not _is_current(kind, path, con):
                        _claim(kind, path, con, create)
            mode = con.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode.lower() != "wal":
                raise kind.error(f"cannot switch to WAL journal mode (got {mode!r})", path=path)
            con.execute(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
            con.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        con.close()
        raise
    return con


def _is_current(kind: FileKind, path: Path, con: sqlite3.Connection) -> bool:
    """True for a file of ``kind``; raises for a marked file that is not, or a newer schema."""
    application = con.execute("PRAGMA application_id").fetchone()[0]
    version = con.execute("PRAGMA user_version").fetchone()[0]
    if application == 0:
        return False
    if application != kind.application_id:
        what = KNOWN_FILES.get(application, f"another application's SQLite file "
                                            f"(application_id {application:#x})")
        raise kind.error(f"is {what}, not a reteval {kind.noun}", path=path)
    if version > kind.schema_version:
        raise kind.error(f"written by a newer reteval ({kind.noun} schema version {version}; "
                         f"this reteval reads up to version {kind.schema_version}): "
                         "upgrade reteval", path=path)
    return True


def _claim(kind: FileKind, path: Path, con: sqlite3.Connection, create: bool) -> None:
    """Create the schema in an empty database, or adopt an unmarked file of ``kind``."""
    version = con.execute("PRAGMA user_version").fetchone()[0]
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if version == 0 and not tables:
        if not create:
            raise kind.error(f"not a reteval {kind.noun} (an empty SQLite database)", path=path)
        for statement in kind.schema:
            con.execute(statement)
        con.execute(f"PRAGMA user_version = {kind.schema_version}")
    elif version != kind.schema_version or tables != kind.tables:
        raise kind.error(f"not a reteval {kind.noun}: an SQLite database holding tables "
                         f"{sorted(tables)!r:.200} (schema version {version}); choose "
                         "another file name", path=path)
    con.execute(f"PRAGMA application_id = {kind.application_id}")
