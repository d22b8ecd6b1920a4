"""Simulated users over judged data: A/B logs, and A/B against interleaving.

The users click as a click model of :mod:`reteval.ab.clicks` says (the cascade
model or the position-based model, named by ``click_model``).

Comparing A/B with interleaving
-------------------------------
:func:`compare_methods` runs many simulated experiments with ``n``
impressions each: the A/B test shows half of them ranker A and half ranker B
and compares click-through with the two-proportion z-test; interleaving
shows every impression an interleaved list and applies the sign test to the
credited wins and losses. The power of each at each ``n`` is the share of
experiments that find the true difference (``p < alpha`` in the right
direction).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import product

import numpy as np
import pandas as pd
from scipy.stats import norm

from reteval._util.catalogue import TEXTS, check_lang, phrase
from reteval._util.validation import check_probability, check_rng
from reteval.ab._prefixes import ratio_z_by_size, votes_by_size
from reteval.ab.assignment import Experiment
from reteval.ab.clicks import as_click_model, attractiveness
from reteval.ab.interleaving import balanced_from_order, sign_test_pvalue, team_draft_from_coins
from reteval.errors import InputError
from reteval.io.frames import arrow_table_frame
from reteval.io.tables import sort_run

__all__ = [
    "MethodComparison",
    "compare_methods",
    "expected_outcomes",
    "simulate_log",
    "synthetic_collection",
]

_MAX_EXACT_DEPTH = 12


# ---------------------------------------------------------------------------
# judged data


def _qrels_dict(qrels) -> dict[str, dict[str, int]]:
    qrels = arrow_table_frame(qrels)  # another library's table, as pandas
    if isinstance(qrels, pd.DataFrame):
        missing = {"query_id", "doc_id", "relevance"} - set(qrels.columns)
        if missing:
            raise InputError(f"qrels is missing column(s) {sorted(missing)!r}")
        out: dict[str, dict[str, int]] = {}
        for q, d, r in zip(qrels["query_id"].astype(str).tolist(),
                           qrels["doc_id"].astype(str).tolist(), qrels["relevance"].tolist(),
                           strict=True):
            out.setdefault(q, {})[d] = int(r)
        return out
    if isinstance(qrels, Mapping):
        return {str(q): {str(d): int(r) for d, r in docs.items()} for q, docs in qrels.items()}
    raise InputError(f"qrels must be a DataFrame or a dict; got {type(qrels).__name__}")


def _rankings(run, depth: int, name: str) -> dict[str, list[str]]:
    """Top ``depth`` doc ids per query: score descending, then doc id descending."""
    run = arrow_table_frame(run)  # another library's table, as pandas
    if not isinstance(run, pd.DataFrame):
        raise InputError(f"{name} must be a DataFrame with columns query_id, doc_id, score; "
                         f"got {type(run).__name__}")
    missing = {"query_id", "doc_id", "score"} - set(run.columns)
    if missing:
        raise InputError(f"{name} is missing column(s) {sorted(missing)!r}")
    frame = sort_run(pd.DataFrame({"query_id": run["query_id"].astype(str).to_numpy(),
                                   "doc_id": run["doc_id"].astype(str).to_numpy(),
                                   "score": run["score"].astype(float).to_numpy()}))
    top = frame.groupby("query_id", sort=False).head(depth)
    ranked: dict[str, list[str]] = {}
    for q, d in zip(top["query_id"].tolist(), top["doc_id"].tolist(), strict=True):
        ranked.setdefault(q, []).append(d)
    return ranked


def synthetic_collection(*, n_queries: int = 40, docs_per_query: int = 50,
                         signal: tuple[float, float] = (1.0, 1.3),
                         label_shares=(0.85, 0.08, 0.05, 0.02), rng=None):
    """Generate judged data and two rankers of known, different quality.

    Each query has ``docs_per_query`` candidate documents with graded labels
    0, 1, 2, 3 drawn with ``label_shares`` (at least one relevant per query).
    A ranker scores a document ``signal * label + N(0, 1)``: ranker B (the
    second signal) sorts relevant documents up more reliably than ranker A.

    Returns
    -------
    qrels, run_a, run_b : pandas.DataFrame
        ``qrels`` (query_id, doc_id, relevance) and two runs (query_id,
        doc_id, score) over the same candidates.

    Examples
    --------
    >>> qrels, run_a, run_b = synthetic_collection(n_queries=3, docs_per_query=5, rng=0)
    >>> len(qrels), len(run_a), list(run_b.columns)
    (15, 15, ['query_id', 'doc_id', 'score'])
    """
    for name, v in (("n_queries", n_queries), ("docs_per_query", docs_per_query)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise InputError(f"{name} must be a positive integer; got {v!r}")
    gen = check_rng(rng)
    labels = gen.choice(len(label_shares), size=(n_queries, docs_per_query), p=label_shares)
    none = labels.max(axis=1) == 0
    labels[none, gen.integers(docs_per_query, size=none.sum())] = 1
    qids = np.repeat([f"q{i:03d}" for i in range(n_queries)], docs_per_query)
    dids = np.array([f"d{i:03d}-{j:02d}" for i in range(n_queries) for j in range(docs_per_query)])
    flat = labels.ravel()
    qrels = pd.DataFrame({"query_id": qids, "doc_id": dids, "relevance": flat.astype("int64")})
    runs = [pd.DataFrame({"query_id": qids, "doc_id": dids,
                          "score": s * flat + gen.standard_normal(flat.size)})
            for s in signal]
    return qrels, runs[0], runs[1]


# ---------------------------------------------------------------------------
# preparing the two rankers


@dataclass(frozen=True, eq=False)
class _Pair:
    query_ids: tuple[str, ...]
    docs: dict            # variant -> (Q, L) object array of doc ids ("" = empty slot)
    attract: dict         # variant -> (Q, L) attractiveness
    labels: dict          # variant -> (Q, L) relevance labels
    il_attract: np.ndarray  # (Q, M, L)
    credit_a: np.ndarray    # (Q, M, L, L): [q, m, lowest click, position] counts for A
    credit_b: np.ndarray


def _prepare(qrels, run_a, run_b, *, depth, method, mapping) -> _Pair:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise InputError(f"depth must be a positive integer; got {depth!r}")
    if method not in ("team_draft", "balanced", None):  # None: no interleaved lists needed
        raise InputError(f"method must be 'team_draft' or 'balanced'; got {method!r}")
    judged = _qrels_dict(qrels)
    ra, rb = _rankings(run_a, depth, "run_a"), _rankings(run_b, depth, "run_b")
    qids = tuple(sorted(set(ra) & set(rb)))
    if not qids:
        raise InputError("run_a and run_b have no query in common")
    coin_seqs = {"team_draft": list(product((True, False), repeat=(depth + 1) // 2)),
                 "balanced": [(True,), (False,)], None: []}[method]
    n_il = len(coin_seqs)
    Q, L = len(qids), depth
    docs = {v: np.full((Q, L), "", dtype=object) for v in ("A", "B")}
    labels = {v: np.zeros((Q, L)) for v in ("A", "B")}
    il_labels = np.zeros((Q, n_il, L))
    il_len = np.zeros((Q, n_il), dtype=int)
    credit_a = np.zeros((Q, n_il, L, L), dtype=np.int8)
    credit_b = np.zeros((Q, n_il, L, L), dtype=np.int8)
    for qi, q in enumerate(qids):
        rel = judged.get(q, {})
        for v, ranking in (("A", ra[q]), ("B", rb[q])):
            docs[v][qi, :len(ranking)] = ranking
            labels[v][qi, :len(ranking)] = [rel.get(d, 0) for d in ranking]
        a, b = ra[q], rb[q]
        pos_a = {d: i for i, d in enumerate(a)}
        pos_b = {d: i for i, d in enumerate(b)}
        for m, coins in enumerate(coin_seqs):
            if method == "team_draft":
                shown, teams = team_draft_from_coins(a, b, coins, depth)
            else:
                shown, teams = balanced_from_order(a, b, coins[0], depth), None
            il_labels[qi, m, :len(shown)] = [rel.get(d, 0) for d in shown]
            il_len[qi, m] = len(shown)
            for p, d in enumerate(shown):
                if teams is not None:  # team-draft: credit does not depend on the lowest click
                    credit_a[qi, m, :, p] = teams[p] == "A"
                    credit_b[qi, m, :, p] = teams[p] == "B"
                    continue
                for low, dl in enumerate(shown):  # balanced: top-k of each ranking
                    k = min(pos_a.get(dl, math.inf), pos_b.get(dl, math.inf))
                    credit_a[qi, m, low, p] = pos_a.get(d, math.inf) <= k
                    credit_b[qi, m, low, p] = pos_b.get(d, math.inf) <= k
    filled = {v: docs[v] != "" for v in docs}
    attract = {v: np.where(filled[v], attractiveness(labels[v], mapping), 0.0) for v in docs}
    slot = np.arange(L)[None, None, :] < il_len[:, :, None]
    il_attract = np.where(slot, attractiveness(il_labels, mapping), 0.0)
    return _Pair(qids, docs, attract, labels, il_attract, credit_a, credit_b)


def _net_credit(clicks: np.ndarray, net: np.ndarray, q: np.ndarray, m: np.ndarray):
    """A's credit minus B's of click rows (n, L) shown as interleaving ``m`` of query ``q``.

    ``net`` is ``credit_a - credit_b`` of the pair (one gather instead of two), indexed by
    query, list, lowest click and position; its lowest-click axis has length 1 when the
    credit does not depend on the lowest click (team draft).
    """
    n_lists, n_lowest = net.shape[1:3]
    flat = (q * n_lists + m) * n_lowest
    if n_lowest > 1:
        flat += clicks.shape[1] - 1 - np.argmax(clicks[:, ::-1], axis=1)  # 0 when no click
    rows = np.take(net.reshape(-1, net.shape[3]), flat, axis=0)  # np.take: faster than net[q, m]
    return np.einsum("ij,ij->i", clicks, rows, dtype=np.int64)


def expected_outcomes(qrels, run_a, run_b, *, click_model="cascade", depth: int = 10,
                      method: str = "team_draft", click_probabilities=None) -> dict[str, float]:
    """Exact expected click-through and interleaving outcome under a click model.

    Queries are equally likely. Sums over all ``2 ** depth`` click patterns
    (``depth`` at most 12).

    Returns
    -------
    dict
        ``ctr_a``, ``ctr_b`` (probability of at least one click on each
        ranker's own list), ``rr_a``, ``rr_b`` (expected reciprocal rank of
        the first click, 0 without one: it rewards a ranking whose attractive
        documents come earlier), ``p_win``, ``p_loss``, ``p_tie``, ``p_none`` (per
        interleaved impression, wins counted for A) and ``preference``, the
        limit of ``(wins + ties/2) / n - 0.5`` (``n`` excluding no-click
        impressions).

    Examples
    --------
    >>> qrels, run_a, run_b = synthetic_collection(n_queries=5, rng=0)
    >>> e = expected_outcomes(qrels, run_a, run_b, depth=6)
    >>> round(e["p_win"] + e["p_loss"] + e["p_tie"] + e["p_none"], 12)
    1.0
    """
    if depth > _MAX_EXACT_DEPTH:
        raise InputError(f"exact expectations enumerate 2**depth click patterns; depth must "
                         f"be at most {_MAX_EXACT_DEPTH}, got {depth}")
    model = as_click_model(click_model)
    mapping = click_probabilities if click_probabilities is not None else model.click_probabilities
    pair = _prepare(qrels, run_a, run_b, depth=depth, method=method, mapping=mapping)
    return _expected(pair, model, depth)


def _expected(pair: _Pair, model, depth: int) -> dict[str, float]:
    """:func:`expected_outcomes` of the prepared rankers."""
    patterns = np.array(list(product((False, True), repeat=depth)), dtype=bool)
    p_none_list = ~patterns.any(axis=1)
    first_rr = np.where(p_none_list, 0.0, 1.0 / (1 + np.argmax(patterns, axis=1)))
    out = {}
    for v in ("A", "B"):
        probs = model.pattern_probabilities(pair.attract[v], patterns)
        out[f"ctr_{v.lower()}"] = float(1 - probs[:, p_none_list].mean(axis=0).sum())
        out[f"rr_{v.lower()}"] = float((probs * first_rr).mean(axis=0).sum())
    Q, M, _L = pair.il_attract.shape
    lowest = np.where(p_none_list, 0, depth - 1 - np.argmax(patterns[:, ::-1], axis=1))
    win = loss = tie = none = 0.0
    for qi in range(Q):
        probs = model.pattern_probabilities(pair.il_attract[qi], patterns)  # (M, P)
        ca = (pair.credit_a[qi][:, lowest, :] * patterns[None]).sum(axis=2)  # (M, P)
        cb = (pair.credit_b[qi][:, lowest, :] * patterns[None]).sum(axis=2)
        win += (probs * (ca > cb)).sum() / M
        loss += (probs * (ca < cb)).sum() / M
        tie += (probs * ((ca == cb) & (ca > 0))).sum() / M
        none += (probs * ((ca == cb) & (ca == 0))).sum() / M
    win, loss, tie, none = (x / Q for x in (win, loss, tie, none))
    n = win + loss + tie
    out.update(p_win=float(win), p_loss=float(loss), p_tie=float(tie), p_none=float(none),
               preference=float((win + tie / 2) / n - 0.5) if n > 0 else math.nan)
    return out


# ---------------------------------------------------------------------------
# an A/B log


def simulate_log(experiment: Experiment, qrels, run_a, run_b, *, n_users: int = 2000,
                 queries_per_user: float = 3.0, click_model="cascade", depth: int = 10,
                 start="2024-05-01T00:00:00Z", days: float = 14.0,
                 feedback_rate: float = 0.5, user_sd: float = 0.0, rng=None,
                 user_factors=None) -> pd.DataFrame:
    """Simulate the interaction log of an A/B experiment between two rankers.

    Users ``u000000``, ``u000001``, ... are assigned by ``experiment`` (the
    first variant sees ``run_a``, every other variant ``run_b``). Each user
    arrives at a uniform time over ``days`` and issues ``1 + Poisson(
    queries_per_user - 1)`` queries a few minutes apart, each a uniformly
    drawn query of the runs. The click model produces the clicks; with
    probability ``feedback_rate`` the user leaves explicit feedback, 1
    (satisfied) when they clicked a relevant document, else 0.

    Users differ: with ``user_sd > 0`` each user's attractiveness of every
    document is multiplied by a factor ``exp(user_sd * z - user_sd**2 / 2)``
    (``z`` standard normal; mean 1), clipped to 1, so some users click much
    more than others, as real users do. A user's queries are then correlated,
    and an analysis that treats them as independent understates the variance;
    with ``user_sd = 0`` (the default) every user is the same. ``user_factors``
    gives the factors instead (one positive number per user), so that two
    simulated periods share their users' habits
    (:func:`reteval.ab.pre_period.simulate_with_pre_period`).

    Returns
    -------
    pandas.DataFrame
        The columns :meth:`reteval.ab.log.InteractionLog.extend` takes:
        ``experiment``, ``variant``, ``user_id``, ``query``, ``timestamp``,
        ``retrieved``, ``clicks``, ``feedback`` (None when none given).

    Examples
    --------
    >>> qrels, run_a, run_b = synthetic_collection(n_queries=5, rng=0)
    >>> log = simulate_log(Experiment("demo"), qrels, run_a, run_b, n_users=20, rng=1)
    >>> log["user_id"].nunique(), sorted(log["variant"].unique())
    (20, ['A', 'B'])
    """
    if not isinstance(experiment, Experiment):
        raise InputError(f"experiment must be an Experiment; got {type(experiment).__name__}")
    if isinstance(n_users, bool) or not isinstance(n_users, int) or n_users < 1:
        raise InputError(f"n_users must be a positive integer; got {n_users!r}")
    if not queries_per_user >= 1:
        raise InputError(f"queries_per_user must be at least 1; got {queries_per_user!r}")
    check_probability(feedback_rate, "feedback_rate", closed=True)
    user_sd = _check_user_sd(user_sd)
    if not days > 0:
        raise InputError(f"days must be positive; got {days!r}")
    model = as_click_model(click_model)
    gen = check_rng(rng)
    pair = _prepare(qrels, run_a, run_b, depth=depth, method=None,
                    mapping=model.click_probabilities)
    users, variants = _simulated_users(experiment, n_users)
    per_user = 1 + gen.poisson(queries_per_user - 1, size=n_users)
    arrival = gen.random(n_users) * days * 86400.0
    user_idx = np.repeat(np.arange(n_users), per_user)
    place = np.arange(len(user_idx)) - np.repeat(np.cumsum(per_user) - per_user, per_user)
    within = place * 120.0 + gen.random(len(user_idx)) * 60.0  # the user's 1st, 2nd ... query
    seconds = arrival[user_idx] + within
    qidx = gen.integers(len(pair.query_ids), size=len(user_idx))
    side = np.where(variants[user_idx] == experiment.control, "A", "B")
    attract = np.where((side == "A")[:, None], pair.attract["A"][qidx], pair.attract["B"][qidx])
    factors = _user_factors(gen, n_users, user_sd) if user_factors is None else np.asarray(
        user_factors, dtype=float)
    if factors is not None and (factors.shape != (n_users,) or not (factors > 0).all()):
        raise InputError(f"user_factors must hold one positive number per user ({n_users})")
    attract = _heterogeneous(attract, None if factors is None else factors[user_idx])
    docs = np.where((side == "A")[:, None], pair.docs["A"][qidx], pair.docs["B"][qidx])
    labels = np.where((side == "A")[:, None], pair.labels["A"][qidx], pair.labels["B"][qidx])
    clicks = model.simulate(attract, gen)
    satisfied = (clicks & (labels > 0)).any(axis=1)
    gives = gen.random(len(user_idx)) < feedback_rate
    t0 = pd.Timestamp(start)
    if t0.tzinfo is None:
        raise InputError(f"start must carry a UTC offset; got {start!r}")
    shown = docs.tolist()
    flat = docs[clicks].tolist()  # row by row, each row's clicks in rank order
    ends = np.cumsum(clicks.sum(axis=1)).tolist()
    clicked = [flat[a:b] for a, b in zip([0, *ends[:-1]], ends, strict=True)]
    full = (docs != "").all(axis=1).tolist()
    log = pd.DataFrame({
        "experiment": experiment.name,
        "variant": variants[user_idx].astype(str),
        "user_id": users[user_idx].astype(str),
        "query": np.array(pair.query_ids, dtype=object)[qidx].astype(str),
        "timestamp": t0.tz_convert("UTC") + pd.to_timedelta(
            np.round(seconds * 1e6).astype(np.int64), unit="us"),
        "retrieved": [row if whole else [d for d in row if d]
                      for row, whole in zip(shown, full, strict=True)],
        "clicks": clicked,
        "feedback": pd.arrays.IntegerArray(satisfied.astype(np.int64), mask=~gives),
    })
    return log.sort_values("timestamp", kind="stable").reset_index(drop=True)


@functools.lru_cache(maxsize=8)
def _simulated_users(experiment: Experiment, n_users: int) -> tuple[np.ndarray, np.ndarray]:
    """The ids of ``n_users`` simulated users and their variants (read-only; an experiment is
    immutable, so the hash of each is computed once for repeated simulations)."""
    users = np.array([f"u{i:06d}" for i in range(n_users)], dtype=object)
    variants = np.array([experiment.assign(u) for u in users], dtype=object)
    users.flags.writeable = variants.flags.writeable = False
    return users, variants


def _check_user_sd(user_sd) -> float:
    if isinstance(user_sd, bool) or not isinstance(user_sd, (int, float)) or not 0 <= user_sd <= 3:
        raise InputError(f"user_sd must be a number from 0 to 3; got {user_sd!r}")
    return float(user_sd)


def _user_factors(gen, n: int, user_sd: float):
    """Each user's multiplier of attractiveness (mean 1); None (no draw) if users are alike."""
    if user_sd == 0:
        return None
    return np.exp(user_sd * gen.standard_normal(n) - user_sd ** 2 / 2)


