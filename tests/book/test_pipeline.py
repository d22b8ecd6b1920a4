"""`reteval run`: parameters file, editions, outputs per edition and notebook, failures named."""

import asyncio
import json
import os
import threading
import warnings

import nbformat
import pytest
from nbformat import v4
from paths import ROOT

from reteval.book.pipeline import NotebookFailed, languages, load_params, run_pipeline
from reteval.cli import main
from reteval.errors import InputError

RECORD = """\
import json, os, pathlib
pathlib.Path(output_dir).mkdir(parents=True, exist_ok=True)
seen = {"lang": lang, "dataset": dataset, "k": k, "source": source,
        "progress": os.environ.get("RETEVAL_PROGRESS"),
        "cache": os.environ.get("RETEVAL_CACHE_DIR")}
pathlib.Path(output_dir, "results.json").write_text(json.dumps(seen))
"""


def fake_notebooks(folder):
    """Two small bilingual notebooks; the second reads the first one's output through {output}."""
    folder.mkdir()
    for name, dataset in (("01_first", "synthetic"), ("02_second", "teaching")):
        nb = v4.new_notebook(cells=[
            v4.new_markdown_cell(f"# 第{name[1]}本", metadata={"tags": ["lang-zh"]}),
            v4.new_markdown_cell(f"# Notebook {name[1]}", metadata={"tags": ["lang-en"]}),
            v4.new_code_cell(f'lang = "zh"\ndataset = "{dataset}"\nk = 1\nsource = None\n'
                             f'output_dir = "x"', metadata={"tags": ["parameters"]}),
            v4.new_code_cell(RECORD),
        ])
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                     "language": "python"}
        nbformat.write(nb, folder / f"{name}.ipynb")
    return folder


def test_params_file_errors(tmp_path):
    bad = tmp_path / "p.yml"
    bad.write_text("common: [unclosed\n")
    with pytest.raises(InputError, match="p.yml:.*not valid YAML"):
        load_params(bad)
    bad.write_text("others: {}\n")
    with pytest.raises(InputError, match="expected top-level keys"):
        load_params(bad)
    bad.write_text("lang: fr\n")
    with pytest.raises(InputError,
                       match="p.yml: 'lang' must be one of \\['zh', 'en', 'all'\\]; got 'fr'"):
        load_params(bad)
    bad.write_text("common:\n  lang: en\nnotebooks:\n  01_a:\n    lang: en\n")
    with pytest.raises(InputError, match="'lang' is set in \\['common', 'notebooks: 01_a'\\]"):
        load_params(bad)
    with pytest.raises(InputError, match="no such parameters file"):
        load_params(tmp_path / "missing.yml")


@pytest.mark.notebook
def test_run_one_notebook_with_params(tmp_path, monkeypatch, capsys):
    notebooks = fake_notebooks(tmp_path / "nbs")
    monkeypatch.chdir(tmp_path)
    params = tmp_path / "params.yml"
    params.write_text("common:\n  dataset: teaching\nnotebooks:\n"
                      "  02_second:\n    k: 2\n")
    out = tmp_path / "out"
    assert main(["run", "--notebooks", str(notebooks), "--params", str(params),
                 "--output", str(out), "--only", "02_second"]) == 0
    folder = out / "zh" / "02_second"
    assert (folder / "02_second.ipynb").exists()
    assert json.loads((folder / "results.json").read_text())["k"] == 2
    captured = capsys.readouterr()
    assert "1 notebooks ran" in captured.out and "(zh)" in captured.out
    assert "running zh/02_second.ipynb" in captured.err
    assert "overrides" not in captured.err  # common's dataset equals the notebook's default
    assert "book: " in captured.out and (out / "index.html").is_file()
    assert (out / "zh" / "02_second" / "02_second.html").is_file()


