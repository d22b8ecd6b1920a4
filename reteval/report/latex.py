"""The report's table of means for a paper: :func:`to_latex`, a booktabs ``table`` with marks.

The Chinese edition needs XeLaTeX (or LuaLaTeX) with the ``ctex`` package (or
``xeCJK``); pdfLaTeX cannot set it.
"""

from __future__ import annotations

from reteval._util.catalogue import phrase, phrases
from reteval._util.latex import system_letters, tex_escape
from reteval.comparison.result import Comparison
from reteval.errors import InputError
from reteval.report.document import CORRECTION_NAMES, check_report_arguments, fmt, p_label
from reteval.report.means import format_p, pair_rows

__all__ = ["to_latex"]

_LATEX_NEEDS_CJK = ("% 本表含中文：请用 XeLaTeX（或 LuaLaTeX）编译，"
                    "并在导言区加载 ctex（或 xeCJK）宏包。")


def to_latex(comparison: Comparison, *, digits: int = 3, lang: str = "en",
             standalone: bool = False, title: str | None = None,
             label: str = "tab:reteval-comparison", effect_sizes: bool = False) -> str:
    r"""A LaTeX ``table`` of mean scores with significance superscripts, for a paper.

    One row per system, one column per measure, between booktabs rules. Each system
    gets a letter (a, b, c, ...); a mean carries the letters of the systems it is
    significantly better than on that measure (corrected p-value <= alpha, among the
    comparisons that were tested: all pairs, or each system against the baseline). The
    highest mean of each measure is bold, every mean has ``digits`` decimals. A note
    under the rules names the test, the correction and alpha. ``effect_sizes=True``
    adds every tested pair: its effect size ``(mean_i - mean_j) / sqrt(V_E)`` with the
    test's interval in the same units, and its corrected p-value. The float has a
    caption (``title``; by default the measures, systems and queries, or the report's
    title when ``standalone``) and ``label``.
    All text is escaped.

    The table needs ``\usepackage{booktabs}`` (a comment line says so). The Chinese
    one (``lang="zh"``) also needs XeLaTeX or LuaLaTeX with the ``ctex`` package
    (``\documentclass[UTF8]{ctexart}``, or ``\usepackage{xeCJK}`` with a CJK font);
    its first line says so. ``standalone=True`` wraps the table in a whole document
    (``article``, or ``ctexart`` for Chinese: compile it with ``xelatex``).

    Examples
    --------
    >>> from reteval.comparison import compare
    >>> qrels = {f"q{i}": {f"d{i}": 1} for i in range(4)}
    >>> runs = {"a": {f"q{i}": [f"d{i}"] for i in range(4)},
    ...         "b_2": {f"q{i}": ["x", f"d{i}"] for i in range(4)}}
    >>> print(to_latex(compare(qrels, runs, ["RR"], rng=0)))
    % reteval comparison: 4 queries; paired t test, Holm correction, alpha = 0.05
    % needs \usepackage{booktabs}
    \begin{table}[htbp]
    \centering
    \caption{RR of 2 systems over 4 queries}
    \label{tab:reteval-comparison}
    \begin{tabular}{llr}
    \toprule
     & System & RR \\
    \midrule
    (a) & a & \textbf{1.000}\textsuperscript{b} \\
    (b) & b\_2 & 0.500 \\
    \bottomrule
    \multicolumn{3}{l}{\footnotesize Superscript: significantly better than that system
    (paired t test, Holm-corrected p $\leq$ 0.05).} \\
    \end{tabular}
    \end{table}
    >>> "上标：显著优于该检索器（配对 t 检验，Holm 校正后 p" in to_latex(
    ...     compare(qrels, runs, ["RR"], rng=0), lang="zh")
    True
    """
    check_report_arguments(comparison, digits, lang)
    for value, name in ((standalone, "standalone"), (effect_sizes, "effect_sizes")):
        if not isinstance(value, bool):
            raise InputError(f"{name} must be True or False; got {value!r}")
    if not isinstance(label, str) or not label.strip() or any(ch in label for ch in "{}\\%#"):
        raise InputError(f"label must be a non-empty LaTeX label without braces; got {label!r}")
    c = comparison
    zh = lang == "zh"
    letter = {s: system_letters(k) for k, s in enumerate(c.systems)}
    better: dict[tuple[str, str], list[str]] = {}
    for r in c.pairwise.itertuples(index=False):
        if r.significant and r.mean_difference != 0:
            winner, loser = (r.system, r.other) if r.mean_difference > 0 else (r.other, r.system)
            better.setdefault((r.measure, winner), []).append(loser)
    table = c.table.set_index(["measure", "system"])
    best_cells = {(m, s) for m in c.measures
                  for s in (c.best.loc[m, "system"], *c.best.loc[m, "tied_with"])}
    n_cols = 2 + len(c.measures)
    corr = CORRECTION_NAMES.get(c.correction, c.correction)
    test = phrases("report.test.", lang).get(c.test, c.test)
    measures = tex_escape(("、" if zh else ", ").join(c.measures))
    if zh:
        head = [_LATEX_NEEDS_CJK,
                f"% reteval 对比：{c.n_queries} 个查询；{tex_escape(test)}，"
                + (f"{tex_escape(corr)} 校正" if corr else "未校正") + f"，α = {c.alpha:g}",
                r"% 需要 \usepackage{booktabs} 宏包"]
        caption = f"{len(c.systems)} 个检索器在 {c.n_queries} 个查询上的 {measures}"
    else:
        head = [f"% reteval comparison: {c.n_queries} queries; {tex_escape(test)}, "
                + (f"{tex_escape(corr)} correction" if corr else "no correction")
                + f", alpha = {c.alpha:g}", r"% needs \usepackage{booktabs}"]
        caption = f"{measures} of {len(c.systems)} systems over {c.n_queries} queries"
    if title is not None or standalone:  # a document's table is captioned by its title
        caption = tex_escape(phrase("report.title", lang) if title is None else title)
    lines = [
        r"\begin{tabular}{ll" + "r" * len(c.measures) + "}",
        r"\toprule",
        f" & {phrase('report.system', lang)} & "
        + " & ".join(tex_escape(m) for m in c.measures) + r" \\",
        r"\midrule",
    ]
    for s in c.systems:
        cells = [f"({letter[s]})", tex_escape(s)]
        for m in c.measures:
            value = fmt(float(table.loc[(m, s), "mean"]), digits)
            cell = rf"\textbf{{{value}}}" if (m, s) in best_cells else value
            losers = sorted(better.get((m, s), []), key=list(c.systems).index)
            if losers:
                sep = "," if any(len(letter[x]) > 1 for x in losers) else ""
                cell += r"\textsuperscript{" + sep.join(letter[x] for x in losers) + "}"
            cells.append(cell)
        lines.append(" & ".join(cells) + r" \\")
    if effect_sizes and c.numbers is not None and c.numbers.pairs:
        header = phrase("report.effect_header", lang)
        lines += [r"\midrule", rf"\multicolumn{{{n_cols}}}{{l}}{{"
                  + tex_escape(" / ".join(header)) + r"} \\"]
        for r in pair_rows(c.numbers):
            lines.append(
                rf"\multicolumn{{{n_cols}}}{{l}}{{{tex_escape(r['measure'])}: "
                rf"{tex_escape(r['system'])} / {tex_escape(r['other'])}: "
                rf"{fmt(r['effect_size'], 2)} [{fmt(r['es_low'], 2)}, {fmt(r['es_high'], 2)}], "
                rf"p = {tex_escape(format_p(r['pvalue_corrected']))}}} \\")
    lines.append(r"\bottomrule")
    kind = tex_escape(p_label(c, True, lang))
    legend = (f"上标：显著优于该检索器（{tex_escape(test)}，{kind} $\\leq$ {c.alpha:g}）。" if zh
              else f"Superscript: significantly better than that system ({tex_escape(test)}, "
                   f"{kind} $\\leq$ {c.alpha:g}).")
    lines.append(rf"\multicolumn{{{n_cols}}}{{l}}{{\footnotesize {legend}}} \\")
    lines.append(r"\end{tabular}")
    lines = [r"\begin{table}[htbp]", r"\centering", rf"\caption{{{caption}}}",
             rf"\label{{{label}}}", *lines, r"\end{table}"]
    if standalone:
        cls = [r"% 用 XeLaTeX 编译：xelatex report.tex", r"\documentclass[UTF8]{ctexart}"] if zh \
            else [r"\documentclass{article}"]
        return "\n".join([*cls, r"\usepackage{booktabs}", r"\begin{document}", *lines,
                          r"\end{document}"])
    return "\n".join([*head, *lines])
