"""Tests of reteval.retrievers.fusion against hand-computed values."""

from fractions import Fraction as F

import numpy as np
import pandas as pd
import pytest

from reteval.errors import InputError
from reteval.retrievers.fusion import (
    comb_mnz,
    comb_sum,
    fuse,
    normalize_scores,
    reciprocal_rank_fusion,
)


def run(rows):
    q, d, s = zip(*rows, strict=True)
    return pd.DataFrame({"query_id": list(q), "doc_id": list(d), "score": list(s)})


# Run A ranks d1 > d2 > d3, run B ranks d3 > d1 > d4 (query q).
A = run([("q", "d1", 3.0), ("q", "d2", 2.0), ("q", "d3", 1.0)])
B = run([("q", "d3", 0.9), ("q", "d1", 0.5), ("q", "d4", 0.1)])


def as_dict(fused):
    return dict(zip(fused["doc_id"], fused["score"], strict=True))


def test_rrf_hand_computed():
    # d1: ranks 1 and 2; d3: ranks 3 and 1; d2: rank 2 in A; d4: rank 3 in B.
    expected = {
        "d1": F(1, 61) + F(1, 62),
        "d3": F(1, 63) + F(1, 61),
        "d2": F(1, 62),
        "d4": F(1, 63),
    }
    fused = reciprocal_rank_fusion([A, B])
    assert fused["doc_id"].tolist() == ["d1", "d3", "d2", "d4"]
    for doc, value in as_dict(fused).items():
        assert value == pytest.approx(float(expected[doc]), rel=1e-15)
    # ranx: fuse([a, b], method="rrf", params={"k": 60}) gives
    # d1 0.03252247488101534, d3 0.032266458495966696, d2 0.016129032258064516
    assert as_dict(fused)["d1"] == pytest.approx(0.03252247488101534, rel=1e-15)


def test_rrf_other_k_and_weights():
    fused = as_dict(reciprocal_rank_fusion([A, B], k=0, weights=[2.0, 1.0]))
    assert fused == pytest.approx({"d1": 2 / 1 + 1 / 2, "d2": 2 / 2, "d3": 2 / 3 + 1 / 1,
                                   "d4": 1 / 3})


def test_rrf_depth_cuts_each_run_before_fusion():
    fused = as_dict(reciprocal_rank_fusion([A, B], depth=1))
    assert fused == pytest.approx({"d1": 1 / 61, "d3": 1 / 61})


def test_rrf_uses_ranks_not_scores():
    scaled = B.assign(score=B["score"] * 1000 - 7)
    pd.testing.assert_frame_equal(reciprocal_rank_fusion([A, B]),
                                  reciprocal_rank_fusion([A, scaled]))


def test_rank_ties_follow_trec_eval_doc_id_descending():
    # Equal scores: trec_eval ranks "b" before "a" (doc id descending).
    tied = run([("q", "a", 1.0), ("q", "b", 1.0)])
    assert as_dict(reciprocal_rank_fusion([tied])) == pytest.approx({"b": 1 / 61, "a": 1 / 62})


def test_fused_ties_are_ordered_by_doc_id_descending():
    x = run([("q", "a", 2.0), ("q", "b", 1.0)])
    y = run([("q", "b", 2.0), ("q", "a", 1.0)])
    assert reciprocal_rank_fusion([x, y])["doc_id"].tolist() == ["b", "a"]


def test_combsum_minmax_hand_computed():
    # min-max: A -> d1 1, d2 .5, d3 0; B -> d3 1, d1 .5, d4 0
    # ranx: fuse([a, b], norm="min-max", method="sum") -> d1 1.5, d3 1.0, d2 0.5, d4 0.0
    fused = comb_sum([A, B])
    assert fused["doc_id"].tolist() == ["d1", "d3", "d2", "d4"]
    assert fused["score"].tolist() == [1.5, 1.0, 0.5, 0.0]


def test_combmnz_minmax_hand_computed():
    # CombSUM times the number of runs that retrieved the document
    # ranx: fuse([a, b], norm="min-max", method="mnz") -> d1 3.0, d3 2.0, d2 0.5, d4 0.0
    assert as_dict(comb_mnz([A, B])) == {"d1": 3.0, "d3": 2.0, "d2": 0.5, "d4": 0.0}


