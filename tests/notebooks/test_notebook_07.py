"""Notebook 07 through papermill with other parameters, against the library called directly."""

import csv
import json

import numpy as np
import pandas as pd
import pytest
from notebook_run import ROOT, default_run_fits_one_class, pipeline_parameters, run_solutions
from notebook_run import execute as run_notebook
from scipy.stats import norm
from statsmodels.stats.proportion import proportions_ztest

from reteval import ab
from reteval.ab.pre_period import simulate_with_pre_period

NOTEBOOK = ROOT / "notebooks" / "07_ab_test.ipynb"

DESIGN = ab.Experiment("nb-test", ("A", "B"), feedback_values=(0, 1))


def test_the_pipeline_keeps_the_lesson_on_the_synthetic_collection():
    # `common` must not turn the lesson (a known effect the A/B test finds) off
    assert pipeline_parameters(NOTEBOOK.stem)["dataset"] == "synthetic"


def execute(tmp_path, **parameters):
    return run_notebook(NOTEBOOK.stem, tmp_path, **parameters)


def write_csv_log(path):
    """A simulated log as CSV, plus three bad records the import must reject."""
    qrels, run_a, run_b = ab.synthetic_collection(n_queries=20, rng=3)
    log = ab.simulate_log(DESIGN, qrels, run_a, run_b, n_users=600, days=7, rng=4)
    fields = [
        "experiment",
        "variant",
        "user_id",
        "query",
        "timestamp",
        "retrieved",
        "clicks",
        "feedback",
    ]
    rows = [
        {
            **rec,
            "timestamp": rec["timestamp"].strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            "retrieved": json.dumps(rec["retrieved"]),
            "clicks": json.dumps(rec["clicks"]),
            "feedback": "" if pd.isna(rec["feedback"]) else int(rec["feedback"]),
        }
        for rec in log.to_dict("records")
    ]
    bad = [dict(rows[0], variant="C"), dict(rows[1], feedback=5), dict(rows[2], user_id="")]
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows + bad)
    return len(rows)


@pytest.mark.notebook
@pytest.mark.slow
def test_notebook_analyses_a_csv_log_like_the_library(tmp_path):
    csv_path = tmp_path / "log.csv"
    n_good = write_csv_log(csv_path)
    params = {
        "log_path": str(csv_path),
        "experiment": "nb-test",
        "metrics": ["ctr", "satisfaction"],
        "guardrails": ["clicks_per_query"],
        "alpha": 0.1,
        "click_model": "pbm",
        "depth": 8,
        "heterogeneity_experiments": 5,
        "seed": 7,
    }
    output_dir, results = execute(tmp_path, **params)

    # the import, as the library reports it
    assert results["import"] == {
        "n_read": n_good + 3,
        "n_imported": n_good,
        "n_rejected": 3,
        "reasons": {"unknown variant": 1, "feedback not allowed": 1, "missing field": 1},
    }
    with ab.InteractionLog(tmp_path / "direct.sqlite") as store:
        store.register(DESIGN)
        store.import_file(csv_path)
        log = store.to_pandas()
    assert results["n_interactions"] == len(log) == n_good

    # the analysis, called directly on the same log
    direct = ab.analyze(
        ab.reduce_log(log),
        experiment=DESIGN,
        metrics=["ctr", "satisfaction"],
        guardrails=["clicks_per_query"],
        alpha=0.1,
        lang="zh",  # the notebook's default edition: its verdict in Chinese
    )
    got = results["analysis"]
    assert got["decision"] == direct.decision and got["recommended"] == direct.recommended
    assert got["verdict"] == direct.verdict
    assert got["srm"]["pvalue"] == pytest.approx(direct.srm.pvalue, rel=1e-12)
    assert [c["metric"] for c in got["comparisons"]] == ["ctr", "satisfaction", "clicks_per_query"]
    for mine, ref in zip(got["comparisons"], direct.comparisons, strict=True):
        for key in ("difference", "ci_low", "ci_high", "pvalue", "pvalue_adjusted", "mde"):
            assert mine[key] == pytest.approx(getattr(ref, key), rel=1e-12)
        assert mine["outcome"] == ref.outcome
    assert got["alpha"] == 0.1

    assert "interleaving" not in results  # notebook 08 teaches it
    assert "sequential" not in results and "power_plan" not in results  # notebook 07b's
    assert pd.read_csv(output_dir / "comparisons.csv").shape[0] == 3
    # section 6 on other parameters: the covariate removes variance on every seed
    assert all(0 < row["reduction"] < 1 for row in results["cuped"]["seeds"])


