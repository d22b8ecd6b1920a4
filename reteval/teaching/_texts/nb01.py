"""The words of notebook 01 (the measures): table headers, printed lines, figure labels."""

TEXTS = {
    # the chapter's example, by hand beside the chapter's code and reteval
    "rank": ("排名", "rank"),
    "query": ("查询", "query_id"),
    "by_hand": ("手算", "by hand"),
    "chapter": ("本章代码", "chapter"),
    "linear_gain": ("线性增益", "linear gain"),
    "exp_gain": ("指数增益", "exponential gain"),
    "duplicate_chapter": ("本章 {function}（K=5）：{value:.4f}",
                          "chapter {function} (K=5): {value:.4f}"),
    "chapter_ap": ("本章 AP", "chapter AP"),
    "ranked_list": ("检索结果", "ranked list"),
    "order": ("顺序", "order"),
    "chapter_as_written": ("本章代码（按写出的顺序）", "chapter (order as written)"),
    # one ranked list, and queries on which the measures disagree
    "disagree_line": (("在 {total} 对查询中，有 {n} 对的指标意见相反。以 {a} 和 {b} 为例："
                       "{above_a} 认为 {a} 更好，{above_b} 认为 {b} 更好。"),
                      ("The measures give opposite verdicts on {n} of the {total} pairs of "
                       "queries. Take {a} and {b}: {above_a} rank {a} higher, {above_b} rank {b} "
                       "higher.")),
    # on a real collection
    "chapter_mean": ("本章代码均值", "chapter mean"),
    "mean_of": ("{name} 均值", "{name} mean"),
    "queries_differ": ("不同的查询数", "queries that differ"),
    "all_or_none": ("相关文档全部找到或一个也没找到", "all or no relevant retrieved"),
    "some_missed": ("找到一部分相关文档", "some relevant missed"),
    "ap_axis": ("AP（{tools}）", "AP ({tools})"),
    "chapter_function": ("本章 {function}", "chapter {function}"),
    "ap_title": ("{retriever} 在 {collection} 上：每条查询的 AP",
                 "{retriever} on {collection}: AP per query"),
}
