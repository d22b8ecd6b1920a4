"""Every notebook checks its parameters first, with its checker in ``reteval.teaching.params``.

What each checker refuses, and with which message, is tested without a kernel in
``tests/teaching/test_teaching_params.py``. Here: each notebook calls its checker, in the first
code cell after its parameters cell, with every parameter the checker takes, passed unchanged
(read from the notebook's source); and one notebook, run in a kernel, stops on a bad parameter
with the checker's message.
"""

import ast
import inspect
import json

import papermill
import pytest
from notebook_run import execute
from paths import ROOT

from reteval.teaching import params

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb"))  # 07, 07b, 08 ...


def number(path):
    return path.name.partition("_")[0]


def code_cells(path):
    """(tags, parsed source) of each code cell, magics (``%matplotlib``) left out."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [
        (c.get("metadata", {}).get("tags", []),
         ast.parse("".join(line for line in "".join(c["source"]).splitlines(keepends=True)
                           if not line.lstrip().startswith("%"))))
        for c in cells if c["cell_type"] == "code"
    ]


def test_every_chapter_notebook_has_a_checker():
    numbers = [number(path) for path in NOTEBOOKS]
    chapter = [f"{n:02d}" for n in range(1, 12)]
    assert numbers == [*chapter[:7], "07b", *chapter[7:]]
    assert all(callable(getattr(params, f"check_notebook_{n}", None)) for n in numbers)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_cell_after_the_parameters_calls_the_checker_with_each_parameter(path):
    cells = code_cells(path)
    at = next(i for i, (tags, _) in enumerate(cells) if "parameters" in tags)
    declared = {target.id for node in cells[at][1].body if isinstance(node, ast.Assign)
                for target in node.targets}
    checker = f"check_notebook_{number(path)}"
    calls = [node.value for node in cells[at + 1][1].body
             if isinstance(node, (ast.Expr, ast.Assign)) and isinstance(node.value, ast.Call)
             and isinstance(node.value.func, ast.Name) and node.value.func.id == checker]
    assert len(calls) == 1, f"{path.name}: no top-level {checker}(...) after the parameters"
    call = calls[0]
    assert not call.args
    given = {kw.arg for kw in call.keywords}
    for kw in call.keywords:  # each parameter passed as it is: lang=lang
        assert isinstance(kw.value, ast.Name) and kw.value.id == kw.arg, ast.unparse(kw)
    assert given <= declared
    signature = inspect.signature(getattr(params, checker)).parameters.values()
    required = {p.name for p in signature if p.default is inspect.Parameter.empty}
    assert required <= given <= {p.name for p in signature}


@pytest.mark.notebook
def test_a_bad_parameter_stops_the_notebook_with_the_checkers_message(tmp_path):
    with pytest.raises(papermill.PapermillExecutionError,
                       match="depth must be an integer of at least 10; got 5"):
        execute("01_measures", tmp_path, k=10, depth=5)
