"""What ``reteval compare`` prints, as plain numbers; its default procedure without pandas.

:func:`reteval.evaluation.comparison.compare_scores` returns a
:class:`~reteval.evaluation.comparison.Comparison` of tables (pandas) holding everything;
the command line prints only the means, each measure's two-way ANOVA, the tested pairs and
the sentences saying which procedure answered which question: a
:class:`ComparisonNumbers`. :func:`comparison_numbers` reads them off a ``Comparison``;
:func:`tukey_numbers` computes them for the command's default procedure, the randomised
Tukey HSD, from numpy arrays with the functions of :mod:`reteval.stats.arrays`, drawing
the same random numbers in the same order as ``compare_scores`` does, so that the printed
results are the same to the last digit (the tests compare both) while neither pandas nor
scipy is imported (0.3-0.4 s of a command that takes about one second).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from reteval._util.validation import check_n_resamples, check_rng
from reteval.errors import InputError
from reteval.stats.arrays import (
    anova_numbers,
    margin_of_error,
    randomised_critical_difference,
    randomised_pvalues,
    randomised_ranges,
    system_means,
)
from reteval.stats.resampling import skip_bootstrap_mean_ci

__all__ = ["AnovaNumbers", "ComparisonNumbers", "comparison_numbers", "summary_lines",
           "tukey_numbers"]


@dataclass(frozen=True)
class AnovaNumbers:
    """One measure's two-way ANOVA, as printed (the fields of
    :class:`reteval.stats.AnovaResult` that ``reteval compare`` shows)."""

    statistic: float
    pvalue: float
    df_system: int
    df_residual: int
    residual_variance: float
    n_topics: int

    def margin_of_error(self, confidence_level: float = 0.95) -> float:
        """Half-width of a system mean's interval, ``t(df_residual) * sqrt(V_E / n)``."""
        return margin_of_error(self.residual_variance, self.n_topics, self.df_residual,
                               confidence_level)


@dataclass(frozen=True)
class ComparisonNumbers:
    """What ``reteval compare`` prints of a comparison.

    Attributes
    ----------
    systems, measures : tuple of str
    n_queries : int
    baseline : str or None
    test, correction : str
    alpha, confidence_level : float
    n_resamples : int
    means : dict
        Measure -> system -> mean score.
    anova : dict
        Measure -> its two-way ANOVA (:class:`AnovaNumbers` or
        :class:`reteval.stats.AnovaResult`).
    pairs : list of dict
        The tested pairs, as the rows of ``Comparison.pairwise``: ``measure``,
        ``system``, ``other``, ``mean_difference``, ``ci_low``, ``ci_high``,
        ``pvalue``, ``pvalue_corrected``, ``significant``.
    summary : list of str
        :meth:`Comparison.summary <reteval.evaluation.comparison.Comparison.summary>`.
    """

    systems: tuple
    measures: tuple
    n_queries: int
    baseline: str | None
    test: str
    correction: str
    alpha: float
    confidence_level: float
    n_resamples: int
    means: dict
    anova: dict
    pairs: list
    summary: list


