"""Continuous evaluation: an evaluation history, regression alerts, scheduling.

The chapter's continuous evaluation is a ``while True`` loop that keeps its
history in a list and prints a warning when Recall@5 falls under 0.7. This
package makes it something a team can run in production:

=====================  ==========================================================
module                 idea
=====================  ==========================================================
``fingerprint``        which dataset (qrels + queries) an evaluation ran on
``history``            the SQLite history file: one transaction per entry
``entry``              one entry of the history: the record, its stored fields
``alerts``             threshold and regression rules (a paired test, not a mean)
``channels``           delivering an alert: a shell command, an HTTP POST
``runstore``           the run behind each entry, kept to be scored again
``loading``            the retriever to evaluate: ``module:callable`` or a name
``runner``             one evaluation: evaluate, check, record
``schedule``           repeating in the foreground, stopping cleanly on signals
``trend``              the history as a DataFrame and a plot
``commands``           ``reteval monitor`` and ``reteval history``
=====================  ==========================================================

Examples
--------
>>> import tempfile, pathlib
>>> from reteval.monitor import monitor_once, history_frame
>>> path = pathlib.Path(tempfile.mkdtemp()) / "history.sqlite"
>>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}, "q3": {"d3": 1}}
>>> result = monitor_once(path, run={"q1": ["d1"], "q2": ["d2"], "q3": ["x", "d3"]},
...                       qrels=qrels, measures=["R@1"], thresholds=["R@1=0.7"])
>>> result.alerted, result.entry.aggregates
(True, {'R@1': 0.6666666666666666})
>>> history_frame(path)["R@1"].round(4).tolist()
[0.6667]
"""

from reteval._util.lazy import lazy_names

# ``fingerprint`` is both a submodule and a function: bound here, before anything can import
# the submodule and bind the module under the same name.
from reteval.monitor.fingerprint import DatasetFingerprint, fingerprint

# Public names are loaded from their module on first use (PEP 562): ``reteval monitor
# --help`` reads only ``commands``, without numpy, pandas or scipy.
_HOME = {
    "alerts": ("Alert", "MeasureComparison", "RegressionReport", "Threshold",
               "check_regression", "check_thresholds", "parse_threshold"),
    "channels": ("Delivery", "post_json", "run_command"),
    "commands": ("ALERT_EXIT_STATUS", "add_subcommands"),
    "entry": ("Entry",),
    "history": ("HistoryError", "HistoryLockedError", "HistoryStore", "open_history"),
    "runner": ("MonitorOptions", "MonitorResult", "RetrieverError", "load_retriever",
               "monitor_once"),
    "schedule": ("parse_interval", "repeat"),
    "trend": ("history_frame", "plot_history"),
}
_LAZY = {name: module for module, names in _HOME.items() for name in names}

__all__ = [
    "ALERT_EXIT_STATUS",
    "Alert",
    "DatasetFingerprint",
    "Delivery",
    "Entry",
    "HistoryError",
    "HistoryLockedError",
    "HistoryStore",
    "MeasureComparison",
    "MonitorOptions",
    "MonitorResult",
    "RegressionReport",
    "RetrieverError",
    "Threshold",
    "add_subcommands",
    "check_regression",
    "check_thresholds",
    "fingerprint",
    "history_frame",
    "load_retriever",
    "monitor_once",
    "open_history",
    "parse_interval",
    "parse_threshold",
    "plot_history",
    "post_json",
    "repeat",
    "run_command",
]


__getattr__, __dir__ = lazy_names(__name__, {k: f"reteval.monitor.{v}" for k, v in _LAZY.items()},
                                  __all__)
