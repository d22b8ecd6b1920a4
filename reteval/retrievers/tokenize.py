"""The retrievers' tokenizer: reteval's text rules plus stop words and stemming.

The tokenizer turns a string into a list of index terms: normalisation, runs
and CJK terms follow :mod:`reteval._util.text` (NFKC, case folding; CJK runs of
Han, kana and Hangul become overlapping character bigrams by default, other
runs are words), then

- stop words are removed from the words (an English list, see
  :data:`ENGLISH_STOP_WORDS`), and the rest are stemmed with a Snowball
  stemmer from PyStemmer (English by default; ``stemmer=None`` turns
  stemming off);
- with ``cjk_unigrams=True`` every character of a longer CJK run is emitted
  as well, after its bigrams.

Bigrams do not know word boundaries, so ``"学习"`` also matches inside
``"机器学习"`` -- which is mostly what a searcher wants. No Chinese stop words
are removed: the common function characters (``的``, ``是``) mostly appear
inside bigrams, where they are harmless.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field

from reteval._util.extras import require
from reteval._util.text import cjk_terms, normalize, runs
from reteval.errors import InputError

__all__ = ["DEFAULT_TOKENIZER", "ENGLISH_STOP_WORDS", "Tokenizer"]

#: English function words removed by default. A short list on purpose: only
#: articles, pronouns, auxiliaries, prepositions and conjunctions, which carry
#: no topic. Negations ("no", "not") are kept, because claims and questions
#: turn on them.
ENGLISH_STOP_WORDS: frozenset[str] = frozenset(
    (
        "a", "an", "the",
        "and", "or", "but", "nor", "so", "yet", "if", "then", "than",
        "of", "in", "on", "at", "by", "for", "to", "from", "with", "into", "onto", "upon",
        "about", "as",
        "is", "am", "are", "was", "were", "be", "been", "being",
        "do", "does", "did", "done",
        "has", "have", "had", "having",
        "it", "its", "itself", "this", "that", "these", "those", "there", "here",
        "i", "me", "my", "we", "us", "our", "you", "your", "he", "him", "his", "she", "her",
        "they", "them", "their",
        "what", "which", "who", "whom", "whose", "when", "where", "why", "how",
        "will", "would", "shall", "should", "can", "could", "may", "might", "must",
        "s", "t",
        "also", "such", "very", "just", "only",
    )
)

@dataclass(frozen=True, kw_only=True)
class Tokenizer:
    """Split English and Chinese text into index terms.

    Parameters
    ----------
    stopwords : iterable of str or None, default ENGLISH_STOP_WORDS
        Words to drop (compared after normalisation and case folding, before
        stemming). ``None`` or an empty set keeps every word.
    stemmer : str or None, default "english"
        Name of a PyStemmer (Snowball) algorithm, e.g. ``"english"`` or
        ``"porter"``; ``None`` disables stemming.
    cjk_unigrams : bool, default False
        Also emit every single character of CJK runs longer than one
        character (runs of one character always give their unigram).

    Raises
    ------
    InputError
        If ``stemmer`` names no PyStemmer algorithm.

    Examples
    --------
    >>> tok = Tokenizer()
    >>> tok("The Quick brown foxes, ＡＮＤ the dogs!")
    ['quick', 'brown', 'fox', 'dog']
    >>> tok("Python 编程入门")
    ['python', '编程', '程入', '入门']
    >>> Tokenizer(stemmer=None, stopwords=None)("Ｉｔ'ｓ 书。")
    ['it', 's', '书']
    """

    stopwords: Iterable[str] | None = ENGLISH_STOP_WORDS
    stemmer: str | None = "english"
    cjk_unigrams: bool = False
    _stem: object = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        stop = frozenset() if self.stopwords is None else self.stopwords
        if isinstance(stop, str):
            raise InputError(
                f"stopwords must be an iterable of words, not a string; got {stop!r}"
            )
        stop = frozenset(normalize(w) for w in stop)
        object.__setattr__(self, "stopwords", stop)
        object.__setattr__(self, "_stem", self._make_stemmer())

    def _make_stemmer(self):
        if self.stemmer is None:
            return None
        Stemmer = require("Stemmer", "retrievers", "stemming tokenizers")

        algorithms = Stemmer.algorithms()
        if self.stemmer not in algorithms:
            raise InputError(
                f"stemmer must be None or one of {sorted(algorithms)}; got {self.stemmer!r}"
            )
        return Stemmer.Stemmer(self.stemmer)

    # PyStemmer objects cannot be pickled: rebuild the stemmer on unpickling.
    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_stem"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        object.__setattr__(self, "_stem", self._make_stemmer())

    def __call__(self, text: str) -> list[str]:
        """Return the index terms of ``text``, in text order."""
        if not isinstance(text, str):  # not remembered: the text rules name the bad value
            return self._terms(text)
        return list(_terms(self, text))

    def _terms(self, text: str) -> list[str]:
        stop = self.stopwords
        cjk = "bigram+char" if self.cjk_unigrams else "bigram"
        terms: list[str] = []
        words: list[str] = []
        positions: list[int] = []
        for run, is_cjk in runs(normalize(text)):
            if is_cjk:
                terms.extend(cjk_terms(run, cjk))
            elif run not in stop:
                positions.append(len(terms))
                terms.append(run)
                words.append(run)
        if self._stem is not None and words:
            for pos, stem in zip(positions, self._stem.stemWords(words), strict=True):
                terms[pos] = stem
        return terms


@functools.lru_cache(maxsize=1 << 16)
def _terms(tokenizer: Tokenizer, text: str) -> tuple[str, ...]:
    """The terms of ``text``, remembered: equal tokenizers (the same options) share them, so a
    corpus indexed by several retrievers in one process is tokenized once."""
    return tuple(tokenizer._terms(text))


#: The default :class:`Tokenizer` (English stop words, Porter stems, CJK bigrams), a callable
#: ``text -> list of terms``: ``DEFAULT_TOKENIZER("机器学习算法")``.
DEFAULT_TOKENIZER = Tokenizer()