def test_combsum_zscore_hand_computed():
    # A: mean 2, population sd sqrt(2/3) -> d1 +1.2247, d2 0, d3 -1.2247
    # B: mean 0.5, sd sqrt(0.32/3)       -> d3 +1.2247, d1 0, d4 -1.2247
    # ranx: fuse([a, b], norm="zmuv", method="sum") -> d1 1.2247.., d2 0, d3 0, d4 -1.2247..
    z = np.sqrt(1.5)
    fused = as_dict(comb_sum([A, B], normalization="zscore"))
    assert fused == pytest.approx({"d1": z, "d2": 0.0, "d3": 0.0, "d4": -z}, abs=1e-12)


def test_combsum_without_normalization_adds_raw_scores():
    assert as_dict(comb_sum([A, B], normalization=None)) == pytest.approx(
        {"d1": 3.5, "d2": 2.0, "d3": 1.9, "d4": 0.1})


def test_normalize_constant_scores():
    flat = run([("q", "a", 5.0), ("q", "b", 5.0)])
    assert normalize_scores(flat)["score"].tolist() == [1.0, 1.0]
    assert normalize_scores(flat, method="zscore")["score"].tolist() == [0.0, 0.0]


def test_normalization_is_per_query():
    two = run([("q1", "a", 10.0), ("q1", "b", 0.0), ("q2", "a", 1.0), ("q2", "b", 0.5)])
    assert normalize_scores(two)["score"].tolist() == [1.0, 0.0, 1.0, 0.0]


def test_several_queries_keep_first_appearance_order():
    x = run([("q2", "a", 1.0), ("q1", "b", 1.0)])
    y = run([("q3", "c", 1.0), ("q1", "a", 1.0)])
    fused = reciprocal_rank_fusion([x, y])
    assert fused["query_id"].tolist() == ["q2", "q1", "q1", "q3"]
    assert fused[fused.query_id == "q1"]["score"].tolist() == pytest.approx([1 / 61, 1 / 61])


def test_output_dtypes_and_inputs_not_mutated():
    before = A.copy()
    fused = fuse({"a": A, "b": B}, method="combmnz", normalization="zscore")
    pd.testing.assert_frame_equal(A, before)
    assert list(fused.columns) == ["query_id", "doc_id", "score"]
    assert fused["score"].dtype == np.float64
    assert pd.api.types.is_string_dtype(fused["query_id"])
    assert pd.api.types.is_string_dtype(fused["doc_id"])


def test_integer_ids_become_strings():
    x = pd.DataFrame({"query_id": [1, 1], "doc_id": [10, 20], "score": [2, 1]})
    assert fuse([x])["doc_id"].tolist() == ["10", "20"]


def test_fuse_dispatches():
    assert fuse([A, B]).equals(reciprocal_rank_fusion([A, B]))
    assert fuse([A, B], method="combsum").equals(comb_sum([A, B]))


def test_empty_runs_fuse_to_empty_run():
    empty = run([("q", "d", 1.0)]).iloc[:0]
    assert fuse([empty, empty]).empty


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: fuse([A], method="borda"), "method must be one of .*got 'borda'"),
        (lambda: comb_sum([A], normalization="l2"), "normalization must be one of .*got 'l2'"),
        (lambda: reciprocal_rank_fusion([A], k=-1), "k must be a non-negative number; got -1"),
        (lambda: fuse([A, B], weights=[1.0]), "weights must be 2 finite non-negative numbers"),
        (lambda: fuse([A], depth=0), "depth must be None or a positive integer; got 0"),
        (lambda: fuse([]), "at least one run"),
        (lambda: fuse(A), "got one DataFrame"),
        (lambda: fuse([A.drop(columns="score")]),
         r"runs\[0\] must have columns .*missing \['score'\]"),
        (lambda: fuse([A, B.assign(score=np.inf)]), r"runs\[1\]: scores must be finite; got inf"),
        (lambda: fuse([A, B.assign(score="x")]), r"runs\[1\]: scores must be numbers"),
        (lambda: fuse({"bm25": pd.concat([A, A])}),
         "run 'bm25': document 'd1' appears more than once"),
    ],
)
def test_bad_input_is_reported(call, message):
    with pytest.raises(InputError, match=message):
        call()
