"""Notebook 01 (the measures) through papermill.

Each run's recorded values (results.json) are checked against the library
called directly on the same inputs, and against hand-computed values, and the
conclusions the notebook's prose draws are checked to hold for them.
"""

import json
import math

import numpy as np
import pandas as pd
import pytest
from notebook_run import check_exercises_asked_and_solved, pipeline_run
from notebook_run import execute as run_notebook
from paths import ROOT

import reteval
from reteval.datasets import load
from reteval.retrievers import make_retriever

NOTEBOOK = ROOT / "notebooks" / "01_measures.ipynb"


def execute(tmp_path, **parameters):
    return run_notebook(NOTEBOOK.stem, tmp_path, **parameters)


@pytest.fixture(scope="module")
def default_run():
    """The Chinese edition of the pipeline's run, which the browser tests build their book
    from: its output folder, which holds the executed notebook, and its results."""
    output_dir = pipeline_run([NOTEBOOK.stem]) / "zh" / NOTEBOOK.stem
    return output_dir, json.loads((output_dir / "results.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def other_run(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("nb01-other")
    return execute(tmp_path, lang="en", retriever="vector", k=3, depth=20)


def check_collection_results(results, collection):
    """The collection-wide numbers against the library, and the prose's conclusions."""
    k, depth = results["k"], results["depth"]
    run = make_retriever(results["retriever"], collection.corpus).run(collection.queries, k=depth)
    measures = [f"R@{k}", f"P@{k}", "RR", "AP", f"nDCG@{k}", f"nDCG_exp@{k}"]
    expected = reteval.evaluate(collection.qrels, run, measures)
    assert results["num_queries"] == len(expected) == len(collection.queries)
    for name, value in expected.mean().items():
        assert results["reteval_means"][name] == pytest.approx(value, abs=1e-12)
    # Prose: recall, precision, RR and exponential nDCG agree query by query ...
    for name in (f"R@{k}", f"P@{k}", "RR", f"nDCG_exp@{k}"):
        assert results["queries_that_differ"][name] == 0
        assert results["chapter_means"][name] == pytest.approx(results["reteval_means"][name])
    # ... AP differs exactly where some but not all relevant documents were retrieved,
    # and the chapter's AP is trec_eval's AP divided by recall, so never below it.
    found = reteval.evaluate(collection.qrels, run, [f"R@{depth}"])[f"R@{depth}"]
    partial = int(((found > 0) & (found < 1)).sum())
    assert results["queries_some_relevant_missed"] == partial
    assert results["queries_that_differ"]["AP"] == partial
    assert results["queries_all_relevant_retrieved"] == int((found == 1).sum())
    assert results["chapter_means"]["AP"] >= results["reteval_means"]["AP"]
    if partial:
        assert results["chapter_means"]["AP"] > results["reteval_means"]["AP"]
    with np.errstate(divide="ignore", invalid="ignore"):
        implied = np.where(found > 0, expected["AP"] / found, 0.0)
    assert results["chapter_means"]["AP"] == pytest.approx(implied.mean(), abs=1e-12)


def check_worked_example(results):
    """The chapter's two queries by hand (q1: relevant at ranks 1 and 3 of 3; q2: at 2 of 2)."""
    log2 = math.log2
    hand = {
        "R@3": {"q1": 2 / 3, "q2": 1 / 2},
        "P@3": {"q1": 2 / 3, "q2": 1 / 3},
        "RR": {"q1": 1.0, "q2": 0.5},
        "AP": {"q1": (1 + 2 / 3) / 3, "q2": 0.25},
        "nDCG@3": {
            "q1": (3 + 2 / 2) / (3 + 2 / log2(3) + 1 / 2),
            "q2": (2 / log2(3)) / (3 + 2 / log2(3)),
        },
        "nDCG_exp@3": {
            "q1": (7 + 3 / 2) / (7 + 3 / log2(3) + 1 / 2),
            "q2": (3 / log2(3)) / (7 + 3 / log2(3)),
        },
    }
    for name, values in hand.items():
        assert results["worked_example"][name] == pytest.approx(values)
    chapter = results["chapter_worked_example"]
    assert chapter["AP"] == pytest.approx({"q1": (1 + 2 / 3) / 2, "q2": 0.5})
    for name in ("R@3", "P@3", "RR", "nDCG_exp@3"):
        assert chapter[name] == pytest.approx(hand[name])
    # The chapter's nDCG on a list that repeats doc1: every copy earns its gain again.
    dcg = 7 + 7 / log2(3) + 7 / 2 + 1 / log2(5)
    idcg = 7 + 3 / log2(3) + 1 / 2
    assert results["duplicate_ndcg"]["chapter"] == pytest.approx(dcg / idcg)
    assert results["duplicate_ndcg"]["chapter"] > 1.6
    assert results["duplicate_ndcg"]["reteval_refuses"] is True
    # One relevant document and stop: 1.0 only at rank 1.
    stop = results["stop_after_one"]
    assert stop["[doc1]"] == pytest.approx([1.0, 1 / 3])
    assert stop["[doc7, doc1]"] == pytest.approx([0.5, 1 / 6])
    assert stop["[doc1, doc2, doc5]"] == pytest.approx([1.0, 1.0])
    # Ties: score descending, then doc id descending ("doc8" > "doc4").
    assert results["ties"] == {
        "trec_order": ["doc6", "doc8", "doc4"],
        "chapter_rr": 0.5,
        "reteval_rr": pytest.approx(1 / 3),
    }


def check_disagreement(results, collection, output_dir):
    """The pair drawn before the formulas: its measures really point opposite ways, and the count
    of disagreeing pairs is what a plain loop over all pairs of queries finds."""
    strip = ["P@5", "RR", "AP", "nDCG@10"]
    run = make_retriever(results["retriever"], collection.corpus).run(collection.queries,
                                                                       k=results["depth"])
    scores = reteval.evaluate(collection.qrels, run, strip)
    found = results["disagreement"]
    a, b = found["query_a"], found["query_b"]
    assert found["above_a"] and found["above_b"]
    assert all(scores.loc[a, m] > scores.loc[b, m] for m in found["above_a"])
    assert all(scores.loc[b, m] > scores.loc[a, m] for m in found["above_b"])
    assert set(found["above_a"]).isdisjoint(found["above_b"])
    for m in strip:
        assert found["values"][m] == pytest.approx([scores.loc[a, m], scores.loc[b, m]])
    ids = list(scores.index)
    count = 0
    for i, x in enumerate(ids):
        for y in ids[i + 1:]:
            diff = scores.loc[x] - scores.loc[y]
            count += bool((diff > 1e-12).any() and (diff < -1e-12).any())
    assert found["pairs"] == count
    for name in ("ranked_list.png", "measures_disagree.png"):
        assert (output_dir / "figures" / name).stat().st_size > 1000


@pytest.mark.notebook
def test_default_run_records_what_the_library_computes(default_run):
    output_dir, results = default_run
    assert (results["lang"], results["retriever"], results["k"]) == ("zh", "bm25", 5)
    check_worked_example(results)
    check_collection_results(results, load("teaching"))
    check_disagreement(results, load("teaching"), output_dir)
    # On the teaching collection with bm25 some pair has P@5 alone on one side (the figure's pick).
    assert results["disagreement"]["above_a"] == ["P@5"]
    assert (output_dir / "figures" / "ap_chapter_vs_trec.png").stat().st_size > 1000
    per_query = pd.read_csv(output_dir / "per_query.csv", index_col=0)
    assert per_query["AP"].mean() == pytest.approx(results["reteval_means"]["AP"], abs=1e-12)
    # The teaching collection, whose numbers the text quotes: described, with no note.
    printed = printed_text(output_dir / NOTEBOOK.name)
    assert "数据集 teaching：188 个文档，36 条查询，554 个相关性判断" in printed
    assert "注意" not in printed


@pytest.mark.notebook
def test_other_parameters_record_what_the_library_computes(other_run):
    output_dir, results = other_run
    assert (results["lang"], results["retriever"], results["k"]) == ("en", "vector", 3)
    check_worked_example(results)
    check_collection_results(results, load("teaching"))
    check_disagreement(results, load("teaching"), output_dir)


@pytest.mark.notebook
@pytest.mark.slow
def test_scifact_records_what_the_library_computes(tmp_path, scifact_sample):
    """On the sample of SciFact that notebook 03's test reads too (tests/conftest.py): a
    dataset other than the bundled one, loaded from its folder, with its own counts."""
    output_dir, results = execute(tmp_path, dataset=str(scifact_sample), retriever="bm25",
                                  k=10, depth=50, lang="en")
    scifact = load(scifact_sample)
    check_collection_results(results, scifact)
    # The reader is told that the outputs are SciFact's, and nothing else printed calls it the
    # teaching collection.
    printed = printed_text(output_dir.parent / NOTEBOOK.name)
    note = (f"the outputs below are those of the dataset scifact ({len(scifact.queries)} "
            f"queries, {len(scifact.corpus)} documents)")
    assert printed.count(note) == 1
    assert printed.count("teaching") == printed.count("teaching collection") == 1


def printed_text(executed):
    """Every stream and plain-text output of an executed notebook, joined."""
    cells = json.loads(executed.read_text(encoding="utf-8"))["cells"]
    return "".join("".join(output.get("text", "")) + "".join(
        output.get("data", {}).get("text/plain", ""))
        for cell in cells if cell["cell_type"] == "code" for output in cell["outputs"])


def test_every_exercise_is_asked_and_solved():
    """The notebook asks every exercise of nb01; the solutions (run in English) pass every check."""
    from reteval.teaching.exercises.nb01 import EXERCISES

    assert sorted(EXERCISES) == ["01.1", "01.2", "01.3"]
    check_exercises_asked_and_solved("01", EXERCISES)


@pytest.mark.notebook
@pytest.mark.slow
def test_the_executed_notebook_fits_one_class(default_run):
    """Prose, code, printed lines, table rows, figures and exercises of the run on the
    defaults: at most one 90-minute class in either edition."""
    from notebook_run import fits_one_class

    output_dir, _ = default_run
    fits_one_class(output_dir / NOTEBOOK.name)
