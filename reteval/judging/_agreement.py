"""Agreement between assessors: Cohen's and Fleiss' kappa, Krippendorff's alpha.

Labels are categories (relevance grades). Two assessors' labels come as two
sequences of the same length, or as two qrels (qrels files, tables or dicts,
aligned on the (query, document) pairs both judged). Several assessors' labels
come as a *ratings* table: one row per (query, document) item, one column per
assessor, NaN where an assessor gave no label (:func:`ratings_table` builds it
from qrels, given as a mapping name -> qrels or a list of qrels files).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from reteval.errors import InputError

__all__ = [
    "cohen_kappa",
    "confusion_matrix",
    "fleiss_kappa",
    "krippendorff_alpha",
    "ratings_table",
]

_WEIGHTS = (None, "linear", "quadratic")
_LEVELS = ("nominal", "ordinal", "interval")


def _is_qrels(obj) -> bool:
    if isinstance(obj, (pd.DataFrame, str, os.PathLike)):
        return True
    if hasattr(obj, "__arrow_c_stream__") and hasattr(obj, "columns"):
        return True  # another library's table (a Series or an Arrow column has no columns)
    return isinstance(obj, Mapping) and all(isinstance(v, Mapping) for v in obj.values())


def _qrels_series(qrels, name: str) -> pd.Series:
    from reteval.io import as_qrels

    frame = as_qrels(qrels)
    index = pd.MultiIndex.from_arrays(
        [frame["query_id"].astype(str), frame["doc_id"].astype(str)], names=["query_id", "doc_id"]
    )
    return pd.Series(frame["relevance"].to_numpy(dtype=float), index=index, name=name)


def _named(assessors) -> dict:
    """A list of qrels as a mapping: named by file name (stem) when every one is a file."""
    if isinstance(assessors, Mapping):
        return dict(assessors)
    if isinstance(assessors, (str, bytes, os.PathLike)) or not isinstance(assessors,
                                                                          (list, tuple)):
        raise InputError("agreement needs the labels of at least two assessors: a mapping of "
                         "assessor name to qrels, or a list of qrels files; got "
                         f"{type(assessors).__name__}")
    files = all(isinstance(a, (str, os.PathLike)) for a in assessors)
    names = [f"assessor {i}" for i in range(1, len(assessors) + 1)]
    if files:
        for candidate in ([Path(a).stem for a in assessors], [str(a) for a in assessors]):
            if len(set(candidate)) == len(candidate):
                names = candidate
                break
    return dict(zip(names, assessors, strict=True))


def ratings_table(assessors) -> pd.DataFrame:
    """One row per judged (query, document), one column per assessor, NaN where missing.

    Parameters
    ----------
    assessors : mapping of str to qrels, or list of qrels
        Assessor name -> that assessor's judgments, in any form
        :func:`reteval.io.as_qrels` takes (a qrels file's path, a table, a
        dict). A list of qrels files names each column by its file name without
        the extension (the whole path if two share one; ``assessor 1``, ... for
        qrels that are not files).

    Returns
    -------
    pandas.DataFrame
        Indexed by (``query_id``, ``doc_id``), sorted; float columns (NaN is missing).

    Raises
    ------
    InputError
        Fewer than two assessors.

    Examples
    --------
    >>> ratings_table({"ann": {"q1": {"d1": 2, "d2": 0}}, "bob": {"q1": {"d1": 1}}})
                     ann  bob
    query_id doc_id
    q1       d1      2.0  1.0
             d2      0.0  NaN
    """
    assessors = _named(assessors)
    if len(assessors) < 2:
        raise InputError(
            f"agreement needs the labels of at least two assessors; got {len(assessors)}")
    columns = [_qrels_series(q, str(name)) for name, q in assessors.items()]
    return pd.concat(columns, axis=1).sort_index()


def _as_ratings(ratings) -> pd.DataFrame:
    if isinstance(ratings, (Mapping, list, tuple)):
        return ratings_table(ratings)
    if not isinstance(ratings, pd.DataFrame):
        raise InputError(
            "ratings must be a DataFrame (one row per item, one column per assessor), a "
            f"mapping of assessor name to qrels or a list of qrels files; got "
            f"{type(ratings).__name__}"
        )
    if ratings.shape[1] < 2:
        raise InputError(
            f"agreement needs the labels of at least two assessors; the ratings have "
            f"{ratings.shape[1]} column(s): {list(ratings.columns)}"
        )
    try:
        values = ratings.astype(float)
    except (TypeError, ValueError) as exc:
        raise InputError(f"ratings must be numbers (NaN where missing): {exc}") from None
    return values


def _check_integers(values: np.ndarray, what: str, where=None) -> None:
    """Raise unless every non-missing label is a whole number."""
    present = values[~np.isnan(values)]
    bad = present != np.round(present)
    if bad.any():
        value = present[bad][0]
        place = "" if where is None else f" ({where(value)})"
        raise InputError(
            f"{what} needs integer category labels (relevance grades); got {value!r}{place}"
        )


def _pairs(a, b) -> tuple[np.ndarray, np.ndarray]:
    """Two assessors' labels as two aligned float arrays (NaN-free)."""
    if _is_qrels(a) or _is_qrels(b):
        if not (_is_qrels(a) and _is_qrels(b)):
            raise InputError("give both assessors as qrels, or both as sequences of labels")
        table = ratings_table({"a": a, "b": b}).dropna()
        if table.empty:
            raise InputError("the two qrels have no judged (query, document) pair in common")
        return table["a"].to_numpy(), table["b"].to_numpy()
    try:
        x = np.asarray(a, dtype=float).ravel()
        y = np.asarray(b, dtype=float).ravel()
    except (TypeError, ValueError) as exc:
        raise InputError(f"labels must be numbers: {exc}") from None
    if len(x) != len(y):
        raise InputError(
            f"the two assessors label different numbers of items: {len(x)} and {len(y)}"
        )
    keep = ~(np.isnan(x) | np.isnan(y))
    if not keep.any():
        raise InputError("no item has a label from both assessors")
    return x[keep], y[keep]


