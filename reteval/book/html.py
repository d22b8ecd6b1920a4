"""The book: the executed editions of the notebooks as static HTML pages.

``reteval book OUTPUT`` (and the end of ``reteval run``) turns what the pipeline
wrote into ``OUTPUT/<lang>/<notebook>/<notebook>.ipynb`` into a small website
that opens from disk with a double click, with no server and no internet:

* ``OUTPUT/index.html``: both editions' tables of contents side by side;
* ``OUTPUT/<lang>/index.html``: one edition's table of contents, in the order
  of the notebooks' numbers (the chapter's order: measures, the evaluation set,
  comparing retrievers, A/B tests, continuous evaluation, the report that reads
  its history, exploration), with each notebook's reports and figures;
* ``OUTPUT/<lang>/<notebook>/<notebook>.html``: the executed notebook
  (nbconvert), beside its figures and results, with links to them;
* ``OUTPUT/<lang>/glossary.html``: the glossary (``docs/glossary.md``).

Every page has previous/next links, a link to its table of contents and the
glossary, and a language switch to the same page of the other edition. Links
are relative. Nothing is loaded from the internet: no scripts, fonts or style
sheets from a CDN (the page's CSS is inline, formulas are converted to MathML,
which the browser draws itself). An interactive widget needs a live kernel: its
place on the page says so, and the text version the notebook prints beside it
remains.

The notebooks' content is not trusted: every notebook page (and the glossary)
is re-written from an allow-list (:func:`sanitise`), so no script, event
handler, JavaScript output, style sheet, frame or remote image reaches a page
(SVG outputs become images, ``\text{...}`` in formulas stays text); relative
links may not leave the book's folder, and only files inside the source
notebooks' folder are copied into ``linked/``, at their relative path.
Chinese pages are ``<html lang="zh-CN">`` and ask for a CJK font first
("Noto Sans CJK SC", "Source Han Sans SC", ...).
"""

from __future__ import annotations

import base64
import copy
import functools
import html
import os
import re
import shutil
from pathlib import Path
from typing import NamedTuple
from urllib.parse import quote, unquote

from reteval._util.catalogue import LANGUAGES, TEXTS, phrase, phrases
from reteval._util.cores import available_cores
from reteval._util.languages import language
from reteval.book.sanitise import inside, sanitise
from reteval.errors import InputError

__all__ = ["add_subcommands", "build_book", "math_to_mathml", "sanitise"]

HTML_LANG = {lang: language(lang).html_lang for lang in LANGUAGES}
# The notebooks are numbered in the order they are read (the chapter's order, except that the
# report comes after the continuous evaluation whose history it reads), so the book lists them by
# name. Their titles and every word of the book's frame are catalogue entries (book.section.NN,
# book.*).
UI = {lang: phrases("book.", lang) for lang in LANGUAGES}  # the book's frame, by language
MONO = '"DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace'
FIGURE_SUFFIXES = (".png", ".svg", ".jpg", ".jpeg", ".gif", ".pdf")
REPORT_SUFFIXES = (".html", ".md", ".tex")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# A code cell tagged so only records results for the tests and the report: the book folds it.
RECORD_TAG = "record"

