"""The explorers and the HTML report, rendered by a real browser.

JupyterLab runs on 127.0.0.1 with a random token over a temporary copy of the
notebooks; Debian's chromium (``/usr/bin/chromium``, never a downloaded
browser), driven headless by Playwright, opens ``11_explore.ipynb``, runs every
cell, moves the K slider of the metric explorer with the keyboard and checks
that the displayed measures change. A second test opens the HTML report of a
small comparison and checks that its tables and figures render. The last two
open the book (``reteval.book``) of a small pipeline run (notebook 01, one of
the quickest that draw figures, in both editions; the book's contents, glossary
and previous/next links join its pages): every link resolves, every figure
loads, nothing is fetched from the network, Chinese pages are drawn with a CJK
font (Chrome DevTools Protocol ``CSS.getPlatformFontsForNode``) and the language
switch goes to the same page of the other edition.

``make test`` installs chromium with apt-get first (target ``browser-deps``);
where it is missing these tests are skipped with the reason.
"""

import contextlib
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from paths import ROOT

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync"]
APT_LOG = ROOT / ".venv" / "browser-deps.log"  # written by `make browser-deps` on failure


def _missing_chromium_reason() -> str:
    reason = (f"Debian's chromium is not installed at {CHROMIUM}; `make browser-deps` installs "
              "it with apt-get (needs root and the Debian mirrors)")
    if APT_LOG.is_file():
        tail = [line for line in APT_LOG.read_text(errors="replace").splitlines() if line.strip()]
        if tail:
            reason += f"; its last attempt ended with: {tail[-1].strip()!r}"
    return reason


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.skip(_missing_chromium_reason())
    sync_api = pytest.importorskip(
        "playwright.sync_api",
        reason="Playwright for Python is not installed (pip install playwright)")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop(process: subprocess.Popen, timeout: float = 10) -> None:
    """Terminate the server, kill it after ``timeout``; then kill what is left of its group."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout)
    # kernels the server started are in its process group (start_new_session)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def jupyterlab(tmp_path_factory):
    """A JupyterLab server over a copy of notebooks/; yields (base url, token, root folder)."""
    bin_dir = Path(sys.executable).parent
    jupyter = bin_dir / "jupyter"
    if not jupyter.exists():
        pytest.skip(f"no jupyter executable next to {sys.executable}")
    base = tmp_path_factory.mktemp("jupyterlab")
    root = base / "notebooks"
    shutil.copytree(ROOT / "notebooks", root, ignore=shutil.ignore_patterns("outputs", ".*"))
    settings = base / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    # No news or update check: nothing should pop up over the notebook, nothing goes online.
    (settings / "notification.jupyterlab-settings").write_text(
        '{"fetchNews": "false", "checkForUpdates": false}')
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",  # the kernel's python
        "JUPYTERLAB_SETTINGS_DIR": str(base / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(base / "workspaces"),
        "JUPYTER_RUNTIME_DIR": str(base / "runtime"),
    }
    port, token = _free_port(), secrets.token_hex(16)
    command = [str(jupyter), "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
               "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
               f"--ServerApp.root_dir={root}", "--LabApp.extension_manager=readonly"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    log_path = base / "jupyterlab.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env,
                                   cwd=root, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                pytest.fail(f"JupyterLab exited with {process.returncode}:\n"
                            f"{log_path.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"JupyterLab did not answer within 60 s:\n"
                                f"{log_path.read_text()[-3000:]}")
                time.sleep(0.25)
        yield url, token, root
    finally:
        _stop(process)


def _save_screenshot(page, tmp_path, name):
    path = tmp_path / name
    page.screenshot(path=str(path))
    outputs = ROOT / "outputs" / "browser"  # git-ignored; handy to look at after a run
    try:
        outputs.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, outputs / name)
    except OSError:
        pass
    return path


@pytest.mark.notebook
def test_explorer_notebook_runs_and_slider_updates_measures(browser, jupyterlab, tmp_path):
    url, token, root = jupyterlab
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(30_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{url}/lab/tree/11_explore.ipynb?token={token}")
        page.wait_for_selector(".jp-NotebookPanel .jp-MarkdownCell", timeout=60_000)
        page.get_by_text("| Idle").wait_for(timeout=60_000)  # the kernel has started

        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.locator("[data-command='runmenu:run-all']").click()

        values = page.locator(".reteval-metric-explorer .reteval-metric-values").first
        values.wait_for(timeout=60_000)
        # Defaults: grades [3, 0, 2, 0, 1, 0, 0, 1, 0, 0], one unretrieved: relevant at 1, 3, 5
        # and 8 of R = 5; K = 5.
        assert "P@5 = 3/5 = 0.600" in values.text_content()
        assert "R@5 = 3/5 = 0.600" in values.text_content()
        # The widgets' JavaScript rendered real controls: ten grade dropdowns and a slider.
        explorer = page.locator(".reteval-metric-explorer").first
        assert explorer.locator(".reteval-grades .widget-dropdown select").count() == 10
        handle = explorer.locator(".reteval-k .noUi-handle").first
        handle.focus()
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "() => document.querySelector('.reteval-metric-values').textContent.includes('P@6')")
        after = values.text_content()
        assert "P@6 = 3/6 = 0.500" in after and "R@6 = 3/5 = 0.600" in after
        assert "P@5" not in after

        # The rest of the notebook: side-by-side query view, the K-curve plot, the planner.
        # (JupyterLab skips rendering cells out of view: read textContent, not innerText.)
        page.locator(".reteval-ab-plan").first.wait_for(state="attached", timeout=60_000)
        # The notebook's default edition is Chinese: "每组 14,745 人" ("n per group = 14,745").
        assert "每组 14,745 人" in page.locator(".reteval-ab-plan").first.text_content()
        query = page.locator(".reteval-query-explorer").first
        assert query.locator("h4").all_text_contents() == ["bm25", "vector"]
        image = page.locator(".reteval-k-curve-explorer img").first
        image.scroll_into_view_if_needed()
        page.wait_for_function(
            "() => { const i = document.querySelector('.reteval-k-curve-explorer img');"
            " return i && i.complete && i.naturalWidth > 0; }")
        assert page.get_by_text("Error displaying widget").count() == 0
        handle.scroll_into_view_if_needed()
        shot = _save_screenshot(page, tmp_path, "11_explore.png")
        assert shot.stat().st_size > 10_000
        assert (root / "outputs" / "11_explore" / "results.json").is_file()
        assert not errors, errors
    finally:
        page.close()


def test_html_report_renders_tables_and_figures(browser, tmp_path):
    try:
        from reteval.comparison import compare
        from reteval.report import write_report
    except ImportError as error:
        pytest.skip(f"the report writer is not available yet: {error}")
    qrels = {f"q{i}": {"d1": 1, "d2": i % 3} for i in range(8)}
    runs = {
        "good": {f"q{i}": ["d1", "d2", "x"] if i % 4 else ["x", "d1"] for i in range(8)},
        "<i>bad</i>": {f"q{i}": ["x", "d2", "d1"] if i % 2 else ["d1", "y"] for i in range(8)},
    }
    comparison = compare(qrels, runs, ["P@1", "RR", "nDCG@3"], baseline="good", rng=0)
    paths = write_report(comparison, tmp_path / "report")
    figures = [p for p in paths if p.startswith("figures/")]
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    try:
        page.goto(paths["report.html"].as_uri())
        page.wait_for_load_state("load")
        assert page.locator("table").count() >= 1
        assert page.locator("table tr").count() >= 3  # a header and both systems
        assert page.get_by_text("<i>bad</i>").count() >= 1  # escaped: shown as text
        assert page.locator("i", has_text="bad").count() == 0  # ... not as markup
        images = page.evaluate(
            "() => Array.from(document.images).map(i => [i.complete, i.naturalWidth])")
        assert len(images) == len(figures) >= 1
        assert all(complete and width > 0 for complete, width in images), images
        _save_screenshot(page, tmp_path, "report.png")
    finally:
        page.close()


# -- The book (reteval.book) in a real browser --------------------------------------------------

BOOK_NOTEBOOKS = ["01_measures"]
CJK = re.compile(r"[\u4e00-\u9fff]")
CJK_FAMILY = re.compile(r"CJK|Source Han|PingFang|YaHei|WenQuanYi|Heiti|Noto Sans SC",
                        re.IGNORECASE)


@pytest.fixture(scope="module")
def book(browser, tmp_path_factory):
    """Both editions of the book's notebooks run by the pipeline (the run notebook 01's tests
    read), and the book built from them."""
    from notebook_run import pipeline_run

    from reteval.book.html import build_book

    out = tmp_path_factory.mktemp("book") / "outputs"
    shutil.copytree(pipeline_run(BOOK_NOTEBOOKS), out,
                    ignore=shutil.ignore_patterns(".complete"))
    build_book(out)
    return out


def _book_page(browser):
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.set_default_timeout(30_000)
    outside = []
    page.on("request", lambda request: outside.append(request.url)
            if not request.url.startswith(("file:", "data:")) else None)
    return page, outside


@pytest.mark.notebook
@pytest.mark.slow
def test_book_every_link_resolves_and_every_image_loads(browser, book):
    page, outside = _book_page(browser)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        start = (book / "index.html").resolve()
        todo, seen, images = [start], set(), {}
        while todo:
            path = todo.pop()
            if path in seen:
                continue
            seen.add(path)
            page.goto(path.as_uri())
            page.wait_for_load_state("load")
            assert page.title(), path
            refs = page.evaluate(
                "() => Array.from(document.querySelectorAll('a[href], img[src], link[href], "
                "script[src]')).map(e => e.href || e.src)")
            assert refs, path
            for ref in refs:
                if ref.startswith("data:"):
                    continue
                assert ref.startswith("file://"), (path, ref)  # relative links only
                target = Path(urllib.request.url2pathname(ref.split("#")[0][len("file://"):]))
                assert target.is_file(), (path, ref)
                if target.suffix == ".html" and book.resolve() in target.parents and (
                        target.name.startswith(("index", "glossary"))
                        or target.stem == target.parent.name):
                    todo.append(target)
            if path.stem == path.parent.name:  # a notebook page: its figures are drawn
                images[path] = page.evaluate(
                    "async () => { const imgs = Array.from(document.images);"
                    " await Promise.all(imgs.map(i => i.decode().catch(() => null)));"
                    " return imgs.map(i => [i.complete, i.naturalWidth]); }")
        pages = {p.relative_to(book.resolve()).as_posix() for p in seen}
        for lang in ("zh", "en"):
            assert {f"{lang}/index.html", f"{lang}/glossary.html"} <= pages
            for name in BOOK_NOTEBOOKS:
                assert f"{lang}/{name}/{name}.html" in pages
        for name in BOOK_NOTEBOOKS:
            assert len(images[book.resolve() / "zh" / name / f"{name}.html"]) >= 1, name
        for path, found in images.items():
            assert all(complete and width > 0 for complete, width in found), (path, found)
        assert not outside, outside  # nothing asked of the network
        assert not errors, errors
    finally:
        page.close()


def _platform_fonts(page, selector: str) -> list[str]:
    """The fonts Chromium really drew the text of ``selector`` with (DevTools protocol)."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument")["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        assert node, selector
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        return [f["familyName"] for f in fonts if f["glyphCount"] > 0]
    finally:
        cdp.detach()


@pytest.mark.notebook
@pytest.mark.slow
def test_book_chinese_pages_use_a_cjk_font_and_switch_language(browser, book):
    page, outside = _book_page(browser)
    try:
        for name in BOOK_NOTEBOOKS:
            zh = (book / "zh" / name / f"{name}.html").resolve()
            page.goto(zh.as_uri())
            page.wait_for_load_state("load")
            assert page.evaluate("document.documentElement.lang") == "zh-CN"
            assert CJK.search(page.inner_text("header"))
            # Every glyph of the Chinese title was drawn with a CJK font: no missing-glyph boxes.
            fonts = _platform_fonts(page, "header .title")
            assert fonts and all(CJK_FAMILY.search(f) for f in fonts), fonts
            # A bilingual notebook's Chinese edition reads in Chinese, drawn with a CJK font.
            assert CJK.search(page.inner_text("main h1")), name
            assert len(CJK.findall(page.inner_text("main"))) > 200, name
            fonts = _platform_fonts(page, "main h1")
            assert fonts and all(CJK_FAMILY.search(f) for f in fonts), (name, fonts)
            _save_screenshot(page, Path(str(zh.parent)), f"book_zh_{name}.png")
            en = (book / "en" / name / f"{name}.html").resolve()
            page.goto(en.as_uri())
            page.wait_for_load_state("load")
            assert not CJK.search(page.inner_text("main h1")), name

        name = BOOK_NOTEBOOKS[-1]
        zh = (book / "zh" / name / f"{name}.html").resolve()
        page.goto(zh.as_uri())
        page.wait_for_load_state("load")
        page.click("a.lang-switch")
        page.wait_for_load_state("load")
        en = (book / "en" / name / f"{name}.html").resolve()
        assert page.url == en.as_uri()
        assert page.evaluate("document.documentElement.lang") == "en"
        page.click("a.lang-switch")
        page.wait_for_load_state("load")
        assert page.url == zh.as_uri()
        glossary = (book / "zh" / "glossary.html").resolve()
        page.goto(glossary.as_uri())
        assert "召回率" in page.inner_text("main")
        assert page.locator('main [lang="en"]').first.is_hidden()  # the other language's intro
        assert page.locator('main [lang="zh-CN"]').first.is_visible()
        fonts = _platform_fonts(page, "main table td")
        assert fonts and all(CJK_FAMILY.search(f) for f in fonts), fonts
        assert not outside, outside
    finally:
        page.close()
