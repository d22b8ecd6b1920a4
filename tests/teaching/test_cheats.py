"""The leaderboard tricks of notebook 02 (reteval.teaching.cheats): hand-computed values."""

import itertools
import math

import pandas as pd
import pytest

import reteval
from reteval.errors import InputError
from reteval.io import sort_run
from reteval.teaching.cheats import (
    chapter_scores,
    expected_padding_gain,
    ranked_lists,
    rename_to_win_ties,
)

QRELS = {"q1": {"d1": 3, "d2": 2, "d5": 1, "d7": 0}, "q2": {"d3": 1}}


def test_ranked_lists_are_in_trec_evals_order():
    run = {"q1": {"d1": 0.5, "d10": 0.5, "d9": 0.5, "d2": 0.9}, "q2": {"d3": 1.0}}
    # equal scores: doc id descending as strings ("d9" > "d10" > "d1")
    assert ranked_lists(run) == {"q1": ["d2", "d9", "d10", "d1"], "q2": ["d3"]}


def test_chapter_scores_by_hand_and_with_repeats():
    lists = {"q1": ["d1", "d7", "d2"], "q2": ["d9"]}
    scores = chapter_scores(QRELS, lists, 3)
    assert list(scores.columns) == ["R@3", "P@3", "RR", "nDCG_exp@3", "AP"]
    ideal = 7 + 3 / math.log2(3) + 1 / math.log2(4)
    assert scores.loc["q1"].tolist() == pytest.approx(
        [2 / 3, 2 / 3, 1.0, (7 + 3 / math.log2(4)) / ideal, (1 + 2 / 3) / 2])
    assert scores.loc["q2"].tolist() == [0.0, 0.0, 0.0, 0.0, 0.0]
    # repeats: recall and precision count distinct documents, nDCG counts every copy
    repeated = chapter_scores(QRELS, {"q1": ["d1", "d1", "d1"]}, 3)
    assert repeated.loc["q1", "R@3"] == pytest.approx(1 / 3)
    assert repeated.loc["q1", "P@3"] == pytest.approx(1 / 3)
    assert repeated.loc["q1", "nDCG_exp@3"] == pytest.approx(
        (7 + 7 / math.log2(3) + 7 / math.log2(4)) / ideal)
    assert repeated.loc["q1", "nDCG_exp@3"] > 1
    # AP takes a precision at every copy: 1, 1/2, 1/3
    assert repeated.loc["q1", "AP"] == pytest.approx((1 + 1 / 2 + 1 / 3) / 3)
    # a judged query without a list scores 0, as evaluate's missing="zero"
    assert repeated.loc["q2"].tolist() == [0.0] * 5


def test_chapter_scores_relevance_level_and_bad_k():
    scores = chapter_scores(QRELS, {"q1": ["d5", "d2"]}, 2, relevance_level=2)
    assert scores.loc["q1", "RR"] == 0.5  # d5 (grade 1) no longer counts
    with pytest.raises(InputError, match="k must be a positive integer; got 0"):
        chapter_scores(QRELS, {}, 0)


def test_expected_padding_gain_is_the_mean_over_every_draw():
    doc_ids = ["d1", "d2", "d3", "d4", "d5", "d6"]
    qrels = {"q": {"d1": 1, "d3": 1, "d4": 2, "d9": 1}}  # d9 is outside the collection
    run = {"q": ["d1", "d2"]}
    k = 4
    # every way to fill ranks 3 and 4 from d3..d6: relevant ones among them
    draws = list(itertools.permutations(["d3", "d4", "d5", "d6"], 2))
    found = sum(len({"d3", "d4"} & set(d)) for d in draws) / len(draws)
    assert found == 1.0  # by hand: 2 draws * 2 relevant / 4 unlisted
    gain = expected_padding_gain(qrels, run, doc_ids, k)
    assert gain.loc["q", "P@4"] == pytest.approx(found / k)
    assert gain.loc["q", "R@4"] == pytest.approx(found / 4)  # 4 relevant, d9 included
    full = expected_padding_gain(qrels, {"q": ["d2", "d5", "d6", "d1"]}, doc_ids, k)
    assert full.loc["q"].tolist() == [0.0, 0.0]


def test_renamed_relevant_documents_win_every_tie_by_grade():
    qrels = {"q1": {"a": 1, "b": 3, "c": 0, "x": 2}, "q2": {"a": 0}}
    run = {"q1": {"a": 1.0, "b": 1.0, "c": 1.0, "z": 1.0, "x": 2.0}, "q2": {"a": 1.0, "b": 1.0}}
    new_qrels, new_run = rename_to_win_ties(qrels, run)
    order = ranked_lists(new_run)
    # x keeps first place (higher score); then b (3), a (1), then z and c in trec order
    assert order["q1"] == ["z_2_x", "z_3_b", "z_1_a", "z", "c"]
    assert order["q2"] == ["b", "a"]  # a is not relevant to q2: it keeps its name there
    assert sorted(new_qrels["doc_id"]) == ["a", "c", "z_1_a", "z_2_x", "z_3_b"]
    # the scores did not change; the relevant documents now lead the tie
    assert sort_run(new_run)["score"].tolist() == sort_run(reteval.io.as_run(run))["score"].tolist()
    assert reteval.evaluate(new_qrels, new_run, ["RR"]).loc["q1", "RR"] == 1.0


def test_renaming_beats_ids_above_ascii():
    # "文" sorts after every ASCII id: the new names start with the greatest id itself
    qrels = {"q": {"a": 1}}
    _, run = rename_to_win_ties(qrels, {"q": {"a": 1.0, "文": 1.0}})
    assert ranked_lists(run) == {"q": ["文_1_a", "文"]}


def test_rename_pads_grades_so_that_ten_beats_nine():
    qrels = {"q": {"a": 10, "b": 9}}
    new_qrels, run = rename_to_win_ties(qrels, {"q": {"a": 1.0, "b": 1.0}})
    assert ranked_lists(run)["q"] == ["b_10_a", "b_09_b"]
    assert isinstance(new_qrels, pd.DataFrame)
