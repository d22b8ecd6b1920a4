"""Judges: dry runs, votes, failures reported, the offline judge, and compare_judgments."""

import dataclasses

import pytest

from reteval.errors import InputError
from reteval.judging import (
    JudgeError,
    JudgeWarning,
    TermOverlapJudge,
    cohen_kappa,
    compare_judgments,
    judge,
    kendall_tau,
)

QUERIES = {"q1": "python packages", "q2": "giant pandas"}
DOCS = {"d1": "Install Python packages with pip.", "d2": {"title": "Pandas", "text": "Bamboo."},
        "d3": "Nothing here."}
POOL = {"q1": ["d1", "d3"], "q2": ["d2"]}


def test_dry_run_counts_calls_and_characters_and_calls_nothing():
    calls = []

    def never(q, d):
        calls.append(q)
        return 0

    result = judge(POOL, never, queries=QUERIES, docs=DOCS, samples=3, dry_run=True)
    # characters per round: q1 (15) + d1 (33), q1 + d3 (13), q2 (12) + "Pandas\nBamboo." (14)
    assert (result.calls, result.characters) == (9, 3 * (15 + 33 + 15 + 13 + 12 + 14))
    assert calls == [] and result.qrels.empty and result.dry_run


def test_majority_vote_ties_to_the_lower_grade():
    answers = iter([2, 3, 3,    # q1/d1: majority 3
                    1, 2, 0,    # q1/d3: three-way tie -> 0
                    "2", " 1 ", 2.0])  # q2/d2: "2", 1, 2 -> 2 (text and whole floats parse)
    result = judge(POOL, lambda q, d: next(answers), queries=QUERIES, docs=DOCS, samples=3,
                   name="scripted")
    got = result.qrels.set_index(["query_id", "doc_id"])
    assert got["relevance"].to_dict() == {("q1", "d1"): 3, ("q1", "d3"): 0, ("q2", "d2"): 2}
    assert got.loc[("q1", "d3"), "votes"] == (1, 2, 0)
    assert set(result.qrels["judge"]) == {"scripted"} and result.calls == 9
    assert result.failed == 0


def test_two_way_tie_goes_to_the_lower_grade():
    answers = iter([3, 1])
    result = judge({"q1": ["d1"]}, lambda q, d: next(answers), queries=QUERIES, docs=DOCS,
                   samples=2)
    assert result.qrels["relevance"].tolist() == [1]


def test_a_judge_that_raises_names_the_item_and_query():
    def flaky(q, d):
        if "Nothing" in d:
            raise TimeoutError("model timed out")
        return 1

    with pytest.raises(JudgeError, match=r"judge failed on query 'q1', document 'd3' "
                                         r"\(item 2 of 3\): TimeoutError: model timed out"):
        judge(POOL, flaky, queries=QUERIES, docs=DOCS)


def test_unparsable_answers_are_errors_or_counted_never_nan():
    answers = {"d1": "relevant", "d3": 1, "d2": 7}
    with pytest.raises(JudgeError, match=r"answer 'relevant' is not an integer grade on "
                                         r"query 'q1', document 'd1'"):
        judge(POOL, lambda q, d: answers[_doc(d)], queries=QUERIES, docs=DOCS)
    with pytest.warns(JudgeWarning, match="2 of 3 answers from judge 'f' failed; 2 item"):
        result = judge(POOL, lambda q, d: answers[_doc(d)], queries=QUERIES, docs=DOCS,
                       on_error="record", name="f")
    assert result.qrels[["doc_id", "relevance"]].values.tolist() == [["d3", 1]]
    assert result.qrels["relevance"].notna().all()
    assert result.failures["doc_id"].tolist() == ["d1", "d2"]
    assert "not one of the grades [0, 1, 2, 3]" in result.failures["error"].iloc[1]
    assert result.failed == 2 and "2 failed answers" in repr(result)


def test_the_chinese_edition_reads_the_warning_the_reasons_and_the_summary_in_chinese():
    answers = {"d1": "relevant", "d3": 1, "d2": 7}
    with pytest.warns(JudgeWarning) as caught:
        result = judge(POOL, lambda q, d: answers[_doc(d)], queries=QUERIES, docs=DOCS,
                       on_error="record", name="f", lang="zh")
    assert str(caught[0].message) == ("判定器 'f' 的 3 个回答中有 2 个失败；2 个（查询，文档）对"
                                      "没有得到等级（见 .failures）")
    assert result.failures["error"].tolist() == ["回答 'relevant' 不是整数等级",
                                                 "回答 7 不是等级 [0, 1, 2, 3] 之一"]
    # q1+d3 is 15 + 13 characters, q1+d1 15 + 33, q2+d2 12 + "Pandas\nBamboo." 14
    assert str(result) == ("相关性判断：判定器 f 判断了 1 个（查询，文档）对；调用 3 次，"
                           "发送 102 个字符，2 个回答失败")
    assert repr(result) == ("Judgments(1 items judged by f; 3 calls, 102 characters, "
                            "2 failed answers)")
    dry = judge(POOL, lambda q, d: 0, queries=QUERIES, docs=DOCS, dry_run=True, lang="zh")
    assert str(dry) == "相关性判断（试运行）：将调用 3 次，发送 102 个字符"
    with pytest.raises(InputError, match="lang must be 'zh' or 'en'; got 'fr'"):
        judge(POOL, lambda q, d: 0, queries=QUERIES, docs=DOCS, lang="fr")


def _doc(text):
    return next(k for k, v in DOCS.items() if (v if isinstance(v, str) else v["title"]) in text)