CSS = """
body { margin: 0; color: #1f2328; background: #fff; line-height: 1.65; font-family: %(font)s; }
header.book, footer.book { background: #f6f8fa; border-bottom: 1px solid #d0d7de;
  padding: .5em 1.5em; display: flex; gap: 1.5em; align-items: center; flex-wrap: wrap; }
footer.book { border-top: 1px solid #d0d7de; border-bottom: 0; }
header.book .title { font-weight: bold; margin-right: auto; }
nav.pager { display: flex; justify-content: space-between; gap: 1em; width: 100%%; }
main { max-width: 60em; margin: 0 auto; padding: 1em 1.5em 3em; }
a { color: #0b57d0; }
pre, code { font-family: %(mono)s; font-size: .92em; }
.jp-InputArea, .input_area, div.input pre { background: #f6f8fa; border-radius: 4px; }
.jp-Cell { margin: .8em 0; }
.jp-CodeCell .jp-InputArea pre, .highlight pre { padding: .6em .8em; overflow-x: auto; margin: 0; }
.jp-OutputArea pre, .output_area pre { padding: .3em .8em; overflow-x: auto; margin: 0; }
.jp-OutputArea img, .output_area img, main img { max-width: 100%%; height: auto; }
table { border-collapse: collapse; margin: .6em 0; font-size: .95em; }
th, td { border: 1px solid #d0d7de; padding: .25em .6em; text-align: left; vertical-align: top; }
.dataframe td, .dataframe th { text-align: right; }
.dataframe td:first-child, .dataframe th:first-child, .dataframe tbody th { text-align: left; }
main.glossary { max-width: 80em; }
main.glossary [lang="%(other)s"] { display: none; }
.widget-note { border-left: 4px solid #bf8700; background: #fff8c5; padding: .4em .8em; }
.files ul { columns: 2; }
.toc li { margin: .4em 0; }
.toc .section { color: #59636e; font-size: .9em; }
.editions { display: flex; gap: 3em; flex-wrap: wrap; }
math[display="block"] { margin: .6em 0; }
.jp-InputPrompt, .jp-OutputPrompt, .prompt { display: none; }
.anchor-link { visibility: hidden; margin-left: .3em; text-decoration: none; }
h1:hover .anchor-link, h2:hover .anchor-link, h3:hover .anchor-link { visibility: visible; }
"""


class _Page(NamedTuple):
    lang: str
    key: str  # "index", "glossary" or the notebook name
    path: Path
    title: str


def _rel(target: Path, start_dir: Path) -> str:
    return Path(os.path.relpath(target, start_dir)).as_posix()


def _href(target: Path, start_dir: Path) -> str:
    """A relative URL of ``target``: a folder named ``a#1`` or ``50%`` is encoded."""
    return quote(_rel(target, start_dir))


def _notebooks(folder: Path) -> list[str]:
    if not folder.is_dir():
        return []
    names = [d.name for d in folder.iterdir()
             if d.is_dir() and re.match(r"\d\d[a-z]?_", d.name)
             and (d / f"{d.name}.ipynb").is_file()]
    return sorted(names)


def _section(name: str, lang: str) -> str:
    key = f"book.section.{name.partition('_')[0]}"  # 07, 07b ...
    return phrase(key, lang) if key in TEXTS else name


def _title(nb, name: str, lang: str) -> str:
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("#"):
                    return re.sub(r"[*`]", "", line.lstrip("#").strip()) or _section(name, lang)
    return _section(name, lang)


# -- Markdown math to MathML ------------------------------------------------------------------

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


# -- Notebook to HTML -------------------------------------------------------------------------

_MD_LINK = re.compile(r"(!?\[[^\]]*\]\()([^)\s]+)(\s+\"[^\"]*\")?(\))")
_HTML_LINK = re.compile(r"((?:src|href)=[\"'])([^\"']+)([\"'])")


def _source_dir(nb, notebooks_dir: Path | None) -> Path | None:
    """The folder a notebook's relative links were written from: ``notebooks_dir``.

    The folder the executed notebook records (``metadata.reteval.source``) is
    used only when it lies inside ``notebooks_dir``: a notebook's metadata is
    not trusted to say which folder of the machine the book may copy from.
    """
    if notebooks_dir is None:
        return None
    source = nb.metadata.get("reteval", {}).get("source")
    if isinstance(source, str) and source:
        folder = Path(source).resolve().parent
        if folder.is_relative_to(notebooks_dir):
            return folder
    return notebooks_dir


