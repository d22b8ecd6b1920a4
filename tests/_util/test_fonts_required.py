"""The Chinese edition stops with one error when its figures would draw Chinese as boxes."""

import re

import nbformat
import pytest
from nbformat import v4

from reteval._util import fonts
from reteval.cli import main
from reteval.errors import MissingFontError


def _notebook(folder, code):
    folder.mkdir(parents=True, exist_ok=True)
    nb = v4.new_notebook(cells=[
        v4.new_markdown_cell("# 甲", metadata={"tags": ["lang-zh"]}),
        v4.new_markdown_cell("# A", metadata={"tags": ["lang-en"]}),
        v4.new_code_cell('lang = "zh"', metadata={"tags": ["parameters"]}),
        v4.new_code_cell(code),
    ])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, folder / "01_a.ipynb")
    return folder


def _run(tmp_path, capsys, *extra):
    code = main(["run", "--notebooks", str(tmp_path / "nbs"), "--output", str(tmp_path / "out"),
                 "--no-book", "--quiet", *extra])
    return code, capsys.readouterr().err


def test_no_cjk_font_is_an_error_naming_the_remedy(monkeypatch):
    monkeypatch.setattr(fonts, "_installed_cjk_font", lambda: None)
    with pytest.raises(MissingFontError, match=r"needs a CJK font .*fonts-noto-cjk"):
        fonts.require_cjk_font()


def test_chinese_edition_without_a_cjk_font_stops_before_any_notebook(tmp_path, monkeypatch,
                                                                      capsys):
    monkeypatch.setattr(fonts, "_installed_cjk_font", lambda: None)
    _notebook(tmp_path / "nbs", "print('ran')")
    code, err = _run(tmp_path, capsys, "--lang", "zh")
    assert code == 2, err
    assert err.startswith("reteval: error: the Chinese edition needs a CJK font")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "out" / "zh" / "01_a" / "01_a.ipynb").exists()


@pytest.mark.slow
def test_a_glyph_no_font_has_fails_the_chinese_edition(tmp_path, capsys):
    if fonts.use_cjk_font(warn=False) is None:
        pytest.skip("no CJK font installed (make fonts installs fonts-noto-cjk)")
    # a figure only displayed, as a notebook's last expression: IPython's formatter draws it
    # (once as the result, once when pyplot's inline backend flushes it), no savefig
    draw = ("import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\n"
            "ax.set_title('召回率', family=['DejaVu Sans'])\nfig")
    _notebook(tmp_path / "nbs", draw)
    code, err = _run(tmp_path, capsys, "--lang", "zh")
    assert code != 0
    assert re.search(r"\(zh edition\): \d+ characters drawn as empty boxes in cells \[3\]", err)
    assert "missing from font(s) DejaVu Sans" in err and err.count("\n") == 1
    assert "make fonts" in err and "Traceback" not in err


@pytest.mark.slow
def test_the_english_edition_is_not_checked_for_boxes(tmp_path, capsys):
    draw = ("import io\nfrom matplotlib.figure import Figure\n"
            "fig = Figure()\nfig.subplots().set_title('召回率', family=['DejaVu Sans'])\n"
            "fig.savefig(io.BytesIO(), format='png')")
    _notebook(tmp_path / "nbs", draw)
    code, err = _run(tmp_path, capsys, "--lang", "en")
    assert code == 0, err
