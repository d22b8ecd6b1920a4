"""Tests for reteval.rag: context recall and context precision.

Every expected score is computed by hand in the comment next to it, from the
formulas

    context_recall    = supported statements / statements
    context_precision = sum_k precision@k * v_k / sum_k v_k

and, for the default judge, from the token coverage
|tokens(statement) & tokens(context)| / |tokens(statement)| >= 0.5.
"""

from __future__ import annotations

import copy
import math
import sys
import types

import numpy as np
import pandas as pd
import pytest

from reteval.errors import InputError, RetevalError, UnknownMeasureError
from reteval.rag import (
    RELEVANCE_PROMPT,
    SUPPORT_PROMPT,
    ContextJudge,
    JudgeError,
    LLMJudge,
    OverlapJudge,
    context_precision_score,
    context_recall_score,
    evaluate_contexts,
    evaluate_with_ragas,
    judge_contexts,
    parse_verdict,
    split_statements,
    tokenize,
)

# The chapter's example, verbatim.
CHAPTER = {
    "question": ["Python是什么？", "机器学习是什么？"],
    "contexts": [
        ["Python是一种编程语言", "Python广泛用于数据科学"],
        ["机器学习是AI的分支", "深度学习使用神经网络"],
    ],
    "ground_truth": ["Python是一种编程语言", "机器学习是人工智能的分支"],
}

# An English sample. Statements of the reference:
#   s1 "France is in Western Europe."  tokens {france, is, in, western, europe}   (5)
#   s2 "Its capital is Paris."         tokens {its, capital, is, paris}           (4)
#   s3 "Lyon has a Roman theatre."     tokens {lyon, has, a, roman, theatre}      (5)
# Contexts:
#   c1 {the, louvre, and, eiffel, tower, attract, millions, of, visitors}
#   c2 {france, is, a, country, in, western, europe}
#   c3 {paris, the, capital, sits, on, seine}
ENGLISH = {
    "question": ["Where is France and what is its capital?"],
    "contexts": [[
        "The Louvre and the Eiffel Tower attract millions of visitors.",
        "France is a country in Western Europe.",
        "Paris, the capital, sits on the Seine.",
    ]],
    "ground_truth": [
        "France is in Western Europe. Its capital is Paris. Lyon has a Roman theatre.",
    ],
}

# A Chinese sample. Statements (char tokens):
#   s1 "长城位于中国北方。"   {长,城,位,于,中,国,北,方}   (8)
#   s2 "它全长两万多公里！"   {它,全,长,两,万,多,公,里}   (8)
# Contexts:
#   c1 "故宫是明清两代的皇家宫殿。" {故,宫,是,明,清,两,代,的,皇,家,殿}
#   c2 "长城位于中国北方，是古代的防御工程。" {长,城,位,于,中,国,北,方,是,古,代,的,防,御,工,程}
CHINESE = {
    "question": ["长城在哪里？"],
    "contexts": [["故宫是明清两代的皇家宫殿。", "长城位于中国北方，是古代的防御工程。"]],
    "ground_truth": ["长城位于中国北方。它全长两万多公里！"],
}


# ---------------------------------------------------------------- formulas


@pytest.mark.parametrize(
    "verdicts, expected",
    [
        ([1, 0, 1], (1 / 1 + 2 / 3) / 2),  # relevant at ranks 1 and 3
        ([0, 0, 1, 1, 0], (1 / 3 + 2 / 4) / 2),  # relevant at ranks 3 and 4
        ([0, 1], 1 / 2),
        ([True, True, True], 1.0),
        ([1], 1.0),
        ([0, 0, 0], 0.0),  # no relevant context -> 0
        ([], 0.0),  # nothing retrieved -> no relevant context -> 0
    ],
)
def test_context_precision_formula(verdicts, expected):
    assert context_precision_score(verdicts) == pytest.approx(expected, abs=1e-12)


