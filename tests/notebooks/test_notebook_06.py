"""Notebook 06 (many systems at once): its recorded results against the library, and its lesson.

The notebook is run through papermill on its defaults (the four retrievers of notebook 05 on the
teaching collection) and on another parameter set. The ANOVA is checked against statsmodels, the
studentized Tukey p-values, the risk and the planning against scipy and statsmodels, the rest
against reteval called directly; the conclusions its prose draws are computed here,
independently of the notebook.
"""

import math

import nbformat
import numpy as np
import pandas as pd
import pytest
from notebook_run import execute as run_notebook
from notebook_run import pipeline_parameters, replay, run_solutions
from paths import ROOT
from scipy.stats import studentized_range

import reteval
from reteval.datasets import load
from reteval.retrievers import make_retriever
from reteval.stats import (
    anova,
    discriminative_power,
    pilot_variance,
    queries_needed,
    queries_needed_anova,
    trisk,
    tukey_hsd,
)
from reteval.teaching.exercises import check

NOTEBOOK = ROOT / "notebooks" / "06_many_systems.ipynb"
SOLUTIONS = ROOT / "notebooks" / "solutions" / "06_solutions.ipynb"
RETRIEVERS = ["bm25", "vector", "hybrid", "reranked"]
MEASURES = ["P@5", "R@10", "RR", "AP", "nDCG@10"]


def test_the_pipeline_runs_the_runs_of_notebook_05():
    # 06 recomputes 05's runs itself: the same retrievers, depth and measures.
    mine = pipeline_parameters(NOTEBOOK.stem)
    theirs = pipeline_parameters("05_retriever_comparison")
    for name in ("retrievers", "measures", "depth", "baseline", "test", "seed"):
        assert mine[name] == theirs[name], name


@pytest.fixture(scope="module")
def default_run(tmp_path_factory):
    return run_notebook(NOTEBOOK.stem, tmp_path_factory.mktemp("nb06"))


def per_query_scores(collection, runs, measures):
    """Per-query scores, queries x retrievers, per measure."""
    return {m: pd.DataFrame({n: reteval.evaluate(collection.qrels, r, [m])[m]
                             for n, r in runs.items()})
            for m in measures}


@pytest.fixture(scope="module")
def teaching_scores():
    """The library's own runs of the four retrievers on the teaching collection, depth 100."""
    collection = load("teaching")
    runs = {name: make_retriever(name, collection.corpus).run(collection.queries, k=100)
            for name in RETRIEVERS}
    return collection, runs, per_query_scores(collection, runs, MEASURES)


