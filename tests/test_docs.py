"""Every path and relative link that README.md and docs/*.md name exists.

What is checked, in ``README.md``, ``docs/*.md`` and ``bench/README.md``:

* **Markdown links** ``[text](target)``, images and reference definitions ``[name]: target``
  whose target is relative (not ``http:``, ``https:``, ``mailto:``): the target is resolved
  against the folder of the Markdown file, and a ``#fragment`` must be a heading of the target
  (GitHub's anchors: lower case, punctuation dropped, spaces as hyphens). A bare ``#fragment``
  is a heading of the same file.
* **Repository paths in code**, in inline code spans and fenced code blocks: every word that
  starts with ``reteval/``, ``tests/``, ``notebooks/``, ``bench/``, ``docs/`` or ``params/``, or
  is one of the top-level files (``README.md``, ``Makefile``, ``pyproject.toml``,
  ``environment.yml``), resolved against the repository root. ``path::name`` also needs
  ``def name`` or ``class name`` in that file.
* **Module names in code**: ``reteval.a.b.name`` must be a module or package of ``reteval/``
  followed by at most one name that the module defines, imports or lists (``__all__``, a lazy
  loader's table) at its top level, so a page names where a thing lives; ``name*`` must
  match some module.
* **Placeholders**: ``NN`` in a path stands for two digits, ``<...>`` for one path part, and
  ``*`` is a glob; such a path must match at least one file or folder.

Not checked: what is generated rather than committed: ``outputs/`` (written by ``make run``;
it does not start with a checked folder, so ``outputs/<lang>/...`` is never looked up),
``bench/data/`` (the benchmarks' cached data, git-ignored) and ``.venv/``; paths outside the
repository (``../shared/...``: the reference data, absent on some machines); URLs; words in code
that start with none of the folders above (``runs/today.trec``, ``out.ipynb``: examples of the
reader's own files).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from paths import ROOT

FOLDERS = ("reteval/", "tests/", "notebooks/", "bench/", "docs/", "params/")
FILES = ("README.md", "Makefile", "pyproject.toml", "environment.yml")
GENERATED = ("bench/data/",)
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)  # http:, https:, mailto:, ...
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
STRIP = "\"'(),;:|{}"
MODULE = re.compile(r"(?<![\w./])reteval(?:\.[A-Za-z_]\w*)+\*?")


def documents(root: Path = ROOT) -> list[Path]:
    """The Markdown files whose paths and links are checked."""
    found = [root / "README.md", *sorted((root / "docs").glob("*.md")),
             root / "bench" / "README.md"]
    return [path for path in found if path.is_file()]


def _slug(heading: str) -> str:
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())  # a link: its text
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """GitHub's anchors of a Markdown file's headings (``-1``, ``-2`` for repeated ones)."""
    seen: dict[str, int] = {}
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and (match := re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)):
            slug = _slug(match.group(1))
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            if count:
                seen[f"{slug}-{count}"] = 1
    return set(seen)


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _split(text: str) -> tuple[str, str]:
    """The prose and the fenced code, each with the other blanked (offsets and lines kept)."""
    prose, code, fenced = [], [], False
    for line in text.split("\n"):
        blank = " " * len(line)
        if FENCE.match(line):
            fenced = not fenced
            prose.append(blank)
            code.append(blank)
        elif fenced:
            prose.append(blank)
            code.append(line)
        else:
            prose.append(line)
            code.append(blank)
    return "\n".join(prose), "\n".join(code)


def _words(code: str, start: int = 0):
    """Each repository path and dotted module name in a piece of code, with its offset."""
    for match in re.finditer(r"[^\s=]+", code):
        word = match.group(0).strip(STRIP).rstrip(".")
        if word.startswith(FOLDERS) or word in FILES:
            yield start + match.start(), word
    for match in MODULE.finditer(code):
        yield start + match.start(), match.group(0)


def _pattern(path: str) -> str:
    pattern = re.sub(r"<[^<>/]*>", "*", path)
    return re.sub(r"NN", "[0-9][0-9]", pattern)


def missing_module(word: str, root: Path = ROOT) -> str | None:
    """Why ``reteval.a.b.name`` names no module or no name of one, or None when it does."""
    parts = word.split(".")
    if parts[-1].endswith("*"):  # reteval.teaching.chapter_*: some module matches
        folder = root.joinpath(*parts[:-1])
        if next(iter(folder.glob(parts[-1])), None) is None:
            return f"`{word}`: no module matches"
        return None
    source = root / "reteval" / "__init__.py"
    for depth in range(1, len(parts)):
        here = root.joinpath(*parts[:depth + 1])
        if (here / "__init__.py").is_file():
            source = here / "__init__.py"
        elif here.with_suffix(".py").is_file():
            source = here.with_suffix(".py")
        else:
            break
    else:
        return None  # every part is a module or package
    name = parts[depth]
    if name not in _top_level_names(source):
        return f"`{word}`: {'.'.join(parts[:depth])} has no module or name {name}"
    return None


def _top_level_names(source: Path) -> set[str]:
    """What a module defines or imports at its top level, and the strings it lists there
    (``__all__``, a lazy loader's table)."""
    names: set[str] = set()
    body = list(ast.parse(source.read_text(encoding="utf-8")).body)
    while body:
        node = body.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).partition(".")[0] for alias in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Name):
                    names.add(sub.id)
                elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                    names.add(sub.value)
        elif isinstance(node, (ast.If, ast.Try)):
            body += node.body + node.orelse + getattr(node, "finalbody", [])
            body += [n for handler in getattr(node, "handlers", []) for n in handler.body]
    return names


