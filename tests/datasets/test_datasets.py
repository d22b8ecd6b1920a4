"""Tests for reteval.datasets: the teaching collection, BEIR folders, BEIR downloads."""

from __future__ import annotations

import gzip
import hashlib
import http.client
import io
import json
import re
import shutil
import urllib.error
import zipfile
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paths import SHARED

from reteval.datasets import (
    BEIR_URL,
    QRELS_DUPLICATES,
    Dataset,
    DatasetWarning,
    DownloadError,
    load,
    load_beir,
)
from reteval.datasets import loaders as datasets
from reteval.errors import InputError, RetevalError
from reteval.io import read_qrels

TEACHING = Path(datasets.__file__).resolve().parent / "data" / "teaching"
CJK = re.compile(r"[\u4e00-\u9fff]")


def write_beir(folder: Path, corpus=None, queries=None, qrels=None, *, split="test", gz=False):
    """Write a small BEIR folder; each part is a list of lines (str) or None for the default."""
    if corpus is None:
        corpus = [
            json.dumps({"_id": "d1", "title": "Tea", "text": "Green tea is brewed cool."}),
            json.dumps({"_id": "d2", "title": "Coffee", "text": "Black coffee."}),
            json.dumps({"_id": "d3", "text": "No title here."}),
        ]
    if queries is None:
        queries = [
            json.dumps({"_id": "q1", "text": "tea"}),
            json.dumps({"_id": "q2", "text": "coffee"}),
            json.dumps({"_id": "q3", "text": "milk"}),
        ]
    if qrels is None:
        qrels = ["query-id\tcorpus-id\tscore", "q1\td1\t2", "q1\td2\t0", "q2\td2\t1"]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "qrels").mkdir(exist_ok=True)
    parts = {"corpus.jsonl": corpus, "queries.jsonl": queries, f"qrels/{split}.tsv": qrels}
    for name, lines in parts.items():
        text = "".join(line + "\n" for line in lines)
        if gz:
            with gzip.open(folder / (name + ".gz"), "wt", encoding="utf-8") as handle:
                handle.write(text)
        else:
            (folder / name).write_text(text, encoding="utf-8")
    return folder


# --------------------------------------------------------------------------- teaching


@pytest.fixture(scope="module")
def teaching():
    return load("teaching")


def test_teaching_sizes_match_the_files(teaching):
    # Counted independently of the loader: non-empty lines of the files themselves.
    corpus_lines = [ln for ln in (TEACHING / "corpus.jsonl").read_text("utf-8").splitlines() if ln]
    query_lines = [ln for ln in (TEACHING / "queries.jsonl").read_text("utf-8").splitlines() if ln]
    qrel_lines = (TEACHING / "qrels" / "test.tsv").read_text("utf-8").splitlines()
    assert qrel_lines[0] == "query-id\tcorpus-id\tscore"
    assert len(teaching.corpus) == len(corpus_lines) >= 160
    assert len(teaching.queries) == len(query_lines) >= 32
    assert len(teaching.qrels) == len(qrel_lines) - 1
    assert teaching.name == "teaching"
    assert isinstance(teaching, Dataset)


def test_teaching_has_the_chapter_queries(teaching):
    texts = set(teaching.queries.values())
    assert {"Python 编程入门", "机器学习算法"} <= texts


def test_teaching_ids_are_stable_and_consistent(teaching):
    assert list(teaching.corpus) == [f"d{i:03d}" for i in range(1, len(teaching.corpus) + 1)]
    assert list(teaching.queries) == [f"q{i:02d}" for i in range(1, len(teaching.queries) + 1)]
    assert set(teaching.qrels["doc_id"]) <= set(teaching.corpus)
    assert set(teaching.qrels["query_id"]) == set(teaching.queries)
    assert not teaching.qrels.duplicated(["query_id", "doc_id"]).any()


