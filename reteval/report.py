"""The evaluation report of a :class:`reteval.comparison.Comparison`.

The chapter's ``generate_evaluation_report`` prints a table of means, the best
system per measure and the overall best. This report keeps that outline and
adds what a reader needs to trust it: intervals, the significance tests and
their correction, and an explicit statement when the best system is *not*
significantly better than the runner-up (then the ranking may be luck, and
the report says how many queries a real difference of that size would need).

Three renderings of one content:

* :func:`to_markdown` -- the report as Markdown;
* :func:`to_html` -- a self-contained HTML page (inline style, figures
  embedded as base64 PNG, every piece of text escaped with :func:`html.escape`);
* :func:`to_latex` -- a ``tabular`` fragment for a paper (``\\input`` it inside a
  ``table`` environment), means with superscript letters marking the systems
  each one is significantly better than, best values in bold.

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

from reteval.comparison import Comparison
from reteval.errors import InputError
from reteval.stats import minimum_detectable_difference, queries_needed

__all__ = ["to_html", "to_latex", "to_markdown", "write_report"]

_TEST_NAMES = {
    "t": "paired t test",
    "wilcoxon": "Wilcoxon signed-rank test",
    "randomization": "Fisher randomization test",
    "bootstrap": "paired bootstrap test",
}
_CORRECTION_NAMES = {
    "holm": "Holm",
    "bonferroni": "Bonferroni",
    "bh": "Benjamini-Hochberg",
    "none": "no",
}


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


def _names(items) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _method_sentence(c: Comparison) -> tuple:
    test = _TEST_NAMES.get(c.test, c.test)
    extra = f" with {c.n_resamples} resamples" if c.test in ("randomization", "bootstrap") else ""
    family = (f"each system against the baseline {c.baseline}" if c.baseline is not None
              else "every pair of systems")
    corr = _CORRECTION_NAMES.get(c.correction, c.correction)
    level = f"{100 * c.confidence_level:g}%"
    return _t(
        f"{c.n_queries} queries, {len(c.systems)} systems, {len(c.measures)} measures. "
        f"Significance: two-sided {test}{extra}, {family}, {corr} correction within each "
        f"measure, alpha = {c.alpha:g}. Intervals: {level} percentile bootstrap of the mean "
        f"({c.n_resamples} resamples)."
    )


def _best_items(c: Comparison, digits: int) -> list[tuple]:
    corr = _CORRECTION_NAMES.get(c.correction, c.correction)
    items = []
    for m in c.measures:
        b = c.best.loc[m]
        head = ((m,), ": ")
        mean = _fmt(b["mean"], digits)
        if b["status"] == "single":
            items.append(_t(*head, (b["system"],), f" ({mean}), the only system."))
        elif b["status"] == "tie":
            tied = [b["system"], *b["tied_with"]]
            items.append(_t(*head, f"tie between {_names(tied)} ({mean}); no single best system."))
        else:
            p_kind = f"{corr}-corrected p" if (b["in_family"] and c.correction != "none") \
                else ("p" if b["in_family"] else "p of a separate test, uncorrected")
            runner = f"{b['runner_up']} ({_fmt(b['runner_up_mean'], digits)})"
            p_value = _fmt_p(b["pvalue_corrected"])
            p_text = f"{p_kind} {p_value}" if p_value.startswith("<") else f"{p_kind} = {p_value}"
            if b["status"] == "significant":
                items.append(_t(*head, (b["system"],), f" ({mean}), significantly better than "
                                f"the runner-up {runner}: {p_text}."))
            else:
                items.append(_t(*head, (b["system"],), f" ({mean}), but not significantly "
                                f"better than the runner-up {runner}: {p_text} > alpha = "
                                f"{c.alpha:g}. The difference may be chance."))
    return items


def _recommendation(c: Comparison, digits: int) -> list[tuple]:
    if len(c.systems) == 1:
        return [_t(f"Only one system, {c.systems[0]}, was evaluated; nothing to compare.")]
    best = c.best
    decided = best[best["status"] != "tie"]
    wins = decided["system"].value_counts()
    sig_wins = decided[decided["significant"]]["system"].value_counts()
    n_m = len(c.measures)
    out = []
    if wins.empty:
        out.append(_t(f"Every measure ends in a tie; no system can be recommended over "
                      f"{'another' if len(c.systems) == 2 else 'the others'}."))
        return out
    top = wins.max()
    leaders = [s for s in c.systems if wins.get(s, 0) == top]
    if len(leaders) > 1:
        out.append(_t(f"No single system leads: {_names(leaders)} each have the highest mean "
                      f"on {top} of {n_m} measures."))
    else:
        leader = leaders[0]
        n_sig = int(sig_wins.get(leader, 0))
        if n_sig:
            out.append(_t("Recommended: ", (leader,), f". It has the highest mean on {top} of "
                          f"{n_m} measures and is significantly better than the runner-up on "
                          f"{n_sig} of them."))
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
            text = (f"Planning ({m}, {b['system']} vs {b['runner_up']}): the per-query "
                    f"differences have standard deviation {_fmt(sd, digits)}; with "
                    f"{c.n_queries} queries a paired t test at alpha = {c.alpha:g} detects a "
                    f"true difference of {_fmt(mdd, digits)} with 80% power.")
            observed = abs(float(diff.mean()))
            if observed > 0:
                need = queries_needed(observed, sd, alpha=c.alpha, power=0.8)
                text += (f" The observed difference, {_fmt(observed, digits)}, would need about "
                         f"{need} queries.")
            out.append(_t(text))
    return out


def _document(c: Comparison, title: str, digits: int, figures) -> list:
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
    doc = [
        _Heading(1, _t(title)),
        _Paragraph(_method_sentence(c)),
        _Heading(2, _t("Measures")),
        _Paragraph(_t(f"Mean per query with its {level} interval; the highest mean of each "
                      "measure in bold.")),
        _Table(header=(_t("System"), *[_t(m) for m in c.measures]), rows=tuple(rows),
               numeric=(False, *[True] * len(c.measures))),
        _Heading(2, _t("Best system per measure")),
        _Bullets(tuple(_best_items(c, digits))),
    ]
    if not c.pairwise.empty:
        prow = []
        for r in c.pairwise.itertuples(index=False):
            prow.append((_t(r.measure), _t(r.system), _t(r.other),
                         _t(f"{r.mean_difference:+.{digits}f}"),
                         _t(f"({_fmt(r.ci_low, digits)}, {_fmt(r.ci_high, digits)})"),
                         _t(_fmt(r.effect_size, 2)), _t(_fmt_p(r.pvalue)),
                         _t(_fmt_p(r.pvalue_corrected)),
                         _t(("yes",)) if r.significant else _t("no")))
        corr = _CORRECTION_NAMES.get(c.correction, c.correction)
        ci_note = {"t": "t interval of the mean difference",
                   "wilcoxon": "Hodges-Lehmann interval of the median difference",
                   "randomization": "interval by inverting the randomization test",
                   "bootstrap": "percentile bootstrap interval of the mean difference"}[c.test]
        doc += [
            _Heading(2, _t("Significance tests")),
            _Paragraph(_t(f"Difference = system - other. Interval: {level} {ci_note}. "
                          f"Effect size: Cohen's d_z. Corrected: {corr} within each measure.")),
            _Table(header=tuple(_t(h) for h in ("Measure", "System", "Other", "Difference",
                                                "Interval", "d_z", "p", "p corrected",
                                                "Significant")),
                   rows=tuple(prow),
                   numeric=(False, False, False, True, True, True, True, True, False)),
        ]
    doc += [_Heading(2, _t("Recommendation")), *[_Paragraph(p) for p in _recommendation(c, digits)]]
    if figures:
        doc.append(_Heading(2, _t("Figures")))
        captions = {
            "forest": "Mean of each system with its bootstrap interval, per measure.",
            "cutoff_curves": "Mean of each measure family against the rank cutoff k.",
            "differences": "Per-query differences against the reference system, sorted.",
            "distributions": "Distribution of per-query scores.",
        }
        for name in figures:
            doc.append(_Figure(name, captions.get(name, name)))
    return doc


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


def to_markdown(comparison: Comparison, *, title: str = "Retrieval evaluation report",
                digits: int = 4, figure_paths: dict[str, str] | None = None) -> str:
    """The report as Markdown.

    Parameters
    ----------
    comparison : Comparison
    title : str, keyword-only
    digits : int, keyword-only
        Decimals of scores.
    figure_paths : dict, optional, keyword-only
        Figure name -> relative path of a PNG to link (``write_report`` fills it).

    Examples
    --------
    >>> from reteval.comparison import compare
    >>> qrels = {f"q{i}": {f"d{i}": 1} for i in range(4)}
    >>> runs = {"a": {f"q{i}": [f"d{i}"] for i in range(4)},
    ...         "b": {f"q{i}": ["x", "y", "z"][:i] + [f"d{i}"] for i in range(4)}}
    >>> text = to_markdown(compare(qrels, runs, ["RR"], rng=0))
    >>> print(text.split("## Best system per measure")[1].split("##")[0].strip())
    - **RR**: **a** (1.0000), but not significantly better than the runner-up b (0.5208): Holm-corrected p = 0.0650 > alpha = 0.05. The difference may be chance.
    """
    _check(comparison, digits)
    figure_paths = figure_paths or {}
    doc = _document(comparison, str(title), digits, list(figure_paths))
    return _render_markdown(doc, figure_paths)


# --------------------------------------------------------------------------- HTML

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:72rem;margin:2rem auto;
padding:0 1rem;color:#1a1a1a;line-height:1.45}
table{border-collapse:collapse;margin:1rem 0;font-size:.92rem}
th,td{border-bottom:1px solid #ddd;padding:.3rem .6rem}th{background:#f4f4f4;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}
figure{margin:1.5rem 0}figure img{max-width:100%}figcaption{color:#555;font-size:.9rem}
"""


