"""CUPED and the Bayesian readout against GrowthBook's engine and hand computations.

Reference: gbstats 0.8.0 (GrowthBook's stats engine; a test-only reference, not a
dependency: it pins pandas < 2, so ``make`` installs it with ``--no-deps``, and
pydantic beside it). The tests that call it skip when it is absent; the
hard-coded values below were computed with it, by the calls shown in ``_ra``:
``TwoSidedTTest(_ra(C), _ra(T), FrequentistConfig(difference_type=dt))`` and
``EffectBayesianABTest(_ra(C), _ra(T), EffectBayesianConfig(difference_type=dt,
prior_type=dt, prior_effect=GaussianPrior(mean, sd**2, proper=True)))``.
"""

import math

import numpy as np
import pytest
from scipy import stats as st

from reteval.ab import bayesian_test, cuped_test
from reteval.ab.cuped import ratio_adjustment, test_adjustment
from reteval.errors import InputError

C = {"n": 1000, "sum": 5000.0, "sum_squares": 35000.0, "pre_sum": 4900.0,
     "pre_sum_squares": 33000.0, "sum_products": 31000.0}
T = {"n": 1200, "sum": 6300.0, "sum_squares": 44000.0, "pre_sum": 5950.0,
     "pre_sum_squares": 40100.0, "sum_products": 38900.0}
PC = {"n": 5000, "sum": 1510, "pre_sum": 1420, "sum_products": 905}
PT = {"n": 5100, "sum": 1650, "pre_sum": 1460, "sum_products": 990}

# gbstats 0.8.0: (proportion, difference_type) -> expected, ci, p_value, theta, dof
FREQ = {
    (False, "relative"): (0.04156080205735071, (0.003146724908748698, 0.07997487920595273),
                          0.03397677012060507, 0.7233598236556644, 2053.9419122056847),
    (False, "absolute"): (0.20780401028675355, (0.021257835361844724, 0.3943501852116624),
                          0.029030981817879553, 0.7233598236556644, 2053.9419122056847),
    (True, "relative"): (0.06765304281937123, (0.01289047852699534, 0.12241560711174712),
                         0.01546954139526413, 0.48282615944866664, 10096.261893193558),
    (True, "absolute"): (0.020431218931450112, (0.004473352765895833, 0.03638908509700439),
                         0.012099333406891288, 0.48282615944866664, 10096.261893193558),
}
# gbstats 0.8.0: (proportion, difference_type, prior) -> expected, ci, stddev, ctw, risk
BAYES = {
    (False, "relative", None): (0.04156080205735071, (0.003169361660721147, 0.07995224245398026),
                                0.019587829521081172, 0.9830713278114726,
                                (0.04168008660064595, 0.00011928454329524181)),
    (False, "relative", (0.0, 0.1)): (0.04002510650199827,
                                      (0.0023496351333333124, 0.07770057787066321),
                                      0.019222532488272367, 0.9813377770798344,
                                      (0.0401556929307787, 0.00013058642878042756)),
    (False, "absolute", None): (0.20780401028675355, (0.021367763799715278, 0.39424025677379176),
                                0.09512228181620865, 0.9855408572077891,
                                (0.20828964711359718, 0.00048563682684363903)),
    (False, "absolute", (0.0, 0.3)): (0.18882071323250252,
                                      (0.011104027527104182, 0.3665373989379008),
                                      0.0906734445669435, 0.9813481994847959,
                                      (0.18943630826275024, 0.0006155950302477202)),
    (True, "relative", None): (0.06765304281937123, (0.012897043584476485, 0.12240904205426598),
                               0.02793724765699935, 0.9922739807055285,
                               (0.06772423966008023, 7.119684070899736e-05)),
    (True, "relative", (0.0, 0.1)): (0.06275507331554492,
                                     (0.010018432598716022, 0.1154917140323738),
                                     0.026906943766726726, 0.9901575509072043,
                                     (0.0628446629199016, 8.95896043566688e-05)),
    (True, "absolute", None): (0.020431218931450112, (0.004475265830231057, 0.03638717203266917),
                               0.008140941990300625, 0.9939580947557496,
                               (0.02044705141905919, 1.583248760908025e-05)),
    (True, "absolute", (0.0, 0.3)): (0.02041618469429488,
                                     (0.004466103238075097, 0.03636626615051466),
                                     0.008137946198007711, 0.993942276392373,
                                     (0.020432056824473455, 1.5872130178575825e-05)),
}


