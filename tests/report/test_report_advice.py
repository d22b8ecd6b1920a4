"""The report's advice when no system is recommended: it names only the systems tied at the top."""

import numpy as np
import pandas as pd
from scipy import stats

from reteval.comparison import compare_scores
from reteval.report import to_markdown

QUERIES = pd.Index([f"q{i:02d}" for i in range(20)], name="query_id")


def scores():
    """a and b differ by noise only; c is far below both on every query."""
    rng = np.random.default_rng(7)
    a = rng.uniform(0.55, 0.95, len(QUERIES))
    b = a + np.tile([0.1, -0.11], len(QUERIES) // 2)  # 0.005 below a on average
    c = a - 0.5 + np.tile([0.02, -0.03], len(QUERIES) // 2)
    frame = pd.DataFrame({"a": a, "b": b, "c": c}, index=QUERIES)
    return {"AP": frame, "nDCG@10": frame * 0.9}


def advice(markdown, words):
    """The paragraph of the report's recommendation that holds ``words``."""
    return next(paragraph for paragraph in markdown.split("\n\n") if words in paragraph)


def test_the_premise_by_scipy():
    """a vs b: far from significant; a vs c: significant however many pairs are corrected."""
    frame = scores()["AP"]
    assert frame["a"].mean() > frame["b"].mean()
    assert stats.ttest_rel(frame["a"], frame["b"]).pvalue > 0.2
    assert stats.ttest_rel(frame["a"], frame["c"]).pvalue * 3 < 1e-6


def test_no_recommendation_names_only_the_systems_tied_at_the_top():
    comparison = compare_scores(scores(), rng=0)
    assert set(comparison.best["status"]) == {"not significant"}
    en = advice(to_markdown(comparison, lang="en"), "do not single out a best system")
    assert "does a test separate a from b: choose among a and b (by cost" in en
    assert "cheaper" not in en and " c " not in en and " c:" not in en
    zh = advice(to_markdown(comparison, lang="zh"), "选不出最佳检索器")
    assert "检验都没有把 a 与 b 区分开：可以在 a 和 b 之间按成本" in zh and " c " not in zh


def test_a_system_tested_against_no_one_is_not_named():
    """With a baseline, a and b are never tested against each other: no one is named."""
    comparison = compare_scores(scores(), baseline="c", rng=0)
    markdown = to_markdown(comparison, lang="en")
    assert "do not single out a best system" in markdown
    en = advice(markdown, "do not single out a best system")
    assert "separate" not in en and en.endswith("Evaluate on more queries.")


def test_a_p_value_below_the_printed_digits_reads_p_less_than():
    markdown = to_markdown(compare_scores(scores(), rng=0), lang="en")
    assert "F(2, 38)" in markdown and "p \\< 0.0001" in markdown
    assert "p = \\<" not in markdown and "p = <" not in markdown


def test_the_depth_advice_is_a_common_depth_per_query_not_one_shallow_cutoff():
    """One system returns 1 document per query: a common cutoff would be 1; the report says
    to cut each query's lists to its shortest one instead."""
    import reteval

    qrels = {f"q{i}": {f"d{i}": 1, f"e{i}": 1} for i in range(6)}
    short = {f"q{i}": [f"d{i}"] for i in range(6)}
    long = {f"q{i}": ["x", f"d{i}", f"e{i}"] for i in range(6)}
    comparison = reteval.compare(qrels, {"short": short, "long": long}, ["AP"], rng=0)
    en = advice(to_markdown(comparison, lang="en"), "Measures marked †")
    assert "common depth per query" in en and "shortest list on that query" in en
    zh = advice(to_markdown(comparison, lang="zh"), "标 † 的指标")
    assert "逐查询在共同深度上比较" in zh
