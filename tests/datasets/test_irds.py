"""ir_datasets collections through reteval.datasets.load("irds:..."), offline.

The collection is built from local files with ir_datasets' own classes and
registered under a fresh id, so the whole ir_datasets path runs (registry,
format readers, document store) with no network.
"""

from __future__ import annotations

import uuid

import pytest

ir_datasets = pytest.importorskip("ir_datasets")

from reteval import evaluate
from reteval.datasets import Dataset, DatasetWarning, load
from reteval.errors import InputError
from reteval.retrievers import make_retriever


@pytest.fixture
def tiny(tmp_path, monkeypatch):
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
    ir_datasets.registry.register(dataset_id, IrdsDataset(
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
