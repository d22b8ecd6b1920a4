"""The evaluation report of a :class:`reteval.comparison.Comparison`, in Chinese or English."""

from reteval.report.document import LANGUAGES, to_html, to_latex, to_markdown, write_report

__all__ = ["LANGUAGES", "to_html", "to_latex", "to_markdown", "write_report"]
