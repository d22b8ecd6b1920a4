"""Interleaving: compare two rankers inside one result list.

Instead of showing ranker A to some users and ranker B to others, each
impression merges both rankings into one list; the user's clicks are credited
to the ranker that contributed the clicked documents. Every user judges both
rankers on the same query, which removes the between-user variance that
dominates A/B tests, so interleaving needs far fewer impressions (see
:mod:`reteval.ab.simulation`).

Team-draft interleaving (Radlinski, Kurup & Joachims, CIKM 2008)
    Like captains picking teams: at each round a fair coin decides which
    ranker picks first, then each ranker adds its highest-ranked document not
    yet in the list, and that document joins its team. A click counts for
    the team of the clicked document.
Balanced interleaving (Joachims, KDD 2003)
    A coin decides which ranker leads; the list then takes documents from
    both rankings in alternation, keeping the two prefixes balanced and
    skipping duplicates. Let ``d`` be the lowest clicked document and ``k``
    the smaller of its ranks in A and B; A gets the clicks on documents in
    its top ``k``, B the clicks on documents in its top ``k`` (a document in
    both counts for both).

Per impression, A *wins* if it gets more clicks, *loses* if it gets fewer,
and ties with equal, non-zero credit; impressions without clicks carry no
preference and are left out. Over ``n = wins + losses + ties`` impressions
the preference statistic (Chapelle, Joachims, Radlinski & Yue, TOIS 2012) is::

    delta = (wins + ties / 2) / n - 0.5

positive when A is preferred. The test is the sign test (ties dropped):
``scipy.stats.binomtest(wins, wins + losses, 0.5)``; the confidence interval
of ``delta`` is a percentile bootstrap over impressions.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

import numpy as np
from scipy import stats as _st

from reteval._util.catalogue import check_lang, phrase
from reteval._util.validation import check_probability, check_rng
from reteval.errors import InputError

__all__ = [
    "Interleaving",
    "InterleavingResult",
    "Outcome",
    "all_team_drafts",
    "balanced",
    "balanced_from_order",
    "credit",
    "interleaving_test",
    "sign_test_pvalue",
    "summarize_outcomes",
    "team_draft",
    "team_draft_from_coins",
]


@dataclass(frozen=True)
class Interleaving:
    """An interleaved result list.

    Attributes
    ----------
    docs : tuple of str
        The list shown, in rank order.
    teams : tuple of str
        For team-draft, ``"A"`` or ``"B"`` per position: who contributed it.
        For balanced interleaving, empty.
    method : str
        ``"team_draft"`` or ``"balanced"``.
    ranking_a, ranking_b : tuple of str
        The two input rankings (balanced credit needs them).
    """

    docs: tuple[str, ...]
    teams: tuple[str, ...]
    method: str
    ranking_a: tuple[str, ...]
    ranking_b: tuple[str, ...]


def _check_ranking(name: str, ranking) -> tuple[str, ...]:
    if isinstance(ranking, str):
        raise InputError(f"{name} must be a sequence of doc ids; got the string {ranking!r}")
    out = tuple(str(d) for d in ranking)
    if len(set(out)) != len(out):
        raise InputError(f"{name} lists a doc id twice: {out!r}")
    return out


def _length(length, a, b) -> int:
    full = len(set(a) | set(b))
    if length is None:
        return full
    if isinstance(length, bool) or not isinstance(length, int) or length < 0:
        raise InputError(f"length must be a non-negative integer or None; got {length!r}")
    return min(length, full)


def team_draft_from_coins(a, b, coins, n) -> tuple[list[str], list[str]]:
    """Team draft of rankings ``a`` and ``b`` to length ``n``, given its coin flips.

    The deterministic core of :func:`team_draft`: ``coins`` yields True where
    A picks first on a tie of team sizes. Returns the documents and their teams.
    Simulations draw all coins at once and call this.
    """
    docs, teams, seen = [], [], set()
    ia = ib = 0
    count_a = count_b = 0
    coins = iter(coins)
    while len(docs) < n:
        while ia < len(a) and a[ia] in seen:
            ia += 1
        while ib < len(b) and b[ib] in seen:
            ib += 1
        if ia >= len(a) and ib >= len(b):
            break
        if count_a < count_b:
            pick_a = True
        elif count_b < count_a:
            pick_a = False
        else:
            pick_a = next(coins)
        # a ranker with nothing left to add hands the turn to the other
        if pick_a and ia >= len(a):
            pick_a = False
        elif not pick_a and ib >= len(b):
            pick_a = True
        doc = a[ia] if pick_a else b[ib]
        docs.append(doc)
        teams.append("A" if pick_a else "B")
        seen.add(doc)
        if pick_a:
            count_a += 1
        else:
            count_b += 1
    return docs, teams


def team_draft(ranking_a: Sequence[str], ranking_b: Sequence[str], *, rng=None,
               length: int | None = None) -> Interleaving:
    """Team-draft interleaving of two rankings.

    Parameters
    ----------
    ranking_a, ranking_b : sequence of str
        Doc ids, best first.
    rng : numpy.random.Generator, int or None
        Source of the coin flips (an int seeds a new generator).
    length : int, optional
        Length of the list; by default until both rankings are used up.
        When one ranking is used up, the other keeps adding its documents.

    Returns
    -------
    Interleaving

    Examples
    --------
    >>> il = team_draft(["a", "b", "c"], ["b", "d", "a"], rng=3)
    >>> il.docs, il.teams
    (('a', 'b', 'd', 'c'), ('A', 'B', 'B', 'A'))
    """
    a = _check_ranking("ranking_a", ranking_a)
    b = _check_ranking("ranking_b", ranking_b)
    gen = check_rng(rng)

    def coins():
        while True:
            yield bool(gen.integers(2))

    docs, teams = team_draft_from_coins(a, b, coins(), _length(length, a, b))
    return Interleaving(tuple(docs), tuple(teams), "team_draft", a, b)


def all_team_drafts(ranking_a: Sequence[str], ranking_b: Sequence[str], *,
                    length: int | None = None) -> list[Interleaving]:
    """Every team-draft list of the two rankings, each equally likely.

    Team-draft flips at most one coin per pair of picks, so the
    ``2 ** ceil(length / 2)`` coin sequences, equally likely, give its exact
    distribution (some sequences give the same list and appear more than
    once). The simulation samples from this list.
    """
    a = _check_ranking("ranking_a", ranking_a)
    b = _check_ranking("ranking_b", ranking_b)
    n = _length(length, a, b)
    out = []
    for coins in product((True, False), repeat=(n + 1) // 2):
        docs, teams = team_draft_from_coins(a, b, coins, n)
        out.append(Interleaving(tuple(docs), tuple(teams), "team_draft", a, b))
    return out


def balanced_from_order(a, b, a_first, n) -> list[str]:
    """Balanced interleaving of ``a`` and ``b`` to length ``n``, ``a_first`` decided.

    The deterministic core of :func:`balanced`, for simulations.
    """
    docs, seen = [], set()
    ka = kb = 0
    while len(docs) < n and (ka < len(a) or kb < len(b)):
        take_a = (ka < kb or (ka == kb and a_first)) if ka < len(a) and kb < len(b) \
            else ka < len(a)
        doc = a[ka] if take_a else b[kb]
        if take_a:
            ka += 1
        else:
            kb += 1
        if doc not in seen:
            docs.append(doc)
            seen.add(doc)
    return docs


def balanced(ranking_a: Sequence[str], ranking_b: Sequence[str], *, rng=None,
             length: int | None = None) -> Interleaving:
    """Balanced interleaving of two rankings (one coin decides who leads).

    Examples
    --------
    >>> balanced(["a", "b", "c"], ["b", "d", "a"], rng=0).docs
    ('a', 'b', 'd', 'c')
    """
    a = _check_ranking("ranking_a", ranking_a)
    b = _check_ranking("ranking_b", ranking_b)
    a_first = bool(check_rng(rng).integers(2))
    docs = balanced_from_order(a, b, a_first, _length(length, a, b))
    return Interleaving(tuple(docs), (), "balanced", a, b)


@dataclass(frozen=True)
class Outcome:
    """Credit of one impression: clicks counted for A and for B."""

    credit_a: int
    credit_b: int

    @property
    def winner(self) -> str:
        """``"A"``, ``"B"``, ``"tie"`` (equal non-zero credit) or ``"none"`` (no credit)."""
        if self.credit_a > self.credit_b:
            return "A"
        if self.credit_b > self.credit_a:
            return "B"
        return "tie" if self.credit_a > 0 else "none"


def credit(interleaving: Interleaving, clicked: Sequence[str]) -> Outcome:
    """Credit the clicks of one impression to the two rankers.

    Parameters
    ----------
    interleaving : Interleaving
        The list shown.
    clicked : sequence of str
        Clicked doc ids; each must be in the list.

    Returns
    -------
    Outcome

    Examples
    --------
    >>> il = Interleaving(("a", "b", "c", "d"), ("A", "B", "A", "B"), "team_draft",
    ...                   ("a", "c", "d"), ("b", "d", "a"))
    >>> credit(il, ["b", "c"]).winner, credit(il, ["b", "d"]).winner, credit(il, []).winner
    ('tie', 'B', 'none')
    """
    clicked = _check_ranking("clicked", clicked)
    shown = set(interleaving.docs)
    for doc in clicked:
        if doc not in shown:
            raise InputError(f"clicked doc id {doc!r} is not in the interleaved list")
    if interleaving.method == "team_draft":
        team = dict(zip(interleaving.docs, interleaving.teams, strict=True))
        ca = sum(team[d] == "A" for d in clicked)
        return Outcome(ca, len(clicked) - ca)
    if interleaving.method != "balanced":
        raise InputError(f"unknown interleaving method {interleaving.method!r}")
    if not clicked:
        return Outcome(0, 0)
    pos = {d: i for i, d in enumerate(interleaving.docs)}
    lowest = max(clicked, key=pos.__getitem__)
    ra = {d: i + 1 for i, d in enumerate(interleaving.ranking_a)}
    rb = {d: i + 1 for i, d in enumerate(interleaving.ranking_b)}
    k = min(ra.get(lowest, math.inf), rb.get(lowest, math.inf))
    top_a, top_b = set(interleaving.ranking_a[:k]), set(interleaving.ranking_b[:k])
    return Outcome(sum(d in top_a for d in clicked), sum(d in top_b for d in clicked))


def summarize_outcomes(outcomes) -> tuple[int, int, int, int]:
    """Count (wins of A, wins of B, ties, impressions without credit).

    ``outcomes`` holds :class:`Outcome` objects or their ``winner`` strings.

    Examples
    --------
    >>> summarize_outcomes(["A", "A", "B", "tie", "none"])
    (2, 1, 1, 1)
    """
    counts = {"A": 0, "B": 0, "tie": 0, "none": 0}
    for o in outcomes:
        key = o.winner if isinstance(o, Outcome) else o
        if key not in counts:
            raise InputError(f"an outcome must be an Outcome or one of {list(counts)!r}; "
                             f"got {o!r}")
        counts[key] += 1
    return counts["A"], counts["B"], counts["tie"], counts["none"]


def sign_test_pvalue(wins, losses):
    """Two-sided exact sign test p-value, vectorised (ties dropped beforehand).

    Equal to ``scipy.stats.binomtest(wins, wins + losses, 0.5).pvalue``: by
    symmetry twice the smaller tail, capped at 1; 1 when there is no
    non-tied impression.
    """
    w = np.asarray(wins, dtype=float)
    n = w + np.asarray(losses, dtype=float)
    k = np.minimum(w, n - w)
    p = np.minimum(1.0, 2 * _st.binom.cdf(k, n, 0.5))
    return np.where(n > 0, p, 1.0)


@dataclass(frozen=True)
class InterleavingResult:
    """Outcome of an interleaving experiment.

    Attributes
    ----------
    wins, losses, ties : int
        Impressions A won, lost and tied (with clicks).
    no_clicks : int
        Impressions without credit, not counted in ``n``.
    n : int
        ``wins + losses + ties``.
    preference : float
        ``(wins + ties/2) / n - 0.5``; positive favours A.
    ci_low, ci_high : float
        Percentile bootstrap interval of ``preference``.
    pvalue : float
        Two-sided sign test of wins against losses.
    confidence_level : float
    verdict : str
    """

    wins: int
    losses: int
    ties: int
    no_clicks: int
    n: int
    preference: float
    ci_low: float
    ci_high: float
    pvalue: float
    confidence_level: float
    verdict: str


def interleaving_test(wins: int, losses: int, ties: int, *, no_clicks: int = 0,
                      alpha: float = 0.05, n_resamples: int = 10_000,
                      rng=None, lang: str = "en") -> InterleavingResult:
    """Preference statistic, sign test and bootstrap interval from outcome counts.

    Parameters
    ----------
    wins, losses, ties : int
        Impression counts (see :func:`summarize_outcomes`).
    no_clicks : int, default 0
        Impressions without clicks; reported, not used.
    alpha : float, default 0.05
        Test level; the interval has confidence ``1 - alpha``.
    n_resamples : int, default 10000
        Bootstrap resamples. Resampling ``n`` impressions with replacement
        is a multinomial draw of (wins, losses, ties) with the observed
        shares, which is how it is computed.
    rng : numpy.random.Generator, int or None
    lang : {"en", "zh"}, default "en"
        Language of the verdict.

    Examples
    --------
    >>> r = interleaving_test(60, 40, 20, rng=0)
    >>> round(r.preference, 4), round(r.pvalue, 4)
    (0.0833, 0.0569)
    """
    for name, v in (("wins", wins), ("losses", losses), ("ties", ties),
                    ("no_clicks", no_clicks), ("n_resamples", n_resamples)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
            raise InputError(f"{name} must be a non-negative integer; got {v!r}")
    alpha = check_probability(alpha, "alpha")
    check_lang(lang)
    n = int(wins + losses + ties)
    if n == 0:
        raise InputError("no impression with clicks: wins + losses + ties is 0")
    pref = (wins + ties / 2) / n - 0.5
    pvalue = float(sign_test_pvalue(wins, losses))
    if n_resamples > 0:
        draws = check_rng(rng).multinomial(n, np.array([wins, losses, ties]) / n, size=n_resamples)
        boot = (draws[:, 0] + draws[:, 2] / 2) / n - 0.5
        low, high = np.quantile(boot, [alpha / 2, 1 - alpha / 2])
    else:
        low = high = math.nan
    fields = {"n": n, "wins": int(wins), "losses": int(losses), "ties": int(ties),
              "preference": pref, "confidence": 1 - alpha, "low": low, "high": high,
              "p": pvalue}
    if pvalue < alpha:
        verdict = phrase("ab.interleaving.preferred", lang, who="A" if pref > 0 else "B",
                         **fields)
    else:
        verdict = phrase("ab.interleaving.none", lang, **fields)
    return InterleavingResult(int(wins), int(losses), int(ties), int(no_clicks), n,
                              float(pref), float(low), float(high), pvalue,
                              float(1 - alpha), verdict)
