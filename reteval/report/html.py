"""The report as one self-contained HTML page: :func:`to_html`, its CSS and its PNG figures.

The page declares its language (``<html lang="zh-CN">`` or ``"en"``), uses a
font stack with CJK fonts, embeds the figures as base64 PNG and escapes every
piece of text with :func:`html.escape`.
"""

from __future__ import annotations

import base64
import html
import io

from reteval._util.catalogue import phrase
from reteval._util.languages import language
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
)

__all__ = ["png", "render_html", "to_html"]

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


def _h(text: tuple) -> str:
    return "".join(f"<strong>{html.escape(s)}</strong>" if bold else html.escape(s)
                   for s, bold in text if s)


def render_html(doc: list, title: str, images: dict[str, str], lang: str) -> str:
    """The blocks of :func:`~reteval.report.document.build_document` as an HTML page.

    ``images`` maps a figure's name to its base64 PNG; figures without one are left out.
    """
    body = []
    for block in doc:
        if isinstance(block, Heading):
            body.append(f"<h{block.level}>{_h(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            body.append(f"<p>{_h(block.text)}</p>")
        elif isinstance(block, Bullets):
            body.append("<ul>" + "".join(f"<li>{_h(i)}</li>" for i in block.items) + "</ul>")
        elif isinstance(block, Table):
            head = "".join(f"<th>{_h(h)}</th>" for h in block.header)
            rows = []
            for row in block.rows:
                cells = "".join(
                    f'<td class="num">{_h(cell)}</td>' if num else f"<td>{_h(cell)}</td>"
                    for cell, num in zip(row, block.numeric, strict=True))
                rows.append(f"<tr>{cells}</tr>")
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}"
                        "</tbody></table>")
        elif isinstance(block, Figure) and block.name in images:
            cap = html.escape(block.caption)
            body.append(f'<figure><img alt="{cap}" src="data:image/png;base64,'
                        f'{images[block.name]}"><figcaption>{cap}</figcaption></figure>')
    return (f"<!DOCTYPE html>\n<html lang=\"{language(lang).html_lang}\">\n<head>\n"
            "<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


def png(fig, dpi: int) -> bytes:
    """A matplotlib figure as PNG bytes."""
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
        :func:`reteval.report.figures.report_figures` ``(comparison)`` for the standard set
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
    check_report_arguments(comparison, digits, lang)
    figures = dict(figures or {})
    images = {name: base64.b64encode(png(fig, dpi)).decode("ascii")
              for name, fig in figures.items()}
    title = phrase("report.title", lang) if title is None else str(title)
    doc = build_document(comparison, title, digits, list(images), lang, check_history(history))
    return render_html(doc, title, images, lang)


