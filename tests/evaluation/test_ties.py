"""Tie bounds (reteval.evaluation.ties): hand-computed values, every order of the ties, bad input.

The hand-computed case, query q1 (relevant: grade >= 1; r is relevant, never retrieved):

    score  0.9   0.5              0.2
    docs   u     x    m    b      z    c          (r: grade 1, not retrieved)
    grade  -     0    3    1      -    2          (- unjudged)

trec_eval orders each group by doc id, descending: u, x, m, b, z, c.
The best order puts the most relevant first: u, m, b, x, c, z; the worst:
u, x, b, m, z, c.
"""

import itertools
import math
import random
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reteval.errors import InputError
from reteval.evaluation import MissingQueriesWarning, TieBounds, evaluate, tie_bounds
from reteval.teaching.cheats import rename_to_win_ties

QRELS = {"q1": {"x": 0, "m": 3, "b": 1, "c": 2, "r": 1},
         "q2": {"a": 1, "b": 0}}
RUN = {"q1": {"u": 0.9, "x": 0.5, "m": 0.5, "b": 0.5, "z": 0.2, "c": 0.2},
       "q2": {"a": 0.3, "b": 0.2}}
log2 = math.log2
IDCG_Q1 = 3 + 2 / log2(3) + 1 / log2(4) + 1 / log2(5)  # grades 3, 2, 1, 1 (0 gains nothing)

# q1 by hand, in the three orders (relevant at ranks: worst 3, 4, 6; trec 3, 4, 6; best 2, 3, 5)
Q1 = {
    "worst": {"P@3": 1 / 3, "RR": 1 / 3, "AP": (1 / 3 + 2 / 4 + 3 / 6) / 4,
              "nDCG@6": (1 / log2(4) + 3 / log2(5) + 2 / log2(7)) / IDCG_Q1, "Judged@5": 3 / 5},
    "value": {"P@3": 1 / 3, "RR": 1 / 3, "AP": (1 / 3 + 2 / 4 + 3 / 6) / 4,
              "nDCG@6": (3 / log2(4) + 1 / log2(5) + 2 / log2(7)) / IDCG_Q1, "Judged@5": 3 / 5},
    "best": {"P@3": 2 / 3, "RR": 1 / 2, "AP": (1 / 2 + 2 / 3 + 3 / 5) / 4,
             "nDCG@6": (3 / log2(3) + 1 / log2(4) + 2 / log2(6)) / IDCG_Q1, "Judged@5": 4 / 5},
}
# q2 has no tie: a (relevant) then b
Q2 = {"P@3": 1 / 3, "RR": 1.0, "AP": 1.0, "nDCG@6": 1.0, "Judged@5": 2 / 2}  # of min(5, 2)
MEASURES = list(Q2)


def test_hand_computed_bounds_with_grades_several_tie_groups_and_unjudged_documents():
    bounds = tie_bounds(QRELS, RUN, MEASURES)
    assert isinstance(bounds, TieBounds)
    for field in ("worst", "value", "best"):
        frame = getattr(bounds, field)
        assert list(frame.columns) == MEASURES and list(frame.index) == ["q1", "q2"]
        for measure in MEASURES:
            assert frame.loc["q1", measure] == pytest.approx(Q1[field][measure], abs=1e-12)
            assert frame.loc["q2", measure] == pytest.approx(Q2[measure], abs=1e-12)
    # the linear nDCG by hand: trec_eval's order lies strictly inside the band
    assert Q1["worst"]["nDCG@6"] < Q1["value"]["nDCG@6"] < Q1["best"]["nDCG@6"]
    assert bounds.ties.to_dict("index") == {
        "q1": {"tied_groups": 2, "tied_documents": 5, "relevant_groups": 2},
        "q2": {"tied_groups": 0, "tied_documents": 0, "relevant_groups": 0}}


