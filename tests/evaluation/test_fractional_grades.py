"""Fractional grades (an LLM judge's 0.8): read from every input, measured by hand.

Expected values are computed here from the definitions, never by reteval.
"""

import math
import warnings

import pandas as pd
import pytest

from reteval import evaluate
from reteval.errors import InputError
from reteval.evaluation import FractionalGradesWarning, to_trec_eval
from reteval.io import as_qrels, read_qrels

# q "1": a 0.8, b 0.3, c 0.0 judged, d 0.6 judged but not retrieved, e retrieved unjudged.
QRELS = {"1": {"a": 0.8, "b": 0.3, "c": 0.0, "d": 0.6}, "2": {"x": 1.0}}
RUN = {"1": {"b": 3.0, "a": 2.0, "c": 1.0, "e": 0.5}, "2": {"y": 2.0, "x": 1.0}}
L3 = math.log2(3)


def quiet(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FractionalGradesWarning)
        return evaluate(*args, **kwargs)


def test_ndcg_takes_the_grade_as_gain_whatever_the_level():
    dcg = 0.3 / 1 + 0.8 / L3  # b at rank 1, a at rank 2
    ideal = 0.8 / 1 + 0.6 / L3 + 0.3 / 2  # a, d, b
    exp_dcg = (2**0.3 - 1) + (2**0.8 - 1) / L3
    exp_ideal = (2**0.8 - 1) + (2**0.6 - 1) / L3 + (2**0.3 - 1) / 2
    for level in (0.5, 1, 0.1):
        got = quiet(QRELS, RUN, ["nDCG", "DCG@2", "nDCG@2", "nDCG(dcg=exp-log2)"],
                    relevance_level=level)
        assert got.loc["1", "nDCG"] == pytest.approx(dcg / ideal, abs=1e-12)
        assert got.loc["1", "DCG@2"] == pytest.approx(dcg, abs=1e-12)
        assert got.loc["1", "nDCG@2"] == pytest.approx(dcg / (0.8 + 0.6 / L3), abs=1e-12)
        assert got.loc["1", "nDCG(dcg=exp-log2)"] == pytest.approx(exp_dcg / exp_ideal,
                                                                    abs=1e-12)
        assert got.loc["2", "nDCG"] == pytest.approx(1 / L3, abs=1e-12)


def test_binary_measures_count_grades_at_or_above_the_level():
    got = evaluate(QRELS, RUN, ["P@2", "AP", "RR", "R@3", "num_rel"], relevance_level=0.5)
    # level 0.5: relevant a (rank 2) and d (not retrieved): R = 2
    assert got.loc["1"].tolist() == pytest.approx([1 / 2, (1 / 2) / 2, 1 / 2, 1 / 2, 2])
    assert got.loc["2"].tolist() == pytest.approx([1 / 2, 1 / 2, 1 / 2, 1, 1])
    low = evaluate(QRELS, RUN, ["P@2", "AP", "RR"], relevance_level=0.25)
    # level 0.25: relevant b (rank 1), a (rank 2), d: AP = (1/1 + 2/2) / 3
    assert low.loc["1"].tolist() == pytest.approx([1.0, 2 / 3, 1.0])
    # the measure's own level says the same
    own = quiet(QRELS, RUN, ["P(rel=0.25)@2", "AP(rel=0.5)"])
    assert own.loc["1"].tolist() == pytest.approx([1.0, 0.25])


def test_the_default_level_warns_once_naming_relevance_level():
    with pytest.warns(FractionalGradesWarning, match="relevance_level") as caught:
        got = evaluate(QRELS, RUN, ["P@2", "AP"])
    assert len(caught) == 1
    assert got.loc["1"].tolist() == [0.0, 0.0]  # no grade of q 1 reaches 1
    with warnings.catch_warnings():
        warnings.simplefilter("error", FractionalGradesWarning)
        evaluate(QRELS, RUN, ["P@2"], relevance_level=0.5)
        evaluate({"1": {"a": 1, "b": 0}}, RUN, ["P@2"])  # integer grades: no warning


def test_integer_grades_as_floats_give_integer_values():
    ints = {"1": {"a": 2, "b": 1, "c": 0}}
    floats = {"1": {"a": 2.0, "b": 1.0, "c": 0.0}}
    measures = ["nDCG", "AP", "P@2", "Rndcg", "G"]
    assert as_qrels(floats)["relevance"].dtype.name == "int64"
    pd.testing.assert_frame_equal(evaluate(floats, RUN, measures), evaluate(ints, RUN, measures))


