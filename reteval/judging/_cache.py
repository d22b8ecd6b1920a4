"""The judgment cache: every grade a judge gave, kept so that it is never asked twice.

One SQLite file (:mod:`reteval._util.sqlitefile`: WAL, atomic writes, marked with its own
``application_id``). A grade is stored under a key that hashes the judge's name, its
prompt and the two texts, with the number of the sample, so that:

* judging a grown pool asks only the pairs not judged before;
* another judge, another prompt, or a changed query or document text is a new question;
* ids do not matter: the same texts under other ids are answered from the cache.

Failed answers are not stored: they are asked again next time.
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import datetime, timezone

from reteval._util.sqlitefile import FileKind, Translate, check_timeout, immediate, open_file
from reteval.errors import InputError
from reteval.io.textfile import as_path

__all__ = ["CACHE_APPLICATION_ID", "JudgmentCache", "cache_key"]

#: ``PRAGMA application_id`` of a judgment cache: the ASCII bytes "RETJ".
CACHE_APPLICATION_ID = 0x5245544A

_KIND = FileKind(
    "judgment cache", CACHE_APPLICATION_ID, 1,
    ("""CREATE TABLE answers (
        key TEXT NOT NULL,
        sample INTEGER NOT NULL,
        grade INTEGER NOT NULL,
        judge TEXT NOT NULL,
        created_utc TEXT NOT NULL,
        PRIMARY KEY (key, sample)
    ) WITHOUT ROWID""",),
    frozenset({"answers"}),
)

_CHUNK = 500  # keys per SELECT (SQLite's limit on parameters is 32766 or 999)


def cache_key(judge_name: str, prompt: str, query_text: str, doc_text: str) -> str:
    """The key of one question: SHA-256 of the judge's name, prompt and the two texts.

    Examples
    --------
    >>> cache_key("j", "", "q", "d") == cache_key("j", "", "q", "d")
    True
    >>> cache_key("j", "", "q", "d") == cache_key("k", "", "q", "d")
    False
    """
    text = json.dumps([judge_name, prompt, query_text, doc_text], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class JudgmentCache:
    """An open judgment cache (a context manager that closes it).

    Parameters
    ----------
    path : str or path-like
        The file; created when absent (its folder must exist).
    lock_timeout : float, default 30.0
        Seconds to wait for another process writing to the same cache.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "judgments.sqlite"
    >>> with JudgmentCache(path) as cache:
    ...     cache.store("k1", {1: 2}, judge="demo")
    ...     cache.lookup(["k1", "k2"])
    {('k1', 1): 2}
    """

    def __init__(self, path: str | os.PathLike, *, lock_timeout: float = 30.0):
        self.path = as_path(path, "judgment cache path")
        timeout = check_timeout(lock_timeout, "lock_timeout")
        if self.path.is_dir():
            raise InputError("is a directory, not a judgment cache file", path=self.path)
        if not self.path.parent.is_dir():
            raise InputError(f"cannot create the judgment cache: the folder "
                             f"{str(self.path.parent)!r} does not exist", path=self.path)
        self._timeout = timeout
        self._con = open_file(_KIND, self.path, timeout=timeout)

    def lookup(self, keys) -> dict[tuple[str, int], int]:
        """The stored grades of these keys, as ``{(key, sample): grade}``."""
        keys = list(dict.fromkeys(keys))
        found: dict[tuple[str, int], int] = {}
        with Translate(_KIND, self.path, "read", self._timeout):
            for start in range(0, len(keys), _CHUNK):
                chunk = keys[start:start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                for key, sample, grade in self._con.execute(
                    f"SELECT key, sample, grade FROM answers WHERE key IN ({marks})", chunk
                ):
                    found[(key, int(sample))] = int(grade)
        return found

    def store(self, key: str, grades: dict[int, int], *, judge: str) -> None:
        """Store the grades of one question (``{sample: grade}``) in one transaction."""
        if not grades:
            return
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        with Translate(_KIND, self.path, "write to", self._timeout), immediate(self._con):
            self._con.executemany(
                "INSERT OR REPLACE INTO answers (key, sample, grade, judge, created_utc) "
                "VALUES (?, ?, ?, ?, ?)",
                [(key, int(s), int(g), judge, now) for s, g in grades.items()],
            )

    def __len__(self) -> int:
        return self._con.execute("SELECT COUNT(*) FROM answers").fetchone()[0]

    def close(self) -> None:
        """Close the file (idempotent)."""
        self._con.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
