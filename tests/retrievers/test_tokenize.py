"""Tests of reteval.retrievers.tokenize: English, Chinese and mixed text."""

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reteval.errors import InputError
from reteval.retrievers.tokenize import DEFAULT_TOKENIZER, ENGLISH_STOP_WORDS, Tokenizer

PLAIN = Tokenizer(stemmer=None, stopwords=None)


# --- English ---------------------------------------------------------------

def test_english_lowercase_stopwords_and_stemming():
    # Snowball English: running -> run, engines -> engin, retrieval -> retriev
    assert Tokenizer()("The Running of Search ENGINES for retrieval") == [
        "run", "search", "engin", "retriev"]


def test_english_without_stemming_keeps_words():
    assert Tokenizer(stemmer=None)("The Running of Search ENGINES") == [
        "running", "search", "engines"]


def test_stopwords_none_keeps_function_words():
    assert PLAIN("to be or not to be") == ["to", "be", "or", "not", "to", "be"]
    assert Tokenizer(stemmer=None)("to be or not to be") == ["not"]


def test_custom_stopwords_are_case_folded():
    assert Tokenizer(stemmer=None, stopwords=["Python"])("python and PYTHON snakes") == [
        "and", "snakes"]


def test_negations_are_not_stop_words():
    assert "not" not in ENGLISH_STOP_WORDS and "no" not in ENGLISH_STOP_WORDS


def test_punctuation_digits_and_underscore_split():
    assert PLAIN("snake_case, e-mail: python3.11!") == [
        "snake", "case", "e", "mail", "python3", "11"]


def test_porter_stemmer_option():
    # The original Porter algorithm keeps the final "i": "queries" -> "queri".
    assert Tokenizer(stemmer="porter", stopwords=None)("queries generalization") == [
        "queri", "gener"]


def test_nfkc_full_width_letters_digits_and_punctuation():
    # U+FF30.. full-width letters, U+FF13 full-width 3, U+FF0C full-width comma
    assert PLAIN("ＰＹＴＨＯＮ３，ＳＱＬ") == ["python3", "sql"]


def test_casefold_is_stronger_than_lower():
    assert PLAIN("STRASSE Straße") == ["strasse", "strasse"]


# --- Chinese ---------------------------------------------------------------

def test_chinese_character_bigrams():
    assert PLAIN("机器学习算法") == ["机器", "器学", "学习", "习算", "算法"]


def test_chinese_punctuation_breaks_runs():
    # no bigram across "，" (U+FF0C) or "。" (U+3002): "习深" must not appear
    assert PLAIN("机器学习，深度学习。") == ["机器", "器学", "学习", "深度", "度学", "学习"]


def test_single_character_run_gives_unigram():
    assert PLAIN("书。") == ["书"]
    assert PLAIN("《书》和（表）") == ["书", "和", "表"]


def test_cjk_unigrams_option_adds_characters_after_bigrams():
    assert Tokenizer(cjk_unigrams=True)("数据库") == ["数据", "据库", "数", "据", "库"]


def test_chinese_ignores_english_stopwords_and_stemmer():
    assert Tokenizer()("的是") == ["的是"]


def test_japanese_kana_and_korean_hangul_are_cjk_runs():
    assert PLAIN("すし") == ["すし"]
    assert PLAIN("검색엔진") == ["검색", "색엔", "엔진"]


# --- mixed -----------------------------------------------------------------

def test_mixed_chapter_query():
    assert DEFAULT_TOKENIZER("Python 编程入门") == ["python", "编程", "程入", "入门"]


def test_mixed_without_spaces():
    assert Tokenizer()("用Python做机器学习的Databases") == [
        "用", "python", "做机", "机器", "器学", "学习", "习的", "databas"]


def test_mixed_full_width_latin_inside_chinese():
    assert PLAIN("学习ＳＱＬ数据库") == ["学习", "sql", "数据", "据库"]


def test_empty_and_punctuation_only():
    assert DEFAULT_TOKENIZER("") == []
    assert DEFAULT_TOKENIZER(" ，。!?_ ") == []


# --- properties and errors -------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126)))
def test_case_does_not_matter_for_ascii(text):
    tok = Tokenizer()
    assert tok(text.upper()) == tok(text.lower())


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("机器学习数据库，。 的")))
def test_chinese_terms_are_one_or_two_characters(text):
    terms = PLAIN(text)
    assert all(1 <= len(t) <= 2 and "，" not in t and " " not in t for t in terms)
    # a run of n >= 2 characters gives n - 1 bigrams
    runs = [r for r in text.replace("，", " ").replace("。", " ").split() if r]
    assert len(terms) == sum(max(len(r) - 1, 1) for r in runs)


def test_unknown_stemmer_is_rejected():
    with pytest.raises(InputError, match="stemmer must be None or one of .*got 'klingon'"):
        Tokenizer(stemmer="klingon")


def test_stopwords_as_a_string_is_rejected():
    with pytest.raises(InputError, match="stopwords must be an iterable of words"):
        Tokenizer(stopwords="the")


def test_non_string_text_is_rejected():
    with pytest.raises(InputError, match="text must be a string; got int"):
        DEFAULT_TOKENIZER(42)


def test_options_are_keyword_only():
    with pytest.raises(TypeError):
        Tokenizer(None)


def test_pickle_round_trip_keeps_stemming():
    tok = Tokenizer(stemmer="english", cjk_unigrams=True)
    copy = pickle.loads(pickle.dumps(tok))
    assert copy == tok
    assert copy("running 数据") == ["run", "数据", "数", "据"]