@pytest.mark.notebook
def test_failure_names_notebook_and_cell_and_keeps_partial_output(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    params = tmp_path / "params.yml"
    params.write_text("notebooks:\n  01_measures:\n    retriever: nosuch\n")
    out = tmp_path / "out"
    assert main(["run", "--params", str(params), "--output", str(out),
                 "--only", "01_measures"]) == 2
    err = capsys.readouterr().err
    assert "notebook 01_measures.ipynb (zh edition) failed in cell" in err
    assert "InputError: unknown retriever 'nosuch'" in err
    assert (out / "zh" / "01_measures" / "01_measures.ipynb").exists()


def test_undeclared_parameter_is_an_error(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    params = tmp_path / "params.yml"
    params.write_text("notebooks:\n  01_measures:\n    colour: blue\n")
    assert main(["run", "--params", str(params), "--output", str(tmp_path),
                 "--only", "01_measures"]) == 2
    assert "parameters ['colour'] are not declared" in capsys.readouterr().err


def test_order_puts_listed_notebooks_first(tmp_path):
    from reteval.book.pipeline import notebook_paths

    for name in ("01_a", "02_b", "03_c", "04_d"):
        (tmp_path / f"{name}.ipynb").write_text("{}")
    assert [p.stem for p in notebook_paths(tmp_path)] == ["01_a", "02_b", "03_c", "04_d"]
    ordered = notebook_paths(tmp_path, order=["02_b", "01_a"])
    assert [p.stem for p in ordered] == ["02_b", "01_a", "03_c", "04_d"]
    with pytest.raises(InputError, match="unknown notebooks \\['09_x'\\]"):
        notebook_paths(tmp_path, order=["09_x"])
    with pytest.raises(InputError, match="unknown notebooks \\['04_report'\\]; have \\['01_a'"):
        notebook_paths(tmp_path, only=["04_report"])
    # The default run: the report after the comparison and the continuous evaluation it reads.
    default = load_params(ROOT / "params" / "default.yml")
    stems = [p.stem for p in notebook_paths(ROOT / "notebooks", order=default["order"])]
    assert stems.index("05_retriever_comparison") < stems.index("10_report")
    assert stems.index("09_continuous_evaluation") < stems.index("10_report")


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
    assert main(["run", "--params", str(params), "--output", str(tmp_path / "o"),
                 "--only", "01_measures"]) == 2
    assert "parameters for unknown notebooks ['99_nope']" in capsys.readouterr().err
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    assert main(["run", "--output", str(a_file), "--only", "01_measures"]) == 2
    err = capsys.readouterr().err
    assert "the output must be a folder" in err and "Traceback" not in err


def test_edition_choice_cli_over_file_over_default(tmp_path):
    params = tmp_path / "p.yml"
    params.write_text("lang: en\n")
    loaded = load_params(params)
    assert loaded["lang"] == "en"
    assert languages(None, loaded) == ["en"]
    assert languages("zh", loaded) == ["zh"]  # the command line wins
    assert languages(None, load_params(None)) == ["zh"]  # the Chinese edition by default
    assert languages("all", loaded) == ["zh", "en"]  # Chinese first
    assert load_params(ROOT / "params" / "default.yml")["lang"] == "zh"
    with pytest.raises(InputError, match="unknown language 'de'"):
        languages("de")


def test_default_params_common_changes_no_notebook_default():
    import papermill

    default = load_params(ROOT / "params" / "default.yml")
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb")):
        declared = papermill.inspect_notebook(str(path))
        for key, value in default["common"].items():
            if key in declared and key not in default["notebooks"].get(path.stem, {}):
                assert repr(value) == declared[key]["default"].strip(), (path.name, key)


@pytest.mark.notebook
@pytest.mark.slow
def test_all_editions_common_overrides_and_kernel_environment(tmp_path, monkeypatch):
    notebooks = fake_notebooks(tmp_path / "nbs")
    monkeypatch.setenv("RETEVAL_PROGRESS", "text")  # ours; the kernels must get "off"
    monkeypatch.delenv("RETEVAL_CACHE_DIR", raising=False)
    monkeypatch.chdir(tmp_path)  # paths below the working directory are shown relative to it
    lines = []
    params = {"lang": "en", "order": ["02_second", "09_absent"],
              "common": {"dataset": "teaching", "k": 1, "colour": "blue"},
              "notebooks": {"02_second": {"k": 3, "source": "{output}/01_first"}}}
    out = tmp_path / "out"
    results = run_pipeline(params, output=out, notebooks_dir=notebooks, lang="all",
                           log=lines.append)
    assert [(r.lang, r.name) for r in results] == [
        ("zh", "02_second"), ("zh", "01_first"), ("en", "02_second"), ("en", "01_first")]
    assert f"order: ['09_absent'] not in {notebooks}; skipped" in lines
    for lang in ("zh", "en"):
        first = json.loads((out / lang / "01_first" / "results.json").read_text())
        second = json.loads((out / lang / "02_second" / "results.json").read_text())
        cache = str(out.resolve() / ".cache")  # one cache for every notebook and edition
        assert first == {"lang": lang, "dataset": "teaching", "k": 1, "source": None,
                         "progress": "off", "cache": cache}
        assert second == {"lang": lang, "dataset": "teaching", "k": 3,
                          "source": f"out/{lang}/01_first", "progress": "off", "cache": cache}
        # The saved notebook is the edition: its own language's prose only.
        saved = nbformat.read(out / lang / "01_first" / "01_first.ipynb", as_version=4)
        prose = [c.source for c in saved.cells if c.cell_type == "markdown"]
        assert prose == (["# 第1本"] if lang == "zh" else ["# Notebook 1"])
        assert saved.metadata["reteval"]["lang"] == lang
        assert saved.metadata["papermill"]["parameters"]["lang"] == lang
        assert saved.metadata["papermill"]["parameters"]["output_dir"] == f"out/{lang}/01_first"
        assert str(tmp_path) not in json.dumps(saved.cells)  # no build machine's folder shown
    # common's dataset replaced 01_first's default (reported), not 02_second's (equal to it);
    # colour is declared by neither and goes nowhere.
    assert results[1].overrides == {"dataset": ('"synthetic"', "teaching")}  # zh 01_first
    assert results[0].overrides == {}  # zh 02_second
    assert lines.count("common: dataset='teaching' overrides 01_first's default \"synthetic\"") == 2
    assert os.environ["RETEVAL_PROGRESS"] == "text"  # restored after the run
    assert "RETEVAL_CACHE_DIR" not in os.environ


@pytest.mark.notebook
@pytest.mark.parametrize("jobs", [1, 2])
def test_editions_run_one_after_the_other_or_side_by_side(tmp_path, monkeypatch, jobs):
    notebooks = fake_notebooks(tmp_path / "nbs")
    lines, loops, new_event_loop = [], [], asyncio.new_event_loop

    def recorded_event_loop():
        loops.append((threading.current_thread().name, new_event_loop()))
        return loops[-1][1]

    monkeypatch.setattr(asyncio, "new_event_loop", recorded_event_loop)
    results = run_pipeline(None, output=tmp_path / "out", notebooks_dir=notebooks, lang="all",
                           log=lines.append, jobs=jobs)
    # the event loops nbclient made in the editions' threads are closed when the threads end
    in_threads = [loop for name, loop in loops if name.startswith("edition")]
    assert len(in_threads) == (2 if jobs == 2 else 0)
    assert all(loop.is_closed() for loop in in_threads)
    assert [(r.lang, r.name) for r in results] == [
        ("zh", "01_first"), ("zh", "02_second"), ("en", "01_first"), ("en", "02_second")]
    order = [line.split()[1] for line in lines if line.startswith(("running", "done"))]
    if jobs == 1:  # each edition's notebooks in order, the Chinese edition first
        assert order == ["zh/01_first.ipynb", "zh/01_first.ipynb", "zh/02_second.ipynb",
                         "zh/02_second.ipynb", "en/01_first.ipynb", "en/01_first.ipynb",
                         "en/02_second.ipynb", "en/02_second.ipynb"]
    else:  # the English edition starts before the Chinese one ends, each in its own order
        assert order.index("en/01_first.ipynb") < len(order) - 1 - order[::-1].index(
            "zh/02_second.ipynb")
        for lang in ("zh", "en"):
            mine = [name for name in order if name.startswith(lang)]
            assert mine == [f"{lang}/01_first.ipynb"] * 2 + [f"{lang}/02_second.ipynb"] * 2


WAIT_FOR_THE_CHINESE_FAILURE = """\
import pathlib, time
if lang == "zh":
    raise AssertionError("only in English")
failed = pathlib.Path({out!r}) / "zh" / "01_a" / "01_a.ipynb"
for _ in range(600):  # until the Chinese edition's failure is saved, then a little more
    if failed.is_file() and "only in English" in failed.read_text(encoding="utf-8"):
        break
    time.sleep(0.2)
time.sleep(2)
"""


@pytest.mark.notebook
def test_a_failed_edition_stops_the_other_one_after_its_running_notebook(tmp_path):
    out = tmp_path / "out"
    notebooks = tiny_notebooks(tmp_path / "nbs", WAIT_FOR_THE_CHINESE_FAILURE.format(out=str(out)))
    (notebooks / "02_b.ipynb").write_bytes((notebooks / "01_a.ipynb").read_bytes())
    with pytest.raises(NotebookFailed, match="01_a.ipynb \\(zh edition\\).*only in English"):
        run_pipeline(None, output=out, notebooks_dir=notebooks, lang="all", jobs=2)
    assert "papermill" in nbformat.read(out / "en" / "01_a" / "01_a.ipynb", as_version=4).metadata
    assert not (out / "en" / "02_b" / "02_b.ipynb").exists()  # never started


def test_jobs_must_be_a_positive_integer(tmp_path, capsys):
    notebooks = fake_notebooks(tmp_path / "nbs")
    with pytest.raises(InputError, match="jobs must be a positive integer; got 0"):
        run_pipeline(None, output=tmp_path / "out", notebooks_dir=notebooks, jobs=0)
    assert main(["run", "--notebooks", str(notebooks), "--output", str(tmp_path / "out"),
                 "--jobs", "-1", "--quiet"]) == 2
    assert "jobs must be a positive integer; got -1" in capsys.readouterr().err


@pytest.mark.notebook
def test_quiet_run_prints_only_the_summary(tmp_path, monkeypatch, capsys):
    notebooks = fake_notebooks(tmp_path / "nbs")
    monkeypatch.setenv("RETEVAL_PROGRESS", "text")
    out = tmp_path / "out"
    assert main(["run", "--notebooks", str(notebooks), "--output", str(out), "--only", "01_first",
                 "--lang", "en", "--quiet", "--no-book"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert "1 notebooks ran" in captured.out and "(en)" in captured.out
    assert (out / "en" / "01_first" / "results.json").is_file()
    assert not (out / "zh").exists() and not (out / "index.html").exists()


def tiny_notebooks(folder, *code):
    """One bilingual notebook 01_a: prose pair, parameters, prose pair, then ``code`` cells."""
    folder.mkdir(parents=True, exist_ok=True)
    nb = v4.new_notebook(cells=[
        v4.new_markdown_cell("# 甲", metadata={"tags": ["lang-zh"]}),
        v4.new_markdown_cell("# A", metadata={"tags": ["lang-en"]}),
        v4.new_code_cell('lang = "zh"', metadata={"tags": ["parameters"]}),
        v4.new_markdown_cell("乙", metadata={"tags": ["lang-zh"]}),
        v4.new_markdown_cell("B", metadata={"tags": ["lang-en"]}),
        *[v4.new_code_cell(source) for source in code],
    ])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, folder / "01_a.ipynb")
    return folder


def run_tiny(tmp_path, capsys, out, *extra):
    code = main(["run", "--notebooks", str(tmp_path / "nbs"), "--output", str(out), "--no-book",
                 "--quiet", *extra])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith("reteval: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def _output_is_a_file(tmp_path):
    (tmp_path / "f.txt").write_text("x")
    return tmp_path / "f.txt", "f.txt: the output must be a folder"


def _output_under_a_file(tmp_path):
    (tmp_path / "f.txt").write_text("x")
    return tmp_path / "f.txt" / "out", "f.txt/out/en/01_a: cannot make the output folder"


def _folder_for_the_executed_notebook(tmp_path):
    (tmp_path / "out" / "en" / "01_a" / "01_a.ipynb").mkdir(parents=True)
    return tmp_path / "out", "en/01_a/01_a.ipynb: a folder is in the place of the executed notebook"


def _source(content):
    def make(tmp_path):
        source = tmp_path / "nbs" / "01_a.ipynb"
        if content is None:
            source.unlink()
            source.mkdir()
            return tmp_path / "out", "nbs/01_a.ipynb: cannot read the notebook"
        source.write_bytes(content)
        return tmp_path / "out", "nbs/01_a.ipynb: not a valid notebook (.ipynb)"
    return make


OUTPUT_AND_SOURCE_CASES = {
    "output is a file": _output_is_a_file,
    "output under a file": _output_under_a_file,
    "folder for the executed notebook": _folder_for_the_executed_notebook,
    "source not JSON": _source(b"{not json"),
    "source empty": _source(b""),
    "source binary": _source(b"\x8e\xff\x00\x01"),
    "source JSON list": _source(b"[1, 2]"),
    "source empty object": _source(b"{}"),
    "source without cells": _source(b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}}'),
    "source cell without fields": _source(
        b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code"}]}'),
    "source cells not a list": _source(
        b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": "x"}'),
    "source cell of no known type": _source(
        b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, '
        b'"cells": [{"cell_type": "bogus", "source": "", "metadata": {}}]}'),
    "source nbformat 99": _source(
        b'{"nbformat": 99, "nbformat_minor": 0, "metadata": {}, "cells": []}'),
    "source nested too deeply": _source(b'{"a": ' * 100_000),
    "source is a folder": _source(None),
}


@pytest.mark.parametrize("case", OUTPUT_AND_SOURCE_CASES)
def test_unusable_output_or_source_is_one_line_before_any_kernel(tmp_path, capsys, case):
    tiny_notebooks(tmp_path / "nbs", "x = 1")
    out, expected = OUTPUT_AND_SOURCE_CASES[case](tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning would be a second line on stderr
        err = run_tiny(tmp_path, capsys, out, "--lang", "en")
    assert expected in err


@pytest.mark.notebook
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(("code", "expected", "raised"), [
    ("1/0", "failed in cell 7 (from 0, In [4]) of {}: ZeroDivisionError: division by zero", True),
    # The dying cell's In [N] is 4 or blank, as the kernel's last message did or did not arrive.
    ("import os; os._exit(1)", "the kernel died in cell 5 (from 0, In [", False),
])
def test_failed_cell_is_named_by_its_index_in_the_saved_notebook(tmp_path, capsys, lang, code,
                                                                  expected, raised):
    # Source: 7 cells, the failing one at index 6. The saved edition drops the two cells of the
    # other language and gains papermill's injected parameters; a raising cell also gets papermill's
    # error banner at the top and an anchor before it: index 7 (raised) or 5 (kernel died).
    tiny_notebooks(tmp_path / "nbs", "x = 1", code)
    out = tmp_path / "out"
    err = run_tiny(tmp_path, capsys, out, "--lang", lang)
    saved = out / lang / "01_a" / "01_a.ipynb"
    assert f"notebook 01_a.ipynb ({lang} edition)" in err
    assert expected.format(saved.resolve()) in err
    assert f" of {saved.resolve()}" in err
    cells = nbformat.read(saved, as_version=4).cells
    assert cells[7 if raised else 5].source == code


def test_command_line_parameters_are_yaml_values_named_in_errors(tmp_path, monkeypatch, capsys):
    from reteval.book.paramfile import parse_assignments

    assert parse_assignments(["k=3", "k=5", "ks=[5, 10]", "on=true", "r=bm25", "x=1.5",
                              "d=2026-06-01", "q='10'"]) == {
        "k": 5, "ks": [5, 10], "on": True, "r": "bm25", "x": 1.5, "d": "2026-06-01", "q": "10"}
    for pairs, message in ((["k"], "-p expects key=value; got 'k'"),
                           (["=3"], "-p expects key=value; got '=3'"),
                           (["ks=[5"], "-p ks: the value '[5' is not valid YAML"),
                           (["m=a: b"], "-p m: the value 'a: b' is a mapping"),
                           (["lang=en"], "-p lang: the edition is chosen by --lang")):
        with pytest.raises(InputError) as info:
            parse_assignments(pairs)
        assert str(info.value).startswith(message)
    # Through the command line: one line naming the key, before any kernel starts.
    notebooks = fake_notebooks(tmp_path / "nbs")
    for argv, message in ((["-p", "colour=blue"], ("-p colour: 01_first declares no parameter "
                                                     "'colour' (it declares ['dataset', 'k', "
                                                     "'lang', 'output_dir', 'source']); -p sets "
                                                     "every notebook that runs: choose them "
                                                     "with --only")),
                          (["-p", "k=[1"], "-p k: the value '[1' is not valid YAML")):
        assert main(["run", "--notebooks", str(notebooks), "--output", str(tmp_path / "out"),
                     "--only", "01_first", *argv]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err
    assert not (tmp_path / "out" / "zh").exists()


@pytest.mark.notebook
def test_command_line_parameters_reach_the_notebook_over_the_file(tmp_path, monkeypatch):
    notebooks = fake_notebooks(tmp_path / "nbs")
    monkeypatch.chdir(tmp_path)
    params = tmp_path / "p.yml"
    params.write_text("notebooks:\n  02_second:\n    k: 2\n    dataset: other\n")
    assert main(["run", "--notebooks", str(notebooks), "--output", "out", "--only", "02_second",
                 "--params", str(params), "-p", "k=[5, 10]", "-p", "source=none.txt",
                 "--quiet", "--no-book"]) == 0
    seen = json.loads((tmp_path / "out" / "zh" / "02_second" / "results.json").read_text())
    assert (seen["k"], seen["source"], seen["dataset"]) == ([5, 10], "none.txt", "other")
    assert not (tmp_path / "out" / "zh" / "01_first").exists()


@pytest.mark.parametrize("lang", ["zh", "all"])
def test_an_edition_file_runs_only_in_its_own_language(tmp_path, lang):
    """A notebook of notebooks/en is refused for zh (it has no Chinese left), before any kernel."""
    from reteval.book.shipped import write_editions

    write_editions(fake_notebooks(tmp_path / "notebooks"))
    with pytest.raises(InputError, match=r"01_first.ipynb: is the en edition \(one language\): "
                                         r"run it with --lang en"):
        run_pipeline(None, lang=lang, notebooks_dir=tmp_path / "notebooks" / "en",
                     output=tmp_path / "out")
    assert not (tmp_path / "out").exists()
