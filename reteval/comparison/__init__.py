"""Comparisons of systems: means, paired tests or Tukey's HSD, the ANOVA, the best system.

=============  =====================================================================
module         idea
=============  =====================================================================
``core``       the one computation, on numpy arrays (:func:`compare_arrays`)
``result``     :class:`Comparison`: its tables, views and marks
``compare``    :func:`compare` (runs or retrievers) and :func:`compare_scores`
=============  =====================================================================

Every public name is importable from ``reteval.comparison``, loaded on first use.
"""

from reteval._util.lazy import lazy_names

__all__ = ["COMPARE_TESTS", "Comparison", "ComparisonNumbers", "compare", "compare_arrays",
           "compare_scores"]

__getattr__, __dir__ = lazy_names(__name__, {
    "COMPARE_TESTS": "reteval.comparison.core", "ComparisonNumbers": "reteval.comparison.core",
    "compare_arrays": "reteval.comparison.core", "Comparison": "reteval.comparison.result",
    "compare": "reteval.comparison.compare", "compare_scores": "reteval.comparison.compare",
}, __all__)
