"""The editions' languages and every word reteval shows a reader, in both languages.

reteval speaks Chinese (``"zh"``, the default edition of the teaching notebooks)
and English (``"en"``): :data:`LANGUAGES` is the one list of them and
:func:`check_lang` the one check. Every label, heading, caption and verdict that
the report, the figures, the widgets and the book show is an entry of
:data:`TEXTS`, keyed by a dotted name (``"figure.cutoff_k"``) and holding the
entry in each language: the two languages of one text sit side by side, so a
translation is never missing or out of step (a test checks every entry has
both). The Chinese uses the terms of ``docs/glossary.md``, one term per concept
(统计功效, 笔记本, 教学数据集 ...).

An entry is a string (a template for :meth:`str.format` when it has fields) or
a tuple of strings (a table header). :func:`phrase` gives one entry, filled in;
:func:`phrases` the entries under a prefix, as a mapping.

Examples
--------
>>> phrase("figure.cutoff_k", "zh")
'截断位置 k'
>>> phrase("figure.mean_of", "en", measure="P@k")
'mean P@k'
>>> phrases("report.test.", "zh")["t"]
'配对 t 检验'
>>> check_lang("fr")
Traceback (most recent call last):
...
reteval.errors.InputError: lang must be 'zh' or 'en'; got 'fr'
"""

from __future__ import annotations

import importlib
import pkgutil
from types import MappingProxyType

from reteval.errors import InputError

__all__ = ["LANGUAGES", "TEXTS", "check_lang", "error_message", "join_names", "notebook_texts",
           "phrase", "phrases"]

#: The languages of the editions, the Chinese one (the default edition) first.
LANGUAGES: tuple[str, ...] = ("zh", "en")


def check_lang(lang, name: str = "lang") -> str:
    """``lang`` if it is one of :data:`LANGUAGES`, else an InputError naming ``name``.

    Examples
    --------
    >>> check_lang("en")
    'en'
    """
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise InputError(f"{name} must be 'zh' or 'en'; got {lang!r}")
    return lang


def _pairs(**items):
    """``key=(zh, en)`` pairs as catalogue entries."""
    return {key: {"zh": zh, "en": en} for key, (zh, en) in items.items()}


def _section(prefix: str, **items):
    return {f"{prefix}.{key}": value for key, value in _pairs(**items).items()}


