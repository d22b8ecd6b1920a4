"""The kernels of the common measures: one vectorised value per query of a
:class:`~reteval.measures.judged.JudgedRanking` (conventions: :mod:`reteval.measures.judged`)."""

from __future__ import annotations

import numpy as np

from reteval.errors import InputError
from reteval.measures.judged import POOL_UNJUDGED, JudgedRanking
from reteval.measures.measure import Measure

__all__ = [
    "average_precision",
    "bpref",
    "dcg",
    "expected_reciprocal_rank",
    "inferred_average_precision",
    "interpolated_precision",
    "interpolated_precision_at",
    "judged",
    "ndcg_exp",
    "ndcg_values",
    "num_q",
    "num_rel",
    "num_ret",
    "precision",
    "r_precision",
    "rank_biased_precision",
    "recall",
    "reciprocal_rank",
    "relevant_so_far",
    "safe_divide",
    "set_f",
    "set_precision",
    "set_recall",
    "success",
    "within_cutoff",
]

# ---------------------------------------------------------------- measures


def safe_divide(numerator, denominator):
    denominator = np.asarray(denominator, dtype=np.float64)
    out = np.zeros(np.broadcast(numerator, denominator).shape)
    np.divide(numerator, denominator, out=out, where=denominator > 0)
    return out


def within_cutoff(r: JudgedRanking, cutoff):
    return np.ones(len(r.rank), dtype=bool) if cutoff is None else r.rank <= cutoff


