"""The words of the interactive explorers, in Chinese and English.

Catalogue entries ``widgets.<key>`` (:mod:`reteval._util.catalogue`): controls, tables
and the text the explorers print.
"""

from reteval._util.catalogue import section

TEXTS = {
    **section(
        "",
        live_note=(("交互控件需要运行中的内核（JupyterLab、Jupyter 笔记本、VS Code）。"
                   "以下是控件当前显示的内容："),
                   ("The interactive controls need a live kernel (JupyterLab, Notebook, "
                   "VS Code). What they show now:")),
        system=("检索器", "system"),
        cutoff_k=("截断位置 K", "cutoff K"),
        mean_of=("{measure} 均值", "mean {measure}"),
        query=("查询", "query"),
        left=("左侧", "left"),
        right=("右侧", "right"),
        query_line=("查询 {q}：{text}（K = {k}）", "query {q}: {text} (K = {k})"),
        unjudged=("未判断", "unjudged"),
        missed=("相关但不在前 {k} 名：", "Relevant, not in the top {k}: "),
        none=("无", "none"),
        ranking_header=(("排名", "文档", "得分", "相关性判断", "标题"),
                        ("rank", "doc", "score", "judgment", "title")),
        grade_at_rank=("各排名位置上文档的相关等级", "Grade of the document at each rank"),
        metric_header=(("排名 i", "相关等级", "相关？", "第 i 位的精确率", "增益/log2(i+1)"),
                       ("rank i", "grade", "relevant?", "precision at i", "gain/log2(i+1)")),
        relevant=("相关", "relevant"),
        not_relevant=("不相关", "not"),
        judged_not_retrieved=("已判断但未返回：相关等级 {grades}（其中 {n} 个相关）。",
                              "Judged but not retrieved: grades {grades} ({n} relevant)."),
        relevant_at=("第 {rank} 名：相关吗？", "rank {rank}: relevant?"),
        not_retrieved=("未返回的相关文档", "not retrieved"),
        of_grade=("等级", "of grade"),
        baseline_rate=("基线比率", "baseline rate"),
        effect=("效应（绝对增量）", "effect (+abs.)"),
        alpha=("显著性水平 α", "alpha"),
        power=("统计功效", "power"),
        no_plan=("无法规划：{error}", "no plan: {error}"),
        plan_rates=(("基线 {baseline:.3f} -> 实验组 {treatment:.3f}（+{change:.3f}，"
                    "相对 {relative:+.1f}%）"),
                    ("baseline {baseline:.3f} -> treatment {treatment:.3f} "
                    "(+{change:.3f}, {relative:+.1f}% relative)")),
        plan_size=(("每组 {n:,} 人（共 {total:,} 人），双侧检验，显著性水平 α = {alpha:.3f}，"
                   "统计功效 {power:.2f}"),
                   ("n per group = {n:,} (total {total:,}) for power {power:.2f} at alpha "
                   "{alpha:.3f}, two-sided")),
    ),
}
