"""Many systems on the same topics: ANOVA, Tukey HSD, discriminative power, planning.

References: Sakai (2018) Table 5.1 for the worked example, statsmodels ``anova_lm`` for the
two-way ANOVA, ``scipy.stats.studentized_range`` for the studentized Tukey HSD,
statsmodels ``FTestAnovaPower`` for the topic-set size, exact enumeration for the randomised test.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from reteval.errors import InputError
from reteval.stats import (
    anova,
    anova_power,
    discriminative_power,
    pilot_variance,
    queries_needed_anova,
    tukey_hsd,
    tukey_hsd_measures,
)
from reteval.stats.arrays import _permutation_tables, randomised_ranges

# Sakai, "Laboratory Experiments in Information Retrieval" (Springer, 2018), Table 5.1:
# three systems, twenty topics; the book reports F = 2.475, V_E = 0.0219, MOE = 0.0670 and
# effect sizes 0.507 (1-2), 0.676 (1-3), 0.169 (2-3).
SAKAI_5_1 = pd.DataFrame({
    "System1": [0.70, 0.30, 0.20, 0.60, 0.40, 0.40, 0.00, 0.70, 0.10, 0.30,
                0.50, 0.40, 0.00, 0.60, 0.50, 0.30, 0.10, 0.50, 0.20, 0.10],
    "System2": [0.50, 0.10, 0.00, 0.20, 0.40, 0.30, 0.00, 0.50, 0.30, 0.30,
                0.40, 0.40, 0.10, 0.40, 0.20, 0.10, 0.10, 0.60, 0.30, 0.20],
    "System3": [0.00, 0.00, 0.20, 0.10, 0.30, 0.30, 0.10, 0.20, 0.40, 0.40,
                0.40, 0.30, 0.30, 0.20, 0.20, 0.20, 0.10, 0.50, 0.40, 0.30],
}, index=[f"t{j}" for j in range(1, 21)])


def _random_scores(n_topics=30, n_systems=4, seed=0, shift=0.03):
    rng = np.random.default_rng(seed)
    topic = rng.uniform(0.1, 0.7, size=(n_topics, 1))
    x = topic + rng.normal(0, 0.1, size=(n_topics, n_systems)) + shift * np.arange(n_systems)
    return pd.DataFrame(x, columns=[f"s{i}" for i in range(n_systems)],
                        index=[f"q{j}" for j in range(n_topics)])


def _anova_lm(frame):
    """statsmodels' two-way ANOVA of the long form: score ~ C(system) + C(topic)."""
    sm_formula = pytest.importorskip("statsmodels.formula.api")
    sm_anova = pytest.importorskip("statsmodels.stats.anova")
    long = frame.rename_axis("topic").reset_index().melt(id_vars="topic", var_name="system",
                                                        value_name="score")
    return sm_anova.anova_lm(sm_formula.ols("score ~ C(system) + C(topic)", long).fit())


# --------------------------------------------------------------------------- Sakai's example


def test_sakai_table_5_1_anova():
    res = anova(SAKAI_5_1)
    assert round(res.statistic, 3) == 2.475
    assert round(res.residual_variance, 4) == 0.0219
    assert round(res.margin_of_error(0.95), 4) == 0.0670
    assert (res.df_system, res.df_topic, res.df_residual) == (2, 19, 38)
    assert res.means.round(3).tolist() == [0.345, 0.270, 0.245]


def test_sakai_table_5_1_effect_sizes():
    res = tukey_hsd(SAKAI_5_1, method="studentized")
    es = res.effect_size.round(3)
    assert es.loc["System1", "System2"] == 0.507
    assert es.loc["System1", "System3"] == 0.676
    assert es.loc["System2", "System3"] == 0.169
    assert es.loc["System2", "System1"] == -0.507


