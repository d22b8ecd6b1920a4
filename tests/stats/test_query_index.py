"""Per-query scores as Series: a query listed twice is refused, queries are paired by name."""

from __future__ import annotations

import pandas as pd
import pytest
from scipy import stats

from reteval.errors import InputError
from reteval.stats import (
    bootstrap_mean_ci,
    bootstrap_test,
    paired_t_test,
    randomization_test,
    trisk,
    urisk,
    wilcoxon_test,
)

RUN = pd.Series([0.5, 0.2, 0.4, 0.9], index=["q1", "q2", "q3", "q4"])
BASE = pd.Series([0.3, 0.4, 0.4, 0.6], index=["q1", "q2", "q3", "q4"])
TWICE = pd.Series([0.5, 0.2, 0.4, 0.9], index=["q1", "q2", "q2", "q4"])


def _call(name, x, y):
    return {
        "urisk": lambda: urisk(x, y),
        "trisk": lambda: trisk(x, y),
        "t": lambda: paired_t_test(x, y),
        "wilcoxon": lambda: wilcoxon_test(x, y),
        "randomization": lambda: randomization_test(x, y, n_resamples=99, rng=0),
        "bootstrap": lambda: bootstrap_test(x, y, n_resamples=99, rng=0),
    }[name]()


NAMES = ["urisk", "trisk", "t", "wilcoxon", "randomization", "bootstrap"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(("x", "y", "which"), [(TWICE, BASE, "(x|run)"),
                                               (RUN, TWICE, "(y|baseline)")])
def test_a_query_listed_twice_is_refused(name, x, y, which):
    with pytest.raises(InputError, match=which + " lists a query more than once: 'q2'"):
        _call(name, x, y)


def test_bootstrap_interval_refuses_a_query_listed_twice():
    with pytest.raises(InputError, match="scores lists a query more than once: 'q2'"):
        bootstrap_mean_ci(TWICE, rng=0)


@pytest.mark.parametrize("name", ["urisk", "t"])
def test_series_are_paired_by_query_not_by_position(name):
    shuffled = BASE.iloc[[3, 1, 0, 2]]
    assert _call(name, RUN, shuffled).statistic == pytest.approx(
        _call(name, RUN, BASE).statistic, rel=1e-15)


def test_paired_t_of_shuffled_series_matches_scipy_paired_by_query():
    res = paired_t_test(RUN, BASE.iloc[::-1])
    ref = stats.ttest_rel(RUN.to_numpy(), BASE.to_numpy())
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


def test_a_query_only_one_side_holds_is_named():
    with pytest.raises(InputError, match="x misses 'q5'"):
        paired_t_test(RUN, pd.concat([BASE, pd.Series({"q5": 0.1})]))
