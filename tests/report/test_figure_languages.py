"""Figures in the Chinese edition speak Chinese; a system named ``_x`` stays in the legend."""

import io
import re
import warnings

import numpy as np
import pytest

from reteval._util.fonts import use_cjk_font
from reteval.ab.plots import plot_method_comparison, plot_sequential
from reteval.ab.sequential import msprt
from reteval.ab.simulation import compare_methods, synthetic_collection
from reteval.comparison import compare
from reteval.monitor import monitor_once
from reteval.monitor.trend import plot_history
from reteval.report.figures import plot_precision_recall, report_figures
from reteval.widgets import KCurveExplorer

QRELS = {"q1": {"d1": 1, "d2": 1}, "q2": {"d3": 1}, "q3": {"d4": 2, "d5": 1}}
RUNS = {"_base": {"q1": ["d1", "d9", "d2"], "q2": ["d9", "d3"], "q3": ["d5", "d4"]},
        "new": {"q1": ["d2", "d1"], "q2": ["d3"], "q3": ["d8", "d4", "d5"]}}
# What a Chinese figure writes as it is: system names, measure names, symbols (as the glossary).
KEPT = {"_base", "new", "run", "K", "UTC", "mSPRT", "A/B", "RR", "AP", "IPrec", "nDCG", "P", "R"}
_HAN = re.compile(r"[\u4e00-\u9fff]")


def _texts(fig):
    """Every text a reader reads in the figure (not the tick numbers)."""
    texts = []
    for ax in fig.axes:
        texts += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
        if ax.get_legend() is not None:
            texts += [t.get_text() for t in ax.get_legend().get_texts()]
    for legend in fig.legends:
        texts += [t.get_text() for t in legend.get_texts()]
    for attr in ("_suptitle", "_supxlabel", "_supylabel"):
        if getattr(fig, attr, None) is not None:
            texts.append(getattr(fig, attr).get_text())
    return [t.replace("\u200b", "") for t in texts if t]


def _english_words(text):
    # measure names: P@5, nDCG@k, iprec_at_recall_0.10
    text = re.sub(r"[A-Za-z_]+(@[\w.]+|_\d[\d.]*)", " ", text)
    words = re.findall(r"[A-Za-z_][A-Za-z_/]*", text)
    return [w for w in words if w not in KEPT and len(w.strip("_")) > 1]


def _figures(tmp_path):
    comparison = compare(QRELS, RUNS, ["P@1", "P@2", "P@3", "RR", "iprec_at_recall"],
                         baseline="_base", rng=0)
    figures = {f"report {name}": fig
               for name, fig in report_figures(comparison, measure="RR", lang="zh").items()}
    figures["precision-recall"] = plot_precision_recall(comparison, lang="zh")
    qrels, run_a, run_b = synthetic_collection(n_queries=5, rng=0)
    methods = compare_methods(qrels, run_a, run_b, impressions=[50, 100], n_experiments=5,
                              rng=1, lang="zh")
    figures["A/B vs interleaving"] = plot_method_comparison(methods, lang="zh")
    sequential = msprt([0.05, 0.05, 0.05], [0.01, 0.001, 0.0001], mixing_sd=0.05, lang="zh")
    figures["sequential"] = plot_sequential(sequential, lang="zh")
    history = tmp_path / "history.sqlite"
    monitor_once(history, run=RUNS["new"], qrels=QRELS, measures=["RR", "P@2"])
    figures["history"] = plot_history(history, lang="zh")
    figures["history of one"] = plot_history(history, retriever="run", lang="zh")
    figures["K curves"] = KCurveExplorer(QRELS, RUNS, max_k=4, k=2, lang="zh").figure(2)
    return figures


def test_chinese_figures_have_no_english_words(tmp_path):
    found = {}
    for name, fig in _figures(tmp_path).items():
        texts = _texts(fig)
        assert any(_HAN.search(t) for t in texts), (name, texts)
        words = [w for t in texts for w in _english_words(t)]
        if words:
            found[name] = words
    assert found == {}


@pytest.mark.slow
def test_chinese_figures_draw_every_glyph(tmp_path):
    if use_cjk_font(warn=False) is None:
        pytest.skip("no CJK font installed (make fonts installs fonts-noto-cjk)")
    figures = _figures(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns "Glyph ... missing from font(s)"
        for fig in figures.values():
            fig.savefig(io.BytesIO(), format="png")


def test_english_figures_are_unchanged_by_default():
    comparison = compare(QRELS, RUNS, ["P@1", "P@2", "RR"], rng=0)
    fig = report_figures(comparison)["cutoff_curves"]
    assert (fig.axes[0].get_xlabel(), fig.axes[0].get_ylabel()) == ("cutoff k", "mean P@k")
    fig = report_figures(comparison, lang="zh")["cutoff_curves"]
    assert (fig.axes[0].get_xlabel(), fig.axes[0].get_ylabel()) == ("截断位置 k", "P@k 均值")


def test_a_system_named_with_a_leading_underscore_stays_in_the_legends():
    comparison = compare(QRELS, RUNS, ["P@1", "P@2"], rng=0)
    fig = report_figures(comparison)["cutoff_curves"]
    legend = [t.replace("\u200b", "") for t in _texts(fig)[-2:]]
    assert legend == ["_base", "new"]
    fig = KCurveExplorer(QRELS, RUNS, families=["P"], max_k=3, k=2).figure(2)
    assert [t.get_text().replace("\u200b", "") for t in fig.legends[0].get_texts()] == [
        "_base", "new", "K = 2"]


def test_the_trend_figure_keeps_an_underscored_retriever(tmp_path):
    history = tmp_path / "h.sqlite"
    monitor_once(history, run={"q1": ["d1"]}, qrels={"q1": {"d1": 1}}, measures=["RR"],
                 name="_candidate")
    ax = plot_history(history).axes[0]
    assert [t.get_text().replace("\u200b", "") for t in ax.get_legend().get_texts()] == [
        "_candidate RR"]
    assert np.isclose(ax.get_lines()[0].get_ydata()[0], 1.0)