def test_teaching_judgments_are_graded_with_several_relevant_per_query(teaching):
    assert set(teaching.qrels["relevance"]) == {0, 1, 2, 3}
    relevant = teaching.qrels[teaching.qrels["relevance"] > 0].groupby("query_id").size()
    assert len(relevant) == len(teaching.queries)
    assert relevant.min() >= 3
    # every query has a top-grade document; most also have explicit zeros
    top = teaching.qrels[teaching.qrels["relevance"] == 3].groupby("query_id").size()
    assert len(top) == len(teaching.queries)
    zeros = teaching.qrels[teaching.qrels["relevance"] == 0].groupby("query_id").size()
    assert len(zeros) >= 0.9 * len(teaching.queries)


def test_teaching_is_about_half_english_half_chinese(teaching):
    zh_docs = sum(bool(CJK.search(d["title"] + d["text"])) for d in teaching.corpus.values())
    zh_queries = sum(bool(CJK.search(q)) for q in teaching.queries.values())
    assert 0.4 <= zh_docs / len(teaching.corpus) <= 0.6
    assert 0.4 <= zh_queries / len(teaching.queries) <= 0.6


def test_teaching_documents_are_short_and_non_empty(teaching):
    for doc_id, doc in teaching.corpus.items():
        assert doc["title"] and doc["text"], doc_id
        assert len(doc["text"]) < 400, doc_id


def test_teaching_datasheet_is_shipped():
    text = (TEACHING / "DATASHEET.md").read_text("utf-8")
    for word in ("grade", "not good for", "188", "36"):
        assert word in text


def test_dataset_repr_is_short(teaching):
    assert repr(teaching) == (
        f"Dataset(name='teaching', documents={len(teaching.corpus)}, "
        f"queries={len(teaching.queries)}, judgments={len(teaching.qrels)})"
    )


# --------------------------------------------------------------------------- load_beir


def test_load_beir_reads_everything(tmp_path):
    ds = load_beir(write_beir(tmp_path / "toy"))
    assert ds.name == "toy"
    assert ds.corpus == {
        "d1": {"title": "Tea", "text": "Green tea is brewed cool."},
        "d2": {"title": "Coffee", "text": "Black coffee."},
        "d3": {"title": "", "text": "No title here."},
    }
    # q3 has no judgment in the split, so it is left out
    assert ds.queries == {"q1": "tea", "q2": "coffee"}
    expected = pd.DataFrame(
        {
            "query_id": pd.Series(["q1", "q1", "q2"], dtype="str"),
            "doc_id": pd.Series(["d1", "d2", "d2"], dtype="str"),
            "relevance": pd.Series([2, 0, 1], dtype="int64"),
        }
    )
    pd.testing.assert_frame_equal(ds.qrels, expected)


def test_load_beir_gzip_files(tmp_path):
    plain = load_beir(write_beir(tmp_path / "plain"))
    zipped = load_beir(write_beir(tmp_path / "zipped", gz=True))
    assert zipped.corpus == plain.corpus and zipped.queries == plain.queries
    pd.testing.assert_frame_equal(zipped.qrels, plain.qrels)


def test_load_beir_split_and_name(tmp_path):
    folder = write_beir(tmp_path / "toy", qrels=["query-id\tcorpus-id\tscore", "q3\td3\t1"],
                        split="dev")
    ds = load_beir(folder, split="dev", name="mine")
    assert ds.name == "mine"
    assert ds.queries == {"q3": "milk"}
    assert ds.qrels.values.tolist() == [["q3", "d3", 1]]


def test_load_beir_unknown_split_lists_the_available_ones(tmp_path):
    folder = write_beir(tmp_path / "toy")
    with pytest.raises(InputError, match=r"split='train'.*\['test'\]"):
        load_beir(folder, split="train")


def test_load_beir_qrels_without_header(tmp_path):
    folder = write_beir(tmp_path / "toy", qrels=["q1\td1\t3", "q2\td2\t-1"])
    ds = load_beir(folder)
    assert ds.qrels["relevance"].tolist() == [3, -1]


def test_load_beir_integer_ids_become_strings(tmp_path):
    folder = write_beir(
        tmp_path / "toy",
        corpus=['{"_id": 7, "title": "", "text": "seven"}'],
        queries=['{"_id": 1, "text": "number"}'],
        qrels=["query-id\tcorpus-id\tscore", "1\t7\t1"],
    )
    ds = load_beir(folder)
    assert list(ds.corpus) == ["7"] and list(ds.queries) == ["1"]


