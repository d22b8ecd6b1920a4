"""Chinese labels in figures: a CJK font is selected when installed, one warning when not."""

import io
import warnings

import pytest
from matplotlib.figure import Figure

from reteval._util import fonts


def _draw(label):
    fig = Figure()
    ax = fig.subplots()
    ax.set_title(label)
    ax.plot([0, 1], [0, 1], label=label)
    ax.legend()
    fig.savefig(io.BytesIO(), format="png")


def test_chinese_labels_draw_without_missing_glyphs():
    font = fonts.use_cjk_font(warn=False)
    if font is None:
        pytest.skip("no CJK font installed (make setup installs fonts-noto-cjk)")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns "Glyph ... missing from font(s)"
        _draw("召回率 Recall@10 与 平均倒数排名")


def test_missing_font_warns_once_and_never_crashes(monkeypatch):
    monkeypatch.setattr(fonts, "_installed_cjk_font", lambda: None)
    fonts._warn_missing.cache_clear()
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        assert fonts.use_cjk_font() is None
        assert fonts.use_cjk_font() is None
    assert [str(w.message)[:16] for w in record] == ["no CJK font is i"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _draw("召回率")  # boxes, but a figure
