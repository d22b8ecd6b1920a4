"""Interactive explorers for notebooks, built on ipywidgets.

Four explorers, each split in two so that the logic is testable without a
browser:

* an immutable *state* (a frozen dataclass) or a fixed data set, with pure
  functions that compute what is shown from it (values, formula text, HTML,
  PNG bytes);
* a thin explorer class that builds the ipywidgets controls, keeps the current
  state, and re-renders on every change through ``observe`` callbacks.

The explorers:

:class:`MetricExplorer`
    Grade each position of a ranked list, choose K, and watch P@K, R@K, RR,
    nDCG@K and AP change, each with the terms of its formula
    (``P@5 = 2/5 = 0.400``; DCG as a sum of ``gain/log2(i+1)``), from
    :class:`reteval.evaluation.formulas.MetricState` (:mod:`reteval.widgets.metric`).
:class:`QueryExplorer`
    Pick a query of a collection and two systems: their ranked documents with
    the judgments marked, side by side, with the query's measures
    (:mod:`reteval.widgets.query`).
:class:`KCurveExplorer`
    Measures against the cutoff K for several systems, with a slider for K;
    the curves are :func:`reteval.evaluation.cutoffs.measure_curves`
    (:mod:`reteval.widgets.kcurve`).
:class:`ABPlanner`
    Baseline rate, effect, alpha and power of an A/B test on a proportion,
    and the sample size they need (:mod:`reteval.widgets.planner`).

Every explorer displays itself in a notebook (``explorer`` as the last
expression of a cell) and exposes its controls and output widgets as
attributes, so that a test or a notebook can set a control's ``value`` and
read what is shown.

Where no widget front end is live (papermill, nbval, nbconvert's HTML without
saved widget state, a terminal), an explorer shows its text fallback instead:
its display bundle carries, beside the widget view, a ``text/plain`` and a
``text/html`` version of :meth:`text` (what the controls first show), and a
front end that cannot render the widget picks one of those
(:mod:`reteval.widgets.common`).
"""

from reteval._util.extras import require

require("ipywidgets", "notebooks", "interactive explorers")

from reteval.evaluation.formulas import Explanation, MetricState
from reteval.widgets.kcurve import KCurveExplorer, k_curves
from reteval.widgets.metric import MetricExplorer, metric_table_html, metric_values_html
from reteval.widgets.planner import ABPlanner, SamplePlan, plan_sample_size
from reteval.widgets.query import QueryExplorer

__all__ = [
    "ABPlanner",
    "Explanation",
    "KCurveExplorer",
    "MetricExplorer",
    "MetricState",
    "QueryExplorer",
    "SamplePlan",
    "k_curves",
    "metric_table_html",
    "metric_values_html",
    "plan_sample_size",
]
