"""The book: static HTML pages of the executed editions, offline, linked, in the chapter's order."""

import base64
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import nbformat
import pytest
from nbformat import v4

from reteval.book.html import build_book, math_to_mathml
from reteval.cli import main
from reteval.errors import InputError

# A 1x1 PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")
WIDGET = {"application/vnd.jupyter.widget-view+json": {"model_id": "abc", "version_major": 2,
                                                       "version_minor": 0},
          "text/plain": "HBox(children=(IntSlider(value=5),))"}
TEXT = {"zh": ("# 评估指标\n\n召回率 $R@K = \\frac{a}{b}$，代码 `$x$` 不变。", "打印的文本版本"),
        "en": ("# Measures\n\nRecall $R@K = \\frac{a}{b}$, code `$x$` unchanged.", "printed text")}


def notebook(lang, name, widget=False):
    heading, printed = TEXT[lang]
    code = v4.new_code_cell("plot()", outputs=[
        v4.new_output("display_data", data={"image/png": base64.b64encode(PNG).decode(),
                                             "text/plain": "<Figure>"})])
    cells = [v4.new_markdown_cell(heading.replace("评估指标", f"评估指标 {name}")
                                  .replace("Measures", f"Measures {name}")), code]
    if widget:
        cells.append(v4.new_code_cell("explore()", outputs=[
            v4.new_output("display_data", data=WIDGET),
            v4.new_output("stream", name="stdout", text=printed + "\n")]))
    nb = v4.new_notebook(cells=cells)
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    return nb


@pytest.fixture
def output(tmp_path):
    """zh: 01, 04, 05, 06; en: 01, 04, 06 (no 05). The report writes report.html/.md, figures."""
    out = tmp_path / "outputs"
    for lang, names in {"zh": ["01_metrics", "10_report", "11_explore", "09_continuous"],
                        "en": ["01_metrics", "10_report", "09_continuous"]}.items():
        for name in names:
            folder = out / lang / name
            (folder / "figures").mkdir(parents=True)
            nbformat.write(notebook(lang, name, widget=name == "11_explore"),
                           folder / f"{name}.ipynb")
            (folder / "figures" / "curve.png").write_bytes(PNG)
            (folder / "results.json").write_text("{}")
        (out / lang / "10_report" / "report").mkdir()
        (out / lang / "10_report" / "report" / "report.html").write_text("<p>report</p>")
        (out / lang / "10_report" / "report" / "report.md").write_text("# report")
    glossary = tmp_path / "glossary.md"
    glossary.write_text("# 术语表 · Glossary\n\n"
                        "| 中文 | English |\n|---|---|\n| 召回率 | recall |\n")
    return out, glossary


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs, self.anchors, self.html_lang, self.ids = [], [], None, set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.html_lang = attrs.get("lang")
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for key in ("href", "src"):
            if key in attrs:
                self.refs.append((tag, key, attrs[key]))
        if tag == "a":
            self.anchors.append(attrs)


def parse(path):
    links = Links()
    links.feed(path.read_text(encoding="utf-8"))
    return links


def test_pages_in_chapter_order_with_navigation_and_switch(output):
    out, glossary = output
    pages = build_book(out, glossary=glossary)
    rel = [p.relative_to(out).as_posix() for p in pages]
    assert rel == ["index.html",
                   "zh/index.html", "zh/01_metrics/01_metrics.html",
                   "zh/09_continuous/09_continuous.html", "zh/10_report/10_report.html",
                   "zh/11_explore/11_explore.html", "zh/glossary.html",
                   "en/index.html", "en/01_metrics/01_metrics.html",
                   "en/09_continuous/09_continuous.html", "en/10_report/10_report.html",
                   "en/glossary.html"]
    # Table of contents: in name order, which is the reading order (report after continuous
    # evaluation, exploration last).
    toc = [a["href"] for a in parse(out / "zh" / "index.html").anchors  # not the header's links
           if set(a) == {"href"} and "/report/" not in a["href"]]
    assert toc == [
        "01_metrics/01_metrics.html", "09_continuous/09_continuous.html",
        "10_report/10_report.html", "11_explore/11_explore.html", "glossary.html"]
    page = parse(out / "zh" / "10_report" / "10_report.html")
    by_rel = {a.get("rel"): a["href"] for a in page.anchors if a.get("rel")}
    assert by_rel == {"prev": "../09_continuous/09_continuous.html",
                      "next": "../11_explore/11_explore.html"}
    switch = [a for a in page.anchors if a.get("class") == "lang-switch"]
    assert [a["href"] for a in switch] == ["../../en/10_report/10_report.html"]
    # 11 has no English edition: the switch goes to the English contents.
    page = parse(out / "zh" / "11_explore" / "11_explore.html")
    switch = [a["href"] for a in page.anchors if a.get("class") == "lang-switch"]
    assert switch == ["../../en/index.html"]
    rels = {a.get("rel"): a["href"] for a in page.anchors if a.get("rel")}
    assert rels["next"] == "../glossary.html"
    first = parse(out / "zh" / "index.html")
    assert "prev" not in {a.get("rel") for a in first.anchors}
    last = parse(out / "en" / "glossary.html")
    assert "next" not in {a.get("rel") for a in last.anchors}
    switch = [a["href"] for a in last.anchors if a.get("class") == "lang-switch"]
    assert switch == ["../zh/glossary.html"]


