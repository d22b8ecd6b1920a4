"""Reproduction measures on the ranked lists: Kendall's tau union and rank-biased overlap.

The "document order" level of Breuer et al. (SIGIR 2020): does the reproduced
run rank the same documents in the same order as the original, topic by topic?
Both runs are put in trec_eval's order (score descending, then doc id
descending) before they are compared, as ``repro_eval`` does.
"""

from __future__ import annotations

import numpy as np

from reteval.errors import InputError

__all__ = ["ktu", "rbo"]

RUN_LENGTH = 1000  # repro_eval's default depth for both measures


def _check_depth(depth) -> int:
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 1:
        raise InputError(f"depth must be a positive integer; got {depth!r}")
    return int(depth)


def _rankings(original, reproduced, depth: int) -> list[tuple[str, list, list]]:
    """``(topic, original doc ids, reproduced doc ids)``, each cut at ``depth``, by topic."""
    from reteval.io import as_run, sort_run

    lists = []
    for name, run in (("original", original), ("reproduced", reproduced)):
        frame = sort_run(as_run(run))
        if frame.empty:
            raise InputError(f"the {name} run retrieves nothing")
        frame = frame.groupby("query_id", sort=False).head(depth)
        lists.append({str(q): g["doc_id"].astype(str).tolist()
                      for q, g in frame.groupby("query_id", sort=True)})
    first, second = lists
    only = sorted(set(first) ^ set(second))
    if only:
        holder = "original" if only[0] in first else "reproduced"
        raise InputError(f"the original and reproduced runs must rank the same topics; topic "
                         f"{only[0]!r} is only in the {holder} run ({len(only)} topic(s) in one "
                         "only)")
    return [(topic, first[topic], second[topic]) for topic in sorted(first)]


def ktu(original, reproduced, *, depth: int = RUN_LENGTH):
    """Kendall's tau union between the original and reproduced rankings, per topic.

    Kendall's tau needs two rankings of the same items; the rankings of two
    runs hold different documents. Tau union (Breuer et al. 2020) puts the
    documents of both top-``depth`` lists in one sorted list (the union, by doc
    id) and turns each ranking into the sequence of its documents' positions in
    that union; tau is computed between the two sequences, rank by rank (the
    first document of one against the first of the other, and so on).

    **A document missing from one ranking is not placed in it**: it counts
    only through its own position in the union, in the ranking that has it
    (``[a, b, c]`` against ``[z, b, c]``: the union is ``a b c z``, the
    sequences ``0 1 2`` and ``3 1 2``, tau -1/3). Since the sequences are
    paired by rank, not by document, this is not Kendall's tau between the
    documents' ranks: it asks whether the documents at each pair of ranks
    keep their order *within the union*. Swapping the first two of
    ``[d1, d9, d2]`` gives -1 (sequences ``0 2 1`` and ``2 0 1``), where tau
    between the documents' ranks would be 1/3. That is the definition of the
    paper as ``repro_eval`` computes it; read :func:`rbo` beside it.

    When the two lists have different lengths (a topic with fewer than
    ``depth`` documents in one run), both are cut to the shorter
    (``repro_eval`` fails there); a topic where that leaves fewer than two
    documents gets NaN (tau is undefined).

    Parameters
    ----------
    original, reproduced : run
        The original run and its reproduction (any form
        :func:`reteval.io.as_run` takes), on the same topics.
    depth : int, default 1000
        How many of each ranking's top documents are compared.

    Returns
    -------
    pandas.Series
        Tau union per topic (index ``query_id``, sorted), in [-1, 1]; 1 for the same order.

    Raises
    ------
    InputError
        A topic in one run only, an empty run, or ``depth`` not a positive integer.

    References
    ----------
    T. Breuer, N. Ferro, N. Fuhr, M. Maistro, T. Sakai, P. Schaer, I. Soboroff
    (2020), "How to measure the reproducibility of system-oriented IR
    experiments", SIGIR.

    Examples
    --------
    >>> original = {"q1": ["d1", "d2", "d3"], "q2": ["d1", "d2", "d3"]}
    >>> reproduced = {"q1": ["d2", "d1", "d3"], "q2": ["d1", "d2", "d4"]}
    >>> ktu(original, reproduced).round(4).to_dict()
    {'q1': 0.3333, 'q2': 1.0}
    """
    import pandas as pd
    from scipy.stats import kendalltau

    depth = _check_depth(depth)
    values = {}
    for topic, a, b in _rankings(original, reproduced, depth):
        n = min(len(a), len(b))
        a, b = a[:n], b[:n]
        union = sorted(set(a) | set(b))
        position = {doc: i for i, doc in enumerate(union)}
        if n < 2:
            values[topic] = float("nan")
            continue
        values[topic] = float(kendalltau([position[d] for d in a],
                                         [position[d] for d in b]).statistic)
    return pd.Series(values, name="KTU", dtype=float).rename_axis("query_id")


