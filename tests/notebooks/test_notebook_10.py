"""Notebook 10 (the evaluation report), run headless through papermill, and its solutions.

The notebook records what it computed in results.json; these tests check it
against the library on the default parameters and on another parameter set
(run files, a baseline, a randomization test, English, a continuous-evaluation
history, pipeline-style links), and check the conclusions its prose draws.
"""

from __future__ import annotations

import json
import re

import nbformat
import pandas as pd
import papermill
import pytest
from notebook_run import execute_in_place, run_solutions, session_embeddings
from paths import ROOT

import reteval
from reteval.book.editions import check_bilingual, edition
from reteval.book.engine import ENGINE_NAME
from reteval.datasets import load
from reteval.retrievers import make_retriever
from reteval.teaching.exercises import check

NOTEBOOK = ROOT / "notebooks" / "10_report.ipynb"
SOLUTIONS = ROOT / "notebooks" / "solutions" / "10_solutions.ipynb"
DEFAULT_MEASURES = ["P@5", "P@10", "R@10", "R@100", "RR", "AP", "nDCG@5", "nDCG@10"]
# the chapter's ndcg uses the gain 2**rel - 1: reteval's nDCG_exp
CHAPTER_KEYS = {"recall": "R", "precision": "P", "ndcg": "nDCG_exp"}
CJK = re.compile(r"[\u4e00-\u9fff]")


def execute(path, tmp_path, *, cwd, **parameters):
    """Run a notebook; return the executed notebook's text (outputs included)."""
    executed = tmp_path / f"executed_{path.stem}.ipynb"
    with session_embeddings():
        papermill.execute_notebook(
            str(path),
            str(executed),
            parameters=parameters,
            cwd=str(cwd),
            progress_bar=False,
            kernel_name="python3", engine_name=ENGINE_NAME,
        )
    return executed.read_text(encoding="utf-8")


def chapter_means(qrels, run, k_values):
    """The chapter's keys, computed here from reteval's measures by name."""
    names = [f"{ours}@{k}" for k in k_values for ours in CHAPTER_KEYS.values()] + ["RR"]
    means = reteval.evaluate(qrels, run, names).mean()
    out = {
        f"{key}@{k}": float(means[f"{ours}@{k}"])
        for k in k_values
        for key, ours in CHAPTER_KEYS.items()
    }
    out["mrr"] = float(means["RR"])
    return out


def stream_lines(text):
    nb = nbformat.reads(text, as_version=4)
    return [
        line
        for cell in nb.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.get("output_type") == "stream"
        for line in output["text"].splitlines()
    ]


@pytest.fixture(scope="module")
def teaching():
    collection = load("teaching")
    runs = {
        name: make_retriever(name, collection.corpus).run(collection.queries, k=100)
        for name in ("bm25", "vector", "hybrid", "reranked")
    }
    return collection.qrels, runs


# ------------------------------------------------------------------ one source, two editions