def _heterogeneous(attract, factors):
    """``attract`` (a float array of the caller's own) scaled in place by each row's factor."""
    if factors is None:
        return attract
    shape = (-1,) + (1,) * (attract.ndim - 1)
    np.multiply(attract, np.reshape(factors, shape), out=attract)
    return np.minimum(attract, 1.0, out=attract)  # factors > 0: no lower clip needed


def _interpolated_first(sizes, power, target) -> int | None:
    """Impressions at which power first reaches ``target``, linear in log(impressions)."""
    above = np.nonzero(np.asarray(power) >= target)[0]
    if not len(above):
        return None
    i = int(above[0])
    if i == 0:
        return int(sizes[0])
    lo, hi, p_lo, p_hi = sizes[i - 1], sizes[i], power[i - 1], power[i]
    share = (target - p_lo) / (p_hi - p_lo)
    return round(math.exp(math.log(lo) + share * (math.log(hi) - math.log(lo))))


# ---------------------------------------------------------------------------
# A/B against interleaving


@dataclass(frozen=True, eq=False)
class MethodComparison:
    """Power of A/B testing and interleaving at each number of impressions.

    Attributes
    ----------
    table : pandas.DataFrame
        Indexed by ``impressions``; columns ``ab_power`` and
        ``interleaving_power`` (share of simulated experiments detecting the
        true difference in the right direction at ``alpha``).
    needed : dict
        ``{"ab": n, "interleaving": n}``: the smallest ``impressions`` whose
        power reaches ``target_power`` (None when none does).
    expected : dict
        Exact expectations from :func:`expected_outcomes`.
    alpha, target_power : float
    n_experiments : int
    method : str
    verdict : str
    """

    table: pd.DataFrame
    needed: dict
    expected: dict
    alpha: float
    target_power: float
    n_experiments: int
    method: str
    verdict: str
    queries_per_user: float = 1.0
    user_sd: float = 0.0


