"""The means table of a comparison, as ``reteval compare`` prints it: text, JSON, CSV,
Markdown and LaTeX.

Every renderer takes a :class:`~reteval.comparison.Comparison` (:func:`reteval.compare`)
or the :class:`~reteval.comparison.ComparisonNumbers` it wraps (what the command line
computes); only :func:`render_csv` loads pandas. The full report, with its sentences and
figures, is :func:`reteval.report.to_markdown` and its siblings.

Examples
--------
>>> from reteval import compare
>>> qrels = {f"q{i}": {f"d{i}": 1} for i in range(4)}
>>> runs = {"a": {f"q{i}": [f"d{i}"] for i in range(4)},
...         "b": {f"q{i}": ["x", "y", "z"][:i] + [f"d{i}"] for i in range(4)}}
>>> print(render_markdown(compare(qrels, runs, ["RR"], rng=0)).splitlines()[4])
| (a) a | 1.0000 |
"""

from __future__ import annotations

import json
import math

from reteval._util.latex import system_letters, tex_escape
from reteval._util.markdown import md_escape
from reteval.errors import InputError

__all__ = ["anova_text", "format_p", "pair_rows", "render_csv", "render_json", "render_latex",
           "render_markdown", "render_table"]


# Every renderer takes a Comparison (reteval.compare, compare_scores) or the numbers
# reteval compare computes (reteval.comparison.core.ComparisonNumbers).


def _numbers(c):
    """The numbers of a comparison: a Comparison's, or ComparisonNumbers as they are."""
    return c.numbers if getattr(c, "numbers", None) is not None else c


def _marks(c) -> dict:
    """``(measure, system) -> mark``: letters of the runs it beats, or ▲/▼ against the baseline."""
    marks: dict = {}
    letter = {s: system_letters(k) for k, s in enumerate(c.systems)}
    for r in c.pairs:
        if not r["significant"] or r["mean_difference"] == 0:
            continue
        up = r["mean_difference"] > 0
        if c.baseline is not None:
            marks[r["measure"], r["system"]] = "▲" if up else "▼"
        else:
            win, lose = (r["system"], r["other"]) if up else (r["other"], r["system"])
            marks.setdefault((r["measure"], win), []).append(lose)
    for key, value in marks.items():
        if isinstance(value, list):
            ordered = sorted(value, key=list(c.systems).index)
            sep = "," if any(len(letter[x]) > 1 for x in ordered) else ""
            marks[key] = sep.join(letter[x] for x in ordered)
    return marks


def _procedure_text(c) -> str:
    names = {"tukey": "randomised Tukey HSD", "tukey-studentized": "Tukey HSD (studentized range)",
             "t": "paired t test", "wilcoxon": "Wilcoxon signed-rank test",
             "randomization": "randomization test", "bootstrap": "paired bootstrap test"}
    test = names.get(c.test, c.test)
    if c.test.startswith("tukey"):
        family = f"all {len(c.systems) * (len(c.systems) - 1) // 2} pairs, family-wise"
    else:
        corr = "no correction" if c.correction == "none" else f"{c.correction} correction"
        family = ("each run against " + c.baseline if c.baseline is not None
                  else "every pair") + f", {corr},"
    rounds = (f" ({c.n_resamples} rounds)" if c.test in ("tukey", "randomization", "bootstrap")
              else "")
    return f"{test}{rounds} over {family} alpha {c.alpha:g}"


def pair_rows(c):
    """Tested pairs with their effect size ``diff / sqrt(V_E)`` and its interval."""
    rows = []
    for r in c.pairs:
        a = c.anova.get(r["measure"])
        sd = math.sqrt(a.residual_variance) if a is not None and a.residual_variance > 0 \
            else math.nan
        # the effect size is of the values tested (a geometric mean's logarithms)
        diff, low, high = r["mean_difference"], r["ci_low"], r["ci_high"]
        tested = r.get("tested_difference", diff)
        rows.append({"measure": r["measure"], "system": r["system"], "other": r["other"],
                     "mean_difference": diff, "effect_size": tested / sd,
                     "es_low": low / sd, "es_high": high / sd, "ci_low": low, "ci_high": high,
                     "pvalue": r["pvalue"], "pvalue_corrected": r["pvalue_corrected"],
                     "significant": bool(r["significant"])})
    return rows


