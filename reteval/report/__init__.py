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

==================  ==========================================================
module              idea
==================  ==========================================================
``document``        the content as language-neutral blocks: tables, verdicts,
                    recommendation, history (every word from
                    :mod:`reteval._util.catalogue`)
``markdown``        :func:`to_markdown`
``html``            :func:`to_html`: a self-contained page
``latex``           :func:`to_latex`: a ``tabular`` for a paper
``files``           :func:`write_report`: the three files and the figures
``figures``         the figures of a comparison (matplotlib)
``ranked_figures``  one query's ranked list as a strip, several stacked
``means``           the means table alone, as ``reteval compare`` prints it (text,
                    JSON, CSV, Markdown, LaTeX)
``command``         ``reteval compare``: many run files against one qrels file
==================  ==========================================================

Every public name is loaded on first use (PEP 562).
"""

from reteval._util.lazy import lazy_names

__all__ = ["LANGUAGES", "to_html", "to_latex", "to_markdown", "write_report"]

__getattr__, __dir__ = lazy_names(__name__, {
    "LANGUAGES": "reteval._util.catalogue", "write_report": "reteval.report.files",
    "to_html": "reteval.report.html", "to_latex": "reteval.report.latex",
    "to_markdown": "reteval.report.markdown",
}, __all__)
