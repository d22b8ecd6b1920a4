"""The evaluation history: one SQLite file that many processes can share.

Every evaluation the monitor runs becomes one *entry*: who was evaluated
(the retriever's name), on what (a :class:`~reteval.monitor.fingerprint.DatasetFingerprint`),
how (the parameters, the reteval version), when (a UTC timestamp), with which
result (per-query and aggregate values of every measure) and which alerts it
raised.

Storage decisions
-----------------
* One SQLite file, in WAL mode: readers (``reteval history``, a notebook) never
  block the writer and the writer never blocks them. Writers take turns:
  a second writer waits up to ``lock_timeout`` seconds (SQLite's
  ``busy_timeout``) and then fails with :class:`HistoryLockedError`.
* Each entry is written in **one transaction** (``BEGIN IMMEDIATE`` ...
  ``COMMIT``): the entry row, its per-query rows, its aggregate rows and its
  alert rows appear together or not at all. A process killed in the middle
  (even with SIGKILL) leaves the file as it was before the entry.
  ``synchronous=FULL`` makes a committed entry survive a power cut too.
* The schema is versioned with ``PRAGMA user_version`` (currently
  :data:`SCHEMA_VERSION`) and the file is marked with
  ``PRAGMA application_id`` (:data:`APPLICATION_ID`, ASCII "RETV"), so that a
  file from a newer reteval, or an SQLite file that is not a history, is
  refused with a clear message instead of being misread.
* Entry ids increase in commit order; "latest" means the highest id.

Tables (schema version 1)::

    entries(id, created_utc, retriever, dataset_name, fingerprint, qrels_sha256,
            queries_sha256, reteval_version, parameters JSON, measures JSON,
            num_queries, notices JSON)
    query_scores(entry_id, query_id, measure, value)
    aggregates(entry_id, measure, value)
    alerts(entry_id, position, kind, measure, message, value, reference,
           pvalue, baseline_id)
    runs(entry_id, kind, data, path, sha256, rows)    the run behind an entry,
        created by the first entry that keeps one (see reteval.monitor.runstore)

Opening, locking and the schema checks are :mod:`reteval._util.sqlitefile`'s, shared
with the A/B interaction log. Errors name the file: :class:`HistoryError`, an
:class:`~reteval.errors.InputError` (missing, corrupt, not a history, too new)
and :class:`HistoryLockedError` (another process holds the write lock beyond
the timeout).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone

import numpy as np
import pandas as pd

from reteval._util.sqlitefile import FileKind, Translate, check_timeout, immediate, open_file
from reteval.errors import InputError
from reteval.io.textfile import INT64_MAX, as_path
from reteval.monitor.alerts import Alert
from reteval.monitor.entry import Entry, entry_fields, stored_number, utc_text
from reteval.monitor.fingerprint import DatasetFingerprint
from reteval.monitor.runstore import KeptRun, kept_run, store_kept

__all__ = [
    "APPLICATION_ID",
    "NAMED_BASELINES",
    "SCHEMA_VERSION",
    "Entry",
    "HistoryError",
    "HistoryLockedError",
    "HistoryStore",
    "open_history",
]

#: Baselines named rather than given by id: the latest entry of the name, the latest that
#: raised no threshold or regression alert, the first.
NAMED_BASELINES = ("latest", "last-good", "first")

#: Version of the table layout, stored as ``PRAGMA user_version``.
SCHEMA_VERSION = 1

#: ``PRAGMA application_id`` of a reteval history: the ASCII bytes "RETV".
APPLICATION_ID = 0x52455456

_SCHEMA = (
    """CREATE TABLE entries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        created_utc TEXT NOT NULL,
        retriever TEXT NOT NULL,
        dataset_name TEXT,
        fingerprint TEXT NOT NULL,
        qrels_sha256 TEXT NOT NULL,
        queries_sha256 TEXT,
        reteval_version TEXT NOT NULL,
        parameters TEXT NOT NULL,
        measures TEXT NOT NULL,
        num_queries INTEGER NOT NULL,
        notices TEXT NOT NULL
    )""",
    "CREATE INDEX entries_by_retriever ON entries (retriever, id)",
    """CREATE TABLE query_scores (
        entry_id INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
        query_id TEXT NOT NULL,
        measure TEXT NOT NULL,
        value REAL,
        PRIMARY KEY (entry_id, measure, query_id)
    ) WITHOUT ROWID""",
    """CREATE TABLE aggregates (
        entry_id INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
        measure TEXT NOT NULL,
        value REAL,
        PRIMARY KEY (entry_id, measure)
    ) WITHOUT ROWID""",
    """CREATE TABLE alerts (
        entry_id INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        kind TEXT NOT NULL,
        measure TEXT,
        message TEXT NOT NULL,
        value REAL,
        reference REAL,
        pvalue REAL,
        baseline_id INTEGER,
        PRIMARY KEY (entry_id, position)
    ) WITHOUT ROWID""",
)


class HistoryError(InputError):
    """A history file that cannot be used: missing, corrupt, not a history, too new.

    The message starts with the path; :attr:`path` holds it.
    """

    def __init__(self, message: str, *, path):
        super().__init__(message, path=path)


class HistoryLockedError(HistoryError):
    """Another process held the history's write lock for longer than the timeout."""