def test_every_link_is_relative_and_resolves_offline(output):
    out, glossary = output
    for page in build_book(out, glossary=glossary):
        links = parse(page)
        text = page.read_text(encoding="utf-8")
        assert "<script" not in text and "<link" not in text, page  # no scripts, no style sheets
        assert not re.search(r"https?://", text), page  # nothing from the internet at all
        assert links.refs, page
        for tag, _key, ref in links.refs:
            if ref.startswith("data:"):
                assert tag == "img"
                continue
            target, _, fragment = ref.partition("#")
            if not target:  # a link within the page
                assert fragment in links.ids, (page, ref)
                continue
            assert not Path(target).is_absolute() and ":" not in target, (page, ref)
            assert (page.parent / target).resolve().is_file(), (page, ref)


def test_languages_fonts_widgets_math_and_files(output):
    out, glossary = output
    build_book(out, glossary=glossary)
    zh = (out / "zh" / "11_explore" / "11_explore.html").read_text(encoding="utf-8")
    assert parse(out / "zh" / "11_explore" / "11_explore.html").html_lang == "zh-CN"
    assert parse(out / "en" / "01_metrics" / "01_metrics.html").html_lang == "en"
    assert re.search(r"font-family: \"Noto Sans CJK SC\"", zh)
    # The widget view becomes a note; the text the notebook printed stays; no widget state.
    assert "需要运行中的 Jupyter 内核" in zh and "打印的文本版本" in zh
    assert "widget-view+json" not in zh and "widget-state" not in zh and "HBox(" not in zh
    # Formulas are MathML; code spans keep their dollars.
    assert "<math" in zh and "<mfrac>" in zh and "$R@K" not in zh and "$x$" in zh
    assert re.search(r'<img alt="笔记本输出的图" src="data:image/png;base64,', zh)
    report = parse(out / "zh" / "10_report" / "10_report.html")
    hrefs = {a["href"] for a in report.anchors}
    assert {"report/report.html", "report/report.md", "figures/curve.png", "10_report.ipynb",
            "results.json"} <= hrefs
    contents = {a["href"] for a in parse(out / "zh" / "index.html").anchors}
    assert {"10_report/report/report.html", "10_report/report/report.md"} <= contents
    landing = parse(out / "index.html")
    assert {"zh/index.html", "en/index.html", "zh/01_metrics/01_metrics.html",
            "en/01_metrics/01_metrics.html"} <= {a["href"] for a in landing.anchors}
    assert "召回率" in (out / "zh" / "glossary.html").read_text(encoding="utf-8")
    title = re.search(r"<title>(.*?)</title>", zh).group(1)
    assert title.startswith("评估指标 11_explore")


def test_errors_and_command_line(output, tmp_path, capsys):
    out, _ = output
    with pytest.raises(InputError, match="no executed notebooks"):
        build_book(tmp_path / "empty")
    with pytest.raises(InputError, match="no such glossary file"):
        build_book(out, glossary=tmp_path / "nope.md")
    assert main(["book", str(out)]) == 0
    assert "book: " in capsys.readouterr().out
    assert (out / "index.html").is_file()
    assert main(["book", str(tmp_path / "empty")]) == 2
    err = capsys.readouterr().err
    assert "no executed notebooks" in err and "Traceback" not in err
    without = build_book(out, glossary=False)
    assert not any(p.name == "glossary.html" for p in without)


