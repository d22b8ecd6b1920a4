"""The words a notebook says, in the language of its edition.

Examples
--------
>>> notebook_texts("01", "zh")["by_hand"]
'手算'
"""

from __future__ import annotations

from reteval._util.catalogue import phrases

__all__ = ["notebook_texts"]


def notebook_texts(number: str, lang: str) -> dict:
    """The words of notebook ``number`` (``"01"``, ``"05"`` ...) in ``lang``, by key.

    They are the catalogue entries ``teaching.notebook.NN.<key>``, written in
    ``reteval/teaching/_texts/nbNN.py``.

    Examples
    --------
    >>> notebook_texts("11", "en")["up"]
    'rising again after it'
    """
    return phrases(f"teaching.notebook.{number}.", lang)
