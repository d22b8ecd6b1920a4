"""The queries that failed: a relevant document exists, and none is in the top k."""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

from reteval.errors import InputError

__all__ = ["failures"]


def failures(qrels, run, *, k: int = 10, relevance_level: float = 1) -> pd.DataFrame:
    """One row per judged query with a relevant document and none in the run's top `k`.

    The queries whose Success@k is 0: where to look first when a retriever disappoints.

    Parameters
    ----------
    qrels : qrels
        In any form :func:`reteval.io.as_qrels` takes. A query counts when it has at
        least one relevant document (grade >= `relevance_level`).
    run : run
        In any form :func:`reteval.io.as_run` takes, ranked as trec_eval ranks (score
        descending, then document id descending). A judged query the run does not
        answer at all is a failure too.
    k : int, default 10
        The cutoff.
    relevance_level : float, default 1
        The lowest grade that counts as relevant.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``query_id``, columns:

        - ``first_relevant_rank`` (nullable integer): the rank of the first relevant
          document, missing (``<NA>``) when none was retrieved;
        - ``num_relevant``: relevant documents judged for the query;
        - ``num_retrieved``: documents the run retrieved for it.

        The queries whose relevant documents were never retrieved come first, then the
        others by their first relevant rank, deepest first; ties by query id. Empty
        (same columns) when no query failed.

    Raises
    ------
    InputError
        If `k` is not a positive integer, `relevance_level` not a finite number, or the
        qrels or the run are malformed.

    See Also
    --------
    reteval.evaluate : ``Success@k`` is 0 on exactly these queries.

    Examples
    --------
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1, "d3": 2}, "q3": {"d4": 1}, "q4": {"d5": 0}}
    >>> run = {"q1": ["x", "y", "d1"], "q2": ["x", "y"], "q3": ["d4"]}
    >>> failures(qrels, run, k=2)
              first_relevant_rank  num_relevant  num_retrieved
    query_id
    q2                       <NA>             2              2
    q1                          3             1              3
    """
    from reteval.io import as_qrels, as_run, sort_run

    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise InputError(f"k must be a positive integer; got {k!r}")
    if isinstance(relevance_level, bool) or not isinstance(relevance_level, numbers.Real) \
            or not math.isfinite(relevance_level):
        raise InputError(f"relevance_level must be a finite number; got {relevance_level!r}")
    judged = as_qrels(qrels)
    relevant = judged.loc[judged["relevance"] >= relevance_level, ["query_id", "doc_id"]]
    ranked = sort_run(as_run(run))
    ranked["rank"] = ranked.groupby("query_id", sort=False).cumcount() + 1
    num_relevant = relevant.groupby("query_id", sort=True).size()
    num_retrieved = ranked.groupby("query_id").size()
    hits = ranked.merge(relevant, on=["query_id", "doc_id"])
    first = hits.groupby("query_id")["rank"].min()
    ids = num_relevant.index.astype(str)
    table = pd.DataFrame({
        "first_relevant_rank": pd.array(first.reindex(num_relevant.index).to_numpy(),
                                        dtype="Int64"),
        "num_relevant": num_relevant.to_numpy(dtype=np.int64),
        "num_retrieved": num_retrieved.reindex(num_relevant.index, fill_value=0)
        .to_numpy(dtype=np.int64),
    }, index=pd.Index(ids, name="query_id"))
    rank = table["first_relevant_rank"]
    failed = table[rank.isna() | (rank > k)].copy()
    never = failed["first_relevant_rank"].isna().to_numpy()
    depth = failed["first_relevant_rank"].fillna(0).to_numpy(dtype=np.int64)
    order = np.lexsort((failed.index.to_numpy(dtype=str), -depth, ~never))
    return failed.iloc[order]
