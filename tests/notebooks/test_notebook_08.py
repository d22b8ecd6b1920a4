"""Notebook 08 (interleaving) through papermill, against the library called directly."""

import numpy as np
import pandas as pd
import pytest
from notebook_run import ROOT, default_run_fits_one_class, pipeline_parameters, run_solutions
from notebook_run import execute as run_notebook

from reteval import ab
from reteval.datasets import load
from reteval.retrievers import make_retriever

NOTEBOOK = ROOT / "notebooks" / "08_interleaving.ipynb"


def test_the_pipeline_keeps_the_lesson_on_the_synthetic_collection():
    # `common` must not turn the lesson (a known effect, interleaving's advantage) off
    assert pipeline_parameters(NOTEBOOK.stem)["dataset"] == "synthetic"


def execute(tmp_path, **parameters):
    return run_notebook(NOTEBOOK.stem, tmp_path, **parameters)


def top(run, query, depth):
    """A ranker's top ``depth`` doc ids for ``query``: score descending, then doc id descending."""
    rows = run[run["query_id"] == query]
    order = sorted(zip(rows["score"], rows["doc_id"], strict=True), reverse=True)
    return [doc for _, doc in order[:depth]]


@pytest.mark.notebook
@pytest.mark.slow
def test_notebook_on_a_dataset_with_two_retrievers_matches_the_library(tmp_path):
    params = {"dataset": "teaching", "rankers": ["bm25", "lsa"], "click_model": "pbm", "depth": 8,
              "alpha": 0.1, "impressions": [200, 2000], "n_experiments": 20,
              "queries_per_user": 2.0, "user_sd": 0.5, "seed": 7}
    output_dir, results = execute(tmp_path, **params)  # the default edition: zh
    collection = load("teaching")
    qrels = collection.qrels
    run_a, run_b = (make_retriever(name, collection.corpus).run(collection.queries, k=8)
                    for name in ("bm25", "lsa"))
    assert results["rankers"] == ["bm25", "lsa"]

    # section 1: the interleaved list of the first query and the credit of its relevant clicks
    example = results["example"]
    query = min(set(run_a["query_id"]) & set(run_b["query_id"]))
    shown = ab.team_draft(top(run_a, query, 8), top(run_b, query, 8), rng=7, length=8)
    assert example["query"] == query
    assert (example["docs"], example["teams"]) == (list(shown.docs), list(shown.teams))
    grades = dict(zip(qrels["doc_id"][qrels["query_id"] == query],
                      qrels["relevance"][qrels["query_id"] == query], strict=True))
    clicked = [doc for doc in shown.docs if grades.get(doc, 0) > 0]
    team = dict(zip(shown.docs, shown.teams, strict=True))
    credit_a = sum(team[doc] == "A" for doc in clicked)
    assert example["clicked"] == clicked
    assert example["credit"] == [credit_a, len(clicked) - credit_a]

    # sections 2 and 3: the simulations, as the library runs them
    common = {"impressions": [200, 2000], "n_experiments": 20, "click_model": "pbm", "depth": 8,
              "alpha": 0.1, "queries_per_user": 2.0, "rng": 7, "lang": "zh"}
    for key, user_sd in (("interleaving", 0.5), ("users_alike", 0.0)):
        comparison = ab.compare_methods(qrels, run_a, run_b, user_sd=user_sd, **common)
        got = results[key]
        assert got["table"] == {str(n): row
                                for n, row in comparison.table.to_dict(orient="index").items()}
        assert got["needed"] == comparison.needed
        assert got["expected"] == pytest.approx(comparison.expected, rel=1e-12)
        assert got["verdict"] == comparison.verdict
    assert results["interleaving"]["click_model"] == "pbm"
    assert results["interleaving"]["user_sd"] == 0.5

    # section 3: how much the two rankers' top lists overlap
    queries = sorted(set(run_a["query_id"]) & set(run_b["query_id"]))
    tops = [(top(run_a, q, 8), top(run_b, q, 8)) for q in queries]
    overlap = np.mean([len(set(a) & set(b)) / max(len(a), len(b)) for a, b in tops])
    assert results["overlap"]["mean_share"] == pytest.approx(overlap)
    assert results["overlap"]["queries_differing"] == pytest.approx(np.mean([a != b
                                                                             for a, b in tops]))
    assert (output_dir / "figures" / "ab_vs_interleaving.png").stat().st_size > 1000
    assert pd.read_csv(output_dir / "ab_vs_interleaving.csv").shape[0] == 2


