"""The upper tail of F and the quantiles of Student's t, in plain Python.

The two-way ANOVA (:func:`reteval.stats.anova`) reports the p-value of its F test and
the margin of error ``t(df; 1 - alpha/2) * sqrt(V_E / n)``. Both are read off the
regularized incomplete beta function, computed here by its continued fraction
(modified Lentz), with the logarithm of the beta function from Stirling's series for
large arguments, as R's ``lbeta`` does: importing ``scipy.special`` for them would take
longer (0.1-0.15 s) than ``reteval compare`` spends on all its statistics. With degrees
of freedom up to a million the values agree with ``scipy.special.fdtrc`` and
``scipy.special.stdtrit`` to 5e-11 (relative; usually 1e-13 or better): the tests check
grids of both against scipy and against closed forms. (Beyond that, far from the tails
of F with one huge and one small number of degrees of freedom, the continued fraction
loses more digits: 3e-9 at 10^8.)

t's tail is the continued fraction up to 10^5 degrees of freedom, Hill's normal
transformation beyond (ACM algorithm 395; its error falls as ``1 / df**2``), the normal
tail at ``df = inf``, and the power law ``c (t / sqrt(df))**-df`` once ``t`` exceeds
``1e10 sqrt(df)``, so that neither ``t * t`` nor ``1 - p`` is ever formed where it
would overflow or cancel: the quantile of ``p = 1e-300`` is as precise as that of
0.975. Over the whole domain the three functions equal scipy's (``scipy.stats.t.sf``,
``scipy.stats.t.ppf``, ``scipy.stats.f.sf``) to 1e-9 relative, except where scipy
itself overflows (a quantile beyond 1e30, ``t * t`` or ``df_num * f`` beyond the largest
double), where they follow the closed forms of the far tails. Where a distribution is
undefined (degrees of freedom ``<= 0``, ``p`` outside [0, 1], NaN; for ``f_sf`` also
infinite degrees of freedom) they return NaN, as scipy does.

Examples
--------
>>> round(f_sf(2, 4, 21.0), 10)   # F(2, 4) upper tail: (1 + 2 * 21 / 4) ** -2
0.0075614367
>>> round(t_ppf(2, 0.975), 10)    # t(2): (2p - 1) / sqrt(2 p (1 - p))
4.3026527297
"""

from __future__ import annotations

import math
from statistics import NormalDist

__all__ = ["betainc", "f_sf", "t_ppf", "t_sf"]

_LN_SQRT_2PI = 0.918938533204672741780329736406  # log(sqrt(2 pi))
_EPS = 1e-16
_TINY = 1e-300
_LOG_MAX = math.log(1.7976931348623157e308)  # of the largest double
# Stirling's series of log Gamma(x) - ((x - 1/2) log x - x + log sqrt(2 pi)): B_2k / (2k (2k - 1))
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156,
             -3617 / 122400)


def _stirling_remainder(x: float) -> float:
    """``lgamma(x) - ((x - 0.5) log x - x + log sqrt(2 pi))`` for ``x >= 10`` (error < 1e-17)."""
    inv2 = 1.0 / (x * x)
    total = 0.0
    for coefficient in reversed(_STIRLING):
        total = total * inv2 + coefficient
    return total / x


def _log_relative(power: float, delta: float, scale: float, other: float) -> float:
    """``log(power * (scale + other) / scale)``, given ``delta = power * (scale + other) - scale``:
    by ``log1p(delta / scale)`` near the mean, where ``delta`` is small, else directly."""
    if abs(delta) < 0.5 * scale:
        return math.log1p(delta / scale)
    return math.log(power) + math.log1p(other / scale)


def _log_power_terms(a: float, b: float, x: float, y: float) -> float:
    """``log(x**a * y**b / B(a, b))`` with ``y = 1 - x``, without the cancellation of large
    logarithms: the powers are taken relative to the mean ``a / (a + b)`` (as R's ``lbeta``
    splits log B for arguments of 10 and more), through ``delta = x b - y a``, the one
    small number both relative powers share near the mean, so that their first-order terms
    cancel exactly there."""
    p, q = min(a, b), max(a, b)
    if p >= 10:
        corr = _stirling_remainder(a) + _stirling_remainder(b) - _stirling_remainder(a + b)
        delta = x * b - y * a  # x (a + b) - a
        return (a * _log_relative(x, delta, a, b) + b * _log_relative(y, -delta, b, a)
                + 0.5 * math.log(a * b / (a + b)) - _LN_SQRT_2PI - corr)
    if q >= 10:  # one small, one large argument
        small_power, large_power = (x, y) if a == p else (y, x)
        corr = _stirling_remainder(q) - _stirling_remainder(p + q)
        delta = large_power * p - small_power * q  # large_power (p + q) - q
        return (p * math.log(small_power * (p + q)) - p - math.lgamma(p) - corr
                + q * _log_relative(large_power, delta, q, p) + 0.5 * math.log(q / (p + q)))
    return (a * math.log(x) + b * math.log(y)
            - (math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)))