def assert_records_what_the_library_computes(results, collection, runs, scores, *, test, seed,
                                             alpha, baseline, measure):
    """Every recorded value of the notebook against statsmodels, scipy or the library."""
    from scipy import stats
    from statsmodels.formula.api import ols
    from statsmodels.stats.anova import anova_lm
    from statsmodels.stats.power import FTestAnovaPower, TTestPower

    names = list(runs)
    n_topics, n_systems = len(collection.queries), len(names)
    for name in names:
        expected = {m: scores[m][name].mean() for m in scores}
        assert results["means"][name] == pytest.approx(expected, abs=1e-12)
    for m, frame in scores.items():
        long = frame.rename_axis("topic").reset_index().melt(
            id_vars="topic", var_name="system", value_name="score")
        ref = anova_lm(ols("score ~ C(system) + C(topic)", long).fit())
        rec = results["anova"][m]
        assert rec["statistic"] == pytest.approx(ref.loc["C(system)", "F"], rel=1e-9)
        assert rec["pvalue"] == pytest.approx(ref.loc["C(system)", "PR(>F)"], rel=1e-6)
        assert rec["residual_variance"] == pytest.approx(ref.loc["Residual", "mean_sq"], rel=1e-9)
        assert rec["df_residual"] == ref.loc["Residual", "df"] == (n_topics - 1) * (n_systems - 1)
    all_pairs = reteval.compare(collection.qrels, runs, list(scores), test=test, correction="holm",
                                rng=seed).pairwise.set_index(["measure", "system", "other"])
    hsd = {m: tukey_hsd(frame, rng=seed) for m, frame in scores.items()}
    # "pairs", "risk" and "repeated_x4" are recorded by DataFrame.to_json: 10 decimals.
    assert len(results["pairs"]) == len(scores) * n_systems * (n_systems - 1) // 2
    for row in results["pairs"]:
        m, s, o = row["measure"], row["system"], row["other"]
        v_e = results["anova"][m]["residual_variance"]
        diff = scores[m][s].mean() - scores[m][o].mean()
        assert row["difference"] == pytest.approx(diff, abs=1e-10)
        assert row["effect_size"] == pytest.approx(diff / np.sqrt(v_e), rel=1e-9, abs=1e-10)
        q = abs(diff) / np.sqrt(v_e / n_topics)
        df = (n_topics - 1) * (n_systems - 1)
        assert row["p_tukey_studentized"] == pytest.approx(
            stats.studentized_range.sf(q, n_systems, df) if q > 0 else 1.0, rel=1e-6, abs=1e-10)
        assert row["p_tukey"] == pytest.approx(hsd[m].pvalue.loc[s, o], abs=1e-10)
        holm = all_pairs.loc[(m, s, o), "pvalue_corrected"]
        assert (row["p_pairwise_holm"] is None) == bool(np.isnan(holm))
        if row["p_pairwise_holm"] is not None:
            assert row["p_pairwise_holm"] == pytest.approx(holm, rel=1e-9, abs=1e-10)
    focus = scores[measure]
    repeated = pd.concat([focus.set_axis([f"{q}#{k}" for q in focus.index]) for k in range(4)])
    x4 = tukey_hsd(repeated, rng=seed)
    for row in results["repeated_x4"]:
        s, o = row["system"], row["other"]
        assert row["effect_size"] == pytest.approx(hsd[measure].effect_size.loc[s, o], abs=1e-10)
        assert row["effect_size_x4"] == pytest.approx(x4.effect_size.loc[s, o], abs=1e-10)
        assert row["pvalue_x4"] == pytest.approx(x4.pvalue.loc[s, o], abs=1e-10)
    for m, frame in scores.items():
        assert results["discriminative_power"][m] == {
            "pairwise": discriminative_power(frame, test=test, alpha=alpha, rng=seed).n_significant,
            "tukey": discriminative_power(frame, test="tukey", alpha=alpha, rng=seed).n_significant}
    plan = results["planning"]
    versus = next(n for n in names if n != baseline)
    assert plan["versus"] == versus
    assert plan["variance"] == pytest.approx(results["anova"][measure]["residual_variance"],
                                             rel=1e-12)
    sd = (focus[versus] - focus[baseline]).std(ddof=1)
    assert plan["sd_difference"] == pytest.approx(sd, rel=1e-12)
    for d, n_anova, n_t in zip(plan["min_differences"], plan["queries_anova"],
                               plan["queries_paired_t"], strict=True):
        # Sakai's topic-set size: Cohen's f = minD / sqrt(2 m V_E), n = total / m.
        f = d / np.sqrt(2 * n_systems * plan["variance"])
        nobs = FTestAnovaPower().solve_power(f, None, alpha, 0.8, k_groups=n_systems)
        assert n_anova == math.ceil(nobs / n_systems - 1e-9)
        assert n_t == math.ceil(TTestPower().solve_power(d / sd, None, alpha, 0.8) - 1e-9)
    for row in results["risk"]:
        d = (focus[row["system"]] - focus[baseline]).to_numpy()
        weighted = np.where(d < 0, (1 + row["alpha"]) * d, d)
        ref = stats.ttest_1samp(weighted, 0.0)
        assert row["URisk"] == pytest.approx(weighted.mean(), abs=1e-10)
        assert row["TRisk"] == pytest.approx(ref.statistic, rel=1e-9, abs=1e-10)
        assert row["p"] == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-10)
        assert (row["wins"], row["losses"]) == (int((d > 0).sum()), int((d < 0).sum()))
    hurt = (focus[versus] - focus[baseline]).sort_values().head(5)
    assert results["most_hurt"] == pytest.approx(hurt.to_dict(), abs=1e-12)


