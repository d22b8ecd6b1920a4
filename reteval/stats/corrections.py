"""Corrections for multiple comparisons: Holm, Bonferroni, Benjamini-Hochberg."""

from __future__ import annotations

import numpy as np

from reteval.errors import InputError

__all__ = [
    "CORRECTIONS",
    "adjust_pvalues",
    "canonical_correction",
]


#: Canonical correction names and their accepted aliases.
CORRECTIONS: dict[str, str] = {
    "holm": "holm",
    "bonferroni": "bonferroni",
    "bh": "bh",
    "fdr_bh": "bh",
    "benjamini-hochberg": "bh",
    "none": "none",
}


def canonical_correction(correction: str) -> str:
    """The canonical name of a correction (see :data:`CORRECTIONS`), or a clear error.

    Examples
    --------
    >>> canonical_correction("FDR_BH")
    'bh'
    """
    key = correction.lower() if isinstance(correction, str) else None
    if key not in CORRECTIONS:
        raise InputError(f"correction must be one of {sorted(CORRECTIONS)}; got {correction!r}")
    return CORRECTIONS[key]


def adjust_pvalues(pvalues, *, method: str = "holm") -> np.ndarray:
    """Adjust a family of p-values for multiple comparisons.

    - ``"holm"`` (default): Holm's step-down method; controls the
      family-wise error rate under any dependence, and is uniformly more
      powerful than Bonferroni.
    - ``"bonferroni"``: ``min(1, m * p)``.
    - ``"bh"`` (aliases ``"fdr_bh"``, ``"benjamini-hochberg"``):
      Benjamini-Hochberg step-up; controls the false discovery rate for
      independent or positively dependent tests.
    - ``"none"``: the p-values unchanged.

    A hypothesis is rejected at level ``alpha`` when its adjusted p-value is
    ``<= alpha``. The results agree with
    ``statsmodels.stats.multitest.multipletests(p, method=...)[1]``
    (``method`` ``"holm"``, ``"bonferroni"``, ``"fdr_bh"``). NaN p-values
    (e.g. a t test between identical systems) stay NaN and do not count in
    the family size ``m``.

    Parameters
    ----------
    pvalues : array_like
        The family's p-values, any shape.
    method : str, keyword-only

    Returns
    -------
    numpy.ndarray
        Adjusted p-values, same shape as ``pvalues``.

    Examples
    --------
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.005])
    array([0.03, 0.06, 0.06, 0.02])
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.005], method="bh")
    array([0.02, 0.04, 0.04, 0.02])
    """
    key = method.lower() if isinstance(method, str) else None
    if key not in CORRECTIONS:
        raise InputError(f"method must be one of {sorted(CORRECTIONS)}; got {method!r}")
    key = CORRECTIONS[key]
    try:
        p = np.array(pvalues, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"pvalues must be numbers; got {pvalues!r:.80}") from exc
    finite = ~np.isnan(p)
    if np.any((p[finite] < 0) | (p[finite] > 1)):
        bad = p[finite][(p[finite] < 0) | (p[finite] > 1)][0]
        raise InputError(f"pvalues must lie in [0, 1]; got {bad}")
    out = p.copy()
    vals = p[finite]
    m = vals.size
    if m == 0 or key == "none":
        return out
    order = np.argsort(vals, kind="mergesort")
    sorted_p = vals[order]
    if key == "bonferroni":
        adj_sorted = np.minimum(1.0, sorted_p * m)
    elif key == "holm":
        adj_sorted = np.minimum(1.0, np.maximum.accumulate(sorted_p * (m - np.arange(m))))
    else:  # bh
        ranks = np.arange(1, m + 1)
        adj_sorted = np.minimum(1.0, np.minimum.accumulate((sorted_p * m / ranks)[::-1])[::-1])
    adjusted = np.empty(m)
    adjusted[order] = adj_sorted
    out[finite] = adjusted
    return out