def _arms(proportion):
    return (PC, PT) if proportion else (C, T)


@pytest.mark.parametrize(("proportion", "dt"), list(FREQ))
def test_cuped_equals_recorded_gbstats(proportion, dt):
    expected, ci, p, theta, dof = FREQ[(proportion, dt)]
    r = cuped_test(*_arms(proportion), relative=dt == "relative", proportion=proportion)
    assert r.estimate == pytest.approx(expected, abs=1e-9)
    assert r.ci == pytest.approx(ci, abs=1e-9)
    assert r.pvalue == pytest.approx(p, abs=1e-9)
    assert r.theta == pytest.approx(theta, abs=1e-9)
    assert r.df == pytest.approx(dof, rel=1e-9)


@pytest.mark.parametrize(("proportion", "dt", "prior"), list(BAYES))
def test_bayesian_equals_recorded_gbstats(proportion, dt, prior):
    expected, ci, sd, ctw, risk = BAYES[(proportion, dt, prior)]
    r = bayesian_test(*_arms(proportion), relative=dt == "relative", proportion=proportion,
                      prior=prior)
    assert r.estimate == pytest.approx(expected, abs=1e-9)
    assert r.ci == pytest.approx(ci, abs=1e-9)
    assert r.standard_deviation == pytest.approx(sd, abs=1e-9)
    assert r.chance_to_win == pytest.approx(ctw, abs=1e-9)
    assert r.risk == pytest.approx(risk, abs=1e-9)


def _users(rng, n, lift, rho=0.7):
    pre = rng.normal(10, 3, n)
    post = lift + 10 + rho * (pre - 10) + rng.normal(0, 3 * math.sqrt(1 - rho**2), n)
    return post, pre


def _sums(post, pre):
    return {"n": len(post), "sum": post.sum(), "sum_squares": (post**2).sum(),
            "pre_sum": pre.sum(), "pre_sum_squares": (pre**2).sum(),
            "sum_products": (post * pre).sum()}


def test_absolute_cuped_is_welch_on_adjusted_values():
    # By hand: theta is the pooled OLS slope; Welch's test of y - theta x per user.
    rng = np.random.default_rng(3)
    (yc, xc), (yt, xt) = _users(rng, 300, 0.0), _users(rng, 260, 0.4)
    y, x = np.concatenate([yc, yt]), np.concatenate([xc, xt])
    theta = np.cov(y, x)[0, 1] / np.var(x, ddof=1)
    ref = st.ttest_ind(yt - theta * xt, yc - theta * xc, equal_var=False)
    r = cuped_test(_sums(yc, xc), _sums(yt, xt), relative=False)
    assert r.theta == pytest.approx(theta, rel=1e-9)
    assert r.estimate == pytest.approx((yt - theta * xt).mean() - (yc - theta * xc).mean(),
                                       abs=1e-9)
    assert r.pvalue == pytest.approx(ref.pvalue, abs=1e-9)
    assert r.df == pytest.approx(ref.df, rel=1e-9)
    raw = np.var(yt, ddof=1) / len(yt) + np.var(yc, ddof=1) / len(yc)
    adj = (np.var(yt - theta * xt, ddof=1) / len(yt) + np.var(yc - theta * xc, ddof=1)
           / len(yc))
    assert r.variance_reduction == pytest.approx(1 - adj / raw, rel=1e-9)
    assert 0.35 < r.variance_reduction < 0.65  # rho = 0.7 removes about rho^2 = 0.49


