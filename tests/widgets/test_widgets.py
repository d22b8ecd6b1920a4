"""reteval.widgets: the explorers' logic, driven by setting widget values in Python.

Expected values are computed by hand (the arithmetic is in the comments), with
pytrec_eval and statsmodels as independent references where noted. Notebook
11_explore is tested in tests/test_notebook_11.py.
"""

import math
import re

import pandas as pd
import pytest
import pytrec_eval

from reteval.datasets import Dataset
from reteval.errors import InputError
from reteval.widgets import (
    ABPlanner,
    KCurveExplorer,
    MetricExplorer,
    MetricState,
    QueryExplorer,
    k_curves,
    plan_sample_size,
)

LOG2_3 = math.log2(3)


def shown_lines(html_value):
    """The text of each formula line of an HTML widget value."""
    return [re.sub(r"<[^>]+>", "", line).strip()
            for line in re.findall(r"<div class='formula'[^>]*>(.*?)</div>", html_value)]


# --------------------------------------------------------------------------- MetricState


def test_state_values_and_formulas_by_hand():
    # ranks 1..5 graded [2, 0, 1, 0, 0]; one relevant document (grade 1) not retrieved: R = 3.
    state = MetricState([2, 0, 1, 0, 0], k=3, unretrieved=[1])
    dcg = 2 + 1 / 2  # 2/log2(2) + 1/log2(4)
    idcg = 2 + 1 / LOG2_3 + 1 / 2  # ideal gains 2, 1, 1
    expected = {"P@3": 2 / 3, "R@3": 2 / 3, "RR": 1.0, "nDCG@3": dcg / idcg,
                "AP": (1 / 1 + 2 / 3) / 3}
    assert state.values() == pytest.approx(expected, abs=1e-12)
    lines = state.explain()
    assert [e.formula for e in lines] == [
        "P@3 = 2/3 = 0.667",
        "R@3 = 2/3 = 0.667",
        "RR = 1/1 = 1.000",
        f"nDCG@3 = DCG@3 / IDCG@3 = 2.500 / {idcg:.3f} = {dcg / idcg:.3f}",
        "AP = (1/1 + 2/3) / 3 = 0.556",
    ]
    assert lines[3].terms == ("DCG@3 = 2/log2(2) + 1/log2(4) = 2.500",
                              f"IDCG@3 = 2/log2(2) + 1/log2(3) + 1/log2(4) = {idcg:.3f}")
    assert [e.value for e in lines] == pytest.approx(list(expected.values()), abs=1e-12)


def test_state_matches_pytrec_eval():
    state = MetricState([0, 1, 3, 0, 2, 0, 1], k=4, unretrieved=[2, 1])
    # pytrec_eval: RelevanceEvaluator(qrels, {"P_4", "recall_4", "recip_rank", "ndcg_cut_4", "map"})
    judged, ranked = state.qrels(), state.run()
    qrels = {"q": {d: int(g) for d, g in zip(judged["doc_id"], judged["relevance"], strict=True)}}
    run = {"q": {d: float(s) for d, s in zip(ranked["doc_id"], ranked["score"], strict=True)}}
    ref = pytrec_eval.RelevanceEvaluator(
        qrels, {"P_4", "recall_4", "recip_rank", "ndcg_cut_4", "map"}).evaluate(run)["q"]
    values = state.values()
    assert values["P@4"] == pytest.approx(ref["P_4"])
    assert values["R@4"] == pytest.approx(ref["recall_4"])
    assert values["RR"] == pytest.approx(ref["recip_rank"])
    assert values["nDCG@4"] == pytest.approx(ref["ndcg_cut_4"])
    assert values["AP"] == pytest.approx(ref["map"])
    # By hand too: relevant at ranks 2, 3, 5, 7 and two unretrieved, R = 6.
    assert values["AP"] == pytest.approx((1 / 2 + 2 / 3 + 3 / 5 + 4 / 7) / 6)


