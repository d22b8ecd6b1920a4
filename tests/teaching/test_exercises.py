"""The exercise checker: how it talks to a student, the forms it accepts, the code it runs.

Right answers are hand-computed here (or counted independently), never taken
from the checker.
"""

import hashlib
import importlib
import json
import math
import random
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from reteval.teaching.exercises import check, hints, reset

NOTEBOOKS = ("01", "02", "03", "04", "05", "06", "07", "07b", "08", "09", "10", "11")


def all_exercises():
    for nb in NOTEBOOKS:
        module = importlib.import_module(f"reteval.teaching.exercises.nb{nb}")
        yield from module.EXERCISES.items()


EXERCISE_IDS = [eid for eid, _ in all_exercises()]


@pytest.fixture(autouse=True)
def fresh_hints():
    reset()
    yield
    reset()


# --------------------------------------------------------------------------- None: ask, no hint


@pytest.mark.parametrize("exercise_id", EXERCISE_IDS)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_none_asks_for_an_answer_and_shows_no_hint(exercise_id, lang):
    verdict = check(exercise_id, None, lang=lang)
    assert not verdict and not verdict.answered and verdict.hint == 0
    assert ("还没有作答" if lang == "zh" else "Not answered yet") in verdict.message
    assert "answer = None" in verdict.message or "answer =" in verdict.message
    for hint in hints(exercise_id, lang):
        assert hint not in verdict.message
    assert "提示" not in verdict.message and "Hint" not in verdict.message
    assert repr(verdict).startswith("…")
    # asking again does not count as a wrong try: the first wrong answer still gets hint 1
    check(exercise_id, None, lang=lang)
    assert check(exercise_id, object(), lang=lang).hint == 1


# --------------------------------------------------------------------------- escalation


@pytest.mark.parametrize("exercise_id", EXERCISE_IDS)
def test_hints_escalate_with_each_wrong_answer_then_stay_on_the_last(exercise_id):
    given = hints(exercise_id, "en")
    assert len(given) >= 2, "an exercise escalates through at least two hints"
    assert len(set(given)) == len(given)
    wrong = object()  # no checker accepts this
    for i, hint in enumerate(given, 1):
        verdict = check(exercise_id, wrong, lang="en")
        assert verdict.answered and not verdict
        assert verdict.hint == i and verdict.message.endswith(hint)
        assert f"Hint {i}/{len(given)}" in verdict.message
    assert check(exercise_id, wrong, lang="en").message.endswith(given[-1])
    reset(exercise_id)
    assert check(exercise_id, wrong, lang="zh").hint == 1  # reset starts over


def test_each_exercise_counts_its_own_wrong_answers():
    assert check("01.1", 0.9).hint == 1
    assert check("01.1", 0.9).hint == 2
    assert check("03.2", 0.9).hint == 1


class Fresh:
    """An answer made anew for each check (an iterator is used up by the first)."""

    def __init__(self, make):
        self.make = make


def given(answer):
    return answer.make() if isinstance(answer, Fresh) else answer


