"""reteval: literate, trec_eval-exact evaluation of retrieval systems.

>>> import reteval
>>> reteval.evaluate({"q1": {"d1": 1}}, {"q1": ["d2", "d1"]}, ["RR"])["RR"].tolist()
[0.5]

``import reteval`` loads almost nothing: numpy, pandas and pyarrow are imported
the first time something needs them, and the other public names below are
attributes loaded on first use (PEP 562), so the command line starts at once.
"""

import importlib

# ``evaluate`` is both a submodule and a function: bound here, before anything can import
# the submodule and bind the module under the same name. ``reteval.evaluate`` is the engine
# dispatcher (in memory, or Dask); neither engine imports its heavy dependencies until called.
from reteval.engines import evaluate
from reteval.errors import InputError, RetevalError, UnknownMeasureError
from reteval.evaluate import aggregate

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

# public name -> the module that defines it, imported on first use
_LAZY = {
    "Comparison": "reteval.comparison",
    "compare": "reteval.comparison",
    "Measure": "reteval.measures",
    "parse_measure": "reteval.measures",
    "read_qrels": "reteval.io",
    "read_run": "reteval.io",
    "write_qrels": "reteval.io",
    "write_run": "reteval.io",
    "to_long": "reteval.formats",
    "__version__": "reteval.version",
}


def __getattr__(name):
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
    else:
        raise AttributeError(f"module 'reteval' has no attribute {name!r}")
    globals()[name] = value  # later lookups find it directly
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