def test_formula_fractions_evaluate_to_the_shown_values():
    state = MetricState([1, 1, 0, 2, 0, 0, 3, 0], k=6, unretrieved=[1, 3])
    for e in state.explain():
        expression = e.formula.split(" = ", 1)[1].rsplit(" = ", 1)[0]
        if e.measure.startswith("nDCG"):
            continue  # its fraction is of rounded sums; checked by hand above
        value = eval(expression, {"__builtins__": {}})  # digits, + / ( ) only
        assert value == pytest.approx(e.value, abs=1e-12), e.formula


def test_no_relevant_document_every_measure_zero_and_said_so():
    state = MetricState([0, 0, 0], k=2)
    assert set(state.values().values()) == {0.0}
    formulas = [e.formula for e in state.explain()]
    assert formulas[0] == "P@2 = 0/2 = 0.000"
    assert formulas[2] == "RR = 0.000 (no relevant document retrieved)"
    assert all("no relevant document judged" in f for f in formulas[1::2])


def test_relevant_but_none_retrieved():
    state = MetricState([0, 0], k=2, unretrieved=[3])
    assert [e.formula for e in state.explain()][3:] == [
        "nDCG@2 = DCG@2 / IDCG@2 = 0.000 / 3.000 = 0.000",
        "AP = (0) / 1 = 0.000",
    ]


def test_relevance_level_counts_only_higher_grades_but_keeps_gains():
    state = MetricState([1, 2], k=2, relevance_level=2)
    values = state.values()
    assert values["P@2"] == 0.5 and values["RR"] == 0.5  # only rank 2 is relevant
    # nDCG gains are grades: DCG = 1 + 2/log2(3); ideal 2 + 1/log2(3).
    assert values["nDCG@2"] == pytest.approx((1 + 2 / LOG2_3) / (2 + 1 / LOG2_3))


def test_pure_updates_leave_the_original_unchanged():
    state = MetricState([1, 0, 0], k=1)
    assert state.with_grade(3, 2).grades == (1, 0, 2)
    assert state.with_k(3).k == 3
    assert state.with_unretrieved([1, 1]).num_relevant == 3
    assert state.grades == (1, 0, 0) and state.k == 1 and state.unretrieved == ()


@pytest.mark.parametrize("kwargs, message", [
    ({"grades": [], "k": 1}, "grades must hold at least one"),
    ({"grades": [1, -1], "k": 1}, r"grades\[1\] must be an integer grade >= 0; got -1"),
    ({"grades": [1, 0.5], "k": 1}, r"grades\[1\] must be an integer grade >= 0; got 0.5"),
    ({"grades": "10", "k": 1}, "grades must be a sequence of integer grades; got '10'"),
    ({"grades": [1], "k": 0}, "k must be an integer >= 1; got 0"),
    ({"grades": [1], "k": 1, "unretrieved": [True]}, r"unretrieved\[0\]"),
])
def test_state_rejects_bad_input(kwargs, message):
    with pytest.raises(InputError, match=message):
        MetricState(**kwargs)


def test_with_grade_rejects_a_rank_outside_the_list():
    with pytest.raises(InputError, match="rank must be at most 3; got 4"):
        MetricState([1, 0, 0], k=1).with_grade(4, 1)


# --------------------------------------------------------------------------- MetricExplorer


def test_metric_explorer_k_slider_updates_the_formulas():
    explorer = MetricExplorer([3, 0, 2, 0, 1], k=2, unretrieved=[2])
    assert shown_lines(explorer.values_html.value)[0] == "P@2 = 1/2 = 0.500"
    explorer.k_slider.value = 5
    lines = shown_lines(explorer.values_html.value)
    # relevant at 1, 3, 5 of R = 4.
    assert lines[0] == "P@5 = 3/5 = 0.600"
    assert lines[1] == "R@5 = 3/4 = 0.750"
    assert "DCG@5 = 3/log2(2) + 2/log2(4) + 1/log2(6) = 4.387" in lines
    assert lines[-1] == "AP = (1/1 + 2/3 + 3/5) / 4 = 0.567"
    assert explorer.state.k == 5


