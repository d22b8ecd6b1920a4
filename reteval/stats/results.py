"""Frozen results of the paired tests, each with ``confidence_interval(confidence_level)``."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

__all__ = [
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
