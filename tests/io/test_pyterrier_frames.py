"""Frames as PyTerrier and ir_datasets hand them over are read as they are."""

import pandas as pd
import pyarrow as pa
import pytest

import reteval
from reteval.errors import InputError
from reteval.judging import cohen_kappa

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
    # a ranked list without scores: the error says how to read one
    ranked = PT_RUN.drop(columns="score").assign(rank=range(1, len(PT_RUN) + 1))
    hint = r"read_run\(frame, query_id='qid', doc_id='docno', rank='rank'\)$"
    with pytest.raises(InputError, match=r"missing \['score'\].*" + hint):
        reteval.io.as_run(ranked)
    for table in (ranked, pa.Table.from_pandas(ranked)):  # the hint is followed as it is
        read = reteval.read_run(table, query_id="qid", doc_id="docno", rank="rank")
        assert read["doc_id"].tolist() == ranked["docno"].tolist()
    renamed = ranked.rename(columns={"qid": "query_id", "docno": "doc_id"})
    with pytest.raises(InputError, match=r"read_run\(frame, rank='rank'\)$"):
        reteval.io.as_run(renamed)


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


class _ArrowExporter:
    """A table of some other library, known only by the Arrow PyCapsule interface (as a
    polars DataFrame or a DuckDB result exports itself)."""

    def __init__(self, table):
        self._table = table
        self.columns = table.column_names

    def __arrow_c_stream__(self, requested_schema=None):
        return self._table.__arrow_c_stream__(requested_schema)


def test_tables_of_other_libraries_evaluate_through_arrow():
    qrels = pa.table({"query_id": ["q1", "q1"], "doc_id": ["d1", "d2"], "relevance": [1, 0]})
    run = pa.table({"qid": ["q1", "q1"], "docno": ["d1", "d2"], "score": [1.0, 2.0]})
    expected = reteval.evaluate(qrels.to_pandas(), run.to_pandas(), ["AP"])
    for convert in (lambda t: t, lambda t: t.to_batches()[0], _ArrowExporter):
        got = reteval.evaluate(convert(qrels), convert(run), ["AP"])
        assert got.equals(expected) and got.loc["q1", "AP"] == 0.5
    missing = pa.table({"query_id": ["q1", None], "doc_id": ["d1", "d2"], "score": [1.0, 2.0]})
    with pytest.raises(InputError, match="run query_id is missing on row 1 "):
        reteval.io.as_run(_ArrowExporter(missing))
    for not_a_table in ([("q1", "d1", 1.0)], pd.Series([1.0]), pa.chunked_array([["q1"]])):
        with pytest.raises(InputError, match="or another library's table that exports Arrow"):
            reteval.io.as_run(not_a_table)
    # judgments of two judges given as tables, as the agreement functions take them
    assert cohen_kappa(qrels, _ArrowExporter(qrels)) == 1.0
    # the functions that take run tables of their own read them too
    from reteval import ab
    from reteval.retrievers.fusion import reciprocal_rank_fusion

    runs = [pd.DataFrame({"query_id": "q1", "doc_id": ["d1", "d2"], "score": [2.0, 1.0]}),
            pd.DataFrame({"query_id": "q1", "doc_id": ["d2", "d3"], "score": [0.9, 0.1]})]
    tables = [_ArrowExporter(pa.Table.from_pandas(run)) for run in runs]
    assert reciprocal_rank_fusion(tables).equals(reciprocal_rank_fusion(runs))
    assert ab.expected_outcomes(qrels, *tables, depth=3) == ab.expected_outcomes(
        qrels.to_pandas(), *runs, depth=3)
    string_views = pa.table({"query_id": pa.array(["q1"], pa.string_view()),
                             "doc_id": pa.array(["d1"], pa.string_view()), "score": [1.0]})
    assert reteval.io.as_run(string_views)["doc_id"].tolist() == ["d1"]  # as polars exports
