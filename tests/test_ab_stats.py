"""Tests, SRM, Holm, lift and power against statsmodels / scipy reference values."""

import math

import numpy as np
import pytest
from scipy import stats

from reteval.ab.power import (
    minimum_detectable_effect,
    power,
    proportion_effect_size,
    proportion_mde,
    sample_size,
)
from reteval.ab.stats import (
    relative_lift,
    srm_test,
    two_proportion_ztest,
    welch_test,
    z_test,
)
from reteval.errors import InputError


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
    lift, low, high = relative_lift(0.55, 1e-4, 0.50, 1e-4)
    half = 1.959963984540054 * math.sqrt(8.84e-4)  # scipy.stats.norm.ppf(0.975)
    assert lift == pytest.approx(0.1)
    assert (low, high) == pytest.approx((0.1 - half, 0.1 + half), rel=1e-12)
    assert all(math.isnan(x) for x in relative_lift(0.1, 1e-4, 0.0, 1e-4))


@pytest.mark.parametrize(
    "d, n, ratio, alternative, expected",
    [
        # statsmodels.stats.power.NormalIndPower().power(d, n, alpha, ratio=..., alternative=...)
        (0.1, 1000, 1.0, "two-sided", 0.6087794846454566),
        (0.2, 300, 2.0, "two-sided", 0.807430419432557),
        (0.1, 1000, 1.0, "larger", 0.7228115956892014),
        (-0.15, 500, 0.5, "smaller", 0.6147183086406011),
    ],
)
def test_power_matches_statsmodels(d, n, ratio, alternative, expected):
    assert power(d, n, ratio=ratio, alternative=alternative) == pytest.approx(expected, rel=1e-9)


def test_sample_size_and_mde_match_statsmodels():
    # NormalIndPower().solve_power(effect_size=0.1, nobs1=None, alpha=0.05, power=0.8)
    assert sample_size(0.1) == pytest.approx(1569.7721019023288, rel=1e-7)
    # NormalIndPower().solve_power(effect_size=None, nobs1=1570, alpha=0.05, power=0.8)
    # = 0.0999936069875005, where statsmodels' root finder stopped with power 0.8 + 7e-6;
    # ours solves to machine precision, so agreement is to its tolerance.
    mde = minimum_detectable_effect(1570)
    assert mde == pytest.approx(0.0999936069875005, rel=1e-4)
    assert power(mde, 1570) == pytest.approx(0.8, abs=1e-12)


def test_power_against_statsmodels_live():
    smp = pytest.importorskip("statsmodels.stats.power")
    sm_prop = pytest.importorskip("statsmodels.stats.proportion")
    solver = smp.NormalIndPower()
    h = sm_prop.proportion_effectsize(0.55, 0.50)
    assert proportion_effect_size(0.55, 0.50) == pytest.approx(h, rel=1e-12)
    for ratio, alt in ((1.0, "two-sided"), (0.5, "two-sided"), (2.0, "larger")):
        assert power(h, 800, ratio=ratio, alternative=alt) == pytest.approx(
            solver.power(h, 800, 0.05, ratio=ratio, alternative=alt), rel=1e-10)
        assert sample_size(h, power=0.9, ratio=ratio, alternative=alt) == pytest.approx(
            solver.solve_power(h, None, 0.05, 0.9, ratio=ratio, alternative=alt), rel=1e-5)
        assert minimum_detectable_effect(800, ratio=ratio, alternative=alt) == pytest.approx(
            solver.solve_power(None, 800, 0.05, 0.8, ratio=ratio, alternative=alt), rel=1e-4)


def test_proportion_mde_round_trips_through_power():
    delta = proportion_mde(0.30, 2000)
    h = proportion_effect_size(0.30 + delta, 0.30)
    assert power(h, 2000) == pytest.approx(0.8, abs=1e-9)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: power(0.1, 0), "nobs1 must be positive"),
        (lambda: power(0.1, 10, alpha=1.5), "alpha must be in"),
        (lambda: sample_size(0.0), "can never reach power"),
        (lambda: sample_size(-0.2, alternative="larger"), "can never reach power"),
        (lambda: power(0.1, 10, alternative="less"), "alternative must be one of"),
        (lambda: proportion_effect_size(1.2, 0.5), "p1 must be a proportion"),
        (lambda: welch_test(1, 1, 1, 1, 1, 5), "at least 2 observations"),
        (lambda: two_proportion_ztest(11, 10, 1, 10), "count1 must be between 0"),
    ],
)
def test_bad_arguments(call, message):
    with pytest.raises(InputError, match=message):
        call()
