"""The words of notebook 06 (many systems: ANOVA, Tukey's HSD, effect sizes): tables and lines."""

from reteval._util.catalogue import section

TEXTS = {
    # tables
    "system": ("检索器", "retriever"),
    "other": ("对照", "other"),
    "measure": ("指标", "measure"),
    "pair": ("检索器对", "pair"),
    "diff": ("均值差", "difference"),
    "es": ("效应量（均值差 / √V_E）", "effect size ES_E"),
    "p_pair": ("p（{t}，Holm 校正）", "p ({t} test, Holm)"),
    "p_tukey": ("p（随机化 Tukey HSD）", "p (randomised Tukey HSD)"),
    "p_stud": ("p（学生化 Tukey HSD）", "p (studentized Tukey HSD)"),
    "es_x4": ("效应量（均值差 / √V_E，4 倍查询）", "effect size ES_E (4× queries)"),
    "p_x4": ("p（4 倍查询）", "p (4× queries)"),
    "dp_pair": ("{t} 检验（未校正）", "{t} test (uncorrected)"),
    "dp_tukey": ("Tukey HSD", "Tukey HSD"),
    "min_diff": ("要发现的最小差距", "smallest difference to find"),
    "plan_anova": ("方差分析，{n} 个检索器", "ANOVA, {n} retrievers"),
    "plan_paired": ("配对 t 检验，{s} 对 {b}", "paired t test, {s} against {b}"),
    "wins": ("赢", "wins"),
    "losses": ("输", "losses"),
    "sep": ("、", ", "),
    # printed lines
    "anova": (("{m}：方差分析 F({d1}, {d2}) = {f:.3f}，p = {p:.4g}，V_E = {ve:.5f}，"
              "按 V_E 的误差幅度 ±{moe:.4f}"),
              ("{m}: ANOVA F({d1}, {d2}) = {f:.3f}, p = {p:.4g}, V_E = {ve:.5f}, "
              "margin of error by V_E ±{moe:.4f}")),
    "dp": ("区分能力（显著的对数 / {n}）", "discriminative power (significant pairs / {n})"),
    "pilot": ("{m} 的试点方差 V_E = {ve:.5f}；{s} − {b} 逐查询差值的标准差 = {sd:.4f}",
              ("{m}: pilot variance V_E = {ve:.5f}; standard deviation of the per-query "
              "differences {s} − {b} = {sd:.4f}")),
    "hurt": ("{m} 上 {s} − {b} 最小的 5 个查询：{items}",
             "{m}, the 5 queries with the lowest {s} − {b}: {items}"),
}

