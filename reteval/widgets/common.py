"""What the explorers share: the HTML style, argument checks, and the text fallback."""

from __future__ import annotations

import html
from collections.abc import Mapping

import ipywidgets as widgets
import numpy as np
import pandas as pd

from reteval._util.catalogue import phrase
from reteval.errors import InputError
from reteval.io import as_run, sort_run

__all__ = ["Displayable", "check_int", "check_runs"]

STYLE = (
    "<style>"
    ".reteval-w table{border-collapse:collapse;font-size:12px}"
    ".reteval-w td,.reteval-w th{padding:1px 6px;text-align:right;border-bottom:1px solid #ddd;"
    "white-space:nowrap}"
    ".reteval-w td.l,.reteval-w th.l{text-align:left}"
    ".reteval-w .out{color:#999}"
    ".reteval-w .rel{color:#17702f;font-weight:bold}"
    ".reteval-w .non{color:#a33}"
    ".reteval-w .unj{color:#999}"
    ".reteval-w .formula{font-family:monospace;white-space:pre;margin:1px 0}"
    "</style>"
)


def check_int(value, name: str, *, minimum: int) -> int:
    """``value`` as an int of at least ``minimum``, else an InputError naming ``name``.

    Examples
    --------
    >>> check_int(0, "k", minimum=1)
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: k must be an integer >= 1; got 0
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise InputError(f"{name} must be an integer >= {minimum}; got {value!r}")
    return int(value)


class Displayable:
    """Display the explorer's widget, with :meth:`text` as the fallback of other front ends."""

    widget: widgets.Widget
    lang: str = "en"

    def text(self) -> str:
        """What the explorer shows now, as plain text."""
        raise NotImplementedError

    def _fallback_html(self, text: str) -> str:
        return f"<pre>{html.escape(text)}</pre>"

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        text = self.text()
        bundle["text/plain"] = text
        bundle["text/html"] = (f"<div class='reteval-w reteval-fallback'><p><em>"
                               f"{html.escape(phrase('widgets.live_note', self.lang))}</em></p>"
                               f"{self._fallback_html(text)}</div>")
        return bundle


def check_runs(runs) -> dict[str, pd.DataFrame]:
    """System name -> run sorted in trec_eval's order, from a non-empty mapping of runs.

    Examples
    --------
    >>> list(check_runs({"a": {"q1": ["d1"]}}))
    ['a']
    """
    if not isinstance(runs, Mapping) or not runs:
        raise InputError(f"runs must be a non-empty mapping of system name -> run; got {runs!r}")
    return {str(name): sort_run(as_run(run)) for name, run in runs.items()}

