"""Facts that recur across notebooks stay equal: a change to one notebook cannot silently
contradict another.

Notebooks 04, 05, 06 and 10 are run on their defaults (as `reteval run` does) and what they
record is compared across notebooks and with the library: the systems' names and what they are,
the same mean printed in several notebooks, the same verdict under the same family of tests
(and a different one, said so in both notebooks, under a different family), and the two kinds of
interval that 06 and 10 print for the same means. 07b is compared with 07 by its parameters: it
simulates the same experiment itself.
"""

import ast
import json

import pandas as pd
import papermill
import pytest
from notebook_run import execute, execute_in_place
from paths import ROOT

import reteval
from reteval.datasets import load
from reteval.retrievers import make_retriever

FOUR = ["bm25", "vector", "hybrid", "reranked"]
STEMS = {"04": "04_judgments", "05": "05_retriever_comparison", "06": "06_many_systems",
         "10": "10_report"}


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """Each notebook's output folder and results.json, run on its defaults (10 in a working
    folder of its own, as test_notebook_10 runs it)."""
    runs = {number: execute(stem, tmp_path_factory.mktemp(f"facts{number}"))
            for number, stem in STEMS.items() if number != "10"}
    out = execute_in_place(STEMS["10"]) / "outputs" / STEMS["10"]
    runs["10"] = out, json.loads((out / "results.json").read_text(encoding="utf-8"))
    return runs


@pytest.fixture(scope="module")
def recorded(executed):
    return {number: results for number, (_, results) in executed.items()}


@pytest.fixture(scope="module")
def teaching():
    collection = load("teaching")
    runs = {n: make_retriever(n, collection.corpus).run(collection.queries, k=100) for n in FOUR}
    return collection, runs


