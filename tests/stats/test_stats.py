"""Tests of reteval.stats against scipy, statsmodels and exhaustive enumeration."""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
import pytest
import scipy.stats as st
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import TTestPower

from reteval.errors import InputError
from reteval.stats import (
    ConfidenceInterval,
    adjust_pvalues,
    bootstrap_mean_ci,
    bootstrap_test,
    minimum_detectable_difference,
    paired_t_power,
    paired_t_test,
    paired_test,
    pairwise_tests,
    queries_needed,
    randomization_test,
    wilcoxon_test,
)

X4 = [0.5, 0.6, 0.9, 0.4]
Y4 = [0.3, 0.5, 0.6, 0.4]
X6 = [0.9, 0.8, 0.7, 0.95, 0.6, 0.75]
Y6 = [0.5, 0.7, 0.4, 0.55, 0.65, 0.3]


def mc_tolerance(p: float, n_resamples: int) -> float:
    """Generous Monte Carlo error bound: 4.5 binomial standard errors plus the +1 bias."""
    return 4.5 * math.sqrt(max(p * (1 - p), 1e-4) / n_resamples) + 2.0 / n_resamples


def exact_randomization_pvalue(d: np.ndarray) -> float:
    """Share of all 2**n sign flips whose |sum| reaches the observed |sum|."""
    signs = np.array(list(itertools.product([-1.0, 1.0], repeat=d.size)))
    return float(np.mean(np.abs(signs @ d) >= abs(d.sum()) - 1e-9 * np.abs(d).sum()))


# --------------------------------------------------------------------------- t test


def test_t_hardcoded_reference():
    # scipy.stats.ttest_rel([0.5, 0.6, 0.9, 0.4], [0.3, 0.5, 0.6, 0.4])
    #   -> statistic=2.32379000772445, pvalue=0.10272807885839899, df=3
    #   .confidence_interval(0.95) -> (-0.05542602567605209, 0.35542602567605214)
    res = paired_t_test(X4, Y4)
    assert res.statistic == pytest.approx(2.32379000772445, rel=1e-12)
    assert res.pvalue == pytest.approx(0.10272807885839899, rel=1e-10)
    assert res.df == 3
    low, high = res.confidence_interval()
    assert low == pytest.approx(-0.05542602567605209, rel=1e-10)
    assert high == pytest.approx(0.35542602567605214, rel=1e-10)
    # mean 0.15, sd of differences 0.129099... -> d_z = 0.15 / 0.12909944 (hand)
    assert res.mean_difference == pytest.approx(0.15)
    assert res.effect_size == pytest.approx(0.15 / np.std([0.2, 0.1, 0.3, 0.0], ddof=1))


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("level", [0.9, 0.95, 0.99])
def test_t_matches_scipy(seed, level):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 200))
    x, y = rng.random(n), rng.random(n)
    res = paired_t_test(x, y)
    ref = st.ttest_rel(x, y)  # scipy.stats.ttest_rel(x, y)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-300)
    assert res.df == ref.df
    ci, ref_ci = res.confidence_interval(level), ref.confidence_interval(level)
    assert ci.low == pytest.approx(ref_ci.low, rel=1e-10)
    assert ci.high == pytest.approx(ref_ci.high, rel=1e-10)


def test_t_identical_systems_is_nan_like_scipy():
    # scipy.stats.ttest_rel([0.1, 0.2, 0.3], [0.1, 0.2, 0.3]) -> statistic nan, pvalue nan
    res = paired_t_test([0.1, 0.2, 0.3], [0.1, 0.2, 0.3])
    assert math.isnan(res.statistic) and math.isnan(res.pvalue)