def precision(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """P@k: relevant documents in the top k, divided by k."""
    cutoff = m.cutoff
    return r.per_query((r.rel >= level) & (r.rank <= cutoff)) / cutoff


def recall(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """R@k: relevant documents in the top k, divided by all relevant documents."""
    cutoff = m.cutoff
    return safe_divide(r.per_query((r.rel >= level) & (r.rank <= cutoff)), r.num_rel(level))


def success(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """Success@k: 1 when a relevant document is in the top k."""
    cutoff = m.cutoff
    return (r.per_query((r.rel >= level) & (r.rank <= cutoff)) > 0).astype(np.float64)


def reciprocal_rank(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """RR(@k): 1 / rank of the first relevant document (in the top k), else 0."""
    cutoff = m.cutoff
    relevant = np.flatnonzero((r.rel >= level) & within_cutoff(r, cutoff))
    out = np.zeros(r.n_queries)
    queries, first = np.unique(r.query[relevant], return_index=True)
    out[queries] = 1.0 / r.rank[relevant[first]]
    return out


def relevant_so_far(r: JudgedRanking, relevant: np.ndarray) -> np.ndarray:
    """Number of relevant documents at or above each rank, within its query."""
    total = np.cumsum(relevant)
    first = np.flatnonzero(np.concatenate(([True], r.query[1:] != r.query[:-1])))[: len(total)]
    counts = np.diff(np.concatenate((first, [len(total)])))
    return total - np.repeat((total - relevant)[first], counts)


def average_precision(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """AP(@k): mean over all relevant documents of the precision at their rank.

    An unretrieved relevant document counts 0.
    """
    cutoff = m.cutoff
    relevant = (r.rel >= level).astype(np.int64)
    precision_at_rank = relevant_so_far(r, relevant) / r.rank
    weights = np.where(relevant.astype(bool) & within_cutoff(r, cutoff), precision_at_rank, 0.0)
    return safe_divide(r.per_query(weights), r.num_rel(level))


def r_precision(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """Rprec: precision at rank R, R the number of relevant documents."""
    num_rel = r.num_rel(level)
    hits = (r.rel >= level) & (r.rank <= num_rel[r.query])
    return safe_divide(r.per_query(hits), num_rel)


def bpref(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """Bpref as trec_eval computes it (Buckley & Voorhees 2004)."""
    judged_nonrel = (r.rel >= 0) & (r.rel < level)
    relevant = r.rel >= level
    nonrel_above = relevant_so_far(r, judged_nonrel.astype(np.int64))
    num_rel = r.num_rel(level)
    num_nonrel = np.bincount(
        r.judged_query,
        weights=(r.judged_rel >= 0) & (r.judged_rel < level),
        minlength=r.n_queries,
    )
    R = num_rel[r.query]
    denominator = np.minimum(num_nonrel[r.query], R)
    penalty = safe_divide(np.minimum(nonrel_above, R), denominator)
    return safe_divide(r.per_query(np.where(relevant, 1.0 - penalty, 0.0)), num_rel)


def _gain(rel: np.ndarray, exponential: bool) -> np.ndarray:
    positive = np.maximum(rel, 0).astype(np.float64)
    return np.exp2(positive) - 1.0 if exponential else positive


def ndcg_values(r: JudgedRanking, cutoff: float | None, exponential: bool = False) -> np.ndarray:
    """nDCG(@k) with linear gain (trec_eval) or the exponential gain ``2**rel - 1``."""
    gains = np.where(within_cutoff(r, cutoff), _gain(r.rel, exponential), 0.0)
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
    return safe_divide(dcg, idcg)


def judged(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """Judged@k: share of the top min(k, retrieved) documents that appear in the qrels."""
    cutoff = m.cutoff
    assert cutoff is not None  # Judged requires a cutoff (Measure checks it)
    return safe_divide(r.per_query(r.rank <= cutoff), np.minimum(r.num_ret, cutoff))


def dcg(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """DCG(@k): linear gain (the grade) discounted by ``log2(rank + 1)``, not normalised."""
    cutoff = m.cutoff
    gains = np.where(within_cutoff(r, cutoff), _gain(r.rel, False), 0.0)
    return r.per_query(gains / np.log2(r.rank + 1.0))


def set_precision(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """SetP: relevant documents retrieved / documents retrieved (trec_eval ``set_P``)."""
    return safe_divide(r.per_query(r.rel >= level), r.num_ret)


def set_recall(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """SetR: relevant documents retrieved / relevant documents (trec_eval ``set_recall``)."""
    return safe_divide(r.per_query(r.rel >= level), r.num_rel(level))


def set_f(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """SetF: ``(beta + 1) P R / (beta P + R)`` of SetP and SetR.

    0 when nothing relevant is retrieved.

    As trec_eval's ``set_F``, whose parameter enters the formula as written
    (so ``beta`` here plays the role of the usual beta squared).
    """
    beta = 1.0 if m.beta is None else m.beta
    precision_, recall_ = set_precision(r, m, level), set_recall(r, m, level)
    found = r.per_query(r.rel >= level) > 0
    return np.where(found, safe_divide((beta + 1.0) * precision_ * recall_,
                                        beta * precision_ + recall_), 0.0)


def rank_biased_precision(r: JudgedRanking, m: Measure, level: float,
                          num_docs: int = 0) -> np.ndarray:
    """RBP(@k): ``(1 - p) * sum of p**(rank - 1)`` over the relevant documents.

    Moffat & Zobel (2008).
    """
    cutoff = m.cutoff
    p = m.p
    assert p is not None  # Measure fills in the default persistence
    relevant = (r.rel >= level) & within_cutoff(r, cutoff)
    return (1.0 - p) * r.per_query(np.where(relevant, np.power(p, r.rank - 1.0), 0.0))


ERR_MAX_GRADE = 4  # gdeval's MAX_JUDGMENT: gains are (2**g - 1) / 2**4


def expected_reciprocal_rank(r: JudgedRanking, m: Measure, level: float,
                             num_docs: int = 0) -> np.ndarray:
    """ERR(@k) as gdeval (and ir_measures) compute it (Chapelle et al. 2009).

    ``ERR = sum over ranks i of R_i / i * prod_{j < i} (1 - R_j)`` with
    ``R = (2**g - 1) / 2**4`` for grade ``g`` (negative grades and unjudged
    documents: 0). gdeval refuses grades above 4, and so does this.
    """
    cutoff = m.cutoff
    if len(r.rel) and r.rel.max() > ERR_MAX_GRADE:
        raise InputError(
            f"ERR assumes grades 0-{ERR_MAX_GRADE} (as gdeval); got grade {r.rel.max().item()} "
            f"for query {r.query_ids[r.query[np.argmax(r.rel)]]!r}"
        )
    within = within_cutoff(r, cutoff)
    stop = np.where(within, (np.exp2(np.maximum(r.rel, 0)) - 1.0) / 2.0**ERR_MAX_GRADE, 0.0)
    # prod_{j < i} (1 - R_j) within each query: exclusive cumulative sum of logs
    logs = np.log1p(-stop)
    before = relevant_so_far(r, logs) - logs
    return r.per_query(stop / r.rank * np.exp(before))


INFAP_EPSILON = 0.00001  # trec_eval's INFAP_EPSILON


def inferred_average_precision(r: JudgedRanking, m: Measure, level: float,
                               num_docs: int = 0) -> np.ndarray:
    """infAP exactly as trec_eval computes it (Yilmaz & Aslam 2006).

    Documents not in the qrels are outside the pool; negative judgments are in
    the pool but unjudged and are skipped; the precision above each relevant
    document is estimated from the judged documents above it.
    """
    relevant = r.rel >= level
    rel_above = relevant_so_far(r, relevant.astype(np.int64)) - relevant
    nonrel_above = relevant_so_far(r, ((r.rel >= 0) & (r.rel < level)).astype(np.int64))
    unjudged = r.rel == POOL_UNJUDGED
    unjudged_above = relevant_so_far(r, unjudged.astype(np.int64)) - unjudged
    j = r.rank - 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        later = 1.0 / (j + 1.0) + (j / (j + 1.0)) * (
            (rel_above + nonrel_above + unjudged_above) / j
        ) * ((rel_above + INFAP_EPSILON) / (rel_above + nonrel_above + 2 * INFAP_EPSILON))
    contribution = np.where(r.rank == 1, 1.0, later)
    return safe_divide(r.per_query(np.where(relevant, contribution, 0.0)), r.num_rel(level))


def _lround(x: np.ndarray) -> np.ndarray:
    """C's lround for non-negative x: halves round away from zero."""
    whole = np.trunc(x)
    return (whole + (x - whole >= 0.5)).astype(np.int64)


def interpolated_precision_at(r: JudgedRanking, recall_level: float, level: float) -> np.ndarray:
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


def interpolated_precision(r: JudgedRanking, m: Measure, level: float,
                           num_docs: int = 0) -> np.ndarray:
    """IPrec@level: :func:`interpolated_precision_at` the measure's recall level."""
    assert m.cutoff is not None  # the recall level: IPrec requires it (Measure checks it)
    return interpolated_precision_at(r, m.cutoff, level)


def ndcg_exp(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """nDCG(dcg=exp-log2)(@k): the exponential gain ``2**rel - 1``."""
    return ndcg_values(r, m.cutoff, exponential=True)


def num_q(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """num_q: 1 for every evaluated query (summed, the number of queries)."""
    return np.ones(r.n_queries)


def num_ret(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """num_ret: the documents retrieved."""
    return r.num_ret.astype(np.float64)


def num_rel(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """num_rel: the relevant documents judged."""
    return r.num_rel(level)