# --------------------------------------------------------------------------- the default run


@pytest.mark.notebook
@pytest.mark.slow
def test_the_default_run_replays_to_the_same_outputs(default_run, tmp_path):
    """Run again (nbval), the permutation and bootstrap tests print what the book recorded."""
    executed = default_run[0].parent / f"{NOTEBOOK.stem}.ipynb"
    code = [c for c in nbformat.read(executed, as_version=4).cells if c.cell_type == "code"]
    assert replay(executed, tmp_path) == len(code)


@pytest.mark.notebook
@pytest.mark.slow
def test_default_run_records_what_the_library_computes(default_run, teaching_scores):
    output_dir, results = default_run
    collection, runs, scores = teaching_scores
    assert results["retrievers"] == RETRIEVERS and results["measures"] == MEASURES
    assert (results["depth"], results["seed"], results["measure"]) == (100, 0, "AP")
    assert_records_what_the_library_computes(results, collection, runs, scores, test="t", seed=0,
                                             alpha=0.05, baseline="bm25", measure="AP")
    assert (output_dir / "pairs.csv").stat().st_size > 1_000


@pytest.mark.notebook
@pytest.mark.slow
def test_default_run_draws_the_right_conclusions(default_run, teaching_scores):
    """What the prose of every section says, computed here."""
    _, results = default_run
    _, _, s = teaching_scores
    # 1. Means: vector highest on AP (0.577), bm25 lowest (0.439); RR from 0.890 to 0.923.
    ap_means, rr_means = s["AP"].mean(), s["RR"].mean()
    assert ap_means.idxmax() == "vector" and ap_means.idxmin() == "bm25"
    assert (ap_means["vector"], ap_means["bm25"]) == pytest.approx((0.577, 0.439), abs=5e-4)
    assert ap_means["vector"] - ap_means["bm25"] == pytest.approx(0.138, abs=5e-4)
    assert (rr_means.min(), rr_means.max()) == pytest.approx((0.890, 0.923), abs=5e-4)

    # 2. ANOVA: R@10 (F ~ 4.68), AP (F ~ 11.2) and nDCG@10 (F ~ 5.20) are significant.
    assert results["conclusions"]["anova_significant"] == ["R@10", "AP", "nDCG@10"]
    ap = anova(s["AP"])
    assert ap.statistic == pytest.approx(11.2, abs=0.05) and ap.pvalue < 1e-4
    assert anova(s["R@10"]).statistic == pytest.approx(4.68, abs=0.005)
    assert anova(s["R@10"]).pvalue == pytest.approx(0.004, abs=5e-4)
    nd = anova(s["nDCG@10"])
    assert nd.statistic == pytest.approx(5.20, abs=0.005)
    assert nd.pvalue == pytest.approx(0.002, abs=5e-4)
    assert anova(s["P@5"]).pvalue == pytest.approx(0.11, abs=0.005)
    assert anova(s["RR"]).pvalue == pytest.approx(0.88, abs=0.005)

    # 2. The per-query lines: query means of AP from 0.20 to 0.81, retrievers' from 0.44 to 0.58.
    query_means = s["AP"].mean(axis=1)
    assert (query_means.min(), query_means.max()) == pytest.approx((0.20, 0.81), abs=0.005)
    assert (ap_means.min(), ap_means.max()) == pytest.approx((0.44, 0.58), abs=0.005)

    # 3. Tukey's simultaneous intervals on AP: half-width ~ 0.090 (randomised, the notebook's
    # seed 0); four pairs exclude 0, by the studentized range too (scipy, V_E by hand).
    randomised = tukey_hsd(s["AP"], rng=0)
    assert randomised.critical_difference() == pytest.approx(0.090, abs=5e-4)
    x = s["AP"].to_numpy()
    resid = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0, keepdims=True) + x.mean()
    n, m = x.shape
    v_e = (resid ** 2).sum() / ((n - 1) * (m - 1))
    half = studentized_range.ppf(0.95, m, (n - 1) * (m - 1)) * math.sqrt(v_e / n)
    names = list(s["AP"].columns)
    for width in (half, randomised.critical_difference()):
        apart = {(a, b) for i, a in enumerate(names) for b in names[i + 1:]
                 if abs(ap_means[a] - ap_means[b]) > width}
        assert apart == {("bm25", "vector"), ("bm25", "hybrid"), ("vector", "reranked"),
                         ("hybrid", "reranked")}

    # 3. The procedures disagree once in each direction on R@10 (and Tukey-only on nDCG@10).
    assert results["conclusions"]["pairwise_only"] == [["R@10", "bm25", "hybrid"]]
    assert results["conclusions"]["tukey_only"] == [["R@10", "bm25", "vector"],
                                                    ["R@10", "vector", "reranked"],
                                                    ["nDCG@10", "bm25", "vector"]]
    rows = {(r["measure"], r["system"], r["other"]): r for r in results["pairs"]}
    bh = rows["R@10", "bm25", "hybrid"]
    assert bh["p_pairwise_holm"] == pytest.approx(0.024, abs=5e-4)
    assert bh["p_tukey"] == pytest.approx(0.10, abs=0.005)
    assert bh["p_tukey_studentized"] == pytest.approx(0.085, abs=5e-4)
    bv = rows["R@10", "bm25", "vector"]
    assert bv["p_pairwise_holm"] == pytest.approx(0.084, abs=5e-4)
    assert bv["p_tukey"] == pytest.approx(0.016, abs=0.002)
    # The yardsticks: each pair's own sd of differences against sqrt(2 V_E).
    r10 = s["R@10"]
    pooled = np.sqrt(2 * anova(r10).residual_variance)
    assert pooled == pytest.approx(0.206, abs=5e-4)
    assert (r10["bm25"] - r10["hybrid"]).std(ddof=1) == pytest.approx(0.160, abs=5e-4)
    assert (r10["bm25"] - r10["vector"]).std(ddof=1) == pytest.approx(0.263, abs=5e-4)

    # 4. Effect size against p-value: vector - hybrid keeps ES ~0.13, p from ~0.96 to ~0.76.
    x4 = {(r["system"], r["other"]): r for r in results["repeated_x4"]}
    vh = x4["vector", "hybrid"]
    assert vh["effect_size"] == pytest.approx(0.13, abs=0.005)
    assert vh["effect_size_x4"] == pytest.approx(0.13, abs=0.005)
    assert vh["pvalue"] == pytest.approx(0.96, abs=0.01)
    assert vh["pvalue_x4"] == pytest.approx(0.76, abs=0.01)
    assert x4["bm25", "reranked"]["effect_size"] == pytest.approx(-0.04, abs=0.006)
    assert x4["bm25", "reranked"]["pvalue_x4"] > 0.9
    assert abs(x4["bm25", "vector"]["effect_size"]) == pytest.approx(1.05, abs=0.005)
    assert x4["bm25", "vector"]["pvalue"] < 0.05
    # Discriminative power (t uncorrected, Tukey): P@5 1/0, R@10 4/2, RR 0/0, AP 4/4, nDCG@10 3/2.
    expected = {"P@5": (1, 0), "R@10": (4, 2), "RR": (0, 0), "AP": (4, 4), "nDCG@10": (3, 2)}
    for m, (t_count, tukey_count) in expected.items():
        assert discriminative_power(s[m], test="t").n_significant == t_count
        assert discriminative_power(s[m], test="tukey", rng=0).n_significant == tukey_count
        assert results["discriminative_power"][m] == {"pairwise": t_count, "tukey": tukey_count}

    # 5. Planning: V_E ~ 0.0172, sd ~ 0.252; 0.01 / 0.02 / 0.05 need 3761 / 941 / 152 and
    #    5002 / 1252 / 202 queries.
    v_e = pilot_variance(s["AP"])
    sd = (s["AP"]["vector"] - s["AP"]["bm25"]).std(ddof=1)
    assert v_e == pytest.approx(0.0172, abs=5e-5) and sd == pytest.approx(0.252, abs=5e-4)
    assert [queries_needed_anova(d, v_e, 4) for d in (0.01, 0.02, 0.05)] == [3761, 941, 152]
    assert [queries_needed(d, sd) for d in (0.01, 0.02, 0.05)] == [5002, 1252, 202]
    assert results["planning"]["min_differences"] == [0.01, 0.02, 0.05]
    assert results["planning"]["queries_anova"] == [3761, 941, 152]
    assert results["planning"]["queries_paired_t"] == [5002, 1252, 202]

    # 6. Risk: vector wins 28 and loses 8; TRisk 3.28 / 1.61 / 0.65 for alpha 0 / 1 / 2.
    ap = s["AP"]
    r = [trisk(ap["vector"], ap["bm25"], alpha=a) for a in (0, 1, 2)]
    assert (r[0].wins, r[0].losses) == (28, 8)
    assert r[0].urisk == pytest.approx(0.138, abs=5e-4)
    assert [round(x.trisk, 2) for x in r] == [3.28, 1.61, 0.65]
    assert r[1].pvalue == pytest.approx(0.12, abs=0.005) and r[1].trisk < 2
    assert trisk(ap["hybrid"], ap["bm25"], alpha=1).trisk == pytest.approx(2.89, abs=0.005)
    assert trisk(ap["reranked"], ap["bm25"], alpha=1).trisk == pytest.approx(-1.04, abs=0.005)
    losses = (ap["vector"] - ap["bm25"]).sort_values()
    assert list(losses.index[:2]) == ["q26", "q29"] == list(results["most_hurt"])[:2]
    assert results["most_hurt"]["q26"] == pytest.approx(-0.55, abs=0.005)
    assert results["most_hurt"]["q29"] == pytest.approx(-0.45, abs=0.005)
    # Exercise 06.3's solution: on nDCG@10 TRisk ~ 1.10 (p ~ 0.28), 25 wins and 10 losses.
    nd = s["nDCG@10"]
    t_nd = trisk(nd["vector"], nd["bm25"], alpha=1)
    assert t_nd.trisk == pytest.approx(1.10, abs=0.005)
    assert t_nd.pvalue == pytest.approx(0.28, abs=0.005)
    assert (t_nd.wins, t_nd.losses) == (25, 10)
    assert tukey_hsd(s["AP"], method="studentized").n_systems == 4


