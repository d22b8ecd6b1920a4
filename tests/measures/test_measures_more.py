"""Measures beyond the first set and the measure syntax.

The measures: DCG, ERR, RBP, infAP, IPrec, SetP/R/F, NumQ.

infAP, IPrec, the set measures and NumQ are checked against trec_eval's own outputs in
test_conformance.py and against pytrec_eval in test_oracle_pytrec_eval.py; here they get
hand-derived values. ERR and RBP, which trec_eval does not have in ir_measures' form, are
checked by hand and against ir_measures (gdeval for ERR, cwl_eval for RBP) when installed.
"""

import math
import shutil

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reteval import evaluate
from reteval.errors import UnknownMeasureError
from reteval.evaluation.engine import aggregate
from reteval.measures import Measure, measure_columns, parse_measure, trec_name

# q1 ranked (score desc, doc id desc): 1 a(3)  2 c(1)  3 b(0)  4 d(-)  5 e(4); f(2) unretrieved.
QRELS = {"q1": {"a": 3, "b": 0, "c": 1, "e": 4, "f": 2, "g": -1}, "q2": {"x": 2, "y": -1}}
RUN = {"q1": {"a": 0.9, "b": 0.8, "c": 0.8, "d": 0.5, "e": 0.1},
       "q2": {"y": 1.0, "x": 0.5, "z": 0.2}}
L = math.log2


def value(name, query="q1", **options):
    return evaluate(QRELS, RUN, [name], **options).loc[query, name]


def test_dcg_is_the_numerator_of_ndcg():
    assert value("DCG") == pytest.approx(3 / L(2) + 1 / L(3) + 4 / L(6))
    assert value("DCG@2") == pytest.approx(3 / L(2) + 1 / L(3))
    assert value("DCG", "q2") == pytest.approx(2 / L(3))  # y (negative) gains 0


def test_err_follows_gdeval():
    r = [(2**g - 1) / 16 for g in (3, 1, 0, 0, 4)]
    expected, decay = 0.0, 1.0
    for rank, stop in enumerate(r, 1):
        expected += stop * decay / rank
        decay *= 1 - stop
    assert value("ERR") == pytest.approx(expected, rel=1e-12)
    assert value("ERR@2") == pytest.approx(7 / 16 + (1 / 16) * (9 / 16) / 2, rel=1e-12)
    assert value("ERR@10", "q2") == pytest.approx((3 / 16) / 2)  # ir_measures (gdeval): 0.09375
    with pytest.raises(Exception, match="ERR assumes grades 0-4"):
        evaluate({"q": {"a": 5}}, {"q": ["a"]}, ["ERR@5"])


def test_rbp_binary_with_its_own_level():
    assert value("RBP") == pytest.approx(0.2 * (1 + 0.8 + 0.8**4))  # a, c, e relevant (>= 1)
    assert value("RBP(p=0.5,rel=2)") == pytest.approx(0.5 * (1 + 0.5**4))  # a, e
    assert value("RBP(p=0.5)@3", relevance_level=3) == pytest.approx(0.5)  # only a in the top 3


def test_set_measures_and_numq():
    assert value("SetP") == pytest.approx(3 / 5)  # a c e of 5 retrieved
    assert value("SetR") == pytest.approx(3 / 4)  # of a c e f
    p, r = 3 / 5, 3 / 4
    assert value("SetF") == pytest.approx(2 * p * r / (p + r))
    assert value("SetF(beta=0.25)") == pytest.approx(1.25 * p * r / (0.25 * p + r))
    assert value("SetF", "q2", relevance_level=3) == 0.0  # nothing relevant retrieved
    per_query = evaluate(QRELS, RUN, ["NumQ", "SetP"])
    assert per_query["NumQ"].tolist() == [1.0, 1.0] and aggregate(per_query)["NumQ"] == 2


