"""Text into tokens: the one normalisation and tokenisation reteval uses everywhere.

The lexical retrievers (:class:`reteval.retrievers.Tokenizer`, which adds
stop words and stemming) and the RAG overlap judge
(:class:`reteval.rag.OverlapJudge`) read text through this module, so a word
is the same word for both. The rules, decided once:

1. **Normalisation** (:func:`normalize`): Unicode NFKC, so that full-width
   letters, digits and punctuation (``ＰＹＴＨＯＮ３，``) become their ASCII
   forms and half-width katakana become full-width, then case folding (a
   stronger lower-casing: ``"Straße"`` becomes ``"strasse"``).
2. **Runs** (:func:`runs`): the normalised text is cut into runs of two
   kinds. A *CJK run* is a run of characters of the scripts written without
   spaces between words: Han ideographs (with extensions and compatibility
   forms, and the marks 々〆〇), hiragana, katakana and Hangul (syllables and
   jamo; Korean does put spaces between phrases, but a phrase glues particles
   to the word, so it is cut like the others). A *word run* is a run of other
   letters, digits and combining marks (a mark never splits a word: Hindi
   ``"हिन्दी"`` stays whole). Everything else separates runs: spaces,
   punctuation of any width, symbols, the underscore, control characters.
   A digit is a letter like any other, so ``"python3"`` is one word and
   ``"3.14"`` two (``"3"``, ``"14"``).
3. **CJK runs become terms** (:func:`cjk_terms`) in one of three modes:
   ``"char"``, one term per character; ``"bigram"``, overlapping character
   pairs (``"机器学习"`` gives ``"机器", "器学", "学习"``), the usual choice of
   search engines (Lucene's ``CJKAnalyzer``), which needs no dictionary; and
   ``"bigram+char"``, the bigrams followed by the characters. A run of one
   character is that character in every mode, so ``"书"`` between two
   punctuation marks still gives a term.

:func:`tokenize` chains the three steps; it neither removes stop words nor
stems (that is the retrievers' :class:`~reteval.retrievers.Tokenizer`).

Examples
--------
>>> tokenize("用Python做机器学习！", cjk="bigram")
['用', 'python', '做机', '机器', '器学', '学习']
>>> tokenize("검색엔진, ＳＱＬ 3.14")
['검', '색', '엔', '진', 'sql', '3', '14']
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache

from reteval.errors import InputError

__all__ = [
    "CJK_MODES",
    "check_cjk_mode",
    "cjk_terms",
    "is_cjk",
    "normalize",
    "runs",
    "tokenize",
]

#: The ways of cutting a CJK run into terms (see :func:`cjk_terms`).
CJK_MODES: tuple[str, ...] = ("char", "bigram", "bigram+char")

# Hangul jamo; 々〆〇; hiragana and katakana; Hangul compatibility jamo;
# katakana phonetic extensions; Han extension A; Han; Hangul jamo extended A,
# syllables, jamo extended B; Han compatibility; Han extensions B and later.
_CJK = (
    "\u1100-\u11ff"
    "\u3005-\u3007"
    "\u3040-\u30ff"
    "\u3130-\u318f"
    "\u31f0-\u31ff"
    "\u3400-\u4dbf"
    "\u4e00-\u9fff"
    "\ua960-\ua97f"
    "\uac00-\ud7ff"
    "\uf900-\ufaff"
    "\U00020000-\U0003134f"
)
# A CJK run, or a run of word characters (letters, digits) that are neither
# "_" nor CJK. Python's \w leaves combining marks out: runs() glues them back.
_RUN = re.compile(f"(?P<cjk>[{_CJK}]+)|(?P<word>[^\\W_{_CJK}]+)")
_CJK_CHAR = re.compile(f"[{_CJK}]")


def _check_text(text: object) -> str:
    if not isinstance(text, str):
        raise InputError(f"text must be a string; got {type(text).__name__} {text!r:.60}")
    return text


def check_cjk_mode(cjk: object) -> str:
    """Return `cjk` if it is one of :data:`CJK_MODES`, else raise InputError.

    Examples
    --------
    >>> check_cjk_mode("bigram")
    'bigram'
    """
    if not isinstance(cjk, str) or cjk not in CJK_MODES:
        raise InputError(f"cjk must be one of {CJK_MODES}; got {cjk!r}")
    return cjk


def normalize(text: str) -> str:
    """NFKC-normalise and case-fold `text`.

    Examples
    --------
    >>> normalize("ＰＹＴＨＯＮ３，Straße")
    'python3,strasse'
    """
    return unicodedata.normalize("NFKC", _check_text(text)).casefold()


def is_cjk(char: str) -> bool:
    """Whether `char` belongs to a CJK run (Han, kana, Hangul).

    Examples
    --------
    >>> is_cjk("学"), is_cjk("す"), is_cjk("한"), is_cjk("a")
    (True, True, True, False)
    """
    return bool(_CJK_CHAR.match(char))


def _mark_prefix(gap: str) -> int:
    """Length of the run of combining marks that starts `gap`."""
    n = 0
    while n < len(gap) and unicodedata.category(gap[n])[0] == "M":
        n += 1
    return n


def runs(text: str) -> Iterator[tuple[str, bool]]:
    """Yield the runs of already normalised `text` as ``(run, is_cjk)``, in order.

    Examples
    --------
    >>> list(runs("python3是一种_language"))
    [('python3', False), ('是一种', True), ('language', False)]
    """
    if text.isascii():
        for match in _RUN.finditer(text):
            yield match.group(), False
        return
    word: str | None = None  # a word run that marks may still extend
    end = 0
    for match in _RUN.finditer(text):
        gap = text[end : match.start()]
        end = match.end()
        if word is not None:
            marks = _mark_prefix(gap)
            word += gap[:marks]
            if marks == len(gap) and gap and match.group("word"):
                word += match.group()
                continue
            yield word, False
            word = None
        if match.group("word"):
            word = match.group()
        else:
            yield match.group(), True
    if word is not None:
        yield word + text[end : end + _mark_prefix(text[end:])], False


def cjk_terms(run: str, mode: str = "bigram") -> list[str]:
    """Cut one CJK run into terms; a one-character run is that character.

    Examples
    --------
    >>> cjk_terms("数据库", "char"), cjk_terms("数据库", "bigram")
    (['数', '据', '库'], ['数据', '据库'])
    >>> cjk_terms("数据库", "bigram+char"), cjk_terms("书", "bigram")
    (['数据', '据库', '数', '据', '库'], ['书'])
    """
    if mode == "char" or len(run) == 1:
        return list(run)
    terms = [run[i : i + 2] for i in range(len(run) - 1)]
    if mode == "bigram+char":
        terms.extend(run)
    return terms


@lru_cache(maxsize=8192)
def _tokens(text: str, cjk: str) -> tuple[str, ...]:
    out: list[str] = []
    for run, cjk_run in runs(normalize(text)):
        if cjk_run:
            out.extend(cjk_terms(run, cjk))
        else:
            out.append(run)
    return tuple(out)


def tokenize(text: str, *, cjk: str = "char") -> list[str]:
    """Split text into normalised tokens, for Chinese, Japanese, Korean, Latin or a mix.

    Normalisation, runs and CJK terms as the module describes; no stop words
    are removed and nothing is stemmed.

    Parameters
    ----------
    text : str
        The text.
    cjk : {"char", "bigram", "bigram+char"}, default "char"
        How to cut runs of Chinese, Japanese or Korean characters.

    Returns
    -------
    list of str
        The tokens in text order, repeats kept.

    Raises
    ------
    InputError
        If `text` is not a string or `cjk` is unknown.

    Examples
    --------
    >>> tokenize("Python是一种编程语言！")
    ['python', '是', '一', '种', '编', '程', '语', '言']
    >>> tokenize("机器学习，ＡＩ的分支。", cjk="bigram")
    ['机器', '器学', '学习', 'ai', '的分', '分支']
    >>> tokenize("France's capital: Paris.")
    ['france', 's', 'capital', 'paris']
    """
    return list(_tokens(_check_text(text), check_cjk_mode(cjk)))
