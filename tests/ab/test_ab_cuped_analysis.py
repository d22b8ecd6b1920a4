"""analyze(..., covariates=..., engine=...) on a log with a pre-period, checked by hand.

The per-user arrays are drawn here and the expected numbers are computed from them
directly (numpy, scipy), not from the reduced table; gbstats 0.8.0 (a test-only
reference, skipped when absent) checks the Bayesian readout of a ratio metric.
"""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

from reteval.ab import analyze, reduce_log
from reteval.ab.dask import reduce_log_dask
from reteval.errors import InputError


def _log(seed=0, n_users=1500, lift=0.3):
    rng = np.random.default_rng(seed)
    activity = rng.gamma(2.0, 1.5, n_users)          # a user's habit, before and during
    variant = np.where(np.arange(n_users) % 2 == 0, "A", "B")
    queries = 1 + rng.poisson(activity + np.where(variant == "B", lift, 0.0))
    pre_queries = rng.poisson(activity)
    skill = rng.uniform(0.3, 0.9, n_users)           # a user's chance to be satisfied
    pre_sat = np.clip(skill + rng.normal(0, 0.1, n_users), 0, 1)
    rows = []
    for u in range(n_users):
        for _ in range(queries[u]):
            fb = int(rng.random() < skill[u]) if rng.random() < 0.6 else None
            rows.append((variant[u], f"u{u:05d}", fb, int(rng.poisson(1.0)), 10,
                         float(pre_queries[u]), None if u % 10 == 0 else float(pre_sat[u])))
    log = pd.DataFrame(rows, columns=["variant", "user_id", "feedback", "n_clicks",
                                      "n_retrieved", "pre_queries", "pre_satisfaction"])
    return log, variant, queries, pre_queries


def test_mean_metric_is_welch_on_adjusted_values():
    log, variant, q, pre = _log()
    result = analyze(reduce_log(log), metrics=["queries_per_user"],
                     covariates={"queries_per_user": "pre_queries"})
    c = result.comparison("queries_per_user")
    # by hand: pooled OLS slope, Welch on q - theta * pre
    theta = np.cov(q, pre)[0, 1] / np.var(pre, ddof=1)
    a, b = (variant == "A"), (variant == "B")
    adj = q - theta * pre
    ref = st.ttest_ind(adj[b], adj[a], equal_var=False)
    assert c.test == "CUPED Welch t" and c.covariate == "pre_queries"
    assert c.theta == pytest.approx(theta, rel=1e-9)
    assert c.difference == pytest.approx(adj[b].mean() - adj[a].mean(), abs=1e-9)
    assert c.pvalue == pytest.approx(ref.pvalue, abs=1e-9)
    assert c.control_value == pytest.approx(q[a].mean())  # the observed value, unadjusted
    low, high = ref.confidence_interval(0.95)
    assert (c.ci_low, c.ci_high) == pytest.approx((low, high), abs=1e-9)
    raw = np.var(q[a], ddof=1) / a.sum() + np.var(q[b], ddof=1) / b.sum()
    cut = np.var(adj[a], ddof=1) / a.sum() + np.var(adj[b], ddof=1) / b.sum()
    assert c.variance_reduction == pytest.approx(1 - cut / raw, rel=1e-9)
    plain = analyze(reduce_log(log), metrics=["queries_per_user"]).comparison("queries_per_user")
    assert c.mde == pytest.approx(plain.mde * math.sqrt(cut / raw), rel=1e-9)


def test_ratio_metric_is_the_linearised_cuped():
    log, *_ = _log(seed=1)
    stats = reduce_log(log)
    c = analyze(stats, metrics=["satisfaction"],
                covariates={"satisfaction": "pre_satisfaction"}).comparison("satisfaction")
    # by hand from per-user arrays: x satisfied, y feedback, z pre-period (missing = 0)
    fb = pd.to_numeric(log["feedback"])
    users = pd.DataFrame({"v": log["variant"], "u": log["user_id"], "x": (fb > 0) * 1.0,
                          "y": fb.notna() * 1.0, "z": log["pre_satisfaction"].fillna(0.0)})
    per = users.groupby(["v", "u"]).agg(x=("x", "sum"), y=("y", "sum"), z=("z", "first"))
    x, y, z = per["x"].to_numpy(), per["y"].to_numpy(), per["z"].to_numpy()
    lin = (x - x.sum() / y.sum() * y) / y.mean()
    theta = np.cov(lin, z)[0, 1] / np.var(z, ddof=1)
    arms = {}
    for v in ("A", "B"):
        m = (per.index.get_level_values("v") == v)
        r = x[m].sum() / y[m].sum()
        la = (x[m] - r * y[m]) / y[m].mean()
        arms[v] = (r - theta * z[m].mean(), np.var(la - theta * z[m], ddof=1) / m.sum(),
                   np.var(la, ddof=1) / m.sum())
    diff = arms["B"][0] - arms["A"][0]
    se = math.sqrt(arms["A"][1] + arms["B"][1])
    assert c.test == "CUPED delta-method z"
    assert c.theta == pytest.approx(theta, rel=1e-9)
    assert c.difference == pytest.approx(diff, abs=1e-12)
    assert c.pvalue == pytest.approx(2 * st.norm.sf(abs(diff) / se), abs=1e-12)
    reduction = 1 - (arms["A"][1] + arms["B"][1]) / (arms["A"][2] + arms["B"][2])
    assert c.variance_reduction == pytest.approx(reduction, rel=1e-9)
    assert c.variance_reduction > 0.05  # the pre-period satisfaction predicts the user's


