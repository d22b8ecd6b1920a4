"""Every word of the report in both languages: titles, headings, table headers, captions, terms.

The tables are keyed by language (``"zh"``, ``"en"``); the Chinese ones use the
chapter's terms (召回率, 精确率, 平均倒数排名, 归一化折损累计增益, 平均精度均值,
基线, 显著性, 置信区间 ...). The numbers of a report never depend on its language.
"""

from __future__ import annotations

#: Languages of the report.
LANGUAGES = ("zh", "en")

TITLES = {"zh": "检索系统评估报告", "en": "Retrieval evaluation report"}
TEST_NAMES = {
    "en": {"t": "paired t test", "wilcoxon": "Wilcoxon signed-rank test",
           "randomization": "Fisher randomization test", "bootstrap": "paired bootstrap test",
           "tukey": "randomised Tukey HSD test",
           "tukey-studentized": "Tukey HSD test (studentized range)"},
    "zh": {"t": "配对 t 检验", "wilcoxon": "Wilcoxon 符号秩检验",
           "randomization": "Fisher 随机化检验", "bootstrap": "配对自助法（bootstrap）检验",
           "tukey": "随机化 Tukey HSD 检验",
           "tukey-studentized": "Tukey HSD 检验（学生化极差分布）"},
}
CORRECTION_NAMES = {"holm": "Holm", "bonferroni": "Bonferroni", "bh": "Benjamini-Hochberg",
                     "none": None}
CI_NOTES = {
    "en": {"t": "t interval of the mean difference",
           "wilcoxon": "Hodges-Lehmann interval of the median difference",
           "randomization": "interval by inverting the randomization test",
           "bootstrap": "percentile bootstrap interval of the mean difference",
           "tukey": "simultaneous interval of Tukey's HSD (randomised)",
           "tukey-studentized": "simultaneous interval of Tukey's HSD (studentized range)"},
    "zh": {"t": "均值差的 t 置信区间",
           "wilcoxon": "中位数差的 Hodges-Lehmann 置信区间",
           "randomization": "由随机化检验反推的置信区间",
           "bootstrap": "均值差的百分位自助法置信区间",
           "tukey": "Tukey HSD 的联合置信区间（随机化）",
           "tukey-studentized": "Tukey HSD 的联合置信区间（学生化极差）"},
}
# Measure families: (term of one query's score, term of the mean over queries).
TERMS = {
    "en": {
        "P": ("precision", None), "R": ("recall", None),
        "RR": ("reciprocal rank", "mean reciprocal rank, MRR"),
        "AP": ("average precision", "mean average precision, MAP"),
        "nDCG": ("normalized discounted cumulative gain", None),
        "DCG": ("discounted cumulative gain", None), "Rprec": ("R-precision", None),
        "Success": ("success", None), "Judged": ("fraction of documents judged", None),
        "NumRet": ("documents retrieved", None), "NumRel": ("relevant documents", None),
        "NumRelRet": ("relevant documents retrieved", None),
        "ERR": ("expected reciprocal rank", None), "RBP": ("rank-biased precision", None),
        "infAP": ("inferred average precision", None), "Bpref": ("bpref", None),
        "IPrec": ("interpolated precision", None),
    },
    "zh": {
        "P": ("精确率", None), "R": ("召回率", None),
        "RR": ("倒数排名", "平均倒数排名 MRR"), "AP": ("平均精度", "平均精度均值 MAP"),
        "nDCG": ("归一化折损累计增益", None), "DCG": ("折损累计增益", None),
        "Rprec": ("R 精确率", None), "Success": ("成功率", None),
        "Judged": ("已判断文档比例", None), "NumRet": ("返回文档数", None),
        "NumRel": ("相关文档数", None), "NumRelRet": ("返回的相关文档数", None),
        "ERR": ("期望倒数排名", None), "RBP": ("秩偏精确率", None),
        "infAP": ("推断平均精度", None), "Bpref": ("bpref", None),
        "IPrec": ("插值精确率", None),
    },
}
FIGURE_CAPTIONS = {
    "en": {"forest": "Mean of each system with its bootstrap interval, per measure.",
           "cutoff_curves": "Mean of each measure family against the rank cutoff k.",
           "differences": "Per-query differences against the reference system, sorted.",
           "distributions": "Distribution of per-query scores.",
           "trend": "Continuous evaluation: the measures over time; entries that raised "
                    "an alert are marked in red."},
    "zh": {"forest": "各检索器在每个指标上的均值及其自助法置信区间。",
           "cutoff_curves": "各指标族的均值随截断位置 k 的变化。",
           "differences": "各查询相对参照检索器的得分差（已排序）。",
           "distributions": "逐查询得分的分布。",
           "trend": "持续评估：各指标随时间的变化，触发告警的记录以红色标出。"},
}
HEADINGS = {
    "en": {"measures": "Measures", "best": "Best system per measure",
           "tests": "Significance tests", "advice": "Recommendation",
           "history": "Continuous evaluation", "figures": "Figures",
           "many": "Many systems: ANOVA, significance matrix, effect sizes"},
    "zh": {"measures": "评估指标对比", "best": "各指标的最佳检索器", "tests": "显著性检验",
           "advice": "建议", "history": "持续评估", "figures": "图表",
           "many": "多个检索器：方差分析、显著性矩阵与效应量"},
}
HEADERS = {
    "en": {"system": "System", "tests": ("Measure", "System", "Other", "Difference",
                                         "Interval", "d_z", "p", "p corrected", "Significant"),
           "yes": "yes", "no": "no",
           "history": ("Time (UTC)", "Retriever", "Queries", "Alerts")},
    "zh": {"system": "检索器", "tests": ("指标", "检索器", "对照", "差值", "置信区间", "d_z",
                                        "p", "校正后 p", "显著"),
           "yes": "是", "no": "否",
           "history": ("时间（UTC）", "检索器", "查询数", "告警")},
}


ALERT_KINDS = {
    "en": {"threshold": "below threshold", "regression": "significant regression",
           "dataset": "dataset changed"},
    "zh": {"threshold": "低于阈值", "regression": "显著回归", "dataset": "数据集变更"},
}

