"""Online metrics and their estimates, computed from sufficient statistics.

A metric is a ratio of two sums over users, ``sum(x) / sum(y)``, of per-user
quantities (:data:`reteval.ab.sufficient.USER_QUANTITIES`):

``kind="ratio"``
    ``y`` is a per-user count such as queries: the metric is a rate per
    query (satisfaction, click-through, clicks per query). Its numerator and
    denominator are correlated within a user, so its variance comes from the
    delta method (Deng, Knoblich & Lu 2018)::

        R = sum(x) / sum(y),  Var(R) ~ (s_xx - 2 R s_xy + R^2 s_yy) / (n * ybar^2)

    with the sample (co)variances ``s`` (``ddof=1``) of the per-user values.
``kind="mean"``
    ``y = 1`` for every user: a per-user mean, with variance ``s_xx / n``.
``kind="proportion"``
    a per-user mean of a 0/1 quantity, with variance ``p (1 - p) / n``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from reteval._util.catalogue import phrase
from reteval.ab.sufficient import USER_QUANTITIES
from reteval.errors import InputError

__all__ = ["METRICS", "Metric", "estimate", "get_metric"]

_KINDS = ("ratio", "mean", "proportion")


@dataclass(frozen=True)
class Metric:
    """A metric: ``sum(numerator) / sum(denominator)`` over users.

    Parameters
    ----------
    name : str
    numerator : str
        A quantity of :data:`~reteval.ab.sufficient.USER_QUANTITIES`.
    denominator : str or None
        Another quantity (``kind="ratio"``) or None for a per-user mean.
    kind : {"ratio", "mean", "proportion"}
    higher_is_better : bool, default True
        Which direction counts as an improvement (a guardrail "degrades" in
        the other direction).
    label : str
        Plain-language name for verdicts.
    percent : bool, default False
        Whether values read best as percentages.
    """

    name: str
    numerator: str
    denominator: str | None = None
    kind: str = "ratio"
    higher_is_better: bool = True
    label: str = ""
    percent: bool = False

    def __post_init__(self):
        if self.kind not in _KINDS:
            raise InputError(f"metric kind must be one of {_KINDS!r}; got {self.kind!r}")
        for part in (self.numerator, self.denominator):
            if part is not None and part not in USER_QUANTITIES:
                raise InputError(f"metric {self.name!r}: unknown quantity {part!r}; expected "
                                 f"one of {USER_QUANTITIES!r}")
        if (self.kind == "ratio") != (self.denominator is not None):
            raise InputError(f"metric {self.name!r}: a ratio needs a denominator and a "
                             f"{self.kind!r} metric must not have one")
        if not self.label:
            object.__setattr__(self, "label", self.name.replace("_", " "))

    def format(self, value: float) -> str:
        """Format a metric value (or difference) for a verdict."""
        return f"{100 * value:.2f}%" if self.percent else f"{value:.4g}"


def _label(name: str) -> str:
    return phrase(f"ab.metric.{name}", "en")


#: The built-in metrics by name.
METRICS = {m.name: m for m in (
    Metric("satisfaction", "satisfied", "feedback", label=_label("satisfaction"), percent=True),
    Metric("ctr", "clicked_queries", "queries", label=_label("ctr"), percent=True),
    Metric("clicks_per_query", "clicks", "queries", label=_label("clicks_per_query")),
    Metric("avg_retrieved", "retrieved", "queries", label=_label("avg_retrieved")),
    Metric("queries_per_user", "queries", kind="mean", label=_label("queries_per_user")),
    Metric("user_click_rate", "any_click", kind="proportion",
           label=_label("user_click_rate"), percent=True),
)}


def get_metric(metric: str | Metric) -> Metric:
    """Return a :class:`Metric` from a name of :data:`METRICS` (or the metric itself)."""
    if isinstance(metric, Metric):
        return metric
    if metric not in METRICS:
        raise InputError(f"unknown metric {metric!r}; expected one of {sorted(METRICS)!r} "
                         "or a Metric")
    return METRICS[metric]


def _col(stats: pd.DataFrame, name: str) -> np.ndarray:
    if name not in stats.columns:
        raise InputError(f"reduced table is missing column {name!r}; build it with "
                         "reteval.ab.sufficient.reduce_log")
    return stats[name].to_numpy(dtype=float)


def _product(stats: pd.DataFrame, q: str, r: str) -> np.ndarray:
    a, b = sorted((q, r), key=USER_QUANTITIES.index)
    return _col(stats, f"{a}*{b}")


def estimate(stats: pd.DataFrame, metric: str | Metric) -> pd.DataFrame:
    """Estimate a metric and the variance of the estimate, per variant.

    Parameters
    ----------
    stats : pandas.DataFrame
        A reduced table (:func:`reteval.ab.sufficient.reduce_log`), one row
        per variant.
    metric : str or Metric

    Returns
    -------
    pandas.DataFrame
        Same index; columns ``users``, ``value`` and ``variance`` (of
        ``value``; NaN when fewer than two users or a zero denominator).

    Examples
    --------
    Two users with (clicks, queries) = (1, 2) and (3, 4): R = 4/6, the sample
    variances and covariance are all 2, so Var = (2 - 2R*2 + R**2*2) / (2 * 3**2) = 2/162.

    >>> stats = pd.DataFrame({"users": [2], "clicks": [4], "queries": [6],
    ...                       "queries*queries": [20], "queries*clicks": [14],
    ...                       "clicks*clicks": [10]}, index=pd.Index(["A"], name="variant"))
    >>> est = estimate(stats, "clicks_per_query")
    >>> round(float(est.loc["A", "value"]), 6), round(float(est.loc["A", "variance"]), 6)
    (0.666667, 0.012346)
    """
    m = get_metric(metric)
    n = _col(stats, "users")
    sx = _col(stats, m.numerator)
    with np.errstate(divide="ignore", invalid="ignore"):
        if m.kind == "ratio":
            sy = _col(stats, m.denominator)
            value = sx / sy
            cxx = (_product(stats, m.numerator, m.numerator) - sx * sx / n) / (n - 1)
            cyy = (_product(stats, m.denominator, m.denominator) - sy * sy / n) / (n - 1)
            cxy = (_product(stats, m.numerator, m.denominator) - sx * sy / n) / (n - 1)
            ybar = sy / n
            var = (cxx - 2 * value * cxy + value**2 * cyy) / (n * ybar**2)
        elif m.kind == "mean":
            value = sx / n
            var = (_product(stats, m.numerator, m.numerator) - sx * sx / n) / (n - 1) / n
        else:
            value = sx / n
            var = value * (1 - value) / n
        var = np.where((n >= 2) & np.isfinite(value), np.maximum(var, 0.0), np.nan)
    out = pd.DataFrame({"users": n.astype("int64"), "value": value, "variance": var},
                       index=stats.index)
    return out