def test_metric_explorer_grade_dropdowns_update_values_and_table():
    explorer = MetricExplorer([3, 0, 2, 0, 1], k=3, unretrieved=())
    assert "RR = 1/1 = 1.000" in shown_lines(explorer.values_html.value)
    explorer.grade_controls[0].value = 0
    lines = shown_lines(explorer.values_html.value)
    assert "RR = 1/3 = 0.333" in lines
    assert "AP = (1/3 + 2/5) / 2 = 0.367" in lines
    assert "<td>2/log2(4) = 1</td>" in explorer.table_html.value
    assert "<td>0/log2(2) = 0</td>" in explorer.table_html.value
    explorer.grade_controls[1].value = 3
    assert explorer.state.grades == (0, 3, 2, 0, 1)
    assert "RR = 1/2 = 0.500" in shown_lines(explorer.values_html.value)


def test_metric_explorer_toggle_buttons_in_binary_mode():
    explorer = MetricExplorer([0, 0, 0, 0], k=4, unretrieved=(), max_grade=1)
    assert type(explorer.grade_controls[0]).__name__ == "ToggleButton"
    explorer.grade_controls[3].value = True
    lines = shown_lines(explorer.values_html.value)
    assert lines[0] == "P@4 = 1/4 = 0.250" and lines[2] == "RR = 1/4 = 0.250"


def test_metric_explorer_unretrieved_controls_change_the_denominators():
    explorer = MetricExplorer([1, 0, 1], k=3, unretrieved=())
    assert "R@3 = 2/2 = 1.000" in shown_lines(explorer.values_html.value)
    explorer.missing_slider.value = 2
    lines = shown_lines(explorer.values_html.value)
    assert "R@3 = 2/4 = 0.500" in lines
    assert "P@3 = 2/3 = 0.667" in lines
    explorer.missing_grade.value = 3
    assert explorer.state.unretrieved == (3, 3)
    # ideal gains 3, 3, 1 within K = 3
    assert f"IDCG@3 = 3/log2(2) + 3/log2(3) + 1/log2(4) = {3 + 3 / LOG2_3 + 0.5:.3f}" in (
        shown_lines(explorer.values_html.value))


def test_metric_explorer_rejects_grades_above_max_grade():
    with pytest.raises(InputError, match=r"at most max_grade=1; got \[2\]"):
        MetricExplorer([2, 0], k=1, max_grade=1, unretrieved=())
    with pytest.raises(InputError,
                       match=r"k must be at most the number of ranked documents \(2\); got 3"):
        MetricExplorer([1, 0], k=3, unretrieved=())


def test_metric_explorer_displays_its_widget():
    bundle = MetricExplorer([1, 0], k=1, unretrieved=())._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


# --------------------------------------------------------------------------- QueryExplorer


@pytest.fixture
def tiny():
    corpus = {d: {"title": f"title of {d}", "text": ""} for d in ("d1", "d2", "d3", "d4", "d5")}
    corpus["d2"]["title"] = "<b>bold</b> & co"
    qrels = pd.DataFrame({"query_id": ["q1", "q1", "q1", "q1", "q2"],
                          "doc_id": ["d1", "d3", "d4", "d5", "d2"],
                          "relevance": [2, 1, 0, 1, 1]})
    dataset = Dataset("tiny", corpus, {"q1": "first", "q2": "second"}, qrels)
    runs = {
        "a": {"q1": {"d1": 0.9, "d2": 0.8, "d3": 0.7, "d4": 0.6}, "q2": {"d3": 0.9, "d2": 0.5}},
        "b": {"q1": {"d4": 0.9, "d3": 0.8, "d9": 0.7}, "q2": {"d2": 0.9}},
    }
    return dataset, runs


