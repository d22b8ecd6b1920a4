"""Reproduction measures against repro_eval's definitions and hand computations.

repro_eval's definitions are restated in repro_oracle.py; its t tests
(``measure/statistics.py``) are scipy's ttest_rel and ttest_ind, called here directly.
"""

import math

import numpy as np
import pandas as pd
import pytest
from repro_oracle import (
    TOPICS,
    column,
    oracle_dri,
    oracle_er,
    oracle_ktu,
    oracle_rbo,
    oracle_rmse,
    random_run,
    random_scores,
)
from scipy.stats import ttest_ind, ttest_rel

from reteval.errors import InputError
from reteval.repro import delta_ri, effect_ratio, ktu, rbo, rmse, ttest_pvalue


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_effectiveness_and_effects_equal_repro_eval(seed):
    rng = np.random.default_rng(seed)
    ob, oa, rb, ra = (random_scores(rng, TOPICS) for _ in range(4))
    for m in ("AP", "P@10"):
        o_b, o_a, r_b, r_a = (column(s, m) for s in (ob, oa, rb, ra))
        assert rmse(o_b, r_b) == pytest.approx(oracle_rmse(ob, rb, m), rel=1e-12)
        assert effect_ratio(o_b, o_a, r_b, r_a) == pytest.approx(
            oracle_er(ob, oa, rb, ra, m), rel=1e-12)
        assert delta_ri(o_b, o_a, r_b, r_a) == pytest.approx(
            oracle_dri(ob, oa, rb, ra, m), rel=1e-12)
        # repro_eval's ttest: ttest_rel (reproducibility) and ttest_ind (replicability)
        assert ttest_pvalue(o_b, r_b) == pytest.approx(ttest_rel(o_b, r_b).pvalue, rel=1e-10)
        assert ttest_pvalue(o_b, r_b, paired=False) == pytest.approx(
            ttest_ind(o_b, r_b).pvalue, rel=1e-10)


def test_per_topic_scores_are_aligned_by_topic():
    original = pd.Series({"q1": 0.5, "q2": 0.25, "q3": 1.0})
    shuffled = {"q3": 1.0, "q1": 0.25, "q2": 0.25}  # same scores but q1, other order
    # by hand: only q1 differs, by 0.25: sqrt(0.0625 / 3)
    assert rmse(original, shuffled) == pytest.approx(math.sqrt(0.0625 / 3))
    assert rmse([0.5, 0.25], [0.25, 0.25]) == pytest.approx(math.sqrt(0.0625 / 2))


def test_effect_ratio_and_delta_ri_by_hand():
    # original: baseline 0.2 0.4, advanced 0.4 0.8 -> improvements 0.2 0.4, mean 0.3;
    # reproduction (other topics): baseline 0.1 0.3 0.2, advanced 0.2 0.4 0.3 -> 0.1
    ob, oa = {"a": 0.2, "b": 0.4}, {"a": 0.4, "b": 0.8}
    rb, ra = {"x": 0.1, "y": 0.3, "z": 0.2}, {"x": 0.2, "y": 0.4, "z": 0.3}
    assert effect_ratio(ob, oa, rb, ra) == pytest.approx(0.1 / 0.3)
    # RI original (0.6 - 0.3) / 0.3 = 1; reproduced (0.3 - 0.2) / 0.2 = 0.5
    assert delta_ri(ob, oa, rb, ra) == pytest.approx(0.5)
    # reproduced exactly: ER 1, delta RI 0
    assert effect_ratio(ob, oa, ob, oa) == pytest.approx(1.0)
    assert delta_ri(ob, oa, ob, oa) == pytest.approx(0.0)


def test_t_test_p_values_by_hand():
    # differences 0.2 0.1 0.3 0.0: mean 0.15, sd 0.1291, t = 0.15 / (0.1291 / 2) = 2.3238,
    # df 3 -> p = 0.1027 (the t table), as scipy's ttest_rel
    p = ttest_pvalue([0.5, 0.6, 0.9, 0.4], [0.3, 0.5, 0.6, 0.4])
    assert p == pytest.approx(0.10266, abs=1e-4)
    # identical scores: no difference at all, p 1 (repro_eval's convention)
    assert ttest_pvalue([0.1, 0.2], [0.1, 0.2]) == 1.0
    assert ttest_pvalue([0.3, 0.3], [0.3, 0.3, 0.3], paired=False) == 1.0


@pytest.mark.parametrize("seed, tie_every", [(0, 0), (1, 0), (2, 3)])
def test_ktu_and_rbo_equal_repro_eval(seed, tie_every):
    rng = np.random.default_rng(seed)
    topics = TOPICS[:8]
    original = random_run(rng, topics, tie_every=tie_every)
    reproduced = random_run(rng, topics, tie_every=tie_every)
    got = ktu(original, reproduced)
    expected = oracle_ktu(original, reproduced)
    assert got.index.tolist() == sorted(topics)
    assert got.to_dict() == pytest.approx(expected, abs=1e-13)
    for p, depth in ((0.95, 1000), (0.8, 20), (0.5, 5)):
        assert rbo(original, reproduced, p=p, depth=depth).to_dict() == pytest.approx(
            oracle_rbo(original, reproduced, p, depth), rel=1e-12)
    # a depth cuts both lists as repro_eval's trim does
    assert ktu(original, reproduced, depth=10).to_dict() == pytest.approx(
        oracle_ktu(original, reproduced, trim_thresh=10), abs=1e-13)


