"""A durable, append-only log of the interactions of an online experiment.

One interaction is one query a user issued: the experiment, the variant the
user was in, the user id, the query text, a UTC timestamp, the ids of the
documents shown (in rank order), the ids of the clicked documents and the
optional explicit feedback (the chapter's 1 = satisfied, 0 = not).

The log is one SQLite file:

* WAL journal mode, ``synchronous=FULL`` (by default) and a busy timeout, so several
  processes can append at the same time without losing a record (each writer
  waits for the lock instead of failing);
* every append is one ``BEGIN IMMEDIATE ... COMMIT`` transaction;
* the schema is versioned with ``PRAGMA user_version`` (currently
  :data:`SCHEMA_VERSION`); a file written by a newer schema is refused;
* the file is marked with its own ``PRAGMA application_id``
  (:data:`APPLICATION_ID`): anything else (a monitoring history, another
  application's SQLite file, a text file, a folder) is one
  :class:`~reteval.errors.InputError` naming the file, and so is a lock held
  by another writer for longer than ``timeout``;
* the experiments (variants, weights, allowed feedback) are stored in the
  file, so every record is checked against the design it belongs to.

A bad record (unknown experiment or variant, feedback outside the allowed
values, a missing field, a click on a document that was not shown, a
timestamp without a UTC offset, text that is not valid UTF-8 or holds a lone
surrogate) is rejected with an :class:`~reteval.errors.InputError` naming the
record. Imports from CSV or JSON Lines keep the good records and report every
rejected one in an :class:`ImportReport`, including records that cannot be
read at all (undecodable bytes, invalid or non-strict JSON such as ``NaN`` or
absurdly deep nesting): nothing is dropped silently, and one bad record never
aborts an import. Files are read by the rule of :mod:`reteval.textfile`
(gzip, byte-order mark, LF/CR LF/CR line endings).

File formats for :meth:`InteractionLog.import_file`
--------------------------------------------------
Fields: ``experiment`` (optional when passed to the import), ``variant``,
``user_id``, ``query``, ``timestamp`` (ISO 8601 with ``Z`` or an offset),
``retrieved`` (list of doc ids), ``clicks`` (list of clicked doc ids,
optional, default none) and ``feedback`` (integer, optional). In a CSV file
(with a header line) the two lists are JSON arrays such as ``["d1", "d2"]``
and an empty ``feedback`` cell means no feedback; in JSON Lines they are
plain JSON values.
"""

from __future__ import annotations

import csv
import io
import json
import math
import sqlite3
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

from reteval.ab.assignment import Experiment
from reteval.errors import InputError
from reteval.textfile import decode, iter_lines, parse_integer, parse_json, read_bytes

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "ImportReport",
    "Interaction",
    "InteractionLog",
    "Rejection",
    "parse_record",
]

#: Version of the SQLite schema written by this module (``PRAGMA user_version``).
SCHEMA_VERSION = 1

#: ``PRAGMA application_id`` of a reteval interaction log: the ASCII bytes "RETA".
#: (A monitoring history has its own, "RETV": neither file is taken for the other.)
APPLICATION_ID = 0x52455441
_HISTORY_APPLICATION_ID = 0x52455456

_SCHEMA = """
CREATE TABLE IF NOT EXISTS experiments (
    name TEXT PRIMARY KEY,
    variants TEXT NOT NULL,          -- JSON array of variant names, control first
    weights TEXT NOT NULL,           -- JSON array of traffic weights
    feedback_values TEXT NOT NULL    -- JSON array of allowed feedback integers
);
CREATE TABLE IF NOT EXISTS interactions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    experiment TEXT NOT NULL REFERENCES experiments(name),
    variant TEXT NOT NULL,
    user_id TEXT NOT NULL,
    query TEXT NOT NULL,
    timestamp TEXT NOT NULL,         -- ISO 8601, UTC, microseconds
    retrieved TEXT NOT NULL,         -- JSON array of doc ids, rank order
    clicks TEXT NOT NULL,            -- JSON array of clicked doc ids
    feedback INTEGER                 -- NULL when the user gave none
);
CREATE INDEX IF NOT EXISTS interactions_experiment ON interactions(experiment, variant);
"""

