"""The evaluation report of a :class:`reteval.comparison.Comparison`, in Chinese or English.

The chapter's ``generate_evaluation_report`` prints a table of means, the best
system per measure and the overall best (the highest mean of means). This
report keeps that outline and adds what a reader needs to trust it: intervals,
the significance tests and their correction, and an explicit statement when
the best system is *not* significantly better than the runner-up (then the
ranking may be luck, and the report says how many queries a real difference of
that size would need). It never averages different measures into one "overall"
score: a mean of a precision, a recall and a rank measure has no meaning.

Every heading, sentence, table header and caption exists in two languages,
``lang="zh"`` (the chapter's terms: 召回率, 精确率, 平均倒数排名,
归一化折损累计增益, 平均精度均值, 基线, 显著性, 置信区间 ...) and ``lang="en"``;
the numbers are the same in both.

Three renderings of one content:

* :func:`to_markdown` -- the report as Markdown;
* :func:`to_html` -- a self-contained HTML page (``<html lang="zh-CN">`` or
  ``"en"``, a CSS font stack with CJK fonts, figures embedded as base64 PNG,
  every piece of text escaped with :func:`html.escape`);
* :func:`to_latex` -- a ``tabular`` fragment for a paper (``\\input`` it inside a
  ``table`` environment), means with superscript letters marking the systems
  each one is significantly better than, best values in bold; or, with
  ``standalone=True``, a whole document. The Chinese edition needs XeLaTeX (or
  LuaLaTeX) with the ``ctex`` package (or ``xeCJK``); pdfLaTeX cannot set it.

A continuous-evaluation history adds a section with its latest entries, its
alerts and the trend figure: pass the table and the figure that
:func:`reteval.monitor.trend.history_frame` and ``plot_history`` read from a
``reteval monitor`` history file (the report and the monitor are sibling
layers; neither imports the other).

:func:`write_report` writes ``report.md``, ``report.html``, ``report.tex`` and
``figures/*.png`` into a folder.
"""

from __future__ import annotations

import base64
import html
import io
import math
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from reteval.comparison import Comparison
from reteval.errors import InputError
from reteval.stats import minimum_detectable_difference, queries_needed

__all__ = ["LANGUAGES", "to_html", "to_latex", "to_markdown", "write_report"]

#: Languages of the report.
LANGUAGES = ("zh", "en")

_TITLES = {"zh": "检索系统评估报告", "en": "Retrieval evaluation report"}
_TEST_NAMES = {
    "en": {"t": "paired t test", "wilcoxon": "Wilcoxon signed-rank test",
           "randomization": "Fisher randomization test", "bootstrap": "paired bootstrap test"},
    "zh": {"t": "配对 t 检验", "wilcoxon": "Wilcoxon 符号秩检验",
           "randomization": "Fisher 随机化检验", "bootstrap": "配对自助法（bootstrap）检验"},
}
_CORRECTION_NAMES = {"holm": "Holm", "bonferroni": "Bonferroni", "bh": "Benjamini-Hochberg",
                     "none": None}
_CI_NOTES = {
    "en": {"t": "t interval of the mean difference",
           "wilcoxon": "Hodges-Lehmann interval of the median difference",
           "randomization": "interval by inverting the randomization test",
           "bootstrap": "percentile bootstrap interval of the mean difference"},
    "zh": {"t": "均值差的 t 置信区间",
           "wilcoxon": "中位数差的 Hodges-Lehmann 置信区间",
           "randomization": "由随机化检验反推的置信区间",
           "bootstrap": "均值差的百分位自助法置信区间"},
}
# Measure families: (term of one query's score, term of the mean over queries).
_TERMS = {
    "en": {
        "P": ("precision", None), "R": ("recall", None),
        "RR": ("reciprocal rank", "mean reciprocal rank, MRR"),
        "AP": ("average precision", "mean average precision, MAP"),
        "nDCG": ("normalized discounted cumulative gain", None),
        "DCG": ("discounted cumulative gain", None), "Rprec": ("R-precision", None),
        "Success": ("success", None), "Judged": ("fraction of documents judged", None),
        "NumRet": ("documents retrieved", None), "NumRel": ("relevant documents", None),
        "NumRelRet": ("relevant documents retrieved", None),
        "ERR": ("expected reciprocal rank", None), "RBP": ("rank-biased precision", None),
        "infAP": ("inferred average precision", None), "Bpref": ("bpref", None),
        "IPrec": ("interpolated precision", None),
    },
    "zh": {
        "P": ("精确率", None), "R": ("召回率", None),
        "RR": ("倒数排名", "平均倒数排名 MRR"), "AP": ("平均精度", "平均精度均值 MAP"),
        "nDCG": ("归一化折损累计增益", None), "DCG": ("折损累计增益", None),
        "Rprec": ("R 精确率", None), "Success": ("成功率", None),
        "Judged": ("已判断文档比例", None), "NumRet": ("返回文档数", None),
        "NumRel": ("相关文档数", None), "NumRelRet": ("返回的相关文档数", None),
        "ERR": ("期望倒数排名", None), "RBP": ("秩偏精确率", None),
        "infAP": ("推断平均精度", None), "Bpref": ("bpref", None),
        "IPrec": ("插值精确率", None),
    },
}
_FIGURE_CAPTIONS = {
    "en": {"forest": "Mean of each system with its bootstrap interval, per measure.",
           "cutoff_curves": "Mean of each measure family against the rank cutoff k.",
           "differences": "Per-query differences against the reference system, sorted.",
           "distributions": "Distribution of per-query scores.",
           "trend": "Continuous evaluation: the measures over time; entries that raised "
                    "an alert are marked in red."},
    "zh": {"forest": "各检索器在每个指标上的均值及其自助法置信区间。",
           "cutoff_curves": "各指标族的均值随截断位置 k 的变化。",
           "differences": "各查询相对参照检索器的得分差（已排序）。",
           "distributions": "逐查询得分的分布。",
           "trend": "持续评估：各指标随时间的变化，触发告警的记录以红色标出。"},
}
_HEADINGS = {
    "en": {"measures": "Measures", "best": "Best system per measure",
           "tests": "Significance tests", "advice": "Recommendation",
           "history": "Continuous evaluation", "figures": "Figures"},
    "zh": {"measures": "评估指标对比", "best": "各指标的最佳检索器", "tests": "显著性检验",
           "advice": "建议", "history": "持续评估", "figures": "图表"},
}
_HEADERS = {
    "en": {"system": "System", "tests": ("Measure", "System", "Other", "Difference",
                                         "Interval", "d_z", "p", "p corrected", "Significant"),
           "yes": "yes", "no": "no",
           "history": ("Time (UTC)", "Retriever", "Queries", "Alerts")},
    "zh": {"system": "检索器", "tests": ("指标", "检索器", "对照", "差值", "置信区间", "d_z",
                                        "p", "校正后 p", "显著"),
           "yes": "是", "no": "否",
           "history": ("时间（UTC）", "检索器", "查询数", "告警")},
}


