"""reteval.failures: the judged queries with a relevant document and none in the top k.

Expected rows by hand; on random data, the set of failed queries is checked against
pytrec_eval's success_k (a query fails exactly when its Success@k is 0).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import reteval
from reteval.errors import InputError


def test_failures_by_hand():
    qrels = {
        "7": {"a": 1, "b": 0},            # a at rank 4 (ties: c and b at 0.5, c first)
        "10": {"a": 2, "z": 1},           # never retrieved
        "3": {"a": 1},                    # a at rank 1: not a failure
        "4": {"b": 0},                    # nothing relevant: not counted
        "5": {"a": 1, "b": 1, "c": 1},    # not in the run at all
        "6": {"a": 1},                    # a at rank 4, like query 7
    }
    run = pd.DataFrame({
        "query_id": ["7"] * 4 + ["10"] * 2 + ["3"] + ["6"] * 4,
        "doc_id": ["x", "b", "c", "a", "x", "y", "a", "p", "q", "r", "a"],
        "score": [0.9, 0.5, 0.5, 0.1, 1.0, 0.5, 1.0, 4.0, 3.0, 2.0, 1.0],
    })
    got = reteval.failures(qrels, run, k=3)
    assert got.index.name == "query_id"
    assert list(got.columns) == ["first_relevant_rank", "num_relevant", "num_retrieved"]
    # never found first (10 and 5, by query id as text: "10" < "5"), then rank 4 (6, 7)
    assert got.index.tolist() == ["10", "5", "6", "7"]
    assert got["first_relevant_rank"].tolist() == [pd.NA, pd.NA, 4, 4]
    assert got["first_relevant_rank"].dtype == "Int64"
    assert got["num_relevant"].tolist() == [2, 3, 1, 1]
    assert got["num_retrieved"].tolist() == [2, 0, 4, 4]
    # a deeper cutoff keeps only the never-found
    assert reteval.failures(qrels, run, k=4).index.tolist() == ["10", "5"]


def test_relevance_level():
    qrels = {"q1": {"a": 1, "b": 2}}
    run = {"q1": ["x", "a", "b"]}
    assert reteval.failures(qrels, run, k=1)["first_relevant_rank"].tolist() == [2]
    # only b counts at level 2: first relevant at 3, one relevant document
    got = reteval.failures(qrels, run, k=2, relevance_level=2)
    assert got.to_dict("list") == {"first_relevant_rank": [3], "num_relevant": [1],
                                   "num_retrieved": [3]}


def test_no_failure_gives_an_empty_table():
    got = reteval.failures({"q1": {"a": 1}}, {"q1": ["a"]}, k=1)
    assert got.empty
    assert list(got.columns) == ["first_relevant_rank", "num_relevant", "num_retrieved"]


def test_failed_queries_are_those_with_success_zero():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(3)
    qrels, run = {}, {}
    for q in range(40):
        docs = [f"d{i}" for i in range(30)]
        qrels[f"q{q}"] = {d: int(rng.integers(0, 3)) for d in rng.choice(docs, 5, replace=False)}
        if q % 7:  # some queries not answered
            run[f"q{q}"] = {d: float(s) for d, s in zip(rng.choice(docs, 12, replace=False),
                                                         rng.integers(0, 6, 12), strict=True)}
    for k, level in ((1, 1), (5, 1), (5, 2)):
        # pytrec_eval: RelevanceEvaluator(qrels, {"success"}, relevance_level=level)
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"success"}, relevance_level=level)
        scores = evaluator.evaluate(run)
        has_relevant = {q for q, docs in qrels.items() if max(docs.values()) >= level}
        expected = {q for q in has_relevant if scores.get(q, {}).get(f"success_{k}", 0) == 0}
        got = reteval.failures(qrels, run, k=k, relevance_level=level)
        assert set(got.index) == expected
        assert got["first_relevant_rank"].dropna().gt(k).all()


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"k": 0}, "k must be a positive integer; got 0"),
    ({"k": 2.5}, "k must be a positive integer; got 2.5"),
    ({"relevance_level": float("nan")}, "relevance_level must be a finite number; got nan"),
])
def test_bad_options(kwargs, message):
    with pytest.raises(InputError, match=message):
        reteval.failures({"q1": {"a": 1}}, {"q1": ["a"]}, **kwargs)


def test_command_line(tmp_path, capsys):
    from reteval.cli import main

    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 a 1\nq2 0 b 1\nq3 0 c 1\nq4 0 d 0\n")
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 x 1 3 s\nq1 Q0 y 2 2 s\nq1 Q0 a 3 1 s\nq2 Q0 b 1 1 s\n")
    assert main(["failures", str(qrels), str(run), "-k", "2"]) == 0
    captured = capsys.readouterr()
    # q3: never retrieved (first); q1: a at rank 3; q2 found at 1; q4 has nothing relevant
    assert captured.out.splitlines() == [
        "query_id  first_relevant_rank  num_relevant  num_retrieved",
        "q3                          -             1              0",
        "q1                          3             1              3",
    ]
    assert "2 judged queries with no relevant document in the top 2" in captured.err
    assert main(["failures", str(qrels), str(run), "-k", "3", "--format", "csv"]) == 0
    assert capsys.readouterr().out == ("query_id,first_relevant_rank,num_relevant,"
                                       "num_retrieved\nq3,,1,0\n")
    assert main(["failures", str(qrels), str(tmp_path / "missing.txt")]) == 2
    assert "no such file" in capsys.readouterr().err
