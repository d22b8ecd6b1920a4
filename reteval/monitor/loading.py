"""Loading the retriever ``reteval monitor --retriever`` names: ``module:callable`` or a name."""

from __future__ import annotations

import importlib
import os
import sys

from reteval.errors import InputError
from reteval.retrievers.contract import RetrieverError, one_line

__all__ = ["load_retriever"]


def load_retriever(spec: str, *, corpus=None):
    """Resolve a retriever specification to an object.

    Parameters
    ----------
    spec : str
        ``"module:attribute"`` (``"package.module:obj.attr"`` works too): the
        object is imported, with the current directory added to ``sys.path``
        for the import, so that a module in the job's working directory is
        found. Otherwise
        the name of a reference retriever (:func:`reteval.retrievers.make_retriever`,
        e.g. ``"bm25"``), built over ``corpus``.
    corpus : mapping, optional
        Documents for a reference retriever (a dataset's corpus).

    Returns
    -------
    object
        Something with a ``.run(queries)`` method, or a callable
        ``f(queries) -> run``.

    Raises
    ------
    InputError
        A module that cannot be imported, a missing attribute, an object that
        is neither callable nor has ``.run``, or a reference retriever without
        a corpus.

    Examples
    --------
    >>> load_retriever("json:dumps")({"q1": "text"})
    '{"q1": "text"}'
    >>> load_retriever("bm25")
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: retriever 'bm25' is a reference retriever: it needs a corpus \
(give a dataset with --dataset); or give an importable 'module:callable'
    """
    if not isinstance(spec, str) or not spec.strip():
        raise InputError(f"retriever must be 'module:callable' or a retriever name; got {spec!r}")
    if ":" not in spec:
        if corpus is None:
            raise InputError(
                f"retriever {spec!r} is a reference retriever: it needs a corpus (give a "
                "dataset with --dataset); or give an importable 'module:callable'"
            )
        from reteval.retrievers import make_retriever

        return make_retriever(spec, corpus)
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise InputError(f"retriever spec must look like 'module:callable'; got {spec!r}")
    cwd = os.getcwd()
    added = cwd not in sys.path and "" not in sys.path
    if added:  # for the import only: sys.path is left as it was
        sys.path.insert(0, cwd)
    try:
        obj = importlib.import_module(module_name)
    except ImportError as exc:
        raise InputError(
            f"retriever {spec!r}: cannot import module {module_name!r}: {one_line(exc)}"
        ) from None
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - its own code failed, or exited
        raise RetrieverError(
            f"retriever {spec!r}: importing module {module_name!r} raised "
            f"{type(exc).__name__}: {one_line(exc)}"
        ) from None
    finally:
        if added and cwd in sys.path:
            sys.path.remove(cwd)
    for part in attribute.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise InputError(
                f"retriever {spec!r}: module {module_name!r} has no attribute {attribute!r}"
            ) from None
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - a module __getattr__
            raise RetrieverError(f"retriever {spec!r}: looking up {attribute!r} raised "
                                 f"{type(exc).__name__}: {one_line(exc)}") from None
    if not (callable(getattr(obj, "run", None)) or callable(obj)):
        raise InputError(
            f"retriever {spec!r} must name an object with a .run(queries) method or a callable "
            f"f(queries) -> run; got {type(obj).__name__}"
        )
    return obj
