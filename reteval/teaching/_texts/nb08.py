"""The words of notebook 08 (interleaving)."""

TEXTS = {
    # section 1: one interleaved list and the credit of one impression
    "doc": ("文档", "doc_id"),
    "team": ("队伍", "team"),
    "relevance": ("相关性", "relevance"),
    "rank": ("排名", "rank"),
    "credit": ("点击了 {clicked}：A 队得到 {a} 次点击，B 队得到 {b} 次，这次展示{outcome}。",
               "Clicks on {clicked}: team A gets {a}, team B {b}, so this impression {outcome}."),
    "outcome_A": ("算 A 胜", "is a win for A"),
    "outcome_B": ("算 A 负（B 胜）", "is a loss for A (a win for B)"),
    "outcome_tie": ("算平局", "is a tie"),
    "outcome_none": ("没有点击，不计入", "has no click and is not counted"),
    # section 2: impressions needed
    "offline": ("离线 {measure}：{values}", "offline {measure}: {values}"),
    "sep": ("，", ", "),
    "ab_power": ("A/B 测试统计功效", "A/B power"),
    "il_power": ("交错实验统计功效", "interleaving power"),
    "impressions": ("展示次数", "impressions"),
    "one_seed": (("种子 {seed}（一次抽样，下面给出多个种子的范围）：点击模型预期 A 的点击率为 "
                  "{ctr_a:.1%}，B 为 {ctr_b:.1%}，交错实验偏好为 {pref:+.3f}（正值偏向 A）。"
                  "要达到 {power:.0%} 的统计功效，基于点击率的 A/B 测试需要约 {ab} 次展示，"
                  "交错实验约 {il} 次。"),
                 ("Seed {seed} (one draw; the range over several seeds follows): the click model "
                  "expects a click-through of {ctr_a:.1%} for A and {ctr_b:.1%} for B, and an "
                  "interleaving preference of {pref:+.3f} (positive favours A). To reach "
                  "{power:.0%} power the A/B test on click-through needs about {ab} impressions, "
                  "interleaving about {il}.")),
    "yes": ("是", "yes"),
    "no": ("否", "no"),
    # section 3: how many times as sensitive
    "sd": ("用户差异 σ", "user_sd"),
    "ab_needed": ("A/B 测试所需展示次数", "A/B test: impressions needed"),
    "il_needed": ("交错实验所需展示次数", "interleaving: impressions needed"),
    "seed": ("种子", "seed"),
    "rr_line": (("点击率（有没有点击）：A {ctr_a:.3f}，B {ctr_b:.3f}；首次点击的倒数排名："
                 "A {rr_a:.3f}，B {rr_b:.3f}。A/B 测试按点击率需要 {ab_ctr} 次展示，"
                 "按首次点击的倒数排名需要 {ab_rr} 次；交错实验需要 {il} 次。"),
                ("Click-through (any click): A {ctr_a:.3f}, B {ctr_b:.3f}; reciprocal rank of the "
                 "first click: A {rr_a:.3f}, B {rr_b:.3f}. The A/B test needs {ab_ctr} impressions "
                 "on click-through, {ab_rr} on the reciprocal rank of the first click; "
                 "interleaving {il}.")),
    "seed_range": (("{n} 个种子：A/B 测试需要 {ab_low:,.0f} 到 {ab_high:,.0f} 次展示，交错实验 "
                    "{il_low:,.0f} 到 {il_high:,.0f} 次，倍数 {r_low:.1f} 到 {r_high:.1f}"
                    "（{missing} 个种子未达到 80% 统计功效）。"),
                   ("Over {n} seeds: the A/B test needs {ab_low:,.0f} to {ab_high:,.0f} "
                    "impressions, interleaving {il_low:,.0f} to {il_high:,.0f}, a ratio of "
                    "{r_low:.1f} to {r_high:.1f} ({missing} seeds never reach 80% power).")),
    "seed_verdict": (("交错实验在 {n} 个种子中的 {fewer} 个上所需展示次数更少；"
                      "在这里它的灵敏度是 A/B 测试的 {r_low:.1f} 到 {r_high:.1f} 倍。"),
                     ("Interleaving needs fewer impressions on {fewer} of {n} seeds; here it is "
                      "{r_low:.1f} to {r_high:.1f} times as sensitive as the A/B test.")),
    "rr_range": (("只用种子 {seed}（一次抽样）：按首次点击的倒数排名需要 {ab_rr} 次展示；"
                  "按点击率，{n} 个种子需要 {ab_low:,.0f} 到 {ab_high:,.0f} 次。"
                  "低于点击率的整个范围：{below}。"),
                 ("Seed {seed} only (one draw): {ab_rr} impressions on the reciprocal rank of the "
                  "first click; on click-through the {n} seeds need {ab_low:,.0f} to "
                  "{ab_high:,.0f}. Below the whole click-through range: {below}.")),
    "alike_range": (("只用种子 {seed}（一次抽样）：用户完全相同时，A/B 测试需要 {ab} 次展示，"
                     "倍数 {ratio:.1f}；用户各不相同时，{n} 个种子需要 {ab_low:,.0f} 到 "
                     "{ab_high:,.0f} 次，倍数 {r_low:.1f} 到 {r_high:.1f}。"
                     "低于用户各不相同时的整个范围：{below}。"),
                    ("Seed {seed} only (one draw): with users all alike the A/B test needs {ab} "
                     "impressions, a ratio of {ratio:.1f}; with users who differ, the {n} seeds "
                     "need {ab_low:,.0f} to {ab_high:,.0f}, a ratio of {r_low:.1f} to "
                     "{r_high:.1f}. Below the whole range of users who differ: {below}.")),
    "ratio": ("倍数（A/B ÷ 交错）", "ratio (A/B / interleaving)"),
    "expected": (("点击模型给出的每次交错展示：A 胜 {win:.1%}，A 负 {loss:.1%}，平 {tie:.1%}，"
                  "没有点击 {none:.1%}；偏好 Δ = {pref:+.3f}。"),
                 ("Per interleaved impression the click model gives: A wins {win:.1%}, loses "
                  "{loss:.1%}, ties {tie:.1%}, no click {none:.1%}; preference Δ = {pref:+.3f}.")),
    "overlap": (("两个排序器的前 {k} 个结果平均有 {share:.0%} 相同；{differ:.0%} 的查询上"
                 "两个列表不完全一样。"),
                ("On average {share:.0%} of the two rankers' top {k} results are the same; on "
                 "{differ:.0%} of the queries the two lists differ.")),
}

