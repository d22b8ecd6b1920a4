"""Click models, exact expectations, simulated logs, and the A/B vs interleaving comparison."""

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import reteval
from reteval.ab.analysis import analyze
from reteval.ab.assignment import Experiment
from reteval.ab.clicks import CascadeModel, PositionBasedModel, attractiveness
from reteval.ab.interleaving import balanced, credit, team_draft
from reteval.ab.log import InteractionLog
from reteval.ab.simulation import (
    compare_methods,
    expected_outcomes,
    simulate_log,
    synthetic_collection,
)
from reteval.ab.sufficient import reduce_log
from reteval.errors import InputError

PATTERNS3 = np.array(list(itertools.product((False, True), repeat=3)))
R = np.array([[0.6, 0.3, 0.8], [0.1, 0.9, 0.5]])


def test_attractiveness_mapping():
    assert attractiveness([0, 1, 2, 3, 7, -2]).tolist() == [0.05, 0.5, 0.7, 0.9, 0.9, 0.05]
    assert attractiveness([0, 1], {0: 0.0, 1: 1.0}).tolist() == [0.0, 1.0]
    with pytest.raises(InputError, match="must be a probability"):
        attractiveness([1], {1: 1.5})


@pytest.mark.parametrize("model", [CascadeModel(), CascadeModel(persistence=1.0,
                                   stop_probability=0.3), PositionBasedModel()])
def test_pattern_probabilities_sum_to_one(model):
    probs = model.pattern_probabilities(R, PATTERNS3)
    assert probs.shape == (2, 8)
    assert probs.sum(axis=1) == pytest.approx([1.0, 1.0])


def test_classic_cascade_by_hand():
    model = CascadeModel(persistence=1.0, stop_probability=1.0)
    probs = dict(zip(map(tuple, PATTERNS3), model.pattern_probabilities(R[:1], PATTERNS3)[0],
                     strict=True))
    r0, r1, r2 = R[0]
    assert probs[(True, False, False)] == pytest.approx(r0)
    assert probs[(False, True, False)] == pytest.approx((1 - r0) * r1)
    assert probs[(False, False, True)] == pytest.approx((1 - r0) * (1 - r1) * r2)
    assert probs[(False, False, False)] == pytest.approx((1 - r0) * (1 - r1) * (1 - r2))
    assert probs[(True, True, False)] == 0.0


def test_cascade_with_persistence_by_hand():
    g, s = 0.7, 0.4
    model = CascadeModel(persistence=g, stop_probability=s)
    probs = dict(zip(map(tuple, PATTERNS3), model.pattern_probabilities(R[:1], PATTERNS3)[0],
                     strict=True))
    r0, r1, r2 = R[0]
    # no click: read on after each non-click with probability g
    none = (1 - r0) * ((1 - g) + g * (1 - r1) * ((1 - g) + g * (1 - r2)))
    assert probs[(False, False, False)] == pytest.approx(none)
    # click 1 and 3: click, do not stop, skip 2, read on, click 3 (then anything: the end)
    assert probs[(True, False, True)] == pytest.approx(r0 * (1 - s) * (1 - r1) * g * r2)


def test_pbm_by_hand():
    model = PositionBasedModel(examination=(1.0, 0.5, 0.25))
    probs = model.pattern_probabilities(R[:1], PATTERNS3)[0]
    q = R[0] * [1.0, 0.5, 0.25]
    i = [tuple(p) for p in PATTERNS3].index((True, False, True))
    assert probs[i] == pytest.approx(q[0] * (1 - q[1]) * q[2])


@pytest.mark.parametrize("model", [CascadeModel(persistence=0.7, stop_probability=0.5),
                                   CascadeModel(), PositionBasedModel()])
def test_simulated_patterns_follow_the_model(model):
    n = 40_000
    clicks = model.simulate(np.repeat(R[:1], n, axis=0), rng=3)
    codes = clicks @ np.array([4, 2, 1])
    observed = np.bincount(codes, minlength=8)
    expected = model.pattern_probabilities(R[:1], PATTERNS3)[0] * n
    keep = expected > 0
    assert observed[~keep].sum() == 0
    assert stats.chisquare(observed[keep], expected[keep]).pvalue > 0.001


@pytest.mark.parametrize("persistence", [0.0, 0.8, 1.0])
def test_the_classic_cascade_clicks_as_the_general_one_does(persistence):
    # stop_probability 1 has its own path (one click at most); a stop probability below 1 by
    # less than any float32 uniform's distance from 1 takes the general path, same clicks
    attract = np.random.default_rng(0).random((5000, 7)) * [[1, 0.9, 0.5, 0.3, 0.2, 0.1, 0]]
    clicks = CascadeModel(persistence=persistence).simulate(attract, rng=1)
    general = CascadeModel(persistence=persistence, stop_probability=np.nextafter(1.0, 0.0))
    assert (clicks == general.simulate(attract, rng=1)).all()
    assert clicks.sum(axis=1).max() == 1 and 0 < clicks.any(axis=1).mean() < 1