def _check_lang(lang) -> str:
    if lang not in LANGUAGES:
        raise InputError(f"lang must be one of {list(LANGUAGES)}; got {lang!r}")
    return lang


# --------------------------------------------------------------------------- document model
# Text is a tuple of runs (text, bold); renderers escape every run for their format.


@dataclass(frozen=True)
class _Heading:
    level: int
    text: tuple


@dataclass(frozen=True)
class _Paragraph:
    text: tuple


@dataclass(frozen=True)
class _Bullets:
    items: tuple


@dataclass(frozen=True)
class _Table:
    header: tuple
    rows: tuple  # of tuples of text
    numeric: tuple  # per column: right-align


@dataclass(frozen=True)
class _Figure:
    name: str
    caption: str


def _t(*parts) -> tuple:
    """Text from parts: a str is plain, a 1-tuple ``(s,)`` is bold."""
    return tuple((p[0], True) if isinstance(p, tuple) else (str(p), False) for p in parts)


def _fmt(value, digits: int) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:.{digits}f}"


def _fmt_p(p) -> str:
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "-"
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


def _names(items, lang: str) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    if lang == "zh":
        return "、".join(items[:-1]) + " 和 " + items[-1]
    return ", ".join(items[:-1]) + " and " + items[-1]


def _family(measure: str) -> tuple[str, bool]:
    """The family of a measure name and whether it has a cutoff: ``"nDCG@10"`` -> ("nDCG", True)."""
    match = re.match(r"[A-Za-z_]+", measure)
    return (match.group(0) if match else measure), "@" in measure


def _mean_term(measure: str, lang: str) -> str | None:
    """The name of the measure's mean over queries, in the chapter's terms (None if unknown)."""
    terms = _TERMS[lang].get(_family(measure)[0])
    return None if terms is None else (terms[1] or terms[0])


def _terms_sentence(c: Comparison, lang: str) -> tuple | None:
    seen = {}
    for m in c.measures:
        family, cutoff = _family(m)
        if family in _TERMS[lang] and family not in seen:
            seen[family] = f"{family}@k" if cutoff else family
    if not seen:
        return None
    parts = []
    for family, label in seen.items():
        one, mean = _TERMS[lang][family]
        if lang == "zh":
            parts.append(f"{label} 为{one}" + (f"（其均值即{mean}）" if mean else ""))
        else:
            parts.append(f"{label} is {one}" + (f" (its mean: {mean})" if mean else ""))
    if lang == "zh":
        return _t("指标：" + "，".join(parts) + "。")
    return _t("Measures: " + "; ".join(parts) + ".")


def _method_sentence(c: Comparison, lang: str) -> tuple:
    test = _TEST_NAMES[lang].get(c.test, c.test)
    corr = _CORRECTION_NAMES.get(c.correction, c.correction)
    level = f"{100 * c.confidence_level:g}%"
    resampled = c.test in ("randomization", "bootstrap")
    if lang == "zh":
        extra = f"（重抽样 {c.n_resamples} 次）" if resampled else ""
        family = (f"每个检索器与基线 {c.baseline} 比较" if c.baseline is not None
                  else "所有检索器两两比较")
        correction = f"每个指标内做 {corr} 多重比较校正" if corr else "不做多重比较校正"
        return _t(
            f"{c.n_queries} 个查询，{len(c.systems)} 个检索器，{len(c.measures)} 个指标。"
            f"显著性检验：双侧{test}{extra}，{family}，{correction}，显著性水平 α = {c.alpha:g}。"
            f"置信区间：均值的 {level} 百分位自助法置信区间（重抽样 {c.n_resamples} 次）。"
        )
    extra = f" with {c.n_resamples} resamples" if resampled else ""
    family = (f"each system against the baseline {c.baseline}" if c.baseline is not None
              else "every pair of systems")
    correction = f"{corr} correction within each measure" if corr else "no correction"
    return _t(
        f"{c.n_queries} queries, {len(c.systems)} systems, {len(c.measures)} measures. "
        f"Significance: two-sided {test}{extra}, {family}, {correction}, "
        f"alpha = {c.alpha:g}. Intervals: {level} percentile bootstrap of the mean "
        f"({c.n_resamples} resamples)."
    )