def rbo(original, reproduced, *, p: float = 0.95, depth: int = RUN_LENGTH):
    """Rank-biased overlap between the original and reproduced rankings, per topic.

    ``RBO = sum_{d=1..depth} p^(d-1) |A_d & B_d| / d  /  sum_{d=1..depth} p^(d-1)``,
    with ``A_d`` and ``B_d`` the two top-``d`` lists: the overlap of the
    prefixes at each depth, averaged with weights that fall geometrically, so
    the top counts most. It is the truncated, normalised RBO of ``repro_eval``
    (after Clarke et al. 2020), not the extrapolated RBO of
    :func:`reteval.judging.rbo`: the sum stops at ``depth``, and is divided by
    the weights up to ``depth``.

    **A document missing from one ranking never overlaps**: it adds to the
    length of the prefixes but not to their intersection. A list shorter than
    ``depth`` stops growing; its prefix at any deeper depth is the whole list,
    and the overlap is still divided by the depth: two identical lists score
    1 only if they hold ``depth`` documents (``[d1]`` against itself at depth
    3, ``p = 0.5``: (1 + 0.5/2 + 0.25/3) / 1.75 = 0.7619), as ``repro_eval``
    computes it.

    Parameters
    ----------
    original, reproduced : run
        The original run and its reproduction, on the same topics.
    p : float, default 0.95
        Persistence, in (0, 1): higher looks deeper (``repro_eval``'s default).
    depth : int, default 1000
        The depth at which the sum stops.

    Returns
    -------
    pandas.Series
        RBO per topic (index ``query_id``, sorted), in [0, 1]; 1 for the same ranking.

    Raises
    ------
    InputError
        A topic in one run only, an empty run, ``p`` outside (0, 1) or ``depth``
        not a positive integer.

    References
    ----------
    W. Webber, A. Moffat, J. Zobel (2010), "A similarity measure for indefinite
    rankings", ACM TOIS; C. L. A. Clarke, A. Vtyurina, M. D. Smucker (2020),
    "Assessing top-k preferences", ACM TOIS.

    Examples
    --------
    >>> rbo({"q1": ["d1", "d2"]}, {"q1": ["d2", "d1"]}, p=0.5, depth=2).round(4).to_dict()
    {'q1': 0.3333}
    """
    import pandas as pd

    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 < p < 1:
        raise InputError(f"p must be between 0 and 1 (exclusive); got {p!r}")
    depth = _check_depth(depth)
    weights = float(p) ** np.arange(depth)
    per_depth = weights / np.arange(1, depth + 1)
    values = {}
    for topic, a, b in _rankings(original, reproduced, depth):
        rank_b = {doc: i for i, doc in enumerate(b)}
        # a document in both lists is in both prefixes from depth max(rank_a, rank_b) on
        both = np.array([max(i, rank_b[doc]) for i, doc in enumerate(a) if doc in rank_b],
                        dtype=np.int64)
        overlap = np.cumsum(np.bincount(both, minlength=depth)[:depth])
        values[topic] = float((per_depth * overlap).sum() / weights.sum())
    return pd.Series(values, name="RBO", dtype=float).rename_axis("query_id")
