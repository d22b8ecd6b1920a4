"""Monte Carlo engines: Fisher's randomization test, the bootstrap test, bootstrap intervals.

The intervals are those of means.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from reteval._util.validation import (
    check_confidence_level,
    check_n_resamples,
    check_rng,
)
from reteval.errors import InputError
from reteval.stats.inputs import (
    EXTREME_RTOL,
    check_unique_queries,
    describe_differences,
    effect_size_dz,
    paired_differences,
)
from reteval.stats.results import ConfidenceInterval, PairedTestResult

__all__ = [
    "BootstrapResult",
    "RandomizationResult",
    "bootstrap_mean_ci",
    "bootstrap_results",
    "bootstrap_test",
    "randomization_results",
    "randomization_test",
]


@dataclass(frozen=True)
class RandomizationResult(PairedTestResult):
    """Fisher's randomization test; ``statistic`` is the mean difference.

    Under the null hypothesis the two systems are exchangeable on each query,
    so each difference is equally likely to have either sign. The test flips
    the signs of the differences at random ``n_resamples`` times and counts
    the rounds whose ``|mean|`` is at least the observed ``|mean|``.

    ``confidence_interval`` inverts the same test: it is the set of shifts
    ``theta`` for which the randomization test of ``d - theta`` (with the same
    sign flips) has a p-value above ``1 - level``; the ends are found by
    bisection.
    """

    n_resamples: int
    _differences: np.ndarray = field(repr=False, compare=False)
    _null_sums: np.ndarray = field(repr=False, compare=False)
    _null_sign_sums: np.ndarray = field(repr=False, compare=False)

    def _pvalue_at(self, theta: float) -> float:
        d = self._differences
        n = d.size
        observed = abs(d.sum() - n * theta)
        scale = np.abs(d - theta).sum()
        null = np.abs(self._null_sums - theta * self._null_sign_sums)
        count = np.count_nonzero(null >= observed - EXTREME_RTOL * scale)
        return (count + 1) / (self.n_resamples + 1)

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Interval of shifts not rejected by the randomization test.

        Examples
        --------
        >>> res = randomization_test([0.9, 0.8, 0.7, 0.95, 0.6, 0.75, 0.5, 0.8],
        ...                          [0.5, 0.7, 0.4, 0.55, 0.65, 0.3, 0.5, 0.6], rng=1)
        >>> low, high = res.confidence_interval(0.9)
        >>> bool(low < res.mean_difference < high)
        True
        """
        level = check_confidence_level(confidence_level)
        alpha = 1.0 - level
        centre = self.mean_difference
        spread = float(np.max(np.abs(self._differences - centre)))
        if spread == 0.0:
            return ConfidenceInterval(centre, centre)
        ends = []
        for direction in (-1.0, 1.0):
            step = spread
            outside = None
            for _ in range(64):
                theta = centre + direction * step
                if self._pvalue_at(theta) <= alpha:
                    outside = theta
                    break
                step *= 2.0
            if outside is None:
                ends.append(direction * math.inf)
                continue
            inside = centre
            for _ in range(200):
                mid = 0.5 * (inside + outside)
                if mid in (inside, outside):
                    break
                if self._pvalue_at(mid) > alpha:
                    inside = mid
                else:
                    outside = mid
            ends.append(0.5 * (inside + outside))
        return ConfidenceInterval(ends[0], ends[1])