# The right answers, hand-computed, in the forms a student might give them. No hint may
# contain any of these texts.
RIGHT = {
    "01.1": [(1 + 2 / 3 + 3 / 5) / 4, "0.5667", "0.567", 0.57, Fraction(17, 30), "17/30",
             Decimal("0.5667"), np.float64(0.56666)],
    "01.2": [["d1"], ("d1",), Fresh(lambda: iter(["d1"])), ["d1", "d9"], ["d2", "d7"]],
    "03.1": [(0.6, 0.8), ["0.6", "0.8"], (Fraction(3, 5), 4 / 5),
             Fresh(lambda: iter([0.6, 0.8])), ("60%", "80%")],
    "03.2": [9 / 14, "9/14", 0.6429, "0.64", 0.643],
    # cut after d3: precisions [1/2]; chapter 1/2 / 1, trec_eval 1/2 / 4
    "02.1": [(2, 0.125), ("2", "0.125"), [2, Fraction(1, 8)], (2.0, 0.13), (2, "0.12"),
             Fresh(lambda: iter([2, 0.125]))],
    "02.3": [0.018, "0.0180", Fraction(9, 500), "9/500", "1.8%"],  # 6 draws * 6/200 / 10
    # ranks of d3: 4, 3 (trec_eval: d4 > d3 > d2), 2; precisions with d1 (1) and d5 (3/5)
    "02.4": [(0.525, 0.5667, 0.65), ("0.53", "0.57", "0.65"),
             (Fraction(21, 40), Fraction(17, 30), Fraction(13, 20)), [0.52, 0.567, 0.650]],
    "04.1": [0.4, "0.4", "0.40", "2/5", Fraction(2, 5)],  # p_o 0.7, p_e 0.5
    "04.3": [6, 6.0, "6"],  # d1 d2 d3 | d5 | d7 d8
    "05.1": [],  # counted from the teaching collection below
    # grades 1 then 2; exponential gain: (1/log2 2 + 3/log2 3) / (3/log2 2 + 1/log2 3)
    # = 2.892789 / 3.630930 = 0.796708
    "05.3": [0.797, "0.797", 0.7967, "0.79671", 0.79670],
    "06.1": [419, 419.0, "419"],
    "06.2": ["B", "b", "(B)"],
    "07.1": [],  # drawn independently below
    # two textbook answers: the arcsine effect size h = 2 asin(sqrt .82) - 2 asin(sqrt .80)
    # = 0.051000, n = 2 (1.959964 + 0.841621)^2 / h^2 = 6035.94 -> 6036 (statsmodels
    # NormalIndPower().solve_power(h, alpha=0.05, power=0.8)); and the formula for two
    # proportions with the pooled variance under H0, p = 0.81:
    # (1.959964 sqrt(2 * 0.81 * 0.19) + 0.841621 sqrt(0.8 * 0.2 + 0.82 * 0.18))^2 / 0.02^2
    # = 6038.53 -> 6039. Each rounded either way, or one off, is accepted.
    "07b.1": [6036, 6036.0, "6036", "6,036", np.int64(6036), 6035, 6037,
             6039, 6039.0, "6039", "6,039", np.int64(6039), 6038, 6040],
    # c's top 3 are d7 d8 d2; left out of the pool (a, b: d1 d2 d3 d5) only d2 is judged
    # relevant: 1/3; contributing, d7 and d2 are: 2/3. Left out first, as the exercise asks.
    "04.4": [(1 / 3, 2 / 3), [0.33, 0.67], (Fraction(1, 3), Fraction(2, 3)), ("1/3", "2/3"),
             "1/3, 2/3", "0.33,0.67", " (0.333, 0.667) ", "1/3，2/3", "33.3%, 66.7%",
             np.array([1 / 3, 2 / 3]), {"left_out": 1 / 3, "pooled": 2 / 3},
             {"pooled": "2/3", "Left out": "1/3"}, {"不参与": 0.33, "参与": 0.67},
             {"without": 0.333, "with": 0.667}],
    "07b.2": ["B", "b", " (b) ", "B.", {"B"}],
    # Lambda = sqrt(0.2) e^3.6 = 16.3672 at a first look: the always-valid p-value 1 / Lambda
    "07b.3": [0.0611, "0.0611", 0.06110, 0.061098, "0.06109"],
    "07.2": [507, 507.0, "507"],
    # 430 wins, 370 losses, 100 ties, 300 without clicks: n = 900, (430 + 50) / 900 - 0.5 = 1/30
    "08.2": [1 / 30, "1/30", 0.033, "0.033", 0.0333, Fraction(1, 30), "0.0333"],
    # identical lists, clicks at ranks 2 and 3: rounds 1 and 2, two independent fair coins;
    # A wins when both are A's (1/4), one each is a tie (1/2)
    "08.3": [0.25, "1/4", "25%", "0.25", Fraction(1, 4), 0.250],
    "08.4": ["b", "B", " (b) ", {"B"}, "b."],
    "10.3": ["B", "b", "(B)"],
    "11.1": [(1 / 2 + 2 / 4 + 3 / 7) / 5, "0.2857", 0.286, "0.29", "2/7"],
    "11.2": [57756, 57756.0, "57756", "57,756", np.int64(57756)],
    "11.3": [{"A", "B", "C", "D"}, "A, B, C, D", "abcd".upper().replace("", " ").strip()],
    "09.1": [2, 2.0, "2"],
    "09.2": [9, 9.0, "9"],
    # or the id of an entry before the drop on day 18 (entry n is day n)
    "09.3": ["first", "First", " 'first' ", "the first entry", "第一条", "第一条记录", "首条记录",
             "earliest", 17, "17", 1],
}

