"""The words of notebook 07 (online evaluation: A/B tests)."""

TEXTS = {
    # section 1: the chapter's assignment resets the global random state
    "prior_seed": ("之前设置的种子", "seed set before"),
    "before": ("分组前的一次抽样", "a draw before assigning"),
    "after1": ("分组后第 1 次抽样", "1st draw after"),
    "after2": ("分组后第 2 次抽样", "2nd draw after"),
    "draw": ("新进程中 {call} 的结果", "{call}"),
    "hash_seed": ("新进程的 {name}", "{name}"),
    # section 1: the same groups in every experiment
    "method": ("方法", "method"),
    "share_b": ("分到 {t} 的比例", "share in {t}"),
    "agree": ("两个实验中分组相同的比例", "same group in both experiments"),
    "chapter": ("本章的 {name}", "chapter's {name}"),
    "reteval": ("{name}（哈希：实验名 + 用户）", "{name} (hash of experiment + user)"),
    # section 2: reteval's assignment
    "bucket": ("{name} 值", "{name}"),
    "variant": ("组", "variant"),
    "user": ("用户", "user_id"),
    # section 3: the interaction log
    "users_log": ("{n:,} 次交互，来自 {u:,} 个用户，保存在 {path}",
                  "{n:,} interactions of {u:,} users in {path}"),
    "log.id": ("编号", "id"),
    "log.experiment": ("实验", "experiment"),
    "log.variant": ("组", "variant"),
    "log.user_id": ("用户", "user_id"),
    "log.query": ("查询", "query"),
    "log.timestamp": ("时间（UTC）", "timestamp"),
    "log.retrieved": ("展示的文档", "retrieved"),
    "log.clicks": ("点击的文档", "clicks"),
    "log.feedback": ("反馈", "feedback"),
    "log.n_retrieved": ("展示数", "n_retrieved"),
    "log.n_clicks": ("点击数", "n_clicks"),
    # section 4: the chapter's rates beside reteval's
    "rate_rated": ("本章：只计有反馈的记录", "chapter: records with feedback"),
    "rate_all": ("本章：无反馈记为不满意", "chapter: no feedback counted as unsatisfied"),
    "rate_reteval": ("{lib} 的满意度", "{lib} satisfaction_rate"),
    "retr_chapter": ("本章：平均返回数", "chapter: avg_retrieved"),
    "retr_reteval": ("{lib} 的平均返回数", "{lib} avg_retrieved"),
    "summary.users": ("用户数", "users"),
    "summary.queries": ("查询数", "queries"),
    "summary.satisfaction_rate": ("满意度", "satisfaction_rate"),
    "summary.ctr": ("点击率", "ctr"),
    "summary.clicks_per_query": ("每次查询的点击数", "clicks_per_query"),
    "summary.avg_retrieved": ("每次查询返回的文档数", "avg_retrieved"),
    "summary.share": ("实际份额", "share"),
    "summary.expected_share": ("设计份额", "expected_share"),
    # section 5: the analysis table in the edition's language
    "role_primary": ("主要指标", "primary"),
    "role_guardrail": ("护栏指标", "guardrail"),
    "outcome_better": ("更好", "better"),
    "outcome_worse": ("更差", "worse"),
    "outcome_no_detectable_change": ("未检出变化", "no detectable change"),
    "test.delta-method z": ("delta 方法 z 检验", "delta-method z"),
    "test.Welch t": ("Welch t 检验", "Welch t"),
    "test.two-proportion z": ("双比例 z 检验", "two-proportion z"),
    "test.z": ("z 检验", "z"),
    "treatment": ("实验组", "treatment"),
    "metric": ("指标", "metric"),
    "analysis.role": ("角色", "role"),
    "analysis.control_value": ("对照组", "control_value"),
    "analysis.treatment_value": ("实验组", "treatment_value"),
    "analysis.difference": ("差值", "difference"),
    "analysis.ci_low": ("置信下限", "ci_low"),
    "analysis.ci_high": ("置信上限", "ci_high"),
    "analysis.relative_lift": ("相对变化", "relative_lift"),
    "analysis.test": ("检验", "test"),
    "analysis.pvalue": ("p", "pvalue"),
    "analysis.pvalue_adjusted": ("校正后 p", "pvalue_adjusted"),
    "analysis.mde": ("最小可检测差异", "mde"),
    "analysis.outcome": ("结论", "outcome"),
    # section 5: queries treated as independent
    "het_ratio": ("方差之比（按用户 ÷ 按查询独立）",
                  "variance ratio (user unit / queries independent)"),
    "het_naive": ("{aa} 误报率：查询独立的 z 检验",
                  "{aa} false-positive rate: z-test, queries independent"),
    "het_user": ("{aa} 误报率：以用户为单位", "{aa} false-positive rate: user as unit"),
    "het_alike": ("本节的日志（用户相同）", "this section's log (users alike)"),
    "het_differ": ("用户各不相同（σ = {sd:g}）", "users differ (user_sd = {sd:g})"),
    # section 6: CUPED over several seeds
    "cuped.seed": ("种子", "seed"),
    "cuped.theta": ("θ", "theta"),
    "cuped.reduction": ("方差减少", "variance_reduction"),
    "cuped.width_ratio": ("置信区间宽度之比（CUPED ÷ 不调整）", "interval_width_CUPED/unadjusted"),
    "cuped.users": ("每组用户数", "users_per_variant"),
    "cuped.same_precision": ("CUPED 达到同样精度所需的每组用户数",
                             "users_per_variant_for_the_same_precision_with_CUPED"),
    "cuped.p_plain": ("p（不调整）", "p_unadjusted"),
    "cuped.p_cuped": ("p（CUPED）", "p_CUPED"),
    "cuped.summary": (("{n} 个种子中，用实验前的点击调整后，{label}的方差减少了 {low:.0%} 到 "
                       "{high:.0%}（平均 {mean:.0%}），差值的置信区间平均窄了 {narrower:.0%}："
                       "达到同样的精度，平均每组少用 {saved:,.0f} 个用户。"),
                      ("Over {n} seeds, adjusting for the clicks before the experiment removed "
                       "{low:.0%} to {high:.0%} of the variance of the {label} (mean {mean:.0%}), "
                       "and the interval of the difference is {narrower:.0%} narrower on average: "
                       "the same precision with {saved:,.0f} fewer users per variant on average.")),
    # section 6: the Bayesian reading beside the frequentist one
    "bayes.lift": ("相对变化", "relative_lift"),
    "bayes.ci": ("置信区间（相对）", "confidence_interval"),
    "bayes.p": ("校正后 p", "pvalue_adjusted"),
    "bayes.freq": ("频率学派结论", "frequentist_outcome"),
    "bayes.credible": ("可信区间（相对）", "credible_interval"),
    "bayes.chance": ("实验组更好的概率", "chance_to_win"),
    "bayes.risk_treatment": ("上线实验组的风险", "risk_of_shipping"),
    "bayes.risk_control": ("保留对照组的风险", "risk_of_keeping_control"),
    "bayes.bayes": ("贝叶斯结论", "bayesian_outcome"),
}