def test_results_are_frozen():
    res = paired_t_test(X4, Y4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.pvalue = 0.0


# --------------------------------------------------------------------------- Wilcoxon


def test_wilcoxon_hardcoded_reference():
    # scipy.stats.wilcoxon(X6, Y6) -> statistic=1.0, pvalue=0.0625 (exact, no ties)
    res = wilcoxon_test(X6, Y6)
    assert res.statistic == 1.0
    assert res.pvalue == pytest.approx(0.0625)
    assert res.method == "exact"


def _wilcoxon_cases():
    rng = np.random.default_rng(7)
    cases = {
        "small-continuous": (rng.random(9), rng.random(9)),
        "small-ties-zeros": (rng.integers(0, 4, 11) / 4, rng.integers(0, 4, 11) / 4),
        "mid-ties-zeros": (rng.integers(0, 5, 30) / 4, rng.integers(0, 5, 30) / 4),
        "mid-continuous": (rng.random(40), rng.random(40)),
        "large-ties": (rng.integers(0, 6, 120) / 5, rng.integers(0, 6, 120) / 5),
        "large-continuous": (rng.random(300), rng.random(300)),
    }
    return cases


@pytest.mark.parametrize("case", list(_wilcoxon_cases()))
@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
@pytest.mark.parametrize("correction", [False, True])
@pytest.mark.parametrize("method", ["auto", "asymptotic", "exact"])
def test_wilcoxon_matches_scipy(case, zero_method, correction, method):
    x, y = _wilcoxon_cases()[case]
    try:
        # scipy.stats.wilcoxon(x, y, zero_method=..., correction=..., method=...)
        ref = st.wilcoxon(x, y, zero_method=zero_method, correction=correction, method=method)
    except ValueError:
        pytest.skip("scipy refuses this combination")
    res = wilcoxon_test(x, y, zero_method=zero_method, correction=correction, method=method)
    assert res.statistic == pytest.approx(float(ref.statistic))
    assert res.pvalue == pytest.approx(float(ref.pvalue), rel=1e-9, abs=1e-15)


def test_wilcoxon_auto_method_choice():
    rng = np.random.default_rng(0)
    assert wilcoxon_test(rng.random(20), rng.random(20)).method == "exact"
    assert wilcoxon_test(rng.random(60), rng.random(60)).method == "asymptotic"
    tied = [0.0, 0.5, 0.5, 1.0, 0.25, 0.0, 0.75]
    assert wilcoxon_test(tied, [0.0] * 7).method == "enumeration"  # zero and ties, n <= 13


def test_wilcoxon_zero_methods_differ_on_zeros():
    x = [0.5, 0.4, 0.3, 0.3, 0.9, 0.1, 0.6, 0.8]
    y = [0.5, 0.4, 0.1, 0.2, 0.5, 0.3, 0.1, 0.2]
    # scipy.stats.wilcoxon(x, y, zero_method="wilcox") drops the two zero differences
    dropped = wilcoxon_test(x, y)
    kept = wilcoxon_test(x[2:], y[2:])
    assert dropped.statistic == kept.statistic and dropped.pvalue == pytest.approx(kept.pvalue)
    assert wilcoxon_test(x, y, zero_method="zsplit").statistic != dropped.statistic


def test_wilcoxon_hodges_lehmann_by_hand():
    # d = X6 - Y6 = [.4, .1, .3, .4, -.05, .45]; the 21 Walsh averages sorted are
    # -.05 .025 .1 .125 .175 .175 .2 .2 .25 .25 .275 .3 .35 .35 .375 .4 .4 .4 .425 .425 .45
    # median (11th) = 0.275.  Exact n=6 null: P(T+ <= 2) = 3/64 <= 0.05 < P(T+ <= 3) = 5/64,
    # so c = 3 and the 90% interval is [W_(3), W_(19)] = [0.1, 0.425].
    res = wilcoxon_test(X6, Y6)
    assert res.hodges_lehmann == pytest.approx(0.275)
    low, high = res.confidence_interval(0.9)
    assert low == pytest.approx(0.1) and high == pytest.approx(0.425)
    # n = 6 cannot reach 99%: 2 * P(T+ = 0) = 2/64 > 0.01
    assert res.confidence_interval(0.99) == ConfidenceInterval(-math.inf, math.inf)


@pytest.mark.parametrize("n", [7, 15, 40])
def test_wilcoxon_interval_inverts_scipy_test(n):
    # Just inside the interval scipy's exact test does not reject d - theta, just outside it does.
    rng = np.random.default_rng(n)
    d = rng.normal(0.1, 0.3, n)
    res = wilcoxon_test(d, np.zeros(n))
    low, high = res.confidence_interval(0.95)
    eps = 1e-7

    def p(theta):  # scipy.stats.wilcoxon(d - theta, method="exact")
        return st.wilcoxon(d - theta, method="exact").pvalue

    assert p(low + eps) > 0.05 and p(high - eps) > 0.05
    assert p(low - eps) <= 0.05 and p(high + eps) <= 0.05


def test_wilcoxon_walsh_selection_large_n_matches_brute_force():
    rng = np.random.default_rng(3)
    d = np.round(rng.normal(0.02, 0.2, 700), 3)  # many ties
    res = wilcoxon_test(d, np.zeros(d.size))
    walsh = np.sort((d[:, None] + d[None, :])[np.triu_indices(d.size)] / 2)
    m = walsh.size
    assert res.hodges_lehmann == pytest.approx(0.5 * (walsh[m // 2 - 1] + walsh[m // 2]))
    low, high = res.confidence_interval(0.95)
    # normal critical value with continuity correction (hand formula from the docstring)
    c = math.floor(m / 2 + st.norm.ppf(0.025) * math.sqrt(700 * 701 * 1401 / 24) + 0.5)
    assert low == pytest.approx(walsh[c - 1]) and high == pytest.approx(walsh[m - c])


# --------------------------------------------------------------------------- randomization


@pytest.mark.parametrize("n", [6, 8, 10, 12])
def test_randomization_within_mc_error_of_exact(n):
    rng = np.random.default_rng(100 + n)
    x = rng.integers(0, 5, n) / 4  # discrete scores: many exact ties in the null
    y = np.clip(x - rng.integers(-1, 3, n) / 4, 0, 1)
    d = x - y
    exact = exact_randomization_pvalue(d)
    # scipy.stats.permutation_test((x, y), lambda a, b: np.mean(a - b),
    #                              permutation_type="samples", n_resamples=np.inf) is exact too
    ref = st.permutation_test((x, y), lambda a, b: np.mean(a - b), permutation_type="samples",
                              n_resamples=np.inf).pvalue
    assert exact == pytest.approx(ref)
    res = randomization_test(x, y, n_resamples=20_000, rng=5)
    assert abs(res.pvalue - exact) <= mc_tolerance(exact, 20_000)


def test_randomization_continuous_within_mc_error():
    rng = np.random.default_rng(11)
    x, y = rng.random(12), rng.random(12) - 0.15
    exact = exact_randomization_pvalue(x - y)
    res = randomization_test(x, y, n_resamples=20_000, rng=0)
    assert abs(res.pvalue - exact) <= mc_tolerance(exact, 20_000)


def test_randomization_reproducible_and_seeded():
    rng = np.random.default_rng(1)
    x, y = rng.random(30), rng.random(30)
    a = randomization_test(x, y, n_resamples=2000, rng=123)
    b = randomization_test(x, y, n_resamples=2000, rng=np.random.default_rng(123))
    assert a.pvalue == b.pvalue and a.confidence_interval() == b.confidence_interval()
    c = randomization_test(x, y, n_resamples=2000, rng=124)
    assert c.pvalue != a.pvalue or c.confidence_interval() != a.confidence_interval()


def test_randomization_pvalue_formula_extremes():
    # every difference positive and n = 20: no random flip reaches the observed sum except
    # all-plus (chance 2**-20), so count = 0 and p = 1 / (n_resamples + 1)
    x = np.linspace(0.5, 1.0, 20)
    res = randomization_test(x, x - 0.3, n_resamples=999, rng=0)
    assert res.pvalue == pytest.approx(1 / 1000)
    # identical systems: every flip ties the observed 0, p = (999 + 1) / 1000
    assert randomization_test(x, x, n_resamples=999, rng=0).pvalue == 1.0


def test_randomization_interval_inverts_exact_test():
    rng = np.random.default_rng(4)
    d = rng.normal(0.1, 0.2, 12)
    res = randomization_test(d, np.zeros(12), n_resamples=20_000, rng=9)
    low, high = res.confidence_interval(0.95)
    signs = np.array(list(itertools.product([-1.0, 1.0], repeat=12)))

    def exact_p(theta):
        e = d - theta
        return np.mean(np.abs(signs @ e) >= abs(e.sum()) - 1e-9 * np.abs(e).sum())

    tol = mc_tolerance(0.05, 20_000)
    for end, inward in ((low, 1.0), (high, -1.0)):
        assert exact_p(end + inward * 1e-6) > 0.05 - tol
        assert exact_p(end - inward * 1e-6) <= 0.05 + tol
    t_low, t_high = paired_t_test(d, np.zeros(12)).confidence_interval()
    assert low < d.mean() < high
    assert abs(low - t_low) < 0.1 and abs(high - t_high) < 0.1  # same ballpark as the t interval


def test_randomization_tiny_n_has_infinite_interval():
    # n = 4: the most extreme arrangement has exact p = 2/16 > 0.05
    res = randomization_test([0.5, 0.6, 0.9, 0.7], [0.3, 0.5, 0.6, 0.4], rng=0)
    assert res.confidence_interval(0.95) == ConfidenceInterval(-math.inf, math.inf)


# --------------------------------------------------------------------------- bootstrap


def test_bootstrap_pvalue_within_mc_error_of_exact_bootstrap():
    d = np.array([0.3, -0.1, 0.25, 0.4, 0.05])
    centred = d - d.mean()
    # all 5**5 equally likely ordered resamples of the centred differences
    means = np.array([centred[list(idx)].mean() for idx in itertools.product(range(5), repeat=5)])
    exact = float(np.mean(np.abs(means) >= abs(d.mean()) - 1e-12))
    res = bootstrap_test(d, np.zeros(5), n_resamples=20_000, rng=3)
    assert abs(res.pvalue - exact) <= mc_tolerance(exact, 20_000)
    # percentile interval against the exact bootstrap distribution's quantiles
    low, high = res.confidence_interval(0.9)
    exact_low, exact_high = np.quantile(means + d.mean(), [0.05, 0.95])
    assert low == pytest.approx(exact_low, abs=0.02) and high == pytest.approx(exact_high, abs=0.02)


def test_bootstrap_interval_close_to_scipy_percentile():
    rng = np.random.default_rng(8)
    x, y = rng.random(80), rng.random(80) * 0.9
    res = bootstrap_test(x, y, n_resamples=20_000, rng=1)
    # scipy.stats.bootstrap((x - y,), np.mean, method="percentile", n_resamples=20000)
    ref = st.bootstrap((x - y,), np.mean, method="percentile", n_resamples=20_000,
                       rng=np.random.default_rng(2)).confidence_interval
    se = np.std(x - y, ddof=1) / math.sqrt(80)
    assert res.confidence_interval().low == pytest.approx(ref.low, abs=0.1 * se)
    assert res.confidence_interval().high == pytest.approx(ref.high, abs=0.1 * se)


def test_bootstrap_reproducible():
    rng = np.random.default_rng(1)
    x, y = rng.random(30), rng.random(30)
    a = bootstrap_test(x, y, n_resamples=3000, rng=5)
    b = bootstrap_test(x, y, n_resamples=3000, rng=5)
    assert a == b and a.confidence_interval() == b.confidence_interval()


def test_bootstrap_mean_ci_against_scipy():
    rng = np.random.default_rng(12)
    scores = rng.random((3, 150)) * np.array([[1.0], [0.8], [0.5]])
    ci = bootstrap_mean_ci(scores, n_resamples=20_000, rng=0)
    assert ci.low.shape == (3,) and ci.high.shape == (3,)
    for k in range(3):
        # scipy.stats.bootstrap((scores[k],), np.mean, method="percentile", n_resamples=20000)
        ref = st.bootstrap((scores[k],), np.mean, method="percentile", n_resamples=20_000,
                           rng=np.random.default_rng(k)).confidence_interval
        se = scores[k].std(ddof=1) / math.sqrt(150)
        assert ci.low[k] == pytest.approx(ref.low, abs=0.1 * se)
        assert ci.high[k] == pytest.approx(ref.high, abs=0.1 * se)
    one = bootstrap_mean_ci(scores[0], n_resamples=20_000, rng=0)
    assert isinstance(one.low, float) and one.low < scores[0].mean() < one.high


# --------------------------------------------------------------------------- pairwise


def test_pairwise_matches_single_pair_calls():
    rng = np.random.default_rng(2)
    scores = rng.random((4, 25))
    names = ["bm25", "dense", "hybrid", "rerank"]
    for test in ("t", "wilcoxon"):
        res = pairwise_tests(scores, test=test, names=names)
        assert list(res) == [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
        for (a, b), r in res.items():
            single = paired_test(scores[names.index(a)], scores[names.index(b)], test=test)
            assert r.pvalue == pytest.approx(single.pvalue)
    # one pair through the vectorised engine equals the single-pair function with the same seed
    pair = pairwise_tests(scores, test="randomization", names=names, pairs=[("dense", "bm25")],
                          n_resamples=500, rng=3)[("dense", "bm25")]
    assert pair == randomization_test(scores[1], scores[0], n_resamples=500, rng=3)
    boot = pairwise_tests(scores, test="bootstrap", names=names, pairs=[("dense", "bm25")],
                          n_resamples=500, rng=3)[("dense", "bm25")]
    assert boot == bootstrap_test(scores[1], scores[0], n_resamples=500, rng=3)


def test_pairwise_randomization_each_pair_within_mc_error():
    rng = np.random.default_rng(21)
    scores = rng.integers(0, 5, (4, 10)) / 4
    res = pairwise_tests(scores, test="fisher", n_resamples=20_000, rng=0)
    for (a, b), r in res.items():
        exact = exact_randomization_pvalue(scores[a] - scores[b])
        assert abs(r.pvalue - exact) <= mc_tolerance(exact, 20_000)


def test_pairwise_input_errors():
    with pytest.raises(InputError, match="2-D"):
        pairwise_tests([0.1, 0.2])
    with pytest.raises(InputError, match="one name per system"):
        pairwise_tests([[0.1, 0.2], [0.3, 0.4]], names=["a"])
    with pytest.raises(InputError, match="pairs"):
        pairwise_tests([[0.1, 0.2], [0.3, 0.4]], names=["a", "b"], pairs=[("a", "c")])
    with pytest.raises(InputError, match="test must be one of"):
        pairwise_tests([[0.1, 0.2], [0.3, 0.4]], test="anova")


# --------------------------------------------------------------------------- corrections


def test_corrections_by_hand():
    p = [0.01, 0.04, 0.03, 0.005]
    # Holm: sorted .005 .01 .03 .04 times 4 3 2 1 = .02 .03 .06 .04, running max .02 .03 .06 .06
    np.testing.assert_allclose(adjust_pvalues(p), [0.03, 0.06, 0.06, 0.02])
    np.testing.assert_allclose(adjust_pvalues(p, method="bonferroni"), [0.04, 0.16, 0.12, 0.02])
    # BH: p * 4 / rank = .02 .02 .04 .04, running min from the top
    np.testing.assert_allclose(adjust_pvalues(p, method="bh"), [0.02, 0.04, 0.04, 0.02])
    np.testing.assert_allclose(adjust_pvalues(p, method="none"), p)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(("ours", "theirs"), [("holm", "holm"), ("bonferroni", "bonferroni"),
                                              ("bh", "fdr_bh"), ("fdr_bh", "fdr_bh"),
                                              ("benjamini-hochberg", "fdr_bh")])
def test_corrections_match_statsmodels(seed, ours, theirs):
    rng = np.random.default_rng(seed)
    p = rng.random(int(rng.integers(1, 30))) ** 3
    p[: p.size // 3] = p[0]  # ties
    if p.size > 2:
        p[-1] = 1.0
    # statsmodels.stats.multitest.multipletests(p, alpha=0.05, method=theirs)
    reject, corrected, _, _ = multipletests(p, alpha=0.05, method=theirs)
    np.testing.assert_allclose(adjust_pvalues(p, method=ours), corrected, rtol=1e-12)
    np.testing.assert_array_equal(adjust_pvalues(p, method=ours) <= 0.05, reject)


def test_corrections_skip_nan_and_check_input():
    p = [0.01, math.nan, 0.04]
    out = adjust_pvalues(p, method="bonferroni")
    assert math.isnan(out[1]) and out[0] == pytest.approx(0.02) and out[2] == pytest.approx(0.08)
    with pytest.raises(InputError, match="method must be one of"):
        adjust_pvalues(p, method="sidak")
    with pytest.raises(InputError, match=r"must lie in \[0, 1\]"):
        adjust_pvalues([0.5, 1.5])


# --------------------------------------------------------------------------- planning


@pytest.mark.parametrize(("delta", "sd", "alpha", "power"),
                         [(0.02, 0.1, 0.05, 0.8), (0.05, 0.2, 0.05, 0.9), (0.3, 0.2, 0.01, 0.8),
                          (0.01, 0.15, 0.05, 0.8)])
def test_queries_needed_matches_statsmodels(delta, sd, alpha, power):
    # statsmodels.stats.power.TTestPower().solve_power(effect_size=delta / sd, alpha=alpha,
    #                                                  power=power)
    nobs = TTestPower().solve_power(effect_size=delta / sd, alpha=alpha, power=power)
    assert queries_needed(delta, sd, alpha=alpha, power=power) == math.ceil(nobs)


def test_planning_hardcoded():
    # TTestPower().solve_power(effect_size=0.2, alpha=0.05, power=0.8) -> 198.15082095556207
    assert queries_needed(0.02, 0.1) == 199
    # TTestPower().power(effect_size=0.2, nobs=50, alpha=0.05) -> 0.28359241466747337
    assert paired_t_power(0.02, 0.1, 50) == pytest.approx(0.28359241466747337, rel=1e-9)
    # 0.1 * TTestPower().solve_power(nobs=50, alpha=0.05, power=0.8) -> 0.04041829997377859
    assert minimum_detectable_difference(0.1, 50) == pytest.approx(0.04041829997377859, rel=1e-6)


@pytest.mark.parametrize("n", [5, 30, 500, 10_000])
def test_mdd_and_power_match_statsmodels(n):
    # 0.12 * statsmodels.stats.power.TTestPower().solve_power(nobs=n, alpha=0.05, power=0.8);
    # statsmodels' solver stops at about 1e-6 relative, hence the tolerance
    ref = 0.12 * TTestPower().solve_power(nobs=n, alpha=0.05, power=0.8)
    mdd = minimum_detectable_difference(0.12, n)
    assert mdd == pytest.approx(ref, rel=1e-5)
    assert TTestPower().power(mdd / 0.12, n, 0.05) == pytest.approx(0.8, abs=1e-9)
    assert paired_t_power(mdd, 0.12, n) == pytest.approx(0.8, abs=1e-9)
    assert paired_t_power(0.03, 0.12, n) == pytest.approx(TTestPower().power(0.25, n, 0.05),
                                                           rel=1e-9)


def test_planning_input_errors():
    with pytest.raises(InputError, match="sd must be a positive number"):
        queries_needed(0.02, 0.0)
    with pytest.raises(InputError, match="delta must be"):
        queries_needed(0.0, 0.1)
    with pytest.raises(InputError, match="power must be strictly between"):
        queries_needed(0.02, 0.1, power=1.5)
    with pytest.raises(InputError, match="n_queries must be at least 2"):
        minimum_detectable_difference(0.1, 1)


# --------------------------------------------------------------------------- input checking


@pytest.mark.parametrize("func", [paired_t_test, wilcoxon_test, randomization_test, bootstrap_test])
def test_paired_input_errors(func):
    with pytest.raises(InputError, match="same queries; got 3 and 2"):
        func([0.1, 0.2, 0.3], [0.1, 0.2])
    with pytest.raises(InputError, match="at least 2 queries; got 1"):
        func([0.1], [0.2])
    with pytest.raises(InputError, match="finite numbers; got nan at position 1"):
        func([0.1, math.nan], [0.2, 0.3])


def test_option_errors():
    with pytest.raises(InputError, match="rng must be"):
        randomization_test(X4, Y4, rng="seed")
    with pytest.raises(InputError, match="n_resamples must be a positive integer; got 0"):
        bootstrap_test(X4, Y4, n_resamples=0)
    with pytest.raises(InputError, match="confidence_level must be strictly between 0 and 1"):
        paired_t_test(X4, Y4).confidence_interval(95)
    with pytest.raises(InputError, match="zero_method"):
        wilcoxon_test(X4, Y4, zero_method="drop")
    with pytest.raises(InputError, match="test must be one of"):
        paired_test(X4, Y4, test="z")
