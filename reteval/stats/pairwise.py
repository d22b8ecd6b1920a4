"""One test by name for a pair of systems, or for every pair of many systems at once."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from reteval._util.validation import (
    check_n_resamples,
    check_rng,
)
from reteval.errors import InputError
from reteval.stats.inputs import (
    score_matrix,
)
from reteval.stats.paired import paired_t_test, wilcoxon_test
from reteval.stats.resampling import (
    bootstrap_results,
    bootstrap_test,
    randomization_results,
    randomization_test,
)
from reteval.stats.results import PairedTestResult

__all__ = [
    "TESTS",
    "canonical_test",
    "paired_test",
    "pairwise_tests",
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


def canonical_test(test: str) -> str:
    """The canonical name of a paired test (see :data:`TESTS`), or a clear error.

    Examples
    --------
    >>> canonical_test("Permutation")
    'randomization'
    """
    key = test.lower() if isinstance(test, str) else None
    if key not in TESTS:
        raise InputError(f"test must be one of {sorted(set(TESTS))}; got {test!r}")
    return TESTS[key]



def paired_test(x, y, *, test: str = "t", n_resamples: int = 10_000, rng=None) -> PairedTestResult:
    """Run the paired test named ``test`` (see :data:`TESTS`) with default options.

    Examples
    --------
    >>> res = paired_test([0.5, 0.6, 0.9, 0.4], [0.3, 0.5, 0.6, 0.4], test="student")
    >>> res.test, round(res.pvalue, 4)
    ('t', 0.1027)
    """
    name = canonical_test(test)
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
    name = canonical_test(test)
    matrix = score_matrix(scores)
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
    asked: list[tuple[Hashable, ...]] = [tuple(p) for p in pairs]
    for p in asked:
        if len(p) != 2 or p[0] not in index or p[1] not in index:
            raise InputError(f"pairs must hold pairs of system names from {names!r}; got {p!r}")
    if not asked:
        return {}
    if n_queries < 2:
        raise InputError(f"a paired test needs at least 2 queries; got {n_queries}")
    a = [index[p[0]] for p in asked]
    b = [index[p[1]] for p in asked]
    diffs = (matrix[a] - matrix[b]).T  # (n_queries, n_pairs)
    results: Sequence[PairedTestResult]
    if name == "randomization":
        results = randomization_results(diffs, check_n_resamples(n_resamples), check_rng(rng))
    elif name == "bootstrap":
        results = bootstrap_results(diffs, check_n_resamples(n_resamples), check_rng(rng))
    elif name == "t":
        results = [paired_t_test(matrix[i], matrix[j]) for i, j in zip(a, b, strict=True)]
    else:
        results = [wilcoxon_test(matrix[i], matrix[j]) for i, j in zip(a, b, strict=True)]
    return dict(zip(asked, results, strict=True))
