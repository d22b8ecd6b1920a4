"""The teaching collection's datasheet in Chinese says what the English one says."""

import re

from reteval.datasets import datasheet

_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?!\w|\.\d)")


def test_chinese_datasheet_has_the_english_sections_and_numbers():
    en = datasheet("teaching").read_text("utf-8")
    zh = datasheet("teaching", lang="zh").read_text("utf-8")
    assert datasheet("teaching", lang="zh").name == "DATASHEET.zh.md"
    heading = re.compile(r"^#+ ", re.MULTILINE)
    assert len(heading.findall(zh)) == len(heading.findall(en))
    assert set(_NUMBER.findall(zh)) == set(_NUMBER.findall(en))
    for fact in ("188", "36", "554", "114", "239", "`d001`–`d188`"):
        assert fact in zh
    # prose is Chinese: no English sentence outside code and quoted example queries
    prose = re.sub(r"`[^`]*`|“[^”]*”", "", zh)
    assert not re.search(r"(?:[A-Za-z]+[ ,]+){6}", prose)


def test_a_folder_without_a_chinese_datasheet_falls_back(tmp_path):
    assert datasheet(tmp_path) is None
    (tmp_path / "README.md").write_text("# toy")
    assert datasheet(tmp_path, lang="zh") == tmp_path / "README.md"
    (tmp_path / "DATASHEET.zh.md").write_text("# 数据说明")
    assert datasheet(tmp_path, lang="zh") == tmp_path / "DATASHEET.zh.md"
    assert datasheet(tmp_path, lang="en") == tmp_path / "README.md"
