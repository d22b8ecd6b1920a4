"""Notebook 11 (exploring measures with widgets) through papermill, against the library.

The default run (teaching collection, Chinese edition) is checked for the values and the
text fallbacks it shows, and for the conclusions its prose draws; another parameter set
(English, other query and sizes) for the values it records.
"""

import math

import nbformat
import pytest
from notebook_run import execute as run_notebook
from notebook_run import fits_one_class, run_solutions
from paths import ROOT

import reteval
from reteval.datasets import load
from reteval.retrievers import make_retriever
from reteval.teaching.exercises import check
from reteval.widgets import plan_sample_size

NOTEBOOK = ROOT / "notebooks" / "11_explore.ipynb"
SOLUTIONS = ROOT / "notebooks" / "solutions" / "11_solutions.ipynb"
LOG2_3 = math.log2(3)


@pytest.mark.notebook
@pytest.mark.slow
def test_default_run_shows_text_fallbacks_and_draws_the_right_conclusions(tmp_path):
    output_dir, results = run_notebook(NOTEBOOK.stem, tmp_path)
    nb = nbformat.read(output_dir.parent / NOTEBOOK.name, as_version=4)
    shown = [
        o["data"]
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if "application/vnd.jupyter.widget-view+json" in o.get("data", {})
    ]
    assert len(shown) == 4  # the four explorers, each with its text fallback
    # The book's static page keeps each explorer's fallback (note, text, K-curve image).
    from reteval.book.html import _static_notebook

    static = [
        o["data"]
        for c in _static_notebook(nb, "zh").cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if "reteval-fallback" in str(o.get("data", {}))
    ]
    assert len(static) == 4 and all(list(d) == ["text/html"] for d in static)
    assert "data:image/png;base64," in static[2]["text/html"]
    plain = [data["text/plain"] for data in shown]
    assert all("<pre>" in data["text/html"] for data in shown)
    query_text, planner_text = results["query_explorer"]["text"], results["ab_planner"]["text"]
    assert query_text in plain and planner_text in plain
    assert query_text.startswith("查询 q01：Python 编程入门（K = 5）")
    assert (
        planner_text.splitlines()[2]
        == "每组 14,745 人（共 29,490 人），双侧检验，显著性水平 α = 0.050，统计功效 0.80"
    )
    assert results["ab_planner"]["n_per_group"] == plan_sample_size(0.10, 0.01).n_per_group == 14745

    # The metric explorer's prose: R = 5, AP = (1 + 2/3 + 3/5 + 4/8) / 5, the chapter's AP / 4.
    assert results["metric_explorer"]["values"]["AP"] == pytest.approx(
        (1 + 2 / 3 + 3 / 5 + 4 / 8) / 5
    )
    assert results["metric_explorer"]["values"]["R@5"] == pytest.approx(3 / 5)

    # The query explorer's prose: for q01 bm25 puts a distractor first and Flask 入门 in its top
    # 5; vector has four relevant documents first, the English d023 fourth, and unjudged d031.
    ranked = results["query_explorer"]["ranked"]
    grades = load("teaching").qrels.set_index(["query_id", "doc_id"])["relevance"]
    assert ranked["bm25"][0] == "d178" and grades[("q01", "d178")] == 0
    assert "d110" in ranked["bm25"] and grades[("q01", "d110")] == 0
    assert ranked["vector"][3] == "d023" and "d023" not in ranked["bm25"]
    assert all(grades[("q01", d)] > 0 for d in ranked["vector"][:4])
    assert ranked["vector"][4] == "d031" and ("q01", "d031") not in grades.index
    assert load("teaching").corpus["d023"]["title"] == "A learning path for Python beginners"

    # The K-curve prose, computed here: both nDCG@K curves fall, then rise up to K = 20: bm25
    # from ~0.82 to ~0.58 near K = 6 and ~0.61 at 20; vector from ~0.74 to ~0.70 near K = 8 and
    # ~0.74 at 20. They do not flatten.
    collection = load("teaching")
    expected = {"bm25": (6, 0.824, 0.579, 0.605), "vector": (8, 0.741, 0.697, 0.737)}
    for name, (min_k, first, low, last) in expected.items():
        run = make_retriever(name, collection.corpus).run(collection.queries, k=20)
        ndcg = reteval.evaluate(collection.qrels, run, [f"nDCG@{k}" for k in range(1, 21)]).mean()
        lowest = int(ndcg.idxmin().split("@")[1])
        shape = results["k_curve_explorer"]["ndcg_shape"][name]
        assert shape["min_k"] == lowest == min_k
        assert shape["first"] == pytest.approx(ndcg["nDCG@1"])
        assert shape["min"] == pytest.approx(ndcg.min())
        assert shape["last"] == pytest.approx(ndcg["nDCG@20"])
        assert (ndcg["nDCG@1"], ndcg.min(), ndcg["nDCG@20"]) == pytest.approx(
            (first, low, last), abs=5e-4)
        assert shape["rises_after_min"] and ndcg["nDCG@20"] > ndcg.min() + 0.02
    assert (output_dir / "figures" / "k_curves.png").stat().st_size > 10_000


