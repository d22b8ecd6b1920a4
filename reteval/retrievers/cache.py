"""Text embeddings kept on disk, keyed by content, shared between processes.

The ``vector``, ``hybrid`` and ``reranked`` retrievers encode the whole corpus when they are
built, and their queries when they run. ``reteval run`` builds them over the same collection
in several notebooks and in both editions, each notebook in its own kernel: with a cache
folder, each list of texts is encoded once and every later process reads the vectors back
(and does not even load the model when every text it needs is there).

The folder is the environment variable ``RETEVAL_CACHE_DIR`` (``reteval run`` sets it to
``OUTPUT/.cache`` for its kernels); without it nothing is written. A file holds the vectors of
one list of texts, named by the SHA-256 of the model's name and of the texts in order, so a
changed text, order or model is another file. A file is written beside its place and renamed
into it, so two processes that encode the same texts at once each write a whole file and either
one stays; a reader never sees part of a file. While a process computes the vectors of a list
it holds a lock on that list's name (:meth:`EmbeddingCache.computing`, where the system has
``fcntl``), so another process that wants the same list, such as the other edition running side
by side, waits and reads the file instead of computing it again. A file that cannot be read is
ignored and its vectors computed again; a folder that cannot be written only goes without a
cache.

:class:`ArrayCache` keeps other arrays the same way, under a key the caller computes from the
content they derive from: LSA's decomposition of a corpus
(:class:`reteval.retrievers.vector.LsaEncoder`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

__all__ = ["CACHE_ENV", "ArrayCache", "EmbeddingCache"]

#: The environment variable naming the cache folder.
CACHE_ENV = "RETEVAL_CACHE_DIR"


class EmbeddingCache:
    """Vectors of lists of texts, one ``.npy`` file per list, in ``folder/embeddings``.

    Examples
    --------
    >>> import tempfile
    >>> cache = EmbeddingCache(tempfile.mkdtemp())
    >>> cache.get("model-1", ["a", "b"]) is None
    True
    >>> cache.put("model-1", ["a", "b"], np.array([[1.0, 0.0], [0.0, 1.0]]))
    >>> cache.get("model-1", ["a", "b"]).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    >>> cache.get("model-1", ["b", "a"]) is None, cache.get("model-2", ["a", "b"]) is None
    (True, True)
    >>> with cache.computing("model-1", ["c"]):  # others wait here for the same texts
    ...     cache.put("model-1", ["c"], np.ones((1, 2)))
    """

    def __init__(self, folder: str | os.PathLike):
        self.folder = Path(folder) / "embeddings"

    @classmethod
    def from_environment(cls) -> EmbeddingCache | None:
        """The cache in ``RETEVAL_CACHE_DIR``, or None when it is not set."""
        folder = os.environ.get(CACHE_ENV)
        return cls(folder) if folder else None

    def path(self, model: str, texts: Sequence[str]) -> Path:
        """The file of ``texts`` encoded by ``model``."""
        digest = hashlib.sha256(model.encode("utf-8"))
        for text in texts:  # each text with its length: ["ab"] and ["a", "b"] differ
            data = text.encode("utf-8", "surrogatepass")
            digest.update(len(data).to_bytes(8, "little"))
            digest.update(data)
        return self.folder / f"{digest.hexdigest()}.npy"

    def computing(self, model: str, texts: Sequence[str]) -> contextlib.AbstractContextManager:
        """Hold the lock of ``texts`` (another process entering for them waits here)."""
        return _locked(self.path(model, texts).with_suffix(".lock"))

    def get(self, model: str, texts: Sequence[str]) -> np.ndarray | None:
        """The vectors stored for ``texts`` (one row each), or None."""
        try:
            vectors = np.load(self.path(model, texts), allow_pickle=False)
        except (OSError, ValueError, EOFError):
            return None
        return vectors if vectors.ndim == 2 and len(vectors) == len(texts) else None

    def put(self, model: str, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Store ``vectors`` (one row per text) for ``texts``; never raises for the disk."""
        _write(self.path(model, texts),
               lambda handle: np.save(handle, np.asarray(vectors), allow_pickle=False))


class ArrayCache:
    """Named arrays stored under a key, one ``.npz`` file per key, in ``folder/arrays``.

    The key is the caller's digest of everything the arrays are computed from.

    Examples
    --------
    >>> import tempfile
    >>> cache = ArrayCache(tempfile.mkdtemp())
    >>> cache.get("k1") is None
    True
    >>> with cache.computing("k1"):  # others wait here for the same key
    ...     cache.put("k1", a=np.arange(3), b=np.eye(2))
    >>> stored = cache.get("k1")
    >>> stored["a"].tolist(), stored["b"].shape
    ([0, 1, 2], (2, 2))
    """

    def __init__(self, folder: str | os.PathLike):
        self.folder = Path(folder) / "arrays"

    @classmethod
    def from_environment(cls) -> ArrayCache | None:
        """The cache in ``RETEVAL_CACHE_DIR``, or None when it is not set."""
        folder = os.environ.get(CACHE_ENV)
        return cls(folder) if folder else None

    def path(self, key: str) -> Path:
        """The file of ``key`` (a hexadecimal digest)."""
        return self.folder / f"{key}.npz"

    def computing(self, key: str) -> contextlib.AbstractContextManager:
        """Hold the lock of ``key`` (another process entering for it waits here)."""
        return _locked(self.path(key).with_suffix(".lock"))

    def get(self, key: str) -> dict[str, np.ndarray] | None:
        """The arrays stored under ``key``, by name, or None."""
        try:
            with np.load(self.path(key), allow_pickle=False) as stored:
                return {name: stored[name] for name in stored.files}
        except (OSError, ValueError, EOFError, KeyError):
            return None

    def put(self, key: str, **arrays: np.ndarray) -> None:
        """Store ``arrays`` under ``key``; never raises for the disk."""
        _write(self.path(key), lambda handle: np.savez(handle, **arrays))


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the file ``path`` where the system has ``fcntl``."""
    try:
        import fcntl

        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+b")  # noqa: SIM115 (closed below, after the lock)
    except (ImportError, OSError):  # no locks here: at worst two processes compute
        yield
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        handle.close()  # releases the lock


def _write(path: Path, save) -> None:
    """``save(handle)`` into a file beside ``path``, renamed into it; never raises for the disk."""
    temporary = path.with_name(f".{path.stem}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(temporary, "wb") as handle:
            save(handle)
        os.replace(temporary, path)
    except OSError:
        pass  # a cache that cannot be written is only slower
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
