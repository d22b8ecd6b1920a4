"""A durable, append-only log of the interactions of an online experiment.

The records (:class:`~reteval.ab.records.Interaction`) and how they are checked
and read from CSV or JSON Lines files are :mod:`reteval.ab.records`'; this
module stores them. The log is one SQLite file, opened by the storage layer
shared with the monitoring history (:mod:`reteval._util.sqlitefile`):

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
  file, so every record is checked against the design it belongs to;
* a user's pre-period values (the metric before the experiment, for CUPED:
  :mod:`reteval.ab.cuped`) are stored per experiment, user and name
  (:meth:`InteractionLog.record_pre_period`) and read back as ``pre_<name>``
  columns. Schema version 2 added them; a version 1 log is upgraded when
  opened.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from datetime import timezone

import pandas as pd

from reteval._util.sqlitefile import FileKind, Translate, check_timeout, immediate, open_file
from reteval.ab.assignment import Experiment
from reteval.ab.records import ImportReport, Interaction, Rejection, parse_record, screen_file
from reteval.errors import InputError
from reteval.io.textfile import as_path

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
SCHEMA_VERSION = 2

#: ``PRAGMA application_id`` of a reteval interaction log: the ASCII bytes "RETA".
#: (A monitoring history has its own, "RETV": neither file is taken for the other.)
APPLICATION_ID = 0x52455441

_PRE_PERIOD = """CREATE TABLE IF NOT EXISTS pre_period (
            experiment TEXT NOT NULL REFERENCES experiments(name),
            user_id TEXT NOT NULL,
            name TEXT NOT NULL,              -- read back as the column pre_<name>
            value REAL NOT NULL,
            PRIMARY KEY (experiment, user_id, name)
        )"""

_NAME = re.compile(r"[a-z][a-z0-9_]*\Z")

_KIND = FileKind(
    "interaction log", APPLICATION_ID, SCHEMA_VERSION,
    (
        """CREATE TABLE experiments (
            name TEXT PRIMARY KEY,
            variants TEXT NOT NULL,          -- JSON array of variant names, control first
            weights TEXT NOT NULL,           -- JSON array of traffic weights
            feedback_values TEXT NOT NULL    -- JSON array of allowed feedback integers
        )""",
        """CREATE TABLE interactions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            experiment TEXT NOT NULL REFERENCES experiments(name),
            variant TEXT NOT NULL,
            user_id TEXT NOT NULL,
            query TEXT NOT NULL,
            timestamp TEXT NOT NULL,         -- ISO 8601, UTC, microseconds
            retrieved TEXT NOT NULL,         -- JSON array of doc ids, rank order
            clicks TEXT NOT NULL,            -- JSON array of clicked doc ids
            feedback INTEGER                 -- NULL when the user gave none
        )""",
        "CREATE INDEX interactions_experiment ON interactions(experiment, variant)",
        _PRE_PERIOD,
    ),
    frozenset({"experiments", "interactions", "pre_period", "sqlite_sequence"}),
)


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
        self.path = as_path(path, "log path")
        self._timeout = check_timeout(timeout)
        if not self.path.parent.is_dir():
            raise InputError(f"directory of log path {str(self.path)!r} does not exist")
        if self.path.is_dir():
            raise InputError("is a directory, not an interaction log", path=str(self.path))
        if self.path.exists() and not self.path.is_file():
            raise InputError("is not a regular file, not an interaction log", path=str(self.path))
        self._con = open_file(_KIND, self.path, timeout=self._timeout, durable=durable)
        try:
            if self.schema_version < SCHEMA_VERSION:
                with self._errors("upgrade"), immediate(self._con) as con:
                    con.execute(_PRE_PERIOD)
                    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self._experiments = self._load_experiments()
        except BaseException:
            self._con.close()
            raise

    def _errors(self, doing: str) -> Translate:
        return Translate(_KIND, self.path, doing, self._timeout)

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
        with immediate(con):
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
        with self._errors("write to"), immediate(self._con) as con:
            con.executemany(self._INSERT, rows)

    def append(self, record: Interaction | Mapping) -> None:
        """Check one record and append it in its own transaction.

        Raises
        ------
        InputError
            The record is bad; the message names it. Nothing is written.
        """
        if isinstance(record, Interaction):
            name = record.experiment
        else:
            name = record.get("experiment") if isinstance(record, Mapping) else None
        rec = parse_record(record, self._known(str(name)), where=str(self.path))
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
        if experiment is not None:
            self._known(experiment)
        self._experiments = self._load_experiments()
        good, report = screen_file(path, self._experiments, experiment=experiment, format=format)
        if good:
            self._write([self._row(rec) for rec in good])
        return report

    def record_pre_period(self, experiment: str, values, *, name: str) -> None:
        """Store each user's pre-period value of ``name`` (for CUPED), in one transaction.

        Parameters
        ----------
        experiment : str
            A registered experiment.
        values : mapping of user_id to number
            The users that have a pre-period value (others have none).
        name : str
            Lower-case letters, digits and ``_``; :meth:`to_pandas` returns the
            values as the column ``pre_<name>``.

        Raises
        ------
        InputError
            An unknown experiment, a bad name or value, or a user whose stored
            value differs (nothing is written then; the same value again is a
            no-op).
        """
        self.experiment(experiment)
        if not isinstance(name, str) or not _NAME.match(name):
            raise InputError(f"pre-period name must be lower-case letters, digits and _ "
                             f"(starting with a letter); got {name!r}", path=str(self.path))
        if not isinstance(values, Mapping):
            raise InputError(f"values must map user ids to numbers; got "
                             f"{type(values).__name__}", path=str(self.path))
        rows = []
        for user, value in values.items():
            try:
                x = float(value)
            except (TypeError, ValueError):
                x = math.nan
            if isinstance(value, bool) or not math.isfinite(x):
                raise InputError(f"pre-period {name!r} of user {user!r} must be a finite "
                                 f"number; got {value!r}", path=str(self.path))
            rows.append((experiment, str(user), name, x))
        with self._errors("write to"), immediate(self._con) as con:
            for row in rows:
                old = con.execute("SELECT value FROM pre_period WHERE experiment = ? AND "
                                  "user_id = ? AND name = ?", row[:3]).fetchone()
                if old is not None and old[0] != row[3]:
                    raise InputError(f"user {row[1]!r} already has pre-period {name!r} = "
                                     f"{old[0]!r} in experiment {experiment!r}; got {row[3]!r}",
                                     path=str(self.path))
            con.executemany("INSERT OR IGNORE INTO pre_period VALUES (?, ?, ?, ?)", rows)

    # -- reading ------------------------------------------------------------
    def __len__(self) -> int:
        with self._errors("read"):
            return self._con.execute("SELECT COUNT(*) FROM interactions").fetchone()[0]

    def to_pandas(self, *, experiment: str | None = None) -> pd.DataFrame:
        """Return the log as a DataFrame, one row per interaction, in insertion order.

        Columns: ``id``, ``experiment``, ``variant``, ``user_id``, ``query``,
        ``timestamp`` (datetime64, UTC), ``retrieved`` and ``clicks`` (lists of
        doc ids), ``feedback`` (nullable ``Int64``), the derived counts
        ``n_retrieved`` and ``n_clicks``, and one float column ``pre_<name>``
        per pre-period value recorded (NaN for a user without one).
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
        with self._errors("read"):
            pre = self._con.execute("SELECT experiment, user_id, name, value FROM pre_period"
                                    + (" WHERE experiment = ?" if params else ""),
                                    params).fetchall()
        if pre:
            wide = pd.DataFrame.from_records(pre, columns=["experiment", "user_id", "name",
                                                           "value"])
            wide = wide.pivot(index=["experiment", "user_id"], columns="name", values="value")
            wide.columns = [f"pre_{c}" for c in wide.columns]
            df = df.join(wide.astype("float64"), on=["experiment", "user_id"])
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