def test_margin_of_error_interval():
    res = anova(SAKAI_5_1)
    low, high = res.confidence_interval(0.95)
    # t(38; 0.975) = 2.0244 (tables), sqrt(0.0218860 / 20) = 0.033080
    assert low["System1"] == pytest.approx(0.345 - 2.024394 * 0.0330803, abs=1e-5)
    assert high["System3"] == pytest.approx(0.245 + 0.066967, abs=1e-5)


# --------------------------------------------------------------------------- against statsmodels


@pytest.mark.parametrize("seed,shape", [(0, (30, 4)), (1, (12, 7)), (2, (2, 2))])
def test_anova_matches_statsmodels(seed, shape):
    frame = _random_scores(*shape, seed=seed)
    ref = _anova_lm(frame)
    res = anova(frame)
    assert res.statistic == pytest.approx(ref.loc["C(system)", "F"], rel=1e-9)
    assert res.pvalue == pytest.approx(ref.loc["C(system)", "PR(>F)"], rel=1e-8)
    assert res.topic_statistic == pytest.approx(ref.loc["C(topic)", "F"], rel=1e-9)
    assert res.df_system == ref.loc["C(system)", "df"]
    assert res.df_residual == ref.loc["Residual", "df"]
    assert res.residual_variance == pytest.approx(ref.loc["Residual", "mean_sq"], rel=1e-9)
    assert res.ss_system == pytest.approx(ref.loc["C(system)", "sum_sq"], rel=1e-9)
    assert res.ss_topic == pytest.approx(ref.loc["C(topic)", "sum_sq"], rel=1e-9)


def test_studentized_tukey_matches_scipy_studentized_range():
    frame = _random_scores(25, 5, seed=3)
    ref = _anova_lm(frame)
    v_e = ref.loc["Residual", "mean_sq"]
    df = ref.loc["Residual", "df"]
    res = tukey_hsd(frame, method="studentized")
    means = frame.mean()
    for a, b in itertools.combinations(frame.columns, 2):
        q = abs(means[a] - means[b]) / math.sqrt(v_e / 25)
        assert res.pvalue.loc[a, b] == pytest.approx(stats.studentized_range.sf(q, 5, df),
                                                     rel=1e-6)
        assert res.pvalue.loc[b, a] == res.pvalue.loc[a, b]
        assert res.effect_size.loc[a, b] == pytest.approx((means[a] - means[b]) / math.sqrt(v_e))
    assert (np.diag(res.pvalue) == 1).all()
    assert res.n_resamples == 0


def test_studentized_critical_difference_and_intervals():
    frame = _random_scores(25, 5, seed=3)
    res = tukey_hsd(frame, method="studentized")
    q = stats.studentized_range.ppf(0.95, 5, 96)
    half = q * math.sqrt(res.residual_variance / 25)
    assert res.critical_difference(0.95) == pytest.approx(half, rel=1e-6)
    low, high = res.confidence_interval(0.95)
    assert high.loc["s4", "s0"] - low.loc["s4", "s0"] == pytest.approx(2 * half, rel=1e-6)
    # a pair is significant at 0.05 exactly when its interval excludes 0
    sig = res.significant(0.05).to_numpy()
    excludes = ((low > 0) | (high < 0)).to_numpy().copy()
    np.fill_diagonal(excludes, False)
    assert (sig == excludes).all()
    assert sig.any() and not sig.all()
    es_low, _ = res.effect_size_interval(0.95)
    assert es_low.loc["s4", "s0"] == pytest.approx(low.loc["s4", "s0"]
                                                   / math.sqrt(res.residual_variance))


def test_pairs_long_form():
    res = tukey_hsd(SAKAI_5_1, method="studentized")
    pairs = res.pairs(0.05)
    assert pairs[["system", "other"]].values.tolist() == [
        ["System1", "System2"], ["System1", "System3"], ["System2", "System3"]]
    assert pairs["mean_difference"].round(3).tolist() == [0.075, 0.1, 0.025]


# --------------------------------------------------------------------------- randomised Tukey HSD