def test_missing_folder(tmp_path):
    with pytest.raises(InputError, match="no such folder") as info:
        load_beir(tmp_path / "nowhere")
    assert info.value.path == str(tmp_path / "nowhere")


def test_path_is_a_file(tmp_path):
    (tmp_path / "f.txt").write_text("x")
    with pytest.raises(InputError, match="a file, not a folder"):
        load_beir(tmp_path / "f.txt")


def test_missing_corpus_file(tmp_path):
    folder = write_beir(tmp_path / "toy")
    (folder / "corpus.jsonl").unlink()
    with pytest.raises(InputError, match=r"'corpus\.jsonl'.*not there"):
        load_beir(folder)


def test_malformed_json_names_path_and_line(tmp_path):
    corpus = ['{"_id": "d1", "text": "ok"}', "", '{"_id": "d2", "text": oops}']
    folder = write_beir(tmp_path / "toy", corpus=corpus)
    with pytest.raises(InputError, match="malformed JSON") as info:
        load_beir(folder)
    assert info.value.path == str(folder / "corpus.jsonl")
    assert info.value.line == 3
    assert str(info.value).startswith(f"{folder / 'corpus.jsonl'}:3:")


def test_json_line_that_is_not_an_object(tmp_path):
    folder = write_beir(tmp_path / "toy", queries=['["q1", "tea"]'])
    with pytest.raises(InputError, match="expected a JSON object per line, got list") as info:
        load_beir(folder)
    assert info.value.line == 1


def test_record_without_id(tmp_path):
    folder = write_beir(tmp_path / "toy", corpus=['{"title": "t", "text": "x"}'])
    with pytest.raises(InputError, match="no '_id' field"):
        load_beir(folder)


def test_non_string_text(tmp_path):
    folder = write_beir(tmp_path / "toy", corpus=['{"_id": "d1", "text": ["a", "b"]}'])
    with pytest.raises(InputError, match="field 'text' to be a string, got list"):
        load_beir(folder)


def test_duplicate_document_id(tmp_path):
    corpus = ['{"_id": "d1", "text": "a"}', '{"_id": "d1", "text": "b"}']
    with pytest.raises(InputError, match="duplicate document id 'd1'") as info:
        load_beir(write_beir(tmp_path / "toy", corpus=corpus))
    assert info.value.line == 2


def test_bad_score_names_path_line_and_value(tmp_path):
    qrels = ["query-id\tcorpus-id\tscore", "q1\td1\t2", "q1\td2\thigh"]
    folder = write_beir(tmp_path / "toy", qrels=qrels)
    with pytest.raises(InputError, match="relevance is not a number: 'high'") as info:
        load_beir(folder)
    assert info.value.path == str(folder / "qrels" / "test.tsv")
    assert info.value.line == 3


def test_fractional_score_is_read(tmp_path):
    folder = write_beir(tmp_path / "toy", qrels=["q1\td1\t1.5", "q1\td2\tNaN"])
    with pytest.raises(InputError, match="test.tsv:2: relevance must be finite; got 'NaN'"):
        load_beir(folder)


def test_wrong_number_of_qrels_fields(tmp_path):
    folder = write_beir(tmp_path / "toy", qrels=["q1 0 d1 1"])
    with pytest.raises(InputError, match="3 whitespace-separated fields.*got 4") as info:
        load_beir(folder)
    assert info.value.line == 1


def test_empty_corpus(tmp_path):
    folder = write_beir(tmp_path / "toy", corpus=["", "   "])
    with pytest.raises(InputError, match="corpus is empty"):
        load_beir(folder)


