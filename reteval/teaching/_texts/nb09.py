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
    # other thresholds on the same history
    "threshold_columns": (
        ("阈值", "回归前误报天数", "回归后触发天数", "回归后漏报天数", "首次在回归后触发的天"),
        ("threshold", "false alarms before", "days alerted after", "days missed after",
         "first day alerted after"),
    ),
    # the week (section 8): new judgments, the baseline scored again
    "week_old": (
        "上周：{name} 的前 {depth} 名中有 {holes} 个（查询，片段）对没有人工判断，交给判定器。",
        ("Last week: {holes} (query, chunk) pairs of {name}'s top {depth} had no human "
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

# The hints of the exercises (reteval.teaching.exercises.nb09), from a nudge to a
# near-complete method: exercise.09.<i>.<key>.
EXERCISE_TEXTS = {
    "1.hints": (
        (
            "答案是一个整数。schedule 的 every(24).hours 会立即运行一次吗？",
            "every(24).hours 不会立即运行：第一次评估在启动 24 小时之后，之后每 24 小时一次。",
            ("用 FakeClock(start, until=start + timedelta(hours=70)) 运行本章的循环"
            "（用 contextlib.suppress(ClockStopped) 接住时钟停止），再数 history 的长度。"),
        ),
        (
            "The answer is a whole number. Does schedule's every(24).hours run once at the start?",
            ("every(24).hours does not run at once: the first evaluation comes 24 hours after "
            "the start, then one every 24 hours."),
            ("Run the chapter's loop on FakeClock(start, until=start + timedelta(hours=70)) "
            "(catch the clock's stop with contextlib.suppress(ClockStopped)) and count its "
            "history."),
        ),
    ),
    "2.hints": (
        (
            "答案是一个整数（截断位置 k）。前 k 个结果里最多有几篇相关文档？",
            "一个完美的系统把相关文档都排在最前面：它的 Recall@k 是 min(k, 12) / 12。",
            "找出使 min(k, 12) / 12 ≥ 0.7 的最小的 k。",
        ),
        (
            ("The answer is a whole number (a cutoff k). How many relevant documents can the "
            "top k hold?"),
            ("A perfect system ranks every relevant document first: its Recall@k is "
            "min(k, 12) / 12."),
            "Find the smallest k with min(k, 12) / 12 >= 0.7.",
        ),
    ),
    "3.hints": (
        (
            ("答案是 baseline 参数的一个取值（一个词，中文或英文都可以）。"
            "第 5 节列出了 baseline 的四种取值。"),
            "'latest' 每天都和前一天比较，所以下降之后的第二天，基线本身已经是下降后的状态。",
            "要一直和下降之前的状态比较，基线就不能随每天的记录移动：应当固定在历史中的哪一条？",
        ),
        (
            ("The answer is a value of the baseline parameter (one word, in Chinese or "
            "English). Section 5 lists the four values baseline takes."),
            ("'latest' compares each day with the day before, so the day after the drop the "
            "baseline is itself after the drop."),
            ("To keep comparing with the state before the drop the baseline must not move "
            "with each day's entry: which entry of the history should it stay on?"),
        ),
    ),
    "4.hints": (
        (
            ("写一个函数 run_once(evaluation, history_file)：evaluation 是本章的 "
            "ContinuousEvaluation，函数评估一次、把结果追加到文件里、返回结果，不循环也不等待。"),
            ("评估一次就是调用 evaluation.run_evaluation()（它也会检查告警）；"
            "不要调用 start_scheduled_evaluation，也不要 sleep。"),
            ("把 {\"timestamp\": evaluation.clock().isoformat(), \"recall@5\": ...} 用 json.dumps "
            "写成一行，以追加模式（\"a\"）写入 history_file；出错时让异常传出去，"
            "而且在评估成功之前不要写文件。"),
        ),
        (
            ("Write a function run_once(evaluation, history_file): evaluation is the chapter's "
            "ContinuousEvaluation; the function evaluates once, appends the result to the "
            "file and returns it, with no loop and no waiting."),
            ("Evaluating once is calling evaluation.run_evaluation() (it checks the alert "
            "too); do not call start_scheduled_evaluation, and do not sleep."),
            ("Write {\"timestamp\": evaluation.clock().isoformat(), \"recall@5\": ...} as one "
            "json.dumps line, opening history_file for appending (\"a\"); let an exception "
            "propagate, and write nothing before the evaluation has succeeded."),
        ),
    ),
    # 09.4: what a wrong answer is told
    "4.waits": ("你的函数在等待（调用了 sleep）：一次性的评估应当立即运行并返回。",
                ("Your function waits (it calls sleep): a one-shot evaluation runs at once and "
                 "returns.")),
    "4.raised": ("在一个隐藏的日子上，你的函数出错：{error}。",
                 "On a hidden day your function raised {error}."),
    "4.returns": ("函数应当返回这一次评估的结果（本章 run_evaluation 返回的字典）。",
                  ("The function must return this evaluation's results (the dict the chapter's "
                   "run_evaluation returns).")),
    "4.history": ("历史文件应当每次评估追加一行 JSON（含 timestamp 和 recall@5），并保留以前的行。",
                  ("The history file must gain one JSON line per evaluation (with timestamp and "
                   "recall@5) and keep the earlier ones.")),
    "4.waits_on_failure": ("你的函数在等待（调用了 sleep）。",
                           "Your function waits (it calls sleep)."),
    "4.silent_failure": ("检索服务出错时，你的函数没有报错：调度器会以为这次评估成功了。",
                         ("When the search service fails your function does not raise: the "
                          "scheduler would take the run for a success.")),
    "4.failure_changed_history": ("失败的评估改动了历史文件。",
                                  "A failed evaluation changed the history file."),
    "5.hints": (
        (
            "答案是 0 到 1 之间的一个数。这一周，基线的前 10 名变了吗？",
            "R@10 = 前 10 名中的相关片段数 / 判断中的相关片段总数：这一周变的是哪一个？",
            "分子还是 6；这个查询在本周的判断中有 10 + 2 个相关片段。",
        ),
        (
            "The answer is a number between 0 and 1. Did the baseline's top 10 change this week?",
            ("R@10 = relevant chunks in the top 10 / relevant chunks in the judgments: which of "
             "the two changed this week?"),
            "The numerator is still 6; this week's judgments hold 10 + 2 relevant chunks for it.",
        ),
    ),
}
