"""Two editions, Chinese and English, from one bilingual notebook.

A teaching notebook is one source file. Its Markdown cells carry a language tag
in their metadata, ``lang-zh`` or ``lang-en``, and come in pairs: a ``lang-zh``
cell immediately followed by its ``lang-en`` translation. Code cells are shared
and carry no language tag; the parameters cell declares ``lang`` and the code
chooses the text it shows by it. :func:`edition` keeps one language's prose;
:func:`check_bilingual` lists what breaks these rules.

The rules :func:`check_bilingual` applies, cell by cell:

* every Markdown cell has exactly one of the tags ``lang-zh`` and ``lang-en``;
* a ``lang-zh`` cell is immediately followed by a ``lang-en`` cell, and a
  ``lang-en`` cell immediately follows a ``lang-zh`` cell;
* a Chinese cell contains Chinese (CJK ideographs) and no English paragraph:
  no run of 12 or more consecutive English words. Code (fenced blocks and
  ``inline code``), math (``$...$``, ``$$...$$``), images, link targets, HTML
  tags and text marked ``<span lang="en">...</span>`` (a paper title, a quoted
  English sentence) are not counted;
* an English cell contains no Chinese sentence: no run of more than 12 Chinese
  characters (ideographs, with the Latin letters, digits and Chinese punctuation
  written between them without spaces) outside code, math, parentheses (a
  glossary-style gloss: "recall (召回率)"), quotation marks (a quoted Chinese
  example: "机器学习是人工智能的分支"), emphasis (the chapter's section
  **A/B 测试**) and ``<span lang="zh">...</span>``. A Chinese term named in
  passing ("AI is 人工智能") is a shorter run and is allowed;
* the parameters cell (tag ``parameters``) assigns ``lang``.

An edition keeps the code cells unchanged, so both editions run the same code;
run an edition with ``lang`` set to its language (``reteval run --lang`` does).
"""

from __future__ import annotations

import ast
import copy
import os
import re

from reteval._util.catalogue import LANGUAGES, check_lang
from reteval._util.languages import language
from reteval.errors import InputError

__all__ = ["LANGUAGES", "TAGS", "check_bilingual", "chinese_run", "class_minutes", "edition",
           "english_run", "read_notebook"]

TAGS = {lang: f"lang-{lang}" for lang in LANGUAGES}
ENGLISH_RUN = 12  # consecutive English words that make an English paragraph in a Chinese cell
CHINESE_RUN = 13  # Chinese characters in a run that make a Chinese sentence in an English cell

_IDEOGRAPH = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CODE_AND_MATH = [
    re.compile(r"```.*?```", re.DOTALL),
    re.compile(r"~~~.*?~~~", re.DOTALL),
    re.compile(r"`[^`\n]*`"),
    re.compile(r"\$\$.*?\$\$", re.DOTALL),
    re.compile(r"\$[^$\n]+\$"),
    re.compile(r"\\\(.*?\\\)", re.DOTALL),
    re.compile(r"\\\[.*?\\\]", re.DOTALL),
    re.compile(r"!\[[^\]]*\]\([^)]*\)"),  # images
    re.compile(r"\]\([^)]*\)"),  # link targets (the link text stays)
    re.compile(r"https?://\S+"),
]
_SPAN = {lang: re.compile(rf"<span\s+lang=[\"']{lang}[\"']\s*>.*?</span>",
                          re.DOTALL | re.IGNORECASE)
         for lang in LANGUAGES}
_TAG = re.compile(r"<[^>\n]+>")
_GLOSS = [
    re.compile(r"\([^()]*\)"),
    re.compile(r"（[^（）]*）"),
    re.compile(r"\"[^\"]*\""),
    re.compile(r"“[^”]*”"),
    re.compile(r"「[^」]*」"),
    re.compile(r"‘[^’]*’"),
    re.compile(r"\*\*[^*\n]+\*\*"),
    re.compile(r"(?<![*\w])\*[^*\n]+\*(?![*\w])"),
    re.compile(r"(?<![_\w])__?[^_\n]+__?(?![_\w])"),
]
_CHINESE_RUN = re.compile(
    r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffefA-Za-z0-9]+"
)
_WORD = re.compile(r"^[(\[\"'“‘*_]*[A-Za-z][A-Za-z0-9'’\-/.]*[)\]\"'”’*_,.;:!?]*$")


