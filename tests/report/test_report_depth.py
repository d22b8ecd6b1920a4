"""The report sees depth: systems that return different numbers of documents, and its rule."""

import pytest

import reteval
from reteval.report import to_markdown

QRELS = {f"q{i}": {f"d{i}": 1, f"e{i}": 2} for i in range(1, 9)}
# "short" returns one document per query, "long" four: depths differ on every query.
SHORT = {f"q{i}": [f"d{i}"] for i in range(1, 9)}
LONG = {f"q{i}": ["x", f"d{i}", "y", f"e{i}"] for i in range(1, 9)}


def test_retrieved_counts_the_documents_of_each_system_per_query():
    c = reteval.compare(QRELS, {"short": SHORT, "long": LONG}, ["P@1", "AP"], rng=0)
    assert c.retrieved["short"].tolist() == [1.0] * 8
    assert c.retrieved["long"].tolist() == [4.0] * 8
    assert c.measures == ("P@1", "AP")  # the count is not added to the measures


@pytest.mark.parametrize(
    "measure, sensitive",
    [
        ("P@1", False),   # both lists fill rank 1
        ("RR@1", False),
        ("P@2", True),    # "short" has no rank 2, "long" has
        ("R@10", True),
        ("AP", True),     # no cutoff: all of each list
        ("NumRet", True),
    ],
)
def test_depth_sensitive_by_hand(measure, sensitive):
    c = reteval.compare(QRELS, {"short": SHORT, "long": LONG}, [measure], rng=0)
    assert c.depth_sensitive(measure) is sensitive


def test_equal_depths_are_not_flagged_and_the_report_says_nothing_about_depth():
    other = {q: [docs[1], docs[0], docs[2], docs[3]] for q, docs in LONG.items()}
    c = reteval.compare(QRELS, {"long": LONG, "other": other}, ["AP", "P@2"], rng=0)
    assert not any(c.depth_sensitive(m) for m in c.measures)
    text = to_markdown(c, title="t", lang="en")
    assert "different numbers of documents" not in text and "†" not in text
    assert "The rule:" in text  # the recommendation rule is always stated


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_report_states_the_depths_marks_the_measures_and_explains_its_rule(lang):
    c = reteval.compare(QRELS, {"short": SHORT, "long": LONG}, ["P@1", "AP", "R@10"], rng=0)
    text = to_markdown(c, title="t", lang=lang)
    if lang == "en":
        assert ("The systems returned different numbers of documents per query (mean, with the "
                "fewest and the most): short 1.0 (1 to 1), long 4.0 (4 to 4).") in text
        assert "Measures marked † (AP, R@10) compare the systems at unequal depths" in text
        assert "- **R@10 †** (recall):" in text and "(† compared at unequal depths.)" in text
        assert ("The rule: the system with the highest mean on the most measures is "
                "recommended") in text
    else:
        assert ("各检索器每个查询返回的文档数不同（均值，括号内为最少–最多）："
                "short 1.0（1–1）、long 4.0（4–4）。") in text
        assert "标 † 的指标（AP、R@10）" in text and "（† 在不同深度下比较。）" in text
        assert "推荐规则：" in text
    assert "| P@1 | AP † | R@10 † |" in text  # the table header marks them too
    assert "**P@1 †**" not in text  # rank 1 is filled by both: no mark


def test_a_recommendation_resting_on_depth_alone_is_flagged():
    # "long" finds e_i at rank 4, which "short" never returns: it wins R@5 and R@10 on every
    # query (recall 1 against 1/2), and both measures are depth-sensitive.
    c = reteval.compare(QRELS, {"short": SHORT, "long": LONG}, ["R@5", "R@10"], rng=0)
    text = to_markdown(c, title="t", lang="en")
    assert "Recommended: **long**" in text
    assert "Note: all" in text and "unequal depths" in text
