"""Users as units: heterogeneous simulated users, and A/B against interleaving per user."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from reteval import ab
from reteval.ab.simulation import _interpolated_first
from reteval.errors import InputError


def per_query_and_per_user_variance(log):
    """Variance of the control's click-through: queries independent, and users as unit (by hand)."""
    control = log[log["variant"] == "A"]
    clicked = control["clicks"].map(len).gt(0).to_numpy(float)
    p = clicked.mean()
    naive = p * (1 - p) / len(clicked)
    per_user = pd.DataFrame({"u": control["user_id"].to_numpy(), "c": clicked}).groupby("u")["c"]
    x, y = per_user.sum().to_numpy(), per_user.size().to_numpy(float)
    r = x.sum() / y.sum()
    n = len(x)
    sxx, syy = x.var(ddof=1), y.var(ddof=1)
    sxy = ((x - x.mean()) * (y - y.mean())).sum() / (n - 1)
    return naive, (sxx - 2 * r * sxy + r * r * syy) / (n * y.mean() ** 2)


def test_users_alike_by_default_and_heterogeneous_users_inflate_the_user_level_variance():
    qrels, run_a, run_b = ab.synthetic_collection(n_queries=20, rng=1)
    design = ab.Experiment("users", ("A", "B"))
    alike = ab.simulate_log(design, qrels, run_a, run_b, n_users=1500, queries_per_user=4.0, rng=2)
    naive, by_user = per_query_and_per_user_variance(alike)
    assert 0.85 < by_user / naive < 1.15
    differ = ab.simulate_log(design, qrels, run_a, run_b, n_users=1500, queries_per_user=4.0,
                             user_sd=1.0, rng=2)
    naive, by_user = per_query_and_per_user_variance(differ)
    assert by_user / naive > 1.4
    # user_sd=0 (the default) draws no factors: the same seed gives the same log with it or without
    again = ab.simulate_log(design, qrels, run_a, run_b, n_users=1500, queries_per_user=4.0,
                            user_sd=0.0, rng=2)
    pd.testing.assert_frame_equal(alike, again)


@pytest.mark.parametrize("bad", [-0.1, 3.5, True, "1"])
def test_user_sd_is_checked(bad):
    qrels, run_a, run_b = ab.synthetic_collection(n_queries=5, rng=1)
    with pytest.raises(InputError, match="user_sd must be a number from 0 to 3"):
        ab.simulate_log(ab.Experiment("x"), qrels, run_a, run_b, n_users=10, user_sd=bad)
    with pytest.raises(InputError, match="user_sd must be a number from 0 to 3"):
        ab.compare_methods(qrels, run_a, run_b, impressions=[10], n_experiments=1, user_sd=bad)
    with pytest.raises(InputError, match="queries_per_user must be at least 1"):
        ab.compare_methods(qrels, run_a, run_b, impressions=[10], n_experiments=1,
                           queries_per_user=0.5)


def test_needed_impressions_are_interpolated_in_log_scale():
    sizes = [100, 1000, 10000]
    # power 0.5 at 1000, 0.9 at 10000: 0.8 is 3/4 of the way in log10, at 10**3.75
    assert _interpolated_first(sizes, [0.1, 0.5, 0.9], 0.8) == round(10 ** 3.75)
    assert _interpolated_first(sizes, [0.85, 0.9, 1.0], 0.8) == 100  # the first size already
    assert _interpolated_first(sizes, [0.1, 0.2, 0.3], 0.8) is None
    assert _interpolated_first(sizes, [0.1, 0.8, 0.9], 0.8) == 1000


def test_ab_power_with_one_query_per_user_agrees_with_the_normal_approximation():
    # one impression per user: the user-level z test is the two-proportion test
    qrels, run_a, run_b = ab.synthetic_collection(n_queries=20, rng=1)
    res = ab.compare_methods(qrels, run_a, run_b, impressions=[300, 1000, 3000],
                             n_experiments=200, rng=2)
    e = res.expected
    z = stats.norm.isf(0.025)
    for n in (300, 1000, 3000):
        h = 2 * np.arcsin(np.sqrt(e["ctr_b"])) - 2 * np.arcsin(np.sqrt(e["ctr_a"]))
        assert res.table.loc[n, "ab_power"] == pytest.approx(
            stats.norm.sf(z - abs(h) * math.sqrt(n / 4)), abs=0.1)
    assert res.queries_per_user == 1.0 and res.user_sd == 0.0


def test_heterogeneous_users_cost_the_ab_test_more_power_than_interleaving():
    qrels, run_a, run_b = ab.synthetic_collection(n_queries=30, rng=3)
    kwargs = {"impressions": [500, 2000, 8000], "n_experiments": 60, "queries_per_user": 3.0}
    alike = ab.compare_methods(qrels, run_a, run_b, rng=4, **kwargs)
    differ = ab.compare_methods(qrels, run_a, run_b, user_sd=1.0, rng=4, **kwargs)
    ab_loss = (alike.table["ab_power"] - differ.table["ab_power"]).sum()
    il_loss = (alike.table["interleaving_power"] - differ.table["interleaving_power"]).sum()
    assert ab_loss > 0.3 and ab_loss > il_loss + 0.2


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the oracle on a prefix with an empty arm
@pytest.mark.parametrize("metric", ["ctr", "rr"])
def test_every_prefix_is_tested_as_if_its_impressions_were_all_there_were(metric):
    # compare_methods tests the first n impressions for each size n from running totals; the
    # delta-method z and the sign test's votes of each prefix, computed on the prefix alone
    from reteval.ab._prefixes import ratio_z_by_size, votes_by_size

    gen = np.random.default_rng(5)
    users = np.repeat(np.arange(400), 1 + gen.poisson(1.5, size=400))[:600]
    in_b = np.arange(600) % 2 == 1
    clicks = (gen.random(600) < 0.3) * (1.0 if metric == "ctr" else 1 / gen.integers(1, 11, 600))
    outcome = gen.integers(-1, 2, size=600).astype(float)
    sizes = np.array([2, 3, 50, 51, 333, 600])
    z = ratio_z_by_size(clicks, users, in_b, sizes)
    wins, losses = votes_by_size(outcome, users, sizes)
    for j, n in enumerate(sizes):
        x = np.bincount(users[:n], weights=clicks[:n])
        y = np.bincount(users[:n]).astype(float)
        rates, variances = [], []
        for arm in (~in_b[:len(y)] & (y > 0), in_b[:len(y)] & (y > 0)):
            r = x[arm].sum() / y[arm].sum()
            cov = np.cov(x[arm], y[arm]) if arm.sum() > 1 else np.full((2, 2), np.nan)
            rates.append(r)
            variances.append((cov[0, 0] - 2 * r * cov[0, 1] + r ** 2 * cov[1, 1])
                             / (arm.sum() * y[arm].mean() ** 2))
        expected = (rates[1] - rates[0]) / np.sqrt(variances[0] + variances[1])
        assert z[j] == pytest.approx(expected, rel=1e-9, nan_ok=True)
        net = np.bincount(users[:n], weights=outcome[:n])
        assert (wins[j], losses[j]) == ((net > 0).sum(), (net < 0).sum())
    assert np.isnan(z[0]) and np.isfinite(z[2:]).all()  # two impressions: one user per arm
