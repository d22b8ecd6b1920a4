"""Ranking agreement at its input edges: numpy numbers, ids that cannot be ids, 1 vs "1"."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from reteval.errors import InputError
from reteval.judging import kendall_tau, rbo, tau_ap

A = ["a", "b", "c", "d"]
B = ["b", "a", "c", "d"]


@pytest.mark.parametrize("p", [0.9, np.float32(0.9), np.float64(0.9), Fraction(9, 10)])
def test_rbo_takes_any_real_p(p):
    # by hand (Webber et al. eq. 32, equal lengths): agreements 0, 1, 1, 1 at depths 1..4,
    # RBO_ext = (1 - p) / p * sum(A_d p^d) + A_4 p^4 = 0.1/0.9 (0.81 + 0.729 + 0.6561) + 0.6561
    expected = 0.1 / 0.9 * (0.81 + 0.729 + 0.6561) + 0.6561
    assert rbo(A, B, p=p) == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize(("p", "message"), [
    (np.float32(1.5), r"p must be between 0 and 1 \(exclusive\); got np.float32\(1.5\)"),
    (0.0, r"p must be between 0 and 1 \(exclusive\); got 0.0"),
    (float("nan"), r"p must be between 0 and 1 \(exclusive\); got nan"),
    ("0.5", r"p must be a number between 0 and 1 \(exclusive\); got '0.5'"),
    (True, r"p must be a number between 0 and 1 \(exclusive\); got True"),
    (np.bool_(True), r"p must be a number"),
])
def test_rbo_bad_p(p, message):
    with pytest.raises(InputError, match=message):
        rbo(A, B, p=p)


@pytest.mark.parametrize(("list_a", "list_b", "message"), [
    (["a", ["b"]], A, r"rbo: list_a holds \['b'\] at rank 2, which cannot be an id \(a list"),
    (A, [{"x": 1}], r"rbo: list_b holds \{'x': 1\} at rank 1, which cannot be an id \(a dict"),
])
def test_rbo_unhashable_ids_are_named(list_a, list_b, message):
    with pytest.raises(InputError, match=message):
        rbo(list_a, list_b)


@pytest.mark.parametrize("function", [kendall_tau, tau_ap])
def test_int_and_str_system_names_are_an_error(function):
    a = pd.Series({1: 0.4, 2: 0.3, 3: 0.2})
    b = pd.Series({"1": 0.3, "2": 0.4, "3": 0.2})
    with pytest.raises(InputError, match=r"system 1 \(int\) of one ranking is '1' \(str\) in "
                                         r"the other; name the systems alike"):
        function(a, b)


def test_numpy_integer_names_match_python_ints():
    a = pd.Series([0.4, 0.3, 0.2], index=np.array([1, 2, 3], dtype=np.int32))
    b = pd.Series({3: 0.1, 2: 0.5, 1: 0.2})
    expected = stats.kendalltau([0.4, 0.3, 0.2], [0.2, 0.5, 0.1]).statistic
    assert kendall_tau(a, b) == pytest.approx(expected, rel=1e-12)


def test_a_system_in_only_one_ranking_is_named():
    with pytest.raises(InputError, match="'s2' is in only one"):  # the first by name
        kendall_tau(pd.Series({"s1": 1.0, "s2": 0.5}), pd.Series({"s1": 1.0, "s9": 0.5}))