def _categories(x: np.ndarray, y: np.ndarray, labels) -> np.ndarray:
    if labels is None:
        return np.union1d(x, y)
    cats = np.asarray(labels, dtype=float)
    if len(np.unique(cats)) != len(cats):
        raise InputError(f"labels must not repeat; got {list(labels)}")
    outside = np.setdiff1d(np.union1d(x, y), cats)
    if len(outside):
        raise InputError(f"label {outside[0]:g} is not among labels={list(labels)}")
    return cats


def _contingency(x: np.ndarray, y: np.ndarray, cats: np.ndarray) -> np.ndarray:
    i = np.searchsorted(cats, x) if np.all(np.diff(cats) > 0) else _index(cats, x)
    j = np.searchsorted(cats, y) if np.all(np.diff(cats) > 0) else _index(cats, y)
    table = np.zeros((len(cats), len(cats)), dtype=np.int64)
    np.add.at(table, (i, j), 1)
    return table


def _index(cats: np.ndarray, values: np.ndarray) -> np.ndarray:
    position = {c: k for k, c in enumerate(cats)}
    return np.array([position[v] for v in values], dtype=np.int64)


def confusion_matrix(a, b, *, labels=None) -> pd.DataFrame:
    """How often assessor ``a`` gave each label when ``b`` gave each label.

    Parameters
    ----------
    a, b : sequence of int, or qrels
        Two assessors' labels of the same items (NaN: no label; such items are
        left out), or two qrels (a qrels file's path, a table or a dict),
        compared on the pairs both judged.
    labels : sequence of int, optional
        The categories, in order (default: every label either assessor gave, sorted).

    Returns
    -------
    pandas.DataFrame
        Rows: ``a``'s labels; columns: ``b``'s labels; cells: item counts.

    Examples
    --------
    >>> confusion_matrix([0, 1, 2, 2], [0, 2, 2, 1])
    b  0  1  2
    a
    0  1  0  0
    1  0  0  1
    2  0  1  1
    """
    x, y = _pairs(a, b)
    _check_integers(np.concatenate([x, y]), "a confusion matrix")
    cats = _categories(x, y, labels)
    names = [int(c) for c in cats]
    table = _contingency(x, y, cats)
    return pd.DataFrame(table, index=pd.Index(names, name="a"), columns=pd.Index(names, name="b"))