def _legend(c) -> str:
    if c.baseline is not None:
        return f"▲/▼: significantly above/below {c.baseline} at alpha {c.alpha:g}"
    return f"letters: significantly better than that run at alpha {c.alpha:g}"


def render_table(c) -> str:
    """The means table with marks, then per measure the ANOVA and the pairs."""
    c = _numbers(c)
    marks = _marks(c)
    letter = {s: system_letters(k) for k, s in enumerate(c.systems)}
    means = c.means
    label = {s: (f"({letter[s]}) " if c.baseline is None else "") + s
             + (" (baseline)" if s == c.baseline else "") for s in c.systems}
    cells = {(m, s): f"{means[m][s]:.4f} {marks.get((m, s), '')}".rstrip()
             for m in c.measures for s in c.systems}
    name_w = max(len(v) for v in label.values())
    widths = {m: max(len(m), *(len(cells[m, s]) for s in c.systems)) for m in c.measures}
    out = [f"{len(c.systems)} runs, {c.n_queries} queries; {_procedure_text(c)}",
           " " * name_w + "".join(f"  {m:<{widths[m]}}" for m in c.measures)]
    for s in c.systems:
        out.append(f"{label[s]:<{name_w}}" + "".join(f"  {cells[m, s]:<{widths[m]}}"
                                                       for m in c.measures))
    out.append(_legend(c))
    rows = pair_rows(c)
    pair_w = max([len(f"{r['system']} - {r['other']}") for r in rows] or [0])
    for m in c.measures:
        out.append("")
        a = c.anova.get(m)
        if a is not None:
            moe = a.margin_of_error(c.confidence_level)
            out.append(f"{m}: {anova_text(a)}; V_E = {a.residual_variance:.5f}; "
                       f"margin of error by V_E (MOE) +-{moe:.4f}")
        else:
            out.append(f"{m}:")
        for r in rows:
            if r["measure"] != m:
                continue
            pair = f"{r['system']} - {r['other']}"
            star = " *" if r["significant"] else ""
            out.append(f"  {pair:<{pair_w}}  {r['mean_difference']:+.4f}  ES {_es(r)}  "
                       f"p {format_p(r['pvalue_corrected'])}{star}")
    level = f"{100 * c.confidence_level:g}%"
    out.append("")
    out.append(f"ES: mean difference / sqrt(V_E), [{level} interval of the test]; "
               f"p: {'family-wise (Tukey)' if c.test.startswith('tukey') else 'corrected'}; "
               f"* significant at {c.alpha:g}")
    return "\n".join(line.rstrip() for line in out) + "\n"


def anova_text(a) -> str:
    """``ANOVA F(df1, df2) = F, p = p``, or why there is no F test (``a.note``).

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> anova_text(NS(df_system=1, df_residual=3, statistic=float("nan"),
    ...               pvalue=float("nan"), note="no residual variance"))
    'ANOVA F(1, 3): no test, no residual variance'
    """
    note = getattr(a, "note", "")
    if note or not math.isfinite(a.statistic) or math.isnan(a.pvalue):
        why = note or "the F statistic is undefined"
        return f"ANOVA F({a.df_system}, {a.df_residual}): no test, {why}"
    p = format_p(a.pvalue)
    p = f"p {p}" if p.startswith("<") else f"p = {p}"
    return f"ANOVA F({a.df_system}, {a.df_residual}) = {a.statistic:.3f}, {p}"


def _signed(value) -> str:
    """``+0.12``, or ``-`` for an effect size there is none of (no residual variance)."""
    return f"{value:+.2f}" if math.isfinite(value) else "-"


def _es(r) -> str:
    """A pair's effect size and its interval: ``+0.50 [+0.10, +0.90]``."""
    return f"{_signed(r['effect_size'])} [{_signed(r['es_low'])}, {_signed(r['es_high'])}]"


def format_p(p) -> str:
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "-"
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"


def _num(value):
    value = float(value)
    return value if math.isfinite(value) else None