def _toy():
    qrels = pd.DataFrame({"query_id": ["q1"] * 5 + ["q2"] * 5,
                          "doc_id": [f"d{i}" for i in range(10)],
                          "relevance": [3, 0, 1, 0, 0, 0, 2, 0, 0, 1]})
    good = qrels.rename(columns={"relevance": "score"}).astype({"score": float})
    good["score"] = good["score"] + np.linspace(0, 0.1, 10)
    bad = good.assign(score=-good["score"])
    return qrels, good, bad


def test_expected_outcomes_on_toy_rankers():
    qrels, good, bad = _toy()
    same = expected_outcomes(qrels, good, good, click_model="pbm", depth=5)
    assert same["p_win"] == pytest.approx(same["p_loss"]) and same["preference"] == 0.0
    assert sum(same[k] for k in ("p_win", "p_loss", "p_tie", "p_none")) == pytest.approx(1.0)
    diff = expected_outcomes(qrels, good, bad, click_model="pbm", depth=5)
    assert diff["preference"] > 0.2
    # ctr under the position-based model: 1 - prod(1 - r_i / i), averaged over queries
    theta = 1 / np.arange(1, 6)
    r1 = attractiveness([3, 1, 0, 0, 0])
    r2 = attractiveness([2, 1, 0, 0, 0])
    ctr = np.mean([1 - np.prod(1 - theta * r1), 1 - np.prod(1 - theta * r2)])
    assert diff["ctr_a"] == pytest.approx(ctr)


@pytest.mark.parametrize("method", ["team_draft", "balanced"])
def test_expected_preference_matches_simulation_with_the_public_api(method):
    """Interleave with team_draft/balanced, click with the model, credit with credit()."""
    qrels, good, bad = _toy()
    model = CascadeModel(persistence=0.8, stop_probability=0.5)
    exp = expected_outcomes(qrels, good, bad, click_model=model, depth=5, method=method)
    interleave = team_draft if method == "team_draft" else balanced
    rels = dict(zip(qrels["doc_id"], qrels["relevance"], strict=True))
    ranked = {q: g.sort_values("score", ascending=False)["doc_id"].tolist()
              for q, g in good.groupby("query_id")}
    reverse = {q: d[::-1] for q, d in ranked.items()}
    rng = np.random.default_rng(8)
    n, wins, losses = 6000, 0, 0
    for _ in range(n):
        q = ("q1", "q2")[rng.integers(2)]
        il = interleave(ranked[q], reverse[q], rng=rng)
        clicks = model.simulate(attractiveness([[rels[d] for d in il.docs]]), rng)[0]
        out = credit(il, [d for d, c in zip(il.docs, clicks, strict=True) if c])
        wins += out.winner == "A"
        losses += out.winner == "B"
    sd = np.sqrt(exp["p_win"] * (1 - exp["p_win"]) / n)
    assert wins / n == pytest.approx(exp["p_win"], abs=4 * sd)
    assert losses / n == pytest.approx(exp["p_loss"], abs=4 * sd + 0.005)


def test_synthetic_collection_has_a_known_offline_difference():
    qrels, run_a, run_b = synthetic_collection(rng=0)
    ndcg = [reteval.evaluate(qrels, r, ["nDCG@10"])["nDCG@10"].mean() for r in (run_a, run_b)]
    assert ndcg[1] > ndcg[0] + 0.03
    assert (qrels.groupby("query_id")["relevance"].max() > 0).all()