def test_without_covariate_it_is_welch():
    c = {"n": 10, "sum": 30.0, "sum_squares": 108.0}
    t = {"n": 12, "sum": 24.0, "sum_squares": 59.0}
    r = cuped_test(c, t, relative=False)
    # by hand: means 3 and 2, variances (108 - 90)/9 = 2 and (59 - 48)/11 = 1
    ref = st.ttest_ind_from_stats(2, 1, 12, 3, math.sqrt(2), 10, equal_var=False)
    assert (r.theta, r.variance_reduction) == (0.0, 0.0)
    assert r.estimate == pytest.approx(-1.0)
    assert r.pvalue == pytest.approx(ref.pvalue, abs=1e-12)


def test_ratio_adjustment_is_the_linearised_cuped():
    # By hand: l = (x - R y) / ybar per user; theta from the pooled l and z.
    rng = np.random.default_rng(5)
    arms = {}
    for name, n in (("control", 400), ("treatment", 380)):
        y = rng.integers(1, 6, n).astype(float)
        z = rng.binomial(4, 0.5, n).astype(float)
        x = rng.binomial(y.astype(int), np.clip(0.4 + 0.1 * z / 4, 0, 1)).astype(float)
        arms[name] = (x, y, z)

    def sums(x, y, z):
        d = {"n": len(x), "x": x.sum(), "y": y.sum(), "z": z.sum()}
        for a, va in (("x", x), ("y", y), ("z", z)):
            for b, vb in (("x", x), ("y", y), ("z", z)):
                d[a + b] = (va * vb).sum()
        return d
    x, y, z = (np.concatenate([arms["control"][i], arms["treatment"][i]]) for i in range(3))
    joint_l = (x - x.sum() / y.sum() * y) / y.mean()
    theta = np.cov(joint_l, z)[0, 1] / np.var(z, ddof=1)
    adj = ratio_adjustment(sums(*arms["control"]), sums(*arms["treatment"]))
    assert adj.theta == pytest.approx(theta, rel=1e-9)
    for name, arm in (("control", adj.control), ("treatment", adj.treatment)):
        xa, ya, za = arms[name]
        r = xa.sum() / ya.sum()
        la = (xa - r * ya) / ya.mean()
        assert arm.unadjusted_variance == pytest.approx(np.var(la, ddof=1), rel=1e-9)
        assert arm.variance == pytest.approx(np.var(la - theta * za, ddof=1), rel=1e-9)
        assert arm.mean == pytest.approx(r - theta * za.mean(), rel=1e-12)
    res = test_adjustment(adj, relative=False, alpha=0.05, df=math.inf)
    se = math.sqrt(adj.control.variance / 400 + adj.treatment.variance / 380)
    assert res.pvalue == pytest.approx(2 * st.norm.sf(abs(res.estimate) / se), abs=1e-12)


@pytest.mark.parametrize(("control", "kwargs", "match"), [
    ({"n": 1, "sum": 1.0, "sum_squares": 1.0}, {}, "n >= 2"),
    ({"n": 10, "sum": 10.0, "sum_squares": 10.0}, {}, "zero variance"),
    ({"n": 10, "sum": 20.0, "sum_squares": 50.0, "pre_sum": 3.0}, {},
     "pre-period sum but not"),
    ({"n": 10, "sum": 12}, {"proportion": True}, r"\[0, n\] = \[0, 10\]"),
    ({"n": 10, "sum": 0.0, "sum_squares": 40.0}, {}, "control's mean is 0"),
    ({"n": 10, "sum": "a", "sum_squares": 40.0}, {}, "control sum must be a number"),
])
def test_bad_input_is_named(control, kwargs, match):
    treatment = {"n": 10, "sum": 5, "sum_squares": 9.0}
    for test in (cuped_test, bayesian_test):
        with pytest.raises(InputError, match=match):
            test(control, treatment, **kwargs)


def test_zero_mean_control_is_fine_for_the_difference():
    c = {"n": 10, "sum": 0.0, "sum_squares": 40.0}
    t = {"n": 10, "sum": 5, "sum_squares": 9.0}
    assert cuped_test(c, t, relative=False).estimate == pytest.approx(0.5)


