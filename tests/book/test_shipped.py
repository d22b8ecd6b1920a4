"""`reteval notebooks DEST`: the notebooks an installation carries, copied out; `run` says where."""

import pytest
import tomllib
from paths import ROOT

from reteval.cli import main


def test_every_notebook_is_installed_as_data():
    data_files = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "data-files"]
    listed = {f"{folder}/{path.name}" for folder, globs in data_files.items()
              for pattern in globs for path in ROOT.glob(pattern)}
    lessons = {p.name for p in (ROOT / "notebooks").glob("*.ipynb")}
    solutions = {p.name for p in (ROOT / "notebooks" / "solutions").glob("*.ipynb")}
    assert len(lessons) >= 11 and len(solutions) >= 11
    assert listed == ({f"share/reteval/notebooks/{n}" for n in lessons}
                      | {f"share/reteval/notebooks/solutions/{n}" for n in solutions})


def test_notebooks_are_copied_out_and_never_overwritten(tmp_path, capsys):
    dest = tmp_path / "mine"
    assert main(["notebooks", str(dest)]) == 0
    lessons = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    solutions = sorted(p.name for p in (ROOT / "notebooks" / "solutions").glob("*.ipynb"))
    assert sorted(p.name for p in dest.glob("*.ipynb")) == lessons
    assert sorted(p.name for p in (dest / "solutions").glob("*.ipynb")) == solutions
    for name in lessons:
        assert (dest / name).read_bytes() == (ROOT / "notebooks" / name).read_bytes()
    out = capsys.readouterr().out
    assert f"{len(lessons)} notebooks and {len(solutions)} solutions copied" in out
    assert f"reteval run --notebooks {dest}" in out
    (dest / lessons[0]).write_text("edited")
    assert main(["notebooks", str(dest)]) == 2
    err = capsys.readouterr().err
    assert f"already holds {len(lessons) + len(solutions)} of the notebooks" in err
    assert "Traceback" not in err and (dest / lessons[0]).read_text() == "edited"
    a_file = tmp_path / "file"
    a_file.write_text("")
    assert main(["notebooks", str(a_file)]) == 2
    assert "the destination is a file" in capsys.readouterr().err


def test_run_outside_the_repository_says_where_it_looked(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--only", "01_measures"]) == 2
    err = capsys.readouterr().err
    assert f"looked in {tmp_path.resolve() / 'notebooks'}" in err
    assert "--notebooks DIR" in err and "reteval notebooks DIR" in err and "Traceback" not in err


def test_one_language_editions_for_jupyterlab_and_papermill(tmp_path, capsys):
    import nbformat
    import papermill

    dest = tmp_path / "en"
    assert main(["notebooks", str(dest), "--lang", "en"]) == 0
    assert "copied to" in capsys.readouterr().out
    names = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*.ipynb"))
    assert names == sorted([p.name for p in (ROOT / "notebooks").glob("*.ipynb")]
                           + [f"solutions/{p.name}"
                              for p in (ROOT / "notebooks" / "solutions").glob("*.ipynb")])
    for name in names:
        nb = nbformat.read(dest / name, as_version=4)
        source = nbformat.read(ROOT / "notebooks" / name, as_version=4)
        tags = {t for c in nb.cells for t in c.metadata.get("tags", ()) if t.startswith("lang-")}
        assert tags == {"lang-en"}, name
        # Every cell of the source but the Chinese prose, in order; only `lang` changes.
        def shown(cells):
            return [c.source for c in cells if "parameters" not in c.metadata.get("tags", ())]
        assert shown(nb.cells) == shown(c for c in source.cells if "lang-zh" not in
                                        c.metadata.get("tags", ()))
        assert papermill.inspect_notebook(str(dest / name))["lang"]["default"] == '"en"', name
    with pytest.raises(SystemExit):
        main(["notebooks", str(tmp_path / "x"), "--lang", "fr"])
    assert "invalid choice: 'fr'" in capsys.readouterr().err