def test_context_precision_rewards_early_relevant_contexts():
    # same set of relevant contexts, moved up: (1 + 1)/2 = 1 > (1/2 + 2/3)/2
    assert context_precision_score([1, 1, 0]) > context_precision_score([0, 1, 1])


@pytest.mark.parametrize(
    "verdicts, expected",
    [([1, 0, 1, 1], 3 / 4), ([True], 1.0), ([False, False], 0.0), (np.array([1, 0]), 0.5)],
)
def test_context_recall_formula(verdicts, expected):
    assert context_recall_score(verdicts) == pytest.approx(expected, abs=1e-12)


def test_context_recall_of_no_statements_is_nan():
    assert math.isnan(context_recall_score([]))


@pytest.mark.parametrize("bad", ["yes", [1, 2], [0.5], [None], {"a": 1}, 3])
def test_formulas_reject_non_boolean_verdicts(bad):
    with pytest.raises(InputError, match="must be"):
        context_precision_score(bad)
    with pytest.raises(InputError, match="must be"):
        context_recall_score(bad)


# ---------------------------------------------------------------- text


def test_tokenize_english_case_and_punctuation():
    assert tokenize("Hello, World! It's 3.14.") == ["hello", "world", "it", "s", "3", "14"]


def test_tokenize_chinese_characters_and_full_width_forms():
    # full-width letters, digits and punctuation are folded by NFKC, then dropped
    assert tokenize("ＧＰＴ－４是模型，“很强”！") == ["gpt", "4", "是", "模", "型", "很", "强"]
    assert tokenize("《红楼梦》、《西游记》") == ["红", "楼", "梦", "西", "游", "记"]


def test_tokenize_bigrams():
    assert tokenize("机器学习", cjk="bigram") == ["机器", "器学", "学习"]
    # a one-character run stays a unigram; Latin words are untouched
    assert tokenize("用Python写", cjk="bigram") == ["用", "python", "写"]


def test_tokenize_rejects_bad_arguments():
    with pytest.raises(InputError, match="text must be a string; got int 3"):
        tokenize(3)
    with pytest.raises(InputError, match="cjk must be one of"):
        tokenize("a", cjk="word")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("机器学习是AI的分支。深度学习使用神经网络！它很强大？对",
         ["机器学习是AI的分支。", "深度学习使用神经网络！", "它很强大？", "对"]),
        ("France is in Europe. Its capital is Paris!", ["France is in Europe.",
                                                        "Its capital is Paris!"]),
        ("Pi is 3.14 exactly. Really?!  Yes.", ["Pi is 3.14 exactly.", "Really?!", "Yes."]),
        ("他说：“你好。”然后走了。", ["他说：“你好。”", "然后走了。"]),
        ('He said "stop." Then left.', ['He said "stop."', "Then left."]),
        ("first line\nsecond line", ["first line", "second line"]),
        ("版本是3.12版。", ["版本是3.12版。"]),
        ("Hi.你好", ["Hi.", "你好"]),
        ("", []),
        ("  \n 。！？ ... ", []),
    ],
)
def test_split_statements(text, expected):
    assert split_statements(text) == expected


# ---------------------------------------------------------------- default judge


def test_overlap_judge_threshold_is_inclusive():
    judge = OverlapJudge()
    # {its, capital, is, paris} vs c3: {capital, paris} -> 2/4 = 0.5 >= 0.5
    c3 = "Paris, the capital, sits on the Seine."
    assert judge.coverage(c3, "Its capital is Paris.") == 0.5
    assert judge.supports(c3, "Its capital is Paris.")
    assert not OverlapJudge(threshold=0.51).supports(c3, "Its capital is Paris.")


def test_overlap_judge_stopwords():
    # without stopwords: {the, cat} vs {the, dog}: 1/2 -> supported at 0.5
    assert OverlapJudge().supports("the dog", "the cat")
    # with "the" ignored: {cat} vs {dog}: 0/1
    assert not OverlapJudge(stopwords={"the"}).supports("the dog", "the cat")


