"""What every reference retriever shares: input checks, the call and the run.

A retriever is built from a corpus and answers queries in two ways:

* ``retriever(query, k=100)`` returns a ranked list of ``(doc_id, score)``
  pairs for one query, best first;
* ``retriever.run(queries, k=100)`` answers a whole query set at once and
  returns a *run*: a :class:`pandas.DataFrame` with columns ``query_id``,
  ``doc_id`` (strings) and ``score`` (float64), in the input order of the
  queries and, within a query, best first. This is the table
  ``reteval.evaluate`` reads.

Subclasses implement one method, ``_search(texts, k)``, which answers a batch
of query texts, so that a backend that can score many queries at once (a
sparse index, a matrix product) does so for ``run`` as well as for a single
call.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from reteval._util.progress import progress
from reteval.errors import InputError

__all__ = ["Retriever", "check_k", "corpus_texts", "query_items", "run_frame", "top_k_rows"]

_RUN_BATCH = 1000  # queries searched at once by ``run``: one step of its progress bar


def check_k(k, *, name: str = "k") -> int:
    """Return ``k`` as an int after checking that it is a positive integer.

    Examples
    --------
    >>> check_k(10)
    10
    >>> check_k(0)
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: k must be a positive integer; got 0
    """
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) or k < 1:
        raise InputError(f"{name} must be a positive integer; got {k!r}")
    return int(k)


def _doc_text(doc_id: str, doc) -> str:
    if isinstance(doc, str):
        return doc
    if isinstance(doc, Mapping):
        parts = []
        for key in ("title", "text"):
            value = doc.get(key)
            if value is None or (isinstance(value, float) and np.isnan(value)):
                continue
            if not isinstance(value, str):
                raise InputError(
                    f"corpus document {doc_id!r}: field {key!r} must be a str; "
                    f"got {type(value).__name__}"
                )
            if value:
                parts.append(value)
        if "title" not in doc and "text" not in doc:
            raise InputError(
                f"corpus document {doc_id!r} must be a str or a mapping with 'title' "
                f"and/or 'text'; got keys {sorted(map(str, doc))}"
            )
        return " ".join(parts)
    raise InputError(
        f"corpus document {doc_id!r} must be a str or a mapping with 'title' and 'text'; "
        f"got {type(doc).__name__}"
    )


def corpus_texts(corpus) -> tuple[np.ndarray, list[str]]:
    """Return the document ids and texts of a corpus.

    Parameters
    ----------
    corpus : mapping or pandas.DataFrame
        ``{doc_id: {"title": ..., "text": ...}}`` (BEIR style; the title is
        optional), ``{doc_id: text}``, or a DataFrame with columns ``doc_id``,
        ``text`` and optionally ``title``. A document's text is its title and
        text joined by a space.

    Returns
    -------
    doc_ids : numpy.ndarray of str (object dtype)
    texts : list of str

    Raises
    ------
    InputError
        If the corpus is empty or a document is neither a str nor a mapping
        with ``title``/``text``.

    Examples
    --------
    >>> ids, texts = corpus_texts({1: {"title": "BM25", "text": "a ranking function"}, 2: "LSA"})
    >>> ids.tolist(), texts
    (['1', '2'], ['BM25 a ranking function', 'LSA'])
    """
    if isinstance(corpus, pd.DataFrame):
        missing = {"doc_id", "text"} - set(corpus.columns)
        if missing:
            raise InputError(
                f"corpus DataFrame must have columns 'doc_id' and 'text' (and optionally "
                f"'title'); missing {sorted(missing)}"
            )
        cols = ["title", "text"] if "title" in corpus.columns else ["text"]
        corpus = {
            doc_id: dict(zip(cols, values, strict=True))
            for doc_id, *values in corpus[["doc_id", *cols]].itertuples(index=False)
        }
    if not isinstance(corpus, Mapping):
        raise InputError(
            f"corpus must be a mapping doc_id -> document or a DataFrame; "
            f"got {type(corpus).__name__}"
        )
    if len(corpus) == 0:
        raise InputError("corpus must contain at least one document; got an empty corpus")
    ids = np.empty(len(corpus), dtype=object)
    texts = []
    documents = progress(corpus.items(), total=len(corpus), desc="reading corpus", unit="doc")
    for i, (doc_id, doc) in enumerate(documents):
        ids[i] = str(doc_id)
        texts.append(_doc_text(ids[i], doc))
    if len(set(ids)) != len(ids):
        raise InputError("corpus doc ids must be distinct after conversion to str")
    return ids, texts


def query_items(queries) -> tuple[list[str], list[str]]:
    """Return query ids and texts from ``{query_id: text}`` or a Series.

    Examples
    --------
    >>> query_items({1: "bm25", "q2": "lsa"})
    (['1', 'q2'], ['bm25', 'lsa'])
    """
    if isinstance(queries, (pd.Series, Mapping)):
        items = list(queries.items())
    else:
        raise InputError(
            f"queries must be a mapping query_id -> text or a pandas Series; "
            f"got {type(queries).__name__}"
        )
    qids, texts = [], []
    for qid, text in items:
        if not isinstance(text, str):
            raise InputError(f"query {qid!r}: text must be a str; got {type(text).__name__}")
        qids.append(str(qid))
        texts.append(text)
    if len(set(qids)) != len(qids):
        raise InputError("query ids must be distinct after conversion to str")
    return qids, texts


def top_k_rows(scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the indices and values of the ``k`` largest scores.

    Ties are ordered by column index (corpus order), which keeps results
    reproducible.

    Examples
    --------
    >>> idx, val = top_k_rows(np.array([[0.1, 0.5, 0.5, 0.2]]), 3)
    >>> idx.tolist(), val.tolist()
    ([[1, 2, 3]], [[0.5, 0.5, 0.2]])
    """
    k = min(k, scores.shape[1])
    order = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    return order, np.take_along_axis(scores, order, axis=1)


