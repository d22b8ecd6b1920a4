"""Agreement between rankings: scipy's Kendall tau, tau_AP by hand, RBO against the rbo package."""

import numpy as np
import pandas as pd
import pytest

from reteval.errors import InputError
from reteval.judging import kendall_tau, rbo, tau_ap


def systems(*names):
    """A ranking of systems, best first."""
    return pd.Series({n: float(len(names) - i) for i, n in enumerate(names)})


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_kendall_tau_equals_scipy(seed):
    from scipy.stats import kendalltau

    rng = np.random.default_rng(seed)
    names = [f"s{i}" for i in range(12)]
    a = pd.Series(rng.random(12), index=names)
    b = pd.Series(rng.random(12).round(1), index=names[::-1])  # other order, some ties
    expected = kendalltau(a.to_numpy(), b.reindex(names).to_numpy()).statistic
    assert kendall_tau(a, b) == pytest.approx(expected, abs=1e-12)


def test_tau_ap_by_hand():
    truth = systems("a", "b", "c", "d")
    # Yilmaz et al.: tau_AP = 2/(N-1) sum_{i>=2} C(i)/(i-1) - 1, over `other`'s order.
    # b a c d: C = 0/1, 2/2, 3/3 -> 2/3 * 2 - 1 = 1/3 (Kendall: 2/3)
    assert tau_ap(truth, systems("b", "a", "c", "d")) == pytest.approx(1 / 3)
    # a b d c: C = 1/1, 2/2, 2/3 -> 2/3 * 8/3 - 1 = 7/9 (Kendall: 2/3 as well)
    assert tau_ap(truth, systems("a", "b", "d", "c")) == pytest.approx(7 / 9)
    assert kendall_tau(truth, systems("b", "a", "c", "d")) == pytest.approx(2 / 3)
    assert kendall_tau(truth, systems("a", "b", "d", "c")) == pytest.approx(2 / 3)
    assert tau_ap(truth, truth) == pytest.approx(1.0)
    assert tau_ap(truth, systems("d", "c", "b", "a")) == pytest.approx(-1.0)


def test_tau_ap_is_not_symmetric():
    truth = systems("a", "b", "c", "d", "e")
    other = systems("b", "c", "a", "d", "e")
    # over other's order b c a d e: C = 1/1, 0/2, 3/3, 4/4 -> 2/4 * 3 - 1 = 0.5
    assert tau_ap(truth, other) == pytest.approx(0.5)
    # over truth's order a b c d e against other: C = 0/1, 1/2, 3/3, 4/4 -> 2/4 * 2.5 - 1
    assert tau_ap(other, truth) == pytest.approx(0.25)


def test_tau_ap_counts_a_tie_in_one_ranking_as_half_and_in_both_as_agreement():
    truth = pd.Series({"a": 1.0, "b": 1.0, "c": 0.0})
    # other: a b c; i=2 (b): a tied with b in truth only -> 1/2; i=3 (c): 2/2 -> 2/2 * 1.5 - 1
    assert tau_ap(truth, systems("a", "b", "c")) == pytest.approx(0.5)
    assert tau_ap(systems("a", "b", "c"), truth) == pytest.approx(0.5)
    # identical rankings with a tie: 1
    assert tau_ap(truth, truth.copy()) == pytest.approx(1.0)


@pytest.mark.parametrize("list_a, list_b, p, expected", [
    # rbo 0.1.3 (PyPI): RankingSimilarity(list_a, list_b).rbo_ext(p=p)
    (list("abcdefg"), list("bacdegf"), 0.9, 0.8901585000000001),
    (list("abcdefghij"), list("acejbdfhgk"), 0.9, 0.8114907565642857),
    (list("abcde"), list("bfahgcid"), 0.8, 0.4512146285714287),
    (list("abc"), list("xyzab"), 0.95, 0.33651968749999994),
])
def test_rbo_equals_the_rbo_package(list_a, list_b, p, expected):
    assert rbo(list_a, list_b, p=p) == pytest.approx(expected, abs=1e-12)
    assert rbo(list_b, list_a, p=p) == pytest.approx(expected, abs=1e-12)  # symmetric


def test_rbo_by_hand():
    # a b c d vs b a c d, p = 0.9: agreements 0, 1, 1, 1;
    # (1-p)/p (0.9^2 + 0.9^3 + 0.9^4) + 1 * 0.9^4 = 0.9
    assert rbo(list("abcd"), list("bacd"), p=0.9) == pytest.approx(0.9)
    assert rbo(list("abc"), list("abc")) == pytest.approx(1.0)
    assert rbo(list("abc"), list("xyz")) == 0.0
    assert rbo([], []) == 1.0 and rbo(["a"], []) == 0.0


def test_bad_rankings_are_named():
    with pytest.raises(InputError, match="same systems in both rankings; 'b' is in only one"):
        kendall_tau(systems("a", "b"), systems("a", "c"))
    with pytest.raises(InputError, match="at least two systems"):
        tau_ap(systems("a"), systems("a"))
    with pytest.raises(InputError, match="pandas Series"):
        kendall_tau({"a": 1, "b": 2}, systems("a", "b"))
    with pytest.raises(InputError, match="list_b lists 'a' twice"):
        rbo(["a", "b"], ["a", "a"])
    with pytest.raises(InputError, match="p must be between 0 and 1"):
        rbo(["a"], ["a"], p=1.0)
    with pytest.raises(InputError, match="every score tied"):
        kendall_tau(pd.Series({"a": 1.0, "b": 1.0}), systems("a", "b"))
