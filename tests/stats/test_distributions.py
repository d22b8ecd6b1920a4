"""F's upper tail and t's quantiles in plain Python, against scipy.special and closed forms."""

from __future__ import annotations

import itertools
import math
from decimal import Decimal, getcontext

import pytest
from scipy import special, stats

from reteval.stats.distributions import betainc, f_sf, t_ppf, t_sf

DF_NUM = [1, 2, 3, 5, 19, 20, 23, 99, 999]
DF_DEN = [1, 2, 3, 4, 10, 19, 23, 105, 931, 10**4, 10**5, 10**6]
F_VALUES = [1e-30, 1e-12, 1e-6, 1e-3, 0.1, 0.5, 0.9, 1.0, 1.1, 2.0, 3.0, 5.0, 15.8, 100.0, 1e4,
            1e8, 1e12, 1e30, 1e300]


@pytest.mark.parametrize("df_num", DF_NUM)
def test_f_sf_matches_scipy_fdtrc(df_num):
    for df_den, f in itertools.product(DF_DEN, F_VALUES):
        expected = float(special.fdtrc(df_num, df_den, f))
        if expected < 1e-290:  # below the doubles scipy still separates from 0
            assert f_sf(df_num, df_den, f) < 1e-280
            continue
        assert f_sf(df_num, df_den, f) == pytest.approx(expected, rel=5e-11), (df_den, f)


@pytest.mark.parametrize("df_den", [4, 10, 931, 10**4, 10**6])
def test_f_sf_with_two_numerator_degrees_is_a_power(df_den):
    # F(2, d) has P(F > f) = (1 + 2 f / d) ** (-d / 2): checked in 60-digit decimals
    getcontext().prec = 60
    for f in [0.01, 0.5, 1.1, 3.0, 20.0]:
        exact = float((1 + 2 * Decimal(f) / Decimal(df_den)) ** (-(Decimal(df_den) / 2)))
        assert f_sf(2, df_den, f) == pytest.approx(exact, rel=5e-11)


def test_f_sf_edges():
    assert f_sf(3, 10, 0.0) == 1.0 and f_sf(3, 10, -1.0) == 1.0
    assert f_sf(3, 10, math.inf) == 0.0
    assert math.isnan(f_sf(3, 10, math.nan))
    # F(1, d) is t(d) squared: P(F > t^2) = 2 P(T > t)
    assert f_sf(1, 7, 2.5 ** 2) == pytest.approx(2 * float(special.stdtr(7, -2.5)), rel=1e-13)


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5, 7, 10, 19, 30, 105, 931, 10**4, 10**5, 10**6])
def test_t_ppf_matches_scipy_stdtrit(df):
    for p in [0.6, 0.75, 0.9, 0.95, 0.975, 0.995, 0.9995, 1 - 1e-9, 1 - 1e-14, 0.3, 0.025]:
        assert t_ppf(df, p) == pytest.approx(float(special.stdtrit(df, p)), rel=5e-11), p


def test_t_ppf_closed_forms_and_edges():
    for p in [0.55, 0.9, 0.975, 0.999]:
        assert t_ppf(1, p) == pytest.approx(math.tan(math.pi * (p - 0.5)), rel=1e-12)  # Cauchy
        assert t_ppf(2, p) == pytest.approx((2 * p - 1) / math.sqrt(2 * p * (1 - p)), rel=1e-12)
    # far in the Cauchy tail P(T > t) = atan(1 / t) / pi, about 1 / (pi t)
    p = 1 - 1e-12
    assert t_ppf(1, p) == pytest.approx(1 / (math.pi * (1 - p)), rel=1e-9)
    assert t_ppf(8, 0.5) == 0.0
    assert t_ppf(8, 1.0) == math.inf and t_ppf(8, 0.0) == -math.inf
    assert math.isnan(t_ppf(8, 1.5)) and math.isnan(t_ppf(8, math.nan))
    # near the centre, P(T > t) = 1/2 - t f(0) to first order: f(0) = 3/8 for 4 degrees
    assert t_ppf(4, 0.5 + 1e-7) == pytest.approx((0.5 + 1e-7 - 0.5) / 0.375, rel=1e-8)