def _relink(markdown: str, page_dir: Path, source_dir: Path | None, pages: dict) -> str:
    """Relative links of a notebook's Markdown, made to work from its page in the book.

    A link that resolves from the page stays. One that resolves from the source
    notebook's folder goes to the book page of that notebook (``NN_x.ipynb``),
    or to a copy of the file in ``linked/`` beside the page, at the same
    relative path (two files never share a copy). Only a file inside the
    source folder is copied: a link out of it (``..``, an absolute path, a
    symbolic link) is left as written, and the page's sanitiser drops it
    unless it points into the book.
    """
    if source_dir is None:
        return markdown

    def fix(target: str) -> str:
        path, sep, fragment = target.partition("#")
        if (not path or re.match(r"^[a-z][a-z0-9+.-]*:", path, re.IGNORECASE)
                or path.startswith(("/", "\\")) or "\\" in path):
            return target
        path = unquote(path)
        if (page_dir / path).exists():
            return target
        found = (source_dir / path).resolve()
        page = pages.get(found.stem) if found.suffix == ".ipynb" else None
        if page is not None:
            return _href(page, page_dir) + sep + fragment
        if (not found.is_file() or not inside(found, source_dir)
                or any(part.startswith(".") for part in found.relative_to(source_dir).parts)):
            return target
        relative = found.relative_to(source_dir)
        copy = page_dir / "linked" / relative
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(found, copy)
        return quote(f"linked/{relative.as_posix()}") + sep + fragment

    markdown = _MD_LINK.sub(lambda m: m.group(1) + fix(m.group(2)) + (m.group(3) or "")
                            + m.group(4), markdown)
    return _HTML_LINK.sub(lambda m: m.group(1) + fix(m.group(2)) + m.group(3), markdown)


def _static_notebook(nb, lang: str, relink=None):
    """A copy fit for a static page: widget views become a note, math becomes MathML."""
    nb = copy.deepcopy(nb)
    nb.metadata.pop("widgets", None)
    note = f'<div class="widget-note">{html.escape(UI[lang]["widget"])}</div>'
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = math_to_mathml(relink(cell.source) if relink else cell.source)
        if "outputs" in cell:  # an emptied progress bar (reteval._util.progress) shows nothing
            cell.outputs = [o for o in cell.outputs if o.get("data") != {"text/plain": ""}]
        for output in cell.get("outputs", []):
            data = output.get("data")
            if data and WIDGET_VIEW in data:
                # reteval's explorers carry their own note and text fallback
                fallback = "".join(data.get("text/html", ""))
                output["data"] = {"text/html": fallback if "reteval-fallback" in fallback else note}
            elif data:
                for kind in [k for k in data if "javascript" in k or "ecmascript" in k]:
                    del data[kind]  # no script runs on a page of the book
                if "image/svg+xml" in data:
                    # An SVG drawn as an image runs no script and loads nothing.
                    svg = "".join(data.pop("image/svg+xml")).encode("utf-8")
                    data.pop("text/html", None)
                    data["text/html"] = ('<img alt="" src="data:image/svg+xml;base64,'
                                         f'{base64.b64encode(svg).decode()}">')
    cells = []
    for cell in nb.cells:
        if cell.cell_type == "code" and RECORD_TAG in cell.metadata.get("tags", ()):
            cells.append(_folded(cell, lang))  # bookkeeping, folded away
            if not cell.get("outputs"):
                continue
            cell.metadata["transient"] = {"remove_source": True}
        cells.append(cell)
    nb.cells = cells
    return nb


def _folded(cell, lang: str):
    """A Markdown cell holding the code ``cell``'s source folded under a one-line summary
    (its id made from the code cell's: the same page each time the book is built)."""
    import nbformat

    source = cell.source
    fence = "~" * max(3, 1 + max((len(m) for m in re.findall(r"~+", source)), default=0))
    folded = nbformat.v4.new_markdown_cell(
        f'<details class="record"><summary>{html.escape(UI[lang]["record"])}</summary>\n\n'
        f"{fence}python\n{source}\n{fence}\n\n</details>")
    if cell.get("id"):
        folded.id = f"{cell.id[:57]}-record"  # at most 64 characters
    return folded


