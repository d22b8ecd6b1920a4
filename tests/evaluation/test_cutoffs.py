"""Measures against their cutoff K (reteval.evaluation.cutoffs)."""

import pandas as pd
import pytest

from reteval.errors import InputError, UnknownMeasureError
from reteval.evaluation.cutoffs import cutoff_groups, measure_curves
from reteval.evaluation.engine import evaluate

QRELS = pd.DataFrame({"query_id": ["q1", "q1", "q1", "q2", "q2"],
                      "doc_id": ["d1", "d2", "d3", "d4", "d5"],
                      "relevance": [2, 1, 0, 1, 0]})
RUNS = {
    "a": {"q1": {"d1": 5.0, "x": 4.0, "d2": 3.0, "y": 2.0, "d3": 1.0},
          "q2": {"d5": 2.0, "d4": 1.0}},
    "b": {"q1": {"x": 9.0, "d2": 8.0}, "q2": {"d4": 1.0}},
}


def test_every_point_is_the_mean_of_evaluate_at_that_cutoff():
    ks = [1, 2, 3, 5, 10]
    families = ["P", "R", "nDCG", "AP"]
    curves = measure_curves(QRELS, RUNS, families, [10, 1, 5, 3, 2, 5])
    assert list(curves.index) == ks
    assert list(curves.columns) == [(f, s) for s in RUNS for f in families]
    for system, run in RUNS.items():
        for family in families:
            for k in ks:
                expected = evaluate(QRELS, run, [f"{family}@{k}"])[f"{family}@{k}"].mean()
                assert curves.loc[k, (family, system)] == pytest.approx(expected, abs=1e-15)


def test_curves_by_hand():
    curves = measure_curves(QRELS, RUNS, "P", [1, 2])
    # a: q1 d1 relevant, x not; q2 d5 not, d4 relevant.  b: q1 x not, d2 relevant; q2 d4 relevant.
    assert curves[("P", "a")].tolist() == pytest.approx([(1 + 0) / 2, (1 / 2 + 1 / 2) / 2])
    assert curves[("P", "b")].tolist() == pytest.approx([(0 + 1) / 2, (1 / 2 + 1 / 2) / 2])


@pytest.mark.parametrize("ks", [[], [0, 1], [1.5], [True], "5", None])
def test_cutoffs_must_be_positive_integers(ks):
    with pytest.raises(InputError, match="ks must be a non-empty sequence of positive integers"):
        measure_curves(QRELS, RUNS, "P", ks)


def test_families_must_take_a_cutoff():
    with pytest.raises(InputError, match="families must name at least one"):
        measure_curves(QRELS, RUNS, [], [1])
    with pytest.raises(UnknownMeasureError):
        measure_curves(QRELS, RUNS, ["nDGC"], [1])


def test_runs_must_be_a_non_empty_mapping():
    with pytest.raises(InputError, match="runs must be a non-empty mapping"):
        measure_curves(QRELS, {}, "P", [1])


def test_cutoff_groups_keep_families_at_two_or_more_cutoffs():
    names = ["P@10", "P@5", "RR", "nDCG@10", "not a measure", "IPrec@0.1", "IPrec@0.2",
             "R@100", "R@20"]
    assert cutoff_groups(names) == {"P": [(5, "P@5"), (10, "P@10")],
                                    "R": [(20, "R@20"), (100, "R@100")]}
    assert cutoff_groups([]) == {}