def test_t_sf_matches_scipy_and_is_the_inverse_of_t_ppf():
    for df, t in itertools.product([1, 2, 3, 5, 10, 931, 10**6], [0.01, 0.5, 1.0, 2.0, 5.0, -2.5]):
        assert t_sf(df, t) == pytest.approx(float(special.stdtr(df, -t)), rel=5e-11), (df, t)
        assert t_ppf(df, 1 - t_sf(df, t)) == pytest.approx(t, rel=1e-9)
    assert t_sf(3, math.inf) == 0.0 and t_sf(3, -math.inf) == 1.0


def test_betainc_by_hand():
    assert betainc(1.0, 1.0, 0.25) == 0.25  # uniform
    assert betainc(2.0, 3.0, 0.5) == pytest.approx(11 / 16, rel=1e-14)  # 1 - 4/16 - 1/16
    assert betainc(3.0, 1.0, 0.4) == pytest.approx(0.4 ** 3, rel=1e-14)  # x^a when b = 1
    assert betainc(2.0, 2.0, 0.0) == 0.0 and betainc(2.0, 2.0, 1.0) == 1.0
    for a, b, x in itertools.product([0.5, 2.0, 30.0, 4000.0], [0.5, 7.0, 250.0], [0.1, 0.5, 0.9]):
        assert betainc(a, b, x) == pytest.approx(float(special.betainc(a, b, x)), rel=1e-11,
                                                 abs=1e-300)


# --------------------------------------------------------------------------- the whole domain

DF_ALL = [0.05, 0.5, 1, 1.5, 2, 3, 4.5, 10, 30, 99.5, 1e3, 1e4, 99_999, 1e5, 1e6, 1e8, 1e12,
          1e300, math.inf]
P_LOW = [1e-300, 1e-200, 1e-100, 1e-30, 1e-17, 1e-10, 1e-5, 0.01, 0.025, 0.3, 0.4999]


@pytest.mark.parametrize("df", DF_ALL)
def test_t_ppf_over_the_whole_domain(df):
    for p in P_LOW + [1 - q for q in P_LOW if q > 1e-16] + [1 - 2 ** -53]:
        t = t_ppf(df, p)
        expected = float(stats.t.ppf(p, df))
        if abs(expected) < 1e30:
            # where scipy's own quantile is reliable (not near its overflow of t * t)
            assert t == pytest.approx(expected, rel=1e-9), p
        if math.isfinite(t) and abs(t) < 1e150:
            # the other way round: scipy's distribution function at our quantile
            tail = min(p, 1 - p)
            assert float(special.stdtr(df, -abs(t))) == pytest.approx(tail, rel=1e-8), p


@pytest.mark.parametrize(("df", "p", "expected"), [
    (10, 1e-17, -128.49509145889274),  # scipy.stats.t.ppf(1e-17, 10)
    (math.inf, 0.975, 1.959963984540054),  # the normal quantile
    (math.inf, 1e-300, -37.04709629936121),  # scipy.stats.norm.ppf(1e-300)
    (1e20, 0.975, 1.959963984540054),
    (1, 1e-300, -1 / (math.pi * 1e-300)),  # Cauchy: -1 / tan(pi p)
    (2, 1e-200, -1 / math.sqrt(2e-200)),  # t(2): (2p - 1) / sqrt(2 p (1 - p))
    # t(3)'s far tail is c r**-3 with r = t / sqrt(3), c = Gamma(2) / (sqrt(3 pi) Gamma(1.5))
    # / sqrt(3) = 2 / (3 pi): t = sqrt(3) (2 / (3 pi p)) ** (1/3)
    (3, 1e-200, -math.sqrt(3) * (2 / (3 * math.pi)) ** (1 / 3) * 1e200 ** (1 / 3)),
    (0.05, 1e-17, -math.inf),  # beyond the largest double
    (1, 5e-324, -math.inf),
    (10, 0.0, -math.inf), (10, 1.0, math.inf), (math.inf, 0.5, 0.0),
])
def test_t_ppf_by_hand(df, p, expected):
    assert t_ppf(df, p) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(("df", "p"), [
    (0, 0.5), (0, 0.9), (-1, 0.9), (math.nan, 0.9), (-math.inf, 0.9), (5, -0.1), (5, 1.5),
    (5, math.nan), (math.inf, math.nan),
])
def test_t_ppf_undefined_is_nan_as_in_scipy(df, p):
    assert math.isnan(t_ppf(df, p))
    assert math.isnan(float(stats.t.ppf(p, df)))


