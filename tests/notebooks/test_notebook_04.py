"""Notebook 04 (building and trusting the evaluation set) through papermill.

Each run's recorded values (results.json) are checked against reteval.judging
called directly on the same inputs, and the conclusions the notebook's prose
draws are checked to hold for them. The pooling section runs on Cranfield
(complete judgments) when ../shared is there; otherwise the notebook falls back
to the teaching collection and says so.
"""

import json

import pandas as pd
import pytest
from notebook_run import execute, run_solutions
from paths import DATA, ROOT

import reteval
from reteval.datasets import load
from reteval.judging import (
    TermOverlapJudge,
    cohen_kappa,
    compare_judgments,
    judge,
    kendall_tau,
    krippendorff_alpha,
    leave_one_out,
    pool,
    ratings_table,
    tau_ap,
)
from reteval.retrievers import HybridRetriever, make_retriever

STEM = "04_judgments"
NOTEBOOK = ROOT / "notebooks" / f"{STEM}.ipynb"
CRANFIELD = DATA / "cranfield"


@pytest.fixture(scope="module")
def fallback_run(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("nb04-fallback")
    return execute(STEM, tmp_path, lang="en", pool_dataset=str(tmp_path / "no-such-collection"))


def teaching_runs(teaching):
    """The notebook's three systems: bm25, lsa, and hybrid(bm25+lsa) = RRF of the two."""
    bm25, lsa = make_retriever("bm25", teaching.corpus), make_retriever("lsa", teaching.corpus)
    systems = {"bm25": bm25, "lsa": lsa,
               "hybrid(bm25+lsa)": HybridRetriever(retrievers=[bm25, lsa])}
    return {n: system.run(teaching.queries, k=100) for n, system in systems.items()}


def check_assessors(results):
    """Section 1: the two assessors' agreement, against the library and by count."""
    teaching = load("teaching")
    second = load("teaching", split="second_assessor").qrels
    main = teaching.qrels[teaching.qrels["query_id"].isin(set(second["query_id"]))]
    got = results["agreement"]
    # DATASHEET.md: 142 pairs for q03-q12, 16 disagreements, all one grade apart
    assert (got["items"], got["disagreements"]) == (142, 16)
    assert got["percent_agreement"] == pytest.approx(126 / 142)
    assert got["kappa"] == pytest.approx(cohen_kappa(main, second), abs=1e-12)
    assert got["kappa_quadratic"] == pytest.approx(
        cohen_kappa(main, second, weights="quadratic"), abs=1e-12)
    ratings = ratings_table({"main": main, "second": second})
    for level, value in got["alpha"].items():
        assert value == pytest.approx(krippendorff_alpha(ratings, level=level), abs=1e-12)
    confusion = pd.DataFrame(got["confusion"])
    assert confusion.to_numpy().sum() == 142 and int(pd.Series(
        [confusion.iat[i, i] for i in range(4)]).sum()) == 126
    # Prose: chance removed, kappa is below the agreement (0.887 vs 0.811); weighting raises it
    # because every disagreement is one grade apart; alpha (nominal) is almost kappa
    assert round(got["percent_agreement"], 3) == 0.887 and round(got["kappa"], 3) == 0.811
    assert got["kappa"] < got["kappa_linear"] < got["kappa_quadratic"]
    assert (round(got["kappa_linear"], 3), round(got["kappa_quadratic"], 3)) == (0.895, 0.952)
    assert abs(got["alpha"]["nominal"] - got["kappa"]) < 0.005
    assert got["alpha"]["nominal"] < got["alpha"]["ordinal"] < got["alpha"]["interval"]
    assert all(abs(i - j) <= 1 for i, row in enumerate(got["confusion"])
               for j, n in enumerate(row) if n)


def check_rankings(results):
    """Section 2: the systems' ranking under each assessor."""
    teaching = load("teaching")
    second = load("teaching", split="second_assessor").qrels
    part = sorted(set(second["query_id"]))
    main = teaching.qrels[teaching.qrels["query_id"].isin(part)]
    runs = {n: r[r["query_id"].isin(part)] for n, r in teaching_runs(teaching).items()}
    for name, got in results["rankings"].items():
        for who, qrels in (("main", main), ("second", second)):
            expected = {n: reteval.evaluate(qrels, r, [name])[name].mean() for n, r in runs.items()}
            assert got[who] == pytest.approx(expected, abs=1e-12)
        assert got["tau"] == pytest.approx(kendall_tau(pd.Series(got["main"]),
                                                       pd.Series(got["second"])))
        assert got["tau_ap"] == pytest.approx(tau_ap(pd.Series(got["main"]),
                                                     pd.Series(got["second"])))
    ndcg, ap = results["rankings"]["nDCG@10"], results["rankings"]["AP"]
    # Prose: nDCG@10 keeps the ranking (BM25 first), every score drops with the stricter assessor;
    # the three systems lie about 0.03 apart under nDCG@10
    assert ndcg["tau"] == 1.0 and ndcg["best_main"] == ndcg["best_second"] == "bm25"
    assert round(max(ndcg["main"].values()) - min(ndcg["main"].values()), 2) == 0.03
    assert all(ndcg["second"][n] < ndcg["main"][n] for n in ndcg["main"])
    # ... AP's winner changes (hybrid(bm25+lsa) -> lsa), tau 0.33 (2 of 3 pairs kept), tau_AP 0
    # (the one swap is at the top); the systems are within 0.02 under the main judgments while
    # the other assessor moves one by about 0.04
    assert (ap["best_main"], ap["best_second"]) == ("hybrid(bm25+lsa)", "lsa")
    assert round(ap["tau"], 2) == 0.33 and ap["tau_ap"] == pytest.approx(0.0, abs=1e-12)
    main_order = sorted(ap["main"], key=ap["main"].get, reverse=True)
    second_order = sorted(ap["second"], key=ap["second"].get, reverse=True)
    kept = sum((main_order.index(a) < main_order.index(b)) == (second_order.index(a) <
                                                               second_order.index(b))
               for i, a in enumerate(main_order) for b in main_order[i + 1:])
    assert kept == 2 and (kept - 1) / 3 == pytest.approx(ap["tau"])
    assert second_order[0] == main_order[1] and second_order[2] == main_order[2] == "bm25"
    assert max(ap["main"].values()) - min(ap["main"].values()) < 0.02
    assert 0.035 < max(abs(ap["main"][n] - ap["second"][n]) for n in ap["main"]) < 0.045


def check_judge(results):
    """Section 4: the offline judge against the humans."""
    teaching = load("teaching")
    machine = judge(teaching.qrels, TermOverlapJudge(), queries=teaching.queries,
                    docs=teaching.corpus)
    comparison = compare_judgments(teaching.qrels, machine.qrels, teaching_runs(teaching))
    got = results["judge"]
    assert got["calls"] == len(teaching.qrels) == got["items"] == 554
    assert got["characters"] == sum(
        len(teaching.queries[q]) + len("\n".join(
            p for p in (teaching.corpus[d]["title"], teaching.corpus[d]["text"]) if p))
        for q, d in zip(teaching.qrels["query_id"], teaching.qrels["doc_id"], strict=True))
    assert got["kappa"] == pytest.approx(comparison.kappa, abs=1e-12)
    assert got["binary_kappa"] == pytest.approx(comparison.binary_kappa, abs=1e-12)
    assert got["confusion"] == comparison.confusion.to_numpy().tolist()
    assert got["tau"] == pytest.approx(comparison.tau) and got["same_best"] is True
    # Prose: kappa "only 0.11" (slight), binary 0.12; scores far above the human ones;
    # the same ranking (tau = 1) with BM25 first; cross-language relevant pairs mostly graded 0
    assert round(got["kappa"], 2) == 0.11 and round(got["binary_kappa"], 2) == 0.12
    assert got["kappa"] < 0.2
    assert all(s["other"] > s["human"] + 0.2 for s in got["scores"].values())
    assert got["tau"] == 1.0
    assert max(got["scores"], key=lambda n: got["scores"][n]["human"]) == "bm25"
    assert got["cross_language_missed"] > got["cross_language_relevant"] / 2
    # Prose: a majority of 5 noisy answers agrees better than one; failures are counted
    assert got["noisy_kappa"]["5"] > got["noisy_kappa"]["1"]
    assert got["failed"] == sum("SQL" in (teaching.corpus[d]["title"] + "\n"
                                         + teaching.corpus[d]["text"])
                                for d in teaching.qrels["doc_id"])


def check_pooling(results, collection):
    """Section 3 against the library: the depth sweep and leave-one-out."""
    queries = sorted(set(collection.qrels["query_id"]))
    assert len(results["sweep"]) == 7
    deepest = None
    for row in results["sweep"]:
        assert row["tau"] == pytest.approx(kendall_tau(pd.Series(results["complete"]),
                                                       pd.Series(row["scores"])))
        assert row["per_query"] == pytest.approx(row["pairs"] / len(queries))
        deepest = row
    shares = [row["relevant_share"] for row in results["sweep"]]
    assert shares == sorted(shares) and deepest["relevant_share"] < 1
    pairs = [row["pairs"] for row in results["sweep"]]
    assert pairs == sorted(pairs)
    for got in results["leave_one_out"].values():
        table = pd.DataFrame(got["table"]).T
        assert got["max_drop"] == pytest.approx(-table["change"].min())
        assert got["runs_that_moved"] == int((table["rank_change"] != 0).sum())


@pytest.mark.notebook
def test_fallback_run_records_what_the_library_computes(fallback_run):
    output_dir, results = fallback_run
    assert results["fallback"] is True and results["pool_dataset"] == "teaching"
    executed = (output_dir.parent / f"{STEM}.ipynb").read_text(encoding="utf-8")
    assert "is not there. The teaching collection is used instead" in executed
    check_assessors(results)
    check_rankings(results)
    check_judge(results)
    check_pooling(results, load("teaching"))
    assert (output_dir / "figures" / "pool_depth.png").stat().st_size > 1000


@pytest.mark.notebook
@pytest.mark.slow
@pytest.mark.skipif(not CRANFIELD.is_dir(), reason="Cranfield is not in ../shared/data")
def test_cranfield_pooling_and_reusability(tmp_path):
    """The run on the defaults (zh, the pool collection ../shared/data/cranfield), as
    `reteval run` makes it: the prose's numbers are Cranfield's, so the whole collection."""
    _, results = execute(STEM, tmp_path)  # the same run test_cross_notebook_facts reads
    collection = load(CRANFIELD)
    assert results["fallback"] is False and results["pool_dataset"] == "cranfield"
    check_pooling(results, collection)
    qrels = collection.qrels
    # the depth-10 pool and its scores, recomputed here from the runs the notebook describes
    lexical = make_retriever("bm25", collection.corpus).run(collection.queries, k=100)
    pooled = pool({"bm25": lexical}, depth=10)
    assert len(pooled) == 10 * len(collection.queries)
    complete = reteval.evaluate(qrels, lexical, ["AP"])["AP"].mean()
    assert results["complete"]["bm25"] == pytest.approx(complete, abs=1e-12)
    sweep = {row["depth"]: row for row in results["sweep"]}
    # Prose: about 18 pairs per query at depth 10, 156 at depth 100; about 83% of the relevant
    # found at depth 100; every shallow-pool AP above the complete AP; tau 0.6 at depths 1-5,
    # the complete ranking at the deepest pool
    assert round(sweep[10]["per_query"]) == 18 and round(sweep[100]["per_query"]) == 156
    # ... at depth 10 about half (52%) of the relevant are in the pool, and one pair of the five
    # runs is in the opposite order to the complete judgments (tau = 0.8 = (9 - 1) / 10)
    assert round(sweep[10]["relevant_share"], 2) == 0.52
    assert sweep[10]["tau"] == pytest.approx(0.8)
    assert round(sweep[100]["relevant_share"], 2) == 0.83
    assert all(row["above_complete"] for row in results["sweep"])
    assert [sweep[d]["tau"] for d in (1, 2, 5)] == pytest.approx([0.6, 0.6, 0.6])
    assert sweep[100]["tau"] == pytest.approx(1.0)
    # Prose: depth 2 is not reusable (a run loses about 0.056, one changes rank); depth 10 is
    loo2, loo10 = results["leave_one_out"]["2"], results["leave_one_out"]["10"]
    assert round(loo2["max_drop"], 3) == 0.056 and loo2["runs_that_moved"] == 1
    assert loo10["max_drop"] < 0.015 and loo10["runs_that_moved"] == 0
    # ... in the depth-2 pool only 25% to 34% of a left-out run's top 10 is in the others' pool;
    # Cranfield's judgments list relevant documents only, so `judged` is the share relevant and
    # pooled (a precision), below that coverage; and the left-out AP is not a lower bound of the
    # AP under complete judgments: every left-out AP is above it
    in_pool = [row["in_pool"] for row in loo2["table"].values()]
    assert (round(min(in_pool), 2), round(max(in_pool), 2)) == (0.25, 0.34)
    assert bool((collection.qrels["relevance"] >= 1).all())
    assert all(row["judged"] < row["in_pool"] for row in loo2["table"].values())
    assert all(row["left_out"] > results["complete"][run]
               for run, row in loo2["table"].items())
    runs = {"bm25": lexical,
            "LSA-256": make_retriever("lsa", collection.corpus).run(collection.queries, k=100)}
    # leave_one_out of two of the runs agrees in kind: a left-out run never gains judged docs
    small = leave_one_out(qrels, runs, measure="AP", depth=2)
    assert (small.table["judged"] <= 1).all()


def test_every_exercise_is_asked_and_solved():
    """The notebook asks every exercise of nb04; the solutions pass every check."""
    from reteval.teaching.exercises.nb04 import EXERCISES

    def source(path):
        return "".join("".join(c["source"])
                       for c in json.loads(path.read_text(encoding="utf-8"))["cells"])

    solutions = ROOT / "notebooks" / "solutions" / "04_solutions.ipynb"
    for exercise in EXERCISES:
        assert f'check("{exercise}", answer, lang=lang)' in source(NOTEBOOK)
        assert f'check("{exercise}", answer, lang=lang)' in source(solutions)
    run_solutions("04", "en")


@pytest.mark.notebook
@pytest.mark.slow
def test_the_executed_notebook_fits_one_class(fallback_run):
    """Prose, code, printed lines, table rows, figures and exercises of the run on the
    defaults: at most one 90-minute class in either edition."""
    from notebook_run import fits_one_class

    output_dir, _ = fallback_run
    fits_one_class(output_dir.parent / "04_judgments.ipynb")


def test_the_pool_depth_axis_names_the_depths():
    """A log axis would show 10^0, 10^1, 10^2: the figure's ticks are the swept depths."""
    import nbformat

    cell = next(c for c in nbformat.read(NOTEBOOK, as_version=4).cells
                if c.cell_type == "code" and "pool_depth.png" in c.source)
    assert "ax.set_xticks(pool_depths, [str(d) for d in pool_depths])" in cell.source
    assert "ax.minorticks_off()" in cell.source