def test_bayesian_engine_equals_gbstats_ratio():
    pytest.importorskip("pydantic")
    pytest.importorskip("gbstats")
    from gbstats.bayesian.tests import EffectBayesianABTest
    from gbstats.models.statistics import RatioStatistic, SampleMeanStatistic

    log, *_ = _log(seed=2, lift=0.0)
    stats = reduce_log(log)
    res = analyze(stats, metrics=["satisfaction"], engine="bayesian")
    c = res.comparison("satisfaction")

    def ratio(v):
        s = stats.loc[v]
        n = int(s["users"])
        return RatioStatistic(
            n=n, m_statistic=SampleMeanStatistic(n=n, sum=s["satisfied"],
                                                 sum_squares=s["satisfied*satisfied"]),
            d_statistic=SampleMeanStatistic(n=n, sum=s["feedback"],
                                            sum_squares=s["feedback*feedback"]),
            m_d_sum_of_products=s["feedback*satisfied"])
    ref = EffectBayesianABTest(ratio("A"), ratio("B")).compute_result()
    assert c.chance_to_win == pytest.approx(ref.chance_to_win, abs=1e-9)
    assert (c.risk_control, c.risk_treatment) == pytest.approx(ref.risk, abs=1e-9)
    assert (c.credible_low, c.credible_high) == pytest.approx(ref.ci, abs=1e-9)
    assert c.engine == "bayesian"
    decisive = c.chance_to_win >= 0.95 or c.chance_to_win <= 0.05
    assert c.significant == decisive


def test_verdicts_name_cuped_and_the_bayesian_reading_in_both_languages():
    log, *_ = _log(seed=3, lift=0.6)
    stats = reduce_log(log)
    kwargs = {"metrics": ["queries_per_user"], "engine": "bayesian",
              "covariates": {"queries_per_user": "pre_queries"}}
    en = analyze(stats, **kwargs)
    zh = analyze(stats, lang="zh", **kwargs)
    c = en.comparison("queries_per_user")
    assert c.chance_to_win > 0.999 and en.decision == "ship"
    assert f"removed {c.variance_reduction:.0%} of the" in en.verdict
    assert f"the chance that B is better is {c.chance_to_win:.1%}" in en.verdict
    assert f"方差减少了 {c.variance_reduction:.0%}" in zh.verdict
    assert f"B 更好的概率为 {c.chance_to_win:.1%}" in zh.verdict
    assert "可信区间" in zh.verdict and "credible interval" in en.verdict
    assert en.to_dict()["comparisons"][0]["covariate"] == "pre_queries"


def test_frequentist_verdict_names_cuped():
    log, *_ = _log(seed=4)
    res = analyze(reduce_log(log), metrics=["queries_per_user"],
                  covariates={"queries_per_user": "pre_queries"})
    assert "CUPED with the pre-period pre_queries removed" in res.verdict
    assert "chance" not in res.verdict


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"covariates": {"ctr": "pre_queries"}}, "not analysed"),
    ({"covariates": {"satisfaction": "pre_nothing"}}, r"pre-period columns: \['pre_queries'"),
    ({"covariates": ["pre_queries"]}, "must map metric names"),
    ({"engine": "bayes"}, "engine must be"),
])
def test_bad_options(kwargs, match):
    log, *_ = _log(seed=5, n_users=60)
    with pytest.raises(InputError, match=match):
        analyze(reduce_log(log), metrics=["satisfaction"], **kwargs)


def test_pre_period_values_must_agree_per_user():
    log = pd.DataFrame({"variant": ["A", "A", "B"], "user_id": ["u1", "u1", "u2"],
                        "feedback": [1, 0, 1], "n_clicks": 1, "n_retrieved": 10,
                        "pre_queries": [2.0, 3.0, 1.0]})
    with pytest.raises(InputError, match="one pre-period value per user; user 'u1'"):
        reduce_log(log)