def test_math_conversion_leaves_code_and_marks_bad_tex():
    assert math_to_mathml("no math") == "no math"
    assert math_to_mathml("```\n$a$\n```") == "```\n$a$\n```"
    assert "<math display=\"block\">" in math_to_mathml("$$\\sum_i x_i$$")
    assert math_to_mathml("see $x^$ here") == "see <code>$x^$</code> here"


def test_glossary_page_shows_its_own_language_intro(output, tmp_path):
    out, _ = output
    glossary = tmp_path / "bilingual.md"
    glossary.write_text('<div lang="zh-CN">中文说明</div>\n\n<div lang="en">English intro</div>\n\n'
                        "| 中文 | English |\n|---|---|\n| 召回率 | recall |\n")
    build_book(out, glossary=glossary)
    zh = (out / "zh" / "glossary.html").read_text(encoding="utf-8")
    en = (out / "en" / "glossary.html").read_text(encoding="utf-8")
    assert 'main.glossary [lang="en"] { display: none; }' in zh
    assert 'main.glossary [lang="zh-CN"] { display: none; }' in en
    assert "<main class='glossary'>" in zh and "English intro" in zh  # hidden by the style
    landing = (out / "index.html").read_text(encoding="utf-8")
    assert "<main>" in landing  # both editions' contents stay visible there


def test_relative_links_of_the_source_notebook_are_mended(output, tmp_path):
    out, glossary = output
    project = tmp_path / "project"
    source = project / "notebooks"
    for folder in ("data", "a", "b"):
        (source / folder).mkdir(parents=True)
    (source / "data" / "DATASHEET.md").write_text("# datasheet")
    (source / "a" / "x.md").write_text("a")
    (source / "b" / "x.md").write_text("b")
    (project / "secret.txt").write_text("secret")
    (source / "link.md").symlink_to(project / "secret.txt")
    path = out / "zh" / "01_metrics" / "01_metrics.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.metadata["reteval"] = {"lang": "zh", "source": (source / "01_metrics.ipynb").as_posix()}
    nb.cells.append(v4.new_markdown_cell(
        "见[数据说明](data/DATASHEET.md)、[报告](10_report.ipynb#summary)、"
        "[图](figures/curve.png)、[缺失](data/nope.md)和 "
        "<a href=\"data/DATASHEET.md\">说明</a>；[甲](a/x.md)、[乙](b/x.md)；"
        "[秘密](../secret.txt)、[口令](../../../../../../../../etc/passwd)、[绝对](/etc/passwd)、"
        "[链接](link.md)。"))
    nbformat.write(nb, path)
    build_book(out, glossary=glossary, notebooks_dir=source)
    page = out / "zh" / "01_metrics" / "01_metrics.html"
    hrefs = [a.get("href") for a in parse(page).anchors]
    linked = page.parent / "linked"
    assert hrefs.count("linked/data/DATASHEET.md") == 2  # Markdown and HTML links
    assert (linked / "data" / "DATASHEET.md").read_text() == "# datasheet"
    # Two files of the same name: two copies, at their own relative paths.
    assert "linked/a/x.md" in hrefs and "linked/b/x.md" in hrefs
    assert (linked / "a" / "x.md").read_text() == "a" and (linked / "b" / "x.md").read_text() == "b"
    assert "../10_report/10_report.html#summary" in hrefs  # another notebook: its page
    assert "figures/curve.png" in hrefs  # already resolves from the page
    assert "data/nope.md" in hrefs  # nothing to link to: left as written
    # Nothing from outside the notebooks folder is copied, even through a symbolic link,
    # and no link leaves the book's folder.
    assert sorted(p.relative_to(linked).as_posix() for p in linked.rglob("*") if p.is_file()) == [
        "a/x.md", "b/x.md", "data/DATASHEET.md"]
    assert not [p for p in out.rglob("*") if p.is_file() and p.read_bytes() == b"secret"]
    for href in hrefs:
        if href and not href.startswith("#"):
            assert (page.parent / href).resolve().is_relative_to(out.resolve()), href
    assert "口令" in page.read_text(encoding="utf-8")  # the link's text stays
    # A notebook's recorded source is not trusted to point elsewhere; without notebooks_dir,
    # nothing is copied at all.
    shutil.rmtree(linked)
    nb.metadata["reteval"]["source"] = (project / "01_metrics.ipynb").as_posix()
    nbformat.write(nb, path)
    build_book(out, glossary=glossary)
    assert not linked.exists()
    build_book(out, glossary=glossary, notebooks_dir=source)
    assert (linked / "data" / "DATASHEET.md").is_file()


