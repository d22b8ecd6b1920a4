"""The languages reteval speaks, one record each: Chinese (the default edition) and English.

Everything that differs between the two languages apart from the words
themselves is a field of one :class:`Language` record: the code of the
notebooks' parameter and of the catalogue (``"zh"``), the HTML ``lang``
attribute, the fonts of a page, the reading speed of a class, the separators
of a list in running text, and whether figures need a CJK font. The words are
in the text catalogue (:mod:`reteval._util.catalogue`).

Examples
--------
>>> language("zh").html_lang, language("en").reading_speed
('zh-CN', 150)
>>> LANGUAGES, DEFAULT_LANG
(('zh', 'en'), 'zh')
>>> check_lang("fr")
Traceback (most recent call last):
...
reteval.errors.InputError: lang must be 'zh' or 'en'; got 'fr'
"""

from __future__ import annotations

from dataclasses import dataclass

from reteval.errors import InputError

__all__ = ["DEFAULT_LANG", "LANGUAGES", "Language", "check_lang", "language"]


@dataclass(frozen=True)
class Language:
    """What one language needs besides its words.

    Attributes
    ----------
    code : str
        ``"zh"`` or ``"en"``: the notebooks' ``lang`` parameter, the catalogue's language.
    html_lang : str
        The ``lang`` attribute of an HTML page in this language.
    fonts : str
        The CSS ``font-family`` of a page in this language.
    reading_speed : int
        Prose read in class a minute: Chinese characters, or English words (technical text
        read with care).
    separator, last_separator : str
        Between the names of a list in running text, and before its last name
        (``"a、b 和 c"``, ``"a, b and c"``).
    sentence_separator : str
        Between two sentences: none in Chinese, a space in English.
    cjk : bool
        Whether its figures draw CJK characters (and so need a CJK font).
    """

    code: str
    html_lang: str
    fonts: str
    reading_speed: int
    separator: str
    last_separator: str
    sentence_separator: str
    cjk: bool


_RECORDS = {
    "zh": Language(
        code="zh", html_lang="zh-CN",
        fonts=('"Noto Sans CJK SC", "Source Han Sans SC", "Noto Sans SC", "PingFang SC", '
               '"Microsoft YaHei", "WenQuanYi Micro Hei", sans-serif'),
        reading_speed=250, separator="、", last_separator=" 和 ", sentence_separator="",
        cjk=True),
    "en": Language(
        code="en", html_lang="en",
        fonts=('"DejaVu Sans", "Helvetica Neue", Arial, "Noto Sans CJK SC", '
               '"Source Han Sans SC", "PingFang SC", "Microsoft YaHei", sans-serif'),
        reading_speed=150, separator=", ", last_separator=" and ", sentence_separator=" ",
        cjk=False),
}

#: The languages' codes, the default edition's first.
LANGUAGES: tuple[str, ...] = tuple(_RECORDS)

#: The default edition of the teaching notebooks.
DEFAULT_LANG: str = LANGUAGES[0]


def check_lang(lang, name: str = "lang") -> str:
    """``lang`` if it is one of :data:`LANGUAGES`, else an InputError naming ``name``.

    Examples
    --------
    >>> check_lang("en")
    'en'
    """
    if not isinstance(lang, str) or lang not in _RECORDS:
        raise InputError(f"{name} must be 'zh' or 'en'; got {lang!r}")
    return lang


def language(code: str) -> Language:
    """The record of the language ``code`` (an InputError for another code).

    Examples
    --------
    >>> language("zh").separator
    '、'
    """
    return _RECORDS[check_lang(code)]