def test_missing_text_and_bad_options_are_named():
    with pytest.raises(InputError, match="document 'd9' of the pool \\(query 'q1'\\) has no text"):
        judge({"q1": ["d9"]}, lambda q, d: 0, queries=QUERIES, docs=DOCS)
    with pytest.raises(InputError, match="samples must be a positive integer; got 0"):
        judge(POOL, lambda q, d: 0, queries=QUERIES, docs=DOCS, samples=0)
    with pytest.raises(InputError, match="judge must be a callable"):
        judge(POOL, "gpt", queries=QUERIES, docs=DOCS)


def test_term_overlap_judge_is_a_rule_you_can_follow():
    j = TermOverlapJudge(thresholds=(0.25, 0.5, 0.75))
    # query terms {instal, python, packag} (stemmed): all three in the document -> 3
    assert j("install python packages", "We install packages for Python.") == 3
    assert j("install python packages", "Python is a language.") == 1  # 1/3 >= 0.25
    assert j("install python packages", "Giant pandas.") == 0
    # Chinese by character bigrams: 机器/器学/学习 in 机器学习算法 -> 3 of 3
    assert j("机器学习", "常见的机器学习算法") == 3
    # a translation shares no term: the rule cannot see it
    assert j("machine learning", "机器学习") == 0
    with pytest.raises(InputError, match="thresholds must increase"):
        TermOverlapJudge(thresholds=(0.5, 0.25))


def test_term_overlap_rules_with_other_thresholds_keep_their_grades_apart(tmp_path):
    lenient, strict = TermOverlapJudge(), TermOverlapJudge(thresholds=(0.9, 1.0))
    assert (lenient.name, strict.name) == ("term-overlap", "term-overlap(0.9,1.0)")
    assert TermOverlapJudge(name="mine").name == "mine"
    # the name follows the thresholds when a judge is remade from another
    assert dataclasses.replace(strict, thresholds=(0.25, 0.5, 0.75)).name == "term-overlap"
    assert dataclasses.replace(lenient, thresholds=(0.9, 1.0)).name == strict.name
    cache = tmp_path / "judgments.sqlite"
    pool = {"q1": ["d1"]}
    query = {"q1": "install python packages"}
    doc = {"d1": "Python is a language."}  # 1/3 of the query's terms: 1 leniently, 0 strictly
    grades = [judge(pool, rule, queries=query, docs=doc, cache=cache).qrels["relevance"].tolist()
              for rule in (lenient, strict, lenient)]
    assert grades == [[1], [0], [1]]


def test_compare_judgments_by_hand():
    human = {"q1": {"d1": 2, "d2": 0, "d3": 1, "d4": 0}, "q2": {"d5": 1, "d6": 0}}
    other = {"q1": {"d1": 2, "d2": 1, "d3": 1, "d4": 0}, "q2": {"d5": 0, "d6": 0}}
    runs = {"a": {"q1": ["d1", "d2"], "q2": ["d5"]}, "b": {"q1": ["d2", "d3"], "q2": ["d6"]},
            "c": {"q1": ["d4", "d2"], "q2": ["d6", "d5"]}}
    c = compare_judgments(human, other, runs, measure="P@1")
    assert c.items == 6
    assert c.kappa == pytest.approx(cohen_kappa([2, 0, 1, 0, 1, 0], [2, 1, 1, 0, 0, 0]))
    assert c.binary_kappa == pytest.approx(cohen_kappa([1, 0, 1, 0, 1, 0], [1, 1, 1, 0, 0, 0]))
    # P@1 per query: human a (1, 1), b (0, 0), c (0, 0); other a (1, 0), b (1, 0), c (0, 0)
    assert c.scores["human"].to_dict() == {"a": 1.0, "b": 0.0, "c": 0.0}
    assert c.scores["other"].to_dict() == {"a": 0.5, "b": 0.5, "c": 0.0}
    assert c.tau == pytest.approx(kendall_tau(c.scores["human"], c.scores["other"]))
    assert c.confusion.loc[0, 1] == 1 and c.confusion.loc[1, 0] == 1
    # tau-b: (a, c) concordant, (a, b) and (b, c) tied in one ranking: 1 / sqrt(2 * 2)
    assert c.tau == pytest.approx(0.5)
    # tau_AP over other's order a, b (tied in other only: 1/2), c: a above c in both (1),
    # b tied with c in human only (1/2) -> 0.5/1 + 1.5/2 = 1.25 -> 2/2 * 1.25 - 1
    assert c.tau_ap == pytest.approx(0.25)
    assert c.same_best is False  # human: a alone first; other: a and b tied first


def test_compare_judgments_takes_a_geometric_mean():
    human = {"q1": {"d1": 2, "d2": 0, "d3": 1, "d4": 0}, "q2": {"d5": 1, "d6": 0}}
    runs = {"a": {"q1": ["d1", "d2"], "q2": ["d5"]}, "b": {"q1": ["d2", "d3"], "q2": ["d6"]},
            "c": {"q1": ["d4", "d2"], "q2": ["d6", "d5"]}}
    c = compare_judgments(human, human, runs, measure="gm_map")
    # AP by hand: a (1/2, 1), b (1/4, 0), c (0, 1/2); 0 floored at 0.00001
    expected = {"a": 0.5 ** 0.5, "b": (0.25 * 0.00001) ** 0.5, "c": (0.00001 * 0.5) ** 0.5}
    for name, value in expected.items():
        assert c.scores.loc[name, "human"] == pytest.approx(value, rel=1e-12)
