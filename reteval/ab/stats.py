"""Hypothesis tests for A/B experiments, from summary numbers.

Each test takes counts, means and variances rather than raw data, so it can
run on the reduced table of :mod:`reteval.ab.sufficient`. Differences are
always "first minus second" (the analysis passes treatment first). Multiple
comparisons use :func:`reteval.stats.adjust_pvalues`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as _st

from reteval.errors import InputError
from reteval.validation import check_alternative

__all__ = [
    "SRMResult",
    "TestResult",
    "relative_lift",
    "srm_test",
    "two_proportion_ztest",
    "welch_test",
    "z_test",
]

@dataclass(frozen=True)
class TestResult:
    """Statistic, p-value and degrees of freedom (``inf`` for a z-test)."""

    __test__ = False  # not a pytest test class

    statistic: float
    pvalue: float
    df: float = math.inf


def _check_alternative(alternative: str) -> None:
    check_alternative(alternative)


def _pvalue(stat: float, dist, alternative: str) -> float:
    if not math.isfinite(stat):
        return math.nan
    if alternative == "larger":
        return float(dist.sf(stat))
    if alternative == "smaller":
        return float(dist.cdf(stat))
    return float(min(1.0, 2 * dist.sf(abs(stat))))


def z_test(difference: float, se: float, *, alternative: str = "two-sided") -> TestResult:
    """Normal test of ``difference / se`` (the delta-method test of a ratio metric).

    Examples
    --------
    >>> r = z_test(0.02, 0.01)
    >>> round(r.statistic, 3), round(r.pvalue, 4)
    (2.0, 0.0455)
    """
    _check_alternative(alternative)
    stat = difference / se if se > 0 else math.nan
    return TestResult(float(stat), _pvalue(stat, _st.norm, alternative))


def two_proportion_ztest(count1: int, nobs1: int, count2: int, nobs2: int, *,
                         alternative: str = "two-sided") -> TestResult:
    """Two-proportion z-test of ``p1 - p2`` with the pooled variance under H0.

    ``z = (p1 - p2) / sqrt(p (1 - p) (1/n1 + 1/n2))`` with ``p = (c1 + c2) / (n1 + n2)``;
    the same as ``statsmodels.stats.proportion.proportions_ztest([c1, c2], [n1, n2])``.

    Examples
    --------
    >>> r = two_proportion_ztest(60, 100, 45, 100)
    >>> round(r.statistic, 4), round(r.pvalue, 4)
    (2.124, 0.0337)
    """
    _check_alternative(alternative)
    for name, v in (("nobs1", nobs1), ("nobs2", nobs2)):
        if v <= 0:
            raise InputError(f"{name} must be positive; got {v!r}")
    for name, c, n in (("count1", count1, nobs1), ("count2", count2, nobs2)):
        if not 0 <= c <= n:
            raise InputError(f"{name} must be between 0 and its nobs ({n}); got {c!r}")
    p1, p2 = count1 / nobs1, count2 / nobs2
    p = (count1 + count2) / (nobs1 + nobs2)
    se = math.sqrt(p * (1 - p) * (1 / nobs1 + 1 / nobs2))
    stat = (p1 - p2) / se if se > 0 else math.nan
    return TestResult(float(stat), _pvalue(stat, _st.norm, alternative))


def welch_test(mean1: float, var1: float, nobs1: int, mean2: float, var2: float, nobs2: int, *,
               alternative: str = "two-sided") -> TestResult:
    """Welch's unequal-variance t-test of ``mean1 - mean2`` from summary statistics.

    ``var1`` and ``var2`` are sample variances (``ddof=1``); the degrees of
    freedom follow Welch-Satterthwaite. The same as
    ``scipy.stats.ttest_ind(x1, x2, equal_var=False)`` on the raw values.

    Examples
    --------
    >>> r = welch_test(3.0, 2.0, 10, 2.0, 1.0, 12)
    >>> round(r.statistic, 4), round(r.df, 2)
    (1.8787, 15.82)
    """
    _check_alternative(alternative)
    if nobs1 < 2 or nobs2 < 2:
        raise InputError(f"Welch's test needs at least 2 observations per group; got "
                         f"{nobs1} and {nobs2}")
    a, b = var1 / nobs1, var2 / nobs2
    se = math.sqrt(a + b)
    df = (a + b) ** 2 / (a**2 / (nobs1 - 1) + b**2 / (nobs2 - 1)) if se > 0 else math.nan
    stat = (mean1 - mean2) / se if se > 0 else math.nan
    return TestResult(float(stat), _pvalue(stat, _st.t(df) if se > 0 else _st.norm, alternative),
                      float(df))


def relative_lift(treatment: float, var_treatment: float, control: float, var_control: float,
                  *, confidence_level: float = 0.95) -> tuple[float, float, float]:
    """Relative lift ``treatment / control - 1`` with a delta-method confidence interval.

    The two estimates are independent (different users), so
    ``Var(T/C) ~ Var(T) / C^2 + T^2 Var(C) / C^4``; the interval is normal.

    Returns
    -------
    (lift, low, high) : tuple of float
        NaN when the control value is 0.

    Examples
    --------
    >>> lift, low, high = relative_lift(0.55, 0.0001, 0.50, 0.0001)
    >>> round(lift, 3), round(low, 4), round(high, 4)
    (0.1, 0.0417, 0.1583)
    """
    if not 0 < confidence_level < 1:
        raise InputError(f"confidence_level must be in (0, 1); got {confidence_level!r}")
    if control == 0 or not math.isfinite(control):
        return math.nan, math.nan, math.nan
    lift = treatment / control - 1
    var = var_treatment / control**2 + treatment**2 * var_control / control**4
    half = _st.norm.ppf(0.5 + confidence_level / 2) * math.sqrt(var)
    return float(lift), float(lift - half), float(lift + half)


@dataclass(frozen=True)
class SRMResult:
    """Sample ratio mismatch check: observed users per variant against the design.

    Attributes
    ----------
    variants : tuple of str
    observed : tuple of int
    expected : tuple of float
    statistic, pvalue : float
        Pearson chi-square goodness of fit (``scipy.stats.chisquare``).
    threshold : float
        ``flagged`` is ``pvalue < threshold`` (0.001 by default: a mismatch
        this unlikely means the assignment or the logging is broken).
    """

    variants: tuple[str, ...]
    observed: tuple[int, ...]
    expected: tuple[float, ...]
    statistic: float
    pvalue: float
    threshold: float

    @property
    def flagged(self) -> bool:
        """True when the split differs from the design beyond chance."""
        return self.pvalue < self.threshold


def srm_test(observed, shares, *, variants=None, threshold: float = 0.001) -> SRMResult:
    """Chi-square test that users split across variants as designed.

    Parameters
    ----------
    observed : sequence of int
        Users per variant.
    shares : sequence of float
        Designed traffic shares (normalised to sum to 1).
    variants : sequence of str, optional
        Names, for the report.
    threshold : float, default 0.001

    Examples
    --------
    >>> r = srm_test([5_120, 4_880], [0.5, 0.5])
    >>> round(r.statistic, 2), round(r.pvalue, 4), r.flagged
    (5.76, 0.0164, False)
    """
    obs = np.asarray(observed, dtype=float)
    sh = np.asarray(shares, dtype=float)
    if obs.ndim != 1 or obs.shape != sh.shape or len(obs) < 2:
        raise InputError(f"observed and shares must be two sequences of the same length >= 2; "
                         f"got {obs.shape} and {sh.shape}")
    if (sh <= 0).any() or (obs < 0).any():
        raise InputError(f"shares must be positive and counts non-negative; got {list(sh)!r} "
                         f"and {list(obs)!r}")
    if obs.sum() == 0:
        raise InputError("no users to check the sample ratio on")
    expected = obs.sum() * sh / sh.sum()
    stat = float(((obs - expected) ** 2 / expected).sum())
    pvalue = float(_st.chi2.sf(stat, len(obs) - 1))
    names = tuple(str(v) for v in variants) if variants is not None else tuple(
        str(i) for i in range(len(obs)))
    return SRMResult(names, tuple(int(x) for x in obs), tuple(float(x) for x in expected),
                     stat, pvalue, float(threshold))
