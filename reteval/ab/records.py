"""The records of an A/B interaction log: what one is, how it is checked, how files are read.

One interaction is one query a user issued: the experiment, the variant the
user was in, the user id, the query text, a UTC timestamp, the ids of the
documents shown (in rank order), the ids of the clicked documents and the
optional explicit feedback (the chapter's 1 = satisfied, 0 = not).

A bad record (unknown experiment or variant, feedback outside the allowed
values, a missing field, a click on a document that was not shown, a
timestamp without a UTC offset, text that is not valid UTF-8 or holds a lone
surrogate) is rejected with an :class:`~reteval.errors.InputError` naming the
record (:func:`parse_record`). :func:`screen_file` reads a CSV or JSON Lines
file, keeps the good records and reports every rejected one in an
:class:`ImportReport`, including records that cannot be read at all
(undecodable bytes, invalid or non-strict JSON such as ``NaN`` or absurdly
deep nesting): nothing is dropped silently, and one bad record never aborts an
import. Files are read by the rule of :mod:`reteval.io.textfile` (gzip,
byte-order mark, LF/CR LF/CR line endings).

File formats
------------
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
import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

from reteval.ab.assignment import Experiment
from reteval.errors import InputError
from reteval.io.textfile import as_path, decode, iter_lines, parse_integer, parse_json, read_bytes

__all__ = ["ImportReport", "Interaction", "Rejection", "parse_record", "screen_file"]

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
        raise _Reject("feedback not allowed", f"feedback {_show(value, 40)} is not allowed; "
                      f"expected one of {', '.join(map(str, allowed))} or none")
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


def screen_file(path, experiments: Mapping[str, Experiment], *, experiment: str | None = None,
                format: str | None = None) -> tuple[list[Interaction], ImportReport]:
    """Read a CSV or JSON Lines log and check every record; keep the good ones.

    Parameters
    ----------
    path : str or Path
        The file; its format comes from the suffix (``.csv``, ``.jsonl``,
        ``.ndjson``, ``.json``) unless ``format`` is given.
    experiments : mapping of name to Experiment
        The designs the records may belong to.
    experiment : str, optional
        Experiment name for records without an ``experiment`` field.
    format : {"csv", "jsonl"}, optional

    Returns
    -------
    records : list of Interaction
        The good records, in file order.
    report : ImportReport
        Counts and, per rejected record, its line number and the reason
        (``n_imported`` counts the good records).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "log.jsonl"
    >>> _ = path.write_text(
    ...     '{"variant": "A", "user_id": "u1", "query": "q", "timestamp": "2024-05-01T12:00:00Z",'
    ...     ' "retrieved": ["d1"], "clicks": ["d1"]}\\n'
    ...     '{"variant": "Z", "user_id": "u2", "query": "q", "timestamp": "2024-05-01T12:00:00Z",'
    ...     ' "retrieved": ["d1"]}\\n')
    >>> good, report = screen_file(path, {"ab": Experiment("ab")}, experiment="ab")
    >>> [r.user_id for r in good], report.reasons
    (['u1'], {'unknown variant': 1})
    """
    path = as_path(path, "import path")
    if not path.is_file():
        raise InputError(f"log file {str(path)!r} does not exist")
    fmt = format or {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl",
                     ".json": "jsonl"}.get(path.suffix.lower())
    if fmt not in ("csv", "jsonl"):
        raise InputError(f"format must be 'csv' or 'jsonl'; got {format!r} for "
                         f"file suffix {path.suffix!r}")
    good, rejections, n_read = [], [], 0
    for line, raw in _read_records(path, fmt):
        n_read += 1
        try:
            if isinstance(raw, Exception):
                raise _Reject("unreadable", str(raw))
            if experiment is not None and raw.get("experiment") in (None, ""):
                raw = {**raw, "experiment": experiment}
            good.append(_check(raw, experiments))
        except _Reject as err:
            who = _describe(raw) if isinstance(raw, Mapping) else "record"
            rejections.append(Rejection(n_read, line, err.kind,
                                        f"{path}:{line}: {who}: {err.message}"))
    return good, ImportReport(str(path), n_read, len(good), tuple(rejections))


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
