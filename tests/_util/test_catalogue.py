"""The text catalogue: every entry in both languages, the same fields in both, Chinese in zh."""

import re
import string

import pytest

from reteval._util.catalogue import LANGUAGES, TEXTS, check_lang, join_names, phrase, phrases
from reteval.errors import InputError

_HAN = re.compile(r"[\u4e00-\u9fff]")
# Names, symbols and formulas a Chinese text keeps as they are (docs/glossary.md writes them so).
NAMES = {"A/B", "AP", "DCG", "Fisher", "Holm", "Hodges-Lehmann", "Jupyter", "JupyterLab", "MAP",
         "MRR", "R", "VS", "Code", "Wilcoxon", "Cohen", "d_z", "bpref", "mSPRT", "UTC", "log2",
         "bootstrap", "English", "RAG", "Tukey", "HSD", "V_E", "MOE", "Krippendorff", "Welch",
         "delta", "CUPED"}
# The link to the other edition names its language in that language; an exercise on Chinese
# text quotes it in the English hints too.
OTHER_LANGUAGE = {"book.switch", "teaching.exercise.03.2.hints"}

def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _strings(value):
    """The strings of an entry: itself, or the strings of a tuple (None left out)."""
    if isinstance(value, str):
        return [value]
    return [item for item in value if item is not None]


def test_there_are_two_languages_chinese_first():
    assert LANGUAGES == ("zh", "en")


def _shape_problems(key):
    entry = TEXTS[key]
    if set(entry) != set(LANGUAGES):
        return f"languages {sorted(entry)}"
    zh, en = entry["zh"], entry["en"]
    if type(zh) is not type(en) or not isinstance(zh, (str, tuple)):
        return f"types {type(zh).__name__}, {type(en).__name__}"
    if isinstance(zh, tuple) and [x is None for x in zh] != [x is None for x in en]:
        return "tuples of different shapes"
    for zh_text, en_text in zip(_strings(zh), _strings(en), strict=True):
        # the same numbers and names go into both: a translation drops nothing
        if _fields(zh_text) != _fields(en_text):
            return f"fields {sorted(_fields(zh_text))} vs {sorted(_fields(en_text))}"
        if key not in OTHER_LANGUAGE and _HAN.search(en_text):
            return f"Chinese in the English entry {en_text!r}"
    return None


def test_every_entry_has_both_languages_of_the_same_shape_and_fields():
    problems = {key: _shape_problems(key) for key in TEXTS}
    assert {key: p for key, p in problems.items() if p} == {}
    assert len(TEXTS) > 200  # the report, figures, widgets, verdicts and the book are here


def _english_words(key):
    text = " ".join(_strings(TEXTS[key]["zh"]))
    words = re.sub(r"\{[^}]*\}", " ", text)  # the fields are filled in with names and numbers
    return {w for w in re.findall(r"[A-Za-z][A-Za-z_/0-9-]*", words) if len(w) > 1} - NAMES


# The exercises' words name the code and the data they are about (average_precision, trec_eval,
# d1): their Chinese is checked to be Chinese, not to be free of Latin words.
NAMES_CODE = "teaching.exercise."


def test_chinese_entries_have_no_english_words():
    found = {key: _english_words(key) for key in TEXTS
             if key not in OTHER_LANGUAGE and not key.startswith(NAMES_CODE)}
    assert {key: words for key, words in found.items() if words} == {}
    exercises = {key: " ".join(_strings(TEXTS[key]["zh"])) for key in TEXTS
                 if key.startswith(NAMES_CODE) and key != f"{NAMES_CODE}sep"}
    assert len(exercises) > 100
    assert [key for key, text in exercises.items() if not _HAN.search(text)] == []


def test_chinese_terms_follow_the_glossary():
    everything = " ".join(text for entry in TEXTS.values() for text in _strings(entry["zh"]))
    for drift in ("检验效能", "教学集", "Notebook", "成功率"):
        assert drift not in everything
    assert "功效" not in everything.replace("统计功效", "")
    assert phrase("report.term.Success", "zh")[0] == "命中率"  # docs/glossary.md: success
    assert phrase("widgets.power", "zh") == "统计功效"


