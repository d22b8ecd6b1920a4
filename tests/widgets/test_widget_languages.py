"""The explorers in the Chinese edition: every label a student reads is Chinese."""

import html
import re

import pandas as pd
import pytest

from reteval.datasets import Dataset
from reteval.errors import InputError
from reteval.widgets import ABPlanner, KCurveExplorer, MetricExplorer, QueryExplorer

# Names and symbols a Chinese label keeps: measures, formulas, the Latin letter K.
KEPT = {"K", "P@", "R@", "RR", "AP", "nDCG@", "log2", "JupyterLab", "Jupyter", "VS", "Code"}


def _words(text: str) -> list[str]:
    text = re.sub(r"<style>.*?</style>", " ", text, flags=re.DOTALL)
    text = re.sub(r"<[^>]+>", " ", html.unescape(text))  # tags are not read
    text = re.sub(r"[A-Za-z]+@\d+|d\d|q\d", " ", text)  # measure names, document and query ids
    return [w for w in re.findall(r"[A-Za-z][A-Za-z0-9_]*", text)
            if len(w) > 1 and w not in KEPT]


@pytest.fixture
def collection():
    corpus = {d: {"title": "", "text": ""} for d in ("d1", "d2", "d3")}
    qrels = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["d1", "d3"], "relevance": [2, 1]})
    runs = {"a": {"q1": {"d1": 0.9, "d2": 0.8}}, "b": {"q1": {"d2": 0.9, "d3": 0.5}}}
    return Dataset("tiny", corpus, {"q1": "检索"}, qrels), runs


def test_metric_explorer_in_chinese():
    explorer = MetricExplorer([1, 0, 2], k=2, unretrieved=(1,), lang="zh")
    labels = [explorer.missing_slider.description, explorer.missing_grade.description,
              explorer.widget.children[0].value, explorer.table_html.value]
    assert [w for label in labels for w in _words(label)] == []
    assert "已判断但未返回" in explorer.table_html.value
    english = MetricExplorer([1, 0, 2], k=2, unretrieved=(1,))
    assert "<th>rank i</th>" in english.table_html.value  # English stays the default


def test_query_explorer_in_chinese(collection):
    dataset, runs = collection
    explorer = QueryExplorer(dataset, runs, k=2, lang="zh")
    labels = [explorer.query_select.description, explorer.left_select.description,
              explorer.right_select.description, explorer.left_html.value,
              explorer.right_html.value]
    assert [w for label in labels for w in _words(label)] == []
    assert "未判断" in explorer.left_html.value and "<th>排名</th>" in explorer.left_html.value


def test_k_curve_explorer_and_planner_in_chinese(collection):
    dataset, runs = collection
    curves = KCurveExplorer(dataset.qrels, runs, max_k=3, k=2, lang="zh")
    assert _words(curves.values_html.value) == []
    planner = ABPlanner(baseline=0.10, effect=0.02, lang="zh")
    rates, _formula, size = planner.plan.describe("zh")  # the formula is a formula
    labels = [s.description for s in planner.sliders] + [rates, size]
    assert [w for label in labels for w in _words(label)] == []
    bundle = planner._repr_mimebundle_()
    assert "需要运行中的内核" in bundle["text/html"]


def test_explorers_check_the_language():
    with pytest.raises(InputError, match="lang must be 'zh' or 'en'; got 'fr'"):
        MetricExplorer(lang="fr")
