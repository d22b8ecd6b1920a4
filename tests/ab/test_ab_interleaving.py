"""Team-draft and balanced interleaving, click credit, preference statistic and tests."""

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from reteval.ab.interleaving import (
    Interleaving,
    Outcome,
    all_team_drafts,
    balanced,
    credit,
    interleaving_test,
    sign_test_pvalue,
    summarize_outcomes,
    team_draft,
)
from reteval.errors import InputError

A = ("a", "b", "c", "d")
B = ("b", "c", "a", "e")


def test_team_draft_is_reproducible_with_a_seed():
    assert team_draft(A, B, rng=7) == team_draft(A, B, rng=7)
    lists = {team_draft(A, B, rng=s).teams for s in range(50)}
    assert len(lists) > 1
    gen = np.random.default_rng(1)
    assert team_draft(A, B, rng=gen) is not None  # a Generator is used as is


rankings = st.lists(st.sampled_from("abcdefghij"), min_size=0, max_size=8, unique=True)


@settings(max_examples=200, deadline=None)
@given(rankings, rankings, st.integers(0, 2**32 - 1))
def test_team_draft_invariants(a, b, seed):
    il = team_draft(a, b, rng=seed)
    assert len(set(il.docs)) == len(il.docs) == len(set(a) | set(b))
    team_a = [d for d, t in zip(il.docs, il.teams, strict=True) if t == "A"]
    team_b = [d for d, t in zip(il.docs, il.teams, strict=True) if t == "B"]
    # each team's documents come from its ranking, in its order
    assert team_a == sorted(team_a, key=a.index) and set(team_a) <= set(a)
    assert team_b == sorted(team_b, key=b.index) and set(team_b) <= set(b)
    # while both rankings have documents left, the teams stay balanced
    for k in range(1, len(il.docs) + 1):
        na = il.teams[:k].count("A")
        left_a = any(d not in il.docs[:k] for d in a)
        left_b = any(d not in il.docs[:k] for d in b)
        if left_a and left_b:
            assert abs(na - (k - na)) <= 1


def test_all_team_drafts_is_the_distribution_of_team_draft():
    every = all_team_drafts(A, B)
    assert len(every) == 2 ** math.ceil(5 / 2)  # 5 distinct documents, 3 coin flips
    exact = Counter((il.docs, il.teams) for il in every)
    sampled = Counter((il.docs, il.teams) for il in (team_draft(A, B, rng=s) for s in range(4000)))
    assert set(sampled) == set(exact)
    keys = sorted(exact)
    expected = np.array([exact[k] for k in keys]) / len(every) * 4000
    assert stats.chisquare([sampled[k] for k in keys], expected).pvalue > 0.001


TDI = Interleaving(("a", "b", "c", "d"), ("A", "B", "B", "A"), "team_draft", A, B)


@pytest.mark.parametrize(
    "clicked, credits, winner",
    [
        (["a"], (1, 0), "A"),
        (["b"], (0, 1), "B"),
        (["a", "b"], (1, 1), "tie"),
        (["a", "d", "b"], (2, 1), "A"),
        (["b", "c"], (0, 2), "B"),
        ([], (0, 0), "none"),
    ],
)
def test_team_draft_credit_by_hand(clicked, credits, winner):
    out = credit(TDI, clicked)
    assert (out.credit_a, out.credit_b) == credits
    assert out.winner == winner


def test_balanced_interleaving_by_hand():
    # A leads: a (A1), b (B1), skip b (A2), c (B2), skip c (A3), skip a (B3), d (A4), e (B4)
    # B leads: b (B1), a (A1), c (B2), skip b (A2), skip a (B3), skip c (A3), e (B4), d (A4)
    docs = {balanced(A, B, rng=s).docs for s in range(20)}
    assert docs == {("a", "b", "c", "d", "e"), ("b", "a", "c", "e", "d")}


BAL = Interleaving(("a", "b", "c", "d", "e"), (), "balanced", A, B)


