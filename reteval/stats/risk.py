"""Risk-sensitive comparison with a baseline: URisk and TRisk (Dinçer, Macdonald & Ounis 2014).

A new system that wins on average can still hurt many queries. With per-query
differences ``d_j = run_j - baseline_j`` over ``c`` queries, URisk weighs the
losses by ``1 + alpha``::

    URisk = (1 / c) * (sum of d_j over wins  -  (1 + alpha) * sum of |d_j| over losses)

i.e. the mean of ``d'_j = d_j`` if ``d_j >= 0`` else ``(1 + alpha) d_j``. With
``alpha = 0`` it is the mean difference; larger ``alpha`` punishes losses
more. Positive URisk: the run gains more than it risks.

TRisk is URisk over its standard error, ``URisk / (sd(d') / sqrt(c))``, a
paired t statistic of the weighted differences with ``c - 1`` degrees of
freedom; ``|TRisk| > 2`` is the authors' rule of thumb for a real gain
(positive) or a real risk (negative), and ``pvalue`` is the two-sided p-value
of that t statistic.

References
----------
.. [1] B. T. Dinçer, C. Macdonald, I. Ounis. "Hypothesis testing for the
   risk-sensitive evaluation of retrieval systems." SIGIR 2014.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from reteval._util.lazy import LazyModule
from reteval.errors import InputError
from reteval.stats.inputs import align_queries, as_scores, scaled_std

_st = LazyModule("scipy.stats")

__all__ = ["RiskResult", "risk_differences", "trisk", "urisk"]


@dataclass(frozen=True)
class RiskResult:
    """URisk and TRisk of a run against a baseline.

    Attributes
    ----------
    statistic : float
        The value the function is named after: URisk for :func:`urisk`,
        TRisk for :func:`trisk`.
    pvalue : float
        Two-sided p-value of TRisk (t with ``n - 1`` degrees of freedom).
    urisk, trisk : float
    standard_error : float
        ``sd(d') / sqrt(n)`` of the loss-weighted differences.
    alpha : float
        Extra weight of losses.
    n, wins, losses : int
        Queries, queries where the run scores higher, lower (ties are neither).
    """

    statistic: float
    pvalue: float
    urisk: float
    trisk: float
    standard_error: float
    alpha: float
    n: int
    wins: int
    losses: int


def _check_alpha(alpha) -> float:
    try:
        value = float(alpha)
    except (TypeError, ValueError):
        value = math.nan
    if isinstance(alpha, bool) or not (math.isfinite(value) and value >= 0):
        raise InputError(f"alpha (the extra weight of losses) must be a number >= 0; "
                         f"got {alpha!r}")
    return value


def risk_differences(run, baseline, *, alpha: float = 1.0) -> np.ndarray:
    """Loss-weighted per-query differences ``d'`` (see the module docstring).

    ``run`` and ``baseline`` are paired per-query scores: arrays of the same
    length, or Series indexed by query, which must then hold the same queries
    (the error names the missing ones), each once (a query listed twice would
    count as two: refused, as :func:`reteval.stats.anova` refuses it).

    Examples
    --------
    >>> risk_differences([0.5, 0.2, 0.4], [0.3, 0.4, 0.4], alpha=1.0).round(3).tolist()
    [0.2, -0.4, 0.0]
    """
    alpha = _check_alpha(alpha)
    run, baseline = align_queries(run, baseline, ("run", "baseline"))
    x = as_scores(run, "run")
    y = as_scores(baseline, "baseline")
    if x.shape != y.shape:
        raise InputError(f"run and baseline must be paired scores of the same queries; "
                         f"got {x.size} and {y.size} values")
    if x.size < 2:
        raise InputError(f"a risk comparison needs at least 2 queries; got {x.size}")
    d = x - y
    return np.where(d < 0, (1 + alpha) * d, d)


def _risk(run, baseline, alpha, which: str) -> RiskResult:
    alpha = _check_alpha(alpha)
    weighted = risk_differences(run, baseline, alpha=alpha)
    n = weighted.size
    u = float(weighted.mean())
    se = scaled_std(weighted) / math.sqrt(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = float(np.float64(u) / np.float64(se))
    p = float(2 * _st.t.sf(abs(t), n - 1)) if math.isfinite(t) else (
        math.nan if math.isnan(t) else 0.0)
    return RiskResult(statistic=u if which == "urisk" else t, pvalue=p, urisk=u, trisk=t,
                      standard_error=se, alpha=alpha, n=n, wins=int((weighted > 0).sum()),
                      losses=int((weighted < 0).sum()))


def urisk(run, baseline, *, alpha: float = 1.0) -> RiskResult:
    """URisk of ``run`` against ``baseline``: mean gain with losses weighted by ``1 + alpha``.

    Parameters
    ----------
    run, baseline : array_like or pandas.Series
        Paired per-query scores of one measure (Series are matched by query).
    alpha : float, keyword-only
        Extra weight of losses, ``>= 0`` (default 1: a loss counts double).

    Returns
    -------
    RiskResult
        ``statistic`` is URisk (TRisk and its p-value come along).

    Examples
    --------
    >>> res = urisk([0.5, 0.2, 0.4, 0.9], [0.3, 0.4, 0.4, 0.6], alpha=1.0)
    >>> round(res.statistic, 3), res.wins, res.losses
    (0.025, 2, 1)
    >>> round(urisk([0.5, 0.2, 0.4, 0.9], [0.3, 0.4, 0.4, 0.6], alpha=0).statistic, 3)
    0.075
    """
    return _risk(run, baseline, alpha, "urisk")


def trisk(run, baseline, *, alpha: float = 1.0) -> RiskResult:
    """TRisk of ``run`` against ``baseline``: URisk over its standard error, with a p-value.

    Parameters and result as :func:`urisk`; ``statistic`` is TRisk, a t
    statistic with ``n - 1`` degrees of freedom (``pvalue`` two-sided).
    With ``alpha=0`` it is the paired t statistic of ``run - baseline``.

    Examples
    --------
    >>> res = trisk([0.5, 0.2, 0.4, 0.9], [0.3, 0.4, 0.4, 0.6], alpha=1.0)
    >>> round(res.statistic, 3), round(res.pvalue, 3)
    (0.162, 0.882)
    """
    return _risk(run, baseline, alpha, "trisk")
