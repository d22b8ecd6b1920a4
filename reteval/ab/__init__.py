"""Online evaluation: A/B experiments and interleaving.

The flow, one module per step::

    assignment  ->  log  ->  sufficient  ->  metrics  ->  stats / sequential  ->  analysis
    (who sees       (durable  (per-user and   (ratios and   (tests, SRM,          (verdict)
     what)           SQLite)   per-variant     their         always-valid p-values)
                               sums)           variances)
    planning (power, sample size, minimum detectable effect; from reteval.stats.planning)
    interleaving (team-draft, balanced, credit, sign test)
    clicks (click models)  ->  simulation (simulated users over judged data; A/B
                               against interleaving)  ->  plots

Planning lives in one module, :mod:`reteval.stats.planning`; this package gives
its two-group functions their A/B names: ``power`` is
:func:`~reteval.stats.planning.two_sample_power`, ``sample_size`` is
:func:`~reteval.stats.planning.two_sample_size`, and
``minimum_detectable_effect``, ``proportion_effect_size`` and ``proportion_mde``
keep their names. ``reteval.ab.power`` is the *function* (there is no submodule
of that name): ``from reteval.ab import power, sample_size`` or
``ab.sample_size(...)``.

>>> from reteval import ab
>>> from reteval.stats.planning import two_sample_power
>>> ab.power is two_sample_power
True
>>> round(ab.sample_size(0.1), 1)
1569.8
>>> from reteval.ab import Experiment
>>> Experiment("ranker-v2").assign("user123")
'B'
"""

from reteval.ab.analysis import ABResult, MetricResult, analyze, summarize_variants
from reteval.ab.assignment import Experiment, assign, bucket
from reteval.ab.bayesian import BayesianResult, bayesian_test
from reteval.ab.clicks import CascadeModel, PositionBasedModel
from reteval.ab.cuped import CupedResult, cuped_test
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
from reteval.ab.sequential import SequentialResult, msprt, sequential_test
from reteval.ab.simulation import (
    MethodComparison,
    compare_methods,
    expected_outcomes,
    simulate_log,
    synthetic_collection,
)
from reteval.ab.stats import SRMResult, srm_test, two_proportion_ztest, welch_test
from reteval.ab.sufficient import cumulative_statistics, per_user, reduce_log, sufficient_statistics
from reteval.stats.planning import (
    minimum_detectable_effect,
    proportion_effect_size,
    proportion_mde,
)
from reteval.stats.planning import two_sample_power as power
from reteval.stats.planning import two_sample_size as sample_size

__all__ = [
    "METRICS",
    "ABResult",
    "BayesianResult",
    "CascadeModel",
    "CupedResult",
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
    "bayesian_test",
    "bucket",
    "compare_methods",
    "credit",
    "cumulative_statistics",
    "cuped_test",
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
