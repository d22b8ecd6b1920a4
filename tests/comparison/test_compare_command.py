"""``reteval compare`` and ``compare(test="tukey")``: Tukey HSD, ANOVA, effect sizes."""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from reteval import evaluate
from reteval.cli import main
from reteval.comparison import compare, compare_scores

N_QUERIES = 8


@pytest.fixture
def runs(tmp_path):
    """Qrels with one relevant document per query; run k finds it at rank 1 + (q (k+1)) % (k+2).

    By hand: bm25 ranks 1,2,1,2,... (RR 0.75); dense 1,3,2,... (RR 5/8 = 0.625);
    hybrid 1,4,3,2,... (RR (1 + 1/4 + 1/3 + 1/2) / 4 = 0.5208).
    """
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"q{q} 0 rel{q} 1\n" for q in range(N_QUERIES)))
    paths = []
    for k, name in enumerate(["bm25", "dense", "hybrid"]):
        lines = []
        for q in range(N_QUERIES):
            rank = 1 + (q * (k + 1)) % (k + 2)
            docs = [f"x{q}_{i}" for i in range(3)]
            docs.insert(rank - 1, f"rel{q}")
            lines += [f"q{q} Q0 {d} {i + 1} {10 - i} tag_{name}\n" for i, d in enumerate(docs)]
        path = tmp_path / f"{name}.run"
        path.write_text("".join(lines))
        paths.append(path)
    return qrels, paths


def _statsmodels_residual(frame):
    sm_formula = pytest.importorskip("statsmodels.formula.api")
    sm_anova = pytest.importorskip("statsmodels.stats.anova")
    long = frame.rename_axis("topic").reset_index().melt(id_vars="topic", var_name="system",
                                                        value_name="score")
    table = sm_anova.anova_lm(sm_formula.ols("score ~ C(system) + C(topic)", long).fit())
    return table.loc["Residual", "mean_sq"], table.loc["Residual", "df"], table