def hostile_notebook():
    """A notebook nobody on the project wrote: scripts, handlers, remote content."""
    svg = ('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script>'
           '<image href="http://example.org/x.png"/></svg>')
    cells = [
        v4.new_markdown_cell(
            "# Hostile\n\n<script>alert('md')</script>\n\n"
            '<img src="x.png" onerror="alert(1)">\n\n'
            '<img src="https://example.org/track.png" alt="tracker">\n\n'
            '<iframe src="https://example.org/"></iframe>\n\n'
            '<link rel="stylesheet" href="https://example.org/a.css">\n\n'
            "<style>@import url(https://example.org/b.css); body { color: red }</style>\n\n"
            '<p style="color: red; background: url(https://example.org/c.png)">styled</p>\n\n'
            '<a href="javascript:alert(1)">js</a> <a href="JaVa\tScRiPt:alert(1)">js2</a> '
            '<a href="https://example.org/page">a web page</a>\n\n'
            "<math><mtext><img src=x onerror=alert(2)></mtext></math>\n\n"
            "Math: $\\text{<script>alert(3)</script>} + x$ and after."),
        v4.new_code_cell("show()", outputs=[
            v4.new_output("display_data", data={
                "application/javascript": "alert('output')",
                "text/plain": "<IPython.core.display.Javascript object>"}),
            v4.new_output("display_data", data={
                "text/html": '<div onmouseover="alert(4)">table<script>alert(5)</script></div>'
                             '<object data="https://example.org/x.swf"></object>',
                "text/plain": "table"}),
            v4.new_output("display_data", data={"image/svg+xml": svg, "text/plain": "<Figure>"}),
        ]),
    ]
    return v4.new_notebook(cells=cells)


def test_foreign_notebooks_are_sanitised(tmp_path):
    out = tmp_path / "outputs"
    (out / "en" / "01_hostile").mkdir(parents=True)
    nbformat.write(hostile_notebook(), out / "en" / "01_hostile" / "01_hostile.ipynb")
    build_book(out, glossary=False)
    page = (out / "en" / "01_hostile" / "01_hostile.html").read_text(encoding="utf-8")
    body = page[page.index("<main"):]
    for bad in ("<script", "<iframe", "<link", "<object", "<style", "<svg", "javascript:",
                "@import", "url(", "alert('output')"):
        assert bad not in body.lower(), bad
    assert not re.search(r"\son\w+\s*=", body)  # no event handler attribute
    assert not re.search(r"src=[\"']https?:", body)  # nothing loads from the network
    assert not re.search(r"<img[^>]*src=\"x\"", body) or "onerror" not in body
    assert "&lt;script&gt;alert(3)&lt;/script&gt;" in body  # \text{...} shows its text
    assert "and after." in body  # the page goes on after it
    assert '<a href="https://example.org/page">a web page</a>' in body  # a link loads nothing
    assert "tracker" in body  # a remote image leaves its alternative text
    assert '<p style="color: red">styled</p>' in body
    assert re.search(r'<img alt="" src="data:image/svg\+xml;base64,', body)  # SVG as an image


@pytest.mark.parametrize("name", ["07_a#b", "07_50%", "07_what?", "07_sp ace"])
def test_links_to_folders_with_url_characters_are_encoded(tmp_path, name):
    out = tmp_path / "outputs"
    (out / "en" / name).mkdir(parents=True)
    nbformat.write(notebook("en", name), out / "en" / name / f"{name}.ipynb")
    (out / "en" / name / "results.json").write_text("{}")
    build_book(out, glossary=False)
    for page in (out / "index.html", out / "en" / "index.html"):
        hrefs = [a["href"] for a in parse(page).anchors if name[3:5] in unquote(a["href"])]
        assert hrefs, page
        for href in hrefs:
            assert "#" not in href and "?" not in href and " " not in href, href
            assert (page.parent / unquote(href)).is_file(), href