def test_infap_by_hand():
    # q2: y is in the pool unjudged (skipped), x relevant at rank 2 (j = 1):
    # 1/2 + (1/2) * ((0 + 0 + 1) / 1) * ((0 + eps) / (0 + 0 + 2 eps)) = 1/2 + 1/4
    assert value("infAP", "q2") == pytest.approx(0.75)
    # q1: a at rank 1 -> 1; c at rank 2 (1 rel above) -> 1/2 + 1/2 * 1 * (1+e)/(1+2e);
    # e at rank 5 (2 rel, 1 nonrel above, d unpooled) -> 1/5 + 4/5 * 3/4 * (2+e)/(3+2e)
    e = 0.00001
    expected = (1 + (0.5 + 0.5 * (1 + e) / (1 + 2 * e))
                + (0.2 + 0.8 * 0.75 * (2 + e) / (3 + 2 * e))) / 4
    assert value("infAP") == pytest.approx(expected, rel=1e-12)


def test_iprec_by_hand():
    # q1 relevant retrieved at ranks 1, 2, 5 (precisions 1, 1, 3/5); R = 4 (f unretrieved)
    got = evaluate(QRELS, RUN, ["iprec_at_recall"]).loc["q1"].tolist()
    # c = lround(r * 4): 0,0,1,1,2,2,2,3,3,4,4 -> max precision from the c-th relevant on
    assert got == [1, 1, 1, 1, 1, 1, 1, 0.6, 0.6, 0, 0]


def test_per_measure_relevance_level_beside_the_global_one():
    got = evaluate(QRELS, RUN, ["P@5", "P(rel=2)@5", "AP(rel=2)", "R(rel=2)@100"])
    assert got.loc["q1"].tolist() == pytest.approx([3 / 5, 2 / 5, (1 + 2 / 5) / 3, 2 / 3])
    level2 = evaluate(QRELS, RUN, ["P@5", "AP", "R@100"], relevance_level=2)
    assert np.array_equal(got.iloc[:, 1:].to_numpy(), level2.to_numpy())


# ---------------------------------------------------------------- the syntax, table-driven

