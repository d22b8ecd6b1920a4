"""The measure registry, trec_eval's options (-M, -J, -Z, -c, -N) and the command line's output.

Values are computed by hand here; trec_eval's own expected outputs are compared in
test_conformance.py, and -J is compared with ir_measures' ``judged_only`` through
pytrec_eval on random runs.
"""

import math
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paths import ROOT

from reteval import evaluate
from reteval.cli import main
from reteval.errors import UnknownMeasureError
from reteval.evaluation.engine import aggregate
from reteval.measures import (
    REGISTRY,
    is_count,
    measure_columns,
    measures_markdown,
    parse_measure,
    trec_name,
)
from reteval.measures.dispatch import _KERNELS

DOCS_PAGE = ROOT / "docs" / "measures.md"

# q1 ranked: a(1) x(unjudged) b(0) c(1) ; d(1) unretrieved. q2: y(0) z(-1, pool unjudged) w(2)
QRELS = {"q1": {"a": 1, "b": 0, "c": 1, "d": 1}, "q2": {"y": 0, "z": -1, "w": 2}}
RUN = {"q1": {"a": 4.0, "x": 3.0, "b": 2.0, "c": 1.0}, "q2": {"y": 3.0, "z": 2.0, "w": 1.0}}


def test_docs_page_is_generated_from_the_registry():
    assert DOCS_PAGE.read_text(encoding="utf-8") == measures_markdown()
    for family in REGISTRY:  # every family and every trec_eval name is on the page
        assert f"`{family.name}`" in DOCS_PAGE.read_text(encoding="utf-8")
        for trec in family.trec:
            assert f"`{trec.name}" in DOCS_PAGE.read_text(encoding="utf-8")


def test_every_family_has_its_kernel_and_every_trec_name_reads_back():
    assert {f.kernel for f in REGISTRY if f.judgments == "qrels"} <= set(_KERNELS)
    for label, measure in measure_columns("all_trec"):
        assert trec_name(label) == label
        assert parse_measure(label) == measure


def test_counts_are_known_by_the_registry():
    assert [is_count(n) for n in ("NumRet", "num_rel", "num_nonrel_judged_ret", "NumQ")] == [
        True] * 4
    assert [is_count(n) for n in ("AP", "P@5", "utility", "gm_map", "created_utc")] == [
        False] * 5


def test_max_docs_cuts_every_ranking():
    got = evaluate(QRELS, RUN, ["NumRet", "NumRelRet", "AP", "P@2"], max_docs=2)
    assert got.loc["q1"].tolist() == [2, 1, pytest.approx(1 / 3), 0.5]  # a x
    assert got.loc["q2"].tolist() == [2, 0, 0, 0]  # y z


def test_judged_only_removes_unjudged_documents_first():
    got = evaluate(QRELS, RUN, ["NumRet", "P@2", "RR", "AP"], judged_only=True)
    # q1 becomes a b c: P@2 = 1/2, AP = (1 + 2/3) / 3; q2 becomes y w (z is judged negative)
    assert got.loc["q1"].tolist() == [3, 0.5, 1.0, pytest.approx((1 + 2 / 3) / 3)]
    assert got.loc["q2"].tolist() == [2, 0.5, 0.5, 0.5]
    per_measure = evaluate(QRELS, RUN, ["AP(judged_only=True)", "AP"])
    assert per_measure.loc["q1"].tolist() == [pytest.approx((1 + 2 / 3) / 3),
                                              pytest.approx((1 + 2 / 4) / 3)]


def test_geometric_means_floor_zeros_as_trec_eval():
    got = evaluate({"q1": {"a": 1}, "q2": {"b": 1}}, {"q1": ["a"], "q2": ["c"]},
                   ["gm_map", "GMBpref", "AP"])
    assert got["gm_map"].tolist() == [1.0, 0.0]  # per query: AP
    overall = aggregate(got)
    assert overall["gm_map"] == pytest.approx(math.sqrt(1.0 * 0.00001), rel=1e-12)
    assert overall["GMBpref"] == pytest.approx(math.sqrt(0.00001), rel=1e-12)
    assert overall["AP"] == 0.5