@functools.cache
def _exporter():
    """One nbconvert exporter a process: its Jinja templates compiled once, not once a page."""
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(template_name="basic", exclude_input_prompt=True,
                            exclude_output_prompt=True)
    # Every page is sanitised whole (reteval.book.sanitise): nbconvert's pass of bleach over
    # each code cell's highlighted source (a fifth of the book's time) would only repeat it.
    exporter.register_filter("clean_html", lambda markup: markup)
    exporter.log.addFilter(_drop_alt_warning)
    return exporter


def _notebook_html(nb, lang: str, relink=None) -> str:
    body, _ = _exporter().from_notebook_node(_static_notebook(nb, lang, relink))
    # nbconvert gives output images without alternative text an English placeholder.
    return body.replace(f'alt="{_NBCONVERT_ALT}"', f'alt="{html.escape(UI[lang]["figure"])}"')


_NBCONVERT_ALT = "No description has been provided for this image"


def _drop_alt_warning(record) -> bool:
    """A logging filter (on the exporter's log, for good): nbconvert warns once per page about
    the figures' missing alternative text, which the book sets itself."""
    return "Alternative text is missing" not in record.getMessage()


def _markdown_html(text: str) -> str:
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    return markdown2html_mistune(math_to_mathml(text))


def _link(href: str, text: str, **attrs) -> str:
    extra = "".join(f' {k.rstrip("_").replace("_", "-")}="{html.escape(v)}"'
                    for k, v in attrs.items())
    return f'<a href="{html.escape(href)}"{extra}>{html.escape(text)}</a>'


def _code_css() -> str:
    from pygments.formatters import HtmlFormatter

    return HtmlFormatter(style="default").get_style_defs(".highlight")


def _page(lang: str, title: str, body: str, header: str, footer: str, kind: str = "") -> str:
    other = HTML_LANG["en" if lang == "zh" else "zh"]
    css = CSS % {"font": language(lang).fonts, "mono": MONO, "other": other} + _code_css()
    return (f'<!DOCTYPE html>\n<html lang="{HTML_LANG[lang]}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)}</title>\n<style>{css}</style>\n</head>\n<body>\n"
            f'{header}\n<main{f" class={kind!r}" if kind else ""}>\n{body}\n</main>\n{footer}\n'
            "</body>\n</html>\n")


def _chrome(page: _Page, pages: dict, sequence: list, output: Path) -> tuple[str, str]:
    """The header (title, contents, glossary, language switch) and the footer (previous/next)."""
    ui = UI[page.lang]
    here = page.path.parent
    links = [f'<span class="title">{html.escape(ui["book"])}</span>']
    index = pages.get((page.lang, "index"))
    if index:
        links.append(_link(_href(index.path, here), ui["contents"], class_="contents"))
    glossary = pages.get((page.lang, "glossary"))
    if glossary:
        links.append(_link(_href(glossary.path, here), ui["glossary"], class_="glossary"))
    other = "en" if page.lang == "zh" else "zh"
    twin = pages.get((other, page.key)) or pages.get((other, "index"))
    if twin:
        links.append(_link(_href(twin.path, here), ui["switch"], class_="lang-switch",
                           hreflang=HTML_LANG[other], lang=HTML_LANG[other]))
    position = sequence.index(page)
    pager = []
    if position > 0:
        prev = sequence[position - 1]
        pager.append(_link(_href(prev.path, here), f"← {ui['prev']}: {prev.title}", rel="prev"))
    else:
        pager.append("<span></span>")
    if position + 1 < len(sequence):
        nxt = sequence[position + 1]
        pager.append(_link(_href(nxt.path, here), f"{ui['next']}: {nxt.title} →", rel="next"))
    nav = f'<nav class="pager">{"".join(pager)}</nav>'
    top = f'<header class="book">{"".join(links)}{nav}</header>'
    return top, f'<footer class="book">{nav}</footer>'