def test_overlap_judge_is_a_context_judge():
    assert isinstance(OverlapJudge(), ContextJudge)
    assert isinstance(LLMJudge(llm=str), ContextJudge)


@pytest.mark.parametrize("t", [0, -0.1, 1.5, "0.5", None, True, float("nan")])
def test_overlap_judge_rejects_bad_threshold(t):
    with pytest.raises(InputError, match=r"threshold must be a number in \(0, 1\]"):
        OverlapJudge(threshold=t)


def test_overlap_judge_rejects_bad_options():
    with pytest.raises(InputError, match="cjk must be one of"):
        OverlapJudge(cjk="words")
    with pytest.raises(InputError, match="stopwords must be an iterable"):
        OverlapJudge(stopwords="the")
    with pytest.raises(InputError, match="stopwords must be strings"):
        OverlapJudge(stopwords=[1])


# ---------------------------------------------------------------- evaluate: hand-computed


def test_chapter_example_default_judge():
    # What the default judge (char tokens, coverage >= 0.5) decides, and why:
    # sample 0: statement "Python是一种编程语言" = {python,是,一,种,编,程,语,言} (8 tokens).
    #   recall: all 8 occur in the contexts -> supported -> 1/1 = 1.0
    #   precision: c1 covers 8/8 -> relevant; c2 {python,广,泛,用,于,数,据,科,学} covers
    #   only {python} = 1/8 -> not relevant; v = [1, 0] -> (1/1)/1 = 1.0
    # sample 1: statement "机器学习是人工智能的分支" = 12 distinct characters.
    #   c1 "机器学习是AI的分支" shares {机,器,学,习,是,的,分,支} = 8/12 = 0.67 -> supported
    #   and relevant, although "人工智能" is written "AI" there: the overlap of the rest
    #   carries it. c2 "深度学习使用神经网络" shares {学,习} = 2/12 -> not relevant.
    #   recall 1/1 = 1.0; v = [1, 0] -> precision 1.0.
    scores = evaluate_contexts(CHAPTER)
    expected = pd.DataFrame(
        {"context_recall": [1.0, 1.0], "context_precision": [1.0, 1.0]},
        index=pd.RangeIndex(2, name="sample"),
    )
    pd.testing.assert_frame_equal(scores, expected)
    assert scores.mean().to_dict() == {"context_recall": 1.0, "context_precision": 1.0}


def test_chapter_example_bigram_judge_is_stricter():
    # With character pairs, sample 1's statement has 11 bigrams
    # (机器 器学 学习 习是 是人 人工 工智 智能 能的 的分 分支); c1 gives
    # {机器 器学 学习 习是 ai 的分 分支}: 6/11 = 0.545; with characters, 8/12 = 0.667.
    # At threshold 0.6 only the character judge accepts it:
    #   bigram: not supported (the joined contexts add only 学习 again), not relevant;
    #           c2 shares 学习 (1/11) -> recall 0/1 = 0, v = [0, 0] -> precision 0.
    # Sample 0 is unchanged: python + 是一 一种 种编 编程 程语 语言 = 7 tokens, 7/7 in c1
    # and 1/7 in c2 -> recall 1, precision 1.
    chars = evaluate_contexts(CHAPTER, judge=OverlapJudge(threshold=0.6))
    assert chars.to_numpy().tolist() == [[1.0, 1.0], [1.0, 1.0]]
    pairs = evaluate_contexts(CHAPTER, judge=OverlapJudge(threshold=0.6, cjk="bigram"))
    assert pairs["context_recall"].tolist() == [1.0, 0.0]
    assert pairs["context_precision"].tolist() == [1.0, 0.0]
    assert pairs.mean().tolist() == [0.5, 0.5]
    # at the default 0.5 both accept sample 1 (6/11 >= 0.5)
    assert evaluate_contexts(CHAPTER, judge=OverlapJudge(cjk="bigram")).mean().tolist() == [1, 1]