def test_query_explorer_by_hand(tiny):
    dataset, runs = tiny
    explorer = QueryExplorer(dataset, runs, k=2)
    # q1, system a: d1 (2), d2 (unjudged); relevant d1, d3, d5.
    assert explorer.measures("a", "q1", 2).to_dict() == pytest.approx(
        {"P@2": 0.5, "R@2": 1 / 3, "RR": 1.0, "nDCG@2": 2 / (2 + 1 / LOG2_3),
         "AP": (1 + 2 / 3) / 3})
    # q1, system b: d4 (0), d3 (1).
    assert explorer.measures("b", "q1", 2).to_dict() == pytest.approx(
        {"P@2": 0.5, "R@2": 1 / 3, "RR": 0.5, "nDCG@2": (1 / LOG2_3) / (2 + 1 / LOG2_3),
         "AP": 0.5 / 3})
    ranking = explorer.ranking("a", "q1", 3)
    assert ranking["doc_id"].tolist() == ["d1", "d2", "d3"]
    assert ranking["judgment"].tolist()[0] == 2 and pd.isna(ranking["judgment"].tolist()[1])
    assert explorer.missed("a", "q1", 2) == [("d3", 1), ("d5", 1)]


def test_query_explorer_controls_update_both_sides(tiny):
    dataset, runs = tiny
    explorer = QueryExplorer(dataset, runs, k=2)
    assert "<h4>a</h4>" in explorer.left_html.value and "<h4>b</h4>" in explorer.right_html.value
    assert "RR = 1.000" in explorer.left_html.value and "RR = 0.500" in explorer.right_html.value
    assert "&#10004; 2" in explorer.left_html.value  # d1, judged 2, marked relevant
    assert "unjudged" in explorer.left_html.value  # d2 has no judgment for q1
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; co" in explorer.left_html.value  # titles escaped
    assert "Relevant, not in the top 2: d3 (1), d5 (1)" in explorer.left_html.value

    explorer.query_select.value = "q2"
    # q2, a: d3 (unjudged for q2), d2 (1): RR 1/2; b: d2 first, RR 1.
    assert "RR = 0.500" in explorer.left_html.value and "RR = 1.000" in explorer.right_html.value
    explorer.left_select.value = "b"
    assert "<h4>b</h4>" in explorer.left_html.value and "RR = 1.000" in explorer.left_html.value
    explorer.k_slider.value = 1
    assert "P@1 = 1.000" in explorer.left_html.value
    assert "Relevant, not in the top 1: none" in explorer.left_html.value


def test_query_explorer_rejects_unknown_choices(tiny):
    dataset, runs = tiny
    with pytest.raises(InputError, match="systems must be two of \\['a', 'b'\\]"):
        QueryExplorer(dataset, runs, systems=("a", "c"))
    with pytest.raises(InputError, match="query_id 'q9' is not a query of 'tiny'"):
        QueryExplorer(dataset, runs, query_id="q9")
    with pytest.raises(InputError, match="runs must be a non-empty mapping"):
        QueryExplorer(dataset, {})


# --------------------------------------------------------------------------- k curves


def test_k_curves_by_hand(tiny):
    dataset, runs = tiny
    curves = k_curves(dataset.qrels, runs, families=["P", "R"], max_k=3)
    assert list(curves.index) == [1, 2, 3]
    # P@k averaged over q1, q2 (P divides by k even when fewer were retrieved).
    assert curves[("P", "a")].tolist() == pytest.approx([(1 + 0) / 2, (1 / 2 + 1 / 2) / 2,
                                                        (2 / 3 + 1 / 3) / 2])
    assert curves[("P", "b")].tolist() == pytest.approx([(0 + 1) / 2, (1 / 2 + 1 / 2) / 2,
                                                        (1 / 3 + 1 / 3) / 2])
    assert curves[("R", "a")].tolist() == pytest.approx([(1 / 3 + 0) / 2, (1 / 3 + 1) / 2,
                                                        (2 / 3 + 1) / 2])
    assert curves[("R", "b")].tolist() == pytest.approx([(0 + 1) / 2, (1 / 3 + 1) / 2,
                                                        (1 / 3 + 1) / 2])


