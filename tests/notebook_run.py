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
    """Run ``notebooks/solutions/NN_solutions.ipynb`` in edition ``lang``.

    Its cells assert that check() accepts them. Each solutions notebook runs in one edition
    (the editions share their code cells; check()'s words in both languages are tested in
    tests/teaching/test_exercises.py): some chapters' in Chinese, the others' in English.
    """
    papermill.execute_notebook(
        str(ROOT / "notebooks" / "solutions" / f"{number}_solutions.ipynb"),
        str(tmp_path / "solutions.ipynb"), parameters={"lang": lang}, progress_bar=False,
        kernel_name="python3", cwd=str(ROOT))


def check_exercises_asked_and_solved(number, exercises, tmp_path):
    """Notebook ``number`` asks each of ``exercises`` and its solutions notebook, run in
    English, answers each one so that check() says so."""
    notebook = next((ROOT / "notebooks").glob(f"{number}_*.ipynb"))
    solutions = ROOT / "notebooks" / "solutions" / f"{number}_solutions.ipynb"

    def source(path):
        return "".join("".join(c["source"])
                       for c in json.loads(path.read_text(encoding="utf-8"))["cells"])

    asked, solved = source(notebook), source(solutions)
    for exercise in exercises:
        assert f'check("{exercise}", answer, lang=lang)' in asked
        assert f'check("{exercise}", answer, lang=lang)' in solved
    executed = tmp_path / "solutions.ipynb"
    papermill.execute_notebook(str(solutions), str(executed), parameters={"lang": "en"},
                               progress_bar=False, kernel_name="python3", cwd=str(ROOT))
    texts = "".join(
        o.get("data", {}).get("text/plain", [""])[0]
        for c in json.loads(executed.read_text(encoding="utf-8"))["cells"]
        if c["cell_type"] == "code"
        for o in c.get("outputs", [])
    )
    assert texts.count("Correct!") == len(exercises)


def fits_one_class(executed):
    """Each edition of an executed notebook fits one class session; return the minutes.

    ``executed`` is the bilingual notebook as papermill executed it, in one language: the
    editions share their code cells, and their outputs differ in words, not in lines, rows
    or figures, so one run measures both.
    """
    from reteval.book.editions import CLASS_MINUTES, class_minutes

    minutes = {lang: class_minutes(executed, lang) for lang in ("zh", "en")}
    assert max(minutes.values()) <= CLASS_MINUTES, minutes
    return minutes