def read_notebook(notebook):
    """A notebook node from a node (returned as is) or a path (read with nbformat).

    Raises
    ------
    InputError
        The path does not exist or is not a notebook.
    """
    import nbformat

    if isinstance(notebook, (str, os.PathLike)):
        try:
            return nbformat.read(os.fspath(notebook), as_version=4)
        except FileNotFoundError:
            raise InputError("no such notebook", path=notebook) from None
        except (ValueError, OSError) as exc:  # NotJSONError, UnicodeDecodeError, ...
            raise InputError(f"not a readable notebook: {exc}", path=notebook) from None
    return notebook


def _tags(cell) -> set:
    return set(cell.get("metadata", {}).get("tags", []) or [])


def _cell_lang(cell) -> str | None:
    found = [lang for lang in LANGUAGES if TAGS[lang] in _tags(cell)]
    return found[0] if len(found) == 1 else None


def edition(notebook, lang: str):
    """The edition of a bilingual notebook in one language.

    Parameters
    ----------
    notebook : nbformat.NotebookNode or path
        A bilingual notebook (see the module docstring). It is not changed.
    lang : {"zh", "en"}
        The language to keep.

    Returns
    -------
    nbformat.NotebookNode
        A copy without the other language's Markdown cells; code cells and
        untagged cells are kept unchanged. ``metadata["reteval"]["lang"]``
        records the language.

    Raises
    ------
    InputError
        ``lang`` is not ``"zh"`` or ``"en"``.

    Examples
    --------
    >>> import nbformat.v4 as v4
    >>> nb = v4.new_notebook(cells=[
    ...     v4.new_markdown_cell("召回率", metadata={"tags": ["lang-zh"]}),
    ...     v4.new_markdown_cell("Recall", metadata={"tags": ["lang-en"]}),
    ...     v4.new_code_cell("print(1)")])
    >>> en = edition(nb, "en")
    >>> [c.source for c in en.cells], en.metadata["reteval"]["lang"]
    (['Recall', 'print(1)'], 'en')
    >>> len(nb.cells)
    3
    """
    check_lang(lang)
    other = {TAGS[x] for x in LANGUAGES if x != lang}
    result = copy.deepcopy(read_notebook(notebook))
    result.cells = [c for c in result.cells
                    if not (c.cell_type == "markdown" and _tags(c) & other)]
    result.metadata.setdefault("reteval", {})["lang"] = lang
    return result


# What a class spends on a notebook: reading its prose (at the language's reading speed),
# running and reading each code cell, each exercise.
MINUTES_PER_CODE_CELL = 1.5
MINUTES_PER_EXERCISE = 6.0
CLASS_MINUTES = 90  # one class session
_EXERCISE = re.compile(r"""\bcheck\(\s*["']\d\d[a-z]?\.\d+["']""")


def class_minutes(notebook, lang: str) -> float:
    """How long one edition of a teaching notebook takes in class, in minutes (an estimate).

    Prose is read at the language's ``reading_speed`` (250 Chinese characters or 150
    English words a minute, technical text read with care), each code cell
    takes ``MINUTES_PER_CODE_CELL`` (1.5: run it, read its output) and each
    exercise (a code cell calling ``check("NN.i", ...)``) ``MINUTES_PER_EXERCISE``
    (6). Code cells tagged ``record`` (bookkeeping, folded in the book) and the
    parameters cell are not counted. A notebook fits one class session when
    this is at most ``CLASS_MINUTES`` (90).

    Examples
    --------
    >>> import nbformat.v4 as v4
    >>> nb = v4.new_notebook(cells=[
    ...     v4.new_markdown_cell("召" * 500, metadata={"tags": ["lang-zh"]}),
    ...     v4.new_markdown_cell("word " * 600, metadata={"tags": ["lang-en"]}),
    ...     v4.new_code_cell("x = 1"),
    ...     v4.new_code_cell('check("01.1", None)')])
    >>> class_minutes(nb, "zh"), class_minutes(nb, "en")
    (9.5, 11.5)
    """
    cells = edition(notebook, lang).cells
    minutes = 0.0
    for cell in cells:
        if cell.cell_type == "markdown":
            text = _strip(cell.source, _CODE_AND_MATH)  # code, math, link targets: not prose
            amount = (len(_IDEOGRAPH.findall(text)) if language(lang).cjk
                      else len(_IDEOGRAPH.sub(" ", text).split()))
            minutes += amount / language(lang).reading_speed
        elif cell.cell_type == "code" and not _tags(cell) & {"record", "parameters"}:
            exercise = _EXERCISE.search(cell.source)
            minutes += MINUTES_PER_EXERCISE if exercise else MINUTES_PER_CODE_CELL
    return minutes


def _strip(text: str, patterns) -> str:
    for pattern in patterns:
        text = pattern.sub(" ", text)
    return text


