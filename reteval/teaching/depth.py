"""Seeing how retrieval depth shapes a comparison.

Measures without a cutoff (AP, recall over the whole run) reward a run for
every relevant document it returns, however deep. Two runs that stop at
different depths are therefore not compared on equal terms. These two helpers
make that visible in notebook 05:

* :func:`pad_run` appends random documents to a run, so that a reader can see
  how much a measure gains from depth alone;
* :func:`cut_to_depths` cuts every run of a comparison, per query, to one
  depth (say min(k, the documents the baseline returned)), so that all
  systems are scored on lists of the same length;
* :func:`shared_prefix` measures, per query, how many top-ranked documents two
  runs have in common position by position (two retrievers that rank the
  same documents in the same order).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from reteval.errors import InputError
from reteval.io import as_run, sort_run

__all__ = ["cut_to_depths", "pad_run", "shared_prefix"]


def _ranked(run) -> dict[str, list[str]]:
    frame = sort_run(as_run(run))
    ranked: dict[str, list[str]] = {}
    for qid, doc in zip(frame["query_id"].tolist(), frame["doc_id"].tolist(), strict=True):
        ranked.setdefault(qid, []).append(doc)
    return ranked


def pad_run(run, doc_ids, depth: int, *, rng) -> pd.DataFrame:
    """Fill every query's ranking up to ``depth`` with random documents.

    The documents a query already has keep their order; after them come
    documents drawn without replacement, uniformly at random, from
    ``doc_ids`` minus those already ranked.

    Parameters
    ----------
    run : run
        Anything :func:`reteval.io.as_run` accepts.
    doc_ids : sequence of str
        The collection's document ids.
    depth : int
        Documents per query after padding (a query that already has as many
        is left as it is).
    rng : numpy.random.Generator or int
        Randomness of the padding.

    Returns
    -------
    pandas.DataFrame
        A run (``query_id``, ``doc_id``, ``score``) whose scores are ranks
        turned into decreasing numbers (``depth - rank + 1``).

    Examples
    --------
    >>> padded = pad_run({"q": {"a": 2.0, "b": 1.0}}, ["a", "b", "c", "d"], 3, rng=0)
    >>> padded["doc_id"].tolist()[:2], len(padded), padded["doc_id"].iloc[2] in {"c", "d"}
    (['a', 'b'], 3, True)
    """
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 1:
        raise InputError(f"depth must be a positive integer; got {depth!r}")
    rng = np.random.default_rng(rng)
    names = [str(d) for d in doc_ids]
    universe = np.asarray(names, dtype=object)
    places: dict[str, list[int]] = {}  # where each id stands in doc_ids (an id listed twice, twice)
    for i, d in enumerate(names):
        places.setdefault(d, []).append(i)
    queries, docs, scores = [], [], []
    for qid, ranked in _ranked(run).items():
        free = np.ones(len(universe), dtype=bool)
        free[[i for d in set(ranked) for i in places.get(d, ())]] = False
        rest = universe[free]
        extra = rng.permutation(rest)[: max(0, depth - len(ranked))].tolist()
        queries += [qid] * (len(ranked) + len(extra))
        docs += ranked + extra
        scores.append(np.arange(len(ranked) + len(extra), 0, -1, dtype=np.float64))
    return pd.DataFrame({"query_id": queries, "doc_id": docs, "score": np.concatenate(scores)})


def cut_to_depths(run, depths) -> pd.DataFrame:
    """Keep, for each query, only its top ``depths[query]`` documents.

    The run is ranked as trec_eval ranks it (score descending, equal scores
    by doc id descending) before it is cut. A query missing from ``depths``
    keeps no document.

    Parameters
    ----------
    run : run
        Anything :func:`reteval.io.as_run` accepts.
    depths : mapping or pandas.Series
        Documents to keep per query id (non-negative integers).

    Returns
    -------
    pandas.DataFrame
        The run's rows (``query_id``, ``doc_id``, ``score``) at ranks 1 to
        the query's depth, in trec_eval's order.

    Examples
    --------
    >>> run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}, "r": {"x": 1.0, "y": 1.0}}
    >>> cut = cut_to_depths(run, {"q": 2, "r": 1})
    >>> list(zip(cut["query_id"], cut["doc_id"]))
    [('q', 'a'), ('q', 'b'), ('r', 'y')]
    """
    depths = pd.Series(depths, dtype=object)
    bad = [(q, d) for q, d in depths.items()
           if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 0]
    if bad:
        raise InputError(f"depths must be non-negative integers; got {bad[0][1]!r} for query "
                         f"{bad[0][0]!r}")
    frame = sort_run(as_run(run))
    rank = frame.groupby("query_id", sort=False).cumcount()
    keep = rank < frame["query_id"].map(depths).fillna(0).astype(int)
    return frame.loc[keep, ["query_id", "doc_id", "score"]].reset_index(drop=True)


def shared_prefix(run_a, run_b) -> pd.DataFrame:
    """Per query, how far two runs rank the same documents in the same order.

    Parameters
    ----------
    run_a, run_b : run
        Anything :func:`reteval.io.as_run` accepts; ranked as trec_eval does.

    Returns
    -------
    pandas.DataFrame
        Index ``query_id`` (queries of ``run_a``); columns ``len_a``,
        ``len_b`` (documents returned) and ``shared`` (length of the longest
        common prefix: the two rankings are identical down to that rank).

    Examples
    --------
    >>> shared_prefix({"q": {"a": 3, "b": 2, "c": 1}}, {"q": {"a": 9, "b": 8}})
              len_a  len_b  shared
    query_id
    q             3      2       2
    """
    a, b = _ranked(run_a), _ranked(run_b)
    rows = {}
    for qid, docs in a.items():
        other = b.get(qid, [])
        shared = 0
        for x, y in zip(docs, other, strict=False):
            if x != y:
                break
            shared += 1
        rows[qid] = (len(docs), len(other), shared)
    frame = pd.DataFrame.from_dict(rows, orient="index", columns=["len_a", "len_b", "shared"])
    frame.index.name = "query_id"
    return frame
