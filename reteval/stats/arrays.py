"""The numbers of the many-system statistics, on numpy arrays: no pandas, no scipy.

:mod:`reteval.stats.multiple` wraps them in tables (the two-way ANOVA, Tukey's HSD);
``reteval compare`` reads them as they are, so that its statistics load neither pandas
nor scipy. ``x`` is always one measure's scores, ``(n_topics, n_systems)``.

Examples
--------
>>> x = np.array([[0.4, 0.3, 0.1], [0.6, 0.4, 0.3], [0.8, 0.8, 0.5]])
>>> table = anova_numbers(x)
>>> round(table["statistic"], 3), table["df_system"], table["df_residual"]
(21.0, 2, 4)
>>> round(margin_of_error(table["residual_variance"], 3, table["df_residual"]), 4)
0.0925
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from reteval._util.validation import check_confidence_level
from reteval.stats.distributions import f_sf, t_ppf
from reteval.stats.inputs import EXTREME_RTOL, power_of_two_scale

__all__ = ["NO_RESIDUAL_VARIANCE", "anova_numbers", "margin_of_error",
           "randomised_critical_difference", "randomised_pvalues", "randomised_ranges",
           "system_means", "tukey_arrays", "tukey_critical_difference"]

# Rounds of the randomised Tukey HSD drawn at once: about 130,000 scores per chunk.
_CHUNK_VALUES = 1 << 17


#: A sum of squares of ``N`` terms counts as zero when it is below ``N (_NOISE * peak)**2``,
#: ``peak`` the largest ``|score|``: each term's rounding error is a few units in the last
#: place of ``peak`` (the summations add ``log2(n)`` more), so such a sum is rounding
#: noise, not variation.
_NOISE = 64 * np.finfo(np.float64).eps

#: The reason :func:`anova_numbers` gives for a test it cannot make.
NO_RESIDUAL_VARIANCE = (
    "no residual variance: on every topic each system's score differs from another's by the "
    "same amount (a system and a copy of itself, or scores that add a system effect to a "
    "topic effect exactly), so the F tests are undefined"
)


def _signal(ss: float, terms: int) -> float:
    """``ss`` (of scores scaled to ``|x| <= 1``), or 0 when it is rounding noise."""
    return ss if ss > terms * _NOISE * _NOISE else 0.0


def anova_numbers(x) -> dict:
    """Two-way ANOVA without replication of ``x`` (topics x systems): a dict of the numbers.

    Keys: ``statistic``, ``pvalue`` (F of the systems), ``df_system``, ``df_topic``,
    ``df_residual``, ``ss_system``, ``ss_topic``, ``ss_residual``,
    ``residual_variance``, ``topic_statistic``, ``topic_pvalue``, ``system_means``
    (an array), ``n_topics``, ``n_systems``, ``note`` (empty, or why the F tests are
    NaN). The scores are read in row order whatever the array's memory layout, so that
    the sums, and so the numbers, are the same bits for the same scores.

    The sums of squares are taken of the scores divided by the power of two just above
    their largest magnitude (exactly, so ordinary scores give the same bits) and scaled
    back: scores near 1e155 do not overflow when squared (a sum of squares beyond the
    largest double is ``inf``; the F tests are still right). A sum of squares that is
    rounding noise relative to that scale counts as 0; a residual sum of squares of 0
    leaves no variance to test against, and the F tests are then NaN with ``note``
    saying so (:data:`NO_RESIDUAL_VARIANCE`).
    """
    x = np.ascontiguousarray(x, dtype=np.float64)
    n, m = x.shape
    scale = power_of_two_scale(x)
    z = x / scale
    grand = z.mean()
    means = system_means(z)
    topic_means = z.mean(axis=1)
    terms = n * m
    ss_system = _signal(float(n * ((means - grand) ** 2).sum()), terms)
    ss_topic = _signal(float(m * ((topic_means - grand) ** 2).sum()), terms)
    resid = z - means[None, :] - topic_means[:, None] + grand
    ss_residual = _signal(float((resid ** 2).sum()), terms)
    df_system, df_topic, df_residual = m - 1, n - 1, (m - 1) * (n - 1)
    v_e = ss_residual / df_residual
    note = ""
    if v_e == 0.0:
        f_sys = f_top = math.nan
        note = NO_RESIDUAL_VARIANCE
    else:
        f_sys = (ss_system / df_system) / v_e
        f_top = (ss_topic / df_topic) / v_e
    with np.errstate(over="ignore"):
        ss_system, ss_topic, ss_residual, v_e = (float(np.float64(v) * scale * scale) for v in
                                                 (ss_system, ss_topic, ss_residual, v_e))
    return {"statistic": f_sys, "pvalue": f_sf(df_system, df_residual, f_sys),
            "df_system": df_system, "df_topic": df_topic, "df_residual": df_residual,
            "ss_system": ss_system, "ss_topic": ss_topic, "ss_residual": ss_residual,
            "residual_variance": v_e, "topic_statistic": f_top,
            "topic_pvalue": f_sf(df_topic, df_residual, f_top), "system_means": system_means(x),
            "n_topics": n, "n_systems": m, "note": note}


def margin_of_error(residual_variance: float, n_topics: int, df_residual: int,
                    confidence_level: float = 0.95) -> float:
    """Sakai's margin of error of a system mean, ``t(df_residual; 1 - alpha/2) * sqrt(V_E / n)``."""
    level = check_confidence_level(confidence_level)
    crit = t_ppf(df_residual, 1 - (1 - level) / 2)
    return crit * math.sqrt(residual_variance / n_topics)


