"""The pipeline's default parameters never change a notebook's lesson.

``make run`` executes each notebook with ``params/default.yml``. The notebooks' own
tests check the conclusions their prose draws on the notebook's defaults; this test
makes sure the parameters file gives every notebook exactly those defaults, except
the paths that tie the notebooks together (where a notebook reads another's output).
"""

import ast
import re

import papermill
import pytest
import yaml
from paths import ROOT

PARAMS = yaml.safe_load((ROOT / "params" / "default.yml").read_text(encoding="utf-8"))
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb"))
# Parameters that only say where files are: they change no number and no conclusion.
PATHS = {"output_dir", "results_dir", "history_file", "link_base"}


def notebook_defaults(path):
    declared = papermill.inspect_notebook(str(path))
    return {name: ast.literal_eval(spec["default"]) for name, spec in declared.items()}


def test_notebooks_run_in_the_order_of_their_numbers():
    # Numbers are the reading order, so the default run needs no `order` list; numbers are unique.
    assert "order" not in PARAMS
    numbers = [p.stem.split("_")[0] for p in NOTEBOOKS]
    assert numbers == sorted(set(numbers))
    assert all(re.fullmatch(r"\d\d[a-z]?", n) for n in numbers), numbers  # 07, then 07b


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_pipeline_values_are_the_notebook_defaults(path):
    defaults = notebook_defaults(path)
    given = {**(PARAMS.get("common") or {}), **(PARAMS["notebooks"].get(path.stem) or {})}
    unknown = sorted(set(given) - set(defaults))
    assert unknown == [], f"{path.stem} does not declare {unknown}"
    changed = {name: (value, defaults[name]) for name, value in given.items()
               if name not in PATHS and value != defaults[name]}
    assert changed == {}, f"params/default.yml changes {path.stem}'s lesson: {changed}"
    assert defaults.get("lang") == "zh"
