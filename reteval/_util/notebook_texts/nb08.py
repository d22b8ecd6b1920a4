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
