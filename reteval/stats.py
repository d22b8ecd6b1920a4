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

Multiple comparisons: :func:`adjust_pvalues` (Holm, Bonferroni,
Benjamini-Hochberg). Intervals of a system's mean: :func:`bootstrap_mean_ci`.
Planning a test collection: :func:`paired_t_power`, :func:`queries_needed`,
:func:`minimum_detectable_difference`.

References
----------
.. [1] M. D. Smucker, J. Allan, B. Carterette. "A comparison of statistical
   significance tests for information retrieval evaluation." CIKM 2007.
.. [2] T. Sakai. "Statistical reform in information retrieval?" SIGIR Forum 48(1), 2014.
.. [3] B. Efron, R. Tibshirani. *An Introduction to the Bootstrap*, ch. 16, 1993.
.. [4] M. Hollander, D. A. Wolfe. *Nonparametric Statistical Methods*, 2nd ed.,
   section 3.3 (Hodges-Lehmann interval), 1999.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from scipy import optimize, special
from scipy import stats as _st

from reteval.errors import InputError
from reteval.validation import (
    check_confidence_level,
    check_n_resamples,
    check_probability,
    check_rng,
)

__all__ = [
    "CORRECTIONS",
    "TESTS",
    "BootstrapResult",
    "ConfidenceInterval",
    "PairedTestResult",
    "RandomizationResult",
    "TTestResult",
    "WilcoxonResult",
    "adjust_pvalues",
    "bootstrap_mean_ci",
    "bootstrap_test",
    "minimum_detectable_difference",
    "paired_t_power",
    "paired_t_test",
    "paired_test",
    "pairwise_tests",
    "queries_needed",
    "randomization_test",
    "wilcoxon_test",
]

#: Canonical test names and their accepted aliases.
TESTS: dict[str, str] = {
    "t": "t",
    "ttest": "t",
    "student": "t",
    "wilcoxon": "wilcoxon",
    "randomization": "randomization",
    "fisher": "randomization",
    "permutation": "randomization",
    "bootstrap": "bootstrap",
}

#: Canonical correction names and their accepted aliases.
CORRECTIONS: dict[str, str] = {
    "holm": "holm",
    "bonferroni": "bonferroni",
    "bh": "bh",
    "fdr_bh": "bh",
    "benjamini-hochberg": "bh",
    "none": "none",
}

_RTOL = 1e-9  # relative tolerance for "at least as extreme" in Monte Carlo tests
_CHUNK_ELEMENTS = 2_000_000  # random draws per chunk (bounds memory, not the result)


class ConfidenceInterval(NamedTuple):
    """A confidence interval ``(low, high)``; floats, or arrays for many systems."""

    low: float
    high: float


# --------------------------------------------------------------------------- validation


def _as_scores(values, name: str) -> np.ndarray:
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{name} must be a sequence of numbers; got {values!r:.80}") from exc
    if arr.ndim != 1:
        raise InputError(f"{name} must be one-dimensional; got an array of shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        bad = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise InputError(f"{name} must hold finite numbers; got {arr[bad]} at position {bad}")
    return arr


def _differences(x, y) -> np.ndarray:
    x = _as_scores(x, "x")
    y = _as_scores(y, "y")
    if x.shape != y.shape:
        raise InputError(
            f"x and y must be paired scores of the same queries; got {x.size} and {y.size} values"
        )
    if x.size < 2:
        raise InputError(f"a paired test needs at least 2 queries; got {x.size}")
    return x - y


def _score_matrix(scores) -> np.ndarray:
    try:
        arr = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError("scores must be a numeric (n_systems, n_queries) array") from exc
    if arr.ndim != 2:
        raise InputError(
            f"scores must be a 2-D array (n_systems, n_queries); got shape {arr.shape}"
        )
    if not np.all(np.isfinite(arr)):
        raise InputError("scores must hold finite numbers; got NaN or infinity")
    return arr


def _canonical_test(test: str) -> str:
    key = str(test).lower() if isinstance(test, str) else None
    if key not in TESTS:
        raise InputError(f"test must be one of {sorted(set(TESTS))}; got {test!r}")
    return TESTS[key]


def _dz(mean: float, sd: float) -> float:
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.float64(mean) / np.float64(sd))


