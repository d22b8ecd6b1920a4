"""Tests for holes, llm_judge (UMBRELA's prompt) and judge(..., cache=).

The language model is a fake ``complete`` callable that records every prompt it is sent,
so the tests count the calls a cache saves. Expected grades, calls and characters are
worked out by hand in the comments.
"""

from __future__ import annotations

import re

import pandas as pd
import pytest

from reteval.errors import InputError
from reteval.judging import (
    UMBRELA_PROMPT,
    UMBRELA_PROMPT_ZH,
    JudgeError,
    JudgeWarning,
    holes,
    judge,
    llm_judge,
    parse_final_score,
)


class FakeModel:
    """Answers ``##final score: N`` with N from a table keyed by passage; records prompts."""

    def __init__(self, grades: dict[str, object], name: str = "fake-model"):
        self.grades, self.name, self.prompts = grades, name, []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        passage = re.search(r"(?:Passage: |文本：)(.*)", prompt).group(1)
        answer = self.grades[passage]
        return answer if isinstance(answer, str) else f"M: 1\nT: 1\n##final score: {answer}"


QUERIES = {"q1": "do cats purr", "q2": "why do dogs bark"}
DOCS = {"d1": "cats purr when content", "d2": "dogs bark at strangers",
        "d3": "fish swim", "d4": "cats also hiss"}
GRADES = {"cats purr when content": 3, "dogs bark at strangers": 2, "fish swim": 0,
          "cats also hiss": 1}


# ---------------------------------------------------------------- parsing the answer

@pytest.mark.parametrize(("answer", "grade"), [
    ("##final score: 2", 2),
    ("M: 2\nT: 1\nO: 2\n##final score: 1", 1),
    ("##Final Score:3", 3),
    ("## final score ： 0", 0),  # a full-width colon
    ("##final score: 1\n...on reflection\n##final score: 2", 2),  # the last one counts
    ("##final score: 7", 7),  # off the scale: judge() refuses it, not the parser
    ("**##final score: 3**", 3),  # Markdown emphasis
    ("##final score: 2.", 2),  # the sentence's full stop
    ("##final score: 1.0", 1),  # a whole number written as a float
    ("##final score：２。", 2),  # full-width digit and stop, as a Chinese answer may write them
    ("##final score: 2分", 2),  # what follows the number does not matter ...
    ("##final score: 2</s>", 2),  # ... unless it continues the number
])
def test_parse_final_score(answer, grade):
    assert parse_final_score(answer) == grade


@pytest.mark.parametrize("answer", ["2", "The passage is relevant.", "final score: 2", "",
                                    "##final score: ", "##final score: two",
                                    "##final score: nan"])
def test_parse_final_score_refuses_an_answer_without_the_marker(answer):
    with pytest.raises(JudgeError, match="the answer has no '##final score: N'"):
        parse_final_score(answer)


@pytest.mark.parametrize("grade", ["2.5", "3/3", "2,5", "1_0"])
def test_parse_final_score_refuses_a_grade_that_is_not_a_whole_number(grade):
    """2.5 is not 2 (read as the digits before the point, it was before)."""
    with pytest.raises(JudgeError, match=f"the final score '{re.escape(grade)}' is not a whole"):
        parse_final_score(f"M: 2\n##final score: {grade}")


def test_default_prompts_are_umbrela():
    # the scale, the two texts and the answer's form, in both languages
    for prompt in (UMBRELA_PROMPT, UMBRELA_PROMPT_ZH):
        assert "{query}" in prompt and "{passage}" in prompt
        assert "##final score:" in prompt
        assert "0" in prompt and "3" in prompt
    assert UMBRELA_PROMPT.startswith("Given a query and a passage, you must provide a score on "
                                     "an integer scale of 0 to 3")


def test_llm_judge_sends_the_filled_prompt():
    model = FakeModel(GRADES)
    result = judge({"q1": ["d1", "d3"]}, llm_judge(model), queries=QUERIES, docs=DOCS)
    assert result.qrels["relevance"].tolist() == [3, 0]
    assert result.qrels["judge"].tolist() == ["fake-model", "fake-model"]  # model.name
    assert len(model.prompts) == 2
    first = model.prompts[0]
    assert "Query: do cats purr\nPassage: cats purr when content\n" in first
    assert first == UMBRELA_PROMPT.replace("{query}", "do cats purr").replace(
        "{passage}", "cats purr when content")


def test_llm_judge_chinese_prompt():
    model = FakeModel({"猫高兴时会发出呼噜声": 3})
    result = judge({"q1": ["d1"]}, llm_judge(model, lang="zh", name="zh-judge"),
                   queries={"q1": "猫为什么呼噜"}, docs={"d1": "猫高兴时会发出呼噜声"})
    assert result.qrels["relevance"].tolist() == [3]
    assert "查询：猫为什么呼噜\n文本：猫高兴时会发出呼噜声" in model.prompts[0]