@pytest.mark.parametrize(("content", "expected"), [
    (b"", "not a readable notebook: empty or truncated"),
    (b'{"cells": [', "not a readable notebook: empty or truncated"),
    (b"[]", "not a readable notebook"), (b"{}", "not a readable notebook"),
    (b'{"nbformat": 4, "nbformat_minor": 5, "cells": 3, "metadata": {}}',
     "not a readable notebook")])
def test_damaged_executed_notebooks_are_named(tmp_path, capsys, content, expected):
    out = tmp_path / "outputs"
    (out / "zh" / "01_a").mkdir(parents=True)
    (out / "zh" / "01_a" / "01_a.ipynb").write_bytes(content)
    with pytest.raises(InputError, match=f"01_a.ipynb: {expected}"):
        build_book(out, glossary=False)
    assert main(["book", str(out)]) == 2
    err = capsys.readouterr().err
    assert "01_a.ipynb" in err and expected in err and "Traceback" not in err


def test_cells_that_only_record_results_are_folded(tmp_path):
    from reteval.book.html import _notebook_html

    record = v4.new_code_cell('results["p"] = 0.5  # ~~~ $x$', metadata={"tags": ["record"]})
    shown = v4.new_code_cell("save()", metadata={"tags": ["record"]}, outputs=[
        v4.new_output("stream", name="stdout", text="saved\n")])
    nb = v4.new_notebook(cells=[v4.new_markdown_cell("# T"), v4.new_code_cell("plot()"),
                                record, shown])
    page = _notebook_html(nb, "zh")
    folds = [re.sub(r"<(?!/?math)[^>]+>", "", fold)  # the text, without highlighting's tags
             for fold in re.findall(r"<details.*?</details>", page, flags=re.DOTALL)]
    assert len(folds) == 2
    assert "记录结果的代码" in folds[0] and "results" in folds[0] and "$x$" in folds[0]
    assert "<math" not in folds[0]  # code is not read as a formula
    assert "save()" in folds[1]
    text = re.sub(r"<[^>]+>", "", page)
    assert text.count("save()") == 1 and "saved" in text  # the output stays, its input folded
    assert "plot()" in text and "plot()" not in "".join(folds)
    assert _notebook_html(nb, "zh") == page  # the same page each time: folds keep their ids


def test_an_emptied_progress_bar_leaves_no_output_on_the_page():
    from reteval.book.html import _static_notebook

    cell = v4.new_code_cell("work()", outputs=[
        v4.new_output("display_data", data={"text/plain": ""}),  # a bar emptied on closing
        v4.new_output("stream", name="stdout", text="done\n"),
        v4.new_output("display_data", data={"text/plain": "0"})])
    page = _static_notebook(v4.new_notebook(cells=[cell]), "en")
    assert [o.get("text") or o["data"]["text/plain"] for o in page.cells[0].outputs] == [
        "done\n", "0"]


@pytest.mark.slow
def test_editions_rendered_side_by_side_give_the_same_pages(output, tmp_path, monkeypatch):
    # A large book renders its editions' notebook pages in processes side by side (when
    # there are cores): the same bytes as one after the other.
    import concurrent.futures

    import reteval.book.html as book_html

    monkeypatch.setattr(book_html, "available_cores", lambda: 2)
    pools = []

    class Pool(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            pools.append(args)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Pool)
    out, glossary = output
    pages = {}
    for name, worth in (("apart", 10 ** 6), ("side_by_side", 1)):
        monkeypatch.setattr(book_html, "_PAGES_WORTH_A_PROCESS", worth)
        copy = tmp_path / name
        shutil.copytree(out, copy)
        pages[name] = {p.relative_to(copy): p.read_bytes()
                       for p in build_book(copy, glossary=glossary)}
    assert pools == [(2,)]  # two processes, for the side-by-side build only
    assert len(pages["apart"]) == 12 and pages["side_by_side"] == pages["apart"]
