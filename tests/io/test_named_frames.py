"""reteval.read_run / read_qrels on a frame with its own column names (reteval.io.named).

Expected values are worked out by hand: the run a frame becomes, and RR / P@k of small
rankings under trec_eval's order (score descending, then doc id descending).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import reteval
from reteval.errors import InputError
from reteval.io import sort_run

CHUNKS = pd.DataFrame({
    "question_id": ["q1", "q1", "q1", "q2", "q2"],
    "chunk_id": ["c3", "c1", "c2", "c7", "c8"],
    "similarity": [0.9, 0.8, 0.1, 0.5, 0.7],
    "position": [1, 2, 3, 2, 1],
    "text": ["...", "...", "...", "...", "..."],
})
GRADES = pd.DataFrame({"question_id": ["q1", "q2", "q2"], "chunk_id": ["c1", "c7", "c9"],
                       "grade": [2, 1, 3], "judge": ["llm"] * 3})


def test_read_run_with_a_score_column():
    run = reteval.read_run(CHUNKS, query_id="question_id", doc_id="chunk_id", score="similarity")
    assert list(run.columns) == ["query_id", "doc_id", "score"]
    assert run.values.tolist() == [["q1", "c3", 0.9], ["q1", "c1", 0.8], ["q1", "c2", 0.1],
                                   ["q2", "c7", 0.5], ["q2", "c8", 0.7]]
    assert run["score"].dtype == np.float64


def test_read_run_by_rank_reproduces_the_ranks():
    # ranks: q1 c3 c1 c2; q2 c8 c7 (largest rank 3: scores 3 - rank + 1)
    run = reteval.read_run(CHUNKS, query_id="question_id", doc_id="chunk_id", rank="position")
    assert run["score"].tolist() == [3.0, 2.0, 1.0, 2.0, 3.0]
    ordered = sort_run(run)
    assert ordered["doc_id"].tolist() == ["c3", "c1", "c2", "c8", "c7"]


def test_rank_order_wins_over_doc_id_ties():
    # trec_eval breaks score ties by doc id descending ("b" before "a"); ranks must win
    frame = pd.DataFrame({"qid": ["x", "x", "x"], "doc": ["a", "b", "c"], "pos": [0, 1, 5]})
    run = reteval.read_run(frame, query_id="qid", doc_id="doc", rank="pos")  # 0-based, a gap
    assert sort_run(run)["doc_id"].tolist() == ["a", "b", "c"]
    qrels = pd.DataFrame({"qid": ["x"], "doc": ["b"], "rel": [1]})
    q = reteval.read_qrels(qrels, query_id="qid", doc_id="doc", relevance="rel")
    # the relevant b is second: RR = 1/2, P@1 = 0
    result = reteval.evaluate(q, run, ["RR", "P@1"])
    assert result.loc["x"].tolist() == [0.5, 0.0]


def test_evaluate_on_renamed_frames_by_hand():
    run = reteval.read_run(CHUNKS, query_id="question_id", doc_id="chunk_id", rank="position")
    qrels = reteval.read_qrels(GRADES, query_id="question_id", doc_id="chunk_id",
                               relevance="grade")
    assert qrels.values.tolist() == [["q1", "c1", 2], ["q2", "c7", 1], ["q2", "c9", 3]]
    # q1: c3 c1 c2, relevant c1 at 2 -> RR 0.5; q2: c8 c7, relevant c7 at 2 -> RR 0.5
    # R@2: q1 1/1 = 1, q2 1/2 (c9 never retrieved)
    result = reteval.evaluate(qrels, run, ["RR", "R@2"])
    assert result.to_dict("index") == {"q1": {"RR": 0.5, "R@2": 1.0},
                                       "q2": {"RR": 0.5, "R@2": 0.5}}


def test_ids_stay_as_given_and_input_untouched():
    frame = pd.DataFrame({"qid": [7, 7], "doc": ["007", "7"], "s": [2.0, 1.0]})
    before = frame.copy()
    run = reteval.read_run(frame, query_id="qid", doc_id="doc", score="s")
    assert run["query_id"].tolist() == ["7", "7"]
    assert run["doc_id"].tolist() == ["007", "7"]
    pd.testing.assert_frame_equal(frame, before)


def test_default_names_and_pyterrier_names_still_read():
    frame = pd.DataFrame({"qid": ["q"], "docno": ["d"], "score": [1.0]})
    assert reteval.read_run(frame).values.tolist() == [["q", "d", 1.0]]
    qrels = pd.DataFrame({"query_id": ["q"], "doc_id": ["d"], "relevance": [1]})
    assert reteval.read_qrels(qrels).values.tolist() == [["q", "d", 1]]


@pytest.mark.parametrize(("frame", "kwargs", "message"), [
    (CHUNKS, {"query_id": "question", "doc_id": "chunk_id", "score": "similarity"},
     r"the run frame has no column 'question' \(read as query_id; pass query_id=...\)"),
    (CHUNKS, {"query_id": "question_id", "doc_id": "chunk_id", "score": "similarity",
              "rank": "position"}, "give the run's score column or its rank column, not both"),
    (CHUNKS.assign(position=[1, 1, 2, 1, 2]),
     {"query_id": "question_id", "doc_id": "chunk_id", "rank": "position"},
     r"run column 'position': rank 1 appears twice for query 'q1' \(second time on row 1\)"),
    (CHUNKS.assign(position=[1, 2.5, 3, 1, 2]),
     {"query_id": "question_id", "doc_id": "chunk_id", "rank": "position"},
     r"run column 'position' \(the rank\) must hold integers >= 0; got 2.5 on row 1"),
    (CHUNKS.assign(position=[1, 2, -3, 1, 2]),
     {"query_id": "question_id", "doc_id": "chunk_id", "rank": "position"},
     r"must hold integers >= 0; got -3 on row 2"),
    (CHUNKS.assign(position=[1, 2, "3", 1, 2]),
     {"query_id": "question_id", "doc_id": "chunk_id", "rank": "position"},
     (r"must hold integers >= 0 \(not text: convert the column with pd.to_numeric first\); "
      r"got '3' on row 2")),
    (CHUNKS.assign(similarity=[0.9, np.nan, 0.1, 0.5, 0.7]),
     {"query_id": "question_id", "doc_id": "chunk_id", "score": "similarity"},
     (r"run score must be a finite number; got nan on row 1 \(in the run frame, score is the "
     r"column 'similarity'\)")),
    (CHUNKS.assign(question_id=["q1", None, "q1", "q2", "q2"]),
     {"query_id": "question_id", "doc_id": "chunk_id", "score": "similarity"},
     r"run query_id is missing on row 1.*query_id is the column 'question_id'"),
    (CHUNKS.assign(chunk_id=["c3", "c3", "c2", "c7", "c8"]),
     {"query_id": "question_id", "doc_id": "chunk_id", "score": "similarity"},
     r"document 'c3' appears twice for query 'q1'"),
])
def test_read_run_frame_errors(frame, kwargs, message):
    with pytest.raises(InputError, match=message):
        reteval.read_run(frame, **kwargs)


def test_read_qrels_frame_errors():
    bad = GRADES.assign(grade=[2, np.nan, 1])
    with pytest.raises(InputError, match=r"on row 1 \(in the qrels frame, relevance is the "
                                         r"column 'grade'\)"):
        reteval.read_qrels(bad, query_id="question_id", doc_id="chunk_id", relevance="grade")
    with pytest.raises(InputError, match=r"the qrels frame has no column 'relevance'"):
        reteval.read_qrels(GRADES, query_id="question_id", doc_id="chunk_id")
    with pytest.raises(InputError, match="layout and duplicates apply to a qrels file"):
        reteval.read_qrels(GRADES, duplicates="last", query_id="question_id")


def test_column_options_refused_for_files(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("q1 Q0 d1 1 2.5 sys\n")
    with pytest.raises(InputError, match=r"rank='position': column names apply to a DataFrame"):
        reteval.read_run(path, rank="position")
    with pytest.raises(InputError, match=r"relevance='grade': column names apply"):
        reteval.read_qrels(path, relevance="grade")
