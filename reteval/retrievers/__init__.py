"""Reference retrievers that produce runs to evaluate.

Every retriever is built from a corpus, is callable as
``retriever(query, k=100) -> [(doc_id, score), ...]`` and answers a whole
query set with ``retriever.run(queries, k=100) -> DataFrame``:

* ``bm25``: lexical BM25 (bm25s) over :class:`Tokenizer` terms;
* ``vector``: dense retrieval with a multilingual sentence encoder (Universal
  Sentence Encoder v3: English and Chinese in one space); ``lsa``, the
  word-based fallback; ``neural`` with the MiniLM model of the optional extra;
* ``hybrid``: fusion of bm25 and vector (RRF by default, :mod:`reteval.retrievers.fusion`);
* ``reranked``: bm25's top 100 re-scored by a second model;
* :func:`from_invoke`: any object with ``.invoke(query)`` (LangChain style).

What evaluation code calls a retriever (``queries -> run``) and the adapter
:func:`as_retriever` are in :mod:`reteval.retrievers.contract`.

Build them by name with :func:`make_retriever`.
"""

from reteval.retrievers.adapter import InvokeRetriever, from_invoke
from reteval.retrievers.base import Retriever
from reteval.retrievers.bm25 import BM25Retriever
from reteval.retrievers.contract import RetrieverError, as_retriever
from reteval.retrievers.hybrid import HybridRetriever
from reteval.retrievers.registry import available_retrievers, make_retriever
from reteval.retrievers.rerank import RerankedRetriever
from reteval.retrievers.tokenize import DEFAULT_TOKENIZER, ENGLISH_STOP_WORDS, Tokenizer
from reteval.retrievers.vector import LsaEncoder, NeuralEncoder, UseEncoder, VectorRetriever

__all__ = [
    "DEFAULT_TOKENIZER",
    "ENGLISH_STOP_WORDS",
    "BM25Retriever",
    "HybridRetriever",
    "InvokeRetriever",
    "LsaEncoder",
    "NeuralEncoder",
    "RerankedRetriever",
    "Retriever",
    "RetrieverError",
    "Tokenizer",
    "UseEncoder",
    "VectorRetriever",
    "as_retriever",
    "available_retrievers",
    "from_invoke",
    "make_retriever",
]
