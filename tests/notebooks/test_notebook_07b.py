"""Notebook 07b (power and sequential testing) through papermill, against the library called
directly and statsmodels."""

import math

import nbformat
import pandas as pd
import pytest
from notebook_run import (
    ROOT,
    default_run_fits_one_class,
    pipeline_parameters,
    replay,
    run_solutions,
)
from notebook_run import execute as run_notebook
from statsmodels.stats.power import NormalIndPower

from reteval import ab

NOTEBOOK = ROOT / "notebooks" / "07b_sequential_testing.ipynb"


def test_the_pipeline_watches_notebook_07s_experiment():
    # the same collection, users, days and seed as notebook 07: the same log
    mine, sevens = pipeline_parameters(NOTEBOOK.stem), pipeline_parameters("07_ab_test")
    for name in ("dataset", "n_users", "days", "seed"):
        assert mine[name] == sevens[name], name


def execute(tmp_path, **parameters):
    return run_notebook(NOTEBOOK.stem, tmp_path, **parameters)


def daily_looks(log):
    stamps = log["timestamp"]
    return pd.date_range(stamps.min().floor("D") + pd.Timedelta("1D"), stamps.max().ceil("D"),
                         freq="1D")


@pytest.mark.notebook
@pytest.mark.slow
def test_notebook_watches_a_sqlite_log_like_the_library(tmp_path):
    design = ab.Experiment("nb-test", ("A", "B"), feedback_values=(0, 1))
    qrels, run_a, run_b = ab.synthetic_collection(n_queries=20, rng=3)
    log = ab.simulate_log(design, qrels, run_a, run_b, n_users=600, days=7, rng=4)
    path = tmp_path / "log.sqlite"
    with ab.InteractionLog(path) as store:
        store.register(design)
        store.extend(log.to_dict("records"))
        log = store.to_pandas()
    output_dir, results = execute(tmp_path, log_path=str(path), experiment="nb-test", metric="ctr",
                                  alpha=0.1, mixing_sd=0.05, click_model="pbm", depth=8,
                                  aa_experiments=20, seed=7)
    assert results["n_interactions"] == len(log) and results["import"] is None
    direct = ab.analyze(ab.reduce_log(log), experiment=design, metrics=["ctr"], alpha=0.1)
    fixed = direct.comparison("ctr")
    assert results["fixed_horizon"]["pvalue"] == pytest.approx(fixed.pvalue, rel=1e-12)
    assert results["fixed_horizon"]["outcome"] == fixed.outcome
    seq = ab.sequential_test(ab.cumulative_statistics(log, daily_looks(log)), "ctr", control="A",
                             treatment="B", mixing_sd=0.05, alpha=0.1)
    assert results["sequential"]["metric"] == "ctr"
    assert results["sequential"]["pvalue"] == pytest.approx(seq.pvalue.tolist(), rel=1e-12)
    assert results["sequential"]["stopped_at"] == seq.stopped_at
    base = fixed.control_value
    h = ab.proportion_effect_size(min(base * 1.05, 1.0), base)
    assert results["power_plan"]["0.05"] == math.ceil(ab.sample_size(h, alpha=0.1))
    assert (output_dir / "figures" / "sequential.png").stat().st_size > 1000
    assert results["peeking"]["aa_experiments"] == 20


