"""The words of continuous evaluation, in Chinese and English.

Catalogue entries ``monitor.<key>`` (:mod:`reteval._util.catalogue`): the trend figure's
labels (``trend.<key>``).
"""

from reteval._util.catalogue import section

TEXTS = {
    # the trend figure (reteval.monitor.trend)
    **section(
        "trend",
        x=("评估时间（UTC）", "evaluation time (UTC)"),
        y=("指标值", "value"),
        title=("评估历史", "Evaluation history"),
        title_of=("评估历史：{retriever}", "Evaluation history: {retriever}"),
        threshold_alert=("阈值告警", "threshold alert"),
        regression_alert=("回归告警", "regression alert"),
        threshold=("{measure} 阈值 {value:g}", "{measure} threshold {value:g}"),
    ),
}
