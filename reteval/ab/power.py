"""Power, sample size and minimum detectable effect of a two-group test.

Everything is in standardised units: the effect size ``d`` is the true
difference divided by the per-observation standard deviation (Cohen's d), or
for two proportions Cohen's ``h = 2 asin(sqrt(p1)) - 2 asin(sqrt(p2))``, the
difference on the variance-stabilised arcsine scale. With ``n1`` and
``n2 = ratio * n1`` observations, the test statistic is normal with mean
``d * sqrt(n_eff)``, ``n_eff = 1 / (1/n1 + 1/n2)``, so a two-sided test at
level ``alpha`` has power::

    Phi(d sqrt(n_eff) - z) + Phi(-d sqrt(n_eff) - z),    z = Phi^-1(1 - alpha/2)

(both rejection regions count), and one-sided tests keep only the first
(``"larger"``) or second (``"smaller"``) term with ``z = Phi^-1(1 - alpha)``.
This is the normal-approximation power of
``statsmodels.stats.power.NormalIndPower``; sample size and minimum
detectable effect solve the same equation numerically (not rounded: take the
ceiling of a sample size).
"""

from __future__ import annotations

import math

from scipy import optimize
from scipy.stats import norm

from reteval.errors import InputError
from reteval.validation import check_alternative

__all__ = [
    "minimum_detectable_effect",
    "power",
    "proportion_effect_size",
    "proportion_mde",
    "sample_size",
]

def _check(alpha: float, ratio: float, alternative: str) -> None:
    if not 0 < alpha < 1:
        raise InputError(f"alpha must be in (0, 1); got {alpha!r}")
    if not ratio > 0:
        raise InputError(f"ratio must be positive; got {ratio!r}")
    check_alternative(alternative)


def proportion_effect_size(p1: float, p2: float) -> float:
    """Cohen's h, ``2 asin(sqrt(p1)) - 2 asin(sqrt(p2))``.

    Examples
    --------
    >>> round(proportion_effect_size(0.55, 0.50), 4)
    0.1002
    """
    for name, p in (("p1", p1), ("p2", p2)):
        if not 0 <= p <= 1:
            raise InputError(f"{name} must be a proportion in [0, 1]; got {p!r}")
    return 2 * math.asin(math.sqrt(p1)) - 2 * math.asin(math.sqrt(p2))


def power(effect_size: float, nobs1: float, *, alpha: float = 0.05, ratio: float = 1.0,
          alternative: str = "two-sided") -> float:
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

    Examples
    --------
    >>> round(power(0.1, 1000), 4)
    0.6088
    """
    _check(alpha, ratio, alternative)
    if not nobs1 > 0:
        raise InputError(f"nobs1 must be positive; got {nobs1!r}")
    return _power(effect_size, nobs1, alpha, ratio, alternative)


def _power(effect_size, nobs1, alpha, ratio, alternative) -> float:
    shift = effect_size * math.sqrt(1 / (1 / nobs1 + 1 / (ratio * nobs1)))
    if alternative == "two-sided":
        z = norm.isf(alpha / 2)
        return float(norm.sf(z - shift) + norm.cdf(-z - shift))
    z = norm.isf(alpha)
    return float(norm.sf(z - shift) if alternative == "larger" else norm.cdf(-z - shift))


def _check_power(target: float) -> None:
    if not 0 < target < 1:
        raise InputError(f"power must be in (0, 1); got {target!r}")


def sample_size(effect_size: float, *, power: float = 0.8, alpha: float = 0.05,
                ratio: float = 1.0, alternative: str = "two-sided") -> float:
    """Observations needed in group 1 to reach ``power`` (not rounded).

    Raises
    ------
    InputError
        The effect size is 0, or has the wrong sign for a one-sided test, or
        the target power is not above alpha.

    Examples
    --------
    >>> round(sample_size(0.1), 1)
    1569.8
    """
    _check(alpha, ratio, alternative)
    _check_power(power)
    d = float(effect_size)
    if d == 0 or (alternative == "larger" and d < 0) or (alternative == "smaller" and d > 0):
        raise InputError(f"effect_size {effect_size!r} can never reach power {power} with "
                         f"alternative={alternative!r}")
    if power <= alpha:
        raise InputError(f"power must exceed alpha ({alpha}); got {power!r}")

    def gap(n):
        return _power(d, n, alpha, ratio, alternative) - power

    hi = 2.0
    while gap(hi) < 0:
        hi *= 2
    return float(optimize.brentq(gap, 1e-8, hi, xtol=1e-10, rtol=1e-14))


def minimum_detectable_effect(nobs1: float, *, power: float = 0.8, alpha: float = 0.05,
                              ratio: float = 1.0, alternative: str = "two-sided") -> float:
    """Smallest standardised effect detected with ``power`` given ``nobs1`` (positive).

    For ``alternative="smaller"`` the effect is negative.

    Examples
    --------
    >>> round(minimum_detectable_effect(1570), 4)
    0.1
    """
    _check(alpha, ratio, alternative)
    _check_power(power)
    if not nobs1 > 0:
        raise InputError(f"nobs1 must be positive; got {nobs1!r}")
    if power <= alpha:
        raise InputError(f"power must exceed alpha ({alpha}); got {power!r}")
    sign = -1.0 if alternative == "smaller" else 1.0

    def gap(d):
        return _power(sign * d, nobs1, alpha, ratio, alternative) - power

    hi = 1.0
    while gap(hi) < 0:
        hi *= 2
    return sign * float(optimize.brentq(gap, 0.0, hi, xtol=1e-12, rtol=1e-14))


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
    if not 0 <= p_base <= 1:
        raise InputError(f"p_base must be a proportion in [0, 1]; got {p_base!r}")
    h = minimum_detectable_effect(nobs1, power=power, alpha=alpha, ratio=ratio)
    angle = math.asin(math.sqrt(p_base)) + h / 2
    if angle >= math.pi / 2:
        return 1.0 - p_base
    return math.sin(angle) ** 2 - p_base