def _h(text: tuple) -> str:
    return "".join(f"<strong>{html.escape(s)}</strong>" if bold else html.escape(s)
                   for s, bold in text if s)


def _render_html(doc: list, title: str, images: dict[str, str]) -> str:
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
                    for cell, num in zip(row, block.numeric))
                rows.append(f"<tr>{cells}</tr>")
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}"
                        "</tbody></table>")
        elif isinstance(block, _Figure) and block.name in images:
            cap = html.escape(block.caption)
            body.append(f'<figure><img alt="{cap}" src="data:image/png;base64,'
                        f'{images[block.name]}"><figcaption>{cap}</figcaption></figure>')
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


def _png_base64(fig, dpi: int) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def to_html(comparison: Comparison, *, title: str = "Retrieval evaluation report",
            digits: int = 4, figures=None, dpi: int = 100) -> str:
    """The report as one self-contained HTML page.

    Parameters
    ----------
    comparison : Comparison
    title : str, keyword-only
    digits : int, keyword-only
    figures : mapping of name to matplotlib Figure, optional, keyword-only
        Embedded as base64 PNG, in order. Default: none; pass
        :func:`reteval.plots.report_figures` ``(comparison)`` for the standard set.
    dpi : int, keyword-only

    Examples
    --------
    >>> from reteval.comparison import compare
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> runs = {"<b>": {"q1": ["d1"], "q2": ["d2"]}, "b": {"q1": ["x", "d1"], "q2": ["d2"]}}
    >>> page = to_html(compare(qrels, runs, ["RR"], rng=0))
    >>> "<td>&lt;b&gt;</td>" in page and "<b>" not in page
    True
    """
    _check(comparison, digits)
    figures = dict(figures or {})
    images = {name: _png_base64(fig, dpi) for name, fig in figures.items()}
    doc = _document(comparison, str(title), digits, list(images))
    return _render_html(doc, str(title), images)


