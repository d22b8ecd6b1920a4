"""One entry of the history: the record, and how its fields are stored and read back.

An entry's row of the ``entries`` table holds its timestamp as UTC text
(:func:`utc_text`), its lists and parameters as JSON and its names as text;
:func:`entry_fields` reads a row back and checks each field, so that a file
damaged by hand is reported by field instead of misread. A stored number is
read by :func:`stored_number` (NULL is NaN).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import datetime, timezone

from reteval.errors import InputError
from reteval.monitor.alerts import Alert
from reteval.monitor.fingerprint import DatasetFingerprint

__all__ = ["Entry", "entry_fields", "stored_number", "utc_text"]


@dataclass(frozen=True)
class Entry:
    """One recorded evaluation (without its per-query values; see
    :meth:`reteval.monitor.history.HistoryStore.per_query`).

    Attributes
    ----------
    id : int
    created_utc : datetime.datetime
        When the entry was recorded, timezone-aware UTC.
    retriever : str
        The evaluated system's name; "latest" baselines are chosen per name.
    dataset_name : str or None
    fingerprint : DatasetFingerprint
    reteval_version : str
    parameters : dict
        The evaluation's parameters as recorded (JSON-compatible).
    measures : tuple of str
        Canonical measure names, in evaluation order.
    num_queries : int
    aggregates : dict of str to float
        Aggregate value per measure.
    alerts : tuple of Alert
    notices : tuple of str
        Things the run reported without alerting (e.g. a skipped comparison).
    """

    id: int
    created_utc: datetime
    retriever: str
    dataset_name: str | None
    fingerprint: DatasetFingerprint
    reteval_version: str
    parameters: dict = field(hash=False)
    measures: tuple[str, ...]
    num_queries: int
    aggregates: dict = field(hash=False)
    alerts: tuple[Alert, ...] = ()
    notices: tuple[str, ...] = ()


def utc_text(moment: datetime) -> str:
    """A timezone-aware moment as the history stores it: UTC, to the microsecond.

    Examples
    --------
    >>> from datetime import timedelta
    >>> utc_text(datetime(2024, 5, 1, 8, 30, tzinfo=timezone(timedelta(hours=8))))
    '2024-05-01T00:30:00.000000Z'
    """
    if moment.tzinfo is None:
        raise InputError(f"created_utc must be timezone-aware; got naive {moment!r}")
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _parse_utc(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)


def _json_field(text, name: str, kind: type, item: type | None = None):
    if not isinstance(text, str):
        raise TypeError(f"{name} is {type(text).__name__}, not JSON text")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise ValueError(f"{name} is not valid JSON") from None
    if not isinstance(value, kind) or (item is not None and not all(
            isinstance(v, item) for v in value)):
        what = f"a list of {item.__name__}" if item else kind.__name__
        raise ValueError(f"{name} is not {what}: {text!r:.60}")
    return value


def _text_field(value, name: str, *, optional: bool = False, empty: bool = False):
    if value is None and optional:
        return None
    if not isinstance(value, str) or (not empty and not value):
        raise ValueError(f"{name} is not a non-empty text: {value!r:.60}")
    return value


def entry_fields(row) -> dict:
    """The checked fields of one ``entries`` row; ValueError names the first bad field.

    Examples
    --------
    >>> row = (3, "2024-05-01T00:30:00.000000Z", "bm25", None, "f00d", "ab12", None, "0.1",
    ...        "{}", '["RR", "AP"]', 2, "[]")
    >>> fields = entry_fields(row)
    >>> fields["created_utc"].isoformat(), fields["measures"]
    ('2024-05-01T00:30:00+00:00', ('RR', 'AP'))
    >>> entry_fields(row[:9] + ('["RR", "RR"]',) + row[10:])
    Traceback (most recent call last):
    ...
    ValueError: measures is not a list of distinct names: ['RR', 'RR']
    """
    (entry_id, created, retriever, dataset_name, _digest, qrels_sha, queries_sha,
     version, parameters, measures, num_queries, notices) = row
    if isinstance(num_queries, bool) or not isinstance(num_queries, int) or num_queries < 0:
        raise ValueError(f"num_queries is not a count: {num_queries!r:.60}")
    try:
        created_utc = _parse_utc(_text_field(created, "created_utc"))
    except (TypeError, ValueError):
        raise ValueError(f"created_utc is not a UTC timestamp: {created!r:.60}") from None
    measures = _json_field(measures, "measures", list, str)
    if not measures or len(set(measures)) != len(measures) or not all(measures):
        raise ValueError(f"measures is not a list of distinct names: {measures!r:.60}")
    return {
        "id": entry_id,
        "created_utc": created_utc,
        "retriever": _text_field(retriever, "retriever"),
        "dataset_name": _text_field(dataset_name, "dataset_name", optional=True, empty=True),
        "fingerprint": DatasetFingerprint(_text_field(qrels_sha, "qrels_sha256"),
                                       _text_field(queries_sha, "queries_sha256", optional=True)),
        "reteval_version": _text_field(version, "reteval_version"),
        "parameters": _json_field(parameters, "parameters", dict),
        "measures": tuple(measures),
        "num_queries": num_queries,
        "notices": tuple(_json_field(notices, "notices", list, str)),
    }


def stored_number(value, what: str) -> float:
    """A stored REAL (NULL is NaN); text or bytes put there by hand is a ValueError.

    Examples
    --------
    >>> stored_number(None, "a value"), stored_number(1, "a value")
    (nan, 1.0)
    """
    if value is None:
        return math.nan
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{what} is not a number: {value!r:.60}")  # noqa: TRY004 (bad data)
    return float(value)
