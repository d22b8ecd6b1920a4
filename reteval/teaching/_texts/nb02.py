"""The words of notebook 02 (a cheating leaderboard), in both languages."""

from reteval._util.catalogue import section

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

# The hints of the exercises (reteval.teaching.exercises.nb02), from a nudge to a
# near-complete method: exercise.02.<i>.<key>.
EXERCISE_TEXTS = {
    "1.hints": (
        (
            ("答案是一对数：(m, AP)。对 m = 1, 2, …, 6，把列表截成前 m 个，用本章的 "
            "average_precision 算一遍。"),
            ("本章的 AP 只在检索到的相关文档上取平均：截断后还剩几个相关文档，它们各自位置上的"
            "精确率是多少？取最高值对应的最小 m。"),
            ("得到 m 之后，trec_eval 的 AP 仍然是这些精确率之和除以全部 4 个相关文档"
            "（包括从未被检索到的两个）。"),
        ),
        (
            ("The answer is a pair: (m, AP). For m = 1, 2, ..., 6, cut the list to its first m "
            "documents and compute the chapter's average_precision."),
            ("The chapter's AP averages over the relevant documents retrieved only: after the "
            "cut, which relevant documents are left, and what is the precision at each? Take the "
            "smallest m with the highest value."),
            ("With that m, trec_eval's AP is still the sum of those precisions divided by all 4 "
            "relevant documents (the two never retrieved included)."),
        ),
    ),
    "2.hints": (
        (
            ("写一个函数 duplicate_ranks(ranking)：从上往下读列表，第一次遇到已经出现过的文档时，"
            "返回 (它第一次出现的名次, 这一次的名次)，名次从 1 数起；没有重复时返回 None。"),
            "用一个字典记下每个文档第一次出现的名次：enumerate(ranking, 1) 给出名次。",
            ("文档编号按字符串原样比较（\"D1\" 和 \"d1\" 是两个文档）；空列表没有重复。"
            "找到第一个重复就立即返回，不要继续往下找。"),
        ),
        (
            ("Write a function duplicate_ranks(ranking): read the list from the top; at the first "
            "document seen before, return (the rank where it first appeared, this rank), ranks "
            "counted from 1; return None when nothing repeats."),
            ("Keep a dict of the rank where each document first appeared: enumerate(ranking, 1) "
            "gives the ranks."),
            ("Compare doc ids as the strings they are (\"D1\" and \"d1\" are two documents); an "
            "empty list has no repeat. Return at the first repeat found, do not read on."),
        ),
    ),
    "3.hints": (
        (
            "答案是一个数：P@10 的期望增益。先算要补几个文档，以及可以从多少个文档里抽。",
            ("补 10 − 4 = 6 个文档，从列表之外的 204 − 4 = 200 个文档里不放回地随机抽取；"
            "列表之外还有几个相关文档？"),
            ("抽到的相关文档数的期望 = 抽取个数 × 列表外相关文档数 ÷ 列表外文档数；"
            "P@10 的增益是它再除以 10。"),
        ),
        (
            ("The answer is one number: the expected gain in P@10. First count the documents to "
            "add, and how many documents they are drawn from."),
            ("6 documents (10 - 4) are drawn without replacement from the 200 (204 - 4) outside "
            "the list; how many relevant documents are outside the list?"),
            ("Expected relevant documents drawn = draws × relevant outside the list ÷ documents "
            "outside the list; the gain in P@10 is that divided by 10."),
        ),
    ),
    "4.hints": (
        (
            ("答案是三个数：(最差, trec_eval, 最好)。d2、d3、d4 同为 0.5 分，只有它们三个的顺序"
            "会变；d1 始终第 1，d5 始终第 5。"),
            ("最好：相关的 d3 排在三者最前（第 2 位）；最差：排在三者最后（第 4 位）；trec_eval 按"
            "文档编号降序排列同分文档。"),
            ("每种顺序下，AP = 各相关文档位置上的精确率之和 ÷ 全部 4 个相关文档"
            "（d6 从未被检索到）。"),
        ),
        (
            ("The answer is three numbers: (worst, trec_eval, best). d2, d3 and d4 all score 0.5: "
            "only their order changes; d1 is always first and d5 always fifth."),
            ("Best: the relevant d3 comes first of the three (rank 2); worst: last of the three "
            "(rank 4); trec_eval orders equal scores by doc id, descending."),
            ("In each order, AP = the sum of the precision at each relevant document's rank ÷ all "
            "4 relevant documents (d6 is never retrieved)."),
        ),
    ),
    # 02.2: what a wrong answer is told
    "2.raised": ("在一个隐藏的测试用例上（{case}），你的函数出错：{error}。",
                 "On a hidden case ({case}) your function raised {error}."),
    "2.wrong": ("在一个隐藏的测试用例上（{case}），结果不对。",
                "On a hidden case ({case}) the result is wrong."),
    **section(
        "2.case",
        no_repeats=("没有重复的列表",
                    "a list without repeats"),
        right_after=("紧跟在原文档后面的副本",
                     "a copy right after its original"),
        further_down=("隔了几位的副本",
                      "a copy further down"),
        two_repeated=("两个文档都重复了",
                      "two documents repeated"),
        empty=("空列表",
               "an empty list"),
        case_only=("只有大小写不同的编号（是两个文档）",
                   "ids that differ in case only (two documents)"),
        long=("一个很长的列表",
              "a long list"),
    ),
}
