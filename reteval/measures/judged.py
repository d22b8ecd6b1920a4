"""Vectorised measure kernels, identical to trec_eval 10.

A run and its qrels are first turned into one :class:`JudgedRanking`
(:mod:`reteval.evaluation.ranking`): every judged retrieved document of every evaluated
query with its rank in trec_eval's order and its relevance. Each measure is
then a pure function from that ranking to one value per query, computed for
all queries at once with numpy (``bincount``, ``cumsum``, ``lexsort``): there
is no per-query Python loop.

Conventions (all as trec_eval 10):

* Order within a query: score descending, ties broken by doc id descending
  (plain string comparison); the run's rank column is never used.
* A document is relevant when its judged relevance is ``>= relevance_level``.
  Judged documents below that level are non-relevant; retrieved documents
  without a judgment count as non-relevant.
* A negative judgment means "in the pool but not judged": such a document is
  neither relevant nor non-relevant (it matters for ``Bpref``), it is not
  counted in ``NumRel`` and its nDCG gain is 0.
* nDCG uses linear gain (the relevance value; the relevance level does not
  change gains) and the discount ``1 / log2(rank + 1)``; the ideal ranking is
  made of every judged document, retrieved or not. ``nDCG@k`` cuts both the
  ranking and the ideal ranking at k.
* AP and AP@k divide by the number of relevant judged documents, retrieved or
  not; R@k likewise. ``P@k`` divides by k even when fewer were retrieved.
* A query without relevant documents scores 0 on every measure (nDCG too).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["NOT_JUDGED", "POOL_UNJUDGED", "JudgedRanking", "judged_only", "limit_ranking",
           "per_query_lists", "relevance_strings"]


NOT_JUDGED = -1  # retrieved, absent from the qrels
POOL_UNJUDGED = -2  # retrieved, present in the qrels with a negative value


@dataclass(frozen=True)
class JudgedRanking:
    """The retrieved documents that have a judgment, with their rank, per query.

    A retrieved document without a judgment only counts as retrieved (it is
    never relevant), so every measure can be computed from the judged retrieved
    documents and the number retrieved per query: that keeps the arrays small
    (a run of millions of rows has thousands of judged ones).

    Attributes
    ----------
    query_ids : numpy.ndarray
        The evaluated query ids, sorted; query ``i`` below means ``query_ids[i]``.
    num_ret : numpy.ndarray
        Number of documents retrieved for each query.
    query : numpy.ndarray
        Query index of each judged retrieved document, grouped by query, in
        rank order.
    rank : numpy.ndarray
        Its 1-based rank within its query (among all retrieved documents).
    rel : numpy.ndarray
        Its relevance: the judgment (>= 0), or ``-2`` if judged negative (in
        the pool but unjudged).
    judged_query, judged_rel : numpy.ndarray
        Query index and relevance of every judgment of the evaluated queries.
    """

    query_ids: np.ndarray
    num_ret: np.ndarray
    query: np.ndarray
    rank: np.ndarray
    rel: np.ndarray
    judged_query: np.ndarray
    judged_rel: np.ndarray

    @property
    def n_queries(self) -> int:
        return len(self.query_ids)

    def per_query(self, weights) -> np.ndarray:
        """Sum ``weights`` (one per judged retrieved document) within each query."""
        return np.bincount(self.query, weights=weights, minlength=self.n_queries)

    def num_rel(self, level: float) -> np.ndarray:
        return np.bincount(
            self.judged_query, weights=self.judged_rel >= level, minlength=self.n_queries
        )



def per_query_lists(r: JudgedRanking, measure=None):
    """For each query: its ranking as trec_eval's list of grades (-1 not judged, -2 judged
    negative) and the number of judged documents of each grade >= 0.

    These lists are trec_eval's, made for integer grades: a fractional grade is refused
    when ``measure`` (a measure whose gain table counts the documents of each grade) is
    named, and otherwise listed by its whole part.
    """
    if measure is not None and r.judged_rel.dtype.kind == "f":
        fraction = r.judged_rel[r.judged_rel != np.round(r.judged_rel)]
        if len(fraction):
            from reteval.errors import InputError

            raise InputError(
                f"measure {str(measure)!r} takes integer grades (trec_eval's gain table has "
                f"one gain per grade); got grade {float(fraction[0])!r}. Use nDCG, DCG or "
                "the binary measures with fractional grades")
    starts = np.searchsorted(r.query, np.arange(r.n_queries + 1))
    jorder = np.argsort(r.judged_query, kind="stable")
    jq, jr = r.judged_query[jorder], r.judged_rel[jorder]
    jstarts = np.searchsorted(jq, np.arange(r.n_queries + 1))
    for i in range(r.n_queries):
        grades = np.full(int(r.num_ret[i]), -1, dtype=np.int64)
        lo, hi = starts[i], starts[i + 1]
        grades[r.rank[lo:hi] - 1] = r.rel[lo:hi]
        judged_ = jr[jstarts[i]:jstarts[i + 1]]
        judged_ = judged_[judged_ >= 0].astype(np.int64)
        levels = np.bincount(judged_) if len(judged_) else np.zeros(0, dtype=np.int64)
        yield i, grades.tolist(), levels.tolist()




# ---------------------------------------------------------------- rankings for -M and -J


def limit_ranking(r: JudgedRanking, max_docs: int) -> JudgedRanking:
    """Only the first ``max_docs`` documents of each ranking (trec_eval ``-M``)."""
    keep = r.rank <= max_docs
    return JudgedRanking(r.query_ids, np.minimum(r.num_ret, max_docs), r.query[keep],
                         r.rank[keep], r.rel[keep], r.judged_query, r.judged_rel)


def judged_only(r: JudgedRanking) -> JudgedRanking:
    """The rankings without their unjudged documents (trec_eval ``-J``).

    Documents absent from the qrels and documents judged negative are removed; the others
    keep their order and are ranked again from 1.
    """
    keep = r.rel >= 0
    query = r.query[keep]
    counts = np.bincount(query, minlength=r.n_queries)
    starts = np.concatenate(([0], np.cumsum(counts)))
    rank = np.arange(1, len(query) + 1) - starts[query]
    return JudgedRanking(r.query_ids, counts.astype(r.num_ret.dtype), query,
                         rank.astype(r.rank.dtype), r.rel[keep], r.judged_query, r.judged_rel)



def relevance_strings(r: JudgedRanking, length: int = 10) -> dict:
    """trec_eval's ``relstring``: the grades of the top ``length`` documents, one character
    each (``0``-``9``, ``>`` above 9, ``-`` not judged, ``.`` judged negative), per query;
    a fractional grade shows its whole part."""
    out = {}
    for i, grades, _ in per_query_lists(r):
        chars = [">" if g > 9 else str(g) if g >= 0 else "-" if g == -1 else "."
                 for g in grades[:max(length, 0)]]
        out[str(r.query_ids[i])] = "".join(chars)
    return out