def test_proportion_without_a_covariate_equals_recorded_gbstats():
    # EffectBayesianABTest(ProportionStatistic(n=1000, sum=300),
    #                      ProportionStatistic(n=1000, sum=330)).compute_result(), gbstats 0.8.0
    c, t = {"n": 1000, "sum": 300}, {"n": 1000, "sum": 330}
    r = bayesian_test(c, t, proportion=True)
    assert r.estimate == pytest.approx(0.10000000000000009, abs=1e-9)
    assert r.ci == pytest.approx((-0.04241805564346457, 0.2424180556434647), abs=1e-9)
    assert r.chance_to_win == pytest.approx(0.9156208672901616, abs=1e-9)
    assert r.risk == pytest.approx((0.1028071865036957, 0.002807186503695632), abs=1e-9)
    # by hand: Welch on p (1 - p) per user, no adjustment
    f = cuped_test(c, t, proportion=True, relative=False)
    se = math.sqrt(0.3 * 0.7 / 1000 + 0.33 * 0.67 / 1000)
    assert (f.estimate, f.theta) == (pytest.approx(0.03), 0.0)
    assert f.standard_error == pytest.approx(se, rel=1e-12)


def test_bad_prior():
    with pytest.raises(InputError, match="positive standard deviation"):
        bayesian_test(C, T, prior=(0.0, 0.0))
    with pytest.raises(InputError, match="pair"):
        bayesian_test(C, T, prior=0.1)


def test_lower_is_better_swaps_chance_and_risk():
    up = bayesian_test(C, T)
    down = bayesian_test(C, T, higher_is_better=False)
    assert down.chance_to_win == pytest.approx(1 - up.chance_to_win, abs=1e-15)
    assert down.risk == (up.risk[1], up.risk[0])


def test_risk_is_the_expected_loss():
    # By numerical integration of max(X, 0) and max(-X, 0) under the posterior.
    r = bayesian_test(C, T)
    m, s = r.estimate, r.standard_deviation
    grid = np.linspace(m - 12 * s, m + 12 * s, 400_001)
    dens = st.norm.pdf(grid, m, s)
    assert r.risk[0] == pytest.approx(np.trapezoid(np.maximum(grid, 0) * dens, grid), rel=1e-7)
    assert r.risk[1] == pytest.approx(np.trapezoid(np.maximum(-grid, 0) * dens, grid), rel=1e-6)


# --- against the installed gbstats, on random sums -------------------------------------

def _gbstats():
    pytest.importorskip("pydantic")
    return pytest.importorskip("gbstats")


def _ra(d, proportion):
    from gbstats.models.statistics import (
        ProportionStatistic,
        RegressionAdjustedStatistic,
        SampleMeanStatistic,
    )

    def stat(s, ss):
        if proportion:
            return ProportionStatistic(n=d["n"], sum=s)
        return SampleMeanStatistic(n=d["n"], sum=s, sum_squares=ss)
    return RegressionAdjustedStatistic(
        n=d["n"], post_statistic=stat(d["sum"], d.get("sum_squares")),
        pre_statistic=stat(d["pre_sum"], d.get("pre_sum_squares")),
        post_pre_sum_of_products=d["sum_products"], theta=0)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("proportion", [False, True])
