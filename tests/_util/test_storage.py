"""The SQLite storage layer shared by the interaction log and the monitoring history."""

import re
import sqlite3
import time

import pytest

from reteval._util.sqlitefile import FileKind, Translate, immediate, open_file, sqlite_fault
from reteval.ab.log import InteractionLog
from reteval.errors import InputError
from reteval.monitor.history import HistoryError, HistoryLockedError, open_history


class NotesError(InputError):
    pass


class NotesLocked(NotesError):
    pass


KIND = FileKind("notebook", 0x4E4F5445, 2,
                ("CREATE TABLE notes (id INTEGER PRIMARY KEY AUTOINCREMENT, x TEXT)",),
                frozenset({"notes", "sqlite_sequence"}), error=NotesError, locked_error=NotesLocked)


def pragmas(path):
    con = sqlite3.connect(path)
    try:
        return tuple(con.execute(f"PRAGMA {p}").fetchone()[0]
                     for p in ("application_id", "user_version", "journal_mode"))
    finally:
        con.close()


def test_an_empty_file_gets_schema_id_version_and_wal(tmp_path):
    path = tmp_path / "n.sqlite"
    con = open_file(KIND, path, timeout=1)
    assert con.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert con.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    con.close()
    assert pragmas(path) == (0x4E4F5445, 2, "wal")
    con = open_file(KIND, path, timeout=1, durable=False)
    assert con.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    con.close()


def test_without_create_an_empty_database_is_refused(tmp_path):
    path = tmp_path / "n.sqlite"
    path.touch()
    with pytest.raises(NotesError, match="not a reteval notebook .an empty SQLite database"):
        open_file(KIND, path, timeout=1, create=False)
    assert path.read_bytes() == b""


def _make(path, *statements):
    con = sqlite3.connect(path)
    for statement in statements:
        con.execute(statement)
    con.commit()
    con.close()


@pytest.mark.parametrize(("statements", "message"), [
    (("PRAGMA application_id = 7",),
     "is another application's SQLite file (application_id 0x7), not a reteval notebook"),
    (("PRAGMA application_id = 1380275286",),  # 0x52455456
     "is a reteval monitoring history, not a reteval notebook"),
    (("CREATE TABLE t (x)",), "not a reteval notebook: an SQLite database holding tables ['t']"),
    (("CREATE TABLE notes (x)", "PRAGMA user_version = 1"), "tables ['notes'] (schema version 1)"),
])
def test_a_foreign_file_is_named_and_left_untouched(tmp_path, statements, message):
    path = tmp_path / "n.sqlite"
    _make(path, *statements)
    before = path.read_bytes()
    with pytest.raises(NotesError, match=re.escape(message)) as info:
        open_file(KIND, path, timeout=1)
    assert str(info.value).startswith(f"{path}: ")
    assert path.read_bytes() == before


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "n.sqlite"
    open_file(KIND, path, timeout=1).close()
    _make(path, "PRAGMA user_version = 3")
    with pytest.raises(NotesError, match="newer reteval .notebook schema version 3; this "
                                         "reteval reads up to version 2"):
        open_file(KIND, path, timeout=1)


def test_an_unmarked_file_with_the_schema_is_adopted(tmp_path):
    path = tmp_path / "n.sqlite"
    open_file(KIND, path, timeout=1).close()
    _make(path, "PRAGMA application_id = 0")
    open_file(KIND, path, timeout=1).close()
    assert pragmas(path)[:2] == (0x4E4F5445, 2)


def test_damaged_bytes_are_one_error_naming_the_file(tmp_path):
    path = tmp_path / "n.sqlite"
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 200)
    with pytest.raises(NotesError, match="not a readable reteval notebook") as info:
        open_file(KIND, path, timeout=1)
    assert not isinstance(info.value, NotesLocked) and str(path) in str(info.value)


def test_a_held_lock_waits_the_timeout_then_is_the_locked_error(tmp_path):
    path = tmp_path / "n.sqlite"
    con = open_file(KIND, path, timeout=1)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        with pytest.raises(NotesLocked, match=r"locked by another process \(waited 0.3 s to "
                                              "write to it\\)"), \
                Translate(KIND, path, "write to", 0.3), immediate(sqlite3.connect(
                    path, timeout=0.3, isolation_level=None)):
            pass
        assert 0.25 <= time.monotonic() - started < 5
        # WAL: a reader is not blocked by the writer.
        assert con.execute("SELECT count(*) FROM notes").fetchone()[0] == 0
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        con.close()


def test_immediate_rolls_back_on_any_error(tmp_path):
    con = open_file(KIND, tmp_path / "n.sqlite", timeout=1)
    with pytest.raises(KeyError), immediate(con):
        con.execute("INSERT INTO notes (x) VALUES ('a')")
        raise KeyError("stop")
    assert not con.in_transaction
    assert con.execute("SELECT count(*) FROM notes").fetchone()[0] == 0
    with immediate(con):
        con.execute("INSERT INTO notes (x) VALUES ('b')")
    assert con.execute("SELECT x FROM notes").fetchall() == [("b",)]
    con.close()


def test_faults_and_other_errors():
    assert sqlite_fault(sqlite3.OperationalError("database is busy")) == "locked"
    assert sqlite_fault(sqlite3.DatabaseError("database disk image is malformed")) == "damaged"
    assert sqlite_fault(sqlite3.OperationalError("disk I/O error")) == "other"
    with pytest.raises(NotesError, match="^x.sqlite: cannot read the notebook: disk I/O error$"), \
            Translate(KIND, "x.sqlite", "read", 1):
        raise sqlite3.OperationalError("disk I/O error")
    with pytest.raises(ZeroDivisionError), Translate(KIND, "x.sqlite", "read", 1):
        1 / 0  # noqa: B018 - not an sqlite3 error: passes through


def test_a_history_and_a_log_are_never_taken_for_each_other(tmp_path):
    history, log = tmp_path / "history.sqlite", tmp_path / "log.sqlite"
    open_history(history, create=True).close()
    InteractionLog(log).close()
    with pytest.raises(InputError, match="is a reteval monitoring history, not a reteval "
                                         "interaction log") as info:
        InteractionLog(history)
    assert str(history) in str(info.value)
    with pytest.raises(InputError, match="is a reteval interaction log, not a reteval "
                                         "history") as info:
        open_history(log, create=True)
    assert isinstance(info.value, HistoryError) and str(log) in str(info.value)
    assert issubclass(HistoryLockedError, InputError)
