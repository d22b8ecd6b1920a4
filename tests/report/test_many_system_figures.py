"""Figures of many systems: per-query lines and Tukey HSD's simultaneous intervals."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import studentized_range

from reteval.errors import InputError
from reteval.report.figures import plot_query_lines, plot_tukey_intervals
from reteval.stats import tukey_hsd

SCORES = pd.DataFrame({"a": [0.2, 0.5, 0.9, 0.4, 0.3], "b": [0.3, 0.7, 1.0, 0.6, 0.6],
                       "c": [0.2, 0.4, 0.8, 0.5, 0.1]}, index=["q1", "q2", "q3", "q4", "q5"])


def test_query_lines_draw_every_query_and_the_means():
    ax = plot_query_lines(SCORES, measure="AP").axes[0]
    lines = ax.get_lines()
    assert len(lines) == 6  # five queries, then the means
    assert np.allclose(lines[2].get_ydata(), [0.9, 1.0, 0.8])
    assert np.allclose(lines[-1].get_ydata(), [2.3 / 5, 3.2 / 5, 2.0 / 5])
    assert ax.get_ylabel() == "AP per query"


def test_query_lines_speak_chinese():
    ax = plot_query_lines(SCORES, measure="AP", lang="zh").axes[0]
    assert ax.get_xlabel() == "检索器"
    assert "每条线是一个查询（5 个）" in ax.get_title()


def test_query_lines_need_two_systems():
    with pytest.raises(InputError, match="two or more systems"):
        plot_query_lines(SCORES[["a"]])


def _residual_variance(frame):
    """Two-way ANOVA without replication, by hand: residual sum of squares / ((n-1)(m-1))."""
    x = frame.to_numpy()
    resid = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0, keepdims=True) + x.mean()
    n, m = x.shape
    return (resid ** 2).sum() / ((n - 1) * (m - 1))


def test_tukey_intervals_are_the_studentized_range_intervals():
    fig = plot_tukey_intervals(tukey_hsd(SCORES, method="studentized"), measure="AP")
    ax = fig.axes[0]
    n, m = SCORES.shape
    q = studentized_range.ppf(0.95, m, (n - 1) * (m - 1))
    half = q * np.sqrt(_residual_variance(SCORES) / n)
    means = SCORES.mean()
    expected = {"a − b": means["a"] - means["b"], "a − c": means["a"] - means["c"],
                "b − c": means["b"] - means["c"]}
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == list(expected)
    # lines come in pairs per row, top row first: the interval, then the mean's marker
    lines = ax.get_lines()
    for i, label in enumerate(labels):
        interval, point = lines[2 * i], lines[2 * i + 1]
        assert np.allclose(interval.get_xdata(), [expected[label] - half, expected[label] + half])
        assert np.isclose(point.get_xdata()[0], expected[label])
    # b − c: 0.24 apart, beyond the half-width; filled marker iff the interval excludes 0
    assert half < 0.24
    faces = {label: lines[2 * i + 1].get_markerfacecolor() for i, label in enumerate(labels)}
    assert faces["b − c"] == "black"
    assert faces["a − c"] == "white"


def test_tukey_intervals_in_chinese_and_a_wrong_input():
    fig = plot_tukey_intervals(tukey_hsd(SCORES, method="studentized"), measure="AP", lang="zh")
    assert fig.axes[0].get_title() == "Tukey HSD：95% 同时置信区间（学生化极差）"
    with pytest.raises(InputError, match="tukey_hsd"):
        plot_tukey_intervals(SCORES)
