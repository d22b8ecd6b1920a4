"""The run behind each history entry, kept so that it can be scored again.

When only the judgments differ from a baseline entry's (the same query texts, the same
relevance level), :func:`rescore` scores the baseline's kept run again under the current
judgments, on the queries the baseline was scored on, and ``reteval monitor`` runs the
regression test on these values; a notice says so ("baseline entry 3 was evaluated on
other judgments (qrels differ); its run was scored again under the current judgments
for the regression check") and the entry records it (``baseline_rescored`` in its
parameters, the ``rescored`` column of ``reteval history``). A baseline without a kept
run keeps the skipped check and its notice; a run file gone or changed is named in it.

When next week's judgments differ from the ones a baseline entry was scored with (a judge
filled the holes a new retriever opened), the baseline's per-query values are not
comparable with today's. Its run, kept here, is scored again under today's judgments,
and the regression test runs on equal terms.

What is kept, by size (the compressed size, against ``max_bytes``):

``"full"``
    the whole run (query ids, document ids, scores), zlib-compressed JSON;
``"judged"``
    when the whole run is too large: the part a re-scoring needs, the rows of the judged
    queries, down to the deepest cutoff of the measures when every measure has one (and
    none reads a condensed list); a re-scoring of those measures under any judgments of
    those queries gives the values the whole run would;
``"file"``
    when that is too large too, or ``max_bytes`` is 0: the run file's path and SHA-256,
    read again (and checked) when needed; nothing for a run that is not a file.

Storage: the table ``runs`` of the history, one row per entry, written in the entry's own
transaction (:meth:`reteval.monitor.history.HistoryStore.append`). The table is created by
the first write that keeps a run (``CREATE TABLE IF NOT EXISTS``, inside that
transaction), so a history written before has none and its entries have no run: a
baseline without a run keeps the skipped regression check and its notice. A reteval that
does not know the table ignores it.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import warnings
import zlib
from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from reteval.errors import InputError

__all__ = ["RUNS_TABLE", "KeptRun", "keep_run", "kept_run", "load_kept", "rescore",
           "store_kept"]

RUNS_TABLE = """CREATE TABLE IF NOT EXISTS runs (
    entry_id INTEGER PRIMARY KEY REFERENCES entries (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    data BLOB,
    path TEXT,
    sha256 TEXT NOT NULL,
    rows INTEGER NOT NULL
)"""

_KINDS = ("full", "judged", "file")


@dataclass(frozen=True)
class KeptRun:
    """A run as the history keeps it.

    Attributes
    ----------
    kind : {"full", "judged", "file"}
    data : bytes or None
        zlib-compressed JSON ``{"query_id": [...], "doc_id": [...], "score": [...]}``
        (``"full"`` and ``"judged"``).
    path : str or None
        The run file (``"file"``; recorded for the others too when there is one).
    sha256 : str
        Of the uncompressed JSON, or of the file's bytes for ``"file"``.
    rows : int
        Rows kept (for ``"file"``: rows of the run).
    """

    kind: str
    data: bytes | None
    path: str | None
    sha256: str
    rows: int

    @property
    def size(self) -> int:
        """Bytes stored in the history."""
        return 0 if self.data is None else len(self.data)


def _pack(frame: pd.DataFrame) -> tuple[bytes, str]:
    doc = {"query_id": [str(q) for q in frame["query_id"].tolist()],
           "doc_id": [str(d) for d in frame["doc_id"].tolist()],
           "score": [float(s) for s in frame["score"].tolist()]}
    text = json.dumps(doc, ensure_ascii=False, allow_nan=False).encode("utf-8")
    return zlib.compress(text, 6), hashlib.sha256(text).hexdigest()


def _judged_part(run: pd.DataFrame, judged_queries, measures) -> pd.DataFrame:
    """The judged queries' rows, down to the deepest cutoff when every measure has one."""
    from reteval import parse_measure
    from reteval.io import sort_run

    part = sort_run(run[run["query_id"].astype(str).isin(set(judged_queries))])
    parsed = (list(measures.values()) if isinstance(measures, Mapping)
              else [parse_measure(m) for m in measures])
    if parsed and all(m.cutoff is not None and not m.judged_only for m in parsed):
        depth = max(m.cutoff for m in parsed)
        part = part[part.groupby("query_id", sort=False).cumcount() < depth]
    return part


def _file_sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def keep_run(run: pd.DataFrame, *, judged_queries, measures, max_bytes: int,
             path: str | None = None) -> KeptRun | None:
    """What to keep of `run`: the whole of it, its judged part, or its file's path and hash.

    Parameters
    ----------
    run : pandas.DataFrame
        The run table (``query_id``, ``doc_id``, ``score``).
    judged_queries : iterable of str
        The queries of the judgments it was scored with.
    measures : sequence of str, or mapping
        The measures it was scored with: names, or ``{label: Measure}`` parsed already.
    max_bytes : int
        The largest compressed size stored in the history (0: never store the rows). A
        table of more rows than `max_bytes` is taken as too large without compressing it.
    path : str, optional
        The run file it came from, if any.

    Returns
    -------
    KeptRun or None
        None when nothing can be kept (too large, and not from a file).

    Examples
    --------
    >>> run = pd.DataFrame({"query_id": ["q1", "q1", "q2"], "doc_id": ["a", "b", "c"],
    ...                     "score": [2.0, 1.0, 1.0]})
    >>> keep_run(run, judged_queries=["q1"], measures=["P@1"], max_bytes=10**6).kind
    'full'
    >>> kept = keep_run(run, judged_queries=["q1"], measures=["P@1"], max_bytes=60)
    >>> kept.kind, kept.rows, load_kept(kept)["doc_id"].tolist()
    ('judged', 1, ['a'])
    >>> keep_run(run, judged_queries=["q1"], measures=["P@1"], max_bytes=0) is None
    True
    """
    if max_bytes > 0:
        # a table of more rows than max_bytes is taken as too large without packing it
        if len(run) <= max_bytes:
            data, sha = _pack(run)
            if len(data) <= max_bytes:
                return KeptRun("full", data, path, sha, len(run))
        part = _judged_part(run, judged_queries, measures)
        if len(part) <= max_bytes:
            data, sha = _pack(part)
            if len(data) <= max_bytes:
                return KeptRun("judged", data, path, sha, len(part))
    if path is not None and os.path.isfile(path):
        return KeptRun("file", None, path, _file_sha256(path), len(run))
    return None


def load_kept(kept: KeptRun) -> pd.DataFrame:
    """The run table of a kept run.

    Raises
    ------
    InputError
        For a ``"file"`` run whose file is gone or changed (its SHA-256 differs), or
        kept data that does not match its hash.
    """
    from reteval.io import as_run

    if kept.kind == "file":
        if not kept.path or not os.path.isfile(kept.path):
            raise InputError(f"its run file {kept.path!r} is gone")
        if _file_sha256(kept.path) != kept.sha256:
            raise InputError(f"its run file {kept.path!r} has changed since")
        return as_run(kept.path)
    text = zlib.decompress(kept.data)
    if hashlib.sha256(text).hexdigest() != kept.sha256:
        raise InputError("its kept run does not match its SHA-256 (the history is damaged)")
    return as_run(pd.DataFrame(json.loads(text.decode("utf-8"))))


def store_kept(con: sqlite3.Connection, entry_id: int, kept: KeptRun) -> None:
    """Write `kept` for an entry; call inside the entry's write transaction."""
    con.execute(RUNS_TABLE)
    con.execute("INSERT INTO runs (entry_id, kind, data, path, sha256, rows) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (entry_id, kept.kind, kept.data, kept.path, kept.sha256, int(kept.rows)))


def kept_run(con: sqlite3.Connection, entry_id: int) -> KeptRun | None:
    """The run kept for an entry; None when there is none (or no table: an older history)."""
    exists = con.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'").fetchone()
    if exists is None:
        return None
    row = con.execute("SELECT kind, data, path, sha256, rows FROM runs WHERE entry_id = ?",
                      (entry_id,)).fetchone()
    if row is None or row[0] not in _KINDS:
        return None
    kind, data, path, sha, rows = row
    return KeptRun(kind, None if data is None else bytes(data), path, str(sha), int(rows))


def rescore(store, base, fingerprint, qrels, measures, *, relevance_level: int):
    """The baseline entry's per-query values under the current judgments, or why not.

    Parameters
    ----------
    store : HistoryStore
    base : Entry
        The baseline entry.
    fingerprint : DatasetFingerprint
        Of the current judgments and query texts.
    qrels : pandas.DataFrame
        The current judgments.
    measures : sequence of str
    relevance_level : int

    Returns
    -------
    (pandas.DataFrame or None, str or None)
        The values (index ``query_id``: the queries the baseline was scored on), or None
        and the reason: None when the re-scoring does not apply (something else than the
        judgments differs) or the entry kept no run, a text when its run cannot be read.
    """
    from reteval.evaluation.engine import evaluate

    level = base.parameters.get("relevance_level")
    if fingerprint.differences(base.fingerprint) != ("qrels",) or level not in (
            None, relevance_level):
        return None, None
    kept = store.kept_run(base.id)
    if kept is None:
        return None, None
    try:
        run = load_kept(kept)
    except InputError as exc:
        return None, str(exc)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the current run's evaluation has said it already
        values = evaluate(qrels, run, measures if isinstance(measures, Mapping)
                          else list(measures), relevance_level=relevance_level)
    queries = set(store.per_query(base.id).index)
    values.index = pd.Index([str(q) for q in values.index], name="query_id")
    return values[values.index.isin(queries)], None