def test_judgments_of_unknown_queries_are_dropped_with_a_warning(tmp_path):
    qrels = ["query-id\tcorpus-id\tscore", "q1\td1\t1", "q9\td1\t1", "q9\td2\t1"]
    folder = write_beir(tmp_path / "toy", qrels=qrels)
    with pytest.warns(DatasetWarning, match=r"2 judgment\(s\) for 1 query id.*'q9'.*dropped"):
        ds = load_beir(folder)
    assert ds.qrels.values.tolist() == [["q1", "d1", 1]]
    assert list(ds.queries) == ["q1"]


def test_split_without_known_queries_is_an_error(tmp_path):
    folder = write_beir(tmp_path / "toy", qrels=["query-id\tcorpus-id\tscore", "q9\td1\t1"])
    with pytest.warns(DatasetWarning), pytest.raises(InputError, match="no judgment"):
        load_beir(folder)


def test_judgments_of_unknown_documents_are_kept_with_a_warning(tmp_path):
    folder = write_beir(tmp_path / "toy", qrels=["q1\td1\t1", "q1\tgone\t2"])
    with pytest.warns(DatasetWarning, match="1 document id.*'gone'.*kept"):
        ds = load_beir(folder)
    assert ds.qrels["doc_id"].tolist() == ["d1", "gone"]


def test_pair_judged_twice_keeps_the_last_grade(tmp_path):
    folder = write_beir(tmp_path / "toy", qrels=["q1\td1\t1", "q1\td2\t0", "q1\td1\t3"])
    with pytest.warns(DatasetWarning, match="judged more than once"):
        ds = load_beir(folder)
    assert ds.qrels.values.tolist() == [["q1", "d1", 3], ["q1", "d2", 0]]


def test_one_qrels_reader_with_an_explicit_duplicate_policy(tmp_path):
    # The same file through both entry points: read_qrels raises by default,
    # load_beir passes its documented policy ("last") and warns.
    lines = ["query-id\tcorpus-id\tscore", "q1\td1\t1", "q1\td2\t0", "q1\td1\t3",
             "q2\td2\t2", "q1\td1\t2"]
    folder = write_beir(tmp_path / "toy", qrels=lines)
    path = folder / "qrels" / "test.tsv"
    with pytest.raises(InputError, match="'d1' appears twice for query 'q1' .* lines 2 and 4"):
        read_qrels(path)
    with pytest.raises(InputError, match="appears twice"):
        read_qrels(path, layout="beir", duplicates="error")
    assert QRELS_DUPLICATES == "last"
    last = read_qrels(path, duplicates="last")
    assert last.values.tolist() == [["q1", "d1", 2], ["q1", "d2", 0], ["q2", "d2", 2]]
    assert last.index.tolist() == [2, 3, 5] and last.attrs["duplicates"] == 1
    highest = read_qrels(path, duplicates="max")
    assert highest["relevance"].tolist() == [3, 0, 2]
    with pytest.warns(DatasetWarning, match="1 .query, document. pair.s. judged more than once"):
        ds = load_beir(folder)
    assert ds.qrels.values.tolist() == last.values.tolist()
    with pytest.raises(InputError, match="duplicates must be one of 'error', 'last', 'max'"):
        read_qrels(path, duplicates="first")


def test_errors_are_reteval_errors(tmp_path):
    with pytest.raises(RetevalError):
        load_beir(tmp_path / "nowhere")
    with pytest.raises(ValueError):
        load_beir(tmp_path / "nowhere")


# --------------------------------------------------------------------------- load


def test_load_folder_path(tmp_path):
    folder = write_beir(tmp_path / "toy")
    assert load(folder).queries == load(str(folder)).queries == {"q1": "tea", "q2": "coffee"}


def test_load_unknown_name(tmp_path):
    with pytest.raises(InputError, match=r"name_or_path='no-such-set'.*'scifact'"):
        load("no-such-set", cache_dir=tmp_path)


def test_load_file_instead_of_folder(tmp_path):
    (tmp_path / "x.tsv").write_text("")
    with pytest.raises(InputError, match="got a file"):
        load(tmp_path / "x.tsv")


# --------------------------------------------------------------------------- downloads


