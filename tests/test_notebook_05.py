"""Notebook 05 (exploring measures with widgets) through papermill, against the library."""

import json
import math
from pathlib import Path

import pytest

import reteval
from reteval.datasets import load

ROOT = Path(__file__).resolve().parents[1]
LOG2_3 = math.log2(3)




@pytest.mark.slow
def test_notebook_records_what_the_explorers_show(tmp_path):
    import papermill

    from reteval.retrievers import make_retriever

    output_dir = tmp_path / "05_explore"
    papermill.execute_notebook(
        str(ROOT / "notebooks" / "05_explore.ipynb"), str(tmp_path / "05_explore.ipynb"),
        parameters={"output_dir": str(output_dir), "grades": [0, 1, 1], "unretrieved": [],
                    "k": 2, "max_k": 5, "query_id": "q03", "depth": 10,
                    "retrievers": ["bm25", "vector"], "baseline_rate": 0.30, "effect": 0.05,
                    "alpha": 0.01, "power": 0.90},
        progress_bar=False, kernel_name="python3", cwd=str(ROOT),
    )
    results = json.loads((output_dir / "results.json").read_text())
    metric = results["metric_explorer"]
    # By hand: relevant at ranks 2 and 3, R = 2, K = 2.
    assert metric["formulas"][:3] == ["P@2 = 1/2 = 0.500", "R@2 = 1/2 = 0.500", "RR = 1/2 = 0.500"]
    assert metric["formulas"][4] == "AP = (1/2 + 2/3) / 2 = 0.583"
    assert metric["values"]["nDCG@2"] == pytest.approx((1 / LOG2_3) / (1 + 1 / LOG2_3))

    collection = load("teaching")
    runs = {name: make_retriever(name, collection.corpus).run(collection.queries, k=10)
            for name in ("bm25", "vector")}
    query = results["query_explorer"]
    assert query["query_id"] == "q03" and query["systems"] == ["bm25", "vector"]
    for name, run in runs.items():
        expected = reteval.evaluate(collection.qrels, run, ["P@2", "R@2", "RR", "nDCG@2", "AP"])
        assert query["measures"][name] == pytest.approx(expected.loc["q03"].to_dict(), abs=1e-12)
        assert query["ranked"][name] == run[run["query_id"] == "q03"]["doc_id"].head(2).tolist()
        means = reteval.evaluate(collection.qrels, run, ["P@2", "R@2", "nDCG@2"]).mean()
        assert results["k_curve_explorer"]["values"][name] == pytest.approx(means.to_dict(),
                                                                           abs=1e-12)
    assert results["ab_planner"]["n_per_group"] == 2608  # statsmodels, see above
    assert (output_dir / "figures" / "k_curves.png").stat().st_size > 1000


@pytest.mark.slow
@pytest.mark.parametrize("parameters, message", [
    ({"retrievers": ["bm25", "colbert"]}, "unknown retrievers \\['colbert'\\]"),
    ({"k": 11}, "k must be between 1 and min\\(len\\(grades\\), max_k\\) = 10; got 11"),
    ({"query_id": "q999"}, "query_id 'q999' is not a query of 'teaching'"),
])
def test_notebook_validation_cell(tmp_path, parameters, message):
    import papermill

    with pytest.raises(papermill.PapermillExecutionError, match=message):
        papermill.execute_notebook(
            str(ROOT / "notebooks" / "05_explore.ipynb"), str(tmp_path / "out.ipynb"),
            parameters={"output_dir": str(tmp_path / "o"), **parameters},
            progress_bar=False, kernel_name="python3", cwd=str(ROOT),
        )
