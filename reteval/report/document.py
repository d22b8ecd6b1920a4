"""The report's content as a language-neutral list of blocks, before any format.

:func:`build_document` turns a :class:`reteval.evaluation.comparison.Comparison` (and,
optionally, a continuous-evaluation history) into headings, paragraphs, bullet
lists, tables and figure references, every piece of text in the chosen
language. A text is a tuple of runs ``(text, bold)``; the renderers
(:mod:`reteval.report.markdown`, :mod:`reteval.report.html`) escape every run
for their format. The sentences here are the report's judgement: the best
system per measure and whether it is significantly better than the runner-up,
the recommendation, and how many queries would settle an open question.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import pandas as pd

from reteval.errors import InputError
from reteval.evaluation.comparison import Comparison
from reteval.report.texts import (
    ALERT_KINDS,
    CI_NOTES,
    CORRECTION_NAMES,
    FIGURE_CAPTIONS,
    HEADERS,
    HEADINGS,
    LANGUAGES,
    TERMS,
    TEST_NAMES,
)
from reteval.stats import format_pvalue, minimum_detectable_difference, queries_needed

__all__ = [
    "Bullets", "Figure", "Heading", "Paragraph", "Table", "build_document", "check_arguments",
    "check_history", "fmt", "p_label"
]


def _check_lang(lang) -> str:
    if lang not in LANGUAGES:
        raise InputError(f"lang must be one of {list(LANGUAGES)}; got {lang!r}")
    return lang


def check_arguments(comparison, digits, lang="en") -> None:
    """Raise :class:`~reteval.errors.InputError` unless the arguments of a report are valid.

    ``comparison`` must be a :class:`~reteval.evaluation.comparison.Comparison`, ``digits`` an
    integer from 0 to 12 and ``lang`` one of :data:`~reteval.report.texts.LANGUAGES`.

    Examples
    --------
    >>> check_arguments(None, 4)
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: expected a reteval.evaluation.comparison.Comparison; got NoneType
    """
    if not isinstance(comparison, Comparison):
        raise InputError(
            f"expected a reteval.evaluation.comparison.Comparison; got {type(comparison).__name__}"
        )
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 12:
        raise InputError(f"digits must be an integer from 0 to 12; got {digits!r}")
    _check_lang(lang)


# --------------------------------------------------------------------------- document model
# Text is a tuple of runs (text, bold); renderers escape every run for their format.


@dataclass(frozen=True)
class Heading:
    """A heading of ``level`` 1 (the title) or 2 (a section)."""

    level: int
    text: tuple


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of one text."""

    text: tuple


@dataclass(frozen=True)
class Bullets:
    """A bullet list: a tuple of texts."""

    items: tuple


@dataclass(frozen=True)
class Table:
    """A table: a header of texts, rows of texts, and which columns are numbers."""

    header: tuple
    rows: tuple  # of tuples of text
    numeric: tuple  # per column: right-align


@dataclass(frozen=True)
class Figure:
    """A figure, by name (a renderer shows it only if it has that figure), with a caption."""

    name: str
    caption: str


def _t(*parts) -> tuple:
    """Text from parts: a str is plain, a 1-tuple ``(s,)`` is bold."""
    return tuple((p[0], True) if isinstance(p, tuple) else (str(p), False) for p in parts)