def _files(folder: Path, page_path: Path) -> dict[str, list[Path]]:
    figures, reports = [], []
    for path in sorted(folder.rglob("*")):
        hidden = any(p.startswith(".") for p in path.relative_to(folder).parts)
        if not path.is_file() or path == page_path or hidden:
            continue
        if path.suffix.lower() in FIGURE_SUFFIXES:
            figures.append(path)
        elif path.suffix.lower() in REPORT_SUFFIXES and path.stem.startswith("report"):
            reports.append(path)
    data = [p for p in (folder / f"{folder.name}.ipynb", folder / "results.json") if p.is_file()]
    return {"reports": reports, "figures": figures, "data": data}


def _files_html(files: dict, lang: str, here: Path, heading: str = "h2") -> str:
    ui = UI[lang]
    parts = []
    for kind in ("reports", "figures", "data"):
        if files[kind]:
            items = "".join(f"<li>{_link(_href(p, here), _rel(p, here))}</li>" for p in files[kind])
            parts.append(f"<h3>{html.escape(ui[kind])}</h3><ul>{items}</ul>")
    if not parts:
        return ""
    return (f'<section class="files"><{heading}>{html.escape(ui["files"])}</{heading}>'
            f'{"".join(parts)}</section>')


def _toc_html(lang: str, names: list[str], pages: dict, here: Path, output: Path,
              with_files: bool) -> str:
    items = []
    for name in names:
        page = pages[(lang, name)]
        files = ""
        if with_files:
            reports = _files(output / lang / name, page.path)["reports"]
            if reports:
                files = " · " + " · ".join(_link(_href(p, here), p.name) for p in reports)
        items.append(f'<li><span class="section">{html.escape(_section(name, lang))}</span><br>'
                     f"{_link(_href(page.path, here), page.title)}{files}</li>")
    glossary = pages.get((lang, "glossary"))
    if glossary:
        items.append(f"<li>{_link(_href(glossary.path, here), UI[lang]['glossary'])}</li>")
    return f'<ol class="toc">{"".join(items)}</ol>'


def _find_glossary() -> Path | None:
    candidate = Path(__file__).resolve().parents[2] / "docs" / "glossary.md"
    return candidate if candidate.is_file() else None


def _write_landing(output: Path, editions: dict, pages: dict) -> None:
    """Write ``output/index.html``: both editions' tables of contents, side by side."""
    landing = []
    for lang, names in editions.items():
        ui = UI[lang]
        if names:
            index = pages[(lang, "index")]
            toc = _toc_html(lang, names, pages, output, output, with_files=False)
            landing.append(f'<section lang="{HTML_LANG[lang]}"><h2>'
                           f'{_link(_href(index.path, output), ui["edition"])}</h2>{toc}</section>')
        else:
            landing.append(f'<section lang="{HTML_LANG[lang]}"><h2>{html.escape(ui["edition"])}'
                           f'</h2><p>{html.escape(ui["none"])}</p></section>')
    first = "zh" if editions["zh"] else "en"
    switch = " · ".join(_link(_href(pages[(lang, "index")].path, output), UI[lang]["edition"],
                              lang=HTML_LANG[lang]) for lang in LANGUAGES if editions[lang])
    top = (f'<header class="book"><span class="title">{html.escape(UI[first]["book"])}</span>'
           f"{switch}</header>")
    body = (f"<h1>{html.escape(UI['zh']['book'])}<br><span lang=\"en\">"
            f"{html.escape(UI['en']['book'])}</span></h1>"
            f'<div class="editions">{"".join(landing)}</div>')
    (output / "index.html").write_text(_page(first, UI[first]["book"], body, top, ""),
                                       encoding="utf-8")


