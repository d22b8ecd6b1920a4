"""What "a retriever" means to the code that evaluates one: one contract, one adapter.

**The contract.** A retriever answers a whole query set: called with
``queries``, a mapping ``{query_id: text}``, it returns a run (anything
:func:`reteval.io.as_run` takes: a DataFrame ``query_id, doc_id, score``,
``{query_id: {doc_id: score}}``, ``{query_id: [doc ids]}``). Every reference
retriever's ``.run(queries)`` is one; so is the ``module:callable`` that
``reteval monitor --retriever`` imports.

**The adapter.** :func:`as_retriever` turns what a user has into that contract,
for :func:`reteval.compare` and :func:`reteval.monitor.monitor_once` alike:

* an object with a ``run(queries)`` method (every retriever in
  :mod:`reteval.retrievers`): its ``run``;
* a callable ``f(queries) -> run``: itself;
* with ``per_query=True``, a callable ``f(text) -> [(doc_id, score), ...]``
  (best first), called once per query. A LangChain-style ``.invoke``
  retriever is wrapped with :func:`reteval.retrievers.from_invoke` instead.

Whatever it wraps, the returned function returns a run DataFrame; an
exception raised by the retriever, or a result that is not a run, is a
:class:`RetrieverError` naming the retriever (the retriever's own exception is
its ``__cause__``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from reteval.errors import InputError, RetevalError

__all__ = ["RetrieverError", "as_retriever", "one_line"]


class RetrieverError(RetevalError):
    """The retriever under evaluation failed or returned something that is not a run."""


def one_line(exc: BaseException) -> str:
    """An exception's message on one line, at most 300 characters (user code may raise anything).

    Examples
    --------
    >>> one_line(ValueError("bad\\n  value"))
    'bad value'
    """
    try:
        text = str(exc)
    except Exception:  # noqa: BLE001 - a __str__ that fails
        text = ""
    return " ".join(text.split())[:300] or "(no message)"


def _label(obj, name: str | None) -> str:
    if name is not None:
        return str(name)
    label = getattr(obj, "name", None)
    if isinstance(label, str) and label:
        return label
    return getattr(obj, "__qualname__", type(obj).__name__)


def _pairs_run(fn: Callable, queries: Mapping, label: str) -> pd.DataFrame:
    rows_q, rows_d, rows_s = [], [], []
    for qid, text in queries.items():
        results = fn(text)
        try:
            pairs = [(str(doc), float(score)) for doc, score in results]
        except (TypeError, ValueError):
            raise RetrieverError(
                f"retriever {label!r} returned for query {qid!r} something other than a list "
                f"of (doc_id, score) pairs: {results!r:.120}") from None
        for doc, score in pairs:
            rows_q.append(str(qid))
            rows_d.append(doc)
            rows_s.append(score)
    return pd.DataFrame({
        "query_id": pd.array(rows_q, dtype="str"),
        "doc_id": pd.array(rows_d, dtype="str"),
        "score": np.asarray(rows_s, dtype=np.float64),
    })


def as_retriever(obj, *, per_query: bool = False,
                 name: str | None = None) -> Callable[[Mapping[str, str]], pd.DataFrame]:
    """The function ``queries -> run DataFrame`` that asks ``obj`` for a run.

    Parameters
    ----------
    obj : object with ``run(queries)``, or callable
        See the module docstring.
    per_query : bool, default False
        ``obj`` is a callable ``text -> [(doc_id, score), ...]``, called once
        per query. Ignored for an object with ``run``.
    name : str, optional
        The retriever's name in messages; default: its ``name`` attribute or
        its qualified name.

    Returns
    -------
    callable
        ``f(queries)`` with ``queries`` a mapping ``{query_id: text}``;
        returns the run as :func:`reteval.io.as_run` does.

    Raises
    ------
    InputError
        ``obj`` is neither callable nor has a ``run`` method (when adapting),
        or ``queries`` is not a mapping of texts (when called).
    RetrieverError
        When called: the retriever raised, or returned something that is not a run.

    Examples
    --------
    >>> def search(text):  # one query -> ranked (doc_id, score) pairs
    ...     return [("d1", 2.0), ("d2", 1.0)] if "tea" in text else [("d2", 1.0)]
    >>> retriever = as_retriever(search, per_query=True)
    >>> retriever({"q1": "green tea", "q2": "coffee"})
      query_id doc_id  score
    0       q1     d1    2.0
    1       q1     d2    1.0
    2       q2     d2    1.0
    >>> as_retriever(lambda queries: {q: ["d1"] for q in queries})({"q1": "tea"})["doc_id"].tolist()
    ['d1']
    >>> as_retriever(search)({"q1": "tea"})
    Traceback (most recent call last):
    ...
    reteval.retrievers.contract.RetrieverError: retriever 'search' did not return a run: ...
    """
    method = getattr(obj, "run", None)
    if callable(method):
        target, per_query = method, False
    elif callable(obj):
        target = obj
    else:
        raise InputError("a retriever must have a run(queries) method or be callable; "
                         f"got {type(obj).__name__}")
    label = _label(obj, name)

    def retrieve(queries: Mapping[str, str]) -> pd.DataFrame:
        from reteval.io import as_run

        if not isinstance(queries, (Mapping, pd.Series)) or not all(
                isinstance(text, str) for text in queries.values()):
            raise InputError("queries must be a mapping query_id -> text; "
                             f"got {type(queries).__name__}")
        queries = {str(qid): text for qid, text in queries.items()}
        try:
            run = _pairs_run(target, queries, label) if per_query else target(dict(queries))
        except RetrieverError:
            raise
        except (Exception, SystemExit) as exc:  # SystemExit too: reteval exits, not the user's code
            raise RetrieverError(
                f"retriever {label!r} raised {type(exc).__name__}: {one_line(exc)}") from exc
        try:
            return as_run(run)
        except Exception as exc:  # noqa: BLE001 - whatever it returned, it is not a run
            raise RetrieverError(
                f"retriever {label!r} did not return a run: {one_line(exc)}") from None

    retrieve.name = label  # adapting the adapter keeps the name
    return retrieve