@pytest.mark.notebook
@pytest.mark.slow
def test_default_run_records_the_library_values_and_the_conclusions_its_prose_draws(tmp_path):
    parameters = pipeline_parameters(NOTEBOOK.stem)
    _, results = execute(tmp_path, lang="en", **parameters)
    design = ab.Experiment("ranker-test", ("A", "B"), feedback_values=(0, 1))
    seed, n_users, days = parameters["seed"], parameters["n_users"], parameters["days"]
    qrels, run_a, run_b = ab.synthetic_collection(rng=seed)
    log = ab.simulate_log(
        design,
        qrels,
        run_a,
        run_b,
        n_users=n_users,
        queries_per_user=3.0,
        click_model="cascade",
        depth=10,
        days=days,
        rng=seed,
    )
    direct = ab.analyze(
        ab.reduce_log(log),
        experiment=design,
        metrics=["satisfaction", "ctr"],
        guardrails=["queries_per_user"],
    )
    got = results["analysis"]
    assert results["n_interactions"] == len(log)
    for mine, ref in zip(got["comparisons"], direct.comparisons, strict=True):
        assert mine["pvalue"] == pytest.approx(ref.pvalue, rel=1e-9)
        assert mine["outcome"] == ref.outcome
    # section 5: "ship B", the guardrail shows no detectable change
    assert (
        (got["decision"], got["recommended"])
        == (direct.decision, direct.recommended)
        == ("ship", "B")
    )
    assert [c["outcome"] for c in got["comparisons"]] == [
        "better",
        "better",
        "no detectable change",
    ]

    # section 5: with users alike (this log) the user-unit variance is the per-query one; when
    # users differ it is larger, and the test that treats queries as independent errs more
    # often than alpha in A/A experiments while the user-unit test does not
    het = results["heterogeneity"]
    control = log[log["variant"] == "A"]
    clicked = control["clicks"].map(len).gt(0)
    per_user = clicked.groupby(control["user_id"]).agg(["sum", "size"])
    x, y = per_user["sum"].to_numpy(float), per_user["size"].to_numpy(float)
    r = x.sum() / y.sum()
    cov = np.cov(x, y, ddof=1)
    by_user = (cov[0, 0] - 2 * r * cov[0, 1] + r**2 * cov[1, 1]) / (len(x) * y.mean() ** 2)
    assert het["variance_ratio_alike"] == pytest.approx(by_user / (r * (1 - r) / len(control)))
    assert 0.9 < het["variance_ratio_alike"] < 1.1
    assert het["variance_ratio_heterogeneous"] > 1.3
    rates = het["false_positive_rate"]
    assert rates["queries_independent"] > 1.5 * 0.05 and rates["user_unit"] <= 0.05 + 0.03
    assert rates["queries_independent"] > rates["user_unit"]
    # the prose: "about twice as often as alpha (0.11 in the table, against alpha = 0.05; with
    # only 100 simulations each share is uncertain by about +-0.02 to +-0.03)": the same 100 A/A
    # experiments tested here with statsmodels (queries independent) and the delta method
    # written out (user unit)
    assert rates == aa_false_positive_rates(design, qrels, run_a, n_users=n_users, days=days,
                                            seed=seed, experiments=het["experiments"])
    assert rates["queries_independent"] == 0.11 and het["experiments"] == 100
    assert [round(np.sqrt(p * (1 - p) / 100), 2) for p in (0.05, 0.11)] == [0.02, 0.03]

    # section 1: the chapter's framework beside reteval's
    chapter = results["chapter"]
    assert chapter["draws_after_assignment_identical"] and chapter["seed_of_string_stable"]
    assert chapter["same_group_next_experiment"]["chapter"] == 1.0
    assert 0.45 < chapter["same_group_next_experiment"]["reteval"] < 0.55
    table = ab.summarize_variants(ab.reduce_log(log))
    for variant in ("A", "B"):
        assert chapter["satisfaction_rated"][variant] == pytest.approx(
            table.loc[variant, "satisfaction_rate"], rel=1e-12
        )
        assert chapter["satisfaction_all_records"][variant] < chapter["satisfaction_rated"][variant]

    # section 6: CUPED over several seeds, as the library computes it; the variance shrinks on
    # every seed and fewer users reach the same precision
    seeds = results["cuped"]["seeds"]
    assert len(seeds) == parameters.get("cuped_seeds", 5)
    history = simulate_with_pre_period(
        design, qrels, run_a, run_b, n_users=n_users, queries_per_user=3.0,
        user_sd=parameters.get("habit_sd", 1.5), click_model="cascade", depth=10, days=days,
        rng=np.random.default_rng([seed, 11, 0]))
    adjusted = ab.analyze(ab.reduce_log(history), experiment=design, metrics=["ctr"],
                          covariates={"ctr": "pre_clicked_queries"}).comparison("ctr")
    assert seeds[0]["reduction"] == pytest.approx(adjusted.variance_reduction, rel=1e-9)
    assert seeds[0]["p_cuped"] == pytest.approx(adjusted.pvalue, rel=1e-9)
    assert all(0 < row["reduction"] < 1 for row in seeds)
    assert all(row["same_precision"] < row["users"] for row in seeds)
    # the prose: the interval is sqrt(1 - rho^2) times as wide (the widths of the two analyses)
    plain = ab.analyze(ab.reduce_log(history), experiment=design, metrics=["ctr"]).comparison("ctr")
    width = (adjusted.ci_high - adjusted.ci_low) / (plain.ci_high - plain.ci_low)
    assert seeds[0]["width_ratio"] == pytest.approx(width, rel=1e-9)
    assert all(row["width_ratio"] == pytest.approx(np.sqrt(1 - row["reduction"]), rel=1e-6)
               for row in seeds)
    # the Bayesian reading of section 5's experiment; with a flat prior its credible interval
    # nearly coincides with the confidence interval of the lift (the prose's claim)
    bayes = ab.analyze(ab.reduce_log(log), experiment=design, metrics=["satisfaction", "ctr"],
                       guardrails=["queries_per_user"], engine="bayesian", lang="en")
    assert results["bayesian"]["verdict"] == bayes.verdict
    for mine, ref, freq in zip(results["bayesian"]["comparisons"], bayes.comparisons,
                               got["comparisons"], strict=True):
        assert mine["chance_to_win"] == pytest.approx(ref.chance_to_win, rel=1e-9)
        assert mine["outcome"] == ref.outcome
        assert abs(mine["credible_low"] - freq["lift_ci_low"]) < 0.002
        assert abs(mine["credible_high"] - freq["lift_ci_high"]) < 0.002