@pytest.mark.notebook
@pytest.mark.slow
def test_default_run_records_the_library_values_and_the_conclusions_its_prose_draws(tmp_path):
    parameters = pipeline_parameters(NOTEBOOK.stem)
    _, results = execute(tmp_path, lang="en", **parameters)
    seed = parameters["seed"]
    qrels, run_a, run_b = ab.synthetic_collection(rng=seed)
    impressions = [100, 150, 200, 300, 500, 700, 1000, 1500, 2000, 3000, 5000, 7000, 10000,
                   15000, 20000, 30000]
    comparison = ab.compare_methods(qrels, run_a, run_b, impressions=impressions,
                                    n_experiments=parameters["n_experiments"],
                                    click_model="cascade", depth=10, alpha=0.05,
                                    queries_per_user=3.0, user_sd=0.8, rng=seed)
    il = results["interleaving"]
    assert il["needed"] == comparison.needed and il["verdict"] == comparison.verdict

    # section 3: "even though one ranker is clearly better": B, offline too
    assert il["offline_ndcg10"]["synthetic B"] > il["offline_ndcg10"]["synthetic A"] + 0.05

    # section 2: interleaving needs fewer impressions than the A/B test, users as units
    needed = il["needed"]
    assert needed["interleaving"] is not None and needed["ab"] is not None
    assert needed["interleaving"] < needed["ab"]
    assert il["queries_per_user"] == 3.0 and il["user_sd"] == 0.8
    table = pd.DataFrame(il["table"]).T
    assert len(table) >= 12  # a finer grid than compare_methods' seven default sizes
    # interpolation: the needed sizes lie between the last grid size below 80% and the first above
    for method, column in (("ab", "ab_power"), ("interleaving", "interleaving_power")):
        power = table[column].astype(float)
        sizes = power.index.astype(int)
        first = int(np.argmax(power.to_numpy() >= 0.8))
        assert sizes[max(first - 1, 0)] <= needed[method] <= sizes[first]

    # section 2, over seeds: the recorded seeds are seed .. seed + 4, the first is the comparison
    # above; on every seed interleaving needs fewer impressions and the ratio stays between 1
    # and 10 (one seed's ratio is one draw), and the ratios differ (the seeds were used)
    seeds = results["seeds"]
    assert list(seeds) == [str(seed + i) for i in range(parameters.get("n_seeds", 5))]
    assert seeds[str(seed)]["needed"] == needed
    ratios = [v["sensitivity_ratio"] for v in seeds.values()]
    assert all(1 < r < 10 for r in ratios) and max(ratios) - min(ratios) > 0.5
    assert all(v["needed"]["interleaving"] < v["needed"]["ab"] for v in seeds.values())
    assert results["seeds_fewer"] == len(seeds)  # the verdict line: fewer on every seed
    lowest_ab = min(v["needed"]["ab"] for v in seeds.values())

    # section 2, a metric that sees the ranking: the reciprocal rank of the first click; the
    # A/B test on it needs fewer impressions than on any-click click-through (near its ceiling).
    # The simulation on it is the library's (the test on the teaching collection above checks
    # the notebook's simulations against the library); its exact expectations are checked here.
    rr = results["ab_metric_rr"]
    assert rr["rr"] == [comparison.expected["rr_a"], comparison.expected["rr_b"]]
    assert rr["ctr"] == [comparison.expected["ctr_a"], comparison.expected["ctr_b"]]
    assert min(rr["ctr"]) > 0.85 and rr["rr"][1] - rr["rr"][0] > rr["ctr"][1] - rr["ctr"][0]
    assert rr["needed"]["interleaving"] < rr["needed"]["ab"] < needed["ab"]
    # one seed's illustration, set against the range over seeds: below all of it
    assert rr["below_ctr_range"] and rr["needed"]["ab"] < lowest_ab

    # section 3: the ratio is modest next to the literature's 10 to 100 times; with users alike
    # the A/B test needs far fewer impressions and the gap narrows
    assert il["sensitivity_ratio"] == pytest.approx(needed["ab"] / needed["interleaving"])
    assert 1 < il["sensitivity_ratio"] < 10
    alike = results["users_alike"]
    assert alike["needed"]["ab"] < needed["ab"] / 2
    assert alike["sensitivity_ratio"] < il["sensitivity_ratio"]
    assert alike["below_range"] and alike["needed"]["ab"] < lowest_ab
    assert alike["sensitivity_ratio"] < min(v["sensitivity_ratio"] for v in seeds.values())
    # the weaker ranker still wins a large share of impressions; the cascade has no ties
    expected = il["expected"]
    assert min(expected["p_win"], expected["p_loss"]) > 0.3 and expected["p_tie"] == 0
    assert results["overlap"]["mean_share"] < 0.6 and results["overlap"]["queries_differing"] == 1


@pytest.mark.slow
def test_the_solutions_notebook_passes_its_own_checks():
    run_solutions("08", "zh")  # each solution cell asserts check() accepts it


@pytest.mark.notebook
@pytest.mark.slow
def test_the_executed_notebook_fits_one_class(tmp_path):
    """Notebook 08 on the pipeline's defaults, in English (the run a test above
    reads): at most one 90-minute class in either edition."""
    default_run_fits_one_class(NOTEBOOK.stem, tmp_path, lang="en")