def test_custom_prompt_keeps_other_braces():
    model = FakeModel(GRADES)
    prompt = 'Answer as {"grade": n}. Query: {query}\nPassage: {passage}'
    judge({"q1": ["d1"]}, llm_judge(model, prompt=prompt), queries=QUERIES, docs=DOCS)
    assert model.prompts == [('Answer as {"grade": n}. Query: do cats purr\n'
                              'Passage: cats purr when content')]


def test_llm_judge_bad_options():
    with pytest.raises(InputError, match=r"missing \['\{passage\}'\]"):
        llm_judge(FakeModel({}), prompt="Query: {query}")
    with pytest.raises(InputError, match="complete must be a callable"):
        llm_judge("gpt-4o")


def test_answer_without_grade_is_a_counted_failure_never_zero():
    model = FakeModel({**GRADES, "fish swim": "I cannot tell."})
    with pytest.warns(JudgeWarning, match="1 of 3 answers"):
        result = judge({"q1": ["d1", "d3", "d4"]}, llm_judge(model), queries=QUERIES,
                       docs=DOCS, on_error="record")
    # d3 has no grade at all (not 0); d1 and d4 keep theirs
    assert result.qrels[["doc_id", "relevance"]].values.tolist() == [["d1", 3], ["d4", 1]]
    assert result.failed == 1
    assert result.failures["doc_id"].tolist() == ["d3"]
    assert "has no '##final score: N'" in result.failures["error"].iloc[0]
    with pytest.raises(JudgeError, match=r"query 'q1', document 'd3'.*no '##final score: N'"):
        judge({"q1": ["d1", "d3"]}, llm_judge(model), queries=QUERIES, docs=DOCS)


def test_grade_off_the_scale_is_a_failure():
    model = FakeModel({**GRADES, "fish swim": 5})
    with pytest.warns(JudgeWarning):
        result = judge({"q1": ["d3"]}, llm_judge(model), queries=QUERIES, docs=DOCS,
                       on_error="record")
    assert result.qrels.empty and result.failed == 1
    assert "not one of the grades [0, 1, 2, 3]" in result.failures["error"].iloc[0]
    # no item judged, and still the judge who was asked
    assert repr(result).startswith("Judgments(0 items judged by fake-model; 1 calls")


# ---------------------------------------------------------------- the cache

def test_cache_sends_only_the_new_pairs(tmp_path):
    cache = tmp_path / "judgments.sqlite"
    model = FakeModel(GRADES)
    umbrela = llm_judge(model)
    # a dry run before any judging: everything to send, and no file created
    # (characters: q1+d1 = 12 + 22 = 34, q1+d3 = 12 + 9 = 21 -> 55)
    dry = judge({"q1": ["d1", "d3"]}, umbrela, queries=QUERIES, docs=DOCS, cache=cache,
                dry_run=True)
    assert (dry.calls, dry.characters, dry.cached, cache.exists()) == (2, 55, 0, False)
    first = judge({"q1": ["d1", "d3"]}, umbrela, queries=QUERIES, docs=DOCS, cache=cache)
    assert (first.calls, first.cached, len(model.prompts)) == (2, 0, 2)

    grown = {"q1": ["d1", "d3", "d4"], "q2": ["d2"]}
    # dry run: the two new pairs only; characters of the texts sent:
    # q1+d4 = 12 + 14 = 26, q2+d2 = 16 + 22 = 38 -> 64
    dry = judge(grown, umbrela, queries=QUERIES, docs=DOCS, cache=cache, dry_run=True)
    assert (dry.calls, dry.characters, dry.cached) == (2, 64, 2)
    assert len(model.prompts) == 2  # a dry run calls nothing
    assert repr(dry) == ("Judgments(dry run: 2 calls, 64 characters, 2 answers from the "
                         "cache)")

    second = judge(grown, umbrela, queries=QUERIES, docs=DOCS, cache=cache)
    assert (second.calls, second.cached, len(model.prompts)) == (2, 2, 4)
    assert second.qrels[["query_id", "doc_id", "relevance"]].values.tolist() == [
        ["q1", "d1", 3], ["q1", "d3", 0], ["q1", "d4", 1], ["q2", "d2", 2]]
    # all in the cache now: nothing sent
    third = judge(grown, umbrela, queries=QUERIES, docs=DOCS, cache=cache)
    assert (third.calls, third.characters, third.cached, len(model.prompts)) == (0, 0, 4, 4)
    pd.testing.assert_frame_equal(third.qrels, second.qrels)


