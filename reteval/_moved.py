"""Old module paths, kept importable after the package was grouped into layers.

``import reteval.metrics`` still works and gives :mod:`reteval.evaluation.metrics` (the
same module object), with a :class:`DeprecationWarning` naming the new path. The one
exception is ``reteval.evaluate``: it is the evaluation function, and the module that
defined it is now :mod:`reteval.evaluation.engine`.
"""

import importlib
import importlib.util
import sys
import warnings

__all__ = ["MOVED", "install"]

#: old module path -> new module path
MOVED = {
    "reteval.arrow": "reteval.io.arrow",
    "reteval.textfile": "reteval.io.textfile",
    "reteval.sqlitefile": "reteval._util.sqlitefile",
    "reteval.validation": "reteval._util.validation",
    "reteval.progress": "reteval._util.progress",
    "reteval.extras": "reteval._util.extras",
    "reteval.text": "reteval._util.text",
    "reteval.fonts": "reteval._util.fonts",
    "reteval.collection": "reteval.datasets.collection",
    "reteval.irds": "reteval.datasets.irds",
    "reteval.measures": "reteval.evaluation.measures",
    "reteval.ranking": "reteval.evaluation.ranking",
    "reteval.metrics": "reteval.evaluation.metrics",
    "reteval.cutoffs": "reteval.evaluation.cutoffs",
    "reteval.formats": "reteval.evaluation.formats",
    "reteval.formulas": "reteval.evaluation.formulas",
    "reteval.comparison": "reteval.evaluation.comparison",
    "reteval.engines": "reteval.evaluation.engine",
    "reteval.distributed": "reteval.evaluation.distributed",
    "reteval.fusion": "reteval.retrievers.fusion",
    "reteval.plots": "reteval.report.figures",
    "reteval.pipeline": "reteval.book.pipeline",
    "reteval.editions": "reteval.book.editions",
}


class _Alias:
    """Finds an old path and loads the module under its new one (a meta path finder and its
    loader; not derived from ``importlib.abc``, whose import costs every command ~10 ms)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        new = MOVED[spec.name]
        warnings.warn(f"{spec.name} moved to {new}; import it from there",
                      DeprecationWarning, stacklevel=2)
        return importlib.import_module(new)

    def exec_module(self, module):
        pass  # the module already ran under its new name


def install() -> None:
    """Let the old module paths import (once per process)."""
    if not any(isinstance(finder, _Alias) for finder in sys.meta_path):
        sys.meta_path.append(_Alias())
