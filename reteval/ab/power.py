"""Power, sample size and minimum detectable effect of an A/B test (two groups).

The A/B names of the two-sample planning functions of
:mod:`reteval.stats.planning`, where the formulas, the conventions and the
paired-t planning of a test collection live: ``power`` is
:func:`~reteval.stats.planning.two_sample_power` and ``sample_size`` is
:func:`~reteval.stats.planning.two_sample_size`.

>>> round(sample_size(proportion_effect_size(0.55, 0.50)), 1)
1564.5
"""

from __future__ import annotations

from reteval.stats.planning import (
    minimum_detectable_effect,
    proportion_effect_size,
    proportion_mde,
)
from reteval.stats.planning import two_sample_power as power
from reteval.stats.planning import two_sample_size as sample_size

__all__ = [
    "minimum_detectable_effect",
    "power",
    "proportion_effect_size",
    "proportion_mde",
    "sample_size",
]
