"""Pools: which documents to judge, and whether the judgments can be reused.

A pool is the set of (query, document) pairs sent to assessors. TREC builds it
from the participating runs: the union of each run's top ``depth`` documents
(:func:`pool`). Fixed-budget strategies judge ``n`` documents per query,
chosen by their best rank in any run (:func:`pool_take_n`) or by reciprocal-rank
fusion of the runs (:func:`pool_rrf`). :func:`leave_one_out` is Zobel's test of
whether the judgments are reusable: would a run that did not contribute to the
pool be scored fairly?
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from reteval.errors import InputError

__all__ = ["LeaveOneOut", "leave_one_out", "pool", "pool_rrf", "pool_take_n"]


def _ranked_runs(runs) -> dict[str, pd.DataFrame]:
    """Each run as a table in trec_eval's order with a ``rank`` column (1 = top)."""
    from reteval.io import as_run, sort_run

    if not isinstance(runs, Mapping) or not runs:
        raise InputError(
            "runs must be a non-empty mapping of run name to run; got "
            + (f"{type(runs).__name__}" if not isinstance(runs, Mapping) else "an empty mapping")
        )
    ranked = {}
    for name, run in runs.items():
        frame = sort_run(as_run(run))
        frame["rank"] = frame.groupby("query_id", sort=False).cumcount() + 1
        ranked[str(name)] = frame
    if len(ranked) > 1:
        shared = set.intersection(*(set(f["query_id"].tolist()) for f in ranked.values()))
        if not shared:
            described = "; ".join(
                f"{name!r}: {', '.join(sorted(set(f['query_id']))[:3]) or 'none'}"
                + (", ..." if f["query_id"].nunique() > 3 else "")
                for name, f in ranked.items()
            )
            raise InputError(f"the runs have no query in common ({described})")
    return ranked


