"""Hybrid retrieval: lexical and dense runs fused into one."""

from __future__ import annotations

import itertools

import numpy as np

from reteval.errors import InputError
from reteval.retrievers.base import Retriever, check_k, run_frame
from reteval.retrievers.fusion import FUSION_METHODS, fuse

__all__ = ["HybridRetriever"]


class HybridRetriever(Retriever):
    """Fuse the runs of several retrievers (by default BM25 and the vector retriever).

    Each retriever answers the query with its top ``depth`` documents (at
    least ``k``); the lists are fused with :func:`reteval.retrievers.fusion.fuse` and the
    best ``k`` of the fused list are returned.

    Parameters
    ----------
    corpus : mapping or pandas.DataFrame, optional
        Used to build the default pair ``BM25Retriever(corpus)`` and
        ``VectorRetriever(corpus)`` (the multilingual sentence encoder); not
        needed when ``retrievers`` is given.
    retrievers : sequence of Retriever, optional
        The retrievers to fuse, instead of the default pair.
    method : {"rrf", "combsum", "combmnz"}, default "rrf"
        Fusion method; RRF with ``rrf_k=60`` by default.
    rrf_k : float, default 60
    normalization : {"minmax", "zscore", None}, default "minmax"
        Score normalisation for CombSUM/CombMNZ.
    weights : sequence of float, optional
        One weight per retriever.
    depth : int, default 100
        Documents taken from each retriever per query.
    tokenizer, rng
        ``tokenizer`` is passed to the default BM25 retriever; ``rng`` is kept
        for compatibility (the default vector retriever is deterministic).

    Examples
    --------
    >>> corpus = {"d1": "cats purr and cats sleep", "d2": "dogs bark at the postman",
    ...           "d3": "a cat sleeps while a dog barks"}
    >>> hybrid = HybridRetriever(corpus)
    >>> [doc for doc, score in hybrid("sleeping cat", k=2)]
    ['d1', 'd3']
    """

    name = "hybrid"

    def __init__(self, corpus=None, *, retrievers=None, method: str = "rrf",
                 rrf_k: float = 60, normalization: str | None = "minmax", weights=None,
                 depth: int = 100, tokenizer=None, rng=0):
        if method not in FUSION_METHODS:
            raise InputError(f"method must be one of {list(FUSION_METHODS)}; got {method!r}")
        self.depth = check_k(depth, name="depth")
        if retrievers is None:
            if corpus is None:
                raise InputError("HybridRetriever needs a corpus or a list of retrievers")
            from reteval.retrievers.bm25 import BM25Retriever
            from reteval.retrievers.vector import VectorRetriever

            retrievers = [BM25Retriever(corpus, tokenizer=tokenizer),
                          VectorRetriever(corpus, rng=rng)]
        retrievers = list(retrievers)
        if not retrievers or not all(isinstance(r, Retriever) for r in retrievers):
            raise InputError(f"retrievers must be a non-empty list of Retriever objects; "
                             f"got {retrievers!r}")
        self.retrievers = retrievers
        self.options = {"method": method, "k": rrf_k, "normalization": normalization,
                            "weights": weights}
        # Check the options once, on a tiny run, rather than at the first query.
        probe = run_frame(["q"], [(np.array(["d"], dtype=object), np.array([1.0]))])
        fuse([probe] * len(retrievers), **self.options)

    def _search(self, texts, k):
        qids = [str(i) for i in range(len(texts))]
        depth = max(k, self.depth)
        runs = [run_frame(qids, r._search(texts, depth)) for r in self.retrievers]
        fused = fuse(runs, **self.options)
        fused = fused[fused.groupby("query_id", sort=False).cumcount() < k]
        # The fused run lists queries by first appearance; put them back in input order.
        pos = fused["query_id"].astype(int).to_numpy()
        order = np.argsort(pos, kind="stable")
        pos = pos[order]
        doc_ids = fused["doc_id"].to_numpy(dtype=object)[order]
        scores = fused["score"].to_numpy(dtype=np.float64)[order]
        bounds = np.searchsorted(pos, np.arange(len(texts) + 1))
        return [(doc_ids[a:b], scores[a:b]) for a, b in itertools.pairwise(bounds)]