def test_bigrams_see_word_order():
    # "学习机器" vs "机器学习": same 4 characters (4/4); bigrams 学习 习机 机器 vs
    # 机器 器学 学习 share 2 of 3
    assert OverlapJudge().coverage("机器学习", "学习机器") == 1.0
    assert OverlapJudge(cjk="bigram").coverage("机器学习", "学习机器") == pytest.approx(2 / 3)


def test_english_hand_computed():
    # recall (contexts joined): s1 5/5 -> yes; s2 {capital, is, paris} 3/4 -> yes;
    #   s3 only {a} (from c2) 1/5 -> no.  recall = 2/3
    # precision: c1 covers no statement (s1 0/5, s2 0/4, s3 0/5) -> 0;
    #   c2 covers s1 5/5 -> 1; c3 covers s2 {capital, paris} 2/4 = 0.5 -> 1.
    #   v = [0, 1, 1] -> (1/2 + 2/3) / 2 = 7/12
    scores = evaluate_contexts(ENGLISH)
    assert scores.loc[0, "context_recall"] == pytest.approx(2 / 3)
    assert scores.loc[0, "context_precision"] == pytest.approx(7 / 12)
    (j,) = judge_contexts(ENGLISH)
    assert j.supported == (True, True, False)
    assert j.relevant == (False, True, True)


def test_english_hand_computed_higher_threshold():
    # threshold 0.6: c3 covers s2 only 0.5 -> not relevant; v = [0, 1, 0] -> (1/2)/1 = 0.5
    # recall unchanged: s2 in joined contexts 3/4 = 0.75 >= 0.6.
    scores = evaluate_contexts(ENGLISH, judge=OverlapJudge(threshold=0.6))
    assert scores.loc[0, "context_recall"] == pytest.approx(2 / 3)
    assert scores.loc[0, "context_precision"] == pytest.approx(0.5)


def test_chinese_hand_computed():
    # recall: s1 8/8 in c2 -> yes; s2 shares {长 (c2), 两 (c1)} = 2/8 -> no. recall = 1/2
    # precision: c1 covers s1 0/8, s2 {两} 1/8 -> 0; c2 covers s1 8/8 -> 1.
    #   v = [0, 1] -> (1/2)/1 = 0.5
    scores = evaluate_contexts(CHINESE)
    assert scores.loc[0, "context_recall"] == pytest.approx(0.5)
    assert scores.loc[0, "context_precision"] == pytest.approx(0.5)


def test_swapping_the_contexts_changes_precision_not_recall():
    # c2 first: v = [1, 0] -> 1.0; recall judges the joined contexts -> still 1/2
    data = copy.deepcopy(CHINESE)
    data["contexts"][0].reverse()
    scores = evaluate_contexts(data)
    assert scores.loc[0, "context_recall"] == pytest.approx(0.5)
    assert scores.loc[0, "context_precision"] == pytest.approx(1.0)


def test_no_relevant_context_scores_zero():
    data = {"question": ["What is the capital of France?"],
            "contexts": [["Bananas grow in bunches.", "香蕉是一种水果。"]],
            "ground_truth": ["Paris is the capital of France."]}
    scores = evaluate_contexts(data)
    assert scores.loc[0].tolist() == [0.0, 0.0]


@pytest.mark.parametrize("reference", ["", "   ", "。！", "\n"])
def test_empty_reference_gives_nan_and_mean_skips_it(reference):
    data = {"question": ["q1", "q2"],
            "contexts": [["Paris is the capital of France."], ["anything"]],
            "ground_truth": ["Paris is the capital of France.", reference]}
    scores = evaluate_contexts(data)
    assert scores.loc[0].tolist() == [1.0, 1.0]
    assert scores.loc[1].isna().all()
    # mean over the one sample that has a reference
    assert scores.mean().tolist() == [1.0, 1.0]


