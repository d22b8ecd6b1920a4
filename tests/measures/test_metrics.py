"""Hand-computed values for every measure, and invariants."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from reteval import evaluate
from reteval.evaluation.checks import MissingQueriesWarning
from reteval.evaluation.columns import evaluate_columns
from reteval.evaluation.engine import aggregate

# q1: graded judgments, a negative judgment (d5), a relevant doc never retrieved (d6),
# a tie at score 0.8 (d5 before d3: doc id descending), an unjudged doc (d7).
QRELS = {
    "q1": {"d1": 2, "d2": 1, "d3": 0, "d4": 1, "d5": -1, "d6": 3},
    "q2": {"x1": 0},  # judged, nothing relevant
    "q3": {"y1": 1},  # judged, absent from the run
}
RUN = {
    "q1": {"d1": 0.9, "d3": 0.8, "d5": 0.8, "d2": 0.7, "d7": 0.6, "d4": 0.5},
    "q2": {"x1": 0.5},
    "q9": {"z1": 1.0},  # not judged: ignored
}
# Ranked q1: 1 d1(2)  2 d5(-1)  3 d3(0)  4 d2(1)  5 d7(-)  6 d4(1);
# relevant (>=1): d1 d2 d4 d6, R = 4.
L = math.log2
NDCG_Q1 = (2 / L(2) + 1 / L(5) + 1 / L(7)) / (3 / L(2) + 2 / L(3) + 1 / L(4) + 1 / L(5))
NDCG3_Q1 = (2 / L(2)) / (3 / L(2) + 2 / L(3) + 1 / L(4))
NDCG_EXP_Q1 = (3 / L(2) + 1 / L(5) + 1 / L(7)) / (7 / L(2) + 3 / L(3) + 1 / L(4) + 1 / L(5))

EXPECTED_Q1 = {
    "P@5": 2 / 5,
    "P@10": 3 / 10,  # divides by k even when only 6 were retrieved
    "R@5": 2 / 4,
    "R@100": 3 / 4,
    "RR": 1.0,
    "RR@1": 1.0,
    "AP": (1 / 1 + 2 / 4 + 3 / 6) / 4,
    "AP@4": (1 / 1 + 2 / 4) / 4,
    "Rprec": 2 / 4,
    "Bpref": 1 / 4,  # d1: 1; d2 and d4 come after the only judged non-relevant d3: 0
    "nDCG": NDCG_Q1,
    "nDCG@3": NDCG3_Q1,
    "nDCG_exp": NDCG_EXP_Q1,
    "Success@1": 1.0,
    "Judged@5": 4 / 5,  # d7 is the only unjudged one in the top 5
    "Judged@100": 5 / 6,  # divides by the number retrieved when fewer than k
    "NumRet": 6,
    "NumRel": 4,
    "NumRelRet": 3,
}


def run_eval(measures, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MissingQueriesWarning)
        return evaluate(QRELS, RUN, measures, **kwargs)


@pytest.mark.parametrize("name", sorted(EXPECTED_Q1))
def test_hand_computed_values(name):
    result = run_eval([name])
    assert list(result.index) == ["q1", "q2", "q3"]
    assert result.loc["q1", name] == pytest.approx(EXPECTED_Q1[name], abs=1e-12)
    if name in ("NumRet",):
        assert result.loc["q2", name] == 1
    elif name != "Judged@5" and name != "Judged@100":
        assert result.loc["q2", name] == 0  # no relevant documents: 0 on every measure
    # q3 is missing from the run: scored as an empty ranking (its one relevant doc still counts).
    assert result.loc["q3", name] == (1 if name == "NumRel" else 0)


def test_judged_counts_negative_judgments_as_judged():
    result = run_eval(["Judged@2"])
    assert result.loc["q1", "Judged@2"] == 1.0  # d1 and d5 (negative) are both in the qrels
    assert result.loc["q2", "Judged@2"] == 1.0
    assert result.loc["q3", "Judged@2"] == 0.0


def test_relevance_level_two():
    result = run_eval(["P@5", "AP", "Bpref", "NumRel", "nDCG"], relevance_level=2)
    q1 = result.loc["q1"]
    assert q1["P@5"] == pytest.approx(1 / 5)
    assert q1["NumRel"] == 2  # d1 and d6
    assert q1["AP"] == pytest.approx(1 / 2)
    # judged non-relevant at level 2: d2, d3, d4; d1 is first, so its fraction is 1.
    assert q1["Bpref"] == pytest.approx(1 / 2)
    assert q1["nDCG"] == pytest.approx(NDCG_Q1)  # the level does not change gains


def test_aliases_and_column_names_follow_the_request():
    result = run_eval(["MRR", "MAP", "ndcg_cut.3"])
    assert list(result.columns) == ["MRR", "MAP", "ndcg_cut.3"]
    assert result.loc["q1", "MAP"] == pytest.approx(EXPECTED_Q1["AP"])
    assert result.loc["q1", "ndcg_cut.3"] == pytest.approx(NDCG3_Q1)


def test_ties_broken_by_doc_id_descending_whatever_the_input_order():
    qrels = {"q": {"b": 1}}
    # "b" and "a" tie; trec_eval puts "b" (greater id) first, whichever comes first here.
    for run in ({"q": {"a": 1.0, "b": 1.0}}, {"q": {"b": 1.0, "a": 1.0}}):
        assert evaluate(qrels, run, ["RR"]).loc["q", "RR"] == 1.0
    # String order, not numeric: "d9" > "d10".
    result = evaluate({"q": {"d10": 1}}, {"q": {"d9": 0.5, "d10": 0.5}}, ["RR"])
    assert result.loc["q", "RR"] == 0.5


def test_rank_column_is_ignored(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("q 0 a 1 0.1 x\nq 0 b 2 0.9 x\n")
    assert evaluate({"q": {"b": 1}}, str(path), ["RR"]).loc["q", "RR"] == 1.0


def test_missing_policies():
    with pytest.warns(MissingQueriesWarning, match="'q3'"):
        zero = evaluate(QRELS, RUN, ["P@5"])
    assert list(zero.index) == ["q1", "q2", "q3"]
    skip = evaluate(QRELS, RUN, ["P@5"], missing="skip")
    assert list(skip.index) == ["q1", "q2"]
    with pytest.raises(ValueError, match="1 judged query has no results in the run: 'q3'"):
        evaluate(QRELS, RUN, ["P@5"], missing="error")
    with pytest.raises(ValueError, match="missing must be one of"):
        evaluate(QRELS, RUN, ["P@5"], missing="drop")


@pytest.mark.parametrize("engine", [
    lambda qrels, run: evaluate(qrels, run, ["RR"])["RR"].tolist(),
    lambda qrels, run: list(evaluate_columns(qrels, run, ["RR"])[1]["RR"]),
], ids=["frame", "columns"])
def test_a_run_that_answers_no_judged_query_asks_whether_the_ids_match(engine):
    qrels = {"Q_01": {"a": 1}, "Q_02": {"b": 1}}
    run = {"q01": {"a": 1.0}, "q02": {"b": 1.0}}  # the same queries under other ids
    with pytest.warns(MissingQueriesWarning, match=r"no judged query has results in the run "
                      r"\(do the run's query ids match the judgments'\?\); all 2 judged "
                      r"queries score 0: 'Q_01', 'Q_02'"):
        scores = engine(qrels, run)
    assert scores == [0.0, 0.0]
    with pytest.warns(MissingQueriesWarning, match=r"the run is empty; all 2 judged queries "
                      r"score 0: 'Q_01', 'Q_02'"):
        engine(qrels, {})
    with pytest.warns(MissingQueriesWarning, match=r"the run is empty; the judged query scores "
                      r"0: 'Q_01'"):
        engine({"Q_01": {"a": 1}}, {})


def test_aggregate_sums_counts_and_averages_the_rest():
    result = run_eval(["NumRel", "P@5"])
    means = aggregate(result)
    assert means["NumRel"] == 4 + 0 + 1
    assert means["P@5"] == pytest.approx((2 / 5) / 3)


def test_empty_run_scores_zero():
    with pytest.warns(MissingQueriesWarning):
        result = evaluate({"q": {"d": 1}}, {}, ["AP", "nDCG@10", "Bpref", "RR"])
    assert (result.to_numpy() == 0).all()


def test_input_not_modified():
    qrels = pd.DataFrame({"query_id": ["q"], "doc_id": ["d"], "relevance": [1]})
    run = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["d", "e"], "score": [1.0, 2.0]})
    before = (qrels.copy(), run.copy())
    evaluate(qrels, run, ["AP"])
    pd.testing.assert_frame_equal(qrels, before[0])
    pd.testing.assert_frame_equal(run, before[1])


def random_case(rng, n_queries=30, n_docs=40):
    qrels, run = {}, {}
    for q in range(n_queries):
        docs = [f"d{i}" for i in rng.choice(n_docs, size=rng.integers(1, 20), replace=False)]
        qrels[f"q{q}"] = {d: int(rng.integers(-1, 4)) for d in docs}
        retrieved = rng.choice(n_docs, size=rng.integers(0, n_docs), replace=False)
        run[f"q{q}"] = {f"d{i}": float(rng.integers(0, 5)) for i in retrieved}
    return qrels, run


def test_invariants_on_random_runs():
    rng = np.random.default_rng(7)
    qrels, run = random_case(rng)
    ks = [1, 3, 5, 10, 20, 50]
    measures = ([f"R@{k}" for k in ks] + [f"nDCG@{k}" for k in ks] + [f"AP@{k}" for k in ks]
                + ["AP", "nDCG", "nDCG_exp", "RR", "Bpref", "Rprec"] + [f"P@{k}" for k in ks])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MissingQueriesWarning)
        result = evaluate(qrels, run, measures)
    values = result.to_numpy()
    assert np.isfinite(values).all()
    assert (values >= 0).all() and (values <= 1 + 1e-12).all()
    for family in ("R", "AP"):
        curve = result[[f"{family}@{k}" for k in ks]].to_numpy()
        assert (np.diff(curve, axis=1) >= -1e-12).all(), f"{family}@k must not decrease in k"
    assert (result["AP@50"] <= result["AP"] + 1e-12).all()


def test_query_with_only_negative_judgments_scores_zero():
    qrels = {"q": {"a": -1, "b": -2}}
    result = evaluate(qrels, {"q": {"a": 1.0, "c": 0.5}},
                      ["AP", "nDCG", "Bpref", "NumRel", "Judged@2"])
    assert result.loc["q"].tolist() == [0.0, 0.0, 0.0, 0.0, 0.5]


# ---------------------------------------------------------------- ranks in any row order


def _reference_ranks(query, score, docs, wanted):
    """Rank by the definition: 1 + rows of the query with a higher score, or the same
    score and a greater doc id (plain Python, one row at a time)."""
    out = []
    for w in wanted:
        before = sum(1 for j in range(len(query)) if query[j] == query[w] and (
            score[j] > score[w] or (score[j] == score[w] and docs[j] > docs[w])))
        out.append(before + 1)
    return out


def _random_rows(rng, n_queries, n_docs, score_pool):
    query, score, docs = [], [], []
    for q in range(n_queries):
        ids = rng.choice(10 * n_docs, size=rng.integers(1, n_docs + 1), replace=False)
        query += [q] * len(ids)
        score += list(rng.choice(score_pool, size=len(ids)))
        docs += [f"d{i}" for i in ids]
    return np.array(query), np.array(score, dtype=np.float64), docs


@pytest.mark.parametrize("seed", range(6))
def test_ranks_in_any_row_order_match_the_definition(seed, monkeypatch):
    import pyarrow as pa

    from reteval.evaluation import ranking
    from reteval.evaluation.ranking import _ranks

    if seed % 2:
        monkeypatch.setattr(ranking, "_BLOCK_ROWS", 5)  # keys made in blocks of 5 rows

    rng = np.random.default_rng(seed)
    # Few distinct scores (many ties), including -0.0 and 0.0, which tie, and two doubles
    # one ulp apart, which are distinct but agree in the bits a rank key keeps.
    pool = [0.0, -0.0, 1.0, np.nextafter(1.0, 2.0), -3.5, 2.25, 1e300, -1e-300]
    n_queries = [1, 3, 700][seed % 3]  # 700 queries leave 54 bits of each score in the key
    query, score, docs = _random_rows(rng, n_queries, 12, pool)
    wanted = np.sort(rng.choice(len(query), size=max(1, len(query) // 3), replace=False))
    expected = _reference_ranks(query, score, docs, wanted)
    shuffle = rng.permutation(len(query))
    # Rank order (query, score descending; ties in any order), which needs no counting
    rank_order = np.lexsort((rng.random(len(query)), -score, query))

    def ids(order):  # chunked as a parsed file is, for odd seeds
        values = [docs[i] for i in order]
        if seed % 2 == 0:
            return pa.array(values)
        cut = sorted(rng.integers(0, len(values) + 1, size=2))
        return pa.chunked_array([values[:cut[0]], values[cut[0]:cut[1]], values[cut[1]:]],
                                type=pa.string())

    for order in (np.arange(len(query)), shuffle, rank_order):
        back = np.argsort(order)  # where each original row went
        got = _ranks(query[order], score[order], ids(order), np.sort(back[wanted]), n_queries)
        # got follows the new row positions; map them back to the original rows
        by_row = dict(zip(np.sort(back[wanted]).tolist(), got.tolist(), strict=True))
        assert [by_row[back[w]] for w in wanted] == expected


def test_ranks_of_a_run_written_in_rank_order_and_of_the_same_run_shuffled_agree():
    import pyarrow as pa

    from reteval.evaluation.ranking import _ranks

    rng = np.random.default_rng(11)
    query, score, docs = _random_rows(rng, 50, 40, np.round(rng.normal(size=30), 2))
    # trec_eval's order: doc ids descending as strings ("d9" > "d10"), then (stable) by
    # query and score descending
    by_doc = sorted(range(len(query)), key=lambda i: docs[i], reverse=True)
    ranked = np.array(sorted(by_doc, key=lambda i: (query[i], -score[i])))
    wanted = np.arange(0, len(query), 3)
    in_rank_order = _ranks(query[ranked], score[ranked], pa.array([docs[i] for i in ranked]),
                           wanted, 50)
    first = np.searchsorted(query[ranked], query[ranked][wanted])
    assert (in_rank_order == wanted - first + 1).all()
    shuffle = rng.permutation(len(query))
    back = np.argsort(shuffle)
    rows = ranked[wanted]  # original rows of the wanted positions
    got = _ranks(query[shuffle], score[shuffle], pa.array([docs[i] for i in shuffle]),
                 np.sort(back[rows]), 50)
    by_row = dict(zip(np.sort(back[rows]).tolist(), got.tolist(), strict=True))
    assert [by_row[back[r]] for r in rows] == in_rank_order.tolist()


def test_shuffled_run_file_evaluates_as_the_ranked_one(tmp_path):
    rng = np.random.default_rng(5)
    qrels, run = random_case(rng)
    lines = [f"{q} Q0 {d} 0 {s!r} t" for q, docs in run.items()
             for d, s in sorted(docs.items(), key=lambda x: (-x[1], x[0]), reverse=False)]
    ranked = tmp_path / "ranked.txt"
    ranked.write_text("\n".join(lines) + "\n")
    shuffled = tmp_path / "shuffled.txt"
    shuffled.write_text("\n".join(lines[i] for i in rng.permutation(len(lines))) + "\n")
    measures = ["AP", "nDCG@10", "RR", "P@5", "R@20", "Bpref", "infAP"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MissingQueriesWarning)
        a = evaluate(qrels, str(ranked), measures)
        b = evaluate(qrels, str(shuffled), measures)
        c = evaluate(qrels, run, measures)
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    pd.testing.assert_frame_equal(a, c, check_exact=True)


@pytest.mark.parametrize("collision", ["every key", "unjudged ids share a judged id's hash"])
def test_hash_collisions_never_change_which_rows_are_judged(monkeypatch, collision):
    # Rows are matched to judgments by 64-bit hashed keys, then checked exactly; colliding
    # hashes (which real ids almost never have) must give the same values.
    import pyarrow as pa

    from reteval.io import duplicates

    rng = np.random.default_rng(3)
    qrels = {f"q{q}": {f"d{d}": int(rng.integers(-1, 3)) for d in rng.choice(40, 8, False)}
             for q in range(6)}
    run = {f"q{q}": {f"d{d}": float(rng.integers(0, 5)) for d in rng.choice(40, 25, False)}
           for q in range(7)}
    measures = ["AP", "nDCG@10", "P@5", "RR", "NumRelRet", "bpref"]
    expected = evaluate(qrels, run, measures)
    judged = sorted({d for docs in qrels.values() for d in docs})
    real = duplicates.string_hashes

    def colliding(ids):
        ids = ids.combine_chunks() if isinstance(ids, pa.ChunkedArray) else ids
        if collision == "every key":
            return np.zeros(len(ids), dtype=np.uint64)
        values = [v if v in judged else judged[0] for v in ids.to_pylist()]
        return real(pa.array(values, type=pa.large_string()))

    monkeypatch.setattr(duplicates, "string_hashes", colliding)
    pd.testing.assert_frame_equal(evaluate(qrels, run, measures), expected, check_exact=True)
