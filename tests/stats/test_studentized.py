"""The studentized range tail of many values at once, against scipy."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import stats

from reteval.stats import tukey_hsd
from reteval.stats.studentized import studentized_range_sf

Q = np.array([0.05, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 15.0, 30.0])


def _scipy_sf(q, k, df):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy's quadrature warns in the far tails
        return np.array([float(stats.studentized_range.sf(v, k, df)) for v in q])


@pytest.mark.parametrize(("k", "df"), [
    (2, 1), (2, 30), (3, 2), (3, 99_999), (5, 5), (10, 1), (10, 1000), (50, 10), (150, 149),
    (150, 14_751), (300, 2), (300, 299), (300, 14_651), (4, math.inf), (300, math.inf),
])
def test_matches_scipy_on_a_grid(k, df):
    np.testing.assert_allclose(studentized_range_sf(Q, k, df), _scipy_sf(Q, k, df),
                               rtol=0, atol=1e-8)


@pytest.mark.parametrize(("q", "expected"), [
    (0.0, 1.0), (-2.0, 1.0), (math.inf, 0.0), (math.nan, math.nan),
])
def test_edges(q, expected):
    np.testing.assert_equal(studentized_range_sf([q], 5, 20), [expected])


def test_two_means_is_twice_the_t_tail():
    # with k = 2, Q = |T| sqrt(2): P(Q > q) = 2 P(T > q / sqrt(2)) = scipy.stats.t.sf * 2
    q = np.array([0.3, 1.0, 2.8, 6.0, 12.0])
    expected = 2 * stats.t.sf(q / math.sqrt(2), 7)
    np.testing.assert_allclose(studentized_range_sf(q, 2, 7), expected, rtol=1e-8, atol=1e-14)


def test_tukey_hsd_studentized_equals_scipy_pair_by_pair_and_is_quiet():
    rng = np.random.default_rng(5)
    x = rng.random((12, 15)) * 0.4 + np.linspace(0.0, 0.3, 15)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = tukey_hsd(x, method="studentized")
    q = res.statistic.to_numpy()
    upper = np.triu_indices(15, 1)
    expected = _scipy_sf(q[upper], 15, 11 * 14)
    np.testing.assert_allclose(res.pvalue.to_numpy()[upper], expected, rtol=0, atol=1e-8)
    np.testing.assert_array_equal(res.pvalue.to_numpy(), res.pvalue.to_numpy().T)
    assert (np.diag(res.pvalue.to_numpy()) == 1.0).all()