# The hints of the exercises (reteval.teaching.exercises.nb08), from a nudge to a
# near-complete method: exercise.08.<i>.<key>.
EXERCISE_TEXTS = {
    "1.hints": (
        (
            ("写一个函数 team_draft_winner(docs, teams, clicked)：docs 是交错列表，"
             "teams 是每个位置的队伍（\"A\" 或 \"B\"），clicked 是被点击的文档；"
             "返回 \"A\"、\"B\"、\"tie\" 或 \"none\"。"),
            ("先查出每个被点击文档的队伍（例如用 dict(zip(docs, teams))），"
             "再分别数 A 队和 B 队得到的点击数。"),
            ("点击多的一方胜；两队一样多时要分两种情况：都是 0 说明没有点击，不计入（\"none\"），"
             "都大于 0 才是平局（\"tie\"）。"),
        ),
        (
            ("Write a function team_draft_winner(docs, teams, clicked): docs is the interleaved "
             "list, teams the team at each position (\"A\" or \"B\"), clicked the clicked "
             "documents; return \"A\", \"B\", \"tie\" or \"none\"."),
            ("Look up the team of each clicked document (dict(zip(docs, teams)), say), then count "
             "the clicks of team A and of team B."),
            ("The team with more clicks wins; when both have as many, two cases: both 0 means no "
             "click, which is not counted (\"none\"); both above 0 is a tie (\"tie\")."),
        ),
    ),
    "2.hints": (
        (
            "答案是一个数（保留 3 位小数即可）。公式中的 n 包括哪些展示？",
            "没有点击的展示既不算胜也不算负，不计入 n；平局计入 n。",
            "n = 胜 + 负 + 平；每个平局算半次胜利，Δ = (胜 + 平/2) / n − 0.5。",
        ),
        (
            ("The answer is a number (3 decimals are enough). Which impressions does the n of "
             "the formula count?"),
            ("Impressions without clicks are neither wins nor losses and are not in n; ties are "
             "in n."),
            "n = wins + losses + ties; a tie counts as half a win: Δ = (wins + ties/2) / n - 0.5.",
        ),
    ),
    "3.hints": (
        (
            ("答案是一个数（概率）。两个列表相同时，哪些位置属于团队选拔的同一轮？"
             "每个位置归哪个队伍由什么决定？"),
            ("第 1、2 位是第一轮，第 3、4 位是第二轮；每一轮重新抛一枚公平的硬币决定谁先选，"
             "先选的一方拿走这一轮靠上的位置。"),
            ("第 2 位和第 3 位在不同的轮次，所以它们的队伍由两枚独立的硬币决定；"
             "只有两次点击都归 A 时 A 才胜，一次归 A、一次归 B 是平局。"),
        ),
        (
            ("The answer is a number (a probability). When the two lists are the same, which "
             "positions form one round of the draft, and what decides the team of each?"),
            ("Ranks 1 and 2 are the first round, ranks 3 and 4 the second; each round a new "
             "fair coin decides who picks first, and the first picker takes the round's upper "
             "position."),
            ("Ranks 2 and 3 lie in different rounds, so two independent coins decide their "
             "teams; A wins only when both clicks are A's, and one click each is a tie."),
        ),
    ),
    "4.hints": (
        (
            "答案是一个字母。Δ 是什么量的差？",
            "Δ 是 A 胜的展示比例（平局算一半）减去 0.5，单位是“展示的比例”，不是点击率。",
            ("交错实验只比较同一次展示里两个排序器谁得到更多点击；上线后点击率变多少，"
             "要让两组用户分别使用两个排序器来测。"),
        ),
        (
            "The answer is one letter. A difference of what is Δ?",
            ("Δ is the share of impressions A wins (a tie counting half) minus 0.5: a share of "
             "impressions, not a click-through rate."),
            ("Interleaving only compares which ranker gets more clicks within one impression; by "
             "how much click-through changes after a launch takes two groups of users, each "
             "using one ranker."),
        ),
    ),
    # 08.1: what a wrong answer is told
    "1.raised": ("你的函数在隐藏的展示上出错：{error}。",
                 "Your function raised {error} on the hidden impressions."),
    "1.not_an_outcome": ("函数应当返回 \"A\"、\"B\"、\"tie\" 或 \"none\" 之一。",
                         "The function must return one of \"A\", \"B\", \"tie\" and \"none\"."),
    "1.no_click": ("没有任何点击的展示，结果不对。",
                   "An impression without any click gets the wrong outcome."),
    "1.tie": ("两队得到同样多（不为零）点击的展示，结果不对。",
              ("An impression where both teams get as many clicks (not zero) gets the wrong "
               "outcome.")),
    "1.wrong_winner": ("有的展示胜负判错了：点击应当记给贡献该文档的队伍。",
                       ("Some impressions get the wrong winner: a click counts for the team "
                        "that contributed the clicked document.")),
}
