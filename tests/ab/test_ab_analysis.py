"""Reduction to sufficient statistics, metric estimates (delta method) and the analysis."""

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from reteval.ab.analysis import analyze, summarize_variants
from reteval.ab.assignment import Experiment
from reteval.ab.metrics import METRICS, Metric, estimate
from reteval.ab.sufficient import (
    USER_QUANTITIES,
    cumulative_statistics,
    per_user,
    reduce_log,
    sufficient_statistics,
)
from reteval.errors import InputError


def make_log(n_users=3000, *, sat=(0.60, 0.66), clicks=(1.0, 1.0), queries=(2.0, 2.0),
             variants=("A", "B"), seed=0):
    """A log where each user issues 1 + Poisson(q - 1) queries; rates differ by variant."""
    rng = np.random.default_rng(seed)
    rows = []
    for u in range(n_users):
        v = u % len(variants)
        for _ in range(1 + rng.poisson(queries[v] - 1)):
            fb = rng.binomial(1, sat[v]) if rng.random() < 0.7 else None
            rows.append((variants[v], f"u{u:05d}", fb, rng.poisson(clicks[v]), 10,
                         pd.Timestamp("2024-05-01", tz="UTC") + pd.Timedelta(minutes=u)))
    return pd.DataFrame(rows, columns=["variant", "user_id", "feedback", "n_clicks",
                                       "n_retrieved", "timestamp"])


@pytest.fixture(scope="module")
def log():
    return make_log()


def test_per_user_by_hand():
    log = pd.DataFrame({"variant": ["A", "A", "A", "B"], "user_id": ["u1", "u1", "u2", "u3"],
                        "feedback": [1, 0, None, 2], "clicks": [["d1", "d2"], [], ["d3"], []],
                        "retrieved": [["d1", "d2", "d3"], ["d1"], ["d3"], ["d4", "d5"]]})
    users = per_user(log)
    assert list(users.columns) == list(USER_QUANTITIES)
    assert users.loc[("A", "u1")].tolist() == [2, 2, 1, 2, 1, 4, 1]
    assert users.loc[("A", "u2")].tolist() == [1, 0, 0, 1, 1, 1, 1]
    assert users.loc[("B", "u3")].tolist() == [1, 1, 1, 0, 0, 2, 0]


def test_user_in_two_variants_is_an_error():
    log = pd.DataFrame({"variant": ["A", "B"], "user_id": ["u1", "u1"], "feedback": [1, 1],
                        "n_clicks": [0, 0], "n_retrieved": [1, 1]})
    with pytest.raises(InputError, match="user_id 'u1' in \\['A', 'B'\\]"):
        per_user(log)


def test_sufficient_statistics_are_sums_over_users(log):
    users = per_user(log)
    table = sufficient_statistics(users)
    for v in ("A", "B"):
        u = users.loc[v]
        assert table.loc[v, "users"] == len(u)
        assert table.loc[v, "clicks"] == u["clicks"].sum()
        assert table.loc[v, "clicks*clicks"] == (u["clicks"] ** 2).sum()
        assert table.loc[v, "queries*clicks"] == (u["queries"] * u["clicks"]).sum()


def test_reduction_can_be_split_by_users(log):
    """Partial tables over disjoint user sets add up to the whole (chunked / Dask reduction)."""
    users = per_user(log)
    parts = [sufficient_statistics(users.iloc[i::3]) for i in range(3)]
    total = parts[0].add(parts[1], fill_value=0).add(parts[2], fill_value=0)
    pd.testing.assert_frame_equal(total.astype("int64"), reduce_log(log))


def test_delta_method_by_hand(log):
    users = per_user(log).loc["B"]
    x, y = users["clicks"].to_numpy(float), users["queries"].to_numpy(float)
    n = len(x)
    r = x.sum() / y.sum()
    cov = np.cov(x, y)  # ddof=1
    var = (cov[0, 0] - 2 * r * cov[0, 1] + r**2 * cov[1, 1]) / (n * y.mean() ** 2)
    est = estimate(reduce_log(log), "clicks_per_query").loc["B"]
    assert est["value"] == pytest.approx(r, rel=1e-12)
    assert est["variance"] == pytest.approx(var, rel=1e-9)
    # the bootstrap over users agrees with the delta method
    rng = np.random.default_rng(5)
    idx = rng.integers(n, size=(2000, n))
    boot = x[idx].sum(axis=1) / y[idx].sum(axis=1)
    assert boot.var(ddof=1) == pytest.approx(var, rel=0.1)
    # ... while treating queries as independent would understate it (clicks per user vary)
    per_query = log[log["variant"] == "B"]["n_clicks"]
    assert per_query.var() / len(per_query) < var


