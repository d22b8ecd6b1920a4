"""HTML re-written from an allow-list of tags, attributes and addresses.

A notebook's content is not trusted: :func:`sanitise` keeps only what is known to be
harmless, so nothing on a page of the book runs or loads from the network.
"""

from __future__ import annotations

import html
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

__all__ = ["is_inside", "sanitise"]


def is_inside(path: Path, folder: Path) -> bool:
    """``path`` (followed through links) lies in ``folder`` (not beside or above it).

    Examples
    --------
    >>> is_inside(Path("/book/zh/../linked/a.png"), Path("/book")), is_inside(
    ...     Path("/book/../etc/passwd"), Path("/book"))
    (True, False)
    """
    return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))


def _words(text: str) -> frozenset:
    return frozenset(text.split())


_HTML_TAGS = _words("""
a abbr b blockquote br caption cite code col colgroup dd del details dfn div dl dt em figcaption
figure h1 h2 h3 h4 h5 h6 hr i img ins kbd li mark ol p pre q s samp section small span strong sub
summary sup table tbody td tfoot th thead tr tt u ul var wbr
""")
_MATH_TAGS = _words("""
math annotation maligngroup malignmark menclose merror mfenced mfrac mi mmultiscripts mn mo mover
mpadded mphantom mprescripts mroot mrow ms mspace msqrt mstyle msub msubsup msup mtable mtd mtext
mtr munder munderover none semantics
""")
_VOID_TAGS = frozenset({"br", "col", "hr", "img", "wbr"})
# Dropped with everything inside them (the rest of an unknown tag's content stays, as text).
_DROPPED_TAGS = _words("""
script style iframe frame frameset object embed applet template noscript noembed noframes
textarea title xmp plaintext select svg canvas video audio head base link meta form
""")
_ATTRIBUTES = frozenset({"class", "id", "lang", "dir", "title", "role", "align", "valign",
                         "width", "height", "style", "aria-label", "aria-hidden"})
_TAG_ATTRIBUTES = {
    "a": {"href", "rel", "hreflang"}, "img": {"src", "alt"},
    "td": {"colspan", "rowspan", "headers", "scope"},
    "th": {"colspan", "rowspan", "headers", "scope", "abbr"},
    "ol": {"start", "type", "reversed"}, "col": {"span"}, "colgroup": {"span"},
    "details": {"open"}, "table": {"border", "cellpadding", "cellspacing"},
}
_MATH_ATTRIBUTES = _words("""
display mathvariant mathsize mathcolor mathbackground stretchy fence separator separators lspace
rspace columnalign columnspacing columnlines columnwidth rowalign rowspacing rowlines frame
equalrows equalcolumns displaystyle scriptlevel accent accentunder movablelimits linethickness
minsize maxsize symmetric depth voffset notation form largeop encoding open close bevelled
numalign denomalign
""")
_CSS_PROPERTIES = _words("""
color background-color text-align vertical-align font-weight font-style font-size font-family
text-decoration white-space width height min-width max-width padding padding-left padding-right
padding-top padding-bottom margin margin-left margin-right margin-top margin-bottom border
border-left border-right border-top border-bottom border-color border-style border-width
border-collapse border-spacing display line-height opacity text-transform
""")
_CSS_VALUE = re.compile(r"""(?:[#\w\s.,%+'"-]|(?:rgba?|hsla?)\([\d\s.,%]*\))*""")
_IMAGE_DATA = re.compile(r"data:image/(?:png|jpeg|gif|webp|svg\+xml)(?:;[\w=.+-]+)*,",
                         re.IGNORECASE)


def _safe_style(value: str) -> str:
    """Only the declarations of a style attribute that change how text and tables look."""
    kept = []
    for declaration in value.split(";"):
        name, colon, text = declaration.partition(":")
        name, text = name.strip().lower(), text.strip()
        if colon and name in _CSS_PROPERTIES and _CSS_VALUE.fullmatch(text):
            kept.append(f"{name}: {text}")
    return "; ".join(kept)