def test_value_is_evaluate_and_the_summary_averages_each_bound():
    bounds = tie_bounds(QRELS, RUN, MEASURES)
    pd.testing.assert_frame_equal(bounds.value, evaluate(QRELS, RUN, MEASURES))
    summary = bounds.summary()
    assert list(summary.columns) == ["worst", "value", "best"]
    assert list(summary.index) == MEASURES
    for field in ("worst", "value", "best"):
        for measure in MEASURES:
            mean = (Q1[field][measure] + Q2[measure]) / 2
            assert summary.loc[measure, field] == pytest.approx(mean, abs=1e-12)


def test_counts_are_summed_in_the_summary_as_trec_eval_does():
    summary = tie_bounds(QRELS, RUN, ["NumRelRet", "NumRet"]).summary()
    assert summary.loc["NumRet"].tolist() == [8.0, 8.0, 8.0]  # 6 + 2, whatever the order
    assert summary.loc["NumRelRet"].tolist() == [4.0, 4.0, 4.0]  # m, b, c; a


def test_relevance_level_moves_what_counts_as_relevant():
    bounds = tie_bounds(QRELS, RUN, ["P@3", "RR"], relevance_level=2)
    # relevant in q1: m (3) and c (2); best u, m, b: P@3 = 1/3, RR = 1/2; worst u, x, b: 0
    assert bounds.best.loc["q1"].tolist() == pytest.approx([1 / 3, 1 / 2])
    assert bounds.worst.loc["q1", "P@3"] == 0.0
    assert bounds.worst.loc["q1", "RR"] == pytest.approx(1 / 4)  # m at rank 4
    # b (grade 1) is not relevant at level 2: group A still holds m beside x and b
    assert bounds.ties.loc["q1", "relevant_groups"] == 2


def test_without_ties_worst_best_and_evaluate_agree():
    rng = np.random.default_rng(3)
    docs = [f"d{i:02d}" for i in range(30)]
    qrels = {f"q{q}": {d: int(rng.integers(-1, 4)) for d in rng.choice(docs, 12, replace=False)}
             for q in range(5)}
    run = {f"q{q}": dict(zip(rng.choice(docs, 20, replace=False), rng.permutation(20) / 7,
                             strict=True)) for q in range(5)}
    measures = ["P@5", "R@10", "RR", "AP", "nDCG@10", "nDCG_exp@5", "Bpref", "Judged@10"]
    bounds = tie_bounds(qrels, run, measures)
    expected = evaluate(qrels, run, measures)
    pd.testing.assert_frame_equal(bounds.worst, expected)
    pd.testing.assert_frame_equal(bounds.best, expected)
    assert (bounds.width() == 0).all().all()
    assert bounds.ties["tied_groups"].sum() == 0


def test_renaming_documents_moves_the_value_but_not_the_bounds():
    qrels, run = rename_to_win_ties(QRELS, RUN)
    renamed = tie_bounds(qrels, run, MEASURES)
    original = tie_bounds(QRELS, RUN, MEASURES)
    pd.testing.assert_frame_equal(renamed.worst, original.worst)
    pd.testing.assert_frame_equal(renamed.best, original.best)
    pd.testing.assert_frame_equal(renamed.ties, original.ties)
    # the renamed relevant documents win every tie: trec_eval's order becomes the best one
    pd.testing.assert_frame_equal(renamed.value, original.best)
    assert renamed.value.loc["q1", "AP"] > original.value.loc["q1", "AP"]
    assert original.contains(renamed.value).all().all()


def test_contains_reads_the_band_both_ways_and_checks_its_input():
    bounds = tie_bounds(QRELS, RUN, ["AP", "Unjudged@5"])
    # Unjudged: the favourable order lists judged documents first, so best is the lower end
    assert bounds.best.loc["q1", "Unjudged@5"] == pytest.approx(1 / 5)  # u
    assert bounds.worst.loc["q1", "Unjudged@5"] == pytest.approx(2 / 5)  # u, z
    assert bounds.low().loc["q1", "Unjudged@5"] == pytest.approx(1 / 5)
    assert bounds.width().loc["q1", "Unjudged@5"] == pytest.approx(1 / 5)
    inside = bounds.value.copy()
    assert bounds.contains(inside).all().all()
    inside.loc["q1", "AP"] = 0.5  # above the best order's (1/2 + 2/3 + 3/5) / 4
    assert not bounds.contains(inside).loc["q1", "AP"]
    with pytest.raises(InputError, match=r"missing queries \['q2'\], measures \['Unjudged@5'\]"):
        bounds.contains(inside.loc[["q1"], ["AP"]])


