"""The words of notebook 06 (many systems: ANOVA, Tukey's HSD, effect sizes): tables and lines."""

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
