"""The words of notebook 03 (the evaluation set, RAG context metrics)."""

TEXTS = {
    "chapter": ("本章代码", "chapter"),
    # the datasheet
    "no_datasheet": ("{name} 没有附带数据说明：使用前请查明它的查询和判断从何而来。",
                     ("{name} comes without a datasheet: find out where its queries and "
                      "judgments come from before use.")),
    "datasheet_link": ("**数据说明**：[{file}]({link})（{name} 的数据说明）",
                       "**Datasheet**: [{file}]({link}) ({name}'s datasheet)"),
    # choosing queries, grades
    "judged": ("已判断", "judged"),
    "relevant": ("相关（等级≥1）", "relevant (grade ≥ 1)"),
    "language": ("语言", "language"),
    "chinese": ("中文", "Chinese"),
    "english": ("英文", "English"),
    "statistics": (("查询数", "最小值", "中位数", "最大值"), ("count", "min", "median", "max")),
    "grade": ("等级", "grade"),
    "judgments": ("判断数", "judgments"),
    "level_column": ("相关性阈值 = {level}", "relevance_level={level}"),
    # pooling
    "pool_rows": (("池中文档数（每条查询平均）", "已知相关文档数", "其中在池中", "池的召回率"),
                  ("documents in the pool (mean per query)", "known relevant documents",
                   "of which in the pool", "pool recall")),
    "pool_name": ("深度 {depth}：{retriever} + {other}", "depth {depth}: {retriever} + {other}"),
    "pool_finding": (("只用这两个检索器、深度 {depth} 建池，"
                      "已知相关文档中有 {inside:.0%} 会被判断到；"
                      "其余 {outside:.0%} 在池外，会被当作不相关。"),
                     ("A depth-{depth} pool of these two retrievers would have judged "
                      "{inside:.0%} of the known relevant documents; the other {outside:.0%} fall "
                      "outside it and would count as not relevant.")),
    "pool_judgments": (("全部判断", "只有池内的判断"), ("all judgments", "pool judgments only")),
    "pool_scores_index": (("检索器", "判断"), ("retriever", "judgments")),
    # unjudged documents
    "p10_lower": ("P@10 下限", "P@10 lower"),
    "p10_upper": ("P@10 上限", "P@10 upper"),
    "judged_low": ("{name} 的前 10 个结果中判断过的比例较低（{share:.2f}）。",
                   "{name} has the lower share of judged documents in its top 10 ({share:.2f}). "),
    "ranges_overlap": ("两个系统的 P@10 范围相互重叠：仅凭这些判断，无法确定谁的 P@10 更高。",
                       ("The two P@10 ranges overlap: these judgments cannot tell which "
                        "system has the higher P@10.")),
    "ranges_apart": ("两个系统的 P@10 范围不重叠。", "The two P@10 ranges do not overlap."),
    # how many queries
    "queries_needed": ("所需查询数", "queries needed"),
    "power_at_hand": ("现有 {n} 条查询的统计功效", "power with the {n} queries at hand"),
    "permutation": (("{other} − {retriever} 的 {measure}：{n} 条查询上均值差 {mean:+.4f}。"
                     "随机翻转正负号 10000 次，离 0 至少这么远的比例（置换检验的 p 值）为 "
                     "{p_perm:.4f}；配对 t 检验的 p 值为 {p_t:.4f}。"),
                    ("{measure} of {other} − {retriever}: mean difference {mean:+.4f} over {n} "
                     "queries. With the signs flipped at random 10,000 times, the share at least "
                     "this far from 0 (the permutation test's p-value) is {p_perm:.4f}; the paired "
                     "t test's p-value is {p_t:.4f}.")),
    "pilot": ("试点：{other} − {retriever} 的 {measure} 差异，均值 {mean:+.4f}，标准差 {sd:.4f}",
              "pilot: {measure} of {other} − {retriever}, mean {mean:+.4f}, sd = {sd:.4f}"),
    "sd_pilot": ("标准差 = {sd:.3f}（试点）", "sd = {sd:.3f} (pilot)"),
    "sd_twice": ("标准差 = {sd:.3f}（两倍）", "sd = {sd:.3f} (twice)"),
    "queries_at_hand": ("现有查询数 {n}", "queries at hand: {n}"),
    "delta_axis": ("要检测的 {measure} 差异 δ", "{measure} difference to detect, δ"),
    "needed_axis": ("所需查询数（对数坐标）", "queries needed (log scale)"),
    "power_title": ("配对 t 检验，α = 0.05，统计功效 80%", "paired t test, α = 0.05, power 80%"),
    # the two fields of EvaluationQuery
    "ranked_list": ("检索结果：{ranking}", "ranked list: {ranking}"),
    "qrels.query_id": ("查询", "query_id"),
    "qrels.doc_id": ("文档", "doc_id"),
    "qrels.relevance": ("相关等级", "relevance"),
    # RAG
    "rag.context_recall": ("上下文召回率", "context_recall"),
    "rag.context_precision": ("上下文精确率", "context_precision"),
    "sample": ("样本", "sample"),
    "cjk": ("中文切分方式", "cjk"),
    "coverage_columns": (("样本", "上下文排名", "上下文", "覆盖率（单字）", "覆盖率（双字）"),
                         ("sample", "context rank", "context", "coverage (characters)",
                          "coverage (bigrams)")),
    "coverage": ("覆盖率", "coverage"),
    "supported_at": ("阈值 {threshold} 时支持？", "supported at threshold {threshold}?"),
    "yes": ("是", "yes"),
    "no": ("否", "no"),
    "judge_calls": ("判定器被调用了 {n} 次。第一个提示词：",
                    "The judge was called {n} times. The first prompt:"),
}
