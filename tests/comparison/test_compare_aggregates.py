"""compare's aggregates (geometric means), the edges it refuses or cannot test, and the CI
gate of ``reteval compare``: values computed by hand and by scipy."""

from __future__ import annotations

import csv
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from reteval import compare
from reteval.cli import main
from reteval.comparison import compare_scores
from reteval.errors import InputError
from reteval.report.means import render_json, render_table

QRELS = {f"q{i}": {f"d{i}": 1} for i in range(1, 5)}
# AP per query: a = 1, 1, 0, 0.5; b = 1/3 on every query
RUNS = {"a": {"q1": ["d1"], "q2": ["d2"], "q3": ["x"], "q4": ["x", "d4"]},
        "b": {f"q{i}": ["x", "y", f"d{i}"] for i in range(1, 5)}}


def test_geometric_mean_measures_are_geometric_and_pick_the_best():
    gm_a = (1 * 1 * 0.00001 * 0.5) ** 0.25  # trec_eval's floor for the 0
    for m in ("gm_map", "GMAP"):
        c = compare(QRELS, RUNS, ["AP", m], baseline="b", rng=0)
        means = c.means
        assert means.loc["a", "AP"] == pytest.approx(0.625)
        assert means.loc["a", m] == pytest.approx(gm_a, rel=1e-12)
        assert means.loc["b", m] == pytest.approx(1 / 3, rel=1e-12)
        assert c.best.loc[m, "system"] == "b"
        row = c.pairwise.set_index("measure").loc[m]
        assert row["mean_difference"] == pytest.approx(gm_a - 1 / 3)
        # the test is on log(max(x, 1e-5)), as trec_eval averages a geometric mean
        logs_a = np.log([1, 1, 0.00001, 0.5])
        logs_b = np.log([1 / 3] * 4)
        assert row["pvalue"] == pytest.approx(stats.ttest_rel(logs_a, logs_b).pvalue, rel=1e-9)
    assert c.best.loc["AP", "system"] == "a"
    c = compare(QRELS, RUNS, ["gm_map"], rng=0)
    # the bootstrap interval of a geometric mean brackets it, in its units
    t = c.table.set_index(["measure", "system"])
    assert t.loc[("gm_map", "a"), "ci_low"] <= gm_a <= t.loc[("gm_map", "a"), "ci_high"] <= 1


def test_cli_prints_the_geometric_mean(tmp_path, capsys):
    qrels = tmp_path / "qrels"
    qrels.write_text("".join(f"{q} 0 {d} 1\n" for q, docs in QRELS.items() for d in docs))
    paths = []
    for name, run in RUNS.items():
        path = tmp_path / f"{name}.run"
        path.write_text("".join(f"{q} Q0 {d} {r} {10 - r} {name}\n" for q, docs in run.items()
                                for r, d in enumerate(docs, 1)))
        paths.append(str(path))
    assert main(["-q", "compare", str(qrels), *paths, "-m", "gm_map", "--format", "json"]) == 0
    doc = __import__("json").loads(capsys.readouterr().out)
    assert doc["means"]["gm_map"]["a"] == pytest.approx(0.0472871, abs=1e-7)
    assert doc["means"]["gm_map"]["b"] == pytest.approx(1 / 3)
    assert doc["aggregation"] == {"gm_map": "gmean"}


def test_a_copy_has_no_anova_test_and_is_not_significant():
    # dyadic scores: the residual sum of squares of a system and its copy is exactly 0
    x = pd.DataFrame({"a": [0.5, 0.25, 1.0, 0.0, 0.75], "copy": [0.5, 0.25, 1.0, 0.0, 0.75]})
    for test in ("t", "randomization", "tukey-studentized"):
        c = compare_scores({"RR": x}, test=test, rng=0, n_resamples=200)
        a = c.anova["RR"]
        assert math.isnan(a.statistic) and math.isnan(a.pvalue)
        assert a.residual_variance == 0
        assert not c.pairwise["significant"].any()
        text = render_table(c)
        assert "ANOVA F(1, 4): no test, no residual variance" in text
        assert "p = " not in text.split("ANOVA")[1].splitlines()[0]
        assert "nan" not in text and "ES - [-, -]" in text
        assert "no residual variance" in __import__("json").loads(render_json(c))["anova"]["RR"][
            "note"]


def test_one_query_is_refused_by_the_api():
    with pytest.raises(InputError, match="a paired test needs at least 2 queries common to "
                                         "every system; got 1"):
        compare_scores({"RR": pd.DataFrame({"a": [1.0], "b": [0.5]})})


def _write(tmp_path, runs, qrels):
    qrels_path = tmp_path / "qrels"
    qrels_path.write_text("".join(f"{q} 0 {d} 1\n" for q, d in qrels))
    paths = []
    for name, run in runs.items():
        path = tmp_path / f"{name}.run"
        path.write_text("".join(f"{q} Q0 {d} {r} {10 - r} {name}\n" for q, docs in run.items()
                                for r, d in enumerate(docs, 1)))
        paths.append(str(path))
    return str(qrels_path), paths


