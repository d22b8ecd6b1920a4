"""The words of notebook 05 (comparing retrievers): tables, figures and printed lines."""

TEXTS = {
    # tables
    "system": ("检索器", "retriever"),
    "mean_numret": ("平均返回文档数", "mean documents returned"),
    "min_numret": ("最少", "min"),
    "max_numret": ("最多", "max"),
    "chapter_col": ("章节的指标", "chapter's measure"),
    "ours_col": ("{tool} 的指标", "{tool} measure"),
    "max_diff": ("最大绝对差", "largest absolute difference"),
    "direction": ("方向（查询语言→文档语言）", "direction (query → document language)"),
    "comparison_columns": (
        ("指标", "检索器", "均值", "均值的自助法区间下限", "上限", "与基线之差", "差值区间下限",
         "上限", "p", "校正后 p", "显著"),
        ("measure", "retriever", "mean", "mean: bootstrap low", "high", "difference from baseline",
         "difference: interval low", "high", "p", "corrected p", "significant"),
    ),
    # figures
    "K": ("截断位置 K", "cutoff K"),
    "ylabel_R": ("召回率 {m}", "recall {m}"),
    "ylabel_P": ("精确率 {m}", "precision {m}"),
    "ylabel_nDCG": ("归一化折损累计增益 {m}", "normalised DCG {m}"),
    "ylabel_AP": ("平均精度 {m}", "average precision {m}"),
    "curves": ("各指标随截断位置 K 的变化", "measures against the cutoff K"),
    "ap_title": ("AP@K：只计前 K 名的平均精度", "AP@K: average precision over the top K only"),
    "bm25_depth": ("{b} 平均深度", "mean depth of {b}"),
    "numret_title": ("每个查询返回的文档数", "documents returned per query"),
    "query_rank": ("查询（按返回文档数排序）", "queries (sorted by documents returned)"),
    "docs": ("返回文档数", "documents returned"),
    "padding_title": ("{c}（随机补足）：{n} 个种子的全深度 AP",
                      "{c} with random padding: full-depth AP over {n} seeds"),
    "seeds": ("种子数", "seeds"),
    "ap_full": ("全深度 AP（K = {d}）", "full-depth AP (K = {d})"),
    "diff_cut": ("{m} 之差（{s} − {b}）", "{m} difference ({s} − {b})"),
    "diff_full": ("AP 之差（{s} − {b}，全深度）", "AP difference ({s} − {b}, full depth)"),
    # printed lines
    "default_ids": ("默认参数 {name} 是同一个列表对象：{same}",
                    "The default {name} is one list object shared by every call: {same}"),
    "yes": ("是", "True"),
    "no": ("否", "False"),
    "none_ids": ("文档没有编号时，章节的评估器不报错，所有指标都是 0：{values}",
                 ("Documents without an id: the chapter's evaluator raises nothing and scores 0: "
                 "{values}")),
    "identical": (("{b} 与 {a}：{b} 的前 n 名（n 为 {a} 返回的文档数）与 {a} 的整个结果逐位相同的"
                  "查询有 {same}/{queries} 个。"),
                  ("{b} and {a}: for {same} of {queries} queries, {b}'s top n documents are "
                   "exactly {a}'s whole result, rank by rank (n = the documents {a} returned).")),
    "pairs": ("相关的（查询, 文档）对：{counts}。表中是各方向上前 K 名找到的比例（召回率）。",
              ("Relevant (query, document) pairs: {counts}. The table gives the share found in the "
              "top K (recall), by direction.")),
    "sig": ("{m}：与 {b} 相比差异显著的检索器（Holm 校正后 p ≤ {a}）：{s}。",
            "{m}: retrievers significantly different from {b} (Holm-corrected p <= {a}): {s}."),
    "none": ("无", "none"),
    "sep": ("、", ", "),
    "best": ("{m} 均值最高的是 {s}（{v:.4f}）。", "highest mean {m}: {s} ({v:.4f})."),
    "padding": (("{c} 重复 {n} 次（种子 {first}–{last}）：全深度 AP 从 {lo:.4f} 到 {hi:.4f}，"
                "中位数 {med:.4f}。"),
                ("{c} drawn {n} times (seeds {first}–{last}): full-depth AP from {lo:.4f} to "
                "{hi:.4f}, median {med:.4f}.")),
    "shorter": ("{b} 返回不足 {k} 篇的查询：{n}/{q}。",
                "queries on which {b} returns fewer than {k} documents: {n} of {q}."),
    "padding_recall": ("{c} 的 R@{k}：{lo:.3f} 到 {hi:.3f}，平均 {mean:.3f}。",
                       "{c}'s R@{k}: from {lo:.3f} to {hi:.3f}, mean {mean:.3f}."),
    "padding_vs": ("  高于 {s}（{v:.4f}）的种子：{above}/{n}。",
                   "  seeds above {s} ({v:.4f}): {above}/{n}."),
}
