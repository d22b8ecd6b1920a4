"""Planning an experiment: power, sample size and minimum detectable effect.

Two designs, one vocabulary. Every function takes the same keyword options,
``alpha`` (the test's level), ``power`` (the target probability of a
significant result), ``alternative`` (``"two-sided"``, ``"larger"``,
``"smaller"``, as statsmodels names them) and, for two groups, ``ratio``
(``nobs2 / nobs1``).

**A test collection** (offline evaluation): two systems run on the same
``n`` queries and are compared with the paired t test of their per-query
differences. With true mean difference ``delta``, standard deviation ``sd``
of the differences (``result.sd_difference`` of a pilot comparison) and
effect ``e = delta / sd``, the statistic is noncentral t with ``n - 1``
degrees of freedom and noncentrality ``e * sqrt(n)``; the two-sided power
counts both rejection regions, ``P(T > c) + P(T < -c)`` with ``c`` the
``1 - alpha/2`` quantile of t. This is
``statsmodels.stats.power.TTestPower``. Functions:
:func:`paired_t_power`, :func:`queries_needed` (rounded up),
:func:`minimum_detectable_difference` (in the metric's units).

**Many systems on one collection**: ``m`` systems compared by a one-way
ANOVA (Sakai's topic set size design). The smallest true range of system
means worth detecting is ``min_range`` (minD) and ``variance`` the residual
variance ``sigma^2`` (estimated from pilot data with :func:`pilot_variance`,
the ``residual_variance`` of :func:`reteval.stats.anova`). In the least
favourable configuration (two systems ``minD`` apart, the others in the
middle) F is noncentral with ``m - 1`` and ``m (n - 1)`` degrees of freedom and
noncentrality ``n minD^2 / (2 sigma^2)``. This is
``statsmodels.stats.power.FTestAnovaPower`` with effect size
``f = minD / sqrt(2 m sigma^2)`` and ``nobs = m n``. Functions:
:func:`anova_power`, :func:`queries_needed_anova` (rounded up),
:func:`pilot_variance`.

**An A/B experiment** (online): two independent groups of ``nobs1`` and
``nobs2 = ratio * nobs1`` users and a normal test. Everything is in
standardised units: the effect size ``d`` is the true difference divided by
the per-observation standard deviation (Cohen's d), or for two proportions
Cohen's ``h = 2 asin(sqrt(p1)) - 2 asin(sqrt(p2))`` (:func:`proportion_effect_size`),
the difference on the variance-stabilised arcsine scale. The statistic is
normal with mean ``d * sqrt(n_eff)``, ``n_eff = 1 / (1/nobs1 + 1/nobs2)``, so
a two-sided test has power::

    Phi(d sqrt(n_eff) - z) + Phi(-d sqrt(n_eff) - z),    z = Phi^-1(1 - alpha/2)

and one-sided tests keep only the first (``"larger"``) or second
(``"smaller"``) term with ``z = Phi^-1(1 - alpha)``. This is
``statsmodels.stats.power.NormalIndPower``. Functions:
:func:`two_sample_power`, :func:`two_sample_size` (not rounded: take the
ceiling), :func:`minimum_detectable_effect` (standardised) and
:func:`proportion_mde` (as a rate). :mod:`reteval.ab` gives the first two
their A/B names (``power``, ``sample_size``).

A covariate that removes a share ``r`` of the variance (CUPED, see
:mod:`reteval.ab.cuped`; ``r = rho^2`` for a pre-period metric correlated
``rho`` with the metric) shrinks the standard deviation by ``sqrt(1 - r)``:
``variance_reduction=r`` reads the effect, still standardised by the
unadjusted standard deviation, as ``d / sqrt(1 - r)``. The sample size is
then ``1 - r`` times the unadjusted one and the minimum detectable effect
``sqrt(1 - r)`` times.

One-sided tests need an effect in their direction: a sample size for
``delta < 0`` with ``alternative="larger"`` is an error, not infinity.
"""

from __future__ import annotations

import math

import numpy as np

from reteval._util.lazy import LazyModule
from reteval._util.validation import check_alternative, check_probability
from reteval.errors import InputError

