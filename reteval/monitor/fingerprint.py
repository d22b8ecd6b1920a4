"""Dataset fingerprints: has the test collection changed since the baseline?

Two evaluations can only be compared query by query when they ran on the same
judgments and the same query texts. A fingerprint is a sha256 digest of a
canonical serialisation of the qrels and, when known, of the queries, so that
the order of lines in a file, the file format (TREC or BEIR) or the way the
data was loaded does not change it, and any changed grade, added judgment or
edited query text does.

Canonical form (version 1), UTF-8 encoded:

* qrels: one line per judgment, sorted by ``(query_id, doc_id)``, each the
  compact JSON array ``["query_id","doc_id",relevance]`` followed by ``\\n``;
* queries: one line per query, sorted by ``query_id``, each
  ``["query_id","text"]`` followed by ``\\n`` (JSON with ``ensure_ascii=False``
  and no spaces, so that any character, tab or newline in a text is unambiguous).

The combined fingerprint is the sha256 of
``"reteval-dataset-v1\\nqrels <qrels digest>\\nqueries <queries digest or ->\\n"``.
The corpus is not part of the fingerprint: documents change what a retriever
can find, not what the judgments say, and hashing a large corpus at every
evaluation would cost more than the evaluation.
"""

from __future__ import annotations

from collections.abc import Mapping
from json.encoder import encode_basestring  # how json.dumps writes a str, ensure_ascii=False
from typing import NamedTuple

from reteval.errors import InputError

__all__ = ["DatasetFingerprint", "fingerprint"]

_VERSION = "reteval-dataset-v1"


def _judgment_line(query_id: str, doc_id: str, relevance: int) -> str:
    """``json.dumps([query_id, doc_id, relevance], ensure_ascii=False, separators=(",", ":"))``
    and a newline, the same characters written directly (a ninth of the time: it is written
    once per judgment at every evaluation)."""
    return f"[{encode_basestring(query_id)},{encode_basestring(doc_id)},{relevance}]\n"


def _query_line(query_id: str, text: str) -> str:
    """``json.dumps([query_id, text], ensure_ascii=False, separators=(",", ":"))`` and a
    newline."""
    return f"[{encode_basestring(query_id)},{encode_basestring(text)}]\n"


class DatasetFingerprint(NamedTuple):
    """Digests of the judgments and queries an evaluation ran on.

    Attributes
    ----------
    qrels_sha256 : str
        sha256 (hex) of the canonical qrels.
    queries_sha256 : str or None
        sha256 (hex) of the canonical queries; ``None`` when the evaluation
        scored a run file without the query texts.
    """

    qrels_sha256: str
    queries_sha256: str | None = None

    @property
    def digest(self) -> str:
        """The combined fingerprint (sha256 hex) that identifies the dataset."""
        text = (
            f"{_VERSION}\nqrels {self.qrels_sha256}\n"
            f"queries {self.queries_sha256 or '-'}\n"
        )
        import hashlib  # loaded when used: ``reteval --help`` imports this module

        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def differences(self, other: DatasetFingerprint) -> tuple[str, ...]:
        """What differs from ``other``: a subset of ``("qrels", "queries")``.

        Examples
        --------
        >>> a = fingerprint({"q1": {"d1": 1}}, {"q1": "search"})
        >>> b = fingerprint({"q1": {"d1": 2}}, {"q1": "search"})
        >>> a.differences(b)
        ('qrels',)
        >>> a.differences(fingerprint({"q1": {"d1": 1}}))
        ('queries',)
        """
        parts = []
        if self.qrels_sha256 != other.qrels_sha256:
            parts.append("qrels")
        if self.queries_sha256 != other.queries_sha256:
            parts.append("queries")
        return tuple(parts)


def fingerprint(qrels, queries: Mapping[str, str] | None = None) -> DatasetFingerprint:
    """Fingerprint relevance judgments and, optionally, query texts.

    Parameters
    ----------
    qrels : path, DataFrame or mapping
        Judgments in any form :func:`reteval.io.as_qrels` takes.
    queries : mapping of str to str, optional
        ``{query_id: text}`` of the queries the retriever was asked.

    Returns
    -------
    DatasetFingerprint

    Raises
    ------
    InputError
        Malformed qrels, or queries that are not a mapping of strings.

    Examples
    --------
    >>> fp = fingerprint({"q1": {"d1": 1, "d2": 0}})
    >>> import hashlib
    >>> fp.qrels_sha256 == hashlib.sha256(b'["q1","d1",1]\\n["q1","d2",0]\\n').hexdigest()
    True
    >>> fp == fingerprint({"q1": {"d2": 0, "d1": 1}})    # order does not matter
    True
    >>> len(fp.digest)
    64
    """
    import hashlib

    from reteval.io import as_qrels  # pandas: loaded when needed, not by ``reteval --help``

    table = as_qrels(qrels)
    # Python's sort compares code points, whatever pandas' string backend does.
    rows = sorted(
        zip(
            map(str, table["query_id"].tolist()),
            map(str, table["doc_id"].tolist()),
            map(int, table["relevance"].tolist()),
            strict=True,
        )
    )
    text = "".join(_judgment_line(query_id, doc_id, grade) for query_id, doc_id, grade in rows)
    qrels_hash = hashlib.sha256(text.encode("utf-8"))
    queries_digest = None
    if queries is not None:
        if not isinstance(queries, Mapping):
            raise InputError(
                f"queries must be a mapping query_id -> text; got {type(queries).__name__}"
            )
        queries_hash = hashlib.sha256()
        for query_id in sorted(queries, key=str):
            text = queries[query_id]
            if not isinstance(text, str):
                raise InputError(
                    f"query {query_id!r}: text must be a str; got {type(text).__name__}"
                )
            queries_hash.update(_query_line(str(query_id), text).encode("utf-8"))
        queries_digest = queries_hash.hexdigest()
    return DatasetFingerprint(qrels_hash.hexdigest(), queries_digest)
