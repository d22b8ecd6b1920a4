"""Tests, SRM, Holm and lift against statsmodels / scipy reference values."""

import math

import numpy as np
import pytest
from scipy import stats

from reteval.ab.stats import (
    relative_lift,
    srm_test,
    two_proportion_ztest,
    welch_test,
    z_test,
)
from reteval.errors import InputError
from reteval.stats import ConfidenceInterval


@pytest.mark.parametrize(
    "c1, n1, c2, n2, alternative, z, p",
    [
        # statsmodels.stats.proportion.proportions_ztest([c1, c2], [n1, n2], alternative=...)
        (60, 100, 45, 100, "two-sided", 2.1239769762143657, 0.033672068856345855),
        (530, 1000, 480, 1000, "two-sided", 2.2361797892846207, 0.025339996552342214),
        (530, 1000, 480, 1000, "larger", 2.2361797892846207, 0.012669998276171107),
        (120, 900, 160, 1100, "smaller", -0.7772046806826514, 0.2185190105607548),
    ],
)
def test_two_proportion_z_matches_statsmodels(c1, n1, c2, n2, alternative, z, p):
    res = two_proportion_ztest(c1, n1, c2, n2, alternative=alternative)
    assert res.statistic == pytest.approx(z, rel=1e-12)
    assert res.pvalue == pytest.approx(p, rel=1e-10)
    assert math.isinf(res.df)


def test_two_proportion_z_against_statsmodels_live():
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    for counts, nobs in (([12, 30], [50, 70]), ([400, 380], [10_000, 9_500])):
        z, p = proportion.proportions_ztest(counts, nobs)
        res = two_proportion_ztest(counts[0], nobs[0], counts[1], nobs[1])
        assert (res.statistic, res.pvalue) == pytest.approx((z, p), rel=1e-12)


def test_welch_matches_scipy_on_raw_values():
    rng = np.random.default_rng(1)
    x, y = rng.normal(1.0, 2.0, 37), rng.normal(0.2, 0.7, 51)
    ref = stats.ttest_ind(x, y, equal_var=False)
    res = welch_test(x.mean(), x.var(ddof=1), len(x), y.mean(), y.var(ddof=1), len(y))
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert res.df == pytest.approx(ref.df, rel=1e-12)
    one = welch_test(x.mean(), x.var(ddof=1), len(x), y.mean(), y.var(ddof=1), len(y),
                     alternative="larger")
    assert one.pvalue == pytest.approx(
        stats.ttest_ind(x, y, equal_var=False, alternative="greater").pvalue, rel=1e-10)


def test_welch_fixed_reference():
    # scipy.stats.ttest_ind_from_stats(3.0, sqrt(2), 10, 2.0, 1.0, 12, equal_var=False)
    res = welch_test(3.0, 2.0, 10, 2.0, 1.0, 12)
    assert res.statistic == pytest.approx(1.8786728732554485, rel=1e-12)
    assert res.pvalue == pytest.approx(0.07884869674216687, rel=1e-9)
    assert res.df == pytest.approx(15.815920398009947, rel=1e-12)


def test_z_test_two_sided():
    # 2 * scipy.stats.norm.sf(2.0) = 0.04550026389635839
    assert z_test(0.02, 0.01).pvalue == pytest.approx(0.04550026389635839, rel=1e-12)
    assert math.isnan(z_test(0.0, 0.0).pvalue)


@pytest.mark.parametrize(
    "observed, shares",
    [([5120, 4880], [0.5, 0.5]), ([1000, 1000, 1100], [1, 1, 1]), ([700, 310], [0.7, 0.3]),
     ([50_500, 49_000], [0.5, 0.5])],
)
def test_srm_matches_scipy_chisquare(observed, shares):
    ref = stats.chisquare(observed, np.sum(observed) * np.array(shares) / np.sum(shares))
    res = srm_test(observed, shares)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    assert res.flagged == (ref.pvalue < 0.001)


def test_srm_flags_a_broken_split():
    # scipy.stats.chisquare([50_500, 49_000]).pvalue = 1.98e-06 < 0.001
    assert srm_test([50_500, 49_000], [0.5, 0.5]).flagged
    assert not srm_test([5120, 4880], [0.5, 0.5]).flagged
    with pytest.raises(InputError, match="same length"):
        srm_test([1, 2, 3], [0.5, 0.5])