def test_against_gbstats(seed, proportion):
    _gbstats()
    from gbstats.bayesian.tests import EffectBayesianABTest, EffectBayesianConfig, GaussianPrior
    from gbstats.frequentist.tests import FrequentistConfig, TwoSidedTTest

    rng = np.random.default_rng(seed)
    arms = []
    for lift in (0.0, 0.3 * seed / 5):
        n = int(rng.integers(50, 3000))
        if proportion:
            pre = rng.binomial(1, 0.3, n).astype(float)
            post = rng.binomial(1, np.clip(0.2 + 0.4 * pre + lift / 10, 0, 1)).astype(float)
            arms.append({"n": n, "sum": post.sum(), "pre_sum": pre.sum(),
                         "sum_products": (post * pre).sum()})
        else:
            arms.append(_sums(*_users(rng, n, lift, rho=rng.uniform(0, 0.95))))
    for dt in ("relative", "absolute"):
        rel = dt == "relative"
        ref = TwoSidedTTest(_ra(arms[0], proportion), _ra(arms[1], proportion),
                            FrequentistConfig(difference_type=dt, alpha=0.1)).compute_result()
        r = cuped_test(*arms, relative=rel, alpha=0.1, proportion=proportion)
        assert r.estimate == pytest.approx(ref.expected, abs=1e-9)
        assert r.ci == pytest.approx(ref.ci, abs=1e-9)
        assert r.pvalue == pytest.approx(ref.p_value, abs=1e-9)
        for prior in (None, (0.01, 0.05)):
            cfg = EffectBayesianConfig(
                difference_type=dt, alpha=0.1, prior_type=dt, inverse=seed % 2 == 1,
                prior_effect=GaussianPrior(mean=0, variance=1, proper=False) if prior is None
                else GaussianPrior(mean=prior[0], variance=prior[1] ** 2, proper=True))
            ref = EffectBayesianABTest(_ra(arms[0], proportion), _ra(arms[1], proportion),
                                       cfg).compute_result()
            b = bayesian_test(*arms, relative=rel, alpha=0.1, proportion=proportion,
                              prior=prior, higher_is_better=seed % 2 == 0)
            assert b.estimate == pytest.approx(ref.expected, abs=1e-9)
            assert b.ci == pytest.approx(ref.ci, abs=1e-9)
            assert b.chance_to_win == pytest.approx(ref.chance_to_win, abs=1e-9)
            assert b.risk == pytest.approx(ref.risk, abs=1e-9)


# a 0/1 metric with a numeric covariate (pre_sum_squares given): gbstats 0.8.0 with
# post_statistic=ProportionStatistic and pre_statistic=SampleMeanStatistic
MC = {"n": 4000, "sum": 1210, "pre_sum": 9100.0, "pre_sum_squares": 31000.0,
      "sum_products": 3400.0}
MT = {"n": 3900, "sum": 1290, "pre_sum": 8800.0, "pre_sum_squares": 29900.0,
      "sum_products": 3500.0}


def _mixed(d):
    from gbstats.models.statistics import (
        ProportionStatistic,
        RegressionAdjustedStatistic,
        SampleMeanStatistic,
    )
    return RegressionAdjustedStatistic(
        n=d["n"], post_statistic=ProportionStatistic(n=d["n"], sum=d["sum"]),
        pre_statistic=SampleMeanStatistic(n=d["n"], sum=d["pre_sum"],
                                          sum_squares=d["pre_sum_squares"]),
        post_pre_sum_of_products=d["sum_products"], theta=0)


def test_proportion_with_a_numeric_covariate_equals_recorded_gbstats():
    # TwoSidedTTest(_mixed(MC), _mixed(MT)).compute_result(), gbstats 0.8.0
    r = cuped_test(MC, MT, proportion=True)
    assert r.estimate == pytest.approx(0.09718434909360969, abs=1e-9)
    assert r.ci == pytest.approx((0.02783717704667503, 0.16653152114054437), abs=1e-9)
    assert r.pvalue == pytest.approx(0.006025227661943022, abs=1e-9)
    assert r.theta == pytest.approx(0.060734287492221546, abs=1e-9)


def test_proportion_with_a_numeric_covariate_against_gbstats():
    _gbstats()
    from gbstats.frequentist.tests import TwoSidedTTest

    ref = TwoSidedTTest(_mixed(MC), _mixed(MT)).compute_result()
    r = cuped_test(MC, MT, proportion=True)
    assert r.estimate == pytest.approx(ref.expected, abs=1e-9)
    assert r.ci == pytest.approx(ref.ci, abs=1e-9)
    assert r.pvalue == pytest.approx(ref.p_value, abs=1e-9)
