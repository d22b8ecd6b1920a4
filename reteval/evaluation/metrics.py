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

from reteval.errors import InputError
from reteval.evaluation.measures import Measure

__all__ = [
    "JudgedRanking", "average_precision", "bpref", "compute", "dcg", "expected_reciprocal_rank",
    "inferred_average_precision", "interpolated_precision", "judged", "ndcg", "precision",
    "r_precision", "rank_biased_precision", "recall", "reciprocal_rank", "set_f",
    "set_precision", "set_recall", "success",
]

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

    def num_rel(self, level: int) -> np.ndarray:
        return np.bincount(
            self.judged_query, weights=self.judged_rel >= level, minlength=self.n_queries
        )


# ---------------------------------------------------------------- measures


def _safe_divide(numerator, denominator):
    denominator = np.asarray(denominator, dtype=np.float64)
    out = np.zeros(np.broadcast(numerator, denominator).shape)
    np.divide(numerator, denominator, out=out, where=denominator > 0)
    return out


def _within_cutoff(r: JudgedRanking, cutoff):
    return np.ones(len(r.rank), dtype=bool) if cutoff is None else r.rank <= cutoff


def precision(r: JudgedRanking, cutoff: int, level: int) -> np.ndarray:
    """P@k: relevant documents in the top k, divided by k."""
    return r.per_query((r.rel >= level) & (r.rank <= cutoff)) / cutoff


def recall(r: JudgedRanking, cutoff: int, level: int) -> np.ndarray:
    """R@k: relevant documents in the top k, divided by all relevant documents."""
    return _safe_divide(r.per_query((r.rel >= level) & (r.rank <= cutoff)), r.num_rel(level))


def success(r: JudgedRanking, cutoff: int, level: int) -> np.ndarray:
    """Success@k: 1 when a relevant document is in the top k."""
    return (r.per_query((r.rel >= level) & (r.rank <= cutoff)) > 0).astype(np.float64)


def reciprocal_rank(r: JudgedRanking, cutoff: int | None, level: int) -> np.ndarray:
    """RR(@k): 1 / rank of the first relevant document (in the top k), else 0."""
    relevant = np.flatnonzero((r.rel >= level) & _within_cutoff(r, cutoff))
    out = np.zeros(r.n_queries)
    queries, first = np.unique(r.query[relevant], return_index=True)
    out[queries] = 1.0 / r.rank[relevant[first]]
    return out


def _relevant_so_far(r: JudgedRanking, relevant: np.ndarray) -> np.ndarray:
    """Number of relevant documents at or above each rank, within its query."""
    total = np.cumsum(relevant)
    first = np.flatnonzero(np.concatenate(([True], r.query[1:] != r.query[:-1])))[: len(total)]
    counts = np.diff(np.concatenate((first, [len(total)])))
    return total - np.repeat((total - relevant)[first], counts)


def average_precision(r: JudgedRanking, cutoff: int | None, level: int) -> np.ndarray:
    """AP(@k): mean over all relevant documents of the precision at their rank.

    An unretrieved relevant document counts 0.
    """
    relevant = (r.rel >= level).astype(np.int64)
    precision_at_rank = _relevant_so_far(r, relevant) / r.rank
    weights = np.where(relevant.astype(bool) & _within_cutoff(r, cutoff), precision_at_rank, 0.0)
    return _safe_divide(r.per_query(weights), r.num_rel(level))


def r_precision(r: JudgedRanking, level: int) -> np.ndarray:
    """Rprec: precision at rank R, R the number of relevant documents."""
    num_rel = r.num_rel(level)
    hits = (r.rel >= level) & (r.rank <= num_rel[r.query])
    return _safe_divide(r.per_query(hits), num_rel)


def bpref(r: JudgedRanking, level: int) -> np.ndarray:
    """Bpref as trec_eval computes it (Buckley & Voorhees 2004)."""
    judged_nonrel = (r.rel >= 0) & (r.rel < level)
    relevant = r.rel >= level
    nonrel_above = _relevant_so_far(r, judged_nonrel.astype(np.int64))
    num_rel = r.num_rel(level)
    num_nonrel = np.bincount(
        r.judged_query,
        weights=(r.judged_rel >= 0) & (r.judged_rel < level),
        minlength=r.n_queries,
    )
    R = num_rel[r.query]
    denominator = np.minimum(num_nonrel[r.query], R)
    penalty = _safe_divide(np.minimum(nonrel_above, R), denominator)
    return _safe_divide(r.per_query(np.where(relevant, 1.0 - penalty, 0.0)), num_rel)


def _gain(rel: np.ndarray, exponential: bool) -> np.ndarray:
    positive = np.maximum(rel, 0).astype(np.float64)
    return np.exp2(positive) - 1.0 if exponential else positive


