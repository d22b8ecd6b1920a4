"""reteval.stats.planning: paired-t and two-sample planning against statsmodels' power classes."""

import importlib
import importlib.util
import math

import pytest

from reteval.errors import InputError
from reteval.stats import planning
from reteval.stats.planning import (
    minimum_detectable_difference,
    minimum_detectable_effect,
    paired_t_power,
    proportion_effect_size,
    proportion_mde,
    queries_needed,
    two_sample_power,
    two_sample_size,
)

ALTERNATIVES = ("two-sided", "larger", "smaller")


def test_ab_power_names_are_the_planning_functions():
    ab = importlib.import_module("reteval.ab")
    assert ab.power is two_sample_power
    assert ab.sample_size is two_sample_size
    for name in ("minimum_detectable_effect", "proportion_effect_size", "proportion_mde"):
        assert getattr(ab, name) is getattr(planning, name)


def test_reteval_ab_power_is_only_the_function():
    # no submodule of that name: `import reteval.ab.power` cannot rebind the attribute
    assert importlib.util.find_spec("reteval.ab.power") is None
    from reteval.ab import power

    assert power is two_sample_power
    # statsmodels.stats.power.NormalIndPower().power(0.2, 100, 0.05)
    assert power(0.2, 100) == pytest.approx(0.2929889364479872, rel=1e-9)


# --------------------------------------------------------------------------- two samples

@pytest.mark.parametrize(
    "d, n, ratio, alternative, expected",
    [
        # statsmodels.stats.power.NormalIndPower().power(d, n, alpha, ratio=..., alternative=...)
        (0.1, 1000, 1.0, "two-sided", 0.6087794846454566),
        (0.2, 300, 2.0, "two-sided", 0.807430419432557),
        (0.1, 1000, 1.0, "larger", 0.7228115956892014),
        (-0.15, 500, 0.5, "smaller", 0.6147183086406011),
    ],
)
def test_two_sample_power_matches_statsmodels(d, n, ratio, alternative, expected):
    assert two_sample_power(d, n, ratio=ratio, alternative=alternative) == pytest.approx(
        expected, rel=1e-9)


def test_two_sample_size_and_mde_match_statsmodels():
    # NormalIndPower().solve_power(effect_size=0.1, nobs1=None, alpha=0.05, power=0.8)
    assert two_sample_size(0.1) == pytest.approx(1569.7721019023288, rel=1e-7)
    # NormalIndPower().solve_power(effect_size=None, nobs1=1570, alpha=0.05, power=0.8)
    # = 0.0999936069875005, where statsmodels' root finder stopped with power 0.8 + 7e-6;
    # ours solves to machine precision, so agreement is to its tolerance.
    mde = minimum_detectable_effect(1570)
    assert mde == pytest.approx(0.0999936069875005, rel=1e-4)
    assert two_sample_power(mde, 1570) == pytest.approx(0.8, abs=1e-12)


def test_two_sample_against_statsmodels_live():
    smp = pytest.importorskip("statsmodels.stats.power")
    sm_prop = pytest.importorskip("statsmodels.stats.proportion")
    solver = smp.NormalIndPower()
    h = sm_prop.proportion_effectsize(0.55, 0.50)
    assert proportion_effect_size(0.55, 0.50) == pytest.approx(h, rel=1e-12)
    for ratio, alt in ((1.0, "two-sided"), (0.5, "two-sided"), (2.0, "larger")):
        assert two_sample_power(h, 800, ratio=ratio, alternative=alt) == pytest.approx(
            solver.power(h, 800, 0.05, ratio=ratio, alternative=alt), rel=1e-10)
        assert two_sample_size(h, power=0.9, ratio=ratio, alternative=alt) == pytest.approx(
            solver.solve_power(h, None, 0.05, 0.9, ratio=ratio, alternative=alt), rel=1e-5)
        assert minimum_detectable_effect(800, ratio=ratio, alternative=alt) == pytest.approx(
            solver.solve_power(None, 800, 0.05, 0.8, ratio=ratio, alternative=alt), rel=1e-4)
    smaller = minimum_detectable_effect(800, alternative="smaller")
    assert smaller < 0 and two_sample_power(smaller, 800, alternative="smaller") == (
        pytest.approx(0.8, abs=1e-9))


