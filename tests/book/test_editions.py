"""Bilingual notebooks: editions keep one language's prose.

The checker catches every broken rule.
"""


import nbformat
import pytest
from nbformat import v4
from paths import ROOT

from reteval.book.editions import check_bilingual, edition
from reteval.errors import InputError

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb")) + sorted(
    (ROOT / "notebooks" / "solutions").glob("*.ipynb"))

def md(text, lang=None):
    return v4.new_markdown_cell(text, metadata={"tags": [f"lang-{lang}"]} if lang else {})


def params(source='lang = "zh"\nk = 5'):
    return v4.new_code_cell(source, metadata={"tags": ["parameters"]})


def good():
    return v4.new_notebook(cells=[
        md("# 检索评估\n\n召回率（Recall@K）衡量前 K 个结果找回了多少相关文档。", "zh"),
        md("# Retrieval evaluation\n\nRecall@K (召回率) measures how many relevant documents "
           "the top K results find.", "en"),
        params(),
        v4.new_code_cell("print(k)"),
        md("计算 `recall_at_k(relevant, retrieved, k)` 的值，"
           "公式是 $R@K = |rel \\cap top_K| / |rel|$。", "zh"),
        md("Compute `recall_at_k(relevant, retrieved, k)`.", "en"),
    ])


def test_good_notebook_has_no_problems():
    assert check_bilingual(good()) == []


def test_editions_keep_one_language_and_every_code_cell():
    nb = good()
    zh, en = edition(nb, "zh"), edition(nb, "en")
    assert [c.source[:5] for c in zh.cells if c.cell_type == "markdown"] == ["# 检索评", "计算 `r"]
    assert [c.source[:5] for c in en.cells if c.cell_type == "markdown"] == ["# Ret", "Compu"]
    assert zh.metadata["reteval"]["lang"] == "zh" and en.metadata["reteval"]["lang"] == "en"
    code = ['lang = "zh"\nk = 5', "print(k)"]
    assert [c.source for c in zh.cells if c.cell_type == "code"] == code
    assert [c.source for c in en.cells if c.cell_type == "code"] == code
    assert len(nb.cells) == 6 and "reteval" not in nb.metadata  # the source is not changed


def test_edition_rejects_unknown_language_and_reads_paths(tmp_path):
    with pytest.raises(InputError, match="lang must be 'zh' or 'en'; got 'fr'"):
        edition(good(), "fr")
    path = tmp_path / "nb.ipynb"
    nbformat.write(good(), path)
    assert len(edition(path, "en").cells) == 4
    with pytest.raises(InputError, match="no such notebook"):
        check_bilingual(tmp_path / "missing.ipynb")


def test_untagged_and_doubly_tagged_cells():
    nb = good()
    nb.cells.append(md("A note"))
    nb.cells.append(v4.new_markdown_cell("两个", metadata={"tags": ["lang-zh", "lang-en"]}))
    problems = check_bilingual(nb)
    assert problems == ["cell 6: Markdown cell without a language tag (lang-zh or lang-en)",
                        "cell 7: Markdown cell tagged both lang-zh and lang-en"]


def test_pairs_must_be_adjacent_and_in_order():
    nb = good()
    nb.cells[0], nb.cells[1] = nb.cells[1], nb.cells[0]  # en before zh
    problems = check_bilingual(nb)
    assert "cell 0: lang-en cell not preceded by its lang-zh original" in problems
    assert "cell 1: lang-zh cell not followed by its lang-en translation" in problems
    nb = good()
    nb.cells.insert(5, v4.new_code_cell("x = 1"))  # code between a pair
    assert check_bilingual(nb) == ["cell 4: lang-zh cell not followed by its lang-en translation",
                                   "cell 6: lang-en cell not preceded by its lang-zh original"]
    nb = good()
    del nb.cells[5]  # the last zh cell lost its translation
    assert check_bilingual(nb) == ["cell 4: lang-zh cell not followed by its lang-en translation"]


def test_chinese_cell_needs_chinese_and_no_english_paragraph():
    nb = good()
    nb.cells[0].source = "Recall@K `召回率`"  # the only Chinese is code
    assert check_bilingual(nb) == ["cell 0: lang-zh cell has no Chinese text"]
    nb = good()
    english = ("the fixed horizon test says ship B while the sequential test has not yet shown "
               "a difference")
    nb.cells[0].source = "结论：\n\n" + english
    [problem] = check_bilingual(nb)
    assert problem.startswith("cell 0: lang-zh cell has an English paragraph: 'the fixed horizon")


def test_english_in_code_math_links_and_marked_spans_is_not_a_paragraph():
    long = " ".join(["word"] * 20)
    nb = good()
    nb.cells[0].source = (f"见 `{long}`、${long}$、```\n{long}\n```、"
                          f"[论文](https://x.org/{'-'.join(['a'] * 20)}) "
                          f"和 <span lang=\"en\">{long}</span>。")
    assert check_bilingual(nb) == []
    eleven = " ".join(["word"] * 11)
    nb.cells[0].source = f"中文 {eleven} 中文 {eleven}"  # two runs of 11, broken by Chinese
    assert check_bilingual(nb) == []