def _p_kind(c: Comparison, in_family: bool, lang: str) -> str:
    corr = _CORRECTION_NAMES.get(c.correction, c.correction)
    if lang == "zh":
        if not in_family:
            return "另行检验的 p（未校正）"
        return f"{corr} 校正后 p" if corr else "p"
    if not in_family:
        return "p of a separate test, uncorrected"
    return f"{corr}-corrected p" if corr else "p"


def _best_items(c: Comparison, digits: int, lang: str) -> list[tuple]:
    zh = lang == "zh"
    items = []
    for m in c.measures:
        b = c.best.loc[m]
        term = _mean_term(m, lang)
        if zh:
            head = ((m,), f"（{term}）：" if term else "：")
        else:
            head = ((m,), f" ({term}): " if term else ": ")
        mean = _fmt(b["mean"], digits)
        if b["status"] == "single":
            items.append(_t(*head, (b["system"],),
                            f"（{mean}），唯一参评的检索器。" if zh
                            else f" ({mean}), the only system."))
        elif b["status"] == "tie":
            tied = _names([b["system"], *b["tied_with"]], lang)
            items.append(_t(*head, f"{tied} 并列（{mean}），没有唯一的最佳检索器。" if zh
                            else f"tie between {tied} ({mean}); no single best system."))
        else:
            runner = (f"{b['runner_up']}（{_fmt(b['runner_up_mean'], digits)}）" if zh
                      else f"{b['runner_up']} ({_fmt(b['runner_up_mean'], digits)})")
            p_value = _fmt_p(b["pvalue_corrected"])
            p_kind = _p_kind(c, bool(b["in_family"]), lang)
            p_text = f"{p_kind} {p_value}" if p_value.startswith("<") else f"{p_kind} = {p_value}"
            if b["status"] == "significant":
                items.append(_t(*head, (b["system"],),
                                f"（{mean}），显著优于第二名 {runner}：{p_text}。" if zh
                                else f" ({mean}), significantly better than the runner-up "
                                     f"{runner}: {p_text}."))
            elif zh:
                items.append(_t(*head, (b["system"],),
                                f"（{mean}），高于第二名 {runner}，但差异不显著：{p_text} > "
                                f"α = {c.alpha:g}。这一差异可能只是偶然。"))
            else:
                items.append(_t(*head, (b["system"],),
                                f" ({mean}), but not significantly better than the runner-up "
                                f"{runner}: {p_text} > alpha = {c.alpha:g}. The difference "
                                "may be chance."))
    return items


def _recommendation(c: Comparison, digits: int, lang: str) -> list[tuple]:
    zh = lang == "zh"
    if len(c.systems) == 1:
        return [_t(f"只评估了一个检索器 {c.systems[0]}，没有可比较的对象。" if zh
                   else f"Only one system, {c.systems[0]}, was evaluated; nothing to compare.")]
    best = c.best
    decided = best[best["status"] != "tie"]
    wins = decided["system"].value_counts()
    sig_wins = decided[decided["significant"]]["system"].value_counts()
    n_m = len(c.measures)
    out = []
    if wins.empty:
        if zh:
            out.append(_t("每个指标都是并列，无法推荐任何一个检索器。"))
        else:
            out.append(_t("Every measure ends in a tie; no system can be recommended over "
                          f"{'another' if len(c.systems) == 2 else 'the others'}."))
        return out
    top = wins.max()
    leaders = [s for s in c.systems if wins.get(s, 0) == top]
    if len(leaders) > 1:
        out.append(_t(f"没有唯一领先的检索器：{_names(leaders, lang)} 各在 {n_m} 个指标中的 "
                      f"{top} 个上均值最高。" if zh
                      else f"No single system leads: {_names(leaders, lang)} each have the "
                           f"highest mean on {top} of {n_m} measures."))
    else:
        leader = leaders[0]
        n_sig = int(sig_wins.get(leader, 0))
        if n_sig and zh:
            out.append(_t("推荐：", (leader,), f"。它在 {n_m} 个指标中的 {top} 个上均值最高，"
                          f"其中 {n_sig} 个显著优于第二名。"))
        elif n_sig:
            out.append(_t("Recommended: ", (leader,), f". It has the highest mean on {top} of "
                          f"{n_m} measures and is significantly better than the runner-up on "
                          f"{n_sig} of them."))
        elif zh:
            out.append(_t(f"{leader} 在 {n_m} 个指标中的 {top} 个上均值最高，但在其中任何一个"
                          f"指标上都不显著优于第二名（α = {c.alpha:g}）。这些查询选不出最佳"
                          "检索器：请选择成本更低或更简单的检索器，或在更多查询上评估。"))
        else:
            out.append(_t(f"{leader} has the highest mean on {top} of {n_m} measures, but on "
                          "none of them is it significantly better than the runner-up "
                          f"(alpha = {c.alpha:g}). These queries do not single out a best "
                          "system; prefer the cheaper or simpler system, or evaluate on more "
                          "queries."))
    # how many queries would settle the first measure's best-vs-runner-up question
    m = c.measures[0]
    b = best.loc[m]
    if b["status"] in ("not significant", "tie") and b["runner_up"] is not None \
            and c.n_queries >= 2:
        diff = c.per_query[m][b["system"]] - c.per_query[m][b["runner_up"]]
        sd = float(diff.std(ddof=1))
        if sd > 0:
            mdd = minimum_detectable_difference(sd, c.n_queries, alpha=c.alpha, power=0.8)
            observed = abs(float(diff.mean()))
            if zh:
                text = (f"样本量规划（{m}，{b['system']} 对比 {b['runner_up']}）：逐查询差值的"
                        f"标准差为 {_fmt(sd, digits)}；在 {c.n_queries} 个查询上，α = "
                        f"{c.alpha:g} 的配对 t 检验能以 80% 的统计功效检测出 "
                        f"{_fmt(mdd, digits)} 的真实差异。")
            else:
                text = (f"Planning ({m}, {b['system']} vs {b['runner_up']}): the per-query "
                        f"differences have standard deviation {_fmt(sd, digits)}; with "
                        f"{c.n_queries} queries a paired t test at alpha = {c.alpha:g} detects "
                        f"a true difference of {_fmt(mdd, digits)} with 80% power.")
            if observed > 0:
                need = queries_needed(observed, sd, alpha=c.alpha, power=0.8)
                text += (f"观测到的差异 {_fmt(observed, digits)} 约需 {need} 个查询。" if zh
                         else f" The observed difference, {_fmt(observed, digits)}, would need "
                              f"about {need} queries.")
            out.append(_t(text))
    return out


