"""Notebook 02 (comparing retrievers): its recorded results against the library, and its lesson.

The notebook is run through papermill on its defaults (the teaching collection) and on
another parameter set (Cranfield from the shared data, skipped without it). The values it
records in results.json are checked against reteval called directly, and the conclusions
its prose draws are checked against numbers computed here, independently of the notebook.
"""

import json

import nbformat
import numpy as np
import pandas as pd
import papermill
import pytest
from notebook_run import execute as run_notebook
from notebook_run import execute_solutions
from paths import ROOT

import reteval
from reteval.datasets import load
from reteval.retrievers import make_retriever
from reteval.teaching.depth import pad_run, shared_prefix
from reteval.teaching.exercises import check

NOTEBOOK = ROOT / "notebooks" / "02_retriever_comparison.ipynb"
SOLUTIONS = ROOT / "notebooks" / "solutions" / "02_solutions.ipynb"
RETRIEVERS = ["bm25", "vector", "hybrid", "reranked"]
MEASURES = ["P@5", "R@10", "RR", "AP", "nDCG@10"]


@pytest.fixture(scope="module")
def default_run(tmp_path_factory):
    return run_notebook("02_retriever_comparison", tmp_path_factory.mktemp("nb02"))


@pytest.fixture(scope="module")
def teaching():
    """The library's own runs on the teaching collection, built with default options."""
    collection = load("teaching")
    runs = {
        name: make_retriever(name, collection.corpus).run(collection.queries, k=100)
        for name in RETRIEVERS
    }
    return collection, runs


def rows(table):
    return json.loads(table.to_json(orient="records"))


def assert_rows_equal(recorded, expected):
    assert len(recorded) == len(expected)
    for mine, ref in zip(recorded, expected, strict=True):
        assert mine.keys() == ref.keys()
        for key, value in ref.items():
            if isinstance(value, float):
                assert mine[key] == pytest.approx(value, rel=1e-9, abs=1e-12), key
            else:
                assert mine[key] == value, key


# --------------------------------------------------------------------------- the default run


@pytest.mark.slow
def test_default_run_records_what_the_library_computes(default_run, teaching):
    output_dir, results = default_run
    collection, runs = teaching
    assert results["retrievers"] == RETRIEVERS and results["seed"] == 0 and results["depth"] == 100
    for name, run in runs.items():
        expected = reteval.evaluate(collection.qrels, run, MEASURES).mean()
        assert results["means"][name] == pytest.approx(expected.to_dict(), abs=1e-12)
        from_file = reteval.evaluate(collection.qrels, results["runs"][name], MEASURES).mean()
        assert from_file.to_dict() == pytest.approx(expected.to_dict(), abs=1e-9)
        numret = reteval.evaluate(collection.qrels, run, ["NumRet"])["NumRet"].mean()
        assert results["num_retrieved"][name] == pytest.approx(numret)
    # Seeded: the bootstrap intervals are the library's with rng=seed, to the last digit.
    comparison = reteval.compare(
        collection.qrels, runs, MEASURES, baseline="bm25", test="t", alpha=0.05, rng=0
    )
    assert_rows_equal(results["comparison"], rows(comparison.table))
    padded = {**runs, "bm25+random": pad_run(runs["bm25"], list(collection.corpus), 100, rng=0)}
    equal = reteval.compare(
        collection.qrels,
        padded,
        ["AP@10", "AP@20", "AP"],
        baseline="bm25",
        test="t",
        alpha=0.05,
        rng=0,
    )
    assert_rows_equal(results["equal_depth"], rows(equal.table))
    for figure in ("measures_at_k.png", "ap_at_k_and_depth.png", "per_query_ap.png"):
        assert (output_dir / "figures" / figure).stat().st_size > 10_000