def compare_methods(qrels, run_a, run_b, *, impressions=(100, 200, 500, 1000, 2000, 5000, 10000),
                    n_experiments: int = 100, click_model="cascade", depth: int = 10,
                    method: str = "team_draft", alpha: float = 0.05, target_power: float = 0.8,
                    queries_per_user: float = 1.0, user_sd: float = 0.0,
                    ab_metric: str = "ctr", rng=None, lang: str = "en") -> MethodComparison:
    """Simulate A/B tests and interleaving experiments between two rankers.

    Parameters
    ----------
    qrels : DataFrame or dict
        Judgments (query_id, doc_id, relevance).
    run_a, run_b : pandas.DataFrame
        The two rankers' runs (query_id, doc_id, score); A is the control.
    impressions : sequence of int
        Experiment sizes (total impressions; an A/B test gives half to each
        ranker). Each simulated experiment is one stream whose prefixes give
        the smaller sizes.
    n_experiments : int, default 100
        Simulated experiments per method.
    click_model : "cascade", "pbm" or a click model object
    depth : int, default 10
        Documents per list (at most 12, for the exact expectations).
    method : {"team_draft", "balanced"}
    alpha : float, default 0.05
    target_power : float, default 0.8
    queries_per_user : float, default 1.0
        The unit of both experiments is the user: each simulated user issues
        ``1 + Poisson(queries_per_user - 1)`` consecutive impressions. The A/B
        test randomises users (every other user sees B) and tests the
        click-through with the user as unit (delta method, as
        :func:`reteval.ab.analyze` does); interleaving counts, per user, the
        impressions won minus those lost and runs the sign test over users.
    user_sd : float, default 0.0
        Spread of the users' propensity to click (see :func:`simulate_log`):
        the between-user variance an A/B test must overcome and interleaving,
        which compares both rankers within each impression, largely avoids.
    ab_metric : {"ctr", "rr"}, default "ctr"
        What the A/B test compares per impression: ``"ctr"`` whether there was
        a click at all, ``"rr"`` the reciprocal rank of the first click (0
        without one), which also moves when the same documents are clicked
        higher up. Its true direction is that of ``expected_outcomes``.
    rng : numpy.random.Generator, int or None
    lang : {"en", "zh"}, default "en"
        Language of the verdict (both name the impressions needed and the ratio).

    Returns
    -------
    MethodComparison
        ``needed`` is interpolated between the sizes simulated (linearly in
        log impressions), so it is not bound to the grid.

    Examples
    --------
    >>> qrels, run_a, run_b = synthetic_collection(n_queries=10, rng=0)
    >>> res = compare_methods(qrels, run_a, run_b, impressions=[100, 1000], n_experiments=10,
    ...                       rng=1)
    >>> list(res.table.columns), list(res.table.index)
    (['ab_power', 'interleaving_power'], [100, 1000])
    """
    sizes = np.array(sorted({int(n) for n in impressions}))
    if not len(sizes) or sizes[0] < 2:
        raise InputError(f"impressions must hold sizes of at least 2; got {impressions!r}")
    if isinstance(n_experiments, bool) or not isinstance(n_experiments, int) or n_experiments < 1:
        raise InputError(f"n_experiments must be a positive integer; got {n_experiments!r}")
    alpha = check_probability(alpha, "alpha")
    check_lang(lang)
    target_power = check_probability(target_power, "target_power")
    if isinstance(queries_per_user, bool) or not queries_per_user >= 1:
        raise InputError(f"queries_per_user must be at least 1; got {queries_per_user!r}")
    user_sd = _check_user_sd(user_sd)
    if ab_metric not in ("ctr", "rr"):
        raise InputError(f"ab_metric must be 'ctr' or 'rr'; got {ab_metric!r}")
    model = as_click_model(click_model)
    if depth > _MAX_EXACT_DEPTH:
        raise InputError(f"exact expectations enumerate 2**depth click patterns; depth must "
                         f"be at most {_MAX_EXACT_DEPTH}, got {depth}")
    pair = _prepare(qrels, run_a, run_b, depth=depth, method=method,
                    mapping=model.click_probabilities)
    expected = _expected(pair, model, depth)
    gen = check_rng(rng)
    n_max = sizes[-1]
    Q, M, _ = pair.il_attract.shape
    true_ab = np.sign(expected[f"{ab_metric}_b"] - expected[f"{ab_metric}_a"])
    true_il = np.sign(expected["p_win"] - expected["p_loss"])
    ab_hits = np.zeros(len(sizes))
    il_hits = np.zeros(len(sizes))
    user_in_b = np.arange(n_max) % 2 == 1
    # [arm * Q + query, position] and [query * M + list, position]: rows gathered with np.take
    by_arm = np.concatenate((pair.attract["A"], pair.attract["B"]))
    il_by_list = pair.il_attract.reshape(Q * M, -1)
    ones = np.ones(depth, dtype=np.uint8)
    net_credit = pair.credit_a - pair.credit_b  # int8, -1 to 1
    if (net_credit == net_credit[:, :, :1]).all():  # the same whatever the lowest click
        net_credit = np.ascontiguousarray(net_credit[:, :, :1])
    for _ in range(n_experiments):
        # A/B: users take consecutive impressions; every other user sees B
        users = _impression_users(gen, n_max, queries_per_user)
        arm_b = user_in_b[users]
        factors = _user_factors(gen, n_max, user_sd)
        q = gen.integers(Q, size=n_max)
        attract = _heterogeneous(np.take(by_arm, arm_b * Q + q, axis=0),
                                 None if factors is None else factors[users])
        pattern = model.simulate(attract, gen)
        clicked = (pattern.view(np.uint8) @ ones).astype(bool)  # any click, faster than .any
        if ab_metric == "rr":
            clicked = np.where(clicked, 1.0 / (1 + np.argmax(pattern, axis=1)), 0.0)
        z = ratio_z_by_size(clicked, users, user_in_b, sizes)
        p = 2 * norm.sf(np.abs(z))
        ab_hits += (p < alpha) & (np.sign(z) == true_ab)
        # interleaving: every impression sees both rankers; a user's net preference is one vote
        users = _impression_users(gen, n_max, queries_per_user)
        factors = _user_factors(gen, n_max, user_sd)
        q = gen.integers(Q, size=n_max)
        m = gen.integers(M, size=n_max)
        il_attract = _heterogeneous(np.take(il_by_list, q * M + m, axis=0),
                                    None if factors is None else factors[users])
        clicks = model.simulate(il_attract, gen)
        outcome = np.sign(_net_credit(clicks, net_credit, q, m).astype(float))
        wins, losses = votes_by_size(outcome, users, sizes)
        p = sign_test_pvalue(wins, losses)
        il_hits += (p < alpha) & (np.sign(wins - losses) == true_il)
    table = pd.DataFrame({"ab_power": ab_hits / n_experiments,
                          "interleaving_power": il_hits / n_experiments},
                         index=pd.Index(sizes, name="impressions"))
    needed = {"ab": _interpolated_first(sizes, table["ab_power"].to_numpy(), target_power),
              "interleaving": _interpolated_first(sizes, table["interleaving_power"].to_numpy(),
                                                  target_power)}
    verdict = _comparison_verdict(needed, expected, target_power, alpha, sizes, method, lang)
    return MethodComparison(table, needed, expected, float(alpha), float(target_power),
                            n_experiments, method, verdict, float(queries_per_user), user_sd)