def english_run(text: str) -> str:
    """The longest run of consecutive English words in Markdown ``text`` (code, math, ... left out).

    Examples
    --------
    >>> english_run("召回率衡量 `recall_at_k(a, b, c)` 的值 the first three words")
    'the first three words'
    """
    text = _TAG.sub(" ", _SPAN["en"].sub(" ", _strip(text, _CODE_AND_MATH)))
    best, run = [], []
    for token in text.split():
        if _WORD.match(token) and not _IDEOGRAPH.search(token):
            run.append(token)
            if len(run) > len(best):
                best = list(run)
        else:
            run = []
    return " ".join(best)


def chinese_run(text: str) -> str:
    """The longest run of Chinese in English Markdown ``text``, glosses left out.

    Code, math, parentheses, quotation marks, emphasis and ``<span lang="zh">``
    are left out; a run may hold Latin letters and digits written between
    Chinese characters without spaces.

    Examples
    --------
    >>> chinese_run("Recall (召回率) counts “机器学习是人工智能的分支” as **A/B 测试**")
    ''
    >>> chinese_run("AI is 人工智能, and 机器学习是AI的分支 too")
    '机器学习是AI的分支'
    """
    text = _strip(_SPAN["zh"].sub(" ", _strip(text, _CODE_AND_MATH)), _GLOSS)
    runs = [m.group(0) for m in _CHINESE_RUN.finditer(text) if _IDEOGRAPH.search(m.group(0))]
    return max(runs, key=lambda run: len(_IDEOGRAPH.findall(run)), default="")


def _declares_lang(source: str) -> bool:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        if any(isinstance(t, ast.Name) and t.id == "lang" for t in targets):
            return True
    return False


def check_bilingual(notebook) -> list[str]:
    """What keeps a notebook from being a well-formed bilingual source.

    Parameters
    ----------
    notebook : nbformat.NotebookNode or path

    Returns
    -------
    list of str
        One line per problem, naming the cell (``cell 3``: index in the
        source, from 0); empty when the notebook follows every rule of the
        module docstring.

    Examples
    --------
    >>> import nbformat.v4 as v4
    >>> nb = v4.new_notebook(cells=[
    ...     v4.new_code_cell('lang = "zh"', metadata={"tags": ["parameters"]}),
    ...     v4.new_markdown_cell("召回率", metadata={"tags": ["lang-zh"]}),
    ...     v4.new_markdown_cell("Recall", metadata={"tags": ["lang-en"]})])
    >>> check_bilingual(nb)
    []
    >>> nb.cells[2].metadata["tags"] = []
    >>> check_bilingual(nb)  # doctest: +NORMALIZE_WHITESPACE
    ['cell 1: lang-zh cell not followed by its lang-en translation',
     'cell 2: Markdown cell without a language tag (lang-zh or lang-en)']
    """
    cells = read_notebook(notebook).cells
    problems = []
    langs = [_cell_lang(c) if c.cell_type == "markdown" else None for c in cells]
    for i, cell in enumerate(cells):
        if cell.cell_type != "markdown":
            continue
        tags = _tags(cell)
        if TAGS["zh"] in tags and TAGS["en"] in tags:
            problems.append(f"cell {i}: Markdown cell tagged both lang-zh and lang-en")
            continue
        lang = langs[i]
        if lang is None:
            problems.append(f"cell {i}: Markdown cell without a language tag (lang-zh or lang-en)")
            continue
        if lang == "zh":
            if i + 1 >= len(cells) or langs[i + 1] != "en":
                problems.append(f"cell {i}: lang-zh cell not followed by its lang-en translation")
            if not _IDEOGRAPH.search(_strip(cell.source, _CODE_AND_MATH)):
                problems.append(f"cell {i}: lang-zh cell has no Chinese text")
            run = english_run(cell.source)
            if len(run.split()) >= ENGLISH_RUN:
                problems.append(f"cell {i}: lang-zh cell has an English paragraph: {run[:80]!r}")
        else:
            if i == 0 or langs[i - 1] != "zh":
                problems.append(f"cell {i}: lang-en cell not preceded by its lang-zh original")
            run = chinese_run(cell.source)
            if len(_IDEOGRAPH.findall(run)) >= CHINESE_RUN:
                problems.append(f"cell {i}: lang-en cell has a Chinese sentence (not in quotes, "
                                f"parentheses or code): {run[:40]!r}")
    parameters = [c for c in cells if c.cell_type == "code" and "parameters" in _tags(c)]
    if not parameters:
        problems.append("no code cell tagged 'parameters' (it must declare lang)")
    elif not _declares_lang(parameters[0].source):
        problems.append("the parameters cell does not declare lang (lang = \"zh\")")
    return problems