_REQUIRED = ("experiment", "variant", "user_id", "query", "timestamp", "retrieved")


@dataclass(frozen=True)
class Interaction:
    """One logged query of one user in one variant.

    Build it with :func:`parse_record` to have it checked against its
    experiment; :meth:`InteractionLog.append` checks it again.

    Attributes
    ----------
    experiment, variant, user_id, query : str
    timestamp : datetime.datetime
        Timezone-aware, converted to UTC.
    retrieved : tuple of str
        Document ids shown, in rank order.
    clicks : tuple of str
        Clicked document ids (each one of ``retrieved``), in click order.
    feedback : int or None
        Explicit feedback, one of the experiment's ``feedback_values``.
    """

    experiment: str
    variant: str
    user_id: str
    query: str
    timestamp: datetime
    retrieved: tuple[str, ...]
    clicks: tuple[str, ...] = ()
    feedback: int | None = None


@dataclass(frozen=True)
class Rejection:
    """A record an import refused: where it was, the kind of problem, the message."""

    record: int
    line: int | None
    kind: str
    message: str


@dataclass(frozen=True)
class ImportReport:
    """What an import did: records read, imported, rejected, and why.

    Attributes
    ----------
    path : str
    n_read : int
        Records found in the file (blank lines excluded).
    n_imported : int
    rejections : tuple of Rejection
        One per rejected record, in file order.
    """

    path: str
    n_read: int
    n_imported: int
    rejections: tuple[Rejection, ...] = field(default_factory=tuple)

    @property
    def n_rejected(self) -> int:
        """Number of rejected records."""
        return len(self.rejections)

    @property
    def reasons(self) -> dict[str, int]:
        """Rejected records counted by kind of problem, most frequent first."""
        return dict(Counter(r.kind for r in self.rejections).most_common())

    def __str__(self) -> str:
        head = (f"{self.path}: read {self.n_read} records, imported {self.n_imported}, "
                f"rejected {self.n_rejected}")
        if not self.rejections:
            return head
        kinds = ", ".join(f"{k}: {n}" for k, n in self.reasons.items())
        return f"{head} ({kinds})"


class _Reject(Exception):
    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind
        self.message = message


def _show(value, width: int = 80) -> str:
    """``repr`` cut to ``width`` characters, for messages (never fails)."""
    try:
        return f"{value!r:.{width}}"
    except ValueError:  # e.g. an integer with more digits than Python prints
        return f"<{type(value).__name__} too long to show>"


def _describe(raw: Mapping) -> str:
    parts = [f"{k}={_show(raw[k], 60)}" for k in ("user_id", "query") if k in raw]
    return "record " + (" ".join(parts) if parts else _show(dict(raw), 120))


