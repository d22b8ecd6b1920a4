"""Test collections from ir_datasets: ``reteval.datasets.load("irds:<dataset id>")``.

`ir_datasets <https://ir-datasets.com>`_ knows hundreds of collections
(MS MARCO, TREC tracks, BEIR, ...) and downloads each into its own cache
(``$IR_DATASETS_HOME``). :func:`load_irds` turns one into the same
:class:`reteval.datasets.Dataset` a BEIR folder gives, so that retrievers,
``evaluate`` and the notebooks use it unchanged. It needs the optional extra:
``pip install "reteval[irds]"``.

Decisions, the same as for BEIR folders:

- Only queries with at least one judgment are kept; judgments of grade 0
  count. Judgments for queries without text are dropped with a
  :class:`~reteval.datasets.DatasetWarning`.
- A (query, document) pair judged twice keeps the last grade, with a warning.
- The corpus is not read into memory: ``dataset.corpus`` is a read-only
  mapping that streams ``docs_iter()`` when iterated and looks single
  documents up in ir_datasets' document store. Iterating it once (as a
  retriever's index build does) reads the collection once.
"""

from __future__ import annotations

import warnings
from collections.abc import ItemsView, Iterator, Mapping

import pandas as pd

from reteval._util.extras import require
from reteval.errors import InputError

__all__ = ["IrdsCorpus", "load_irds"]


def _import_ir_datasets():
    return require("ir_datasets", "irds", '"irds:..." datasets')


def _document(doc) -> dict[str, str]:
    title = getattr(doc, "title", None) or ""
    text = getattr(doc, "text", None)
    if text is None:
        text = doc.default_text() if hasattr(doc, "default_text") else ""
        if title and text.startswith(title):
            text = text[len(title):].lstrip()
    return {"title": str(title), "text": str(text)}


def _query_text(query) -> str:
    text = getattr(query, "text", None)
    if text is None and hasattr(query, "default_text"):
        text = query.default_text()
    return str(text or "")


def _unavailable(name: str, part: str, exc: BaseException):
    """One line for a collection ir_datasets cannot get (offline, moved server, ...)."""
    from reteval.datasets.collection import DownloadError

    reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return DownloadError(
        f"{name}: cannot get its {part} ({reason[:160]}). ir_datasets downloads a collection "
        "on first use into its cache (IR_DATASETS_HOME, default ~/.ir_datasets): run once "
        "with network access, or copy the files there")


# What ir_datasets raises when it cannot download: requests' errors are OSErrors, and a
# failed download or a checksum mismatch is a RuntimeError or an IOError of its own.
_UNAVAILABLE = (OSError, RuntimeError)


class _StreamedItems(ItemsView):
    def __iter__(self):
        corpus = self._mapping
        try:
            for doc in corpus._source.docs_iter():
                yield doc.doc_id, _document(doc)
        except _UNAVAILABLE as exc:
            raise _unavailable(corpus._name, "documents", exc) from None


class IrdsCorpus(Mapping):
    """The documents of an ir_datasets collection as a streaming, read-only mapping.

    ``corpus[doc_id]`` gives ``{"title": ..., "text": ...}`` from the
    collection's document store; iterating (``for doc_id in corpus``,
    ``corpus.items()``) streams the collection in file order.
    """

    def __init__(self, source, name: str = "irds"):
        self._source = source
        self._name = name
        self._store = None

    def __getitem__(self, doc_id: str) -> dict[str, str]:
        try:
            if self._store is None:
                self._store = self._source.docs_store()
            return _document(self._store.get(doc_id))
        except KeyError:
            raise KeyError(doc_id) from None
        except _UNAVAILABLE as exc:
            raise _unavailable(self._name, "documents", exc) from None

    def __iter__(self) -> Iterator[str]:
        try:
            for doc in self._source.docs_iter():
                yield doc.doc_id
        except _UNAVAILABLE as exc:
            raise _unavailable(self._name, "documents", exc) from None

    def __len__(self) -> int:
        try:
            count = self._source.docs_count()
        except _UNAVAILABLE as exc:
            raise _unavailable(self._name, "documents", exc) from None
        return count if count is not None else sum(1 for _ in self)

    def items(self) -> ItemsView:
        return _StreamedItems(self)

    def __repr__(self) -> str:
        return f"IrdsCorpus({self._source!r})"


def load_irds(dataset_id: str):
    """Load an ir_datasets collection as a :class:`reteval.datasets.Dataset`.

    Parameters
    ----------
    dataset_id : str
        An ir_datasets id such as ``"beir/scifact/test"`` or
        ``"msmarco-passage/dev/small"``: the collection must provide docs,
        queries and qrels. The first use downloads it into ir_datasets' cache.

    Returns
    -------
    Dataset
        ``name`` is ``"irds:<dataset_id>"``; ``corpus`` an :class:`IrdsCorpus`.

    Raises
    ------
    InputError
        Unknown id, or a collection without docs, queries or qrels, or without
        any judged query.
    DownloadError
        ir_datasets cannot get the queries or judgments (no network access and
        not in its cache); reading the corpus raises it too.
    RetevalError
        ir_datasets is not installed.
    """
    from reteval.datasets.collection import Dataset, DatasetWarning

    ir_datasets = _import_ir_datasets()
    try:
        source = ir_datasets.load(dataset_id)
    except KeyError:
        raise InputError(f"unknown ir_datasets id {dataset_id!r} (see ir-datasets.com)") from None
    missing = [part for part in ("docs", "queries", "qrels")
               if not getattr(source, f"has_{part}")()]
    if missing:
        raise InputError(f"ir_datasets {dataset_id!r} has no {' and no '.join(missing)}; "
                         "evaluation needs docs, queries and qrels")
    name = f"irds:{dataset_id}"
    try:
        queries = {str(q.query_id): _query_text(q) for q in source.queries_iter()}
    except _UNAVAILABLE as exc:
        raise _unavailable(name, "queries", exc) from None
    grades: dict[tuple[str, str], int] = {}
    twice = dropped = 0
    try:
        for qrel in source.qrels_iter():
            query_id, doc_id = str(qrel.query_id), str(qrel.doc_id)
            if query_id not in queries:
                dropped += 1
                continue
            twice += (query_id, doc_id) in grades
            grades[(query_id, doc_id)] = int(qrel.relevance)
    except _UNAVAILABLE as exc:
        raise _unavailable(name, "judgments (qrels)", exc) from None
    if dropped:
        warnings.warn(f"irds:{dataset_id}: {dropped} judgments for queries without text dropped",
                      DatasetWarning, stacklevel=2)
    if twice:
        warnings.warn(f"irds:{dataset_id}: {twice} (query, document) pairs judged twice; "
                      "the last grade is kept", DatasetWarning, stacklevel=2)
    if not grades:
        raise InputError(f"ir_datasets {dataset_id!r}: no judged query")
    qrels = pd.DataFrame({
        "query_id": pd.Series([q for q, _ in grades], dtype="str"),
        "doc_id": pd.Series([d for _, d in grades], dtype="str"),
        "relevance": pd.Series(list(grades.values()), dtype="int64"),
    })
    judged = set(qrels["query_id"])
    return Dataset(
        name=f"irds:{dataset_id}",
        corpus=IrdsCorpus(source, name),
        queries={q: text for q, text in queries.items() if q in judged},
        qrels=qrels,
    )
