"""One record per language: what differs between the editions besides their words."""

import pytest

from reteval._util.catalogue import join_names
from reteval._util.languages import DEFAULT_LANG, LANGUAGES, check_lang, language
from reteval.errors import InputError


def test_chinese_is_the_default_edition_and_comes_first():
    assert LANGUAGES == ("zh", "en")
    assert DEFAULT_LANG == "zh"


def test_each_record_says_how_its_language_is_shown_and_read():
    zh, en = language("zh"), language("en")
    assert (zh.html_lang, en.html_lang) == ("zh-CN", "en")
    assert (zh.reading_speed, en.reading_speed) == (250, 150)  # characters, words a minute
    assert zh.cjk and not en.cjk
    assert zh.fonts.startswith('"Noto Sans CJK SC"') and en.fonts.startswith('"DejaVu Sans"')
    # a list in running text: 甲、乙 和 丙 / a, b and c
    assert join_names(["甲", "乙", "丙"], "zh") == "甲、乙 和 丙"
    assert join_names(["a", "b"], "en") == "a and b"


def test_another_language_is_refused_by_name():
    with pytest.raises(InputError, match="edition must be 'zh' or 'en'; got 'fr'"):
        check_lang("fr", "edition")
    with pytest.raises(InputError, match="lang must be 'zh' or 'en'; got 'de'"):
        language("de")