def _describe(d: np.ndarray) -> tuple[float, float, int]:
    return float(d.mean()), float(d.std(ddof=1)), int(d.size)


# --------------------------------------------------------------------------- results


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
class TTestResult(PairedTestResult):
    """Paired Student's t test; ``statistic`` is t, ``df = n - 1``.

    ``confidence_interval`` is the t interval of the mean difference,
    ``mean_difference +- t_{(1 + level) / 2, df} * standard_error``.
    """

    df: float
    standard_error: float

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Two-sided t interval of the mean difference.

        Examples
        --------
        >>> res = paired_t_test([0.5, 0.6, 0.9, 0.4], [0.3, 0.5, 0.6, 0.4])
        >>> low, high = res.confidence_interval(0.95)
        >>> print(f"{low:.4f} {high:.4f}")
        -0.0554 0.3554
        """
        level = check_confidence_level(confidence_level)
        q = _st.t.ppf(0.5 + level / 2, self.df)
        half = q * self.standard_error
        return ConfidenceInterval(self.mean_difference - half, self.mean_difference + half)


@dataclass(frozen=True)
class WilcoxonResult(PairedTestResult):
    """Wilcoxon signed-rank test; ``statistic`` is ``min(R+, R-)``.

    ``method`` is the way the p-value was computed (``"exact"``,
    ``"enumeration"`` or ``"asymptotic"``), ``hodges_lehmann`` the
    Hodges-Lehmann estimate of the centre of the differences (the median of the
    Walsh averages ``(d[i] + d[j]) / 2``, ``i <= j``). ``confidence_interval``
    is the distribution-free interval of that centre, not of the mean.
    """

    zero_method: str
    method: str
    hodges_lehmann: float
    _differences: np.ndarray = field(repr=False, compare=False)

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Hodges-Lehmann interval: order statistics of the Walsh averages.

        With ``M = n (n + 1) / 2`` Walsh averages ``W_(1) <= ... <= W_(M)`` the
        interval is ``[W_(c), W_(M - c + 1)]`` where ``c`` is the largest
        integer with ``P(T+ <= c - 1) <= (1 - level) / 2`` under the null
        distribution of the signed-rank statistic (exact for ``n <= 50``,
        normal with continuity correction above). All differences, zeros
        included, are used; with tied or zero differences the critical value
        ignores the ties and the coverage is approximate. When even the most
        extreme arrangement is not significant (``n`` too small) the interval
        is infinite. The order statistics are found by selection in the
        implicitly sorted matrix of pair sums, in O(n log n) memory-light
        steps, so ``n = 10,000`` takes milliseconds.

        Examples
        --------
        >>> res = wilcoxon_test([0.9, 0.8, 0.7, 0.95, 0.6, 0.75],
        ...                     [0.5, 0.7, 0.4, 0.55, 0.65, 0.3])
        >>> low, high = res.confidence_interval(0.9)
        >>> print(f"{low:.3f} {high:.3f}")
        0.100 0.425
        """
        level = check_confidence_level(confidence_level)
        d = np.sort(self._differences)
        n = d.size
        m_total = n * (n + 1) // 2
        tail = (1.0 - level) / 2
        if n <= 50:
            cdf = np.cumsum(_signed_rank_pmf(n))
            # c - 1 = largest k with P(T <= k) <= tail  ->  c = (# of k with cdf <= tail)
            c = int(np.count_nonzero(cdf <= tail * (1 + 1e-12)))
        else:
            mean = m_total / 2
            sd = math.sqrt(n * (n + 1) * (2 * n + 1) / 24)
            c = math.floor(mean + _st.norm.ppf(tail) * sd + 0.5)
        if c < 1:
            return ConfidenceInterval(-math.inf, math.inf)
        return ConfidenceInterval(
            _walsh_order_statistic(d, c), _walsh_order_statistic(d, m_total - c + 1)
        )


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
        count = np.count_nonzero(null >= observed - _RTOL * scale)
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


# --------------------------------------------------------------------------- t test