def test_a_missing_query_is_scored_zero_and_warned_about_once():
    qrels = {**QRELS, "q3": {"k": 1}}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        bounds = tie_bounds(qrels, RUN, ["AP"])
    assert [w.category for w in caught] == [MissingQueriesWarning]
    assert bounds.worst.loc["q3", "AP"] == bounds.best.loc["q3", "AP"] == 0.0
    assert bounds.ties.loc["q3"].tolist() == [0, 0, 0]
    skipped = tie_bounds(qrels, RUN, ["AP"], missing="skip")
    assert list(skipped.best.index) == ["q1", "q2"]


def test_minus_zero_ties_zero():
    bounds = tie_bounds({"q": {"a": 1}}, {"q": {"a": -0.0, "b": 0.0}}, ["RR"])
    assert bounds.ties.loc["q", "tied_groups"] == 1
    assert (bounds.worst.loc["q", "RR"], bounds.best.loc["q", "RR"]) == (0.5, 1.0)


@pytest.mark.parametrize(("measure", "message"), [
    ("infAP", r"measure 'infAP' has no tie bounds: its estimate"),
    ("G", r"measure 'G' has no tie bounds"),
    ("ndcg.1=3,2=9", r"gives grades gains of its own"),
    ("nDCG(1=0)@5", r"gives grades gains of its own"),
    ("PrefsSimp", r"measure 'PrefsSimp' needs prefs judgments"),
    ("nDCG@ten", r"nDCG@ten"),
])
def test_measures_without_tie_bounds_are_refused_by_name(measure, message):
    with pytest.raises(InputError, match=message):
        tie_bounds(QRELS, RUN, ["AP", measure])


def test_bad_input_is_refused_with_evaluates_messages():
    run = pd.DataFrame({"query_id": "q1", "doc_id": ["m", "m"], "score": [1.0, 0.5]})
    with pytest.raises(InputError, match="document 'm' appears twice for query 'q1'"):
        tie_bounds(QRELS, run, ["AP"])
    with pytest.raises(InputError, match="missing must be one of"):
        tie_bounds(QRELS, RUN, ["AP"], missing="drop")
    with pytest.raises(InputError, match="relevance_level must be from 0"):
        tie_bounds(QRELS, RUN, ["AP"], relevance_level=-1)


# ------------------------------------------------------------------------ every order of the ties

# One measure of each family tie_bounds takes (not infAP or G), at small cutoffs.
ALL_MEASURES = ["AP", "AP@4", "GMAP", "Rprec", "Bpref", "RR", "RR@3", "IPrec@0.5", "P@3", "R@3",
                "GMBpref", "RprecMult@1.4", "Utility", "IPrecAvg", "binG", "nDCG", "nDCG@3",
                "nDCG_rel", "Rndcg", "RelP@3", "Success@2", "SetP", "SetR", "NumRelRet",
                "NumNonRelJudgedRet", "TrecRBP", "RBPResid", "Unjudged@5", "nDCG_exp@3", "DCG@3",
                "ERR@3", "RBP", "Judged@3", "NumRet", "P(rel=2)@3", "AP(judged_only=True)"]


def _random_case(rng):
    docs = [f"d{i}" for i in range(rng.randint(2, 7))]
    grades = {d: rng.choice([-1, 0, 0, 1, 2, 3]) for d in docs + ["x1", "x2"]
              if rng.random() > 0.25}  # about a quarter unjudged
    grades.setdefault("x1", 1)
    scores = {d: rng.choice([1.0, 2.0, 3.0]) for d in docs}
    return grades, scores


