"""Planning a test collection: power of the paired t test, queries needed, minimum detectable difference."""

from __future__ import annotations

import math

from scipy import optimize, special
from scipy import stats as _st

from reteval.errors import InputError
from reteval.validation import (
    check_probability,
)

__all__ = [
    "minimum_detectable_difference",
    "paired_t_power",
    "queries_needed",
]


def _check_positive(value, name: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        v = math.nan
    if not (v > 0 and math.isfinite(v)):
        raise InputError(f"{name} must be a positive number; got {value!r}")
    return v


def _power(effect: float, n: float, alpha: float) -> float:
    df = n - 1
    crit = _st.t.isf(alpha / 2, df)
    nc = effect * math.sqrt(n)
    upper = float(_st.nct.sf(crit, df, nc))
    lower = float(special.nctdtr(df, nc, -crit))
    if math.isnan(lower):  # underflow far in the tail opposite to a positive effect
        lower = 0.0
    return upper + lower


def paired_t_power(delta: float, sd: float, n_queries: int, *, alpha: float = 0.05) -> float:
    """Power of the two-sided paired t test.

    The probability of a significant result at level ``alpha`` with
    ``n_queries`` queries when the true mean difference is ``delta`` and the
    per-query differences have standard deviation ``sd``: with effect
    ``e = delta / sd`` and ``t`` critical value ``c`` (``n - 1`` df),
    ``power = P(T > c) + P(T < -c)`` for ``T`` noncentral t with noncentrality
    ``e * sqrt(n)``. Agrees with ``statsmodels.stats.power.TTestPower().power``.

    Examples
    --------
    >>> round(paired_t_power(0.02, 0.1, 200), 4)
    0.8037
    """
    delta = float(delta)
    sd = _check_positive(sd, "sd")
    alpha = check_probability(alpha, "alpha")
    n = _check_positive(n_queries, "n_queries")
    if n < 2:
        raise InputError(f"n_queries must be at least 2; got {n_queries!r}")
    return _power(abs(delta) / sd, n, alpha)


def queries_needed(delta: float, sd: float, *, alpha: float = 0.05, power: float = 0.8) -> int:
    """Number of queries a paired t test needs to detect a mean difference ``delta``.

    ``sd`` is the standard deviation of the per-query differences between the
    two systems, estimated from a pilot comparison (``result.sd_difference``
    of any test in this module). Solves :func:`paired_t_power` ``= power`` for
    ``n`` and rounds up; the unrounded ``n`` agrees with
    ``statsmodels.stats.power.TTestPower().solve_power(effect_size=delta / sd,
    alpha=alpha, power=power)``.

    Examples
    --------
    >>> queries_needed(0.02, 0.1)          # detect +0.02 nDCG when sd(diff) = 0.1
    199
    """
    delta = abs(float(delta))
    if not (delta > 0 and math.isfinite(delta)):
        raise InputError(f"delta must be a nonzero finite difference; got {delta!r}")
    sd = _check_positive(sd, "sd")
    alpha = check_probability(alpha, "alpha")
    power = check_probability(power, "power")
    if power <= alpha:
        raise InputError(f"power must exceed alpha ({alpha}); got {power}")
    effect = delta / sd
    hi = 4.0
    while _power(effect, hi, alpha) < power:
        hi *= 2.0
        if hi > 1e12:
            raise InputError(f"delta {delta} is too small relative to sd {sd} to plan for")
    lo = 2.0
    if _power(effect, lo, alpha) >= power:
        return 2
    n = optimize.brentq(lambda m: _power(effect, m, alpha) - power, lo, hi, xtol=1e-10, rtol=1e-14)
    return math.ceil(n - 1e-9)


def minimum_detectable_difference(sd: float, n_queries: int, *, alpha: float = 0.05,
                                  power: float = 0.8) -> float:
    """Smallest true mean difference a paired t test on ``n_queries`` queries detects.

    The ``delta`` with :func:`paired_t_power` ``(delta, sd, n_queries) = power``;
    agrees with ``sd * TTestPower().solve_power(nobs=n_queries, alpha=alpha,
    power=power)`` from statsmodels.

    Examples
    --------
    >>> round(minimum_detectable_difference(0.1, 50), 4)
    0.0404
    """
    sd = _check_positive(sd, "sd")
    n = _check_positive(n_queries, "n_queries")
    if n < 2:
        raise InputError(f"n_queries must be at least 2; got {n_queries!r}")
    alpha = check_probability(alpha, "alpha")
    power = check_probability(power, "power")
    if power <= alpha:
        raise InputError(f"power must exceed alpha ({alpha}); got {power}")
    hi = 1.0
    while _power(hi, n, alpha) < power:
        hi *= 2.0
    effect = optimize.brentq(lambda e: _power(e, n, alpha) - power, 0.0, hi, xtol=1e-14, rtol=1e-14)
    return effect * sd