def paired_t_test(x, y) -> TTestResult:
    """Student's paired t test of ``x`` against ``y``.

    ``t = mean(d) / (sd(d) / sqrt(n))`` with ``d = x - y``, ``n - 1`` degrees
    of freedom, two-sided p-value. Agrees with ``scipy.stats.ttest_rel(x, y)``,
    including its ``nan`` when all differences are zero.

    Parameters
    ----------
    x, y : array_like, shape (n,)
        Per-query scores of two systems on the same queries, in the same order.

    Returns
    -------
    TTestResult

    Raises
    ------
    InputError
        Arrays of different lengths, fewer than 2 queries, non-finite values.

    Examples
    --------
    >>> res = paired_t_test([0.5, 0.6, 0.9, 0.4], [0.3, 0.5, 0.6, 0.4])
    >>> print(f"t={res.statistic:.4f} p={res.pvalue:.4f} df={res.df:g}")
    t=2.3238 p=0.1027 df=3
    >>> print(f"dz={res.effect_size:.4f}")
    dz=1.1619
    """
    d = _differences(x, y)
    mean, sd, n = _describe(d)
    se = sd / math.sqrt(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = float(np.float64(mean) / np.float64(se))
    df = n - 1
    p = float(2.0 * _st.t.sf(abs(t), df)) if not math.isnan(t) else math.nan
    return TTestResult(
        test="t",
        statistic=t,
        pvalue=p,
        mean_difference=mean,
        effect_size=_dz(mean, sd),
        sd_difference=sd,
        n=n,
        df=float(df),
        standard_error=se,
    )


# --------------------------------------------------------------------------- Wilcoxon


def _signed_rank_pmf(n: int) -> np.ndarray:
    """Null pmf of the sum of positive ranks of n untied, nonzero differences."""
    counts = np.zeros(n * (n + 1) // 2 + 1)
    counts[0] = 1.0
    for k in range(1, n + 1):
        counts[k:] = counts[k:] + counts[:-k].copy()
    return counts / 2.0**n


def _walsh_prefix(d_sorted: np.ndarray, total: float, *, strict: bool) -> np.ndarray:
    """Per i, the number of j with ``d[i] + d[j] <= total`` (``<`` when strict), d sorted.

    Sums are compared as computed in floating point, so that counting and the
    listed Walsh averages agree exactly; ``searchsorted`` on ``total - d[i]``
    gives the answer up to rounding, which the loop corrects.
    """
    n = d_sorted.size
    side = "left" if strict else "right"
    j = np.searchsorted(d_sorted, total - d_sorted, side=side)

    def inside(i, jj):
        sums = d_sorted[i] + d_sorted[jj]
        return sums < total if strict else sums <= total

    for _ in range(64):
        up = np.flatnonzero(j < n)
        up = up[inside(up, j[up])]
        down = np.flatnonzero(j > 0)
        down = down[~inside(down, j[down] - 1)]
        if up.size == 0 and down.size == 0:
            break
        j[up] = np.searchsorted(d_sorted, d_sorted[j[up]], side="right")
        j[down] = np.searchsorted(d_sorted, d_sorted[j[down] - 1], side="left")
    return j


def _walsh_order_statistic(d_sorted: np.ndarray, k: int) -> float:
    """k-th smallest (1-based) Walsh average, without forming all n (n + 1) / 2 of them.

    Selection in the implicitly sorted matrix ``(d[i] + d[j]) / 2``, ``i <= j``:
    each row keeps a window of candidate columns; the pivot is the weighted
    median of the rows' middle candidates, which removes a fixed share of the
    candidates per step; a pivot whose tie block contains rank ``k`` is the
    answer; a small remainder is listed and sorted.
    """
    n = d_sorted.size
    rows = np.arange(n)
    start = rows.copy()                      # candidate columns j in [start, stop)
    stop = np.full(n, n)
    below = 0                                # averages known to rank below the window
    for _ in range(200):
        sizes = np.maximum(stop - start, 0)
        remaining = int(sizes.sum())
        if remaining <= max(4 * n, 1024):
            break
        live = np.flatnonzero(sizes > 0)
        middle = (start[live] + stop[live] - 1) // 2
        sums = d_sorted[live] + d_sorted[middle]
        order = np.argsort(sums, kind="stable")
        cum = np.cumsum(sizes[live][order])
        pivot = float(sums[order][np.searchsorted(cum, cum[-1] / 2.0)])
        le = np.maximum(_walsh_prefix(d_sorted, pivot, strict=False), rows)
        lt = np.maximum(_walsh_prefix(d_sorted, pivot, strict=True), rows)
        c_le = int((le - rows).sum())
        c_lt = int((lt - rows).sum())
        if c_lt < k <= c_le:
            return pivot / 2.0
        if k <= c_lt:
            stop = np.minimum(stop, lt)
        else:
            start = np.maximum(start, le)
            below = c_le
    sizes = np.maximum(stop - start, 0)
    r = np.repeat(rows, sizes)
    offsets = np.arange(r.size) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    values = np.sort(d_sorted[r] + d_sorted[start[r] + offsets])
    return float(values[k - below - 1]) / 2.0


def _tie_sizes(values: np.ndarray) -> np.ndarray:
    _, counts = np.unique(values, return_counts=True)
    return counts.astype(np.float64)


def wilcoxon_test(x, y, *, zero_method: str = "wilcox", correction: bool = False,
                  method: str = "auto") -> WilcoxonResult:
    """Wilcoxon signed-rank test of ``x`` against ``y``.

    Ranks ``|d|`` (ties get the average rank), sums the ranks of the positive
    differences (``R+``) and of the negative ones (``R-``). The statistic is
    ``min(R+, R-)``. Statistic and p-value agree with
    ``scipy.stats.wilcoxon(x, y, zero_method=..., correction=..., method=...)``.

    Zero differences (queries on which both systems score the same, frequent
    in retrieval) are handled by ``zero_method``:

    - ``"wilcox"`` (default): drop them; the test uses the nonzero differences only.
    - ``"pratt"``: rank them with the others, then drop their ranks
      (the normal approximation is adjusted for the dropped ranks).
    - ``"zsplit"``: rank them with the others and split their ranks half to
      ``R+`` and half to ``R-``.

    ``method="auto"`` chooses as scipy does: the normal approximation when
    ``n > 50``; otherwise the exact distribution when there are no ties and no
    zeros; otherwise, if ``n <= 13``, the exact conditional distribution by
    enumerating all sign flips (``"enumeration"``); otherwise the normal
    approximation with tie correction.

    Parameters
    ----------
    x, y : array_like, shape (n,)
        Paired per-query scores.
    zero_method : {"wilcox", "pratt", "zsplit"}, keyword-only
    correction : bool, keyword-only
        Continuity correction of the normal approximation (default False, as scipy).
    method : {"auto", "exact", "asymptotic"}, keyword-only

    Returns
    -------
    WilcoxonResult

    Raises
    ------
    InputError
        Bad arrays or an unknown option.

    Examples
    --------
    >>> res = wilcoxon_test([0.9, 0.8, 0.7, 0.95, 0.6, 0.75],
    ...                     [0.5, 0.7, 0.4, 0.55, 0.65, 0.3])
    >>> print(res.statistic, round(res.pvalue, 4), res.method)
    1.0 0.0625 exact
    """
    d = _differences(x, y)
    if zero_method not in ("wilcox", "pratt", "zsplit"):
        raise InputError(f"zero_method must be 'wilcox', 'pratt' or 'zsplit'; got {zero_method!r}")
    if method not in ("auto", "exact", "asymptotic"):
        raise InputError(f"method must be 'auto', 'exact' or 'asymptotic'; got {method!r}")
    mean, sd, n = _describe(d)
    zeros = d == 0
    n_zero = int(zeros.sum())

    used = d[~zeros] if zero_method == "wilcox" else d
    count = used.size
    ranks = _st.rankdata(np.abs(used))
    r_plus = float(ranks[used > 0].sum())
    r_minus = float(ranks[used < 0].sum())
    if zero_method == "zsplit":
        half = float(ranks[used == 0].sum()) / 2
        r_plus += half
        r_minus += half

    abs_nonzero = np.abs(used[used != 0]) if zero_method == "pratt" else np.abs(used)
    ties = _tie_sizes(abs_nonzero)
    has_ties = bool(np.any(ties > 1))

    chosen = method
    if method == "auto":
        if n > 50:
            chosen = "asymptotic"
        elif not (has_ties or n_zero > 0):
            chosen = "exact"
        elif n <= 13:
            chosen = "enumeration"
        else:
            chosen = "asymptotic"

    if count == 0:
        p = math.nan
    elif chosen == "exact":
        pmf = _signed_rank_pmf(count)
        lower = float(pmf[: math.ceil(r_plus) + 1].sum())
        upper = float(pmf[math.floor(r_plus):].sum())
        p = min(1.0, 2.0 * min(lower, upper))
    elif chosen == "enumeration":
        nonzero = used != 0
        rk = ranks[nonzero]
        base = r_plus - float(ranks[used > 0].sum())  # zsplit's constant share
        flips = ((np.arange(2 ** rk.size)[:, None] >> np.arange(rk.size)) & 1).astype(np.float64)
        null = flips @ rk + base
        tol = _RTOL * max(abs(r_plus), 1.0)
        greater = np.count_nonzero(null >= r_plus - tol) / null.size
        less = np.count_nonzero(null <= r_plus + tol) / null.size
        p = min(1.0, 2.0 * min(greater, less))
    else:
        mn = count * (count + 1) / 4
        var = count * (count + 1) * (2 * count + 1)
        if zero_method == "pratt":
            mn -= n_zero * (n_zero + 1) / 4
            var -= n_zero * (n_zero + 1) * (2 * n_zero + 1)
        var = (var - float(np.sum(ties**3 - ties)) / 2) / 24
        se = math.sqrt(var) if var > 0 else 0.0
        if se == 0.0:
            p = math.nan
        else:
            z = (r_plus - mn) / se
            if correction:
                z -= math.copysign(0.5 / se, z) if z != 0 else 0.0
            p = float(2.0 * _st.norm.sf(abs(z)))
    d_sorted = np.sort(d)
    m_total = n * (n + 1) // 2
    if m_total % 2:
        hl = _walsh_order_statistic(d_sorted, (m_total + 1) // 2)
    else:
        hl = 0.5 * (_walsh_order_statistic(d_sorted, m_total // 2)
                    + _walsh_order_statistic(d_sorted, m_total // 2 + 1))
    return WilcoxonResult(
        test="wilcoxon",
        statistic=min(r_plus, r_minus),
        pvalue=p,
        mean_difference=mean,
        effect_size=_dz(mean, sd),
        sd_difference=sd,
        n=n,
        zero_method=zero_method,
        method=chosen,
        hodges_lehmann=hl,
        _differences=d,
    )


# --------------------------------------------------------------------------- Monte Carlo engines


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
    rows = _chunk_rows(n)
    for start in range(0, n_resamples, rows):
        stop = min(start + rows, n_resamples)
        c = stop - start
        idx = rng.integers(0, n, size=(c, n))
        idx += (np.arange(c) * n)[:, None]
        counts = np.bincount(idx.ravel(), minlength=c * n).reshape(c, n).astype(np.float64)
        out[start:stop] = (counts @ values) / n
    return out


def _count_extreme(null: np.ndarray, observed: np.ndarray, scale: np.ndarray) -> np.ndarray:
    return np.count_nonzero(np.abs(null) >= np.abs(observed) - _RTOL * scale, axis=0)


def _randomization_results(diffs: np.ndarray, n_resamples: int, rng) -> list[RandomizationResult]:
    sums, sign_sums = _sign_flip_sums(diffs, n_resamples, rng)
    observed = diffs.sum(axis=0)
    counts = _count_extreme(sums, observed, np.abs(diffs).sum(axis=0))
    out = []
    for p in range(diffs.shape[1]):
        d = diffs[:, p]
        mean, sd, n = _describe(d)
        out.append(RandomizationResult(
            test="randomization",
            statistic=mean,
            pvalue=(int(counts[p]) + 1) / (n_resamples + 1),
            mean_difference=mean,
            effect_size=_dz(mean, sd),
            sd_difference=sd,
            n=n,
            n_resamples=n_resamples,
            _differences=d.copy(),
            _null_sums=sums[:, p].copy(),
            _null_sign_sums=sign_sums,
        ))
    return out


def _bootstrap_results(diffs: np.ndarray, n_resamples: int, rng) -> list[BootstrapResult]:
    means = diffs.mean(axis=0)
    centred = diffs - means
    null = _bootstrap_means(centred, n_resamples, rng)
    n = diffs.shape[0]
    counts = _count_extreme(null, means, np.abs(diffs).sum(axis=0) / n)
    out = []
    for p in range(diffs.shape[1]):
        mean, sd, n = _describe(diffs[:, p])
        out.append(BootstrapResult(
            test="bootstrap",
            statistic=mean,
            pvalue=(int(counts[p]) + 1) / (n_resamples + 1),
            mean_difference=mean,
            effect_size=_dz(mean, sd),
            sd_difference=sd,
            n=n,
            n_resamples=n_resamples,
            _null_means=null[:, p].copy(),
        ))
    return out


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
    d = _differences(x, y)
    return _randomization_results(d[:, None], check_n_resamples(n_resamples), check_rng(rng))[0]


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
    d = _differences(x, y)
    return _bootstrap_results(d[:, None], check_n_resamples(n_resamples), check_rng(rng))[0]


def paired_test(x, y, *, test: str = "t", n_resamples: int = 10_000, rng=None) -> PairedTestResult:
    """Run the paired test named ``test`` (see :data:`TESTS`) with default options.

    Examples
    --------
    >>> res = paired_test([0.5, 0.6, 0.9, 0.4], [0.3, 0.5, 0.6, 0.4], test="student")
    >>> res.test, round(res.pvalue, 4)
    ('t', 0.1027)
    """
    name = _canonical_test(test)
    if name == "t":
        return paired_t_test(x, y)
    if name == "wilcoxon":
        return wilcoxon_test(x, y)
    if name == "randomization":
        return randomization_test(x, y, n_resamples=n_resamples, rng=rng)
    return bootstrap_test(x, y, n_resamples=n_resamples, rng=rng)


def pairwise_tests(scores, *, test: str = "t", names: Sequence[Hashable] | None = None,
                   pairs: Sequence[tuple[Hashable, Hashable]] | None = None,
                   n_resamples: int = 10_000, rng=None) -> dict[tuple, PairedTestResult]:
    """Paired tests between many systems at once.

    Parameters
    ----------
    scores : array_like, shape (n_systems, n_queries)
        Row ``k`` holds system ``k``'s per-query scores; columns are the same
        queries for every system.
    test : str, keyword-only
        ``"t"``, ``"wilcoxon"``, ``"randomization"`` or ``"bootstrap"``
        (or an alias listed in :data:`TESTS`).
    names : sequence, optional, keyword-only
        A name per system (default ``0 .. n_systems - 1``).
    pairs : sequence of (a, b), optional, keyword-only
        Which pairs to test, by name; the difference is ``a - b``. Default: every
        unordered pair ``(names[i], names[j])`` with ``i < j``.
    n_resamples : int, keyword-only
        Rounds of the randomization / bootstrap tests.
    rng : numpy.random.Generator, int or None, keyword-only
        Source of randomness. The randomization and bootstrap tests use the
        same random rounds for every pair (each pair's test is exact in its own
        right; the p-values of different pairs are then dependent, which the
        corrections in :func:`adjust_pvalues` allow for, except ``"bh"``,
        which assumes independent or positively dependent tests).

    Returns
    -------
    dict
        ``{(a, b): result}`` in the order of ``pairs``.

    Examples
    --------
    >>> scores = [[0.9, 0.8, 0.7, 0.95, 0.6],
    ...           [0.5, 0.7, 0.4, 0.55, 0.65],
    ...           [0.5, 0.6, 0.4, 0.50, 0.60]]
    >>> res = pairwise_tests(scores, test="randomization", names=["a", "b", "c"], rng=0)
    >>> list(res)
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    >>> round(res["b", "c"].mean_difference, 3)
    0.04
    """
    name = _canonical_test(test)
    matrix = _score_matrix(scores)
    n_systems, n_queries = matrix.shape
    if names is None:
        names = list(range(n_systems))
    names = list(names)
    if len(names) != n_systems:
        raise InputError(f"names must give one name per system ({n_systems}); got {len(names)}")
    if len(set(names)) != len(names):
        raise InputError(f"names must be distinct; got {names!r}")
    index = {nm: k for k, nm in enumerate(names)}
    if pairs is None:
        pairs = [(names[i], names[j]) for i in range(n_systems) for j in range(i + 1, n_systems)]
    pairs = [tuple(p) for p in pairs]
    for p in pairs:
        if len(p) != 2 or p[0] not in index or p[1] not in index:
            raise InputError(f"pairs must hold pairs of system names from {names!r}; got {p!r}")
    if not pairs:
        return {}
    if n_queries < 2:
        raise InputError(f"a paired test needs at least 2 queries; got {n_queries}")
    a = [index[p[0]] for p in pairs]
    b = [index[p[1]] for p in pairs]
    diffs = (matrix[a] - matrix[b]).T  # (n_queries, n_pairs)
    if name == "randomization":
        results = _randomization_results(diffs, check_n_resamples(n_resamples), check_rng(rng))
    elif name == "bootstrap":
        results = _bootstrap_results(diffs, check_n_resamples(n_resamples), check_rng(rng))
    elif name == "t":
        results = [paired_t_test(matrix[i], matrix[j]) for i, j in zip(a, b)]
    else:
        results = [wilcoxon_test(matrix[i], matrix[j]) for i, j in zip(a, b)]
    return dict(zip(pairs, results))


# --------------------------------------------------------------------------- corrections


def adjust_pvalues(pvalues, *, method: str = "holm") -> np.ndarray:
    """Adjust a family of p-values for multiple comparisons.

    - ``"holm"`` (default): Holm's step-down method; controls the
      family-wise error rate under any dependence, and is uniformly more
      powerful than Bonferroni.
    - ``"bonferroni"``: ``min(1, m * p)``.
    - ``"bh"`` (aliases ``"fdr_bh"``, ``"benjamini-hochberg"``):
      Benjamini-Hochberg step-up; controls the false discovery rate for
      independent or positively dependent tests.
    - ``"none"``: the p-values unchanged.

    A hypothesis is rejected at level ``alpha`` when its adjusted p-value is
    ``<= alpha``. The results agree with
    ``statsmodels.stats.multitest.multipletests(p, method=...)[1]``
    (``method`` ``"holm"``, ``"bonferroni"``, ``"fdr_bh"``). NaN p-values
    (e.g. a t test between identical systems) stay NaN and do not count in
    the family size ``m``.

    Parameters
    ----------
    pvalues : array_like
        The family's p-values, any shape.
    method : str, keyword-only

    Returns
    -------
    numpy.ndarray
        Adjusted p-values, same shape as ``pvalues``.

    Examples
    --------
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.005])
    array([0.03, 0.06, 0.06, 0.02])
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.005], method="bh")
    array([0.02, 0.04, 0.04, 0.02])
    """
    key = method.lower() if isinstance(method, str) else None
    if key not in CORRECTIONS:
        raise InputError(f"method must be one of {sorted(CORRECTIONS)}; got {method!r}")
    key = CORRECTIONS[key]
    try:
        p = np.array(pvalues, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"pvalues must be numbers; got {pvalues!r:.80}") from exc
    finite = ~np.isnan(p)
    if np.any((p[finite] < 0) | (p[finite] > 1)):
        bad = p[finite][(p[finite] < 0) | (p[finite] > 1)][0]
        raise InputError(f"pvalues must lie in [0, 1]; got {bad}")
    out = p.copy()
    vals = p[finite]
    m = vals.size
    if m == 0 or key == "none":
        return out
    order = np.argsort(vals, kind="mergesort")
    sorted_p = vals[order]
    if key == "bonferroni":
        adj_sorted = np.minimum(1.0, sorted_p * m)
    elif key == "holm":
        adj_sorted = np.minimum(1.0, np.maximum.accumulate(sorted_p * (m - np.arange(m))))
    else:  # bh
        ranks = np.arange(1, m + 1)
        adj_sorted = np.minimum(1.0, np.minimum.accumulate((sorted_p * m / ranks)[::-1])[::-1])
    adjusted = np.empty(m)
    adjusted[order] = adj_sorted
    out[finite] = adjusted
    return out


# --------------------------------------------------------------------------- intervals of means


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


# --------------------------------------------------------------------------- planning


def _check_positive(value, name: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        v = math.nan
    if not (v > 0 and math.isfinite(v)):
        raise InputError(f"{name} must be a positive number; got {value!r}")
    return v


def _power(effect: float, n: float, alpha: float) -> float:
    df = n - 1
    crit = _st.t.isf(alpha / 2, df)
    nc = effect * math.sqrt(n)
    upper = float(_st.nct.sf(crit, df, nc))
    lower = float(special.nctdtr(df, nc, -crit))
    if math.isnan(lower):  # underflow far in the tail opposite to a positive effect
        lower = 0.0
    return upper + lower


def paired_t_power(delta: float, sd: float, n_queries: int, *, alpha: float = 0.05) -> float:
    """Power of the two-sided paired t test.

    The probability of a significant result at level ``alpha`` with
    ``n_queries`` queries when the true mean difference is ``delta`` and the
    per-query differences have standard deviation ``sd``: with effect
    ``e = delta / sd`` and ``t`` critical value ``c`` (``n - 1`` df),
    ``power = P(T > c) + P(T < -c)`` for ``T`` noncentral t with noncentrality
    ``e * sqrt(n)``. Agrees with ``statsmodels.stats.power.TTestPower().power``.

    Examples
    --------
    >>> round(paired_t_power(0.02, 0.1, 200), 4)
    0.8037
    """
    delta = float(delta)
    sd = _check_positive(sd, "sd")
    alpha = check_probability(alpha, "alpha")
    n = _check_positive(n_queries, "n_queries")
    if n < 2:
        raise InputError(f"n_queries must be at least 2; got {n_queries!r}")
    return _power(abs(delta) / sd, n, alpha)


def queries_needed(delta: float, sd: float, *, alpha: float = 0.05, power: float = 0.8) -> int:
    """Number of queries a paired t test needs to detect a mean difference ``delta``.

    ``sd`` is the standard deviation of the per-query differences between the
    two systems, estimated from a pilot comparison (``result.sd_difference``
    of any test in this module). Solves :func:`paired_t_power` ``= power`` for
    ``n`` and rounds up; the unrounded ``n`` agrees with
    ``statsmodels.stats.power.TTestPower().solve_power(effect_size=delta / sd,
    alpha=alpha, power=power)``.

    Examples
    --------
    >>> queries_needed(0.02, 0.1)          # detect +0.02 nDCG when sd(diff) = 0.1
    199
    """
    delta = abs(float(delta))
    if not (delta > 0 and math.isfinite(delta)):
        raise InputError(f"delta must be a nonzero finite difference; got {delta!r}")
    sd = _check_positive(sd, "sd")
    alpha = check_probability(alpha, "alpha")
    power = check_probability(power, "power")
    if power <= alpha:
        raise InputError(f"power must exceed alpha ({alpha}); got {power}")
    effect = delta / sd
    hi = 4.0
    while _power(effect, hi, alpha) < power:
        hi *= 2.0
        if hi > 1e12:
            raise InputError(f"delta {delta} is too small relative to sd {sd} to plan for")
    lo = 2.0
    if _power(effect, lo, alpha) >= power:
        return 2
    n = optimize.brentq(lambda m: _power(effect, m, alpha) - power, lo, hi, xtol=1e-10, rtol=1e-14)
    return math.ceil(n - 1e-9)


def minimum_detectable_difference(sd: float, n_queries: int, *, alpha: float = 0.05,
                                  power: float = 0.8) -> float:
    """Smallest true mean difference a paired t test on ``n_queries`` queries detects.

    The ``delta`` with :func:`paired_t_power` ``(delta, sd, n_queries) = power``;
    agrees with ``sd * TTestPower().solve_power(nobs=n_queries, alpha=alpha,
    power=power)`` from statsmodels.

    Examples
    --------
    >>> round(minimum_detectable_difference(0.1, 50), 4)
    0.0404
    """
    sd = _check_positive(sd, "sd")
    n = _check_positive(n_queries, "n_queries")
    if n < 2:
        raise InputError(f"n_queries must be at least 2; got {n_queries!r}")
    alpha = check_probability(alpha, "alpha")
    power = check_probability(power, "power")
    if power <= alpha:
        raise InputError(f"power must exceed alpha ({alpha}); got {power}")
    hi = 1.0
    while _power(hi, n, alpha) < power:
        hi *= 2.0
    effect = optimize.brentq(lambda e: _power(e, n, alpha) - power, 0.0, hi, xtol=1e-14, rtol=1e-14)
    return effect * sd