_ALERT_KINDS = {
    "en": {"threshold": "below threshold", "regression": "significant regression",
           "dataset": "dataset changed"},
    "zh": {"threshold": "低于阈值", "regression": "显著回归", "dataset": "数据集变更"},
}


def _alert_text(marks: str, lang: str) -> str:
    """``"threshold:R@5; regression:AP"`` in words: ``"below threshold: R@5; ..."``."""
    out = []
    for mark in filter(None, marks.split("; ")):
        kind, _, measure = mark.partition(":")
        words = _ALERT_KINDS[lang].get(kind, kind)
        out.append(f"{words}{'：' if lang == 'zh' else ': '}{measure}" if measure else words)
    return ("；" if lang == "zh" else "; ").join(out)


def _history_blocks(history, digits: int, lang: str, last: int = 5) -> list:
    """The continuous-evaluation section: a summary sentence and the latest entries."""
    zh = lang == "zh"
    blocks: list = [_Heading(2, _t(_HEADINGS[lang]["history"]))]
    if len(history) == 0:
        blocks.append(_Paragraph(_t("历史记录中还没有评估记录。" if zh
                                    else "The history holds no evaluation yet.")))
        return blocks
    fixed = ("created_utc", "retriever", "dataset", "fingerprint", "num_queries",
             "alert", "alerts", "alert_measures")
    # every recorded measure but the counts (NumRet ...): an alert may be about any of them
    shown = [m for m in history.columns if m not in fixed and not m.startswith("Num")]
    first = history["created_utc"].iloc[0].strftime("%Y-%m-%d %H:%M")
    latest = history["created_utc"].iloc[-1].strftime("%Y-%m-%d %H:%M")
    retrievers = _names(dict.fromkeys(history["retriever"]), lang)
    n_alerts = int(history["alert"].sum())
    if zh:
        text = (f"历史记录中有 {len(history)} 次评估（{first} 至 {latest}，UTC），检索器："
                f"{retrievers}；其中 {n_alerts} 次触发了告警。")
    else:
        text = (f"The history holds {len(history)} evaluations ({first} to {latest}, UTC) of "
                f"{retrievers}; {n_alerts} of them raised an alert.")
    if len(history) > last:
        text += (f"下表为最近 {last} 次。" if zh else f" The latest {last}:")
    blocks.append(_Paragraph(_t(text)))
    head = _HEADERS[lang]["history"]
    rows = []
    for _, r in history.tail(last).iterrows():
        rows.append((_t(r["created_utc"].strftime("%Y-%m-%d %H:%M")), _t(r["retriever"]),
                     _t(str(int(r["num_queries"]))),
                     *[_t(_fmt(float(r[m]), digits)) for m in shown],
                     _t((_alert_text(r["alerts"], lang),)) if r["alert"] else _t("-")))
    blocks.append(_Table(header=(_t(head[0]), _t(head[1]), _t(head[2]),
                                 *[_t(m) for m in shown], _t(head[3])),
                         rows=tuple(rows),
                         numeric=(False, False, True, *[True] * len(shown), False)))
    return blocks