def fmt(value, digits: int) -> str:
    """A score with ``digits`` decimals; ``"-"`` if it is missing.

    Examples
    --------
    >>> fmt(0.5, 3), fmt(float("nan"), 3), fmt(None, 3)
    ('0.500', '-', '-')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:.{digits}f}"


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
    terms = TERMS[lang].get(_family(measure)[0])
    return None if terms is None else (terms[1] or terms[0])


def _terms_sentence(c: Comparison, lang: str) -> tuple | None:
    seen = {}
    for m in c.measures:
        family, cutoff = _family(m)
        if family in TERMS[lang] and family not in seen:
            seen[family] = f"{family}@k" if cutoff else family
    if not seen:
        return None
    parts = []
    for family, label in seen.items():
        one, mean = TERMS[lang][family]
        if lang == "zh":
            parts.append(f"{label} 为{one}" + (f"（其均值即{mean}）" if mean else ""))
        else:
            parts.append(f"{label} is {one}" + (f" (its mean: {mean})" if mean else ""))
    if lang == "zh":
        return _t("指标：" + "，".join(parts) + "。")
    return _t("Measures: " + "; ".join(parts) + ".")


def _method_sentence(c: Comparison, lang: str) -> tuple:
    test = TEST_NAMES[lang].get(c.test, c.test)
    corr = CORRECTION_NAMES.get(c.correction, c.correction)
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


def p_label(c: Comparison, in_family: bool, lang: str) -> str:
    """What a p-value of the comparison is: corrected (and how), or of a separate test."""
    corr = CORRECTION_NAMES.get(c.correction, c.correction)
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
        mean = fmt(b["mean"], digits)
        if b["status"] == "single":
            items.append(_t(*head, (b["system"],),
                            f"（{mean}），唯一参评的检索器。" if zh
                            else f" ({mean}), the only system."))
        elif b["status"] == "tie":
            tied = _names([b["system"], *b["tied_with"]], lang)
            items.append(_t(*head, f"{tied} 并列（{mean}），没有唯一的最佳检索器。" if zh
                            else f"tie between {tied} ({mean}); no single best system."))
        else:
            runner = (f"{b['runner_up']}（{fmt(b['runner_up_mean'], digits)}）" if zh
                      else f"{b['runner_up']} ({fmt(b['runner_up_mean'], digits)})")
            p_value = format_pvalue(b["pvalue_corrected"])
            p_kind = p_label(c, bool(b["in_family"]), lang)
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
                        f"标准差为 {fmt(sd, digits)}；在 {c.n_queries} 个查询上，α = "
                        f"{c.alpha:g} 的配对 t 检验能以 80% 的统计功效检测出 "
                        f"{fmt(mdd, digits)} 的真实差异。")
            else:
                text = (f"Planning ({m}, {b['system']} vs {b['runner_up']}): the per-query "
                        f"differences have standard deviation {fmt(sd, digits)}; with "
                        f"{c.n_queries} queries a paired t test at alpha = {c.alpha:g} detects "
                        f"a true difference of {fmt(mdd, digits)} with 80% power.")
            if observed > 0:
                need = queries_needed(observed, sd, alpha=c.alpha, power=0.8)
                text += (f"观测到的差异 {fmt(observed, digits)} 约需 {need} 个查询。" if zh
                         else f" The observed difference, {fmt(observed, digits)}, would need "
                              f"about {need} queries.")
            out.append(_t(text))
    return out



def _alert_text(marks: str, lang: str) -> str:
    """``"threshold:R@5; regression:AP"`` in words: ``"below threshold: R@5; ..."``."""
    out = []
    for mark in filter(None, marks.split("; ")):
        kind, _, measure = mark.partition(":")
        words = ALERT_KINDS[lang].get(kind, kind)
        out.append(f"{words}{'：' if lang == 'zh' else ': '}{measure}" if measure else words)
    return ("；" if lang == "zh" else "; ").join(out)


def _history_blocks(history, digits: int, lang: str, last: int = 5) -> list:
    """The continuous-evaluation section: a summary sentence and the latest entries."""
    zh = lang == "zh"
    blocks: list = [Heading(2, _t(HEADINGS[lang]["history"]))]
    if len(history) == 0:
        blocks.append(Paragraph(_t("历史记录中还没有评估记录。" if zh
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
    blocks.append(Paragraph(_t(text)))
    head = HEADERS[lang]["history"]
    rows = []
    for _, r in history.tail(last).iterrows():
        rows.append((_t(r["created_utc"].strftime("%Y-%m-%d %H:%M")), _t(r["retriever"]),
                     _t(str(int(r["num_queries"]))),
                     *[_t(fmt(float(r[m]), digits)) for m in shown],
                     _t((_alert_text(r["alerts"], lang),)) if r["alert"] else _t("-")))
    blocks.append(Table(header=(_t(head[0]), _t(head[1]), _t(head[2]),
                                 *[_t(m) for m in shown], _t(head[3])),
                         rows=tuple(rows),
                         numeric=(False, False, True, *[True] * len(shown), False)))
    return blocks


def build_document(c: Comparison, title: str, digits: int, figures, lang: str,
                   history=None) -> list:
    """The report's blocks, in order: method, measures, best systems, tests, advice.

    ``figures`` are the names of the figures to reference (``"trend"`` goes to the
    history's section, the others to a last section); ``history`` is a table that
    :func:`check_history` accepted, or None.
    """
    zh = lang == "zh"
    best_cells = {(m, s) for m in c.measures
                  for s in (c.best.loc[m, "system"], *c.best.loc[m, "tied_with"])}
    table = c.table.set_index(["measure", "system"])
    rows = []
    for s in c.systems:
        cells = [_t(s)]
        for m in c.measures:
            r = table.loc[(m, s)]
            value = fmt(r["mean"], digits)
            ci = f" ({fmt(r['ci_low'], digits)}, {fmt(r['ci_high'], digits)})"
            cells.append(_t((value,), ci) if (m, s) in best_cells else _t(value + ci))
        rows.append(tuple(cells))
    level = f"{100 * c.confidence_level:g}%"
    heading = HEADINGS[lang]
    terms = _terms_sentence(c, lang)
    doc = [
        Heading(1, _t(title)),
        Paragraph(_method_sentence(c, lang)),
        Heading(2, _t(heading["measures"])),
        Paragraph(_t(f"每个检索器在各指标上的查询均值，括号内为 {level} 置信区间；每个指标的最高"
                      "均值以粗体标出。" if zh else
                      f"Mean per query with its {level} interval; the highest mean of each "
                      "measure in bold.")),
        *([Paragraph(terms)] if terms else []),
        Table(header=(_t(HEADERS[lang]["system"]), *[_t(m) for m in c.measures]),
               rows=tuple(rows), numeric=(False, *[True] * len(c.measures))),
        Heading(2, _t(heading["best"])),
        Bullets(tuple(_best_items(c, digits, lang))),
    ]
    if not c.pairwise.empty:
        yes, no = HEADERS[lang]["yes"], HEADERS[lang]["no"]
        prow = []
        for r in c.pairwise.itertuples(index=False):
            prow.append((_t(r.measure), _t(r.system), _t(r.other),
                         _t(f"{r.mean_difference:+.{digits}f}"),
                         _t(f"({fmt(r.ci_low, digits)}, {fmt(r.ci_high, digits)})"),
                         _t(fmt(r.effect_size, 2)), _t(format_pvalue(r.pvalue)),
                         _t(format_pvalue(r.pvalue_corrected)),
                         _t((yes,)) if r.significant else _t(no)))
        corr = CORRECTION_NAMES.get(c.correction, c.correction)
        ci_note = CI_NOTES[lang][c.test]
        if zh:
            note = (f"差值 = 检索器 − 对照。置信区间：{level} {ci_note}。效应量：Cohen 的 d_z。"
                    + (f"校正：每个指标内做 {corr} 校正。" if corr else "未做多重比较校正。"))
        else:
            note = (f"Difference = system - other. Interval: {level} {ci_note}. "
                    "Effect size: Cohen's d_z. "
                    + (f"Corrected: {corr} within each measure." if corr else "Not corrected."))
        doc += [
            Heading(2, _t(heading["tests"])),
            Paragraph(_t(note)),
            Table(header=tuple(_t(h) for h in HEADERS[lang]["tests"]), rows=tuple(prow),
                   numeric=(False, False, False, True, True, True, True, True, False)),
        ]
    doc += [Heading(2, _t(heading["advice"])),
            *[Paragraph(p) for p in _recommendation(c, digits, lang)]]
    if history is not None:
        doc += _history_blocks(history, digits, lang)
        if "trend" in figures:
            doc.append(Figure("trend", FIGURE_CAPTIONS[lang]["trend"]))
    figures = [name for name in figures if name != "trend"]
    if figures:
        doc.append(Heading(2, _t(heading["figures"])))
        for name in figures:
            doc.append(Figure(name, FIGURE_CAPTIONS[lang].get(name, name)))
    return doc


_HISTORY_COLUMNS = ("created_utc", "retriever", "num_queries", "alert", "alerts")


def check_history(history):
    """Check a history table (:func:`reteval.monitor.trend.history_frame`'s); None stays None."""
    if history is None:
        return None
    if not isinstance(history, pd.DataFrame) or \
            any(col not in history.columns for col in _HISTORY_COLUMNS):
        raise InputError("history must be the table of reteval.monitor.trend.history_frame "
                         f"(columns {list(_HISTORY_COLUMNS)} ...); got {type(history).__name__}")
    return history


