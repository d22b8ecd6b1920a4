"""Many systems on the same topics: two-way ANOVA, Tukey HSD, discriminative power.

``scores`` is one measure's per-topic values of several systems: a
:class:`pandas.DataFrame` with one row per topic and one column per system
(the per-query frame of :func:`reteval.evaluate`, one column per run), a
mapping ``system -> pandas.Series`` indexed by topic, or an array of shape
``(n_topics, n_systems)``.

The design is the *paired* one of a test collection: every system answers
every topic, so the topic is a blocking factor. With ``m`` systems, ``n``
topics and scores ``x[j, i]`` (topic ``j``, system ``i``), the two-way ANOVA
without replication splits the total sum of squares into

* systems: ``S_A = n * sum_i (mean_i - grand)^2``, ``m - 1`` degrees of freedom;
* topics: ``S_B = m * sum_j (mean_j - grand)^2``, ``n - 1`` degrees of freedom;
* residual: ``S_E = S_T - S_A - S_B``, ``phi_E = (m - 1)(n - 1)`` degrees of freedom,

and ``V_E = S_E / phi_E`` is the residual variance. ``F = (S_A / (m - 1)) / V_E``
tests whether all system means are equal. The margin of error of a system's
mean is ``t(phi_E; 1 - alpha/2) * sqrt(V_E / n)`` (Sakai's MOE).

Tukey's honestly significant difference answers a different question than
pairwise tests plus a correction: it controls the family-wise error of *all*
``m (m - 1) / 2`` pairs at once through the distribution of the largest
difference of means. Two ways to get that distribution:

* ``method="studentized"``: ``q = |mean_i - mean_j| / sqrt(V_E / n)`` against
  the studentized range distribution with ``m`` means and ``phi_E`` degrees of
  freedom (:data:`scipy.stats.studentized_range`), V_E from the two-way ANOVA;
* ``method="randomised"``: Carterette's randomised Tukey HSD. Under the null
  hypothesis that the systems are interchangeable, each topic's scores can be
  permuted across systems. Every round permutes every topic's row, computes
  the system means and their range ``max - min``; the p-value of a pair is
  ``(count + 1) / (n_resamples + 1)`` with ``count`` the rounds whose range is
  at least the pair's observed difference. No normality assumption.

The effect size of a pair is ``ES_ij = (mean_i - mean_j) / sqrt(V_E)``, the
difference in units of the residual standard deviation (Sakai 2018, ch. 5),
the same whatever the test.

Discriminative power (Sakai 2006) asks how often a measure tells systems
apart: run a test on every pair of systems and count the pairs whose p-value
(the achieved significance level, ASL) is below ``alpha``. The sorted ASLs,
plotted against the pairs, are the ASL curve.

References
----------
.. [1] T. Sakai. *Laboratory Experiments in Information Retrieval: Sample
   Sizes, Effect Sizes, and Statistical Power*, ch. 3 and 5. Springer, 2018.
.. [2] B. A. Carterette. "Multiple testing in statistical analysis of
   systems-based information retrieval experiments." ACM TOIS 30(1), 2012.
.. [3] T. Sakai. "Evaluating evaluation metrics based on the bootstrap." SIGIR 2006.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from reteval._util.validation import (
    check_n_resamples,
    check_probability,
    check_rng,
)
from reteval.errors import InputError
from reteval.stats.arrays import (
    anova_numbers,
    randomised_ranges,
    tukey_arrays,
    tukey_critical_difference,
)
from reteval.stats.pairwise import TESTS, pairwise_tests
from reteval.stats.results import AnovaResult, ConfidenceInterval
from reteval.stats.scores import score_frame

__all__ = [
    "TUKEY_METHODS",
    "DiscriminativePowerResult",
    "TukeyHSDResult",
    "anova",
    "discriminative_power",
    "randomised_ranges",
    "score_frame",
    "tukey_hsd",
    "tukey_hsd_measures",
    "tukey_result",
]

#: Accepted names of the two Tukey HSD procedures.
TUKEY_METHODS: dict[str, str] = {
    "randomised": "randomised",
    "randomized": "randomised",
    "randomization": "randomised",
    "studentized": "studentized",
    "studentised": "studentized",
}


# --------------------------------------------------------------------------- ANOVA


def anova(scores) -> AnovaResult:
    """Two-way ANOVA without replication: do the systems' mean scores differ?

    Parameters
    ----------
    scores : DataFrame, mapping or array_like
        One measure's per-topic scores, topics x systems (see :func:`score_frame`).

    Returns
    -------
    AnovaResult

    Raises
    ------
    InputError
        See :func:`score_frame`.

    Notes
    -----
    Agrees with ``statsmodels.stats.anova.anova_lm(ols("score ~ C(system) +
    C(topic)", long).fit())`` on the long form of the same scores.

    With no residual variance there is nothing to test the systems against: a
    system and an exact copy of itself, or any scores in which each system adds
    the same amount to every topic. The residual sum of squares is then rounding
    noise, which would give any F at all; every sum of squares below the
    rounding noise of the scores' magnitude counts as 0, and with ``S_E = 0``
    the F statistics and p-values are NaN and ``note`` says why (no error: the
    means, sums of squares and a margin of error of 0 are still right). Scores
    are scaled before they are squared, so magnitudes near 1e155 keep their F
    (:func:`reteval.stats.arrays.anova_numbers`).

    Examples
    --------
    >>> scores = pd.DataFrame({"a": [0.4, 0.6, 0.8], "b": [0.3, 0.4, 0.8],
    ...                        "c": [0.1, 0.3, 0.5]}, index=["q1", "q2", "q3"])
    >>> res = anova(scores)
    >>> round(res.statistic, 3), round(res.pvalue, 4), res.df_system, res.df_residual
    (21.0, 0.0076, 2, 4)
    >>> round(res.residual_variance, 5), round(res.margin_of_error(), 4)
    (0.00333, 0.0925)
    >>> copy = anova(scores[["a"]].assign(copy=scores["a"]))
    >>> copy.statistic, copy.pvalue, copy.ss_residual
    (nan, nan, 0.0)
    >>> copy.note[:23]
    'no residual variance: o'
    """
    frame = score_frame(scores)
    numbers = anova_numbers(frame.to_numpy())
    means = pd.Series(numbers.pop("system_means"), index=frame.columns, name="mean")
    return AnovaResult(**numbers, means=means)


# --------------------------------------------------------------------------- Tukey HSD


@dataclass(frozen=True)
class TukeyHSDResult:
    """All pairs of systems by Tukey's HSD, from :func:`tukey_hsd`.

    Every matrix is a system x system DataFrame; entry ``[i, j]`` is about
    ``i`` minus ``j`` (the diagonal: difference 0, p-value 1).

    Attributes
    ----------
    method : str
        ``"randomised"`` or ``"studentized"``.
    pvalue : pandas.DataFrame
        Family-wise adjusted p-values (symmetric).
    effect_size : pandas.DataFrame
        ``(mean_i - mean_j) / sqrt(V_E)`` (antisymmetric).
    mean_difference : pandas.DataFrame
        ``mean_i - mean_j``.
    statistic : pandas.DataFrame
        ``|mean_i - mean_j| / sqrt(V_E / n)``, the studentized range of the pair
        (also given for the randomised method).
    means : pandas.Series
    residual_variance : float
        V_E of the two-way ANOVA.
    df_residual, n_topics, n_systems : int
    n_resamples : int
        Rounds of the randomised method (0 for the studentized one).
    null_ranges : numpy.ndarray
        The randomised method's range of means in every round (empty for the
        studentized one); the distribution its intervals are read from.
    """

    method: str
    pvalue: pd.DataFrame
    effect_size: pd.DataFrame
    mean_difference: pd.DataFrame
    statistic: pd.DataFrame
    means: pd.Series = field(repr=False)
    residual_variance: float
    df_residual: int
    n_topics: int
    n_systems: int
    n_resamples: int
    null_ranges: np.ndarray = field(repr=False)

    def significant(self, alpha: float = 0.05) -> pd.DataFrame:
        """Boolean matrix: pairs whose p-value is at most ``alpha`` (diagonal False)."""
        alpha = check_probability(alpha, "alpha")
        out = self.pvalue.to_numpy() <= alpha
        np.fill_diagonal(out, False)
        return pd.DataFrame(out, index=self.pvalue.index.copy(),
                            columns=self.pvalue.columns.copy())

    def critical_difference(self, confidence_level: float = 0.95) -> float:
        """Smallest difference of means that is significant at ``1 - confidence_level``.

        Studentized: ``q(m, phi_E; level) * sqrt(V_E / n)``. Randomised: the
        ``confidence_level`` quantile of the null ranges (the observed
        arrangement counted as one of them, as in the p-values).
        """
        return tukey_critical_difference(
            self.method, self.null_ranges, residual_variance=self.residual_variance,
            n_topics=self.n_topics, n_systems=self.n_systems, df_residual=self.df_residual,
            confidence_level=confidence_level)

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Simultaneous intervals of every difference of means, two DataFrames.

        ``mean_difference -/+ critical_difference(confidence_level)``: all of
        them cover the true differences together with probability
        ``confidence_level``.
        """
        half = self.critical_difference(confidence_level)
        return ConfidenceInterval(self.mean_difference - half, self.mean_difference + half)

    def effect_size_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """:meth:`confidence_interval` in effect-size units (divided by ``sqrt(V_E)``)."""
        low, high = self.confidence_interval(confidence_level)
        sd = math.sqrt(self.residual_variance)
        return ConfidenceInterval(low / sd, high / sd)

    def pairs(self, alpha: float = 0.05) -> pd.DataFrame:
        """One row per unordered pair ``(system, other)`` in column order: the long form.

        Columns ``system``, ``other``, ``mean_difference``, ``effect_size``,
        ``pvalue``, ``significant``.
        """
        alpha = check_probability(alpha, "alpha")
        names = list(self.pvalue.columns)
        rows = []
        for a in range(len(names)):
            for b in range(a + 1, len(names)):
                s, o = names[a], names[b]
                p = float(self.pvalue.loc[s, o])
                rows.append({"system": s, "other": o,
                             "mean_difference": float(self.mean_difference.loc[s, o]),
                             "effect_size": float(self.effect_size.loc[s, o]),
                             "pvalue": p, "significant": p <= alpha})
        return pd.DataFrame(rows, columns=["system", "other", "mean_difference", "effect_size",
                                           "pvalue", "significant"])


def _method(method) -> str:
    key = method.lower() if isinstance(method, str) else None
    if key not in TUKEY_METHODS:
        raise InputError(f"method must be one of {sorted(TUKEY_METHODS)}; got {method!r}")
    return TUKEY_METHODS[key]


def tukey_hsd(scores, *, method: str = "randomised", n_resamples: int = 10_000,
              rng=None) -> TukeyHSDResult:
    """Tukey's honestly significant difference test of every pair of systems.

    Parameters
    ----------
    scores : DataFrame, mapping or array_like
        One measure's per-topic scores, topics x systems (see :func:`score_frame`).
    method : str, keyword-only
        ``"randomised"`` (default; Carterette's randomised Tukey HSD, alias
        ``"randomized"``) or ``"studentized"`` (the studentized range
        distribution with the two-way ANOVA's V_E). See the module docstring.
    n_resamples : int, keyword-only
        Rounds of the randomised method (ignored by the studentized one).
    rng : numpy.random.Generator, int or None, keyword-only
        Randomness of the randomised method.

    Returns
    -------
    TukeyHSDResult

    Raises
    ------
    InputError
        Bad scores (see :func:`score_frame`), an unknown method, ``n_resamples`` < 1.

    Notes
    -----
    The studentized p-value of a pair is
    ``scipy.stats.studentized_range.sf(q, m, (m - 1)(n - 1))`` with
    ``q = |mean_i - mean_j| / sqrt(V_E / n)``, computed for all pairs at once
    (:func:`reteval.stats.studentized.studentized_range_sf`, within 1e-9 of
    scipy's). With no residual variance (see :func:`anova`) its p-values are
    NaN: there is no test. This differs from
    ``scipy.stats.tukey_hsd``, which treats the systems as independent groups
    (one-way design) and ignores that they share the topics.

    Examples
    --------
    >>> scores = pd.DataFrame({"a": [0.4, 0.6, 0.8, 0.7], "b": [0.3, 0.4, 0.8, 0.5],
    ...                        "c": [0.1, 0.3, 0.5, 0.4]})
    >>> res = tukey_hsd(scores, method="studentized")
    >>> res.pvalue.round(4)
            a       b       c
    a  1.0000  0.0427  0.0006
    b  0.0427  1.0000  0.0100
    c  0.0006  0.0100  1.0000
    >>> res.effect_size.loc["a", "c"].round(3)
    np.float64(5.427)
    >>> rand = tukey_hsd(scores, n_resamples=2000, rng=0)
    >>> bool(rand.pvalue.loc["a", "c"] < 0.05)
    True
    """
    name = _method(method)
    frame = score_frame(scores)
    ranges = None
    if name == "randomised":
        n_resamples = check_n_resamples(n_resamples)
        ranges = randomised_ranges(frame.to_numpy(), n_resamples, check_rng(rng))
    return _tukey_result(frame, name, ranges)


def tukey_hsd_measures(scores: Mapping, *, method: str = "randomised",
                       n_resamples: int = 10_000, rng=None) -> dict[str, TukeyHSDResult]:
    """:func:`tukey_hsd` of several measures of the same systems on the same topics.

    The randomised method draws its rounds once for all the measures: in each
    round every topic's systems are permuted once, and each measure's scores
    follow that permutation (the systems' rankings change places as a whole,
    every measure with them). Each measure's result is then the one
    :func:`tukey_hsd` gives it alone with a generator in the same state; the
    rounds cost little more than those of one measure. (Measures tested on the
    same rounds are not independent of each other, as measures of the same
    rankings never are.)

    Parameters
    ----------
    scores : mapping of str to DataFrame, mapping or array_like
        Measure -> its per-topic scores, topics x systems (see :func:`score_frame`);
        every measure with the same topics and systems, in the same order.
    method, n_resamples, rng : keyword-only
        As for :func:`tukey_hsd`.

    Returns
    -------
    dict of str to TukeyHSDResult
        One result per measure, in the order given.

    Raises
    ------
    InputError
        No measure, bad scores (see :func:`score_frame`), measures with different
        topics or systems, an unknown method, ``n_resamples`` < 1.

    Examples
    --------
    >>> ap = pd.DataFrame({"a": [0.4, 0.6, 0.8, 0.7], "b": [0.3, 0.4, 0.8, 0.5],
    ...                    "c": [0.1, 0.3, 0.5, 0.4]})
    >>> both = tukey_hsd_measures({"AP": ap, "AP x 2": 2 * ap}, n_resamples=999, rng=0)
    >>> both["AP"].pvalue.equals(tukey_hsd(ap, n_resamples=999, rng=0).pvalue)
    True
    >>> both["AP x 2"].pvalue.equals(both["AP"].pvalue)  # the same rounds, scaled
    True
    """
    name = _method(method)
    if not isinstance(scores, Mapping) or not scores:
        raise InputError("scores must be a non-empty mapping measure -> per-topic scores "
                         "(topics x systems)")
    frames = {label: score_frame(values) for label, values in scores.items()}
    first_label, first = next(iter(frames.items()))
    for label, frame in frames.items():
        if not (frame.index.equals(first.index) and frame.columns.equals(first.columns)):
            raise InputError(f"every measure must have the same topics and systems, in the same "
                             f"order; {label!r} differs from {first_label!r}")
    ranges = None
    if name == "randomised":
        n_resamples = check_n_resamples(n_resamples)
        stack = np.stack([frame.to_numpy() for frame in frames.values()], axis=2)
        ranges = randomised_ranges(stack, n_resamples, check_rng(rng))
    return {label: _tukey_result(frame, name, None if ranges is None else ranges[:, k])
            for k, (label, frame) in enumerate(frames.items())}


def _tukey_result(frame: pd.DataFrame, name: str, ranges) -> TukeyHSDResult:
    """Tukey's HSD of one checked score frame; ``ranges`` are the randomised method's rounds."""
    aov = anova(frame)
    arrays = tukey_arrays(frame.to_numpy(), method=name, ranges=ranges,
                          residual_variance=aov.residual_variance,
                          df_residual=aov.df_residual)
    return tukey_result(arrays, aov, method=name)


def tukey_result(arrays: Mapping, aov: AnovaResult, *, method: str) -> TukeyHSDResult:
    """The :class:`TukeyHSDResult` of :func:`reteval.stats.arrays.tukey_arrays`'s ``arrays``,
    the systems named by the index of ``aov.means`` (the same scores' ANOVA)."""
    names = aov.means.index

    def square(values):
        return pd.DataFrame(values, index=names.copy(), columns=names.copy())

    return TukeyHSDResult(
        method=method,
        pvalue=square(arrays["pvalue"]),
        effect_size=square(arrays["effect_size"]),
        mean_difference=square(arrays["mean_difference"]),
        statistic=square(arrays["statistic"]),
        means=aov.means,
        residual_variance=aov.residual_variance,
        df_residual=aov.df_residual,
        n_topics=aov.n_topics,
        n_systems=aov.n_systems,
        n_resamples=len(arrays["null_ranges"]),
        null_ranges=arrays["null_ranges"],
    )


# --------------------------------------------------------------------------- discriminative power


#: Tests :func:`discriminative_power` accepts, beyond the paired tests of :data:`TESTS`.
_DP_TESTS = {**TESTS, "randomised": "randomization", "randomized": "randomization",
             "tukey": "tukey", "tukey-randomised": "tukey", "tukey-randomized": "tukey",
             "tukey-studentized": "tukey-studentized", "studentized": "tukey-studentized"}


@dataclass(frozen=True)
class DiscriminativePowerResult:
    """How often a test tells the systems apart, from :func:`discriminative_power`.

    Attributes
    ----------
    test : str
        ``"t"``, ``"wilcoxon"``, ``"randomization"``, ``"bootstrap"`` (each
        pair on its own, no correction, as Sakai 2006), ``"tukey"`` (randomised
        Tukey HSD) or ``"tukey-studentized"``.
    alpha : float
    statistic : float
        The discriminative power: ``n_significant / n_pairs``.
    n_pairs, n_significant : int
    pvalues : pandas.Series
        The ASL of every unordered pair, indexed by ``(system, other)``.
    """

    test: str
    alpha: float
    statistic: float
    n_pairs: int
    n_significant: int
    pvalues: pd.Series = field(repr=False)

    def asl_curve(self) -> pd.DataFrame:
        """The ASL curve: pairs sorted by their ASL, for a figure.

        Columns ``rank`` (1 .. n_pairs), ``system``, ``other``, ``asl``;
        plot ``asl`` against ``rank`` with a line at ``alpha``. A measure whose
        curve stays low for more pairs is more discriminative.
        """
        order = self.pvalues.sort_values(kind="stable")
        return pd.DataFrame({
            "rank": np.arange(1, order.size + 1),
            "system": [k[0] for k in order.index],
            "other": [k[1] for k in order.index],
            "asl": order.to_numpy(),
        })


def discriminative_power(scores, *, test: str = "randomised", alpha: float = 0.05,
                         n_resamples: int = 10_000, rng=None) -> DiscriminativePowerResult:
    """Share of system pairs a test finds significantly different (Sakai 2006).

    Parameters
    ----------
    scores : DataFrame, mapping or array_like
        One measure's per-topic scores, topics x systems (see :func:`score_frame`).
    test : str, keyword-only
        A paired test of :data:`reteval.stats.TESTS` or ``"randomised"`` (each
        pair on its own), ``"tukey"`` (randomised Tukey HSD, the family of all
        pairs) or ``"tukey-studentized"``.
    alpha : float, keyword-only
        Significance level, strictly between 0 and 1.
    n_resamples : int, keyword-only
    rng : numpy.random.Generator, int or None, keyword-only

    Returns
    -------
    DiscriminativePowerResult

    Examples
    --------
    >>> scores = pd.DataFrame({"a": [0.4, 0.6, 0.8, 0.7], "b": [0.3, 0.4, 0.8, 0.5],
    ...                        "c": [0.1, 0.3, 0.5, 0.4]})
    >>> dp = discriminative_power(scores, test="t")
    >>> dp.n_significant, dp.n_pairs
    (2, 3)
    >>> dp.asl_curve()[["system", "other"]].values.tolist()
    [['a', 'c'], ['b', 'c'], ['a', 'b']]
    """
    key = test.lower() if isinstance(test, str) else None
    if key not in _DP_TESTS:
        raise InputError(f"test must be one of {sorted(_DP_TESTS)}; got {test!r}")
    name = _DP_TESTS[key]
    alpha = check_probability(alpha, "alpha")
    frame = score_frame(scores)
    names = list(frame.columns)
    pairs = [(names[a], names[b]) for a in range(len(names)) for b in range(a + 1, len(names))]
    if name.startswith("tukey"):
        method = "studentized" if name == "tukey-studentized" else "randomised"
        res = tukey_hsd(frame, method=method, n_resamples=n_resamples, rng=rng)
        p = [float(res.pvalue.loc[s, o]) for s, o in pairs]
    else:
        results = pairwise_tests(frame.to_numpy().T, test=name, names=names, pairs=pairs,
                                 n_resamples=n_resamples, rng=rng)
        p = [results[pair].pvalue for pair in pairs]
    pvalues = pd.Series(p, index=pd.MultiIndex.from_tuples(pairs, names=["system", "other"]),
                        name="asl")
    hits = int((pvalues <= alpha).sum())
    return DiscriminativePowerResult(test=name, alpha=alpha, statistic=hits / len(pairs),
                                     n_pairs=len(pairs), n_significant=hits, pvalues=pvalues)