def _document(c: Comparison, title: str, digits: int, figures, lang: str,
              history=None) -> list:
    zh = lang == "zh"
    best_cells = {(m, s) for m in c.measures
                  for s in (c.best.loc[m, "system"], *c.best.loc[m, "tied_with"])}
    table = c.table.set_index(["measure", "system"])
    rows = []
    for s in c.systems:
        cells = [_t(s)]
        for m in c.measures:
            r = table.loc[(m, s)]
            value = _fmt(r["mean"], digits)
            ci = f" ({_fmt(r['ci_low'], digits)}, {_fmt(r['ci_high'], digits)})"
            cells.append(_t((value,), ci) if (m, s) in best_cells else _t(value + ci))
        rows.append(tuple(cells))
    level = f"{100 * c.confidence_level:g}%"
    heading = _HEADINGS[lang]
    terms = _terms_sentence(c, lang)
    doc = [
        _Heading(1, _t(title)),
        _Paragraph(_method_sentence(c, lang)),
        _Heading(2, _t(heading["measures"])),
        _Paragraph(_t(f"每个检索器在各指标上的查询均值，括号内为 {level} 置信区间；每个指标的最高"
                      "均值以粗体标出。" if zh else
                      f"Mean per query with its {level} interval; the highest mean of each "
                      "measure in bold.")),
        *([_Paragraph(terms)] if terms else []),
        _Table(header=(_t(_HEADERS[lang]["system"]), *[_t(m) for m in c.measures]),
               rows=tuple(rows), numeric=(False, *[True] * len(c.measures))),
        _Heading(2, _t(heading["best"])),
        _Bullets(tuple(_best_items(c, digits, lang))),
    ]
    if not c.pairwise.empty:
        yes, no = _HEADERS[lang]["yes"], _HEADERS[lang]["no"]
        prow = []
        for r in c.pairwise.itertuples(index=False):
            prow.append((_t(r.measure), _t(r.system), _t(r.other),
                         _t(f"{r.mean_difference:+.{digits}f}"),
                         _t(f"({_fmt(r.ci_low, digits)}, {_fmt(r.ci_high, digits)})"),
                         _t(_fmt(r.effect_size, 2)), _t(_fmt_p(r.pvalue)),
                         _t(_fmt_p(r.pvalue_corrected)),
                         _t((yes,)) if r.significant else _t(no)))
        corr = _CORRECTION_NAMES.get(c.correction, c.correction)
        ci_note = _CI_NOTES[lang][c.test]
        if zh:
            note = (f"差值 = 检索器 − 对照。置信区间：{level} {ci_note}。效应量：Cohen 的 d_z。"
                    + (f"校正：每个指标内做 {corr} 校正。" if corr else "未做多重比较校正。"))
        else:
            note = (f"Difference = system - other. Interval: {level} {ci_note}. "
                    "Effect size: Cohen's d_z. "
                    + (f"Corrected: {corr} within each measure." if corr else "Not corrected."))
        doc += [
            _Heading(2, _t(heading["tests"])),
            _Paragraph(_t(note)),
            _Table(header=tuple(_t(h) for h in _HEADERS[lang]["tests"]), rows=tuple(prow),
                   numeric=(False, False, False, True, True, True, True, True, False)),
        ]
    doc += [_Heading(2, _t(heading["advice"])),
            *[_Paragraph(p) for p in _recommendation(c, digits, lang)]]
    if history is not None:
        doc += _history_blocks(history, digits, lang)
        if "trend" in figures:
            doc.append(_Figure("trend", _FIGURE_CAPTIONS[lang]["trend"]))
    figures = [name for name in figures if name != "trend"]
    if figures:
        doc.append(_Heading(2, _t(heading["figures"])))
        for name in figures:
            doc.append(_Figure(name, _FIGURE_CAPTIONS[lang].get(name, name)))
    return doc


_HISTORY_COLUMNS = ("created_utc", "retriever", "num_queries", "alert", "alerts")


def _history_frame(history):
    """Check a history table (:func:`reteval.monitor.trend.history_frame`'s); None stays None."""
    if history is None:
        return None
    if not isinstance(history, pd.DataFrame) or \
            any(col not in history.columns for col in _HISTORY_COLUMNS):
        raise InputError("history must be the table of reteval.monitor.trend.history_frame "
                         f"(columns {list(_HISTORY_COLUMNS)} ...); got {type(history).__name__}")
    return history


# --------------------------------------------------------------------------- Markdown

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<|~&])")


def _md_escape(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text).replace("\n", " ")


def _md_text(text: tuple) -> str:
    return "".join(f"**{_md_escape(s)}**" if bold else _md_escape(s) for s, bold in text if s)


def _render_markdown(doc: list, figure_paths: dict[str, str]) -> str:
    out = []
    for block in doc:
        if isinstance(block, _Heading):
            out.append("#" * block.level + " " + _md_text(block.text))
        elif isinstance(block, _Paragraph):
            out.append(_md_text(block.text))
        elif isinstance(block, _Bullets):
            out.append("\n".join("- " + _md_text(item) for item in block.items))
        elif isinstance(block, _Table):
            lines = ["| " + " | ".join(_md_text(h) for h in block.header) + " |",
                     "|" + "|".join("---:" if num else ":---" for num in block.numeric) + "|"]
            lines += ["| " + " | ".join(_md_text(cell) for cell in row) + " |"
                      for row in block.rows]
            out.append("\n".join(lines))
        elif isinstance(block, _Figure) and block.name in figure_paths:
            out.append(f"![{_md_escape(block.caption)}]({figure_paths[block.name]})")
    return "\n\n".join(out) + "\n"