def test_files_frames_and_levels_read_fractions(tmp_path):
    trec = tmp_path / "qrels.txt"
    trec.write_text("1 0 a 0.8\n1 0 b .3\n1 0 c 0\n1 0 d 6e-1\n2 0 x 1\n")
    beir = tmp_path / "qrels.tsv"
    beir.write_text("query-id\tcorpus-id\tscore\n1\ta\t0.8\n1\tb\t0.3\n1\tc\t0\n1\td\t0.6\n"
                    "2\tx\t1\n")
    assert read_qrels(trec)["relevance"].tolist() == [0.8, 0.3, 0.0, 0.6, 1.0]
    reference = evaluate(QRELS, RUN, ["nDCG", "AP"], relevance_level=0.5)
    frame = as_qrels(QRELS)
    for qrels in (trec, beir, frame, str(trec)):
        pd.testing.assert_frame_equal(
            evaluate(qrels, RUN, ["nDCG", "AP"], relevance_level=0.5), reference)


@pytest.mark.parametrize("value, message", [
    (float("nan"), "got nan on row 1"), (float("inf"), "got inf on row 1"),
    ("0.5", "not text.*got '0.5' on row 1"),
])
def test_bad_grades_in_frames_name_column_and_row(value, message):
    frame = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"],
                          "relevance": pd.Series([0.5, value], dtype=object)})
    with pytest.raises(InputError, match=f"qrels relevance must be a finite number.*{message}"):
        as_qrels(frame)


def test_bad_grades_in_files_name_file_and_line(tmp_path):
    path = tmp_path / "qrels.txt"
    path.write_text("1 0 a 0.5\n1 0 b NaN\n")
    with pytest.raises(InputError, match=r"qrels.txt:2: relevance must be finite; got 'NaN'"):
        read_qrels(path)


@pytest.mark.parametrize("level", [-0.5, float("nan"), float("inf"), "0.5", True])
def test_bad_levels_are_refused(level):
    with pytest.raises(InputError, match="relevance_level"):
        evaluate(QRELS, RUN, ["P@2"], relevance_level=level)


@pytest.mark.parametrize("name", ["Rndcg", "G", "nDCG_rel"])
def test_gain_table_measures_refuse_fractions(name):
    with pytest.raises(InputError, match="takes integer grades.*got grade 0.8"):
        evaluate(QRELS, RUN, [name], relevance_level=0.5)


def test_negative_fractional_grades_are_judged_unassessed():
    # -0.5 means "in the pool, not assessed", as -1 does: no gain, not judged non-relevant
    qrels = {"1": {"a": 0.8, "b": -0.5, "c": 0.0}}
    got = evaluate(qrels, RUN, ["nDCG", "Bpref", "P@2"], relevance_level=0.5)
    same = evaluate({"1": {"a": 0.8, "b": -1, "c": 0.0}}, RUN, ["nDCG", "Bpref", "P@2"],
                    relevance_level=0.5)
    pd.testing.assert_frame_equal(got, same)
    assert got.loc["1", "nDCG"] == pytest.approx((0.8 / L3) / 0.8)
    assert got.loc["1", "Bpref"] == pytest.approx(1.0)  # c, below a, is the only non-relevant


def test_tables_show_digit_ids_in_numeric_order_and_trec_keeps_text_order():
    qrels = {q: {"a": 1} for q in ("10", "2", "1", "q3")}
    run = {q: {"a": 1.0} for q in ("10", "2", "1", "q3")}
    got = evaluate(qrels, run, ["P@1"])
    assert got.index.tolist() == ["1", "2", "10", "q3"]
    lines = to_trec_eval(got, queries=True).splitlines()
    assert [line.split("\t")[1] for line in lines[:4]] == ["1", "10", "2", "q3"]


def test_dask_engine_gives_the_in_memory_values():
    dd = pytest.importorskip("dask.dataframe")
    from reteval.io import as_run

    run = as_run(RUN)
    reference = evaluate(QRELS, run, ["nDCG@2", "AP", "P@2"], relevance_level=0.5)
    got = evaluate(QRELS, dd.from_pandas(run, npartitions=2), ["nDCG@2", "AP", "P@2"],
                   relevance_level=0.5)
    pd.testing.assert_frame_equal(got, reference)
    assert got.loc["1", "AP"] == pytest.approx(0.25)


def test_tie_bounds_take_a_decimal_level():
    from reteval.evaluation import tie_bounds

    run = {"1": {"b": 1.0, "a": 1.0, "c": 0.5}}  # a (0.8) and b (0.3) tied at the top
    bounds = tie_bounds({"1": {"a": 0.8, "b": 0.3, "c": 0.0}}, run, ["P@1"],
                        relevance_level=0.5)
    # P@1 is 0 or 1 as the tie falls: the bounds hold both
    assert bounds.worst["P@1"].tolist() == [0.0] and bounds.best["P@1"].tolist() == [1.0]