def test_delta_interval_coverage_in_aa_tests():
    """95% intervals of a ratio metric cover the truth about 95% of the time."""
    rng = np.random.default_rng(11)
    n_exp, n = 800, 400
    q = 1 + rng.poisson(2.0, size=(n_exp, n))          # queries per user
    rate = rng.beta(2, 3, size=(n_exp, n))             # users differ
    c = rng.binomial(q, rate)                           # clicked queries
    cols = {"users": np.full(n_exp, n), "queries": q.sum(1), "clicked_queries": c.sum(1),
            "queries*queries": (q * q).sum(1), "queries*clicked_queries": (q * c).sum(1),
            "clicked_queries*clicked_queries": (c * c).sum(1)}
    est = estimate(pd.DataFrame(cols), "ctr")
    truth = 0.4  # E[clicked]/E[queries] = E[q]E[rate]/E[q], rate ~ Beta(2, 3)
    half = 1.959963984540054 * np.sqrt(est["variance"])
    coverage = np.mean(np.abs(est["value"] - truth) <= half)
    # Monte Carlo sd of the coverage at 95%: sqrt(.95*.05/800) = 0.0077
    assert coverage == pytest.approx(0.95, abs=0.025)


def test_welch_on_per_user_means_matches_scipy(log):
    users = per_user(log)
    result = analyze(reduce_log(log), metrics=["queries_per_user"])
    c = result.comparison("queries_per_user")
    ref = stats.ttest_ind(users.loc["B"]["queries"], users.loc["A"]["queries"], equal_var=False)
    assert c.test == "Welch t"
    assert c.statistic == pytest.approx(ref.statistic, rel=1e-9)
    assert c.pvalue == pytest.approx(ref.pvalue, rel=1e-8)
    assert c.df == pytest.approx(ref.df, rel=1e-9)
    ci = ref.confidence_interval(0.95)
    assert (c.ci_low, c.ci_high) == pytest.approx((ci.low, ci.high), rel=1e-9)
    # the lift interval uses the same t quantile, with the delta-method standard error
    a, b = users.loc["A"]["queries"], users.loc["B"]["queries"]
    ma, mb = a.mean(), b.mean()
    se = np.sqrt(b.var(ddof=1) / len(b) / ma**2 + mb**2 * a.var(ddof=1) / len(a) / ma**4)
    half = stats.t.ppf(0.975, ref.df) * se
    assert c.relative_lift == pytest.approx(mb / ma - 1, rel=1e-12)
    assert (c.lift_ci_low, c.lift_ci_high) == pytest.approx(
        (mb / ma - 1 - half, mb / ma - 1 + half), rel=1e-9)


def test_user_proportion_matches_statsmodels(log):
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    users = per_user(log)
    cb, nb = users.loc["B"]["any_click"].sum(), len(users.loc["B"])
    ca, na = users.loc["A"]["any_click"].sum(), len(users.loc["A"])
    c = analyze(reduce_log(log), metrics=["user_click_rate"]).comparison("user_click_rate")
    z, p = proportion.proportions_ztest([cb, ca], [nb, na])
    low, high = proportion.confint_proportions_2indep(cb, nb, ca, na, method="wald")
    assert c.test == "two-proportion z"
    assert (c.statistic, c.pvalue) == pytest.approx((z, p), rel=1e-9)
    assert (c.ci_low, c.ci_high) == pytest.approx((low, high), rel=1e-9)


def test_ratio_metric_z_and_intervals(log):
    stats_ = reduce_log(log)
    est = estimate(stats_, "satisfaction")
    c = analyze(stats_, metrics=["satisfaction"]).comparison("satisfaction")
    se = np.sqrt(est["variance"].sum())
    diff = est.loc["B", "value"] - est.loc["A", "value"]
    assert c.test == "delta-method z"
    assert c.difference == pytest.approx(diff)
    assert c.statistic == pytest.approx(diff / se)
    assert c.pvalue == pytest.approx(2 * stats.norm.sf(abs(diff / se)))
    assert c.ci_high - c.ci_low == pytest.approx(2 * 1.959963984540054 * se)
    assert c.control_value == pytest.approx(est.loc["A", "value"])
    assert c.relative_lift == pytest.approx(est.loc["B", "value"] / est.loc["A", "value"] - 1)
    lift_se = np.sqrt(est.loc["B", "variance"] / est.loc["A", "value"] ** 2
                      + est.loc["B", "value"] ** 2 * est.loc["A", "variance"]
                      / est.loc["A", "value"] ** 4)
    assert c.lift_ci_high - c.lift_ci_low == pytest.approx(2 * 1.959963984540054 * lift_se)
    assert c.mde == pytest.approx((1.959963984540054 + 0.8416212335729143) * se)


def test_ship_when_primary_improves(log):
    result = analyze(reduce_log(log), experiment=Experiment("e"), metrics=["satisfaction"])
    assert result.decision == "ship" and result.recommended == "B"
    c = result.comparison("satisfaction")
    assert c.outcome == "better" and c.significant
    assert "Verdict: ship B." in result.verdict
    assert f"{100 * c.control_value:.2f}% in A" in result.verdict
    assert not result.srm.flagged