@pytest.mark.slow
def test_default_run_draws_the_right_conclusions(default_run, teaching):
    """What the prose says, computed here from the library's own runs."""
    _, results = default_run
    collection, runs = teaching
    qrels = collection.qrels
    conclusions = results["conclusions"]

    # 1. Depth: bm25 (and reranked) return ~19 documents per query, vector and hybrid 100.
    numret = pd.DataFrame(
        {n: reteval.evaluate(qrels, r, ["NumRet"])["NumRet"] for n, r in runs.items()}
    )
    assert numret["bm25"].mean() == pytest.approx(19.39, abs=0.01)
    assert (numret["bm25"].min(), numret["bm25"].max()) == (2, 56)
    assert (numret["bm25"] == numret["reranked"]).all()
    assert (numret[["vector", "hybrid"]] == 100).all().all()

    # 2. Full depth: only AP is significant (vector, hybrid above; reranked below).
    comparison = reteval.compare(qrels, runs, MEASURES, baseline="bm25", rng=0)
    table = comparison.table.set_index(["measure", "system"])
    for measure in MEASURES:
        expected = [s for s in RETRIEVERS[1:] if bool(table.loc[(measure, s), "significant"])]
        assert conclusions["significant"][measure] == expected
    assert conclusions["significant"]["AP"] == ["vector", "hybrid", "reranked"]
    assert all(conclusions["significant"][m] == [] for m in MEASURES if m != "AP")
    assert table.loc[("AP", "vector"), "mean_difference"] > 0
    assert table.loc[("AP", "reranked"), "mean_difference"] < 0

    # 3. Equal depth: nothing significant at AP@10 / AP@20, bm25 highest at AP@10;
    #    random padding of bm25 gains more full-depth AP than vector, significantly.
    padded = {**runs, "bm25+random": pad_run(runs["bm25"], list(collection.corpus), 100, rng=0)}
    equal = reteval.compare(qrels, padded, ["AP@10", "AP@20", "AP"], baseline="bm25", rng=0)
    eq = equal.table.set_index(["measure", "system"])
    for measure in ("AP@10", "AP@20"):
        assert not eq.xs(measure)["significant"].fillna(False).any()
        assert conclusions["significant_equal_depth"][measure] == []
    means10 = eq.xs("AP@10")["mean"].drop("bm25+random")
    assert means10.idxmax() == "bm25" == conclusions["best_equal_depth"]["AP@10"]
    assert bool(eq.loc[("AP", "bm25+random"), "significant"])
    assert eq.loc[("AP", "bm25+random"), "mean"] > eq.loc[("AP", "vector"), "mean"]
    assert "bm25+random" in conclusions["significant_equal_depth"]["AP"]

    # 4. vector and reranked: identical prefix on every query, every table column equal, RR not.
    prefix = shared_prefix(runs["reranked"], runs["vector"])
    assert (prefix["shared"] == prefix["len_a"]).all()
    assert conclusions["identical"] == {"queries": 36, "same_prefix": 36}
    for name in ("vector", "reranked"):
        assert results["table"][name].keys() == results["table"]["bm25"].keys()
    cut = {m: v for m, v in results["table"]["vector"].items() if m != "RR"}
    assert cut == pytest.approx({m: results["table"]["reranked"][m] for m in cut}, abs=1e-15)
    assert results["table"]["vector"]["RR"] != results["table"]["reranked"]["RR"]

    # 5. The chapter's evaluator: recall, precision, MRR exact; ndcg = nDCG_exp, not nDCG.
    agreement = results["chapter_agreement"]
    for key, difference in agreement.items():
        if "~ nDCG@" in key:
            assert difference > 1e-3, key
        else:
            assert difference < 1e-12, key

    # 6. nDCG@K falls from K = 1 to K = 10, then rises up to K = 100, for every system.
    for run in runs.values():
        ndcg = reteval.evaluate(qrels, run, ["nDCG@1", "nDCG@10", "nDCG@100"]).mean()
        assert ndcg["nDCG@1"] > ndcg["nDCG@10"] < ndcg["nDCG@100"]

    # 7. Per query: the counts the prose of section 8 gives.
    ap = {n: reteval.evaluate(qrels, r, ["AP@10", "AP"]) for n, r in padded.items()}

    def signs(name, measure):
        d = ap[name][measure] - ap["bm25"][measure]
        return int((d > 1e-12).sum()), int((d.abs() <= 1e-12).sum()), int((d < -1e-12).sum())

    assert signs("vector", "AP@10") == (5, 20, 11)
    assert signs("vector", "AP")[0] == 25 and signs("vector", "AP")[2] == 10
    same10 = (ap["vector"]["AP@10"] - ap["bm25"]["AP@10"]).abs() <= 1e-12
    assert ((ap["vector"]["AP"] - ap["bm25"]["AP"])[same10] >= -1e-12).all()
    assert signs("bm25+random", "AP@10")[1] == 35
    assert signs("bm25+random", "AP") == (25, 11, 0)
    assert signs("reranked", "AP") == (7, 16, 13)


# --------------------------------------------------------------------------- other parameters


