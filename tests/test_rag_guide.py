"""docs/rag.md runs as written: its ```python blocks, in order, in one namespace.

A ```text block right after a ```python block is what the snippet prints; the printed text
must be the same (trailing spaces aside). The snippets run in a fresh folder, since they
write a judgment cache and a history.
"""

from __future__ import annotations

import contextlib
import io
import re

from paths import ROOT

GUIDE = ROOT / "docs" / "rag.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```$", re.DOTALL | re.MULTILINE)


def blocks() -> list[tuple[str, str | None]]:
    """The python blocks, each with the text block that follows it (or None)."""
    found = [(m.group(1), m.group(2)) for m in BLOCK.finditer(GUIDE.read_text(encoding="utf-8"))]
    out = []
    for i, (lang, body) in enumerate(found):
        if lang == "python":
            following = found[i + 1] if i + 1 < len(found) else None
            out.append((body, following[1] if following and following[0] == "text" else None))
    return out


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip("\n").splitlines()]


def test_the_guide_runs_and_prints_what_it_shows(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    snippets = blocks()
    assert len(snippets) >= 6
    namespace: dict = {}
    for number, (code, expected) in enumerate(snippets, start=1):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, f"docs/rag.md snippet {number}", "exec"), namespace)  # noqa: S102
        if expected is not None:
            assert _lines(printed.getvalue()) == _lines(expected), f"snippet {number}"
