"""The words of notebook 11 (exploring measures interactively)."""

TEXTS = {
    "shape": (
        ("{s}：{measure}@1 = {first:.3f}，在 K = {kmin} 降到最低 {low:.3f}，"
         "K = {last_k} 时为 {last:.3f}（{trend}）。"),
        ("{s}: {measure}@1 = {first:.3f}, lowest {low:.3f} at K = {kmin}, {last:.3f} at "
         "K = {last_k} ({trend})."),
    ),
    "up": ("之后回升", "rising again after it"),
    "flat": ("之后不再上升", "not rising after it"),
}

# The hints of the exercises (reteval.teaching.exercises.nb11), from a nudge to a
# near-complete method: exercise.11.<i>.<key>.
EXERCISE_TEXTS = {
    "1.hints": (
        (
            ("答案是一个数。可以把等级和未检索到的文档交给 reteval.widgets.MetricState，"
            "也可以手算。"),
            "等级至少为 1 的文档算相关。R 是全部相关文档的数量：列表里的，加上未检索到的。",
            "AP 把每个相关文档所在位置的 P@i 相加，再除以 R，而不是除以检索到的相关文档数。",
        ),
        (
            ("The answer is a number. Give the grades and the unretrieved documents to "
            "reteval.widgets.MetricState, or compute by hand."),
            ("A document of grade 1 or more is relevant. R counts every relevant document: "
            "those in the list plus those not retrieved."),
            ("AP sums P@i at the ranks of the relevant documents and divides by R, not by the "
            "relevant documents retrieved."),
        ),
    ),
    "2.hints": (
        (
            "答案是一个整数：每组（不是两组合计）的用户数。",
            "用 reteval.widgets.plan_sample_size(基线, 提升) 或本 notebook 的 A/B 规划器。",
            ("plan_sample_size 的结果里，n_per_group 才是每组的人数；与 0.01 的结果比一比，"
            "效应减半时样本量约变为几倍？"),
        ),
        (
            "The answer is a whole number: users per group (not both groups together).",
            ("Use reteval.widgets.plan_sample_size(baseline, increase), or this notebook's A/B "
            "planner."),
            ("In plan_sample_size's result n_per_group is the number per group; compare it "
            "with the one for 0.01: how does the sample grow when the effect halves?"),
        ),
    ),
    "3.hints": (
        (
            "答案是字母的集合，如 {\"A\"}。可以在指标探索器里把未检索到的文档从 2 改成 3 试试。",
            "等级从 2 变成 3，这篇文档仍然是相关的：只看“相关与否”的指标会变吗？",
            "哪个指标用等级本身作增益，而且它的理想排序会把这篇文档算进去？",
        ),
        (
            ("The answer is a set of letters, such as {\"A\"}. Try it in the metric explorer: "
            "change the unretrieved document from 2 to 3."),
            ("Graded 3 instead of 2, the document is still relevant: do the measures that only "
            "ask \"relevant or not\" move?"),
            ("Which measure uses the grade itself as the gain, with an ideal ranking that "
            "counts this document?"),
        ),
    ),
}