def ndcg(r: JudgedRanking, cutoff: int | None, exponential: bool = False) -> np.ndarray:
    """nDCG(@k) with linear gain (trec_eval) or the exponential gain ``2**rel - 1``."""
    gains = np.where(_within_cutoff(r, cutoff), _gain(r.rel, exponential), 0.0)
    dcg = r.per_query(gains / np.log2(r.rank + 1.0))

    ideal_gain = _gain(r.judged_rel, exponential)
    order = np.lexsort((-ideal_gain, r.judged_query))
    ideal_query, ideal_gain = r.judged_query[order], ideal_gain[order]
    counts = np.bincount(ideal_query, minlength=r.n_queries)
    starts = np.concatenate(([0], np.cumsum(counts)))
    position = np.arange(1, len(ideal_query) + 1) - starts[ideal_query]
    if cutoff is not None:
        ideal_gain = np.where(position <= cutoff, ideal_gain, 0.0)
    idcg = np.bincount(
        ideal_query, weights=ideal_gain / np.log2(position + 1.0), minlength=r.n_queries
    )
    return _safe_divide(dcg, idcg)


def judged(r: JudgedRanking, cutoff: int) -> np.ndarray:
    """Judged@k: share of the top min(k, retrieved) documents that appear in the qrels."""
    return _safe_divide(r.per_query(r.rank <= cutoff), np.minimum(r.num_ret, cutoff))


def dcg(r: JudgedRanking, cutoff: int | None) -> np.ndarray:
    """DCG(@k): linear gain (the grade) discounted by ``log2(rank + 1)``, not normalised."""
    gains = np.where(_within_cutoff(r, cutoff), _gain(r.rel, False), 0.0)
    return r.per_query(gains / np.log2(r.rank + 1.0))


def set_precision(r: JudgedRanking, level: int) -> np.ndarray:
    """SetP: relevant documents retrieved / documents retrieved (trec_eval ``set_P``)."""
    return _safe_divide(r.per_query(r.rel >= level), r.num_ret)


def set_recall(r: JudgedRanking, level: int) -> np.ndarray:
    """SetR: relevant documents retrieved / relevant documents (trec_eval ``set_recall``)."""
    return _safe_divide(r.per_query(r.rel >= level), r.num_rel(level))


def set_f(r: JudgedRanking, level: int, beta: float) -> np.ndarray:
    """SetF: ``(beta + 1) P R / (beta P + R)`` of SetP and SetR.

    0 when nothing relevant is retrieved.

    As trec_eval's ``set_F``, whose parameter enters the formula as written
    (so ``beta`` here plays the role of the usual beta squared).
    """
    precision_, recall_ = set_precision(r, level), set_recall(r, level)
    found = r.per_query(r.rel >= level) > 0
    return np.where(found, _safe_divide((beta + 1.0) * precision_ * recall_,
                                        beta * precision_ + recall_), 0.0)


def rank_biased_precision(r: JudgedRanking, cutoff: int | None, level: int, p: float) -> np.ndarray:
    """RBP(@k): ``(1 - p) * sum of p**(rank - 1)`` over the relevant documents.

    Moffat & Zobel (2008).
    """
    relevant = (r.rel >= level) & _within_cutoff(r, cutoff)
    return (1.0 - p) * r.per_query(np.where(relevant, np.power(p, r.rank - 1.0), 0.0))


ERR_MAX_GRADE = 4  # gdeval's MAX_JUDGMENT: gains are (2**g - 1) / 2**4


def expected_reciprocal_rank(r: JudgedRanking, cutoff: int | None) -> np.ndarray:
    """ERR(@k) as gdeval (and ir_measures) compute it (Chapelle et al. 2009).

    ``ERR = sum over ranks i of R_i / i * prod_{j < i} (1 - R_j)`` with
    ``R = (2**g - 1) / 2**4`` for grade ``g`` (negative grades and unjudged
    documents: 0). gdeval refuses grades above 4, and so does this.
    """
    if len(r.rel) and r.rel.max() > ERR_MAX_GRADE:
        raise InputError(
            f"ERR assumes grades 0-{ERR_MAX_GRADE} (as gdeval); got grade {int(r.rel.max())} "
            f"for query {r.query_ids[r.query[np.argmax(r.rel)]]!r}"
        )
    within = _within_cutoff(r, cutoff)
    stop = np.where(within, (np.exp2(np.maximum(r.rel, 0)) - 1.0) / 2.0**ERR_MAX_GRADE, 0.0)
    # prod_{j < i} (1 - R_j) within each query: exclusive cumulative sum of logs
    logs = np.log1p(-stop)
    before = _relevant_so_far(r, logs) - logs
    return r.per_query(stop / r.rank * np.exp(before))


INFAP_EPSILON = 0.00001  # trec_eval's INFAP_EPSILON