def cohen_kappa(a, b, *, weights: str | None = None, labels=None) -> float:
    """Cohen's kappa between two assessors: agreement beyond chance.

    ``kappa = 1 - sum(w * observed) / sum(w * expected)``, with ``expected`` the
    table the two assessors' label frequencies give by chance; equal to
    scikit-learn's ``cohen_kappa_score``. Weights count the distance between
    categories by their *position* in ``labels`` (as scikit-learn does): pass
    ``labels=[0, 1, 2, 3]`` to keep the grade scale when a grade is never used.

    Parameters
    ----------
    a, b : sequence of int, or qrels
        Two assessors' labels of the same items (NaN: no label; items without
        both labels are left out), or two qrels (a qrels file's path, a table or
        a dict), compared on the pairs both judged.
    weights : {None, "linear", "quadratic"}, default None
        None: every disagreement counts 1. "linear": by how many grades apart;
        "quadratic": by the square of it (for ordered grades).
    labels : sequence of int, optional
        The categories (default: every label either assessor gave, sorted).

    Returns
    -------
    float
        1 for perfect agreement, 0 for chance agreement, below 0 for worse than chance.

    Raises
    ------
    InputError
        Labels that are not integers, unknown ``weights``, no item labelled by both,
        or only one category used by both (kappa is undefined).

    References
    ----------
    J. Cohen (1960), "A coefficient of agreement for nominal scales"; J. Cohen (1968),
    "Weighted kappa".

    Examples
    --------
    >>> round(cohen_kappa([0, 1, 2, 2, 3], [0, 1, 2, 3, 3]), 4)
    0.7368
    >>> round(cohen_kappa([0, 1, 2, 2, 3], [0, 1, 2, 3, 3], weights="quadratic"), 4)
    0.918
    """
    if weights not in _WEIGHTS:
        raise InputError(f"weights must be None, 'linear' or 'quadratic'; got {weights!r}")
    x, y = _pairs(a, b)
    _check_integers(np.concatenate([x, y]), "Cohen's kappa")
    cats = _categories(x, y, labels)
    observed = _contingency(x, y, cats).astype(float)
    n = len(cats)
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / observed.sum()
    position = np.arange(n)
    distance = np.abs(position[:, None] - position[None, :]).astype(float)
    if weights is None:
        w = (distance > 0).astype(float)
    elif weights == "linear":
        w = distance
    else:
        w = distance**2
    chance = float((w * expected).sum())
    if chance == 0:
        raise InputError(
            "Cohen's kappa is undefined when both assessors use one and the same single label "
            f"({int(x[0])} for all {len(x)} items)"
        )
    return float(1 - (w * observed).sum() / chance)


def fleiss_kappa(ratings) -> float:
    """Fleiss' kappa: agreement beyond chance of any number of assessors.

    Every item must carry the same number of labels, so items with a missing
    label are left out (:func:`krippendorff_alpha` uses them). Equal to
    statsmodels' ``fleiss_kappa(aggregate_raters(...)[0])``.

    Parameters
    ----------
    ratings : DataFrame, mapping of str to qrels, or list of qrels
        One row per item, one column per assessor, NaN where missing; or
        assessor name -> qrels, or a list of qrels files (see :func:`ratings_table`).

    Returns
    -------
    float

    Raises
    ------
    InputError
        Fewer than two assessors, labels that are not integers, no item that
        every assessor labelled, or a single label throughout.

    References
    ----------
    J. L. Fleiss (1971), "Measuring nominal scale agreement among many raters".

    Examples
    --------
    >>> import pandas as pd
    >>> r = pd.DataFrame({"a": [1, 0, 1, 1], "b": [1, 0, 0, 1], "c": [1, 0, 1, 1]})
    >>> round(fleiss_kappa(r), 4)
    0.625
    """
    table = _as_ratings(ratings)
    values = table.to_numpy()
    _check_integers(values, "Fleiss' kappa")
    complete = values[~np.isnan(values).any(axis=1)]
    if len(complete) == 0:
        raise InputError("Fleiss' kappa needs items labelled by every assessor; there are none")
    cats = np.unique(complete)
    counts = np.stack([(complete == c).sum(axis=1) for c in cats], axis=1).astype(float)
    raters = complete.shape[1]
    items = len(complete)
    p_cat = counts.sum(axis=0) / (items * raters)
    p_item = ((counts**2).sum(axis=1) - raters) / (raters * (raters - 1))
    chance = float((p_cat**2).sum())
    if chance == 1:
        raise InputError(f"Fleiss' kappa is undefined: every label is {int(cats[0])}")
    return float((p_item.mean() - chance) / (1 - chance))


