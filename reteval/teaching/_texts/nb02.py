"""The words of notebook 02 (a cheating leaderboard), in both languages."""

TEXTS = {
    # the entries and their tables
    "chapter": ("本章代码", "chapter"),
    "honest": ("诚实提交", "honest entry"),
    "stopped": ("只交前 {m} 个", "top {m} only"),
    "twice": ("每个文档交两次", "each document twice"),
    "renamed": ("改名后", "renamed"),
    "coarse": ("取整得分", "rounded scores"),
    "coarse_order": ("取整得分，{tool} 的顺序", "rounded scores, {tool}'s order"),
    "lengths": (("{n} 条查询中，{full} 条返回了 {k} 个文档，{short} 条不足 {k} 个"
                 "（最少的只有 {shortest} 个）。"),
                ("Of {n} queries, {full} return {k} documents and {short} fewer (the fewest: "
                "{shortest}).")),
    "yes": ("是", "yes"),
    "no": ("否", "no"),
    "none": ("无", "none"),
    # 2 stopping early
    "best_cut": (("本章 MAP 在每条查询只交 {m} 个文档时最高：{best:.4f}；"
                  "交满 {k} 个时是 {full:.4f}。"),
                 ("The chapter's MAP is highest when each query hands in {m} documents: "
                  "{best:.4f}; with all {k} it is {full:.4f}.")),
    "rose": ("上升的指标：{judge0}：{names0}；{judge1}：{names1}。",
             "Measures that rose: {judge0}: {names0}; {judge1}: {names1}."),
    "returned": ("每条查询交的文档数", "documents handed in per query"),
    "mean_value": ("查询平均值", "mean over queries"),
    "line_chapter": ("本章 {name}", "chapter {name}"),
    "line_standard": ("{tool} {name}", "{tool} {name}"),
    "line_variant": ("{name}：除以返回的文档数（常见写法，不是本章代码）",
                     ("{name} divided by the documents returned (a common variant, not the "
                     "chapter's)")),
    "stop_title": ("{retriever} 在 {dataset} 上：提前停止",
                   "{retriever} on {dataset}: stopping early"),
    # 3 repeating documents
    "above_one": ("本章 {name} 超过 1 的查询：{n} 条（共 {total} 条），最大值 {top:.3f}。",
                  "Queries whose chapter {name} exceeds 1: {n} of {total}; the largest {top:.3f}."),
    "refusal": ("{tool} 的回答：{message}", "{tool} says: {message}"),
    "accepted": ("{tool} 接受了这份运行结果。", "{tool} accepted the run."),
    # 4 padding
    "pad_header": (("平均增益", "增益的抽样占比", "下降的抽样占比", "随机填充的期望增益",
                    "本章代码的平均增益"),
                   ("mean gain", "share of draws that gain", "share of draws that lose",
                    "expected gain by chance", "chapter's mean gain")),
    "pad_line": (("{short} 条查询的列表不足 {k} 个文档，每次抽样都用随机文档补足，共抽样 {n} 次。"
                  "得分有变化的查询：{changed} 条，全部在这 {short} 条之中：{inside}。"
                  "{judged} 从 {before:.3f} 降到平均 {after:.3f}。"),
                 ("{short} queries list fewer than {k} documents; each draw fills them with random "
                  "documents, {n} draws in all. Queries whose scores changed: {changed}, all among "
                  "those {short}: {inside}. {judged} falls from {before:.3f} to {after:.3f} on "
                  "average.")),
    "pad_title": ("{n} 次随机填充：每次抽样的平均增益", "{n} random paddings: mean gain per draw"),
    "gain_axis": ("相对诚实提交的增益（查询平均）",
                  "gain over the honest entry (mean over queries)"),
    "draws_axis": ("抽样次数", "draws"),
    "judged_title": ("填充后的 {judged}", "{judged} after padding"),
    "judged_axis": ("{judged}（查询平均）", "{judged} (mean over queries)"),
    "honest_line": ("诚实提交：{value:.3f}", "honest entry: {value:.3f}"),
    # 5 ties
    "example_ids": ("例如 {before} 改名为 {after}。", "For example, {before} becomes {after}."),
    "tie_line": (("{what}：{groups} 个平局组，其中 {relevant} 个含相关文档与判断不同的文档，"
                  "分布在 {queries} 条查询中。"),
                 ("{what}: {groups} tied groups, {relevant} of them holding a relevant document "
                  "beside a document judged otherwise, in {queries} queries.")),
    "band_header": (("最差", "{tool} 的顺序", "最好"), ("worst", "{tool}'s order", "best")),
    "same_band": (("改名前后的平局区间相同：{same}；改名后的值在原区间内：{renamed}；"
                   "诚实提交的值在取整得分的区间内：{honest}。"),
                  ("The tie band is the same before and after renaming: {same}; the renamed "
                   "values lie within the original band: {renamed}; the honest entry's values "
                   "lie within the band of the rounded scores: {honest}.")),
    "band_title": ("取整得分的平局区间（查询平均）",
                   "Tie band of the rounded scores (mean over queries)"),
    "band_axis": ("指标值", "measure value"),
    "band_label": ("平局区间（最差到最好）", "tie band (worst to best)"),
    # 6 the scoreboard
    "board_header": (("作弊手段", "目标指标", "本章代码：诚实 → 作弊", "{tool}：诚实 → 作弊",
                      "{tool} 的结论"),
                     ("trick", "target measure", "chapter: honest → cheat",
                      "{tool}: honest → cheat", "{tool}'s verdict")),
    "trick_stop": ("提前停止（只交前 {m} 个）", "stop early (top {m} only)"),
    "trick_twice": ("重复文档（每个交两次）", "repeat documents (each twice)"),
    "trick_pad": ("随机填充到 {k} 个（{n} 次抽样的平均）",
                  "pad to {k} at random (mean of {n} draws)"),
    "trick_rename": ("得分取整后改名赢下平局", "round the scores, rename to win ties"),
    "verdict_lower": ("下降", "lower"),
    "verdict_same": ("不变", "unchanged"),
    "verdict_higher": ("上升", "higher"),
    "verdict_refused": ("拒绝：{where}", "refused: {where}"),
    "lines": ("第 {first} 和第 {second} 行", "lines {first} and {second}"),
    "verdict_pad": ("{change}，与随机期望 {chance:+.4f} 相当；{judged} {before:.3f} → {after:.3f}",
                    ("{change}, as chance expects ({chance:+.4f}); {judged} {before:.3f} → "
                    "{after:.3f}")),
    "verdict_band": ("在平局区间 [{low:.4f}, {high:.4f}] 之内：{inside}",
                     "within the tie band [{low:.4f}, {high:.4f}]: {inside}"),
    "board_link": ("计分板也保存为 [{name}]({target})。",
                   "The scoreboard is saved as [{name}]({target})."),
}
