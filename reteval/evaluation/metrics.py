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

import math
from dataclasses import dataclass

import numpy as np

from reteval.errors import InputError
from reteval.evaluation.measures import Measure

__all__ = [
    "JudgedRanking", "average_precision", "bin_g", "bpref", "compute", "dcg",
    "expected_reciprocal_rank", "g_measure", "inferred_average_precision",
    "interpolated_precision", "interpolated_precision_average", "judged", "judged_only",
    "limit_ranking", "ndcg", "ndcg_gains", "ndcg_rel", "num_nonrel_judged_ret", "num_rel_ret",
    "precision", "r_precision", "r_precision_multiple", "rank_biased_precision", "rbp_residual",
    "recall", "reciprocal_rank", "relative_precision", "relevance_strings", "rndcg",
    "set_average_precision", "set_f", "set_precision", "set_recall", "set_relative_precision",
    "success", "trec_rbp", "unjudged", "utility",
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


# ---------------------------------------------------------------- trec_eval's other measures


def _hits_within(r: JudgedRanking, level: int, cutoff) -> np.ndarray:
    """Relevant documents at ranks <= cutoff (one cutoff per query) per query."""
    return r.per_query((r.rel >= level) & (r.rank <= np.asarray(cutoff)[r.query]))


def r_precision_multiple(r: JudgedRanking, multiple: float, level: int) -> np.ndarray:
    """Rprec_mult: precision at rank ``(long) (m * R + 0.9)`` (trec_eval's rounding)."""
    num_rel = r.num_rel(level)
    cutoff = np.floor(multiple * num_rel + 0.9)
    return _safe_divide(_hits_within(r, level, cutoff), cutoff)


def relative_precision(r: JudgedRanking, cutoff: int, level: int) -> np.ndarray:
    """relative_P: relevant in the top k over min(k, R); 0 without relevant documents."""
    num_rel = r.num_rel(level)
    return _safe_divide(precision(r, cutoff, level) * cutoff, np.minimum(num_rel, cutoff))


def unjudged(r: JudgedRanking, cutoff: int) -> np.ndarray:
    """unj@k: documents of the top k not judged (or judged negative), over k."""
    judged_ = r.per_query((r.rank <= cutoff) & (r.rel >= 0))
    return (np.minimum(r.num_ret, cutoff) - judged_) / cutoff


def num_rel_ret(r: JudgedRanking, level: int) -> np.ndarray:
    return r.per_query(r.rel >= level)


def num_nonrel_judged_ret(r: JudgedRanking, level: int) -> np.ndarray:
    """Judged (grade >= 0) non-relevant documents retrieved."""
    return r.per_query((r.rel >= 0) & (r.rel < level))


def set_relative_precision(r: JudgedRanking, level: int) -> np.ndarray:
    """set_relative_P: relevant retrieved / min(retrieved, relevant)."""
    return _safe_divide(num_rel_ret(r, level), np.minimum(r.num_ret, r.num_rel(level)))


def set_average_precision(r: JudgedRanking, level: int) -> np.ndarray:
    """set_map: relevant retrieved squared / (retrieved * relevant), i.e. SetP * SetR."""
    found = num_rel_ret(r, level)
    return _safe_divide(found * found, r.num_ret.astype(np.float64) * r.num_rel(level))


def utility(r: JudgedRanking, level: int, weights, num_docs: int = 0) -> np.ndarray:
    """Set utility ``a*relret + b*nonrelret + c*relmissed + d*nonrelmissed`` (trec_eval).

    ``num_docs`` is the number of documents of the collection (trec_eval ``-N``), needed
    only when ``d`` is not 0.
    """
    a, b, c, d = (1.0, -1.0, 0.0, 0.0) if weights is None else weights
    found, num_ret, num_rel = num_rel_ret(r, level), r.num_ret.astype(np.float64), r.num_rel(level)
    return (a * found + b * (num_ret - found) + c * (num_rel - found)
            + d * (num_docs + found - num_ret - num_rel))


def interpolated_precision_average(r: JudgedRanking, levels, level: int) -> np.ndarray:
    """11pt_avg: the mean of ``IPrec`` over the recall levels, summed as trec_eval sums."""
    levels = sorted(_LEVELS_11 if levels is None else levels)
    total = np.zeros(r.n_queries)
    for recall_level in reversed(levels):
        total += interpolated_precision(r, recall_level, level)
    return total / len(levels)


_LEVELS_11 = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def bin_g(r: JudgedRanking, level: int) -> np.ndarray:
    """binG: ``sum 1 / log2(2 + rank - n)`` over the n-th relevant retrieved, over R."""
    relevant = r.rel >= level
    nth = _relevant_so_far(r, relevant.astype(np.int64))
    weights = np.where(relevant, 1.0 / np.log2(2.0 + r.rank - nth), 0.0)
    return _safe_divide(r.per_query(weights), r.num_rel(level))


def _per_query_lists(r: JudgedRanking):
    """For each query: its ranking as trec_eval's list of grades (-1 not judged, -2 judged
    negative) and the number of judged documents of each grade >= 0."""
    starts = np.searchsorted(r.query, np.arange(r.n_queries + 1))
    jorder = np.argsort(r.judged_query, kind="stable")
    jq, jr = r.judged_query[jorder], r.judged_rel[jorder]
    jstarts = np.searchsorted(jq, np.arange(r.n_queries + 1))
    for i in range(r.n_queries):
        grades = np.full(int(r.num_ret[i]), -1, dtype=np.int64)
        lo, hi = starts[i], starts[i + 1]
        grades[r.rank[lo:hi] - 1] = r.rel[lo:hi]
        judged_ = jr[jstarts[i]:jstarts[i + 1]]
        judged_ = judged_[judged_ >= 0]
        levels = np.bincount(judged_) if len(judged_) else np.zeros(0, dtype=np.int64)
        yield i, grades.tolist(), levels.tolist()


def _gains(levels: list, gains) -> list:
    """trec_eval's setup_gains: ``[rel_level, gain, num_at_level]`` sorted by gain."""
    table = [[int(lvl), float(g), 0] for lvl, g in (gains or ())]
    for grade, count in enumerate(levels):
        if count == 0 and grade == len(levels) - 1:
            continue
        for row in table:
            if row[0] == grade:
                row[2] = count
                break
        else:
            table.append([grade, float(grade), count])
    # C's qsort with the comparison (int) (g1 - g2): gains closer than 1 compare equal
    import functools

    table.sort(key=functools.cmp_to_key(lambda x, y: int(x[1] - y[1])))
    return table


def _gain_of(table: list) -> dict:
    out = {}
    for grade, gain, _ in table:
        out.setdefault(grade, gain)
    return out


def _ideal_gains(table: list):
    """The gains of the ideal ranking, highest first, then 0 forever."""
    for _, gain, count in reversed(table):
        for _ in range(count):
            yield gain
    while True:
        yield 0.0


def _log2(x: float) -> float:
    return float(np.log2(x))


def ndcg_gains(r: JudgedRanking, gains) -> np.ndarray:
    """trec_eval's ``ndcg`` with grade gains (``ndcg.1=3,2=9``), a port of m_ndcg.c."""
    out = np.zeros(r.n_queries)
    for i, grades, levels in _per_query_lists(r):
        table = _gains(_trim(levels), gains)
        gain_of = _gain_of(table)
        ideal = _ideal_steps(table)
        results_dcg = ideal_dcg = 0.0
        rank = 0
        ideal_gain = ideal(0)
        while rank < len(grades) and ideal_gain > 0.0:
            gain = gain_of.get(grades[rank], 0.0)
            if gain != 0:
                results_dcg += gain / _log2(rank + 2.0)
            ideal_gain = ideal(rank)
            if ideal_gain > 0.0:
                ideal_dcg += ideal_gain / _log2(rank + 2.0)
            rank += 1
        while rank < len(grades):
            gain = gain_of.get(grades[rank], 0.0)
            if gain != 0:
                results_dcg += gain / _log2(rank + 2.0)
            rank += 1
        while ideal_gain > 0.0:
            ideal_gain = ideal(rank)
            if ideal_gain > 0.0:
                ideal_dcg += ideal_gain / _log2(rank + 2.0)
            rank += 1
        if ideal_dcg > 0.0:
            out[i] = results_dcg / ideal_dcg
    return out


def _trim(levels: list) -> list:
    """rel_levels up to the highest grade that has a judgment (trec_eval's num_rel_levels)."""
    levels = list(levels)
    while levels and levels[-1] == 0:
        levels.pop()
    return levels


def _ideal_steps(table: list):
    """``ideal(i)``: the gain trec_eval's walk down the levels gives to rank i (0-based)."""
    sequence = []
    for _, gain, count in reversed(table):
        sequence += [gain] * count
    first = table[-1][1] if table else 0.0

    def ideal(rank: int) -> float:
        if rank < len(sequence):
            return sequence[rank]
        return 0.0 if table else first
    return ideal


def g_measure(r: JudgedRanking, gains) -> np.ndarray:
    """trec_eval's ``G`` (m_G.c)."""
    out = np.zeros(r.n_queries)
    for i, grades, levels in _per_query_lists(r):
        table = _gains(_trim(levels), gains)
        gain_of = _gain_of(table)
        ideal = _ideal_steps(table)
        results_g = sum_results = sum_ideal = sum_cost = 0.0
        min_cost = 1.0
        ideal_gain = table[-1][1] if table else 0.0
        rank = 0
        while rank < len(grades) and ideal_gain > 0.0:
            gain = gain_of.get(grades[rank], 0.0)
            sum_results += gain
            ideal_gain = ideal(rank)
            if ideal_gain > 0.0:
                sum_ideal += ideal_gain
            sum_cost += max(ideal_gain, min_cost)
            if gain != 0:
                results_g += gain / _log2(2 + sum_cost - sum_results)
            rank += 1
        while rank < len(grades):
            gain = gain_of.get(grades[rank], 0.0)
            sum_results += gain
            sum_cost += min_cost
            if gain != 0:
                results_g += gain / _log2(2 + sum_cost - sum_results)
            rank += 1
        while ideal_gain > 0.0:
            ideal_gain = ideal(rank)
            if ideal_gain > 0.0:
                sum_ideal += ideal_gain
            rank += 1
        if sum_ideal > 0.0:
            out[i] = results_g / sum_ideal
    return out


def rndcg(r: JudgedRanking, gains, level: int) -> np.ndarray:  # noqa: C901 (m_Rndcg.c, step by step)
    """trec_eval's ``Rndcg`` (m_Rndcg.c): nDCG averaged where the ideal gain changes."""
    out = np.zeros(r.n_queries)
    num_rel = r.num_rel(level)
    for i, grades, levels in _per_query_lists(r):
        if num_rel[i] == 0:
            continue
        table = _gains(_trim(levels), gains)
        gain_of = _gain_of(table)
        ideal = _ideal_steps(table)
        results_dcg = ideal_dcg = total = 0.0
        changes = 0
        ideal_gain = table[-1][1] if table else 0.0
        old = ideal_gain
        rank = 0
        while rank < len(grades) and ideal_gain > 0.0:
            gain = gain_of.get(grades[rank], 0.0)
            ideal_gain = ideal(rank)
            if old != ideal_gain:
                if ideal_dcg > 0.0:
                    total += results_dcg / ideal_dcg
                    changes += 1
                old = ideal_gain
            if gain != 0:
                results_dcg += gain / _log2(rank + 2.0)
            if ideal_gain > 0.0:
                ideal_dcg += ideal_gain / _log2(rank + 2.0)
            rank += 1
        if rank < len(grades):
            while rank < len(grades):
                gain = gain_of.get(grades[rank], 0.0)
                if gain != 0:
                    results_dcg += gain / _log2(rank + 2.0)
                rank += 1
            if ideal_dcg > 0.0:
                total += results_dcg / ideal_dcg
                changes += 1
        while ideal_gain > 0.0:
            ideal_gain = ideal(rank)
            if old != ideal_gain:
                if ideal_dcg > 0.0:
                    total += results_dcg / ideal_dcg
                    changes += 1
                old = ideal_gain
            if ideal_gain > 0.0:
                ideal_dcg += ideal_gain / _log2(rank + 2.0)
            rank += 1
        out[i] = total / changes if changes else 0.0
    return out


def ndcg_rel(r: JudgedRanking, gains) -> np.ndarray:
    """trec_eval's ``ndcg_rel`` (m_ndcg_rel.c): nDCG averaged over the relevant documents."""
    out = np.zeros(r.n_queries)
    for i, grades, levels in _per_query_lists(r):
        table = _gains(_trim(levels), gains)
        gain_of = _gain_of(table)
        ideal = _ideal_steps(table)
        results_dcg = ideal_dcg = total = 0.0
        found = relevant = 0
        ideal_gain = table[-1][1] if table else 0.0
        rank = 0
        with np.errstate(divide="ignore", invalid="ignore"):
            while rank < len(grades) and ideal_gain > 0.0:
                gain = gain_of.get(grades[rank], 0.0)
                if gain != 0:
                    results_dcg += gain / _log2(rank + 2.0)
                ideal_gain = ideal(rank)
                if ideal_gain > 0.0:
                    relevant += 1
                    ideal_dcg += ideal_gain / _log2(rank + 2.0)
                if gain > 0:
                    total += _c_divide(results_dcg, ideal_dcg)
                    found += 1
                rank += 1
            while rank < len(grades):
                gain = gain_of.get(grades[rank], 0.0)
                if gain != 0:
                    results_dcg += gain / _log2(rank + 2.0)
                if gain > 0:
                    total += _c_divide(results_dcg, ideal_dcg)
                    found += 1
                rank += 1
            while ideal_gain > 0.0:
                ideal_gain = ideal(rank)
                if ideal_gain > 0.0:
                    relevant += 1
                    ideal_dcg += ideal_gain / _log2(rank + 2.0)
                rank += 1
            total += (relevant - found) * _c_divide(results_dcg, ideal_dcg)
        if total > 0.0:
            out[i] = total / relevant
    return out


def _c_divide(a: float, b: float) -> float:
    """a / b as C computes doubles: inf or nan for b = 0."""
    if b == 0.0:
        return math.nan if a == 0.0 else math.copysign(math.inf, a)
    return a / b


def trec_rbp(r: JudgedRanking, p, gains) -> np.ndarray:
    """trec_eval's ``rbp`` (m_rbp.c): grade gains scaled to [0, 1] when outside it."""
    p = 0.9 if p is None else p
    out = np.zeros(r.n_queries)
    for i, grades, levels in _per_query_lists(r):
        table = _gains(_trim(levels), gains)
        values = [g for _, g, _ in table]
        low, high = (min(values), max(values)) if values else (0.0, 0.0)
        if low < 0 or high > 1:
            table = [[lvl, (g - low) / (high - low), n] for lvl, g, n in table]
        gain_of = _gain_of(table)
        total, weight = 0.0, 1.0
        for grade in grades:
            gain = gain_of.get(grade, 0.0)
            if gain != 0:
                total += gain * weight
            weight *= p
        out[i] = (1.0 - p) * total
    return out


def rbp_residual(r: JudgedRanking, p) -> np.ndarray:
    """trec_eval's ``rbp_resid``: the RBP weight of unjudged ranks and of those below."""
    p = 0.9 if p is None else p
    out = np.zeros(r.n_queries)
    for i, grades, _ in _per_query_lists(r):
        total, weight, unjudged_ = 0.0, 1.0, 0
        for grade in grades:
            if grade < 0:
                unjudged_ += 1
                total += weight
            weight *= p
        if unjudged_:
            out[i] = weight + (1 - p) * total
    return out


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


# ---------------------------------------------------------------- dispatch


def _level(m: Measure, level: int) -> int:
    return level if m.rel is None else m.rel


_KERNELS = {
    "num_q": lambda r, m, level, ctx: np.ones(r.n_queries),
    "num_ret": lambda r, m, level, ctx: r.num_ret.astype(np.float64),
    "num_rel": lambda r, m, level, ctx: r.num_rel(level),
    "num_rel_ret": lambda r, m, level, ctx: num_rel_ret(r, level),
    "num_nonrel_judged_ret": lambda r, m, level, ctx: num_nonrel_judged_ret(r, level),
    "precision": lambda r, m, level, ctx: precision(r, m.cutoff, level),
    "recall": lambda r, m, level, ctx: recall(r, m.cutoff, level),
    "success": lambda r, m, level, ctx: success(r, m.cutoff, level),
    "reciprocal_rank": lambda r, m, level, ctx: reciprocal_rank(r, m.cutoff, level),
    "average_precision": lambda r, m, level, ctx: average_precision(r, m.cutoff, level),
    "r_precision": lambda r, m, level, ctx: r_precision(r, level),
    "r_precision_multiple": lambda r, m, level, ctx: r_precision_multiple(r, m.cutoff, level),
    "bpref": lambda r, m, level, ctx: bpref(r, level),
    "ndcg": lambda r, m, level, ctx: (ndcg(r, m.cutoff) if m.gains is None
                                      else ndcg_gains(r, m.gains)),
    "ndcg_exp": lambda r, m, level, ctx: ndcg(r, m.cutoff, exponential=True),
    "ndcg_rel": lambda r, m, level, ctx: ndcg_rel(r, m.gains),
    "rndcg": lambda r, m, level, ctx: rndcg(r, m.gains, level),
    "g_measure": lambda r, m, level, ctx: g_measure(r, m.gains),
    "bin_g": lambda r, m, level, ctx: bin_g(r, level),
    "judged": lambda r, m, level, ctx: judged(r, m.cutoff),
    "unjudged": lambda r, m, level, ctx: unjudged(r, m.cutoff),
    "dcg": lambda r, m, level, ctx: dcg(r, m.cutoff),
    "set_precision": lambda r, m, level, ctx: set_precision(r, level),
    "set_recall": lambda r, m, level, ctx: set_recall(r, level),
    "set_relative_precision": lambda r, m, level, ctx: set_relative_precision(r, level),
    "set_average_precision": lambda r, m, level, ctx: set_average_precision(r, level),
    "set_f": lambda r, m, level, ctx: set_f(r, level, 1.0 if m.beta is None else m.beta),
    "relative_precision": lambda r, m, level, ctx: relative_precision(r, m.cutoff, level),
    "rank_biased_precision": lambda r, m, level, ctx: rank_biased_precision(r, m.cutoff, level,
                                                                            m.p),
    "trec_rbp": lambda r, m, level, ctx: trec_rbp(r, m.p, m.gains),
    "rbp_residual": lambda r, m, level, ctx: rbp_residual(r, m.p),
    "expected_reciprocal_rank": lambda r, m, level, ctx: expected_reciprocal_rank(r, m.cutoff),
    "inferred_average_precision": lambda r, m, level, ctx: inferred_average_precision(r, level),
    "interpolated_precision": lambda r, m, level, ctx: interpolated_precision(r, m.cutoff, level),
    "interpolated_precision_average": lambda r, m, level, ctx: interpolated_precision_average(
        r, m.levels, level),
    "utility": lambda r, m, level, ctx: utility(r, level, m.weights, ctx.get("num_docs", 0)),
}


def compute(r: JudgedRanking, measure: Measure, *, relevance_level: int = 1,
            num_docs: int = 0) -> np.ndarray:
    """Value of ``measure`` for every query of ``r`` (float64, in ``r.query_ids`` order).

    The kernel is the one the measure's :class:`reteval.measures.Family` names. A
    measure's own ``rel`` (``P(rel=2)@10``) overrides ``relevance_level``; its
    ``judged_only`` ranks the judged documents only. ``num_docs`` is the collection size
    (trec_eval ``-N``, used by ``Utility``).
    """
    if measure.spec.judgments != "qrels":
        need = "qrels_jg" if measure.spec.judgments == "qrels_jg" else "prefs or qrels_prefs"
        raise InputError(f"measure {measure} needs {need} judgments (trec_eval -R; "
                         "rel_format= of evaluate)")
    if measure.judged_only:
        r = judged_only(r)
    kernel = _KERNELS[measure.spec.kernel]
    values = kernel(r, measure, _level(measure, relevance_level), {"num_docs": num_docs})
    return np.asarray(values, dtype=np.float64)


def relevance_strings(r: JudgedRanking, length: int = 10) -> dict:
    """trec_eval's ``relstring``: the grades of the top ``length`` documents, one character
    each (``0``-``9``, ``>`` above 9, ``-`` not judged, ``.`` judged negative), per query."""
    out = {}
    for i, grades, _ in _per_query_lists(r):
        chars = [">" if g > 9 else str(g) if g >= 0 else "-" if g == -1 else "."
                 for g in grades[:max(length, 0)]]
        out[str(r.query_ids[i])] = "".join(chars)
    return out
