"""URisk and TRisk (Dinçer, Macdonald & Ounis, SIGIR 2014): hand-computed values and scipy."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from reteval.errors import InputError
from reteval.stats import trisk, urisk

RUN = [0.5, 0.2, 0.4, 0.9, 0.1]
BASE = [0.3, 0.4, 0.4, 0.6, 0.3]
# differences 0.2, -0.2, 0, 0.3, -0.2; with alpha = 1 losses count double:
# weighted 0.2, -0.4, 0, 0.3, -0.4 -> URisk = -0.3 / 5 = -0.06


def test_urisk_by_hand():
    res = urisk(RUN, BASE, alpha=1.0)
    assert res.statistic == pytest.approx(-0.06)
    assert res.urisk == pytest.approx(-0.06)
    assert (res.wins, res.losses, res.n) == (2, 2, 5)
    assert urisk(RUN, BASE, alpha=0).statistic == pytest.approx(0.02)  # plain mean difference
    assert urisk(RUN, BASE, alpha=4).statistic == pytest.approx((0.5 - 5 * 0.4) / 5)


def test_trisk_by_hand_and_scipy():
    weighted = np.array([0.2, -0.4, 0.0, 0.3, -0.4])
    se = weighted.std(ddof=1) / math.sqrt(5)
    res = trisk(RUN, BASE, alpha=1.0)
    assert res.statistic == pytest.approx(-0.06 / se)
    assert res.standard_error == pytest.approx(se)
    ref = stats.ttest_1samp(weighted, 0.0)
    assert res.statistic == pytest.approx(ref.statistic)
    assert res.pvalue == pytest.approx(ref.pvalue)


def test_trisk_with_alpha_zero_is_the_paired_t_test():
    rng = np.random.default_rng(0)
    x, y = rng.random(40), rng.random(40)
    ref = stats.ttest_rel(x, y)
    res = trisk(x, y, alpha=0)
    assert res.statistic == pytest.approx(ref.statistic)
    assert res.pvalue == pytest.approx(ref.pvalue)


def test_series_are_matched_by_query():
    run = pd.Series(RUN, index=list("abcde"))
    base = pd.Series(BASE, index=list("abcde"))[::-1]
    assert urisk(run, base).statistic == pytest.approx(-0.06)


def test_bad_input():
    with pytest.raises(InputError, match="baseline misses 'e'"):
        urisk(pd.Series(RUN, index=list("abcde")), pd.Series(BASE[:4], index=list("abcd")))
    with pytest.raises(InputError, match="alpha .* must be a number >= 0; got -1"):
        trisk(RUN, BASE, alpha=-1)
    with pytest.raises(InputError, match="at least 2 queries; got 1"):
        urisk([0.1], [0.2])
    with pytest.raises(InputError, match="got 5 and 4 values"):
        urisk(RUN, BASE[:4])
    with pytest.raises(InputError, match="finite numbers; got nan at position 1"):
        trisk([0.1, float("nan")], [0.2, 0.3])