def test_variance_reduction_reads_the_effect_as_larger():
    # CUPED removing 30% of the variance: the effect 0.1 counts as 0.1 / sqrt(0.7).
    # NormalIndPower().power(0.1 / math.sqrt(0.7), 1000, 0.05) = 0.7619701394681069
    assert two_sample_power(0.1, 1000, variance_reduction=0.3) == pytest.approx(
        0.7619701394681069, rel=1e-9)
    # NormalIndPower().solve_power(0.1 / math.sqrt(0.7), None, 0.05, 0.8) = 1098.8404713074176
    assert two_sample_size(0.1, variance_reduction=0.3) == pytest.approx(
        1098.8404713074176, rel=1e-7)
    # by hand: 1 - r times the users, sqrt(1 - r) times the detectable effect
    assert two_sample_size(0.1, variance_reduction=0.3) == pytest.approx(
        0.7 * two_sample_size(0.1), rel=1e-8)
    assert minimum_detectable_effect(1570, variance_reduction=0.36) == pytest.approx(
        0.8 * minimum_detectable_effect(1570), rel=1e-10)
    assert two_sample_size(0.1, variance_reduction=0) == two_sample_size(0.1)
    for bad in (1.0, -0.1, "x"):
        with pytest.raises(InputError, match="variance_reduction"):
            two_sample_size(0.1, variance_reduction=bad)


def test_proportion_mde_round_trips_through_power():
    delta = proportion_mde(0.30, 2000)
    h = proportion_effect_size(0.30 + delta, 0.30)
    assert two_sample_power(h, 2000) == pytest.approx(0.8, abs=1e-9)
    assert proportion_mde(0.999, 10) == pytest.approx(0.001)  # capped at a rate of 1


# --------------------------------------------------------------------------- paired t

@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_paired_planning_matches_ttestpower(alternative):
    smp = pytest.importorskip("statsmodels.stats.power")
    solver = smp.TTestPower()
    delta = -0.02 if alternative == "smaller" else 0.02
    assert paired_t_power(delta, 0.1, 120, alpha=0.1, alternative=alternative) == (
        pytest.approx(solver.power(delta / 0.1, 120, 0.1, alternative=alternative), rel=1e-9))
    nobs = solver.solve_power(delta / 0.1, None, 0.05, 0.9, alternative=alternative)
    assert queries_needed(delta, 0.1, power=0.9, alternative=alternative) == math.ceil(nobs)
    effect = solver.solve_power(None, 60, 0.05, 0.8, alternative=alternative)
    assert minimum_detectable_difference(0.1, 60, alternative=alternative) == pytest.approx(
        0.1 * effect, rel=1e-4)


def test_one_sided_needs_fewer_queries_than_two_sided():
    assert queries_needed(0.02, 0.1, alternative="larger") < queries_needed(0.02, 0.1)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: two_sample_power(0.1, 0), "nobs1 must be a positive number"),
        (lambda: two_sample_power(0.1, 10, alpha=1.5), "alpha must be strictly between"),
        (lambda: two_sample_power(0.1, 10, ratio=0), "ratio must be a positive number"),
        (lambda: two_sample_size(0.0), "can never reach power"),
        (lambda: two_sample_size(-0.2, alternative="larger"), "can never reach power"),
        (lambda: two_sample_size(0.2, power=0.01), "power must exceed alpha"),
        (lambda: two_sample_power(0.1, 10, alternative="less"), "alternative must be one of"),
        (lambda: proportion_effect_size(1.2, 0.5), r"p1 must be a probability in \[0, 1\]"),
        (lambda: queries_needed(0.02, 0.1, alternative="smaller"), "can never reach power"),
        (lambda: paired_t_power(0.02, 0.1, 50, alternative="greater"), "alternative must be"),
        (lambda: minimum_detectable_difference(0.1, 1), "n_queries must be at least 2"),
    ],
)
def test_bad_arguments(call, message):
    with pytest.raises(InputError, match=message):
        call()
