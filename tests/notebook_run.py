"""Running a teaching notebook the way `reteval run` does, for the notebook tests."""

import json

import papermill
from paths import ROOT

from reteval.book.pipeline import load_params, notebook_parameters


def pipeline_parameters(stem):
    """What `reteval run` gives notebook ``stem`` from params/default.yml."""
    params = load_params(ROOT / "params" / "default.yml")
    declared = papermill.inspect_notebook(str(ROOT / "notebooks" / f"{stem}.ipynb"))
    return notebook_parameters(params, stem, declared)[0]


def execute(stem, tmp_path, **parameters):
    """Run notebook ``stem`` into ``tmp_path/out``; return that folder and its results.json."""
    output_dir = tmp_path / "out"
    papermill.execute_notebook(
        str(ROOT / "notebooks" / f"{stem}.ipynb"), str(tmp_path / f"{stem}.ipynb"),
        parameters={"output_dir": str(output_dir), **parameters},
        progress_bar=False, kernel_name="python3", cwd=str(ROOT),
    )
    return output_dir, json.loads((output_dir / "results.json").read_text())


def execute_solutions(number, tmp_path, lang):
    """Run ``notebooks/solutions/NN_solutions.ipynb``.

    Its cells assert that check() accepts them.
    """
    papermill.execute_notebook(
        str(ROOT / "notebooks" / "solutions" / f"{number}_solutions.ipynb"),
        str(tmp_path / "solutions.ipynb"), parameters={"lang": lang}, progress_bar=False,
        kernel_name="python3", cwd=str(ROOT))