TS = [0.0, 1e-300, 1e-10, 0.3, 1.0, 2.5, 10.0, 37.0, 100.0, 1e5, 1e9, 1e11, 1e30, 1e140]


@pytest.mark.parametrize("df", DF_ALL)
def test_t_sf_over_the_whole_domain(df):
    for t in TS:
        for signed in (t, -t):
            expected = float(stats.t.sf(signed, df))
            assert t_sf(df, signed) == pytest.approx(expected, rel=1e-9, abs=1e-300), signed
    assert t_sf(df, math.inf) == 0.0 and t_sf(df, -math.inf) == 1.0


@pytest.mark.parametrize(("df", "t", "expected"), [
    (math.inf, 2.0, 0.022750131948179195),  # scipy.stats.norm.sf(2.0)
    (math.inf, 37.0, 5.725571222524e-300),  # scipy.stats.norm.sf(37.0)
    (1, 1e160, 1 / (math.pi * 1e160)),  # Cauchy: atan(1 / t) / pi (scipy overflows t * t)
    (1, 1e300, 1 / (math.pi * 1e300)),
    (2, 1e100, 5e-201),  # t(2): (1 - t / sqrt(2 + t^2)) / 2, about 1 / (2 t^2)
])
def test_t_sf_by_hand(df, t, expected):
    assert t_sf(df, t) == pytest.approx(expected, rel=1e-11)


@pytest.mark.parametrize(("df", "t"), [(0, 1.0), (-1, 1.0), (math.nan, 1.0), (5, math.nan),
                                       (0, math.inf)])
def test_t_sf_undefined_is_nan_as_in_scipy(df, t):
    assert math.isnan(t_sf(df, t))
    assert math.isnan(float(stats.t.sf(t, df)))


@pytest.mark.parametrize(("df_num", "df_den", "f"), [
    (0, 10, 2.0), (3, 0, 2.0), (-1, 3, 2.0), (3, -2, 0.5), (math.inf, 10, 2.0),
    (3, math.inf, 2.0), (math.inf, math.inf, 1.0), (math.nan, 3, 1.0),
    (3, 10, math.nan), (0, 0, 0.0),
])
def test_f_sf_undefined_is_nan_as_in_scipy(df_num, df_den, f):
    assert math.isnan(f_sf(df_num, df_den, f))
    assert math.isnan(float(stats.f.sf(f, df_num, df_den)))


@pytest.mark.parametrize("df_num", [0.05, 0.5, 1, 4.5, 1e3, 1e6])
def test_f_sf_over_the_whole_domain(df_num):
    for df_den, f in itertools.product([0.05, 0.5, 1, 4.5, 30, 1e4, 1e6],
                                       [-1.0, 0.0, 1e-300, 1e-10, 0.5, 1.0, 3.0, 1e10, 1e300,
                                        1.7e308, math.inf]):
        if math.isinf(df_num * f) and math.isfinite(f):
            # scipy overflows df_num * f; so far out P(F > f) falls as f ** (-df_den / 2)
            expected = float(stats.f.sf(1e300, df_num, df_den)) * (f / 1e300) ** (-df_den / 2)
        else:
            expected = float(stats.f.sf(f, df_num, df_den))
        assert f_sf(df_num, df_den, f) == pytest.approx(expected, rel=1e-9, abs=1e-300), (
            df_den, f)