def _continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of ``I_x(a, b)`` (Numerical Recipes, section 6.4), by the
    modified Lentz method; it converges quickly for ``x < (a + 1) / (a + b + 2)``."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 1000 + 20 * int(math.sqrt(max(a, b)))):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                   -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + aa / c
            c = c if abs(c) > _TINY else _TINY
            step = d * c
            h *= step
        if abs(step - 1.0) < _EPS:
            break
    return h


def betainc(a: float, b: float, x: float, y: float | None = None) -> float:
    """The regularized incomplete beta function ``I_x(a, b)``, for ``a, b > 0`` (else NaN).

    ``y`` is ``1 - x`` when the caller knows it more precisely than ``1 - x``
    can be computed (a small ``y`` next to an ``x`` close to 1).

    Examples
    --------
    >>> betainc(1.0, 1.0, 0.25)   # the uniform distribution's CDF
    0.25
    >>> round(betainc(2.0, 3.0, 0.5), 12)   # 11/16
    0.6875
    """
    if y is None:
        y = 1.0 - x
    if math.isnan(x) or math.isnan(y) or not (a > 0.0 and b > 0.0):
        return math.nan
    if x <= 0.0:
        return 0.0
    if y <= 0.0:
        return 1.0
    if x > (a + 1.0) / (a + b + 2.0):  # the fraction converges fast on the other side
        return 1.0 - betainc(b, a, y, x)
    return math.exp(_log_power_terms(a, b, x, y)) * _continued_fraction(a, b, x) / a


def f_sf(df_num: float, df_den: float, f: float) -> float:
    """Upper tail ``P(F > f)`` of the F distribution (``scipy.stats.f.sf(f, df_num, df_den)``).

    Defined for finite ``df_num, df_den > 0``; otherwise NaN, as scipy returns (an
    infinite number of degrees of freedom included). Any ``f <= 0`` gives 1.

    Examples
    --------
    >>> f_sf(3, 10, 0.0), f_sf(3, 10, math.inf)
    (1.0, 0.0)
    >>> round(f_sf(1, 10, 4.9646), 4)   # the 5% critical value of F(1, 10)
    0.05
    >>> f_sf(0, 10, 2.0)   # no degrees of freedom: no distribution
    nan
    """
    df_num, df_den, f = float(df_num), float(df_den), float(f)
    if not (0.0 < df_num < math.inf and 0.0 < df_den < math.inf) or math.isnan(f):
        return math.nan
    if f <= 0.0:
        return 1.0
    if math.isinf(f):
        return 0.0
    scaled = df_num * f
    if math.isinf(scaled) or math.isinf(df_den + scaled):  # f near the largest double
        ratio = df_den / df_num / f
        return betainc(df_den / 2.0, df_num / 2.0, ratio / (1.0 + ratio), 1.0 / (1.0 + ratio))
    return betainc(df_den / 2.0, df_num / 2.0, df_den / (df_den + scaled),
                   scaled / (df_den + scaled))


#: From this many degrees of freedom on, t's tail is Hill's normal transformation
#: (ACM algorithm 395), whose error shrinks as ``1 / df**2``; the continued fraction
#: loses digits there.
_HILL_DF = 1e5


def _normal_sf(z: float) -> float:
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def _hill_sf(df: float, t: float) -> float:
    """``P(T > t)`` for ``t >= 0`` and large ``df`` by Hill's transformation (ACM alg. 395)."""
    a = df - 0.5
    b = 48.0 * a * a
    y = a * math.log1p(t / df * t)
    if y > 2000.0:  # z > 44: the tail is below the smallest double
        return 0.0
    z = math.sqrt(y)
    correction = (((-0.4 * y - 3.3) * y - 24.0) * y - 85.5) / (0.8 * y * y + 100.0 + b)
    z *= (correction + y + 3.0) / b + 1.0
    return _normal_sf(z)


#: Beyond ``t = 1e10 sqrt(df)`` t's tail is ``c r**-df`` (``r = t / sqrt(df)``) to the
#: last bit: the next term is ``df (df + 1) / (2 (df + 2) r**2)`` times smaller.
_POWER_LAW_R = 1e10


def _log_power_law(df: float) -> float:
    """``log c`` of the far tail ``P(T > t) = c (t / sqrt(df))**-df``: the density's
    constant ``Gamma((df + 1) / 2) / (sqrt(df pi) Gamma(df / 2))`` over ``sqrt(df)``."""
    return (math.lgamma((df + 1.0) / 2.0) - math.lgamma(df / 2.0)
            - 0.5 * math.log(math.pi) - math.log(df))


def _upper_t_sf(df: float, t: float) -> float:
    """``P(T > t)`` for ``t >= 0`` (finite) and ``df > 0`` (``inf``: the normal tail)."""
    if math.isinf(df):
        return _normal_sf(t)
    if df >= _HILL_DF:
        return _hill_sf(df, t)
    r = t / math.sqrt(df)  # t^2 / df = r^2, kept from overflowing
    if r > _POWER_LAW_R:
        return math.exp(_log_power_law(df) - df * math.log(r))
    square = r * r
    return 0.5 * betainc(df / 2.0, 0.5, 1.0 / (1.0 + square), square / (1.0 + square))