def test_relative_lift_by_hand():
    # lift = 0.55/0.50 - 1 = 0.1; var = 1e-4/0.25 + 0.3025*1e-4/0.0625 = 8.84e-4
    res = relative_lift(0.55, 1e-4, 0.50, 1e-4)
    half = 1.959963984540054 * math.sqrt(8.84e-4)  # scipy.stats.norm.ppf(0.975)
    assert res.lift == pytest.approx(0.1)
    assert res.standard_error == pytest.approx(math.sqrt(8.84e-4), rel=1e-12)
    low, high = res.confidence_interval(0.95)
    assert (low, high) == pytest.approx((0.1 - half, 0.1 + half), rel=1e-12)
    zero = relative_lift(0.1, 1e-4, 0.0, 1e-4)
    assert math.isnan(zero.lift) and all(math.isnan(x) for x in zero.confidence_interval())


def test_relative_lift_t_interval_is_the_difference_interval_over_a_known_control():
    # the one convention: with Var(C) = 0 the lift interval is the difference interval / C
    diff = welch_test(0.55, 0.3, 400, 0.50, 0.0, 400)
    lift = relative_lift(0.55, 0.3 / 400, 0.50, 0.0, df=diff.df)
    d_low, d_high = diff.confidence_interval(0.9)
    assert tuple(lift.confidence_interval(0.9)) == pytest.approx((d_low / 0.5, d_high / 0.5),
                                                                  rel=1e-12)
    # t(5) quantile: scipy.stats.t.ppf(0.975, 5)
    wide = relative_lift(0.55, 1e-4, 0.50, 1e-4, df=5).confidence_interval(0.95)
    assert wide.high - wide.low == pytest.approx(2 * 2.5705818366147395 * math.sqrt(8.84e-4))


def test_results_are_frozen_and_intervals_are_reteval_stats_intervals():
    res = z_test(0.02, 0.01)
    with pytest.raises(AttributeError):
        res.pvalue = 0.5
    assert isinstance(res.confidence_interval(), ConfidenceInterval)
    assert isinstance(relative_lift(1.1, 0.01, 1.0, 0.01).confidence_interval(),
                      ConfidenceInterval)
    with pytest.raises(InputError, match="confidence_level"):
        res.confidence_interval(95)
    with pytest.raises(InputError, match="df must be a positive number"):
        relative_lift(1.1, 0.01, 1.0, 0.01, df=0)


def test_z_interval_by_hand_and_one_sided():
    # 0.02 +/- norm.ppf(0.975) * 0.01; one-sided: norm.ppf(0.95) = 1.6448536269514722
    assert tuple(z_test(0.02, 0.01).confidence_interval()) == pytest.approx(
        (0.02 - 0.01959963984540054, 0.02 + 0.01959963984540054), rel=1e-12)
    larger = z_test(0.02, 0.01, alternative="larger").confidence_interval(0.95)
    assert larger.low == pytest.approx(0.02 - 0.016448536269514722) and larger.high == math.inf
    smaller = z_test(0.02, 0.01, alternative="smaller").confidence_interval(0.95)
    assert smaller.low == -math.inf and smaller.high == pytest.approx(0.036448536269514722)


@pytest.mark.parametrize("alternative, sm_alt", [("two-sided", "two-sided"),
                                                 ("larger", "larger"), ("smaller", "smaller")])
def test_welch_interval_matches_statsmodels(alternative, sm_alt):
    weightstats = pytest.importorskip("statsmodels.stats.weightstats")
    rng = np.random.default_rng(4)
    x, y = rng.normal(1.0, 2.0, 23), rng.normal(0.4, 0.8, 41)
    res = welch_test(x.mean(), x.var(ddof=1), len(x), y.mean(), y.var(ddof=1), len(y),
                     alternative=alternative)
    t, p, df = weightstats.ttest_ind(x, y, usevar="unequal", alternative=sm_alt)
    assert (res.statistic, res.pvalue, res.df) == pytest.approx((t, p, df), rel=1e-10)
    cm = weightstats.CompareMeans(weightstats.DescrStatsW(x), weightstats.DescrStatsW(y))
    low, high = cm.tconfint_diff(alpha=0.1, usevar="unequal", alternative=sm_alt)
    assert tuple(res.confidence_interval(0.9)) == pytest.approx((low, high), rel=1e-10)


def test_two_proportion_interval_is_the_unpooled_wald_interval():
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    res = two_proportion_ztest(530, 1000, 480, 1000)
    # statsmodels: confint_proportions_2indep(530, 1000, 480, 1000, method="wald")
    low, high = proportion.confint_proportions_2indep(530, 1000, 480, 1000, method="wald",
                                                     alpha=0.05)
    assert tuple(res.confidence_interval(0.95)) == pytest.approx((low, high), rel=1e-12)
    assert res.estimate == pytest.approx(0.05)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: welch_test(1, 1, 1, 1, 1, 5), "at least 2 observations"),
        (lambda: two_proportion_ztest(11, 10, 1, 10), "count1 must be between 0"),
    ],
)
def test_bad_arguments(call, message):
    with pytest.raises(InputError, match=message):
        call()