def test_k_curve_explorer_slider_updates_values_and_plot(tiny):
    dataset, runs = tiny
    explorer = KCurveExplorer(dataset.qrels, runs, families=["P", "R"], max_k=3, k=1)
    first_png = explorer.image.value
    assert first_png[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<th>P@1</th><th>R@1</th>" in explorer.values_html.value
    assert "<td class='l'>a</td><td>0.500</td><td>0.167</td>" in explorer.values_html.value
    explorer.k_slider.value = 3
    assert "<th>P@3</th><th>R@3</th>" in explorer.values_html.value
    assert "<td class='l'>b</td><td>0.333</td><td>0.667</td>" in explorer.values_html.value
    assert explorer.image.value[:8] == b"\x89PNG\r\n\x1a\n" and explorer.image.value != first_png
    assert explorer.at(3).loc["a", "R@3"] == pytest.approx(5 / 6)
    assert explorer.text().splitlines()[1].split() == ["P@3", "R@3"]
    assert explorer.text().splitlines()[2].split() == ["system"]
    chinese = KCurveExplorer(dataset.qrels, runs, families=["P"], max_k=3, k=1, lang="zh")
    assert [line.split() for line in chinese.text().splitlines()[1:3]] == [["P@1"], ["检索器"]]


def test_k_curve_explorer_rejects_k_beyond_max_k(tiny):
    dataset, runs = tiny
    with pytest.raises(InputError, match="k must be at most max_k=3; got 4"):
        KCurveExplorer(dataset.qrels, runs, max_k=3, k=4)


# --------------------------------------------------------------------------- A/B planner


@pytest.mark.parametrize("baseline, effect, alpha, power, h, n", [
    # statsmodels: h = proportion_effectsize(baseline + effect, baseline);
    # n = NormalIndPower().solve_power(effect_size=h, alpha=alpha, power=power, ratio=1)
    (0.10, 0.01, 0.05, 0.80, 0.03262940076737697, 14744.104836925611),
    (0.10, 0.02, 0.05, 0.80, 0.06398210298605855, 3834.595739884031),
    (0.30, 0.05, 0.01, 0.90, 0.1068241920520907, 2607.8091606683997),
])
def test_plan_matches_statsmodels(baseline, effect, alpha, power, h, n):
    plan = plan_sample_size(baseline, effect, alpha=alpha, power=power)
    assert plan.effect_size == pytest.approx(h, rel=1e-12)
    assert plan.n_per_group == math.ceil(n) and plan.total == 2 * math.ceil(n)


def test_planner_sliders_update_the_sample_size():
    planner = ABPlanner(baseline=0.10, effect=0.01)
    assert "n per group = 14,745 (total 29,490)" in planner.result_html.value
    planner.effect_slider.value = 0.02
    assert planner.plan.n_per_group == 3835
    assert "n per group = 3,835 (total 7,670)" in planner.result_html.value
    planner.baseline_slider.value = 0.30
    planner.effect_slider.value = 0.05
    planner.alpha_slider.value = 0.01
    planner.power_slider.value = 0.90
    assert "n per group = 2,608 (total 5,216)" in planner.result_html.value


def test_planner_says_why_there_is_no_plan():
    planner = ABPlanner(baseline=0.9, effect=0.05)
    planner.effect_slider.value = 0.2
    assert planner.plan is None
    assert "no plan: effect must be &gt; 0 with baseline + effect &lt;= 1" in (
        planner.result_html.value)
    planner.effect_slider.value = 0.05
    assert planner.plan is not None


@pytest.mark.parametrize("kwargs, message", [
    ({"baseline": 0.0, "effect": 0.1}, "baseline must be a rate in \\(0, 1\\); got 0.0"),
    ({"baseline": 0.5, "effect": 0.0}, "effect must be > 0"),
    ({"baseline": 0.5, "effect": 0.1, "alpha": 1.5}, "alpha must be strictly between 0 and 1"),
])
def test_plan_rejects_bad_input(kwargs, message):
    with pytest.raises(InputError, match=message):
        plan_sample_size(**kwargs)


# --------------------------------------------------------------------------- text fallbacks

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def test_query_explorer_text_fallback_follows_the_controls(tiny):
    dataset, runs = tiny
    explorer = QueryExplorer(dataset, runs, k=2)
    lines = explorer.text().splitlines()
    # q1: a ranks d1 (2), d2 (unjudged); b ranks d4 (0), d3 (1); relevant d1, d3, d5.
    assert lines[0] == "query q1: first (K = 2)"
    assert lines[1] == "== a =="
    assert lines[2].startswith("P@2 = 0.500 · R@2 = 0.333 · RR = 1.000")
    assert lines[3].split()[:4] == ["1", "d1", "0.900", "✔"]
    assert lines[4].split()[:4] == ["2", "d2", "0.800", "unjudged"]
    assert lines[5] == "Relevant, not in the top 2: d3 (1), d5 (1)"
    assert lines[6] == "== b ==" and "RR = 0.500" in lines[7]
    assert lines[8].split()[:5] == ["1", "d4", "0.900", "✘", "0"]
    explorer.query_select.value = "q2"
    explorer.k_slider.value = 1
    assert explorer.text().splitlines()[0] == "query q2: second (K = 1)"
    assert "Relevant, not in the top 1: none" in explorer.text()


def test_explorers_carry_their_text_in_the_display_bundle(tiny):
    dataset, runs = tiny
    explorers = [QueryExplorer(dataset, runs, k=2, lang="zh"), ABPlanner(lang="zh"),
                 MetricExplorer([1, 0], k=1, unretrieved=()),
                 KCurveExplorer(dataset.qrels, runs, max_k=3, k=2)]
    for explorer in explorers:
        bundle = explorer._repr_mimebundle_()
        assert WIDGET_VIEW in bundle  # a live front end still gets the widget
        assert bundle["text/plain"] == explorer.text()
        assert "<pre>" in bundle["text/html"] and "reteval-fallback" in bundle["text/html"]
    query_html = explorers[0]._repr_mimebundle_()["text/html"]
    assert "交互控件需要运行中的内核" in query_html
    assert "相关但不在前 2 名：d3 (1), d5 (1)" in explorers[0].text()
    assert "未判断" in explorers[0].text()
    assert explorers[2].text().splitlines()[0] == "P@1 = 1/1 = 1.000"
    assert explorers[3].text().splitlines()[0] == "K = 2"


def test_planner_text_in_both_languages():
    planner = ABPlanner(baseline=0.10, effect=0.02, lang="zh")
    assert planner.text().splitlines() == list(planner.plan.describe("zh"))
    assert planner.text().splitlines()[2] == (
        "每组 3,835 人（共 7,670 人），双侧检验，显著性水平 α = 0.050，统计功效 0.80")
    english = ABPlanner(baseline=0.10, effect=0.02)
    assert english.text().splitlines()[2] == (
        "n per group = 3,835 (total 7,670) for power 0.80 at alpha 0.050, two-sided")
    english.baseline_slider.value = 0.9
    english.effect_slider.value = 0.2
    assert english.text().startswith("no plan: effect must be > 0")


def test_explorers_reject_an_unknown_language(tiny):
    dataset, runs = tiny
    with pytest.raises(InputError, match="lang must be 'zh' or 'en'; got 'fr'"):
        QueryExplorer(dataset, runs, lang="fr")
    with pytest.raises(InputError, match="lang must be 'zh' or 'en'; got 'de'"):
        ABPlanner(lang="de")


@pytest.mark.parametrize("options", [
    {"alpha": 0.001}, {"alpha": 0.3}, {"power": 0.995}, {"power": 0.3},
    {"baseline": 0.005}, {"effect": 0.3, "baseline": 0.5},
])
def test_planner_never_clamps_a_starting_value(options):
    from reteval.widgets import ABPlanner, plan_sample_size

    settings = {"baseline": 0.10, "effect": 0.01, "alpha": 0.05, "power": 0.80, **options}
    planner = ABPlanner(**settings)
    shown = (planner.baseline_slider.value, planner.effect_slider.value,
             planner.alpha_slider.value, planner.power_slider.value)
    assert shown == (settings["baseline"], settings["effect"], settings["alpha"],
                     settings["power"])
    expected = plan_sample_size(settings["baseline"], settings["effect"],
                                alpha=settings["alpha"], power=settings["power"])
    assert planner.plan.n_per_group == expected.n_per_group
