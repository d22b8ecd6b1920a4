"""Notebooks run headless through papermill with non-default parameters.

Each test asserts on the values a notebook records in results.json against the
library called directly on the same inputs. (nbval separately runs every notebook
with its defaults; see pyproject.toml.)
"""

import json
from pathlib import Path

import pandas as pd
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


def test_comparison_records_what_evaluate_computes(tmp_path):
    output_dir, results = execute(
        "02_retriever_comparison", tmp_path, retrievers=["bm25", "vector"], k_values=[2, 5],
        measures=["AP", "nDCG@5"], depth=30, test="wilcoxon",
    )
    collection = load("teaching")
    assert results["retrievers"] == ["bm25", "vector"]
    for name in ("bm25", "vector"):
        run = make_retriever(name, collection.corpus).run(collection.queries, k=30)
        expected = reteval.evaluate(collection.qrels, run, ["AP", "nDCG@5"]).mean()
        assert results["means"][name] == pytest.approx(expected.to_dict(), abs=1e-12)
        # The run file written by the notebook evaluates to the same values.
        from_file = reteval.evaluate(collection.qrels, results["runs"][name], ["AP", "nDCG@5"]).mean()
        assert from_file.to_dict() == pytest.approx(expected.to_dict(), abs=1e-9)
    assert set(results["table"]["bm25"]) == {"R@2", "R@5", "P@2", "P@5", "nDCG@2", "nDCG@5", "RR"}
    comparison = pd.read_csv(output_dir / "comparison.csv")
    assert len(comparison) > 0
    for figure in ("measures_at_k.png", "per_query_scatter.png"):
        assert (output_dir / "figures" / figure).stat().st_size > 1000


@pytest.mark.parametrize(
    "name, parameters, message",
    [
        ("02_retriever_comparison", {"retrievers": ["bm25", "colbert"]}, "unknown retrievers \\['colbert'\\]"),
        ("02_retriever_comparison", {"measures": ["nDGC@10"]}, "Did you mean 'nDCG'"),
    ],
)
def test_validation_cell_stops_with_a_clear_message(tmp_path, name, parameters, message):
    with pytest.raises(papermill.PapermillExecutionError, match=message):
        execute(name, tmp_path, **parameters)