WRONG = {
    "01.1": [(1 + 2 / 3 + 3 / 5) / 3, (1 + 2 / 3 + 3 / 5) / 5, 0.6, 0.5, "0.6", 1.0, True,
             "0.5667x", 10**400, -(10**400), float("inf"), float("nan"), Fraction(10**400, 3),
             Decimal("Infinity"), "inf", "1e400", [0.5667]],
    "01.2": [["d7", "d5", "d6"],  # the first hint's example of the form
             ["d1", "d2", "d3", "d4"], ["d9", "d1"], ["d1", "d2"], ["d1", "d1"], [], "d1", [1],
             Fresh(lambda: iter([]))],
    "03.1": [(0.6, 0.4), (0.4, 0.8), (0.8, 0.8), 0.6, (0.6,), "0.6, 0.8", (0.6, 10**400)],
    "03.2": [10 / 15, 9 / 15, 11 / 14, 0.5, "0.5", False, 0.6, 0.65],
    "02.1": [(1, 0.0), (6, 5 / 24), (2, 0.5), (5, 0.125), (3, 0.125), 2, (2,), "2, 0.125",
             (2, 0.125, 0)],
    "02.3": [6 * 7 / 200 / 10, 6 * 6 / 204 / 10, 0.18, 6 / 200, 0.0176],
    "02.4": [(0.65, 0.5667, 0.525), (0.525, 0.65), (0.7, 0.7556, 0.8667), (0.525, 0.525, 0.65),
             "0.525, 0.5667, 0.65"],
    # the linear gain (trec_eval's nDCG): (1 + 2/log2 3) / (2 + 1/log2 3) = 0.859719; no
    # normalisation (the DCG 2.8928); the ideal ranking's 1.0; too few decimals
    "05.3": [0.860, 0.8597, 2.893, 1.0, 0.8, "0.80", "nDCG_exp@10"],
    "07b.1": [2 * 6036, 2 * 6039, 6036.5, 3018, 6034, 6041, True, 10**400, [6036], "6036 users"],
    "04.4": [1 / 3, "1/3", 2 / 3, (2 / 3, 1 / 3), (1 / 3, 1 / 3), (0, 2 / 3), (1 / 3, 1),
             (1 / 3, 2 / 3, 1), [1 / 3], "1/3 2/3 1", {"a": 1 / 3, "b": 2 / 3},
             {"pooled": 2 / 3}, True, lambda: (1 / 3, 2 / 3), "1/3, 2/3, 1"],
    "07b.2": ["a", "c", "d", "A, B", 2, "bc"],
    # the naive p-value 2 P(Z > 3) of that look, Lambda itself, 1 / Lambda cut too short
    "07b.3": [0.0027, 16.37, 16.3672, 0.05, 1, 0.06, "0.0612", [0.0611]],
    "07.2": [254, 1000, 507.5, True],
    # no-click impressions counted in n; ties dropped; the share of wins; the wrong sign
    "08.2": [480 / 1200 - 0.5, 430 / 800 - 0.5, 430 / 900 - 0.5, 0.03, -1 / 30, True, "1/3"],
    "08.3": [0.5, 0.75, 1, 0, "1/3", 0.125],
    "08.4": ["a", "c", "d", "bc", "A, B"],
    "10.3": ["A", "C", "D", {"B", "C"}],
    "11.1": [(1 / 2 + 2 / 4 + 3 / 7) / 3, 0.3, "0.3", 0.2],
    "11.2": [14745, 2 * 57756, 57756.5, 57757, True, float("inf")],
    "11.3": [{"A", "B", "C", "D", "E"}, {"E"}, {"A", "B", "C"}, "A"],
    "09.1": [3, 2.5, 0, "two"],
    "09.2": [8, 10, 7, 5 / 8, 0.7],
    "09.3": ["latest", "last", "previous", "最新", "firstly wrong", 18, 0, 17.5],
}


@pytest.mark.parametrize("exercise_id", sorted(RIGHT))
def test_right_answers_are_accepted_in_any_reasonable_form(exercise_id):
    for answer in RIGHT[exercise_id]:
        for lang in ("zh", "en"):
            verdict = check(exercise_id, given(answer), lang=lang)
            assert verdict.correct, (exercise_id, answer, verdict)
            assert verdict.message == ("正确！" if lang == "zh" else "Correct!")


@pytest.mark.parametrize("exercise_id", sorted(WRONG))
def test_wrong_answers_are_rejected_with_a_hint_not_an_error(exercise_id):
    for answer in WRONG[exercise_id]:
        verdict = check(exercise_id, given(answer), lang="en")
        assert not verdict.correct and verdict.answered, (exercise_id, answer)
        assert "Hint" in verdict.message
        assert "提示" in check(exercise_id, given(answer), lang="zh").message


def test_a_draw_is_accepted_as_printed():
    generator = random.Random("user42")
    used, next_draw = generator.random(), generator.random()
    cut = str(math.floor(next_draw * 1e4) / 1e4)
    for answer in (next_draw, round(next_draw, 4), f"{next_draw:.4f}", cut):
        assert check("07.1", answer), answer
    assert not check("07.1", used)
    assert not check("07.1", round(next_draw, 2))  # fewer decimals than asked for