_TEXTS: dict[str, dict[str, object]] = {
    # ------------------------------------------------------------------ the report
    **_section(
        "report",
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
    **_section(
        "report.depth",
        system=("{s} {mean:.1f}（{low:g}–{high:g}）", "{s} {mean:.1f} ({low:g} to {high:g})"),
        separator=("、", ", "),
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
    **_section(
        "report.heading",
        measures=("评估指标对比", "Measures"),
        best=("各指标的最佳检索器", "Best system per measure"),
        tests=("显著性检验", "Significance tests"),
        advice=("建议", "Recommendation"),
        history=("持续评估", "Continuous evaluation"),
        figures=("图表", "Figures"),
        many=("多个检索器：方差分析、显著性矩阵与效应量",
              "Many systems: ANOVA, significance matrix, effect sizes"),
    ),
    **_section(
        "report.test",
        t=("配对 t 检验", "paired t test"),
        wilcoxon=("Wilcoxon 符号秩检验", "Wilcoxon signed-rank test"),
        randomization=("Fisher 随机化检验", "Fisher randomization test"),
        bootstrap=("配对自助法（bootstrap）检验", "paired bootstrap test"),
        tukey=("随机化 Tukey HSD 检验", "randomised Tukey HSD test"),
        **{"tukey-studentized": ("Tukey HSD 检验（学生化极差分布）",
                                 "Tukey HSD test (studentized range)")},
    ),
    **_section(
        "report.ci",
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
    **_section(
        "report.caption",
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
    **_section(
        "report.alert",
        threshold=("低于阈值", "below threshold"),
        regression=("显著回归", "significant regression"),
        dataset=("数据集变更", "dataset changed"),
    ),
    # The report's sentences (reteval.report.document)
    **_section(
        "report.say",
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
                  "在 {n} 个查询上，α = {alpha:g} 的配对 t 检验能以 80% 的统计功效检测出 {mdd} "
                  "的真实差异。"),
                  ("Planning ({measure}, {system} vs {runner}): the per-query differences have "
                  "standard deviation {sd}; with {n} queries a paired t test at alpha = "
                  "{alpha:g} detects a true difference of {mdd} with 80% power.")),
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
        tests_corrected=("校正：每个指标内做 {corr} 校正。",
                         "Corrected: {corr} within each measure."),
        tests_uncorrected=("未做多重比较校正。", "Not corrected."),
        tests_note_tukey=(("差值 = 检索器 − 对照。置信区间：{level} {ci}。效应量：(均值差)/√V_E。"
                           "Tukey HSD 已控制所有两两比较的族错误率，不再校正。"),
                          ("Difference = system - other. Interval: {level} {ci}. Effect size: "
                           "(mean difference) / sqrt(V_E). Tukey's HSD controls the family-wise "
                           "error of all pairs; no further correction.")),
        many_intro=(("方差分析（主题 × 检索器，双因素无重复）检验是否存在任何差异；矩阵中 ▲/▼ "
                     "表示行检索器显著高于/低于列检索器；效应量 = 均值差 / √V_E，区间为对应检验的 "
                     "{level} 区间除以 √V_E。"),
                    ("The two-way ANOVA (topic x system, without replication) asks whether the "
                     "systems differ at all; in the matrix ▲/▼ mark a row system significantly "
                     "above/below the column system; effect size = mean difference / sqrt(V_E), "
                     "its interval the test's {level} interval divided by sqrt(V_E).")),
        many_anova=(("：F({d1}, {d2}) = {f:.3f}，{p}，V_E = {ve}，按 V_E 的误差幅度（MOE）"
                     "±{moe}。"),
                    (": F({d1}, {d2}) = {f:.3f}, {p}, V_E = {ve}, margin of error by "
                     "V_E (MOE) ±{moe}.")),
    ),
    # Measure families: (term of one query's score, term of the mean over queries).
    **_section(
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
    # ------------------------------------------------------- figures (reteval.report.figures)
    **_section(
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
        queries_by_difference=("查询（按差值排序）", "queries, sorted by difference"),
        forest_x=("均值及其 {level:g}% 自助法置信区间", "mean with {level:g}% bootstrap interval"),
        per_query=("逐查询 {measure}", "{measure} per query"),
        distribution_title=("{measure}：{n} 个查询", "{measure}: {n} queries"),
        asl_x=("检索器对（按达到的显著性水平排序）", "system pairs, sorted by ASL"),
        asl_y=("达到的显著性水平（p 值）", "achieved significance level (ASL, p-value)"),
        asl_label=("{name}：{share:.0%} 的检索器对显著",
                   "{name}: {share:.0%} of pairs significant"),
        asl_title=("区分能力（α = {alpha:g}）", "discriminative power (alpha = {alpha:g})"),
    ),
    # ranked-list strips (reteval.report.figures.plot_ranked_list, plot_ranked_lists)
    **_section(
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
    # ------------------------------------------------------------------ trend (reteval.monitor)
    **_section(
        "trend",
        x=("评估时间（UTC）", "evaluation time (UTC)"),
        y=("指标值", "value"),
        title=("评估历史", "Evaluation history"),
        title_of=("评估历史：{retriever}", "Evaluation history: {retriever}"),
        alert=("告警", "alert"),
    ),
    # ------------------------------------------------------------------ A/B figures
    **_section(
        "ab_figure",
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
    # ------------------------------------------------------------------ A/B verdicts
    **_section(
        "ab",
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
        sentence_sep=("", " "),
        decision_ship=("上线", "ship"),
        decision_do_not_ship=("不上线", "do not ship"),
        decision_inconclusive=("无法定论", "inconclusive"),
    ),
    # the sequential test and the A/B-versus-interleaving simulation
    **_section(
        "ab.sequential",
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
    **_section(
        "ab.interleaving",
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
    **_section(
        "ab.methods",
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
    **_section(
        "ab.metric",
        satisfaction=("满意度", "satisfaction rate"),
        ctr=("点击率", "click-through rate"),
        clicks_per_query=("每次查询的点击数", "clicks per query"),
        avg_retrieved=("每次查询返回的文档数", "documents retrieved per query"),
        queries_per_user=("每个用户的查询数", "queries per user"),
        user_click_rate=("有点击的用户比例", "share of users who clicked"),
    ),
    # ------------------------------------------------------------------ errors (error_message)
    **_section(
        "error",
        duplicate=(("{what}中查询 {query!r} 的文档 {doc!r} 出现了两次：第 {first} 和第 {second} "
                    "{unit}"),
                   ("document {doc!r} appears twice for query {query!r} in the {what}, on {unit} "
                    "{first} and {second}")),
    ),
    # an error's field values in words: error.<entry>.<field>.<value>
    **_section(
        "error.duplicate.what",
        run=("运行结果", "run"),
        qrels=("相关性判断", "qrels"),
    ),
    **_section(
        "error.duplicate.unit",
        rows=("行（从 0 数起）", "rows"),
        lines=("行", "lines"),
    ),
    # ------------------------------------------------------------------ a test collection
    **_section(
        "dataset",
        describe=("数据集 {name}：{documents} 个文档，{queries} 条查询，{judgments} 个相关性判断",
                  ("Dataset(name={name!r}, documents={documents}, queries={queries}, "
                   "judgments={judgments})")),
    ),
    # ------------------------------------------------------------------ judges (reteval.judging)
    **_section(
        "judging",
        summary=(("相关性判断：判定器 {judges} 判断了 {items} 个（查询，文档）对；调用 {calls} 次，"
                  "发送 {characters} 个字符，{failed} 个回答失败"),
                 ("Judgments({items} items judged by {judges}; {calls} calls, {characters} "
                  "characters, {failed} failed answers)")),
        dry_run=("相关性判断（试运行）：将调用 {calls} 次，发送 {characters} 个字符",
                 "Judgments(dry run: {calls} calls, {characters} characters)"),
        sep=("、", ", "),
        none=("无", "none"),
        failed=(("判定器 {judge!r} 的 {calls} 个回答中有 {failed} 个失败；{lost} 个（查询，文档）对"
                 "没有得到等级（见 {attribute}）"),
                ("{failed} of {calls} answers from judge {judge!r} failed; {lost} item(s) got no "
                 "grade (see {attribute})")),
        not_integer=("回答 {answer!r} 不是整数等级", "answer {answer!r} is not an integer grade"),
        not_a_grade=("回答 {value} 不是等级 {grades} 之一",
                     "answer {value} is not one of the grades {grades}"),
    ),
    # ------------------------------------------------------------------ widgets
    **_section(
        "widget",
        live_note=(("交互控件需要运行中的内核（JupyterLab、Jupyter 笔记本、VS Code）。"
                   "以下是控件当前显示的内容："),
                   ("The interactive controls need a live kernel (JupyterLab, Notebook, "
                   "VS Code). What they show now:")),
        system=("检索器", "system"),
        cutoff_k=("截断位置 K", "cutoff K"),
        mean_of=("{measure} 均值", "mean {measure}"),
        query=("查询", "query"),
        left=("左侧", "left"),
        right=("右侧", "right"),
        query_line=("查询 {q}：{text}（K = {k}）", "query {q}: {text} (K = {k})"),
        unjudged=("未判断", "unjudged"),
        missed=("相关但不在前 {k} 名：", "Relevant, not in the top {k}: "),
        none=("无", "none"),
        ranking_header=(("排名", "文档", "得分", "相关性判断", "标题"),
                        ("rank", "doc", "score", "judgment", "title")),
        grade_at_rank=("各排名位置上文档的相关等级", "Grade of the document at each rank"),
        metric_header=(("排名 i", "相关等级", "相关？", "第 i 位的精确率", "增益/log2(i+1)"),
                       ("rank i", "grade", "relevant?", "precision at i", "gain/log2(i+1)")),
        relevant=("相关", "relevant"),
        not_relevant=("不相关", "not"),
        judged_not_retrieved=("已判断但未返回：相关等级 {grades}（其中 {n} 个相关）。",
                              "Judged but not retrieved: grades {grades} ({n} relevant)."),
        relevant_at=("第 {rank} 名：相关吗？", "rank {rank}: relevant?"),
        not_retrieved=("未返回的相关文档", "not retrieved"),
        of_grade=("等级", "of grade"),
        baseline_rate=("基线比率", "baseline rate"),
        effect=("效应（绝对增量）", "effect (+abs.)"),
        alpha=("显著性水平 α", "alpha"),
        power=("统计功效", "power"),
        no_plan=("无法规划：{error}", "no plan: {error}"),
        plan_rates=(("基线 {baseline:.3f} -> 实验组 {treatment:.3f}（+{change:.3f}，"
                    "相对 {relative:+.1f}%）"),
                    ("baseline {baseline:.3f} -> treatment {treatment:.3f} "
                    "(+{change:.3f}, {relative:+.1f}% relative)")),
        plan_size=(("每组 {n:,} 人（共 {total:,} 人），双侧检验，显著性水平 α = {alpha:.3f}，"
                   "统计功效 {power:.2f}"),
                   ("n per group = {n:,} (total {total:,}) for power {power:.2f} at alpha "
                   "{alpha:.3f}, two-sided")),
    ),
    # ------------------------------------------------------------------ the book
    **_section(
        "book.section",
        **{"01": ("评估指标", "Measures"),
           "02": ("作弊排行榜", "A cheating leaderboard"),
           "03": ("评估数据集与 RAG 评估", "The evaluation set and RAG evaluation"),
           "04": ("评估数据集可信吗", "Can the judgments be trusted"),
           "05": ("检索器对比评估", "Comparing retrievers"),
           "06": ("多个系统的比较", "Conclusions over many systems"),
           "07": ("A/B 测试", "A/B testing"),
           "08": ("交错实验", "Interleaving"),
           "09": ("持续评估", "Continuous evaluation"),
           "10": ("评估报告", "The evaluation report"),
           "11": ("交互式探索", "Interactive exploration")},
    ),
    **_section(
        "book",
        book=("检索评估 · 第七章配套笔记本", "Retrieval evaluation · notebooks of chapter 7"),
        contents=("目录", "Contents"),
        glossary=("术语表", "Glossary"),
        prev=("上一页", "Previous"),
        next=("下一页", "Next"),
        switch=("English", "中文"),
        files=("图表与报告", "Figures and reports"),
        figure=("笔记本输出的图", "a figure the notebook drew"),
        figures=("图表", "Figures"),
        reports=("报告", "Reports"),
        data=("笔记本与结果", "Notebook and results"),
        widget=(("此处是交互控件：它需要运行中的 Jupyter 内核，静态页面无法显示。"
                "笔记本打印的文本版本见本单元的其他输出。"),
                ("An interactive widget was here: it needs a live Jupyter kernel and cannot be "
                "shown in a static page. The text version the notebook prints is in this "
                "cell's other outputs.")),
        edition=("中文版", "English edition"),
        record=("记录结果的代码（供测试和报告使用）",
                "Code that records the results (for the tests and the report)"),
        none=("（尚未运行）", "(not run yet)"),
    ),
}



def _notebook_entries() -> dict:
    """The notebooks' words (:mod:`reteval._util.notebook_texts`), as ``notebook.NN.<key>``."""
    from reteval._util import notebook_texts

    entries = {}
    for module in pkgutil.iter_modules(notebook_texts.__path__):
        number = module.name.removeprefix("nb")
        texts = importlib.import_module(f"{notebook_texts.__name__}.{module.name}").TEXTS
        entries.update({f"notebook.{number}.{key}": dict(zip(LANGUAGES, pair, strict=True))
                        for key, pair in texts.items()})
    return entries


_TEXTS.update(_notebook_entries())

#: Every text, by key: ``{key: {"zh": ..., "en": ...}}`` (read-only).
TEXTS = MappingProxyType({key: MappingProxyType(value) for key, value in _TEXTS.items()})


def phrase(key: str, lang: str, /, **fields):
    """The entry ``key`` in ``lang``, filled in with ``fields`` (a string template).

    Raises
    ------
    KeyError
        No entry ``key`` (a misspelt key is a bug, not bad input).
    InputError
        ``lang`` is not one of :data:`LANGUAGES`.

    Examples
    --------
    >>> phrase("trend.title_of", "zh", retriever="bm25")
    '评估历史：bm25'
    """
    value = TEXTS[key][check_lang(lang)]
    return value.format(**fields) if fields else value


def phrases(prefix: str, lang: str) -> dict:
    """The entries whose keys start with ``prefix``, by the rest of the key, in ``lang``.

    Examples
    --------
    >>> phrases("report.alert.", "en")["dataset"]
    'dataset changed'
    """
    check_lang(lang)
    return {key[len(prefix):]: value[lang] for key, value in TEXTS.items()
            if key.startswith(prefix)}


def notebook_texts(number: str, lang: str) -> dict:
    """The words of notebook ``number`` (``"01"``, ``"05"`` ...) in ``lang``, by key.

    Examples
    --------
    >>> notebook_texts("01", "zh")["by_hand"]
    '手算'
    """
    return phrases(f"notebook.{number}.", lang)


def join_names(items, lang: str) -> str:
    """Names as a list in running text: ``"a, b and c"``, ``"a、b 和 c"``.

    Examples
    --------
    >>> join_names(["bm25", "vector", "hybrid"], "zh")
    'bm25、vector 和 hybrid'
    >>> join_names(["bm25"], "en")
    'bm25'
    """
    items = [str(item) for item in items]
    if len(items) <= 1:
        return "".join(items)
    if check_lang(lang) == "zh":
        return "、".join(items[:-1]) + " 和 " + items[-1]
    return ", ".join(items[:-1]) + " and " + items[-1]


def error_message(error: BaseException, lang: str) -> str:
    """What ``error`` says, in ``lang``: its catalogue entry when it names one, else its message.

    A field whose value has an entry of its own (``error.duplicate.what.run``) is
    said in words of ``lang`` too.

    Examples
    --------
    >>> from reteval.io.duplicates import duplicate_error
    >>> error_message(duplicate_error("run", "q1", "d1", "rows 0 and 1", None), "zh")
    "运行结果中查询 'q1' 的文档 'd1' 出现了两次：第 0 和第 1 行（从 0 数起）"
    """
    key = getattr(error, "key", None)
    if check_lang(lang) == "en" or key not in TEXTS:
        return str(error)
    fields = {name: phrase(f"{key}.{name}.{value}", lang) if f"{key}.{name}.{value}" in TEXTS
              else value for name, value in getattr(error, "fields", {}).items()}
    message = phrase(key, lang, **fields)
    path, line = getattr(error, "path", None), getattr(error, "line", None)
    if path is None:
        return message
    return f"{path}:{line}: {message}" if line is not None else f"{path}: {message}"
