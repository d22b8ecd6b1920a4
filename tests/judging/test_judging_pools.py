"""Pools and Zobel's leave-one-out test, on hand-made runs and on Cranfield."""

import pandas as pd
import pytest

import reteval
from reteval.errors import InputError
from reteval.judging import leave_one_out, pool, pool_rrf, pool_take_n


def scored(docs_by_query):
    """A run as a table, with the scores given: {query: [(doc, score), ...]}."""
    rows = [(q, d, s) for q, docs in docs_by_query.items() for d, s in docs]
    return pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])


def test_pool_takes_each_runs_top_k_in_trec_eval_order():
    # Ties on score: trec_eval puts the larger doc id first, so d9 before d2 before d1.
    a = scored({"q1": [("d1", 1.0), ("d2", 1.0), ("d9", 1.0), ("d5", 0.5)]})
    b = scored({"q1": [("d5", 3.0), ("d7", 2.0), ("d1", 1.0)]})
    got = pool({"a": a, "b": b}, depth=2)
    assert got[["doc_id", "best_rank", "runs"]].values.tolist() == [
        ["d2", 2, 1], ["d5", 1, 1], ["d7", 2, 1], ["d9", 1, 1]]


def test_pool_counts_runs_and_grows_with_depth():
    runs = {"a": {"q1": ["d1", "d2", "d3"], "q2": ["d4"]},
            "b": {"q1": ["d2", "d1", "d5"], "q2": ["d6", "d4"]}}
    one = pool(runs, depth=1)
    assert set(zip(one.query_id, one.doc_id, strict=True)) == {
        ("q1", "d1"), ("q1", "d2"), ("q2", "d4"), ("q2", "d6")}
    two = pool(runs, depth=2)
    assert two.set_index(["query_id", "doc_id"])["runs"].to_dict() == {
        ("q1", "d1"): 2, ("q1", "d2"): 2, ("q2", "d4"): 2, ("q2", "d6"): 1}
    assert len(pool(runs, depth=3)) == 6


def test_take_n_spends_the_same_budget_on_every_query():
    runs = {"a": {"q1": ["d1", "d2", "d3", "d4"], "q2": ["e1", "e2", "e3"]},
            "b": {"q1": ["d1", "d5", "d6"], "q2": ["e4", "e5", "e6"]}}
    got = pool_take_n(runs, n=3)
    assert got.groupby("query_id").size().tolist() == [3, 3]
    # q1: rank 1 gives d1 (both runs); rank 2 gives d2, d5 -> the budget of 3 is d1, d2, d5
    assert sorted(got[got.query_id == "q1"].doc_id) == ["d1", "d2", "d5"]
    # q2: rank 1 gives e1 and e4, then rank 2's e2 (doc id ascending before e5)
    assert sorted(got[got.query_id == "q2"].doc_id) == ["e1", "e2", "e4"]


def test_rrf_priority_prefers_documents_several_runs_rank_high():
    runs = {"a": {"q1": ["d1", "d2", "d3"]}, "b": {"q1": ["d3", "d2", "d5"]},
            "c": {"q1": ["d2", "d9", "d8"]}}
    got = pool_rrf(runs, n=2, k=60)
    # d2: 1/62 + 1/62 + 1/61 beats d3: 1/63 + 1/61 and d1: 1/61
    assert got["doc_id"].tolist() == ["d2", "d3"]
    assert got.set_index("doc_id")["rrf"]["d2"] == pytest.approx(2 / 62 + 1 / 61)


def test_runs_with_no_common_query_are_an_error():
    with pytest.raises(InputError, match=r"no query in common \('a': q1; 'b': q2\)"):
        pool({"a": {"q1": ["d1"]}, "b": {"q2": ["d1"]}}, depth=5)
    with pytest.raises(InputError, match="depth must be a positive integer; got 0"):
        pool({"a": {"q1": ["d1"]}}, depth=0)
    with pytest.raises(InputError, match="non-empty mapping of run name to run"):
        pool({}, depth=3)
    with pytest.raises(InputError, match="at least two runs"):
        leave_one_out({"q1": {"d1": 1}}, {"a": {"q1": ["d1"]}})