def test_hints_never_state_the_answer():
    for exercise_id, _ in all_exercises():
        said = " ".join(hints(exercise_id, "zh") + hints(exercise_id, "en"))
        for answer in RIGHT.get(exercise_id, []):
            if isinstance(answer, (list, tuple)) and all(isinstance(a, str) for a in answer):
                for text in (json.dumps(list(answer)), repr(list(answer)), repr(tuple(answer))):
                    assert text not in said, (exercise_id, text)  # a list of doc ids
            if isinstance(answer, str) and len(answer.strip(" '()")) > 1:
                assert answer.strip(" '()") not in said, (exercise_id, answer)
            elif isinstance(answer, (int, float)) and not isinstance(answer, bool):
                for text in {str(answer), f"{answer:.4f}", f"{answer:.3f}", f"{answer:,}"}:
                    if text not in ("2", "9"):  # digits that occur in any text
                        assert text not in said, (exercise_id, text)
    # the short answers: not written out next to the word "answer"
    for exercise_id, answer in (("09.1", "2"), ("09.2", "9"), ("07b.2", "B"), ("08.4", "B"),
                                ("10.3", "B")):
        said = " ".join(hints(exercise_id, "en"))
        assert f"answer is {answer}" not in said.lower().replace("the answer is one", "")


