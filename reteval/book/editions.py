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


# What a class spends on a notebook, per unit read, looked at or done (see class_minutes).
MINUTES_PER_CODE_LINE = 0.125  # 8 lines of code a minute
MINUTES_PER_OUTPUT_LINE = 0.1  # 10 printed lines a minute
MINUTES_PER_TABLE_ROW = 0.1  # 10 rows of a table a minute
MINUTES_PER_FIGURE = 2.0
MINUTES_PER_EXERCISE = 6.0
CLASS_MINUTES = 90  # one class session
_EXERCISE = re.compile(r"""\bcheck\(\s*["']\d\d[a-z]?\.\d+["']""")
_NOT_TAUGHT = {"record", "parameters", "injected-parameters"}
_FIGURE_TYPES = ("image/png", "image/jpeg", "image/svg+xml",
                 "application/vnd.jupyter.widget-view+json")
_MARKDOWN_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)|<img\b", re.IGNORECASE)
_TABLE_ROW = re.compile(r"<tr\b", re.IGNORECASE)


def _lines(text) -> int:
    text = "".join(text) if isinstance(text, list) else str(text)
    return sum(1 for line in text.splitlines() if line.strip())


def _output_minutes(output) -> float:
    """What reading one output of a code cell takes: its lines, its table's rows, a figure."""
    kind = output.get("output_type")
    if kind == "stream":
        return _lines(output.get("text", "")) * MINUTES_PER_OUTPUT_LINE
    if kind == "error":
        return (1 + _lines(output.get("evalue", ""))) * MINUTES_PER_OUTPUT_LINE
    data = output.get("data", {})
    if any(key in data for key in _FIGURE_TYPES):
        return MINUTES_PER_FIGURE
    html = data.get("text/html")
    if html is not None:
        html = "".join(html) if isinstance(html, list) else html
        rows = len(_TABLE_ROW.findall(html))
        if rows:
            return rows * MINUTES_PER_TABLE_ROW
        return _lines(_TAG.sub("", html)) * MINUTES_PER_OUTPUT_LINE
    text = data.get("text/markdown", data.get("text/plain", ""))
    return _lines(text) * MINUTES_PER_OUTPUT_LINE


def class_minutes(notebook, lang: str) -> float:
    """How long one edition of a teaching notebook takes in class, in minutes (an estimate).

    A class reads the prose, reads each code cell and what it printed or drew, and
    thinks about each exercise before answering it. The rates are plain reading rates
    of technical material read with care, not skimmed:

    * prose at the language's ``reading_speed``: 250 Chinese characters or 150 English
      words a minute;
    * code at ``MINUTES_PER_CODE_LINE`` (0.125: 8 lines a minute; a line of Python holds
      about 8 to 10 words and names, read at half the speed of prose, as code is);
    * printed text at ``MINUTES_PER_OUTPUT_LINE`` (0.1: 10 lines a minute; the
      notebooks print sentences, a line holding about 15 English words or 25 Chinese
      characters, read at prose speed) and a table at ``MINUTES_PER_TABLE_ROW`` (0.1 a
      row, header rows included: a row of numbers read across and compared with its
      neighbours, as a printed line);
    * a figure (an image output, a widget, or an image in the prose) at
      ``MINUTES_PER_FIGURE`` (2: its axes, legend and lines, and the point the prose
      makes of it);
    * an exercise (a code cell calling ``check("NN.i", ...)``) at
      ``MINUTES_PER_EXERCISE`` (6: read it, think, compute, answer; its cell's own code
      and output are part of it).

    Outputs count only when present: an executed notebook (papermill's, ``reteval
    run``'s) costs its code and its outputs, an unexecuted one its code only. Code
    cells tagged ``record`` (bookkeeping, folded in the book), ``parameters`` or
    ``injected-parameters`` are not counted. A notebook fits one class session when
    this is at most ``CLASS_MINUTES`` (90).

    Calibration: notebooks 01, 02 and 03, which a class does get through in one
    session, each edition executed by ``reteval run --lang all`` with
    ``params/default.yml``, come out at 01 zh 67.2 / en 69.2, 02 zh 77.2 / en 78.8
    and 03 zh 70.4 / en 71.5 minutes: under ``CLASS_MINUTES``, with the margin a class
    needs for questions. The editions share their code, and their outputs differ in
    words, not in lines, rows or figures, so one executed edition measures both
    within a minute.

    Examples
    --------
    >>> import nbformat.v4 as v4
    >>> nb = v4.new_notebook(cells=[
    ...     v4.new_markdown_cell("召" * 500, metadata={"tags": ["lang-zh"]}),
    ...     v4.new_markdown_cell("word " * 600, metadata={"tags": ["lang-en"]}),
    ...     v4.new_code_cell("x = 1\\nprint(x)", outputs=[
    ...         v4.new_output("stream", name="stdout", text="1\\n")]),
    ...     v4.new_code_cell('check("01.1", None)')])
    >>> round(class_minutes(nb, "zh"), 2), round(class_minutes(nb, "en"), 2)
    (8.35, 10.35)
    """
    cells = edition(notebook, lang).cells
    minutes = 0.0
    for cell in cells:
        if cell.cell_type == "markdown":
            text = _strip(cell.source, _CODE_AND_MATH)  # code, math, link targets: not prose
            amount = (len(_IDEOGRAPH.findall(text)) if language(lang).cjk
                      else len(_IDEOGRAPH.sub(" ", text).split()))
            minutes += amount / language(lang).reading_speed
            minutes += len(_MARKDOWN_IMAGE.findall(cell.source)) * MINUTES_PER_FIGURE
        elif cell.cell_type == "code" and not _tags(cell) & _NOT_TAUGHT:
            if _EXERCISE.search(cell.source):
                minutes += MINUTES_PER_EXERCISE
                continue
            minutes += _lines(cell.source) * MINUTES_PER_CODE_LINE
            minutes += sum(_output_minutes(output) for output in cell.get("outputs", []))
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
