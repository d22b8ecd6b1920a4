"""BM25 over the reteval tokenizer, scored by bm25s."""

from __future__ import annotations

import numpy as np
import scipy.sparse

from reteval._util.extras import require
from reteval.errors import InputError
from reteval.retrievers.base import Retriever, corpus_texts, top_k_rows
from reteval.retrievers.tokenize import Tokenizer

__all__ = ["BM25Retriever"]

_METHODS = ("lucene", "robertson", "atire")
# At most this many cells (queries x documents) of dense scores at a time.
_CELLS = 20_000_000


class BM25Retriever(Retriever):
    """Lexical retrieval with BM25.

    Documents and queries are split by a :class:`~reteval.retrievers.tokenize.Tokenizer`
    (English words stemmed, stop words dropped, Chinese as character bigrams),
    the terms are numbered here, and the index and scoring are bm25s's. With
    the default ``method="lucene"`` a document's score for a query is

    .. math:: \\sum_{t \\in q} \\log\\left(1 + \\frac{N - n_t + 0.5}{n_t + 0.5}\\right)
              \\frac{f_{t,d}}{f_{t,d} + k_1 (1 - b + b\\,|d| / \\overline{|d|})}

    with :math:`N` documents, :math:`n_t` of them containing term :math:`t`,
    :math:`f_{t,d}` occurrences of :math:`t` in document :math:`d`, and a query
    term counted as often as it occurs in the query. Unlike Lucene, document
    lengths are exact (Lucene stores them lossily in one byte).

    Parameters
    ----------
    corpus : mapping or pandas.DataFrame
        See :func:`~reteval.retrievers.base.corpus_texts`.
    k1, b : float, default 0.9 and 0.4
        The BM25 parameters. 0.9 and 0.4 are Anserini's defaults, the values
        behind the BM25 baselines of the BEIR benchmark (Lucene's own defaults
        are 1.2 and 0.75).
    method : str, default "lucene"
        bm25s's BM25 variant: "lucene", "robertson" or "atire" (they differ in
        the idf formula).
    tokenizer : Tokenizer or callable, optional
        Maps a text to a list of terms; default ``Tokenizer()``.

    Notes
    -----
    bm25s builds the index (each term's BM25 contribution to each document);
    a batch of queries is then scored by one sparse matrix product of query
    term counts with that index. Equal scores are ranked in corpus order.
    Only documents that share at least one term with the query are returned
    (their score is positive), so a result can be shorter than ``k``; a query
    without a known term returns nothing.

    Examples
    --------
    >>> corpus = {
    ...     "d1": "BM25 ranks documents by term frequency.",
    ...     "d2": "Dense retrieval embeds queries and documents.",
    ...     "d3": "机器学习算法的评估",
    ... }
    >>> bm25 = BM25Retriever(corpus)
    >>> [doc for doc, score in bm25("term frequency ranking")]
    ['d1']
    >>> [doc for doc, score in bm25("机器学习")]
    ['d3']
    >>> bm25.run({"q1": "documents", "q2": "nothing matches"}).doc_id.tolist()
    ['d1', 'd2']
    """

    name = "bm25"

    def __init__(self, corpus, *, k1: float = 0.9, b: float = 0.4, method: str = "lucene",
                 tokenizer=None):
        bm25s = require("bm25s", "retrievers", "BM25 retrievers")

        if method not in _METHODS:
            raise InputError(f"method must be one of {list(_METHODS)}; got {method!r}")
        if not (isinstance(k1, (int, float)) and k1 >= 0):
            raise InputError(f"k1 must be a non-negative number; got {k1!r}")
        if not (isinstance(b, (int, float)) and 0 <= b <= 1):
            raise InputError(f"b must be a number in [0, 1]; got {b!r}")
        self.k1, self.b, self.method = float(k1), float(b), method
        self.tokenizer = Tokenizer() if tokenizer is None else tokenizer
        self.doc_ids, texts = corpus_texts(corpus)

        vocab: dict[str, int] = {}
        ids = [[vocab.setdefault(t, len(vocab)) for t in self.tokenizer(text)] for text in texts]
        if not vocab:
            raise InputError("corpus has no indexable term: every document is empty after "
                             "tokenization")
        self.vocab = vocab
        self._bm25 = bm25s.BM25(k1=self.k1, b=self.b, method=method)
        self._bm25.index(bm25s.tokenization.Tokenized(ids=ids, vocab=dict(vocab)),
                         show_progress=False)
        # bm25s keeps each term's document scores as a CSC matrix (documents x
        # terms); its transpose lets a batch of queries be scored in one product.
        sc = self._bm25.scores
        self._term_doc = scipy.sparse.csc_matrix(
            (sc["data"].astype(np.float64), sc["indices"], sc["indptr"]),
            shape=(sc["num_docs"], len(sc["indptr"]) - 1),
        ).T.tocsr()

    def _search(self, texts, k):
        rows, cols = [], []
        for i, text in enumerate(texts):
            terms = [self.vocab[t] for t in self.tokenizer(text) if t in self.vocab]
            rows.extend([i] * len(terms))
            cols.extend(terms)
        counts = scipy.sparse.csr_matrix(
            (np.ones(len(rows)), (rows, cols)), shape=(len(texts), len(self.vocab))
        )
        results = []
        step = max(1, _CELLS // len(self.doc_ids))
        for start in range(0, len(texts), step):
            scores = (counts[start : start + step] @ self._term_doc).toarray()
            idx, val = top_k_rows(scores, k)
            for row_idx, row_val in zip(idx, val, strict=True):
                keep = row_val > 0
                results.append((self.doc_ids[row_idx[keep]], row_val[keep]))
        return results
