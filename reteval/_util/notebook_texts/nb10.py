"""The words of notebook 10 (the evaluation report)."""

TEXTS = {
    # the chapter's report: its "best overall" and idxmax's ties
    "overall": (
        ("本章的“综合表现最佳”：{best}，均值的均值 {value:.4f}；"
         "第二名 {runner}，{runner_value:.4f}；差距 {margin:.4f}。"),
        ("The chapter's \"best overall\": {best}, mean of means {value:.4f}; runner-up {runner}, "
         "{runner_value:.4f}; lead {margin:.4f}."),
    ),
    "only_one": ("只有一个检索器 {best}，没有可比较的对象。",
                 "Only one system, {best}; nothing to compare."),
    "subset": ("只保留 {columns}：“综合最佳”是 {best}，比第二名 {runner} 高 {margin:.6f}。",
               ("Keeping only {columns}: the \"best overall\" is {best}, ahead of {runner} by "
                "{margin:.6f}.")),
    "subset_changes": ("（不再是全部列上的 {overall}）",
                       " (no longer {overall}, the full table's)"),
    "mean_of_means": ("均值的均值", "mean of means"),
    "tie": (
        ("{column} 上 {systems} 的均值完全相同（{value:.4f}）。本章的报告写 {first}；"
         "把检索器的顺序倒过来，同一份数据写 {reversed}。"),
        ("On {column}, {systems} have exactly the same mean ({value:.4f}). The chapter's report "
         "says {first}; with the systems in reverse order, the same data says {reversed}."),
    ),
    "no_tie": ("这些数据中没有完全并列的列。", "No column of these data is an exact tie."),
    # reteval's report: its tables
    "column.measure": ("指标", "measure"),
    "column.system": ("检索器", "system"),
    "column.mean": ("均值", "mean"),
    "column.ci_low": ("自助法置信区间下限", "bootstrap interval low"),
    "column.ci_high": ("自助法置信区间上限", "bootstrap interval high"),
    "column.n_queries": ("查询数", "queries"),
    "column.mean_difference": ("与基线之差", "difference from baseline"),
    "column.pvalue": ("p", "p"),
    "column.pvalue_corrected": ("校正后 p", "corrected p"),
    "column.significant": ("显著", "significant"),
    "best.system": ("最佳检索器", "best system"),
    "best.mean": ("均值", "mean"),
    "best.tied_with": ("并列", "tied with"),
    "best.runner_up": ("第二名", "runner-up"),
    "best.runner_up_mean": ("第二名均值", "runner-up mean"),
    "best.pvalue_corrected": ("校正后 p", "corrected p"),
    "best.status": ("结论", "verdict"),
    "status.significant": ("显著", "significant"),
    "status.not significant": ("不显著", "not significant"),
    "status.tie": ("并列", "tie"),
    "status.single": ("唯一", "single"),
    "retrieved": ("每个查询返回的文档数：{systems}。在不同深度下比较的指标：{measures}。",
                  ("Documents returned per query (NumRet): {systems}. Measures compared at unequal "
                   "depths: {measures}.")),
    "retrieved_by": ("{system} 均值 {mean:.1f}，{low:g}–{high:g}",
                     "{system} mean {mean:.1f}, {low:g} to {high:g}"),
    "separator": ("；", "; "),
    "list_separator": ("、", ", "),
    "none": ("无", "none"),
    # the continuous-evaluation history
    "no_history": (
        "没有找到持续评估的历史文件 {path}（先运行笔记本 09）；报告不含“持续评估”一节。",
        ("No continuous-evaluation history at {path} (run notebook 09 first); the report has no "
         "continuous-evaluation section."),
    ),
    "history": ("持续评估的历史：{n} 次评估，其中 {alerts} 次触发了告警。",
                ("Continuous-evaluation history: {n} evaluations, {alerts} of which raised an "
                 "alert.")),
    "history.entry_id": ("记录编号", "entry_id"),
    "history.created_utc": ("时间（UTC）", "time (UTC)"),
    "history.retriever": ("检索器", "retriever"),
    "history.dataset": ("数据集", "dataset"),
    "history.num_queries": ("查询数", "queries"),
    "history.alert": ("告警", "alert"),
    "history.alerts": ("告警内容", "alerts"),
    "history.alert_measures": ("告警指标", "alert measures"),
    "yes": ("是", "yes"),
    "no": ("否", "no"),
    # the files written
    "links": ("报告文件与图（相对于本笔记本所在的文件夹）：",
              "Report files and figures (relative to this notebook's folder):"),
}