def inferred_average_precision(r: JudgedRanking, level: int) -> np.ndarray:
    """infAP exactly as trec_eval computes it (Yilmaz & Aslam 2006).

    Documents not in the qrels are outside the pool; negative judgments are in
    the pool but unjudged and are skipped; the precision above each relevant
    document is estimated from the judged documents above it.
    """
    relevant = r.rel >= level
    rel_above = _relevant_so_far(r, relevant.astype(np.int64)) - relevant
    nonrel_above = _relevant_so_far(r, ((r.rel >= 0) & (r.rel < level)).astype(np.int64))
    unjudged = r.rel == POOL_UNJUDGED
    unjudged_above = _relevant_so_far(r, unjudged.astype(np.int64)) - unjudged
    j = r.rank - 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        later = 1.0 / (j + 1.0) + (j / (j + 1.0)) * (
            (rel_above + nonrel_above + unjudged_above) / j
        ) * ((rel_above + INFAP_EPSILON) / (rel_above + nonrel_above + 2 * INFAP_EPSILON))
    contribution = np.where(r.rank == 1, 1.0, later)
    return _safe_divide(r.per_query(np.where(relevant, contribution, 0.0)), r.num_rel(level))


def _lround(x: np.ndarray) -> np.ndarray:
    """C's lround for non-negative x: halves round away from zero."""
    whole = np.trunc(x)
    return (whole + (x - whole >= 0.5)).astype(np.int64)


def interpolated_precision(r: JudgedRanking, recall_level: float, level: int) -> np.ndarray:
    """IPrec@r as trec_eval's ``iprec_at_recall``: the highest precision at recall >= r.

    Recall ``r`` is first turned into a number of relevant documents,
    ``c = lround(r * R)``; the value is the highest precision at or after the
    c-th relevant document retrieved (the first when c = 0), 0 when fewer than
    c are retrieved.
    """
    relevant = np.flatnonzero(r.rel >= level)  # in rank order within each query
    query = r.query[relevant]
    counts = np.bincount(query, minlength=r.n_queries)
    starts = np.concatenate(([0], np.cumsum(counts)))
    nth = np.arange(1, len(relevant) + 1) - starts[query]
    precision_at = nth / r.rank[relevant]
    # highest precision from each relevant document to the last of its query (suffix maximum)
    order = np.argsort(precision_at, kind="stable")
    ordinal = np.empty(len(order), dtype=np.int64)
    ordinal[order] = np.arange(len(order))
    keyed = ordinal[::-1] + (r.n_queries - query[::-1]) * np.int64(len(order) + 1)
    best = np.maximum.accumulate(keyed)[::-1] - (r.n_queries - query) * np.int64(len(order) + 1)
    suffix_max = precision_at[order[best]] if len(order) else precision_at
    wanted = np.maximum(_lround(recall_level * r.num_rel(level)), 1)
    found = wanted <= counts
    out = np.zeros(r.n_queries)
    out[found] = suffix_max[starts[:-1][found] + wanted[found] - 1]
    return out


def compute(r: JudgedRanking, measure: Measure, *, relevance_level: int = 1) -> np.ndarray:
    """Value of ``measure`` for every query of ``r`` (float64, in ``r.query_ids`` order).

    A measure's own ``rel`` (``P(rel=2)@10``) overrides ``relevance_level``.
    """
    family, k = measure.family, measure.cutoff
    level = relevance_level if measure.rel is None else measure.rel
    if family == "P":
        return precision(r, k, level)
    if family == "R":
        return recall(r, k, level)
    if family == "Success":
        return success(r, k, level)
    if family == "RR":
        return reciprocal_rank(r, k, level)
    if family == "AP":
        return average_precision(r, k, level)
    if family == "Rprec":
        return r_precision(r, level)
    if family == "Bpref":
        return bpref(r, level)
    if family in ("nDCG", "nDCG_exp"):
        return ndcg(r, k, exponential=family == "nDCG_exp")
    if family == "Judged":
        return judged(r, k)
    if family == "NumRet":
        return r.num_ret.astype(np.float64)
    if family == "NumRel":
        return r.num_rel(level)
    if family == "NumRelRet":
        return r.per_query(r.rel >= level)
    if family == "NumQ":
        return np.ones(r.n_queries)
    if family == "DCG":
        return dcg(r, k)
    if family == "SetP":
        return set_precision(r, level)
    if family == "SetR":
        return set_recall(r, level)
    if family == "SetF":
        return set_f(r, level, 1.0 if measure.beta is None else measure.beta)
    if family == "RBP":
        return rank_biased_precision(r, k, level, measure.p)
    if family == "ERR":
        return expected_reciprocal_rank(r, k)
    if family == "infAP":
        return inferred_average_precision(r, level)
    if family == "IPrec":
        return interpolated_precision(r, k, level)
    raise AssertionError(f"no kernel for {measure}")  # every family is handled above
