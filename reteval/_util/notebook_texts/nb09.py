"""The words of notebook 09 (continuous evaluation)."""

TEXTS = {
    # the chapter's loop on a fake clock
    "chapter_alerts": ("本章的告警出现在第 {days} 天。",
                       "The chapter's alerts came on days {days}."),
    "none_days": ("（无）", "(none)"),
    "loop_done": (
        ("本章的循环在假时钟上运行了 {hours:,} 个模拟小时（{days} 天，休眠 {sleeps:,} 次），"
         "实际用时 {secs:.1f} 秒；它没有自己返回，是假时钟在第 {days} 天结束时抛出异常才停下的。"
         "它的历史列表中有 {n} 条记录，第一条在启动后 {first} 小时。"),
        ("The chapter's loop ran {hours:,} simulated hours on the fake clock ({days} days, "
         "{sleeps:,} calls to sleep) in {secs:.1f} s of real time; it did not return by itself: "
         "the fake clock raised an exception at the end of day {days}. Its history holds {n} "
         "entries, the first {first} hours after the start."),
    ),
    "timeout": ("检索服务超时", "the search service timed out"),
    "loop_failed": (
        ("循环在第 {day} 天因 {error} 结束；它的历史列表中只有 {entries} 条记录。"
         "之后的 {rest} 天没有任何评估，也没有告警：没有东西会重启这个循环。"),
        ("The loop ended on day {day} with {error}; its history holds {entries} entries. On the "
         "{rest} days after, there is no evaluation and no alert: nothing restarts the loop."),
    ),
    # the monitored month
    "month_done": (
        ("调度器调用了 {runs} 次一次性评估（每次一天），历史文件 {path} 中有 {n} 条记录；"
         "实际用时 {secs:.1f} 秒。"),
        ("The scheduler made {runs} one-shot evaluations (one per day); the history file {path} "
         "holds {n} entries; {secs:.1f} s of real time."),
    ),
    "summary": (
        ("注入回归的那天：第 {rd} 天。阈值告警（{m} < {t:g}）在 {nt} 天触发：回归之前 {tf} 天"
         "（误报），回归之后 {ta} 天，回归之后有 {tm} 天没有触发。显著回归告警在第 {rdays} 天触发"
         "{first}；回归之前的误报 {rf} 次。"),
        ("Regression injected on day {rd}. The threshold alert ({m} < {t:g}) fired on {nt} days: "
         "{tf} before the regression (false alarms), {ta} after it, and it stayed silent on {tm} "
         "days after it. The significant-regression alert fired on day(s) {rdays}{first}; false "
         "alarms before the regression: {rf}."),
    ),
    "first": ("，最早在第 {d} 天", ", first on day {d}"),
    "day": ("天", "day"),
    "chapter_recall": ("本章的召回率@5", "chapter recall@5"),
    "chapter_alert": ("本章告警", "chapter alert"),
    "yes": ("是", "yes"),
    "threshold_alert": ("阈值告警", "threshold alert"),
    "regression_alert": ("回归告警", "regression alert"),
    # the trend figure
    "fig_x": ("评估日期（UTC）", "evaluation date (UTC)"),
    "fig_y": ("指标值", "value"),
    "fig_title": ("模拟一个月的评估历史", "Evaluation history of a simulated month"),
    "fig_regression": ("注入回归（第 {d} 天）", "regression injected (day {d})"),
    "fig_threshold": ("阈值 {m} = {t:g}", "threshold {m} = {t:g}"),
    "fig_alert": ("告警", "alert"),
    # other thresholds on the same history
    "threshold_columns": (
        ("阈值", "回归前误报天数", "回归后触发天数", "回归后漏报天数", "首次在回归后触发的天"),
        ("threshold", "false alarms before", "days alerted after", "days missed after",
         "first day alerted after"),
    ),
    # the week (section 8): new judgments, the baseline scored again
    "week_old": (
        "上周：{name} 的前 {depth} 名中有 {holes} 个（查询，文档）对没有人工判断，交给判定器。",
        ("Last week: {holes} (query, document) pairs of {name}'s top {depth} had no human "
         "judgment; the judge was asked about them."),
    ),
    "week_new": (
        ("本周：{name} 的前 {depth} 名中有 {holes} 个对没有人工判断；"
         "连同上周的空洞，共 {pool} 个对。"),
        ("This week: {holes} pairs of {name}'s top {depth} have no human judgment; with last "
         "week's holes, {pool} pairs."),
    ),
    "week_asked": ("本周替身模型收到 {n} 个提示。",
                   "This week the stand-in model received {n} prompts."),
    "week_check": (
        ("本周的回归检验以第 {base} 条记录为基线；基线的检索结果在本周的判断下重新评分："
         "{rescored}。显著下降的指标：{measures}。"),
        ("This week's regression check took entry {base} as its baseline; its run scored again "
         "under this week's judgments: {rescored}. Measures that dropped significantly: "
         "{measures}."),
    ),
    "no": ("否", "no"),
    "week_columns": (
        ("指标", "基线（上周的判断）", "基线（重新评分）", "新检索器（空洞按不相关计）",
         "新检索器（本周的判断）", "p 值（Holm 校正）", "显著回归"),
        ("measure", "baseline (last week's judgments)", "baseline (scored again)",
         "new (holes not relevant)", "new (this week's judgments)", "p (Holm-adjusted)",
         "regression"),
    ),
}