# --------------------------------------------------------------------------- LaTeX

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
}


def _tex(text) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text))


def _letters(k: int) -> str:
    out = ""
    k += 1
    while k:
        k, r = divmod(k - 1, 26)
        out = chr(ord("a") + r) + out
    return out


def to_latex(comparison: Comparison, *, digits: int = 3) -> str:
    r"""A LaTeX ``tabular`` of mean scores with significance superscripts.

    One row per system, one column per measure. Each system gets a letter
    (a, b, c, ...); a mean carries the letters of the systems it is
    significantly better than on that measure (corrected p-value <= alpha,
    among the comparisons that were tested: all pairs, or each system against
    the baseline). The highest mean of each measure is bold. A last row
    explains the marks. Needs no LaTeX package beyond the kernel; all text is
    escaped.

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
    \multicolumn{3}{l}{\footnotesize Superscript: significantly better than that system (Holm-corrected p $\leq$ 0.05).} \\
    \end{tabular}
    """
    _check(comparison, digits)
    c = comparison
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
    test = _TEST_NAMES.get(c.test, c.test)
    lines = [
        (f"% reteval comparison: {c.n_queries} queries; {_tex(test)}, {_tex(corr)} correction, "
         f"alpha = {c.alpha:g}"),
        r"\begin{tabular}{ll " + "r" * len(c.measures) + "}",
        r"\hline",
        " & System & " + " & ".join(_tex(m) for m in c.measures) + r" \\",
        r"\hline",
    ]
    for s in c.systems:
        cells = [f"({letter[s]})", _tex(s)]
        for m in c.measures:
            value = _fmt(float(table.loc[(m, s), "mean"]), digits)
            cell = rf"\textbf{{{value}}}" if (m, s) in best_cells else value
            losers = sorted(better.get((m, s), []), key=list(c.systems).index)
            if losers:
                cell += r"\textsuperscript{" + ",".join(letter[x] for x in losers) + "}" \
                    if any(len(letter[x]) > 1 for x in losers) else \
                    r"\textsuperscript{" + "".join(letter[x] for x in losers) + "}"
            cells.append(cell)
        lines.append(" & ".join(cells) + r" \\")
    lines.append(r"\hline")
    kind = f"{_tex(corr)}-corrected p" if c.correction != "none" else "p"
    lines.append(rf"\multicolumn{{{n_cols}}}{{l}}{{\footnotesize Superscript: significantly "
                 rf"better than that system ({kind} $\leq$ {c.alpha:g}).}} \\")
    lines.append(r"\end{tabular}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- files


def _check(comparison, digits) -> None:
    if not isinstance(comparison, Comparison):
        raise InputError(
            f"expected a reteval.comparison.Comparison; got {type(comparison).__name__}"
        )
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 12:
        raise InputError(f"digits must be an integer from 0 to 12; got {digits!r}")


def write_report(comparison: Comparison, output_dir, *, title: str = "Retrieval evaluation report",
                 measure: str | None = None, digits: int = 4, dpi: int = 100) -> dict[str, Path]:
    """Write ``report.md``, ``report.html``, ``report.tex`` and ``figures/*.png``.

    Parameters
    ----------
    comparison : Comparison
        The result of :func:`reteval.comparison.compare`.
    output_dir : path
        Created if needed; existing report files are overwritten.
    title : str, keyword-only
    measure : str, optional, keyword-only
        Measure of the per-query figures (default: the first measure).
    digits : int, keyword-only
        Decimals in Markdown and HTML (LaTeX uses ``digits - 1``, at least 1).
    dpi : int, keyword-only
        Resolution of the PNG figures.

    Returns
    -------
    dict
        Path relative to ``output_dir`` (``"report.md"``, ``"figures/forest.png"``,
        ...) -> absolute :class:`pathlib.Path`.

    Examples
    --------
    >>> import tempfile
    >>> from reteval.comparison import compare
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> runs = {"a": {"q1": ["d1"], "q2": ["x", "d2"]}, "b": {"q1": ["x", "d1"], "q2": ["d2"]}}
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     paths = write_report(compare(qrels, runs, ["P@1", "RR"], rng=0), tmp)
    ...     sorted(paths)
    ['figures/differences.png', 'figures/distributions.png', 'figures/forest.png', 'report.html', 'report.md', 'report.tex']
    """
    from reteval.plots import report_figures  # plots import matplotlib; keep it lazy

    _check(comparison, digits)
    out = Path(output_dir).resolve()
    (out / "figures").mkdir(parents=True, exist_ok=True)
    figures = report_figures(comparison, measure=measure)
    paths: dict[str, Path] = {}
    images = {}
    for name, fig in figures.items():
        rel = f"figures/{name}.png"
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi)
        (out / rel).write_bytes(buf.getvalue())
        images[name] = base64.b64encode(buf.getvalue()).decode("ascii")
        paths[rel] = out / rel
    title = str(title)
    doc = _document(comparison, title, digits, list(figures))
    files = {
        "report.md": _render_markdown(doc, {n: f"figures/{n}.png" for n in figures}),
        "report.html": _render_html(doc, title, images),
        "report.tex": to_latex(comparison, digits=max(1, digits - 1)) + "\n",
    }
    for rel, text in files.items():
        (out / rel).write_text(text, encoding="utf-8")
        paths[rel] = out / rel
    return dict(sorted(paths.items()))
