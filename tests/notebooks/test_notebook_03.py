"""Notebook 03 (the evaluation set, RAG context metrics) through papermill.

Each run's recorded values (results.json) are checked against the library
called directly on the same inputs, and against hand-computed values, and the
conclusions the notebook's prose draws are checked to hold for them.
"""

import math

import numpy as np
import pandas as pd
import pytest
from notebook_run import check_exercises_asked_and_solved
from notebook_run import execute as run_notebook
from paths import ROOT

import reteval
from reteval.datasets import load
from reteval.retrievers import make_retriever

NOTEBOOK = ROOT / "notebooks" / "03_evaluation_set.ipynb"


def execute(tmp_path, **parameters):
    return run_notebook(NOTEBOOK.stem, tmp_path, **parameters)


@pytest.fixture(scope="module")
def default_run(tmp_path_factory):
    return execute(tmp_path_factory.mktemp("nb03-default"))


@pytest.fixture(scope="module")
def other_run(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("nb03-other")
    return execute(
        tmp_path,
        lang="en",
        retriever="vector",
        other_retriever="bm25",
        k=3,
        depth=20,
        link_base=str(tmp_path / "out"),
    )


def check_evaluation_set(results, collection):
    """Section 1 (pooling, Judged@10, planning, the EvaluationQuery merge) against the library."""
    from reteval.stats import queries_needed

    qrels, depth = collection.qrels, results["depth"]
    runs = {
        name: reteval.io.sort_run(
            make_retriever(name, collection.corpus).run(collection.queries, k=depth)
        )
        for name in (results["retriever"], results["other_retriever"])
    }
    # threshold: precision can only fall when fewer grades count as relevant; nDCG ignores it
    level = results["relevance_level"]
    assert (
        level["relevance_level=2"][f"P@{results['k']}"]
        <= level["relevance_level=1"][f"P@{results['k']}"]
    )
    assert level["relevance_level=2"][f"nDCG@{results['k']}"] == pytest.approx(
        level["relevance_level=1"][f"nDCG@{results['k']}"]
    )
    # pooling: the union of both top 10s, counted here without the notebook's code
    judged_pairs = {(q, d) for q, d in zip(qrels.query_id, qrels.doc_id, strict=True)}
    relevant_pairs = {
        (q, d)
        for q, d, r in zip(qrels.query_id, qrels.doc_id, qrels.relevance, strict=True)
        if r >= 1
    }
    pool = set()
    for run in runs.values():
        for qid, group in run.groupby("query_id"):
            pool |= {(qid, d) for d in group["doc_id"].head(10)}
    assert {key: value for key, value in results["pool"].items() if key != "scores"} == {
        "depth": 10,
        "documents": len(pool),
        "known_relevant": len(relevant_pairs),
        "in_pool": len(pool & relevant_pairs),
    }
    # What the prose says of the pooled systems: P@10 exact with the pool's judgments only,
    # R@10, nDCG@10 and AP inflated (the pool misses relevant documents)
    # every pooled document judged (grade 0 where the collection has none), nothing else
    grades = {(q, d): g for q, d, g in zip(qrels.query_id, qrels.doc_id, qrels.relevance,
                                          strict=True)}
    pool_qrels = pd.DataFrame([(q, d, grades.get((q, d), 0)) for q, d in sorted(pool)],
                              columns=["query_id", "doc_id", "relevance"])
    for name, run in runs.items():
        full = reteval.evaluate(qrels, run, ["P@10", "R@10", "nDCG@10", "AP"]).mean()
        pooled = reteval.evaluate(pool_qrels, run, ["P@10", "R@10", "nDCG@10", "AP"]).mean()
        recorded = results["pool"]["scores"][name]
        assert recorded["all"] == pytest.approx(full.to_dict(), abs=1e-12)
        assert recorded["pool"] == pytest.approx(pooled.to_dict(), abs=1e-12)
        assert pooled["P@10"] == pytest.approx(full["P@10"], abs=1e-12)
        # R@10 and nDCG@10 read only the pooled top 10: missed relevant documents can only
        # raise them; AP also reads deeper ranks and may move either way (the prose says so)
        cut = ["R@10", "nDCG@10"]
        assert (pooled[cut] >= full[cut] - 1e-12).all()
        if len(pool & relevant_pairs) < len(relevant_pairs):
            assert (pooled[cut] > full[cut]).any()
    # Judged@10 and the P@10 range: the gap is the share of the top 10 positions left unjudged
    for name, run in runs.items():
        expected = reteval.evaluate(qrels, run, ["Judged@10", "P@10"]).mean()
        got = results["judged"][name]
        assert got["Judged@10"] == pytest.approx(expected["Judged@10"], abs=1e-12)
        assert got["P@10_lower"] == pytest.approx(expected["P@10"], abs=1e-12)
        unjudged = [
            sum(
                (qid, d) not in judged_pairs
                for d in run.loc[run.query_id == qid, "doc_id"].head(10)
            )
            / 10
            for qid in collection.queries
        ]
        assert got["P@10_upper"] - got["P@10_lower"] == pytest.approx(np.mean(unjudged), abs=1e-12)
    ranges = list(results["judged"].values())
    overlap = max(r["P@10_lower"] for r in ranges) <= min(r["P@10_upper"] for r in ranges)
    assert results["judged_ranges_overlap"] == overlap
    # the permutation test of section 1.5, recomputed with scipy's: the recorded p-value is
    # the share of sign flips at least as far from 0 (within resampling error), close to the
    # paired t test's, as the prose says
    from scipy import stats

    nd = {n: reteval.evaluate(qrels, r, ["nDCG@10"])["nDCG@10"] for n, r in runs.items()}
    x, y = nd[results["other_retriever"]], nd[results["retriever"]]
    reference = stats.permutation_test((x.to_numpy(), y.to_numpy()),
                                       lambda a, b: np.mean(a - b), permutation_type="samples",
                                       n_resamples=20_000, random_state=1).pvalue
    got = results["permutation"]
    assert got["p"] == pytest.approx(reference, abs=0.01)
    assert got["p_t"] == pytest.approx(stats.ttest_rel(x, y).pvalue, abs=1e-12)
    assert abs(got["p"] - got["p_t"]) < 0.02
    # planning: sd of the per-query nDCG@10 differences, and the library's queries_needed
    scores = {n: reteval.evaluate(qrels, r, ["nDCG@10"])["nDCG@10"] for n, r in runs.items()}
    diff = scores[results["other_retriever"]] - scores[results["retriever"]]
    plan = results["planning"]
    assert plan["sd"] == pytest.approx(diff.std(ddof=1), abs=1e-12)
    assert plan["observed_difference"] == pytest.approx(diff.mean(), abs=1e-12)
    needed = {float(d): n for d, n in plan["queries_needed"].items()}
    assert needed == {d: queries_needed(d, diff.std(ddof=1)) for d in needed}
    # prose: roughly (sd / delta)^2, so halving delta takes about four times the queries
    assert 3 <= needed[0.01] / needed[0.02] <= 5
    # the merge of relevant_docs and relevance_scores: the scores win, listed docs without one get 1
    merge = results["merge"]
    assert merge["qrels"] == {"doc1": 3, "doc2": 0, "doc6": 2, "doc5": 1}
    assert merge["chapter"]["R@3"] == pytest.approx(1 / 3) and merge["reteval"][
        "R@3"
    ] == pytest.approx(2 / 3)
    assert merge["chapter"]["P@3"] == pytest.approx(1 / 3) and merge["reteval"][
        "P@3"
    ] == pytest.approx(2 / 3)
    assert merge["reteval"]["nDCG_exp@3"] == pytest.approx(
        (3 + 1 / math.log2(3)) / (7 + 3 / math.log2(3) + 1 / 2)
    )


def check_rag(results):
    """Section 2: the chapter's RAG example under the overlap judges and a fake LLM judge."""
    from reteval.rag import OverlapJudge, evaluate_contexts
    from reteval.teaching.chapter_rag import EVAL_DATA

    rag = results["rag"]
    assert rag["overlap_char"] == evaluate_contexts(EVAL_DATA).to_dict(orient="list")
    assert rag["overlap_char"] == {"context_recall": [1.0, 1.0], "context_precision": [1.0, 1.0]}
    # 8 of the 12 characters of 机器学习是人工智能的分支 occur in 机器学习是AI的分支;
    # 6 of its 11 pairs
    assert rag["coverage_char"][2] == pytest.approx(8 / 12)
    assert rag["coverage_bigram"][2] == pytest.approx(6 / 11)
    # The paraphrase false negative: same meaning, "not supported" by bigrams at 0.6,
    # so sample 1 scores 0
    assert rag["overlap_bigram_0.6"] == evaluate_contexts(
        EVAL_DATA, judge=OverlapJudge(cjk="bigram", threshold=0.6)
    ).to_dict(orient="list")
    assert rag["overlap_bigram_0.6"]["context_recall"] == [1.0, 0.0]
    assert rag["paraphrase_supported"] == {
        "char@0.5": True,
        "char@0.6": True,
        "bigram@0.5": True,
        "bigram@0.6": False,
    }
    # The fake LLM knows AI = 人工智能: 1 statement + 2 contexts per sample, 6 calls
    assert rag["fake_llm"] == {"context_recall": [1.0, 1.0], "context_precision": [1.0, 1.0]}
    assert rag["fake_llm_prompts"] == 6



@pytest.mark.notebook
def test_default_run_records_what_the_library_computes(default_run):
    output_dir, results = default_run
    assert (results["lang"], results["retriever"], results["other_retriever"], results["k"]) == (
        "zh", "bm25", "vector", 5)
    check_rag(results)
    check_evaluation_set(results, load("teaching"))
    assert results["queries"] == {
        "n": 36,
        "chinese": 17,
        "relevant_min": 3,
        "relevant_max": 22,
    }  # DATASHEET.md
    # the edition's own datasheet is copied and linked
    assert results["datasheet"].endswith(".zh.md" if results["lang"] == "zh" else "DATASHEET.md")
    assert (output_dir / "figures" / "queries_needed.png").stat().st_size > 1000


@pytest.mark.notebook
def test_default_run_prints_the_conclusions_it_records(default_run):
    """The printed verdict on the P@10 ranges is the recorded one, in the edition's language."""
    output_dir, results = default_run
    executed = (output_dir.parent / NOTEBOOK.name).read_text(encoding="utf-8")
    judged = results["judged"]
    low = min(judged, key=lambda name: judged[name]["Judged@10"])
    assert f"{low} 的前 10 个结果中判断过的比例较低（{judged[low]['Judged@10']:.2f}）" in executed
    verdict = "相互重叠" if results["judged_ranges_overlap"] else "范围不重叠"
    assert verdict in executed
    pool = results["pool"]
    assert f"已知相关文档中有 {pool['in_pool'] / pool['known_relevant']:.0%} 会被判断到" in executed


@pytest.mark.notebook
def test_other_parameters_record_what_the_library_computes(other_run):
    output_dir, results = other_run
    assert (results["lang"], results["retriever"], results["k"]) == ("en", "vector", 3)
    # The datasheet is copied beside the results and linked relative to link_base.
    datasheet = ROOT / "reteval" / "datasets" / "data" / "teaching" / "DATASHEET.md"
    assert (output_dir / results["datasheet"]).read_text() == datasheet.read_text()
    executed = (output_dir.parent / NOTEBOOK.name).read_text(encoding="utf-8")
    assert f"({results['datasheet']})" in executed
    check_rag(results)
    check_evaluation_set(results, load("teaching"))


@pytest.mark.notebook
@pytest.mark.slow
def test_scifact_records_what_the_library_computes(tmp_path, scifact_sample, shared_embeddings):
    """On a sample of SciFact (tests/conftest.py: its first 60 judged queries, all their judged
    documents and a fortieth of the others): the reranker scores 50 candidates per query, in
    the kernel and again here, which on all 300 queries takes minutes. Every check reads the
    judged pairs, the pool and the per-query scores of whatever queries there are, so 60
    queries with complete judgments exercise each one as the whole collection does."""
    _, results = execute(tmp_path, dataset=str(scifact_sample), retriever="bm25",
                         other_retriever="reranked", k=10, depth=50)
    collection = load(scifact_sample)
    assert results["dataset"] == "scifact" and len(collection.queries) == 60
    check_evaluation_set(results, collection)


def test_every_exercise_is_asked_and_solved():
    """The notebook asks every exercise of nb03; the solutions (run in English) pass every check."""
    from reteval.teaching.exercises.nb03 import EXERCISES

    assert sorted(EXERCISES) == ["03.1", "03.2", "03.3"]
    check_exercises_asked_and_solved("03", EXERCISES)


@pytest.mark.notebook
@pytest.mark.slow
def test_the_executed_notebook_fits_one_class(default_run):
    """Prose, code, printed lines, table rows, figures and exercises of the run on the
    defaults: at most one 90-minute class in either edition."""
    from notebook_run import fits_one_class

    output_dir, _ = default_run
    fits_one_class(output_dir.parent / NOTEBOOK.name)