def test_the_help_of_the_checks_uses_no_exercise_answer_as_its_example():
    from paths import ROOT

    import reteval.teaching.exercises as machinery

    help_texts = [machinery.__doc__, machinery.whole_number.__doc__, machinery.number.__doc__,
                  (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")]
    whole = {a for answers in RIGHT.values() for a in answers
             if isinstance(a, int) and not isinstance(a, bool) and a >= 100}
    assert 57756 in whole  # 11.2's answer, once the example of a whole number
    for answer in whole:
        for text in help_texts:
            assert str(answer) not in text and f"{answer:,}" not in text, answer


def test_the_01_2_hint_shows_the_form_of_an_answer_that_is_not_one():
    first = hints("01.2", "en")[0]
    assert '["d7", "d5", "d6"]' in first and '["d7", "d5", "d6"]' in hints("01.2", "zh")[0]
    assert not check("01.2", ["d7", "d5", "d6"])


# --------------------------------------------------------------------------- the wrong kind


@pytest.mark.parametrize(("exercise_id", "answer", "en", "zh"), [
    ("01.2", "d1",
     'This exercise expects a list of doc ids, such as ["d5", "d6"]; your answer is of type str.',
     '这道题要的是一个文档编号 的列表，例如 ["d5", "d6"]，你给的是 str'),
    ("01.3", 0.5,
     ("This exercise expects a function (answer = your_function, no parentheses); your answer "
      "is of type float."),
     "这道题要的是一个函数（answer = 函数名，不加括号），你给的是 float"),
    ("10.4", {"ndcg@10": ["bm25"]},
     ("This exercise expects a function (answer = your_function, no parentheses); your answer "
      "is of type dict."),
     "你给的是 dict 类型的值"),
    ("07b.1", [6036], "This exercise expects a number; your answer is of type list.",
     "这道题要的是一个数，你给的是 list 类型的值。"),
    ("11.2", print,
     "This exercise expects a number; your answer is of type builtin_function_or_method.",
     "这道题要的是一个数"),
    ("04.1", {"kappa": 0.4}, "This exercise expects a number; your answer is of type dict.",
     "你给的是 dict 类型的值"),
    ("04.4", [0.33],
     "This exercise expects a pair of numbers, such as (0.1, 0.2); your answer is of type list.",
     "这道题要的是一对数"),
    ("09.3", ["first"], "This exercise expects a word (a string); your answer is of type list.",
     "这道题要的是一个词（字符串）"),
    ("07b.2", 2, 'This exercise expects option letters, such as "B"; your answer is of type int.',
     "这道题要的是选项字母"),
    ("10.2", "precision@1",
     ('This exercise expects a collection of column names, such as {"recall@5"}; your answer '
      "is of type str."),
     "这道题要的是列名的集合"),
    ("05.3", ["nDCG@10"],
     "This exercise expects a number; your answer is of type list.",
     "这道题要的是一个数"),
])
def test_an_answer_of_the_wrong_kind_is_told_so_beside_the_hint(exercise_id, answer, en, zh):
    verdict = check(exercise_id, answer, lang="en")
    assert not verdict and verdict.answered and verdict.hint == 1
    assert verdict.message.startswith(f"Not yet. {en} Hint 1/"), verdict.message
    said = check(exercise_id, answer, lang="zh").message
    assert said.startswith("还不对。这道题要的是") and zh in said and "提示 2/" in said, said


def test_a_function_returning_the_wrong_kind_is_told_so():
    verdict = check("01.3", lambda ranking, relevant: [0.5], lang="en")
    assert "Your function should return a number; it returned a value of type list." \
        in verdict.message
    assert "你的函数应当返回一个数，它返回的是 NoneType 类型的值。" in \
        check("04.5", lambda a, b: None).message
    verdict = check("10.4", lambda results: sorted(results), lang="en")
    assert "Your function should return a dict; it returned a value of type list." \
        in verdict.message
    # a function that fails is still told which hidden case it failed on
    assert 'On the hidden table "a table without ties" your function raised ZeroDivisionError' \
        in check("10.4", lambda results: 1 / 0, lang="en").message


def test_07b_1_tells_a_total_of_both_variants_and_04_4_a_single_number_or_a_swap():
    for total in (2 * 6036, 2 * 6039, 12077):
        verdict = check("07b.1", total, lang="en")
        assert not verdict and "That counts both variants together" in verdict.message
    assert "两组合计" in check("07b.1", 12072).message
    reset("07b.1")
    first = check("07b.1", 6041, lang="en").message
    assert "Hint 1/3: The answer is a whole number. How does section 2 go from" in first
    assert "The usual formula for two proportions (pooled variance under the null)" in first
    said = [check("04.4", answer, lang="en").message
            for answer in (1 / 3, "0.33", (2 / 3, 1 / 3), {"a": 1 / 3, "b": 2 / 3})]
    assert "The exercise asks for two numbers" in said[0]
    assert "The exercise asks for two numbers" in said[1]
    assert "The order is reversed" in said[2]
    assert "The dict's two keys must say which case each is" in said[3]
    assert "这道题要两个数" in check("04.4", 1 / 3).message
    assert hints("04.4", "en")[0].startswith("The answer is a pair")


# --------------------------------------------------------------------------- computed on data


def test_02_2_runs_the_students_duplicate_check_on_hidden_lists():
    def duplicate_ranks(ranking):
        seen = {}
        for rank, doc in enumerate(ranking, 1):
            if doc in seen:
                return seen[doc], rank
            seen[doc] = rank
        return None

    assert duplicate_ranks(["a", "b", "a"]) == (1, 3)  # the example of the exercise
    assert check("02.2", duplicate_ranks)
    assert check("02.2", lambda r: list(duplicate_ranks(r) or []) or None)  # a list is a pair too

    def from_zero(ranking):
        found = duplicate_ranks(ranking)
        return None if found is None else (found[0] - 1, found[1] - 1)

    verdict = check("02.2", from_zero, lang="en")
    assert not verdict and "a copy right after its original" in verdict.message

    def first_listed(ranking):  # the first document that has a copy, not the first copy found
        for rank, doc in enumerate(ranking, 1):
            if doc in ranking[rank:]:
                return rank, ranking.index(doc, rank) + 1
        return None

    verdict = check("02.2", first_listed, lang="en")
    assert not verdict and "two documents repeated" in verdict.message

    def case_blind(ranking):
        return duplicate_ranks([doc.lower() for doc in ranking])

    verdict = check("02.2", case_blind, lang="zh")
    assert not verdict and "只有大小写不同" in verdict.message

    def crashes_when_empty(ranking):
        ranking[0]  # IndexError on []
        return duplicate_ranks(ranking)

    verdict = check("02.2", crashes_when_empty, lang="en")
    assert not verdict and "raised IndexError" in verdict.message
    assert not check("02.2", (1, 3))
    assert "写出题目要求的函数" in check("02.2", None).message


@pytest.mark.slow
def test_02_1_counts_short_bm25_lists_on_the_teaching_collection():
    import reteval
    from reteval.datasets import load
    from reteval.retrievers import make_retriever

    collection = load("teaching")
    run = make_retriever("bm25", collection.corpus).run(collection.queries, k=100)
    per_query = run.groupby("query_id").size().reindex(list(collection.queries), fill_value=0)
    short = int((per_query < 5).sum())
    assert short == 5  # NumRet, sorted: 2, 3, 3, 3, 4, 5, 5, 6, ... (counted by hand)
    for answer in (short, float(short), str(short)):
        assert check("05.1", answer)
    assert not check("05.1", short + 1) and not check("05.1", 100)
    assert not check("05.1", reteval.evaluate(collection.qrels, run, ["NumRet"])["NumRet"].mean())


# --------------------------------------------------------------------------- code exercises


def trec_ap(retrieved_docs, relevant_docs):
    hits, total = 0, 0.0
    for rank, doc in enumerate(retrieved_docs, 1):
        if doc in relevant_docs:
            hits += 1
            total += hits / rank
    return total / len(relevant_docs) if relevant_docs else 0.0


def test_01_3_runs_the_students_average_precision_on_hidden_cases():
    from reteval.teaching.chapter_metrics import average_precision

    assert check("01.3", trec_ap)
    verdict = check("01.3", average_precision, lang="en")  # the chapter's own, uncorrected
    assert not verdict and "hidden case" in verdict.message and "Hint 1/3" in verdict.message

    def crashes_without_relevant(retrieved, relevant):
        share = len(relevant) / len(relevant)  # ZeroDivisionError on a query with none
        return share * trec_ap(retrieved, relevant)

    verdict = check("01.3", crashes_without_relevant, lang="en")
    assert not verdict and "ZeroDivisionError" in verdict.message
    assert not check("01.3", lambda r, rel: 0.5)
    assert not check("01.3", 0.5)
    assert "写出题目要求的函数" in check("01.3", None).message


def context_precision(relevant):
    hits, total = 0, 0.0
    for rank, is_relevant in enumerate(relevant, 1):
        if is_relevant:
            hits += 1
            total += hits / rank
    return total / hits if hits else 0.0


def test_03_3_runs_the_students_context_precision_on_hidden_cases():
    # hand-computed: relevant at ranks 3 and 4 of 5 gives (1/3 + 2/4) / 2
    assert context_precision([False, False, True, True, False]) == pytest.approx(5 / 12)
    assert check("03.3", context_precision)

    def over_the_list_length(relevant):  # divides by K, not by the relevant contexts
        hits, total = 0, 0.0
        for rank, is_relevant in enumerate(relevant, 1):
            hits += bool(is_relevant)
            total += hits / rank if is_relevant else 0.0
        return total / len(relevant) if relevant else 0.0

    verdict = check("03.3", over_the_list_length, lang="en")
    assert not verdict and "hidden case" in verdict.message and "Hint 1/3" in verdict.message

    def crashes_without_relevant(relevant):
        hits = sum(relevant)
        return sum(sum(relevant[:k]) / k for k, r in enumerate(relevant, 1) if r) / hits

    verdict = check("03.3", crashes_without_relevant, lang="en")
    assert not verdict and "ZeroDivisionError" in verdict.message
    assert not check("03.3", lambda relevant: 1.0)
    assert not check("03.3", 1.0)
    assert "写出题目要求的函数" in check("03.3", None).message


def top_k(run, k):
    ordered = run.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, False])
    return ordered.groupby("query_id").head(k)


