"""The kernels of trec_eval's other measures (its gain tables, utility, bin_G, Rndcg,
TrecRBP...), as :mod:`reteval.measures.kernels`."""

from __future__ import annotations

import math

import numpy as np

from reteval.measures.judged import JudgedRanking, per_query_lists
from reteval.measures.kernels import (
    interpolated_precision_at,
    ndcg_values,
    precision,
    relevant_so_far,
    safe_divide,
)
from reteval.measures.measure import Measure

__all__ = [
    "bin_g",
    "g_measure",
    "interpolated_precision_average",
    "ndcg",
    "ndcg_gains",
    "ndcg_rel",
    "num_nonrel_judged_ret",
    "num_rel_ret",
    "r_precision_multiple",
    "rbp_residual",
    "relative_precision",
    "rndcg",
    "set_average_precision",
    "set_relative_precision",
    "trec_rbp",
    "unjudged",
    "utility",
]

# ---------------------------------------------------------------- trec_eval's other measures


def _hits_within(r: JudgedRanking, level: float, cutoff) -> np.ndarray:
    """Relevant documents at ranks <= cutoff (one cutoff per query) per query."""
    return r.per_query((r.rel >= level) & (r.rank <= np.asarray(cutoff)[r.query]))


def r_precision_multiple(r: JudgedRanking, m: Measure, level: float,
                         num_docs: int = 0) -> np.ndarray:
    """Rprec_mult: precision at rank ``(long) (m * R + 0.9)`` (trec_eval's rounding)."""
    multiple = m.cutoff
    num_rel = r.num_rel(level)
    cutoff = np.floor(multiple * num_rel + 0.9)
    return safe_divide(_hits_within(r, level, cutoff), cutoff)