def test_leave_one_out_by_hand():
    qrels = {"q1": {"d1": 1, "d2": 0, "d3": 1, "d4": 1}}
    runs = {"a": {"q1": ["d1", "d4", "d2"]}, "b": {"q1": ["d3", "d2", "d1"]},
            "c": {"q1": ["d2", "d3", "d5"]}}
    result = leave_one_out(qrels, runs, measure="P@2", depth=2, judged_at=2)
    table = result.table
    # pool of all at depth 2: d1 d4 d3 d2 -> every judgment kept: a 1.0, b 0.5, c 0.5
    assert table["pooled"].to_dict() == {"a": 1.0, "b": 0.5, "c": 0.5}
    # a left out: pool of b, c = d3 d2 -> a's d1 and d4 are unjudged: P@2 = 0, Judged@2 = 0
    assert table.loc["a", "left_out"] == 0.0 and table.loc["a", "judged"] == 0.0
    assert table.loc["a", "rank_pooled"] == 1 and table.loc["a", "rank_left_out"] == 3
    assert table.loc["a", "rank_change"] == 2
    # b left out: pool of a, c = d1 d4 d2 d3 -> nothing lost
    assert table.loc["b", "left_out"] == 0.5 and table.loc["b", "judged"] == 1.0
    assert result.max_drop == 1.0 and result.runs_that_moved == 1


@pytest.mark.slow
def test_leave_one_out_on_cranfield(cranfield_sample, shared_embeddings):
    """Cranfield's judgments are complete: the test can be run exactly. On a sample
    (tests/conftest.py: 40 queries, all their judged documents, a sixteenth of the others), the
    sampled queries' judgments complete as in the whole collection; two runs, BM25's and the
    word-based LSA retriever's."""
    from reteval.datasets import load
    from reteval.retrievers import make_retriever

    collection = load(cranfield_sample)
    runs = {name: make_retriever(name, collection.corpus).run(collection.queries, k=50)
            for name in ("bm25", "lsa")}
    result = leave_one_out(collection.qrels, runs, measure="P@10", depth=10)
    for name, run in runs.items():
        # pooled = every judgment inside the depth-10 pool of both runs, by hand
        keep = set()
        for r in runs.values():
            top = reteval.io.sort_run(r).groupby("query_id").head(10)
            keep |= set(zip(top.query_id, top.doc_id, strict=True))
        q = collection.qrels
        inside = q[[(a, b) in keep for a, b in zip(q.query_id, q.doc_id, strict=True)]]
        queries = sorted(set(q.query_id))
        expected = reteval.evaluate(inside, run, ["P@10"])["P@10"].reindex(queries, fill_value=0)
        assert result.table.loc[name, "pooled"] == pytest.approx(expected.mean(), abs=1e-12)
        # fewer judged relevant documents: precision can only fall (AP could rise: its
        # denominator, the relevant documents judged, shrinks too)
        assert result.table.loc[name, "left_out"] <= result.table.loc[name, "pooled"] + 1e-12
        assert 0 <= result.table.loc[name, "judged"] <= 1


def test_leave_one_group_out_by_hand():
    qrels = {"q1": {"d1": 1, "d2": 0, "d3": 1, "d4": 1}}
    runs = {"a": {"q1": ["d1", "d4", "d2"]}, "b": {"q1": ["d3", "d2", "d1"]},
            "c": {"q1": ["d2", "d3", "d5"]}}
    result = leave_one_out(qrels, runs, measure="P@2", depth=2, judged_at=2,
                           groups={"team": ["a", "b"]})
    table = result.table
    assert table["group"].to_dict() == {"a": "team", "b": "team", "c": "c"}
    # team left out: the pool is c's top 2 = d2 d3. a's top 2 (d1 d4) is outside it:
    # P@2 0, judged 0, in_pool 0; b's top 2 (d3 d2) inside: P@2 1/2, judged 1
    assert table.loc["a", ["left_out", "judged", "in_pool"]].tolist() == [0.0, 0.0, 0.0]
    assert table.loc["b", ["left_out", "judged", "in_pool"]].tolist() == [0.5, 1.0, 1.0]
    # leaving one run out, b keeps its pool through a: as with the group, here; c alone
    # left out: pool of a, b = d1 d4 d3 d2 -> c's d2 d3 judged, P@2 1/2
    assert table.loc["c", ["pooled", "left_out", "rank_pooled", "rank_left_out"]].tolist() \
        == [0.5, 0.5, 2, 2]
    assert table.loc["a", "rank_left_out"] == 3 and result.runs_that_moved == 1
    text = str(result)
    assert text.startswith("Leave one group out: P@2, pool depth 2, 3 runs")
    for column in table.columns:  # every column printed, none elided
        assert column in text
    assert "..." not in text