class CountingJudge:
    """Fake judge: says yes when the context contains the statement / reference verbatim."""

    def __init__(self):
        self.calls = []

    def supports(self, context, statement):
        self.calls.append(("supports", context, statement))
        return statement in context

    def is_relevant(self, question, context, reference):
        self.calls.append(("is_relevant", question, context, reference))
        return context in reference


def test_empty_reference_does_not_ask_the_judge():
    judge = CountingJudge()
    evaluate_contexts({"question": ["q"], "contexts": [["c"]], "ground_truth": [""]},
                      judge=judge)
    assert judge.calls == []


def test_custom_judge_receives_joined_contexts_and_each_context():
    judge = CountingJudge()
    data = {"question": ["q"], "contexts": [["A b.", "C d."]], "ground_truth": ["A b. C d. E."]}
    scores = evaluate_contexts(data, judge=judge)
    # supports: "A b." yes, "C d." yes, "E." no -> 2/3; relevant: both contexts in reference
    # -> v = [1, 1] -> 1.0
    assert scores.loc[0].tolist() == pytest.approx([2 / 3, 1.0])
    assert judge.calls == [
        ("supports", "A b.\nC d.", "A b."),
        ("supports", "A b.\nC d.", "C d."),
        ("supports", "A b.\nC d.", "E."),
        ("is_relevant", "q", "A b.", "A b. C d. E."),
        ("is_relevant", "q", "C d.", "A b. C d. E."),
    ]


def test_metrics_subset_and_order_and_only_needed_questions():
    judge = CountingJudge()
    scores = evaluate_contexts(ENGLISH, metrics=["context_recall"], judge=judge)
    assert list(scores.columns) == ["context_recall"]
    assert {c[0] for c in judge.calls} == {"supports"}
    judge = CountingJudge()
    scores = evaluate_contexts(ENGLISH, metrics="context_precision", judge=judge)
    assert list(scores.columns) == ["context_precision"]
    assert {c[0] for c in judge.calls} == {"is_relevant"}
    scores = evaluate_contexts(ENGLISH, metrics=("context_precision", "context_recall"))
    assert list(scores.columns) == ["context_precision", "context_recall"]


def test_judge_returning_non_bool_is_reported():
    class Bad:
        def supports(self, context, statement):
            return "yes"

        def is_relevant(self, question, context, reference):
            return True

    with pytest.raises(JudgeError, match=r"supports\(\) on sample 0 must return a bool; got str"):
        evaluate_contexts(ENGLISH, judge=Bad())


def test_not_a_judge():
    with pytest.raises(InputError, match="judge must have methods supports"):
        evaluate_contexts(ENGLISH, judge=lambda c, s: True)


@pytest.mark.parametrize(
    "metrics, error, message",
    [
        (["recall"], UnknownMeasureError, "unknown metric 'recall'"),
        ([], InputError, "at least one"),
        (["context_recall", "context_recall"], InputError, "must not repeat"),
        (3, InputError, "metrics must be a sequence"),
    ],
)
def test_bad_metrics(metrics, error, message):
    with pytest.raises(error, match=message):
        evaluate_contexts(ENGLISH, metrics=metrics)


# ---------------------------------------------------------------- LLM judge


@pytest.mark.parametrize(
    "answer, expected",
    [
        ("Yes", True), ("no.", False), ("**YES** - it is stated", True), ("Answer: No", False),
        ("true", True), ("False, because", False), ('{"reason": "x", "verdict": 0}', False),
        ('{"verdict": "1"}', True), ("ｙｅｓ", True), ("是的，上下文支持。", True), ("是", True),
        ("不是。", False), ("否", False), ("不能归因。", False), ("  可以", True),
    ],
)
def test_parse_verdict(answer, expected):
    assert parse_verdict(answer) is expected


