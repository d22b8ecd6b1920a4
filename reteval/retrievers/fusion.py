"""Rank fusion: combine several runs for the same queries into one run.

A *run* is a DataFrame with columns ``query_id``, ``doc_id`` and ``score``
(as produced by the retrievers' ``run`` or read by ``reteval.io.read_run``).
Three classic ways to fuse runs are provided:

* **Reciprocal rank fusion** (Cormack, Clarke and Büttcher, 2009) uses ranks
  only: a document gets :math:`\\sum_i w_i / (k + r_i(d))` over the runs
  :math:`i` that retrieved it at rank :math:`r_i(d)` (1 = top), with
  :math:`k = 60` by default. It needs no score calibration.
* **CombSUM** adds the documents' normalised scores over the runs;
* **CombMNZ** multiplies that sum by the number of runs that retrieved the
  document (Fox and Shaw, 1994).

Conventions, decided once:

* Ranks within a run follow trec_eval's order: score descending, ties broken
  by doc id descending.
* Normalisation is per run and per query. ``"minmax"`` maps scores to
  :math:`(s - \\min)/(\\max - \\min)`; when all of a query's scores are equal
  they all become 1. ``"zscore"`` maps them to :math:`(s - \\mu)/\\sigma`
  (population standard deviation); when :math:`\\sigma = 0` they become 0.
  ``None`` keeps raw scores.
* A document a run did not retrieve contributes nothing (0) to the sum. With
  ``"zscore"`` that is the score of an average document, not of a bad one.
* The fused run lists the queries in order of first appearance (first run
  first) and, within a query, documents by fused score descending, ties by doc
  id descending.

References
----------
G. V. Cormack, C. L. A. Clarke, S. Büttcher (2009). Reciprocal rank fusion
outperforms Condorcet and individual rank learning methods. SIGIR.

E. A. Fox, J. A. Shaw (1994). Combination of multiple searches. TREC-2.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from reteval.errors import InputError
from reteval.io.frames import arrow_table_frame

__all__ = [
    "FUSION_METHODS",
    "NORMALIZATIONS",
    "comb_mnz",
    "comb_sum",
    "fuse",
    "normalize_scores",
    "reciprocal_rank_fusion",
]

FUSION_METHODS = ("rrf", "combsum", "combmnz")
NORMALIZATIONS = ("minmax", "zscore", None)


def _check_run(run, label: str) -> pd.DataFrame:
    run = arrow_table_frame(run)  # another library's table, as pandas
    if not isinstance(run, pd.DataFrame):
        raise InputError(f"{label} must be a pandas DataFrame; got {type(run).__name__}")
    missing = {"query_id", "doc_id", "score"} - set(run.columns)
    if missing:
        raise InputError(
            f"{label} must have columns 'query_id', 'doc_id', 'score'; missing {sorted(missing)}"
        )
    try:
        score = run["score"].to_numpy(dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{label}: scores must be numbers ({exc})") from None
    bad = ~np.isfinite(score)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(f"{label}: scores must be finite; got {float(score[i])!r} at row {i}")
    out = pd.DataFrame(
        {
            "query_id": run["query_id"].astype("str").to_numpy(dtype=object),
            "doc_id": run["doc_id"].astype("str").to_numpy(dtype=object),
            "score": score,
        }
    )
    dup = out.duplicated(["query_id", "doc_id"])
    if dup.any():
        q, d = out.loc[dup.idxmax(), ["query_id", "doc_id"]]
        raise InputError(f"{label}: document {d!r} appears more than once for query {q!r}")
    return out


def _check_runs(runs, weights) -> tuple[list[pd.DataFrame], np.ndarray]:
    if isinstance(runs, pd.DataFrame):
        raise InputError("runs must be a sequence or mapping of run DataFrames; got one DataFrame")
    if isinstance(runs, Mapping):
        labels = [f"run {name!r}" for name in runs]
        runs = list(runs.values())
    elif isinstance(runs, Sequence):
        labels = [f"runs[{i}]" for i in range(len(runs))]
        runs = list(runs)
    else:
        raise InputError(
            f"runs must be a sequence or mapping of DataFrames; got {type(runs).__name__}"
        )
    if not runs:
        raise InputError("runs must hold at least one run; got none")
    checked = [_check_run(r, label) for r, label in zip(runs, labels, strict=True)]
    if weights is None:
        w = np.ones(len(checked))
    else:
        w = np.asarray(weights, dtype=np.float64)
        if w.shape != (len(checked),) or not np.all(np.isfinite(w)) or np.any(w < 0):
            raise InputError(
                f"weights must be {len(checked)} finite non-negative numbers, one per run; "
                f"got {weights!r}"
            )
    return checked, w


def _check_depth(depth):
    if depth is None:
        return None
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 1:
        raise InputError(f"depth must be None or a positive integer; got {depth!r}")
    return int(depth)


def _ranked(run: pd.DataFrame, depth: int | None) -> pd.DataFrame:
    """Sort a checked run into trec_eval order, add 1-based ranks, cut at depth."""
    qcode = pd.factorize(run["query_id"])[0]
    run = run.assign(_q=qcode).sort_values(
        ["_q", "score", "doc_id"], ascending=[True, False, False], kind="stable"
    )
    rank = run.groupby("_q", sort=False).cumcount().to_numpy() + 1
    run = run.assign(rank=rank).drop(columns="_q")
    if depth is not None:
        run = run[run["rank"] <= depth]
    return run


def normalize_scores(run: pd.DataFrame, *, method: str | None = "minmax") -> pd.DataFrame:
    """Normalise a run's scores per query.

    Parameters
    ----------
    run : pandas.DataFrame
        Columns ``query_id``, ``doc_id``, ``score``.
    method : {"minmax", "zscore", None}, default "minmax"
        See the module notes; ``None`` returns the scores unchanged.

    Returns
    -------
    pandas.DataFrame
        A new run with the same rows and normalised ``score`` (float64).

    Examples
    --------
    >>> run = pd.DataFrame({"query_id": ["q", "q", "q"], "doc_id": ["a", "b", "c"],
    ...                     "score": [3.0, 2.0, 1.0]})
    >>> normalize_scores(run).score.tolist()
    [1.0, 0.5, 0.0]
    >>> normalize_scores(run, method="zscore").score.round(4).tolist()
    [1.2247, 0.0, -1.2247]
    """
    out = _check_run(run, "run")
    return out.assign(score=_normalized(out, _check_normalization(method)))


def _check_normalization(method):
    if method not in NORMALIZATIONS:
        raise InputError(f"normalization must be one of {list(NORMALIZATIONS)}; got {method!r}")
    return method


def _normalized(run: pd.DataFrame, method: str | None) -> np.ndarray:
    score = run["score"].to_numpy()
    if method is None:
        return score
    g = run.groupby("query_id", sort=False)["score"]
    if method == "minmax":
        lo = g.transform("min").to_numpy()
        span = g.transform("max").to_numpy() - lo
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(span > 0, (score - lo) / span, 1.0)
    mean = g.transform("mean").to_numpy()
    std = g.transform("std", ddof=0).to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(std > 0, (score - mean) / std, 0.0)


def _finish(parts: list[pd.DataFrame], count_factor: bool = False) -> pd.DataFrame:
    allp = pd.concat(parts, ignore_index=True)
    if allp.empty:
        return pd.DataFrame(
            {"query_id": pd.array([], dtype="str"), "doc_id": pd.array([], dtype="str"),
             "score": np.empty(0, dtype=np.float64)}
        )
    allp["_q"] = pd.factorize(allp["query_id"])[0]
    g = allp.groupby(["_q", "query_id", "doc_id"], sort=False)["part"]
    fused = g.agg(["sum", "size"]).reset_index()
    score = fused["sum"].to_numpy()
    if count_factor:
        score = score * fused["size"].to_numpy()
    fused = fused.assign(score=score).sort_values(
        ["_q", "score", "doc_id"], ascending=[True, False, False], kind="stable"
    )
    return pd.DataFrame(
        {
            "query_id": pd.array(fused["query_id"].to_numpy(dtype=object), dtype="str"),
            "doc_id": pd.array(fused["doc_id"].to_numpy(dtype=object), dtype="str"),
            "score": fused["score"].to_numpy(dtype=np.float64),
        }
    )


def _fused(runs, weights, depth, part, *, count_factor: bool = False) -> pd.DataFrame:
    """Check the runs, rank each (cut at ``depth``) and sum ``part(ranked run, weight)``."""
    checked, w = _check_runs(runs, weights)
    depth = _check_depth(depth)
    parts = []
    for run, wi in zip(checked, w, strict=True):
        r = _ranked(run, depth)
        parts.append(r[["query_id", "doc_id"]].assign(part=part(r, wi)))
    return _finish(parts, count_factor=count_factor)


def reciprocal_rank_fusion(runs, *, k: float = 60, weights=None, depth: int | None = None
                           ) -> pd.DataFrame:
    """Fuse runs by reciprocal rank fusion.

    Parameters
    ----------
    runs : sequence or mapping of pandas.DataFrame
        Runs with columns ``query_id``, ``doc_id``, ``score``.
    k : float, default 60
        The constant in :math:`1 / (k + r)`; 60 is the value of the original
        paper. Must be non-negative.
    weights : sequence of float, optional
        One non-negative weight per run (default all 1).
    depth : int, optional
        Only the first ``depth`` documents of each run and query take part.

    Returns
    -------
    pandas.DataFrame
        The fused run (see the module notes for its order).

    Examples
    --------
    >>> a = pd.DataFrame({"query_id": "q", "doc_id": ["d1", "d2"], "score": [2.0, 1.0]})
    >>> b = pd.DataFrame({"query_id": "q", "doc_id": ["d2", "d3"], "score": [0.9, 0.1]})
    >>> fused = reciprocal_rank_fusion([a, b])
    >>> fused.doc_id.tolist()
    ['d2', 'd1', 'd3']
    >>> bool(np.isclose(fused.score.iloc[0], 1 / 62 + 1 / 61))
    True
    """
    if isinstance(k, bool) or not isinstance(k, (int, float, np.integer, np.floating)) or k < 0:
        raise InputError(f"k must be a non-negative number; got {k!r}")
    return _fused(runs, weights, depth, lambda r, wi: wi / (k + r["rank"].to_numpy()))


def _comb(runs, normalization, weights, depth, mnz):
    _check_normalization(normalization)
    return _fused(runs, weights, depth, lambda r, wi: wi * _normalized(r, normalization),
                  count_factor=mnz)


def comb_sum(runs, *, normalization: str | None = "minmax", weights=None,
             depth: int | None = None) -> pd.DataFrame:
    """Fuse runs by CombSUM: the sum of normalised scores.

    Parameters
    ----------
    runs : sequence or mapping of pandas.DataFrame
        Runs with columns ``query_id``, ``doc_id``, ``score``.
    normalization : {"minmax", "zscore", None}, default "minmax"
        Per-run, per-query score normalisation (applied after the ``depth``
        cut).
    weights : sequence of float, optional
        One non-negative weight per run (default all 1).
    depth : int, optional
        Only the first ``depth`` documents of each run and query take part.

    Returns
    -------
    pandas.DataFrame
        The fused run.

    Examples
    --------
    >>> a = pd.DataFrame({"query_id": "q", "doc_id": ["d1", "d2", "d3"], "score": [4.0, 2.0, 0.0]})
    >>> b = pd.DataFrame({"query_id": "q", "doc_id": ["d2", "d3"], "score": [0.9, 0.1]})
    >>> comb_sum([a, b]).set_index("doc_id").score.to_dict()
    {'d2': 1.5, 'd1': 1.0, 'd3': 0.0}
    """
    return _comb(runs, normalization, weights, depth, mnz=False)


def comb_mnz(runs, *, normalization: str | None = "minmax", weights=None,
             depth: int | None = None) -> pd.DataFrame:
    """Fuse runs by CombMNZ: CombSUM times the number of runs retrieving the document.

    Parameters are those of :func:`comb_sum`.

    Examples
    --------
    >>> a = pd.DataFrame({"query_id": "q", "doc_id": ["d1", "d2", "d3"], "score": [4.0, 2.0, 0.0]})
    >>> b = pd.DataFrame({"query_id": "q", "doc_id": ["d2", "d3"], "score": [0.9, 0.1]})
    >>> comb_mnz([a, b]).set_index("doc_id").score.to_dict()
    {'d2': 3.0, 'd1': 1.0, 'd3': 0.0}
    """
    return _comb(runs, normalization, weights, depth, mnz=True)


def fuse(runs, *, method: str = "rrf", k: float = 60, normalization: str | None = "minmax",
         weights=None, depth: int | None = None) -> pd.DataFrame:
    """Fuse runs with the named method.

    Parameters
    ----------
    runs : sequence or mapping of pandas.DataFrame
    method : {"rrf", "combsum", "combmnz"}, default "rrf"
    k : float, default 60
        RRF constant (used by "rrf" only).
    normalization : {"minmax", "zscore", None}, default "minmax"
        Score normalisation (used by "combsum" and "combmnz" only).
    weights, depth
        As in :func:`reciprocal_rank_fusion`.

    Returns
    -------
    pandas.DataFrame
        The fused run.

    Examples
    --------
    >>> a = pd.DataFrame({"query_id": "q", "doc_id": ["d1", "d2"], "score": [2.0, 1.0]})
    >>> fuse([a, a], method="combmnz").score.tolist()
    [4.0, 0.0]
    """
    if method == "rrf":
        return reciprocal_rank_fusion(runs, k=k, weights=weights, depth=depth)
    if method in ("combsum", "combmnz"):
        return _comb(runs, normalization, weights, depth, mnz=method == "combmnz")
    raise InputError(f"method must be one of {list(FUSION_METHODS)}; got {method!r}")