@pytest.mark.notebook
@pytest.mark.slow
def test_default_run_records_the_library_values_and_the_conclusions_its_prose_draws(tmp_path):
    parameters = pipeline_parameters(NOTEBOOK.stem)
    _, results = execute(tmp_path, lang="en", aa_experiments=200, **parameters)
    design = ab.Experiment("ranker-test", ("A", "B"), feedback_values=(0, 1))
    seed, n_users, days = parameters["seed"], parameters["n_users"], parameters["days"]
    qrels, run_a, run_b = ab.synthetic_collection(rng=seed)
    log = ab.simulate_log(design, qrels, run_a, run_b, n_users=n_users, queries_per_user=3.0,
                          click_model="cascade", depth=10, days=days, rng=seed)
    assert results["n_interactions"] == len(log)
    # section 1: notebook 07's analysis (both primary metrics, the guardrail, Holm) gives the
    # watched metric the same unadjusted p-value, below 0.05
    seven = ab.analyze(ab.reduce_log(log), experiment=design, metrics=["satisfaction", "ctr"],
                       guardrails=["queries_per_user"])
    assert (seven.decision, seven.recommended) == ("ship", "B")
    fixed = results["fixed_horizon"]
    assert fixed["metric"] == "satisfaction" and fixed["outcome"] == "better"
    assert fixed["pvalue"] == pytest.approx(seven.comparison("satisfaction").pvalue, rel=1e-9)
    assert fixed["pvalue"] < 0.05

    # section 2: users per variant for Cohen's h (statsmodels NormalIndPower, two-sided);
    # a 1% lift needs over a hundred times the users of a 10% lift
    base = fixed["control_value"]
    for lift, users in results["power_plan"].items():
        target = min(base * (1 + float(lift)), 1.0)
        h = 2 * math.asin(math.sqrt(target)) - 2 * math.asin(math.sqrt(base))
        assert users == math.ceil(NormalIndPower().solve_power(h, alpha=0.05, power=0.8)), lift
    assert results["power_plan"]["0.01"] > 100 * results["power_plan"]["0.1"]
    # "removing a share r of the variance multiplies every number of this table by 1 - r": the
    # effect size grows by 1 / sqrt(1 - r) (statsmodels), here for the quarter CUPED removes in 07
    for lift, users in results["power_plan"].items():
        target = min(base * (1 + float(lift)), 1.0)
        h = 2 * math.asin(math.sqrt(target)) - 2 * math.asin(math.sqrt(base))
        reduced_n = NormalIndPower().solve_power(h / math.sqrt(0.75), alpha=0.05, power=0.8)
        assert ab.sample_size(h, variance_reduction=0.25) == pytest.approx(reduced_n, rel=1e-6)
        assert reduced_n == pytest.approx(0.75 * users, rel=1e-3, abs=1), lift

    # section 3, first puzzle: fixed horizon significant, mSPRT not (yet); the same data at
    # the last look
    seq = results["sequential"]
    assert seq["fixed_horizon_pvalue"] < 0.05 and seq["stopped_at"] is None
    assert seq["naive_pvalue"][-1] == pytest.approx(seq["fixed_horizon_pvalue"], rel=1e-9)
    # at every look the mSPRT's evidence is weaker than the naive p-value of that look
    assert all(p >= q for p, q in zip(seq["pvalue"], seq["naive_pvalue"], strict=True))
    # second puzzle: on the defaults the naive p-value is below alpha only late, not on day 1;
    # before that it dipped towards 0.05 and rose again (the figure)
    naive = seq["naive_pvalue"]
    first = seq["naive_below_alpha"][0]
    assert first >= len(naive) // 2
    assert seq["naive_below_alpha"] == [i for i, p in enumerate(naive) if p < 0.05]
    dip = min(range(first), key=naive.__getitem__)
    assert naive[dip] < 0.1 and max(naive[dip:first]) > 2 * naive[dip]
    # the looks: one per midnight, 15 for 14 days, because the last users' queries run a few
    # minutes past the 14th midnight; the 15th look adds only those few records
    assert len(naive) == len(daily_looks(log)) == days + 1
    start = log["timestamp"].min().floor("D")
    late = log["timestamp"] >= start + pd.Timedelta(days=days)
    assert 0 < late.sum() < 0.01 * len(log)
    assert (log["timestamp"] < start + pd.Timedelta(days=days, minutes=30)).all()
    # peeking: daily naive looks err far more often than alpha; the mSPRT and a single look do not
    rates = results["peeking"]["false_positive_rate"]
    assert rates["naive"] > 2 * 0.05
    assert rates["msprt"] <= 0.05 and rates["once"] <= 0.1


# ---- exercises


@pytest.mark.notebook
@pytest.mark.slow
def test_the_default_run_replays_to_the_same_outputs(tmp_path):
    """Run again (nbval), the simulated users and the A/A experiments print what the book
    recorded."""
    output_dir, _ = execute(tmp_path, lang="en", aa_experiments=200,
                            **pipeline_parameters(NOTEBOOK.stem))
    executed = output_dir.parent / f"{NOTEBOOK.stem}.ipynb"
    code = [c for c in nbformat.read(executed, as_version=4).cells if c.cell_type == "code"]
    assert replay(executed, tmp_path) == len(code)


@pytest.mark.slow
def test_the_solutions_notebook_passes_its_own_checks():
    run_solutions("07b", "en")  # each solution cell asserts check() accepts it


def test_the_checks_reject_plausible_wrong_answers():
    from reteval.teaching.exercises import check, reset

    n = math.ceil(ab.sample_size(ab.proportion_effect_size(0.82, 0.80)))
    assert n == 6036  # statsmodels NormalIndPower().solve_power
    assert check("07b.1", n) and not check("07b.1", 2 * n)  # per variant, not in total
    one_sided = math.ceil(ab.sample_size(ab.proportion_effect_size(0.82, 0.80), alpha=0.10))
    assert not check("07b.1", one_sided)
    assert check("07b.2", "b") and check("07b.2", " B ") and check("07b.2", "(b)")
    for wrong in ("a", "c", "d", "bc"):
        assert not check("07b.2", wrong)
    # Lambda = sqrt(1e-4 / 5e-4) exp(4e-4 * 9e-4 / (2 * 1e-4 * 5e-4)) = sqrt(0.2) e^3.6 = 16.3672;
    # the always-valid p-value at a first look is 1 / Lambda = 0.061098
    assert check("07b.3", 0.0611) and check("07b.3", "0.0611") and check("07b.3", 0.061098)
    reset("07b.3")
    naive = check("07b.3", 0.0027, lang="en")  # 2 P(Z > 3), the naive p-value of that look
    assert not naive and "naive" in naive.message
    assert not check("07b.3", 16.37) and not check("07b.3", 0.05) and not check("07b.3", 1)


@pytest.mark.notebook
@pytest.mark.slow
def test_the_executed_notebook_fits_one_class(tmp_path):
    """Notebook 07b on the pipeline's defaults with 200 A/A experiments, in English (the run
    a test above reads): at most one 90-minute class in either edition."""
    default_run_fits_one_class(NOTEBOOK.stem, tmp_path, lang="en", aa_experiments=200)