@pytest.mark.parametrize("answer", ["maybe", "", "I cannot tell", "这个问题很难"])
def test_parse_verdict_unreadable(answer):
    with pytest.raises(JudgeError, match="cannot read a yes/no verdict"):
        parse_verdict(answer)


def test_parse_verdict_needs_a_string():
    with pytest.raises(JudgeError, match="must be a string; got NoneType"):
        parse_verdict(None)


def test_llm_judge_with_fake_llm_on_chapter_example():
    # A fake model that answers like a careful person would: the two "A 是 B" contexts
    # support and are useful for the references (AI = 人工智能); the others are not.
    yes_contexts = {"Python是一种编程语言", "机器学习是AI的分支"}
    prompts = []

    def fake_llm(prompt):
        prompts.append(prompt)
        context = prompt.split("Context:\n", 1)[1].split("\n\n", 1)[0]
        return "Yes." if any(c in context for c in yes_contexts) else "No, it is unrelated."

    judge = LLMJudge(llm=fake_llm)
    scores = evaluate_contexts(CHAPTER, judge=judge)
    # recall: one statement each, supported -> 1, 1
    # precision: v = [1, 0] in both samples -> 1, 1
    assert scores.to_numpy().tolist() == [[1.0, 1.0], [1.0, 1.0]]
    # 2 support questions (one statement per sample) + 4 relevance questions
    assert len(prompts) == 6
    assert prompts[0] == SUPPORT_PROMPT.format(
        context="Python是一种编程语言\nPython广泛用于数据科学", statement="Python是一种编程语言")
    # per sample: the support question, then one relevance question per context
    assert prompts[1] == RELEVANCE_PROMPT.format(
        question="Python是什么？", context="Python是一种编程语言", reference="Python是一种编程语言")


def test_llm_judge_custom_templates_and_rank_order():
    # the fake model answers from a table; templates make the prompt easy to parse
    answers = {("S", "ctx-b", "fact one."): "yes", ("S", "ctx-b", "fact two."): "no",
               ("R", "q", "ctx-a"): "no", ("R", "q", "ctx-b"): "yes", ("R", "q", "ctx-c"): "yes"}

    def fake_llm(prompt):
        parts = prompt.split("|")
        key = tuple(parts[:3])
        return answers[key]

    judge = LLMJudge(llm=fake_llm, support_prompt="S|{context}|{statement}",
                     relevance_prompt="R|{question}|{context}|{reference}")
    data = {"question": ["q"], "contexts": [["ctx-b"]], "ground_truth": ["fact one. fact two."]}
    scores = evaluate_contexts(data, judge=judge, metrics=["context_recall"])
    assert scores.loc[0, "context_recall"] == 0.5  # yes, no -> 1/2
    data = {"question": ["q"], "contexts": [["ctx-a", "ctx-b", "ctx-c"]],
            "ground_truth": ["fact one."]}
    scores = evaluate_contexts(data, judge=judge, metrics=["context_precision"])
    # v = [0, 1, 1] -> (1/2 + 2/3) / 2 = 7/12
    assert scores.loc[0, "context_precision"] == pytest.approx(7 / 12)


def test_llm_judge_unreadable_answer_raises():
    judge = LLMJudge(llm=lambda prompt: "It depends.")
    with pytest.raises(JudgeError, match="It depends"):
        evaluate_contexts(CHAPTER, judge=judge)


def test_llm_judge_rejects_bad_arguments():
    with pytest.raises(InputError, match="llm must be a callable"):
        LLMJudge(llm="gpt")
    with pytest.raises(InputError, match=r"support_prompt must use exactly the fields"):
        LLMJudge(llm=str, support_prompt="{context} only")
    with pytest.raises(InputError, match=r"relevance_prompt must use exactly the fields"):
        LLMJudge(llm=str, relevance_prompt="{question} {context} {reference} {extra}")
    with pytest.raises(InputError, match="not a valid format string"):
        LLMJudge(llm=str, support_prompt="{context} {statement")


