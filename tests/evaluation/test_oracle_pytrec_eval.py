"""Differential tests against pytrec_eval (trec_eval's C code), on random runs.

Runs have heavy score ties, graded and negative judgments, unjudged documents,
judged queries missing from the run and run queries without judgments. pytrec_eval
compares scores in float32, so every generated score is exactly representable in
float32 (multiples of 1/8).

trec_eval (and so pytrec_eval) crashes on a query whose judgments are all negative
(it sizes an array by the largest relevance value), so every generated query has at
least one judgment >= 0; reteval's answer for that case (0 on every measure) is
checked in test_metrics.py.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reteval import evaluate

pytrec_eval = pytest.importorskip("pytrec_eval")

# pytrec_eval measure -> reteval measure
MEASURES = {
    "map": "AP", "map_cut_5": "AP@5", "P_5": "P@5", "P_10": "P@10", "recall_5": "R@5",
    "recall_100": "R@100", "recip_rank": "RR", "ndcg": "nDCG", "ndcg_cut_3": "nDCG@3",
    "ndcg_cut_10": "nDCG@10", "Rprec": "Rprec", "bpref": "Bpref", "success_1": "Success@1",
    "success_5": "Success@5", "num_ret": "NumRet", "num_rel": "NumRel", "num_rel_ret": "NumRelRet",
}
# Short ids with shared prefixes so that string order differs from numeric order.
DOC_IDS = [f"d{i}" for i in range(25)] + ["D", "d", "d01", "é"]

judgments = st.dictionaries(st.sampled_from(DOC_IDS), st.integers(-2, 4), min_size=1, max_size=15)
scores = st.dictionaries(
    st.sampled_from(DOC_IDS), st.integers(-8, 16).map(lambda x: x / 8), max_size=20
)


@st.composite
def cases(draw):
    query_ids = [f"q{i}" for i in range(draw(st.integers(1, 6)))]
    qrels = {q: draw(judgments) for q in query_ids}
    for docs in qrels.values():
        if max(docs.values()) < 0:
            docs[draw(st.sampled_from(DOC_IDS))] = draw(st.integers(0, 4))
    run = {q: draw(scores) for q in query_ids if draw(st.booleans()) or q == "q0"}
    if draw(st.booleans()):
        run["unjudged"] = draw(scores)
    return qrels, run


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases(), level=st.integers(1, 3))
def test_matches_pytrec_eval(case, level):
    qrels, run = case
    run = {q: docs for q, docs in run.items() if docs}
    if not run:
        return
    oracle = pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES), relevance_level=level)
    expected = oracle.evaluate(run)
    # pytrec_eval evaluates the queries that are both judged and retrieved.
    result = evaluate(qrels, run, list(MEASURES.values()), relevance_level=level, missing="skip")
    assert set(result.index) == set(expected)
    for query, values in expected.items():
        for trec_name, name in MEASURES.items():
            assert result.loc[query, name] == pytest.approx(values[trec_name], abs=1e-9), (
                f"{name} on {query}"
            )


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases(), seed=st.integers(0, 2**32 - 1))
def test_ranked_and_shuffled_rows_give_pytrec_eval_values(case, seed):
    # A run written in rank order (by query, score descending, ties in any order) takes
    # reteval's no-sort path; the same rows shuffled take the general path.
    import numpy as np
    import pandas as pd

    qrels, run = case
    rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    if not rows:
        return
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])
    rng = np.random.default_rng(seed)
    shuffled = frame.sample(frac=1.0, random_state=rng)
    ranked = shuffled.sort_values(["query_id", "score"], ascending=[True, False], kind="stable")
    oracle = pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES), relevance_level=1)
    expected = oracle.evaluate({q: d for q, d in run.items() if d})
    for order in (ranked, shuffled):
        result = evaluate(qrels, order, list(MEASURES.values()), missing="skip")
        for query, values in expected.items():
            for trec_name, name in MEASURES.items():
                assert result.loc[query, name] == pytest.approx(values[trec_name], abs=1e-9)


# measures added after the first set: pytrec_eval key -> reteval measure
MORE_MEASURES = {"infAP": "infAP", "set_P": "SetP", "set_recall": "SetR", "set_F": "SetF",
                 "num_q": "NumQ"}
MORE_MEASURES.update({f"iprec_at_recall_{level:.2f}": f"IPrec@{level}"
                      for level in (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)})
ASKED = {"infAP", "set_P", "set_recall", "set_F", "num_q", "iprec_at_recall"}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases(), level=st.integers(1, 3))  # pytrec_eval refuses level 0
def test_infap_iprec_and_set_measures_match_pytrec_eval(case, level):
    # Each measure carries its own relevance level (P(rel=n) style) while the global
    # option stays 1: the per-measure level must be the one used.
    qrels, run = case
    run = {q: docs for q, docs in run.items() if docs}
    if not run:
        return
    expected = pytrec_eval.RelevanceEvaluator(qrels, ASKED, relevance_level=level).evaluate(run)
    asked = {(name.replace("@", f"(rel={level})@") if "@" in name else f"{name}(rel={level})")
             if name != "NumQ" else name: name for name in MORE_MEASURES.values()}
    result = evaluate(qrels, run, list(asked), missing="skip").rename(columns=asked)
    assert set(result.index) == set(expected)
    for query, values in expected.items():
        num_rel = sum(grade >= level for grade in qrels[query].values())
        for key, name in MORE_MEASURES.items():
            if name.startswith("IPrec") and not _same_iprec_cutoff(float(name[6:]), num_rel):
                continue
            assert result.loc[query, name] == pytest.approx(values[key], abs=1e-9), (
                f"{name} on {query} at level {level}"
            )


def _same_iprec_cutoff(level, num_rel):
    """Whether trec_eval 10 and pytrec_eval's trec_eval 9 turn a recall level into the same count.

    trec_eval 10 (whose own outputs tests/test_conformance.py checks, iprec included)
    uses lround(level * R); pytrec_eval bundles trec_eval 9, which adds 0.9 and truncates.
    """
    import math

    exact = level * num_rel
    v10 = math.floor(exact) + (exact - math.floor(exact) >= 0.5)
    return v10 == int(exact + 0.9)
