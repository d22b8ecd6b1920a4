"""One query's ranked list (reteval.evaluation.ranked_lists): order, grades, ideal, values."""

import math

import pytest

from reteval.errors import InputError
from reteval.evaluation.ranked_lists import discount, ranked_list, ranked_lists

# q1: d2 and d3 tie at 0.5 (trec_eval: doc id descending, so d3 first); d4 and d6 unjudged;
#     d5 (grade 3) and d7 (grade 1) judged relevant but not retrieved.
# q2: fewer documents (2) than k (5); d9 (unjudged) and d2 tie: d9 first.
# q3: judged, absent from the run (an empty ranking).
QRELS = {"q1": {"d1": 2, "d2": 0, "d3": 1, "d5": 3, "d7": 1, "d8": 0},
         "q2": {"d1": 1, "d2": 1},
         "q3": {"d1": 1}}
RUN = {"q1": {"d1": 0.9, "d2": 0.5, "d3": 0.5, "d4": 0.4, "d6": 0.2, "d8": 0.1},
       "q2": {"d9": 0.5, "d2": 0.5},
       "q4": {"d1": 1.0}}
MEASURES = ["P@5", "RR", "AP", "nDCG@5"]
L2 = math.log2


def test_the_list_is_in_trec_eval_order_with_unjudged_documents_as_none():
    view = ranked_list(QRELS, RUN, "q1", k=5, measures=MEASURES)
    assert view.doc_ids == ("d1", "d3", "d2", "d4", "d6", "d8")
    assert view.grades == (2, 1, 0, None, None, 0)
    assert view.relevant() == (True, True, False, False, False, False)
    assert (view.num_retrieved, view.num_relevant, view.shown) == (6, 4, 5)
    assert view.judged == (3, 2, 1, 1, 0, 0)
    assert view.ideal() == (3, 2, 1, 1)


def test_values_are_the_hand_computed_ones():
    one = ranked_list(QRELS, RUN, "q1", k=5, measures=MEASURES).values
    # relevant at ranks 1 and 2 of 4 relevant; DCG: grades 2, 1 at ranks 1, 2; ideal 3, 2, 1, 1
    assert one["P@5"] == pytest.approx(2 / 5, abs=1e-12)
    assert one["RR"] == pytest.approx(1.0, abs=1e-12)
    assert one["AP"] == pytest.approx((1 / 1 + 2 / 2) / 4, abs=1e-12)
    assert one["nDCG@5"] == pytest.approx(
        (2 / L2(2) + 1 / L2(3)) / (3 / L2(2) + 2 / L2(3) + 1 / L2(4) + 1 / L2(5)), abs=1e-12)
    two = ranked_list(QRELS, RUN, "q2", k=5, measures=MEASURES).values
    # d9 (unjudged) first by the tie rule: the one relevant document retrieved is at rank 2
    assert dict(two) == pytest.approx({"P@5": 1 / 5, "RR": 1 / 2, "AP": (1 / 2) / 2,
                                       "nDCG@5": (1 / L2(3)) / (1 + 1 / L2(3))}, abs=1e-12)


def test_the_counts_behind_the_values():
    view = ranked_list(QRELS, RUN, "q1", k=5, measures=MEASURES)
    assert view.relevant_in_top(5) == 2
    assert view.first_relevant_rank() == 1
    assert view.dcg(5) == pytest.approx(2 + 1 / L2(3), abs=1e-12)
    assert view.ideal_dcg(5) == pytest.approx(3 + 2 / L2(3) + 1 / L2(4) + 1 / L2(5), abs=1e-12)
    assert view.dcg(5) / view.ideal_dcg(5) == pytest.approx(view.values["nDCG@5"], abs=1e-12)
    assert ranked_list(QRELS, RUN, "q2", k=5).first_relevant_rank() == 2


def test_discounts_are_one_over_log2_of_rank_plus_one():
    assert discount(1) == 1.0
    assert discount(3) == 0.5
    assert discount(7) == pytest.approx(1 / 3, abs=1e-15)
    assert ranked_list(QRELS, RUN, "q1", k=3).discounts() == (1.0, 1 / L2(3), 0.5)


def test_a_short_list_and_a_query_the_run_left_out():
    short = ranked_list(QRELS, RUN, "q2", k=5, measures=MEASURES)
    table = short.table()
    assert list(table.index) == [1, 2, 3, 4, 5]
    assert table["doc_id"].tolist()[:2] == ["d9", "d2"]
    assert table["doc_id"].isna().tolist() == [False, False, True, True, True]
    assert table["grade"].isna().tolist() == [True, False, True, True, True]
    assert table["ideal"].tolist() == [1, 1, 0, 0, 0]
    empty = ranked_list(QRELS, RUN, "q3", k=5, measures=MEASURES)  # no warning escapes
    assert empty.num_retrieved == 0
    assert dict(empty.values) == {"P@5": 0.0, "RR": 0.0, "AP": 0.0, "nDCG@5": 0.0}


def test_the_relevance_level_decides_what_counts_as_relevant_not_the_gains():
    view = ranked_list(QRELS, RUN, "q1", k=5, measures=MEASURES, relevance_level=2)
    assert view.relevant()[:3] == (True, False, False)
    assert view.num_relevant == 2  # d1 (2) and d5 (3)
    assert view.values["P@5"] == pytest.approx(1 / 5, abs=1e-12)
    assert view.values["AP"] == pytest.approx(1 / 2, abs=1e-12)
    assert view.values["nDCG@5"] == pytest.approx(
        ranked_list(QRELS, RUN, "q1", k=5, measures=MEASURES).values["nDCG@5"], abs=1e-12)


def test_several_queries_keep_the_order_given():
    views = ranked_lists(QRELS, RUN, ["q2", "q1"], k=2, measures=["RR"])
    assert [(v.query_id, v.values["RR"]) for v in views] == [("q2", 0.5), ("q1", 1.0)]


@pytest.mark.parametrize(("query_id", "k", "message"), [
    ("q9", 5, r"unknown query id 'q9': the qrels' queries are 'q1', 'q2', 'q3'"),
    ("q4", 5, r"unknown query id 'q4': it is in the run but has no judgments"),
    ("q1", 0, r"k must be an integer >= 1 \(the ranks shown\); got 0"),
    ("q1", 2.5, r"k must be an integer >= 1 \(the ranks shown\); got 2.5"),
    ("q1", True, r"k must be an integer >= 1 \(the ranks shown\); got True"),
])
def test_bad_input_is_refused_with_its_value(query_id, k, message):
    with pytest.raises(InputError, match=message):
        ranked_list(QRELS, RUN, query_id, k=k)


def test_bad_query_lists_and_measures_are_refused():
    with pytest.raises(InputError, match="query_ids must be a non-empty sequence"):
        ranked_lists(QRELS, RUN, [])
    with pytest.raises(InputError, match="query_ids must be a non-empty sequence"):
        ranked_lists(QRELS, RUN, "q1")
    with pytest.raises(InputError, match="query_ids lists 'q1' twice"):
        ranked_lists(QRELS, RUN, ["q1", "q2", "q1"])
    with pytest.raises(InputError, match="nDGC"):
        ranked_list(QRELS, RUN, "q1", measures=["nDGC@5"])