def test_cache_key_is_judge_prompt_and_texts(tmp_path):
    cache = tmp_path / "judgments.sqlite"
    model = FakeModel(GRADES)
    judge({"q1": ["d1"]}, llm_judge(model, name="a"), queries=QUERIES, docs=DOCS, cache=cache)
    assert len(model.prompts) == 1
    # another name: asked again
    judge({"q1": ["d1"]}, llm_judge(model, name="b"), queries=QUERIES, docs=DOCS, cache=cache)
    assert len(model.prompts) == 2
    # another prompt under the same name: asked again
    other = "Q: {query}\nPassage: {passage}"
    judge({"q1": ["d1"]}, llm_judge(model, name="a", prompt=other), queries=QUERIES, docs=DOCS,
          cache=cache)
    assert len(model.prompts) == 3
    # the same texts under other ids: answered from the cache
    result = judge({"x": ["y"]}, llm_judge(model, name="a"), queries={"x": QUERIES["q1"]},
                   docs={"y": DOCS["d1"]}, cache=cache)
    assert (len(model.prompts), result.cached) == (3, 1)
    # a changed document text: asked again
    judge({"q1": ["d1"]}, llm_judge(model, name="a"), queries=QUERIES,
          docs={"d1": "fish swim"}, cache=cache)
    assert len(model.prompts) == 4


def test_cache_keeps_samples_apart(tmp_path):
    cache = tmp_path / "judgments.sqlite"
    model = FakeModel(GRADES)
    judge({"q1": ["d1"]}, llm_judge(model), queries=QUERIES, docs=DOCS, cache=cache)
    # three samples after one: samples 2 and 3 are asked, sample 1 comes from the cache
    result = judge({"q1": ["d1"]}, llm_judge(model), queries=QUERIES, docs=DOCS, samples=3,
                   cache=cache)
    assert (result.calls, result.cached, len(model.prompts)) == (2, 1, 3)
    assert result.qrels["votes"].tolist() == [(3, 3, 3)]


def test_failed_answers_are_not_cached(tmp_path):
    cache = tmp_path / "judgments.sqlite"
    model = FakeModel({**GRADES, "fish swim": "no idea"})
    with pytest.warns(JudgeWarning):
        judge({"q1": ["d1", "d3"]}, llm_judge(model), queries=QUERIES, docs=DOCS, cache=cache,
              on_error="record")
    model.grades["fish swim"] = 0
    result = judge({"q1": ["d1", "d3"]}, llm_judge(model), queries=QUERIES, docs=DOCS,
                   cache=cache)
    assert (result.calls, result.cached) == (1, 1)
    assert result.qrels["relevance"].tolist() == [3, 0]


def test_grades_kept_before_a_judge_error(tmp_path):
    cache = tmp_path / "judgments.sqlite"
    model = FakeModel({**GRADES, "fish swim": "no idea"})
    with pytest.raises(JudgeError):
        judge({"q1": ["d1", "d3"]}, llm_judge(model), queries=QUERIES, docs=DOCS, cache=cache)
    model.grades["fish swim"] = 0
    result = judge({"q1": ["d1", "d3"]}, llm_judge(model), queries=QUERIES, docs=DOCS,
                   cache=cache)
    assert (result.calls, result.cached) == (1, 1)  # d1's grade was paid for once


def test_plain_function_judges_use_the_cache_too(tmp_path):
    cache = tmp_path / "judgments.sqlite"
    calls = []

    def by_length(query, doc):
        calls.append(doc)
        return 1 if len(doc) > 10 else 0

    for _ in range(2):
        judge({"q1": ["d1", "d3"]}, by_length, queries=QUERIES, docs=DOCS, cache=cache,
              name="by-length-10")
    assert calls == ["cats purr when content", "fish swim"]


def test_a_judge_known_only_by_its_function_name_gets_no_cache(tmp_path):
    """Two models behind functions of one name: a cache keyed by that name would answer the
    second with the first one's grades."""
    cache = tmp_path / "judgments.sqlite"

    def model(grade):
        def complete(prompt):
            return f"##final score: {grade}"
        return complete

    for unnamed in (llm_judge(model(1)), model(1), lambda query, doc: 1):
        with pytest.raises(InputError, match=r"judge\(\.\.\., cache=\) needs a name for the "
                                             r"judge.*'(complete|<lambda>)' is a function's own"):
            judge({"q1": ["d1"]}, unnamed, queries=QUERIES, docs=DOCS, cache=cache)
    assert not cache.exists()
    blank = model(1)
    blank.name = ""  # a name attribute with nothing in it names nothing
    with pytest.raises(InputError, match="needs a name for the judge"):
        judge({"q1": ["d1"]}, llm_judge(blank), queries=QUERIES, docs=DOCS, cache=cache)
    for empty in ("", "  "):
        with pytest.raises(InputError, match="name must be a non-empty string"):
            judge({"q1": ["d1"]}, blank, queries=QUERIES, docs=DOCS, cache=cache, name=empty)
        with pytest.raises(InputError, match="name must be a non-empty string"):
            llm_judge(blank, name=empty)
    first = judge({"q1": ["d1"]}, llm_judge(model(1), name="m1"), queries=QUERIES, docs=DOCS,
                  cache=cache)
    second = judge({"q1": ["d1"]}, llm_judge(model(3)), queries=QUERIES, docs=DOCS,
                   cache=cache, name="m3")
    assert (first.qrels["relevance"].tolist(), second.qrels["relevance"].tolist()) == ([1], [3])
    assert second.cached == 0
    # without a cache a function's name is only the judge column's label
    assert judge({"q1": ["d1"]}, llm_judge(model(2)), queries=QUERIES,
                 docs=DOCS).qrels["judge"].tolist() == ["complete"]


