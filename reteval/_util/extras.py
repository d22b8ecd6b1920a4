"""Optional dependencies, grouped by use into pip extras.

The core (``pip install reteval``: read runs and judgments, evaluate, compare
with statistics) needs numpy, pandas, pyarrow, scipy and tqdm. Everything else
is an extra:

==============  ============================================================
extra           for
==============  ============================================================
``plots``       figures (:mod:`reteval.report.figures`, A/B and trend figures): matplotlib
``notebooks``   ``reteval run``, the notebooks and widgets: JupyterLab, papermill,
                ipywidgets, PyYAML, nbconvert, tabulate (and ``plots``)
``retrievers``  the reference retrievers: bm25s, PyStemmer, scikit-learn
``dask``        the Dask engine: dask, distributed
``irds``        ``load("irds:...")``: ir_datasets
``neural``      the neural encoder: sentence-transformers (pulls PyTorch)
``ragas``       the RAGAS adapter: ragas (needs an LLM)
``all``         plots, notebooks, retrievers, dask, irds
==============  ============================================================

Importing a feature whose extra is missing raises
:class:`~reteval.errors.MissingExtraError` naming the install command.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

from reteval.errors import MissingExtraError

__all__ = ["require", "skip_iri_grammars"]


def require(module: str, extra: str, feature: str) -> ModuleType:
    """Import ``module``, or say which extra to install for ``feature``.

    Examples
    --------
    >>> require("math", "plots", "figures").sqrt(4.0)
    2.0
    >>> require("no_such_module_xyz", "plots", "figures")
    Traceback (most recent call last):
    ...
    reteval.errors.MissingExtraError: figures need no_such_module_xyz, which is not installed:
    pip install "reteval[plots]"
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        package = module.partition(".")[0]
        raise MissingExtraError(
            f'{feature} need {package}, which is not installed: pip install "reteval[{extra}]"'
        ) from exc


def skip_iri_grammars() -> None:
    """Let jsonschema load without rfc3987-syntax in this process.

    jsonschema (under nbformat, papermill and nbconvert) imports rfc3987-syntax when it is
    installed (JupyterLab's dependencies install it), and that package builds its IRI
    grammars on import: 1.5 to 2 seconds in every process that reads a notebook, ten times
    the rest of nbformat's import. jsonschema then checks no ``iri`` format, which no schema
    reteval validates has. Only reteval's own processes call this (the command line, the
    book's page workers, the test suite), never ``import reteval``: a program that imports
    reteval keeps jsonschema whole.

    Examples
    --------
    >>> skip_iri_grammars()
    >>> import jsonschema  # quickly
    """
    sys.modules.setdefault("rfc3987_syntax", None)  # its import fails; jsonschema goes on