def test_english_cell_chinese_only_in_glosses_and_short_terms():
    nb = good()
    nb.cells[1].source = ("Recall (召回率) and precision（精确率）; "
                          "the judge calls “机器学习是人工智能的分支” "
                          "a miss, the section **A/B 测试**, "
                          "`召回率召回率召回率召回率召回率` is code, "
                          "<span lang=\"zh\">召回率召回率召回率召回率召回率</span>, "
                          "and AI is 人工智能.")
    assert check_bilingual(nb) == []
    # an untranslated sentence
    nb.cells[1].source = "Recall. 召回率衡量检索系统找到相关文档的能力。"
    assert check_bilingual(nb) == [("cell 1: lang-en cell has a Chinese sentence (not in quotes, "
                                    "parentheses or code): "
                                    "'召回率衡量检索系统找到相关文档的能力。'")]
    # 13, Latin inside
    nb.cells[1].source = "Its context 机器学习是AI的分支也是人工智 is a sentence."
    assert len(check_bilingual(nb)) == 1
    nb.cells[1].source = "Its context 机器学习是AI的分支人工智能 is a sentence."  # 12: a long term
    assert check_bilingual(nb) == []


def test_parameters_cell_must_declare_lang():
    nb = good()
    nb.cells[2].source = "k = 5"
    assert check_bilingual(nb) == ['the parameters cell does not declare lang (lang = "zh")']
    nb.cells[2].source = 'lang: str = "zh"'
    assert check_bilingual(nb) == []
    nb.cells[2].metadata["tags"] = []
    assert check_bilingual(nb) == ["no code cell tagged 'parameters' (it must declare lang)"]


def test_every_chapter_notebook_is_found():
    names = {p.stem for p in NOTEBOOKS}
    assert {f"{i:02d}" for i in range(1, 12)} <= {name[:2] for name in names}
    assert len([p for p in NOTEBOOKS if p.parent.name == "solutions"]) >= 11


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_repository_notebooks_are_bilingual(path):
    nb = nbformat.read(path, as_version=4)
    assert check_bilingual(nb) == []
    zh, en = edition(nb, "zh"), edition(nb, "en")
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert [c.source for c in zh.cells if c.cell_type == "code"] == code
    assert [c.source for c in en.cells if c.cell_type == "code"] == code
    assert all("lang-en" not in c.metadata.get("tags", []) for c in zh.cells)
    assert all("lang-zh" not in c.metadata.get("tags", []) for c in en.cells)


def test_broken_notebook_file_is_an_input_error(tmp_path):
    path = tmp_path / "broken.ipynb"
    path.write_text("{not json")
    with pytest.raises(InputError, match="broken.ipynb: not a readable notebook"):
        edition(path, "zh")


def test_class_minutes_counts_prose_code_outputs_figures_and_exercises_of_one_edition():
    from reteval.book.editions import class_minutes

    table = ("<table><thead><tr><th></th><th>AP</th></tr></thead><tbody>"
             + "<tr><th>bm25</th><td>0.4</td></tr>" * 9 + "</tbody></table>")
    nb = v4.new_notebook(cells=[
        params(),  # not counted
        md("召回率" * 250, "zh"),  # 750 characters: 3 minutes
        md("recall " * 300 + "`code words here` $x + y$", "en"),  # 300 words: 2 minutes
        md("图：![recall](figures/recall.png)", "zh"),  # a character and a figure: 2.004
        md("Figure: ![recall](figures/recall.png)", "en"),  # a word and a figure: 2.0067
        v4.new_code_cell("evaluate()\n\n# the means\nmeans = 1", outputs=[  # 3 lines: 0.375
            v4.new_output("stream", name="stdout", text="a\n\nb\nc\n"),  # 3 lines: 0.3
            v4.new_output("execute_result", data={"text/html": table,  # 10 rows: 1
                                                  "text/plain": "x\n" * 30}),
            v4.new_output("display_data", data={"image/png": "iVBOR",  # a figure: 2
                                                "text/plain": "<Figure>"}),
            v4.new_output("execute_result", data={"text/plain": "1\n2"})]),  # 2 lines: 0.2
        v4.new_code_cell("x = 1", metadata={"tags": ["injected-parameters"]},  # not counted
                         outputs=[v4.new_output("stream", name="stdout", text="x\n" * 50)]),
        v4.new_code_cell('results["x"] = 1', metadata={"tags": ["record"]}),  # not counted
        v4.new_code_cell('answer = None\ncheck("03.2", answer, lang=lang)', outputs=[  # 6
            v4.new_output("stream", name="stdout", text="answer, then run\n")]),
    ])
    code = 0.375 + 0.3 + 1 + 2 + 0.2
    assert class_minutes(nb, "zh") == pytest.approx(3 + (1 / 250 + 2) + code + 6)
    assert class_minutes(nb, "en") == pytest.approx(2 + (1 / 150 + 2) + code + 6)
    for cell in nb.cells:  # unexecuted: the code only
        if cell.cell_type == "code":
            cell.outputs = []
    assert class_minutes(nb, "en") == pytest.approx(2 + (1 / 150 + 2) + 0.375 + 6)


CHAPTER_NOTEBOOKS = [p for p in NOTEBOOKS if p.parent.name == "notebooks"]


@pytest.mark.parametrize("path", CHAPTER_NOTEBOOKS, ids=lambda p: p.stem)
def test_no_edition_exceeds_a_class_before_it_runs(path):
    """The source, unexecuted, costs its prose, code and exercises only: a lower bound.
    Whether the executed notebook fits is checked by each notebook's tests, where it runs."""
    from reteval.book.editions import CLASS_MINUTES, class_minutes

    for lang in ("zh", "en"):
        assert class_minutes(path, lang) <= CLASS_MINUTES, (path.stem, lang)
