"""The words of notebook 03 (the evaluation set, RAG context metrics)."""

from reteval._util.catalogue import section

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

# The hints of the exercises (reteval.teaching.exercises.nb03), from a nudge to a
# near-complete method: exercise.03.<i>.<key>.
EXERCISE_TEXTS = {
    "1.hints": (
        (
            "答案是一对数：(Judged@5, P@5 的上限)。先数前 5 个文档中有几个出现在相关性判断里。",
            "判为 0 分的文档也算“已判断”；d3 和 d5 没有判断。",
            ("未判断的文档按不相关计分；P@5 的上限假设每个未判断的文档其实都相关："
            "在已判断为相关的文档之外，再加上未判断的文档。"),
        ),
        (
            ("The answer is a pair: (Judged@5, highest possible P@5). First count how many of "
            "the top 5 appear in the judgments."),
            "A document judged 0 counts as judged; d3 and d5 are unjudged.",
            ("Unjudged documents are scored as not relevant; the highest possible P@5 assumes "
            "each unjudged document is in fact relevant: add them to the documents judged "
            "relevant."),
        ),
    ),
    "2.hints": (
        (
            "覆盖率 = 参考陈述中不同的词元有多少比例出现在上下文里。答案是 0 到 1 之间的一个数。",
            ("cjk=\"bigram\" 时，中文按相邻两个字切分：先列出参考陈述的全部双字词元，"
             "重复的只算一次（不同的有几个？）。"),
            "再数其中有几个也出现在上下文的双字词元里：参考陈述多出来的“向量”“和查询”带来了新的字对。",
        ),
        (
            ("Coverage = the share of the statement's distinct tokens that occur in the "
            "context. The answer is a number between 0 and 1."),
            ("With cjk=\"bigram\" Chinese is cut into overlapping character pairs: list the "
             "pairs of the statement, each distinct pair once (how many are there?)."),
            ("Then count how many also occur among the pairs of the context: the statement's "
             "extra 向量 and 和查询 bring new pairs."),
        ),
    ),
    "3.hints": (
        (
            ("写一个函数 context_precision(relevant)：relevant[i] 表示第 i+1 位的上下文是否相关。"
             "在每个相关上下文所在的名次 k 上，取前 k 个上下文的精确率。"),
            ("把这些精确率加起来，再除以列表中相关上下文的个数（不是列表的长度）。"
             "没有相关上下文时（包括空列表）返回 0。"),
            ("用 enumerate(relevant, 1) 逐个名次走一遍：记下到目前为止的相关上下文数；"
             "遇到相关的上下文时，把“相关数 ÷ 名次”加到总和上；最后用总和除以相关数。"
             "这和笔记本 01 里本章的 average_precision 是同一个分母。"),
        ),
        (
            ("Write a function context_precision(relevant), where relevant[i] says whether the "
             "context at rank i+1 is relevant. At the rank k of each relevant context, take "
             "the precision of the first k contexts."),
            ("Sum those precisions and divide by the number of relevant contexts in the list "
             "(not by its length). With no relevant context (an empty list included), "
             "return 0."),
            ("Walk the ranks with enumerate(relevant, 1), counting the relevant contexts so "
             "far; at a relevant one, add count ÷ rank to a total; at the end divide the total "
             "by the count. It is the denominator of the chapter's average_precision in "
             "notebook 01."),
        ),
    ),
    # 03.3: what a wrong answer is told
    "3.raised": ("在一个隐藏的测试用例上（{case}），你的函数出错：{error}。",
                 "On a hidden case ({case}) your function raised {error}."),
    "3.differs": ("在一个隐藏的测试用例上（{case}），结果与 reteval 的上下文精确率不同。",
                  "On a hidden case ({case}) the result differs from reteval's context precision."),
    **section(
        "3.case",
        chapter_example=("本章的例子：唯一相关的上下文排在第 1 位",
                         "the chapter's example: the only relevant context at rank 1"),
        not_at_top=("相关的上下文不在最前面",
                    "relevant contexts not at the top"),
        no_relevant=("没有相关的上下文（应得 0）",
                     "no relevant context (it scores 0)"),
        no_context=("一个上下文也没有（应得 0）",
                    "no context at all (it scores 0)"),
        all_relevant=("每个上下文都相关",
                      "every context relevant"),
        longer=("一个较长的列表",
                "a longer list"),
    ),
}