# --------------------------------------------------------------------------- other parameters


@pytest.mark.notebook
@pytest.mark.slow
def test_other_parameters(tmp_path):
    params = {
        "retrievers": ["bm25", "vector", "hybrid"],
        "measures": ["RR", "nDCG@5", "AP"],
        "measure": "nDCG@5",
        "depth": 50,
        "baseline": "hybrid",
        "test": "wilcoxon",
        "alpha": 0.1,
        "seed": 3,
        "lang": "en",
    }
    _, results = run_notebook(NOTEBOOK.stem, tmp_path, **params)
    collection = load("teaching")
    runs = {n: make_retriever(n, collection.corpus).run(collection.queries, k=50)
            for n in params["retrievers"]}
    scores = per_query_scores(collection, runs, params["measures"])
    assert results["retrievers"] == params["retrievers"] and results["measure"] == "nDCG@5"
    assert list(results["anova"]) == params["measures"]
    assert_records_what_the_library_computes(results, collection, runs, scores, test="wilcoxon",
                                             seed=3, alpha=0.1, baseline="hybrid",
                                             measure="nDCG@5")
    assert {r["system"] for r in results["risk"]} == {"bm25", "vector"}


# --------------------------------------------------------------------------- exercises


@pytest.mark.parametrize(
    "exercise, wrong",
    [
        ("06.1", [152, 941, 419.5, "nine"]),
        ("06.2", ["A", "C", "D"]),
        ("06.3", [1.61, 0.0, 3.28]),
        ("06.4", [1.05, lambda s, a, b: (s[a] - s[b]).mean() / (s[a] - s[b]).std(ddof=1)]),
    ],
)
def test_checks_reject_plausible_wrong_answers(exercise, wrong):
    for answer in wrong:
        verdict = check(exercise, answer, lang="en")
        assert not verdict, (exercise, answer)
        assert verdict.message.startswith("Not yet.") and "Hint " in verdict.message
    none = check(exercise, None, lang="en")
    assert not none and not none.answered and "Hint" not in none.message