def test_ktu_by_hand_and_the_place_of_a_missing_document():
    original = {"q1": ["d1", "d2", "d3"], "q2": ["a", "b", "c"], "q3": ["d1", "d9", "d2"]}
    reproduced = {"q1": ["d2", "d1", "d3"], "q2": ["z", "b", "c"], "q3": ["d9", "d1", "d2"]}
    got = ktu(original, reproduced)
    # q1: union d1 d2 d3; sequences 0 1 2 and 1 0 2: one discordant pair of 3 -> 1/3
    # q2: union a b c z; sequences 0 1 2 and 3 1 2: pairs (1st, 2nd) and (1st, 3rd)
    #     discordant -> (1 - 2) / 3
    # q3: union d1 d2 d9; sequences 0 2 1 and 2 0 1: every pair discordant -> -1
    assert got.to_dict() == pytest.approx({"q1": 1 / 3, "q2": -1 / 3, "q3": -1.0})


def test_ktu_cuts_uneven_lists_to_the_shorter():
    got = ktu({"q1": ["d1", "d2", "d3"], "q2": ["d1"]}, {"q1": ["d2", "d1"], "q2": ["d1", "d2"]})
    # q1 compared on 2 documents: 0 1 against 1 0 -> -1; q2 on one document: undefined
    assert got["q1"] == pytest.approx(-1.0) and math.isnan(got["q2"])


def test_rbo_by_hand():
    original = {"q1": ["d1", "d2", "d3"], "q2": ["d1"]}
    reproduced = {"q1": ["d1", "d3", "d4"], "q2": ["d1"]}
    got = rbo(original, reproduced, p=0.5, depth=3)
    # q1: overlaps 1, 1, 2 at depths 1..3: (1/1 + 0.5 * 1/2 + 0.25 * 2/3) / 1.75 = 17/21
    # q2: one document, overlap 1 at every depth: (1 + 0.5/2 + 0.25/3) / 1.75
    assert got["q1"] == pytest.approx(17 / 21)
    assert got["q2"] == pytest.approx((1 + 0.25 + 0.25 / 3) / 1.75)
    assert rbo(original, original, p=0.5, depth=1)["q1"] == 1.0


def test_runs_are_put_in_trec_eval_order_first():
    # scores given out of order, with a tie: trec_eval ranks d3 (tie, doc id descending)
    # before d1, so the list is d2 d3 d1 whatever the order of the dict
    original = {"q1": {"d1": 1.0, "d2": 2.0, "d3": 1.0}}
    reproduced = {"q1": ["d2", "d3", "d1"]}
    assert ktu(original, reproduced)["q1"] == pytest.approx(1.0)
    assert rbo(original, reproduced, p=0.5, depth=3)["q1"] == pytest.approx(1.0)


def test_bad_input_is_named():
    with pytest.raises(InputError, match="topic 'q2' is only in reproduced"):
        rmse({"q1": 0.1}, {"q1": 0.1, "q2": 0.2})
    with pytest.raises(InputError, match="original has 2 scores and reproduced 3"):
        rmse([0.1, 0.2], [0.1, 0.2, 0.3])
    with pytest.raises(InputError, match="original holds no topic"):
        rmse([], [])
    with pytest.raises(InputError, match="both as per-topic scores .* or both as sequences"):
        rmse({"q1": 0.1}, [0.1])
    with pytest.raises(InputError, match="the score of topic 'q2' is nan"):
        rmse({"q1": 0.1, "q2": float("nan")}, {"q1": 0.1, "q2": 0.1})
    with pytest.raises(InputError, match="topic 'b' is only in original_baseline"):
        effect_ratio({"a": 0.1, "b": 0.2}, {"a": 0.3}, [0.1], [0.2])
    with pytest.raises(InputError, match="effect ratio is undefined"):
        effect_ratio([0.1, 0.2], [0.2, 0.1], [0.1, 0.2], [0.2, 0.3])
    with pytest.raises(InputError, match="delta RI is undefined: reproduced_baseline scores 0"):
        delta_ri([0.1, 0.2], [0.2, 0.3], [0.0, 0.0], [0.2, 0.3])
    with pytest.raises(InputError, match="topic 'q3' is only in original"):
        ttest_pvalue({"q1": 0.1, "q3": 0.3}, {"q1": 0.1, "q2": 0.2})
    with pytest.raises(InputError, match="at least two topics; got 1"):
        ttest_pvalue([0.1], [0.2])
    with pytest.raises(InputError, match="reproduced has 1"):
        ttest_pvalue([0.1, 0.2], [0.2], paired=False)
    with pytest.raises(InputError, match="paired must be True or False"):
        ttest_pvalue([0.1, 0.2], [0.2, 0.3], paired="yes")
    with pytest.raises(InputError, match="topic 'q2' is only in the reproduced run"):
        ktu({"q1": ["d1", "d2"]}, {"q1": ["d1", "d2"], "q2": ["d1"]})
    with pytest.raises(InputError, match="depth must be a positive integer; got 0"):
        ktu({"q1": ["d1"]}, {"q1": ["d1"]}, depth=0)
    with pytest.raises(InputError, match="p must be between 0 and 1"):
        rbo({"q1": ["d1"]}, {"q1": ["d1"]}, p=1.0)
    with pytest.raises(InputError, match="the original run retrieves nothing"):
        rbo({}, {"q1": ["d1"]})
