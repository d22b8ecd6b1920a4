"""mSPRT: the formula, error control under continuous peeking, confidence sequences."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from reteval.ab.metrics import estimate
from reteval.ab.sequential import mixture_likelihood_ratio, msprt, sequential_test
from reteval.ab.sufficient import cumulative_statistics
from reteval.errors import InputError


def test_matches_the_papers_two_sample_statistic():
    # Johari et al. (2017), equal groups of n with variance sigma^2, mixing N(0, tau^2):
    # Lambda = sqrt(2s2 / (2s2 + n t2)) * exp(n^2 t2 d^2 / (4 s2 (2s2 + n t2)))
    s2, t2, n, d = 1.3, 0.04, 250, 0.21
    paper = math.sqrt(2 * s2 / (2 * s2 + n * t2)) * math.exp(
        n**2 * t2 * d**2 / (4 * s2 * (2 * s2 + n * t2)))
    ours = mixture_likelihood_ratio(d, 2 * s2 / n, mixing_sd=math.sqrt(t2))
    assert float(ours) == pytest.approx(paper, rel=1e-12)


def _null_paths(rng, n_sims, n_max, kind):
    if kind == "normal":
        x = rng.normal(0.0, 1.0, size=(n_sims, n_max))
        y = rng.normal(0.0, 1.0, size=(n_sims, n_max))
    else:
        x = rng.binomial(1, 0.3, size=(n_sims, n_max)).astype(float)
        y = rng.binomial(1, 0.3, size=(n_sims, n_max)).astype(float)
    return x, y


def _looks(x, y, at):
    n = at + 1
    mx, my = np.cumsum(x, 1)[:, at] / n, np.cumsum(y, 1)[:, at] / n
    vx = (np.cumsum(x**2, 1)[:, at] - n * mx**2) / (n - 1)
    vy = (np.cumsum(y**2, 1)[:, at] - n * my**2) / (n - 1)
    return my - mx, vx / n + vy / n


@pytest.mark.parametrize("kind, tau", [("normal", 0.1), ("bernoulli", 0.05)])
def test_false_positive_rate_under_continuous_peeking(kind, tau):
    """Seeded null simulation: 40 looks each; the always-valid test stays at alpha."""
    rng = np.random.default_rng(2017)
    n_sims, alpha = 2000, 0.05
    at = np.arange(49, 2000, 50)  # look after every 50 users per group
    x, y = _null_paths(rng, n_sims, 2000, kind)
    diff, var = _looks(x, y, at)
    rejected = np.array([msprt(d, v, mixing_sd=tau, alpha=alpha).stopped_at is not None
                         for d, v in zip(diff, var, strict=True)])
    naive = (2 * norm.sf(np.abs(diff / np.sqrt(var))) < alpha).any(axis=1)
    tolerance = 3 * math.sqrt(alpha * (1 - alpha) / n_sims)  # 3 Monte Carlo sd = 0.0146
    assert rejected.mean() <= alpha + tolerance
    # the naive fixed-horizon test, peeked at 40 times, is far above alpha
    assert naive.mean() > 3 * alpha


def test_power_and_confidence_sequence_coverage_under_an_effect():
    rng = np.random.default_rng(7)
    n_sims, effect = 500, 0.2
    at = np.arange(49, 2000, 50)
    x = rng.normal(0.0, 1.0, size=(n_sims, 2000))
    y = rng.normal(effect, 1.0, size=(n_sims, 2000))
    diff, var = _looks(x, y, at)
    results = [msprt(d, v, mixing_sd=0.2) for d, v in zip(diff, var, strict=True)]
    detected = np.mean([r.stopped_at is not None and r.difference[r.stopped_at] > 0
                        for r in results])
    covered = np.mean([(r.ci_low <= effect).all() and (r.ci_high >= effect).all()
                       for r in results])
    assert detected > 0.95  # 2000 users per arm, d = 0.2: power about 1 at the end
    assert covered >= 0.95 - 3 * math.sqrt(0.05 * 0.95 / n_sims)


def test_pvalue_is_monotone_and_interval_shrinks():
    res = msprt([0.0, 0.3, -0.1, 0.05], [0.04, 0.02, 0.01, 0.005], mixing_sd=0.1)
    assert (np.diff(res.pvalue) <= 0).all()
    assert (np.diff(res.ci_high - res.ci_low) <= 0).all()
    assert res.to_frame().shape == (4, 6)
    assert res.naive_pvalue[0] == pytest.approx(1.0)


def test_undefined_looks_are_skipped():
    res = msprt([np.nan, 0.1], [np.nan, 0.001], mixing_sd=0.05)
    assert res.pvalue[0] == 1.0 and np.isinf(res.ci_low[0])
    assert res.pvalue[1] < 1.0


def test_sequential_test_over_a_log():
    rng = np.random.default_rng(3)
    n = 3000
    variant = np.where(np.arange(n) % 2 == 0, "A", "B")
    log = pd.DataFrame({
        "variant": variant, "user_id": [f"u{i}" for i in range(n)],
        "feedback": rng.binomial(1, np.where(variant == "A", 0.55, 0.62)),
        "n_clicks": 0, "n_retrieved": 10,
        "timestamp": pd.Timestamp("2024-05-01", tz="UTC") + pd.to_timedelta(
            np.arange(n) * 400, unit="s")})
    looks = pd.date_range("2024-05-01", periods=14, freq="1D", tz="UTC") + pd.Timedelta("1D")
    cum = cumulative_statistics(log, looks)
    res = sequential_test(cum, "satisfaction", control="A", treatment="B", mixing_sd=0.05)
    est = estimate(cum, "satisfaction")["value"].unstack()
    assert res.difference == pytest.approx((est["B"] - est["A"]).to_numpy())
    assert res.stopped_at is not None and "could have been stopped" in res.verdict
    assert res.looks[0] == looks[0]
    with pytest.raises(InputError, match="unknown variant 'C'"):
        sequential_test(cum, "satisfaction", control="A", treatment="C", mixing_sd=0.05)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"mixing_sd": 0}, "mixing_sd must be a positive number"),
        ({"mixing_sd": 0.1, "alpha": 1}, "alpha must be strictly between 0 and 1"),
    ],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises(InputError, match=message):
        msprt([0.1], [0.01], **kwargs)