def test_05_5_runs_the_students_top_k_on_hidden_runs():
    assert check("05.4", top_k)

    def ties_the_wrong_way(run, k):
        ordered = run.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, True])
        return ordered.groupby("query_id").head(k)

    def file_order(run, k):
        return run.groupby("query_id").head(k)

    for wrong in (ties_the_wrong_way, file_order, lambda run, k: run.head(k), lambda run, k: None):
        verdict = check("05.4", wrong, lang="en")
        assert not verdict and "hidden run" in verdict.message
    assert not check("05.4", pd.DataFrame())


def two_way_effect_size(scores, system, other):
    x = scores.to_numpy(dtype=float)
    residuals = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0) + x.mean()
    v_e = (residuals**2).sum() / ((x.shape[0] - 1) * (x.shape[1] - 1))
    return (scores[system].mean() - scores[other].mean()) / math.sqrt(v_e)


def test_06_4_runs_the_students_effect_size_on_hidden_tables():
    # By hand: with two systems V_E is half the variance of the differences (1, 2, 0): 1/2,
    # so the effect size is 1 / sqrt(1/2) = sqrt(2).
    two = pd.DataFrame({"a": [1.0, 3.0, 2.0], "b": [2.0, 5.0, 2.0]})
    assert two_way_effect_size(two, "b", "a") == pytest.approx(math.sqrt(2))
    assert check("06.4", two_way_effect_size)

    def cohen_d_z(scores, system, other):
        d = scores[system] - scores[other]
        return d.mean() / d.std(ddof=1)

    def one_way(scores, system, other):  # query effects left in the noise
        x = scores.to_numpy(dtype=float)
        v = ((x - x.mean(axis=0)) ** 2).sum() / (x.size - x.shape[1])
        return (scores[system].mean() - scores[other].mean()) / math.sqrt(v)

    def the_pair_only(scores, system, other):
        return two_way_effect_size(scores[[system, other]], system, other)

    def unsigned(scores, system, other):
        return abs(two_way_effect_size(scores, system, other))

    for wrong in (cohen_d_z, one_way, the_pair_only, unsigned):
        verdict = check("06.4", wrong, lang="en")
        assert not verdict and "hidden score table" in verdict.message, wrong
    verdict = check("06.4", lambda s, a, b: None, lang="en")
    assert not verdict and "should return a number; it returned a value of type NoneType" \
        in verdict.message
    assert not check("06.4", 1.05)


def hashed_assignment(user_id, experiment):
    digest = hashlib.sha256(f"{experiment}:{user_id}".encode()).digest()
    return "A" if int.from_bytes(digest[:8], "big") / 2**64 < 0.5 else "B"


def test_03_5_runs_the_students_assignment_on_hidden_users():
    assert check("07.3", hashed_assignment)

    def user_only(user_id, experiment):
        return hashed_assignment(user_id, "one experiment")

    def reseeds(user_id, experiment):
        random.seed(f"{experiment}:{user_id}")
        return "A" if random.random() < 0.5 else "B"

    def process_hash(user_id, experiment):
        return "A" if hash((experiment, user_id, "salt")) % 2 else "B"

    def lopsided(user_id, experiment):
        return "B" if hashed_assignment(user_id, experiment) == "B" or user_id[-1] in "37" else "A"

    def coin(user_id, experiment):
        return "A" if np.random.default_rng().random() < 0.5 else "B"

    expected = {
        user_only: "experiment is not part of the hash",
        reseeds: "global state of the random module",
        process_hash: "hash()",
        lopsided: "too far from one half",
        coin: "two different groups",
    }
    state = random.getstate()
    for function, message in expected.items():
        verdict = check("07.3", function, lang="en")
        assert not verdict and message in verdict.message, (function.__name__, verdict)
    assert random.getstate() == state  # the check leaves the student's random state alone


