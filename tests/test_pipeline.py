"""`reteval run`: parameters file, outputs per notebook, failures named by notebook and cell."""

import json
from pathlib import Path

import pytest

from reteval.cli import main
from reteval.errors import InputError
from reteval.pipeline import load_params

ROOT = Path(__file__).resolve().parents[1]


def test_params_file_errors(tmp_path):
    bad = tmp_path / "p.yml"
    bad.write_text("common: [unclosed\n")
    with pytest.raises(InputError, match="p.yml:.*not valid YAML"):
        load_params(bad)
    bad.write_text("others: {}\n")
    with pytest.raises(InputError, match="expected top-level keys"):
        load_params(bad)
    with pytest.raises(InputError, match="no such parameters file"):
        load_params(tmp_path / "missing.yml")


def test_run_one_notebook_with_params(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    params = tmp_path / "params.yml"
    params.write_text("common:\n  dataset: teaching\nnotebooks:\n  01_metrics_walkthrough:\n    k: 2\n    depth: 10\n")
    out = tmp_path / "out"
    assert main(["run", "--params", str(params), "--output", str(out), "--only", "01_metrics_walkthrough"]) == 0
    folder = out / "01_metrics_walkthrough"
    assert (folder / "01_metrics_walkthrough.ipynb").exists()
    assert json.loads((folder / "results.json").read_text())["k"] == 2
    assert "1 notebooks ran" in capsys.readouterr().out


def test_failure_names_notebook_and_cell_and_keeps_partial_output(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    params = tmp_path / "params.yml"
    params.write_text("notebooks:\n  01_metrics_walkthrough:\n    retriever: nosuch\n")
    out = tmp_path / "out"
    assert main(["run", "--params", str(params), "--output", str(out), "--only", "01_metrics_walkthrough"]) == 2
    err = capsys.readouterr().err
    assert "notebook 01_metrics_walkthrough.ipynb failed in cell" in err
    assert "InputError: unknown retriever 'nosuch'" in err
    assert (out / "01_metrics_walkthrough" / "01_metrics_walkthrough.ipynb").exists()


def test_undeclared_parameter_is_an_error(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    params = tmp_path / "params.yml"
    params.write_text("notebooks:\n  01_metrics_walkthrough:\n    colour: blue\n")
    assert main(["run", "--params", str(params), "--output", str(tmp_path), "--only", "01_metrics_walkthrough"]) == 2
    assert "parameters ['colour'] are not declared" in capsys.readouterr().err


def test_order_puts_listed_notebooks_first(tmp_path):
    from reteval.pipeline import notebook_paths

    for name in ("01_a", "02_b", "03_c", "04_d"):
        (tmp_path / f"{name}.ipynb").write_text("{}")
    assert [p.stem for p in notebook_paths(tmp_path)] == ["01_a", "02_b", "03_c", "04_d"]
    assert [p.stem for p in notebook_paths(tmp_path, order=["02_b", "01_a"])] == ["02_b", "01_a", "03_c", "04_d"]
    with pytest.raises(InputError, match="unknown notebooks \\['09_x'\\]"):
        notebook_paths(tmp_path, order=["09_x"])
    default = load_params(ROOT / "params" / "default.yml")
    assert [p.stem for p in notebook_paths(ROOT / "notebooks", order=default["order"])][-1] == "04_report"


def test_bad_params_and_output_paths(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    (tmp_path / "adir").mkdir()
    with pytest.raises(InputError, match="is a directory"):
        load_params(tmp_path / "adir")
    garbage = tmp_path / "garbage.yml"
    garbage.write_bytes(b"\x8e\xff\x00")
    with pytest.raises(InputError, match="not a text"):
        load_params(garbage)
    params = tmp_path / "p.yml"
    params.write_text("notebooks:\n  99_nope:\n    k: 5\n")
    assert main(["run", "--params", str(params), "--output", str(tmp_path / "o"), "--only", "01_metrics_walkthrough"]) == 2
    assert "parameters for unknown notebooks ['99_nope']" in capsys.readouterr().err
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    assert main(["run", "--output", str(a_file), "--only", "01_metrics_walkthrough"]) == 2
    err = capsys.readouterr().err
    assert "the output must be a folder" in err and "Traceback" not in err