def test_zscores_standardise_every_value():
    table = {("q1", "map"): (0.25, 0.5), ("q1", "num_ret"): (2.0, 4.0), ("q2", "map"): (0.5, 0.0)}
    got = evaluate(QRELS, RUN, ["map", "num_ret"], zscores=table)
    ap_q1 = (1 + 2 / 4) / 3
    assert got.loc["q1", "map"] == pytest.approx((ap_q1 - 0.25) / 0.5)
    assert got.loc["q1", "num_ret"] == (4 - 2) / 4
    assert got.loc["q2", "map"] == -1000000  # deviation 0 and another value (AP 1/3)
    assert got.loc["q2", "num_ret"] == -1000000  # no entry
    overall = aggregate(got)
    assert overall["num_ret"] == 0.5 - 1000000  # counts are summed, as trec_eval


def test_utility_and_num_docs():
    got = evaluate(QRELS, RUN, ["Utility", "utility.2,-1,-3,1", "num_nonrel_judged_ret"],
                   num_docs=100)
    # q1: 2 relevant retrieved, 2 other retrieved, 1 relevant missed, 100 + 2 - 4 - 3 = 95
    assert got.loc["q1"].tolist() == [0.0, 2 * 2 - 2 - 3 + 95, 1]


def test_trec_name_lists_and_labels():
    assert [label for label, _ in measure_columns(["P.5,10", "official"])][:2] == ["P_5", "P_10"]
    assert [m for _, m in measure_columns(["P.5,10", "official"])].count(parse_measure("P@5")) == 1
    labels = [label for label, _ in measure_columns("iprec_at_recall.0.125,0.124")]
    assert labels == ["iprec_at_recall_0.124", "iprec_at_recall_0.125"]
    assert trec_name("IPrec@0.125") == "iprec_at_recall_0.12"  # as trec_eval prints it
    assert [label for label, _ in measure_columns("ndcg_cut.23.4,10")] == ["ndcg_cut_10",
                                                                            "ndcg_cut_23"]


@pytest.mark.parametrize("name, message", [
    ("iprec_at_recall'", "unknown measure"),
    ("iprec_at_recall-0.5", "unknown measure"),
    ("iprec_at_recall.1.5", r"must be a number in \[0, 1\]"),
    ("P.5,5", "duplicate cutoffs"),
    ("utility.1,2", "takes 4 coefficients"),
    ("ndcg.1", "name=value pairs"),
    ("relstring", "not a number per query"),
    ("AP(judged_only=yes)", "must be True or False"),
])
def test_bad_trec_names_are_refused(name, message):
    with pytest.raises(UnknownMeasureError, match=message):
        measure_columns(name)


def _files(tmp_path):
    qrels = tmp_path / "qrels"
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in QRELS.items()
                             for d, g in docs.items()))
    run = tmp_path / "run"
    run.write_text("".join(f"{q} Q0 {d} {i} {s} tag\n" for q, docs in RUN.items()
                           for i, (d, s) in enumerate(docs.items(), 1)))
    return str(qrels), str(run)


