"""The two-way ANOVA at its edges: no residual variance, scores near the largest double."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from reteval.stats import anova, tukey_hsd
from reteval.stats.arrays import NO_RESIDUAL_VARIANCE

RNG = np.random.default_rng(37)
BASE = RNG.random(20)


@pytest.mark.parametrize(("name", "scores"), [
    ("a system and its exact copy", np.column_stack([BASE, BASE])),
    ("three copies", np.column_stack([BASE, BASE, BASE])),
    ("a copy shifted by a constant", np.column_stack([BASE, BASE + 0.1])),
    ("system plus topic effects, exactly additive",
     np.add.outer(np.arange(6) / 8, np.array([0.0, 0.25, 0.5]))),
    ("the same score everywhere", np.full((5, 4), 0.3)),
    ("a large copy", np.column_stack([BASE, BASE]) * 1e155),
])
def test_no_residual_variance_is_no_test(name, scores):
    res = anova(scores)
    assert res.ss_residual == 0.0 and res.residual_variance == 0.0, name
    assert math.isnan(res.statistic) and math.isnan(res.pvalue), name
    assert math.isnan(res.topic_statistic) and math.isnan(res.topic_pvalue), name
    assert res.note == NO_RESIDUAL_VARIANCE
    assert res.margin_of_error() == 0.0


def test_exact_copies_never_test_significant():
    # before: F(1, 19) = 19 from rounding noise, p < 0.05 for most random vectors
    for _ in range(200):
        x = RNG.random(20)
        res = anova(np.column_stack([x, x]))
        assert math.isnan(res.pvalue) and res.ss_system == 0.0


def test_a_copy_leaves_a_residual_when_a_third_system_differs():
    x = np.column_stack([BASE, BASE, BASE[::-1]])
    res = anova(x)
    # by hand: the mean-centred residuals of the two-way table
    resid = x - x.mean(axis=0) - x.mean(axis=1, keepdims=True) + x.mean()
    assert res.ss_residual == pytest.approx((resid ** 2).sum(), rel=1e-12)
    assert res.note == "" and 0 < res.pvalue <= 1


def test_studentized_tukey_of_copies_has_no_pvalue():
    res = tukey_hsd(np.column_stack([BASE, BASE, BASE]), method="studentized")
    p = res.pvalue.to_numpy()
    assert np.isnan(p[np.triu_indices(3, 1)]).all() and (np.diag(p) == 1.0).all()
    assert not res.significant().to_numpy().any()


@pytest.mark.parametrize("factor", [1e-300, 1e-150, 1.0, 1e100, 1e150, 1e155, 1e300])
def test_scale_does_not_change_f(factor):
    x = np.array([[0.4, 0.3, 0.1], [0.6, 0.4, 0.3], [0.8, 0.8, 0.5]])
    # the worked example of the docstring: F(2, 4) = 21, p = (1 + 2 * 21 / 4) ** -2
    res = anova(x * factor)
    assert res.statistic == pytest.approx(21.0, rel=1e-12), factor
    assert res.pvalue == pytest.approx((1 + 2 * 21 / 4) ** -2, rel=1e-10), factor
    # topics: S_B = 3 (0.2^2 + (1/30)^2 + (7/30)^2) = 0.28667, S_E = 4 V_E = 0.01333
    assert res.topic_statistic == pytest.approx((0.86 / 3 / 2) / (0.04 / 3 / 4), rel=1e-9)


def test_large_scores_match_scipy_on_the_scaled_problem():
    x = RNG.random((8, 4))
    ref = anova(x)
    big = anova(x * 1e155)
    # F is scale-free; the sums of squares scale by the square (inf beyond the doubles)
    assert big.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert big.pvalue == pytest.approx(float(stats.f.sf(ref.statistic, 3, 21)), rel=1e-9)
    assert big.ss_system == math.inf or big.ss_system == pytest.approx(ref.ss_system * 1e310)
    frame = pd.DataFrame(x * 1e155)
    assert anova(frame).statistic == pytest.approx(ref.statistic, rel=1e-12)


@pytest.mark.parametrize("factor", [1e-300, 1.0, 1e155, 1e300])
def test_paired_statistics_keep_their_value_at_any_scale(factor):
    from reteval.stats import paired_t_test, trisk

    x, y = RNG.random(10), RNG.random(10)
    ref = stats.ttest_rel(x, y)  # scipy on the unscaled scores (it overflows at 1e155)
    res = paired_t_test(x * factor, y * factor)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    # TRisk with alpha = 0 is the paired t statistic
    assert trisk(x * factor, y * factor, alpha=0).statistic == pytest.approx(ref.statistic,
                                                                             rel=1e-12)