@pytest.mark.parametrize(
    "clicked, credits, winner",
    [
        # lowest click d: rank 4 in A, absent from B -> k = 4; d is in A's top 4 only
        (["d"], (1, 0), "A"),
        # lowest click c: rank 3 in A, 2 in B -> k = 2; top2 A = {a, b}, top2 B = {b, c}
        (["c"], (0, 1), "B"),
        (["a", "c"], (1, 1), "tie"),
        # b: rank 2 in A, 1 in B -> k = 1; top1 A = {a}, top1 B = {b}
        (["b"], (0, 1), "B"),
        # e: only in B at rank 4 -> k = 4; A's top 4 = {a, b, c, d}
        (["a", "e"], (1, 2), "B"),
        ([], (0, 0), "none"),
    ],
)
def test_balanced_credit_by_hand(clicked, credits, winner):
    out = credit(BAL, clicked)
    assert (out.credit_a, out.credit_b) == credits
    assert out.winner == winner


def test_identical_rankings_never_prefer_either_side_under_balanced():
    il = balanced(A, A, rng=0)
    assert {credit(il, c).winner for c in (["a"], ["b", "d"], ["c"])} == {"tie"}


def test_preference_statistic_and_sign_test():
    res = interleaving_test(60, 40, 20, rng=0)
    assert res.preference == pytest.approx((60 + 20 / 2) / 120 - 0.5)
    # scipy.stats.binomtest(60, 100, 0.5).pvalue
    assert res.pvalue == pytest.approx(stats.binomtest(60, 100, 0.5).pvalue, rel=1e-12)
    assert res.n == 120 and res.ties == 20
    # bootstrap interval against the normal one: per-impression score s in {1, 0, 1/2}
    p_w, p_t = 60 / 120, 20 / 120
    sd = math.sqrt(((p_w + p_t / 4) - (p_w + p_t / 2) ** 2) / 120)
    assert res.ci_low == pytest.approx(res.preference - 1.96 * sd, abs=0.01)
    assert res.ci_high == pytest.approx(res.preference + 1.96 * sd, abs=0.01)
    assert interleaving_test(60, 40, 20, rng=0) == res
    assert "No preference detected" in res.verdict


def test_clear_preference_verdict():
    res = interleaving_test(30, 70, 5, rng=1)
    assert res.preference < 0 and res.pvalue < 0.001 and res.ci_high < 0
    assert res.verdict.startswith("Users preferred B")


@pytest.mark.parametrize("wins, losses", [(0, 0), (5, 5), (9, 1), (120, 95), (3, 30), (0, 4)])
def test_vectorised_sign_test_matches_binomtest(wins, losses):
    expected = 1.0 if wins + losses == 0 else stats.binomtest(wins, wins + losses).pvalue
    assert float(sign_test_pvalue(wins, losses)) == pytest.approx(expected, rel=1e-12)


def test_summarize_outcomes():
    outs = [Outcome(1, 0), Outcome(0, 2), Outcome(1, 1), Outcome(0, 0), "A"]
    assert summarize_outcomes(outs) == (2, 1, 1, 1)
    with pytest.raises(InputError, match="got 'C'"):
        summarize_outcomes(["C"])


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: credit(TDI, ["z"]), "clicked doc id 'z' is not in the interleaved list"),
        (lambda: team_draft(["a", "a"], ["b"]), "ranking_a lists a doc id twice"),
        (lambda: team_draft("abc", ["b"]), "got the string 'abc'"),
        (lambda: team_draft(A, B, length=-1), "length must be a non-negative integer"),
        (lambda: interleaving_test(0, 0, 0), "no impression with clicks"),
        (lambda: interleaving_test(-1, 0, 3), "wins must be a non-negative integer"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(InputError, match=message):
        call()


def test_length_truncates():
    il = team_draft(A, B, rng=0, length=3)
    assert len(il.docs) == 3 and len(il.teams) == 3
