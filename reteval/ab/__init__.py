"""Online evaluation: A/B experiments and interleaving.

The flow, one module per step::

    assignment  ->  log  ->  sufficient  ->  metrics  ->  stats / power / sequential  ->  analysis
    (who sees       (durable  (per-user and   (ratios and   (tests, SRM, power,           (verdict)
     what)           SQLite)   per-variant     their         always-valid p-values)
                               sums)           variances)
    interleaving (team-draft, balanced, credit, sign test)
    simulation (click models over judged data; A/B against interleaving)  ->  plots

>>> from reteval.ab import Experiment
>>> Experiment("ranker-v2").assign("user123")
'B'
"""

from reteval.ab.analysis import ABResult, MetricResult, analyze, summarize_variants
from reteval.ab.assignment import Experiment, assign, bucket
from reteval.ab.interleaving import (
    Interleaving,
    InterleavingResult,
    Outcome,
    balanced,
    credit,
    interleaving_test,
    summarize_outcomes,
    team_draft,
)
from reteval.ab.log import ImportReport, Interaction, InteractionLog, parse_record
from reteval.ab.metrics import METRICS, Metric, estimate
from reteval.ab.power import (
    minimum_detectable_effect,
    power,
    proportion_effect_size,
    proportion_mde,
    sample_size,
)
from reteval.ab.sequential import SequentialResult, msprt, sequential_test
from reteval.ab.simulation import (
    CascadeModel,
    MethodComparison,
    PositionBasedModel,
    compare_methods,
    expected_outcomes,
    simulate_log,
    synthetic_collection,
)
from reteval.ab.stats import SRMResult, srm_test, two_proportion_ztest, welch_test
from reteval.ab.sufficient import cumulative_statistics, per_user, reduce_log, sufficient_statistics

__all__ = [
    "METRICS",
    "ABResult",
    "CascadeModel",
    "Experiment",
    "ImportReport",
    "Interaction",
    "InteractionLog",
    "Interleaving",
    "InterleavingResult",
    "MethodComparison",
    "Metric",
    "MetricResult",
    "Outcome",
    "PositionBasedModel",
    "SRMResult",
    "SequentialResult",
    "analyze",
    "assign",
    "balanced",
    "bucket",
    "compare_methods",
    "credit",
    "cumulative_statistics",
    "estimate",
    "expected_outcomes",
    "interleaving_test",
    "minimum_detectable_effect",
    "msprt",
    "parse_record",
    "per_user",
    "power",
    "proportion_effect_size",
    "proportion_mde",
    "reduce_log",
    "sample_size",
    "sequential_test",
    "simulate_log",
    "srm_test",
    "sufficient_statistics",
    "summarize_outcomes",
    "summarize_variants",
    "synthetic_collection",
    "team_draft",
    "two_proportion_ztest",
    "welch_test",
]
