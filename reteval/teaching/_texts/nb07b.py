"""The words of notebook 07b (online evaluation: power and sequential testing)."""

TEXTS = {
    # section 1: notebook 07's experiment, tested once at the end
    "users_log": ("{n:,} 次交互，来自 {u:,} 个用户，保存在 {path}",
                  "{n:,} interactions of {u:,} users in {path}"),
    "fixed": (("固定样本量检验（笔记本 07 第 5 节），实验结束时看一次，{m}的对照组 {c:.4f}、"
               "实验组 {t:.4f}，p = {p:.4g}：{outcome}。"),
              ("The fixed-horizon test (section 5 of notebook 07), looked at once at the end: {m} "
               "control {c:.4f}, treatment {t:.4f}, p = {p:.4g}: {outcome}.")),
    "outcome_better": ("更好", "better"),
    "outcome_worse": ("更差", "worse"),
    "outcome_no_detectable_change": ("未检出变化", "no detectable change"),
    # section 2: power before the experiment
    "mde": (("{label}：对照组 {base:.4f}；每组 {n:,} 个用户时，80% 统计功效下最小可检测差异为 "
             "{mde:+.4f}（按每个用户一次判断计）"),
            ("{label}: control {base:.4f}; with {n:,} users per variant, an 80%-power "
             "detectable difference is {mde:+.4f} (one judgement per user)")),
    "lift": ("相对提升", "relative_lift"),
    "target": ("目标值", "target"),
    "users": ("每组所需用户数", "users_per_variant"),
    # section 3: watching the experiment as it runs
    "seq_label": ("{label}（{t} − {c}）", "{label} ({t} - {c})"),
    "naive_days": ("朴素（固定样本量）p 值低于 {a:g} 的查看：{looks}。",
                   "Looks where the naive (fixed-horizon) p-value is below {a:g}: {looks}."),
    "look": ("第 {i} 次（{date}）", "{i} ({date})"),
    "sep": ("，", ", "),
    "naive_never": ("朴素 p 值在任何一次查看中都没有低于 {a:g}。",
                    "The naive p-value is never below {a:g}."),
    "last_look": (("最后一次查看的朴素 p 值 {p1:.4g} 就是笔记本 07 第 5 节分析表中{m}的 p 值 "
                   "{p2:.4g}（数据相同）。"),
                  ("The naive p-value at the last look, {p1:.4g}, is the p-value of the {m} in "
                   "the analysis table of section 5 of notebook 07, {p2:.4g} (same data).")),
    "aa_cols": (("方法", "至少一次 p < α 的 {aa} 实验比例"),
                ("method", "share of {aa} experiments with p < alpha at some point")),
    "aa_naive": ("每天查看朴素 p 值，第一次 p < α 就停",
                 "naive p-value every day, stop at the first p < alpha"),
    "aa_msprt": ("每天查看 mSPRT 始终有效 p 值", "mSPRT always-valid p-value every day"),
    "aa_once": ("只在最后查看一次朴素 p 值", "naive p-value once, at the last look"),
}

# The hints of the exercises (reteval.teaching.exercises.nb07b), from a nudge to a
# near-complete method: exercise.07b.<i>.<key>.
EXERCISE_TEXTS = {
    "1.hints": (
        (
            ("答案是一个整数。第 2 节怎样从基线比率和希望达到的比率得到每组的人数？"
             "两比例检验的常用公式（原假设下合并方差）也可以。"),
            "先求效应量 ab.proportion_effect_size(0.82, 0.80)（Cohen 的 h）。",
            "再用 ab.sample_size(h, alpha=0.05, power=0.8)（双侧），向上取整。",
        ),
        (
            ("The answer is a whole number. How does section 2 go from the base rate and the "
             "hoped-for rate to the users per variant? The usual formula for two proportions "
             "(pooled variance under the null) will do too."),
            "First the effect size ab.proportion_effect_size(0.82, 0.80) (Cohen's h).",
            "Then ab.sample_size(h, alpha=0.05, power=0.8) (two-sided), rounded up.",
        ),
    ),
    # 07b.1: what a wrong answer is told
    "1.both_variants": ("这个数是两组合计的人数；题目问的是每组的人数。",
                        ("That counts both variants together; the exercise asks for users "
                         "per variant.")),
    "2.hints": (
        (
            "答案是一个字母。固定样本量检验的 p 值在什么条件下才有效？",
            ("固定样本量检验的 5% 假阳性率，只在事先定好规模、只在最后看一次时成立；"
            "中途看一次就多一次犯错的机会。"),
            ("事后在两种检验之间挑一个更方便的结论，和中途偷看一样会抬高假阳性率；"
            "两种检验都只在自己的设计下有效。"),
        ),
        (
            "The answer is one letter. Under which condition is a fixed-horizon p-value valid?",
            ("The fixed-horizon test's 5% false-positive rate holds only for a size fixed in "
            "advance and a single look at the end; each look before is one more chance to err."),
            ("Picking whichever test gives the handier conclusion afterwards raises the "
            "false-positive rate just as peeking does; each test is valid only under its own "
            "design."),
        ),
    ),
    "3.hints": (
        (
            ("答案是一个 0 到 1 之间的数（保留 4 位小数即可）。"
             "第 3 节的哪个公式从差异、方差和 τ 得到 Λ？"),
            ("Λ_n = sqrt(V_n / (V_n + τ²)) · exp(τ² Δ_n² / (2 V_n (V_n + τ²)))，"
             "这里 V_n = 0.0001，τ² = 0.0004，Δ_n = 0.03。"),
            ("第一次查看时，始终有效 p 值是 min(1, 1/Λ_1)；也可以用 "
             "ab.msprt([0.03], [0.0001], mixing_sd=0.02).pvalue[0] 验算。"),
        ),
        (
            ("The answer is a number between 0 and 1 (4 decimals are enough). Which formula of "
             "section 3 gives Lambda from the difference, its variance and tau?"),
            ("Lambda_n = sqrt(V_n / (V_n + tau^2)) * exp(tau^2 Delta_n^2 / (2 V_n (V_n + tau^2))), "
             "here with V_n = 0.0001, tau^2 = 0.0004 and Delta_n = 0.03."),
            ("At the first look the always-valid p-value is min(1, 1/Lambda_1); "
             "ab.msprt([0.03], [0.0001], mixing_sd=0.02).pvalue[0] checks it."),
        ),
    ),
    # 07b.3: what a wrong answer is told
    "3.naive": ("这是这次查看的朴素（固定样本量）p 值；题目问的是 mSPRT 的始终有效 p 值。",
                ("That is the naive (fixed-horizon) p-value of this look; the exercise asks for "
                 "the mSPRT's always-valid p-value.")),
    "3.lambda": ("这是 Λ 本身；始终有效 p 值由 Λ 得到。",
                 "That is Lambda itself; the always-valid p-value follows from Lambda."),
}
