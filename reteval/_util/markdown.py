r"""Markdown text: what would be read as markup, escaped.

Examples
--------
>>> print(md_escape("bm25 *v2* | <b>x</b> & p = 0.05 (sqrt(V_E))"))
bm25 \*v2\* \| \<b>x\</b> \& p = 0.05 (sqrt(V\_E))
"""

import re

__all__ = ["md_escape"]

# What starts or ends markup inside a line: backslash escapes, code, emphasis, links and
# images, table cells, HTML tags and entities, strikethrough. Other punctuation (a point,
# a hyphen, parentheses) is markup only at the start of a line, where this text never is.
_SPECIAL = re.compile(r"([\\`*_\[\]<|~&])")

# Every character that ends a line somewhere (CR alone splits a table row as LF does).
_LINE_BREAKS = re.compile(r"[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]+")


def md_escape(text) -> str:
    """``text`` on one line (a table cell or a paragraph), with every character that could
    start or end markup inside a line escaped, so that it reads as the text itself."""
    return _LINE_BREAKS.sub(" ", _SPECIAL.sub(r"\\\1", str(text)))
