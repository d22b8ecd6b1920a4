"""Agreement between rankings: Kendall's tau, tau_AP and rank-biased overlap.

Two kinds of ranking are compared here. A *ranking of systems* is a Series
system -> score (higher is better), as two sets of judgments give for the same
runs: do they put the systems in the same order? A *ranked list* is a sequence
of ids, best first, possibly of different lengths and contents (two runs' top
documents): how much do they overlap, weighting the top most?
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
import pandas as pd

from reteval.errors import InputError

__all__ = ["kendall_tau", "rbo", "tau_ap"]


def _aligned(a, b, what: str) -> tuple[pd.Series, pd.Series]:
    for name, s in (("first", a), ("second", b)):
        if not isinstance(s, pd.Series):
            raise InputError(
                f"{what} compares rankings of systems given as pandas Series (system -> score); "
                f"the {name} is a {type(s).__name__}"
            )
    if a.index.has_duplicates or b.index.has_duplicates:
        dup = a.index[a.index.duplicated()].tolist() or b.index[b.index.duplicated()].tolist()
        raise InputError(f"{what}: system {dup[0]!r} is listed twice")
    names_a, names_b = set(a.index), set(b.index)
    if names_a != names_b:
        alone = [s for s in a.index if s not in names_b] + [s for s in b.index
                                                              if s not in names_a]
        first = min(alone, key=str)
        other = b.index if first in names_a else a.index
        twin = next((s for s in other if str(s) == str(first)), None)
        if twin is not None:  # 1 and "1": the same name, not the same system
            raise InputError(
                f"{what}: system {first!r} ({type(first).__name__}) of one ranking is "
                f"{twin!r} ({type(twin).__name__}) in the other; name the systems alike"
            )
        raise InputError(
            f"{what} needs the same systems in both rankings; {first!r} is in only one"
        )
    b = b.reindex(a.index)
    if len(a) < 2:
        raise InputError(f"{what} needs at least two systems; got {len(a)}")
    if a.isna().any() or b.isna().any():
        bad = a.index[a.isna() | b.isna()][0]
        raise InputError(f"{what}: system {bad!r} has no score (NaN)")
    return a.astype(float), b.astype(float)


def kendall_tau(a: pd.Series, b: pd.Series) -> float:
    """Kendall's tau (tau-b) between two rankings of the same systems.

    Equal to ``scipy.stats.kendalltau(a, b).statistic`` on the scores aligned by
    system. Every swapped pair counts the same, wherever it is in the ranking.

    Parameters
    ----------
    a, b : pandas.Series
        System -> score (higher is better), the same systems in any order.

    Returns
    -------
    float
        1: the same order; -1: reversed. Ties are handled as tau-b does.

    Raises
    ------
    InputError
        Not Series, different systems (``1`` and ``"1"`` are different names: the
        error says so), fewer than two systems, a NaN score, or one ranking with
        every score tied (tau is undefined).

    Examples
    --------
    >>> import pandas as pd
    >>> a = pd.Series({"s1": 0.4, "s2": 0.3, "s3": 0.2, "s4": 0.1})
    >>> b = pd.Series({"s1": 0.3, "s2": 0.4, "s3": 0.2, "s4": 0.1})
    >>> round(kendall_tau(a, b), 4)
    0.6667
    """
    from scipy.stats import kendalltau

    x, y = _aligned(a, b, "kendall_tau")
    if x.nunique() == 1 or y.nunique() == 1:
        raise InputError("kendall_tau is undefined when one ranking has every score tied")
    return float(kendalltau(x.to_numpy(), y.to_numpy()).statistic)


def tau_ap(truth: pd.Series, other: pd.Series) -> float:
    """AP correlation: like Kendall's tau, but swaps near the top cost more.

    Going down ``other``'s order, each system is asked how many of the systems
    ``other`` puts above it are above it in ``truth`` too:
    ``tau_AP = 2 / (N - 1) * sum_{i=2..N} C(i) / (i - 1) - 1``. Not symmetric:
    ``truth`` is the reference (the judgments you trust), ``other`` the ranking
    under test.

    Parameters
    ----------
    truth, other : pandas.Series
        System -> score (higher is better), the same systems.

    Returns
    -------
    float
        1: the same order; -1: reversed.

    Notes
    -----
    Ties are not defined in the original measure. Here ``other`` is ordered by
    score descending, ties by system name ascending; a pair tied in both
    rankings counts as correctly ordered, and a pair tied in only one counts
    one half (its expected value when that tie is broken at random). So two
    identical rankings have tau_AP = 1, ties and all.

    References
    ----------
    E. Yilmaz, J. A. Aslam and S. Robertson (2008), "A new rank correlation
    coefficient for information retrieval", SIGIR.

    Examples
    --------
    >>> import pandas as pd
    >>> truth = pd.Series({"s1": 4, "s2": 3, "s3": 2, "s4": 1})
    >>> round(tau_ap(truth, pd.Series({"s1": 3, "s2": 4, "s3": 2, "s4": 1})), 4)  # top swap
    0.3333
    >>> round(tau_ap(truth, pd.Series({"s1": 4, "s2": 3, "s3": 1, "s4": 2})), 4)  # bottom swap
    0.7778
    """
    x, y = _aligned(truth, other, "tau_ap")
    names = np.array([str(s) for s in y.index])
    order = np.lexsort((names, -y.to_numpy()))
    t = x.to_numpy()[order]
    o = y.to_numpy()[order]
    n = len(t)
    total = 0.0
    for i in range(1, n):
        above_t, above_o = t[:i], o[:i]
        tied_t, tied_o = above_t == t[i], above_o == o[i]
        correct = ((above_t > t[i]) & ~tied_o).sum() + (tied_t & tied_o).sum() \
            + 0.5 * (tied_t ^ tied_o).sum()
        total += correct / i
    return float(2 * total / (n - 1) - 1)


def _check_list(items, name: str) -> list:
    if isinstance(items, (str, bytes)) or not isinstance(items, (Sequence, np.ndarray, pd.Index,
                                                                 pd.Series)):
        raise InputError(f"rbo takes ranked lists (sequences of ids); {name} is a "
                         f"{type(items).__name__}")
    items = list(items)
    seen = set()
    for position, item in enumerate(items, start=1):
        try:
            hash(item)
        except TypeError:
            raise InputError(f"rbo: {name} holds {item!r} at rank {position}, which cannot be an "
                             f"id (a {type(item).__name__}: ids are strings, numbers or "
                             f"tuples)") from None
        if item in seen:
            raise InputError(f"rbo: {name} lists {item!r} twice (again at rank {position})")
        seen.add(item)
    return items


def rbo(list_a, list_b, *, p: float = 0.9) -> float:
    """Extrapolated rank-biased overlap (RBO_ext) of two ranked lists.

    At each depth ``d`` the agreement is the share of the two top-``d`` prefixes
    that overlap; RBO averages the agreements with weights ``(1 - p) p^(d-1)``,
    so the top counts most (with ``p = 0.9`` the first 10 ranks carry about 86%
    of the weight). The lists may differ in length and content; the measure is
    extrapolated beyond the seen depth by assuming the agreement stays as it
    was (Webber et al., eq. 32, which handles uneven lengths).

    Parameters
    ----------
    list_a, list_b : sequence of ids
        Ranked lists, best first, with no id twice.
    p : float, default 0.9
        Persistence, in (0, 1): higher looks deeper.

    Returns
    -------
    float
        In [0, 1]: 1 for identical lists, 0 for disjoint ones.

    Raises
    ------
    InputError
        ``p`` not a number in (0, 1) (numpy numbers are numbers), an id listed twice or
        one that cannot be an id (a list, a dict), or an argument that is not a sequence.

    References
    ----------
    W. Webber, A. Moffat and J. Zobel (2010), "A similarity measure for
    indefinite rankings", ACM TOIS 28(4).

    Examples
    --------
    >>> rbo(["a", "b", "c"], ["a", "b", "c"])
    1.0
    >>> round(rbo(["a", "b", "c", "d"], ["b", "a", "c", "d"], p=0.9), 4)
    0.9
    """
    if isinstance(p, (bool, np.bool_)) or not isinstance(p, numbers.Real):
        raise InputError(f"p must be a number between 0 and 1 (exclusive); got {p!r}")
    if not 0 < float(p) < 1:
        raise InputError(f"p must be between 0 and 1 (exclusive); got {p!r}")
    p = float(p)
    a = _check_list(list_a, "list_a")
    b = _check_list(list_b, "list_b")
    if not a and not b:
        return 1.0
    if not a or not b:
        return 0.0
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    s, n_long = len(short), len(long_)
    seen_short: set = set()
    seen_long: set = set()
    overlap = 0
    total = 0.0
    x_s = 0
    for d in range(1, n_long + 1):
        item_long = long_[d - 1]
        if d <= s:
            item_short = short[d - 1]
            if item_short == item_long:
                overlap += 1
            else:
                overlap += (item_short in seen_long) + (item_long in seen_short)
            seen_short.add(item_short)
        else:
            overlap += item_long in seen_short
        seen_long.add(item_long)
        if d == s:
            x_s = overlap
        total += overlap / d * p**d
        if d > s:
            total += x_s * (d - s) / (s * d) * p**d
    result = (1 - p) / p * total + ((overlap - x_s) / n_long + x_s / s) * p**n_long
    return float(min(1.0, max(0.0, result)))
