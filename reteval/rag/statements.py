"""A reference answer split into statements (sentences), for context recall."""

from __future__ import annotations

from reteval._util.text import is_cjk, tokenize
from reteval.errors import InputError
from reteval.rag.inputs import show

__all__ = ["split_statements"]

# Sentence ends that need no following space (CJK, plus ASCII ! and ?); a
# full stop "." ends a sentence only before whitespace, the end of the text
# or a CJK character, so that "3.14" stays whole.
_TERMINATORS = frozenset("。！？｡!?")
_CLOSERS = frozenset("\"'”’」』）)]】》〉")


def _full_stop_ends(text: str, i: int) -> bool:
    j = i + 1
    while j < len(text) and text[j] in _CLOSERS:
        j += 1
    return j == len(text) or text[j].isspace() or is_cjk(text[j])


def split_statements(text: str) -> list[str]:
    """Split a reference answer into statements (sentences).

    A statement ends at ``。 ！ ？ ｡ ! ?``, at a full stop ``.`` followed by
    whitespace, the end of the text or a Chinese character, and at a line
    break. Closing quotes and brackets right after the end mark stay with
    the statement. Pieces without any token (see :func:`tokenize`) are
    dropped, so an empty or punctuation-only text has no statements.
    Abbreviations such as "e.g. " are cut like sentence ends: the splitter
    is a rule, not a parser.

    Parameters
    ----------
    text : str
        The reference answer.

    Returns
    -------
    list of str
        The statements, stripped of surrounding whitespace, in text order.

    Raises
    ------
    InputError
        If `text` is not a string.

    Examples
    --------
    >>> split_statements("长城位于中国北方。它全长两万多公里！")
    ['长城位于中国北方。', '它全长两万多公里！']
    >>> split_statements("Pi is about 3.14. It is irrational!")
    ['Pi is about 3.14.', 'It is irrational!']
    >>> split_statements("他说：“你好。”然后走了")
    ['他说：“你好。”', '然后走了']
    >>> split_statements(" 。！")
    []
    """
    if not isinstance(text, str):
        raise InputError(f"text must be a string; got {show(text)}")
    pieces: list[str] = []
    start = i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in "\n\r":
            end = nxt = i + 1
        elif ch in _TERMINATORS or (ch == "." and _full_stop_ends(text, i)):
            j = i + 1
            while j < n and (text[j] in _TERMINATORS or text[j] in _CLOSERS or text[j] == "."):
                j += 1
            end = nxt = j
        else:
            i += 1
            continue
        pieces.append(text[start:end])
        start = i = nxt
    pieces.append(text[start:])
    return [p.strip() for p in pieces if tokenize(p)]
