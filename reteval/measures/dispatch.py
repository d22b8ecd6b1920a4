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
    ndcg_exp,
    num_q,
    num_rel,
    num_ret,
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
    ndcg,
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


def _level(m: Measure, level: float) -> float:
    return level if m.rel is None else m.rel


# The kernel of every family, by the name its registry record gives: each one takes
# (ranking, measure, relevance level, collection size) and returns one value per query.
_KERNELS = {kernel.__name__: kernel for kernel in (
    num_q, num_ret, num_rel, num_rel_ret, num_nonrel_judged_ret, precision, recall, success,
    reciprocal_rank, average_precision, r_precision, r_precision_multiple, bpref, ndcg, ndcg_exp,
    ndcg_rel, rndcg, g_measure, bin_g, judged, unjudged, dcg, set_precision, set_recall,
    set_relative_precision, set_average_precision, set_f, relative_precision,
    rank_biased_precision, trec_rbp, rbp_residual, expected_reciprocal_rank,
    inferred_average_precision, interpolated_precision, interpolated_precision_average, utility,
)}


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
    values = kernel(r, measure, _level(measure, relevance_level), num_docs)
    return np.asarray(values, dtype=np.float64)