def randomised_pvalues(difference: np.ndarray, ranges: np.ndarray) -> np.ndarray:
    """The randomised Tukey HSD's p-values from the rounds' ``ranges``.

    ``difference[i, j]`` is ``mean_i - mean_j``; a pair's p-value is
    ``(count + 1) / (rounds + 1)``, ``count`` the rounds whose range is at least its
    difference (relative tolerance 1e-9); the diagonal is 1.
    """
    rounds = len(ranges)
    observed = np.abs(difference) * (1 - EXTREME_RTOL)
    count = rounds - np.searchsorted(np.sort(ranges), observed, side="left")
    p = np.minimum((count + 1) / (rounds + 1), 1.0)
    np.fill_diagonal(p, 1.0)
    return p


def system_means(x) -> np.ndarray:
    """The mean of each system (column) of ``x``, summed in row order whatever the layout."""
    return np.ascontiguousarray(x, dtype=np.float64).mean(axis=0)


def randomised_critical_difference(ranges: np.ndarray, confidence_level: float = 0.95) -> float:
    """The ``confidence_level`` quantile of the rounds' ranges, the observed arrangement
    counted as one of them: the smallest significant difference of means."""
    level = check_confidence_level(confidence_level)
    ranges = np.sort(ranges)
    k = math.ceil(level * (ranges.size + 1)) - 1
    return float(ranges[min(k, ranges.size - 1)])


