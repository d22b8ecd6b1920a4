"""The report's content as a language-neutral list of blocks, before any format.

:func:`build_document` turns a :class:`reteval.comparison.Comparison` (and,
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

from reteval._util.catalogue import check_lang, join_names, phrase, phrases
from reteval._util.languages import language
from reteval.comparison.result import Comparison
from reteval.errors import InputError
from reteval.measures import is_count
from reteval.stats import format_pvalue, minimum_detectable_difference, queries_needed

__all__ = [
    "CORRECTION_NAMES",
    "SECTIONS",
    "Bullets",
    "Figure",
    "Heading",
    "Paragraph",
    "Table",
    "alert_text",
    "build_document",
    "check_history",
    "check_report_arguments",
    "fmt",
    "p_label",
    "select_sections",
]

#: Names of the multiple-comparison corrections (the same in both languages).
CORRECTION_NAMES = {"holm": "Holm", "bonferroni": "Bonferroni", "bh": "Benjamini-Hochberg",
                    "none": None}


def check_report_arguments(comparison, digits, lang="en") -> None:
    """Raise :class:`~reteval.errors.InputError` unless the arguments of a report are valid.

    ``comparison`` must be a :class:`~reteval.comparison.Comparison`, ``digits`` an
    integer from 0 to 12 and ``lang`` one of :data:`reteval.report.LANGUAGES`.

    Examples
    --------
    >>> check_report_arguments(None, 4)
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: expected a reteval.comparison.Comparison; got NoneType
    """
    if not isinstance(comparison, Comparison):
        raise InputError(
            f"expected a reteval.comparison.Comparison; got {type(comparison).__name__}"
        )
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 12:
        raise InputError(f"digits must be an integer from 0 to 12; got {digits!r}")
    check_lang(lang)


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




def _family(measure: str) -> tuple[str, bool]:
    """The family of a measure name and whether it has a cutoff: ``"nDCG@10"`` -> ("nDCG", True)."""
    match = re.match(r"[A-Za-z_]+", measure)
    return (match.group(0) if match else measure), "@" in measure


def _mean_term(measure: str, lang: str) -> str | None:
    """The name of the measure's mean over queries, in the chapter's terms (None if unknown)."""
    terms = phrases("report.term.", lang).get(_family(measure)[0])
    return None if terms is None else (terms[1] or terms[0])


def _terms_sentence(c: Comparison, lang: str) -> tuple | None:
    terms = phrases("report.term.", lang)
    seen = {}
    for m in c.measures:
        family, cutoff = _family(m)
        if family in terms and family not in seen:
            seen[family] = f"{family}@k" if cutoff else family
    if not seen:
        return None
    parts = []
    for family, label in seen.items():
        one, mean = terms[family]
        parts.append(phrase("report.say.term_mean" if mean else "report.say.term", lang,
                            label=label, one=one, mean=mean))
    return _t(phrase("report.say.terms", lang,
                     items=phrase("report.say.terms_sep", lang).join(parts)))


def _say(key: str, lang: str, **fields) -> str:
    return phrase(f"report.say.{key}", lang, **fields)


def _method_sentence(c: Comparison, lang: str) -> tuple:
    test = phrases("report.test.", lang).get(c.test, c.test)
    corr = CORRECTION_NAMES.get(c.correction, c.correction)
    resampled = c.test in ("randomization", "bootstrap")
    return _t(_say(
        "method", lang, n=c.n_queries, systems=len(c.systems), measures=len(c.measures),
        test=test, extra=_say("resampled", lang, n=c.n_resamples) if resampled else "",
        family=(_say("against_baseline", lang, baseline=c.baseline) if c.baseline is not None
                else _say("all_pairs", lang)),
        correction=_say("corrected", lang, corr=corr) if corr else _say("uncorrected", lang),
        alpha=c.alpha, level=f"{100 * c.confidence_level:g}%", resamples=c.n_resamples))


def p_label(c: Comparison, in_family: bool, lang: str) -> str:
    """What a p-value of the comparison is: corrected (and how), or of a separate test."""
    corr = CORRECTION_NAMES.get(c.correction, c.correction)
    if not in_family:
        return _say("p_separate", lang)
    return _say("p_corrected", lang, corr=corr) if corr else "p"


_DAGGER = "†"


def _depth_paragraph(c: Comparison, lang: str) -> tuple | None:
    """Whether the systems returned different numbers of documents, and the measures it touches."""
    retrieved = getattr(c, "retrieved", None)
    if retrieved is None or len(c.systems) < 2 or (retrieved.nunique(axis=1) <= 1).all():
        return None
    separator = language(lang).separator
    listing = separator.join(phrase("report.depth.system", lang, s=s, mean=retrieved[s].mean(),
                                    low=retrieved[s].min(), high=retrieved[s].max())
                             for s in c.systems)
    sensitive = [m for m in c.measures if c.depth_sensitive(m)]
    text = phrase("report.depth.differ", lang, listing=listing)
    if sensitive:
        text += phrase("report.depth.sensitive", lang, dagger=_DAGGER,
                       measures=separator.join(sensitive))
    else:
        text += phrase("report.depth.unaffected", lang)
    return _t(text)


def _marked(c: Comparison, m: str) -> str:
    return f"{m} {_DAGGER}" if c.depth_sensitive(m) else m


def _best_items(c: Comparison, digits: int, lang: str) -> list[tuple]:
    items = []
    for m in c.measures:
        b = c.best.loc[m]
        term = _mean_term(m, lang)
        head = ((_marked(c, m),), _say("best_term", lang, term=term) if term
                else _say("best_plain", lang))
        mean = fmt(b["mean"], digits)
        if b["status"] == "single":
            items.append(_t(*head, (b["system"],), _say("best_single", lang, mean=mean)))
        elif b["status"] == "tie":
            tied = join_names([b["system"], *b["tied_with"]], lang)
            items.append(_t(*head, _say("best_tie", lang, tied=tied, mean=mean)))
        else:
            runner = _say("runner", lang, name=b["runner_up"],
                          mean=fmt(b["runner_up_mean"], digits))
            p_value = format_pvalue(b["pvalue_corrected"])
            p_kind = p_label(c, bool(b["in_family"]), lang)
            p_text = f"{p_kind} {p_value}" if p_value.startswith("<") else f"{p_kind} = {p_value}"
            key = "best_significant" if b["status"] == "significant" else "best_not_significant"
            items.append(_t(*head, (b["system"],),
                            _say(key, lang, mean=mean, runner=runner, p=p_text, alpha=c.alpha)))
        if c.depth_sensitive(m) and b["status"] != "single":
            items[-1] = (*items[-1], *_t(phrase("report.depth.marked", lang, dagger=_DAGGER)))
    return items


def _recommendation(c: Comparison, digits: int, lang: str) -> list[tuple]:
    if len(c.systems) == 1:
        return [_t(_say("only_one", lang, system=c.systems[0]))]
    return [_t(phrase("report.depth.rule", lang)), *_advice(c, digits, lang)]


def _advice(c: Comparison, digits: int, lang: str) -> list[tuple]:
    best = c.best
    decided = best[best["status"] != "tie"]
    wins = decided["system"].value_counts()
    sig_wins = decided[decided["significant"]]["system"].value_counts()
    n_m = len(c.measures)
    out = []
    if wins.empty:
        others = _say("another" if len(c.systems) == 2 else "the_others", lang)
        out.append(_t(_say("all_ties", lang, others=others)))
        return out
    top = wins.max()
    leaders = [s for s in c.systems if wins.get(s, 0) == top]
    if len(leaders) > 1:
        out.append(_t(_say("no_leader", lang, leaders=join_names(leaders, lang), top=top,
                           n=n_m)))
    else:
        leader = leaders[0]
        n_sig = int(sig_wins.get(leader, 0))
        sig_measures = decided[(decided["system"] == leader) & decided["significant"]].index
        all_deep = n_sig and all(c.depth_sensitive(m) for m in sig_measures)
        if n_sig:
            note = ""
            if all_deep:
                note = phrase("report.depth.all_deep", lang, n=n_sig, dagger=_DAGGER)
            out.append(_t(_say("recommended", lang), (leader,),
                          _say("recommended_why", lang, n=n_m, top=top, sig=n_sig) + note))
        else:
            text = _say("leader_not_significant", lang, leader=leader, n=n_m, top=top,
                        alpha=c.alpha)
            tied = _tied_at_top(c, leader)
            if tied:
                text += _say("tied_top", lang, leader=leader, tied=join_names(tied, lang),
                             all=join_names([leader, *tied], lang))
            else:
                text += _say("no_tied_top", lang)
            out.append(_t(text))
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
            text = _say("planning", lang, measure=m, system=b["system"], runner=b["runner_up"],
                        sd=fmt(sd, digits), n=c.n_queries, alpha=c.alpha, mdd=fmt(mdd, digits))
            if observed > 0:
                need = queries_needed(observed, sd, alpha=c.alpha, power=0.8)
                text += _say("planning_need", lang, observed=fmt(observed, digits), need=need)
            out.append(_t(text))
    return out


def _tied_at_top(c: Comparison, leader: str) -> list[str]:
    """The systems no test separates from ``leader``: on every measure their pair with it
    was tested and is not significant (an untested pair names no one)."""
    pairs = c.pairwise
    tied = []
    for s in c.systems:
        if s == leader:
            continue
        rows = pairs[((pairs["system"] == leader) & (pairs["other"] == s))
                     | ((pairs["system"] == s) & (pairs["other"] == leader))]
        if set(rows["measure"]) == set(c.measures) and not rows["significant"].any():
            tied.append(s)
    return tied


def alert_text(marks: str, lang: str = "en") -> str:
    """A history entry's alert marks in words of ``lang`` (``""`` for none).

    Examples
    --------
    >>> alert_text("threshold:R@5; regression:AP")
    'below threshold: R@5; significant regression: AP'
    >>> alert_text("threshold:R@5", "zh")
    '低于阈值：R@5'
    """
    out = []
    for mark in filter(None, marks.split("; ")):
        kind, _, measure = mark.partition(":")
        words = phrases("report.alert.", lang).get(kind, kind)
        out.append(_say("alert", lang, kind=words, measure=measure) if measure else words)
    return _say("alert_sep", lang).join(out)


def _history_blocks(history, digits: int, lang: str, last: int = 5) -> list:
    """The continuous-evaluation section: a summary sentence and the latest entries."""
    blocks: list = [Heading(2, _t(phrase("report.heading.history", lang)))]
    if len(history) == 0:
        blocks.append(Paragraph(_t(_say("history_empty", lang))))
        return blocks
    fixed = ("created_utc", "retriever", "dataset", "fingerprint", "num_queries",
             "alert", "alerts", "alert_measures")
    # every recorded measure but the counts (NumRet ...): an alert may be about any of them
    shown = [m for m in history.columns if m not in fixed and not is_count(m)]
    first = history["created_utc"].iloc[0].strftime("%Y-%m-%d %H:%M")
    latest = history["created_utc"].iloc[-1].strftime("%Y-%m-%d %H:%M")
    retrievers = join_names(dict.fromkeys(history["retriever"]), lang)
    n_alerts = int(history["alert"].sum())
    text = _say("history", lang, n=len(history), first=first, latest=latest,
                retrievers=retrievers, alerts=n_alerts)
    if len(history) > last:
        text += _say("history_latest", lang, last=last)
    blocks.append(Paragraph(_t(text)))
    head = phrase("report.history_header", lang)
    rows = []
    for _, r in history.tail(last).iterrows():
        rows.append((_t(r["created_utc"].strftime("%Y-%m-%d %H:%M")), _t(r["retriever"]),
                     _t(str(int(r["num_queries"]))),
                     *[_t(fmt(float(r[m]), digits)) for m in shown],
                     _t((alert_text(r["alerts"], lang),)) if r["alert"] else _t("-")))
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
    heading = phrases("report.heading.", lang)
    terms = _terms_sentence(c, lang)
    doc = [
        Heading(1, _t(title)),
        Paragraph(_method_sentence(c, lang)),
        Heading(2, _t(heading["measures"])),
        Paragraph(_t(_say("measures_note", lang, level=level))),
        *([Paragraph(terms)] if terms else []),
        *([Paragraph(depth)] if (depth := _depth_paragraph(c, lang)) else []),
        Table(header=(_t(phrase("report.system", lang)),
                      *[_t(_marked(c, m)) for m in c.measures]),
               rows=tuple(rows), numeric=(False, *[True] * len(c.measures))),
        Heading(2, _t(heading["best"])),
        Bullets(tuple(_best_items(c, digits, lang))),
    ]
    if not c.pairwise.empty:
        yes, no = phrase("report.yes", lang), phrase("report.no", lang)
        prow = []
        for r in c.pairwise.itertuples(index=False):
            prow.append((_t(r.measure), _t(r.system), _t(r.other),
                         _t(f"{r.mean_difference:+.{digits}f}"),
                         _t(f"({fmt(r.ci_low, digits)}, {fmt(r.ci_high, digits)})"),
                         _t(fmt(r.effect_size, 2)), _t(format_pvalue(r.pvalue)),
                         _t(format_pvalue(r.pvalue_corrected)),
                         _t((yes,)) if r.significant else _t(no)))
        corr = CORRECTION_NAMES.get(c.correction, c.correction)
        ci_note = phrase(f"report.ci.{c.test}", lang)
        if c.test.startswith("tukey"):
            note = _say("tests_note_tukey", lang, level=level, ci=ci_note)
        else:
            note = _say("tests_note", lang, level=level, ci=ci_note) + (
                _say("tests_corrected", lang, corr=corr) if corr
                else _say("tests_uncorrected", lang))
        doc += [
            Heading(2, _t(heading["tests"])),
            Paragraph(_t(note)),
            Table(header=tuple(_t(h) for h in phrase("report.tests_header", lang)),
                  rows=tuple(prow),
                  numeric=(False, False, False, True, True, True, True, True, False)),
        ]
    doc += _many_systems_blocks(c, digits, lang)
    doc += [Heading(2, _t(heading["advice"])),
            *[Paragraph(p) for p in _recommendation(c, digits, lang)]]
    if history is not None:
        doc += _history_blocks(history, digits, lang)
        if "trend" in figures:
            doc.append(Figure("trend", phrase("report.caption.trend", lang)))
    figures = [name for name in figures if name != "trend"]
    if figures:
        doc.append(Heading(2, _t(heading["figures"])))
        for name in figures:
            doc.append(Figure(name, phrases("report.caption.", lang).get(name, name)))
    return doc


#: The report's sections, in their order (a section a report without its data leaves out).
SECTIONS = ("measures", "best", "tests", "many", "advice", "history", "figures")


def select_sections(doc: list, sections, lang: str) -> list:
    """The title and method sentence of ``doc`` and, of its sections, those in ``sections``.

    ``sections`` holds names of :data:`SECTIONS`; a section ``doc`` does not have is
    left out quietly (``"history"`` without a history, ``"tests"`` with one system).

    Examples
    --------
    >>> doc = [Heading(1, _t("Report")), Paragraph(_t("36 queries.")),
    ...        Heading(2, _t("Measures")), Paragraph(_t("a table")),
    ...        Heading(2, _t("Recommendation")), Paragraph(_t("choose a"))]
    >>> [b.text[0][0] for b in select_sections(doc, ["advice"], "en")]
    ['Report', '36 queries.', 'Recommendation', 'choose a']
    >>> select_sections(doc, "advice", "en")
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: sections must be a list of section names ...; got 'advice'
    """
    if isinstance(sections, str) or not all(isinstance(s, str) for s in sections):
        raise InputError(f"sections must be a list of section names ({', '.join(SECTIONS)}); "
                         f"got {sections!r}")
    unknown = sorted(set(sections) - set(SECTIONS))
    if unknown:
        raise InputError(f"unknown report section {', '.join(map(repr, unknown))}; "
                         f"the sections are {', '.join(SECTIONS)}")
    key_of = {_t(text): key for key, text in phrases("report.heading.", lang).items()}
    kept, keep = [], True
    for block in doc:
        if isinstance(block, Heading) and block.level == 2:
            keep = key_of.get(block.text) in sections
        if keep:
            kept.append(block)
    return kept


def _many_systems_blocks(c: Comparison, digits: int, lang: str) -> list:
    """Three or more systems: per measure the ANOVA, the significance matrix, effect sizes.

    The effect size of a pair is ``(mean_i - mean_j) / sqrt(V_E)`` with V_E the
    residual variance of the measure's two-way ANOVA; its interval is the
    pair's interval (the test's, e.g. Tukey's simultaneous one) in the same units.
    """
    if len(c.systems) < 3 or not c.anova:
        return []
    level = f"{100 * c.confidence_level:g}%"
    corr = CORRECTION_NAMES.get(c.correction, c.correction)
    if c.test.startswith("tukey"):
        p_kind, interval = _say("many_p_tukey", lang), ""
    elif corr:
        p_kind = _say("many_p_corrected", lang, corr=corr)
        interval = _say("many_interval_uncorrected", lang)
    else:
        p_kind, interval = _say("many_p_uncorrected", lang), ""
    blocks = [Heading(2, _t(phrase("report.heading.many", lang))),
              Paragraph(_t(_say("many_intro", lang, level=level, p=p_kind, interval=interval)))]
    for m in c.measures:
        if m not in c.anova:
            continue
        a = c.anova[m]
        moe = a.margin_of_error(c.confidence_level)
        tested = not getattr(a, "note", "") and math.isfinite(a.statistic) \
            and not math.isnan(a.pvalue)
        p_value = format_pvalue(a.pvalue)
        blocks.append(Paragraph(_t((m,), _say(
            "many_anova" if tested else "many_anova_none", lang, d1=a.df_system,
            d2=a.df_residual, f=a.statistic,
            p=f"p {p_value}" if p_value.startswith("<") else f"p = {p_value}",
            ve=f"{a.residual_variance:.{digits}f}", moe=f"{moe:.{digits}f}"))))
        matrix = c.significance_matrix(m)
        blocks.append(Table(
            header=(_t(phrase("report.system", lang)), *[_t(s) for s in c.systems]),
            rows=tuple((_t(s), *[_t(matrix.loc[s, o]) for o in c.systems]) for s in c.systems),
            numeric=(False, *[False] * len(c.systems))))
        sd = math.sqrt(a.residual_variance) if a.residual_variance > 0 else math.nan
        rows = []
        for r in c.pairwise[c.pairwise["measure"] == m].itertuples(index=False):
            es = (a.means[r.system] - a.means[r.other]) / sd  # of the values tested
            rows.append((_t(r.system), _t(r.other), _t(f"{es:+.2f}"),
                         _t(f"({r.ci_low / sd:+.2f}, {r.ci_high / sd:+.2f})"),
                         _t(format_pvalue(r.pvalue_corrected))))
        blocks.append(Table(header=tuple(_t(h) for h in phrase("report.effect_header", lang)),
                            rows=tuple(rows), numeric=(False, False, True, True, True)))
    return blocks


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


