"""Evaluation: ranking, the per-query values of runs, on one machine or on Dask.

The measures themselves (names, registry, kernels) are :mod:`reteval.measures`.

=====================  =================================================================
module                 idea
=====================  =================================================================
``ranking``            each query's ranking in trec_eval's order, with its judgments
``checks``             the checks every engine applies (measures, options, missing queries)
``columns``            the in-memory engine: values as columns, several runs, one qrels
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
    "MISSING_POLICIES": "checks", "MissingQueriesWarning": "checks", "aggregate": "engine",
    "FractionalGradesWarning": "checks",
    "evaluate": "engine", "evaluate_preferences": "engine", "relevance_strings": "columns",
    "cutoff_groups": "cutoffs", "measure_curves": "cutoffs", "recall_levels": "cutoffs",
    "Explanation": "formulas", "MetricState": "formulas", "gain_term": "formulas",
    "DEFAULT_FIGURE_MEASURES": "ranked_lists", "RankedList": "ranked_lists",
    "discount": "ranked_lists", "ranked_list": "ranked_lists", "ranked_lists": "ranked_lists",
    "TIE_TOLERANCE": "disagreement", "disagreeing_pairs": "disagreement",
    "disagreeing_queries": "disagreement",
    "to_long": "formats", "to_trec_eval": "formats",
    "evaluate_runs": "columns", "evaluate_columns": "columns",
    "evaluate_dask": "distributed", "evaluate_on_cluster": "distributed",
    "read_run_dask": "distributed",
    "TieBounds": "ties", "UNBOUNDED_FAMILIES": "ties", "tie_bounds": "ties",
}
__all__ = [
    "DEFAULT_FIGURE_MEASURES",
    "MISSING_POLICIES",
    "TIE_TOLERANCE",
    "UNBOUNDED_FAMILIES",
    "Explanation",
    "FractionalGradesWarning",
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
    "measure_curves",
    "ranked_list",
    "ranked_lists",
    "read_run_dask",
    "recall_levels",
    "relevance_strings",
    "tie_bounds",
    "to_long",
    "to_trec_eval",
]
__getattr__, __dir__ = lazy_names(
    __name__, {name: f"reteval.evaluation.{module}" for name, module in _HOMES.items()}, __all__)