def summary_lines(*, test: str, baseline: str | None, n_systems: int, alpha: float,
                  correction: str, confidence_level: float, n_queries: int,
                  with_anova: bool) -> list[str]:
    """Which procedure answered which question, one sentence each (in English).

    The text of :meth:`Comparison.summary
    <reteval.evaluation.comparison.Comparison.summary>`.

    Examples
    --------
    >>> lines = summary_lines(test="t", baseline="bm25", n_systems=3, alpha=0.05,
    ...                       correction="holm", confidence_level=0.95, n_queries=50,
    ...                       with_anova=True)
    >>> for line in lines:
    ...     print(line.split("? ")[0])
    Do the systems differ at all
    Which pairs differ
    How large are the differences
    How precise is each mean
    >>> lines[1].split("? ")[1]
    'Paired t test of each system against bm25, holm correction over the 2 tests of a measure.'
    """
    lines = []
    k = n_systems
    if with_anova:
        lines.append("Do the systems differ at all? Two-way ANOVA (topic x system), one F test "
                     "per measure.")
    n_pairs = k * (k - 1) // 2
    if test.startswith("tukey"):
        kind = "Randomised Tukey HSD" if test == "tukey" else "Tukey HSD (studentized range)"
        which = "Which pairs differ?" if baseline is None else (
            f"Which systems differ from {baseline}?")
        lines.append(f"{which} {kind} over all {n_pairs} pairs (family-wise error at most "
                     f"{alpha:g}; no further correction).")
        lines.append("How large are the differences? Effect sizes (mean_i - mean_j) / "
                     "sqrt(V_E) of the two-way ANOVA, with simultaneous intervals.")
    else:
        n_tests = k - 1 if baseline is not None else n_pairs
        what = f"each system against {baseline}" if baseline is not None else "every pair"
        corr = ("no correction" if correction == "none"
                else f"{correction} correction over the {n_tests} tests of a measure")
        lines.append(f"Which pairs differ? Paired {test} test of {what}, {corr}.")
        sizes = "Cohen's d_z of the differences"
        if with_anova:
            sizes += "; (mean_i - mean_j) / sqrt(V_E) in Comparison.anova"
        lines.append(f"How large are the differences? {sizes}.")
    lines.append(f"How precise is each mean? {confidence_level:.0%} percentile bootstrap "
                 f"interval over the {n_queries} queries.")
    return lines


def comparison_numbers(comparison) -> ComparisonNumbers:
    """The printed numbers of a :class:`~reteval.evaluation.comparison.Comparison` (a
    :class:`ComparisonNumbers` is returned as it is)."""
    if isinstance(comparison, ComparisonNumbers):
        return comparison
    c = comparison
    means = c.means
    return ComparisonNumbers(
        systems=tuple(c.systems), measures=tuple(c.measures), n_queries=c.n_queries,
        baseline=c.baseline, test=c.test, correction=c.correction, alpha=c.alpha,
        confidence_level=c.confidence_level, n_resamples=c.n_resamples,
        means={m: {s: float(means.loc[s, m]) for s in c.systems} for m in c.measures},
        anova=dict(c.anova),
        pairs=[row._asdict() for row in c.pairwise.itertuples(index=False)],
        summary=c.summary())


