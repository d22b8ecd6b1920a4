"""Sequential testing that stays valid however often the results are looked at.

Looking at a fixed-horizon p-value every day and stopping at the first
``p < 0.05`` inflates the false positive rate far above 5%. The mixture
sequential probability ratio test (mSPRT; Johari, Koomen, Pekelis & Walsh,
"Peeking at A/B tests", KDD 2017) gives instead an *always-valid* p-value:
the probability that it ever drops below ``alpha`` while the null holds is at
most ``alpha``, at any number of looks, planned or not.

The test, for a difference of means
-----------------------------------
At each look, the estimated difference ``D`` (treatment minus control) is
approximately normal with mean ``theta`` and variance ``V`` (``V`` shrinks as
users accrue: ``s1^2/n1 + s2^2/n2``, or a delta-method variance). Mixing the
likelihood ratio of ``theta`` against ``theta0`` over a normal prior
``theta ~ N(theta0, tau^2)`` gives in closed form::

    Lambda = sqrt(V / (V + tau^2)) * exp( tau^2 (D - theta0)^2 / (2 V (V + tau^2)) )

Under the null ``Lambda`` is a martingale with mean 1, so by Ville's
inequality ``P(sup Lambda >= 1/alpha) <= alpha``. The always-valid p-value
is the running minimum of ``min(1, 1/Lambda)``, and the set of ``theta0``
with ``Lambda < 1/alpha``, intersected over looks, is a confidence sequence::

    |D - theta| <= sqrt( 2 V (V + tau^2) / tau^2 * (log(1/alpha) + log(sqrt((V + tau^2)/V))) )

With equal groups of ``n`` and common variance ``sigma^2`` (``V = 2 sigma^2 / n``)
this is the paper's two-sample statistic. ``V`` here is a plug-in estimate,
as in the paper's deployed version; the guarantee is then asymptotic.

The mixing variance
-------------------
``tau`` (``mixing_sd``, on the scale of the difference) is a tuning choice
made before the experiment starts: the test has the most power against
differences of about ``tau`` in size. Take it near the smallest effect worth
detecting, or the typical size of past effects on the metric. Any fixed
``tau`` keeps the false positive guarantee; only power depends on it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import norm

from reteval._util.catalogue import check_lang, phrase
from reteval._util.validation import check_probability
from reteval.ab.metrics import Metric, estimate, get_metric
from reteval.errors import InputError

__all__ = ["SequentialResult", "mixture_likelihood_ratio", "msprt", "sequential_test"]


def mixture_likelihood_ratio(difference, variance, *, mixing_sd: float, null: float = 0.0):
    """The mSPRT statistic ``Lambda`` for estimates ``difference`` with ``variance``.

    Vectorised over arrays; see the module docstring for the formula.

    Examples
    --------
    >>> float(mixture_likelihood_ratio(0.0, 1.0, mixing_sd=1.0))  # sqrt(1/2)
    0.7071067811865476
    """
    tau2 = _check_tau(mixing_sd)
    d = np.asarray(difference, dtype=float) - null
    v = np.asarray(variance, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_lr = 0.5 * np.log(v / (v + tau2)) + tau2 * d**2 / (2 * v * (v + tau2))
    return np.exp(log_lr)


def _check_tau(mixing_sd: float) -> float:
    if not (isinstance(mixing_sd, (int, float)) and math.isfinite(mixing_sd) and mixing_sd > 0):
        raise InputError(f"mixing_sd must be a positive number; got {mixing_sd!r}")
    return float(mixing_sd) ** 2


@dataclass(frozen=True, eq=False)
class SequentialResult:
    """Always-valid p-values and confidence sequence at each look.

    Attributes
    ----------
    difference, variance : numpy.ndarray
        The estimate (treatment minus control) and its variance at each look.
    pvalue : numpy.ndarray
        Always-valid p-value, non-increasing over looks.
    ci_low, ci_high : numpy.ndarray
        The confidence sequence (running intersection), valid at level
        ``1 - alpha`` simultaneously over all looks.
    alpha, mixing_sd, null : float
    looks : tuple
        Labels of the looks (e.g. timestamps), or their positions.
    verdict : str
    """

    difference: np.ndarray
    variance: np.ndarray
    pvalue: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    alpha: float
    mixing_sd: float
    null: float
    looks: tuple
    verdict: str

    @property
    def stopped_at(self) -> int | None:
        """Index of the first look where the p-value fell to ``alpha`` or below, else None."""
        hit = np.flatnonzero(self.pvalue <= self.alpha)
        return int(hit[0]) if len(hit) else None

    @property
    def naive_pvalue(self) -> np.ndarray:
        """The fixed-horizon two-sided z-test p-value at each look, for comparison.

        Valid only at a single look planned in advance: stopping at the first
        look where it falls below alpha inflates the false positive rate.
        """
        with np.errstate(divide="ignore", invalid="ignore"):
            z = (self.difference - self.null) / np.sqrt(self.variance)
        return 2 * norm.sf(np.abs(z))

    def to_frame(self) -> pd.DataFrame:
        """One row per look, with the always-valid and the naive p-values."""
        return pd.DataFrame({"difference": self.difference, "variance": self.variance,
                             "pvalue": self.pvalue, "naive_pvalue": self.naive_pvalue,
                             "ci_low": self.ci_low, "ci_high": self.ci_high},
                            index=pd.Index(self.looks, name="look"))


def msprt(difference, variance, *, mixing_sd: float, alpha: float = 0.05, null: float = 0.0,
          looks=None, lang: str = "en") -> SequentialResult:
    """Run the mSPRT over a sequence of looks.

    Parameters
    ----------
    difference, variance : array-like
        Estimate of treatment minus control, and its variance, at each look
        (cumulative data). Looks with an undefined variance (too few users)
        leave the p-value and the interval unchanged.
    mixing_sd : float
        ``tau``, the standard deviation of the normal mixture over the true
        difference (see the module docstring).
    alpha : float, default 0.05
    null : float, default 0.0
    looks : sequence, optional
        Labels of the looks.
    lang : {"en", "zh"}, default "en"
        Language of the verdict.

    Returns
    -------
    SequentialResult

    Examples
    --------
    A difference of 0.05 that gets more precise with each look:

    >>> res = msprt([0.05, 0.05, 0.05], [0.02**2, 0.015**2, 0.01**2], mixing_sd=0.05)
    >>> [f"{p:.3g}" for p in res.pvalue], res.stopped_at
    (['0.182', '0.0213', '3.07e-05'], 1)
    """
    alpha = check_probability(alpha, "alpha")
    check_lang(lang)
    tau2 = _check_tau(mixing_sd)
    d = np.asarray(difference, dtype=float)
    v = np.asarray(variance, dtype=float)
    if d.ndim != 1 or d.shape != v.shape:
        raise InputError(f"difference and variance must be 1-d arrays of the same length; "
                         f"got shapes {d.shape} and {v.shape}")
    ok = np.isfinite(d) & np.isfinite(v) & (v > 0)
    lam = np.where(ok, mixture_likelihood_ratio(np.where(ok, d, 0), np.where(ok, v, 1),
                                                mixing_sd=mixing_sd, null=null), 1.0)
    pvalue = np.minimum.accumulate(np.minimum(1.0, 1.0 / lam))
    with np.errstate(divide="ignore", invalid="ignore"):
        half = np.sqrt(2 * v * (v + tau2) / tau2 * (math.log(1 / alpha)
                                                    + 0.5 * np.log((v + tau2) / v)))
    low = np.maximum.accumulate(np.where(ok, d - half, -np.inf))
    high = np.minimum.accumulate(np.where(ok, d + half, np.inf))
    labels = tuple(range(len(d))) if looks is None else tuple(looks)
    if len(labels) != len(d):
        raise InputError(f"looks has {len(labels)} labels for {len(d)} looks")
    stop = np.flatnonzero(pvalue <= alpha)
    if len(stop):
        i = int(stop[0])
        direction = phrase("ab.sequential." + ("above" if d[i] > null else "below"), lang)
        verdict = phrase("ab.sequential.stopped", lang, direction=direction, null=null,
                         confidence=1 - alpha, look=labels[i], p=pvalue[i], last=pvalue[-1])
    else:
        verdict = phrase("ab.sequential.running", lang, n=len(d), p=pvalue[-1], alpha=alpha,
                         low=low[-1], high=high[-1])
    return SequentialResult(d, v, pvalue, low, high, float(alpha), float(mixing_sd),
                            float(null), labels, verdict)


def sequential_test(cumulative: pd.DataFrame, metric: str | Metric, *, control: str,
                    treatment: str, mixing_sd: float, alpha: float = 0.05,
                    lang: str = "en") -> SequentialResult:
    """mSPRT of one metric over interim reduced tables.

    Parameters
    ----------
    cumulative : pandas.DataFrame
        Reduced tables indexed by (look, variant), e.g. from
        :func:`reteval.ab.sufficient.cumulative_statistics`.
    metric : str or Metric
    control, treatment : str
        Variant names.
    mixing_sd : float
        On the scale of the metric's difference (e.g. 0.02 for two
        percentage points of a rate).
    alpha : float, default 0.05
    lang : {"en", "zh"}, default "en"
        Language of the verdict.

    Returns
    -------
    SequentialResult

    Examples
    --------
    Three looks at a log where B's users are satisfied more often:

    >>> from reteval.ab.sufficient import cumulative_statistics
    >>> n = 3000
    >>> variant = np.where(np.arange(n) % 2 == 0, "A", "B")
    >>> rng = np.random.default_rng(0)
    >>> log = pd.DataFrame({"variant": variant, "user_id": [f"u{i}" for i in range(n)],
    ...                     "feedback": rng.binomial(1, np.where(variant == "A", 0.5, 0.6)),
    ...                     "n_clicks": 0, "n_retrieved": 10,
    ...                     "timestamp": pd.Timestamp("2024-05-01", tz="UTC")
    ...                     + pd.to_timedelta(np.arange(n), unit="min")})
    >>> looks = pd.date_range("2024-05-01 12:00", periods=3, freq="12h", tz="UTC")
    >>> res = sequential_test(cumulative_statistics(log, looks), "satisfaction",
    ...                       control="A", treatment="B", mixing_sd=0.05)
    >>> res.naive_pvalue.round(3).tolist()  # would have stopped, unjustified, at look 1
    [0.182, 0.009, 0.0]
    >>> res.pvalue.round(3).tolist(), res.stopped_at
    ([0.948, 0.153, 0.0], 2)
    """
    m = get_metric(metric)
    if not isinstance(cumulative.index, pd.MultiIndex) or cumulative.index.nlevels != 2:
        raise InputError("cumulative must be indexed by (look, variant)")
    est = estimate(cumulative, m)
    looks = cumulative.index.get_level_values(0).unique()
    variants = set(cumulative.index.get_level_values(1))
    for name in (control, treatment):
        if name not in variants:
            raise InputError(f"unknown variant {name!r}; the table holds {sorted(variants)!r}")
    wide = est.unstack(1).reindex(looks)
    diff = (wide["value"][treatment] - wide["value"][control]).to_numpy()
    var = (wide["variance"][treatment] + wide["variance"][control]).to_numpy()
    return msprt(diff, var, mixing_sd=mixing_sd, alpha=alpha, looks=tuple(looks), lang=lang)
