"""The regression check of a geometric-mean measure: its means and its test, by hand and scipy."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from reteval.monitor import check_regression


def test_a_geometric_mean_is_compared_as_trec_eval_averages_it():
    ids = pd.Index([f"q{i}" for i in range(8)], name="query_id")
    base = pd.DataFrame({"gm_map": [0.5] * 8, "AP": [0.5] * 8}, index=ids)
    current = pd.DataFrame({"gm_map": [0.9] * 7 + [0.0], "AP": [0.9] * 7 + [0.0]}, index=ids)
    report = check_regression(current, base)
    rows = {c.measure: c for c in report.comparisons}
    # the arithmetic mean rose (0.7875); the geometric mean, with the 0 floored, fell
    assert rows["AP"].current_mean == pytest.approx(0.7875)
    gm = math.exp((7 * math.log(0.9) + math.log(0.00001)) / 8)
    assert rows["gm_map"].current_mean == pytest.approx(gm, rel=1e-12)
    assert rows["gm_map"].baseline_mean == pytest.approx(0.5, rel=1e-12)
    logs = np.log(np.maximum(current["gm_map"].to_numpy(), 0.00001))
    expected = stats.ttest_rel(logs, np.log(base["gm_map"].to_numpy())).pvalue
    assert rows["gm_map"].pvalue == pytest.approx(expected, rel=1e-9)
    assert rows["AP"].pvalue == pytest.approx(
        stats.ttest_rel(current["AP"], base["AP"]).pvalue, rel=1e-9)