def test_cache_refuses_another_file(tmp_path):
    from reteval.monitor import open_history

    history = tmp_path / "history.sqlite"
    open_history(history, create=True).close()
    with pytest.raises(InputError, match="is a reteval monitoring history, not a reteval "
                                         "judgment cache"):
        judge({"q1": ["d1"]}, llm_judge(FakeModel(GRADES)), queries=QUERIES, docs=DOCS,
              cache=history)
    with pytest.raises(InputError, match="folder .* does not exist"):
        judge({"q1": ["d1"]}, llm_judge(FakeModel(GRADES)), queries=QUERIES, docs=DOCS,
              cache=tmp_path / "nowhere" / "j.sqlite")


# ---------------------------------------------------------------- holes

def test_holes_by_hand():
    qrels = pd.DataFrame({"query_id": ["1", "1", "1", "2"], "doc_id": ["a", "b", "c", "z"],
                          "relevance": [1, 0, -1, 2], "judge": ["x"] * 4})
    # query 1 in trec_eval's order: score desc, then doc id desc on ties:
    #   a 0.9, then e 0.5 and d 0.5 (tie: e before d), then c 0.4, then b 0.1
    run = pd.DataFrame({"query_id": ["1"] * 5 + ["2"] * 2,
                        "doc_id": ["a", "d", "e", "c", "b", "z", "y"],
                        "score": [0.9, 0.5, 0.5, 0.4, 0.1, 2.0, 1.0]})
    got = holes(qrels, run, depth=4)
    # top 4 of query 1: a e d c -> e (rank 2) and d (rank 3) unjudged; c has a
    # negative judgment, so it is judged. Query 2: z judged, y (rank 2) not.
    assert got.values.tolist() == [["1", "e", 2], ["1", "d", 3], ["2", "y", 2]]
    assert list(got.columns) == ["query_id", "doc_id", "rank"]
    assert holes(qrels, run, depth=1).empty
    # nothing judged yet: the whole top
    assert len(holes(None, run, depth=2)) == 4


def test_holes_feed_judge(tmp_path):
    model = FakeModel(GRADES)
    run = {"q1": ["d1", "d4", "d3"], "q2": ["d2"]}
    todo = holes({"q1": {"d1": 3}}, run, depth=2)
    result = judge(todo, llm_judge(model), queries=QUERIES, docs=DOCS)
    assert result.qrels[["query_id", "doc_id", "relevance"]].values.tolist() == [
        ["q1", "d4", 1], ["q2", "d2", 2]]


def test_holes_of_several_runs_list_each_pair_once_at_its_best_rank():
    """Two retrievers to compare: the pairs either leaves unjudged in its top 3, once each, as
    :func:`judge` takes them (it refuses a pair listed twice)."""
    qrels = {"q1": {"d1": 3}}
    bm25 = {"q1": ["d1", "d3", "d4"], "q2": ["d2"]}
    dense = {"q1": ["d4", "d1", "d3"], "q2": ["d2", "d5"]}
    got = holes(qrels, [bm25, dense], depth=3)
    # q1: d4 rank 3 and 1 -> 1; d3 rank 2 and 3 -> 2. q2: d2 rank 1 in both, d5 rank 2.
    assert got.values.tolist() == [["q1", "d4", 1], ["q1", "d3", 2],
                                   ["q2", "d2", 1], ["q2", "d5", 2]]
    assert holes(qrels, (bm25,), depth=3).equals(holes(qrels, bm25, depth=3))
    docs = {**DOCS, "d5": "cats also hiss"}
    result = judge(got, llm_judge(FakeModel(GRADES)), queries=QUERIES, docs=docs)
    assert len(result.qrels) == 4
    with pytest.raises(InputError, match="holes needs a run; got an empty list"):
        holes(qrels, [], depth=3)


@pytest.mark.parametrize("depth", [0, -1, 2.5, True])
def test_holes_bad_depth(depth):
    with pytest.raises(InputError, match="depth must be a positive integer"):
        holes(None, {"q1": ["d1"]}, depth=depth)