def aa_false_positive_rates(design, qrels, run, *, n_users, days, seed, experiments):
    """Section 5's A/A experiments (users differ, user_sd 0.8), tested two ways without reteval's
    tests: statsmodels' two-proportion z-test on the queries, and the delta method of section 5's
    formula with the user as unit."""
    gen = np.random.default_rng(seed)
    naive = by_user = 0
    for _ in range(experiments):
        log = ab.simulate_log(design, qrels, run, run, n_users=n_users, queries_per_user=3.0,
                              click_model="cascade", depth=10, days=days, user_sd=0.8, rng=gen)
        clicked = log["clicks"].map(len).gt(0).astype(float)
        rates, variances, sums = [], [], []
        for variant in ("B", "A"):
            mine = log["variant"] == variant
            per_user = clicked[mine].groupby(log.loc[mine, "user_id"]).agg(["sum", "size"])
            x, y = per_user["sum"].to_numpy(), per_user["size"].to_numpy(float)
            r = x.sum() / y.sum()
            cov = np.cov(x, y, ddof=1)
            rates.append(r)
            variances.append((cov[0, 0] - 2 * r * cov[0, 1] + r**2 * cov[1, 1])
                             / (len(x) * y.mean() ** 2))
            sums.append((x.sum(), y.sum()))
        _, p_queries = proportions_ztest([sums[0][0], sums[1][0]], [sums[0][1], sums[1][1]])
        naive += p_queries < 0.05
        by_user += 2 * norm.sf(abs(rates[0] - rates[1]) / np.sqrt(sum(variances))) < 0.05
    return {"queries_independent": naive / experiments, "user_unit": by_user / experiments}


