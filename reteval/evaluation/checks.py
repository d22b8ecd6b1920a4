"""The checks every engine applies: the measures, the relevance level, the missing-queries
policy and trec_eval's ranking options (shared by the in-memory, Dask and preference engines)."""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Iterable, Mapping

from reteval.errors import InputError, outside_stacklevel
from reteval.io.textfile import INT64_MAX
from reteval.measures import measure_columns

__all__ = ["MISSING_POLICIES", "FractionalGradesWarning", "MissingQueriesWarning",
           "check_arguments", "check_missing", "check_trec_options", "relevance_level_value",
           "warn_fractional_grades"]

MISSING_POLICIES = ("zero", "skip", "error")


class FractionalGradesWarning(UserWarning):
    """Fractional grades evaluated at the default relevance level of 1."""


def warn_fractional_grades(grades, relevance_level, columns) -> None:
    """Warn once when ``grades`` hold a fraction, ``relevance_level`` is 1 and a measure
    takes its level from it: grades below 1 then count as not relevant.

    Examples
    --------
    >>> import numpy as np, warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_fractional_grades(np.array([0.2, 0.9]), 1, measure_columns(["P@5"]))
    >>> "relevance_level" in str(caught[0].message)
    True
    """
    from reteval.io.grades import is_fractional

    if relevance_level != 1 or not is_fractional(grades):
        return
    if all(getattr(spec, "rel", None) is not None for _, spec in columns):
        return
    warnings.warn(
        "the grades are fractional and relevance_level is 1: grades below 1 count as not "
        "relevant in binary measures (P, AP, RR, R...); pass relevance_level= (for example "
        "0.5) to say which grades are relevant. nDCG and DCG use the grades as gains.",
        FractionalGradesWarning,
        stacklevel=outside_stacklevel(),
    )


class MissingQueriesWarning(UserWarning):
    """Judged queries had no results in the run and were scored 0."""


def _describe(ids, limit=10) -> str:
    ids = sorted(ids)
    shown = ", ".join(repr(i) for i in ids[:limit])
    return shown + (f" and {len(ids) - limit} more" if len(ids) > limit else "")


def check_missing(absent, missing: str, judged=None, answered: int | None = None) -> None:
    """Apply the ``missing`` policy to judged queries absent from the run.

    Raises for ``"error"``, warns (:class:`MissingQueriesWarning`) for ``"zero"``;
    ``"skip"`` says nothing, unless it skips every judged query (``judged``, when
    given): then no query is evaluated and every mean is NaN, which it warns about.
    When no judged query has results, the message says why that may be: an empty run
    (``answered``, the number of queries the run answers, is 0) or query ids that are
    not the judgments' (``answered`` > 0); either when ``answered`` is not known.
    """
    if not absent:
        return
    n, ids = len(absent), _describe(absent)
    if judged is None or n < len(judged):
        have = "judged query has" if n == 1 else "judged queries have"
        if missing == "error":
            raise InputError(f"{n} {have} no results in the run: {ids} (missing 'zero' scores "
                             "them 0, 'skip' leaves them out)")
        if missing == "zero":
            warnings.warn(f"{n} {have} no results in the run and score{'s' * (n == 1)} 0: "
                          f"{ids}", MissingQueriesWarning, stacklevel=outside_stacklevel())
        return
    if answered == 0:
        said = "the run is empty"
    else:
        said = "no judged query has results in the run (" + (
            "do the run's query ids match the judgments'?)" if answered else
            "is the run empty, or are its query ids not the judgments'?)")
    if missing == "error":
        raise InputError(f"{said}; judged queries without results: {ids} (missing 'zero' "
                         "scores them 0, 'skip' leaves them out)")
    each = "the judged query" if n == 1 else f"all {n} judged queries"
    if missing == "zero":
        said += f"; {each} score{'s' * (n == 1)} 0: {ids}"
    else:
        said += (f"; {each} {'is' if n == 1 else 'are'} skipped (missing 'skip'), so nothing "
                 f"is evaluated and every mean is NaN: {ids}")
    warnings.warn(said, MissingQueriesWarning, stacklevel=outside_stacklevel())


def check_arguments(measures, relevance_level, missing) -> list:
    """Check :func:`evaluate`'s options; return the ``(label, measure)`` columns.

    ``measures`` are names, parsed here (:func:`reteval.measures.measure_columns`), or the
    columns of an earlier call as a mapping ``{label: Measure}``, taken as they are.

    ``relevance_level`` (and a measure's ``rel=``) must be a finite number from 0
    (an integer up to 2**63 - 1, or a fraction such as 0.5 for fractional grades). A
    negative level is refused: negative judgments mean "in the pool but not judged"
    (trec_eval), so they can never count as relevant.
    """
    if missing not in MISSING_POLICIES:
        raise InputError(f"missing must be one of {MISSING_POLICIES}; got {missing!r}")
    relevance_level_value(relevance_level)
    if measures is None or not (isinstance(measures, str) or hasattr(measures, "__iter__")
                                or hasattr(measures, "family")):
        raise InputError("measures must be a measure name or a list of names such as "
                         f"['nDCG@10', 'AP']; got {measures!r}")
    if not isinstance(measures, (str, Mapping)) and isinstance(measures, Iterable):
        measures = list(measures)
        odd = [m for m in measures if not isinstance(m, str) and not hasattr(m, "family")
               and type(m).__module__.partition(".")[0] != "ir_measures"]
        if odd:
            raise InputError(f"a measure must be a name such as 'nDCG@10'; got {odd[0]!r}")
    columns = measure_columns(measures)
    for label, spec in columns:
        rel = getattr(spec, "rel", None)
        if rel is not None and not 0 <= rel <= INT64_MAX:
            raise InputError(f"measure {label!r}: rel must be from 0 to {INT64_MAX} (negative "
                             f"judgments are never relevant); got {rel}")
    return columns


def relevance_level_value(relevance_level) -> int | float:
    """``relevance_level`` checked: an ``int`` when it is a whole number, else a ``float``.

    Examples
    --------
    >>> relevance_level_value(2), relevance_level_value(0.5), relevance_level_value(1.0)
    (2, 0.5, 1)
    >>> relevance_level_value(-1)
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: relevance_level must be from 0 to 9223372036854775807 \
(negative judgments are never relevant); got -1
    """
    if isinstance(relevance_level, bool) or not isinstance(relevance_level, numbers.Real):
        raise InputError(f"relevance_level must be a number; got {relevance_level!r}")
    value: float
    if isinstance(relevance_level, numbers.Integral):
        value = int(relevance_level)
    else:
        number = float(relevance_level)
        if not math.isfinite(number):
            raise InputError(f"relevance_level must be finite; got {relevance_level!r}")
        value = int(number) if number.is_integer() and abs(number) <= INT64_MAX else number
    if not 0 <= value <= INT64_MAX:
        raise InputError(f"relevance_level must be from 0 to {INT64_MAX} (negative judgments "
                         f"are never relevant); got {relevance_level!r}")
    return value



def check_trec_options(judged_only, max_docs, num_docs) -> None:
    """Check trec_eval's ``-J`` (``judged_only``), ``-M`` (``max_docs``) and ``-N``
    (``num_docs``) options."""
    if not isinstance(judged_only, bool):
        raise InputError(f"judged_only must be True or False; got {judged_only!r}")
    for name, value in (("max_docs", max_docs), ("num_docs", num_docs)):
        if value is None and name == "max_docs":
            continue
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
            raise InputError(f"{name} must be a non-negative integer; got {value!r}")