class _Sanitiser(HTMLParser):
    """Re-writes HTML from an allow-list: nothing runs and nothing loads from the network.

    Every tag, attribute and address is either known to be harmless or dropped:
    no script, no ``on*`` attribute, no style sheet, no frame, no address with a
    scheme but ``http(s)`` and ``mailto`` links, and no image but ``data:``
    images and files in the book's folder. Text is escaped again, tags are
    balanced: the page is what the browser reads.
    """

    def __init__(self, page_dir: Path, root: Path):
        super().__init__(convert_charrefs=True)
        self.page_dir, self.root = page_dir, root
        self.out, self.open, self.skip = [], [], []

    def _local(self, url: str) -> bool:
        """A relative address of a file inside the book's folder."""
        if url.startswith(("/", "\\")) or "\\" in url or ":" in url.split("/")[0]:
            return False
        path = unquote(urlsplit(url).path)
        target = Path(os.path.normpath(self.page_dir / path)) if path else self.page_dir
        return is_inside(target, self.root)

    def _url(self, tag: str, name: str, value: str) -> str | None:
        compact = re.sub(r"[\x00-\x20\x7f]+", "", value)
        scheme = re.match(r"([a-zA-Z][a-zA-Z0-9+.-]*):", compact)
        if name == "src":
            if scheme:
                return value if _IMAGE_DATA.match(compact) else None
            return value if self._local(compact) else None
        if scheme:
            return value if scheme.group(1).lower() in ("http", "https", "mailto") else None
        if compact.startswith("#"):
            return value
        return value if self._local(compact) else None

    def _attributes(self, tag: str, attrs) -> str | None:
        allowed = _MATH_ATTRIBUTES if tag in _MATH_TAGS else (
            _ATTRIBUTES | _TAG_ATTRIBUTES.get(tag, set()))
        parts = []
        for name, value in attrs:
            name = name.lower()
            if name not in allowed or value is None and name not in ("open", "reversed"):
                continue
            value = value or ""
            if name in ("href", "src"):
                value = self._url(tag, name, value)
                if value is None:
                    if tag == "img":
                        return None
                    continue
            elif name == "style":
                value = _safe_style(value)
                if not value:
                    continue
            parts.append(f' {name}="{html.escape(value, quote=True)}"')
        return "".join(parts)

    def handle_starttag(self, tag, attrs):
        if self.skip:
            if tag == self.skip[-1]:
                self.skip.append(tag)
            return
        if tag in _DROPPED_TAGS:
            self.skip.append(tag)
            return
        if tag not in _HTML_TAGS and tag not in _MATH_TAGS:
            return
        attributes = self._attributes(tag, attrs)
        if attributes is None:  # an image from elsewhere: its alternative text
            alt = dict(attrs).get("alt")
            if alt:
                self.out.append(html.escape(alt))
            return
        self.out.append(f"<{tag}{attributes}>")
        if tag not in _VOID_TAGS:
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        last = (self.skip or self.open or [None])[-1]
        if last == tag:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if self.skip:
            if tag == self.skip[-1]:
                self.skip.pop()
            return
        if tag in self.open:
            while self.open:
                last = self.open.pop()
                self.out.append(f"</{last}>")
                if last == tag:
                    break

    def handle_data(self, data):
        if not self.skip:
            self.out.append(html.escape(data, quote=False))

    def result(self) -> str:
        self.close()
        return "".join(self.out) + "".join(f"</{t}>" for t in reversed(self.open))


def sanitise(markup: str, page_dir: str | os.PathLike, root: str | os.PathLike) -> str:
    """HTML for a page of the book in ``page_dir``: only harmless tags, attributes and addresses.

    Relative addresses must stay inside ``root`` (the book's folder).

    Examples
    --------
    >>> sanitise('<p onclick="x()">a<script>alert(1)</script> <img src="http://e.org/t.png" '
    ...          'alt="t"><a href="../../../etc/passwd">b</a></p>', "/book/zh/01", "/book")
    '<p>a t<a>b</a></p>'
    """
    parser = _Sanitiser(Path(page_dir), Path(root))
    parser.feed(markup)
    return parser.result()