# ---- the chapter's ABTestFramework


def test_the_chapter_assignment_resets_the_global_random_state():
    import random

    from reteval.teaching.chapter_ab import ABTestFramework, draws_after_assignment

    reference = random.Random("user123")  # seeded the way assign_group seeds the global one
    used = reference.random()  # the draw assign_group uses
    after = [reference.random() for _ in range(2)]
    saved = random.getstate()
    try:
        random.seed(2024)
        group = ABTestFramework().assign_group("user123")
        assert group == ("A" if used < 0.5 else "B")
        assert [random.random() for _ in range(2)] == after  # the rest of the program's draws
    finally:
        random.setstate(saved)
    assert draws_after_assignment("user123", n=2) == after


def test_random_seed_of_a_string_does_not_depend_on_the_hash_seed():
    import subprocess
    import sys

    code = "import random; random.seed('user123'); print(repr(random.random()))"
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env={"PYTHONHASHSEED": str(h)},
            check=True,
        ).stdout
        for h in (0, 1, 12345)
    }
    assert len(outputs) == 1


def test_the_chapter_analysis_matches_reteval_rates_on_records_with_feedback():
    from reteval.teaching.chapter_ab import ABTestFramework

    qrels, run_a, run_b = ab.synthetic_collection(n_queries=10, rng=1)
    log = ab.simulate_log(DESIGN, qrels, run_a, run_b, n_users=200, days=2, rng=2)
    framework = ABTestFramework()
    rated = log[log["feedback"].notna()]
    for rec in rated.to_dict("records"):
        framework.log_interaction(
            rec["variant"], rec["query"], rec["retrieved"], int(rec["feedback"])
        )
    chapter = framework.analyze()
    for variant in ("A", "B"):
        part = rated[rated["variant"] == variant]
        assert chapter[variant]["total_queries"] == len(part)
        assert chapter[variant]["satisfaction_rate"] == pytest.approx(part["feedback"].mean())
    table = ab.summarize_variants(ab.reduce_log(log))
    assert chapter["B"]["satisfaction_rate"] == pytest.approx(table.loc["B", "satisfaction_rate"])


# ---- exercises


@pytest.mark.slow
def test_the_solutions_notebook_passes_its_own_checks():
    run_solutions("07", "en")  # each solution cell asserts check() accepts it


def test_the_checks_reject_plausible_wrong_answers():
    import random

    from reteval.teaching.exercises import check, reset

    generator = random.Random("user42")
    used, next_draw = generator.random(), generator.random()
    assert check("07.1", next_draw) and check("07.1", round(next_draw, 4))
    assert not check("07.1", used)  # the draw the assignment consumed
    assert not check("07.1", None)
    assert check("07.2", 507)  # counted independently below
    assert sum(random.Random(f"user{i}").random() >= 0.5 for i in range(1000)) == 507
    assert not check("07.2", 254) and not check("07.2", 1000) and not check("07.2", True)
    reset("07.2")
    first, second = check("07.2", 254, lang="en"), check("07.2", 254, lang="en")
    assert "Hint 1/" in first.message and "Hint 2/" in second.message
    assert "experiment" in second.message


@pytest.mark.notebook
@pytest.mark.slow
def test_the_executed_notebook_fits_one_class(tmp_path):
    """Notebook 07 on the pipeline's defaults, in English (the run a test above
    reads): at most one 90-minute class in either edition."""
    default_run_fits_one_class(NOTEBOOK.stem, tmp_path, lang="en")