def to_markdown(comparison: Comparison, *, title: str | None = None, digits: int = 4,
                figure_paths: dict[str, str] | None = None, lang: str = "en",
                history=None) -> str:
    """The report as Markdown.

    Parameters
    ----------
    comparison : Comparison
    title : str, optional, keyword-only
        Default: "检索系统评估报告" (zh) or "Retrieval evaluation report" (en).
    digits : int, keyword-only
        Decimals of scores.
    figure_paths : dict, optional, keyword-only
        Figure name -> relative path of a PNG to link (``write_report`` fills it).
    lang : {"en", "zh"}, default "en", keyword-only
        Language of every heading, sentence, table header and caption.
    history : DataFrame, optional, keyword-only
        A continuous-evaluation history, as :func:`reteval.monitor.trend.history_frame`
        reads it from a ``reteval monitor`` history file: adds its section.

    Returns
    -------
    str

    Raises
    ------
    InputError
        Not a Comparison, bad ``digits`` or ``lang``.

    Examples
    --------
    >>> from reteval.comparison import compare
    >>> qrels = {f"q{i}": {f"d{i}": 1} for i in range(4)}
    >>> runs = {"a": {f"q{i}": [f"d{i}"] for i in range(4)},
    ...         "b": {f"q{i}": ["x", "y", "z"][:i] + [f"d{i}"] for i in range(4)}}
    >>> result = compare(qrels, runs, ["RR"], rng=0)
    >>> print(to_markdown(result).split("## Best system per measure")[1].split("##")[0].strip())
    - **RR** (mean reciprocal rank, MRR): **a** (1.0000), but not significantly better than the
    runner-up b (0.5208): Holm-corrected p = 0.0650 > alpha = 0.05. The difference may be chance.
    >>> print(to_markdown(result, lang="zh")
    ...       .split("## 各指标的最佳检索器")[1].split("##")[0].strip())
    - **RR**（平均倒数排名 MRR）：**a**（1.0000），高于第二名 b（0.5208），但差异不显著：Holm
    校正后 p = 0.0650 > α = 0.05。这一差异可能只是偶然。
    """
    _check(comparison, digits, lang)
    figure_paths = figure_paths or {}
    title = _TITLES[lang] if title is None else str(title)
    doc = _document(comparison, title, digits, list(figure_paths), lang,
                    _history_frame(history))
    return _render_markdown(doc, figure_paths)


# --------------------------------------------------------------------------- HTML

