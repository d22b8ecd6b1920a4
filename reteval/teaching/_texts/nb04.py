"""The words of notebook 04 (building and trusting the evaluation set)."""

from reteval._util.catalogue import section

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
    "fig_value": ("取值（比例：0 到 1；τ：−1 到 1）", "value (share: 0 to 1; tau: −1 to 1)"),
    "loo": (
        ("池深 {depth}：被留在池外时，运行最多损失 {drop:.4f} 的 {measure}，"
         "{moved} 个运行名次改变。"),
        ("Pool depth {depth}: left out of the pool, a run loses at most {drop:.4f} {measure}; "
         "{moved} run(s) change rank."),
    ),
    "run": ("运行", "run"),
    "loo.group": ("同组", "group"),
    "loo.pooled": ("建池时的得分", "pooled"),
    "loo.left_out": ("留在池外时的得分", "left_out"),
    "loo.change": ("变化", "change"),
    "loo.rank_pooled": ("建池时的名次", "rank_pooled"),
    "loo.rank_left_out": ("留在池外时的名次", "rank_left_out"),
    "loo.rank_change": ("名次变化", "rank_change"),
    "loo.judged": ("已判断比例", "judged"),
    "loo.in_pool": ("在池中比例", "in_pool"),
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

# The hints of the exercises (reteval.teaching.exercises.nb04), from a nudge to a
# near-complete method: exercise.04.<i>.<key>.
EXERCISE_TEXTS = {
    "1.hints": (
        (
            "答案是一个数。kappa 比较的是观测到的一致与偶然会有的一致。",
            ("先数两位标注者一致的比例 p_o，再用各自给 1 和 0 的比例算偶然一致 "
            "p_e = p_A(1)·p_B(1) + p_A(0)·p_B(0)。"),
            "kappa = (p_o − p_e) / (1 − p_e)。",
        ),
        (
            ("The answer is a number. Kappa compares the agreement observed with the agreement "
            "chance would give."),
            ("Count the share of items where they agree (p_o); chance agreement is "
            "p_e = p_A(1)·p_B(1) + p_A(0)·p_B(0)."),
            "kappa = (p_o − p_e) / (1 − p_e).",
        ),
    ),
    "2.hints": (
        (
            "答案是一对数：(顶部交换的 tau_AP, 底部交换的 tau_AP)。",
            ("按被检验的排序从上往下，对第 i 个系统（i ≥ 2）数它上面的系统中"
            "有几个在 TRUTH 里也排在它上面，记为 C(i)。"),
            "tau_AP = 2/(N−1) · Σ C(i)/(i−1) − 1：靠前的位置权重更大。",
        ),
        (
            "The answer is a pair: (tau_AP of the top swap, tau_AP of the bottom swap).",
            ("Go down the ranking under test: for the i-th system (i ≥ 2) count C(i), "
            "the systems above it that TRUTH also puts above it."),
            "tau_AP = 2/(N−1) · Σ C(i)/(i−1) − 1: the top positions weigh more.",
        ),
    ),
    "3.hints": (
        (
            "答案是一个整数：送去判断的（查询, 文档）对的个数。",
            "取每个运行的前 3 个文档，合并后去掉重复，数剩下多少个。",
        ),
        (
            "The answer is a whole number: the (query, document) pairs sent to the assessors.",
            "Take each run's top 3 documents, merge them, drop repeats, and count.",
        ),
    ),
    "4.hints": (
        (
            ("答案是一对数：(c 不参与建池时的 P@3, c 参与建池时的 P@3)。"
             "c 不参与建池时，哪些文档会被判断？"),
            ("不参与时只用 a 和 b 的前 3 个文档组成的池：池外的判断都当作不存在（不相关）；"
             "参与时 c 的前 3 个文档都在池里。"),
            "两种情况下都数一数 c 的前 3 个文档里有几个既在池里又相关，除以 3。",
        ),
        (
            ("The answer is a pair: (c's P@3 left out of the pool, c's P@3 contributing to it). "
             "With c left out of the pool, which documents get judged?"),
            ("Left out, pool only a's and b's top 3; judgments outside that pool are dropped "
             "(unjudged counts as not relevant). Contributing, c's top 3 are all in the pool."),
            ("In each case count c's top 3 documents that are in the pool and relevant, and "
             "divide by 3."),
        ),
    ),
    # 04.4: what a wrong answer is told
    "4.one_number": ("这道题要两个数：c 不参与建池时的 P@3，和参与建池时的 P@3。",
                     ("The exercise asks for two numbers: c's P@3 left out of the pool, and "
                      "contributing to it.")),
    "4.swapped": ("顺序反了：先写 c 不参与建池时的 P@3，再写参与建池时的。",
                  ("The order is reversed: first c's P@3 left out of the pool, then "
                   "contributing to it.")),
    "4.keys": ("字典的两个键要说明各是哪种情况，例如键 \"left_out\" 和 \"pooled\"。",
               ("The dict's two keys must say which case each is, such as the keys "
                "\"left_out\" and \"pooled\".")),
    "5.hints": (
        (
            ("写一个函数 kappa(a, b)，返回一个数。先算 p_o：两人给出相同等级的文档占多少。"),
            ("p_e 是偶然一致：对两人用过的每个等级 g，把 A 给 g 的比例乘以 B 给 g 的比例，"
             "再把这些乘积加起来。"),
            ("用 collections.Counter(a) 和 Counter(b) 数每个等级的次数，除以文档数得到比例；"
             "最后 (p_o − p_e) / (1 − p_e)。"),
        ),
        (
            ("Write a function kappa(a, b) that returns a number. Start with p_o: the share of "
             "documents given the same grade by both."),
            ("p_e is chance agreement: for every grade g either assessor used, multiply the share "
             "of A's grades that are g by the share of B's grades that are g, and add these up."),
            ("Count each grade with collections.Counter(a) and Counter(b), divide by the number "
             "of documents for the shares; then (p_o − p_e) / (1 − p_e)."),
        ),
    ),
    # 04.5: what a wrong answer is told
    "5.raised": ("在“{case}”这组判断上，你的函数出错：{error}。",
                 "On the hidden case \"{case}\" your function raised {error}."),
    "5.wrong": ("在“{case}”这组判断上，结果不对。",
                "On the hidden case \"{case}\" the result is wrong."),
    **section(
        "5.case",
        binary=("二元判断",
                "binary grades"),
        graded=("0–3 的分级判断",
                "grades 0–3"),
        one_assessor=("一个等级只有一位标注者用过",
                      "a grade only one assessor used"),
        perfect=("完全一致（应得 1）",
                 "perfect agreement (kappa is 1)"),
        worse_than_chance=("比偶然还差的一致（kappa 为负）",
                           "agreement worse than chance (a negative kappa)"),
        mostly_irrelevant=("大多数文档不相关",
                           "most documents not relevant"),
    ),
}
