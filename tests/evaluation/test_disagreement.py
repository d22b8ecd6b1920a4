"""Pairs of queries that measures order in opposite ways (reteval.evaluation.disagreement)."""

import math

import numpy as np
import pandas as pd
import pytest

from reteval.errors import InputError
from reteval.evaluation.disagreement import disagreeing_pairs, disagreeing_queries

# qa: 10 relevant documents, 3 of them at ranks 3, 4, 5: a good top 5, a poor list overall.
# qb: 1 relevant document, at rank 1. qc: the same as qb with other ids (ties qb everywhere).
# qd: nothing relevant retrieved (every measure 0: below the others on all of them).
QRELS = {"qa": {f"d{i}": 1 for i in range(10)}, "qb": {"d0": 1}, "qc": {"e0": 1},
         "qd": {"f0": 1}}
RUN = {"qa": ["x1", "x2", "d0", "d1", "d2"], "qb": ["d0", "x1", "x2"], "qc": ["e0", "y1"],
       "qd": ["z1"]}
MEASURES = ["P@5", "RR", "AP", "nDCG@5"]
L2 = math.log2
QA = {"P@5": 3 / 5, "RR": 1 / 3, "AP": (1 / 3 + 2 / 4 + 3 / 5) / 10,
      "nDCG@5": (1 / L2(4) + 1 / L2(5) + 1 / L2(6)) / sum(1 / L2(r + 1) for r in range(1, 6))}
QB = {"P@5": 1 / 5, "RR": 1.0, "AP": 1.0, "nDCG@5": 1.0}


def test_p_at_5_against_the_others_on_a_hand_made_case():
    pairs = disagreeing_queries(QRELS, RUN, MEASURES)
    assert list(pairs.columns) == [
        "query_a", "query_b", "above_a", "above_b", "margin",
        "P@5_a", "P@5_b", "RR_a", "RR_b", "AP_a", "AP_b", "nDCG@5_a", "nDCG@5_b"]
    # qb and qc tie on everything; qd is below every other query on every measure.
    assert pairs[["query_a", "query_b"]].values.tolist() == [["qa", "qb"], ["qa", "qc"]]
    assert pairs["above_a"].tolist() == [("P@5",), ("P@5",)]
    assert pairs["above_b"].tolist() == [("RR", "AP", "nDCG@5")] * 2
    # P@5 puts qa above by 3/5 - 1/5; the others put qb above by up to 1 - AP(qa) > 0.4.
    assert pairs["margin"].tolist() == pytest.approx([2 / 5, 2 / 5], abs=1e-12)
    for m in MEASURES:
        assert pairs[f"{m}_a"].tolist() == pytest.approx([QA[m]] * 2, abs=1e-12)
        assert pairs[f"{m}_b"].tolist() == pytest.approx([QB[m]] * 2, abs=1e-12)


def test_the_margin_keeps_the_clear_disagreements_only():
    assert len(disagreeing_queries(QRELS, RUN, MEASURES, min_margin=0.39)) == 2
    assert disagreeing_queries(QRELS, RUN, MEASURES, min_margin=0.41).empty


def test_the_first_measure_that_orders_a_pair_orients_it():
    scores = pd.DataFrame([QA, QB], index=pd.Index(["qa", "qb"], name="query_id"))
    pairs = disagreeing_pairs(scores, ["AP", "P@5"])
    assert pairs.loc[0, ["query_a", "query_b", "above_a", "above_b"]].tolist() == [
        "qb", "qa", ("AP",), ("P@5",)]
    assert pairs.loc[0, "margin"] == pytest.approx(2 / 5, abs=1e-12)


def test_measures_that_agree_give_no_pairs_and_the_same_columns():
    pairs = disagreeing_queries(QRELS, RUN, ["RR", "AP"])
    assert pairs.empty
    assert list(pairs.columns) == ["query_a", "query_b", "above_a", "above_b", "margin",
                                   "RR_a", "RR_b", "AP_a", "AP_b"]


def test_a_tie_on_one_measure_is_not_a_disagreement():
    scores = pd.DataFrame({"P@5": [0.4, 0.4, 0.2], "AP": [0.5, 0.3, 0.6]},
                          index=["q1", "q2", "q3"])
    pairs = disagreeing_pairs(scores)
    # q1-q2: P@5 ties, AP orders: no. q1-q3 and q2-q3: P@5 for q1/q2, AP for q3.
    assert pairs[["query_a", "query_b"]].values.tolist() == [["q2", "q3"], ["q1", "q3"]]
    assert pairs["margin"].tolist() == pytest.approx([0.2, 0.1], abs=1e-12)


def test_differences_within_rounding_are_ties_and_nan_orders_nothing():
    scores = pd.DataFrame({"A": [0.5, 0.5 + 1e-15, 0.1], "B": [0.2, 0.1, np.nan]},
                          index=["q1", "q2", "q3"])
    assert disagreeing_pairs(scores).empty


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"measures": ["P@5", "nDCG@10"]}, r"measure 'nDCG@10' is not a column of scores"),
    ({"measures": ["P@5"]}, r"a disagreement needs two or more measures; got \['P@5'\]"),
    ({"measures": ["AP", "AP"]}, r"two or more measures"),
    ({"min_margin": -0.1}, r"min_margin must be a finite number >= 0; got -0.1"),
    ({"min_margin": float("nan")}, r"min_margin must be a finite number >= 0; got nan"),
    ({"min_margin": "0.1"}, r"min_margin must be a finite number >= 0; got '0.1'"),
])
def test_bad_input_is_refused_with_its_value(kwargs, message):
    scores = pd.DataFrame({"P@5": [0.4, 0.2], "AP": [0.1, 0.3]}, index=["q1", "q2"])
    with pytest.raises(InputError, match=message):
        disagreeing_pairs(scores, **kwargs)


def test_a_table_that_is_not_per_query_values_is_refused():
    with pytest.raises(InputError, match="scores must be a DataFrame of per-query values"):
        disagreeing_pairs({"P@5": [0.4]})
    twice = pd.DataFrame({"P@5": [0.4, 0.2], "AP": [0.1, 0.3]}, index=["q1", "q1"])
    with pytest.raises(InputError, match="scores lists query 'q1' twice"):
        disagreeing_pairs(twice)