def relative_precision(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """relative_P: relevant in the top k over min(k, R); 0 without relevant documents."""
    cutoff = m.cutoff
    assert cutoff is not None  # relative_P requires a cutoff (Measure checks it)
    num_rel = r.num_rel(level)
    return safe_divide(precision(r, m, level) * cutoff, np.minimum(num_rel, cutoff))


def unjudged(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """unj@k: documents of the top k not judged (or judged negative), over k."""
    cutoff = m.cutoff
    assert cutoff is not None  # unj requires a cutoff (Measure checks it)
    judged_ = r.per_query((r.rank <= cutoff) & (r.rel >= 0))
    return (np.minimum(r.num_ret, cutoff) - judged_) / cutoff


def num_rel_ret(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    return r.per_query(r.rel >= level)


def num_nonrel_judged_ret(r: JudgedRanking, m: Measure, level: float,
                          num_docs: int = 0) -> np.ndarray:
    """Judged (grade >= 0) non-relevant documents retrieved."""
    return r.per_query((r.rel >= 0) & (r.rel < level))


def set_relative_precision(r: JudgedRanking, m: Measure, level: float,
                           num_docs: int = 0) -> np.ndarray:
    """set_relative_P: relevant retrieved / min(retrieved, relevant)."""
    return safe_divide(num_rel_ret(r, m, level), np.minimum(r.num_ret, r.num_rel(level)))


def set_average_precision(r: JudgedRanking, m: Measure, level: float,
                          num_docs: int = 0) -> np.ndarray:
    """set_map: relevant retrieved squared / (retrieved * relevant), i.e. SetP * SetR."""
    found = num_rel_ret(r, m, level)
    return safe_divide(found * found, r.num_ret.astype(np.float64) * r.num_rel(level))


def utility(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """Set utility ``a*relret + b*nonrelret + c*relmissed + d*nonrelmissed`` (trec_eval).

    ``num_docs`` is the number of documents of the collection (trec_eval ``-N``), needed
    only when ``d`` is not 0.
    """
    weights = m.weights
    a, b, c, d = (1.0, -1.0, 0.0, 0.0) if weights is None else weights
    found = num_rel_ret(r, m, level)
    num_ret, num_rel = r.num_ret.astype(np.float64), r.num_rel(level)
    return (a * found + b * (num_ret - found) + c * (num_rel - found)
            + d * (num_docs + found - num_ret - num_rel))


def interpolated_precision_average(r: JudgedRanking, m: Measure, level: float,
                                   num_docs: int = 0) -> np.ndarray:
    """11pt_avg: the mean of ``IPrec`` over the recall levels, summed as trec_eval sums."""
    levels = sorted(_LEVELS_11 if m.levels is None else m.levels)
    total = np.zeros(r.n_queries)
    for recall_level in reversed(levels):
        total += interpolated_precision_at(r, recall_level, level)
    return total / len(levels)


_LEVELS_11 = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def bin_g(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """binG: ``sum 1 / log2(2 + rank - n)`` over the n-th relevant retrieved, over R."""
    relevant = r.rel >= level
    nth = relevant_so_far(r, relevant.astype(np.int64))
    weights = np.where(relevant, 1.0 / np.log2(2.0 + r.rank - nth), 0.0)
    return safe_divide(r.per_query(weights), r.num_rel(level))


def _gains(levels: list, gains) -> list[list[float]]:
    """trec_eval's setup_gains: ``[rel_level, gain, num_at_level]`` sorted by gain."""
    table: list[list[float]] = [[int(lvl), float(g), 0] for lvl, g in (gains or ())]
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

    def by_gain(x: list[float], y: list[float]) -> int:
        return int(x[1] - y[1])

    table.sort(key=functools.cmp_to_key(by_gain))
    return table


def _gain_of(table: list[list[float]]) -> dict[float, float]:
    out: dict[float, float] = {}
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


def ndcg_gains(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """trec_eval's ``ndcg`` with grade gains (``ndcg.1=3,2=9``), a port of m_ndcg.c."""
    out = np.zeros(r.n_queries)
    for i, grades, gain_of, ideal, _ in _graded_queries(r, m):
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


def _graded_queries(r: JudgedRanking, m: Measure):
    """Per query, the set-up of trec_eval's graded walks (m_ndcg.c, m_G.c, m_Rndcg.c,
    m_ndcg_rel.c): ``(i, grades, gain_of, ideal, top)``, ``gain_of`` a grade's gain,
    ``ideal(rank)`` the ideal gain at a rank and ``top`` the highest level's gain (0 when
    the query has no judgment)."""
    for i, grades, levels in per_query_lists(r, m):
        table = _gains(_trim(levels), m.gains)
        yield i, grades, _gain_of(table), _ideal_steps(table), table[-1][1] if table else 0.0


def g_measure(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """trec_eval's ``G`` (m_G.c)."""
    out = np.zeros(r.n_queries)
    for i, grades, gain_of, ideal, ideal_gain in _graded_queries(r, m):
        results_g = sum_results = sum_ideal = sum_cost = 0.0
        min_cost = 1.0
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


def rndcg(r: JudgedRanking, m: Measure, level: float,  # noqa: C901 (m_Rndcg.c, step by step)
          num_docs: int = 0) -> np.ndarray:
    """trec_eval's ``Rndcg`` (m_Rndcg.c): nDCG averaged where the ideal gain changes."""
    out = np.zeros(r.n_queries)
    num_rel = r.num_rel(level)
    for i, grades, gain_of, ideal, ideal_gain in _graded_queries(r, m):
        if num_rel[i] == 0:
            continue
        results_dcg = ideal_dcg = total = 0.0
        changes = 0
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


def ndcg_rel(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """trec_eval's ``ndcg_rel`` (m_ndcg_rel.c): nDCG averaged over the relevant documents."""
    out = np.zeros(r.n_queries)
    for i, grades, gain_of, ideal, ideal_gain in _graded_queries(r, m):
        results_dcg = ideal_dcg = total = 0.0
        found = relevant = 0
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


def trec_rbp(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """trec_eval's ``rbp`` (m_rbp.c): grade gains scaled to [0, 1] when outside it."""
    p = m.p
    gains = m.gains
    p = 0.9 if p is None else p
    out = np.zeros(r.n_queries)
    for i, grades, levels in per_query_lists(r, m):
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


def rbp_residual(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """trec_eval's ``rbp_resid``: the RBP weight of unjudged ranks and of those below."""
    p = m.p
    p = 0.9 if p is None else p
    out = np.zeros(r.n_queries)
    for i, grades, _ in per_query_lists(r):
        total, weight, unjudged_ = 0.0, 1.0, 0
        for grade in grades:
            if grade < 0:
                unjudged_ += 1
                total += weight
            weight *= p
        if unjudged_:
            out[i] = weight + (1 - p) * total
    return out


def ndcg(r: JudgedRanking, m: Measure, level: float, num_docs: int = 0) -> np.ndarray:
    """nDCG(@k): linear gain (trec_eval's ``ndcg_cut``), or the measure's gain table
    (trec_eval's ``ndcg.1=3,2=9``, :func:`ndcg_gains`)."""
    if m.gains is not None:
        return ndcg_gains(r, m, level, num_docs)
    return ndcg_values(r, m.cutoff)