def test_dask_reduction_adds_the_covariate_sums():
    dd = pytest.importorskip("dask.dataframe")
    pytest.importorskip("distributed")
    log, variant, q, pre = _log(seed=6, n_users=300)
    reduced = reduce_log_dask(dd.from_pandas(log, npartitions=3))  # partitions cut users
    # by hand from the per-user arrays
    for v in ("A", "B"):
        m = variant == v
        assert reduced.loc[v, "pre_queries"] == pytest.approx(pre[m].sum(), rel=1e-12)
        assert reduced.loc[v, "pre_queries*pre_queries"] == pytest.approx(
            (pre[m] ** 2).sum(), rel=1e-12)
        assert reduced.loc[v, "queries*pre_queries"] == pytest.approx(
            (q[m] * pre[m]).sum(), rel=1e-12)
    memory = reduce_log(log)
    pd.testing.assert_frame_equal(reduced, memory, check_exact=False, rtol=1e-12)
    assert reduced["queries"].dtype == "int64" and reduced["pre_queries"].dtype == "float64"


def test_interaction_log_records_pre_period_values(tmp_path):
    import sqlite3

    from reteval.ab import Experiment, InteractionLog

    exp = Experiment("ranker-v2")
    path = tmp_path / "log.sqlite"
    with InteractionLog(path) as lg:
        lg.register(exp)
        for i, user in enumerate(["u1", "u1", "u2", "u3"]):
            lg.append({"experiment": exp.name, "variant": exp.assign(user), "user_id": user,
                       "query": f"q{i}", "timestamp": "2024-05-01T12:00:00Z",
                       "retrieved": ["d1", "d2"], "clicks": ["d1"], "feedback": 1})
        lg.record_pre_period(exp.name, {"u1": 0.5, "u2": 1}, name="satisfaction")
        lg.record_pre_period(exp.name, {"u1": 0.5}, name="satisfaction")  # same: no-op
        with pytest.raises(InputError, match="already has pre-period 'satisfaction' = 0.5"):
            lg.record_pre_period(exp.name, {"u2": 1.0, "u1": 0.75}, name="satisfaction")
        with pytest.raises(InputError, match="must be a finite number"):
            lg.record_pre_period(exp.name, {"u3": "x"}, name="satisfaction")
        with pytest.raises(InputError, match="lower-case letters"):
            lg.record_pre_period(exp.name, {"u3": 1}, name="Sat isfaction")
        df = lg.to_pandas()
    assert df["pre_satisfaction"].tolist()[:3] == [0.5, 0.5, 1.0]
    assert math.isnan(df["pre_satisfaction"].iloc[3])
    users = reduce_log(df)
    assert users["pre_satisfaction"].sum() == 1.5  # u3 has none: counts as 0
    # a log written by schema version 1 (no pre-period table) is upgraded when opened
    con = sqlite3.connect(path)
    con.execute("DROP TABLE pre_period")
    con.execute("PRAGMA user_version = 1")
    con.commit()
    con.close()
    with InteractionLog(path) as lg:
        assert lg.schema_version == 2
        assert "pre_satisfaction" not in lg.to_pandas().columns
        lg.record_pre_period(exp.name, {"u3": 2.0}, name="satisfaction")
        assert lg.to_pandas()["pre_satisfaction"].iloc[3] == 2.0


def test_simulated_pre_period_shares_the_users_habits():
    from reteval.ab import Experiment
    from reteval.ab.pre_period import simulate_with_pre_period
    from reteval.ab.simulation import simulate_log, synthetic_collection

    qrels, run_a, run_b = synthetic_collection(n_queries=20, rng=0)
    exp = Experiment("cuped")
    log = simulate_with_pre_period(exp, qrels, run_a, run_b, n_users=1500, user_sd=2.0, rng=3)
    assert log["timestamp"].min() >= pd.Timestamp("2024-05-01", tz="UTC")
    clicked = log["clicks"].map(len) > 0
    users = log.assign(clicked=clicked).groupby("user_id").agg(ctr=("clicked", "mean"),
                                       pre=("pre_clicked_queries", "first"),
                                       pre_q=("pre_queries", "first"))
    # habits persist: the pre-period click rate predicts the experiment's
    rho = np.corrcoef(users["ctr"], users["pre"] / users["pre_q"])[0, 1]
    assert rho > 0.3
    c = analyze(reduce_log(log), metrics=["ctr"],
                covariates={"ctr": "pre_clicked_queries"}).comparison("ctr")
    assert c.variance_reduction > 0.1
    alike = simulate_with_pre_period(exp, qrels, run_a, run_b, n_users=1500, user_sd=0.0,
                                     rng=3)
    c0 = analyze(reduce_log(alike), metrics=["ctr"],
                 covariates={"ctr": "pre_clicked_queries"}).comparison("ctr")
    assert abs(c0.variance_reduction) < 0.02  # users alike: nothing to predict
    with pytest.raises(InputError, match="one positive number per user"):
        simulate_log(exp, qrels, run_a, run_b, n_users=3, user_factors=[1.0, 2.0])
    with pytest.raises(InputError, match="pre_days must be positive"):
        simulate_with_pre_period(exp, qrels, run_a, run_b, n_users=3, pre_days=0)
