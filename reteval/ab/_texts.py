"""The words of online tests, in Chinese and English.

Catalogue entries ``ab.<key>`` (:mod:`reteval._util.catalogue`): the verdicts of an A/B
analysis, of a sequential test and of interleaving, the metrics' names, the figures' labels
(``figure.<key>``).
"""

from reteval._util.catalogue import section

TEXTS = {
    # figures (reteval.ab.plots, reteval.ab.simulation)
    **section(
        "figure",
        ab=("A/B 测试（点击率，z 检验）", "A/B test (click-through, z-test)"),
        interleaving=("{method}交错实验（符号检验）", "{method} interleaving (sign test)"),
        team_draft=("团队选拔", "team-draft"),
        balanced=("平衡", "balanced"),
        target=("目标统计功效 {power:.0%}", "target power {power:.0%}"),
        impressions=("每次实验的展示次数（对数刻度）", "impressions per experiment (log scale)"),
        power=("统计功效（α = {alpha:g}）", "power at alpha = {alpha:g}"),
        methods_title=("检出同一差异（每个点模拟 {n} 次实验）",
                       "Detecting the same difference ({n} simulated experiments per point)"),
        naive=("固定样本量检验的 p 值（偷看时无效）",
               "fixed-horizon p-value (invalid when peeking)"),
        msprt=("始终有效的 p 值（mSPRT）", "always-valid p-value (mSPRT)"),
        alpha=("α = {alpha:g}", "alpha = {alpha:g}"),
        look=("查看次序", "look"),
        pvalue=("p 值（对数刻度）", "p-value (log scale)"),
        sequential_title=("{label}的序贯检验", "Sequential test of the {label}"),
        difference=("差值", "difference"),
    ),
    # A/B verdicts
    **section(
        "",
        users_in=("{variant} 组 {n:,} 人", "{n:,} in {variant}"),
        users_in_first=("{variant} 组 {n:,} 人", "{n:,} users in {variant}"),
        named=("实验 {name!r}", "Experiment {name!r}"),
        unnamed=("本实验", "The experiment"),
        compared=(("{name}：以 {control} 为对照组，比较了 {treatments}，用户分布：{users}"
                  "（设计比例 {design}）。"),
                  ("{name} compared {treatments} against the control {control} with {users} "
                  "(designed split {design}).")),
        srm_bad=(("用户分组与设计不符（样本比例失衡，卡方检验 p {p}，阈值 {threshold:g}）："
                 "分组或日志记录某处出错，因此各指标的差异都不可信；先找出原因再解读。"),
                 ("The users did not split as designed (sample ratio mismatch, chi-square p {p}, "
                 "threshold {threshold:g}): assignment or logging is broken somewhere, so none "
                 "of the metric differences can be trusted; find the cause before reading them.")),
        srm_ok=("分组与设计相符（样本比例检验 p {p}）。",
                "The split matches the design (sample ratio check p {p})."),
        guardrail=("护栏指标（{label}）", "guardrail {label}"),
        head=("{label}：{control} 组 {cv}，{treatment} 组 {tv}",
              "{label}: {cv} in {control}, {tv} in {treatment}"),
        p_holm=("Holm 校正后 p {p}", "Holm-adjusted p {p}"),
        p_plain=("p {p}", "p {p}"),
        no_change=("{head}，未检出变化（{p}；本实验只能检出约 {mde} 的变化）。",
                   ("{head}, no detectable change ({p}; this experiment could only detect "
                   "changes of about {mde}).")),
        relative=("，相对变化 {lift:+.1%}", ", {lift:+.1%} relative"),
        changed=(("{head}：{diff}（{level} 置信区间 {low} 至 {high}{lift}；{p}），因此 {treatment} "
                 "{outcome}{blocks}。"),
                 ("{head}: {diff} ({level} CI {low} to {high}{lift}; {p}), so {treatment} is "
                 "{outcome}{blocks}.")),
        cuped=("用实验前的 {covariate} 做 CUPED 调整，{label}的方差减少了 {reduction:.0%}。",
               ("CUPED with the pre-period {covariate} removed {reduction:.0%} of the "
                "{label}'s variance.")),
        bayes=(("{head}：相对变化 {lift:+.1%}（{level} 可信区间 {low:+.1%} 至 {high:+.1%}）；"
                "{treatment} 更好的概率为 {ctw:.1%}，上线它的预期损失为 {risk_t:.2%}，"
                "保留对照组的预期损失为 {risk_c:.2%}{so}。"),
               ("{head}: {lift:+.1%} relative ({level} credible interval {low:+.1%} to "
                "{high:+.1%}); the chance that {treatment} is better is {ctw:.1%}, the expected "
                "loss {risk_t:.2%} if it ships and {risk_c:.2%} if the control stays{so}.")),
        bayes_decided=("，因此 {treatment} {outcome}{blocks}",
                       ", so {treatment} is {outcome}{blocks}"),
        bayes_open=("，尚无定论", ", not decisive yet"),
        bayes_na=("{head}：对照组为 0，无法给出贝叶斯解读。",
                  "{head}: no Bayesian reading (the control is 0)."),
        better=("更好", "better"),
        worse=("更差", "worse"),
        blocks=("，这会阻止上线", " and this blocks shipping"),
        points=("{x:+.2f} 个百分点", "{x:+.2f} points"),
        na=("无", "n/a"),
        invalid=("结论：实验无效，不要据此做决定。",
                 "Verdict: invalid experiment; do not decide on it."),
        ship=("结论：上线 {recommended}。", "Verdict: ship {recommended}."),
        do_not_ship=("结论：不上线，保留对照组。", "Verdict: do not ship; keep the control."),
        inconclusive=(("结论：无法定论；没有任何实验组在不损害其他指标的前提下使主要指标超出偶然"
                      "范围地提升。保留对照组；如果可检出的效应大于值得追求的效应，可延长实验。"),
                      ("Verdict: inconclusive; no treatment improved a primary metric beyond "
                      "chance without harming another. Keep the control, or run longer if the "
                      "detectable effects are larger than the effects worth having.")),
        per_treatment=("各实验组：{items}。", "Per treatment: {items}."),
        item=("{name}：{value}", "{name}: {value}"),
        sep=("；", "; "),
        decision_ship=("上线", "ship"),
        decision_do_not_ship=("不上线", "do not ship"),
        decision_inconclusive=("无法定论", "inconclusive"),
    ),
    # the sequential test and the A/B-versus-interleaving simulation
    **section(
        "sequential",
        above=("高于", "above"),
        below=("低于", "below"),
        stopped=(("从查看 {look} 起，差值以 {confidence:.0%} 的置信度{direction} {null:g}"
                 "（该次查看时始终有效的 p = {p:.3g}；最后一次查看时为 {last:.3g}）。"
                 "由于这一 p 值在持续监控下依然有效，实验本可以在那次查看时停止。"),
                 ("The difference is {direction} {null:g} with confidence {confidence:.0%} from "
                 "look {look} on (always-valid p = {p:.3g} there; {last:.3g} at the last look). "
                 "Because the p-value stays valid under continuous monitoring, the experiment "
                 "could have been stopped at that look.")),
        running=(("经过 {n} 次查看，始终有效的 p 值为 {p:.3g}，高于 α = {alpha:g}："
                  "尚未证明存在差异。置信序列 [{low:.4g}, {high:.4g}] 仍包含数据允许的取值；"
                  "请继续收集数据，或者当它排除了所有值得追求的效应时因无效而停止。"),
                 ("After {n} looks the always-valid p-value is {p:.3g}, above alpha = "
                 "{alpha:g}: no difference demonstrated yet. The confidence sequence "
                 "[{low:.4g}, {high:.4g}] still holds the values the data allow; keep "
                 "collecting, or stop for futility if it excludes every effect worth having.")),
    ),
    **section(
        "interleaving",
        preferred=(("用户更偏好 {who}：在 {n:,} 次有点击的展示中，A 胜 {wins:,} 次、"
                    "负 {losses:,} 次、平 {ties:,} 次（偏好 {preference:+.3f}，{confidence:.0%} "
                    "置信区间 {low:+.3f} 至 {high:+.3f}）；如此不均衡的结果偶然出现的概率为 "
                    "{p:.2g}（符号检验）。"),
                   ("Users preferred {who}: over {n:,} impressions with clicks, A won {wins:,}, "
                   "lost {losses:,} and tied {ties:,} (preference {preference:+.3f}, "
                   "{confidence:.0%} CI {low:+.3f} to {high:+.3f}); a split this uneven "
                   "happens by chance with probability {p:.2g} (sign test).")),
        none=(("未检出偏好：在 {n:,} 次有点击的展示中，A 胜 {wins:,} 次、负 {losses:,} 次、"
               "平 {ties:,} 次（偏好 {preference:+.3f}，{confidence:.0%} 置信区间 {low:+.3f} 至 "
               "{high:+.3f}；符号检验 p = {p:.3g}）。"),
              ("No preference detected: over {n:,} impressions with clicks, A won {wins:,}, "
              "lost {losses:,} and tied {ties:,} (preference {preference:+.3f}, "
              "{confidence:.0%} CI {low:+.3f} to {high:+.3f}; sign test p = {p:.3g}).")),
    ),
    **section(
        "methods",
        about=("约 {n:,} 次展示", "about {n:,} impressions"),
        more=("超过 {n:,} 次展示", "more than {n:,} impressions"),
        expected=(("点击模型预期 A 的点击率为 {ctr_a:.1%}，B 为 {ctr_b:.1%}，交错实验偏好为 "
                  "{preference:+.3f}（正值偏向 A）。要以 {power:.0%} 的统计功效在 α = {alpha:g} "
                  "下检出这一差异，基于点击率的 A/B 测试需要{ab}，{method}交错实验需要{il}。"),
                  ("The click model expects a click-through of {ctr_a:.1%} for A and "
                  "{ctr_b:.1%} for B, and an interleaving preference of {preference:+.3f} "
                  "(positive favours A). To find the difference with {power:.0%} power at "
                  "alpha = {alpha:g}, an A/B test on click-through needs {ab} and {method} "
                  "interleaving {il}.")),
        ratio=(("在这里，交错实验的灵敏度约为 A/B 测试的 {ratio:.0f} 倍，因为每次展示都在同一用户、"
               "同一查询上比较两个排序器。"),
               (" Interleaving is about {ratio:.0f} times as sensitive here, because each "
               "impression compares both rankers on the same user and query.")),
    ),
    # A/B metrics (reteval.ab.metrics), as verdicts name them
    **section(
        "metric",
        satisfaction=("满意度", "satisfaction rate"),
        ctr=("点击率", "click-through rate"),
        clicks_per_query=("每次查询的点击数", "clicks per query"),
        avg_retrieved=("每次查询返回的文档数", "documents retrieved per query"),
        queries_per_user=("每个用户的查询数", "queries per user"),
        user_click_rate=("有点击的用户比例", "share of users who clicked"),
    ),
}
