"""reteval: literate, trec_eval-exact evaluation of retrieval systems.

>>> import reteval
>>> reteval.evaluate({"q1": {"d1": 1}}, {"q1": ["d2", "d1"]}, ["RR"])["RR"].tolist()
[0.5]
"""

from reteval.engines import evaluate
from reteval.errors import InputError, RetevalError, UnknownMeasureError
from reteval.evaluate import aggregate
from reteval.io import read_qrels, read_run, write_qrels, write_run
from reteval.measures import Measure, parse_measure
from reteval.version import __version__

__all__ = [
    "Comparison",
    "InputError",
    "Measure",
    "RetevalError",
    "UnknownMeasureError",
    "__version__",
    "aggregate",
    "compare",
    "evaluate",
    "parse_measure",
    "read_qrels",
    "read_run",
    "to_long",
    "write_qrels",
    "write_run",
]


def __getattr__(name):
    # The comparison layer pulls in scipy: loaded on first use, so `reteval evaluate` starts fast.
    if name in ("compare", "Comparison"):
        from reteval import comparison

        return getattr(comparison, name)
    if name == "to_long":
        from reteval.formats import to_long

        return to_long
    raise AttributeError(f"module 'reteval' has no attribute {name!r}")
