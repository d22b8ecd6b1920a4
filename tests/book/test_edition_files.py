"""The committed editions (notebooks/zh, notebooks/en) are what the bilingual sources give."""

import json

import nbformat
from nbformat import v4
from paths import ROOT

from reteval.book.shipped import edition_files
from reteval.cli import main

REGENERATE = "reteval notebooks notebooks --editions"


def test_committed_editions_are_the_sources_editions():
    notebooks = ROOT / "notebooks"
    expected = edition_files(notebooks)
    committed = {p.relative_to(notebooks) for lang in ("zh", "en")
                 for p in (notebooks / lang).rglob("*.ipynb")}
    hint = f"run `{REGENERATE}` in the repository's root (it rewrites notebooks/zh, notebooks/en)"
    assert committed == set(expected), (
        f"edition files missing: {sorted(map(str, set(expected) - committed))}, without a source: "
        f"{sorted(map(str, committed - set(expected)))}; {hint}")
    differ = [str(relative) for relative, notebook in expected.items()
              if json.loads((notebooks / relative).read_text(encoding="utf-8"))
              != json.loads(nbformat.writes(notebook))]
    assert differ == [], f"differ from their bilingual source: {differ}; {hint}"


def bilingual(lang="zh"):
    return v4.new_notebook(cells=[
        v4.new_code_cell(f'lang = "{lang}"\nk = 5', metadata={"tags": ["parameters"]}),
        v4.new_markdown_cell("召回率", metadata={"tags": ["lang-zh"]}),
        v4.new_markdown_cell("Recall", metadata={"tags": ["lang-en"]}),
        v4.new_code_cell("print(k)")])


def test_editions_command_rewrites_both_and_removes_stale_files(tmp_path, capsys):
    source = bilingual()
    nbformat.write(source, tmp_path / "01_a.ipynb")
    (tmp_path / "solutions").mkdir()
    nbformat.write(bilingual(), tmp_path / "solutions" / "01_solutions.ipynb")
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "01_a.ipynb").write_text("an edited copy")
    (tmp_path / "en" / "02_gone.ipynb").write_text("{}")  # its source was renamed
    assert main(["notebooks", str(tmp_path), "--editions"]) == 0
    assert "4 edition files written" in capsys.readouterr().out
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.ipynb")) == [
        "01_a.ipynb", "en/01_a.ipynb", "en/solutions/01_solutions.ipynb",
        "solutions/01_solutions.ipynb", "zh/01_a.ipynb", "zh/solutions/01_solutions.ipynb"]
    en = nbformat.read(tmp_path / "en" / "01_a.ipynb", as_version=4)
    assert [c.source for c in en.cells] == ['lang = "en"\nk = 5', "Recall", "print(k)"]
    zh = nbformat.read(tmp_path / "zh" / "solutions" / "01_solutions.ipynb", as_version=4)
    assert [c.source for c in zh.cells] == ['lang = "zh"\nk = 5', "召回率", "print(k)"]
    assert nbformat.read(tmp_path / "01_a.ipynb", as_version=4) == source  # unchanged


def test_editions_command_refuses_what_is_not_a_bilingual_folder(tmp_path, capsys):
    assert main(["notebooks", str(tmp_path), "--editions"]) == 2
    assert "holds no notebooks named NN_name.ipynb" in capsys.readouterr().err
    nbformat.write(bilingual(), tmp_path / "01_a.ipynb")
    assert main(["notebooks", str(tmp_path), "--editions", "--lang", "en"]) == 2
    assert "--editions writes both editions; leave out --lang" in capsys.readouterr().err
    assert main(["notebooks", str(tmp_path), "--editions"]) == 0
    capsys.readouterr()
    # An edition folder taken for the sources: its notebooks are editions already.
    assert main(["notebooks", str(tmp_path / "en"), "--editions"]) == 2
    err = capsys.readouterr().err
    assert "is an edition (one language), not a bilingual source" in err
    assert "Traceback" not in err
