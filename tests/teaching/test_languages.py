"""Recall by language direction: hand-made collections with counts worked out by hand."""

import math

import pytest

from reteval.errors import InputError
from reteval.teaching.languages import DIRECTIONS, recall_by_direction, text_language

QUERIES = {"qz": "数据库索引", "qe": "database indexes"}
CORPUS = {
    "z1": {"title": "索引", "text": "B 树索引让查询更快。"},
    "z2": "事务与锁",
    "e1": {"title": "Indexes", "text": "A B-tree index speeds up lookups."},
    "e2": "Python packaging",
}
# qz: relevant z1 (zh→zh) and e1 (zh→en); qe: relevant z1 (en→zh), e1 and e2 (en→en).
QRELS = {"qz": {"z1": 2, "e1": 1, "z2": 0}, "qe": {"z1": 1, "e1": 3, "e2": 1, "z2": 0}}


def test_text_language():
    assert text_language("Python 装饰器") == "zh"
    assert text_language("pandas data analysis") == "en"
    assert text_language("") == "en"
    with pytest.raises(InputError, match="text must be a str; got int"):
        text_language(3)


def test_counts_by_direction_at_two_depths():
    # Scores put e2 above z1 for qe; ties are broken by doc id descending (trec_eval's order):
    # for qz, z2 and e1 tie at 0.5, so z2 comes first.
    run = {"qz": {"z1": 0.9, "z2": 0.5, "e1": 0.5}, "qe": {"e2": 0.8, "z1": 0.7, "e1": 0.1}}
    top1 = recall_by_direction(QRELS, run, QUERIES, CORPUS, k=1)
    assert list(top1.index) == list(DIRECTIONS)
    assert top1["relevant"].tolist() == [1, 1, 1, 2]
    assert top1["found"].tolist() == [1, 0, 0, 1]  # qz: z1; qe: e2
    top2 = recall_by_direction(QRELS, run, QUERIES, CORPUS, k=2)
    assert top2["found"].tolist() == [1, 0, 1, 1]  # qz: z1, z2 (tie won by z2); qe: e2, z1
    assert top2["recall"].tolist() == [1.0, 0.0, 1.0, 0.5]
    top3 = recall_by_direction(QRELS, run, QUERIES, CORPUS, k=3)
    assert top3["found"].tolist() == [1, 1, 1, 2]


def test_direction_without_pairs_is_nan():
    table = recall_by_direction({"qe": {"e1": 1}}, {"qe": ["e1"]}, QUERIES, CORPUS, k=5)
    assert table.loc["en→en", "recall"] == 1.0
    assert all(math.isnan(table.loc[d, "recall"]) for d in ("zh→zh", "zh→en", "en→zh"))


def test_bad_input_is_named():
    with pytest.raises(InputError, match="k must be a positive integer; got 0"):
        recall_by_direction(QRELS, {"qz": ["z1"]}, QUERIES, CORPUS, k=0)
    with pytest.raises(InputError, match=r"judged queries without a text: \['qx'\]"):
        recall_by_direction({"qx": {"z1": 1}}, {"qx": ["z1"]}, QUERIES, CORPUS, k=1)
    with pytest.raises(InputError, match=r"judged documents not in the corpus: \['zz'\]"):
        recall_by_direction({"qz": {"zz": 1}}, {"qz": ["z1"]}, QUERIES, CORPUS, k=1)
    with pytest.raises(InputError, match="document 'z9' must be a str or a mapping"):
        recall_by_direction(QRELS, {"qz": ["z1"]}, QUERIES, {**CORPUS, "z9": 3}, k=1)
