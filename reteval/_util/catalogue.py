"""The text catalogue: how reteval finds the words it shows a reader, in either language.

reteval speaks Chinese (``"zh"``, the default edition of the teaching notebooks)
and English (``"en"``); :mod:`reteval._util.languages` holds one record per
language and :func:`check_lang` the one check. Every label, heading, caption,
verdict and sentence a reader sees is an entry of the catalogue, keyed by a
dotted name (``"report.figure.cutoff_k"``) and holding the text in each
language side by side, so a translation is never missing or out of step (the
catalogue's tests check every entry: both languages, the same fields, no
English left in the Chinese). The Chinese uses the terms of
``docs/glossary.md``, one term per concept (统计功效, 笔记本, 教学数据集 ...).

The words belong to the package that says them. The first word of a key names
that package (``report``, ``ab``, ``teaching`` ...), and its entries are the
``TEXTS`` of its module ``_texts`` (``reteval/report/_texts.py``):
``{key: (zh, en)}``, keys without the package's name, built with
:func:`section` where that reads better. This module knows no package: it reads
a package's ``_texts`` the first time one of its keys is looked up, so importing
reteval reads no words at all.

An entry is a string (a template for :meth:`str.format` when it has fields) or
a tuple of strings (a table header, the hints of an exercise). :func:`phrase`
gives one entry, filled in; :func:`phrases` the entries under a prefix, as a
mapping; :data:`TEXTS` is the whole catalogue as a read-only mapping.

Examples
--------
>>> phrase("report.figure.cutoff_k", "zh")
'截断位置 k'
>>> phrase("report.figure.mean_of", "en", measure="P@k")
'mean P@k'
>>> phrases("report.test.", "zh")["t"]
'配对 t 检验'
>>> section("heading", tests=("显著性检验", "Significance tests"))
{'heading.tests': ('显著性检验', 'Significance tests')}
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Iterator, Mapping
from types import MappingProxyType

from reteval._util.languages import LANGUAGES, check_lang, language

__all__ = ["LANGUAGES", "TEXTS", "check_lang", "error_message", "join_names", "packages",
           "phrase", "phrases", "section"]

_ROOT = __name__.partition(".")[0]
# The entries of each package read so far: {package: {full key: {lang: text}}}.
_READ: dict[str, Mapping[str, Mapping[str, object]]] = {}


def section(prefix: str, /, **items) -> dict:
    """``key=(zh, en)`` pairs as entries keyed ``prefix.key`` (just ``key`` when prefix is "").

    A package's ``_texts`` module builds its ``TEXTS`` with it.

    Examples
    --------
    >>> section("", yes=("是", "yes"))
    {'yes': ('是', 'yes')}
    """
    return {f"{prefix}.{key}" if prefix else key: pair for key, pair in items.items()}


def _entries(package: str) -> Mapping[str, Mapping[str, object]]:
    """The entries of ``package``, read from its ``_texts`` module the first time (none if none)."""
    if package not in _READ:
        name = f"{_ROOT}.{package}._texts"
        try:
            texts = importlib.import_module(name).TEXTS
        except ModuleNotFoundError as error:
            if error.name not in (name, f"{_ROOT}.{package}"):
                raise
            texts = {}
        entries = {}
        for key, pair in texts.items():
            if not (isinstance(pair, tuple) and len(pair) == len(LANGUAGES)):
                raise ValueError(f"catalogue entry {package}.{key} must be a pair (zh, en); "
                                 f"got {pair!r}")
            entries[f"{package}.{key}"] = MappingProxyType(dict(zip(LANGUAGES, pair,
                                                                    strict=True)))
        _READ[package] = MappingProxyType(entries)
    return _READ[package]


def packages() -> list[str]:
    """The packages that hold words (a ``_texts`` module), by name; none of them is imported.

    Examples
    --------
    >>> {"report", "teaching"} <= set(packages())
    True
    """
    root = importlib.import_module(_ROOT)
    return sorted(info.name for info in pkgutil.iter_modules(root.__path__) if info.ispkg
                  and any(module.name == "_texts" for module in pkgutil.iter_modules(
                      [os.path.join(info.module_finder.path, info.name)])))


class _Catalogue(Mapping):
    """Every entry by key, each package's read on first use (iterating reads them all)."""

    def __getitem__(self, key: str) -> Mapping[str, object]:
        return _entries(str(key).partition(".")[0])[key]

    def __contains__(self, key) -> bool:
        return isinstance(key, str) and key in _entries(key.partition(".")[0])

    def __iter__(self) -> Iterator[str]:
        for package in packages():
            yield from _entries(package)

    def __len__(self) -> int:
        return sum(len(_entries(package)) for package in packages())

    def __repr__(self) -> str:
        return f"<the text catalogue of reteval: {', '.join(packages())}>"


#: Every text, by key: ``{key: {"zh": ..., "en": ...}}`` (read-only; read on first use).
TEXTS: Mapping[str, Mapping[str, object]] = _Catalogue()


def phrase(key: str, lang: str, /, **fields):
    """The entry ``key`` in ``lang``, filled in with ``fields`` (a string template).

    Raises
    ------
    KeyError
        No entry ``key`` (a misspelt key is a bug, not bad input).
    InputError
        ``lang`` is not one of :data:`LANGUAGES`.

    Examples
    --------
    >>> phrase("monitor.trend.title_of", "zh", retriever="bm25")
    '评估历史：bm25'
    """
    value = TEXTS[key][check_lang(lang)]
    return value.format(**fields) if fields else value


def phrases(prefix: str, lang: str) -> dict:
    """The entries whose keys start with ``prefix``, by the rest of the key, in ``lang``.

    Examples
    --------
    >>> phrases("report.alert.", "en")["dataset"]
    'dataset changed'
    """
    check_lang(lang)
    return {key[len(prefix):]: value[lang]
            for key, value in _entries(prefix.partition(".")[0]).items()
            if key.startswith(prefix)}


def join_names(items, lang: str) -> str:
    """Names as a list in running text: ``"a, b and c"``, ``"a、b 和 c"``.

    Examples
    --------
    >>> join_names(["bm25", "vector", "hybrid"], "zh")
    'bm25、vector 和 hybrid'
    >>> join_names(["bm25"], "en")
    'bm25'
    """
    items = [str(item) for item in items]
    if len(items) <= 1:
        return "".join(items)
    words = language(lang)
    return words.separator.join(items[:-1]) + words.last_separator + items[-1]


def error_message(error: BaseException, lang: str) -> str:
    """What ``error`` says, in ``lang``: its catalogue entry when it names one, else its message.

    A field whose value has an entry of its own (``io.duplicate.what.run``) is
    said in words of ``lang`` too.

    Examples
    --------
    >>> from reteval.io.duplicates import duplicate_error
    >>> error_message(duplicate_error("run", "q1", "d1", [0, 1], None), "zh")
    "运行结果中查询 'q1' 的文档 'd1' 出现了两次：第 0 和第 1 行（从 0 数起）"
    """
    key = getattr(error, "key", None)
    if check_lang(lang) == "en" or key not in TEXTS:
        return str(error)
    fields = {name: phrase(f"{key}.{name}.{value}", lang) if f"{key}.{name}.{value}" in TEXTS
              else value for name, value in getattr(error, "fields", {}).items()}
    message = phrase(key, lang, **fields)
    path, line = getattr(error, "path", None), getattr(error, "line", None)
    if path is None:
        return message
    return f"{path}:{line}: {message}" if line is not None else f"{path}: {message}"