def _check_count(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise InputError(f"{name} must be a positive integer; got {value!r}")
    return int(value)


def _candidates(ranked: dict[str, pd.DataFrame]) -> pd.DataFrame:
    frames = [f.assign(run=name)[["query_id", "doc_id", "rank", "run"]]
              for name, f in ranked.items()]
    return pd.concat(frames, ignore_index=True)


def _summarise(rows: pd.DataFrame) -> pd.DataFrame:
    grouped = rows.groupby(["query_id", "doc_id"], sort=True, observed=True)
    out = grouped.agg(best_rank=("rank", "min"), runs=("run", "nunique")).reset_index()
    return out.astype({"best_rank": "int64", "runs": "int64"})


def pool(runs: Mapping[str, object], *, depth: int = 10) -> pd.DataFrame:
    """The depth-``k`` pool: the union of every run's top ``depth`` documents per query.

    Each run is ordered as trec_eval orders it (score descending, then doc id
    descending) before its top ``depth`` is taken.

    Parameters
    ----------
    runs : mapping of str to run
        Run name -> run (any form :func:`reteval.io.as_run` takes).
    depth : int, default 10
        How many of each run's top documents enter the pool.

    Returns
    -------
    pandas.DataFrame
        ``query_id``, ``doc_id``, ``best_rank`` (the best rank any run gave it)
        and ``runs`` (how many runs put it in their top ``depth``), sorted by
        query and doc id.

    Raises
    ------
    InputError
        No runs, runs with no query in common, or ``depth`` not a positive integer.

    Examples
    --------
    >>> pool({"a": {"q1": ["d1", "d2", "d3"]}, "b": {"q1": ["d3", "d4"]}}, depth=2)
      query_id doc_id  best_rank  runs
    0       q1     d1          1     1
    1       q1     d2          2     1
    2       q1     d3          1     1
    3       q1     d4          2     1
    """
    depth = _check_count(depth, "depth")
    return _depth_pool(_ranked_runs(runs), depth)


def _depth_pool(ranked: dict[str, pd.DataFrame], depth: int) -> pd.DataFrame:
    """:func:`pool` of runs already ranked by :func:`_ranked_runs`."""
    rows = _candidates(ranked)
    return _summarise(rows[rows["rank"] <= depth])


def _budget(rows: pd.DataFrame, priority: pd.DataFrame, n: int) -> pd.DataFrame:
    """The first ``n`` documents per query in ``priority``'s order."""
    chosen = priority.groupby("query_id", sort=False).head(n)
    summary = _summarise(rows.merge(chosen[["query_id", "doc_id"]], on=["query_id", "doc_id"]))
    return summary


def pool_take_n(runs: Mapping[str, object], *, n: int) -> pd.DataFrame:
    """A fixed budget of ``n`` documents per query, taken by best rank across the runs.

    Documents are taken in order of the best rank any run gives them (all
    the runs' first documents, then their second, ...; within one rank, those
    more runs agree on first, then doc id ascending): the depth pool, grown one
    rank at a time until the budget is spent. Every query gets ``n`` documents
    when the runs retrieve that many.

    Parameters
    ----------
    runs : mapping of str to run
        Run name -> run.
    n : int
        Documents to judge per query.

    Returns
    -------
    pandas.DataFrame
        Columns as :func:`pool` returns.

    References
    ----------
    A. Lipani, J. Palotti, M. Lupu, A. Hanbury (2017), "Fixed-cost pooling
    strategies based on IR evaluation measures", ECIR (which compares
    fixed-budget strategies such as this one).

    Examples
    --------
    >>> runs = {"a": {"q1": ["d1", "d2", "d3"]}, "b": {"q1": ["d3", "d2", "d5"]}}
    >>> pool_take_n(runs, n=3)["doc_id"].tolist()
    ['d1', 'd2', 'd3']
    """
    n = _check_count(n, "n")
    rows = _candidates(_ranked_runs(runs))
    summary = _summarise(rows)
    priority = summary.assign(neg_runs=-summary["runs"]).sort_values(
        ["query_id", "best_rank", "neg_runs", "doc_id"], kind="stable")
    return _budget(rows, priority, n)


def pool_rrf(runs: Mapping[str, object], *, n: int, k: int = 60) -> pd.DataFrame:
    """A fixed budget of ``n`` documents per query, in order of reciprocal-rank fusion.

    Each document's priority is ``sum over runs of 1 / (k + rank)``: documents
    that several runs rank high come first. Ties: doc id ascending.

    Parameters
    ----------
    runs : mapping of str to run
        Run name -> run.
    n : int
        Documents to judge per query.
    k : int, default 60
        RRF's damping constant (Cormack, Clarke and Büttcher 2009).

    Returns
    -------
    pandas.DataFrame
        Columns as :func:`pool` returns, plus ``rrf`` (the priority).

    Examples
    --------
    >>> runs = {"a": {"q1": ["d1", "d2", "d3"]}, "b": {"q1": ["d3", "d2", "d5"]}}
    >>> pool_rrf(runs, n=2)["doc_id"].tolist()
    ['d2', 'd3']
    """
    n = _check_count(n, "n")
    k = _check_count(k, "k")
    rows = _candidates(_ranked_runs(runs))
    rows = rows.assign(rrf=1.0 / (k + rows["rank"]))
    scores = rows.groupby(["query_id", "doc_id"], sort=True, observed=True)["rrf"].sum()
    priority = scores.reset_index().sort_values(["query_id", "rrf", "doc_id"],
                                                ascending=[True, False, True], kind="stable")
    out = _budget(rows, priority, n)
    return out.merge(scores.reset_index(), on=["query_id", "doc_id"])


def _restrict(qrels: pd.DataFrame, pooled: pd.DataFrame) -> pd.DataFrame:
    keys = pooled[["query_id", "doc_id"]].astype(str)
    frame = qrels.astype({"query_id": str, "doc_id": str})
    return frame.merge(keys, on=["query_id", "doc_id"])[["query_id", "doc_id", "relevance"]]


@dataclass(frozen=True)
class LeaveOneOut:
    """The result of :func:`leave_one_out`; ``print`` shows the whole table and what it means.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per run (index ``run``): ``group`` (the group left out with it;
        the run's own name when it is in no group), ``pooled`` (the measure with
        the qrels restricted to the pool of all runs), ``left_out`` (restricted
        to the pool of the runs outside its group), ``change`` (left_out -
        pooled), ``rank_pooled`` and ``rank_left_out`` (its rank among the runs,
        1 = best; the other runs keep their pooled scores), ``rank_change``
        (rank_left_out - rank_pooled: positive means it fell), ``judged`` (its
        Judged@k in the left-out pool: the share of its top ``k`` with a
        judgment in the qrels kept) and ``in_pool`` (the share of its top ``k``
        that the other groups' pool holds, judged or not; both count the top
        ``min(k, retrieved)``).
    measure : str
    depth : int
    judged_at : int
    relevant_only : bool
        True when the qrels hold no judgment below 1, i.e. they list only the
        relevant documents (as Cranfield's do, the rest being not relevant):
        ``judged`` then counts the relevant documents of the top ``k`` that
        the others' pool holds, a precision rather than a coverage, and
        ``in_pool`` is the coverage.
    """

    table: pd.DataFrame
    measure: str
    depth: int
    judged_at: int
    relevant_only: bool = False

    @property
    def max_drop(self) -> float:
        """The largest score a run lost by being left out of the pool."""
        return float(-self.table["change"].min())

    @property
    def runs_that_moved(self) -> int:
        """How many runs changed rank when left out."""
        return int((self.table["rank_change"] != 0).sum())

    def __str__(self) -> str:
        k = self.judged_at
        grouped = (self.table["group"] != self.table.index).any()
        title = (f"Leave one {'group' if grouped else 'run'} out: {self.measure}, pool depth "
                 f"{self.depth}, {len(self.table)} runs")
        others = "the other groups'" if grouped else "the other runs'"
        legend = (f"judged: share of each run's top {k} with a judgment in {others} pool; "
                  f"in_pool: share of its top {k} in that pool.")
        lines = [title, self.table.to_string(float_format=lambda v: f"{v:.4f}"), legend]
        if self.relevant_only:
            lines.append(
                "The qrels list only relevant documents: judged is the share of the top "
                f"{k} that is relevant and in the others' pool (a precision, not a coverage); "
                "in_pool is the coverage.")
        return "\n".join(lines)


def _mean_scores(qrels, run, measure, queries) -> float:
    import reteval
    from reteval.evaluation.engine import summarize

    if qrels.empty:
        scores = pd.Series(dtype=float)
    else:
        scores = reteval.evaluate(qrels, run, [measure])[measure]
    # the measure's own aggregate over the queries (a geometric mean for GMAP)
    return summarize({measure: scores.reindex(queries, fill_value=0.0).to_numpy()})[measure]


def _in_pool(run: pd.DataFrame, pooled: pd.DataFrame, k: int, queries) -> float:
    """Mean over ``queries`` of the share of the run's top ``k`` that ``pooled`` holds.

    The share is of the top ``min(k, retrieved)``, as Judged@k counts it.
    """
    top = run[run["rank"] <= k][["query_id", "doc_id"]].astype(str)
    keys = pooled[["query_id", "doc_id"]].astype(str).assign(hit=1.0)
    hits = top.merge(keys, on=["query_id", "doc_id"], how="left")["hit"].fillna(0.0)
    share = hits.groupby(top["query_id"].to_numpy()).mean()
    return float(share.reindex(queries, fill_value=0.0).mean())


def _groups_of(groups, names: list[str]) -> dict[str, str]:
    """Run name -> the name of its group (its own name when no group lists it)."""
    if groups is None:
        return {name: name for name in names}
    if not isinstance(groups, Mapping):
        raise InputError("groups must be a mapping of group name to a list of run names; got "
                         f"{type(groups).__name__}")
    member: dict[str, str] = {}
    for group, listed in groups.items():
        if isinstance(listed, (str, bytes)) or not hasattr(listed, "__iter__"):
            raise InputError(f"group {group!r} must list run names; got {listed!r}")
        for run in map(str, listed):
            if run not in names:
                raise InputError(f"group {group!r} lists run {run!r}, which is not among the "
                                 f"runs ({', '.join(names)})")
            if run in member:
                raise InputError(f"run {run!r} is in two groups: {member[run]!r} and {group!r}")
            member[run] = str(group)
    return {name: member.get(name, name) for name in names}


def leave_one_out(qrels, runs: Mapping[str, object], *, measure: str = "AP", depth: int = 10,
                  judged_at: int = 10, groups: Mapping[str, object] | None = None
                  ) -> LeaveOneOut:
    """Zobel's reusability test: score each run as if it had not contributed to the pool.

    For each run, the qrels are restricted twice: to the depth-``depth`` pool of
    all the runs (``pooled``) and to the pool of the other runs only
    (``left_out``). Judgments outside the pool are dropped, so the documents
    only this run found become unjudged, and count as not relevant. If the
    left-out scores (and ranks) barely move, new systems can be evaluated
    fairly with these judgments. Complete judgments (Cranfield) make the test
    exact: every pool's judgments are known.

    A team's runs share their documents, so TREC practice leaves the whole
    team out: with ``groups``, each run is scored with the pool of the runs
    outside its group.

    Parameters
    ----------
    qrels : qrels
        The judgments (any form :func:`reteval.io.as_qrels` takes); they should
        cover the pool of all runs.
    runs : mapping of str to run
        At least two runs.
    measure : str, default "AP"
        One measure name (``"AP"``, ``"P@10"``, ``"nDCG@10"``, ...).
    depth : int, default 10
        Pool depth.
    judged_at : int, default 10
        The ``k`` of the reported Judged@k and in-pool share.
    groups : mapping of str to list of str, optional
        Group name -> the names of its runs (``{"teamA": ["run1", "run2"]}``).
        A run no group lists is a group of its own; a run may be in one group only.

    Returns
    -------
    LeaveOneOut

    Raises
    ------
    InputError
        Fewer than two runs (or groups), a group naming an unknown run or a run
        twice, no query in common, or ``depth``/``judged_at`` not a positive integer.

    Notes
    -----
    Scores are averaged over every query of ``qrels`` that some run retrieved;
    a query left without judgments in a restricted pool scores 0 (it has no
    relevant document). A left-out score can *rise*: measures divided by the
    number of relevant documents (AP, R-precision, nDCG's ideal) lose from
    their denominator the relevant documents only the left-out group found, so
    a run that ranked those low gains more from the smaller denominator than it
    loses from the numerator. Precision at a cutoff never rises.

    References
    ----------
    J. Zobel (1998), "How reliable are the results of large-scale information
    retrieval experiments?", SIGIR.

    Examples
    --------
    >>> qrels = {"q1": {"d1": 1, "d2": 0, "d3": 1}}
    >>> runs = {"a": {"q1": ["d1", "d2"]}, "b": {"q1": ["d3", "d2"]}}
    >>> result = leave_one_out(qrels, runs, measure="P@2", depth=2, judged_at=2)
    >>> result.table[["pooled", "left_out", "judged"]]
         pooled  left_out  judged
    run
    a       0.5       0.0     0.5
    b       0.5       0.0     0.5
    """
    from reteval.io import as_qrels

    depth = _check_count(depth, "depth")
    judged_at = _check_count(judged_at, "judged_at")
    ranked = _ranked_runs(runs)
    if len(ranked) < 2:
        raise InputError(f"leave_one_out needs at least two runs; got {len(ranked)}")
    group_of = _groups_of(groups, list(ranked))
    if len(set(group_of.values())) < 2:
        raise InputError("leave_one_out needs at least two groups: the one group left out "
                         f"({next(iter(group_of.values()))!r}) holds every run")
    judgments = as_qrels(qrels)
    retrieved = set().union(*(set(f["query_id"].tolist()) for f in ranked.values()))
    queries = sorted(set(judgments["query_id"].astype(str)) & retrieved)
    if not queries:
        raise InputError("no query of the qrels is in any run")
    full = _restrict(judgments, _depth_pool(ranked, depth))
    pooled = {name: _mean_scores(full, run, measure, queries) for name, run in ranked.items()}
    outside = {}
    for group in dict.fromkeys(group_of.values()):
        others = {other: r for other, r in ranked.items() if group_of[other] != group}
        outside[group] = _depth_pool(others, depth)  # they share the queries all the runs share
    rows = []
    for name, run in ranked.items():
        others_pool = outside[group_of[name]]
        partial = _restrict(judgments, others_pool)
        left_out = _mean_scores(partial, run, measure, queries)
        judged = _mean_scores(partial, run, f"Judged@{judged_at}", queries)
        scores = pd.Series(pooled)
        rank_pooled = int((scores > pooled[name]).sum()) + 1
        scores[name] = left_out
        rank_left = int((scores > left_out).sum()) + 1
        rows.append({"run": name, "group": group_of[name], "pooled": pooled[name],
                     "left_out": left_out, "change": left_out - pooled[name],
                     "rank_pooled": rank_pooled, "rank_left_out": rank_left,
                     "rank_change": rank_left - rank_pooled, "judged": judged,
                     "in_pool": _in_pool(run, others_pool, judged_at, queries)})
    table = pd.DataFrame(rows).set_index("run")
    relevant_only = bool((judgments["relevance"] >= 1).all())
    return LeaveOneOut(table=table, measure=measure, depth=depth, judged_at=judged_at,
                       relevant_only=relevant_only)
