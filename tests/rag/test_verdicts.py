"""Tests for reteval.rag.context_precision and context_recall on frames of verdicts.

Expected values are computed by hand in the comments, and against RAGAS's own
average-precision loop reimplemented below (ragas/metrics/_context_precision.py,
``_calculate_average_precision``: numerator = sum over i of
(sum(verdicts[:i+1]) / (i+1)) * verdicts[i], over sum(verdicts); RAGAS adds 1e-10 to
the denominator, which makes "none relevant" 0).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from reteval.errors import InputError
from reteval.rag import context_precision, context_recall, evaluate_contexts


def ragas_average_precision(verdicts: list[int]) -> float:
    denominator = sum(verdicts)
    numerator = 0.0
    for i in range(len(verdicts)):
        numerator += (sum(verdicts[: i + 1]) / (i + 1)) * verdicts[i]
    return numerator / denominator if denominator else 0.0


def test_precision_by_hand():
    verdicts = pd.DataFrame({
        "question_id": ["a"] * 5 + ["b"] * 2 + ["c"] * 3,
        "rank": [1, 2, 3, 4, 5, 1, 2, 1, 2, 3],
        "relevant": [False, False, True, True, False, False, False, True, True, True],
    })
    got = context_precision(verdicts)
    # a: relevant at 3 and 4 -> (1/3 + 2/4) / 2 = 5/12
    # b: none relevant -> 0
    # c: all relevant -> (1 + 1 + 1) / 3 = 1
    expected = pd.Series([5 / 12, 0.0, 1.0], index=pd.Index(["a", "b", "c"], name="question_id"),
                         name="context_precision")
    pd.testing.assert_series_equal(got, expected)


def test_precision_rows_in_any_order_and_ids_kept_as_given():
    # ids are ints, given in the order 20, 3; rows shuffled; ranks 0-based
    verdicts = pd.DataFrame({
        "qid": [3, 20, 3, 20, 3],
        "pos": [2, 1, 0, 0, 1],
        "rel": [1, 1, 0, 0, 1],
    })
    got = context_precision(verdicts, question_id="qid", rank="pos", relevant="rel")
    # 20: v = [0, 1] -> (1/2) / 1 = 0.5 ; 3: v = [0, 1, 1] -> (1/2 + 2/3) / 2 = 7/12
    assert got.index.tolist() == [3, 20]
    assert got.index.name == "qid"
    assert got.index.dtype == np.int64
    assert got.loc[20] == pytest.approx(0.5)
    assert got.loc[3] == pytest.approx(7 / 12)


def test_precision_matches_ragas_loop_on_random_verdicts():
    rng = np.random.default_rng(7)
    rows, expected = [], {}
    for q in range(60):
        k = int(rng.integers(1, 12))
        v = rng.integers(0, 2, size=k).tolist()
        expected[f"q{q}"] = ragas_average_precision(v)
        rows += [(f"q{q}", r + 1, bool(x)) for r, x in enumerate(v)]
    frame = pd.DataFrame(rows, columns=["question_id", "rank", "relevant"])
    frame = frame.sample(frac=1.0, random_state=1)  # row order does not matter
    got = context_precision(frame)
    assert set(got.index) == set(expected)
    for q, value in expected.items():
        assert got.loc[q] == pytest.approx(value, abs=1e-12)


def test_precision_from_grades_and_level():
    verdicts = pd.DataFrame({"question_id": ["x"] * 4, "rank": [1, 2, 3, 4],
                             "grade": [0.2, 0.9, 0.5, 0.49]})
    # level 0.5: v = [0, 1, 1, 0] -> (1/2 + 2/3) / 2 = 7/12
    assert context_precision(verdicts, relevant="grade", level=0.5).loc["x"] == \
        pytest.approx(7 / 12)
    # level 0.95: none -> 0
    assert context_precision(verdicts, relevant="grade", level=0.95).loc["x"] == 0.0


def test_precision_input_not_modified():
    verdicts = pd.DataFrame({"question_id": ["q", "q"], "rank": [2, 1], "relevant": [1, 0]})
    before = verdicts.copy()
    context_precision(verdicts)
    pd.testing.assert_frame_equal(verdicts, before)


@pytest.mark.parametrize(("frame", "kwargs", "message"), [
    ({"question_id": ["q"], "relevant": [True]}, {},
     r"verdicts has no column 'rank' \(the rank column; pass rank=...\)"),
    ({"question_id": ["q", "q"], "rank": [1, 3], "relevant": [True, False]}, {},
     r"ranks of question 'q' must be 1..K.*got list \[1, 3\]"),
    ({"question_id": ["q", "q"], "rank": [1, 1], "relevant": [True, False]}, {},
     r"ranks of question 'q' must be 1..K.*got list \[1, 1\]"),
    ({"question_id": ["q", "q"], "rank": [1, 2.5], "relevant": [True, False]}, {},
     r"column 'rank', row 1: a rank must be an integer; got float 2.5"),
    ({"question_id": ["q", "q"], "rank": [1, 2], "relevant": [True, "yes"]}, {},
     r"column 'relevant', row 1: must be a boolean \(or 0/1\); got str 'yes'"),
    ({"question_id": ["q", "q"], "rank": [1, 2], "relevant": [0.2, 0.9]}, {},
     r"row 0: must be a boolean \(or 0/1\); for grades pass level="),
    ({"question_id": ["q", "q"], "rank": [1, 2], "relevant": [0.2, np.nan]}, {"level": 0.5},
     r"column 'relevant', row 1: must be a finite number"),
    ({"question_id": ["q", "q"], "rank": [1, 2], "relevant": [1, "2"]}, {"level": 1},
     r"column 'relevant', row 1: must be a finite number .*got str '2'"),
    ({"question_id": ["q", None], "rank": [1, 2], "relevant": [True, False]}, {},
     r"column 'question_id', row 1: a question id is missing"),
    ({"question_id": ["q"], "rank": [1], "relevant": [True]}, {"level": 1},
     r"holds booleans; level=1 applies to grades only"),
    ({"question_id": [], "rank": [], "relevant": []}, {}, "verdicts has no rows"),
])
def test_precision_bad_input(frame, kwargs, message):
    with pytest.raises(InputError, match=message):
        context_precision(pd.DataFrame(frame), **kwargs)


def test_recall_by_hand():
    statements = {"question_id": ["b", "a", "b", "b", "a"],
                  "supported": [True, False, False, True, False]}
    got = context_recall(statements)
    # b: 2 of 3; a: 0 of 2
    expected = pd.Series([2 / 3, 0.0], index=pd.Index(["b", "a"], name="question_id"),
                         name="context_recall")
    pd.testing.assert_series_equal(got, expected)


def test_recall_bad_input():
    with pytest.raises(InputError, match=r"column 'supported', row 2: must be a boolean"):
        context_recall({"question_id": [1, 1, 2], "supported": [True, False, 0.5]})
    with pytest.raises(InputError, match=r"statements has no column 'ok'"):
        context_recall({"question_id": [1], "supported": [True]}, supported="ok")


CHAPTER = {
    "question": ["Python是什么？", "机器学习是什么？"],
    "contexts": [["Python是一种编程语言", "Python广泛用于数据科学"],
                 ["机器学习是AI的分支", "深度学习使用神经网络"]],
    "ground_truth": ["Python是一种编程语言", "机器学习是人工智能的分支"],
}


def test_evaluate_contexts_keeps_question_ids():
    data = pd.DataFrame({**CHAPTER, "question_id": [101, 7]})
    got = evaluate_contexts(data)
    assert got.index.tolist() == [101, 7]
    assert got.index.name == "question_id"
    # same scores as without the ids (the chapter's example: 1.0 everywhere)
    assert got.to_numpy().tolist() == [[1.0, 1.0], [1.0, 1.0]]
    other = evaluate_contexts({**CHAPTER, "qid": ["x", "y"]}, question_id="qid")
    assert other.index.tolist() == ["x", "y"]
    assert evaluate_contexts(CHAPTER).index.name == "sample"


def test_evaluate_contexts_bad_ids():
    with pytest.raises(InputError, match=r"question_id\[1\] repeats the id of sample 0: 'a'"):
        evaluate_contexts({**CHAPTER, "question_id": ["a", "a"]})
    with pytest.raises(InputError, match=r"data has no column 'qid'"):
        evaluate_contexts(CHAPTER, question_id="qid")
    with pytest.raises(InputError, match=r"has 1 ids for 2 samples"):
        evaluate_contexts({**CHAPTER, "question_id": ["a"]})