def test_checks_accept_the_right_answers_in_either_form():
    assert check("06.1", 419) and check("06.1", 419.0)
    assert check("06.2", "b")
    assert check("06.3", 1.10)


@pytest.mark.slow
def test_solutions_pass_their_checks():
    run_solutions("06", "zh")  # each solution cell asserts check() accepts it


# --------------------------------------------------------------------------- bilingual source


@pytest.mark.parametrize("path", [NOTEBOOK, SOLUTIONS])
def test_every_prose_cell_has_its_translation_and_ends_with_exercises(path):
    nb = nbformat.read(path, as_version=4)
    cells = nb.cells
    prose = [c for c in cells if c.cell_type == "markdown"]
    tags = [c.metadata.get("tags", []) for c in prose]
    assert all(("lang-zh" in t) != ("lang-en" in t) for t in tags)
    for i, cell in enumerate(cells):
        if cell.cell_type == "markdown" and "lang-zh" in cell.metadata.get("tags", []):
            assert "lang-en" in cells[i + 1].metadata.get("tags", [])
    params = next(c for c in cells if "parameters" in c.metadata.get("tags", []))
    assert 'lang = "zh"' in params.source
    if path == NOTEBOOK:
        titles = [c.source.splitlines()[0] for c in prose]
        assert "## 小结" in titles and "## Summary" in titles
        assert titles[0].startswith("# 6.") and titles[1].startswith("# 6.")
        checks = [c for c in cells if c.cell_type == "code" and 'check("06.' in c.source]
        assert len(checks) == 4 and all(", lang=lang)" in c.source for c in checks)
        assert "notebook_texts(\"06\", lang)" in cells[3].source
        assert "notebook 05" in prose[1].source and "笔记本 05" in prose[0].source
        recording = [c for c in cells if "results.json" in c.source]
        assert [c.metadata.get("tags") for c in recording] == [["record"]]


@pytest.mark.notebook
@pytest.mark.slow
def test_the_executed_notebook_fits_one_class(default_run):
    """Prose, code, printed lines, table rows, figures and exercises of the run on the
    defaults: at most one 90-minute class in either edition."""
    from notebook_run import fits_one_class

    output_dir, _ = default_run
    fits_one_class(output_dir.parent / "06_many_systems.ipynb")


@pytest.mark.notebook
@pytest.mark.slow
def test_the_executed_notebook_shows_and_saves_its_figures(default_run):
    """The figures the prose describes (per-query lines, Tukey's intervals) are drawn in the
    executed notebook and saved under the output folder's figures/."""
    output_dir, _ = default_run
    executed = nbformat.read(output_dir.parent / "06_many_systems.ipynb", as_version=4)
    plotting = [c for c in executed.cells if c.cell_type == "code"
                and ("plot_query_lines(" in c.source or "plot_tukey_intervals(" in c.source)
                and "import" not in c.source]
    assert len(plotting) == 2
    for cell in plotting:
        assert any("image/png" in o.get("data", {}) for o in cell.outputs), cell.source
    for name in ("query_lines.png", "tukey_intervals.png"):
        assert (output_dir / "figures" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