# The hints of the exercises (reteval.teaching.exercises.nb07), from a nudge to a
# near-complete method: exercise.07.<i>.<key>.
EXERCISE_TEXTS = {
    "1.hints": (
        (
            "答案是一个数（保留 4 位小数即可）。assign_group 对全局的 random 模块做了什么？",
            "assign_group 调用 random.seed(user_id)，然后自己用掉了一次 random.random()。",
            ("程序接下来得到的是 random.seed('user42') 之后序列中的下一个数："
            "自己 seed 一次，先抽掉 assign_group 用掉的那一个，再抽一次。"),
        ),
        (
            ("The answer is a number (4 decimals are enough). What does assign_group do to "
            "the global random module?"),
            "assign_group calls random.seed(user_id), then uses one random.random() itself.",
            ("The program then gets the next number of the sequence after "
            "random.seed('user42'): seed it yourself, draw the one assign_group used, then "
            "draw once more."),
        ),
    ),
    "2.hints": (
        (
            "答案是一个整数。本章的 assign_group 有哪些参数？",
            "assign_group 没有实验名这个参数：同一用户在每个实验里的组都一样。",
            ("所以两个实验中都在 B 组的人，就是第一个实验中 B 组的人："
            "数一数 user0 … user999 中分到 B 的人数（记得恢复 random 的全局状态）。"),
        ),
        (
            ("The answer is a whole number. Which parameters does the chapter's assign_group "
            "take?"),
            ("The chapter's assign_group takes no experiment name: a user gets the same group "
            "in every experiment."),
            ("So the users in B in both experiments are the users in B in the first: count "
            "those among user0 ... user999 (and restore the global random state)."),
        ),
    ),
    "3.hints": (
        (
            ("写一个函数 assign_group(user_id, experiment)，返回 \"A\" 或 \"B\"："
             "同一用户在同一实验中"
            "总是同一组，不同实验之间互不相关，而且不碰 random 模块。"),
            ("用 hashlib（例如 hashlib.sha256）对 f\"{experiment}:{user_id}\" 的 UTF-8 字节求哈希；"
            "不要用内置的 hash()，它每个进程都不同。"),
            ("把摘要的前 8 个字节转成整数（int.from_bytes(digest[:8], \"big\")），除以 2**64 得到"
            " [0, 1) 中的数，小于 0.5 分到 A，否则分到 B。"),
        ),
        (
            ("Write a function assign_group(user_id, experiment) returning \"A\" or \"B\": the "
            "same user always gets the same group in the same experiment, different "
            "experiments are unrelated, and the random module is left alone."),
            ("Hash the UTF-8 bytes of f\"{experiment}:{user_id}\" with hashlib (say "
            "hashlib.sha256); not with the built-in hash(), which differs from process to "
            "process."),
            ("Turn the first 8 bytes of the digest into an integer (int.from_bytes(digest[:8], "
            "\"big\")), divide by 2**64 for a number in [0, 1); below 0.5 is A, otherwise B."),
        ),
    ),
    "4.hints": (
        (
            "答案是一个整数：每组用户数。CUPED 去掉的是方差中的哪一部分？",
            ("与指标相关系数为 ρ 的协变量能去掉方差的 ρ² 这一份；差值的方差与每组用户数成反比"
             "（第 5 节公式分母中的 n）。"),
            ("所以同样的方差只需 1 − ρ² 倍的用户；第 6 节的表里，同样精度所需的用户数"
             "就是每组用户数乘以（1 − 方差减少）。"),
        ),
        (
            ("The answer is a whole number: users per variant. Which part of the variance "
             "does CUPED remove?"),
            ("A covariate correlated rho with the metric removes the share rho^2 of the "
             "variance; the variance of the difference is inversely proportional to the users "
             "per variant (the n in the denominator of section 5's formula)."),
            ("So the same variance takes 1 - rho^2 times the users; in section 6's table, the "
             "users for the same precision are the users per variant times (1 - the variance "
             "removed)."),
        ),
    ),
    "5.hints": (
        (
            ("答案是一个 0 到 1 之间的数（保留 4 位小数即可）。"
             "“实验组更好”对应相对变化的什么事件？"),
            "实验组更好的概率是后验分布中相对变化大于 0 的概率。",
            ("后验为正态分布 N(0.02, 0.01²)：求 P(X > 0)，例如 "
             "scipy.stats.norm.sf(0, loc=0.02, scale=0.01)。"),
        ),
        (
            ("The answer is a number between 0 and 1 (4 decimals are enough). Which event of "
             "the relative lift is \"the treatment is better\"?"),
            "The chance to win is the posterior probability that the relative lift exceeds 0.",
            ("The posterior is normal, N(0.02, 0.01^2): compute P(X > 0), e.g. "
             "scipy.stats.norm.sf(0, loc=0.02, scale=0.01)."),
        ),
    ),
    # 07.3: what a wrong answer is told
    "3.raised": ("你的函数在隐藏的用户上出错：{error}。",
                 "Your function raised {error} on the hidden users."),
    "3.not_a_or_b": ("函数应当返回 \"A\" 或 \"B\"。",
                     "The function must return \"A\" or \"B\"."),
    "3.random_state": ("你的函数改变了 random 模块的全局状态。",
                       "Your function changed the global state of the random module."),
    "3.inconsistent": ("同一个用户在同一个实验中两次得到了不同的组。",
                       "The same user got two different groups in the same experiment."),
    "3.builtin_hash": (("内置的 hash() 对字符串每个进程都不同（PYTHONHASHSEED）："
                        "重启以后用户会换组。"),
                       ("The built-in hash() of a string differs from process to process "
                        "(PYTHONHASHSEED): users would change groups after a restart.")),
    "3.unbalanced": ("B 组的份额离一半太远。",
                     "The share of users in B is too far from one half."),
    "3.experiment_not_hashed": ("两个不同实验的分组几乎一样（或几乎相反）：实验名没有进入哈希。",
                                ("Two different experiments split the users almost alike (or "
                                 "almost oppositely): the experiment is not part of the hash.")),
}
