"""Frozen results of the paired tests, each with ``confidence_interval(confidence_level)``,
and of the two-way ANOVA (:class:`AnovaResult`); no pandas is loaded here."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from reteval.stats.arrays import margin_of_error

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "AnovaResult",
    "ConfidenceInterval",
    "PairedTestResult",
    "format_pvalue",
]


class ConfidenceInterval(NamedTuple):
    """A confidence interval ``(low, high)``; floats, or arrays for many systems."""

    low: float
    high: float


@dataclass(frozen=True)
class PairedTestResult:
    """Result of a paired test of ``x`` against ``y`` (differences ``x - y``).

    Attributes
    ----------
    test : str
        Canonical test name (a key of :data:`TESTS` values).
    statistic : float
        The test statistic (see the subclass).
    pvalue : float
        Two-sided p-value.
    mean_difference : float
        Mean of ``x - y``; positive when ``x`` scores higher.
    effect_size : float
        Cohen's :math:`d_z`: ``mean_difference / sd_difference``.
    sd_difference : float
        Standard deviation of the differences (``ddof=1``); feed it to
        :func:`queries_needed` to plan a collection.
    n : int
        Number of paired queries.
    """

    test: str
    statistic: float
    pvalue: float
    mean_difference: float
    effect_size: float
    sd_difference: float
    n: int

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Confidence interval that matches the test; see the subclass."""
        raise NotImplementedError


@dataclass(frozen=True)
class AnovaResult:
    """Two-way ANOVA without replication (topic x system) of :func:`reteval.stats.anova`.

    Attributes
    ----------
    statistic : float
        F of the system factor, ``(S_A / df_system) / residual_variance``.
    pvalue : float
        Upper tail of F with ``(df_system, df_residual)`` degrees of freedom.
    df_system, df_topic, df_residual : int
        ``m - 1``, ``n - 1`` and ``(m - 1)(n - 1)``.
    ss_system, ss_topic, ss_residual : float
        Sums of squares ``S_A``, ``S_B``, ``S_E``.
    residual_variance : float
        ``V_E = S_E / df_residual``: the variance to plan with
        (:func:`reteval.stats.queries_needed_anova`) and the unit of effect sizes.
    topic_statistic, topic_pvalue : float
        F and p-value of the topic factor (topics nearly always differ).
    means : pandas.Series
        Mean score of each system, indexed by system (a numpy array in the numbers of
        :func:`reteval.comparison.compare_arrays`, which load no pandas).
    n_topics, n_systems : int
    note : str
        Empty, or why the F tests are NaN: no residual variance (see :func:`reteval.stats.anova`).
    """

    statistic: float
    pvalue: float
    df_system: int
    df_topic: int
    df_residual: int
    ss_system: float
    ss_topic: float
    ss_residual: float
    residual_variance: float
    topic_statistic: float
    topic_pvalue: float
    means: pd.Series = field(repr=False)  # or a numpy array: see above
    n_topics: int
    n_systems: int
    note: str = ""

    def margin_of_error(self, confidence_level: float = 0.95) -> float:
        """Half-width of a system mean's interval, ``t(df_residual) * sqrt(V_E / n)``.

        Sakai's MOE: the same for every system, because the residual
        variance pools the systems' deviations once topic effects are removed.
        """
        return margin_of_error(self.residual_variance, self.n_topics, self.df_residual,
                               confidence_level)

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Interval of every system mean, ``mean -/+ margin_of_error``, as two Series."""
        moe = self.margin_of_error(confidence_level)
        return ConfidenceInterval(self.means - moe, self.means + moe)


def format_pvalue(p, *, missing: str = "-") -> str:
    """A p-value as reports print it: four decimals, ``"< 0.0001"`` below that.

    Parameters
    ----------
    p : float or None
        The p-value; None or NaN is printed as ``missing``.
    missing : str, default "-"
        The text for a p-value that was not computed.

    Examples
    --------
    >>> format_pvalue(0.03125), format_pvalue(2e-7), format_pvalue(float("nan"))
    ('0.0312', '< 0.0001', '-')
    """
    if p is None or math.isnan(p):
        return missing
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"
