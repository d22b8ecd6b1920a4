"""Tests of reteval.comparison: per-query scores, tests, corrections, the best."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.stats as st
from statsmodels.stats.multitest import multipletests

from reteval.comparison import Comparison, compare
from reteval.errors import InputError

# Ten queries, one relevant document each: q{i} -> d{i}.
QRELS = {f"q{i}": {f"d{i}": 1} for i in range(10)}
# The rank at which each system puts the relevant document (0 = not retrieved).
RANKS = {
    "bm25": [1, 2, 1, 3, 1, 1, 2, 0, 1, 4],
    "dense": [2, 1, 0, 3, 2, 1, 5, 0, 3, 0],
    "hybrid": [1, 1, 1, 2, 1, 1, 1, 2, 1, 1],
}


def ranked_run(ranks):
    """A run whose relevant document for q{i} sits at rank ranks[i] among filler docs."""
    run = {}
    for i, r in enumerate(ranks):
        docs = [f"x{i}_{j}" for j in range(5)]
        if r:
            docs.insert(r - 1, f"d{i}")
        run[f"q{i}"] = docs
    return run


def rr(ranks):
    """Reciprocal ranks by hand: 1 / rank, 0 when not retrieved."""
    return np.array([1.0 / r if r else 0.0 for r in ranks])


RUNS = {name: ranked_run(r) for name, r in RANKS.items()}


def test_means_and_per_query_scores_by_hand():
    res = compare(QRELS, RUNS, ["RR", "P@1"], rng=0)
    assert isinstance(res, Comparison)
    assert res.systems == ("bm25", "dense", "hybrid") and res.measures == ("RR", "P@1")
    assert res.n_queries == 10
    for name, ranks in RANKS.items():
        np.testing.assert_allclose(res.per_query["RR"][name].to_numpy(), rr(ranks))
        np.testing.assert_allclose(res.per_query["P@1"][name].to_numpy(),
                                   [1.0 if r == 1 else 0.0 for r in ranks])
    means = res.means
    assert means.loc["bm25", "RR"] == pytest.approx(rr(RANKS["bm25"]).mean())
    assert means.loc["hybrid", "P@1"] == pytest.approx(0.8)
    assert list(res.per_query["RR"].index) == [f"q{i}" for i in range(10)]


def test_pairwise_t_and_holm_match_scipy_statsmodels():
    res = compare(QRELS, RUNS, ["RR"], test="t", correction="holm", rng=0)
    pairs = [("bm25", "dense"), ("bm25", "hybrid"), ("dense", "hybrid")]
    assert list(zip(res.pairwise["system"], res.pairwise["other"], strict=True)) == pairs
    # scipy.stats.ttest_rel(rr(a), rr(b)) for each pair, then
    # statsmodels multipletests(p, method="holm") over the three pairs of the measure
    raw = [st.ttest_rel(rr(RANKS[a]), rr(RANKS[b])).pvalue for a, b in pairs]
    corrected = multipletests(raw, method="holm")[1]
    np.testing.assert_allclose(res.pairwise["pvalue"], raw, rtol=1e-10)
    np.testing.assert_allclose(res.pairwise["pvalue_corrected"], corrected, rtol=1e-10)
    np.testing.assert_array_equal(res.pairwise["significant"], corrected <= 0.05)
    diffs = [rr(RANKS[a]).mean() - rr(RANKS[b]).mean() for a, b in pairs]
    np.testing.assert_allclose(res.pairwise["mean_difference"], diffs)
    # the pairwise interval is the t interval: scipy's ttest_rel(...).confidence_interval()
    ref = st.ttest_rel(rr(RANKS["bm25"]), rr(RANKS["dense"])).confidence_interval()
    assert res.pairwise.loc[0, "ci_low"] == pytest.approx(ref.low)
    assert res.pairwise.loc[0, "ci_high"] == pytest.approx(ref.high)
    # without a baseline the per-system table carries no p-values
    assert res.table["pvalue"].isna().all() and res.table["significant"].isna().all()


def test_baseline_family_per_measure_with_bh():
    res = compare(QRELS, RUNS, ["RR", "P@1"], baseline="bm25", test="wilcoxon",
                  correction="bh", rng=0)
    for measure in ("RR", "P@1"):
        table = res.table[res.table["measure"] == measure].set_index("system")
        assert math.isnan(table.loc["bm25", "pvalue"]) and pd.isna(table.loc["bm25", "significant"])
        vals = {s: res.per_query[measure][s].to_numpy() for s in res.systems}
        # scipy.stats.wilcoxon(system, baseline) for dense and hybrid, then
        # multipletests(p, method="fdr_bh") over the family of this measure only
        raw = [st.wilcoxon(vals[s], vals["bm25"]).pvalue for s in ("dense", "hybrid")]
        corrected = multipletests(raw, method="fdr_bh")[1]
        np.testing.assert_allclose(table.loc[["dense", "hybrid"], "pvalue"], raw, rtol=1e-10)
        np.testing.assert_allclose(table.loc[["dense", "hybrid"], "pvalue_corrected"], corrected,
                                   rtol=1e-10)
        assert table.loc["dense", "mean_difference"] == pytest.approx(
            vals["dense"].mean() - vals["bm25"].mean())


def test_mean_intervals_cover_means_and_are_reproducible():
    a = compare(QRELS, RUNS, ["RR"], test="randomization", n_resamples=2000, rng=7)
    b = compare(QRELS, RUNS, ["RR"], test="randomization", n_resamples=2000,
                rng=np.random.default_rng(7))
    pd.testing.assert_frame_equal(a.table, b.table)
    pd.testing.assert_frame_equal(a.pairwise, b.pairwise)
    assert ((a.table["ci_low"] <= a.table["mean"]) & (a.table["mean"] <= a.table["ci_high"])).all()
    # bootstrap interval of each mean within Monte Carlo error of scipy's percentile bootstrap:
    # scipy.stats.bootstrap((x,), np.mean, method="percentile", n_resamples=2000)
    x = rr(RANKS["dense"])
    ref = st.bootstrap((x,), np.mean, method="percentile", n_resamples=20_000,
                       rng=np.random.default_rng(1)).confidence_interval
    row = a.table.set_index("system").loc["dense"]
    assert row["ci_low"] == pytest.approx(ref.low, abs=0.05)
    assert row["ci_high"] == pytest.approx(ref.high, abs=0.05)


def test_best_significant_and_outside_family():
    # hybrid is best on RR and bm25 runner-up; with baseline dense that pair is not in the
    # family, so it is tested on its own: scipy.stats.ttest_rel(rr(hybrid), rr(bm25))
    res = compare(QRELS, RUNS, ["RR"], baseline="dense", rng=0)
    row = res.best.loc["RR"]
    assert row["system"] == "hybrid" and row["runner_up"] == "bm25"
    assert not row["in_family"]
    ref = st.ttest_rel(rr(RANKS["hybrid"]), rr(RANKS["bm25"])).pvalue
    assert row["pvalue"] == pytest.approx(ref) and row["pvalue_corrected"] == pytest.approx(ref)
    assert row["status"] == ("significant" if ref <= 0.05 else "not significant")


def test_best_within_family_uses_corrected_pvalue():
    res = compare(QRELS, RUNS, ["RR"], rng=0)  # all pairs: hybrid vs bm25 is in the family
    row = res.best.loc["RR"]
    assert row["in_family"]
    pair = res.pairwise[(res.pairwise["system"] == "bm25") & (res.pairwise["other"] == "hybrid")]
    assert row["pvalue_corrected"] == pytest.approx(pair["pvalue_corrected"].item())


def test_best_tie_and_not_significant():
    qrels = {f"q{i}": {f"d{i}": 1} for i in range(6)}
    runs = {
        # a and b: same mean RR (0.75), different queries -> a tie, whatever the test says
        "a": ranked_run([1, 1, 1, 2, 2, 2]),
        "b": ranked_run([2, 2, 2, 1, 1, 1]),
        # c slightly lower on average
        "c": ranked_run([1, 2, 2, 2, 2, 1]),
    }
    res = compare(qrels, runs, ["RR", "P@2"], rng=0)
    row = res.best.loc["RR"]
    assert row["status"] == "tie" and row["system"] == "a" and row["tied_with"] == ("b",)
    assert not row["significant"]
    # P@2 is 0.5 for every system and query: a three-way tie
    assert res.best.loc["P@2", "tied_with"] == ("b", "c")
    # a clear but small lead that is not significant: 2 queries out of 6 differ
    runs2 = {"a": ranked_run([1, 1, 1, 1, 2, 2]), "b": ranked_run([1, 1, 1, 1, 1, 3])}
    row2 = compare(qrels, runs2, ["RR"], rng=0).best.loc["RR"]
    assert row2["system"] == "b" and row2["status"] == "not significant"
    # scipy.stats.ttest_rel(b, a) on the per-query RR values
    ref = st.ttest_rel(rr([1, 1, 1, 1, 1, 3]), rr([1, 1, 1, 1, 2, 2])).pvalue
    assert row2["pvalue"] == pytest.approx(ref)


def test_single_system():
    res = compare(QRELS, {"only": RUNS["bm25"]}, ["RR"], rng=0)
    assert res.pairwise.empty
    assert res.best.loc["RR", "status"] == "single"


class RunRetriever:
    """A retriever object with run(queries) -> run DataFrame."""

    def __init__(self, ranks):
        self.ranks = ranks

    def run(self, queries):
        rows = []
        for qid in queries:
            for rank, doc in enumerate(ranked_run(self.ranks)[qid], start=1):
                rows.append((qid, doc, 10.0 - rank))
        return pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])


def test_retrievers_object_callable_and_per_query_function():
    from reteval.retrievers import RetrieverError, as_retriever

    queries = {f"q{i}": f"text {i}" for i in range(10)}
    bm25_run = ranked_run(RANKS["bm25"])

    def plain(text):  # text -> [(doc_id, score)], best first
        qid = "q" + text.split()[1]
        return [(doc, 1.0 / (k + 1)) for k, doc in enumerate(bm25_run[qid])]

    def whole(qs):  # the contract: {query_id: text} -> run
        return {qid: ranked_run(RANKS["hybrid"])[qid] for qid in qs}

    res = compare(QRELS, {"plain": as_retriever(plain, per_query=True),
                          "object": RunRetriever(RANKS["dense"]), "whole": whole,
                          "run": RUNS["hybrid"]}, ["RR"], queries=queries, rng=0)
    np.testing.assert_allclose(res.per_query["RR"]["plain"], rr(RANKS["bm25"]))
    np.testing.assert_allclose(res.per_query["RR"]["object"], rr(RANKS["dense"]))
    np.testing.assert_allclose(res.per_query["RR"]["whole"], rr(RANKS["hybrid"]))
    with pytest.raises(InputError, match="is a retriever; pass queries"):
        compare(QRELS, {"plain": plain}, ["RR"])
    # A per-query function given as is gets the whole query set: one clear error.
    with pytest.raises(RetrieverError, match="retriever 'plain' raised AttributeError"):
        compare(QRELS, {"plain": plain}, ["RR"], queries=queries)
    with pytest.raises(RetrieverError, match=r"'bad' returned for query 'q0' something other "
                                             r"than a list of \(doc_id, score\) pairs"):
        compare(QRELS, {"bad": as_retriever(lambda text: 42, per_query=True, name="bad")},
                ["RR"], queries=queries)


def test_missing_skip_keeps_common_queries():
    partial = {k: v for k, v in RUNS["dense"].items() if k not in ("q0", "q1")}
    res = compare(QRELS, {"bm25": RUNS["bm25"], "dense": partial}, ["RR"], missing="skip", rng=0)
    assert res.n_queries == 8 and "q0" not in res.per_query["RR"].index
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        res0 = compare(QRELS, {"bm25": RUNS["bm25"], "dense": partial}, ["RR"], rng=0)
    assert res0.n_queries == 10 and res0.per_query["RR"].loc["q0", "dense"] == 0.0


def test_differences_against_baseline():
    res = compare(QRELS, RUNS, ["RR"], baseline="bm25", rng=0)
    diff = res.differences("RR")
    assert list(diff.columns) == ["dense", "hybrid"]
    np.testing.assert_allclose(diff["dense"], rr(RANKS["dense"]) - rr(RANKS["bm25"]))
    with pytest.raises(InputError, match="against"):
        compare(QRELS, RUNS, ["RR"], rng=0).differences("RR")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"baseline": "bm26"}, "baseline must be one of the systems"),
    ({"test": "anova"}, "test must be one of"),
    ({"correction": "sidak"}, "correction must be one of"),
    ({"alpha": 5}, "alpha must be strictly between 0 and 1; got 5"),
    ({"confidence_level": 1.0}, "confidence_level must be"),
    ({"n_resamples": 0}, "n_resamples must be a positive integer; got 0"),
    ({"rng": "x"}, "rng must be"),
])
def test_option_errors(kwargs, message):
    with pytest.raises(InputError, match=message):
        compare(QRELS, RUNS, ["RR"], **kwargs)


def test_runs_errors():
    with pytest.raises(InputError, match="non-empty mapping"):
        compare(QRELS, {}, ["RR"])
    with pytest.raises(InputError, match="non-empty mapping"):
        compare(QRELS, [RUNS["bm25"]], ["RR"])
    with pytest.raises(InputError, match="system names"):
        compare(QRELS, {1: RUNS["bm25"]}, ["RR"])
    with pytest.raises(InputError, match="measures must be distinct"):
        compare(QRELS, RUNS, ["RR", "RR"])


def test_comparison_pickles_and_is_frozen():
    import dataclasses
    import pickle

    res = compare(QRELS, RUNS, ["RR"], test="randomization", n_resamples=200, rng=0)
    back = pickle.loads(pickle.dumps(res))
    pd.testing.assert_frame_equal(back.pairwise, res.pairwise)
    key = ("RR", "bm25", "dense")
    assert back.tests[key].confidence_interval() == res.tests[key].confidence_interval()
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.alpha = 0.1


def test_html_display_marks_significance_and_escapes_names():
    # 12 queries: "good" finds the relevant document at rank 1 everywhere, "<bad>" never.
    qrels = {f"q{i}": {f"d{i}": 1} for i in range(12)}
    runs = {"base": {f"q{i}": (["x", f"d{i}"] if i % 2 else [f"d{i}"]) for i in range(12)},
            "good": {f"q{i}": [f"d{i}"] for i in range(12)},
            "<bad>": {f"q{i}": ["x"] for i in range(12)}}
    html = compare(qrels, runs, ["RR"], baseline="base", rng=0)._repr_html_()
    rows = {row.split("</th>")[0]: row for row in html.split("<tr><th>")[2:]}
    assert "&lt;bad&gt;" in html and "<bad>" not in html
    assert rows["good"].count("▲") == 1 and "●" in rows["good"]
    assert rows["&lt;bad&gt;"].count("▼") == 1
    assert "▲" not in rows["base <small>(baseline)</small>"]
    assert "1.0000 <small>[1.000, 1.000]</small>" in rows["good"]
    assert "12 queries" in html


def test_one_retriever_contract_for_compare_and_monitor(tmp_path):
    from reteval.monitor import RetrieverError as MonitorRetrieverError
    from reteval.monitor import monitor_once
    from reteval.retrievers import RetrieverError, as_retriever

    assert MonitorRetrieverError is RetrieverError
    queries = {f"q{i}": f"text {i}" for i in range(10)}
    runs = {name: ranked_run(ranks) for name, ranks in RANKS.items()}

    def per_query(text):
        qid = "q" + text.split()[1]
        return [(doc, 1.0 / (k + 1)) for k, doc in enumerate(runs["dense"][qid])]

    def whole(qs):
        return {qid: runs["dense"][qid] for qid in qs}

    forms = {"object": RunRetriever(RANKS["dense"]), "callable": whole,
             "per_query": as_retriever(per_query, per_query=True)}
    for name, obj in forms.items():
        run = as_retriever(obj)(queries)
        assert list(run.columns) == ["query_id", "doc_id", "score"], name
        ranked = run.sort_values(["query_id", "score"], ascending=[True, False], kind="stable")
        assert ranked.groupby("query_id")["doc_id"].apply(list).to_dict() == \
            {q: runs["dense"][q] for q in queries}, name
        # the same object is accepted by both entry points and scores the same
        by_compare = compare(QRELS, {name: obj}, ["RR"], queries=queries, rng=0)
        by_monitor = monitor_once(tmp_path / f"{name}.sqlite", retriever=obj, queries=queries,
                                  qrels=QRELS, measures=["RR"], name=name)
        np.testing.assert_allclose(by_compare.per_query["RR"][name], rr(RANKS["dense"]))
        assert by_monitor.entry.aggregates["RR"] == pytest.approx(rr(RANKS["dense"]).mean())
    with pytest.raises(InputError, match="must have a run\\(queries\\) method or be callable"):
        as_retriever(42)
    with pytest.raises(InputError, match="queries must be a mapping"):
        as_retriever(whole)(["text"])

    def broken(qs):
        raise KeyError("index offline")

    with pytest.raises(RetrieverError, match="broken' raised KeyError: 'index offline'") as info:
        as_retriever(broken)(queries)
    assert isinstance(info.value.__cause__, KeyError)


@pytest.mark.parametrize("measures", [None, 5, {"RR": 1}, ["RR", None], b"RR"])
def test_measures_must_be_names(measures):
    qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    runs = {"a": {"q1": ["d1"], "q2": ["d2"]}, "b": {"q1": ["d2"], "q2": ["d2"]}}
    with pytest.raises(InputError, match="measures must be a measure name or a list of names"):
        compare(qrels, runs, measures)