@dataclass(frozen=True)
class BootstrapResult(PairedTestResult):
    """Paired bootstrap test of the mean difference; ``statistic`` is the mean difference.

    The p-value uses the shift-to-null bootstrap: the differences are centred
    (``d - mean(d)``, so the null hypothesis holds), resampled with
    replacement ``n_resamples`` times, and the rounds whose ``|mean|`` reaches
    the observed ``|mean(d)|`` are counted.
    ``confidence_interval`` is the percentile interval of the bootstrap
    distribution of the mean difference (the centred means shifted back by
    ``mean(d)``), quantiles by linear interpolation.
    """

    n_resamples: int
    _null_means: np.ndarray = field(repr=False, compare=False)

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Percentile bootstrap interval of the mean difference.

        Examples
        --------
        >>> res = bootstrap_test([0.9, 0.8, 0.7, 0.95, 0.6, 0.75, 0.5, 0.8],
        ...                      [0.5, 0.7, 0.4, 0.55, 0.65, 0.3, 0.5, 0.6], rng=1)
        >>> low, high = res.confidence_interval()
        >>> bool(low < res.mean_difference < high)
        True
        """
        level = check_confidence_level(confidence_level)
        tail = (1.0 - level) / 2
        boot = self._null_means + self.mean_difference
        low, high = np.quantile(boot, [tail, 1.0 - tail])
        return ConfidenceInterval(float(low), float(high))



_CHUNK_ELEMENTS = 2_000_000  # random draws per chunk (bounds memory, not the result)


def _chunk_rows(n_queries: int) -> int:
    return max(1, _CHUNK_ELEMENTS // max(n_queries, 1))


def _sign_flip_sums(diffs: np.ndarray, n_resamples: int, rng: np.random.Generator):
    """Random sign-flip sums of the columns of ``diffs`` (n_queries, n_pairs).

    Returns ``(sums, sign_sums)``: ``sums[r, p] = sum_i s[r, i] * diffs[i, p]`` and
    ``sign_sums[r] = sum_i s[r, i]`` for ``n_resamples`` rows ``s[r]`` of
    independent, equally likely signs +-1. Signs are drawn as random bits
    ``b`` (8 per random byte) and ``s @ d = 2 (b @ d) - sum(d)``, one matrix
    product per chunk of rounds.
    """
    n, n_pairs = diffs.shape
    n_bytes = (n + 7) // 8
    # a column of ones appended: the same product also gives sum(b) per round
    extended = np.concatenate([diffs, np.ones((n, 1))], axis=1)
    col_sums = extended.sum(axis=0)
    out = np.empty((n_resamples, n_pairs + 1))
    rows = _chunk_rows(n)
    for start in range(0, n_resamples, rows):
        stop = min(start + rows, n_resamples)
        packed = rng.integers(0, 256, size=(stop - start, n_bytes), dtype=np.uint8)
        bits = np.unpackbits(packed, axis=1, count=n).astype(np.float64)
        np.matmul(bits, extended, out=out[start:stop])
    out *= 2.0
    out -= col_sums
    return out[:, :n_pairs], out[:, n_pairs].copy()


def _bootstrap_means(values: np.ndarray, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Bootstrap means of the columns of ``values`` (n_queries, k): shape (n_resamples, k).

    Each round draws ``n`` query indices with replacement; the same draws are
    used for every column (paired resampling). The draws become a matrix of
    per-query counts so that all columns are resampled with one matrix product.
    """
    n = values.shape[0]
    out = np.empty((n_resamples, values.shape[1]))
    for start, stop, idx in _bootstrap_draws(n, n_resamples, rng):
        c = stop - start
        idx += (np.arange(c) * n)[:, None]
        counts = np.bincount(idx.ravel(), minlength=c * n).reshape(c, n).astype(np.float64)
        out[start:stop] = (counts @ values) / n
    return out


def _bootstrap_draws(n: int, n_resamples: int, rng: np.random.Generator):
    """The query draws of the bootstrap rounds, a chunk at a time: ``(start, stop, indices)``
    with ``indices`` of shape ``(stop - start, n)``."""
    rows = _chunk_rows(n)
    for start in range(0, n_resamples, rows):
        stop = min(start + rows, n_resamples)
        yield start, stop, rng.integers(0, n, size=(stop - start, n))


def _count_extreme(null: np.ndarray, observed: np.ndarray, scale: np.ndarray) -> np.ndarray:
    return np.count_nonzero(np.abs(null) >= np.abs(observed) - EXTREME_RTOL * scale, axis=0)


def _monte_carlo_fields(test: str, d: np.ndarray, count, n_resamples: int) -> dict:
    """The fields every Monte Carlo result shares; ``statistic`` is the mean difference.

    ``count`` is the number of resamples at least as extreme as the data:
    ``pvalue = (count + 1) / (n_resamples + 1)``.
    """
    mean, sd, n = describe_differences(d)
    return {"test": test, "statistic": mean, "pvalue": (int(count) + 1) / (n_resamples + 1),
            "mean_difference": mean, "effect_size": effect_size_dz(mean, sd),
            "sd_difference": sd, "n": n, "n_resamples": n_resamples}


def randomization_results(diffs: np.ndarray, n_resamples: int, rng) -> list[RandomizationResult]:
    sums, sign_sums = _sign_flip_sums(diffs, n_resamples, rng)
    observed = diffs.sum(axis=0)
    counts = _count_extreme(sums, observed, np.abs(diffs).sum(axis=0))
    return [RandomizationResult(**_monte_carlo_fields("randomization", diffs[:, p], counts[p],
                                                      n_resamples),
                                _differences=diffs[:, p].copy(),
                                _null_sums=sums[:, p].copy(),
                                _null_sign_sums=sign_sums)
            for p in range(diffs.shape[1])]


def bootstrap_results(diffs: np.ndarray, n_resamples: int, rng) -> list[BootstrapResult]:
    means = diffs.mean(axis=0)
    centred = diffs - means
    null = _bootstrap_means(centred, n_resamples, rng)
    n = diffs.shape[0]
    counts = _count_extreme(null, means, np.abs(diffs).sum(axis=0) / n)
    return [BootstrapResult(**_monte_carlo_fields("bootstrap", diffs[:, p], counts[p],
                                                  n_resamples),
                            _null_means=null[:, p].copy())
            for p in range(diffs.shape[1])]