def render_json(c) -> str:
    """Everything: means, ANOVA per measure, every tested pair, the summary."""
    c = _numbers(c)
    means = c.means
    doc = {
        "num_queries": c.n_queries, "systems": list(c.systems), "measures": list(c.measures),
        "baseline": c.baseline, "test": c.test, "correction": c.correction, "alpha": c.alpha,
        "n_resamples": c.n_resamples,
        "means": {m: {s: _num(means[m][s]) for s in c.systems} for m in c.measures},
        "aggregation": {m: getattr(c, "aggregation", {}).get(m, "mean") for m in c.measures},
        "anova": {m: {"statistic": _num(a.statistic), "pvalue": _num(a.pvalue),
                      "df_system": a.df_system, "df_residual": a.df_residual,
                      "residual_variance": _num(a.residual_variance),
                      "note": getattr(a, "note", ""),
                      "margin_of_error": _num(a.margin_of_error(c.confidence_level))}
                  for m, a in c.anova.items()},
        "pairs": [{k: (_num(v) if isinstance(v, float) else v) for k, v in r.items()}
                  for r in pair_rows(c)],
        "summary": list(c.summary()),
    }
    return json.dumps(doc, indent=2, allow_nan=False, ensure_ascii=False) + "\n"


def render_csv(c) -> str:
    """One row per tested pair and measure, with both means."""
    import pandas as pd

    c = _numbers(c)
    rows = pair_rows(c)
    means = c.means
    frame = pd.DataFrame(rows, columns=["measure", "system", "other", "mean_difference",
                                        "effect_size", "es_low", "es_high", "ci_low", "ci_high",
                                        "pvalue", "pvalue_corrected", "significant"])
    frame.insert(3, "mean_system", [float(means[r["measure"]][r["system"]]) for r in rows])
    frame.insert(4, "mean_other", [float(means[r["measure"]][r["other"]]) for r in rows])
    return frame.to_csv(index=False, float_format="%.6g")


def _note(c) -> str:
    """What the marks mean and which test made them (the table note of Markdown and LaTeX)."""
    kinds = set(getattr(c, "aggregation", {}).values()) - {"mean"}
    means = "; ".join({"gmean": "GM measures: geometric mean (floor 0.00001), tested on logs",
                       "sum": "counts: sum over the queries"}[k]
                      for k in sorted(kinds) if k in ("gmean", "sum"))
    return (f"{_legend(c)}; {_procedure_text(c)}" + (f"; {means}" if means else "")
            + "; effect size: difference / sqrt(V_E) of the two-way ANOVA, with the test's "
            f"{100 * c.confidence_level:g}% interval")


def _check_decimals(decimals) -> int:
    if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= 12:
        raise InputError(f"decimals must be an integer from 0 to 12; got {decimals!r}")
    return decimals


def render_markdown(c, *, decimals: int = 4) -> str:
    """The means table with marks, its note, then the pairs, as Markdown.

    The content of :func:`render_latex` with ``effect_sizes=True``.
    """
    c = _numbers(c)
    decimals = _check_decimals(decimals)
    marks = _marks(c)
    letter = {s: system_letters(k) for k, s in enumerate(c.systems)}
    means = c.means
    lines = [f"{len(c.systems)} runs, {c.n_queries} queries; {md_escape(_procedure_text(c))}", "",
             "| Run | " + " | ".join(md_escape(m) for m in c.measures) + " |",
             "|:---|" + "---:|" * len(c.measures)]
    for s in c.systems:
        name = (f"({letter[s]}) " if c.baseline is None else "") + md_escape(s)
        cells = [f"{means[m][s]:.{decimals}f}" + (f" {marks[m, s]}" if (m, s) in marks else "")
                 for m in c.measures]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", md_escape(_note(c)), "",
              "| Measure | Run | Other | Difference | Effect size | Interval | p |",
              "|:---|:---|:---|---:|---:|---:|---:|"]
    star = " \\*"
    for r in pair_rows(c):
        names = " | ".join(md_escape(r[key]) for key in ("measure", "system", "other"))
        lines.append(f"| {names} | "
                     f"{r['mean_difference']:+.{decimals}f} | {_signed(r['effect_size'])} | "
                     f"[{_signed(r['es_low'])}, {_signed(r['es_high'])}] | "
                     f"{format_p(r['pvalue_corrected'])}{star if r['significant'] else ''} |")
    return "\n".join(lines) + "\n"