# ---------------------------------------------------------------- input formats


def _expected_english():
    # the hand-computed scores of ENGLISH (see test_english_hand_computed)
    return pd.DataFrame({"context_recall": [2 / 3], "context_precision": [7 / 12]},
                        index=pd.RangeIndex(1, name="sample"))


def test_accepts_dataframe():
    df = pd.DataFrame(ENGLISH)
    pd.testing.assert_frame_equal(evaluate_contexts(df), _expected_english())


def test_accepts_dataframe_with_ndarray_contexts():
    df = pd.DataFrame({"question": ENGLISH["question"],
                       "contexts": [np.array(ENGLISH["contexts"][0], dtype=object)],
                       "ground_truth": ENGLISH["ground_truth"]})
    pd.testing.assert_frame_equal(evaluate_contexts(df), _expected_english())


def test_accepts_dataset_like_objects():
    class ToDict:  # like datasets.Dataset
        def to_dict(self):
            return copy.deepcopy(ENGLISH)

    class ByColumn:  # only data["column"]
        def __getitem__(self, key):
            return ENGLISH[key]

    pd.testing.assert_frame_equal(evaluate_contexts(ToDict()), _expected_english())
    pd.testing.assert_frame_equal(evaluate_contexts(ByColumn()), _expected_english())


def test_accepts_aliases():
    ragas_names = {"user_input": ENGLISH["question"], "retrieved_contexts": ENGLISH["contexts"],
                   "reference": ENGLISH["ground_truth"]}
    pd.testing.assert_frame_equal(evaluate_contexts(ragas_names), _expected_english())
    # ground_truths: a list of references per sample, joined by line breaks, so each
    # string's statements are statements of the reference
    plural = {"question": ENGLISH["question"], "contexts": ENGLISH["contexts"],
              "ground_truths": [["France is in Western Europe. Its capital is Paris.",
                                 "Lyon has a Roman theatre."]]}
    pd.testing.assert_frame_equal(evaluate_contexts(plural), _expected_english())


def test_does_not_modify_the_input():
    data = copy.deepcopy(ENGLISH)
    evaluate_contexts(data)
    assert data == ENGLISH


# ---------------------------------------------------------------- bad input


def _with(**changes):
    data = copy.deepcopy(CHAPTER)
    data.update(changes)
    return data


@pytest.mark.parametrize(
    "data, message",
    [
        (_with(contexts=[["a"]]),
         r"equal lengths; got 'question': 2, 'contexts': 1, 'ground_truth': 2"),
        (_with(contexts=[["a"], []]), r"contexts\[1\] is empty.*got list \[\]"),
        (_with(contexts=["a string", ["b"]]), (r"contexts\[0\] must be a list of strings; "
                                              r"got str 'a string'")),
        (_with(contexts=[["a", 3], ["b"]]), r"contexts\[0\]\[1\] must be a string; got int 3"),
        (_with(ground_truth=["x", None]), r"ground_truth\[1\] must be a string; got NoneType None"),
        (_with(question=["x", float("nan")]), r"question\[1\] must be a string; got float nan"),
        ({"question": [], "contexts": [], "ground_truth": []}, "no samples"),
        ({"question": ["q"], "contexts": [["c"]]}, r"no column 'ground_truth' \(also accepted"),
        (_with(reference=["a", "b"]), (r"several columns for the same role: \['ground_truth', "
                                      r"'reference'\]")),
        (_with(question="Python是什么？"), (r"column 'question' must be a list with one value "
                                          r"per sample; got str")),
        ({"question": ["q"], "contexts": [["c"]], "ground_truths": ["not a list"]},
         r"ground_truths\[0\] must be a list of strings; got str 'not a list'"),
        ([{"question": "q", "contexts": ["c"], "ground_truth": "g"}],
         r"data must be a mapping of columns.*got list.*pandas.DataFrame\(records\)"),
        ("question", "data must be a mapping of columns"),
        (42, "data must be a mapping of columns"),
    ],
)
def test_bad_input_names_sample_and_value(data, message):
    with pytest.raises(InputError, match=message):
        evaluate_contexts(data)