def test_a_run_found_alone_low_raises_its_left_out_ap():
    # d9 is relevant and only run a retrieves it, at rank 10. Pooled (depth 10) both
    # relevant documents are known: AP(a) = (1/1 + 2/10) / 2 = 0.6. Left out, d9 is not
    # in b's pool: one relevant document, at rank 1: AP(a) = 1.
    filler = [f"n{i}" for i in range(2, 10)]
    runs = {"a": {"q1": ["d1", *filler, "d9"]}, "b": {"q1": ["d1", "m2"]}}
    qrels = {"q1": {"d1": 1, "d9": 1}}
    table = leave_one_out(qrels, runs, measure="AP", depth=10).table
    assert table.loc["a", "pooled"] == pytest.approx(0.6)
    assert table.loc["a", "left_out"] == pytest.approx(1.0)
    assert table.loc["a", "change"] == pytest.approx(0.4)
    # b: AP 1/2 either way (d9 stays in a's pool)
    assert table.loc["b", ["pooled", "left_out"]].tolist() == pytest.approx([0.5, 0.5])


def test_judged_and_in_pool_with_qrels_of_relevant_documents_only():
    qrels = {"q1": {"d1": 1}}  # Cranfield style: the unlisted are not relevant
    runs = {"a": {"q1": ["d1", "d2"]}, "b": {"q1": ["d2", "d1"]}}
    result = leave_one_out(qrels, runs, measure="P@2", depth=1, judged_at=2)
    assert result.relevant_only
    # a left out: b's depth-1 pool is {d2}; a's top 2 = d1 d2: half of it in the pool, and
    # none of it judged (d2 has no line in the qrels)
    assert result.table.loc["a", ["judged", "in_pool"]].tolist() == [0.0, 0.5]
    assert "a precision, not a coverage" in str(result)
    graded = leave_one_out({"q1": {"d1": 1, "d2": 0}}, runs, measure="P@2", depth=1)
    assert not graded.relevant_only and "precision" not in str(graded)


def test_bad_groups_are_named():
    runs = {"a": {"q1": ["d1"]}, "b": {"q1": ["d2"]}}
    qrels = {"q1": {"d1": 1}}
    with pytest.raises(InputError, match="group 'g' lists run 'z', which is not among the runs"):
        leave_one_out(qrels, runs, groups={"g": ["z"]})
    with pytest.raises(InputError, match="run 'a' is in two groups: 'g' and 'h'"):
        leave_one_out(qrels, runs, groups={"g": ["a"], "h": ["a"]})
    with pytest.raises(InputError, match="group 'g' must list run names; got 'a'"):
        leave_one_out(qrels, runs, groups={"g": "a"})
    with pytest.raises(InputError,
                       match=r"at least two groups: the one group left out \('g'\) holds every"):
        leave_one_out(qrels, runs, groups={"g": ["a", "b"]})


def test_leave_one_out_takes_a_geometric_mean():
    qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    runs = {"a": {"q1": ["d1"], "q2": ["d7", "d8"]}, "b": {"q1": ["d9", "d1"], "q2": ["d9", "d2"]}}
    table = leave_one_out(qrels, runs, measure="gm_map", depth=2, judged_at=2).table
    # AP a: 1 and 0 (floored at 0.00001); b: 0.5 and 0.5. The arithmetic means tie at 0.5.
    assert table.loc["a", "pooled"] == pytest.approx((1 * 0.00001) ** 0.5, rel=1e-12)
    assert table.loc["b", "pooled"] == pytest.approx(0.5, rel=1e-12)
    assert table.loc["b", "rank_pooled"] == 1 and table.loc["a", "rank_pooled"] == 2
    # b left out: a's pool d1 d7 d8 keeps q1's judgment only: AP 0.5 and 0
    assert table.loc["b", "left_out"] == pytest.approx((0.5 * 0.00001) ** 0.5, rel=1e-12)
    assert table.loc["a", "left_out"] == pytest.approx((1 * 0.00001) ** 0.5, rel=1e-12)