def tukey_numbers(scores: dict, systems, *, queries=None, baseline: str | None = None,
                  alpha: float = 0.05, rng=None, confidence_level: float = 0.95,
                  n_resamples: int = 10_000) -> ComparisonNumbers:
    """``compare_scores(..., test="tukey")`` as printed, on numpy arrays.

    Parameters
    ----------
    scores : dict of str to numpy.ndarray
        Measure -> per-query scores, ``(n_queries, n_systems)``, every measure on the
        same queries (at least 2) and systems (at least 2), in the same order.
    systems : sequence of str
        The systems' names, in column order.
    queries : sequence, optional
        The queries' ids, in row order, for messages (default: 0, 1, ...).
    baseline, alpha, rng, confidence_level, n_resamples
        As for :func:`~reteval.evaluation.comparison.compare_scores`.

    Returns
    -------
    ComparisonNumbers
        Equal to ``comparison_numbers(compare_scores(frames, test="tukey", ...))`` for
        the same scores as tables, the same generator and options.

    Examples
    --------
    >>> rr = np.array([[1.0, 0.5, 0.2], [0.5, 1.0, 0.1], [1.0, 0.0, 0.3], [0.9, 0.4, 0.2]])
    >>> numbers = tukey_numbers({"RR": rr}, ["a", "b", "c"], rng=0, n_resamples=999)
    >>> numbers.means["RR"]["a"], numbers.anova["RR"].df_residual
    (0.85, 6)
    >>> [(p["system"], p["other"]) for p in numbers.pairs]
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    """
    systems = tuple(systems)
    for name in systems:
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"system names (the keys of runs) must be non-empty str; got "
                             f"{name!r}")
    if len(set(systems)) != len(systems):
        raise InputError(f"system names must be distinct; got {list(systems)!r}")
    if baseline is not None and baseline not in systems:
        raise InputError(f"baseline must be one of the systems {list(systems)}; got "
                         f"{baseline!r}")
    for value, label in ((alpha, "alpha"), (confidence_level, "confidence_level")):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
            raise InputError(f"{label} must be a number strictly between 0 and 1; got {value!r}")
    measures = tuple(scores)
    matrices = {m: np.asarray(scores[m], dtype=np.float64) for m in measures}
    n_q = next(iter(matrices.values())).shape[0]
    if n_q < 2 or len(systems) < 2 or any(x.shape != (n_q, len(systems))
                                          for x in matrices.values()):
        raise InputError("tukey_numbers needs every measure's scores as (n_queries, n_systems) "
                         "arrays of the same shape, with 2 or more of both")
    n_resamples = check_n_resamples(n_resamples)
    gen = check_rng(rng)
    for m, x in matrices.items():
        bad = np.argwhere(np.isnan(x))
        if len(bad):
            q = bad[0][0] if queries is None else queries[bad[0][0]]
            raise InputError(f"per_query[{m!r}]: system {systems[bad[0][1]]!r} has no score for "
                             f"query {q!r}")
    # The draws of compare_scores, in its order: those of the bootstrap intervals of the means
    # first (not printed, so only drawn), then the rounds of the Tukey HSD.
    skip_bootstrap_mean_ci(n_q, n_resamples=n_resamples, rng=gen)
    ranges = randomised_ranges(np.stack([matrices[m] for m in measures], axis=2), n_resamples,
                               gen)
    if baseline is not None:
        pairs = [(s, baseline) for s in systems if s != baseline]
    else:
        pairs = [(systems[i], systems[j]) for i in range(len(systems))
                 for j in range(i + 1, len(systems))]
    pos = {s: k for k, s in enumerate(systems)}
    means, anova, rows = {}, {}, []
    for k, m in enumerate(measures):
        x = matrices[m]
        # as pandas' Series.mean gives them: the column summed alone, then divided
        column_means = {s: float(x[:, j].sum() / n_q) for j, s in enumerate(systems)}
        means[m] = column_means
        numbers = anova_numbers(x)
        anova[m] = AnovaNumbers(numbers["statistic"], numbers["pvalue"], numbers["df_system"],
                                numbers["df_residual"], numbers["residual_variance"], n_q)
        centre = system_means(x)
        difference = centre[:, None] - centre[None, :]
        pvalue = randomised_pvalues(difference, ranges[:, k])
        half = randomised_critical_difference(ranges[:, k], confidence_level)
        for s, o in pairs:
            i, j = pos[s], pos[o]
            p = pvalue[i, j]
            rows.append({"measure": m, "system": s, "other": o,
                         "mean_difference": float(column_means[s] - column_means[o]),
                         "ci_low": float(difference[i, j] - half),
                         "ci_high": float(difference[i, j] + half), "pvalue": p,
                         "pvalue_corrected": p,
                         "significant": bool(p <= alpha) if not math.isnan(p) else False})
    return ComparisonNumbers(
        systems=systems, measures=measures, n_queries=n_q, baseline=baseline, test="tukey",
        correction="none", alpha=float(alpha), confidence_level=float(confidence_level),
        n_resamples=int(n_resamples), means=means, anova=anova, pairs=rows,
        summary=summary_lines(test="tukey", baseline=baseline, n_systems=len(systems),
                              alpha=float(alpha), correction="none",
                              confidence_level=float(confidence_level), n_queries=n_q,
                              with_anova=True))
