"""ir_datasets collections through reteval.datasets.load("irds:..."), offline.

The collection is built from local files with ir_datasets' own classes and
registered under a fresh id, so the whole ir_datasets path runs (registry,
format readers, document store) with no network.
"""

from __future__ import annotations

import re
import uuid

import pytest

from reteval import evaluate
from reteval.datasets import Dataset, DatasetWarning, load
from reteval.errors import InputError
from reteval.retrievers import make_retriever


@pytest.fixture(scope="module", autouse=True)
def _ir_datasets():
    """ir_datasets, imported when this file's tests run, not when pytest collects them (with
    the libraries it loads, about a second on each worker of a new environment)."""
    pytest.importorskip("ir_datasets")


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    from ir_datasets import registry
    from ir_datasets.datasets.base import Dataset as IrdsDataset
    from ir_datasets.formats import TrecQrels, TsvDocs, TsvQueries
    from ir_datasets.util import LocalDownload

    monkeypatch.setenv("IR_DATASETS_HOME", str(tmp_path / "home"))
    (tmp_path / "docs.tsv").write_text(
        "d1\tBM25 is a ranking function\nd2\tvector search uses embeddings\n"
        "d3\t检索评估 召回率\nd4\tunrelated text\n", encoding="utf-8")
    (tmp_path / "queries.tsv").write_text("q1\tranking function\nq2\t召回率\nq3\tno judgments\n",
                                          encoding="utf-8")
    (tmp_path / "qrels.txt").write_text("q1 0 d1 2\nq1 0 d4 0\nq2 0 d3 1\nq9 0 d2 1\n")
    dataset_id = f"reteval-test/{uuid.uuid4().hex}"
    registry.register(dataset_id, IrdsDataset(
        TsvDocs(LocalDownload(tmp_path / "docs.tsv")),
        TsvQueries(LocalDownload(tmp_path / "queries.tsv")),
        TrecQrels(LocalDownload(tmp_path / "qrels.txt"), {0: "no", 1: "yes", 2: "very"}),
    ))
    return dataset_id


def test_same_collection_object_as_a_beir_folder(tiny):
    with pytest.warns(DatasetWarning, match="1 judgments for queries without text dropped"):
        ds = load(f"irds:{tiny}")
    assert isinstance(ds, Dataset) and ds.name == f"irds:{tiny}"
    assert ds.queries == {"q1": "ranking function", "q2": "召回率"}  # q3 has no judgment
    assert ds.qrels.values.tolist() == [["q1", "d1", 2], ["q1", "d4", 0], ["q2", "d3", 1]]
    assert str(ds.qrels["relevance"].dtype) == "int64"
    # The corpus streams in file order and looks documents up by id.
    assert list(ds.corpus) == ["d1", "d2", "d3", "d4"] and len(ds.corpus) == 4
    assert ds.corpus["d3"] == {"title": "", "text": "检索评估 召回率"}
    assert dict(ds.corpus.items())["d2"]["text"] == "vector search uses embeddings"
    with pytest.raises(KeyError):
        ds.corpus["nope"]


def test_retrievers_and_evaluate_run_on_it(tiny):
    with pytest.warns(DatasetWarning):
        ds = load(f"irds:{tiny}")
    run = make_retriever("bm25", ds.corpus).run(ds.queries, k=2)
    scores = evaluate(ds.qrels, run, ["RR", "NumRel"])
    assert scores.loc["q1", "RR"] == 1.0  # d1 shares both terms of the query
    assert scores["NumRel"].tolist() == [1, 1]


def test_unknown_id_is_an_input_error():
    with pytest.raises(InputError, match="unknown ir_datasets id 'no-such/collection'"):
        load("irds:no-such/collection")


class _Offline:
    """A download that fails as ir_datasets' do with no network (or a failed retry)."""

    def __init__(self, error):
        self.error = error

    def stream(self):
        raise self.error

    def path(self, force=True):
        raise self.error


OFFLINE_ERRORS = {
    "connection": lambda: __import__("requests").ConnectionError(
        "HTTPSConnectionPool(host='example.invalid'): Failed to resolve 'example.invalid'"),
    "runtime": lambda: RuntimeError("download failed after 3 attempts"),
}


@pytest.mark.parametrize("error", sorted(OFFLINE_ERRORS))
@pytest.mark.parametrize("part", ["queries", "qrels", "docs"])
def test_a_collection_ir_datasets_cannot_get_is_one_clear_error(tmp_path, monkeypatch, capsys,
                                                                part, error):
    from ir_datasets import registry
    from ir_datasets.datasets.base import Dataset as IrdsDataset
    from ir_datasets.formats import TrecQrels, TsvDocs, TsvQueries
    from ir_datasets.util import LocalDownload

    from reteval.cli import main
    from reteval.datasets import DownloadError

    monkeypatch.setenv("IR_DATASETS_HOME", str(tmp_path / "home"))
    (tmp_path / "docs.tsv").write_text("d1\tranking\n")
    (tmp_path / "queries.tsv").write_text("q1\tranking\n")
    (tmp_path / "qrels.txt").write_text("q1 0 d1 1\n")
    source = {name: LocalDownload(tmp_path / file) for name, file in
              [("docs", "docs.tsv"), ("queries", "queries.tsv"), ("qrels", "qrels.txt")]}
    source[part] = _Offline(OFFLINE_ERRORS[error]())
    dataset_id = f"reteval-test/{uuid.uuid4().hex}"
    registry.register(dataset_id, IrdsDataset(
        TsvDocs(source["docs"]), TsvQueries(source["queries"]),
        TrecQrels(source["qrels"], {1: "yes"})))
    what = {"queries": "queries", "qrels": "judgments", "docs": "documents"}[part]
    expected = f"irds:{dataset_id}: cannot get its {what}"
    with pytest.raises(DownloadError, match=re.escape(expected)):
        ds = load(f"irds:{dataset_id}")
        list(ds.corpus)
    argv = ["monitor", str(tmp_path / "h.sqlite"), "--retriever", "bm25", "--dataset",
            f"irds:{dataset_id}", "--baseline", "none"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "error:" in line]
    assert len(lines) == 1 and expected in lines[0] and "Traceback" not in err, err
