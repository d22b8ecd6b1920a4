"""reteval.teaching.chapter_evaluator and reteval.teaching.depth: hand-computed values."""

from types import SimpleNamespace

import pytest

import reteval
from reteval.errors import InputError
from reteval.teaching.chapter_evaluator import (
    RetrievalEvaluator,
    chapter_retriever,
    evaluation_set,
)
from reteval.teaching.depth import pad_run, shared_prefix

QRELS = {"q1": {"d1": 3, "d2": 0, "d3": 1}, "q2": {"d4": 2}}
QUERIES = {"q1": "python", "q2": "机器学习"}
RUN = {"q1": {"d2": 0.9, "d1": 0.8, "d9": 0.1}, "q2": {"d8": 0.5, "d4": 0.4}}


def test_evaluation_set_builds_the_chapter_records():
    records = evaluation_set(QUERIES, QRELS)
    assert [(r.query_id, r.query) for r in records] == [("q1", "python"), ("q2", "机器学习")]
    assert records[0].relevant_docs == ["d1", "d3"]
    assert records[0].relevance_scores == {"d1": 3, "d2": 0, "d3": 1}
    assert evaluation_set(QUERIES, QRELS, relevance_level=2)[0].relevant_docs == ["d1"]


def test_chapter_evaluator_by_hand():
    evaluator = RetrievalEvaluator(evaluation_set(QUERIES, QRELS))
    got = evaluator.evaluate_retriever(chapter_retriever(RUN, QUERIES), [2])
    # q1 ranks d2 (0), d1 (3), d9: recall@2 = 1/2, precision@2 = 1/2, RR = 1/2
    # q2 ranks d8, d4 (2): recall@2 = 1, precision@2 = 1/2, RR = 1/2
    assert got["recall@2"] == pytest.approx((0.5 + 1) / 2)
    assert got["precision@2"] == pytest.approx(0.5)
    assert got["mrr"] == pytest.approx(0.5)
    # exponential gain: q1 DCG = 7/log2(3), IDCG = 7 + 1/log2(3); q2 DCG = 3/log2(3), IDCG = 3
    import math
    ndcg_q1 = (7 / math.log2(3)) / (7 + 1 / math.log2(3))
    ndcg_q2 = (3 / math.log2(3)) / 3
    assert got["ndcg@2"] == pytest.approx((ndcg_q1 + ndcg_q2) / 2)
    # reteval's nDCG_exp@2 is the same number; nDCG@2 (linear gain) is not.
    ours = reteval.evaluate(QRELS, RUN, ["nDCG_exp@2", "nDCG@2"]).mean()
    assert ours["nDCG_exp@2"] == pytest.approx(got["ndcg@2"])
    assert abs(ours["nDCG@2"] - got["ndcg@2"]) > 0.01
    assert "map" not in got and not any(key.startswith("ap") for key in got)


def test_chapter_evaluator_flaws_are_real():
    # One default list object, shared by every call.
    default = RetrievalEvaluator.evaluate_retriever.__defaults__[0]
    assert default == [1, 3, 5, 10]
    evaluator = RetrievalEvaluator(evaluation_set(QUERIES, QRELS))
    assert RetrievalEvaluator.evaluate_retriever.__defaults__[0] is default
    # Documents without an id score 0 everywhere, silently.
    def no_ids(query):
        return [SimpleNamespace(page_content="x", metadata={}) for _ in range(3)]
    got = evaluator.evaluate_retriever(no_ids, [1])
    assert got == {"recall@1": 0.0, "precision@1": 0.0, "ndcg@1": 0.0, "mrr": 0.0}


def test_chapter_retriever_orders_like_trec_eval_and_rejects_shared_texts():
    retrieve = chapter_retriever({"q1": {"a": 1.0, "b": 1.0, "c": 2.0}}, {"q1": "t"})
    assert [d.metadata["id"] for d in retrieve("t")] == ["c", "b", "a"]  # ties: doc id descending
    assert retrieve("unknown text") == []
    with pytest.raises(InputError, match="share the text 'same'"):
        chapter_retriever(RUN, {"q1": "same", "q2": "same"})


def test_pad_run_keeps_the_ranking_and_fills_to_depth():
    docs = [f"d{i}" for i in range(10)]
    padded = pad_run({"q": {"d3": 2.0, "d7": 1.0}, "r": {f"d{i}": float(i) for i in range(6)}},
                     docs, 5, rng=1)
    q = padded[padded.query_id == "q"]
    assert q["doc_id"].tolist()[:2] == ["d3", "d7"] and len(q) == 5
    assert q["doc_id"].is_unique and set(q["doc_id"]) <= set(docs)
    assert len(padded[padded.query_id == "r"]) == 6  # already deeper: unchanged
    assert pad_run({"q": {"d3": 1.0}}, docs, 5, rng=1).equals(
        pad_run({"q": {"d3": 1.0}}, docs, 5, rng=1))
    with pytest.raises(InputError, match="depth must be a positive integer"):
        pad_run(RUN, docs, 0, rng=0)


def test_shared_prefix():
    frame = shared_prefix({"q": {"a": 3, "b": 2, "c": 1}, "r": {"x": 1}},
                          {"q": {"a": 3, "c": 2, "b": 1}})
    assert frame.loc["q"].tolist() == [3, 3, 1]
    assert frame.loc["r"].tolist() == [1, 0, 0]


def test_the_class_is_the_chapters_text():
    import inspect

    from paths import SHARED

    chapter = SHARED / "seed" / "chapter7-retrieval-evaluation.zh.txt"
    if not chapter.is_file():
        pytest.skip(f"the chapter's text is not at {chapter}")
    text = chapter.read_text(encoding="utf-8")
    assert inspect.getsource(RetrievalEvaluator) in text