def krippendorff_alpha(ratings, *, level: str = "nominal") -> float:
    """Krippendorff's alpha: agreement of any number of assessors, missing labels allowed.

    ``alpha = 1 - D_o / D_e``: observed disagreement over the disagreement
    expected by chance, both computed from the coincidence matrix of the values
    paired within items. Items with fewer than two labels carry no pair and do
    not count. Equal to the ``krippendorff`` package's ``alpha``.

    Parameters
    ----------
    ratings : DataFrame, mapping of str to qrels, or list of qrels
        One row per item, one column per assessor, NaN where missing; or
        assessor name -> qrels, or a list of qrels files (see :func:`ratings_table`).
    level : {"nominal", "ordinal", "interval"}, default "nominal"
        The level of measurement: which differences count as how large.
        "nominal": any two labels differ by 1; "ordinal": by the number of
        labels given between them (their ranks); "interval": by the squared
        difference of the values.

    Returns
    -------
    float

    Raises
    ------
    InputError
        Fewer than two assessors, an unknown level, non-integer labels at the
        nominal or ordinal level, no item with two labels, or one value throughout.

    References
    ----------
    K. Krippendorff (2011), "Computing Krippendorff's alpha-reliability".

    Examples
    --------
    >>> import pandas as pd
    >>> r = pd.DataFrame({"a": [1, 2, 3, None], "b": [1, 2, 2, 3], "c": [1, 3, 3, 3]})
    >>> round(krippendorff_alpha(r), 4)
    0.4872
    """
    if level not in _LEVELS:
        raise InputError(f"level must be one of {list(_LEVELS)}; got {level!r}")
    values = _as_ratings(ratings).to_numpy()
    if level != "interval":
        _check_integers(values, f"Krippendorff's alpha at the {level} level")
    cats = np.unique(values[~np.isnan(values)])
    index = {c: k for k, c in enumerate(cats)}
    coincidence = np.zeros((len(cats), len(cats)))
    for row in values:
        present = row[~np.isnan(row)]
        m = len(present)
        if m < 2:
            continue
        counts = np.zeros(len(cats))
        for v in present:
            counts[index[v]] += 1
        coincidence += (np.outer(counts, counts) - np.diag(counts)) / (m - 1)
    n_c = coincidence.sum(axis=1)
    n = n_c.sum()
    if n == 0:
        raise InputError("Krippendorff's alpha needs at least one item with two labels")
    if level == "nominal":
        delta = 1.0 - np.eye(len(cats))
    elif level == "interval":
        delta = (cats[:, None] - cats[None, :]) ** 2
    else:
        cum = np.cumsum(n_c)
        low = np.minimum.outer(np.arange(len(cats)), np.arange(len(cats)))
        high = np.maximum.outer(np.arange(len(cats)), np.arange(len(cats)))
        between = cum[high] - cum[low] + n_c[low]
        delta = (between - (n_c[:, None] + n_c[None, :]) / 2) ** 2
    expected = float((np.outer(n_c, n_c) * delta).sum())
    if expected == 0:
        raise InputError(f"Krippendorff's alpha is undefined: every label is {cats[0]:g}")
    return float(1 - (n - 1) * (coincidence * delta).sum() / expected)