def _text(name: str, value) -> str:
    """A string or an integer as text that SQLite can store (UTF-8, no lone surrogate)."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise _Reject(f"bad {name}", f"{name} must be a string; got {_show(value)}")
    try:
        text = str(value)
        text.encode("utf-8")
    except ValueError:  # a lone surrogate, or an integer too long to print
        raise _Reject("not text", f"{name} is not valid text (undecodable bytes, a lone "
                      f"surrogate or a number too long): {_show(value)}") from None
    return text


def _as_list(name: str, value) -> tuple[str, ...]:
    if isinstance(value, str):
        try:
            value = parse_json(value) if value.strip() else []
        except InputError as err:
            raise _Reject(f"bad {name}", f"{name} must be a JSON array of doc ids ({err}); "
                          f"got {value!r:.80}") from None
    if not isinstance(value, (list, tuple)):
        raise _Reject(f"bad {name}", f"{name} must be a list of doc ids; got {_show(value)}")
    out = []
    for doc in value:
        if isinstance(doc, bool) or not isinstance(doc, (str, int)) or doc == "":
            raise _Reject(f"bad {name}", f"{name} must hold non-empty doc ids; got {_show(doc)}")
        out.append(_text(name, doc))
    if len(set(out)) != len(out):
        dup = next(d for d, n in Counter(out).items() if n > 1)
        raise _Reject(f"bad {name}", f"{name} lists doc id {dup!r} twice")
    return tuple(out)


def _as_timestamp(value) -> datetime:
    if isinstance(value, pd.Timestamp):  # the log keeps microseconds
        value = value.floor("us").to_pydatetime()
    if isinstance(value, str):
        text = value.strip()
        try:
            value = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
        except (ValueError, OverflowError):
            raise _Reject("bad timestamp", f"timestamp must be ISO 8601 such as "
                          f"'2024-05-01T12:00:00Z'; got {text!r}") from None
    if not isinstance(value, datetime):
        raise _Reject("bad timestamp", f"timestamp must be an ISO 8601 string or a datetime; "
                      f"got {value!r}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise _Reject("bad timestamp", f"timestamp {value.isoformat()!r} has no UTC offset; "
                      "write it with 'Z' or '+00:00'")
    try:
        return value.astimezone(timezone.utc)
    except OverflowError:
        raise _Reject("bad timestamp", f"timestamp {value.isoformat()!r} is out of range") from None


def _as_feedback(value, allowed: tuple[int, ...]) -> int | None:
    if value is None or value is pd.NA or (isinstance(value, str) and value.strip() == ""):
        return None
    if isinstance(value, float) and math.isnan(value):  # NaN from pandas
        return None
    if isinstance(value, np.integer):
        value = int(value)
    parsed = None
    if isinstance(value, bool):
        parsed = None
    elif isinstance(value, int):
        parsed = value
    elif isinstance(value, float) and value.is_integer():
        parsed = int(value)
    elif isinstance(value, str):
        try:
            parsed = parse_integer(value.strip())
        except InputError:
            parsed = None
    if parsed is None or parsed not in allowed:
        raise _Reject("feedback not allowed", f"feedback {_show(value, 40)} is not allowed; expected one "
                      f"of {', '.join(map(str, allowed))} or none")
    return parsed


def _check(raw: Mapping, experiments: Mapping[str, Experiment]) -> Interaction:
    if not isinstance(raw, Mapping):
        raise _Reject("not a record", f"expected a mapping of fields; got {type(raw).__name__}")
    for name in _REQUIRED:
        value = raw.get(name)
        if value is None or (isinstance(value, str) and value.strip() == ""):
            raise _Reject("missing field", f"missing field {name!r}")
    texts = {name: _text(name, raw[name]) for name in ("experiment", "variant", "user_id", "query")}
    exp = experiments.get(texts["experiment"])
    if exp is None:
        known = ", ".join(map(repr, experiments)) or "none registered"
        raise _Reject("unknown experiment", f"unknown experiment {texts['experiment']!r}; "
                      f"expected one of {known}")
    if texts["variant"] not in exp.variants:
        raise _Reject("unknown variant", f"unknown variant {texts['variant']!r} for experiment "
                      f"{exp.name!r}; expected one of {', '.join(map(repr, exp.variants))}")
    timestamp = _as_timestamp(raw["timestamp"])
    retrieved = _as_list("retrieved", raw["retrieved"])
    clicks_raw = raw.get("clicks")
    clicks = () if clicks_raw is None else _as_list("clicks", clicks_raw)
    shown = set(retrieved)
    for doc in clicks:
        if doc not in shown:
            raise _Reject("click not shown", f"clicked doc id {doc!r} is not among the "
                          "retrieved documents")
    feedback = _as_feedback(raw.get("feedback"), exp.feedback_values)
    return Interaction(texts["experiment"], texts["variant"], texts["user_id"], texts["query"],
                       timestamp, retrieved, clicks, feedback)


def _fields(record: Interaction | Mapping) -> Mapping:
    if isinstance(record, Interaction):
        return {k: getattr(record, k) for k in Interaction.__dataclass_fields__}
    return record


def parse_record(record: Mapping | Interaction, experiments: Mapping[str, Experiment] | Experiment,
                 *, where: str | None = None) -> Interaction:
    """Check one record against its experiment and return it as an :class:`Interaction`.

    Parameters
    ----------
    record : mapping or Interaction
        Fields as described in the module docstring. Lists may be JSON text.
    experiments : Experiment or mapping of name to Experiment
        The designs the record may belong to.
    where : str, optional
        Where the record comes from, used as the error's path.

    Returns
    -------
    Interaction

    Raises
    ------
    InputError
        The message names the record (user id and query) and the problem.

    Examples
    --------
    >>> exp = Experiment("ranker-v2")
    >>> rec = parse_record({"experiment": "ranker-v2", "variant": "B", "user_id": "u1",
    ...                     "query": "covid vaccine", "timestamp": "2024-05-01T12:00:00Z",
    ...                     "retrieved": '["d3", "d1"]', "clicks": '["d1"]', "feedback": "1"}, exp)
    >>> rec.clicks, rec.feedback, rec.timestamp.isoformat()
    (('d1',), 1, '2024-05-01T12:00:00+00:00')
    >>> parse_record({"experiment": "ranker-v2", "variant": "C", "user_id": "u1", "query": "q",
    ...               "timestamp": "2024-05-01T12:00:00Z", "retrieved": []}, exp)
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: record user_id='u1' query='q': unknown variant 'C' ...
    """
    if isinstance(experiments, Experiment):
        experiments = {experiments.name: experiments}
    raw = _fields(record)
    try:
        return _check(raw, experiments)
    except _Reject as err:
        who = _describe(raw) if isinstance(raw, Mapping) else "record"
        raise InputError(f"{who}: {err.message}", path=where) from None


class _Translate:
    """Turn any sqlite3 error into one InputError naming the log file."""

    def __init__(self, path: Path, doing: str, timeout: float):
        self.path, self.doing, self.timeout = path, doing, timeout

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc is None or not isinstance(exc, sqlite3.Error):
            return False
        text = str(exc)
        if "locked" in text or "busy" in text:
            raise InputError(f"the interaction log is locked by another process (waited "
                             f"{self.timeout:g} s to {self.doing} it); try again later or give "
                             "a longer timeout", path=str(self.path)) from None
        if "not a database" in text or "malformed" in text or "corrupt" in text:
            raise InputError(f"not a reteval interaction log: {text} (not an SQLite file, or "
                             "a damaged one)", path=str(self.path)) from None
        raise InputError(f"cannot {self.doing} the interaction log: {text}",
                         path=str(self.path)) from None


def _check_timeout(timeout) -> float:
    try:
        value = float(timeout)
    except (TypeError, ValueError):
        value = math.nan
    if not (math.isfinite(value) and 0 <= value <= 2**31 / 1000):
        raise InputError(f"timeout must be a number of seconds from 0 to {2**31 // 1000}; "
                         f"got {timeout!r}")
    return value


def _configure(con: sqlite3.Connection, path: Path, durable: bool) -> None:
    """WAL journal and durability, once the file is known to be a log."""
    mode = con.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if mode.lower() != "wal":
        raise InputError(f"cannot switch to WAL journal mode (got {mode!r})", path=str(path))
    con.execute(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
    con.execute("PRAGMA foreign_keys = ON")


class InteractionLog:
    """An SQLite interaction log; open one per process (connections are not shared).

    Parameters
    ----------
    path : str or Path
        The database file; created with the current schema when missing.
    timeout : float, default 30.0
        Seconds a writer waits for another one to finish before giving up.
    durable : bool, default True
        ``synchronous=FULL``: a committed record survives a power failure
        (one disk flush per transaction). False uses ``synchronous=NORMAL``,
        much faster for many small appends: a committed record survives a crash
        of the process, but the last ones may be lost if the machine goes
        down (the file stays consistent either way).

    Raises
    ------
    InputError
        The file was written by a newer schema, or is not an interaction log.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "log.sqlite")
    >>> with InteractionLog(path) as log:
    ...     log.register(Experiment("ranker-v2"))
    ...     _ = log.append({"experiment": "ranker-v2", "variant": "A", "user_id": "u1",
    ...                     "query": "q1", "timestamp": "2024-05-01T12:00:00Z",
    ...                     "retrieved": ["d1", "d2"], "clicks": ["d2"], "feedback": 1})
    ...     df = log.to_pandas()
    >>> df[["variant", "user_id", "n_retrieved", "n_clicks", "feedback"]]
      variant user_id  n_retrieved  n_clicks  feedback
    0       A      u1            2         1         1
    """

    def __init__(self, path, *, timeout: float = 30.0, durable: bool = True):
        self.path = Path(path)
        self._timeout = _check_timeout(timeout)
        if not self.path.parent.is_dir():
            raise InputError(f"directory of log path {str(self.path)!r} does not exist")
        if self.path.is_dir():
            raise InputError("is a directory, not an interaction log", path=str(self.path))
        if self.path.exists() and not self.path.is_file():
            raise InputError("is not a regular file, not an interaction log", path=str(self.path))
        with self._errors("open"):
            self._con = sqlite3.connect(str(self.path), timeout=self._timeout,
                                        isolation_level=None)
        try:
            with self._errors("open"):
                self._con.execute(f"PRAGMA busy_timeout = {int(self._timeout * 1000)}")
                self._migrate()  # nothing is written into a file that is not a log
                _configure(self._con, self.path, durable)
                self._experiments = self._load_experiments()
        except BaseException:
            self._con.close()
            raise

    def _errors(self, doing: str) -> _Translate:
        return _Translate(self.path, doing, self._timeout)

    # -- schema -------------------------------------------------------------
    def _migrate(self) -> None:
        con = self._con
        con.execute("BEGIN IMMEDIATE")
        try:
            application = con.execute("PRAGMA application_id").fetchone()[0]
            version = con.execute("PRAGMA user_version").fetchone()[0]
            if application != APPLICATION_ID:
                self._claim(application, version)
            elif version > SCHEMA_VERSION:
                raise InputError(f"log schema version {version} is newer than this reteval "
                                 f"understands ({SCHEMA_VERSION})", path=str(self.path))
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise

    def _claim(self, application: int, version: int) -> None:
        """Create the schema in an empty file, or adopt a log written before the id existed."""
        con = self._con
        if application == _HISTORY_APPLICATION_ID:
            raise InputError("is a reteval monitoring history, not an interaction log",
                             path=str(self.path))
        if application != 0:
            raise InputError(f"not an interaction log (another application's SQLite file: "
                             f"application_id {application:#x})", path=str(self.path))
        tables = {r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        ours = {"experiments", "interactions", "sqlite_sequence"}
        if tables - ours or (version and version != SCHEMA_VERSION) or (
                version and not {"experiments", "interactions"} <= tables):
            raise InputError(f"not an interaction log: an SQLite file holding tables "
                             f"{sorted(tables)!r:.200} (schema version {version})",
                             path=str(self.path))
        if version == 0:
            for statement in _SCHEMA.split(";\n"):
                if statement.strip():
                    con.execute(statement)
            con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        con.execute(f"PRAGMA application_id = {APPLICATION_ID}")

    def _load_experiments(self) -> dict[str, Experiment]:
        with self._errors("read"):
            rows = self._con.execute(
                "SELECT name, variants, weights, feedback_values FROM experiments ORDER BY name"
            ).fetchall()
        return {name: Experiment(name, tuple(json.loads(v)), weights=tuple(json.loads(w)),
                                 feedback_values=tuple(json.loads(f)))
                for name, v, w, f in rows}

    @property
    def schema_version(self) -> int:
        """The ``PRAGMA user_version`` of the file."""
        return self._con.execute("PRAGMA user_version").fetchone()[0]

    # -- experiments --------------------------------------------------------
    def register(self, experiment: Experiment) -> None:
        """Store an experiment's design; registering the same design again is a no-op.

        Raises
        ------
        InputError
            A different design is already stored under the same name.
        """
        if not isinstance(experiment, Experiment):
            raise InputError(f"register expects an Experiment; got {type(experiment).__name__}")
        with self._errors("write to"):
            self._register(experiment)
        self._experiments[experiment.name] = experiment

    def _register(self, experiment: Experiment) -> None:
        con = self._con
        con.execute("BEGIN IMMEDIATE")
        try:
            row = con.execute("SELECT variants, weights, feedback_values FROM experiments "
                              "WHERE name = ?", (experiment.name,)).fetchone()
            if row is None:
                con.execute("INSERT INTO experiments VALUES (?, ?, ?, ?)",
                            (experiment.name, json.dumps(list(experiment.variants)),
                             json.dumps(list(experiment.weights)),
                             json.dumps(list(experiment.feedback_values))))
            else:
                stored = Experiment(experiment.name, tuple(json.loads(row[0])),
                                    weights=tuple(json.loads(row[1])),
                                    feedback_values=tuple(json.loads(row[2])))
                if stored != experiment:
                    raise InputError(f"experiment {experiment.name!r} is already registered "
                                     f"with a different design: {stored!r}", path=str(self.path))
            con.execute("COMMIT")
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise

    @property
    def experiments(self) -> dict[str, Experiment]:
        """The registered experiments by name (re-read from the file)."""
        self._experiments = self._load_experiments()
        return dict(self._experiments)

    def experiment(self, name: str) -> Experiment:
        """Return the registered experiment ``name``."""
        exps = self.experiments
        if name not in exps:
            raise InputError(f"unknown experiment {name!r}; the log holds "
                             f"{', '.join(map(repr, exps)) or 'none'}", path=str(self.path))
        return exps[name]

    # -- writing ------------------------------------------------------------
    def _known(self, name) -> Mapping[str, Experiment]:
        if name not in self._experiments:  # another process may have registered it
            self._experiments = self._load_experiments()
        return self._experiments

    @staticmethod
    def _row(rec: Interaction) -> tuple:
        return (rec.experiment, rec.variant, rec.user_id, rec.query,
                rec.timestamp.astimezone(timezone.utc).isoformat(timespec="microseconds"),
                json.dumps(list(rec.retrieved)), json.dumps(list(rec.clicks)), rec.feedback)

    _INSERT = ("INSERT INTO interactions (experiment, variant, user_id, query, timestamp, "
               "retrieved, clicks, feedback) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")

    def _write(self, rows: list[tuple]) -> None:
        con = self._con
        with self._errors("write to"):
            con.execute("BEGIN IMMEDIATE")
            try:
                con.executemany(self._INSERT, rows)
                con.execute("COMMIT")
            except BaseException:
                if con.in_transaction:
                    con.execute("ROLLBACK")
                raise

    def append(self, record: Interaction | Mapping) -> None:
        """Check one record and append it in its own transaction.

        Raises
        ------
        InputError
            The record is bad; the message names it. Nothing is written.
        """
        raw = _fields(record)
        name = raw.get("experiment") if isinstance(raw, Mapping) else None
        rec = parse_record(raw, self._known(str(name)), where=str(self.path))
        self._write([self._row(rec)])

    def extend(self, records: Iterable[Interaction | Mapping]) -> None:
        """Check every record, then append them all in one transaction.

        All or nothing: if any record is bad, an :class:`InputError` naming
        the first bad one (and its position) is raised and nothing is written.
        Use :meth:`import_file` to keep the good records of a file.
        """
        rows = []
        self._experiments = self._load_experiments()
        for i, record in enumerate(records):
            try:
                rows.append(self._row(parse_record(record, self._experiments)))
            except InputError as err:
                raise InputError(f"record #{i}: {err}", path=str(self.path)) from None
        if rows:
            self._write(rows)

    def import_file(self, path, *, experiment: str | None = None,
                    format: str | None = None) -> ImportReport:
        """Import a CSV or JSON Lines log, keeping the good records.

        Parameters
        ----------
        path : str or Path
            The file; its format comes from the suffix (``.csv``, ``.jsonl``,
            ``.ndjson``) unless ``format`` is given.
        experiment : str, optional
            Experiment name for records without an ``experiment`` field.
        format : {"csv", "jsonl"}, optional

        Returns
        -------
        ImportReport
            Counts and, per rejected record, its line number and the reason.
            The good records are written in one transaction.
        """
        path = Path(path)
        if not path.is_file():
            raise InputError(f"log file {str(path)!r} does not exist")
        fmt = format or {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl",
                         ".json": "jsonl"}.get(path.suffix.lower())
        if fmt not in ("csv", "jsonl"):
            raise InputError(f"format must be 'csv' or 'jsonl'; got {format!r} for "
                             f"file suffix {path.suffix!r}")
        if experiment is not None:
            self._known(experiment)
        self._experiments = self._load_experiments()
        rows, rejections, n_read = [], [], 0
        for line, raw in _read_records(path, fmt):
            n_read += 1
            try:
                if isinstance(raw, Exception):
                    raise _Reject("unreadable", str(raw))
                if experiment is not None and raw.get("experiment") in (None, ""):
                    raw = {**raw, "experiment": experiment}
                rows.append(self._row(_check(raw, self._experiments)))
            except _Reject as err:
                who = _describe(raw) if isinstance(raw, Mapping) else "record"
                rejections.append(Rejection(n_read, line, err.kind,
                                            f"{path}:{line}: {who}: {err.message}"))
        if rows:
            self._write(rows)
        return ImportReport(str(path), n_read, len(rows), tuple(rejections))

    # -- reading ------------------------------------------------------------
    def __len__(self) -> int:
        with self._errors("read"):
            return self._con.execute("SELECT COUNT(*) FROM interactions").fetchone()[0]

    def to_pandas(self, *, experiment: str | None = None) -> pd.DataFrame:
        """Return the log as a DataFrame, one row per interaction, in insertion order.

        Columns: ``id``, ``experiment``, ``variant``, ``user_id``, ``query``,
        ``timestamp`` (datetime64, UTC), ``retrieved`` and ``clicks`` (lists of
        doc ids), ``feedback`` (nullable ``Int64``), and the derived counts
        ``n_retrieved`` and ``n_clicks``.
        """
        sql = ("SELECT id, experiment, variant, user_id, query, timestamp, retrieved, clicks, "
               "feedback FROM interactions")
        params: tuple = ()
        if experiment is not None:
            self.experiment(experiment)
            sql += " WHERE experiment = ?"
            params = (experiment,)
        with self._errors("read"):
            rows = self._con.execute(sql + " ORDER BY id", params).fetchall()
        cols = ["id", "experiment", "variant", "user_id", "query", "timestamp", "retrieved",
                "clicks", "feedback"]
        df = pd.DataFrame.from_records(rows, columns=cols)
        df["id"] = df["id"].astype("int64")
        df["timestamp"] = pd.to_datetime(df["timestamp"], utc=True, format="ISO8601")
        df["retrieved"] = [json.loads(x) for x in df["retrieved"]]
        df["clicks"] = [json.loads(x) for x in df["clicks"]]
        df["feedback"] = pd.array(df["feedback"].tolist(), dtype="Int64")
        df["n_retrieved"] = df["retrieved"].map(len).astype("int64")
        df["n_clicks"] = df["clicks"].map(len).astype("int64")
        return df

    # -- lifetime -----------------------------------------------------------
    def close(self) -> None:
        """Close the connection (the file stays)."""
        self._con.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self) -> str:
        return f"InteractionLog({str(self.path)!r})"


def _read_records(path: Path, fmt: str):
    """Yield (line number, record dict or an exception) for each record of a file.

    One bad record (bytes that are not UTF-8, invalid or non-strict JSON, a CSV
    row the csv module cannot split) is yielded as an exception and reading
    goes on: the caller reports it and keeps the other records.
    """
    if fmt == "jsonl":
        for lineno, raw in iter_lines(path):
            if not raw.strip():
                continue
            try:
                obj = parse_json(decode(raw))
            except InputError as err:
                yield lineno, ValueError(str(err))
                continue
            yield lineno, obj if isinstance(obj, dict) else ValueError(
                f"expected a JSON object; got {type(obj).__name__}")
        return
    # Undecodable bytes become lone surrogates here, and that record alone is refused.
    text = read_bytes(path).decode("utf-8", errors="surrogateescape")
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        if reader.fieldnames is None:
            return
    except csv.Error as err:
        raise InputError(f"cannot read the CSV header: {err}", path=path, line=1) from None
    rows = iter(reader)
    while True:
        before = reader.line_num
        try:
            rec = next(rows)
        except StopIteration:
            return
        except csv.Error as err:
            yield reader.line_num, ValueError(f"not a CSV row: {err}")
            if reader.line_num == before:
                return
            continue
        if None in rec:
            yield reader.line_num, ValueError("more cells than header columns")
            continue
        if not any((v or "").strip() for v in rec.values()):
            continue
        yield reader.line_num, {k: v for k, v in rec.items() if v is not None}