def missing_path(word: str, root: Path = ROOT) -> str | None:
    """Why a repository path named in code does not exist, or None (it does, or is not checked)."""
    if word.startswith("reteval."):
        return missing_module(word, root)
    path, _, name = word.partition("::")
    if path.startswith(GENERATED):
        return None
    pattern = _pattern(path).rstrip("/")
    if any(char in pattern for char in "*?["):
        if next(iter(root.glob(pattern)), None) is None:
            return f"`{word}`: nothing matches {pattern}"
        return None
    target = root / pattern
    if not target.exists():
        return f"`{word}` does not exist"
    if name and target.is_file():
        source = target.read_text(encoding="utf-8")
        if not re.search(rf"^\s*(?:async\s+)?(?:def|class)\s+{re.escape(name)}\b", source,
                         re.MULTILINE):
            return f"`{word}`: {path} defines no {name}"
    return None


def missing_link(target: str, document: Path, root: Path = ROOT) -> str | None:
    """Why a Markdown link's target does not exist, or None when it does (or is external)."""
    if EXTERNAL.match(target):
        return None
    path, _, fragment = target.partition("#")
    resolved = (document.parent / path).resolve() if path else document
    try:
        resolved.relative_to(root)
    except ValueError:
        return f"link ({target}) leaves the repository"
    if not resolved.exists():
        return f"link ({target}): {resolved.relative_to(root)} does not exist"
    if fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
        return f"link ({target}): {resolved.relative_to(root)} has no heading #{fragment}"
    return None


def problems(document: Path, root: Path = ROOT) -> list[str]:
    """Every missing path and broken link of one Markdown file, as ``file:line: what``."""
    text = document.read_text(encoding="utf-8")
    name = document.relative_to(root).as_posix()
    prose, code = _split(text)
    found = []
    for offset, word in _words(code):
        found.append((offset, missing_path(word, root)))
    for match in CODE_SPAN.finditer(prose):
        for offset, word in _words(match.group(2), match.start(2)):
            found.append((offset, missing_path(word, root)))
    without_code = CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), prose)
    for regex in (LINK, REFERENCE):
        for match in regex.finditer(without_code):
            found.append((match.start(), missing_link(match.group(1), document, root)))
    return [f"{name}:{_line(text, offset)}: {why}" for offset, why in sorted(found) if why]


@pytest.mark.parametrize("document", documents(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_named_path_and_link_exists(document):
    found = problems(document)
    assert not found, "\n".join(found)


def test_the_front_page_and_the_docs_index_are_checked():
    names = {path.relative_to(ROOT).as_posix() for path in documents()}
    assert {"README.md", "docs/index.md"} <= names


def test_every_page_is_linked_from_the_index():
    index = ROOT / "docs" / "index.md"
    linked = {(index.parent / target.partition("#")[0]).resolve()
              for target in LINK.findall(index.read_text(encoding="utf-8"))}
    pages = set((ROOT / "docs").glob("*.md")) - {index}
    assert sorted(page.name for page in pages if page.resolve() not in linked) == []


# The checker itself, on a small repository of its own.

@pytest.fixture
def repo(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "reteval" / "io").mkdir(parents=True)
    (tmp_path / "reteval" / "io" / "runfile.py").write_text("def read_run():\n    pass\n")
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "01_intro.ipynb").write_text("{}")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "speed.md").write_text("# Speed\n\n## Start-up time: `--help`\n")
    return tmp_path