_KIND = FileKind("history", APPLICATION_ID, SCHEMA_VERSION, _SCHEMA,
                 frozenset({"entries", "query_scores", "aggregates", "alerts", "sqlite_sequence"}),
                 error=HistoryError, locked_error=HistoryLockedError)


# Every numeric column and what it holds, as verify() and the readers check them.
_NUMBER_COLUMNS = (("aggregates", "value", "the aggregate of {}"),
                   ("query_scores", "value", "a per-query value of {}"),
                   ("alerts", "value", "an alert's value"),
                   ("alerts", "reference", "an alert's reference"),
                   ("alerts", "pvalue", "an alert's p-value"))


def _real(value) -> float | None:
    if value is None:
        return None
    value = float(value)
    return None if math.isnan(value) else value


class HistoryStore:
    """An open history file. Use :func:`open_history` to get one.

    The store is a context manager that closes the connection. It is meant to
    be used from one thread; open one store per thread or process.
    """

    def __init__(self, path, *, create: bool = False, lock_timeout: float = 5.0):
        self.path = as_path(path, "history path")
        self.lock_timeout = check_timeout(lock_timeout, "lock_timeout")
        if not create and not self.path.is_file():
            if self.path.is_dir():
                raise HistoryError("is a directory, not a history file", path=self.path)
            raise HistoryError(
                "no such history file (reteval monitor creates it on its first evaluation)",
                path=self.path,
            )
        if create and not self.path.parent.is_dir():
            raise HistoryError(
                f"cannot create the history: the folder {str(self.path.parent)!r} does not exist",
                path=self.path,
            )
        self._con = open_file(_KIND, self.path, timeout=self.lock_timeout, create=create)

    # ------------------------------------------------------------------ plumbing

    def _errors(self, doing: str) -> Translate:
        return Translate(_KIND, self.path, doing, self.lock_timeout)

    def close(self) -> None:
        """Close the connection (idempotent)."""
        self._con.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<HistoryStore {str(self.path)!r}>"

    # ------------------------------------------------------------------ writing

    def append(
        self,
        *,
        retriever: str,
        per_query: pd.DataFrame,
        fingerprint: DatasetFingerprint,
        parameters: Mapping | None = None,
        dataset_name: str | None = None,
        alerts: Sequence[Alert] = (),
        notices: Sequence[str] = (),
        aggregates: Mapping[str, float] | None = None,
        created_utc: datetime | None = None,
        reteval_version: str | None = None,
        run: KeptRun | None = None,
    ) -> Entry:
        """Record one evaluation, atomically.

        Parameters
        ----------
        retriever : str
            Name of the evaluated system.
        per_query : pandas.DataFrame
            Index ``query_id``, one column per measure (canonical names), as
            :func:`reteval.evaluate` returns.
        fingerprint : DatasetFingerprint
        parameters : mapping, optional
            JSON-serialisable parameters of the evaluation.
        dataset_name : str, optional
        alerts : sequence of Alert
        notices : sequence of str
        aggregates : mapping of str to float, optional
            Default: :func:`reteval.aggregate` of ``per_query``.
        created_utc : datetime, optional
            Timezone-aware; default: now.
        reteval_version : str, optional
            Default: the running reteval's version.
        run : KeptRun, optional
            The evaluated run as kept (:func:`reteval.monitor.runstore.keep_run`),
            written in the same transaction.

        Returns
        -------
        Entry
            The entry as stored, with its new id.

        Raises
        ------
        InputError
            An empty name, an empty table, or parameters that are not JSON.
        HistoryLockedError
            The write lock was not obtained within ``lock_timeout`` seconds.
        """
        if not isinstance(retriever, str) or not retriever.strip():
            raise InputError(f"retriever must be a non-empty str; got {retriever!r}")
        if not isinstance(per_query, pd.DataFrame) or per_query.empty:
            raise InputError("per_query must be a non-empty DataFrame of per-query values")
        measures = [str(c) for c in per_query.columns]
        if len(set(measures)) != len(measures):
            raise InputError(f"per_query has duplicate measure columns: {measures}")
        if aggregates is None:
            from reteval.evaluation.engine import aggregate

            aggregates = aggregate(per_query).to_dict()
        missing = [m for m in measures if m not in aggregates]
        if missing:
            raise InputError(f"aggregates lack the measures {missing}")
        try:
            parameters_json = json.dumps(dict(parameters or {}), sort_keys=True, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise InputError(f"parameters must be JSON-serialisable: {exc}") from None
        if reteval_version is None:
            from reteval.version import __version__ as reteval_version
        created = datetime.now(timezone.utc) if created_utc is None else created_utc
        created_text = utc_text(created)
        query_ids = [str(q) for q in per_query.index]
        values = per_query.to_numpy(dtype=np.float64)
        score_rows = [
            (measure, query_ids[i], _real(values[i, j]))
            for j, measure in enumerate(measures)
            for i in range(len(query_ids))
        ]
        alerts = tuple(alerts)
        notices = tuple(str(n) for n in notices)

        con = self._con
        with self._errors("write an entry to"), immediate(con):
            self._check_pages("append to")  # never write into a damaged file
            cursor = con.execute(
                "INSERT INTO entries (created_utc, retriever, dataset_name, fingerprint, "
                "qrels_sha256, queries_sha256, reteval_version, parameters, measures, "
                "num_queries, notices) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    created_text, retriever, dataset_name, fingerprint.digest,
                    fingerprint.qrels_sha256, fingerprint.queries_sha256,
                    str(reteval_version), parameters_json, json.dumps(measures),
                    len(query_ids), json.dumps(list(notices), ensure_ascii=False),
                ),
            )
            entry_id = cursor.lastrowid
            con.executemany(
                "INSERT INTO query_scores (entry_id, measure, query_id, value) "
                "VALUES (?, ?, ?, ?)",
                ((entry_id, *row) for row in score_rows),
            )
            con.executemany(
                "INSERT INTO aggregates (entry_id, measure, value) VALUES (?, ?, ?)",
                ((entry_id, m, _real(aggregates[m])) for m in measures),
            )
            if run is not None:
                store_kept(con, entry_id, run)
            con.executemany(
                "INSERT INTO alerts (entry_id, position, kind, measure, message, value, "
                "reference, pvalue, baseline_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    (entry_id, i, a.kind, a.measure, a.message, _real(a.value),
                     _real(a.reference), _real(a.pvalue), a.baseline_id)
                    for i, a in enumerate(alerts)
                ),
            )
        return self.entry(entry_id)

    # ------------------------------------------------------------------ reading

    def _rows_to_entries(self, rows) -> list[Entry]:
        if not rows:
            return []
        ids = [r[0] for r in rows]
        marks = ",".join("?" * len(ids))
        aggregates: dict[int, dict[str, float]] = {i: {} for i in ids}
        damaged = {}
        for entry_id, measure, value in self._con.execute(
            f"SELECT entry_id, measure, value FROM aggregates WHERE entry_id IN ({marks})", ids
        ):
            try:
                aggregates[entry_id][measure] = stored_number(value, f"the aggregate of "
                                                              f"{measure!r:.40}")
            except ValueError as exc:
                damaged.setdefault(entry_id, str(exc))
        alerts: dict[int, list[Alert]] = {i: [] for i in ids}
        for entry_id, kind, message, measure, *numbers, baseline in self._con.execute(
            "SELECT entry_id, kind, message, measure, value, reference, pvalue, baseline_id "
            f"FROM alerts WHERE entry_id IN ({marks}) ORDER BY entry_id, position",
            ids,
        ):
            try:
                numbers = [None if v is None else stored_number(v, f"an alert's {name}")
                           for v, name in zip(numbers, ("value", "reference", "p-value"),
                                              strict=True)]
            except ValueError as exc:
                damaged.setdefault(entry_id, str(exc))
                continue
            alerts[entry_id].append(Alert(kind, message, measure, *numbers, baseline))
        entries = []
        for row in rows:
            try:
                fields = entry_fields(row)
                if row[0] in damaged:
                    raise ValueError(damaged[row[0]])
            except (TypeError, ValueError) as exc:
                raise HistoryError(
                    f"entry {row[0]!r} is damaged: {exc}; 'reteval history --check' lists the "
                    "problems", path=self.path,
                ) from None
            entry_id, measures = fields["id"], fields["measures"]
            entries.append(Entry(
                **fields,
                aggregates={m: aggregates[entry_id].get(m, math.nan) for m in measures},
                alerts=tuple(alerts[entry_id]),
            ))
        return entries

    _ENTRY_COLUMNS = (
        "id, created_utc, retriever, dataset_name, fingerprint, qrels_sha256, queries_sha256, "
        "reteval_version, parameters, measures, num_queries, notices"
    )

    def entries(self, *, retriever: str | None = None) -> list[Entry]:
        """All entries in id order, optionally only those of one retriever."""
        with self._errors("read"):
            sql = f"SELECT {self._ENTRY_COLUMNS} FROM entries"
            args: tuple = ()
            if retriever is not None:
                sql += " WHERE retriever = ?"
                args = (retriever,)
            rows = self._con.execute(sql + " ORDER BY id", args).fetchall()
            return self._rows_to_entries(rows)

    def entry(self, entry_id: int) -> Entry:
        """The entry with this id.

        Raises
        ------
        InputError
            No entry has this id.
        """
        with self._errors("read"):
            rows = []
            if 1 <= int(entry_id) <= INT64_MAX:  # SQLite ids are 64-bit
                rows = self._con.execute(
                    f"SELECT {self._ENTRY_COLUMNS} FROM entries WHERE id = ?", (int(entry_id),)
                ).fetchall()
            if not rows:
                last = self._con.execute("SELECT max(id) FROM entries").fetchone()[0]
                raise InputError(
                    f"no entry {entry_id} in the history "
                    + ("(it is empty)" if last is None else f"(ids go up to {last})"),
                    path=self.path,
                )
            return self._rows_to_entries(rows)[0]

    def find(self, which: str | int, *, retriever: str | None = None) -> Entry | None:
        """Resolve a baseline name: ``"latest"``, ``"last-good"``, ``"first"`` or an entry id.

        ``"last-good"`` is the latest entry that raised no threshold or regression alert
        (an alert that the dataset changed says nothing of the quality). ``"latest"``,
        ``"last-good"`` and ``"first"`` look only at entries of ``retriever`` when it is
        given, and return ``None`` when there are none. An id must exist (whatever its
        retriever).
        """
        if isinstance(which, (int, np.integer)) and not isinstance(which, bool):
            return self.entry(int(which))
        text = str(which).strip().lower()
        if text.isascii() and text.isdigit():
            return self.entry(int(text))
        if text not in NAMED_BASELINES:
            raise InputError(f"baseline must be 'latest', 'last-good', 'first' or an entry id; "
                             f"got {which!r}")
        order = "ASC" if text == "first" else "DESC"
        conditions, args = [], []
        if retriever is not None:
            conditions.append("retriever = ?")
            args.append(retriever)
        if text == "last-good":
            conditions.append("NOT EXISTS (SELECT 1 FROM alerts WHERE alerts.entry_id = "
                              "entries.id AND alerts.kind IN ('threshold', 'regression'))")
        where = f" WHERE {' AND '.join(conditions)}" if conditions else ""
        with self._errors("read"):
            row = self._con.execute(f"SELECT id FROM entries{where} ORDER BY id {order} LIMIT 1",
                                    tuple(args)).fetchone()
        return None if row is None else self.entry(row[0])

    def per_query(self, entry_id: int) -> pd.DataFrame:
        """Per-query values of an entry: index ``query_id`` (sorted), one column per measure."""
        entry = self.entry(entry_id)
        with self._errors("read"):
            rows = self._con.execute(
                "SELECT query_id, measure, value FROM query_scores WHERE entry_id = ?",
                (entry.id,),
            ).fetchall()
        frame = pd.DataFrame(rows, columns=["query_id", "measure", "value"])
        try:
            values = [stored_number(v, f"a per-query value of {m!r:.40}")
                      for m, v in zip(frame["measure"], frame["value"], strict=True)]
        except ValueError as exc:
            raise HistoryError(f"entry {entry.id} is damaged: {exc}; 'reteval history --check' "
                               "lists the problems", path=self.path) from None
        frame["value"] = np.array(values, dtype=np.float64)
        table = frame.pivot(index="query_id", columns="measure", values="value")
        table = table.reindex(columns=list(entry.measures)).sort_index()
        table.index = pd.Index([str(q) for q in table.index], name="query_id")
        table.columns.name = None
        return table.astype(np.float64)

    def kept_run(self, entry_id: int) -> KeptRun | None:
        """The run kept with an entry, or None (an entry written before runs were kept)."""
        with self._errors("read"):
            return kept_run(self._con, int(entry_id))

    def __len__(self) -> int:
        with self._errors("read"):
            return int(self._con.execute("SELECT count(*) FROM entries").fetchone()[0])

    def _check_pages(self, doing: str) -> None:
        damage = [r[0] for r in self._con.execute("PRAGMA quick_check(3)")]
        if damage != ["ok"]:
            first = " ".join(damage[0].split())  # one line, however SQLite words it
            raise HistoryError(
                f"the history is damaged, so reteval will not {doing} it ({first:.160}); "
                "'reteval history --check' lists the problems: restore the file from a "
                "backup or start a new history", path=self.path)

    def check_pages(self) -> None:
        """Raise :class:`HistoryError` if SQLite finds damaged pages (``PRAGMA quick_check``).

        :meth:`append` makes this check inside its write transaction, and
        ``reteval history`` before it prints anything: a damaged file is never
        appended to, nor shown as a table of gaps.
        """
        with self._errors("check"):
            self._check_pages("read")

    def verify(self) -> list[str]:
        """Check the file and every entry; return the problems found (empty if none).

        Runs SQLite's ``integrity_check`` and ``foreign_key_check``, checks the
        type of every field of every entry (``measures`` a list of distinct
        names, ``num_queries`` a count, ...), and that every entry has exactly
        ``num_queries`` values per measure and one aggregate per measure.
        """
        problems = []
        with self._errors("check"):
            result = [r[0] for r in self._con.execute("PRAGMA integrity_check")]
            if result != ["ok"]:
                problems.extend(f"integrity: {' '.join(r.split())}" for r in result)
            for table, rowid, parent, _ in self._con.execute("PRAGMA foreign_key_check"):
                problems.append(f"{table} row {rowid} refers to a missing {parent} row")
            rows = self._con.execute(
                f"SELECT {self._ENTRY_COLUMNS}, "
                "(SELECT count(*) FROM query_scores q WHERE q.entry_id = e.id), "
                "(SELECT count(*) FROM aggregates a WHERE a.entry_id = e.id) FROM entries e "
                "ORDER BY id"
            ).fetchall()
            for table, column, what in _NUMBER_COLUMNS:
                measure = "measure" if "{}" in what else "NULL"
                for entry_id, name, value in self._con.execute(
                    f"SELECT entry_id, {measure}, {column} FROM {table} WHERE typeof({column}) "
                    "NOT IN ('real', 'integer', 'null') ORDER BY entry_id LIMIT 20"
                ):
                    label = what.format(repr(name)[:40]) if name is not None else what
                    problems.append(f"entry {entry_id}: {label} is not a number: {value!r:.60}")
        for *row, n_scores, n_aggregates in rows:
            entry_id = row[0]
            try:
                fields = entry_fields(row)
            except (TypeError, ValueError) as exc:
                problems.append(f"entry {entry_id}: {exc}")
                continue
            k, num_queries = len(fields["measures"]), fields["num_queries"]
            if n_scores != k * num_queries:
                problems.append(
                    f"entry {entry_id}: {n_scores} per-query values, expected "
                    f"{k} measures x {num_queries} queries = {k * num_queries}"
                )
            if n_aggregates != k:
                problems.append(f"entry {entry_id}: {n_aggregates} aggregates, expected {k}")
        return problems