SPELLINGS = [
    # what people type -> (column labels, canonical measures)
    ("P@10", ["P@10"], ["P@10"]),
    ("P(rel=2)@10", ["P(rel=2)@10"], ["P(rel=2)@10"]),
    ("R(rel=2)@100", ["R(rel=2)@100"], ["R(rel=2)@100"]),
    ("AP(rel=2)", ["AP(rel=2)"], ["AP(rel=2)"]),
    ("nDCG(dcg=exp-log2)@10", ["nDCG(dcg=exp-log2)@10"], ["nDCG_exp@10"]),
    ("nDCG(dcg='exp-log2')@10", ["nDCG(dcg='exp-log2')@10"], ["nDCG_exp@10"]),
    ("nDCG(dcg=log2)@10", ["nDCG(dcg=log2)@10"], ["nDCG@10"]),
    ("Judged@10", ["Judged@10"], ["Judged@10"]),
    ("MRR", ["MRR"], ["RR"]),
    ("Recall@5", ["Recall@5"], ["R@5"]),  # the chapter's names
    ("Precision@10", ["Precision@10"], ["P@10"]),
    ("map", ["map"], ["AP"]),
    ("ndcg_cut.10", ["ndcg_cut.10"], ["nDCG@10"]),
    ("ndcg_cut_10", ["ndcg_cut_10"], ["nDCG@10"]),
    ("P_5,10", ["P_5", "P_10"], ["P@5", "P@10"]),
    ("P.5,10,20", ["P_5", "P_10", "P_20"], ["P@5", "P@10", "P@20"]),
    ("ndcg_cut.10,20", ["ndcg_cut_10", "ndcg_cut_20"], ["nDCG@10", "nDCG@20"]),
    ("recall.20,2000", ["recall_20", "recall_2000"], ["R@20", "R@2000"]),
    ("P", [f"P@{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)],
     [f"P@{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]),
    ("success", ["success_1", "success_5", "success_10"],
     ["Success@1", "Success@5", "Success@10"]),
    ("map_cut.100", ["map_cut.100"], ["AP@100"]),
    ("iprec_at_recall_0.10", ["iprec_at_recall_0.10"], ["IPrec@0.1"]),
    ("iprec_at_recall.0.25,0.5", ["iprec_at_recall_0.25", "iprec_at_recall_0.50"],
     ["IPrec@0.25", "IPrec@0.5"]),
    ("IPrec@0.5", ["IPrec@0.5"], ["IPrec@0.5"]),
    ("set_P", ["set_P"], ["SetP"]),
    ("set_F", ["set_F"], ["SetF"]),
    ("SetF(beta=0.5)", ["SetF(beta=0.5)"], ["SetF(beta=0.5)"]),
    ("num_q", ["num_q"], ["NumQ"]),
    ("infAP", ["infAP"], ["infAP"]),
    ("RBP", ["RBP"], ["RBP(p=0.8)"]),
    ("RBP(p=0.9,rel=2)@20", ["RBP(p=0.9,rel=2)@20"], ["RBP(rel=2,p=0.9)@20"]),
    ("ERR@20", ["ERR@20"], ["ERR@20"]),
    ("DCG@10", ["DCG@10"], ["DCG@10"]),
]


@pytest.mark.parametrize("name, labels, canonical", SPELLINGS, ids=[s[0] for s in SPELLINGS])
def test_every_spelling(name, labels, canonical):
    pairs = measure_columns(name)
    assert [label for label, _ in pairs] == labels
    assert [str(m) for _, m in pairs] == canonical
    for label, measure in pairs:  # labels and canonical names read back to the same measure
        assert parse_measure(label) == measure == parse_measure(str(measure))
        assert eval(repr(measure), {"Measure": Measure}) == measure


def test_official_is_trec_evals_default_set():
    labels = [label for label, _ in measure_columns("official")]
    assert labels[:9] == ["num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
                          "bpref", "recip_rank"]
    assert labels[9:20] == [f"iprec_at_recall_{r / 10:.2f}" for r in range(11)]
    assert labels[20:] == [f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]
    assert [trec_name(label) for label in labels] == labels  # printed as trec_eval prints them


ERRORS = [
    ("nDGC@10", "Did you mean 'nDCG'"),
    ("ndgc_cut.10", "Did you mean 'ndcg_cut'"),
    ("Precisio@10", "Did you mean 'P'"),
    ("Precison@10", "Did you mean 'P'"),
    ("P(rel=-1)@10", r"rel in 'P\(rel=-1\)@10' must be a non-negative number"),
    ("nDCG(rel=2)@10", "'nDCG' takes no parameter 'rel'"),
    ("P(foo=1)@5", "unknown parameter 'foo'"),
    ("P(rel)@5", "written key=value"),
    ("P(rel=1,rel=2)@5", "given twice"),
    ("Utility(a=1,a=2)", "parameter 'a' given twice"),
    ("nDCG(dcg=log2,dcg=exp-log2)@10", "parameter 'dcg' given twice"),
    ("RBP(p=1.5)", r"p of 'RBP' must be a number in \(0, 1\)"),
    ("RBP(p=abc)", "p in 'RBP\\(p=abc\\)' must be a number"),
    ("IPrec@2", r"recall level of 'IPrec' must be a number in \[0, 1\]"),
    ("P@0", "must be a positive integer"),
    ("P@99999999999999999999", "too large"),
    ("Rprec@10", "takes no cutoff"),
    ("set_P.5", "takes no cutoff"),
    ("nDCG(dcg=log3)@10", "must be 'log2'"),
]


@pytest.mark.parametrize("name, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_wrong_names_say_what_is_wrong(name, message):
    with pytest.raises(UnknownMeasureError, match=message):
        measure_columns(name)


def test_several_measures_in_one_name_need_parse_measures():
    with pytest.raises(UnknownMeasureError, match="stands for 2 measures"):
        parse_measure("P_5,10")
    # a measure asked for twice is kept once, under its first label (trec_eval prints it once)
    assert [label for label, _ in measure_columns(["P_5", "P_5,10"])] == ["P_5", "P_10"]
    assert [label for label, _ in measure_columns(["AP", "official"])].count("AP") == 1
    assert "map" not in [label for label, _ in measure_columns(["AP", "official"])]


def test_measure_objects_of_ir_measures_are_read_by_their_name():
    ir_measures = pytest.importorskip("ir_measures")
    from ir_measures import AP, ERR, RBP, IPrec, P, SetF, nDCG

    objects = [nDCG @ 10, P(rel=2) @ 10, AP, RBP(p=0.9), ERR @ 10, IPrec @ 0.5, SetF,
               nDCG(dcg="exp-log2") @ 10]
    got = evaluate(QRELS, RUN, objects)
    assert list(got.columns) == [str(m) for m in objects]
    assert got.loc["q1", "P(rel=2)@10"] == pytest.approx(2 / 10)
    assert str(parse_measure(nDCG(dcg="exp-log2") @ 10)) == "nDCG_exp@10"
    assert ir_measures.__name__ == "ir_measures"


# ---------------------------------------------------------------- ir_measures as the oracle

DOCS = [f"{i}" for i in range(30)]


@st.composite
def tie_free_cases(draw):
    # gdeval wants numeric topic ids; cwl_eval breaks score ties its own way, so no ties.
    qrels, run = {}, {}
    for q in range(1, draw(st.integers(1, 5)) + 1):
        qrels[str(q)] = draw(st.dictionaries(st.sampled_from(DOCS), st.integers(0, 4),
                                             min_size=1, max_size=12))
        docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=20, unique=True))
        run[str(q)] = {d: float(len(docs) - i) for i, d in enumerate(docs)}
    return qrels, run


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=tie_free_cases())
def test_err_and_rbp_match_ir_measures(case):
    ir_measures = pytest.importorskip("ir_measures")
    from ir_measures import ERR, RBP

    qrels, run = case
    checks = []
    if shutil.which("perl"):
        checks += [(ERR @ 10, 1e-5)]  # gdeval prints 5 decimals
    try:
        import cwl  # noqa: F401

        checks += [(RBP(p=0.8, rel=1), 1e-9), (RBP(p=0.6, rel=3), 1e-9)]
    except ImportError:
        pass
    if not checks:
        pytest.skip("neither perl (gdeval) nor cwl_eval is available")
    for measure, tolerance in checks:
        expected = {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, run)}
        got = evaluate(qrels, run, [measure], missing="skip")[str(measure)]
        for query, value in expected.items():
            if any(g > 0 for g in qrels[query].values()):  # both score 0 otherwise
                assert got[query] == pytest.approx(value, abs=tolerance), (str(measure), query)


def test_precision_recall_figure_draws_every_level_of_every_system():
    from reteval.comparison import compare
    from reteval.report.figures import plot_precision_recall

    runs = {"a": RUN, "b": {"q1": {"f": 1.0, "e": 0.5}, "q2": {"x": 1.0}}}
    comparison = compare(QRELS, runs, ["iprec_at_recall"], rng=0)
    fig = plot_precision_recall(comparison)
    lines = fig.axes[0].get_lines()
    assert [line.get_label() for line in lines] == ["a", "b"]
    assert lines[0].get_xdata().tolist() == [r / 10 for r in range(11)]
    means = comparison.means.loc["a"].tolist()  # the curve plots the means
    assert lines[0].get_ydata().tolist() == means
    assert lines[0].get_linestyle() != lines[1].get_linestyle()
    with pytest.raises(Exception, match="needs IPrec at two or more recall levels"):
        plot_precision_recall(compare(QRELS, runs, ["AP"], rng=0))