@pytest.mark.slow
def test_other_parameters_on_cranfield(tmp_path, shared_data):
    folder = shared_data / "cranfield"
    if not folder.is_dir():
        pytest.skip(f"Cranfield not found at {folder}")
    params = {
        "dataset": str(folder),
        "retrievers": ["bm25", "vector"],
        "k_values": [2, 5],
        "measures": ["AP", "nDCG@5"],
        "depth": 30,
        "cutoffs": [5],
        "test": "wilcoxon",
        "seed": 3,
        "lang": "en",
    }
    _, results = run_notebook("02_retriever_comparison", tmp_path, **params)
    collection = load(str(folder))
    runs = {
        n: make_retriever(n, collection.corpus).run(collection.queries, k=30)
        for n in ("bm25", "vector")
    }
    assert results["dataset"] == "cranfield" and results["num_queries"] == 225
    for name, run in runs.items():
        expected = reteval.evaluate(collection.qrels, run, ["AP", "nDCG@5"]).mean()
        assert results["means"][name] == pytest.approx(expected.to_dict(), abs=1e-12)
    assert set(results["table"]["bm25"]) == {"R@2", "R@5", "P@2", "P@5", "nDCG@2", "nDCG@5", "RR"}
    comparison = reteval.compare(
        collection.qrels, runs, ["AP", "nDCG@5"], baseline="bm25", test="wilcoxon", rng=3
    )
    assert_rows_equal(results["comparison"], rows(comparison.table))
    padded = {**runs, "bm25+random": pad_run(runs["bm25"], list(collection.corpus), 30, rng=3)}
    equal = reteval.compare(
        collection.qrels, padded, ["AP@5", "AP"], baseline="bm25", test="wilcoxon", rng=3
    )
    assert_rows_equal(results["equal_depth"], rows(equal.table))
    assert results["conclusions"]["identical"] == {}
    for system in ("vector",):
        significant = bool(
            comparison.table.set_index(["measure", "system"]).loc[("AP", system), "significant"]
        )
        assert (system in results["conclusions"]["significant"]["AP"]) == significant


@pytest.mark.slow
@pytest.mark.parametrize(
    "parameters, message",
    [
        ({"retrievers": ["bm25", "colbert"]}, "unknown retrievers \\['colbert'\\]"),
        ({"measures": ["nDGC@10"]}, "Did you mean 'nDCG'"),
        ({"cutoffs": [0]}, "cutoffs must be positive integers"),
        ({"lang": "fr"}, "lang must be 'zh' or 'en'"),
    ],
)
def test_validation_cell_stops_with_a_clear_message(tmp_path, parameters, message):
    with pytest.raises(papermill.PapermillExecutionError, match=message):
        run_notebook("02_retriever_comparison", tmp_path, **parameters)


# --------------------------------------------------------------------------- exercises


@pytest.mark.parametrize(
    "exercise, wrong",
    [
        ("02.1", [None, 100, 19, 10, "19.39x"]),
        ("02.2", [0.0009, 1.0, 0.05, None]),
        ("02.3", ["A", "C", "D", 2, None]),
        ("02.4", ["nDCG@10", "ndcg_cut_10", "nDCG_exp@5", None]),
    ],
)
def test_checks_reject_plausible_wrong_answers(exercise, wrong):
    for answer in wrong:
        verdict = check(exercise, answer, lang="en")
        assert not verdict, (exercise, answer)
        assert verdict.message.startswith("Not yet. Hint:")


def test_checks_accept_the_right_answers_in_either_form():
    assert check("02.1", 19.3889)
    assert check("02.3", " b ")
    assert check("02.4", "ndcg_exp@10", lang="zh").message == "正确！"


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_solutions_pass_their_checks(tmp_path, lang):
    execute_solutions("02", tmp_path, lang)  # each solution cell asserts check() accepts it


# --------------------------------------------------------------------------- bilingual source


@pytest.mark.parametrize("path", [NOTEBOOK, SOLUTIONS])
def test_every_prose_cell_has_its_translation_and_ends_with_exercises(path):
    nb = nbformat.read(path, as_version=4)
    prose = [c for c in nb.cells if c.cell_type == "markdown"]
    tags = [c.metadata.get("tags", []) for c in prose]
    assert all(("lang-zh" in t) != ("lang-en" in t) for t in tags)
    cells = nb.cells
    for i, cell in enumerate(cells):
        if cell.cell_type == "markdown" and "lang-zh" in cell.metadata.get("tags", []):
            assert "lang-en" in cells[i + 1].metadata.get("tags", [])
        if cell.cell_type == "markdown" and "lang-en" in cell.metadata.get("tags", []):
            assert "lang-zh" in cells[i - 1].metadata.get("tags", [])
    params = next(c for c in cells if "parameters" in c.metadata.get("tags", []))
    assert 'lang = "zh"' in params.source
    if path == NOTEBOOK:
        titles = [c.source.splitlines()[0] for c in prose]
        assert "## 小结" in titles and "## Summary" in titles
        checks = [c for c in cells if c.cell_type == "code" and 'check("02.' in c.source]
        assert len(checks) >= 3
        assert np.all([", lang=lang)" in c.source for c in checks])