def prose(number, lang):
    """The Markdown of one edition of notebook ``number``."""
    cells = json.loads((ROOT / "notebooks" / f"{STEMS[number]}.ipynb").read_text("utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells
                     if c["cell_type"] == "markdown" and f"lang-{lang}" in c["metadata"]["tags"])


@pytest.mark.slow
def test_the_same_systems_have_the_same_names_and_means(recorded, teaching):
    """05, 06 and 10 compare the same four retrievers and print the same means; 04's LSA
    systems carry other names, so no name means two different systems."""
    collection, runs = teaching
    assert recorded["05"]["retrievers"] == recorded["06"]["retrievers"] == FOUR
    assert recorded["10"]["systems"] == FOUR
    for m in ("P@5", "R@10", "RR", "AP", "nDCG@10"):
        expected = {n: reteval.evaluate(collection.qrels, r, [m])[m].mean()
                    for n, r in runs.items()}
        for number in ("05", "06", "10"):
            got = {n: recorded[number]["means"][n][m] for n in FOUR}
            assert got == pytest.approx(expected, abs=1e-12), (number, m)
    names_04 = set(recorded["04"]["rankings"]["AP"]["main"])
    assert names_04 == {"bm25", "lsa", "hybrid(bm25+lsa)"}
    assert not names_04 & {"vector", "hybrid", "reranked"}
    # bm25 is the same system in 04 and 05: the same run, so the same mean on q03-q12
    part = sorted({q for q in load("teaching", split="second_assessor").qrels["query_id"]})
    qrels = collection.qrels[collection.qrels["query_id"].isin(part)]
    bm25 = runs["bm25"][runs["bm25"]["query_id"].isin(part)]
    assert recorded["04"]["rankings"]["AP"]["main"]["bm25"] == pytest.approx(
        reteval.evaluate(qrels, bm25, ["AP"])["AP"].mean(), abs=1e-12)


@pytest.mark.slow
def test_the_same_family_of_tests_gives_the_same_verdict(recorded, teaching):
    """Against the baseline (05: 3 comparisons per measure) vector beats bm25 on R@10 and
    nDCG@10; over all 6 pairs (06, and the report of 10) it does not. Each notebook's verdict
    is its family's, and both 05 and 06 say why they differ."""
    collection, runs = teaching
    measures = ["P@5", "R@10", "RR", "AP", "nDCG@10"]
    against = reteval.compare(collection.qrels, runs, measures, baseline="bm25", rng=0).table
    against = against.set_index(["measure", "system"])
    pairs = reteval.compare(collection.qrels, runs, measures, rng=0).pairwise
    pairs = pairs.set_index(["measure", "system", "other"])
    for m in measures:
        assert recorded["05"]["conclusions"]["significant"][m] == [
            s for s in FOUR[1:] if bool(against.loc[(m, s), "significant"])]
    six = pd.DataFrame(recorded["06"]["pairs"]).set_index(["measure", "system", "other"])
    for key, row in six.iterrows():
        assert row["p_pairwise_holm"] == pytest.approx(pairs.loc[key, "pvalue_corrected"],
                                                       abs=1e-9)  # JSON keeps 10 digits
    for m in ("R@10", "nDCG@10"):
        assert "vector" in recorded["05"]["conclusions"]["significant"][m]
        assert six.loc[(m, "bm25", "vector"), "p_pairwise_holm"] > 0.05
        # ... while Tukey's HSD over the same 6 pairs still finds it (05 says so)
        assert six.loc[(m, "bm25", "vector"), "p_tukey"] <= 0.05
        assert six.loc[(m, "bm25", "vector"), "p_tukey_studentized"] <= 0.05
    assert "vector" in recorded["05"]["conclusions"]["significant"]["AP"]
    assert six.loc[("AP", "bm25", "vector"), "p_pairwise_holm"] <= 0.05
    # 10's report tests every pair with Holm too: its best-vs-runner-up p is 06's p of that pair
    best = {row["measure"]: row for row in recorded["10"]["best"]}
    for m in measures:
        top, runner = best[m]["system"], best[m]["runner_up"]
        key = (m, top, runner) if (m, top, runner) in six.index else (m, runner, top)
        assert float(best[m]["pvalue_corrected"]) == pytest.approx(
            six.loc[key, "p_pairwise_holm"], abs=1e-9)
    assert "over the 3 comparisons with the baseline bm25" in prose("05", "en")
    assert "over all 6 pairs" in prose("05", "en") and "over all 6 pairs" in prose("06", "en")
    assert "与基线 bm25 的 3 次比较" in prose("05", "zh") and "全部 6 对" in prose("06", "zh")
    assert "Tukey's HSD, which covers the 6 pairs too, still finds them" in prose("05", "en")
    assert "同样覆盖 6 对的 Tukey HSD 仍认为它们显著" in prose("05", "zh")
    # At equal depth (05, section 7) nothing is significant, so no notebook may build on it.
    assert all(not systems for m, systems in
               recorded["05"]["conclusions"]["significant_equal_depth"].items() if m != "AP")


@pytest.mark.slow
def test_06s_margin_of_error_is_narrower_than_10s_bootstrap_intervals(recorded, executed):
    """06's margin of error by V_E on AP (0.043) and 10's bootstrap intervals of the same AP
    means (half-widths 0.06 to 0.07) are different intervals, as both notebooks say."""
    moe = recorded["06"]["anova"]["AP"]["margin_of_error"]
    assert moe == pytest.approx(0.043, abs=5e-4)
    table = pd.read_csv(executed["10"][0] / "comparison.csv")
    table = table[table["measure"] == "AP"].set_index("system")
    halves = {name: (table.loc[name, "ci_high"] - table.loc[name, "ci_low"]) / 2 for name in FOUR}
    assert all(0.06 <= h <= 0.07 + 5e-4 for h in halves.values()), halves
    assert all(moe < h for h in halves.values())
    for number, words in (("06", "±0.043"), ("10", "±0.043")):
        assert words in prose(number, "en") and words in prose(number, "zh")


def test_07b_watches_the_experiment_of_07():
    """07b simulates 07's experiment itself (same design, data, users, days and seed: the same
    log) and watches 07's first primary metric, whose fixed-horizon p-value it quotes."""
    def defaults(stem):
        declared = papermill.inspect_notebook(str(ROOT / "notebooks" / f"{stem}.ipynb"))
        return {name: ast.literal_eval(spec["default"]) for name, spec in declared.items()}

    seven, watched = defaults("07_ab_test"), defaults("07b_sequential_testing")
    shared = ("log_path", "experiment", "variants", "weights", "feedback_values", "alpha",
              "dataset", "rankers", "click_model", "depth", "n_users", "queries_per_user", "days",
              "seed")
    assert {name: watched[name] for name in shared} == {name: seven[name] for name in shared}
    assert watched["metric"] == seven["metrics"][0]
