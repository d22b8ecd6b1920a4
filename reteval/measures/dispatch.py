"""From a measure to its kernel: :func:`compute`."""

from __future__ import annotations

import numpy as np

from reteval.errors import InputError
from reteval.measures.judged import JudgedRanking, judged_only
from reteval.measures.kernels import (
    average_precision,
    bpref,
    dcg,
    expected_reciprocal_rank,
    inferred_average_precision,
    interpolated_precision,
    judged,
    ndcg,
    precision,
    r_precision,
    rank_biased_precision,
    recall,
    reciprocal_rank,
    set_f,
    set_precision,
    set_recall,
    success,
)
from reteval.measures.measure import Measure
from reteval.measures.trec_kernels import (
    bin_g,
    g_measure,
    interpolated_precision_average,
    ndcg_gains,
    ndcg_rel,
    num_nonrel_judged_ret,
    num_rel_ret,
    r_precision_multiple,
    rbp_residual,
    relative_precision,
    rndcg,
    set_average_precision,
    set_relative_precision,
    trec_rbp,
    unjudged,
    utility,
)

__all__ = ["compute"]

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