# The hints of the exercises (reteval.teaching.exercises.nb06), from a nudge to a
# near-complete method: exercise.06.<i>.<key>.
EXERCISE_TEXTS = {
    # 06.2: the options, by letter
    **section(
        "2.option",
        A=("Tukey HSD 的随机化有误差；换一个种子，两种方法就会一致。",
           "Tukey's HSD is randomised; with another seed the two procedures would agree."),
        B=(("两种方法衡量噪声的方式不同：两两检验用这一对自己的逐查询差值，"
            "Tukey HSD 对所有各对用同一把尺子（所有检索器的残差方差 V_E）；"
            "差值比这把尺子更一致的一对在两两检验下更容易显著，"
            "更分散的一对在 Tukey 下更容易显著。"),
           ("They measure the noise differently: a pairwise test by this pair's own per-query "
            "differences, Tukey's HSD by one yardstick for every pair (the residual variance "
            "V_E of all retrievers); a pair whose differences are more consistent than that "
            "yardstick passes more easily pairwise, a more spread-out pair under Tukey.")),
        C=("Holm 校正总是比 Tukey HSD 更保守，所以两两检验不可能比 Tukey 先显著。",
           ("Holm's correction is always more conservative than Tukey's HSD, so a pairwise test "
            "can never be significant before Tukey.")),
        D=("方差分析不显著时 Tukey HSD 不会给出任何显著的对。",
           "Tukey's HSD gives no significant pair when the ANOVA is not significant."),
    ),
    "1.hints": (
        (
            "答案是一个整数（查询数）。它取决于要检测的差距和逐查询得分的残差方差。",
            ("用 reteval.stats.pilot_variance 估计四个检索器逐查询 AP 的残差方差，"
            "再调用 queries_needed_anova(0.03, 方差, 4)；不是第 5 节表中 0.02 的结果。"),
        ),
        (
            ("The answer is a whole number (of queries). It depends on the range to detect and "
            "on the residual variance of the per-query scores."),
            ("Estimate the residual variance of the four retrievers' per-query AP with "
            "reteval.stats.pilot_variance, then call queries_needed_anova(0.03, variance, 4); "
            "not the table's value for 0.02 in section 5."),
        ),
    ),
    "2.hints": (
        (
            "答案是一个字母。两种方法各用什么来衡量噪声？",
            ("比较两种方法各用什么来衡量噪声：这一对自己的差值，还是所有检索器的离散程度；"
            "再比较两对差值的标准差与 √(2 V_E)。"),
        ),
        (
            "The answer is one letter. What does each procedure measure the noise by?",
            ("Compare what each procedure measures the noise by: this pair's own differences, or "
            "the spread of all retrievers; then compare both pairs' standard deviations of the "
            "differences with sqrt(2 V_E)."),
        ),
    ),
    "3.hints": (
        (
            "答案是一个数（TRisk 的统计量）。先得到两个检索器的逐查询 nDCG@10。",
            ("计算 vector 和 bm25 的逐查询 nDCG@10，"
            "再用 reteval.stats.trisk(vector, bm25, alpha=1) 取 statistic；不是 AP 的结果。"),
        ),
        (
            ("The answer is a number (TRisk's statistic). First get both retrievers' per-query "
            "nDCG@10."),
            ("Compute the per-query nDCG@10 of vector and of bm25, then "
            "reteval.stats.trisk(vector, bm25, alpha=1).statistic; not the AP value."),
        ),
    ),
    "4.hints": (
        (
            ("写一个函数 effect_size(scores, system, other)：scores 的行是查询、列是检索器，"
             "返回一个数：两列均值之差除以 √V_E。"),
            ("V_E 不是这一对差值的方差，也不是所有得分的方差：先去掉查询效应和检索器效应。"
             "残差 = 得分 − 该查询的均值 − 该检索器的均值 + 总均值。"),
            ("V_E = 残差平方和 / ((查询数 − 1) × (检索器数 − 1))，用表中全部检索器计算，"
             "不只是 system 和 other 两列；结果的符号跟着 system − other。"),
        ),
        (
            ("Write a function effect_size(scores, system, other): the rows of scores are "
             "queries, its columns systems; return one number, the difference of the two "
             "columns' means divided by sqrt(V_E)."),
            ("V_E is neither the variance of this pair's differences nor that of all scores: "
             "remove the query effects and the system effects first. Residual = score - the "
             "query's mean - the system's mean + the grand mean."),
            ("V_E = sum of squared residuals / ((queries - 1) * (systems - 1)), over every "
             "system of the table, not only the columns system and other; the sign follows "
             "system - other."),
        ),
    ),
    # 06.4: what a wrong answer is told
    "4.raised": ("在一个隐藏的得分表上（{case}），你的函数出错或没有返回一个数：{error}。",
                 ("On a hidden score table ({case}) your function raised or returned no number: "
                  "{error}.")),
    "4.wrong": ("在一个隐藏的得分表上（{case}），效应量不对。",
                "On a hidden score table ({case}) the effect size is not right."),
    **section(
        "4.case",
        two_systems=("只有两个检索器",
                     "only two systems"),
        difficulty=("查询之间难易差别很大",
                    "queries of very different difficulty"),
        lower_mean=("第一个检索器的均值更低",
                    "the first system has the lower mean"),
        equal_differences=("这一对的逐查询差值完全相同",
                           "this pair's per-query differences are all equal"),
        four_systems=("四个检索器，问的不是前两列",
                      "four systems, not the first two columns"),
    ),
}