def open_history(path, *, create: bool = False, lock_timeout: float = 5.0) -> HistoryStore:
    """Open a history file.

    Parameters
    ----------
    path : str or path-like
        The SQLite file.
    create : bool, default False
        Create the file (and its schema) if it does not exist. Without it a
        missing file is an error.
    lock_timeout : float, default 5.0
        Seconds to wait for another process's write lock before
        :class:`HistoryLockedError`.

    Returns
    -------
    HistoryStore

    Raises
    ------
    HistoryError
        Missing (without ``create``), corrupt or foreign file, or a newer schema.
    HistoryLockedError
        The file stayed locked for longer than ``lock_timeout``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from reteval import evaluate
    >>> from reteval.monitor.fingerprint import fingerprint
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> per_query = evaluate(qrels, {"q1": ["d1"], "q2": ["d9", "d2"]}, ["RR"])
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "history.sqlite"
    >>> with open_history(path, create=True) as store:
    ...     entry = store.append(retriever="bm25", per_query=per_query,
    ...                          fingerprint=fingerprint(qrels))
    ...     print(entry.id, entry.aggregates, len(store))
    1 {'RR': 0.75} 1
    >>> with open_history(path) as store:
    ...     store.per_query(1)
              RR
    query_id
    q1        1.0
    q2        0.5
    """
    return HistoryStore(path, create=create, lock_timeout=lock_timeout)