def test_compare_methods_power_agrees_with_normal_approximations():
    qrels, run_a, run_b = synthetic_collection(n_queries=20, rng=1)
    res = compare_methods(qrels, run_a, run_b, impressions=[300, 1000, 3000],
                          n_experiments=200, rng=2)
    e = res.expected
    z = stats.norm.isf(0.025)
    for n in (300, 1000, 3000):
        # A/B: two proportions, n/2 impressions each; arcsine effect size as statsmodels'
        # NormalIndPower().power(proportion_effectsize(ctr_b, ctr_a), n / 2, 0.05)
        h = 2 * np.arcsin(np.sqrt(e["ctr_b"])) - 2 * np.arcsin(np.sqrt(e["ctr_a"]))
        ab = stats.norm.sf(z - abs(h) * np.sqrt(n / 4))
        # interleaving: sign test on the n (p_win + p_loss) decisive impressions
        m = n * (e["p_win"] + e["p_loss"])
        q = e["p_win"] / (e["p_win"] + e["p_loss"])
        il = stats.norm.sf(z - 2 * abs(q - 0.5) * np.sqrt(m))
        # Monte Carlo sd <= 0.035 with 200 experiments; normal approximations add a little
        assert res.table.loc[n, "ab_power"] == pytest.approx(ab, abs=0.1)
        assert res.table.loc[n, "interleaving_power"] == pytest.approx(il, abs=0.1)
    again = compare_methods(qrels, run_a, run_b, impressions=[300, 1000, 3000],
                            n_experiments=200, rng=2)
    pd.testing.assert_frame_equal(res.table, again.table)
    for method, n in res.needed.items():
        column = res.table[f"{'ab' if method == 'ab' else 'interleaving'}_power"]
        if n is None:
            assert (column < 0.8).all()
            continue
        # interpolated: between the last size below 80% power and the first at or above it
        first = column.index[column >= 0.8][0]
        before = column.index[column.index < first]
        assert (before[-1] if len(before) else first) <= n <= first
    assert "impressions" in res.verdict


def test_compare_methods_arguments():
    qrels, run_a, run_b = synthetic_collection(n_queries=5, rng=1)
    with pytest.raises(InputError, match="at most 12"):
        compare_methods(qrels, run_a, run_b, depth=20)
    with pytest.raises(InputError, match="impressions must hold sizes"):
        compare_methods(qrels, run_a, run_b, impressions=[1])
    with pytest.raises(InputError, match="click_model must be"):
        compare_methods(qrels, run_a, run_b, click_model="dbn")
    with pytest.raises(InputError, match="no query in common"):
        compare_methods(qrels, run_a, run_b.assign(query_id="x"))


def test_simulated_log_goes_through_the_log_and_the_analysis(tmp_path):
    qrels, run_a, run_b = synthetic_collection(n_queries=15, rng=4)
    exp = Experiment("sim", ("A", "B"))
    log = simulate_log(exp, qrels, run_a, run_b, n_users=300, rng=5)
    assert (log["variant"] == [exp.assign(u) for u in log["user_id"]]).all()
    assert all(set(c) <= set(r) for c, r in zip(log["clicks"], log["retrieved"], strict=True))
    assert set(log["feedback"].dropna().unique()) <= {0, 1}
    assert log["timestamp"].is_monotonic_increasing
    with InteractionLog(tmp_path / "sim.sqlite") as store:
        store.register(exp)
        store.extend(log.to_dict("records"))
        back = store.to_pandas()
    assert len(back) == len(log)
    assert back["feedback"].isna().sum() == log["feedback"].isna().sum()
    result = analyze(reduce_log(back), experiment=exp)
    assert result.variants["users"].sum() == 300


def test_expected_reciprocal_rank_of_the_first_click_by_hand():
    """PBM: the first click is at rank i with probability c_i * prod_{j<i} (1 - c_j),
    c_i = theta_i * r_i; its reciprocal rank averaged over the queries."""
    qrels, good, bad = _toy()
    diff = expected_outcomes(qrels, good, bad, click_model="pbm", depth=5)
    theta = 1 / np.arange(1, 6)

    def rr(grades):
        c = theta * attractiveness(grades)
        first = c * np.concatenate([[1.0], np.cumprod(1 - c)[:-1]])
        return float((first / np.arange(1, 6)).sum())

    assert diff["rr_a"] == pytest.approx(np.mean([rr([3, 1, 0, 0, 0]), rr([2, 1, 0, 0, 0])]))
    assert diff["rr_b"] == pytest.approx(np.mean([rr([0, 0, 0, 1, 3]), rr([0, 0, 0, 1, 2])]))
    assert diff["rr_a"] > diff["rr_b"]


def test_the_ab_test_on_the_first_clicks_reciprocal_rank():
    qrels, good, bad = _toy()
    with pytest.raises(InputError, match="ab_metric must be 'ctr' or 'rr'; got 'ndcg'"):
        compare_methods(qrels, good, bad, impressions=[100], ab_metric="ndcg")
    options = {"impressions": [200, 2000], "n_experiments": 30, "click_model": "pbm",
               "depth": 5, "rng": 3}
    ctr = compare_methods(qrels, good, bad, **options)
    rr = compare_methods(qrels, good, bad, ab_metric="rr", **options)
    # the same random stream: interleaving's power is the same, the A/B test's metric differs
    assert rr.table["interleaving_power"].tolist() == ctr.table["interleaving_power"].tolist()
    assert (rr.table["ab_power"] >= ctr.table["ab_power"]).all()
