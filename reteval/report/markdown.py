"""The report as Markdown: :func:`to_markdown` and the renderer of the document's blocks."""

from __future__ import annotations

import re

from reteval._util.catalogue import phrase
from reteval._util.markdown import md_escape
from reteval.comparison.result import Comparison
from reteval.report.document import (
    Bullets,
    Figure,
    Heading,
    Paragraph,
    Table,
    build_document,
    check_history,
    check_report_arguments,
    select_sections,
)

__all__ = ["render_markdown", "to_markdown"]


def _md_text(text: tuple, *, line_start: bool = False) -> str:
    """Runs of (text, bold) as Markdown; with ``line_start``, the first cannot open a block."""
    parts = [(s, bold) for s, bold in text if s]
    return "".join(f"**{md_escape(s)}**" if bold else md_escape(s, line_start=line_start and not i)
                   for i, (s, bold) in enumerate(parts))


def _heading_text(text: tuple) -> str:
    """A heading's text: a ``#`` at its end would be read as the heading's closing mark."""
    return re.sub(r"#(#*\s*)$", r"\\#\1", _md_text(text))


def render_markdown(doc: list, figure_paths: dict[str, str]) -> str:
    """The blocks of :func:`~reteval.report.document.build_document` as Markdown.

    ``figure_paths`` maps a figure's name to the path the Markdown links; figures
    without a path are left out.
    """
    out = []
    for block in doc:
        if isinstance(block, Heading):
            out.append("#" * block.level + " " + _heading_text(block.text))
        elif isinstance(block, Paragraph):
            out.append(_md_text(block.text, line_start=True))
        elif isinstance(block, Bullets):
            out.append("\n".join("- " + _md_text(item, line_start=True) for item in block.items))
        elif isinstance(block, Table):
            lines = ["| " + " | ".join(_md_text(h) for h in block.header) + " |",
                     "|" + "|".join("---:" if num else ":---" for num in block.numeric) + "|"]
            lines += ["| " + " | ".join(_md_text(cell) for cell in row) + " |"
                      for row in block.rows]
            out.append("\n".join(lines))
        elif isinstance(block, Figure) and block.name in figure_paths:
            out.append(f"![{md_escape(block.caption)}]({figure_paths[block.name]})")
    return "\n\n".join(out) + "\n"


def to_markdown(comparison: Comparison, *, title: str | None = None, digits: int = 4,
                figure_paths: dict[str, str] | None = None, lang: str = "en",
                history=None, sections=None) -> str:
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
    sections : list of str, optional, keyword-only
        Only these sections after the title and method sentence, e.g. ``["advice"]`` for
        the recommendation alone (a pull-request comment, a notebook that showed the
        tables already): names of :data:`reteval.report.document.SECTIONS` (``"measures"``,
        ``"best"``, ``"tests"``, ``"many"``, ``"advice"``, ``"history"``, ``"figures"``).
        Default: every section.

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
    - **RR †** (mean reciprocal rank, MRR): **a** (1.0000), but not significantly better than
    the runner-up b (0.5208): Holm-corrected p = 0.0650 > alpha = 0.05. The difference may be
    chance. († compared at unequal depths.)
    >>> print(to_markdown(result, lang="zh")
    ...       .split("## 各指标的最佳检索器")[1].split("##")[0].strip())
    - **RR †**（平均倒数排名 MRR）：**a**（1.0000），高于第二名 b（0.5208），但差异不显著：Holm
    校正后 p = 0.0650 > α = 0.05。这一差异可能只是偶然。（† 在不同深度下比较。）
    >>> print(to_markdown(result, sections=["advice"]).splitlines()[4])
    ## Recommendation
    """
    check_report_arguments(comparison, digits, lang)
    figure_paths = figure_paths or {}
    title = phrase("report.title", lang) if title is None else str(title)
    doc = build_document(comparison, title, digits, list(figure_paths), lang,
                    check_history(history))
    if sections is not None:
        doc = select_sections(doc, sections, lang)
    return render_markdown(doc, figure_paths)


