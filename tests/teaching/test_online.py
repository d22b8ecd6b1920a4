"""reteval.teaching.online: the judged data and the two rankers of notebooks 07, 07b and 08."""

import pandas as pd
import pytest

from reteval import ab
from reteval.errors import InputError
from reteval.teaching.online import TwoRankers, two_rankers


def test_the_synthetic_collection_is_the_one_of_reteval_ab_with_the_same_seed():
    pair = two_rankers("synthetic", ["ignored"], rng=42)
    qrels, run_a, run_b = ab.synthetic_collection(rng=42)
    pd.testing.assert_frame_equal(pair.qrels, qrels)
    pd.testing.assert_frame_equal(pair.run_a, run_a)
    pd.testing.assert_frame_equal(pair.run_b, run_b)
    assert pair.names == ("synthetic A", "synthetic B")


def test_ranked_orders_by_score_then_doc_id_descending_as_trec_eval():
    run_a = pd.DataFrame({"query_id": ["q1", "q1", "q1", "q2"], "doc_id": ["a", "b", "c", "z"],
                          "score": [1.0, 2.0, 1.0, 5.0]})
    run_b = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["c", "d"], "score": [0.5, 0.7]})
    pair = TwoRankers(pd.DataFrame(columns=["query_id", "doc_id", "relevance"]), run_a, run_b,
                      ("x", "y"))
    # b scores highest; a and c tie at 1.0 and the larger doc id (c) comes first
    assert pair.ranked("q1", 10) == (["b", "c", "a"], ["d", "c"])
    assert pair.ranked("q1", 2) == (["b", "c"], ["d", "c"])
    with pytest.raises(InputError, match="ranker 'y' has no results for query 'q2'"):
        pair.ranked("q2", 3)


def test_a_dataset_runs_the_two_named_retrievers_to_the_depth_asked_for():
    pair = two_rankers("teaching", ["bm25", "lsa"], depth=5)
    assert pair.names == ("bm25", "lsa")
    assert set(pair.qrels.columns) >= {"query_id", "doc_id", "relevance"}
    for run in (pair.run_a, pair.run_b):
        assert run.groupby("query_id").size().max() == 5
    assert not pair.run_a.equals(pair.run_b)


def test_rankers_must_be_two():
    with pytest.raises(InputError, match=r"rankers must name two retrievers; got \['bm25'\]"):
        two_rankers("teaching", ["bm25"])