def team_draft_winner(docs, teams, clicked):
    team = dict(zip(docs, teams, strict=True))
    wins = sum(team[doc] == "A" for doc in clicked)
    losses = len(clicked) - wins
    if wins != losses:
        return "A" if wins > losses else "B"
    return "tie" if wins else "none"


def test_08_1_runs_the_students_team_draft_credit_on_hidden_impressions():
    # the reference above, on impressions worked out by hand
    docs, teams = ["a", "b", "c", "d", "e"], ["B", "A", "A", "B", "A"]
    assert team_draft_winner(docs, teams, ["c"]) == "A"
    assert team_draft_winner(docs, teams, ["a", "d", "e"]) == "B"
    assert team_draft_winner(docs, teams, ["d", "b"]) == "tie"
    assert team_draft_winner(docs, teams, []) == "none"
    assert check("08.1", team_draft_winner)

    def ties_without_clicks(docs, teams, clicked):
        outcome = team_draft_winner(docs, teams, clicked)
        return "tie" if outcome == "none" else outcome

    def no_ties(docs, teams, clicked):
        team = dict(zip(docs, teams, strict=True))
        wins = sum(team[doc] == "A" for doc in clicked)
        return "none" if not clicked else ("A" if 2 * wins >= len(clicked) else "B")

    def by_position(docs, teams, clicked):  # credits the clicked rank's team in the other order
        team = dict(zip(docs, reversed(teams), strict=True))
        return team_draft_winner(docs, [team[d] for d in docs], clicked)

    def first_click_only(docs, teams, clicked):
        return team_draft_winner(docs, teams, sorted(clicked, key=docs.index)[:1])

    def numbers(docs, teams, clicked):
        return {"A": 1, "B": -1, "tie": 0, "none": None}[team_draft_winner(docs, teams, clicked)]

    expected = {
        ties_without_clicks: "without any click",
        no_ties: "as many clicks (not zero)",
        by_position: "wrong winner",
        first_click_only: "as many clicks (not zero)",  # the hidden ties come before the rest
        numbers: 'one of "A", "B", "tie" and "none"',
    }
    for function, message in expected.items():
        verdict = check("08.1", function, lang="en")
        assert not verdict and message in verdict.message, (function.__name__, verdict)
    crash = check("08.1", lambda docs, teams, clicked: docs[len(docs)], lang="zh")
    assert not crash and "IndexError" in crash.message


def run_once(evaluation, history_file):
    results = evaluation.run_evaluation()
    with open(history_file, "a", encoding="utf-8") as stream:
        stream.write(json.dumps({"timestamp": evaluation.clock().isoformat(),
                                 "recall@5": results["recall@5"]}) + "\n")
    return results


def test_06_4_runs_the_students_one_shot_evaluation_on_hidden_days():
    assert check("09.4", run_once)

    def loops(evaluation, history_file):
        evaluation.start_scheduled_evaluation(interval_hours=24)

    def swallows(evaluation, history_file):
        try:
            return run_once(evaluation, history_file)
        except RuntimeError:
            return None

    def forgets(evaluation, history_file):
        return evaluation.run_evaluation()

    def overwrites(evaluation, history_file):
        results = evaluation.run_evaluation()
        with open(history_file, "w", encoding="utf-8") as stream:
            stream.write(json.dumps({"timestamp": "t", "recall@5": results["recall@5"]}) + "\n")
        return results

    def writes_first(evaluation, history_file):
        with open(history_file, "a", encoding="utf-8") as stream:
            stream.write(json.dumps({"timestamp": "t", "recall@5": None}) + "\n")
        return run_once(evaluation, history_file)

    expected = {loops: "waits", swallows: "does not raise", forgets: "history file",
                overwrites: "history file", writes_first: "history file"}
    for function, message in expected.items():
        verdict = check("09.4", function, lang="en")
        assert not verdict and message in verdict.message, (function.__name__, verdict)


def kappa_by_hand(a, b):
    """Cohen's kappa: observed agreement against the product of the two assessors' shares."""
    n = len(a)
    observed = sum(x == y for x, y in zip(a, b, strict=True)) / n
    chance = sum(a.count(g) * b.count(g) for g in set(a)) / n**2
    return (observed - chance) / (1 - chance)


