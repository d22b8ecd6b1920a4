"""A Bayesian readout of an A/B test: chance to win, expected loss, credible interval.

The frequentist test asks how surprising the data would be if nothing had
changed; the Bayesian readout answers the question a decision maker asks:
given the data, how likely is the treatment better, and what does choosing
wrongly cost on average? It is GrowthBook's default engine (gbstats 0.8:
``EffectBayesianABTest``), and the results equal it to 1e-9:

* the data give an estimate ``d`` of the effect (relative lift or absolute
  difference) with variance ``v``, exactly as the frequentist test computes
  them (:func:`reteval.ab.cuped.effect`, CUPED-adjusted when the arms hold a
  pre-period covariate);
* the prior on the effect is flat by default (the posterior is then
  ``Normal(d, v)``), or Gaussian ``Normal(m0, s0^2)`` on the same scale as the
  effect: the posterior is ``Normal(m, s^2)`` with precision
  ``1/s^2 = 1/v + 1/s0^2`` and mean ``m = s^2 (d / v + m0 / s0^2)``;
* ``chance_to_win = P(effect > 0)`` (``< 0`` for a metric where lower is
  better); the credible interval holds the central ``1 - alpha`` of the
  posterior;
* the risk (expected loss) of choosing the control is ``E[max(effect, 0)]``,
  what is given up if the treatment is in fact better; that of choosing the
  treatment is ``E[max(-effect, 0)]``. For a normal posterior,
  ``E[max(X, 0)] = m Phi(m/s) + s phi(m/s)``.

References
----------
Stucchio (2015), "Bayesian A/B Testing at VWO"; GrowthBook, "Bayesian
statistics" (docs.growthbook.io/statistics/bayesian).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy import stats as _st

from reteval._util.validation import check_probability
from reteval.ab.cuped import Adjustment, adjust, effect
from reteval.errors import InputError
from reteval.stats import ConfidenceInterval

__all__ = ["BayesianResult", "bayesian_test", "posterior"]


@dataclass(frozen=True)
class BayesianResult:
    """The posterior of the effect of the treatment.

    Attributes
    ----------
    estimate : float
        Posterior mean of the relative lift (or absolute difference).
    ci : ConfidenceInterval
        Central ``1 - alpha`` credible interval.
    standard_deviation : float
        Posterior standard deviation.
    chance_to_win : float
        Posterior probability that the treatment is better.
    risk : tuple of float
        Expected loss of choosing the control, of choosing the treatment
        (on the estimate's scale; for ``higher_is_better=False`` the loss is
        counted in the metric's good direction).
    relative : bool
    theta : float
        The CUPED coefficient (0: no covariate).
    """

    estimate: float
    ci: ConfidenceInterval
    standard_deviation: float
    chance_to_win: float
    risk: tuple[float, float]
    relative: bool
    theta: float = 0.0


def _prior(prior) -> tuple[float, float] | None:
    if prior is None:
        return None
    try:
        mean, sd = (float(x) for x in prior)
    except (TypeError, ValueError):
        raise InputError(f"prior must be None (flat) or a pair (mean, standard deviation) of "
                         f"the effect; got {prior!r}") from None
    if not (math.isfinite(mean) and math.isfinite(sd) and sd > 0):
        raise InputError(f"prior must be a finite mean and a positive standard deviation; "
                         f"got {prior!r}")
    return mean, sd


def _loss(mu: float, sigma: float) -> float:
    """``E[max(X, 0)]`` for ``X ~ Normal(mu, sigma^2)``."""
    z = mu / sigma
    return float(mu * _st.norm.cdf(z) + sigma * _st.norm.pdf(z))


def posterior(adjustment: Adjustment, *, relative: bool = True, alpha: float = 0.05,
              prior=None, higher_is_better: bool = True) -> BayesianResult:
    """The Bayesian readout of arms already summarised (see :func:`bayesian_test`)."""
    alpha = check_probability(alpha, "alpha")
    belief = _prior(prior)
    data_mean, data_var = effect(adjustment, relative=relative)
    if belief is None:
        mean, var = data_mean, data_var
    else:
        m0, s0 = belief
        precision = 1 / data_var + 1 / s0**2
        var = 1 / precision
        mean = (data_mean / data_var + m0 / s0**2) / precision
    sd = math.sqrt(var)
    win = float(_st.norm.sf(0, mean, sd))
    risk = (_loss(mean, sd), _loss(-mean, sd))
    if not higher_is_better:
        win, risk = 1 - win, (risk[1], risk[0])
    low, high = (float(x) for x in _st.norm.ppf([alpha / 2, 1 - alpha / 2], mean, sd))
    return BayesianResult(float(mean), ConfidenceInterval(low, high), sd, win, risk,
                          bool(relative), adjustment.theta)


def bayesian_test(control, treatment, *, relative: bool = True, alpha: float = 0.05,
                  proportion: bool = False, prior=None,
                  higher_is_better: bool = True) -> BayesianResult:
    """Chance to win, expected loss and credible interval, from sufficient statistics.

    Parameters
    ----------
    control, treatment : mapping
        ``n``, ``sum``, ``sum_squares`` per arm; with ``pre_sum``,
        ``pre_sum_squares`` and ``sum_products`` the means are CUPED-adjusted
        first (:func:`reteval.ab.cuped.cuped_test`).
    relative : bool, default True
        The effect is the relative lift over the control, else the difference.
    alpha : float, default 0.05
        The credible interval holds ``1 - alpha`` of the posterior.
    proportion : bool, default False
        A 0/1 metric: variance ``p (1 - p)``.
    prior : (mean, sd), optional
        A Gaussian prior on the effect, on its own scale (relative or
        absolute); None (the default) is flat. GrowthBook's
        ``GaussianPrior(mean, sd**2, proper=True)``.
    higher_is_better : bool, default True
        False for a metric that should go down (GrowthBook's ``inverse``).

    Returns
    -------
    BayesianResult

    Raises
    ------
    InputError
        As :func:`reteval.ab.cuped.cuped_test`, and for a prior that is not a
        finite mean with a positive standard deviation.

    Examples
    --------
    >>> control = {"n": 1000, "sum": 300, "sum_squares": 300}
    >>> treatment = {"n": 1000, "sum": 330, "sum_squares": 330}
    >>> r = bayesian_test(control, treatment, proportion=True)
    >>> round(r.estimate, 3), round(r.chance_to_win, 3)
    (0.1, 0.916)
    >>> [round(x, 4) for x in r.risk]
    [0.1028, 0.0028]
    """
    adj = adjust(control, treatment, proportion=bool(proportion), relative=bool(relative))
    return posterior(adj, relative=bool(relative), alpha=alpha, prior=prior,
                     higher_is_better=bool(higher_is_better))
