"""The book: static HTML pages of the executed editions, offline, linked, in the chapter's order."""

import base64
import re
from html.parser import HTMLParser
from pathlib import Path

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
    for lang, names in {"zh": ["01_metrics", "04_report", "05_explore", "06_continuous"],
                        "en": ["01_metrics", "04_report", "06_continuous"]}.items():
        for name in names:
            folder = out / lang / name
            (folder / "figures").mkdir(parents=True)
            nbformat.write(notebook(lang, name, widget=name == "05_explore"),
                           folder / f"{name}.ipynb")
            (folder / "figures" / "curve.png").write_bytes(PNG)
            (folder / "results.json").write_text("{}")
        (out / lang / "04_report" / "report").mkdir()
        (out / lang / "04_report" / "report" / "report.html").write_text("<p>report</p>")
        (out / lang / "04_report" / "report" / "report.md").write_text("# report")
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
                   "zh/index.html", "zh/01_metrics/01_metrics.html", "zh/04_report/04_report.html",
                   "zh/06_continuous/06_continuous.html", "zh/05_explore/05_explore.html",
                   "zh/glossary.html",
                   "en/index.html", "en/01_metrics/01_metrics.html", "en/04_report/04_report.html",
                   "en/06_continuous/06_continuous.html", "en/glossary.html"]
    # Table of contents: the chapter's order (report before continuous evaluation, exploration
    # last).
    toc = [a["href"] for a in parse(out / "zh" / "index.html").anchors  # not the header's links
           if set(a) == {"href"} and "/report/" not in a["href"]]
    assert toc == [
        "01_metrics/01_metrics.html", "04_report/04_report.html",
        "06_continuous/06_continuous.html", "05_explore/05_explore.html", "glossary.html"]
    page = parse(out / "zh" / "04_report" / "04_report.html")
    by_rel = {a.get("rel"): a["href"] for a in page.anchors if a.get("rel")}
    assert by_rel == {"prev": "../01_metrics/01_metrics.html",
                      "next": "../06_continuous/06_continuous.html"}
    switch = [a for a in page.anchors if a.get("class") == "lang-switch"]
    assert [a["href"] for a in switch] == ["../../en/04_report/04_report.html"]
    # 05 has no English edition: the switch goes to the English contents.
    page = parse(out / "zh" / "05_explore" / "05_explore.html")
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
    zh = (out / "zh" / "05_explore" / "05_explore.html").read_text(encoding="utf-8")
    assert parse(out / "zh" / "05_explore" / "05_explore.html").html_lang == "zh-CN"
    assert parse(out / "en" / "01_metrics" / "01_metrics.html").html_lang == "en"
    assert re.search(r"font-family: \"Noto Sans CJK SC\"", zh)
    # The widget view becomes a note; the text the notebook printed stays; no widget state.
    assert "需要运行中的 Jupyter 内核" in zh and "打印的文本版本" in zh
    assert "widget-view+json" not in zh and "widget-state" not in zh and "HBox(" not in zh
    # Formulas are MathML; code spans keep their dollars.
    assert "<math" in zh and "<mfrac>" in zh and "$R@K" not in zh and "$x$" in zh
    assert re.search(r'<img alt="笔记本输出的图" src="data:image/png;base64,', zh)
    report = parse(out / "zh" / "04_report" / "04_report.html")
    hrefs = {a["href"] for a in report.anchors}
    assert {"report/report.html", "report/report.md", "figures/curve.png", "04_report.ipynb",
            "results.json"} <= hrefs
    contents = {a["href"] for a in parse(out / "zh" / "index.html").anchors}
    assert {"04_report/report/report.html", "04_report/report/report.md"} <= contents
    landing = parse(out / "index.html")
    assert {"zh/index.html", "en/index.html", "zh/01_metrics/01_metrics.html",
            "en/01_metrics/01_metrics.html"} <= {a["href"] for a in landing.anchors}
    assert "召回率" in (out / "zh" / "glossary.html").read_text(encoding="utf-8")
    title = re.search(r"<title>(.*?)</title>", zh).group(1)
    assert title.startswith("评估指标 05_explore")


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
    source = tmp_path / "project" / "notebooks"
    source.mkdir(parents=True)
    (source.parent / "data").mkdir()
    (source.parent / "data" / "DATASHEET.md").write_text("# datasheet")
    path = out / "zh" / "01_metrics" / "01_metrics.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.metadata["reteval"] = {"lang": "zh", "source": (source / "01_metrics.ipynb").as_posix()}
    nb.cells.append(v4.new_markdown_cell(
        "见[数据说明](../data/DATASHEET.md)、[报告](04_report.ipynb#summary)、"
        "[图](figures/curve.png)、[缺失](../data/nope.md)和 "
        "<a href=\"../data/DATASHEET.md\">说明</a>。"))
    nbformat.write(nb, path)
    build_book(out, glossary=glossary)
    page = out / "zh" / "01_metrics" / "01_metrics.html"
    hrefs = [a["href"] for a in parse(page).anchors]
    assert "linked/DATASHEET.md" in hrefs  # copied beside the page: the book stays whole
    assert (page.parent / "linked" / "DATASHEET.md").read_text() == "# datasheet"
    assert "../04_report/04_report.html#summary" in hrefs  # another notebook: its page
    assert "figures/curve.png" in hrefs  # already resolves from the page
    assert "../data/nope.md" in hrefs  # nothing to link to: left as written
    assert hrefs.count("linked/DATASHEET.md") == 2  # HTML links too
    # Without a recorded source, notebooks_dir tells where the sources are.
    del nb.metadata["reteval"]
    nbformat.write(nb, path)
    (page.parent / "linked" / "DATASHEET.md").unlink()
    build_book(out, glossary=glossary, notebooks_dir=source)
    assert (page.parent / "linked" / "DATASHEET.md").is_file()