def tukey_arrays(x, *, method: str, ranges, residual_variance: float,
                 df_residual: int) -> dict:
    """Tukey's HSD of every pair of ``x``'s systems, as system x system arrays.

    ``method`` is ``"randomised"`` (``ranges``: the rounds' ranges, from
    :func:`randomised_ranges`) or ``"studentized"`` (``ranges`` ignored; scipy's
    studentized range distribution with the two-way ANOVA's ``residual_variance`` and
    ``df_residual``). Keys: ``mean_difference`` (``mean_i - mean_j``), ``statistic``
    (``|mean_i - mean_j| / sqrt(V_E / n)``), ``effect_size`` (``/ sqrt(V_E)``),
    ``pvalue`` (family-wise, diagonal 1) and ``null_ranges`` (empty for the
    studentized method).

    Examples
    --------
    >>> x = np.array([[0.4, 0.3, 0.1], [0.6, 0.4, 0.3], [0.8, 0.8, 0.5], [0.7, 0.5, 0.4]])
    >>> aov = anova_numbers(x)
    >>> out = tukey_arrays(x, method="studentized", ranges=None,
    ...                    residual_variance=aov["residual_variance"],
    ...                    df_residual=aov["df_residual"])
    >>> out["pvalue"].round(4).tolist()
    [[1.0, 0.0427, 0.0006], [0.0427, 1.0, 0.01], [0.0006, 0.01, 1.0]]
    """
    n, m = np.shape(x)
    means = system_means(x)
    diff = means[:, None] - means[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.abs(diff) / np.sqrt(residual_variance / n)
        es = diff / np.sqrt(residual_variance)
    if method == "studentized":
        from reteval.stats.studentized import studentized_range_sf

        upper = np.triu_indices(m, 1)
        p = np.ones((m, m))
        if residual_variance > 0:  # no residual variance: no test (see anova), NaN p-values
            p[upper] = np.minimum(studentized_range_sf(q[upper], m, df_residual), 1.0)
        else:
            p[upper] = np.nan
        p.T[upper] = p[upper]
        ranges = np.empty(0)
    else:
        p = randomised_pvalues(diff, ranges)
    return {"mean_difference": diff, "statistic": q, "effect_size": es, "pvalue": p,
            "null_ranges": ranges}


def tukey_critical_difference(method: str, ranges, *, residual_variance: float, n_topics: int,
                              n_systems: int, df_residual: int,
                              confidence_level: float = 0.95) -> float:
    """Smallest difference of means Tukey's HSD finds significant at ``1 - confidence_level``.

    Studentized: ``q(m, phi_E; level) * sqrt(V_E / n)``. Randomised:
    :func:`randomised_critical_difference` of the rounds' ``ranges``.
    """
    level = check_confidence_level(confidence_level)
    if method == "studentized":
        from scipy.stats import studentized_range

        q = float(studentized_range.ppf(level, n_systems, df_residual))
        return q * math.sqrt(residual_variance / n_topics)
    return randomised_critical_difference(ranges, level)


#: Up to this many systems the randomised Tukey HSD draws permutations from tables.
_TABLE_MAX_SYSTEMS = 10


@functools.lru_cache(maxsize=16)
def _permutation_tables(m: int) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Every permutation of ``m`` items as two halves: ``m!`` = C(m, h) h! (m - h)! codes.

    A permutation is the set ``S`` of the ``h = m // 2`` positions the first
    ``h`` items go to, an order of those items within ``S`` and an order of
    the other items within the complement. ``first[s * h! + a]`` holds the
    positions of items ``0 .. h-1`` for subset ``s`` and order ``a``;
    ``second[s * (m-h)! + b]`` those of items ``h .. m-1``. Drawing ``s``,
    ``a`` and ``b`` uniformly draws a uniform permutation.
    """
    h = m // 2
    orders1 = np.array(list(itertools.permutations(range(h))), dtype=np.intp).reshape(-1, h)
    orders2 = np.array(list(itertools.permutations(range(m - h))), dtype=np.intp)
    subsets = list(itertools.combinations(range(m), h))
    first = np.empty((len(subsets), len(orders1), h), dtype=np.intp)
    second = np.empty((len(subsets), len(orders2), m - h), dtype=np.intp)
    for k, subset in enumerate(subsets):
        inside = np.array(subset, dtype=np.intp)
        outside = np.array([i for i in range(m) if i not in subset], dtype=np.intp)
        first[k] = inside[orders1]
        second[k] = outside[orders2]
    return first.reshape(-1, h), second.reshape(-1, m - h), len(orders1), len(orders2)


def randomised_ranges(x: np.ndarray, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Range (max - min) of the system means after permuting every topic's scores.

    ``x`` is ``(n_topics, n_systems)``; the rounds are drawn a chunk at a
    time (about 130,000 scores per chunk, so that a chunk stays in cache).
    ``x`` may also be ``(n_topics, n_systems, n_measures)``: several measures
    of the same systems. A round then permutes each topic's systems once and
    every measure follows (the systems' rankings change places as a whole),
    and the result is ``(n_resamples, n_measures)``: each measure's column is
    what it gets alone from a generator in the same state, at little more than
    the cost of one measure.

    Up to 10 systems, each topic's permutation in each round is one random
    integer below ``m!``, decoded through :func:`_permutation_tables` (two
    small tables of half-permutations); gathering the permuted scores and
    summing them over the topics is then one ``take`` and one reduction per
    half for the whole chunk. Above 10 systems (the tables would outgrow the
    cache) one :meth:`numpy.random.Generator.permuted` call permutes every
    row of a ``(chunk, n_topics, n_systems)`` stack (of the scores, or of the
    systems' positions when there are several measures); its random stream is
    then the one of a loop calling ``rng.permuted(x, axis=1)`` once per round.
    """
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 3 and x.shape[2] == 1:
        return randomised_ranges(x[:, :, 0], n_resamples, rng)[:, None]
    n, m = x.shape[:2]
    chunk = max(1, min(n_resamples, _CHUNK_VALUES // (n * m)))
    out = np.empty((n_resamples, *x.shape[2:]))
    offsets = (np.arange(n, dtype=np.intp) * m)[:, None]
    # Row t * m + s: topic t, system s (with every measure of it).
    rows = np.ascontiguousarray(x).reshape(n * m, *x.shape[2:])
    if m > _TABLE_MAX_SYSTEMS:
        positions = np.broadcast_to(np.arange(m, dtype=np.intp), (chunk, n, m))
        for start in range(0, n_resamples, chunk):
            c = min(chunk, n_resamples - start)
            if x.ndim == 2:  # the scores themselves are permuted: no gather
                sums = rng.permuted(np.broadcast_to(x, (c, n, m)), axis=2).sum(axis=1)
            else:  # the same permutation for every measure: of positions, then gathered
                # (permuting 8-byte positions draws the same numbers as permuting scores)
                moved = rng.permuted(positions[:c], axis=2)
                moved += offsets
                sums = rows.take(moved, axis=0).sum(axis=1)  # (c, m, n_measures)
            out[start:start + c] = (sums.max(axis=1) - sums.min(axis=1)) / n
        return out
    first, second, n1, n2 = _permutation_tables(m)
    flat = rows.reshape(n * m) if x.ndim == 2 else rows

    def half_sums(table: np.ndarray, codes: np.ndarray) -> np.ndarray:
        positions = table.take(codes, axis=0)  # (c, n, h): which system's score goes where
        np.add(positions, offsets, out=positions)
        if x.ndim == 2:
            return np.einsum("cnh->ch", flat.take(positions))
        return np.einsum("cnhk->chk", flat.take(positions, axis=0))

    for start in range(0, n_resamples, chunk):
        c = min(chunk, n_resamples - start)
        code = rng.integers(0, math.factorial(m), size=(c, n))
        subset, rest = np.divmod(code, n1 * n2)
        order1, order2 = np.divmod(rest, n2)
        sums = np.concatenate([half_sums(first, subset * n1 + order1),
                               half_sums(second, subset * n2 + order2)], axis=1)
        out[start:start + c] = (sums.max(axis=1) - sums.min(axis=1)) / n
    return out