def build_book(output: str | os.PathLike = "outputs", *,
               glossary: str | os.PathLike | bool | None = None,
               notebooks_dir: str | os.PathLike | None = None) -> list[Path]:
    """Write the book's HTML pages for the executed editions found in ``output``.

    Parameters
    ----------
    output : path, default "outputs"
        What ``reteval run`` wrote: ``output/<lang>/<notebook>/<notebook>.ipynb``.
    glossary : path or False, optional
        The glossary in Markdown; default (None): ``docs/glossary.md`` of the
        source tree, when there is one. ``False``: no glossary page.
    notebooks_dir : path, optional
        Where the source notebooks are, to mend their relative links (a link
        to ``../reteval/datasets/data/teaching/DATASHEET.md`` from ``notebooks/``) when
        an executed notebook does not record its source (the pipeline does).

    Returns
    -------
    list of pathlib.Path
        The pages written, ``output/index.html`` first.

    Raises
    ------
    InputError
        ``output`` holds no executed notebook of either edition, or the
        glossary file is missing.

    Examples
    --------
    >>> import tempfile, nbformat
    >>> from nbformat import v4
    >>> out = Path(tempfile.mkdtemp())
    >>> (out / "zh" / "01_a").mkdir(parents=True)
    >>> nb = v4.new_notebook(cells=[v4.new_markdown_cell("# 指标")])
    >>> nbformat.write(nb, out / "zh" / "01_a" / "01_a.ipynb")
    >>> [p.relative_to(out).as_posix() for p in build_book(out, glossary=False)]
    ['index.html', 'zh/index.html', 'zh/01_a/01_a.html']
    """
    output = Path(output).resolve()
    notebooks_dir = Path(notebooks_dir).resolve() if notebooks_dir else None
    editions = {lang: _notebooks(output / lang) for lang in LANGUAGES}
    if not any(editions.values()):
        raise InputError("no executed notebooks (LANG/NN_name/NN_name.ipynb) to make a book of",
                         path=output)
    if glossary is None:
        glossary = _find_glossary()
    elif glossary is False:
        glossary = None
    elif not Path(glossary).is_file():
        raise InputError("no such glossary file", path=glossary)
    notebooks = {}
    pages: dict[tuple[str, str], _Page] = {}
    sequences = {}
    for lang, names in editions.items():
        if not names:
            continue
        pages[(lang, "index")] = _Page(lang, "index", output / lang / "index.html",
                                       UI[lang]["contents"])
        for name in names:
            nb = _read_notebook(output / lang / name / f"{name}.ipynb")
            notebooks[(lang, name)] = nb
            pages[(lang, name)] = _Page(lang, name, output / lang / name / f"{name}.html",
                                        _title(nb, name, lang))
        if glossary:
            pages[(lang, "glossary")] = _Page(lang, "glossary", output / lang / "glossary.html",
                                              UI[lang]["glossary"])
        sequences[lang] = [pages[(lang, "index")]] + [pages[(lang, n)] for n in names] + (
            [pages[(lang, "glossary")]] if glossary else [])

    _write_landing(output, editions, pages)
    written = [output / "index.html"]
    bodies = _notebook_bodies({
        (lang, name): (nb, lang, pages[(lang, name)].path.parent,
                       _source_dir(nb, notebooks_dir),
                       {n: pages[(lang, n)].path for n in editions[lang]}, output)
        for (lang, name), nb in notebooks.items()})

    for lang, sequence in sequences.items():
        for page in sequence:
            header, footer = _chrome(page, pages, sequence, output)
            here = page.path.parent
            if page.key == "index":
                body = (f"<h1>{html.escape(UI[lang]['book'])}</h1>"
                        + _toc_html(lang, editions[lang], pages, here, output, with_files=True))
            elif page.key == "glossary":
                body = sanitise(_markdown_html(Path(glossary).read_text(encoding="utf-8")),
                                here, output)
            else:
                body = bodies[(lang, page.key)]
                body += _files_html(_files(here, page.path), lang, here)
            page.path.write_text(_page(lang, f"{page.title} · {UI[lang]['book']}", body,
                                       header, footer, kind=page.key if page.key in (
                                           "index", "glossary") else "notebook"),
                                 encoding="utf-8")
            written.append(page.path)
    return written


