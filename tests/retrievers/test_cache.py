"""The disk cache of text embeddings (reteval.retrievers.cache) and the encoder reading it."""

import subprocess
import sys

import numpy as np
import pytest

from reteval.retrievers import vector as vector_module
from reteval.retrievers.cache import CACHE_ENV, EmbeddingCache
from reteval.retrievers.vector import UseEncoder

TEXTS = ["machine learning", "机器学习", "cooking recipes"]


def test_the_key_is_the_model_and_every_text_in_order(tmp_path):
    cache = EmbeddingCache(tmp_path)
    names = {cache.path(model, texts).name for model, texts in [
        ("m", ["ab"]), ("m", ["a", "b"]), ("m", ["b", "a"]), ("m2", ["a", "b"]), ("m", ["ab", ""]),
    ]}
    assert len(names) == 5
    assert cache.path("m", ["a", "b"]) == EmbeddingCache(tmp_path).path("m", ("a", "b"))


def test_a_damaged_or_mismatched_file_is_a_miss_and_is_written_again(tmp_path):
    cache = EmbeddingCache(tmp_path)
    path = cache.path("m", ["a", "b"])
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x93NUMPY half a file")
    assert cache.get("m", ["a", "b"]) is None
    np.save(path, np.ones((3, 2)))  # three rows for two texts
    assert cache.get("m", ["a", "b"]) is None
    cache.put("m", ["a", "b"], np.eye(2))
    assert cache.get("m", ["a", "b"]).tolist() == [[1.0, 0.0], [0.0, 1.0]]


def test_a_folder_that_cannot_be_written_is_no_error(tmp_path):
    (tmp_path / "embeddings").write_text("a file where the folder should be")
    cache = EmbeddingCache(tmp_path)
    cache.put("m", ["a"], np.ones((1, 2)))
    assert cache.get("m", ["a"]) is None
    assert [p.name for p in tmp_path.iterdir()] == ["embeddings"]


def test_processes_writing_the_same_texts_at_once_leave_one_whole_file(tmp_path):
    code = (
        "import sys, numpy as np\n"
        "from reteval.retrievers.cache import EmbeddingCache\n"
        "cache = EmbeddingCache(sys.argv[1])\n"
        "for _ in range(50):\n"
        "    cache.put('m', ['a', 'b'], np.arange(2000.0).reshape(2, 1000))\n"
    )
    writers = [subprocess.Popen([sys.executable, "-c", code, str(tmp_path)]) for _ in range(3)]
    assert [w.wait(timeout=120) for w in writers] == [0, 0, 0]
    files = sorted(p.name for p in (tmp_path / "embeddings").iterdir())
    assert files == [EmbeddingCache(tmp_path).path("m", ["a", "b"]).name]  # no temporary left
    stored = EmbeddingCache(tmp_path).get("m", ["a", "b"])
    assert np.array_equal(stored, np.arange(2000.0).reshape(2, 1000))


def test_the_encoder_reads_the_disk_cache_without_loading_the_model(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(vector_module, "_USE_CACHE", type(vector_module._USE_CACHE)())
    first = UseEncoder().encode(TEXTS)
    assert len(list((tmp_path / "embeddings").glob("*.npy"))) == 1

    def no_model(threads=1):
        raise AssertionError("the model was loaded")

    monkeypatch.setattr(vector_module, "_USE_CACHE", type(vector_module._USE_CACHE)())
    monkeypatch.setattr(vector_module, "_use_model", no_model)
    again = UseEncoder().encode(TEXTS)
    assert again.dtype == np.float64 and np.array_equal(again, first)
    with pytest.raises(AssertionError, match="the model was loaded"):
        UseEncoder().encode(["a text not in the cache"])


def test_a_second_process_waits_for_the_first_one_computing_the_same_texts(tmp_path):
    code = (
        "import sys, numpy as np\n"
        "from reteval.retrievers.cache import EmbeddingCache\n"
        "cache = EmbeddingCache(sys.argv[1])\n"
        "with cache.computing('m', ['a']):\n"
        "    print('found' if cache.get('m', ['a']) is not None else 'computing', flush=True)\n"
        "    if cache.get('m', ['a']) is None:\n"
        "        sys.stdin.readline()  # hold the lock until told\n"
        "        cache.put('m', ['a'], np.ones((1, 3)))\n"
    )
    pytest.importorskip("fcntl")
    first = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert first.stdout.readline() == "computing\n"  # it holds the lock now
    second = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], text=True,
                              stdout=subprocess.PIPE)
    first.communicate("go\n", timeout=120)
    assert second.communicate(timeout=120)[0] == "found\n"  # it waited, then read the file
    assert first.returncode == second.returncode == 0


def test_without_the_variable_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.delenv(CACHE_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(vector_module, "_USE_CACHE", type(vector_module._USE_CACHE)())
    UseEncoder().encode(["nothing is written for this text"])
    assert EmbeddingCache.from_environment() is None
    assert list(tmp_path.iterdir()) == []


LSA_TEXTS = ["cats purr softly", "dogs bark loudly", "cats and dogs play", "birds sing at dawn",
             "dogs chase cats", "a bird and a cat"]


def test_lsa_reads_its_decomposition_from_the_cache_and_gives_the_same_vectors(tmp_path,
                                                                             monkeypatch):
    from sklearn.decomposition import TruncatedSVD

    from reteval.retrievers.vector import LsaEncoder

    monkeypatch.delenv(CACHE_ENV, raising=False)
    plain = LsaEncoder(dims=3).fit(LSA_TEXTS)  # no cache: fitted as scikit-learn fits it
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    first = LsaEncoder(dims=3).fit(LSA_TEXTS)
    assert len(list((tmp_path / "arrays").glob("*.npz"))) == 1

    def no_fit(self, x, y=None):
        raise AssertionError("the SVD was computed again")

    monkeypatch.setattr(TruncatedSVD, "fit_transform", no_fit)
    again = LsaEncoder(dims=3).fit(LSA_TEXTS)
    queries = ["cats", "dogs and birds", "unknown"]
    for encoder in (first, again):
        assert encoder.fitted_documents().tobytes() == plain.fitted_documents().tobytes()
        assert encoder.encode(queries).tobytes() == plain.encode(queries).tobytes()
    for other in (LsaEncoder(dims=2), LsaEncoder(dims=3, rng=1)):  # another key: computed
        with pytest.raises(AssertionError, match="computed again"):
            other.fit(LSA_TEXTS)
    with pytest.raises(AssertionError, match="computed again"):
        LsaEncoder(dims=3).fit(LSA_TEXTS[:-1])


def test_an_unseeded_lsa_is_not_cached_and_a_damaged_file_is_computed_again(tmp_path, monkeypatch):
    from reteval.retrievers.cache import ArrayCache
    from reteval.retrievers.vector import LsaEncoder

    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    LsaEncoder(dims=3, rng=None).fit(LSA_TEXTS)
    assert not (tmp_path / "arrays").exists()
    expected = LsaEncoder(dims=3).fit(LSA_TEXTS).fitted_documents()
    (path,) = (tmp_path / "arrays").glob("*.npz")
    path.write_bytes(b"PK half a file")
    assert ArrayCache(tmp_path).get(path.stem) is None
    assert LsaEncoder(dims=3).fit(LSA_TEXTS).fitted_documents().tobytes() == expected.tobytes()
    assert ArrayCache(tmp_path).get(path.stem)["docs"].tobytes() == expected.tobytes()
