"""The words of notebook 04 (building and trusting the evaluation set)."""

TEXTS = {
    # section 1: two assessors
    "disagreement_line": (
        "{pairs} 个（查询，文档）对，{disagreements} 处不一致：",
        "{pairs} (query, document) pairs, {disagreements} disagreements:",
    ),
    "title": ("标题", "title"),
    "query": ("查询", "query_id"),
    "doc": ("文档", "doc_id"),
    "main": ("主判断", "main"),
    "second": ("第二位", "second"),
    "value": ("值", "value"),
    "items": ("（查询，文档）对", "(query, document) pairs"),
    "disagreements": ("不一致", "disagreements"),
    "percent_agreement": ("百分比一致率", "percent agreement"),
    "kappa": ("κ", "kappa"),
    "kappa_linear": ("线性加权 κ", "kappa, linear weights"),
    "kappa_quadratic": ("二次加权 κ", "kappa, quadratic weights"),
    "binary_kappa": ("二元 κ", "binary kappa"),
    "levels": (("名义", "有序", "等距"), ("nominal", "ordinal", "interval")),
    "alpha": ("Krippendorff α", "Krippendorff's alpha"),
    # section 2: the systems' ranking under each assessor
    "kendall": ("肯德尔 τ", "Kendall tau"),
    "tau_ap": ("τ_AP", "tau_AP"),
    "best_main": ("主判断的第一名", "best (main)"),
    "best_second": ("第二位的第一名", "best (second)"),
    # section 3: pooling
    "fallback": (
        ("没有找到 {path}（判断完整的集合，例如 {example}）。下面改用教学数据集：它的判断不完整，"
         "数字不能说明池化在真实集合上的表现，下面的文字描述的是 {reference} 上的结果。"),
        ("{path} (a collection with complete judgments, e.g. {example}) is not there. The "
         "teaching collection is used instead: its judgments are not complete, so its numbers say "
         "nothing about pooling on a real collection; the text below describes the results on "
         "{reference}."),
    ),
    "complete": (
        "{name}：{queries} 条查询，{judgments} 个判断。完整判断下的 {measure}：",
        "{name}: {queries} queries, {judgments} judgments. {measure} with the complete judgments:",
    ),
    "pool_depth": ("池深", "pool depth"),
    "sweep_columns": (
        ("判断的对数", "每条查询的对数", "已知相关文档在池中的比例", "肯德尔 τ", "τ_AP",
         "每个运行的分数都偏高"),
        ("pairs judged", "per query", "share of the known relevant", "Kendall tau", "tau_AP",
         "every run scores too high"),
    ),
    "yes": ("是", "yes"),
    "no": ("否", "no"),
    "fig_share": ("池中已知相关文档的比例", "share of the known relevant in the pool"),
    "fig_tau": ("与完整判断排名的肯德尔 τ", "Kendall tau with the complete ranking"),
    "fig_depth": ("池深 k", "pool depth k"),
    "loo": (
        ("池深 {depth}：被留在池外时，运行最多损失 {drop:.4f} 的 {measure}，"
         "{moved} 个运行名次改变。"),
        ("Pool depth {depth}: left out of the pool, a run loses at most {drop:.4f} {measure}; "
         "{moved} run(s) change rank."),
    ),
    "run": ("运行", "run"),
    "loo.pooled": ("建池时的得分", "pooled"),
    "loo.left_out": ("留在池外时的得分", "left_out"),
    "loo.change": ("变化", "change"),
    "loo.rank_pooled": ("建池时的名次", "rank_pooled"),
    "loo.rank_left_out": ("留在池外时的名次", "rank_left_out"),
    "loo.rank_change": ("名次变化", "rank_change"),
    "loo.judged": ("已判断比例", "judged"),
    # section 4: a machine judge
    "human": ("人工", "human"),
    "judge": ("判定器", "judge"),
    "qrels.query_id": ("查询", "query_id"),
    "qrels.doc_id": ("文档", "doc_id"),
    "qrels.relevance": ("等级", "relevance"),
    "qrels.judge": ("判定器", "judge"),
    "qrels.votes": ("各次回答的等级", "votes"),
    "cross": (
        "人工判为相关的跨语言对有 {relevant} 个，判定器给了其中 {missed} 个 0 分。",
        ("Of the {relevant} cross-language pairs the humans judged relevant, the judge gave "
         "{missed} a 0."),
    ),
    "noisy": (
        "与无噪声判定器的 κ：问 1 次 {once:.3f}，问 5 次取多数 {five:.3f}",
        "kappa with the noiseless judge: asked once {once:.3f}, majority of 5 {five:.3f}",
    ),
    "not_sure": ("不确定", "not sure"),
    "failures.query_id": ("查询", "query_id"),
    "failures.doc_id": ("文档", "doc_id"),
    "failures.sample": ("第几次询问", "sample"),
    "failures.error": ("失败原因", "error"),
}
