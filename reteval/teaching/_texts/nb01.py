"""The words of notebook 01 (the measures): table headers, printed lines, figure labels."""

from reteval._util.catalogue import section

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
                       "queries. Take {a} and {b}: by {above_a}, {a} ranks higher; by "
                       "{above_b}, {b} does.")),
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

# The hints of the exercises (reteval.teaching.exercises.nb01), from a nudge to a
# near-complete method: exercise.01.<i>.<key>.
EXERCISE_TEXTS = {
    "1.hints": (
        (
            "AP 在每个相关文档所在的名次上取一次精确率，再求平均。先找出相关文档在哪几个名次。",
            ("相关文档 d3、d1、d4 在第 1、3、5 位；在每个位置上，"
             "精确率 = 到该位置为止的相关文档数 ÷ 名次。"),
            ("trec_eval 把这些精确率的和除以全部相关文档的数量（包括从未被检索到的 d8），"
            "而不是除以检索到的相关文档数。"),
        ),
        (
            ("AP takes the precision at the rank of each relevant document, then averages. "
            "First find the ranks of the relevant documents."),
            ("The relevant d3, d1 and d4 are at ranks 1, 3 and 5; at each, precision = relevant "
            "documents so far ÷ rank."),
            ("trec_eval divides the sum of those precisions by the number of ALL relevant "
            "documents (d8, never retrieved, included), not by the relevant documents retrieved."),
        ),
    ),
    "2.hints": (
        (
            ("答案是一个文档编号 的列表（不重复），写法如 [\"d7\", \"d5\", \"d6\"]。"
             "比较两种 AP 的分母。"),
            ("本章的 average_precision 只对检索到的相关文档取平均：检索到的每个相关文档前面"
            "都没有不相关文档时，它给出 1.0。"),
            ("trec_eval 的 AP 除以全部 4 个相关文档：检索到的相关文档越少，它越低。"
            "最少要检索到几个相关文档，才能让本章的函数不返回 0？"),
        ),
        (
            ("The answer is a list of doc ids without repeats, written like [\"d7\", \"d5\", "
             "\"d6\"]. Compare the denominators of the two APs."),
            ("The chapter's average_precision averages over the relevant documents retrieved "
            "only: when no irrelevant document comes before any retrieved relevant one, it "
            "gives 1.0."),
            ("trec_eval's AP divides by all 4 relevant documents: the fewer relevant documents "
            "retrieved, the lower it is. How few can be retrieved so that the chapter's "
            "function does not return 0?"),
        ),
    ),
    "3.hints": (
        (
            ("写一个函数 average_precision(retrieved_docs, relevant_docs)，返回 trec_eval 的 AP；"
            "可以从本章的代码改起（teaching.show_source(teaching.average_precision)）。"),
            "本章的代码只有一处要改：最后求平均时的分母。没有相关文档的查询应得 0。",
            ("精确率仍在每个检索到的相关文档的名次上计算；求和以后，除以 len(relevant_docs)，"
            "而不是除以 precisions 的个数。"),
        ),
        (
            ("Write a function average_precision(retrieved_docs, relevant_docs) that returns "
            "trec_eval's AP; you may start from the chapter's code "
            "(teaching.show_source(teaching.average_precision))."),
            ("Only one thing in the chapter's code must change: the denominator of the final "
            "average. A query with no relevant document scores 0."),
            ("Precision is still taken at the rank of each relevant document retrieved; sum "
            "them and divide by len(relevant_docs), not by the number of precisions."),
        ),
    ),
    # 01.3: a wrong function, and the hidden cases it failed on
    "3.raised": ("在一个隐藏的测试用例上（{case}），你的函数出错：{error}。",
                 "On a hidden case ({case}) your function raised {error}."),
    "3.differs": ("在一个隐藏的测试用例上（{case}），结果与 trec_eval 的 AP 不同。",
                  "On a hidden case ({case}) the result differs from trec_eval's AP."),
    **section(
        "3.case",
        never_retrieved=("一个相关文档始终没有被检索到",
                         "a relevant document that is never retrieved"),
        none_retrieved=("没有检索到任何相关文档", "no relevant document retrieved"),
        no_relevant=("查询没有相关文档（应得 0）",
                     "a query with no relevant document (it scores 0)"),
        not_at_top=("相关文档全部找到，但不在最前面",
                    "every relevant document found, not at the top"),
        short=("只返回一个文档的短列表", "a short list of one document"),
        longer=("一个较长的列表", "a longer list"),
    ),
}
