"""Measures: their names, trec_eval's spellings, the registry of families and the kernels.

=================  ================================================================
module             idea
=================  ================================================================
``registry``       :data:`REGISTRY`: one :class:`Family` record per measure family
``measure``        :class:`Measure`: a family, a cutoff and parameters, checked
``names``          parsing names (``nDCG@10``, ``ndcg_cut.10``) into measures
``trec``           the names trec_eval prints, their order, ``docs/measures.md``
``judged``         :class:`JudgedRanking`: a run's rankings with their judgments
``kernels``        the kernels of the common measures (P, R, AP, nDCG, RR...)
``trec_kernels``   the kernels of trec_eval's other measures
``dispatch``       :func:`compute`: a measure's values from its kernel
=================  ================================================================

Every public name is importable from ``reteval.measures``, loaded on first use.
"""

from reteval._util.lazy import lazy_names

__all__ = [
    "DEFAULT_MEASURES",
    "MEASURE_FAMILIES",
    "NOT_JUDGED",
    "POOL_UNJUDGED",
    "REGISTRY",
    "Family",
    "JudgedRanking",
    "Measure",
    "TrecName",
    "aggregation",
    "compute",
    "family_of",
    "is_count",
    "judged_only",
    "limit_ranking",
    "measure_columns",
    "measures_markdown",
    "measures_table",
    "parse_measure",
    "parse_measures",
    "relevance_strings",
    "trec_name",
    "trec_order",
    "wants_relstring",
    "wants_runid",
    "without_text",
]

__getattr__, __dir__ = lazy_names(__name__, {
    "DEFAULT_MEASURES": "reteval.measures.registry", "Family": "reteval.measures.registry",
    "JudgedRanking": "reteval.measures.judged", "MEASURE_FAMILIES": "reteval.measures.registry",
    "Measure": "reteval.measures.measure", "NOT_JUDGED": "reteval.measures.judged",
    "POOL_UNJUDGED": "reteval.measures.judged", "REGISTRY": "reteval.measures.registry",
    "TrecName": "reteval.measures.registry", "aggregation": "reteval.measures.names",
    "compute": "reteval.measures.dispatch", "family_of": "reteval.measures.names",
    "is_count": "reteval.measures.names", "judged_only": "reteval.measures.judged",
    "limit_ranking": "reteval.measures.judged", "measure_columns": "reteval.measures.names",
    "measures_markdown": "reteval.measures.trec", "measures_table": "reteval.measures.trec",
    "parse_measure": "reteval.measures.names", "parse_measures": "reteval.measures.names",
    "relevance_strings": "reteval.measures.judged", "trec_name": "reteval.measures.trec",
    "trec_order": "reteval.measures.trec", "wants_relstring": "reteval.measures.names",
    "wants_runid": "reteval.measures.names", "without_text": "reteval.measures.names",
}, __all__)
