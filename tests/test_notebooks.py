"""Notebooks run headless through papermill with non-default parameters.

Each test asserts on the values a notebook records in results.json against the
library called directly on the same inputs. (nbval separately runs every notebook
with its defaults; see pyproject.toml.)
"""

import json
from pathlib import Path

import papermill
import pytest

import reteval
from reteval.datasets import load
from reteval.retrievers import make_retriever

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"


def execute(name, tmp_path, **parameters):
    output_dir = tmp_path / name
    papermill.execute_notebook(
        str(NOTEBOOKS / f"{name}.ipynb"), str(tmp_path / f"{name}.ipynb"),
        parameters={"output_dir": str(output_dir), **parameters},
        progress_bar=False, kernel_name="python3", cwd=str(ROOT),
    )
    return output_dir, json.loads((output_dir / "results.json").read_text())


def test_walkthrough_records_what_evaluate_computes(tmp_path):
    output_dir, results = execute("01_metrics_walkthrough", tmp_path, retriever="vector", k=3, depth=20)
    collection = load("teaching")
    run = make_retriever("vector", collection.corpus).run(collection.queries, k=20)
    expected = reteval.evaluate(collection.qrels, run, ["R@3", "P@3", "RR", "AP", "nDCG@3", "nDCG_exp@3"])
    assert results["k"] == 3 and results["retriever"] == "vector"
    assert results["num_queries"] == len(expected) == len(collection.queries)
    for name, value in expected.mean().items():
        assert results["reteval_means"][name] == pytest.approx(value, abs=1e-12)
    # The chapter's AP divides by relevant documents retrieved: never below trec_eval's AP.
    assert results["chapter_means"]["AP"] >= results["reteval_means"]["AP"]
    assert results["chapter_means"]["RR"] == pytest.approx(results["reteval_means"]["RR"])
    # The worked example, by hand: q1 relevant at ranks 1 and 3 of 3 relevant; q2 at rank 2 of 2.
    assert results["worked_example"]["AP"] == pytest.approx({"q1": (1 + 2 / 3) / 3, "q2": 0.25})
    assert results["chapter_worked_example"]["AP"] == pytest.approx({"q1": (1 + 2 / 3) / 2, "q2": 0.5})
    assert (output_dir / "figures" / "ap_chapter_vs_trec.png").stat().st_size > 1000


@pytest.mark.parametrize(
    "name, parameters, message",
    [
        ("01_metrics_walkthrough", {"dataset": "/nonexistent/folder"}, "nonexistent"),
    ],
)
def test_validation_cell_stops_with_a_clear_message(tmp_path, name, parameters, message):
    with pytest.raises(papermill.PapermillExecutionError, match=message):
        execute(name, tmp_path, **parameters)