def _impression_users(gen, n: int, queries_per_user: float) -> np.ndarray:
    """The user of each of ``n`` impressions: users issue 1 + Poisson(qpu - 1) in a row."""
    if queries_per_user == 1:
        return np.arange(n)
    per_user = 1 + gen.poisson(queries_per_user - 1, size=n)
    enough = int(np.searchsorted(np.cumsum(per_user), n)) + 1  # users who take the n
    return np.repeat(np.arange(enough), per_user[:enough])[:n]


def _comparison_verdict(needed, expected, target_power, alpha, sizes, method,
                        lang="en") -> str:
    key = f"ab.figure.{method}"
    name = phrase(key, lang) if key in TEXTS else method.replace("_", "-")

    def say(n):
        return (phrase("ab.methods.about", lang, n=n) if n is not None
                else phrase("ab.methods.more", lang, n=sizes[-1]))

    text = phrase("ab.methods.expected", lang, ctr_a=expected["ctr_a"], ctr_b=expected["ctr_b"],
                  preference=expected["preference"], power=target_power, alpha=alpha,
                  ab=say(needed["ab"]), method=name, il=say(needed["interleaving"]))
    if needed["ab"] and needed["interleaving"]:
        text += phrase("ab.methods.ratio", lang, ratio=needed["ab"] / needed["interleaving"])
    return text