def test_json_means_match_evaluate_and_anova_matches_statsmodels(runs, capsys):
    qrels, paths = runs
    assert main(["-q", "compare", str(qrels), *map(str, paths), "-m", "RR", "-m", "P@1",
                 "--format", "json", "--n-resamples", "500"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["systems"] == ["bm25", "dense", "hybrid"]  # file stems
    assert doc["test"] == "tukey" and doc["correction"] == "none"
    frame = {}
    for path in paths:
        per_query = evaluate(str(qrels), str(path), ["RR", "P@1"])
        frame[path.stem] = per_query["RR"]
        for m in ("RR", "P@1"):
            assert doc["means"][m][path.stem] == pytest.approx(per_query[m].mean(), abs=1e-15)
    v_e, df, table = _statsmodels_residual(pd.DataFrame(frame))
    assert doc["anova"]["RR"]["residual_variance"] == pytest.approx(v_e)
    assert doc["anova"]["RR"]["df_residual"] == df
    assert doc["anova"]["RR"]["statistic"] == pytest.approx(table.loc["C(system)", "F"])
    assert len(doc["pairs"]) == 6  # 3 pairs x 2 measures
    first = doc["pairs"][0]
    assert first["effect_size"] == pytest.approx(first["mean_difference"] / math.sqrt(v_e))
    assert any("Tukey" in line for line in doc["summary"])


def test_table_marks_letters_and_baseline_arrows(runs, capsys):
    qrels, paths = runs
    assert main(["-q", "compare", str(qrels), *map(str, paths), "-m", "RR",
                 "--test", "tukey-studentized"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 runs, 8 queries; Tukey HSD (studentized range) over all 3 pairs")
    assert "(a) bm25" in out and "RR: ANOVA F(2, 14) = " in out
    assert "letters: significantly better than that run at alpha 0.05" in out
    assert main(["-q", "compare", str(qrels), *map(str, paths), "-m", "RR",
                 "--baseline", "hybrid"]) == 0
    out = capsys.readouterr().out
    assert "hybrid (baseline)" in out and "paired t test over each run against hybrid" in out
    lines = out.splitlines()
    assert lines[2].split() == ["bm25", "0.7500"]
    assert lines[3].split() == ["dense", "0.6250"]
    assert lines[4].split() == ["hybrid", "(baseline)", "0.5208"]


def test_csv_markdown_latex(runs, capsys):
    qrels, paths = runs
    args = ["-q", "compare", str(qrels), *map(str, paths), "-m", "RR", "--n-resamples", "200"]
    assert main([*args, "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["system"], r["other"]) for r in rows] == [("bm25", "dense"), ("bm25", "hybrid"),
                                                         ("dense", "hybrid")]
    assert float(rows[0]["mean_system"]) == 0.75 and float(rows[0]["mean_other"]) == 0.625
    assert main([*args, "--format", "markdown"]) == 0
    md = capsys.readouterr().out
    assert "| Run | RR |" in md and "| (a) bm25 | 0.7500" in md
    # numbers and sentences read as written, raw or rendered: only markup is escaped
    assert "alpha 0.05" in md and "sqrt(V\\_E) of the two-way ANOVA" in md
    assert main([*args, "--format", "latex"]) == 0
    tex = capsys.readouterr().out
    assert r"\begin{tabular}{llr}" in tex and r"\textbf{0.750}" in tex
    lines = tex.splitlines()
    assert lines[1] == r"% needs \usepackage{booktabs}"  # letters need no amssymb
    caption = r"\caption{RR of 3 runs over 8 queries.}"
    for part in (r"\toprule", r"\midrule", r"\bottomrule", caption,
                 r"\label{tab:reteval-compare}", "randomised Tukey HSD"):
        assert part in tex
    assert r"\hline" not in tex and "Pairs:" not in tex
    assert main([*args, "--format", "latex", "--decimals", "2", "--effect-sizes"]) == 0
    tex = capsys.readouterr().out
    assert r"\textbf{0.75}" in tex and r"Pairs: difference" in tex
    assert r"RR: bm25 $-$ dense: +0.12," in tex  # 0.75 - 0.625, two decimals


def test_names_by_tag(runs, capsys):
    qrels, paths = runs
    assert main(["-q", "compare", str(qrels), *map(str, paths), "-m", "RR", "--names", "tag",
                 "--format", "json", "--test", "t"]) == 0
    assert json.loads(capsys.readouterr().out)["systems"] == ["tag_bm25", "tag_dense",
                                                              "tag_hybrid"]


def test_errors_and_warnings_come_in_the_runs_order(runs, tmp_path, capsys):
    # Runs are read one ahead of the one being scored: the first bad run is still the one
    # reported, and the warnings come in the runs' order.
    qrels, paths = runs
    bad = []
    for k in (1, 2):
        path = tmp_path / f"bad{k}.run"
        path.write_text(f"q0 Q0 d1 1 not-a-number-{k} x\n")
        bad.append(path)
    assert main(["-q", "compare", str(qrels), str(paths[0]), *map(str, bad)]) == 2
    err = capsys.readouterr().err
    assert "bad1.run:1" in err and "bad2" not in err
    for path, lost in zip(paths[1:], (("q1 ",), ("q2 ", "q3 ")), strict=True):
        lines = path.read_text().splitlines(keepends=True)
        path.write_text("".join(x for x in lines if not x.startswith(lost)))
    assert main(["-q", "compare", str(qrels), *map(str, paths), "-m", "RR",
                 "--n-resamples", "50"]) == 0
    warnings = [x for x in capsys.readouterr().err.splitlines() if "warning" in x]
    assert warnings == [
        "reteval: warning: 1 judged query has no results in the run and scores 0: 'q1'",
        "reteval: warning: 2 judged queries have no results in the run and score 0: 'q2', 'q3'"]


def test_runs_on_different_queries_are_compared_on_the_common_ones(runs, tmp_path, capsys):
    # bm25 lost q3, dense lost q5 and q6: with --missing skip the comparison keeps the queries
    # every run answered, in order: q0 q1 q2 q4 q7. By hand, RR of bm25 (ranks 1,2,1,2,...)
    # there is (1 + 1/2 + 1 + 1 + 1/2) / 5 = 0.8, of dense (ranks 1,3,2,1,3,2,1,3)
    # (1 + 1/3 + 1/2 + 1/3 + 1/3) / 5 = 0.5; hybrid answered all and is compared on the five.
    qrels, paths = runs
    dropped = {"bm25": ("q3 ",), "dense": ("q5 ", "q6 ")}
    for path in paths[:2]:
        lines = path.read_text().splitlines(keepends=True)
        path.write_text("".join(x for x in lines if not x.startswith(dropped[path.stem])))
    assert main(["-q", "compare", str(qrels), *map(str, paths), "-m", "RR", "--missing",
                 "skip", "--format", "json", "--n-resamples", "200"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["num_queries"] == 5
    common = ["q0", "q1", "q2", "q4", "q7"]
    assert doc["means"]["RR"]["bm25"] == pytest.approx(0.8, abs=1e-12)
    assert doc["means"]["RR"]["dense"] == pytest.approx(0.5, abs=1e-12)
    hybrid = evaluate(qrels, paths[2], ["RR"])["RR"]
    assert doc["means"]["RR"]["hybrid"] == pytest.approx(hybrid.loc[common].mean(), abs=1e-12)


@pytest.mark.parametrize("extra, message", [
    (["--baseline", "nope"], ("--baseline must name one of the runs ['bm25', 'dense', "
                              "'hybrid']; got 'nope'")),
    (["-m", "nDGC@10"], "unknown measure 'nDGC@10'"),
])
def test_errors_exit_2_with_one_line(runs, capsys, extra, message):
    qrels, paths = runs
    assert main(["-q", "compare", str(qrels), *map(str, paths), *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("reteval: error: ") and message in err
    assert len(err.strip().splitlines()) == 1


def test_duplicate_stems_and_single_run(runs, tmp_path, capsys):
    qrels, paths = runs
    other = tmp_path / "sub"
    other.mkdir()
    copy = other / "bm25.run"
    copy.write_text(paths[0].read_text())
    assert main(["compare", str(qrels), str(paths[0]), str(copy)]) == 2
    assert "two runs are named 'bm25' (by stem)" in capsys.readouterr().err
    assert main(["compare", str(qrels), str(paths[0])]) == 2
    assert "compare needs at least 2 runs" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["compare", str(qrels), *map(str, paths), "--alpha", "1.5"])


# --------------------------------------------------------------------------- compare(test="tukey")


def _frames(seed=0, n=20, m=4):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.2, 0.6, size=(n, 1)) + rng.normal(0, 0.08, size=(n, m)) \
        + 0.04 * np.arange(m)
    return pd.DataFrame(x, columns=[f"s{i}" for i in range(m)],
                        index=pd.Index([f"q{j}" for j in range(n)], name="query_id"))


def test_compare_tukey_studentized_matches_scipy():
    frame = _frames()
    c = compare_scores({"AP": frame}, test="tukey-studentized", rng=0, n_resamples=200)
    v_e, df, _ = _statsmodels_residual(frame)
    means = frame.mean()
    assert c.correction == "none" and c.test == "tukey-studentized"
    assert len(c.pairwise) == 6
    for r in c.pairwise.itertuples():
        q = abs(means[r.system] - means[r.other]) / math.sqrt(v_e / 20)
        assert r.pvalue == pytest.approx(stats.studentized_range.sf(q, 4, df), rel=1e-6)
        assert r.pvalue_corrected == r.pvalue
        assert r.effect_size == pytest.approx((means[r.system] - means[r.other])
                                              / math.sqrt(v_e))
        half = stats.studentized_range.ppf(0.95, 4, df) * math.sqrt(v_e / 20)
        assert r.ci_high - r.ci_low == pytest.approx(2 * half, rel=1e-6)
    matrix = c.significance_matrix("AP")
    for r in c.pairwise.itertuples():
        expected = ("▲" if r.mean_difference > 0 else "▼") if r.significant else ""
        assert matrix.loc[r.system, r.other] == expected
    assert c.effect_sizes("AP").loc["s3", "s0"] == pytest.approx(
        (means["s3"] - means["s0"]) / math.sqrt(v_e))
    assert c.best.loc["AP", "in_family"]


def test_compare_tukey_randomised_with_runs_and_summary():
    qrels = {f"q{i}": {f"d{i}": 1} for i in range(10)}
    runs = {"a": {f"q{i}": [f"d{i}"] for i in range(10)},
            "b": {f"q{i}": ["x", f"d{i}"] for i in range(10)},
            "c": {f"q{i}": ["x", "y", f"d{i}"] if i % 2 else [f"d{i}"] for i in range(10)}}
    c = compare(qrels, runs, ["RR"], test="tukey", n_resamples=999, rng=1)
    assert c.test == "tukey" and "RR" in c.tukey and "RR" in c.anova
    # a is at RR 1 everywhere and b at 0.5: every one of the 999 rounds has a range of means
    # below 0.5 unless all ten queries are permuted in the same extreme way; p is tiny
    ab = c.pairwise.set_index(["system", "other"]).loc[("a", "b")]
    assert ab["pvalue"] < 0.01 and ab["significant"]
    text = " ".join(c.summary())
    assert "Randomised Tukey HSD over all 3 pairs" in text and "Two-way ANOVA" in text


def test_compare_summary_of_paired_tests():
    frame = _frames(m=3)
    c = compare_scores({"AP": frame}, baseline="s0", rng=0, n_resamples=200)
    text = c.summary()
    assert "Paired t test of each system against s0, holm correction over the 2 tests" in text[1]


def test_compare_scores_rejects_mismatched_frames():
    frame = _frames(m=3)
    with pytest.raises(Exception, match="must have the same queries and systems"):
        compare_scores({"AP": frame, "RR": frame.iloc[:5]})
    bad = frame.copy()
    bad.iloc[2, 1] = np.nan
    with pytest.raises(Exception, match="system 's1' has no score for query 'q2'"):
        compare_scores({"AP": bad})
