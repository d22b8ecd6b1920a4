"""Holes: the documents a run puts near the top that nobody has judged."""

from __future__ import annotations

import numpy as np
import pandas as pd

from reteval.errors import InputError

__all__ = ["holes"]


def holes(qrels, run, *, depth: int = 10) -> pd.DataFrame:
    """The (query, document) pairs of a run's top `depth` that have no judgment.

    A measure at cutoff ``depth`` counts an unjudged document as not relevant, so these
    are the pairs to judge before trusting it: hand them to :func:`judge` (with a
    ``cache``, only the ones never asked are sent). Given a list of runs, the holes of
    any of them, each pair once: the pool to judge before comparing them.

    Parameters
    ----------
    qrels : qrels or None
        The judgments so far, in any form :func:`reteval.io.as_qrels` takes (extra
        columns such as ``judge`` are ignored); None when nothing is judged yet. A pair
        with any judgment, a negative grade included, is not a hole.
    run : run or list of runs
        In any form :func:`reteval.io.as_run` takes; ranked as trec_eval ranks (score
        descending, then document id descending).
    depth : int, default 10
        How many of each query's top documents to look at.

    Returns
    -------
    pandas.DataFrame
        Columns ``query_id``, ``doc_id`` and ``rank`` (1 = top; of several runs, the best
        rank any gives the pair), one row per unjudged pair, by query (trec_eval's order
        of query ids), rank and document id. Every query of the runs appears, judged or
        not.

    Raises
    ------
    InputError
        If `depth` is not a positive integer, or the qrels or the run are malformed.

    Examples
    --------
    >>> qrels = {"q1": {"d1": 1, "d2": 0}}
    >>> run = {"q1": ["d1", "d3", "d2", "d4"], "q2": ["d9"]}
    >>> holes(qrels, run, depth=3)
      query_id doc_id  rank
    0       q1     d3     2
    1       q2     d9     1
    >>> holes(qrels, [run, {"q1": ["d4", "d3"]}], depth=3)
      query_id doc_id  rank
    0       q1     d4     1
    1       q1     d3     2
    2       q2     d9     1
    """
    from reteval.io import as_qrels, as_run, sort_run

    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 1:
        raise InputError(f"depth must be a positive integer; got {depth!r}")
    runs = list(run) if isinstance(run, (list, tuple)) else [run]
    if not runs:
        raise InputError("holes needs a run; got an empty list")
    tops = []
    for one in runs:
        frame = sort_run(as_run(one))
        frame["rank"] = frame.groupby("query_id", sort=False).cumcount() + 1
        tops.append(frame.loc[frame["rank"] <= depth, ["query_id", "doc_id", "rank"]])
    top = tops[0]
    if len(tops) > 1:  # each pair once, at its best rank
        top = (pd.concat(tops).groupby(["query_id", "doc_id"], sort=False, as_index=False)
               ["rank"].min().sort_values(["query_id", "rank", "doc_id"], kind="stable"))
    if qrels is None:
        return top.reset_index(drop=True)
    judged = as_qrels(qrels)[["query_id", "doc_id"]].drop_duplicates()
    merged = top.merge(judged, on=["query_id", "doc_id"], how="left", indicator=True)
    out = merged.loc[merged["_merge"] == "left_only", ["query_id", "doc_id", "rank"]]
    return out.reset_index(drop=True)