# Rendering a notebook page takes about half a second; a process of its own first imports
# nbconvert (a few seconds): the editions are rendered side by side from this many pages each.
_PAGES_WORTH_A_PROCESS = 6


def _notebook_bodies(jobs: dict[tuple[str, str], tuple]) -> dict[tuple[str, str], str]:
    """The sanitised body of each notebook page of ``jobs`` (``{(lang, name): arguments of
    _notebook_body}``): the editions in processes side by side when each has enough pages
    and there are cores for them, else one after the other here."""
    by_lang: dict[str, list[tuple]] = {}
    for key, arguments in jobs.items():
        by_lang.setdefault(key[0], []).append((key, arguments))
    cores = available_cores()
    groups = list(by_lang.values())
    if cores < 2 or len(groups) < 2 or min(map(len, groups)) < _PAGES_WORTH_A_PROCESS:
        rendered = [_notebook_bodies_of(group) for group in groups]
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        from reteval._util.extras import skip_iri_grammars

        with ProcessPoolExecutor(min(cores, len(groups)), initializer=skip_iri_grammars,
                                 mp_context=multiprocessing.get_context("spawn")) as pool:
            rendered = list(pool.map(_notebook_bodies_of, groups))
    return {key: body for group in rendered for key, body in group}


def _notebook_bodies_of(group: list[tuple]) -> list[tuple]:
    return [(key, _notebook_body(*arguments)) for key, arguments in group]


def _notebook_body(nb, lang: str, here: Path, source: Path | None, edition_pages: dict,
                   output: Path) -> str:
    """The sanitised HTML of the executed notebook ``nb``, a page in folder ``here``."""
    def relink(text):
        return _relink(text, here, source, edition_pages)

    return sanitise(_notebook_html(nb, lang, relink), here, output)


def _read_notebook(path: Path):
    """An executed notebook; an empty, truncated or foreign file is an InputError naming it."""
    import nbformat

    try:
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
    except OSError as exc:
        raise InputError(f"cannot read the executed notebook: {exc.strerror or exc}",
                         path=path) from None
    except Exception as exc:  # noqa: BLE001  (nbformat raises many kinds on a damaged file)
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if type(exc).__name__ == "NotJSONError":
            reason = "empty or truncated (not JSON)"
        raise InputError(f"not a readable notebook: {reason[:200]}", path=path) from None
    return nb


def _cmd_book(args) -> int:
    pages = build_book(args.output, glossary=args.glossary, notebooks_dir=args.notebooks)
    print(f"book: {len(pages)} pages; open {pages[0]}")
    return 0


def add_subcommands(subparsers) -> None:
    """Add ``reteval book`` to the command line."""
    p = subparsers.add_parser(
        "book", help="write the executed notebooks as a static HTML book",
        description="Write OUTPUT/index.html and one HTML page per executed edition of each "
        "notebook (as written by `reteval run`), with a table of contents in the chapter's "
        "order, the glossary and a language switch; it opens from disk, offline.",
    )
    p.add_argument("output", nargs="?", default="outputs", metavar="OUTPUT",
                   help="the folder `reteval run` wrote into (default: outputs)")
    p.add_argument("--glossary", metavar="FILE.md",
                   help="glossary in Markdown (default: docs/glossary.md of the source tree)")
    p.add_argument("--notebooks", default="notebooks", metavar="DIR",
                   help="the source notebooks, for their relative links (default: notebooks)")
    p.set_defaults(handler=_cmd_book)

