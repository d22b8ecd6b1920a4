"""The report on disk: :func:`write_report` writes the Markdown, HTML and LaTeX files, figures."""

from __future__ import annotations

import base64
from pathlib import Path

from reteval._util.catalogue import phrase
from reteval.comparison.result import Comparison
from reteval.report.document import build_document, check_history, check_report_arguments
from reteval.report.html import png, render_html
from reteval.report.latex import to_latex
from reteval.report.markdown import render_markdown

__all__ = ["write_report"]


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
    from reteval.report.figures import report_figures  # plots import matplotlib; keep it lazy

    check_report_arguments(comparison, digits, lang)
    out = Path(output_dir).resolve()
    (out / "figures").mkdir(parents=True, exist_ok=True)
    frame = check_history(history)
    figures = dict(report_figures(comparison, measure=measure, lang=lang))
    if trend is not None:
        figures["trend"] = trend
    paths: dict[str, Path] = {}
    images = {}
    for name, fig in figures.items():
        rel = f"figures/{name}.png"
        data = png(fig, dpi)
        (out / rel).write_bytes(data)
        images[name] = base64.b64encode(data).decode("ascii")
        paths[rel] = out / rel
    title = phrase("report.title", lang) if title is None else str(title)
    doc = build_document(comparison, title, digits, list(images), lang, frame)
    files = {
        "report.md": render_markdown(doc, {n: f"figures/{n}.png" for n in images}),
        "report.html": render_html(doc, title, images, lang),
        "report.tex": to_latex(comparison, digits=max(1, digits - 1), lang=lang) + "\n",
    }
    for rel, text in files.items():
        (out / rel).write_text(text, encoding="utf-8")
        paths[rel] = out / rel
    return dict(sorted(paths.items()))
