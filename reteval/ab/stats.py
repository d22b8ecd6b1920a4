"""Hypothesis tests for A/B experiments, from summary numbers.

Each test takes counts, means and variances rather than raw data, so it can
run on the reduced table of :mod:`reteval.ab.sufficient`. Differences are
always "first minus second" (the analysis passes treatment first). Multiple
comparisons use :func:`reteval.stats.adjust_pvalues`.

Results have the style of :mod:`reteval.stats` (and of scipy): frozen
dataclasses with ``statistic`` and ``pvalue`` and a method
``confidence_interval(confidence_level=0.95)`` returning a
:class:`reteval.stats.ConfidenceInterval`.

Intervals, one convention for every result: ``estimate +/- q * standard_error``
where ``q`` is the quantile of the Student t distribution with the result's
``df`` degrees of freedom, or of the standard normal when ``df`` is infinite
(the z-tests). Welch's test has Welch-Satterthwaite degrees of freedom, so its
difference is read against that t distribution, and so is the relative lift
of the same means (:func:`relative_lift` with ``df=``): its standard error
comes from the delta method, and with a control known exactly the lift's
interval is the difference's interval divided by the control. A one-sided
``alternative`` gives a one-sided interval (``"larger"``: ``(low, inf)``;
``"smaller"``: ``(-inf, high)``), as scipy does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as _st

from reteval._util.validation import check_alternative, check_confidence_level
from reteval.errors import InputError
from reteval.stats import ConfidenceInterval

__all__ = [
    "LiftResult",
    "SRMResult",
    "TestResult",
    "relative_lift",
    "srm_test",
    "two_proportion_ztest",
    "welch_test",
    "z_test",
]


def _interval(estimate: float, se: float, df: float, alternative: str,
              confidence_level: float) -> ConfidenceInterval:
    check_confidence_level(confidence_level)
    if not (math.isfinite(estimate) and math.isfinite(se) and se >= 0):
        return ConfidenceInterval(math.nan, math.nan)
    if se == 0:
        return ConfidenceInterval(estimate, estimate)
    dist = _st.norm if math.isinf(df) else _st.t(df)
    if alternative == "two-sided":
        half = float(dist.ppf(0.5 + confidence_level / 2)) * se
        return ConfidenceInterval(estimate - half, estimate + half)
    half = float(dist.ppf(confidence_level)) * se
    if alternative == "larger":
        return ConfidenceInterval(estimate - half, math.inf)
    return ConfidenceInterval(-math.inf, estimate + half)


@dataclass(frozen=True)
class TestResult:
    """A test of a difference ``first - second``, with its confidence interval.

    Attributes
    ----------
    statistic, pvalue : float
    df : float
        Degrees of freedom of the t distribution; ``inf`` for a z-test.
    estimate : float
        The difference tested (first minus second).
    standard_error : float
        Standard error of ``estimate`` used by the interval (for the
        two-proportion test the unpooled one: the pooled one serves the test
        under H0 only).
    alternative : str
        ``"two-sided"``, ``"larger"`` or ``"smaller"``.
    """

    __test__ = False  # not a pytest test class

    statistic: float
    pvalue: float
    df: float = math.inf
    estimate: float = math.nan
    standard_error: float = math.nan
    alternative: str = "two-sided"

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """``estimate +/- q * standard_error``, ``q`` from t(``df``) or the normal.

        Examples
        --------
        >>> ci = z_test(0.02, 0.01).confidence_interval(0.95)
        >>> round(ci.low, 4), round(ci.high, 4)
        (0.0004, 0.0396)
        """
        return _interval(self.estimate, self.standard_error, self.df, self.alternative,
                         confidence_level)


@dataclass(frozen=True)
class LiftResult:
    """Relative lift ``treatment / control - 1`` and its delta-method standard error.

    Attributes
    ----------
    lift : float
        NaN when the control value is 0 or not finite.
    standard_error : float
    df : float
        Degrees of freedom of the interval's t quantile; ``inf``: normal.
    """

    lift: float
    standard_error: float
    df: float = math.inf

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Two-sided ``lift +/- q * standard_error``, ``q`` from t(``df``) or the normal.

        Examples
        --------
        >>> ci = relative_lift(0.55, 0.0001, 0.50, 0.0001).confidence_interval(0.95)
        >>> round(ci.low, 4), round(ci.high, 4)
        (0.0417, 0.1583)
        """
        return _interval(self.lift, self.standard_error, self.df, "two-sided",
                         confidence_level)


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
    return TestResult(float(stat), _pvalue(stat, _st.norm, alternative), math.inf,
                      float(difference), float(se), alternative)


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
    unpooled = math.sqrt(p1 * (1 - p1) / nobs1 + p2 * (1 - p2) / nobs2)
    return TestResult(float(stat), _pvalue(stat, _st.norm, alternative), math.inf,
                      float(p1 - p2), unpooled, alternative)


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
                      float(df), float(mean1 - mean2), se, alternative)


def relative_lift(treatment: float, var_treatment: float, control: float, var_control: float,
                  *, df: float = math.inf) -> LiftResult:
    """Relative lift ``treatment / control - 1`` with a delta-method standard error.

    The two estimates are independent (different users), so
    ``Var(T/C) ~ Var(T) / C^2 + T^2 Var(C) / C^4``.

    Parameters
    ----------
    treatment, var_treatment, control, var_control : float
        The two estimates and the variances of the estimates.
    df : float, default inf
        Degrees of freedom of the interval (the module's convention: the
        Welch-Satterthwaite ``df`` of the test of the same means; ``inf``,
        a normal interval, for z-tested metrics).

    Returns
    -------
    LiftResult
        ``lift`` and ``standard_error`` are NaN when the control value is 0.

    Examples
    --------
    >>> r = relative_lift(0.55, 0.0001, 0.50, 0.0001)
    >>> round(r.lift, 3), round(r.standard_error, 5)
    (0.1, 0.02973)
    """
    if isinstance(df, bool) or not isinstance(df, (int, float, np.integer, np.floating)) \
            or not df > 0:
        raise InputError(f"df must be a positive number (inf for a normal interval); got {df!r}")
    if control == 0 or not math.isfinite(control):
        return LiftResult(math.nan, math.nan, float(df))
    lift = treatment / control - 1
    var = var_treatment / control**2 + treatment**2 * var_control / control**4
    return LiftResult(float(lift), math.sqrt(var), float(df))


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