def test_phrase_fills_fields_and_checks_the_language():
    assert phrase("report.figure.per_query", "zh", measure="AP") == "逐查询 AP"
    assert phrase("report.figure.per_query", "en", measure="AP") == "AP per query"
    assert phrases("report.heading.", "zh")["tests"] == "显著性检验"
    with pytest.raises(InputError, match="lang must be 'zh' or 'en'; got 'de'"):
        phrase("report.figure.recall", "de")
    with pytest.raises(InputError, match="lang must be 'zh' or 'en'; got None"):
        check_lang(None)
    with pytest.raises(KeyError, match="report.figure.nope"):
        phrase("report.figure.nope", "en")


def test_names_are_joined_in_each_language():
    assert join_names(["a", "b", "c"], "en") == "a, b and c"
    assert join_names(["a", "b", "c"], "zh") == "a、b 和 c"
    assert join_names([], "zh") == ""


def test_an_error_a_notebook_shows_is_said_in_chinese():
    import pandas as pd

    import reteval
    from reteval._util.catalogue import error_message

    run = pd.DataFrame({"query_id": "q1", "doc_id": ["doc1", "doc1", "doc5"],
                        "score": [3.0, 2.0, 1.0]})
    with pytest.raises(InputError, match="document 'doc1' appears twice") as caught:
        reteval.evaluate({"q1": {"doc1": 1}}, run, ["nDCG@5"])
    assert error_message(caught.value, "en") == str(caught.value)
    assert error_message(caught.value, "zh") == (
        "运行结果中查询 'q1' 的文档 'doc1' 出现了两次：第 0 和第 1 行（从 0 数起）")
    plain = InputError("depth must be a positive integer; got 0")
    assert error_message(plain, "zh") == str(plain)  # no entry: the English message
    with pytest.raises(InputError, match="lang must be 'zh' or 'en'"):
        error_message(plain, "fr")


# One word per concept (docs/glossary.md): the drifting synonyms and the glossary's word.
DRIFT = {"检验效能": "统计功效", "教学集": "教学数据集", "成功率": "命中率", "评估员": "标注者",
         "汇集": "池化"}


def test_package_text_uses_the_glossary_terms():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    files = [*(root / "reteval").rglob("*.py"), *(root / "reteval").rglob("*.md"),
             *(root / "docs").rglob("*.md"), *(root / "notebooks").rglob("*.ipynb")]
    found = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        found += [(path.name, word) for word in DRIFT if word in text.replace("教学数据集", "")]
        if re.search(r"(?<!统计)功效", text):
            found.append((path.name, "功效 without 统计"))
    assert found == []


def test_every_package_with_words_is_read():
    from pathlib import Path

    from reteval._util.catalogue import packages

    root = Path(__file__).resolve().parents[2] / "reteval"
    on_disk = {path.parent.name for path in root.glob("*/_texts.py")}
    on_disk |= {path.parent.parent.name for path in root.glob("*/_texts/__init__.py")}
    assert set(packages()) == on_disk
    assert {"ab", "report", "teaching"} <= on_disk
    assert all(key.partition(".")[0] in on_disk for key in TEXTS)


def test_a_package_s_words_are_read_when_first_looked_up():
    import json
    import subprocess
    import sys

    probe = ("import json, sys, reteval\n"
             "before = sorted(m for m in sys.modules if m.endswith('._texts'))\n"
             "from reteval._util.catalogue import phrase\n"
             "word = phrase('io.duplicate.what.run', 'zh')\n"
             "after = sorted(m for m in sys.modules if m.endswith('._texts'))\n"
             "print(json.dumps([before, word, after]))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, timeout=120)
    assert json.loads(done.stdout) == [[], "运行结果", ["reteval.io._texts"]]