def beir_zip(name: str, *, folder: Path, corpus=None) -> bytes:
    """A zip laid out like the public BEIR ones: <name>/corpus.jsonl, ... ."""
    write_beir(folder, corpus=corpus)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, f"{name}/{path.relative_to(folder).as_posix()}")
    return buffer.getvalue()


class FakeOpener:
    """Stands in for urllib.request.urlopen: serves fixed bytes, records the URLs asked for."""

    def __init__(self, payload: bytes | Exception):
        self.payload = payload
        self.urls: list[str] = []

    def __call__(self, url, timeout=None):
        self.urls.append(url)
        if isinstance(self.payload, Exception):
            raise self.payload
        return io.BytesIO(self.payload)


def cache_leftovers(cache: Path) -> list[str]:
    return sorted(p.name for p in (cache / "beir").iterdir()) if (cache / "beir").exists() else []


def test_download_verifies_md5_unzips_and_caches(tmp_path, monkeypatch):
    payload = beir_zip("scifact", folder=tmp_path / "src")
    monkeypatch.setitem(datasets.BEIR_DATASETS, "scifact", hashlib.md5(payload).hexdigest())
    opener = FakeOpener(payload)
    monkeypatch.setattr(datasets, "_urlopen", opener)
    cache = tmp_path / "cache"

    ds = load("scifact", cache_dir=cache)
    assert opener.urls == [BEIR_URL.format(name="scifact")]
    assert opener.urls[0] == "https://public.ukp.informatik.tu-darmstadt.de/thakur/BEIR/datasets/scifact.zip"
    assert ds.name == "scifact"
    assert ds.queries == {"q1": "tea", "q2": "coffee"}
    assert cache_leftovers(cache) == ["scifact"]  # no zip, no temp folder left behind

    again = load("scifact", cache_dir=cache)  # served from the cache, no second request
    assert len(opener.urls) == 1
    assert again.corpus == ds.corpus


def test_download_shows_progress_in_bytes(tmp_path, monkeypatch, capsys):
    payload = beir_zip("scifact", folder=tmp_path / "src")
    monkeypatch.setitem(datasets.BEIR_DATASETS, "scifact", hashlib.md5(payload).hexdigest())
    monkeypatch.setattr(datasets, "_urlopen", FakeOpener(payload))
    monkeypatch.setenv("RETEVAL_PROGRESS", "text")
    monkeypatch.setattr("reteval._util.progress._DELAY_SECONDS", 0)
    load("scifact", cache_dir=tmp_path / "cache")
    err = capsys.readouterr().err
    assert "downloading scifact.zip" in err and "B" in err


def test_download_checksum_mismatch_leaves_no_cache(tmp_path, monkeypatch):
    payload = beir_zip("scifact", folder=tmp_path / "src")
    # the real published md5 of scifact.zip cannot match this small test zip
    assert datasets.BEIR_DATASETS["scifact"] == "5f7d1de60b170fc8027bb7898e2efca1"
    monkeypatch.setattr(datasets, "_urlopen", FakeOpener(payload))
    cache = tmp_path / "cache"
    with pytest.raises(DownloadError, match="checksum mismatch.*5f7d1de60b170fc8027bb7898e2efca1"):
        load("scifact", cache_dir=cache)
    assert cache_leftovers(cache) == []


def test_offline_error_names_url_and_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(
        datasets, "_urlopen", FakeOpener(urllib.error.URLError("Name or service not known"))
    )
    cache = tmp_path / "cache"
    with pytest.raises(DownloadError) as info:
        load("nfcorpus", cache_dir=cache)
    message = str(info.value)
    assert BEIR_URL.format(name="nfcorpus") in message
    assert str(cache / "beir" / "nfcorpus") in message
    assert "Name or service not known" in message
    assert isinstance(info.value, RetevalError)
    assert cache_leftovers(cache) == []


def test_http_error_is_a_download_error(tmp_path, monkeypatch):
    error = urllib.error.HTTPError(BEIR_URL.format(name="fiqa"), 503, "Unavailable", {}, None)
    monkeypatch.setattr(datasets, "_urlopen", FakeOpener(error))
    with pytest.raises(DownloadError, match="Unavailable"):
        load("fiqa", cache_dir=tmp_path)