def test_csv_prints_exact_values_and_integer_counts(tmp_path, capsys):
    qrels, run = _files(tmp_path)
    assert main(["evaluate", qrels, run, "-m", "NumRet", "-m", "AP", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    ap = ((1 + 2 / 4) / 3 + 1 / 3) / 2
    assert lines == ["measure,value", "NumRet,7", f"AP,{ap!r}"]
    assert main(["evaluate", qrels, run, "-m", "NumRet", "-m", "AP", "--format", "csv",
                 "-q"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["query_id,NumRet,AP", f"q1,4,{(1 + 2 / 4) / 3!r}"]


def test_table_prints_counts_as_integers_and_each_measure_once(tmp_path, capsys):
    qrels, run = _files(tmp_path)
    assert main(["evaluate", qrels, run, "-m", "AP", "-m", "official"]) == 0
    out = capsys.readouterr().out
    names = [line.split()[0] for line in out.splitlines()]
    assert names.count("AP") == 1 and "map" not in names and names.count("num_q") == 1
    assert ["num_ret", "all", "7"] in [line.split() for line in out.splitlines()]
    assert main(["evaluate", qrels, run, "-m", "P_5,10", "-m", "official", "--format",
                 "trec"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out].count("P_5") == 1
    assert out[0].split() == ["runid", "all", "tag"]


def test_trec_eval_option_spellings(tmp_path, capsys):
    qrels, run = _files(tmp_path)
    assert main(["evaluate", qrels, run, "-m", "num_ret", "-M1", "-J", "-q", "--format",
                 "trec"]) == 0
    short = capsys.readouterr().out
    assert main(["evaluate", qrels, run, "--measure", "num_ret", "--Max_retrieved_per_topic",
                 "1", "--Judged_docs_only", "--query_eval_wanted", "--format", "trec"]) == 0
    assert capsys.readouterr().out == short
    assert short.splitlines()[-1].split() == ["num_ret", "all", "2"]


# ---------------------------------------------------------------- -J against ir_measures

DOC_IDS = [f"d{i}" for i in range(12)] + ["D", "d01"]


@st.composite
def cases(draw):
    query_ids = [f"q{i}" for i in range(draw(st.integers(1, 4)))]
    qrels = {q: draw(st.dictionaries(st.sampled_from(DOC_IDS), st.integers(-1, 3), min_size=1,
                                     max_size=10)) for q in query_ids}
    for docs in qrels.values():  # trec_eval fails on a query whose judgments are all negative
        if max(docs.values()) < 0:
            docs[draw(st.sampled_from(DOC_IDS))] = draw(st.integers(0, 3))
    # scores exact in float32 (pytrec_eval compares float32 scores)
    run = {q: draw(st.dictionaries(st.sampled_from(DOC_IDS),
                                   st.integers(-8, 16).map(lambda x: x / 8), min_size=1,
                                   max_size=12)) for q in query_ids}
    return qrels, run


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases())
def test_judged_only_matches_ir_measures_through_pytrec_eval(case):
    ir_measures = pytest.importorskip("ir_measures")
    pytest.importorskip("pytrec_eval")
    from ir_measures import AP, RR, P, R, Rprec, Success, nDCG

    qrels, run = case
    measures = [AP(judged_only=True), P(judged_only=True) @ 5, R(judged_only=True) @ 5,
                nDCG(judged_only=True), nDCG(judged_only=True) @ 5, RR(judged_only=True),
                Rprec(judged_only=True), Success(judged_only=True) @ 3]
    expected = {(m.query_id, str(m.measure)): m.value
                for m in ir_measures.pytrec_eval.iter_calc(measures, qrels, run)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = evaluate(qrels, run, measures, missing="skip")
    assert expected
    for (query, name), value in expected.items():
        assert got.loc[query, name] == pytest.approx(value, abs=1e-9), (name, query)


# ---------------------------------------------------------------- printing as C prints


def test_four_decimals_round_as_c_printf():
    # trec_eval prints "%6.4f" of the double: ties in decimal are decided by the binary value
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    if name is None:
        pytest.skip("no C library to compare with")
    libc = ctypes.CDLL(name)
    buffer = ctypes.create_string_buffer(64)
    import pandas as pd

    from reteval.evaluation.formats import to_trec_eval

    values = [k / 20000 for k in range(0, 20001, 7)] + [0.00005, 0.00015, 0.12345, 0.99995]
    frame = pd.DataFrame({"map": values}, index=[f"q{i}" for i in range(len(values))])
    lines = to_trec_eval(frame, queries=True).splitlines()[:len(values)]  # ids in text order
    for line in lines:
        value = values[int(line.split("\t")[1][1:])]
        libc.snprintf(buffer, 64, b"%6.4f", ctypes.c_double(value))
        assert line.split("\t")[2] == buffer.value.decode()


# ---------------------------------------------------------------- preference judgments


def test_preferences_by_hand(tmp_path):
    from reteval.evaluation.engine import evaluate_preferences

    prefs = tmp_path / "prefs"
    # one judgment group, one sub-group: a > b > c (levels 2, 1, 0); d unjudged
    prefs.write_text("# comment\nq1 u s a 2\nq1 u s b 1\nq1 u s c 0\n")
    run = tmp_path / "run"
    run.write_text("q1 Q0 b 1 3 t\nq1 Q0 d 2 2 t\nq1 Q0 a 3 1 t\n")
    ids, values = evaluate_preferences(
        prefs, run, ["prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
                     "prefs_simp", "prefs_simp_ret", "prefs_simp_imp"], rel_format="prefs")
    # pairs a>b (both retrieved, b above a: not fulfilled), a>c (only a: implied, fulfilled),
    # b>c (implied, fulfilled): 3 possible, 2 fulfilled, 0 among the retrieved of 1
    assert ids == ["q1"]
    assert [v.tolist() for v in values.values()] == [[3], [2], [0], [2 / 3], [0.0], [2 / 3]]


def test_judgment_groups_average_their_values(tmp_path):
    qrels = tmp_path / "qrels"
    qrels.write_text("q1 A d1 1\nq1 A d2 0\nq1 B d1 0\nq1 B d2 1\n")
    run = tmp_path / "run"
    run.write_text("q1 Q0 d1 1 2 t\nq1 Q0 d2 2 1 t\n")
    got = evaluate(str(qrels), str(run), ["map_avgjg", "P_avgjg.1"], rel_format="qrels_jg")
    assert got.loc["q1"].tolist() == [(1.0 + 0.5) / 2, (1.0 + 0.0) / 2]


@pytest.mark.parametrize("text, rel_format, message", [
    ("q1 u d1 2\n", "prefs", "5 fields; got 4"),
    ("q1 u s d1 high\n", "prefs", "is not a number: 'high'"),
    ("q1 0 d1 1\nq1 0 d1 0\n", "qrels_jg", "judged twice by judgment group '0'"),
    ("q1 0 d1 x\n", "qrels_jg", r"judgments:1: the relevance of document 'd1' of query 'q1'"),
])
def test_bad_preference_files_are_refused(tmp_path, text, rel_format, message):
    from reteval.errors import InputError

    path = tmp_path / "judgments"
    path.write_text(text)
    run = tmp_path / "run"
    run.write_text("q1 Q0 d1 1 1 t\n")
    measure = "prefs_simp" if rel_format == "prefs" else "map_avgjg"
    with pytest.raises(InputError, match=message):
        evaluate(str(path), str(run), [measure], rel_format=rel_format)


def test_preference_measures_need_their_judgments(tmp_path, capsys):
    from reteval.errors import InputError

    with pytest.raises(InputError, match="needs prefs or qrels_prefs judgments"):
        evaluate(QRELS, RUN, ["prefs_simp"])
    qrels, run = _files(tmp_path)
    assert main(["evaluate", qrels, run, "-R", "qrels_prefs", "-m", "map"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not computed from -R qrels_prefs" in err


def test_missing_queries_are_ranked_as_trec_eval_ranks_them():
    # trec_eval -c ranks a judged query without results as one unjudged document, then
    # zeroes num_ret, utility (by that name only), unj_* and rbp_resid
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"c": 1}}
    run = {"q1": {"a": 1.0}}
    with pytest.warns(Warning, match="no results"):
        got = evaluate(qrels, run, ["num_ret", "Utility", "utility.2,-1,-3,0", "unj.5",
                                    "rbp_resid", "Judged@1"])
    # utility_2,-1,-3,0 of q2: -1 for the one retrieved, -3 for the relevant c missed
    assert got.loc["q2"].tolist() == [0, 0, -1 - 3, 0, 0, 0]
