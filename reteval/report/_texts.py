"""The words of the comparison report and its figures, in Chinese and English.

Catalogue entries ``report.<key>`` (:mod:`reteval._util.catalogue`): the report's headings,
table headers and sentences (:mod:`reteval.report.document`), the terms of the measure
families (``term.<family>``), the figures' labels (``figure.<key>``).
"""

from reteval._util.catalogue import section

TEXTS = {
    # the report
    **section(
        "",
        title=("检索系统评估报告", "Retrieval evaluation report"),
        system=("检索器", "System"),
        yes=("是", "yes"),
        no=("否", "no"),
        tests_header=(("指标", "检索器", "对照", "差值", "置信区间", "d_z", "p", "校正后 p",
                       "显著"),
                      ("Measure", "System", "Other", "Difference", "Interval", "d_z", "p",
                       "p corrected", "Significant")),
        history_header=(("时间（UTC）", "检索器", "查询数", "告警"),
                        ("Time (UTC)", "Retriever", "Queries", "Alerts")),
        effect_header=(("检索器", "对照", "效应量", "置信区间", "p"),
                       ("System", "Other", "Effect size", "Interval", "p")),
    ),
    **section(
        "depth",
        system=("{s} {mean:.1f}（{low:g}–{high:g}）", "{s} {mean:.1f} ({low:g} to {high:g})"),
        differ=("各检索器每个查询返回的文档数不同（均值，括号内为最少–最多）：{listing}。",
                ("The systems returned different numbers of documents per query (mean, with the "
                "fewest and the most): {listing}.")),
        sensitive=(("标 {dagger} 的指标（{measures}）在一些查询上是在不同深度下比较的："
                   "较短的列表把缺少的名次记为不相关，所以这些指标上的差异可能来自返回了多少文档，"
                   "而不是排序的好坏。要把两者分开，就逐查询在共同深度上比较：在每个查询上把各检索器"
                   "的列表截断到该查询最短列表的长度，或者让各检索器返回同样多的文档（只要有一个列表"
                   "很短，一个统一的截断位置就浅得没有用处）。"),
                   (" Measures marked {dagger} ({measures}) compare the systems at unequal depths "
                   "on some queries: a shorter list counts its missing ranks as not relevant, so a "
                   "difference on them may come from how many documents a system returned rather "
                   "than from how well it ranked them. To tell the two apart, compare at a common "
                   "depth per query: cut every system's list, on each query, to the length of the "
                   "shortest list on that query, or have every system return the same number of "
                   "documents (one cutoff for all queries, no deeper than the shortest list "
                   "anywhere, is too shallow to use when some list is very short).")),
        unaffected=("每个指标的截断位置都不超过最短列表的深度，所以这里的比较不受影响。",
                    (" No measure's cutoff goes deeper than the shortest list, so these "
                    "comparisons are not affected.")),
        marked=("（{dagger} 在不同深度下比较。）", " ({dagger} compared at unequal depths.)"),
        all_deep=(("注意：这 {n} 个指标都在不同深度下比较（{dagger}），这一推荐可能"
                  "反映的是返回文档数，而不是排序质量。"),
                  (" Note: all {n} compare the systems at unequal depths ({dagger}); the "
                  "recommendation may reflect how many documents each system returned rather "
                  "than ranking quality.")),
        rule=(("推荐规则：在最多指标上均值最高的检索器，只有在其中至少一个指标上显著优于第二名"
              "（经多重比较校正）时才被推荐；几个检索器领先的指标数相同、或领先者在任何指标上都不显著时，"
              "不推荐任何检索器。这条规则不看差异的大小，也不考虑成本。"),
              ("The rule: the system with the highest mean on the most measures is recommended "
              "only when it is significantly better than the runner-up (after the correction for "
              "multiple comparisons) on at least one of them; when several systems lead on as "
              "many measures, or the leader is significant on none, no system is recommended. "
              "The rule weighs neither the size of the differences nor cost.")),
    ),
    **section(
        "heading",
        measures=("评估指标对比", "Measures"),
        best=("各指标的最佳检索器", "Best system per measure"),
        tests=("显著性检验", "Significance tests"),
        advice=("建议", "Recommendation"),
        history=("持续评估", "Continuous evaluation"),
        figures=("图表", "Figures"),
        many=("多个检索器：方差分析、显著性矩阵与效应量",
              "Many systems: ANOVA, significance matrix, effect sizes"),
    ),
    **section(
        "test",
        t=("配对 t 检验", "paired t test"),
        wilcoxon=("Wilcoxon 符号秩检验", "Wilcoxon signed-rank test"),
        randomization=("Fisher 随机化检验", "Fisher randomization test"),
        bootstrap=("配对自助法（bootstrap）检验", "paired bootstrap test"),
        tukey=("随机化 Tukey HSD 检验", "randomised Tukey HSD test"),
        **{"tukey-studentized": ("Tukey HSD 检验（学生化极差分布）",
                                 "Tukey HSD test (studentized range)")},
    ),
    **section(
        "ci",
        t=("均值差的 t 置信区间", "t interval of the mean difference"),
        wilcoxon=("中位数差的 Hodges-Lehmann 置信区间",
                  "Hodges-Lehmann interval of the median difference"),
        randomization=("由随机化检验反推的置信区间",
                       "interval by inverting the randomization test"),
        bootstrap=("均值差的百分位自助法置信区间",
                   "percentile bootstrap interval of the mean difference"),
        tukey=("Tukey HSD 的联合置信区间（随机化）",
               "simultaneous interval of Tukey's HSD (randomised)"),
        **{"tukey-studentized": ("Tukey HSD 的联合置信区间（学生化极差）",
                                 "simultaneous interval of Tukey's HSD (studentized range)")},
    ),
    **section(
        "caption",
        forest=("各检索器在每个指标上的均值及其自助法置信区间。",
                "Mean of each system with its bootstrap interval, per measure."),
        cutoff_curves=("各指标族的均值随截断位置 k 的变化。",
                       "Mean of each measure family against the rank cutoff k."),
        differences=("各查询相对参照检索器的得分差（已排序）。",
                     "Per-query differences against the reference system, sorted."),
        distributions=("逐查询得分的分布。", "Distribution of per-query scores."),
        trend=("持续评估：各指标随时间的变化，触发告警的记录以红色标出。",
               ("Continuous evaluation: the measures over time; entries that raised an alert "
               "are marked in red.")),
    ),
    **section(
        "alert",
        threshold=("低于阈值", "below threshold"),
        regression=("显著回归", "significant regression"),
        dataset=("数据集变更", "dataset changed"),
    ),
    # The report's sentences (reteval.report.document)
    **section(
        "say",
        terms=("指标：{items}。", "Measures: {items}."),
        terms_sep=("，", "; "),
        term=("{label} 为{one}", "{label} is {one}"),
        term_mean=("{label} 为{one}（其均值即{mean}）", "{label} is {one} (its mean: {mean})"),
        method=(("{n} 个查询，{systems} 个检索器，{measures} 个指标。显著性检验：双侧{test}"
                 "{extra}，{family}，{correction}，显著性水平 α = {alpha:g}。置信区间：均值的 "
                 "{level} 百分位自助法置信区间（重抽样 {resamples} 次）。"),
                ("{n} queries, {systems} systems, {measures} measures. Significance: two-sided "
                "{test}{extra}, {family}, {correction}, alpha = {alpha:g}. Intervals: {level} "
                "percentile bootstrap of the mean ({resamples} resamples).")),
        resampled=("（重抽样 {n} 次）", " with {n} resamples"),
        against_baseline=("每个检索器与基线 {baseline} 比较",
                          "each system against the baseline {baseline}"),
        all_pairs=("所有检索器两两比较", "every pair of systems"),
        corrected=("每个指标内做 {corr} 多重比较校正", "{corr} correction within each measure"),
        uncorrected=("不做多重比较校正", "no correction"),
        p_separate=("另行检验的 p（未校正）", "p of a separate test, uncorrected"),
        p_corrected=("{corr} 校正后 p", "{corr}-corrected p"),
        best_term=("（{term}）：", " ({term}): "),
        best_plain=("：", ": "),
        best_single=("（{mean}），唯一参评的检索器。", " ({mean}), the only system."),
        best_tie=("{tied} 并列（{mean}），没有唯一的最佳检索器。",
                  "tie between {tied} ({mean}); no single best system."),
        runner=("{name}（{mean}）", "{name} ({mean})"),
        best_significant=("（{mean}），显著优于第二名 {runner}：{p}。",
                          " ({mean}), significantly better than the runner-up {runner}: {p}."),
        best_not_significant=(("（{mean}），高于第二名 {runner}，但差异不显著：{p} > "
                               "α = {alpha:g}。这一差异可能只是偶然。"),
                              (" ({mean}), but not significantly better than the runner-up "
                              "{runner}: {p} > alpha = {alpha:g}. The difference may be chance.")),
        only_one=("只评估了一个检索器 {system}，没有可比较的对象。",
                  "Only one system, {system}, was evaluated; nothing to compare."),
        all_ties=("每个指标都是并列，无法推荐任何一个检索器胜过{others}。",
                  "Every measure ends in a tie; no system can be recommended over {others}."),
        another=("另一个", "another"),
        the_others=("其他检索器", "the others"),
        no_leader=("没有唯一领先的检索器：{leaders} 各在 {n} 个指标中的 {top} 个上均值最高。",
                   ("No single system leads: {leaders} each have the highest mean on {top} of "
                   "{n} measures.")),
        recommended=("推荐：", "Recommended: "),
        recommended_why=("。它在 {n} 个指标中的 {top} 个上均值最高，其中 {sig} 个显著优于第二名。",
                         (". It has the highest mean on {top} of {n} measures and is "
                         "significantly better than the runner-up on {sig} of them.")),
        leader_not_significant=(("{leader} 在 {n} 个指标中的 {top} 个上均值最高，但在其中任何一个"
                                "指标上都不显著优于第二名（α = {alpha:g}）。这些查询选不出最佳"
                                "检索器。"),
                                ("{leader} has the highest mean on {top} of {n} measures, but on "
                                "none of them is it significantly better than the runner-up "
                                "(alpha = {alpha:g}). These queries do not single out a best "
                                "system.")),
        tied_top=(("在任何指标上，检验都没有把 {leader} 与 {tied} 区分开：可以在 {all} 之间按成本或"
                   "简单程度选择，或在更多查询上评估。"),
                  (" On no measure does a test separate {leader} from {tied}: choose among {all} "
                   "(by cost or simplicity, say), or evaluate on more queries.")),
        no_tied_top=("请在更多查询上评估。", " Evaluate on more queries."),
        planning=(("样本量规划（{measure}，{system} 对比 {runner}）：逐查询差值的标准差为 {sd}；"
                  "在 {n} 个查询上，只检验这一对、α = {alpha:g}（不为其他各对校正）的配对 t 检验"
                  "能以 80% 的统计功效检测出 {mdd} 的真实差异。"),
                  ("Planning ({measure}, {system} vs {runner}): the per-query differences have "
                  "standard deviation {sd}; with {n} queries a paired t test of this pair alone "
                  "at alpha = {alpha:g} (not corrected for the other pairs) detects a true "
                  "difference of {mdd} with 80% power.")),
        planning_need=("观测到的差异 {observed} 约需 {need} 个查询。",
                       " The observed difference, {observed}, would need about {need} queries."),
        alert=("{kind}：{measure}", "{kind}: {measure}"),
        alert_sep=("；", "; "),
        history_empty=("历史记录中还没有评估记录。", "The history holds no evaluation yet."),
        history=(("历史记录中有 {n} 次评估（{first} 至 {latest}，UTC），检索器：{retrievers}；"
                 "其中 {alerts} 次触发了告警。"),
                 ("The history holds {n} evaluations ({first} to {latest}, UTC) of {retrievers}; "
                 "{alerts} of them raised an alert.")),
        history_latest=("下表为最近 {last} 次。", " The latest {last}:"),
        measures_note=(("每个检索器在各指标上的查询均值，括号内为 {level} 置信区间；每个指标的最高"
                       "均值以粗体标出。"),
                       ("Mean per query with its {level} interval; the highest mean of each "
                       "measure in bold.")),
        tests_note=("差值 = 检索器 − 对照。置信区间：{level} {ci}。效应量：Cohen 的 d_z。",
                    ("Difference = system - other. Interval: {level} {ci}. Effect size: Cohen's "
                    "d_z. ")),
        tests_corrected=(("校正：每个指标内做 {corr} 校正（校正的是 p 值和结论；置信区间未校正，"
                          "所以区间不含 0 时校正后的 p 仍可能大于 α）。"),
                         ("Corrected: {corr} within each measure (the p-values and the verdicts; "
                          "the intervals are not corrected, so one may exclude 0 while the "
                          "corrected p exceeds alpha).")),
        tests_uncorrected=("未做多重比较校正。", "Not corrected."),
        tests_note_tukey=(("差值 = 检索器 − 对照。置信区间：{level} {ci}。效应量：(均值差)/√V_E。"
                           "Tukey HSD 已控制所有两两比较的族错误率，不再校正。"),
                          ("Difference = system - other. Interval: {level} {ci}. Effect size: "
                           "(mean difference) / sqrt(V_E). Tukey's HSD controls the family-wise "
                           "error of all pairs; no further correction.")),
        many_intro=(("方差分析（主题 × 检索器，双因素无重复）检验是否存在任何差异。矩阵中 ▲/▼ "
                     "表示按两两检验（“显著性检验”一节，不是按方差分析）行检索器显著高于/低于"
                     "列检索器，表中的 p 是这些检验{p}；效应量 = 均值差 / √V_E，区间为对应检验"
                     "的 {level} 区间除以 √V_E{interval}。"),
                    ("The two-way ANOVA (topic x system, without replication) asks whether the "
                     "systems differ at all. In the matrix ▲/▼ mark a row system significantly "
                     "above/below the column system by the pairwise tests (section Significance "
                     "tests; not by the ANOVA), and p in the table is those tests' {p}; effect "
                     "size = mean difference / sqrt(V_E), its interval the test's {level} "
                     "interval divided by sqrt(V_E){interval}.")),
        many_p_corrected=("经 {corr} 校正后的 p 值", "{corr}-corrected p-value"),
        many_p_uncorrected=("未经校正的 p 值", "p-value, not corrected"),
        many_p_tukey=("的 Tukey HSD p 值（已控制族错误率）",
                      "Tukey HSD p-value (which controls the family-wise error)"),
        many_interval_uncorrected=(("（区间未校正：区间不含 0 时校正后的 p 仍可能大于 α）"),
                                   (" (the interval is not corrected: it may exclude 0 while "
                                    "the corrected p exceeds alpha)")),
        many_anova=(("：F({d1}, {d2}) = {f:.3f}，{p}，V_E = {ve}，按 V_E 的误差幅度（MOE）"
                     "±{moe}。"),
                    (": F({d1}, {d2}) = {f:.3f}, {p}, V_E = {ve}, margin of error by "
                     "V_E (MOE) ±{moe}.")),
        many_anova_none=(("：F({d1}, {d2}) 无法检验：没有残差方差（各检索器在每个主题上的得分"
                          "之差都相同，例如一个检索器与它自己的副本），V_E = {ve}。"),
                         (": F({d1}, {d2}) is no test: there is no residual variance (the "
                          "systems' scores differ by the same amount on every topic, as a "
                          "system and an exact copy of itself do), V_E = {ve}.")),
    ),
    # Measure families: (term of one query's score, term of the mean over queries).
    **section(
        "term",
        P=(("精确率", None), ("precision", None)),
        R=(("召回率", None), ("recall", None)),
        RR=(("倒数排名", "平均倒数排名 MRR"), ("reciprocal rank", "mean reciprocal rank, MRR")),
        AP=(("平均精度", "平均精度均值 MAP"), ("average precision", "mean average precision, MAP")),
        nDCG=(("归一化折损累计增益", None), ("normalized discounted cumulative gain", None)),
        DCG=(("折损累计增益", None), ("discounted cumulative gain", None)),
        Rprec=(("R 精确率", None), ("R-precision", None)),
        Success=(("命中率", None), ("success", None)),
        Judged=(("已判断比例", None), ("fraction of documents judged", None)),
        NumRet=(("返回文档数", None), ("documents retrieved", None)),
        NumRel=(("相关文档数", None), ("relevant documents", None)),
        NumRelRet=(("返回的相关文档数", None), ("relevant documents retrieved", None)),
        ERR=(("期望倒数排名", None), ("expected reciprocal rank", None)),
        RBP=(("秩偏精确率", None), ("rank-biased precision", None)),
        infAP=(("推断平均精度", None), ("inferred average precision", None)),
        Bpref=(("bpref", None), ("bpref", None)),
        IPrec=(("插值精确率", None), ("interpolated precision", None)),
    ),
    # figures (reteval.report.figures)
    **section(
        "figure",
        cutoff_k=("截断位置 k", "cutoff k"),
        mean_of=("{measure} 均值", "mean {measure}"),
        recall=("召回率", "recall"),
        interpolated_precision=("插值精确率", "interpolated precision"),
        precision_recall_title=("插值精确率-召回率曲线（{n} 个查询）",
                                "interpolated precision-recall ({n} queries)"),
        differences_title=(("{system} 对比 {against}：{wins} 个更好，{ties} 个持平，{losses} 个"
                           "更差；均值 {mean:+.4f}"),
                           ("{system} - {against}: {wins} better, {ties} tied, {losses} worse; "
                           "mean {mean:+.4f}")),
        difference_of=("{measure} 差值", "diff {measure}"),
        differences_measure=("逐查询 {measure} 差值（降序）",
                             "per-query differences in {measure}, largest first"),
        queries_by_difference=("查询（按差值排序）", "queries, sorted by difference"),
        forest_x=("均值及其 {level:g}% 自助法置信区间", "mean with {level:g}% bootstrap interval"),
        per_query=("逐查询 {measure}", "{measure} per query"),
        distribution_title=("{measure}：{n} 个查询", "{measure}: {n} queries"),
        mean_mark=("均值", "mean"),
        median_mark=("中位数", "median"),
        asl_x=("检索器对（按达到的显著性水平排序）", "system pairs, sorted by ASL"),
        asl_y=("达到的显著性水平（p 值）", "achieved significance level (ASL, p-value)"),
        asl_label=("{name}：{share:.0%} 的检索器对显著",
                   "{name}: {share:.0%} of pairs significant"),
        asl_title=("区分能力（α = {alpha:g}）", "discriminative power (alpha = {alpha:g})"),
        system=("检索器", "retriever"),
        query_lines_title=("{measure}：每条线是一个查询（{n} 个），黑色为均值",
                           "{measure}: one line per query ({n}), black: the mean"),
        tukey_x=("{measure} 均值之差（前者 − 后者）",
                 "difference of mean {measure} (first − second)"),
        tukey_title=("Tukey HSD：{level:g}% 同时置信区间（{method}）",
                     "Tukey HSD: {level:g}% simultaneous intervals ({method})"),
        tukey_randomised=("随机化", "randomised"),
        tukey_studentized=("学生化极差", "studentized range"),
        tukey_significant=("显著（区间不含 0）", "significant (interval excludes 0)"),
        tukey_not_significant=("不显著", "not significant"),
    ),
    # ranked-list strips (reteval.report.figures.plot_ranked_list, plot_ranked_lists)
    **section(
        "figure.ranked",
        ranked=("排序列表", "ranked list"),
        ideal=("理想排序", "ideal ranking"),
        discount=("位置折损 1/log2(r+1)", "discount 1/log2(r+1)"),
        query_ranked=("{query} 排序列表", "{query}: ranked list"),
        query_ideal=("{query} 理想排序", "{query}: ideal ranking"),
        rank=("排名 r", "rank r"),
        title=(("查询 {query}：前 {k} 名（共返回 {retrieved} 个文档；"
                "已判断的相关文档 {relevant} 个）"),
               "query {query}: the top {k} ({retrieved} retrieved; {relevant} judged relevant)"),
        title_many=("{n} 个查询的前 {k} 名；粗体为各指标的最高值",
                    "the top {k} of {n} queries; bold: each measure's highest value"),
        grade=("相关等级 {grade}", "grade {grade}"),
        unjudged=("未判断（按不相关计）", "unjudged (counts as not relevant)"),
        empty=("无文档（增益为 0）", "no document (gain 0)"),
        relevant=("粗框：相关（等级 ≥ {level}）", "thick border: relevant (grade ≥ {level})"),
        value=("{measure} = {value:.3f}", "{measure} = {value:.3f}"),
        value_hint=("{measure} = {value:.3f}（{hint}）", "{measure} = {value:.3f} ({hint})"),
        hint_P=("前 {cutoff} 名中 {hits} 个相关", "{hits} relevant in the top {cutoff}"),
        hint_RR=("第一个相关文档在第 {rank} 名", "first relevant at rank {rank}"),
        hint_RR_none=("没有返回相关文档", "no relevant document retrieved"),
        hint_AP=("看整个列表：返回了 {found}/{relevant} 个相关文档",
                 "the whole list: {found} of {relevant} relevant retrieved"),
        hint_nDCG=("DCG {dcg:.2f} / 理想 DCG {ideal:.2f}", "DCG {dcg:.2f} / ideal DCG {ideal:.2f}"),
    ),
}