@pytest.mark.parametrize("m", [2, 3, 4, 5, 7])
def test_permutation_tables_hold_every_permutation_once(m):
    first, second, n1, n2 = _permutation_tables(m)
    codes = np.arange(math.factorial(m))
    subset, rest = np.divmod(codes, n1 * n2)
    order1, order2 = np.divmod(rest, n2)
    perms = np.concatenate([first[subset * n1 + order1], second[subset * n2 + order2]], axis=1)
    assert sorted(map(tuple, perms.tolist())) == list(itertools.permutations(range(m)))


def test_randomised_ranges_follow_the_distribution_of_a_permuted_loop():
    x = _random_scores(40, 6, seed=4).to_numpy()
    ranges = randomised_ranges(x, 4000, np.random.default_rng(11))
    loop_rng = np.random.default_rng(12)
    expected = []
    for _ in range(4000):
        means = loop_rng.permuted(x, axis=1).mean(axis=0)
        expected.append(means.max() - means.min())
    assert stats.ks_2samp(ranges, expected).pvalue > 0.01


def test_randomised_ranges_of_many_systems_equal_a_loop_of_permuted():
    x = _random_scores(15, 12, seed=4).to_numpy()  # above the table limit: Generator.permuted
    ranges = randomised_ranges(x, 300, np.random.default_rng(11))
    loop_rng = np.random.default_rng(11)
    expected = []
    for _ in range(300):
        means = loop_rng.permuted(x, axis=1).mean(axis=0)
        expected.append(means.max() - means.min())
    np.testing.assert_allclose(ranges, expected, rtol=1e-12)


@pytest.mark.parametrize("m", [3, 6, 12, 20])
def test_randomised_ranges_of_several_measures_are_each_measures_own(m):
    # One permutation per topic and round for every measure: each measure's ranges are those
    # it gets alone from a generator in the same state (tables up to 10 systems, permuted above).
    x = np.stack([_random_scores(25, m, seed=s).to_numpy() for s in (1, 2, 3)], axis=2)
    x[:, :, 2] = x[:, :, 0] ** 2  # a measure that is a function of another
    together = randomised_ranges(x, 700, np.random.default_rng(21))
    assert together.shape == (700, 3)
    for k in range(3):
        alone = randomised_ranges(x[:, :, k], 700, np.random.default_rng(21))
        np.testing.assert_allclose(together[:, k], alone, rtol=1e-12)
    one = randomised_ranges(x[:, :, :1], 700, np.random.default_rng(21))
    np.testing.assert_array_equal(one[:, 0], randomised_ranges(x[:, :, 0], 700,
                                                               np.random.default_rng(21)))


@pytest.mark.parametrize("method", ["randomised", "studentized"])
def test_tukey_hsd_measures_equal_each_measure_alone(method):
    measures = {"AP": _random_scores(30, 12, seed=5), "RR": _random_scores(30, 12, seed=6)}
    both = tukey_hsd_measures(measures, method=method, n_resamples=400, rng=8)
    assert list(both) == ["AP", "RR"]
    for label, frame in measures.items():
        alone = tukey_hsd(frame, method=method, n_resamples=400, rng=8)
        pd.testing.assert_frame_equal(both[label].pvalue, alone.pvalue)
        pd.testing.assert_frame_equal(both[label].effect_size, alone.effect_size)
        assert both[label].n_resamples == alone.n_resamples
        np.testing.assert_allclose(both[label].null_ranges, alone.null_ranges, rtol=1e-12)


def test_tukey_hsd_measures_refuses_measures_on_other_topics_or_systems():
    frame = _random_scores(10, 3, seed=1)
    with pytest.raises(InputError, match=r"same topics and systems.*'RR' differs from 'AP'"):
        tukey_hsd_measures({"AP": frame, "RR": frame.iloc[:9]})
    with pytest.raises(InputError, match=r"same topics and systems.*'RR' differs from 'AP'"):
        tukey_hsd_measures({"AP": frame, "RR": frame[["s2", "s1", "s0"]]})
    with pytest.raises(InputError, match="non-empty mapping measure"):
        tukey_hsd_measures({})


