"""reteval: literate, trec_eval-exact evaluation of retrieval systems.

>>> import reteval
>>> reteval.evaluate({"q1": {"d1": 1}}, {"q1": ["d2", "d1"]}, ["RR"])["RR"].tolist()
[0.5]

The package is layered; each folder is one step of the flow, and a layer imports only
the layers below it (checked by import-linter)::

    cli, book (pipeline, editions, HTML book)     publishing
    teaching                                      the chapter, exercises
    widgets | report                              reading the results
    monitor | judging                             over time; the judgments themselves
    comparison                                    compare: tests, ANOVA, the best
    evaluation                                    evaluate, in memory or on Dask
    measures                                      names, registry, kernels
    ab | retrievers | rag | datasets              online tests, systems, RAG, data
    stats                                         tests, intervals, planning
    io                                            qrels and run files, tables
    _util                                         plumbing (not API)

``import reteval`` loads almost nothing: numpy, pandas and pyarrow are imported
the first time something needs them, and the public names below are attributes
loaded on first use (PEP 562), so the command line starts at once.
"""

from reteval._util.lazy import lazy_names
from reteval.errors import InputError, RetevalError, UnknownMeasureError
from reteval.evaluation.engine import aggregate, evaluate

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
    "failures",
    "parse_measure",
    "read_qrels",
    "read_run",
    "to_long",
    "write_qrels",
    "write_run",
]

__getattr__, __dir__ = lazy_names(__name__, {
    "Comparison": "reteval.comparison.result",
    "compare": "reteval.comparison.compare",
    "failures": "reteval.evaluation.failures",
    "Measure": "reteval.measures.measure",
    "parse_measure": "reteval.measures.names",
    "read_qrels": "reteval.io",
    "read_run": "reteval.io",
    "write_qrels": "reteval.io",
    "write_run": "reteval.io",
    "to_long": "reteval.evaluation.formats",
    "__version__": "reteval.version",
}, __all__)