def test_unpublished_checksum_is_recorded_then_enforced(tmp_path, monkeypatch):
    name = "webis-touche2020"
    assert datasets.BEIR_DATASETS[name] is None
    payload = beir_zip(name, folder=tmp_path / "src")
    monkeypatch.setattr(datasets, "_urlopen", FakeOpener(payload))
    cache = tmp_path / "cache"
    load(name, cache_dir=cache)
    record = json.loads((cache / "beir" / "checksums.json").read_text())
    assert record == {name: hashlib.sha256(payload).hexdigest()}

    # the cached folder disappears and the server now sends different bytes
    shutil.rmtree(cache / "beir" / name)
    other = beir_zip(name, folder=tmp_path / "src2", corpus=['{"_id": "d1", "text": "changed"}'])
    monkeypatch.setattr(datasets, "_urlopen", FakeOpener(other))
    with pytest.raises(DownloadError, match="sha256 recorded on the first download"):
        load(name, cache_dir=cache)
    assert cache_leftovers(cache) == ["checksums.json"]


def test_cache_dir_defaults_to_environment(tmp_path, monkeypatch):
    payload = beir_zip("arguana", folder=tmp_path / "src")
    monkeypatch.setitem(datasets.BEIR_DATASETS, "arguana", hashlib.md5(payload).hexdigest())
    monkeypatch.setattr(datasets, "_urlopen", FakeOpener(payload))
    monkeypatch.setenv("RETEVAL_CACHE", str(tmp_path / "envcache"))
    assert datasets.default_cache_dir() == tmp_path / "envcache"
    load("arguana")
    assert (tmp_path / "envcache" / "beir" / "arguana" / "corpus.jsonl").is_file()


def test_cache_dir_default_without_environment(monkeypatch):
    monkeypatch.delenv("RETEVAL_CACHE", raising=False)
    assert datasets.default_cache_dir() == Path.home() / ".cache" / "reteval"


def test_not_a_zip(tmp_path, monkeypatch):
    payload = b"<html>maintenance</html>"
    monkeypatch.setitem(datasets.BEIR_DATASETS, "quora", hashlib.md5(payload).hexdigest())
    monkeypatch.setattr(datasets, "_urlopen", FakeOpener(payload))
    with pytest.raises(DownloadError, match="not a valid zip"):
        load("quora", cache_dir=tmp_path)
    assert cache_leftovers(tmp_path) == []


def test_zip_escaping_the_cache_is_refused(tmp_path, monkeypatch):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("../../evil.txt", "x")
    payload = buffer.getvalue()
    monkeypatch.setitem(datasets.BEIR_DATASETS, "scidocs", hashlib.md5(payload).hexdigest())
    monkeypatch.setattr(datasets, "_urlopen", FakeOpener(payload))
    with pytest.raises(DownloadError, match="refusing to extract"):
        load("scidocs", cache_dir=tmp_path / "c")
    assert not list(tmp_path.rglob("evil.txt"))
    assert cache_leftovers(tmp_path / "c") == []


def test_zip_without_a_corpus_is_refused(tmp_path, monkeypatch):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("trec-covid/README.txt", "nothing here")
    payload = buffer.getvalue()
    monkeypatch.setitem(datasets.BEIR_DATASETS, "trec-covid", hashlib.md5(payload).hexdigest())
    monkeypatch.setattr(datasets, "_urlopen", FakeOpener(payload))
    with pytest.raises(DownloadError, match="corpus.jsonl"):
        load("trec-covid", cache_dir=tmp_path)
    assert cache_leftovers(tmp_path) == []


# --------------------------------------------------------------------------- shared data


def shared_dataset(name: str) -> Path:
    path = SHARED / "data" / name
    if not path.is_dir():
        pytest.skip(f"{path} is not available")
    return path


def test_scifact_loads():
    # counts from the BEIR paper and ../shared/data/scifact/README.md
    ds = load(shared_dataset("scifact"))
    assert (len(ds.corpus), len(ds.queries), len(ds.qrels)) == (5183, 300, 339)
    assert set(ds.qrels["relevance"]) == {1}
    assert ds.qrels["query_id"].nunique() == 300


