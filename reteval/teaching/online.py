"""Judged data and two rankers for the notebooks on online evaluation (07, 07b and 08).

Both notebooks simulate users of two rankers over judged data: by default the
synthetic collection of :func:`reteval.ab.synthetic_collection`, whose two
rankers differ by construction, else a test collection of
:mod:`reteval.datasets` with two reference retrievers run on it.
:func:`two_rankers` gives either in one call, so that each notebook sets up
what it needs by itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from reteval.ab import synthetic_collection
from reteval.errors import InputError
from reteval.io import sort_run

__all__ = ["TwoRankers", "two_rankers"]


@dataclass(frozen=True)
class TwoRankers:
    """Judged data and the runs of two rankers over it.

    Attributes
    ----------
    qrels : pandas.DataFrame
        ``query_id``, ``doc_id``, ``relevance``.
    run_a, run_b : pandas.DataFrame
        The two rankers' runs (``query_id``, ``doc_id``, ``score``).
    names : tuple of str
        The rankers' names, A first.
    """

    qrels: pd.DataFrame
    run_a: pd.DataFrame
    run_b: pd.DataFrame
    names: tuple[str, str]

    def ranked(self, query_id: str, depth: int) -> tuple[list[str], list[str]]:
        """The top ``depth`` doc ids of A and of B for ``query_id``, best first.

        Documents are ordered as trec_eval orders them (score descending, then
        doc id descending).

        Examples
        --------
        >>> pair = two_rankers("synthetic", rng=42)
        >>> a, b = pair.ranked("q000", 3)
        >>> len(a), len(b)
        (3, 3)
        """
        out = []
        for name, run in zip(self.names, (self.run_a, self.run_b), strict=True):
            rows = sort_run(run[run["query_id"] == query_id])
            if rows.empty:
                raise InputError(f"ranker {name!r} has no results for query {query_id!r}")
            out.append(rows["doc_id"].head(depth).tolist())
        return out[0], out[1]


def two_rankers(dataset: str = "synthetic", rankers=("bm25", "vector"), *, depth: int = 10,
                rng=None) -> TwoRankers:
    """Judged data and two rankers: the synthetic collection or a dataset with two retrievers.

    Parameters
    ----------
    dataset : str, default "synthetic"
        ``"synthetic"`` for :func:`reteval.ab.synthetic_collection` (ranker B
        is the better one by construction), else a name or folder that
        :func:`reteval.datasets.load` accepts.
    rankers : pair of str, default ("bm25", "vector")
        The retrievers A and B (:func:`reteval.retrievers.make_retriever`)
        when ``dataset`` is not synthetic; ignored otherwise.
    depth : int, default 10
        Results each retriever returns per query (not used for the synthetic
        collection, whose runs rank every candidate).
    rng : numpy.random.Generator, int or None
        Randomness of the synthetic collection.

    Returns
    -------
    TwoRankers

    Examples
    --------
    >>> pair = two_rankers("synthetic", rng=42)
    >>> pair.names, pair.qrels["query_id"].nunique()
    (('synthetic A', 'synthetic B'), 40)
    """
    if dataset == "synthetic":
        qrels, run_a, run_b = synthetic_collection(rng=rng)
        return TwoRankers(qrels, run_a, run_b, ("synthetic A", "synthetic B"))
    from reteval.datasets import load
    from reteval.retrievers import make_retriever

    rankers = tuple(rankers)
    if len(rankers) != 2:
        raise InputError(f"rankers must name two retrievers; got {list(rankers)!r}")
    collection = load(dataset)  # raises a clear error for a missing folder or unknown name
    run_a, run_b = (make_retriever(name, collection.corpus).run(collection.queries, k=depth)
                    for name in rankers)
    return TwoRankers(collection.qrels, run_a, run_b, (str(rankers[0]), str(rankers[1])))
