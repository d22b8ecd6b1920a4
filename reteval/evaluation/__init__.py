"""Evaluation: measures, ranking, the per-query values of runs.

=====================  =================================================================
module                 idea
=====================  =================================================================
``measures``           the measure registry; names (``nDCG@10``, ``ndcg_cut_10``) as values
``ranking``            each query's ranking in trec_eval's order, with its judgments
``metrics``            the measure kernels: one vectorised value per query
``engine``             :func:`evaluate` (in memory, or partition by partition on Dask)
``distributed``        the Dask engine: runs larger than one machine
``cutoffs``            a measure against its cutoff k, recall levels
``formulas``           a measure's value written out term by term (teaching)
``ranked_lists``       one query's ranked list: grades, discounts, the ideal list, values
``disagreement``       pairs of queries that two measures order in opposite ways
``formats``            per-query results as long tables and trec_eval's text
``preferences``        trec_eval's preference and multi-judge measures (``-R``)
``ties``               :func:`tie_bounds`: each measure over every order of the tied documents
=====================  =================================================================

Every public name is importable from ``reteval.evaluation``, loaded on first use.
"""

from reteval._util.lazy import lazy_names

_HOMES = {
    "MISSING_POLICIES": "engine", "MissingQueriesWarning": "engine", "aggregate": "engine",
    "evaluate": "engine", "evaluate_preferences": "engine", "relevance_strings": "engine",
    "REGISTRY": "measures", "is_count": "measures",
    "DEFAULT_MEASURES": "measures", "MEASURE_FAMILIES": "measures", "Measure": "measures",
    "measure_columns": "measures", "parse_measure": "measures", "parse_measures": "measures",
    "trec_name": "measures",
    "cutoff_groups": "cutoffs", "measure_curves": "cutoffs", "recall_levels": "cutoffs",
    "Explanation": "formulas", "MetricState": "formulas", "gain_term": "formulas",
    "DEFAULT_FIGURE_MEASURES": "ranked_lists", "RankedList": "ranked_lists",
    "discount": "ranked_lists", "ranked_list": "ranked_lists", "ranked_lists": "ranked_lists",
    "TIE_TOLERANCE": "disagreement", "disagreeing_pairs": "disagreement",
    "disagreeing_queries": "disagreement",
    "to_long": "formats", "to_trec_eval": "formats",
    "evaluate_runs": "engine",
    "evaluate_dask": "distributed", "evaluate_on_cluster": "distributed",
    "read_run_dask": "distributed",
    "TieBounds": "ties", "UNBOUNDED_FAMILIES": "ties", "tie_bounds": "ties",
}
__all__ = [
    "DEFAULT_FIGURE_MEASURES",
    "DEFAULT_MEASURES",
    "MEASURE_FAMILIES",
    "MISSING_POLICIES",
    "REGISTRY",
    "TIE_TOLERANCE",
    "UNBOUNDED_FAMILIES",
    "Explanation",
    "Measure",
    "MetricState",
    "MissingQueriesWarning",
    "RankedList",
    "TieBounds",
    "aggregate",
    "cutoff_groups",
    "disagreeing_pairs",
    "disagreeing_queries",
    "discount",
    "evaluate",
    "evaluate_dask",
    "evaluate_on_cluster",
    "evaluate_preferences",
    "evaluate_runs",
    "gain_term",
    "is_count",
    "measure_columns",
    "measure_curves",
    "parse_measure",
    "parse_measures",
    "ranked_list",
    "ranked_lists",
    "read_run_dask",
    "recall_levels",
    "relevance_strings",
    "tie_bounds",
    "to_long",
    "to_trec_eval",
    "trec_name",
]
__getattr__, __dir__ = lazy_names(
    __name__, {name: f"reteval.evaluation.{module}" for name, module in _HOMES.items()}, __all__)