@pytest.mark.parametrize(
    "exercise, wrong",
    [
        ("11.1", [None, (1 / 2 + 2 / 4 + 3 / 7) / 3, 0.5533, 0.3]),
        ("11.2", [None, 14745, 2 * 57756, 57756.5, 58000]),
        ("11.3", ["A", {"A", "B", "C", "D", "E"}, "E", None, 3]),
    ],
)
def test_checks_reject_plausible_wrong_answers(exercise, wrong):
    for answer in wrong:
        assert not check(exercise, answer, lang="en"), (exercise, answer)


def test_checks_accept_the_right_answers():
    assert check("11.1", (1 / 2 + 2 / 4 + 3 / 7) / 5) and check("11.1", "0.2857")
    assert check("11.2", 57756) and check("11.2", 57756.0) and check("11.2", "57,756")
    assert check("11.3", "A, B, C, D") and check("11.3", {"a", "b", "c", "d"})


@pytest.mark.slow
def test_solutions_pass_their_checks():
    run_solutions("11", "zh")  # each solution cell asserts check() accepts it


@pytest.mark.parametrize("path", [NOTEBOOK, SOLUTIONS])
def test_every_prose_cell_has_its_translation(path):
    cells = nbformat.read(path, as_version=4).cells
    for i, cell in enumerate(cells):
        tags = cell.metadata.get("tags", [])
        if cell.cell_type == "markdown":
            assert ("lang-zh" in tags) != ("lang-en" in tags)
            if "lang-zh" in tags:
                assert "lang-en" in cells[i + 1].metadata.get("tags", [])
    if path == NOTEBOOK:
        assert sum('check("11.' in c.source for c in cells if c.cell_type == "code") >= 3
        assert any(c.source.startswith("## 小结") for c in cells)


@pytest.mark.notebook
@pytest.mark.slow
def test_notebook_records_what_the_explorers_show(tmp_path):
    output_dir, results = run_notebook(
        NOTEBOOK.stem, tmp_path, grades=[0, 1, 1], unretrieved=[], k=2, max_k=5,
        query_id="q03", depth=10, retrievers=["bm25", "vector"], baseline_rate=0.30,
        effect=0.05, alpha=0.01, power=0.90, lang="en",
    )
    metric = results["metric_explorer"]
    # By hand: relevant at ranks 2 and 3, R = 2, K = 2.
    assert metric["formulas"][:3] == ["P@2 = 1/2 = 0.500", "R@2 = 1/2 = 0.500", "RR = 1/2 = 0.500"]
    assert metric["formulas"][4] == "AP = (1/2 + 2/3) / 2 = 0.583"
    assert metric["values"]["nDCG@2"] == pytest.approx((1 / LOG2_3) / (1 + 1 / LOG2_3))

    collection = load("teaching")
    runs = {
        name: make_retriever(name, collection.corpus).run(collection.queries, k=10)
        for name in ("bm25", "vector")
    }
    query = results["query_explorer"]
    assert query["query_id"] == "q03" and query["systems"] == ["bm25", "vector"]
    for name, run in runs.items():
        expected = reteval.evaluate(collection.qrels, run, ["P@2", "R@2", "RR", "nDCG@2", "AP"])
        assert query["measures"][name] == pytest.approx(expected.loc["q03"].to_dict(), abs=1e-12)
        assert query["ranked"][name] == run[run["query_id"] == "q03"]["doc_id"].head(2).tolist()
        means = reteval.evaluate(collection.qrels, run, ["P@2", "R@2", "nDCG@2"]).mean()
        assert results["k_curve_explorer"]["values"][name] == pytest.approx(
            means.to_dict(), abs=1e-12
        )
    assert results["ab_planner"]["n_per_group"] == 2608  # statsmodels: see tests/test_widgets.py
    assert results["query_explorer"]["text"].startswith("query q03: ")
    assert results["ab_planner"]["text"].endswith("for power 0.90 at alpha 0.010, two-sided")
    assert (output_dir / "figures" / "k_curves.png").stat().st_size > 1000



