"""The words of notebook 07 (online evaluation: A/B tests)."""

TEXTS = {
    # section 1: the chapter's assignment resets the global random state
    "prior_seed": ("之前设置的种子", "seed set before"),
    "before": ("分组前的一次抽样", "a draw before assigning"),
    "after1": ("分组后第 1 次抽样", "1st draw after"),
    "after2": ("分组后第 2 次抽样", "2nd draw after"),
    # section 1: the same groups in every experiment
    "method": ("方法", "method"),
    "share_b": ("分到 {t} 的比例", "share in {t}"),
    "agree": ("两个实验中分组相同的比例", "same group in both experiments"),
    "chapter": ("本章的 {name}", "chapter's {name}"),
    "reteval": ("{name}（哈希：实验名 + 用户）", "{name} (hash of experiment + user)"),
    # section 3: the interaction log
    "users_log": ("{n:,} 次交互，来自 {u:,} 个用户，保存在 {path}",
                  "{n:,} interactions of {u:,} users in {path}"),
    # section 4: the chapter's rates beside reteval's
    "rate_rated": ("本章：只计有反馈的记录", "chapter: records with feedback"),
    "rate_all": ("本章：无反馈记为不满意", "chapter: no feedback counted as unsatisfied"),
    "rate_reteval": ("{lib} 的满意度", "{lib} satisfaction_rate"),
    "retr_chapter": ("本章：平均返回数", "chapter: avg_retrieved"),
    "retr_reteval": ("{lib} 的平均返回数", "{lib} avg_retrieved"),
    # section 5: the analysis table in the edition's language
    "role_primary": ("主要指标", "primary"),
    "role_guardrail": ("护栏指标", "guardrail"),
    "outcome_better": ("更好", "better"),
    "outcome_worse": ("更差", "worse"),
    "outcome_no_detectable_change": ("未检出变化", "no detectable change"),
    # section 5: queries treated as independent
    "het_ratio": ("方差之比（按用户 ÷ 按查询独立）",
                  "variance ratio (user unit / queries independent)"),
    "het_naive": ("{aa} 误报率：查询独立的 z 检验",
                  "{aa} false-positive rate: z-test, queries independent"),
    "het_user": ("{aa} 误报率：以用户为单位", "{aa} false-positive rate: user as unit"),
    "het_alike": ("本节的日志（用户相同）", "this section's log (users alike)"),
    "het_differ": ("用户各不相同（σ = {sd:g}）", "users differ (user_sd = {sd:g})"),
    # section 6: power before the experiment
    "mde": (("{label}：对照组 {base:.4f}；每组 {n:,} 个用户时，80% 统计功效下最小可检测差异为 "
             "{mde:+.4f}（按每个用户一次判断计）"),
            ("{label}: control {base:.4f}; with {n:,} users per variant, an 80%-power "
             "detectable difference is {mde:+.4f} (one judgement per user)")),
    "lift": ("相对提升", "relative_lift"),
    "target": ("目标值", "target"),
    "users": ("每组所需用户数", "users_per_variant"),
    # section 6: watching the experiment as it runs
    "seq_label": ("{label}（{t} − {c}）", "{label} ({t} - {c})"),
    "naive_days": ("朴素（固定样本量）p 值低于 {a:g} 的查看：{looks}。",
                   "Looks where the naive (fixed-horizon) p-value is below {a:g}: {looks}."),
    "look": ("第 {i} 次（{date}）", "{i} ({date})"),
    "sep": ("，", ", "),
    "naive_never": ("朴素 p 值在任何一次查看中都没有低于 {a:g}。",
                    "The naive p-value is never below {a:g}."),
    "last_look": (("最后一次查看的朴素 p 值 {p1:.4g} 就是第 5 节分析表中{m}的 p 值 {p2:.4g}"
                  "（数据相同）。"),
                  ("The naive p-value at the last look, {p1:.4g}, is the p-value of the {m} in "
                   "the analysis table of section 5, {p2:.4g} (same data).")),
    "aa_cols": (("方法", "至少一次 p < α 的 {aa} 实验比例"),
                ("method", "share of {aa} experiments with p < alpha at some point")),
    "aa_naive": ("每天查看朴素 p 值，第一次 p < α 就停",
                 "naive p-value every day, stop at the first p < alpha"),
    "aa_msprt": ("每天查看 mSPRT 始终有效 p 值", "mSPRT always-valid p-value every day"),
    "aa_once": ("只在最后查看一次朴素 p 值", "naive p-value once, at the last look"),
}
