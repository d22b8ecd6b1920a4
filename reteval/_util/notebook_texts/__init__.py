"""The words of the teaching notebooks, one module per notebook (``nbNN``), in both languages.

Each module holds ``TEXTS``: ``{key: (zh, en)}``, an entry a string (a
:meth:`str.format` template when it has fields) or a tuple of strings (a table
header) in each language. The text catalogue (:mod:`reteval._util.catalogue`)
files them under ``notebook.NN.<key>``, so they obey the catalogue's rules
(both languages, the same fields, Chinese in the Chinese entry), and a notebook
reads its own with :func:`reteval.teaching.notebook_texts`. A notebook's
setup cell then holds code, not tables of sentences.
"""
