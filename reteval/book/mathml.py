"""Formulas of Markdown, ``$...$`` and ``$$...$$``, as MathML, which a browser draws itself.

The conversion is latex2mathml's (an optional dependency); without it the text stays as it is.
"""

from __future__ import annotations

import html
import re

__all__ = ["math_to_mathml"]

_CODE = re.compile(r"(```.*?```|~~~.*?~~~|`[^`\n]*`)", re.DOTALL)
_MATH = re.compile(r"\$\$(.+?)\$\$|\$([^$\n]+?)\$", re.DOTALL)


def _converter():
    try:
        from latex2mathml.converter import convert_to_element
    except ImportError:
        return None
    from xml.etree.ElementTree import tostring

    def convert(tex: str, display: str) -> str:
        # latex2mathml's own convert() unescapes its whole output, so that the text of
        # \text{<script>} would be a tag: serialise escaped, keeping its character references.
        xml = tostring(convert_to_element(tex, display=display), encoding="unicode")
        return re.sub(r"&amp;(#x?[0-9a-fA-F]+;)", r"&\1", xml)

    return convert


def math_to_mathml(markdown: str) -> str:
    """Markdown with ``$...$`` and ``$$...$$`` replaced by MathML (code spans untouched).

    TeX that cannot be converted is shown as code. Without ``latex2mathml``
    installed, the text is returned unchanged.

    Examples
    --------
    >>> math_to_mathml("R@K = $x^2$ and `$not math$`")  # doctest: +ELLIPSIS
    'R@K = <math display="inline">...<msup><mi>x</mi><mn>2</mn></msup>...</math> and `$not math$`'
    """
    convert = _converter()
    if convert is None:
        return markdown

    def replace(match):
        block = match.group(1) is not None
        tex = match.group(1) if block else match.group(2)
        try:
            out = convert(tex.strip(), display="block" if block else "inline")
        except Exception:  # noqa: BLE001  (latex2mathml raises many kinds on TeX it does not know)
            return f"<code>{html.escape(match.group(0))}</code>"
        return out.replace(' xmlns="http://www.w3.org/1998/Math/MathML"', "")

    parts = _CODE.split(markdown)
    return "".join(part if i % 2 else _MATH.sub(replace, part) for i, part in enumerate(parts))