def test_ndcg_at_k_rises_to_100_only_for_the_retrievers_that_fill_100():
    """Section 3 and the summary (as notebook 05, section 5): vector's and hybrid's nDCG@K rise
    up to K = 100; bm25's is flat from K = 50 and reranked's from K = 30, their lists ended."""
    collection = load("teaching")
    ks = [20, 30, 50, 70, 100]
    runs = {name: make_retriever(name, collection.corpus).run(collection.queries, k=100)
            for name in ("bm25", "vector", "hybrid", "reranked")}
    ndcg = {name: reteval.evaluate(collection.qrels, run, [f"nDCG@{k}" for k in ks]).mean().tolist()
            for name, run in runs.items()}
    for name in ("vector", "hybrid"):
        assert all(b > a for a, b in zip(ndcg[name], ndcg[name][1:], strict=False)), name
    assert ndcg["bm25"][1] < ndcg["bm25"][2] == ndcg["bm25"][3] == ndcg["bm25"][4]
    assert ndcg["reranked"][0] < ndcg["reranked"][1] == ndcg["reranked"][4]
    prose = "".join("".join(c.source) for c in nbformat.read(NOTEBOOK, as_version=4).cells
                    if c.cell_type == "markdown")
    assert "still rising at K = 100)" not in prose and "到 K = 100 仍在上升）" not in prose
    assert "from K = 50 on (reranked's from K = 30)" in prose
    assert "从 K = 50 起就不再变化（reranked 从 K = 30 起）" in prose
    # the longest of their lists holds 56 documents: they have ended by K = 56, not before
    assert max(runs[name].groupby("query_id").size().max() for name in ("bm25", "reranked")) == 56
    assert "have all ended by K = 56" in prose and "到 K = 56 时都已结束" in prose


def test_a_missed_document_lowers_ndcg_only_from_the_ideal_top_k():
    """Section 1: missed relevant documents lower recall and AP (every relevant document is in
    their denominator) but nDCG@K only when graded high enough to enter the ideal top K. On the
    default list (grades 3, 0, 2, 0, 1, 0, 0, 1 and one missed 2) at K = 5, by hand: the ideal
    top 5 is 3, 2, 2, 1, 1 with or without another missed 1, and 3, 3, 2, 2, 1 with a missed 3."""
    grades = [3, 0, 2, 0, 1, 0, 0, 1, 0, 0]

    def measures(missed):
        docs = [f"r{i}" for i in range(len(grades))]
        run = {"q": dict(zip(docs, range(len(grades), 0, -1), strict=True))}
        judged = dict(zip(docs, grades, strict=True))
        judged.update({f"m{i}": g for i, g in enumerate(missed)})
        return reteval.evaluate({"q": judged}, run, ["R@5", "AP", "nDCG@5"]).iloc[0]

    default, plus_one, plus_three = measures([2]), measures([2, 1]), measures([2, 3])
    assert plus_one["R@5"] < default["R@5"] and plus_one["AP"] < default["AP"]
    assert plus_one["nDCG@5"] == default["nDCG@5"]
    assert plus_three["nDCG@5"] < default["nDCG@5"]
    prose = "".join("".join(c.source) for c in nbformat.read(NOTEBOOK, as_version=4).cells
                    if c.cell_type == "markdown")
    assert "lower recall, AP and nDCG" not in prose and "降低召回率、AP 和 nDCG" not in prose
    assert "high enough to enter that top K" in prose and "能进入理想排序的前 K 名时" in prose


@pytest.mark.notebook
@pytest.mark.slow
def test_the_executed_notebook_fits_one_class(tmp_path):
    """The run on the defaults (the one the first test reads, made once per session): at
    most one 90-minute class in either edition."""
    output_dir, _ = run_notebook(NOTEBOOK.stem, tmp_path)
    fits_one_class(output_dir.parent / NOTEBOOK.name)
