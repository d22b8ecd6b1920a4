r"""Markdown text: what would be read as markup, escaped.

Examples
--------
>>> print(md_escape("bm25 *v2* | <b>x</b> & p = 0.05 (sqrt(V_E))"))
bm25 \*v2\* \| \<b>x\</b> \& p = 0.05 (sqrt(V\_E))
>>> print(md_escape("1. run", line_start=True), md_escape("# run", line_start=True))
1\. run \# run
"""

import re

__all__ = ["md_escape"]

# What starts or ends markup inside a line: backslash escapes, code, emphasis, links and
# images, table cells, HTML tags and entities, strikethrough.
_SPECIAL = re.compile(r"([\\`*_\[\]<|~&])")

# What makes a line a heading, a quote, a list item or a rule when it starts the line: its
# first character, or the point or parenthesis after a number.
_BLOCK_START = re.compile(r"^( {0,3})(?:([#>+=-])|(\d{1,9})([.)]))")

# Every character that ends a line somewhere (CR alone splits a table row as LF does).
_LINE_BREAKS = re.compile(r"[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]+")


def md_escape(text, *, line_start: bool = False) -> str:
    """``text`` on one line, with every character that could start or end markup inside a
    line escaped, so that it reads as the text itself; with ``line_start``, also what would
    make the line a heading, a quote, a list item or a rule (a paragraph's or a list item's
    first words)."""
    text = _LINE_BREAKS.sub(" ", _SPECIAL.sub(r"\\\1", str(text)))
    if not line_start:
        return text
    return _BLOCK_START.sub(
        lambda m: m[1] + ("\\" + m[2] if m[2] else m[3] + "\\" + m[4]), text, count=1)
