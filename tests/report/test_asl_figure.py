"""The ASL-curve figure of discriminative power (reteval.report.figures.plot_asl_curves)."""

import pandas as pd
import pytest

from reteval.errors import InputError
from reteval.report.figures import plot_asl_curves
from reteval.stats import discriminative_power

SCORES = pd.DataFrame({"a": [0.4, 0.6, 0.8, 0.7, 0.9], "b": [0.3, 0.4, 0.8, 0.5, 0.6],
                       "c": [0.1, 0.3, 0.5, 0.4, 0.2]})


def test_one_line_per_result_sorted_by_asl_with_the_alpha_line():
    results = {"t": discriminative_power(SCORES, test="t"),
               "wilcoxon": discriminative_power(SCORES, test="wilcoxon")}
    ax = plot_asl_curves(results).axes[0]
    lines = ax.get_lines()
    assert len(lines) == 3  # two curves and alpha
    for line, result in zip(lines[:2], results.values(), strict=True):
        assert list(line.get_ydata()) == sorted(result.pvalues)
    assert list(lines[2].get_ydata()) == [0.05, 0.05]


def test_chinese_labels():
    ax = plot_asl_curves({"AP": discriminative_power(SCORES, test="t")}, lang="zh").axes[0]
    assert ax.get_xlabel() == "检索器对（按达到的显著性水平排序）"
    assert ax.get_lines()[0].get_label().startswith("AP：")


def test_results_at_different_alphas_are_refused():
    with pytest.raises(InputError, match="same alpha"):
        plot_asl_curves({"x": discriminative_power(SCORES, test="t", alpha=0.05),
                         "y": discriminative_power(SCORES, test="t", alpha=0.1)})
    with pytest.raises(InputError, match="non-empty mapping"):
        plot_asl_curves({})
