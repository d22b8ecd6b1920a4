"""Paired significance tests, multiple-comparison corrections, confidence intervals, planning.

Two retrieval systems run on the same queries give *paired* per-query scores
``x[i]`` and ``y[i]``. Every test here works on the differences
``d[i] = x[i] - y[i]`` and asks whether their mean (or, for Wilcoxon, their
centre) is zero. All tests are two-sided.

==================  ==============================================  =========================
test                null distribution                               confidence interval
==================  ==============================================  =========================
``t``               Student's t with n - 1 degrees of freedom       t interval of the mean
                                                                    difference
``wilcoxon``        signed ranks: exact, enumerated or normal       Hodges-Lehmann interval of
                    (same rules as ``scipy.stats.wilcoxon``)        the pseudo-median
``randomization``   random sign flips of the differences            inversion of the same
                    (Fisher's randomization test)                   randomization test
``bootstrap``       resampled differences shifted to mean zero      percentile interval of the
                                                                    mean difference
==================  ==============================================  =========================

Every test returns a frozen result with ``statistic``, ``pvalue``,
``mean_difference``, ``effect_size`` (Cohen's :math:`d_z`, the mean difference
divided by the standard deviation of the differences, the same for every test
so that tests can be swapped), ``sd_difference``, ``n`` and a method
``confidence_interval(confidence_level=0.95)``.

Monte Carlo p-values (randomization, bootstrap) are ``(count + 1) / (n_resamples + 1)``
where ``count`` is the number of resamples at least as extreme as the observed
data: the observed arrangement is itself one of the possible arrangements, so
the estimate is never zero and the test keeps its level.
"Extreme" compares with a relative tolerance of ``1e-9`` so that a resample
whose statistic equals the observed one up to floating-point rounding counts.

Randomness comes only from the ``rng`` argument: a ``numpy.random.Generator``,
an integer seed or ``None`` (fresh entropy). The same seed gives the same
result.

:func:`pairwise_tests` runs one test for many systems at once: the
randomization and bootstrap tests draw one matrix of sign flips (or resampling
weights) per chunk of rounds and multiply it with the matrix of all pairs'
differences, so 10,000 rounds for 10 pairs over 10,000 queries take a fraction
of a second.

Many systems on the same topics (:mod:`reteval.stats.multiple`): the
two-way ANOVA without replication :func:`anova` (F, V_E, the margin of error of
the means), Tukey's HSD :func:`tukey_hsd` (randomised or studentized, with
effect sizes ``(mean_i - mean_j) / sqrt(V_E)``; :func:`tukey_hsd_measures` for
several measures of the same systems on the same rounds) and
:func:`discriminative_power`. Risk against a baseline
(:mod:`reteval.stats.risk`): :func:`urisk`, :func:`trisk`.

Multiple comparisons: :func:`adjust_pvalues` (Holm, Bonferroni,
Benjamini-Hochberg). Intervals of a system's mean: :func:`bootstrap_mean_ci`.
Planning (:mod:`reteval.stats.planning`): a test collection with
:func:`paired_t_power`, :func:`queries_needed`,
:func:`minimum_detectable_difference`; many systems with
:func:`queries_needed_anova`, :func:`anova_power`, :func:`pilot_variance`; two groups with
:func:`two_sample_power`, :func:`two_sample_size`,
:func:`minimum_detectable_effect`, :func:`proportion_effect_size`,
:func:`proportion_mde`.

Every public name is importable from ``reteval.stats`` and loaded on first use (PEP 562):
the modules that need neither pandas nor scipy (:mod:`reteval.stats.resampling`,
:mod:`reteval.stats.arrays`, :mod:`reteval.stats.distributions`) can be used without
loading them.

References
----------
.. [1] M. D. Smucker, J. Allan, B. Carterette. "A comparison of statistical
   significance tests for information retrieval evaluation." CIKM 2007.
.. [2] T. Sakai. "Statistical reform in information retrieval?" SIGIR Forum 48(1), 2014.
.. [3] B. Efron, R. Tibshirani. *An Introduction to the Bootstrap*, ch. 16, 1993.
.. [4] T. Sakai. *Laboratory Experiments in Information Retrieval*, Springer, 2018.
.. [5] B. T. Dinçer, C. Macdonald, I. Ounis. "Hypothesis testing for the
   risk-sensitive evaluation of retrieval systems." SIGIR 2014.
.. [6] M. Hollander, D. A. Wolfe. *Nonparametric Statistical Methods*, 2nd ed.,
   section 3.3 (Hodges-Lehmann interval), 1999.
"""

from reteval._util.lazy import lazy_names

__all__ = [
    "CORRECTIONS",
    "TESTS",
    "TUKEY_METHODS",
    "AnovaResult",
    "BootstrapResult",
    "ConfidenceInterval",
    "DiscriminativePowerResult",
    "PairedTestResult",
    "RandomizationResult",
    "RiskResult",
    "TTestResult",
    "TukeyHSDResult",
    "WilcoxonResult",
    "adjust_pvalues",
    "anova",
    "anova_power",
    "bootstrap_mean_ci",
    "bootstrap_test",
    "canonical_correction",
    "canonical_test",
    "discriminative_power",
    "format_pvalue",
    "minimum_detectable_difference",
    "minimum_detectable_effect",
    "paired_t_power",
    "paired_t_test",
    "paired_test",
    "pairwise_tests",
    "pilot_variance",
    "proportion_effect_size",
    "proportion_mde",
    "queries_needed",
    "queries_needed_anova",
    "randomization_test",
    "trisk",
    "tukey_hsd",
    "tukey_hsd_measures",
    "two_sample_power",
    "two_sample_size",
    "urisk",
    "wilcoxon_test",
]

# public name -> the submodule that defines it, imported on first use (PEP 562): the
# statistics reteval compare runs need neither pandas nor scipy, which other modules load
_HOME = {
    "CORRECTIONS": "corrections", "adjust_pvalues": "corrections",
    "canonical_correction": "corrections",
    "TESTS": "pairwise", "canonical_test": "pairwise", "paired_test": "pairwise",
    "pairwise_tests": "pairwise",
    "TUKEY_METHODS": "multiple", "AnovaResult": "results",
    "DiscriminativePowerResult": "multiple", "TukeyHSDResult": "multiple", "anova": "multiple",
    "discriminative_power": "multiple", "tukey_hsd": "multiple", "tukey_hsd_measures": "multiple",
    "BootstrapResult": "resampling", "RandomizationResult": "resampling",
    "bootstrap_mean_ci": "resampling", "bootstrap_test": "resampling",
    "randomization_test": "resampling",
    "ConfidenceInterval": "results", "PairedTestResult": "results", "format_pvalue": "results",
    "RiskResult": "risk", "trisk": "risk", "urisk": "risk",
    "TTestResult": "paired", "WilcoxonResult": "paired", "paired_t_test": "paired",
    "wilcoxon_test": "paired",
    "anova_power": "planning", "minimum_detectable_difference": "planning",
    "minimum_detectable_effect": "planning", "paired_t_power": "planning",
    "pilot_variance": "planning", "proportion_effect_size": "planning",
    "proportion_mde": "planning", "queries_needed": "planning", "queries_needed_anova": "planning",
    "two_sample_power": "planning", "two_sample_size": "planning",
}

__getattr__, __dir__ = lazy_names(__name__, {k: f"reteval.stats.{v}" for k, v in _HOME.items()},
                                  __all__)