def _check_every_order(seed, cases, max_orders=800):
    """Brute force: each order of the tied documents is a query of its own, scored at once.

    Cases with more than ``max_orders`` orders are drawn again."""
    rng = random.Random(seed)
    checked = 0
    while checked < cases:
        grades, scores = _random_case(rng)
        groups = [sorted(d for d in scores if scores[d] == s)
                  for s in sorted(set(scores.values()), reverse=True)]
        orders = list(itertools.product(*(itertools.permutations(g) for g in groups)))
        if len(orders) > max_orders:
            continue
        checked += 1
        qrels = {f"o{i}": grades for i in range(len(orders))}
        run = {f"o{i}": [d for group in order for d in group] for i, order in enumerate(orders)}
        every = evaluate(qrels, run, ALL_MEASURES)
        bounds = tie_bounds({"q": grades}, {"q": scores}, ALL_MEASURES)
        low, high = every.min(), every.max()
        band_low, band_high = bounds.low().loc["q"], bounds.high().loc["q"]
        for measure in ALL_MEASURES:
            assert band_low[measure] == pytest.approx(low[measure], abs=1e-12), \
                (measure, grades, scores)
            assert band_high[measure] == pytest.approx(high[measure], abs=1e-12), \
                (measure, grades, scores)
        assert bounds.contains(bounds.value).all().all()


def test_the_bounds_are_the_lowest_and_highest_value_over_every_order_of_the_ties():
    _check_every_order(seed=7, cases=8)


@pytest.mark.slow
def test_the_bounds_are_the_extremes_over_every_order_on_many_cases():
    """Sixty more cases of the same generator (ties at every position, unjudged and negative
    grades, a run shorter than the cutoffs), each with at most 120 orders (five tied
    documents in one group, or smaller groups): every kind of case recurs many times, and the
    brute force stays a few seconds instead of a minute."""
    _check_every_order(seed=11, cases=60, max_orders=120)


def test_the_band_of_a_lower_is_better_measure_is_reversed():
    # the orders of the brute force above: for Unjudged and RBPResid the favourable order is low
    grades, scores = {"a": 1}, {"a": 1.0, "b": 1.0}
    bounds = tie_bounds({"q": grades}, {"q": scores}, ["Unjudged@1", "RBPResid", "Judged@1"])
    # RBPResid (p = 0.9): (1 - p) * (p ** (rank - 1) of each unjudged rank) + p ** 2 (unseen)
    assert bounds.best.loc["q"].tolist() == pytest.approx([0.0, 0.1 * 0.9 + 0.9 ** 2, 1.0])
    assert bounds.worst.loc["q"].tolist() == pytest.approx([1.0, 0.1 + 0.9 ** 2, 0.0])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 11), st.integers(0, 3),
                          st.sampled_from([-1, 0, 1, 2, 3, None])), min_size=1, max_size=40))
def test_bounds_contain_trec_evals_value_on_random_runs(rows):
    qrels, run = {}, {}
    for q, d, score, grade in rows:
        qid, doc = f"q{q}", f"d{d}"
        run.setdefault(qid, {})[doc] = float(score)  # few distinct scores: many ties
        if grade is not None:
            qrels.setdefault(qid, {})[doc] = grade
    if not qrels:
        return
    measures = ["P@3", "R@5", "RR", "AP", "nDCG@5", "nDCG_exp@3", "Bpref", "ERR@5", "Judged@3"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MissingQueriesWarning)
        bounds = tie_bounds(qrels, run, measures)
    assert bounds.contains(bounds.value).all().all()
    assert (bounds.worst <= bounds.best + 1e-12).all().all()
    no_relevant_ties = bounds.ties["relevant_groups"] == 0
    relevance = [m for m in measures if m != "Judged@3"]
    assert (bounds.width().loc[no_relevant_ties, relevance] <= 1e-12).all().all()