def test_bad_input_in_dataframe_names_sample():
    df = pd.DataFrame({"question": ["q0", "q1"], "contexts": [["a"], []],
                       "ground_truth": ["a", "b"]})
    with pytest.raises(InputError, match=r"contexts\[1\] is empty"):
        evaluate_contexts(df)


# ---------------------------------------------------------------- ragas adapter


def test_ragas_missing_gives_clear_error(monkeypatch):
    # None in sys.modules makes "import ragas" raise ImportError, as if not installed
    monkeypatch.setitem(sys.modules, "ragas", None)
    with pytest.raises(RetevalError, match=r"needs the optional package 'ragas'.*reteval\[ragas\]"):
        evaluate_with_ragas(CHAPTER)


def test_ragas_adapter_checks_input_first(monkeypatch):
    monkeypatch.setitem(sys.modules, "ragas", None)
    with pytest.raises(InputError, match=r"contexts\[1\] is empty"):
        evaluate_with_ragas(_with(contexts=[["a"], []]))


def _fake_ragas(monkeypatch, table):
    """Install a stand-in for the ragas 0.2 API surface the adapter uses."""
    calls = {}
    ragas = types.ModuleType("ragas")
    metrics = types.ModuleType("ragas.metrics")
    schema = types.ModuleType("ragas.dataset_schema")
    metrics.context_recall = "<ragas context_recall>"
    metrics.context_precision = "<ragas context_precision>"

    class EvaluationDataset:
        @classmethod
        def from_list(cls, rows):
            calls["rows"] = rows
            return "<dataset>"

    class Result:
        def to_pandas(self):
            return table

    def evaluate(dataset, *, metrics, **kwargs):
        calls["evaluate"] = (dataset, metrics, kwargs)
        return Result()

    schema.EvaluationDataset = EvaluationDataset
    ragas.evaluate = evaluate
    ragas.metrics = metrics
    ragas.dataset_schema = schema
    for name, module in [("ragas", ragas), ("ragas.metrics", metrics),
                         ("ragas.dataset_schema", schema)]:
        monkeypatch.setitem(sys.modules, name, module)
    return calls


def test_ragas_adapter_passes_samples_and_maps_columns(monkeypatch):
    table = pd.DataFrame({"user_input": ["a", "b"], "context_precision": [0.25, 1.0],
                          "context_recall": [0.5, 0.0]})
    calls = _fake_ragas(monkeypatch, table)
    scores = evaluate_with_ragas(CHAPTER, llm="<llm>", show_progress=False)
    assert calls["rows"] == [
        {"user_input": "Python是什么？",
         "retrieved_contexts": ["Python是一种编程语言", "Python广泛用于数据科学"],
         "reference": "Python是一种编程语言"},
        {"user_input": "机器学习是什么？",
         "retrieved_contexts": ["机器学习是AI的分支", "深度学习使用神经网络"],
         "reference": "机器学习是人工智能的分支"},
    ]
    assert calls["evaluate"] == ("<dataset>",
                                 ["<ragas context_recall>", "<ragas context_precision>"],
                                 {"llm": "<llm>", "show_progress": False})
    expected = pd.DataFrame({"context_recall": [0.5, 0.0], "context_precision": [0.25, 1.0]},
                            index=pd.RangeIndex(2, name="sample"))
    pd.testing.assert_frame_equal(scores, expected)


def test_ragas_adapter_reports_missing_columns(monkeypatch):
    _fake_ragas(monkeypatch, pd.DataFrame({"context_recall": [1.0, 1.0]}))
    with pytest.raises(RetevalError, match=r"expected \['context_recall', 'context_precision'\]"):
        evaluate_with_ragas(CHAPTER)