# Latin fonts first, then CJK fonts for Chinese glyphs (Noto/Source Han on Linux, PingFang
# and Hiragino on macOS, YaHei on Windows).
_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC","Source Han Sans SC",
"Noto Sans SC","PingFang SC","Hiragino Sans GB","Microsoft YaHei","WenQuanYi Micro Hei",sans-serif;
max-width:72rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a;line-height:1.45}
table{border-collapse:collapse;margin:1rem 0;font-size:.92rem}
th,td{border-bottom:1px solid #ddd;padding:.3rem .6rem}th{background:#f4f4f4;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}
figure{margin:1.5rem 0}figure img{max-width:100%}figcaption{color:#555;font-size:.9rem}
"""
_HTML_LANG = {"zh": "zh-CN", "en": "en"}


def _h(text: tuple) -> str:
    return "".join(f"<strong>{html.escape(s)}</strong>" if bold else html.escape(s)
                   for s, bold in text if s)


def _render_html(doc: list, title: str, images: dict[str, str], lang: str) -> str:
    body = []
    for block in doc:
        if isinstance(block, _Heading):
            body.append(f"<h{block.level}>{_h(block.text)}</h{block.level}>")
        elif isinstance(block, _Paragraph):
            body.append(f"<p>{_h(block.text)}</p>")
        elif isinstance(block, _Bullets):
            body.append("<ul>" + "".join(f"<li>{_h(i)}</li>" for i in block.items) + "</ul>")
        elif isinstance(block, _Table):
            head = "".join(f"<th>{_h(h)}</th>" for h in block.header)
            rows = []
            for row in block.rows:
                cells = "".join(
                    f'<td class="num">{_h(cell)}</td>' if num else f"<td>{_h(cell)}</td>"
                    for cell, num in zip(row, block.numeric, strict=True))
                rows.append(f"<tr>{cells}</tr>")
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}"
                        "</tbody></table>")
        elif isinstance(block, _Figure) and block.name in images:
            cap = html.escape(block.caption)
            body.append(f'<figure><img alt="{cap}" src="data:image/png;base64,'
                        f'{images[block.name]}"><figcaption>{cap}</figcaption></figure>')
    return (f"<!DOCTYPE html>\n<html lang=\"{_HTML_LANG[lang]}\">\n<head>\n"
            "<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


def _png(fig, dpi: int) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


def to_html(comparison: Comparison, *, title: str | None = None, digits: int = 4,
            figures=None, dpi: int = 100, lang: str = "en", history=None) -> str:
    """The report as one self-contained HTML page.

    Parameters
    ----------
    comparison : Comparison
    title : str, optional, keyword-only
        Default: "检索系统评估报告" (zh) or "Retrieval evaluation report" (en).
    digits : int, keyword-only
    figures : mapping of name to matplotlib Figure, optional, keyword-only
        Embedded as base64 PNG, in order. Default: none; pass
        :func:`reteval.plots.report_figures` ``(comparison)`` for the standard set
        (a figure named ``"trend"`` goes to the continuous-evaluation section).
    dpi : int, keyword-only
    lang : {"en", "zh"}, default "en", keyword-only
        Language of the text and of ``<html lang>`` (``zh-CN`` or ``en``).
    history : DataFrame, optional, keyword-only
        A continuous-evaluation history (:func:`reteval.monitor.trend.history_frame`):
        adds its section.

    Returns
    -------
    str

    Examples
    --------
    >>> from reteval.comparison import compare
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> runs = {"<b>": {"q1": ["d1"], "q2": ["d2"]}, "b": {"q1": ["x", "d1"], "q2": ["d2"]}}
    >>> page = to_html(compare(qrels, runs, ["RR"], rng=0))
    >>> "<td>&lt;b&gt;</td>" in page and "<b>" not in page
    True
    >>> '<html lang="zh-CN">' in to_html(compare(qrels, runs, ["RR"], rng=0), lang="zh")
    True
    """
    _check(comparison, digits, lang)
    figures = dict(figures or {})
    images = {name: base64.b64encode(_png(fig, dpi)).decode("ascii")
              for name, fig in figures.items()}
    title = _TITLES[lang] if title is None else str(title)
    doc = _document(comparison, title, digits, list(images), lang, _history_frame(history))
    return _render_html(doc, title, images, lang)


# --------------------------------------------------------------------------- LaTeX

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
}
_LATEX_NEEDS_CJK = ("% 本表含中文：请用 XeLaTeX（或 LuaLaTeX）编译，"
                    "并在导言区加载 ctex（或 xeCJK）宏包。")


def _tex(text) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text))


def _letters(k: int) -> str:
    out = ""
    k += 1
    while k:
        k, r = divmod(k - 1, 26)
        out = chr(ord("a") + r) + out
    return out


def to_latex(comparison: Comparison, *, digits: int = 3, lang: str = "en",
             standalone: bool = False, title: str | None = None) -> str:
    r"""A LaTeX ``tabular`` of mean scores with significance superscripts.

    One row per system, one column per measure. Each system gets a letter
    (a, b, c, ...); a mean carries the letters of the systems it is
    significantly better than on that measure (corrected p-value <= alpha,
    among the comparisons that were tested: all pairs, or each system against
    the baseline). The highest mean of each measure is bold. A last row
    explains the marks. All text is escaped.

    The English fragment needs no package beyond the LaTeX kernel. The Chinese
    one (``lang="zh"``) needs XeLaTeX or LuaLaTeX with the ``ctex`` package
    (``\documentclass[UTF8]{ctexart}``, or ``\usepackage{xeCJK}`` with a CJK
    font); its first line says so. ``standalone=True`` wraps the table in a
    whole document (``article``, or ``ctexart`` for Chinese: compile it with
    ``xelatex``), with ``title`` as its caption.

    Examples
    --------
    >>> from reteval.comparison import compare
    >>> qrels = {f"q{i}": {f"d{i}": 1} for i in range(4)}
    >>> runs = {"a": {f"q{i}": [f"d{i}"] for i in range(4)},
    ...         "b_2": {f"q{i}": ["x", f"d{i}"] for i in range(4)}}
    >>> print(to_latex(compare(qrels, runs, ["RR"], rng=0)))
    % reteval comparison: 4 queries; paired t test, Holm correction, alpha = 0.05
    \begin{tabular}{ll r}
    \hline
     & System & RR \\
    \hline
    (a) & a & \textbf{1.000}\textsuperscript{b} \\
    (b) & b\_2 & 0.500 \\
    \hline
    \multicolumn{3}{l}{\footnotesize Superscript: significantly better than that system
    (Holm-corrected p $\leq$ 0.05).} \\
    \end{tabular}
    >>> print(to_latex(compare(qrels, runs, ["RR"], rng=0), lang="zh").splitlines()[-2])
    \multicolumn{3}{l}{\footnotesize 上标：显著优于该检索器（Holm 校正后 p $\leq$ 0.05）。} \\
    """
    _check(comparison, digits, lang)
    if not isinstance(standalone, bool):
        raise InputError(f"standalone must be True or False; got {standalone!r}")
    c = comparison
    zh = lang == "zh"
    letter = {s: _letters(k) for k, s in enumerate(c.systems)}
    better: dict[tuple[str, str], list[str]] = {}
    for r in c.pairwise.itertuples(index=False):
        if r.significant and r.mean_difference != 0:
            winner, loser = (r.system, r.other) if r.mean_difference > 0 else (r.other, r.system)
            better.setdefault((r.measure, winner), []).append(loser)
    table = c.table.set_index(["measure", "system"])
    best_cells = {(m, s) for m in c.measures
                  for s in (c.best.loc[m, "system"], *c.best.loc[m, "tied_with"])}
    n_cols = 2 + len(c.measures)
    corr = _CORRECTION_NAMES.get(c.correction, c.correction)
    test = _TEST_NAMES[lang].get(c.test, c.test)
    if zh:
        head = [_LATEX_NEEDS_CJK,
                f"% reteval 对比：{c.n_queries} 个查询；{_tex(test)}，"
                + (f"{_tex(corr)} 校正" if corr else "未校正") + f"，α = {c.alpha:g}"]
    else:
        head = [f"% reteval comparison: {c.n_queries} queries; {_tex(test)}, "
                + (f"{_tex(corr)} correction" if corr else "no correction")
                + f", alpha = {c.alpha:g}"]
    lines = [
        *head,
        r"\begin{tabular}{ll " + "r" * len(c.measures) + "}",
        r"\hline",
        f" & {_HEADERS[lang]['system']} & " + " & ".join(_tex(m) for m in c.measures) + r" \\",
        r"\hline",
    ]
    for s in c.systems:
        cells = [f"({letter[s]})", _tex(s)]
        for m in c.measures:
            value = _fmt(float(table.loc[(m, s), "mean"]), digits)
            cell = rf"\textbf{{{value}}}" if (m, s) in best_cells else value
            losers = sorted(better.get((m, s), []), key=list(c.systems).index)
            if losers:
                sep = "," if any(len(letter[x]) > 1 for x in losers) else ""
                cell += r"\textsuperscript{" + sep.join(letter[x] for x in losers) + "}"
            cells.append(cell)
        lines.append(" & ".join(cells) + r" \\")
    lines.append(r"\hline")
    kind = _tex(_p_kind(c, True, lang))
    legend = (f"上标：显著优于该检索器（{kind} $\\leq$ {c.alpha:g}）。" if zh
              else f"Superscript: significantly better than that system ({kind} $\\leq$ "
                   f"{c.alpha:g}).")
    lines.append(rf"\multicolumn{{{n_cols}}}{{l}}{{\footnotesize {legend}}} \\")
    lines.append(r"\end{tabular}")
    if standalone:
        caption = _tex(_TITLES[lang] if title is None else title)
        cls = [r"% 用 XeLaTeX 编译：xelatex report.tex", r"\documentclass[UTF8]{ctexart}"] if zh \
            else [r"\documentclass{article}"]
        lines = [*cls, r"\begin{document}", r"\begin{table}[htbp]", r"\centering",
                 rf"\caption{{{caption}}}", *lines[len(head):], r"\end{table}",
                 r"\end{document}"]
    return "\n".join(lines)


# --------------------------------------------------------------------------- files


def _check(comparison, digits, lang="en") -> None:
    if not isinstance(comparison, Comparison):
        raise InputError(
            f"expected a reteval.comparison.Comparison; got {type(comparison).__name__}"
        )
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 12:
        raise InputError(f"digits must be an integer from 0 to 12; got {digits!r}")
    _check_lang(lang)


def write_report(comparison: Comparison, output_dir, *, title: str | None = None,
                 measure: str | None = None, digits: int = 4, dpi: int = 100,
                 lang: str = "en", history=None, trend=None) -> dict[str, Path]:
    """Write ``report.md``, ``report.html``, ``report.tex`` and ``figures/*.png``.

    Parameters
    ----------
    comparison : Comparison
        The result of :func:`reteval.comparison.compare`.
    output_dir : path
        Created if needed; existing report files are overwritten.
    title : str, optional, keyword-only
        Default: "检索系统评估报告" (zh) or "Retrieval evaluation report" (en).
    measure : str, optional, keyword-only
        Measure of the per-query figures (default: the first measure).
    digits : int, keyword-only
        Decimals in Markdown and HTML (LaTeX uses ``digits - 1``, at least 1).
    dpi : int, keyword-only
        Resolution of the PNG figures.
    lang : {"en", "zh"}, default "en", keyword-only
        Language of the three files (``report.tex`` in Chinese needs XeLaTeX and
        ``ctex``; see :func:`to_latex`).
    history : DataFrame, optional, keyword-only
        A continuous-evaluation history (:func:`reteval.monitor.trend.history_frame`):
        adds its section.
    trend : matplotlib Figure, optional, keyword-only
        The history's figure (:func:`reteval.monitor.trend.plot_history`), written
        as ``figures/trend.png`` and shown in the continuous-evaluation section.

    Returns
    -------
    dict
        Path relative to ``output_dir`` (``"report.md"``, ``"figures/forest.png"``,
        ...) -> absolute :class:`pathlib.Path`. The Markdown links the figures by
        these relative paths.

    Examples
    --------
    >>> import tempfile
    >>> from reteval.comparison import compare
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> runs = {"a": {"q1": ["d1"], "q2": ["x", "d2"]}, "b": {"q1": ["x", "d1"], "q2": ["d2"]}}
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     paths = write_report(compare(qrels, runs, ["P@1", "RR"], rng=0), tmp, lang="zh")
    ...     sorted(paths)
    ['figures/differences.png', 'figures/distributions.png', 'figures/forest.png',
     'report.html', 'report.md', 'report.tex']
    """
    from reteval.plots import report_figures  # plots import matplotlib; keep it lazy

    _check(comparison, digits, lang)
    out = Path(output_dir).resolve()
    (out / "figures").mkdir(parents=True, exist_ok=True)
    frame = _history_frame(history)
    figures = dict(report_figures(comparison, measure=measure))
    if trend is not None:
        figures["trend"] = trend
    paths: dict[str, Path] = {}
    images = {}
    for name, fig in figures.items():
        rel = f"figures/{name}.png"
        data = _png(fig, dpi)
        (out / rel).write_bytes(data)
        images[name] = base64.b64encode(data).decode("ascii")
        paths[rel] = out / rel
    title = _TITLES[lang] if title is None else str(title)
    doc = _document(comparison, title, digits, list(images), lang, frame)
    files = {
        "report.md": _render_markdown(doc, {n: f"figures/{n}.png" for n in images}),
        "report.html": _render_html(doc, title, images, lang),
        "report.tex": to_latex(comparison, digits=max(1, digits - 1), lang=lang) + "\n",
    }
    for rel, text in files.items():
        (out / rel).write_text(text, encoding="utf-8")
        paths[rel] = out / rel
    return dict(sorted(paths.items()))