def t_sf(df: float, t: float) -> float:
    """Upper tail ``P(T > t)`` of Student's t distribution (``scipy.stats.t.sf(t, df)``).

    Defined for ``df > 0``, ``df = inf`` being the standard normal distribution;
    NaN for ``df <= 0`` or NaN, as scipy returns.

    Examples
    --------
    >>> t_sf(5, 0.0)
    0.5
    >>> round(t_sf(1, 1.0), 12)   # Cauchy: 1/4
    0.25
    >>> round(t_sf(math.inf, 1.959963984540054), 12)   # the normal distribution
    0.025
    >>> t_sf(0, 1.0)
    nan
    """
    df, t = float(df), float(t)
    if math.isnan(t) or not df > 0.0:
        return math.nan
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    tail = _upper_t_sf(df, abs(t))
    return tail if t >= 0 else 1.0 - tail


def _log_t_density(df: float, t: float) -> float:
    """``log`` of t's density at ``t >= 0``, without overflowing ``t * t`` (``df = inf``:
    the normal density)."""
    if math.isinf(df):
        return -0.5 * t * t - _LN_SQRT_2PI
    r = t / math.sqrt(df)
    log_term = 2.0 * math.log(r) if r > _POWER_LAW_R else math.log1p(r * r)
    return (math.lgamma((df + 1.0) / 2.0) - math.lgamma(df / 2.0)
            - 0.5 * math.log(df * math.pi) - (df + 1.0) / 2.0 * log_term)


def _upper_quantile(df: float, tail: float) -> float:
    """The ``t > 0`` with ``P(T > t) = tail``, for ``0 < tail < 1/2``."""
    if math.isinf(df):
        return -NormalDist().inv_cdf(tail)
    if df == 1:
        return 1.0 / math.tan(math.pi * tail)
    if df == 2:
        return (1.0 - 2.0 * tail) / math.sqrt(2.0 * tail * (1.0 - tail))
    if df < _HILL_DF:  # far in the tail, the power law inverts exactly
        log_r = (_log_power_law(df) - math.log(tail)) / df
        if log_r > math.log(_POWER_LAW_R):
            log_t = log_r + 0.5 * math.log(df)
            return math.exp(log_t) if log_t < _LOG_MAX else math.inf
    z = -NormalDist().inv_cdf(tail)
    t = z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df)
    if not 0.0 < t < math.inf:
        t = z
    # Newton's method on log P(T > t) against log t: nearly a straight line in the tails
    # (slope -df), so the steps stay good from the centre to t = 1e300.
    low, high = 0.0, math.inf  # P(T > low) > tail > P(T > high)
    log_tail = math.log(tail)
    for _ in range(200):
        sf = _upper_t_sf(df, t)
        if sf > tail:
            low = max(low, t)
        else:
            high = min(high, t)
        if sf > 0.0:
            slope = math.exp(_log_t_density(df, t) + math.log(t) - math.log(sf))
            new = t * math.exp(min((math.log(sf) - log_tail) / slope, 700.0))
        else:
            new = math.nan
        if not low < new < high:  # Newton left the bracket: bisect it (or widen it)
            if math.isinf(high):
                new = 16.0 * t
            elif low > 0.0:
                new = math.sqrt(low) * math.sqrt(high)
            else:
                new = 0.5 * high
        if abs(new - t) <= 4 * _EPS * abs(new) or low == high:
            return new
        t = new
    return t


def t_ppf(df: float, p: float) -> float:
    """The ``p`` quantile of Student's t distribution (``scipy.stats.t.ppf(p, df)``).

    Defined for ``df > 0`` (``inf``: the standard normal distribution) and
    ``0 <= p <= 1`` (``-inf`` and ``inf`` at the ends); NaN elsewhere, as scipy
    returns. A small ``p`` is never taken as ``1 - (1 - p)``: the lower tail is
    as precise as the upper one. Newton's method on the logarithm of the tail,
    started from the normal quantile with the first Cornish-Fisher terms (exact
    formulas for 1 and 2 degrees of freedom).

    Examples
    --------
    >>> round(t_ppf(1, 0.75), 12)   # Cauchy: tan(pi / 4) = 1 / tan(pi / 4)
    1.0
    >>> round(t_ppf(30, 0.975), 6)
    2.042272
    >>> round(t_ppf(10, 1e-17), 4), round(t_ppf(math.inf, 0.975), 6)
    (-128.4951, 1.959964)
    """
    df, p = float(df), float(p)
    if math.isnan(p) or not 0.0 <= p <= 1.0 or not df > 0.0:
        return math.nan
    if p == 0.5:
        return 0.0
    if p == 0.0:
        return -math.inf
    if p == 1.0:
        return math.inf
    if p < 0.5:
        return -_upper_quantile(df, p)
    return _upper_quantile(df, 1.0 - p)  # exact: p >= 1/2
