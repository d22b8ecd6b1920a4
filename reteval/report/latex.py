"""The report's table of means for a paper: :func:`to_latex`, a ``tabular`` with significance marks.

The Chinese edition needs XeLaTeX (or LuaLaTeX) with the ``ctex`` package (or
``xeCJK``); pdfLaTeX cannot set it.
"""

from __future__ import annotations

from reteval._util.catalogue import phrase, phrases
from reteval._util.latex import system_letters, tex_escape
from reteval.comparison.result import Comparison
from reteval.errors import InputError
from reteval.report.document import CORRECTION_NAMES, check_report_arguments, fmt, p_label

__all__ = ["to_latex"]

_LATEX_NEEDS_CJK = ("% 本表含中文：请用 XeLaTeX（或 LuaLaTeX）编译，"
                    "并在导言区加载 ctex（或 xeCJK）宏包。")


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
    check_report_arguments(comparison, digits, lang)
    if not isinstance(standalone, bool):
        raise InputError(f"standalone must be True or False; got {standalone!r}")
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
    if zh:
        head = [_LATEX_NEEDS_CJK,
                f"% reteval 对比：{c.n_queries} 个查询；{tex_escape(test)}，"
                + (f"{tex_escape(corr)} 校正" if corr else "未校正") + f"，α = {c.alpha:g}"]
    else:
        head = [f"% reteval comparison: {c.n_queries} queries; {tex_escape(test)}, "
                + (f"{tex_escape(corr)} correction" if corr else "no correction")
                + f", alpha = {c.alpha:g}"]
    lines = [
        *head,
        r"\begin{tabular}{ll " + "r" * len(c.measures) + "}",
        r"\hline",
        f" & {phrase('report.system', lang)} & "
        + " & ".join(tex_escape(m) for m in c.measures) + r" \\",
        r"\hline",
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
    lines.append(r"\hline")
    kind = tex_escape(p_label(c, True, lang))
    legend = (f"上标：显著优于该检索器（{kind} $\\leq$ {c.alpha:g}）。" if zh
              else f"Superscript: significantly better than that system ({kind} $\\leq$ "
                   f"{c.alpha:g}).")
    lines.append(rf"\multicolumn{{{n_cols}}}{{l}}{{\footnotesize {legend}}} \\")
    lines.append(r"\end{tabular}")
    if standalone:
        caption = tex_escape(phrase("report.title", lang) if title is None else title)
        cls = [r"% 用 XeLaTeX 编译：xelatex report.tex", r"\documentclass[UTF8]{ctexart}"] if zh \
            else [r"\documentclass{article}"]
        lines = [*cls, r"\begin{document}", r"\begin{table}[htbp]", r"\centering",
                 rf"\caption{{{caption}}}", *lines[len(head):], r"\end{table}",
                 r"\end{document}"]
    return "\n".join(lines)