def test_04_5_runs_the_students_kappa_on_hidden_judgments():
    assert check("04.5", kappa_by_hand)
    assert kappa_by_hand([1, 1, 1, 1, 1, 0, 0, 0, 0, 0], [1, 1, 1, 1, 0, 1, 1, 0, 0, 0]) == \
        pytest.approx(0.4)  # exercise 04.1, by hand in the solutions

    def percent_agreement(a, b):  # chance not removed
        return sum(x == y for x, y in zip(a, b, strict=True)) / len(a)

    def binary(a, b):  # grades >= 1 taken as relevant: right for binary grades only
        n = len(a)
        p_a, p_b = sum(x >= 1 for x in a) / n, sum(y >= 1 for y in b) / n
        chance = p_a * p_b + (1 - p_a) * (1 - p_b)
        return (percent_agreement(a, b) - chance) / (1 - chance)

    def uniform_chance(a, b):  # chance as if every grade were equally likely
        chance = 1 / len(set(a) | set(b))
        return (percent_agreement(a, b) - chance) / (1 - chance)

    expected = {percent_agreement: "binary grades", binary: "grades 0–3",
                uniform_chance: "binary grades", lambda a, b: a[0] / 0: "ZeroDivisionError"}
    for function, message in expected.items():
        verdict = check("04.5", function, lang="en")
        assert not verdict and message in verdict.message, verdict
    assert not check("04.5", 0.4) and not check("04.5", lambda a, b: "0.4")


def best_by_hand(results):
    """Every retriever that reaches a measure's highest mean."""
    measures = next(iter(results.values()))
    return {m: [s for s, row in results.items() if row[m] == max(r[m] for r in results.values())]
            for m in measures}


def test_10_4_runs_the_students_best_retrievers_on_hidden_tables():
    assert check("10.4", best_by_hand)
    assert check("10.4", lambda results: {m: set(n) for m, n in best_by_hand(results).items()})

    def by_idxmax(results):  # the chapter's way: the first of a tie
        frame = pd.DataFrame(results).T
        return {m: [frame[m].idxmax()] for m in frame.columns}

    def running_max(results):  # starts at 0, so a column of zeros never gets a best retriever
        best = {}
        for name, row in results.items():
            for m, value in row.items():
                if value > best.get(m, (0.0, []))[0]:
                    best[m] = (value, [name])
                elif m in best and value == best[m][0]:
                    best[m][1].append(name)
        return {m: names for m, (_, names) in best.items()}

    def every_tie(results):  # every tied retriever, also below the top
        frame = pd.DataFrame(results).T
        return {m: [s for s in frame.index if (frame[m] == frame.at[s, m]).sum() > 1]
                or [frame[m].idxmax()] for m in frame.columns}

    expected = {by_idxmax: "two retrievers tied first", running_max: "a column of zeros",
                every_tie: "a tie for second place only"}
    for function, message in expected.items():
        verdict = check("10.4", function, lang="en")
        assert not verdict and message in verdict.message, verdict
    assert not check("10.4", {"A", "B", "C"}) and not check("10.4", "best_retrievers")


@pytest.mark.parametrize("decimals", [2, 3, 4])
def test_10_4_rejects_a_function_that_rounds_and_so_invents_ties(decimals):
    def rounded(results):
        frame = pd.DataFrame(results).T.round(decimals)
        return {m: [s for s in frame.index if frame.at[s, m] == frame[m].max()]
                for m in frame.columns}

    # the rounding is the only fault: on a table whose means have 2 decimals it is right
    two_decimals = {"bm25": {"mrr": 0.61, "ndcg@5": 0.62}, "vector": {"mrr": 0.61, "ndcg@5": 0.66}}
    assert rounded(two_decimals) == {"mrr": ["bm25", "vector"], "ndcg@5": ["vector"]}
    verdict = check("10.4", rounded, lang="en")
    assert not verdict
    assert 'On the hidden table "two means that differ only in the 5th decimal"' in verdict.message
    assert "只在第 5 位小数上不同" in check("10.4", rounded).message

    def close_enough(results):  # a tolerance invents the same ties
        frame = pd.DataFrame(results).T
        return {m: [s for s in frame.index if math.isclose(frame.at[s, m], frame[m].max(),
                                                           abs_tol=1e-4)]
                for m in frame.columns}

    assert not check("10.4", close_enough)


@pytest.mark.slow
@pytest.mark.parametrize("exercise_id", EXERCISE_IDS)
def test_no_answer_makes_check_raise(exercise_id):
    odd = [10**400, -(10**400), Fraction(10**400, 3), float("inf"), float("nan"), Decimal("NaN"),
           "", "   ", "1e999", [10**400], (float("inf"), 1), {"a": 1}, b"0.5", object(),
           np.array([1.0, 2.0]), pd.DataFrame()]
    for answer in odd:
        verdict = check(exercise_id, answer, lang="en")
        assert not verdict and verdict.answered, (exercise_id, answer)
