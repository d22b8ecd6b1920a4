"""The words of the teaching notebooks, one module per notebook (``nbNN``), in both languages.

Each module holds ``TEXTS``: ``{key: (zh, en)}``, an entry a string (a
:meth:`str.format` template when it has fields) or a tuple of strings (a table
header) in each language. They are the catalogue entries
``teaching.notebook.NN.<key>`` (:mod:`reteval._util.catalogue`), so they obey
the catalogue's rules (both languages, the same fields, Chinese in the Chinese
entry), and a notebook reads its own with :func:`reteval.teaching.notebook_texts`.
A notebook's setup cell then holds code, not tables of sentences.
"""

import importlib
import pkgutil


def _entries() -> dict:
    entries = {}
    for module in pkgutil.iter_modules(__path__):
        number = module.name.removeprefix("nb")
        texts = importlib.import_module(f"{__name__}.{module.name}").TEXTS
        entries.update({f"notebook.{number}.{key}": pair for key, pair in texts.items()})
    return entries


TEXTS = _entries()
