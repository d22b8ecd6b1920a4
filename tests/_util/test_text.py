"""Tests of reteval._util.text: the one tokenisation of the retrievers and the RAG judge."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reteval import rag
from reteval._util.text import cjk_terms, is_cjk, normalize, runs, tokenize
from reteval.errors import InputError
from reteval.retrievers import Tokenizer


@pytest.mark.parametrize(
    "text, char, bigram",
    [
        # Chinese: Han runs, full-width punctuation separates them
        ("机器学习，数据库。", ["机", "器", "学", "习", "数", "据", "库"],
         ["机器", "器学", "学习", "数据", "据库"]),
        # Japanese: hiragana, katakana (half-width folded by NFKC) and kanji are one run
        ("すしｶﾚｰ", ["す", "し", "カ", "レ", "ー"], ["すし", "しカ", "カレ", "レー"]),
        ("人々", ["人", "々"], ["人々"]),
        # Korean: Hangul syllables are CJK runs, spaces separate them
        ("검색 엔진", ["검", "색", "엔", "진"], ["검색", "엔진"]),
        # Latin: NFKC, case folding, punctuation and "_" separate words
        ("ＰＹＴＨＯＮ Straße snake_case", ["python", "strasse", "snake", "case"],
         ["python", "strasse", "snake", "case"]),
        # digits: a digit is a word character, "." separates
        ("python3.11 ４２", ["python3", "11", "42"], ["python3", "11", "42"]),
        # mixed, without spaces
        ("用Python做机器学习", ["用", "python", "做", "机", "器", "学", "习"],
         ["用", "python", "做机", "机器", "器学", "学习"]),
        # combining marks stay inside their word (Devanagari vowel signs, virama)
        ("हिन्दी भाषा", ["हिन्दी", "भाषा"], ["हिन्दी", "भाषा"]),
        ("", [], []),
        (" ，。!?_ ", [], []),
    ],
)
def test_agreed_tokens(text, char, bigram):
    assert tokenize(text) == char
    assert tokenize(text, cjk="bigram") == bigram


def test_bigram_plus_char_appends_the_characters():
    assert tokenize("数据库", cjk="bigram+char") == ["数据", "据库", "数", "据", "库"]
    assert cjk_terms("书", "bigram+char") == ["书"]


def test_helpers():
    assert normalize("ＡＢＣ１") == "abc1"
    assert [is_cjk(c) for c in "学すカ한a1"] == [True, True, True, True, False, False]
    assert list(runs("ab学习")) == [("ab", False), ("学习", True)]


def test_rag_and_retrievers_use_this_module():
    assert rag.tokenize is tokenize
    plain = Tokenizer(stemmer=None, stopwords=None)
    assert plain("검색엔진 and すし") == tokenize("검색엔진 and すし", cjk="bigram")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab1 ,_.学习机器す한글ＡＢ，。\u0301\u093f")))
def test_retriever_tokenizer_agrees_with_rag_tokens(text):
    assert Tokenizer(stemmer=None, stopwords=None)(text) == tokenize(text, cjk="bigram")
    assert Tokenizer(stemmer=None, stopwords=None, cjk_unigrams=True)(text) == tokenize(
        text, cjk="bigram+char")


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_tokens_are_nonempty_and_free_of_separators(text):
    for token in tokenize(text, cjk="bigram"):
        assert token and not any(c.isspace() or c in ",.，。_" for c in token)


def test_bad_arguments():
    with pytest.raises(InputError, match="text must be a string; got int 3"):
        tokenize(3)
    with pytest.raises(InputError, match="cjk must be one of"):
        tokenize("a", cjk="word")
