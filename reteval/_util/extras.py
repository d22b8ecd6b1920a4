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
from types import ModuleType

from reteval.errors import MissingExtraError

__all__ = ["require"]


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
