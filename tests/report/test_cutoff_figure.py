"""The measure@k figure and the trend figure's threshold line: what a reader can tell apart."""

import io

import numpy as np

from reteval.comparison import compare
from reteval.monitor import monitor_once
from reteval.monitor.trend import plot_history
from reteval.report.figures import plot_cutoff_curves

QRELS = {"q1": {"d1": 1, "d2": 1}, "q2": {"d3": 1}, "q3": {"d4": 2, "d5": 1}}
RUNS = {"a": {"q1": ["d1", "d9", "d2"], "q2": ["d9", "d3"], "q3": ["d5", "d4"]},
        "b": {"q1": ["d9", "d1"], "q2": ["d3"], "q3": ["d8", "d7", "d4"]},
        "c": {"q1": ["d2", "d1"], "q2": ["d3", "d9"], "q3": ["d4"]}}


def _data_lines(ax):
    """Each system's line of means (errorbar containers carry the system's label)."""
    lines = []
    for container in ax.containers:
        line = container.lines[0]
        line.set_label(container.get_label())
        lines.append(line)
    return lines


def test_systems_differ_by_marker_and_line_style_on_a_curve_of_three_cutoffs():
    fig = plot_cutoff_curves(compare(QRELS, RUNS, ["P@1", "P@2", "P@3"], rng=0))
    lines = _data_lines(fig.axes[0])
    assert len({line.get_marker() for line in lines}) == 3
    assert len({line.get_linestyle() for line in lines}) == 3
    # P@1, P@2, P@3 of system a by hand: 1/1, 1/2, 2/3 on q1; 0, 1/2, 1/3 on q2; 1, 1, 2/3 on q3
    a = next(line for line in lines if line.get_label() == "a")
    assert np.allclose(a.get_xdata(), [1, 2, 3])
    assert np.allclose(a.get_ydata(), [2 / 3, 2 / 3, 5 / 9])


def test_two_cutoffs_are_points_without_a_connecting_line():
    fig = plot_cutoff_curves(compare(QRELS, RUNS, ["P@1", "P@2"], rng=0))
    ax = fig.axes[0]
    assert {line.get_linestyle() for line in _data_lines(ax)} == {"None"}
    assert [t.get_text() for t in ax.get_xticklabels()] == ["P@1", "P@2"]


def test_the_legend_is_outside_the_panels():
    fig = plot_cutoff_curves(compare(QRELS, RUNS, ["P@1", "P@2", "P@3"], rng=0))
    assert fig.axes[0].get_legend() is None
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["a", "b", "c"]
    fig.savefig(io.BytesIO(), format="png")  # lays the figure out
    legend = fig.legends[0].get_window_extent()
    assert legend.x0 >= fig.axes[0].get_window_extent().x1


def test_the_trend_threshold_line_is_labelled_in_both_languages(tmp_path):
    history = tmp_path / "h.sqlite"
    monitor_once(history, run={"q1": ["d9", "d1"]}, qrels={"q1": {"d1": 1}}, measures=["RR"],
                 thresholds=["RR=0.8"])
    for lang, label in (("en", "RR threshold 0.8"), ("zh", "RR 阈值 0.8")):
        ax = plot_history(history, lang=lang).axes[0]
        threshold = next(line for line in ax.get_lines() if line.get_label() == label)
        assert np.allclose(threshold.get_ydata(), 0.8)
        assert label in [t.get_text() for t in ax.get_legend().get_texts()]