def test_cli_refuses_one_query_left(tmp_path, capsys):
    qrels, paths = _write(tmp_path, {"a": {"q1": ["d1"]}, "b": {"q1": ["x", "d1"], "q2": ["d2"]}},
                          [("q1", "d1"), ("q2", "d2")])
    assert main(["-q", "compare", qrels, *paths, "-m", "RR", "--missing", "skip"]) == 2
    err = capsys.readouterr().err
    assert "a paired test needs at least 2 queries common to every system; got 1" in err
    assert "Traceback" not in err


@pytest.fixture
def gate(tmp_path):
    queries = [f"q{i}" for i in range(1, 9)]
    runs = {"base": {q: [f"d{q}"] for q in queries},
            "copy": {q: [f"d{q}"] for q in queries},
            # RR 1/2 and 1/3 in turn: worse than base on every query
            "worse": {q: ["x", "y"][: 1 + i % 2] + [f"d{q}"] for i, q in enumerate(queries)}}
    return _write(tmp_path, runs, [(q, f"d{q}") for q in queries]), tmp_path


def test_fail_on_regression(gate, capsys):
    (qrels, paths), _ = gate
    base, copy, worse = paths
    args = ["-q", "compare", qrels, "-m", "RR", "--baseline", "base", "--fail-on-regression"]
    assert main([*args[:3], base, copy, *args[3:]]) == 0  # all differences zero
    capsys.readouterr()
    assert main([*args[:3], base, copy, worse, *args[3:]]) == 3
    err = capsys.readouterr().err
    assert "reteval: regression: worse is significantly worse than base on RR" in err
    assert "copy" not in err
    # the regression is in the t test's family of 2, Holm-corrected: as scipy says
    d = np.array([0.5, 1 / 3] * 4) - 1
    assert 2 * stats.ttest_rel(d, np.zeros(8)).pvalue < 0.05
    assert main(["-q", "compare", qrels, base, worse, "-m", "RR", "--fail-on-regression"]) == 2
    assert "--fail-on-regression needs --baseline" in capsys.readouterr().err
    # a better run is no regression
    assert main(["-q", "compare", qrels, worse, base, "-m", "RR", "--baseline", "worse",
                 "--fail-on-regression"]) == 0


def test_per_query_file(gate, capsys):
    (qrels, paths), tmp_path = gate
    out = tmp_path / "per_query.csv"
    assert main(["-q", "compare", qrels, paths[0], paths[2], "-m", "RR", "-m", "P@1",
                 "--per-query", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 2 * 8 * 2
    values = {(r["measure"], r["query_id"], r["system"]): float(r["value"]) for r in rows}
    assert values["RR", "q1", "worse"] == 0.5 and values["RR", "q2", "worse"] == pytest.approx(
        1 / 3)
    assert values["P@1", "q3", "base"] == 1.0 and values["P@1", "q3", "worse"] == 0.0


@pytest.mark.parametrize("kind", ["nan", "error"])
def test_anova_without_a_test_from_stats_is_said(monkeypatch, kind):
    """stats may give NaN F tests with a note, or raise: compare says why, prints no p."""
    from reteval.comparison import core

    real = core.anova_numbers

    def anova_numbers(x):
        if kind == "error":
            raise InputError("no residual variance here")
        numbers = real(x)
        numbers.update(statistic=math.nan, pvalue=math.nan, note="no residual variance here")
        return numbers

    monkeypatch.setattr(core, "anova_numbers", anova_numbers)
    x = pd.DataFrame({"a": [0.3, 0.1, 0.7], "b": [0.2, 0.4, 0.1], "c": [0.9, 0.8, 0.4]})
    c = compare_scores({"RR": x}, test="t", rng=0)
    assert c.numbers.anova["RR"].note == "no residual variance here"
    assert math.isnan(c.anova["RR"].statistic)
    assert "ANOVA F(2, 4): no test, no residual variance here" in render_table(c)


def test_the_report_says_there_is_no_anova_test():
    from reteval.report import to_markdown

    a = [0.5, 0.25, 0.75, 0.0]
    # four systems, shifts by quarters: every mean is exact, the residuals exactly 0
    x = pd.DataFrame({"a": a, "copy": a, "up": [v + 0.25 for v in a],
                      "upper": [v + 0.5 for v in a]})
    c = compare_scores({"RR": x}, rng=0, n_resamples=200)
    assert math.isnan(c.anova["RR"].pvalue)
    en, zh = to_markdown(c, lang="en"), to_markdown(c, lang="zh")
    assert "F(3, 9) is no test: there is no residual variance" in en
    assert "F(3, 9) 无法检验：没有残差方差" in zh
