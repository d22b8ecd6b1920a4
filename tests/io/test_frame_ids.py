"""Ids in DataFrame inputs: one rule for every dtype (missing, float or other ids refused)."""

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from reteval import InputError, evaluate
from reteval._util.catalogue import error_message
from reteval.io import as_qrels, as_run

# name -> a two-row id column whose second id is missing
MISSING = {
    "object None": lambda: pd.Series(["a", None], dtype=object),
    "object NaN": lambda: pd.Series(["a", np.nan], dtype=object),
    "str NaN": lambda: pd.Series(["a", None]),
    "string NA": lambda: pd.Series(["a", None]).convert_dtypes(),
    "categorical NaN": lambda: pd.Series(["a", None], dtype="category"),
    "Arrow null": lambda: pd.Series(["a", None], dtype=pd.ArrowDtype(pa.string())),
    "Int64 NA": lambda: pd.Series([1, None], dtype="Int64"),
}

TABLES = {
    "run": (as_run, "score", [2.0, 1.0]),
    "qrels": (as_qrels, "relevance", [1, 0]),
}


def _frame(kind, column, ids):
    _, value_column, values = TABLES[kind]
    frame = {"query_id": ["q1", "q1"], "doc_id": ["d1", "d2"], value_column: values}
    frame[column] = ids
    return pd.DataFrame(frame)


@pytest.mark.parametrize("column", ["query_id", "doc_id"])
@pytest.mark.parametrize("kind", sorted(TABLES))
@pytest.mark.parametrize("case", sorted(MISSING))
def test_a_missing_id_is_an_error_naming_the_column_and_row(case, kind, column):
    convert = TABLES[kind][0]
    with pytest.raises(InputError, match=rf"^{kind} {column} is missing on row 1 "):
        convert(_frame(kind, column, MISSING[case]()))


@pytest.mark.parametrize("case", sorted(MISSING))
def test_evaluate_refuses_missing_ids_whatever_the_dtype(case):
    qrels = pd.DataFrame({"query_id": ["q1", "q2"], "doc_id": ["d1", "d2"], "relevance": [1, 1]})
    run = _frame("run", "doc_id", MISSING[case]())
    with pytest.raises(InputError, match="run doc_id is missing on row 1"):
        evaluate(qrels, run, ["AP"])
    with pytest.raises(InputError, match="qrels query_id is missing on row 1"):
        evaluate(_frame("qrels", "query_id", MISSING[case]()), _frame("run", "doc_id",
                                                                     ["d1", "d2"]), ["AP"])


# name -> (an id column, the value named in the error)
NOT_IDS = {
    "float64": (pd.Series([10.0, 11.0]), "10.0"),
    "Float64": (pd.Series([10.0, 11.0], dtype="Float64"), "10.0"),
    "Arrow double": (pd.Series([10.0, 11.0], dtype=pd.ArrowDtype(pa.float64())), "10.0"),
    "object with a float": (pd.Series(["a", 2.5], dtype=object), "2.5"),
    "categorical of floats": (pd.Series([1.5, 2.0], dtype="category"), "1.5"),
    "bool": (pd.Series([True, False]), "True"),
    "bytes": (pd.Series(["a", b"x"], dtype=object), "b'x'"),
}


@pytest.mark.parametrize("column", ["query_id", "doc_id"])
@pytest.mark.parametrize("kind", sorted(TABLES))
@pytest.mark.parametrize("case", sorted(NOT_IDS))
def test_ids_must_be_strings_or_integers_whatever_the_input(case, kind, column):
    ids, shown = NOT_IDS[case]
    convert = TABLES[kind][0]
    with pytest.raises(InputError,
                       match=rf"^{kind} {column} must hold strings or integers; got {shown}"):
        convert(_frame(kind, column, ids))
    # The same ids in a dict are refused too.
    first = next(v for v in ids.astype(object).tolist() if repr(v) == shown)
    nested = {first: {"d1": 1}} if column == "query_id" else {"q1": {first: 1}}
    with pytest.raises(InputError, match=f"ids must be strings \\(or integers\\); got {shown}"):
        convert(nested)


@pytest.mark.parametrize("ids", [pd.Series([10, 11]), pd.Series([10, 11], dtype="Int64"),
                                 pd.Series([10, "11"], dtype=object),
                                 pd.Series([10, 11], dtype="category"),
                                 pd.Series([10, 11], dtype=pd.ArrowDtype(pa.int64()))])
def test_integer_ids_are_read_as_their_decimal_text(ids):
    assert as_run(_frame("run", "doc_id", ids))["doc_id"].tolist() == ["10", "11"]


def test_a_duplicated_column_is_an_error():
    frame = pd.DataFrame([["q1", "d1", "d2", 1.0]],
                         columns=["query_id", "doc_id", "doc_id", "score"])
    with pytest.raises(InputError, match=r"\['doc_id'\] appear more than once"):
        as_run(frame)
    # A duplicated column that is not read is left alone.
    frame = pd.DataFrame([["q1", "d1", 1.0, "x", "y"]],
                         columns=["query_id", "doc_id", "score", "note", "note"])
    assert as_run(frame)["doc_id"].tolist() == ["d1"]


@pytest.mark.parametrize("dtype", [float, object, "string", "category"])
def test_an_empty_frame_of_any_dtype_is_read_as_empty(dtype):
    # pd.DataFrame({"query_id": [], ...}) makes float columns: no row holds a wrong id
    empty = {name: pd.Series([], dtype=dtype) for name in ("query_id", "doc_id")}
    assert as_run(pd.DataFrame({**empty, "score": pd.Series([], dtype=float)})).empty
    with pytest.raises(InputError, match="the qrels hold no judgments"):
        evaluate(pd.DataFrame({**empty, "relevance": pd.Series([], dtype=float)}),
                 pd.DataFrame({"query_id": ["q1"], "doc_id": ["d1"], "score": [1.0]}), ["AP"])


def test_a_filtered_frame_s_rows_are_named_by_position_and_index_label():
    qrels = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["d1", "d2"], "relevance": [1, 0]})
    run = pd.DataFrame({"query_id": ["q0"] + ["q1"] * 4, "doc_id": ["d9", "d1", "d2", "d3", "d2"],
                        "score": [9.0, 3.0, 2.0, 1.0, 0.5]}).iloc[1:]  # index 1, 2, 3, 4
    twice = r"on rows 1 and 3 \(index 2 and 4\)$"
    with pytest.raises(InputError, match=twice) as raised:
        as_run(run)
    assert error_message(raised.value, "zh").endswith("第 1 和第 3 行（从 0 数起；索引 2 和 4）")
    fields = raised.value.fields
    assert (fields["first"], fields["second"], fields["first_label"]) == ("1", "3", "2")
    with pytest.raises(InputError, match=twice):  # found while ranking, not by as_run
        evaluate(qrels, run, ["AP"])
    with pytest.raises(InputError, match=r"got nan on row 0 \(index 1\)$"):
        evaluate(qrels, run.assign(score=[float("nan"), 2.0, 1.0, 0.5]), ["AP"])
    labelled = qrels.set_axis(["first", "second"]).assign(doc_id=["d1", None])
    with pytest.raises(InputError, match=r"doc_id is missing on row 1 \(index 'second'\) "):
        as_qrels(labelled)
    # A frame numbered 0, 1, 2, ... is named by position alone; what is returned is numbered so.
    with pytest.raises(InputError, match=r"on rows 1 and 3$"):
        as_run(run.reset_index(drop=True))
    assert as_run(run.iloc[:3]).index.equals(pd.RangeIndex(3))
