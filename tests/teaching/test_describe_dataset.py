"""describe_dataset: a notebook run on another dataset says so, in the edition's language."""

import json
import shutil

import pytest
from paths import ROOT

from reteval.datasets import load
from reteval.errors import InputError
from reteval.teaching import describe_dataset
from reteval.teaching.datasets import is_teaching_collection


def tiny_beir(folder):
    """Three documents, two queries, three judgments in the BEIR layout."""
    (folder / "qrels").mkdir(parents=True)
    docs = [{"_id": f"d{i}", "title": f"title {i}", "text": f"text {i}"} for i in (1, 2, 3)]
    (folder / "corpus.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs))
    queries = [{"_id": "q1", "text": "first"}, {"_id": "q2", "text": "second"}]
    (folder / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries))
    (folder / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t2\nq2\td3\t1\n")
    return folder


def test_the_teaching_collection_is_only_described():
    teaching = load("teaching")
    assert describe_dataset(teaching, "zh") == (
        "数据集 teaching：188 个文档，36 条查询，554 个相关性判断")
    assert describe_dataset(teaching, "en") == (
        "Dataset(name='teaching', documents=188, queries=36, judgments=554)")


def test_another_dataset_gets_a_note_in_the_editions_language(tmp_path):
    tiny = load(tiny_beir(tmp_path / "tiny"))
    assert describe_dataset(tiny, "zh") == (
        "数据集 tiny：3 个文档，2 条查询，3 个相关性判断\n"
        "注意：本笔记本的正文是为教学数据集写的，引用的是教学数据集的数字；"
        "下面的输出都来自数据集 tiny（2 条查询，3 个文档），所以会与正文的数字不同。")
    assert describe_dataset(tiny, "en") == (
        "Dataset(name='tiny', documents=3, queries=2, judgments=3)\n"
        "Note: the text of this notebook was written for the teaching collection and quotes its "
        "numbers; the outputs below are those of the dataset tiny (2 queries, 3 documents), so "
        "they differ from the numbers in the text.")
    with pytest.raises(InputError, match="lang must be 'zh' or 'en'; got 'fr'"):
        describe_dataset(tiny, "fr")


def test_the_teaching_collection_is_known_by_its_content_not_its_name(tmp_path):
    named_teaching = load(tiny_beir(tmp_path / "teaching"))
    assert named_teaching.name == "teaching" and not is_teaching_collection(named_teaching)
    assert "Note:" in describe_dataset(named_teaching, "en")
    copy = shutil.copytree(ROOT / "reteval" / "datasets" / "data" / "teaching", tmp_path / "mine")
    assert is_teaching_collection(load(copy))
    assert describe_dataset(load(copy), "en") == (
        "Dataset(name='mine', documents=188, queries=36, judgments=554)")
    # The same documents judged by the second assessor: other numbers than the text's.
    assert not is_teaching_collection(load("teaching", split="second_assessor"))
