"""The words of notebook 10 (the evaluation report)."""

from reteval._util.catalogue import section

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

# The hints of the exercises (reteval.teaching.exercises.nb10), from a nudge to a
# near-complete method: exercise.10.<i>.<key>.
EXERCISE_TEXTS = {
    "1.hints": (
        (
            "答案是一个检索器名（字符串）。先用 chapter_results 算出加了 recall@100 的表。",
            "本章的“综合最佳”是各列均值的平均（df.mean(axis=1)）最高的那一行。",
            ("bm25（以及只重排 bm25 列表的 reranked）每个查询平均只返回约 19 篇文档，它们的 R@100 "
            "很低；vector 和 hybrid 都返回 100 篇。这一列让 vector 和 hybrid 的均值的均值"
            "各变化多少，两者的差距又变化多少？"),
        ),
        (
            ("The answer is a retriever's name (a string). First compute the table with "
            "recall@100 added, with chapter_results."),
            ("The chapter's \"best overall\" is the row with the highest mean of the columns "
            "(df.mean(axis=1))."),
            ("bm25 (and reranked, which re-orders bm25's list) returns about 19 documents per "
            "query, so their R@100 is low; vector and hybrid both return 100. How much does "
            "that one column move vector's and hybrid's means of means, and the gap between "
            "them?"),
        ),
    ),
    "2.hints": (
        (
            "答案是列名的集合，如 {\"recall@1\"}。逐列找出最高均值，再数有几个检索器达到它。",
            "不要只看打印的 4 位小数：用 == 比较完整的数值。",
            ("前 K 名完全相同的两个检索器，在截断位置不超过 K 的每一列都并列；"
            "每一列都要检查，包括 mrr。"),
        ),
        (
            ("The answer is a set of column names, such as {\"recall@1\"}. Find each column's "
            "highest mean, then count the retrievers that reach it."),
            "Do not go by the four printed decimals: compare the full values with ==.",
            ("Two retrievers with the same top K tie in every column with a cutoff of K or "
            "less; check every column, mrr included."),
        ),
    ),
    "3.hints": (
        (
            "答案是一个字母。“一样好”需要什么样的证据？",
            ("大于 0.05 的 p 值只说明这些查询没有显示出差异，它不是“相等”的证据；"
            "四位小数相同或报告里的名次也不是。"),
            "要说明差异在 ±0.01 之内，就要说明差异的合理范围整个落在这个区间里。",
        ),
        (
            "The answer is one letter. What kind of evidence does \"equally good\" need?",
            ("A p-value above 0.05 only says that these queries show no difference; it is no "
            "evidence of equality, and neither are equal printed decimals or a report's ranking."),
            ("To show that the difference is within ±0.01, show that the whole range of "
            "plausible differences lies inside that interval."),
        ),
    ),
    "4.hints": (
        (
            ("写一个函数 best_retrievers(results)，返回一个字典：每个指标对应一组检索器名。"
             "先把 results 转成 DataFrame（行是检索器，列是指标）。"),
            ("不要用 idxmax：它只返回第一个最大值。每一列先求最大值，再找出所有等于它（==）的行；"
             "比较完整的数值，不要先四舍五入（四舍五入会造出并列）。"),
            ("对每一列 m：top = df[m].max()，保留 df[m] == top 的那些行的名字；"
             "返回的字典要包含每一个指标，并列时值里有几个名字。"),
        ),
        (
            ("Write a function best_retrievers(results) that returns a dict: for each measure, a "
             "collection of retriever names. Start by turning results into a DataFrame (rows: "
             "retrievers, columns: measures)."),
            ("Do not use idxmax: it returns the first maximum only. Take each column's maximum, "
             "then find every row equal (==) to it, on the full values: rounding first invents "
             "ties."),
            ("For each column m: top = df[m].max(), then keep the names of the rows where "
             "df[m] == top; the dict has every measure, with several names where they tie."),
        ),
    ),
    # 10.4: what a wrong answer is told
    "4.raised": ("在隐藏的表“{case}”上，你的函数出错：{error}。",
                 "On the hidden table \"{case}\" your function raised {error}."),
    "4.wrong": ("在隐藏的表“{case}”上，结果不对。",
                "On the hidden table \"{case}\" the result is wrong."),
    **section(
        "4.case",
        no_ties=("没有并列的表",
                 "a table without ties"),
        tied_first=("两个检索器并列第一",
                    "two retrievers tied first"),
        reversed=("同一张表，检索器顺序倒过来",
                  "the same table, the retrievers in reverse order"),
        tied_column=("所有检索器在一列上并列",
                     "every retriever tied on a column"),
        tied_second=("只有第二名并列",
               "a tie for second place only"),
        zeros=("一列全是 0",
               "a column of zeros"),
        single=("只有一个检索器",
               "a single retriever"),
        close_not_tied=("两个均值只在第 5 位小数上不同",
                        "two means that differ only in the 5th decimal"),
        close_to_a_tie=("第三个均值比并列的最高值只小一点点",
                        "a third mean a hair below a tie at the top"),
    ),
}
