"""Two-stage retrieval: a first stage's candidates re-scored by a second model."""

from __future__ import annotations

import numpy as np

from reteval.errors import InputError
from reteval.retrievers.base import Retriever, check_k

__all__ = ["RerankedRetriever"]


class RerankedRetriever(Retriever):
    """Re-score the first stage's top ``depth`` documents with a second model.

    What this is, plainly: by default the first stage is BM25 and the second
    is the multilingual sentence encoder of the ``vector`` retriever. Each of
    BM25's top 100 documents gets the cosine similarity between its embedding
    and the query's as its new score, and the candidates are re-sorted by it.
    The second model never sees documents BM25 did not return, so recall at
    ``depth`` is BM25's (a document in the other language that shares no word
    with the query stays out of reach); only the order changes. That is what
    makes it differ from ``vector``, which ranks the whole corpus.

    This is *not* a cross-encoder: the second model embeds query and document
    separately (a bi-encoder), exactly as the vector retriever does; no
    cross-encoder model is available offline to this package. ``second="lsa"``
    re-scores with LSA instead; on a small corpus LSA is close to TF-IDF
    cosine and only re-orders BM25's candidates by another word-matching
    score. It is a reference point for the two-stage architecture, not a
    recommendation (``bench/bench_retrievers.py`` measures it).

    Parameters
    ----------
    corpus : mapping or pandas.DataFrame, optional
        Used to build the default stages; not needed if both are given.
    first : Retriever, optional
        First stage; default ``BM25Retriever(corpus)``.
    second : {"use", "lsa", "neural"} or VectorRetriever, default "use"
        Second stage: any object with ``score_documents(texts, doc_ids)``
        (see :meth:`~reteval.retrievers.vector.VectorRetriever.score_documents`)
        over the same document ids as ``first``.
    depth : int, default 100
        Candidates taken from the first stage (at least ``k``).
    tokenizer, rng
        ``tokenizer`` is passed to the default first stage (and to an LSA
        second stage), ``rng`` to an LSA second stage.

    Notes
    -----
    Scores in the result are the second model's; equal scores keep the first
    stage's order.

    Examples
    --------
    >>> corpus = {"d1": "cats purr and cats sleep", "d2": "dogs bark at the postman",
    ...           "d3": "a cat sleeps while a dog barks"}
    >>> reranked = RerankedRetriever(corpus)
    >>> [doc for doc, score in reranked("cat sleeps")]
    ['d1', 'd3']
    """

    name = "reranked"

    def __init__(self, corpus=None, *, first=None, second="use", depth: int = 100,
                 tokenizer=None, rng=0):
        self.depth = check_k(depth, name="depth")
        if (first is None or isinstance(second, str)) and corpus is None:
            raise InputError("RerankedRetriever needs a corpus unless both stages are given")
        if first is None:
            from reteval.retrievers.bm25 import BM25Retriever

            first = BM25Retriever(corpus, tokenizer=tokenizer)
        if isinstance(second, str):
            from reteval.retrievers.vector import VectorRetriever

            if second not in ("use", "lsa", "neural"):
                raise InputError(f"second must be 'use', 'lsa', 'neural' or a retriever with "
                                 f"score_documents; got {second!r}")
            lsa_options = {"tokenizer": tokenizer} if second == "lsa" else {}
            second = VectorRetriever(corpus, encoder=second, rng=rng, **lsa_options)
        if not isinstance(first, Retriever):
            raise InputError(f"first must be a Retriever; got {type(first).__name__}")
        if not callable(getattr(second, "score_documents", None)):
            raise InputError(f"second must have a score_documents(texts, doc_ids) method; "
                             f"got {type(second).__name__}")
        self.first, self.second = first, second

    def _search(self, texts, k):
        candidates = self.first._search(texts, max(k, self.depth))
        new_scores = self.second.score_documents(texts, [ids for ids, _ in candidates])
        results = []
        for (ids, _), scores in zip(candidates, new_scores, strict=True):
            scores = np.asarray(scores, dtype=np.float64)
            order = np.argsort(-scores, kind="stable")[:k]
            results.append((np.asarray(ids, dtype=object)[order], scores[order]))
        return results
