"""Wrap any object with ``.invoke(query)`` (a LangChain-style retriever)."""

from __future__ import annotations

import reprlib
from collections.abc import Mapping

import numpy as np

from reteval.errors import InputError
from reteval.retrievers.base import Retriever, check_k

__all__ = ["InvokeRetriever", "from_invoke"]


def _metadata(doc):
    meta = getattr(doc, "metadata", None)
    if meta is None and isinstance(doc, Mapping):
        meta = doc.get("metadata")
    return meta


class InvokeRetriever(Retriever):
    """A retriever around an object whose ``.invoke(query)`` returns documents.

    Build it with :func:`from_invoke`. LangChain retrievers (and anything
    built the same way) qualify: ``invoke`` returns a list of documents, best
    first, each with ``metadata["id"]``. LangChain itself is not needed.

    Scores are derived from ranks, because such retrievers return no scores:
    the document at rank :math:`r` (1 = first) gets :math:`1/r`. Order is
    therefore exactly the order ``invoke`` returned; measures that use only
    the ranking (all of reteval's) are unaffected by the choice.

    A document id returned twice for a query is kept at its first position
    only. Queries are sent one at a time (``invoke`` answers one query).
    """

    def __init__(self, obj, *, k: int | None = None, name: str | None = None):
        if not callable(getattr(obj, "invoke", None)):
            raise InputError(f"obj must have an invoke(query) method; got {type(obj).__name__}")
        self.obj = obj
        self.max_k = None if k is None else check_k(k)
        self.name = type(obj).__name__ if name is None else str(name)

    def _search(self, texts, k):
        if self.max_k is not None:
            k = min(k, self.max_k)
        results = []
        for text in texts:
            docs = self.obj.invoke(text)
            try:
                docs = list(docs)
            except TypeError:
                raise InputError(f"invoke({text!r}) must return a list of documents; got "
                                 f"{type(docs).__name__}") from None
            ids, seen = [], set()
            for pos, doc in enumerate(docs):
                meta = _metadata(doc)
                if not isinstance(meta, Mapping) or meta.get("id") is None:
                    raise InputError(
                        f"document at position {pos} returned by invoke({text!r}) has no "
                        f"metadata['id']; got {reprlib.repr(doc)}"
                    )
                doc_id = str(meta["id"])
                if doc_id not in seen:
                    seen.add(doc_id)
                    ids.append(doc_id)
                if len(ids) == k:
                    break
            ids = np.asarray(ids, dtype=object)
            results.append((ids, 1.0 / np.arange(1, len(ids) + 1, dtype=np.float64)))
        return results


def from_invoke(obj, *, k: int | None = None, name: str | None = None) -> InvokeRetriever:
    """Adapt an object with ``.invoke(query)`` into a reteval retriever.

    Parameters
    ----------
    obj : object
        Has ``invoke(query: str)`` returning a list of documents, best first;
        each document has ``metadata["id"]`` (an attribute ``metadata``, as
        LangChain's ``Document`` has, or a ``"metadata"`` key).
    k : int, optional
        Keep at most ``k`` documents of each ``invoke`` result (default: all
        it returns, further cut by the ``k`` of each call or run).
    name : str, optional
        Name of the retriever; default the class name of ``obj``.

    Returns
    -------
    InvokeRetriever
        Callable as ``retriever(query, k=...)`` and with ``.run(queries)``;
        scores are ``1/rank``.

    Raises
    ------
    InputError
        If ``obj`` has no ``invoke``, or (when queried) a returned document has
        no ``metadata["id"]``; the message names the document's position.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> class Fake:
    ...     def invoke(self, query):
    ...         return [SimpleNamespace(page_content="...", metadata={"id": i})
    ...                 for i in ("d7", "d2", "d9")]
    >>> retriever = from_invoke(Fake(), name="fake")
    >>> retriever("any query", k=2)
    [('d7', 1.0), ('d2', 0.5)]
    """
    return InvokeRetriever(obj, k=k, name=name)
