"""Measures against their cutoff K: ``P@1, P@2, ...`` as a curve, one per system.

The one place that turns measure families and cutoffs into curves, used by the
K-curve explorer (:mod:`reteval.widgets`), the comparison figures
(:mod:`reteval.report.figures`) and the notebooks; :func:`recall_levels` does the same
for the recall levels of ``IPrec@r`` (the precision-recall curve).

>>> curves = measure_curves({"q": {"a": 1, "b": 1}}, {"s": {"q": {"a": 2.0, "x": 1.0}}},
...                         ["P", "R"], [1, 2])
>>> curves[("P", "s")].tolist(), curves[("R", "s")].tolist()
([1.0, 0.5], [0.5, 0.5])
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from reteval.errors import InputError, UnknownMeasureError
from reteval.evaluation.engine import evaluate
from reteval.io import as_qrels, as_run
from reteval.measures import parse_measure

__all__ = ["cutoff_groups", "measure_curves", "recall_levels"]


def cutoff_groups(measures) -> dict[str, list[tuple[int, str]]]:
    """Measure names grouped by family, for the families present at two or more cutoffs.

    Names that are not measures, and the recall levels of ``IPrec@0.1`` (not a
    rank cutoff), are left out.

    Returns
    -------
    dict
        Family -> sorted list of ``(cutoff, measure name)``.

    Examples
    --------
    >>> cutoff_groups(["P@10", "P@5", "RR", "nDCG@10", "total"])
    {'P': [(5, 'P@5'), (10, 'P@10')]}
    """
    groups: dict[str, list[tuple[int, str]]] = {}
    for spec, name in _parsed(measures):
        if spec.cutoff is not None and spec.family != "IPrec":
            groups.setdefault(spec.family, []).append((spec.cutoff, name))
    return {family: sorted(items) for family, items in groups.items() if len(items) >= 2}


def recall_levels(measures) -> list[tuple[float, str]]:
    """The recall levels of the ``IPrec@r`` measures among ``measures``, sorted.

    Names that are not measures are left out.

    Returns
    -------
    list
        Sorted ``(recall level, measure name)`` pairs.

    Examples
    --------
    >>> recall_levels(["IPrec@0.5", "P@10", "IPrec@0.1", "total"])
    [(0.1, 'IPrec@0.1'), (0.5, 'IPrec@0.5')]
    """
    return sorted((spec.cutoff, name) for spec, name in _parsed(measures)
                  if spec.family == "IPrec")


def _parsed(measures):
    """``(spec, name)`` for every name of ``measures`` that is a measure."""
    for name in measures:
        try:
            yield parse_measure(name), name
        except UnknownMeasureError:
            continue


def _check_ks(ks) -> list[int]:
    if isinstance(ks, (str, bytes)) or not isinstance(ks, (list, tuple, range)) or not ks or any(
            isinstance(k, bool) or not isinstance(k, int) or k < 1 for k in ks):
        raise InputError(f"ks must be a non-empty sequence of positive integers; got {ks!r}")
    return sorted(set(ks))


def _check_families(families) -> list[str]:
    families = [families] if isinstance(families, str) else list(families)
    if not families:
        raise InputError("families must name at least one measure family; got []")
    for family in families:
        if parse_measure(f"{family}@1").cutoff is None:
            raise InputError(f"measure family {family!r} takes no cutoff K")
    return list(dict.fromkeys(families))


def measure_curves(qrels, runs, families, ks, *, relevance_level: int = 1) -> pd.DataFrame:
    """Mean of each measure family at every cutoff of ``ks``, for every system.

    Parameters
    ----------
    qrels : qrels
        Any form :func:`reteval.io.as_qrels` takes.
    runs : mapping of str to run
        System name -> run (any form :func:`reteval.io.as_run` takes).
    families : str or sequence of str
        Measure families that take a cutoff: ``"P"``, ``"R"``, ``"nDCG"``, ``"AP"`` ...
    ks : sequence of int
        Cutoffs; sorted, duplicates dropped.
    relevance_level : int, default 1
        As in :func:`reteval.evaluate`.

    Returns
    -------
    pandas.DataFrame
        Index ``K`` (the sorted cutoffs); columns a MultiIndex ``(family, system)``;
        each value the mean over queries of :func:`reteval.evaluate`'s
        ``family@K``.

    Examples
    --------
    >>> curves = measure_curves({"q": {"a": 1}}, {"s": {"q": ["x", "a"]}}, "AP", [1, 2, 5])
    >>> curves["AP"]["s"].tolist()
    [0.0, 0.5, 0.5]
    """
    families = _check_families(families)
    ks = _check_ks(ks)
    if not isinstance(runs, Mapping) or not runs:
        raise InputError(f"runs must be a non-empty mapping of system name -> run; got {runs!r}")
    qrels = as_qrels(qrels)
    names = [f"{family}@{k}" for family in families for k in ks]
    columns = {}
    for system, run in runs.items():
        means = evaluate(qrels, as_run(run), names, relevance_level=relevance_level).mean()
        for family in families:
            columns[(family, str(system))] = [float(means[f"{family}@{k}"]) for k in ks]
    frame = pd.DataFrame(columns, index=pd.Index(ks, name="K"))
    frame.columns = pd.MultiIndex.from_tuples(list(columns), names=["family", "system"])
    return frame