def run_frame(qids: Sequence[str], results) -> pd.DataFrame:
    """Assemble per-query ``(doc_ids, scores)`` results into a run DataFrame."""
    sizes = np.fromiter((len(r[0]) for r in results), dtype=np.int64, count=len(results))
    if sizes.sum():
        doc_ids = np.concatenate([np.asarray(r[0], dtype=object) for r in results])
        scores = np.concatenate([np.asarray(r[1], dtype=np.float64) for r in results])
    else:
        doc_ids = np.empty(0, dtype=object)
        scores = np.empty(0, dtype=np.float64)
    query_ids = np.repeat(np.asarray(qids, dtype=object), sizes)
    return pd.DataFrame(
        {
            "query_id": pd.array(query_ids, dtype="str"),
            "doc_id": pd.array(doc_ids, dtype="str"),
            "score": scores.astype(np.float64, copy=False),
        }
    )


class Retriever(abc.ABC):
    """Base class of the reference retrievers.

    Subclasses set :attr:`name` and implement ``_search(texts, k)``, which
    returns, for each query text, a pair ``(doc_ids, scores)`` ranked best
    first with at most ``k`` entries.
    """

    #: Short name, used as the run's system name in tables and plots.
    name: str = "retriever"

    @abc.abstractmethod
    def _search(self, texts: list[str], k: int) -> list[tuple[Sequence[str], np.ndarray]]:
        """Answer a batch of query texts."""

    def __call__(self, query: str, *, k: int = 100) -> list[tuple[str, float]]:
        """Rank documents for one query.

        Parameters
        ----------
        query : str
            The query text.
        k : int, default 100
            Number of documents to return at most.

        Returns
        -------
        list of (doc_id, score)
            Best first. May be shorter than ``k`` (see the retriever's notes).
        """
        if not isinstance(query, str):
            raise InputError(f"query must be a str; got {type(query).__name__}")
        doc_ids, scores = self._search([query], check_k(k))[0]
        return [(str(d), float(s)) for d, s in zip(doc_ids, scores, strict=True)]

    def run(self, queries, *, k: int = 100) -> pd.DataFrame:
        """Rank documents for every query of a query set.

        Parameters
        ----------
        queries : mapping or pandas.Series
            ``{query_id: text}``.
        k : int, default 100
            Number of documents to return at most per query.

        Returns
        -------
        pandas.DataFrame
            Columns ``query_id``, ``doc_id`` (str) and ``score`` (float64); the
            queries in input order, each query's documents best first.
        """
        k = check_k(k)
        qids, texts = query_items(queries)
        results = []
        for start in progress(range(0, len(texts), _RUN_BATCH), desc=f"{self.name}: searching",
                              total=-(-len(texts) // _RUN_BATCH), unit="batch"):
            results.extend(self._search(texts[start:start + _RUN_BATCH], k))
        return run_frame(qids, results)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name!r}>"