def test_cranfield_loads():
    # counts from ../shared/data/cranfield/README.md (1400 docs, 225 queries, 1837 judgments)
    ds = load(shared_dataset("cranfield"))
    assert (len(ds.corpus), len(ds.queries), len(ds.qrels)) == (1400, 225, 1837)
    assert set(ds.qrels["relevance"]) == {1, 2, 3, 4}
    # docs 471 and 995 are empty in the source and stay empty
    assert ds.corpus["471"] == {"title": "", "text": ""}


# --------------------------------------------------------------------------- input hygiene


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("gz", [False, True])
def test_bom_and_any_line_ending_read_the_same(tmp_path, ending, gz):
    folder = write_beir(tmp_path / "toy", gz=gz)
    for path in folder.rglob("*"):
        if path.is_file():
            opener = gzip.open if gz else open
            with opener(path, "rb") as handle:
                text = handle.read().decode().replace("\n", ending)
            with opener(path, "wb") as handle:
                handle.write(b"\xef\xbb\xbf" + text.encode())
    data = datasets.load_beir(folder)
    assert sorted(data.corpus) == ["d1", "d2", "d3"]
    assert sorted(data.queries) == ["q1", "q2"]  # q3 has no judgments in this split
    assert data.qrels[["query_id", "doc_id", "relevance"]].values.tolist() == [
        ["q1", "d1", 2], ["q1", "d2", 0], ["q2", "d2", 1]]


def test_damaged_gzip_names_the_file(tmp_path):
    folder = write_beir(tmp_path / "toy", gz=True)
    path = folder / "corpus.jsonl.gz"
    data = bytearray(gzip.compress(gzip.decompress(path.read_bytes()) * 200))
    data[20] ^= 0xFF
    data[21] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(InputError, match=r"corpus.jsonl.gz: damaged gzip data"):
        datasets.load_beir(folder)