def _write(repo, text, name="README.md"):
    path = repo / name
    path.write_text(text, encoding="utf-8")
    return problems(path, repo)


def test_existing_paths_and_links_pass(repo):
    text = ("Read `reteval/io/runfile.py` and `reteval/io/runfile.py::read_run`,\n"
            "run `notebooks/NN_*.ipynb` (`notebooks/<name>.ipynb`), see [speed](docs/speed.md)\n"
            "and [start-up](docs/speed.md#start-up-time---help).\n"
            "```bash\npapermill notebooks/01_intro.ipynb out.ipynb\n```\n")
    assert _write(repo, text) == []


def test_missing_paths_are_named_with_file_and_line(repo):
    text = ("# Title\n\nThe reader is `reteval/io/qrelsfile.py`.\n"
            "Tests: `reteval/io/runfile.py::write_run`, and `tests/test_nb_NN.py`.\n"
            "```bash\n.venv/bin/papermill notebooks/02_gone.ipynb out.ipynb\n```\n")
    assert _write(repo, text) == [
        "README.md:3: `reteval/io/qrelsfile.py` does not exist",
        ("README.md:4: `reteval/io/runfile.py::write_run`: reteval/io/runfile.py defines no "
         "write_run"),
        "README.md:4: `tests/test_nb_NN.py`: nothing matches tests/test_nb_[0-9][0-9].py",
        "README.md:6: `notebooks/02_gone.ipynb` does not exist",
    ]


def test_broken_links_are_named_relative_to_their_file(repo):
    text = "See [speed](speed.md#memory),\n[index](index.md), [top](#speed) and [up](../../x.md).\n"
    assert _write(repo, text, "docs/page.md") == [
        "docs/page.md:1: link (speed.md#memory): docs/speed.md has no heading #memory",
        "docs/page.md:2: link (index.md): docs/index.md does not exist",
        "docs/page.md:2: link (#speed): docs/page.md has no heading #speed",
        "docs/page.md:2: link (../../x.md) leaves the repository",
    ]


def test_generated_external_and_foreign_paths_are_not_looked_up(repo):
    text = ("`make run` writes `outputs/zh/01_intro/results.json`; data in `bench/data/`,\n"
            "`../shared/data/scifact`, `runs/today.trec`, [ir_measures](https://ir-measur.es).\n"
            "A link inside code is code: `[x](missing.md)`.\n")
    assert _write(repo, text) == []


def test_a_code_span_across_lines_is_read_whole(repo):
    text = "Run `papermill\nnotebooks/03_missing.ipynb out.ipynb` once.\n"
    assert _write(repo, text) == ["README.md:2: `notebooks/03_missing.ipynb` does not exist"]


def test_module_names_are_looked_up_in_the_package(repo):
    (repo / "reteval" / "__init__.py").write_text(
        '__all__ = ["evaluate"]\n_LAZY = {"evaluate": "reteval.engine"}\n')
    (repo / "reteval" / "io" / "__init__.py").write_text(
        "from reteval.io.runfile import (\n    read_run,\n)\n")
    (repo / "reteval" / "io" / "chapter_one.py").write_text("")
    text = ("`reteval.evaluate(qrels, run)`, `reteval.io.read_run`,\n"
            "`reteval.io.runfile.read_run`, `reteval.io.chapter_*`, `reteval.io.runfile`,\n"
            "`reteval.plots.plot_curve`, `reteval.io.write_run`, `reteval.io.runfile.helper`.\n")
    assert _write(repo, text) == [
        "README.md:3: `reteval.plots.plot_curve`: reteval has no module or name plots",
        "README.md:3: `reteval.io.write_run`: reteval.io has no module or name write_run",
        "README.md:3: `reteval.io.runfile.helper`: reteval.io.runfile has no module or name helper",
    ]
