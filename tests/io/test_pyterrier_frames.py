"""Frames as PyTerrier and ir_datasets hand them over are read as they are."""

import pandas as pd
import pytest

import reteval
from reteval.errors import InputError

# q1: d2 relevant, ranked 2nd of 2 (AP 1/2); q2: d3 relevant at rank 1 (AP 1).
PT_RUN = pd.DataFrame({
    "qid": ["q1", "q1", "q2"], "docid": [11, 12, 13], "docno": ["d1", "d2", "d3"],
    "rank": [0, 1, 0], "score": [2.0, 1.0, 3.0], "query": ["a b", "a b", "c"],
})
PT_QRELS = pd.DataFrame({"qid": ["q1", "q2"], "docno": ["d2", "d3"], "label": [1, 2]})


def test_pyterrier_result_and_qrels_frames_evaluate_as_is():
    result = reteval.evaluate(PT_QRELS, PT_RUN, ["AP", "RR", "NumRet"])
    assert result["AP"].to_dict() == {"q1": 0.5, "q2": 1.0}
    assert result["RR"].to_dict() == {"q1": 0.5, "q2": 1.0}
    assert result["NumRet"].to_dict() == {"q1": 2, "q2": 1}


def test_pyterrier_internal_docid_is_never_taken_for_the_document():
    run = reteval.io.as_run(PT_RUN)
    assert run["doc_id"].tolist() == ["d1", "d2", "d3"]


def test_own_column_names_win_over_pyterrier_ones():
    both = PT_RUN.assign(query_id=["x", "x", "y"], doc_id=["d9", "d8", "d7"])
    assert sorted(set(reteval.io.as_run(both)["query_id"])) == ["x", "y"]


def test_ir_datasets_qrels_frame_with_iteration_column():
    qrels = pd.DataFrame({"query_id": ["q1"], "doc_id": ["d2"], "relevance": [1],
                          "iteration": ["0"]})
    assert reteval.evaluate(qrels, PT_RUN, ["AP"]).loc["q1", "AP"] == 0.5


def test_missing_column_names_both_conventions():
    with pytest.raises(InputError, match=r"qid, docno, label.*missing \['relevance'\]"):
        reteval.io.as_qrels(PT_QRELS.rename(columns={"label": "grade"}))
    # a ranked list without scores: the rank is not read, and the error says what to give
    ranked = PT_RUN.drop(columns="score").assign(rank=range(len(PT_RUN)))
    with pytest.raises(InputError, match=r"missing \['score'\].*give score = -rank$"):
        reteval.io.as_run(ranked)


def test_to_long_is_exported():
    per_query = reteval.evaluate(PT_QRELS, PT_RUN, ["AP", "P@1"])
    long = reteval.to_long(per_query)
    assert list(long.columns) == ["query_id", "measure", "value"]
    assert long.set_index(["query_id", "measure"])["value"].to_dict() == {
        ("q1", "AP"): 0.5, ("q1", "P@1"): 0.0, ("q2", "AP"): 1.0, ("q2", "P@1"): 1.0,
    }


@pytest.mark.parametrize(("axis", "what"), [(1, "measure 'P@1'"), (0, "query 'q1'")])
def test_concatenated_results_are_refused_by_every_format(axis, what):
    from reteval.evaluation.formats import to_trec_eval

    one = reteval.evaluate({"q1": {"d1": 1}}, {"q1": ["d1"]}, ["P@1", "RR"])
    both = pd.concat([one, one], axis=axis)
    for convert in (reteval.to_long, to_trec_eval):
        with pytest.raises(InputError, match=f"per_query has the {what} twice"):
            convert(both)