@pytest.mark.parametrize(("line", "message"), [
    ('{"_id": "d9", "text": NaN}', "NaN is not a JSON number"),
    ('{"_id": "\\ud800", "text": "x"}', "lone surrogate"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
])
def test_json_that_python_would_take_but_json_does_not(tmp_path, line, message):
    folder = write_beir(tmp_path / "toy", corpus=[json.dumps({"_id": "d1", "text": "x"}), line])
    with pytest.raises(InputError, match=rf"corpus.jsonl:2: malformed JSON .*{message}"):
        datasets.load_beir(folder)


def test_undecodable_bytes_name_the_line(tmp_path):
    folder = write_beir(tmp_path / "toy")
    path = folder / "queries.jsonl"
    path.write_bytes(path.read_bytes() + b'{"_id": "q9", "text": "\xff"}\n')
    with pytest.raises(InputError, match=r"queries.jsonl:4: not UTF-8"):
        datasets.load_beir(folder)


@pytest.mark.parametrize("score", ["1_0", "٣", "99999999999999999999"])
def test_qrels_scores_follow_the_number_grammar(tmp_path, score):
    folder = write_beir(tmp_path / "toy", qrels=[f"q1\td1\t{score}"])
    with pytest.raises(InputError,
                       match=r"test.tsv:1: relevance (is not a number|is outside)"):
        datasets.load_beir(folder)


def test_qrels_fractional_grades_are_read(tmp_path):
    folder = write_beir(tmp_path / "toy", qrels=["query-id\tcorpus-id\tscore", "q1\td1\t0.75"])
    assert datasets.load_beir(folder).qrels["relevance"].tolist() == [0.75]


# --------------------------------------------------------------------------- download faults


class _CutResponse(io.BytesIO):
    """A response that delivers part of its body, then fails or ends early."""

    def __init__(self, payload: bytes, *, declared: int, error: Exception | None):
        super().__init__(payload[: len(payload) // 2])
        self.headers = {"Content-Length": str(declared)}
        self.error = error

    def read(self, size=-1):
        chunk = super().read(size)
        if not chunk and self.error is not None:
            raise self.error
        return chunk


@pytest.mark.parametrize("error", [None, http.client.IncompleteRead(b"x", 10),
                                   ConnectionResetError("reset by peer")])
def test_interrupted_download_is_a_download_error(tmp_path, monkeypatch, error):
    payload = beir_zip("scifact", folder=tmp_path / "src")
    monkeypatch.setitem(datasets.BEIR_DATASETS, "scifact", hashlib.md5(payload).hexdigest())
    monkeypatch.setattr(datasets, "_urlopen", lambda url, timeout=None: _CutResponse(
        payload, declared=len(payload), error=error))
    cache = tmp_path / "cache"
    with pytest.raises(DownloadError,
                       match="could not download dataset 'scifact'.*interrupted|reset"):
        load("scifact", cache_dir=cache)
    assert cache_leftovers(cache) == []


def test_cache_folder_that_is_a_file(tmp_path, monkeypatch):
    monkeypatch.setattr(datasets, "_urlopen", FakeOpener(b""))
    cache = tmp_path / "cache"
    cache.write_text("not a folder")
    with pytest.raises(InputError, match="cannot use the dataset cache folder") as info:
        load("scifact", cache_dir=cache)
    assert str(cache / "beir") in str(info.value)


@pytest.mark.parametrize(("drop", "named"), [("queries.jsonl", "queries.jsonl"),
                                            ("qrels/test.tsv", "qrels/<split>.tsv")])
def test_archive_without_the_beir_layout_never_enters_the_cache(tmp_path, monkeypatch, drop, named):
    folder = tmp_path / "src"
    write_beir(folder)
    (folder / drop).unlink()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, f"scifact/{path.relative_to(folder).as_posix()}")
    payload = buffer.getvalue()
    monkeypatch.setitem(datasets.BEIR_DATASETS, "scifact", hashlib.md5(payload).hexdigest())
    monkeypatch.setattr(datasets, "_urlopen", FakeOpener(payload))
    cache = tmp_path / "cache"
    with pytest.raises(DownloadError, match=f"does not hold a BEIR folder: no {re.escape(named)}"):
        load("scifact", cache_dir=cache)
    assert cache_leftovers(cache) == []


def test_archive_that_expands_a_thousandfold_is_refused(tmp_path, monkeypatch):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("scifact/corpus.jsonl", b" " * 20_000_000)
    payload = buffer.getvalue()
    assert len(payload) * 1000 < 20_000_000
    monkeypatch.setitem(datasets.BEIR_DATASETS, "scifact", hashlib.md5(payload).hexdigest())
    monkeypatch.setattr(datasets, "_urlopen", FakeOpener(payload))
    cache = tmp_path / "cache"
    with pytest.raises(DownloadError, match="expands to 20000000 bytes"):
        load("scifact", cache_dir=cache)
    assert cache_leftovers(cache) == []


# --------------------------------------------------------------------------- property: any bytes


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["corpus.jsonl", "queries.jsonl", "qrels/test.tsv"]),
       st.binary(max_size=300), st.sampled_from(["", "bom", "gzip", "cut-gzip"]),
       st.sampled_from(["\n", "\r\n", "\r"]))
def test_any_bytes_in_any_part_load_or_raise_input_error(tmp_path_factory, part, data, shape,
                                                         ending):
    import warnings

    folder = write_beir(tmp_path_factory.mktemp("beir") / "toy")
    path = folder / part
    good = path.read_bytes().replace(b"\n", ending.encode())
    data = good + data  # random bytes after good records, so that parsing gets that far
    if shape == "bom":
        data = b"\xef\xbb\xbf" + data
    elif shape in ("gzip", "cut-gzip"):
        data = gzip.compress(data)
        if shape == "cut-gzip":
            data = data[: len(data) - 5]
    path.write_bytes(data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DatasetWarning)
        try:
            ds = datasets.load_beir(folder)
        except InputError:
            return
    assert set(ds.qrels["query_id"]) <= set(ds.queries)
    assert all(isinstance(k, str) for k in ds.corpus)
