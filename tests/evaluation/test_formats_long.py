"""to_long: one system's results, or several side by side."""

import math

import pandas as pd
import pytest

from reteval import evaluate, to_long
from reteval.errors import InputError

QRELS = {"q1": {"d1": 1}, "q2": {"d2": 1}}


def test_several_systems_side_by_side_give_a_system_column():
    a = evaluate(QRELS, {"q1": ["d1"], "q2": ["d9", "d2"]}, ["P@1", "RR"])
    b = evaluate(QRELS, {"q1": ["d9"], "q2": ["d2"]}, ["P@1", "RR"])
    long = to_long(pd.concat({"bm25": a, "dense": b}, axis=1))
    assert list(long.columns) == ["query_id", "system", "measure", "value"]
    got = {(r.query_id, r.system, r.measure): r.value for r in long.itertuples()}
    # by hand: bm25 finds q1's document first and q2's second; dense the reverse
    assert got == {("q1", "bm25", "P@1"): 1.0, ("q1", "bm25", "RR"): 1.0,
                   ("q2", "bm25", "P@1"): 0.0, ("q2", "bm25", "RR"): 0.5,
                   ("q1", "dense", "P@1"): 0.0, ("q1", "dense", "RR"): 0.0,
                   ("q2", "dense", "P@1"): 1.0, ("q2", "dense", "RR"): 1.0}


def test_named_column_levels_keep_their_names_and_missing_queries_are_nan():
    a = evaluate(QRELS, {"q1": ["d1"], "q2": ["d2"]}, ["RR"])
    b = a.loc[["q1"]]
    joined = pd.concat({"x": a, "y": b}, axis=1, names=["run"])
    long = to_long(joined)
    assert list(long.columns) == ["query_id", "run", "measure", "value"]
    row = long[(long["run"] == "y") & (long["query_id"] == "q2")]
    assert len(row) == 1 and math.isnan(row["value"].iloc[0])


def test_three_column_levels_are_refused():
    a = evaluate(QRELS, {"q1": ["d1"], "q2": ["d2"]}, ["RR"])
    deep = pd.concat({"s": pd.concat({"x": a}, axis=1)}, axis=1)
    with pytest.raises(InputError, match="one level of columns .* or two"):
        to_long(deep)