def render_latex(c, *, decimals: int = 3, effect_sizes: bool = False,
                 caption: str | None = None, label: str = "tab:reteval-compare") -> str:
    r"""A ``table`` of the means for a paper: booktabs rules, a caption, a label, marks.

    Superscript letters (the runs a mean is significantly better than) or arrows
    (significantly above/below the baseline), the best mean in bold, ``decimals``
    decimals, and a note naming the test, the correction and alpha. With
    ``effect_sizes`` a second block lists every tested pair: the difference, the effect
    size ``difference / sqrt(V_E)`` with the test's interval, and the corrected p-value.
    The second line is a comment naming the packages the document needs:
    ``\usepackage{booktabs}``, and ``\usepackage{amssymb}`` for the arrows.

    Examples
    --------
    >>> from reteval import compare
    >>> qrels = {f"q{i}": {f"d{i}": 1} for i in range(4)}
    >>> runs = {"a": {f"q{i}": [f"d{i}"] for i in range(4)},
    ...         "b": {f"q{i}": ["x", "y", "z"][:i] + [f"d{i}"] for i in range(4)}}
    >>> tex = render_latex(compare(qrels, runs, ["RR"], rng=0), decimals=2)
    >>> print(tex.splitlines()[1])
    % needs \usepackage{booktabs}
    >>> print(next(line for line in tex.splitlines() if line.startswith("(a)")))
    (a) & a & \textbf{1.00} \\
    """
    c = _numbers(c)
    decimals = _check_decimals(decimals)
    marks = _marks(c)
    letter = {s: system_letters(k) for k, s in enumerate(c.systems)}
    means = c.means
    shown = {m: {s: f"{means[m][s]:.{decimals}f}" for s in c.systems} for m in c.measures}
    best = {m: max(c.systems, key=lambda s, m=m: means[m][s]) for m in c.measures}
    packages = r"\usepackage{booktabs}" + (r", \usepackage{amssymb}"
                                           if c.baseline is not None else "")
    if caption is None:
        caption = (f"{', '.join(c.measures)} of {len(c.systems)} runs over {c.n_queries} "
                   "queries.")
    ncol = 2 + len(c.measures)
    lines = [(f"% reteval compare: {len(c.systems)} runs, {c.n_queries} queries; "
              f"{tex_escape(_procedure_text(c))}"),
             f"% needs {packages}",
             r"\begin{table}[t]", r"\centering",
             rf"\caption{{{tex_escape(caption)}}}", rf"\label{{{label}}}",
             r"\begin{tabular}{ll" + "r" * len(c.measures) + "}", r"\toprule",
             " & Run & " + " & ".join(tex_escape(m) for m in c.measures) + r" \\",
             r"\midrule"]
    for s in c.systems:
        cells = [f"({letter[s]})" if c.baseline is None else "", tex_escape(s)]
        for m in c.measures:
            value = shown[m][s]
            cell = rf"\textbf{{{value}}}" if value == shown[m][best[m]] else value
            mark = marks.get((m, s))
            if mark:
                mark = {"▲": r"$\blacktriangle$", "▼": r"$\blacktriangledown$"}.get(mark, mark)
                cell += r"\textsuperscript{" + mark + "}"
            cells.append(cell)
        lines.append(" & ".join(cells) + r" \\")
    if effect_sizes:
        lines += [r"\midrule",
                  (rf"\multicolumn{{{ncol}}}{{l}}{{Pairs: difference, effect size [interval], "
                   r"corrected $p$} \\")]
        for r in pair_rows(c):
            star = "$^{*}$" if r["significant"] else ""
            lines.append(
                rf"\multicolumn{{{ncol}}}{{l}}{{{tex_escape(r['measure'])}: "
                rf"{tex_escape(r['system'])} $-$ {tex_escape(r['other'])}: "
                rf"{r['mean_difference']:+.{decimals}f}, {_signed(r['effect_size'])} "
                rf"[{_signed(r['es_low'])}, {_signed(r['es_high'])}], "
                rf"$p$ {tex_escape(format_p(r['pvalue_corrected']))}{star}}} \\")
    note = tex_escape(_note(c)).replace("▲/▼", r"$\blacktriangle$/$\blacktriangledown$")
    if effect_sizes:
        note += r"; $^{*}$ significant"
    lines += [r"\bottomrule", r"\end{tabular}",
              r"\par\smallskip\parbox{\linewidth}{\footnotesize \emph{Note.} " + note + "}",
              r"\end{table}"]
    return "\n".join(lines) + "\n"