def test_randomised_tukey_against_exact_enumeration():
    # 3 topics x 3 systems: 6^3 = 216 equally likely arrangements under the null
    x = np.array([[0.9, 0.5, 0.1], [0.6, 0.4, 0.3], [0.8, 0.2, 0.5]])
    perms = list(itertools.permutations(range(3)))
    ranges = []
    for p0, p1, p2 in itertools.product(perms, repeat=3):
        means = (x[0, list(p0)] + x[1, list(p1)] + x[2, list(p2)]) / 3
        ranges.append(means.max() - means.min())
    ranges = np.array(ranges)
    means = x.mean(axis=0)
    res = tukey_hsd(x, n_resamples=20_000, rng=5)
    for a, b in itertools.combinations(range(3), 2):
        exact = np.mean(ranges >= abs(means[a] - means[b]) - 1e-12)
        se = math.sqrt(exact * (1 - exact) / 20_000)
        assert abs(res.pvalue.loc[a, b] - exact) < 5 * se + 1e-4


def test_randomised_tukey_p_value_floor_and_reproducibility():
    frame = _random_scores(60, 3, seed=6, shift=0.5)  # huge differences
    res = tukey_hsd(frame, n_resamples=99, rng=1)
    assert res.pvalue.loc["s0", "s2"] == pytest.approx(1 / 100)
    again = tukey_hsd(frame, n_resamples=99, rng=1)
    pd.testing.assert_frame_equal(res.pvalue, again.pvalue)
    assert res.null_ranges.size == 99


@pytest.mark.slow
def test_randomised_and_studentized_agree_on_normal_scores():
    frame = _random_scores(50, 5, seed=7, shift=0.0)  # the null hypothesis holds
    stud = tukey_hsd(frame, method="studentized")
    rand = tukey_hsd(frame, method="randomized", n_resamples=20_000, rng=2)
    np.testing.assert_allclose(rand.pvalue.to_numpy(), stud.pvalue.to_numpy(), atol=0.03)
    for level in (0.5, 0.9, 0.95):
        assert rand.critical_difference(level) == pytest.approx(stud.critical_difference(level),
                                                                rel=0.05)


def test_randomised_critical_difference_is_a_quantile():
    frame = _random_scores(20, 4, seed=8)
    res = tukey_hsd(frame, n_resamples=999, rng=3)
    cd = res.critical_difference(0.95)
    # 95% of the 1000 arrangements (999 rounds and the observed one) have a smaller range
    assert np.sum(res.null_ranges < cd) <= 950 <= np.sum(res.null_ranges <= cd) + 1


# --------------------------------------------------------------------------- discriminative power


def test_discriminative_power_t_counts_scipy_ttests():
    frame = _random_scores(20, 5, seed=9, shift=0.04)
    dp = discriminative_power(frame, test="t", alpha=0.05)
    expected = [stats.ttest_rel(frame[a], frame[b]).pvalue
                for a, b in itertools.combinations(frame.columns, 2)]
    np.testing.assert_allclose(dp.pvalues.to_numpy(), expected, rtol=1e-10)
    assert dp.n_pairs == 10
    assert dp.n_significant == sum(p <= 0.05 for p in expected)
    assert dp.statistic == dp.n_significant / 10
    curve = dp.asl_curve()
    assert curve["rank"].tolist() == list(range(1, 11))
    assert curve["asl"].tolist() == sorted(expected)


def test_discriminative_power_tukey_is_more_conservative_than_t():
    frame = _random_scores(30, 6, seed=10, shift=0.03)
    t = discriminative_power(frame, test="t")
    tukey = discriminative_power(frame, test="tukey-studentized")
    assert tukey.n_significant <= t.n_significant
    rand = discriminative_power(frame, test="randomised", n_resamples=500, rng=0)
    assert rand.test == "randomization"


# --------------------------------------------------------------------------- planning


