"""The words of notebook 05 (comparing retrievers): tables, figures and printed lines."""

from reteval._util.catalogue import section

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
    "control_alone": ("阴性对照 {c}（单独与 {b} 检验，全深度 AP，不参加 Holm 校正）：p {p}。",
                      ("negative control {c}, tested alone against {b} (full-depth AP, outside "
                       "the Holm family): p {p}.")),
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

# The hints of the exercises (reteval.teaching.exercises.nb05), from a nudge to a
# near-complete method: exercise.05.<i>.<key>.
EXERCISE_TEXTS = {
    # 05.2: the options, by letter
    **section(
        "2.option",
        A=("让 BM25 返回 1000 篇候选文档，而不是 100 篇。",
           "Ask BM25 for 1000 candidates instead of 100."),
        B=(("候选文档改由一个能返回与查询没有共同词项的文档的第一阶段提供，"
            "例如 vector 或 hybrid。"),
           ("Take the candidates from a first stage that can return documents sharing no term "
            "with the query, such as vector or hybrid.")),
        C=("把第二阶段换成一个更大的多语言模型。",
           "Replace the second stage with a larger multilingual model."),
        D=("把未判断的文档算作相关。",
           "Count unjudged documents as relevant."),
    ),
    "1.hints": (
        (
            "答案是一个整数（查询的个数）。NumRet 是一个查询实际返回的文档数。",
            ("对 bm25 在教学数据集上的 run（k=100）计算逐查询的 NumRet："
            "reteval.evaluate(qrels, run, [\"NumRet\"])，再数其中小于 5 的有几个。"),
            ("BM25 只返回与查询至少共享一个词项的文档，所以 NumRet 可以远小于 100；"
            "不要数等于 5 的查询。"),
        ),
        (
            ("The answer is a whole number (of queries). NumRet is the number of documents a "
            "query actually gets."),
            ("Evaluate per-query NumRet on bm25's run over the teaching collection (k=100): "
            "reteval.evaluate(qrels, run, [\"NumRet\"]), then count the values below 5."),
            ("BM25 returns only documents sharing at least one term with the query, so NumRet "
            "can be far below 100; do not count queries with exactly 5."),
        ),
    ),
    "2.hints": (
        (
            "答案是一个字母。reranked 的第二阶段能看到哪些文档？",
            ("第 1 节：BM25 只返回与查询至少共享一个词项的文档，要 100 篇时平均只返回约 19 篇。"
            "要它返回更多篇，会多出另一种语言的文档吗？"),
        ),
        (
            "The answer is one letter. Which documents does reranked's second stage ever see?",
            ("Section 1: BM25 returns only documents sharing at least one term with the query, "
            "about 19 on average when asked for 100. Would asking it for more bring documents "
            "of the other language?"),
        ),
    ),
    "3.hints": (
        (
            "答案是 0 到 1 之间的一个数（三位小数）。章节的 dcg_at_k 给等级为 rel 的文档多少增益？",
            ("章节的增益是 2**rel - 1，折损是 log2(名次 + 1)："
            "DCG = 第 1 名的增益 / log2(2) + 第 2 名的增益 / log2(3)。"),
            "再除以理想排序（等级 2 的文档排第一）用同样增益算出的 DCG。",
        ),
        (
            ("The answer is a number between 0 and 1 (three decimals). Which gain does the "
            "chapter's dcg_at_k give a document of grade rel?"),
            ("The chapter's gain is 2**rel - 1 and its discount log2(rank + 1): DCG = the gain "
            "at rank 1 / log2(2) + the gain at rank 2 / log2(3)."),
            ("Then divide by the DCG of the ideal ranking (the grade-2 document first), with "
            "the same gain."),
        ),
    ),
    "4.hints": (
        (
            ("写一个函数 top_k(run, k)：run 是有 query_id、doc_id、score 三列的 DataFrame，"
             "返回每个查询排在前 k 名的行。"),
            ("排序要和 trec_eval 一样：分数降序；分数相同时，doc_id 按字符串降序。"
             "输入的行不一定已经排好。"),
            ("可以先用 sort_values 按 [\"query_id\", \"score\", \"doc_id\"] 排序"
             "（升序、降序、降序），再按 query_id 分组取前 k 行；文档不足 k 篇的查询保留全部。"),
        ),
        (
            ("Write a function top_k(run, k): run is a DataFrame with the columns query_id, "
             "doc_id and score; return each query's rows at ranks 1 to k."),
            ("Rank as trec_eval does: score descending; equal scores by doc_id descending, as "
             "strings. The rows given may be in any order."),
            ("Sort with sort_values on [\"query_id\", \"score\", \"doc_id\"] (ascending, "
             "descending, descending), then group by query_id and take the first k rows; a "
             "query with fewer than k documents keeps them all."),
        ),
    ),
    # 05.4: what a wrong answer is told
    "4.raised": ("在一个隐藏的 run 上（{case}），你的函数出错：{error}。",
                 "On a hidden run ({case}) your function raised {error}."),
    "4.wrong": ("在一个隐藏的 run 上（{case}），保留的文档不对。",
                "On a hidden run ({case}) the documents kept are not the right ones."),
    **section(
        "4.case",
        unsorted=("行没有按分数排序",
                  "rows not sorted by score"),
        tied_at_k=("第 k 名处有同分的文档",
                   "tied scores at rank k"),
        interleaved=("多个查询交错出现",
                     "several queries, interleaved"),
        fewer_than_k=("查询的文档少于 k 篇",
                      "queries with fewer than k documents"),
        string_ids=("文档编号 按字符串比较",
                    "doc ids compared as strings"),
    ),
}