def test_guardrail_degradation_blocks_ship():
    log = make_log(sat=(0.60, 0.68), clicks=(1.0, 0.8), seed=1)
    free = analyze(reduce_log(log), metrics=["satisfaction"])
    guarded = analyze(reduce_log(log), metrics=["satisfaction"], guardrails=["clicks_per_query"])
    assert free.decision == "ship"
    g = guarded.comparison("clicks_per_query")
    assert g.role == "guardrail" and g.outcome == "worse" and g.pvalue_adjusted == g.pvalue
    assert guarded.decision == "do not ship" and guarded.recommended is None
    assert "blocks shipping" in guarded.verdict


def test_significantly_worse_primary_means_do_not_ship():
    log = make_log(sat=(0.66, 0.60), seed=2)
    result = analyze(reduce_log(log), metrics=["satisfaction"])
    assert result.comparison("satisfaction").outcome == "worse"
    assert result.decision == "do not ship"


def test_no_effect_is_inconclusive():
    result = analyze(reduce_log(make_log(sat=(0.6, 0.6), seed=3)), metrics=["satisfaction"])
    assert result.decision == "inconclusive"
    assert "could only detect changes of about" in result.verdict


def test_srm_makes_the_experiment_invalid(log):
    keep = ~((log["variant"] == "B") & (log["user_id"].str[-1].isin(["1", "3"])))
    result = analyze(reduce_log(log[keep]), experiment=Experiment("e"))
    assert result.srm.flagged and result.decision == "invalid" and result.recommended is None
    assert "sample ratio mismatch" in result.verdict
    ref = stats.chisquare(result.variants["users"])
    assert result.srm.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


def test_holm_over_primary_metrics_and_treatments():
    log = make_log(n_users=4500, variants=("A", "B", "C"), sat=(0.6, 0.66, 0.61),
                   queries=(2, 2, 2), clicks=(1, 1, 1), seed=4)
    result = analyze(reduce_log(log), experiment=Experiment("e", ("A", "B", "C")),
                     metrics=["satisfaction", "ctr"], guardrails=["queries_per_user"])
    prim = [c for c in result.comparisons if c.role == "primary"]
    assert len(prim) == 4
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    # statsmodels.stats.multitest.multipletests(p, method="holm")[1]
    expected = multitest.multipletests([c.pvalue for c in prim], method="holm")[1]
    assert [c.pvalue_adjusted for c in prim] == pytest.approx(expected, rel=1e-12)
    assert result.decision == "ship" and result.recommended == "B"
    assert "Per treatment: B: ship; C:" in result.verdict
    frame = result.to_frame()
    assert frame.loc[("C", "ctr"), "role"] == "primary"


def test_summary_table_and_json(log):
    result = analyze(reduce_log(log))
    table = result.variants
    users = per_user(log)
    fb = log["feedback"].notna()
    sat_a = (log["feedback"][fb & (log["variant"] == "A")] > 0).mean()
    assert table.loc["A", "satisfaction_rate"] == pytest.approx(sat_a)
    assert table.loc["A", "users"] == len(users.loc["A"])
    assert table.loc["B", "queries"] == (log["variant"] == "B").sum()
    assert table.loc["A", "avg_retrieved"] == 10
    payload = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert payload["decision"] == result.decision
    assert payload["comparisons"][0]["df"] is None  # z-test: infinite df becomes null
    assert summarize_variants(reduce_log(log)).columns[0] == "users"


def test_cumulative_statistics_at_looks(log):
    looks = pd.date_range("2024-05-01 10:00", periods=3, freq="12h", tz="UTC")
    table = cumulative_statistics(log, looks)
    assert table.index.names == ["look", "variant"]
    last = table.loc[looks[-1]]
    upto = log[log["timestamp"] <= looks[-1]]
    pd.testing.assert_frame_equal(last, reduce_log(upto), check_names=False)
    users = table.xs("A", level="variant")["users"]
    assert users.is_monotonic_increasing


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"metrics": ["satisfacton"]}, "unknown metric 'satisfacton'"),
        ({"metrics": []}, "at least one primary metric"),
        ({"metrics": "ctr"}, "sequences of metric names"),
        ({"metrics": ["ctr"], "guardrails": ["ctr"]}, "listed twice"),
        ({"alpha": 0}, "alpha must be strictly between 0 and 1"),
        ({"experiment": Experiment("e", ("A", "C"))}, "variant\\(s\\) \\['B'\\]"),
    ],
)
def test_bad_analysis_arguments(log, kwargs, message):
    with pytest.raises(InputError, match=message):
        analyze(reduce_log(log), **kwargs)


def test_custom_metric_and_bad_metric_definitions():
    m = Metric("sat_per_click", "satisfied", "clicks", label="satisfied per click")
    assert estimate(reduce_log(make_log(n_users=50)), m)["value"].notna().all()
    with pytest.raises(InputError, match="unknown quantity 'dwell'"):
        Metric("x", "dwell", "queries")
    with pytest.raises(InputError, match="needs a denominator"):
        Metric("x", "clicks", kind="ratio")
    assert set(METRICS) >= {"satisfaction", "ctr", "clicks_per_query", "avg_retrieved"}