def randomization_test(x, y, *, n_resamples: int = 10_000, rng=None) -> RandomizationResult:
    """Fisher's randomization (sign-flip permutation) test of ``x`` against ``y``.

    Under the null hypothesis that the two systems are interchangeable, each
    query's difference ``d[i]`` is as likely to be ``+d[i]`` as ``-d[i]``.
    The test draws ``n_resamples`` random sign vectors and computes
    ``p = (count + 1) / (n_resamples + 1)``, ``count`` being the number of
    rounds with ``|sum(s * d)| >= |sum(d)|`` (two-sided, on the absolute mean
    difference). With ``n`` queries there are only ``2**n`` sign vectors: for
    small ``n`` the Monte Carlo p-value estimates the exact permutation
    p-value (the share of all ``2**n`` flips at least as extreme).

    Parameters
    ----------
    x, y : array_like, shape (n,)
        Paired per-query scores.
    n_resamples : int, keyword-only
        Random sign vectors (default 10,000).
    rng : numpy.random.Generator, int or None, keyword-only
        Source of randomness; an int is a seed.

    Returns
    -------
    RandomizationResult

    Examples
    --------
    >>> x = [0.9, 0.8, 0.7, 0.95, 0.6, 0.75, 0.5, 0.8]
    >>> y = [0.5, 0.7, 0.4, 0.55, 0.65, 0.3, 0.5, 0.6]
    >>> res = randomization_test(x, y, rng=42)
    >>> res == randomization_test(x, y, rng=42)   # same seed, same result
    True
    >>> 0.02 < res.pvalue < 0.045                 # exact permutation p-value: 8/256
    True
    """
    d = paired_differences(x, y)
    return randomization_results(d[:, None], check_n_resamples(n_resamples), check_rng(rng))[0]


def bootstrap_test(x, y, *, n_resamples: int = 10_000, rng=None) -> BootstrapResult:
    """Paired bootstrap test of the mean difference of ``x`` and ``y``.

    Shift-to-null bootstrap: resample the centred differences ``d - mean(d)``
    with replacement and count the rounds whose ``|mean|`` reaches
    ``|mean(d)|``; ``p = (count + 1) / (n_resamples + 1)``. The confidence
    interval is the percentile interval of the bootstrap mean difference.

    Parameters
    ----------
    x, y : array_like, shape (n,)
        Paired per-query scores.
    n_resamples : int, keyword-only
        Bootstrap rounds (default 10,000).
    rng : numpy.random.Generator, int or None, keyword-only
        Source of randomness; an int is a seed.

    Returns
    -------
    BootstrapResult

    Examples
    --------
    >>> x = [0.9, 0.8, 0.7, 0.95, 0.6, 0.75, 0.5, 0.8]
    >>> y = [0.5, 0.7, 0.4, 0.55, 0.65, 0.3, 0.5, 0.6]
    >>> res = bootstrap_test(x, y, rng=42)
    >>> print(f"{res.mean_difference:.4f}", res.pvalue < 0.05)
    0.2250 True
    """
    d = paired_differences(x, y)
    return bootstrap_results(d[:, None], check_n_resamples(n_resamples), check_rng(rng))[0]


def bootstrap_mean_ci(scores, *, confidence_level: float = 0.95, n_resamples: int = 10_000,
                      rng=None) -> ConfidenceInterval:
    """Percentile bootstrap confidence interval of the mean score.

    Parameters
    ----------
    scores : array_like, shape (n_queries,) or (n_systems, n_queries)
        Per-query scores of one system, or one row per system (then all
        systems are resampled with the same query draws).
    confidence_level : float, keyword-only
    n_resamples : int, keyword-only
    rng : numpy.random.Generator, int or None, keyword-only

    Returns
    -------
    ConfidenceInterval
        ``low`` and ``high``: floats for one system, arrays of shape
        ``(n_systems,)`` for several.

    Examples
    --------
    >>> ci = bootstrap_mean_ci([0.2, 0.4, 0.6, 0.8, 1.0, 0.0, 0.5], rng=0)
    >>> bool(ci.low < 0.5 < ci.high)
    True
    >>> ci = bootstrap_mean_ci([[0.2, 0.4, 0.6], [0.1, 0.1, 0.3]], rng=0)
    >>> ci.low.shape
    (2,)
    """
    level = check_confidence_level(confidence_level)
    check_unique_queries(scores, "scores")
    try:
        arr = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError("scores must be numeric") from exc
    if arr.ndim not in (1, 2):
        raise InputError(f"scores must be 1-D or 2-D (n_systems, n_queries); got shape {arr.shape}")
    if arr.shape[-1] < 1 or not np.all(np.isfinite(arr)):
        raise InputError("scores must hold at least one finite score per system and no NaN")
    matrix = np.atleast_2d(arr).T  # (n_queries, n_systems)
    boot = _bootstrap_means(matrix, check_n_resamples(n_resamples), check_rng(rng))
    tail = (1.0 - level) / 2
    low, high = np.quantile(boot, [tail, 1.0 - tail], axis=0)
    if arr.ndim == 1:
        return ConfidenceInterval(float(low[0]), float(high[0]))
    return ConfidenceInterval(low, high)