@pytest.mark.parametrize("m,n", [(2, 10), (5, 30), (20, 60)])
def test_anova_power_matches_statsmodels(m, n):
    power_mod = pytest.importorskip("statsmodels.stats.power")
    f = 0.1 / math.sqrt(2 * m * 0.02)
    ref = power_mod.FTestAnovaPower().power(f, m * n, 0.05, k_groups=m)
    assert anova_power(0.1, 0.02, m, n) == pytest.approx(ref, rel=1e-8)


@pytest.mark.parametrize("min_range,variance,m", [(0.1, 0.02, 5), (0.1, 0.02, 20),
                                                  (0.05, 0.01, 10), (0.2, 0.05, 3)])
def test_queries_needed_anova_matches_statsmodels(min_range, variance, m):
    power_mod = pytest.importorskip("statsmodels.stats.power")
    f = min_range / math.sqrt(2 * m * variance)
    nobs = power_mod.FTestAnovaPower().solve_power(f, None, 0.05, 0.8, k_groups=m)
    n = queries_needed_anova(min_range, variance, m)
    assert n == math.ceil(nobs / m - 1e-9)
    assert anova_power(min_range, variance, m, n) >= 0.8 > anova_power(min_range, variance,
                                                                        m, n - 1)


def test_pilot_variance_pools_by_degrees_of_freedom():
    a = _random_scores(10, 3, seed=11)
    b = _random_scores(30, 5, seed=12)
    va, vb = _anova_lm(a).loc["Residual", "mean_sq"], _anova_lm(b).loc["Residual", "mean_sq"]
    assert pilot_variance(a) == pytest.approx(va)
    assert pilot_variance(a, b) == pytest.approx((18 * va + 116 * vb) / 134)


# --------------------------------------------------------------------------- bad input


def test_errors_name_the_problem():
    with pytest.raises(InputError, match="at least 2 systems; got 1"):
        anova(pd.DataFrame({"a": [0.1, 0.2]}))
    with pytest.raises(InputError, match="at least 2 topics; got 1"):
        tukey_hsd(pd.DataFrame({"a": [0.1], "b": [0.2]}))
    with pytest.raises(InputError, match="system 'b' has nan at topic 'q2'"):
        anova(pd.DataFrame({"a": [0.1, 0.2], "b": [0.3, np.nan]}, index=["q1", "q2"]))
    with pytest.raises(InputError, match="system 'b' misses 'q3', 'q4'"):
        anova({"a": pd.Series({"q1": 0.1, "q2": 0.2, "q3": 0.3, "q4": 0.4}),
               "b": pd.Series({"q1": 0.1, "q2": 0.2})})
    with pytest.raises(InputError, match="n_resamples must be a positive integer; got 0"):
        tukey_hsd(SAKAI_5_1, n_resamples=0)
    with pytest.raises(InputError, match="method must be one of"):
        tukey_hsd(SAKAI_5_1, method="scheffe")
    with pytest.raises(InputError, match="alpha must be strictly between 0 and 1; got 1.5"):
        discriminative_power(SAKAI_5_1, alpha=1.5)
    with pytest.raises(InputError, match="alpha must be strictly between 0 and 1; got 0"):
        tukey_hsd(SAKAI_5_1, method="studentized").significant(0)
    with pytest.raises(InputError, match="test must be one of"):
        discriminative_power(SAKAI_5_1, test="sign")
    with pytest.raises(InputError, match="2-D"):
        anova([0.1, 0.2, 0.3])
    with pytest.raises(InputError, match="n_systems must be an integer >= 2; got 1"):
        queries_needed_anova(0.1, 0.02, 1)
    with pytest.raises(InputError, match="alpha must be strictly between 0 and 1; got 0"):
        queries_needed_anova(0.1, 0.02, 3, alpha=0)
    with pytest.raises(InputError, match="variance must be a positive number; got -1"):
        queries_needed_anova(0.1, -1, 3)


def test_array_input_names_systems_by_position():
    res = anova(np.array([[0.1, 0.2, 0.4], [0.3, 0.3, 0.5]]))
    assert list(res.means.index) == [0, 1, 2]