@pytest.mark.parametrize("path", [NOTEBOOK, SOLUTIONS], ids=["notebook", "solutions"])
def test_bilingual_source(path):
    nb = nbformat.read(str(path), as_version=4)
    prose = [cell for cell in nb.cells if cell.cell_type == "markdown"]
    tags = [tuple(cell.metadata.get("tags", [])) for cell in prose]
    assert tags == [("lang-zh",), ("lang-en",)] * (len(prose) // 2)
    for zh, en in zip(prose[::2], prose[1::2], strict=True):
        assert CJK.search(zh.source), zh.source[:60]
        assert not CJK.search(
            en.source.replace("综合表现最佳", "").replace("评估报告", "").replace("持续评估", "")
        ), en.source[:60]
    cells = nb.cells
    for i, cell in enumerate(cells[:-1]):  # a lang-zh cell is followed by its translation
        if "lang-zh" in cell.metadata.get("tags", []):
            assert "lang-en" in cells[i + 1].metadata.get("tags", [])
    # the project's checker, and the two editions share every code cell
    assert check_bilingual(nb) == []
    code = [c.source for c in cells if c.cell_type == "code"]
    for lang in ("zh", "en"):
        assert [c.source for c in edition(nb, lang).cells if c.cell_type == "code"] == code
    parameters = [c for c in cells if "parameters" in c.metadata.get("tags", [])]
    assert len(parameters) == 1 and 'lang = "zh"' in parameters[0].source
    assert all(
        not set(c.metadata.get("tags", [])) & {"lang-zh", "lang-en"}
        for c in cells
        if c.cell_type == "code"
    )


def test_checks_reject_plausible_wrong_answers():
    for wrong in ("A", "C", "D", "c.", None, 3, {"B", "C"}):
        assert not check("10.3", wrong)
    assert check("10.3", " b ") and check("10.3", "(B)")
    for wrong in (None, 0.5, ["hybrid"]):
        assert not check("10.1", wrong)  # wrong shapes are refused before any computation
        assert not check("10.2", wrong if wrong != ["hybrid"] else "recall@1")


# --------------------------------------------------------------------------- the default run


@pytest.fixture(scope="module")
def default_run():
    """The working folder and the executed notebook's text, every parameter at its default
    (the run test_cross_notebook_facts reads too)."""
    folder = execute_in_place(NOTEBOOK.stem)
    return folder, (folder / f"executed_{NOTEBOOK.stem}.ipynb").read_text(encoding="utf-8")


@pytest.mark.notebook
@pytest.mark.slow
def test_default_run(default_run, teaching):
    tmp_path, text = default_run
    out = tmp_path / "outputs" / "10_report"
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    qrels, runs = teaching
    assert results["lang"] == "zh" and results["systems"] == list(runs)
    assert results["num_queries"] == 36 and results["measures"] == DEFAULT_MEASURES

    # recorded values = the library on the same runs
    expected = reteval.compare(qrels, runs, DEFAULT_MEASURES, rng=0)
    for name, run in runs.items():
        means = reteval.evaluate(qrels, run, DEFAULT_MEASURES).mean()
        assert results["means"][name] == pytest.approx(means.to_dict(), abs=1e-12)
        assert results["chapter"]["input"][name] == pytest.approx(
            chapter_means(qrels, run, [1, 3, 5, 10]), abs=1e-12
        )
    assert results["status"] == expected.best["status"].to_dict()
    # Prose (section 4): overlapping intervals of the means do not settle an order: on P@10,
    # hybrid's and reranked's share more than half their width, yet the paired test separates them
    ci = expected.table.set_index(["measure", "system"])
    (a_low, a_high), (b_low, b_high) = (ci.loc[("P@10", s), ["ci_low", "ci_high"]]
                                        for s in ("hybrid", "reranked"))
    assert min(a_high, b_high) - max(a_low, b_low) > 0.5 * max(a_high - a_low, b_high - b_low)
    pair = expected.pairwise.set_index(["measure", "system", "other"]).loc[
        ("P@10", "hybrid", "reranked")]
    assert bool(pair["significant"]) and round(pair["pvalue_corrected"], 3) == 0.036

    chapter = results["chapter"]
    mean_of_means = {name: sum(v.values()) / len(v) for name, v in chapter["input"].items()}
    assert chapter["mean_of_means"] == pytest.approx(mean_of_means, abs=1e-12)
    # Prose: the printed "best overall" is the highest mean of means, ahead of the runner-up by
    # a few hundredths at most.
    overall = max(mean_of_means, key=mean_of_means.get)
    runner = max((n for n in mean_of_means if n != overall), key=mean_of_means.get)
    assert (chapter["overall"], chapter["runner_up"]) == (overall, runner)
    assert chapter["margin"] == pytest.approx(mean_of_means[overall] - mean_of_means[runner])
    assert 0 <= chapter["margin"] < 0.05
    # Prose: the mean of means over one cutoff's columns and mrr; with the @1 columns the
    # "best overall" is hybrid, not vector, ahead of bm25 by less than 0.002.
    table = pd.DataFrame(chapter["input"]).T
    for k, recorded in zip([1, 3, 5, 10], chapter["subsets"], strict=True):
        columns = [f"recall@{k}", f"precision@{k}", f"ndcg@{k}", "mrr"]
        means = table[columns].mean(axis=1).sort_values(ascending=False)
        assert recorded["columns"] == columns and recorded["best"] == means.index[0]
        assert recorded["margin"] == pytest.approx(means.iloc[0] - means.iloc[1], abs=1e-12)
    subset = chapter["subset"]
    assert subset["columns"] == ["recall@1", "precision@1", "ndcg@1", "mrr"]
    assert (overall, subset["best"], subset["runner_up"]) == ("vector", "hybrid", "bm25")
    assert 0 < subset["margin"] < 0.002
    # Prose: the first exactly tied column; idxmax names the first listed, then the last.
    tie = chapter["tie"]
    assert tie is not None
    values = {name: chapter["input"][name][tie["column"]] for name in runs}
    assert tie["systems"] == [n for n in runs if values[n] == max(values.values())]
    assert (tie["first"], tie["reversed"]) == (tie["systems"][0], tie["systems"][-1])
    # Prose: the retrievers return different numbers of documents (bm25 only those sharing a
    # term with the query), so the deep measures compare them at unequal depths; the
    # notebook prints and records it, and so does the report, with its recommendation rule.
    numret = {name: reteval.evaluate(qrels, run, ["NumRet"])["NumRet"]
              for name, run in runs.items()}
    assert results["retrieved"]["bm25"]["mean"] == pytest.approx(numret["bm25"].mean())
    assert numret["bm25"].mean() < 100 and numret["vector"].min() == 100
    sensitive = [m for m in DEFAULT_MEASURES if expected.depth_sensitive(m)]
    assert results["depth_sensitive"] == sensitive and {"R@100", "AP"} <= set(sensitive)
    for cut in (5, 10):  # hand check: bm25 has queries with fewer than 10 documents
        short = (numret["bm25"] < cut).any()
        assert (f"P@{cut}" in sensitive) == bool(short)
    report_md = (out / "report.md").read_text(encoding="utf-8")
    assert "各检索器每个查询返回的文档数不同" in report_md and "AP †" in report_md
    assert "推荐规则" in report_md

    # Without a baseline, the four baseline columns are empty and not shown.
    assert results["table_columns"] == [
        "measure",
        "system",
        "mean",
        "ci_low",
        "ci_high",
        "n_queries",
    ]
    # No history yet: one line says so, and the run goes on.
    missing = [line for line in stream_lines(text) if "09_continuous_evaluation" in line]
    assert len(missing) == 1 and "笔记本 09" in missing[0]
    assert "no history_file given" not in text and results["trend_entries"] == 0
    # Figures inline, and links that resolve from the working folder.
    assert text.count('"image/png"') >= 4
    for rel, link in results["figure_links"].items():
        assert (tmp_path / link).resolve() == (out / rel).resolve() and (tmp_path / link).is_file()
    report = (out / "report.md").read_text(encoding="utf-8")
    assert report.startswith("# 检索系统评估报告") and "## 持续评估" not in report
    # The advice names only the systems no test separates from the leader: vector and hybrid;
    # bm25 and reranked are significantly below vector on AP (by the pairwise tests here).
    pairs = reteval.compare(qrels, runs, DEFAULT_MEASURES, rng=0).pairwise
    separated = {frozenset((r.system, r.other)) for r in pairs.itertuples() if r.significant}
    assert {s for s in runs if s != "vector" and frozenset(("vector", s)) not in separated} == {
        "hybrid"}
    assert "检验都没有把 vector 与 hybrid 区分开：可以在 vector 和 hybrid 之间按成本" in report
    assert "成本更低或更简单" not in report and "p = \\<" not in report
    assert '<html lang="zh-CN">' in (out / "report.html").read_text(encoding="utf-8")


@pytest.mark.notebook
@pytest.mark.slow
def test_the_executed_notebook_fits_one_class(default_run):
    """The default run: at most one 90-minute class in either edition."""
    from notebook_run import fits_one_class

    tmp_path, _ = default_run
    fits_one_class(tmp_path / f"executed_{NOTEBOOK.stem}.ipynb")


# --------------------------------------------------------------------------- another parameter set


@pytest.mark.notebook
@pytest.mark.slow
def test_run_files_baseline_english_history(tmp_path):
    from reteval.monitor.runner import monitor_once

    collection = load("teaching")
    qrels_path = tmp_path / "qrels.txt"
    reteval.write_qrels(collection.qrels, qrels_path)
    bm25 = make_retriever("bm25", collection.corpus).run(collection.queries, k=50)
    swapped = bm25.copy()
    first_two = swapped.groupby("query_id").cumcount() < 2
    swapped.loc[first_two, "score"] = (
        swapped.loc[first_two]
        .groupby("query_id")["score"]
        .transform(lambda s: s.iloc[::-1].to_numpy())
    )
    runs = {"bm25": str(tmp_path / "bm25.txt"), "swapped": str(tmp_path / "swapped.txt")}
    reteval.write_run(bm25, runs["bm25"])
    reteval.write_run(swapped, runs["swapped"])
    history = tmp_path / "history.sqlite"
    for path in runs.values():
        monitor_once(
            history,
            run=path,
            qrels=str(qrels_path),
            measures=["R@5", "AP"],
            name="prod",
            thresholds=["R@5=0.99"],
        )
    output_dir = tmp_path / "pipeline" / "10_report"
    measures = ["AP", "nDCG@10", "R@5"]
    text = execute(
        NOTEBOOK,
        tmp_path,
        cwd=tmp_path,
        lang="en",
        qrels=str(qrels_path),
        runs=runs,
        measures=measures,
        k_values=[2, 5],
        baseline="bm25",
        test="randomization",
        history_file=str(history),
        link_base=str(output_dir),
        output_dir=str(output_dir),
    )
    results = json.loads((output_dir / "results.json").read_text(encoding="utf-8"))
    assert results["lang"] == "en" and results["systems"] == ["bm25", "swapped"]
    expected = reteval.compare(
        str(qrels_path), runs, measures, baseline="bm25", test="randomization", rng=0
    )
    assert results["status"] == expected.best["status"].to_dict()
    chapter = results["chapter"]
    for name, path in runs.items():
        means = reteval.evaluate(str(qrels_path), path, measures).mean()
        assert results["means"][name] == pytest.approx(means.to_dict(), abs=1e-12)
        assert chapter["input"][name] == pytest.approx(
            chapter_means(str(qrels_path), path, [2, 5]), abs=1e-12
        )
    mean_of_means = {name: sum(v.values()) / len(v) for name, v in chapter["input"].items()}
    best = max(mean_of_means, key=mean_of_means.get)  # max keeps the first on ties, as idxmax
    other = next(name for name in mean_of_means if name != best)
    assert chapter["overall"] == best and chapter["runner_up"] == other
    assert chapter["margin"] == pytest.approx(mean_of_means[best] - mean_of_means[other])
    tie = chapter["tie"]
    if tie is not None:  # the first exactly tied column: idxmax takes the first, then the last
        column = tie["column"]
        values = {name: chapter["input"][name][column] for name in runs}
        assert tie["systems"] == [n for n in runs if values[n] == max(values.values())]
        assert (tie["first"], tie["reversed"]) == (tie["systems"][0], tie["systems"][-1])
    # With a baseline, the comparison columns hold values and are shown.
    assert {"mean_difference", "pvalue", "pvalue_corrected", "significant"} <= set(
        results["table_columns"]
    )
    # The history: its section, its trend figure, links relative to where the pipeline saves
    # the executed notebook (the output folder).
    assert results["trend_entries"] == 2
    assert not any("06" in line and "history" in line.lower() for line in stream_lines(text))
    report = (output_dir / "report.md").read_text(encoding="utf-8")
    assert report.startswith("# Retrieval evaluation report")
    assert "## Continuous evaluation" in report and "](figures/trend.png)" in report
    assert "The history holds 2 evaluations" in report and "below threshold: R@5" in report
    assert not CJK.search(report)
    assert results["figure_links"]["figures/trend.png"] == "figures/trend.png"
    for link in results["figure_links"].values():
        assert (output_dir / link).is_file()


# --------------------------------------------------------------------------- solutions


@pytest.mark.slow
def test_solutions_pass_their_checks(tmp_path):
    said = run_solutions("10", "en", cwd=tmp_path)
    assert sum("Correct!" in text for text in said) == 4
    # the computed checks reject plausible wrong answers
    assert check("10.1", "vector") and not check("10.1", "bm25") and not check("10.1", "hybrid")
    assert check("10.2", {"precision@1"}) and check("10.2", ["P@1"])
    assert not check("10.2", {"recall@1", "precision@1"})
    assert not check("10.2", {"precision@1", "ndcg@5"})


def test_the_worked_solution_of_10_1_says_what_its_numbers_show(teaching):
    """Adding recall@100 keeps vector the "best overall" (0.6296 against hybrid's 0.6102);
    keeping only the @1 columns and mrr makes hybrid the best overall."""
    qrels, runs = teaching
    table = pd.DataFrame({name: {**chapter_means(qrels, run, [1, 3, 5, 10]),
                                 "recall@100": float(reteval.evaluate(qrels, run, ["R@100"])[
                                     "R@100"].mean())}
                          for name, run in runs.items()}).T
    with_recall = table.mean(axis=1).sort_values(ascending=False)
    assert list(with_recall.index[:2]) == ["vector", "hybrid"]
    assert with_recall.round(4).tolist()[:2] == [0.6296, 0.6102]
    without = table.drop(columns="recall@100").mean(axis=1)
    assert without.idxmax() == "vector"
    ones = table[["recall@1", "precision@1", "ndcg@1", "mrr"]].mean(axis=1)
    assert ones.idxmax() == "hybrid"
    source = SOLUTIONS.read_text(encoding="utf-8")
    assert "0.6296" in source and "0.6102" in source and "does not change" in source
    assert "足以让“综合最佳”换人" not in source