_st = LazyModule("scipy.stats")
optimize = LazyModule("scipy.optimize")
special = LazyModule("scipy.special")

__all__ = [
    "anova_power",
    "minimum_detectable_difference",
    "minimum_detectable_effect",
    "paired_t_power",
    "pilot_variance",
    "proportion_effect_size",
    "proportion_mde",
    "queries_needed",
    "queries_needed_anova",
    "two_sample_power",
    "two_sample_size",
]


# ----------------------------------------------------------------- shared checks


def _check_positive(value, name: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        v = math.nan
    if not (v > 0 and math.isfinite(v)):
        raise InputError(f"{name} must be a positive number; got {value!r}")
    return v


def _check_levels(alpha, power, alternative: str) -> tuple[float, float]:
    alpha = check_probability(alpha, "alpha")
    check_alternative(alternative)
    if power is None:
        return alpha, math.nan
    power = check_probability(power, "power")
    if power <= alpha:
        raise InputError(f"power must exceed alpha ({alpha}); got {power}")
    return alpha, power


def _reduction(variance_reduction) -> float:
    """``1 / sqrt(1 - r)``: the factor a variance reduction ``r`` in [0, 1) gives effects."""
    r = check_probability(variance_reduction, "variance_reduction", closed=True)
    if r >= 1:
        raise InputError(f"variance_reduction must be below 1 (a share of the variance "
                         f"removed); got {variance_reduction!r}")
    return 1 / math.sqrt(1 - r)


def _check_direction(effect: float, alternative: str, power: float) -> None:
    if effect == 0 or (alternative == "larger" and effect < 0) or (
            alternative == "smaller" and effect > 0):
        raise InputError(f"an effect of {effect!r} can never reach power {power} with "
                         f"alternative={alternative!r}")


def _solve(gap, low: float, high: float, *, xtol: float) -> float:
    """Root of an increasing ``gap`` above ``low``, doubling ``high`` until it brackets."""
    while gap(high) < 0:
        high *= 2.0
        if high > 1e15:
            raise InputError("the effect is too small to plan for")
    return float(optimize.brentq(gap, low, high, xtol=xtol, rtol=1e-14))


def _tail_sum(upper: float, lower: float, alternative: str) -> float:
    if alternative == "larger":
        return upper
    if alternative == "smaller":
        return lower
    return upper + lower


# ----------------------------------------------------------------- paired t test


def _paired_power(effect: float, n: float, alpha: float, alternative: str) -> float:
    df = n - 1
    crit = _st.t.isf(alpha / 2 if alternative == "two-sided" else alpha, df)
    nc = effect * math.sqrt(n)
    upper = float(_st.nct.sf(crit, df, nc))
    lower = float(special.nctdtr(df, nc, -crit))
    if math.isnan(lower):  # underflow far in the tail opposite to a positive effect
        lower = 0.0
    return _tail_sum(upper, lower, alternative)


def _check_queries(n_queries) -> float:
    n = _check_positive(n_queries, "n_queries")
    if n < 2:
        raise InputError(f"n_queries must be at least 2; got {n_queries!r}")
    return n


def paired_t_power(delta: float, sd: float, n_queries: int, *, alpha: float = 0.05,
                   alternative: str = "two-sided") -> float:
    """Power of the paired t test on ``n_queries`` queries.

    The probability of a significant result at level ``alpha`` when the
    true mean difference is ``delta`` and the per-query differences have
    standard deviation ``sd`` (see the module docstring). Agrees with
    ``statsmodels.stats.power.TTestPower().power(delta / sd, n_queries,
    alpha, alternative=alternative)``.

    Examples
    --------
    >>> round(paired_t_power(0.02, 0.1, 200), 4)
    0.8037
    >>> round(paired_t_power(0.02, 0.1, 200, alternative="larger"), 4)
    0.8798
    """
    delta = float(delta)
    sd = _check_positive(sd, "sd")
    alpha, _ = _check_levels(alpha, None, alternative)
    n = _check_queries(n_queries)
    effect = delta / sd
    if alternative == "two-sided":
        effect = abs(effect)
    return _paired_power(effect, n, alpha, alternative)


def queries_needed(delta: float, sd: float, *, alpha: float = 0.05, power: float = 0.8,
                   alternative: str = "two-sided") -> int:
    """Number of queries a paired t test needs to detect a mean difference ``delta``.

    ``sd`` is the standard deviation of the per-query differences between the
    two systems, estimated from a pilot comparison (``result.sd_difference``
    of any paired test of :mod:`reteval.stats`). Solves :func:`paired_t_power`
    ``= power`` for ``n`` and rounds up; the unrounded ``n`` agrees with
    ``statsmodels.stats.power.TTestPower().solve_power(effect_size=delta / sd,
    alpha=alpha, power=power, alternative=alternative)``.

    Examples
    --------
    >>> queries_needed(0.02, 0.1)          # detect +0.02 nDCG when sd(diff) = 0.1
    199
    """
    delta = float(delta)
    if not (delta != 0 and math.isfinite(delta)):
        raise InputError(f"delta must be a nonzero finite difference; got {delta!r}")
    sd = _check_positive(sd, "sd")
    alpha, power = _check_levels(alpha, power, alternative)
    _check_direction(delta, alternative, power)
    effect = abs(delta) / sd if alternative == "two-sided" else delta / sd
    if _paired_power(effect, 2.0, alpha, alternative) >= power:
        return 2
    n = _solve(lambda m: _paired_power(effect, m, alpha, alternative) - power, 2.0, 4.0,
               xtol=1e-10)
    return math.ceil(n - 1e-9)


def minimum_detectable_difference(sd: float, n_queries: int, *, alpha: float = 0.05,
                                  power: float = 0.8, alternative: str = "two-sided") -> float:
    """Smallest true mean difference a paired t test on ``n_queries`` queries detects.

    The ``delta`` with :func:`paired_t_power` ``(delta, sd, n_queries) = power``,
    in the metric's units (negative for ``alternative="smaller"``); agrees
    with ``sd * TTestPower().solve_power(nobs=n_queries, alpha=alpha,
    power=power, alternative=alternative)`` from statsmodels.

    Examples
    --------
    >>> round(minimum_detectable_difference(0.1, 50), 4)
    0.0404
    """
    sd = _check_positive(sd, "sd")
    n = _check_queries(n_queries)
    alpha, power = _check_levels(alpha, power, alternative)
    sign = -1.0 if alternative == "smaller" else 1.0
    effect = _solve(lambda e: _paired_power(sign * e, n, alpha, alternative) - power, 0.0, 1.0,
                    xtol=1e-14)
    return sign * effect * sd


# ----------------------------------------------------------------- many systems: one-way ANOVA


def _check_systems(n_systems) -> int:
    if isinstance(n_systems, bool) or not isinstance(n_systems, (int, np.integer)) \
            or n_systems < 2:
        raise InputError(f"n_systems must be an integer >= 2; got {n_systems!r}")
    return int(n_systems)


def _anova_power(min_range: float, variance: float, m: int, n: float, alpha: float) -> float:
    df_num, df_den = m - 1, m * (n - 1)
    crit = _st.f.isf(alpha, df_num, df_den)
    nc = n * min_range ** 2 / (2 * variance)
    return float(_st.ncf.sf(crit, df_num, df_den, nc))


def anova_power(min_range: float, variance: float, n_systems: int, n_queries: int, *,
                alpha: float = 0.05) -> float:
    """Power of a one-way ANOVA of ``n_systems`` systems on ``n_queries`` topics.

    The probability that F is significant at level ``alpha`` when the true
    system means span at least ``min_range`` and the residual variance is
    ``variance`` (see the module docstring). Agrees with
    ``FTestAnovaPower().power(min_range / sqrt(2 * n_systems * variance),
    n_systems * n_queries, alpha, k_groups=n_systems)`` from statsmodels.

    Examples
    --------
    >>> round(anova_power(0.1, 0.02, 5, 30), 4)
    0.5574
    """
    min_range = _check_positive(min_range, "min_range")
    variance = _check_positive(variance, "variance")
    m = _check_systems(n_systems)
    alpha = check_probability(alpha, "alpha")
    n = _check_queries(n_queries)
    return _anova_power(min_range, variance, m, n, alpha)


def queries_needed_anova(min_range: float, variance: float, n_systems: int, *,
                         alpha: float = 0.05, power: float = 0.8) -> int:
    """Topics a one-way ANOVA of ``n_systems`` systems needs to detect a range ``min_range``.

    Sakai's topic set size design by ANOVA: the smallest ``n`` with
    :func:`anova_power` ``>= power``. ``variance`` is the residual variance
    of pilot data (:func:`pilot_variance`). Beside it, :func:`queries_needed`
    plans one paired t test of two systems.

    Parameters
    ----------
    min_range : float
        minD, the smallest difference between the best and the worst system
        worth detecting, in the metric's units.
    variance : float
        sigma^2, the residual variance.
    n_systems : int
        m, at least 2.
    alpha, power : float, keyword-only
        Level of the test and target power.

    Returns
    -------
    int

    Examples
    --------
    >>> queries_needed_anova(0.1, 0.02, 5)
    49
    >>> queries_needed_anova(0.1, 0.02, 20)    # more systems, more topics for the same range
    83
    """
    min_range = _check_positive(min_range, "min_range")
    variance = _check_positive(variance, "variance")
    m = _check_systems(n_systems)
    alpha, power = _check_levels(alpha, power, "two-sided")
    n = 2
    if _anova_power(min_range, variance, m, n, alpha) >= power:
        return n
    high = 4
    while _anova_power(min_range, variance, m, high, alpha) < power:
        n, high = high, high * 2
        if high > 1e9:
            raise InputError("min_range is too small for the variance to plan for")
    while high - n > 1:  # power rises with n: bisect on integers
        mid = (n + high) // 2
        if _anova_power(min_range, variance, m, mid, alpha) >= power:
            high = mid
        else:
            n = mid
    return high


def pilot_variance(*scores) -> float:
    """Residual variance of pilot data, pooled over one or more score tables.

    Each argument is one measure's per-topic scores of several systems
    (topics x systems, as :func:`reteval.stats.anova` takes). With one table
    this is its ``residual_variance`` V_E; with several (other collections,
    other rounds) the V_E are pooled by their degrees of freedom,
    ``sum(df_C * V_C) / sum(df_C)``.

    Examples
    --------
    >>> import pandas as pd
    >>> pilot = pd.DataFrame({"a": [0.4, 0.6, 0.8], "b": [0.3, 0.4, 0.8],
    ...                       "c": [0.1, 0.3, 0.5]})
    >>> round(pilot_variance(pilot), 5)
    0.00333
    """
    from reteval.stats.multiple import anova

    if not scores:
        raise InputError("pilot_variance needs at least one table of pilot scores")
    results = [anova(s) for s in scores]
    total_df = sum(r.df_residual for r in results)
    return float(sum(r.df_residual * r.residual_variance for r in results) / total_df)


# ----------------------------------------------------------------- two independent groups


def proportion_effect_size(p1: float, p2: float) -> float:
    """Cohen's h, ``2 asin(sqrt(p1)) - 2 asin(sqrt(p2))``.

    The same as ``statsmodels.stats.proportion.proportion_effectsize(p1, p2)``.

    Examples
    --------
    >>> round(proportion_effect_size(0.55, 0.50), 4)
    0.1002
    """
    p1 = check_probability(p1, "p1", closed=True)
    p2 = check_probability(p2, "p2", closed=True)
    return 2 * math.asin(math.sqrt(p1)) - 2 * math.asin(math.sqrt(p2))


def _normal_power(effect: float, nobs1: float, alpha: float, ratio: float,
                  alternative: str) -> float:
    shift = effect * math.sqrt(1 / (1 / nobs1 + 1 / (ratio * nobs1)))
    z = _st.norm.isf(alpha / 2 if alternative == "two-sided" else alpha)
    return _tail_sum(float(_st.norm.sf(z - shift)), float(_st.norm.cdf(-z - shift)),
                     alternative)


def two_sample_power(effect_size: float, nobs1: float, *, alpha: float = 0.05,
                     ratio: float = 1.0, alternative: str = "two-sided",
                     variance_reduction: float = 0.0) -> float:
    """Power of a two-sample normal test (see the module docstring).

    Parameters
    ----------
    effect_size : float
        Standardised difference (group 1 minus group 2 for one-sided tests).
    nobs1 : float
        Observations in group 1; group 2 has ``ratio * nobs1``.
    alpha : float, default 0.05
    ratio : float, default 1.0
    alternative : {"two-sided", "larger", "smaller"}
    variance_reduction : float, default 0.0
        Share of the variance a covariate removes (see the module docstring).

    Examples
    --------
    >>> round(two_sample_power(0.1, 1000), 4)
    0.6088
    >>> round(two_sample_power(0.1, 1000, variance_reduction=0.3), 4)
    0.762
    """
    alpha, _ = _check_levels(alpha, None, alternative)
    ratio = _check_positive(ratio, "ratio")
    nobs1 = _check_positive(nobs1, "nobs1")
    d = float(effect_size) * _reduction(variance_reduction)
    return _normal_power(d, nobs1, alpha, ratio, alternative)


def two_sample_size(effect_size: float, *, power: float = 0.8, alpha: float = 0.05,
                    ratio: float = 1.0, alternative: str = "two-sided",
                    variance_reduction: float = 0.0) -> float:
    """Observations needed in group 1 to reach ``power`` (not rounded).

    Agrees with ``NormalIndPower().solve_power(effect_size, None, alpha,
    power, ratio=ratio, alternative=alternative)`` from statsmodels, there
    with the effect size ``effect_size / sqrt(1 - variance_reduction)``.

    Raises
    ------
    InputError
        The effect size is 0, or has the wrong sign for a one-sided test, or
        the target power is not above alpha.

    Examples
    --------
    >>> round(two_sample_size(0.1), 1)
    1569.8

    A pre-period covariate that explains 30% of the variance (CUPED):

    >>> round(two_sample_size(0.1, variance_reduction=0.3), 1)
    1098.8
    """
    alpha, power = _check_levels(alpha, power, alternative)
    ratio = _check_positive(ratio, "ratio")
    d = float(effect_size) * _reduction(variance_reduction)
    _check_direction(d, alternative, power)
    return _solve(lambda n: _normal_power(d, n, alpha, ratio, alternative) - power, 1e-8, 2.0,
                  xtol=1e-10)


def minimum_detectable_effect(nobs1: float, *, power: float = 0.8, alpha: float = 0.05,
                              ratio: float = 1.0, alternative: str = "two-sided",
                              variance_reduction: float = 0.0) -> float:
    """Smallest standardised effect two groups detect with ``power`` given ``nobs1``.

    Positive, or negative for ``alternative="smaller"``; standardised by the
    unadjusted standard deviation, so ``variance_reduction=r`` multiplies it
    by ``sqrt(1 - r)``.

    Examples
    --------
    >>> round(minimum_detectable_effect(1570), 4)
    0.1
    >>> round(minimum_detectable_effect(1570, variance_reduction=0.36), 4)
    0.08
    """
    alpha, power = _check_levels(alpha, power, alternative)
    ratio = _check_positive(ratio, "ratio")
    nobs1 = _check_positive(nobs1, "nobs1")
    factor = _reduction(variance_reduction)
    sign = -1.0 if alternative == "smaller" else 1.0
    return sign * _solve(
        lambda d: _normal_power(sign * d, nobs1, alpha, ratio, alternative) - power, 0.0, 1.0,
        xtol=1e-12) / factor


def proportion_mde(p_base: float, nobs1: float, *, power: float = 0.8, alpha: float = 0.05,
                   ratio: float = 1.0) -> float:
    """Smallest absolute increase over a base rate detected with ``power`` (two-sided).

    Solves Cohen's h for the standardised MDE, then maps it back:
    ``p = sin(asin(sqrt(p_base)) + h/2)^2``; returns ``p - p_base``.
    ``nobs1`` is the size of the group with the new rate.

    Examples
    --------
    >>> round(proportion_mde(0.5, 1570), 4)
    0.0499
    """
    p_base = check_probability(p_base, "p_base", closed=True)
    h = minimum_detectable_effect(nobs1, power=power, alpha=alpha, ratio=ratio)
    angle = math.asin(math.sqrt(p_base)) + h / 2
    if angle >= math.pi / 2:
        return 1.0 - p_base
    return math.sin(angle) ** 2 - p_base
