"""Tests of reteval.report and its figures: escaping, structure, best-system wording, files,
the Chinese and English editions, the continuous-evaluation section."""

from __future__ import annotations

import math
import re
import warnings
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from scipy import stats

from reteval.comparison import compare
from reteval.errors import InputError
from reteval.report import LANGUAGES, to_html, to_latex, to_markdown, write_report
from reteval.report.figures import (
    cutoff_families,
    plot_cutoff_curves,
    plot_differences,
    plot_distributions,
    plot_forest,
    report_figures,
)

EVIL = "<script>alert(1)</script>"
N = 24
QRELS = {f"q{i}": {f"d{i}": 1, f"e{i}": 1} for i in range(N)}


def run_with_ranks(ranks):
    """Relevant documents d{i} and e{i} placed at the given (1-based) ranks among fillers."""
    run = {}
    for i, (r1, r2) in enumerate(ranks):
        docs = [f"x{i}_{j}" for j in range(10)]
        for rank, doc in sorted(((r1, f"d{i}"), (r2, f"e{i}"))):
            docs.insert(rank - 1, doc)
        run[f"q{i}"] = docs
    return run


RNG = np.random.default_rng(0)
STRONG = run_with_ranks([(1, 2)] * N)                                  # near perfect
WEAK = run_with_ranks([(int(RNG.integers(3, 9)), 10) for _ in range(N)])  # clearly worse
SIMILAR = run_with_ranks([(1, 3) if i % 2 else (2, 3) for i in range(N)])  # between


def make(runs, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the fixtures must not trigger missing-query warnings
        return compare(QRELS, runs, ["P@1", "P@5", "P@10", "RR", "nDCG@10"], rng=0, **kwargs)


@pytest.fixture(scope="module")
def evil():
    return make({EVIL: STRONG, "bm25 & co_1%": WEAK, "dense~{x}": SIMILAR})


class Collector(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.data, self.attrs, self.stack = [], [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend(attrs)
        if tag not in ("meta", "img", "br"):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"unbalanced </{tag}>"
        self.stack.pop()

    def handle_data(self, data):
        self.data.append(data)


# --------------------------------------------------------------------------- HTML


def test_html_parses_and_escapes(evil):
    figures = {"forest": plot_forest(evil)}
    page = to_html(evil, title=f"Report {EVIL}", figures=figures)
    parser = Collector()
    parser.feed(page)
    parser.close()
    assert parser.stack == []  # every element closed
    assert "script" not in parser.tags
    text = "".join(parser.data)
    assert EVIL in text and f"Report {EVIL}" in text  # shown as text
    assert "&lt;script&gt;" in page and EVIL not in page
    assert "bm25 &amp; co_1%" in page
    # self-contained: the only URL is the embedded figure
    urls = [v for k, v in parser.attrs if k in ("src", "href")]
    assert len(urls) == 1 and urls[0].startswith("data:image/png;base64,")
    assert {"table", "thead", "tbody", "h1", "h2", "figure", "img"} <= set(parser.tags)


# --------------------------------------------------------------------------- Markdown


def test_markdown_escapes_and_has_the_chapter_sections(evil):
    text = to_markdown(evil)
    assert re.search(r"(?<!\\)<", text) is None  # every "<" escaped: no raw HTML
    assert r"\<script>alert(1)\</script>" in text
    assert r"bm25 \& co\_1%" in text and r"dense\~{x}" in text
    for heading in ("# Retrieval evaluation report", "## Measures", "## Best system per measure",
                    "## Significance tests", "## Recommendation"):
        assert heading in text
    before_many = text.split("## Many systems")[0]  # then one more section, for 3+ systems
    table = [line for line in before_many.splitlines() if line.startswith("| ")]
    # header + 3 systems in the measures table, header + 15 pairs in the tests table
    widths = {line.count(" | ") for line in table[:4]}
    assert len(widths) == 1 and widths.pop() == 5  # 6 columns
    assert len(table) == 4 + 1 + 15


@pytest.mark.parametrize("name", ["# lead", "1. lead", "> lead", "- lead"])
def test_a_run_named_like_markup_stays_text_in_every_block(name):
    markdown_it = pytest.importorskip("markdown_it")
    # the leader opens the paragraphs that name it; a title ending in "#" keeps it
    text = to_markdown(make({name: STRONG, "weak": WEAK}), title="Report #")
    html = markdown_it.MarkdownIt("commonmark").render(text)
    assert "<h1>Report #</h1>" in html
    tags = set(re.findall(r"<(\w+)", html))
    assert "blockquote" not in tags and "ol" not in tags
    assert html.count("<h1>") == 1 and name.replace(">", "&gt;") in html


# --------------------------------------------------------------------------- LaTeX


def latex_rows(tex):
    body = tex.split(r"\begin{tabular}", 1)[1].split(r"\end{tabular}", 1)[0]
    spec = re.match(r"\{([^}]*)\}", body).group(1)
    n_cols = len(spec.replace(" ", ""))
    rows = [r.strip() for r in body[len(spec) + 2:].split(r"\\")]
    rows = [re.sub(r"^(\\(hline|toprule|midrule|bottomrule)\s*)+", "", r).strip() for r in rows]
    return n_cols, [r for r in rows if r]


def count_cells(row):
    span = re.match(r"\\multicolumn\{(\d+)\}", row)
    if span:
        return int(span.group(1))
    return len(re.findall(r"(?<!\\)&", row)) + 1


def test_latex_fragment_structure_and_escaping(evil):
    tex = to_latex(evil)
    assert tex.count(r"\begin{tabular}") == 1 and tex.count(r"\end{tabular}") == 1
    assert tex.index(r"\begin{tabular}") < tex.index(r"\end{tabular}")
    n_cols, rows = latex_rows(tex)
    assert n_cols == 2 + 5
    assert len(rows) == 1 + 3 + 1  # header, systems, legend
    assert all(count_cells(r) == n_cols for r in rows)
    assert r"\textless{}script\textgreater{}alert(1)\textless{}/script\textgreater{}" in tex
    assert r"bm25 \& co\_1\%" in tex and r"dense\textasciitilde{}\{x\}" in tex
    assert "<" not in tex and ">" not in tex
    # braces balance once escaped braces are removed
    stripped = tex.replace(r"\{", "").replace(r"\}", "")
    assert stripped.count("{") == stripped.count("}")


def test_latex_superscripts_mark_significant_wins(evil):
    tex = to_latex(evil)
    _, rows = latex_rows(tex)
    strong = next(r for r in rows if r.startswith("(a)"))
    cells = strong.split(" & ")[2:]
    # the strong system beats the weak one (b) on every measure: scipy.stats.ttest_rel on these
    # per-query scores gives p < 1e-6 for P@5, RR and nDCG@10
    sig = evil.pairwise.set_index(["measure", "system", "other"])
    for measure, cell in zip(evil.measures, cells, strict=True):
        assert cell.startswith(r"\textbf{")  # best on every measure
        beats_b = bool(sig.loc[(measure, EVIL, "bm25 & co_1%"), "significant"])
        assert ("b" in cell.split(r"\textsuperscript{")[1] if "textsuperscript" in cell
                else False) == beats_b
    weak = next(r for r in rows if r.startswith("(b)"))
    assert "textsuperscript" not in weak  # the weak system beats nobody


# --------------------------------------------------------------------------- best-system logic


def test_report_says_significant_when_it_is(evil):
    text = to_markdown(evil)
    line = next(ln for ln in text.splitlines() if ln.startswith("- **RR**"))
    assert "significantly better than the runner-up" in line and "not significantly" not in line
    assert "Recommended: **" in text


def test_report_says_not_significant_and_plans():
    # two similar systems: SIMILAR vs a copy with two queries changed
    ranks = [(1, 3) if i % 2 else (2, 3) for i in range(N)]
    ranks[0], ranks[2] = (1, 3), (1, 3)
    res = make({"base": SIMILAR, "tweak": run_with_ranks(ranks)})
    assert res.best.loc["RR", "status"] == "not significant"
    text = to_markdown(res)
    line = next(ln for ln in text.splitlines() if ln.startswith("- **RR**"))
    assert "**tweak**" in line and "but not significantly better than the runner-up base" in line
    assert "The difference may be chance." in line
    assert "do not single out a best system" in text
    assert "Planning (P@1, tweak vs base)" in text and "would need about" in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_report_says_which_p_it_shows_and_that_intervals_are_not_corrected(evil, lang):
    """The effect-size table's p is the corrected one and its interval the pair's own: a pair
    may have an interval without 0 and a corrected p above alpha (the report must say why)."""
    holm = to_markdown(evil, lang=lang)
    tukey = to_markdown(make({EVIL: STRONG, "bm25 & co_1%": WEAK, "dense~{x}": SIMILAR},
                             test="tukey"), lang=lang)
    uncorrected = to_markdown(make({EVIL: STRONG, "bm25 & co_1%": WEAK, "dense~{x}": SIMILAR},
                                   correction="none"), lang=lang)
    said = {"en": ("Holm-corrected p-value", "the intervals are not corrected",
                   "Tukey HSD p-value", "p-value, not corrected"),
            "zh": ("经 Holm 校正后的 p 值", "置信区间未校正", "的 Tukey HSD p 值",
                   "未经校正的 p 值")}
    corrected_p, intervals, tukey_p, plain_p = said[lang]
    assert corrected_p in holm and intervals in holm
    assert tukey_p in tukey and intervals not in tukey
    assert plain_p in uncorrected and intervals not in uncorrected


def test_report_ties():
    res = make({"one": SIMILAR, "two": SIMILAR})
    assert (res.best["status"] == "tie").all()
    text = to_markdown(res)
    assert "- **RR** (mean reciprocal rank, MRR): tie between one and two" in text
    assert "Every measure ends in a tie" in text
    html_page = to_html(res)
    assert "tie between one and two" in html_page


def test_single_system_report():
    res = make({"only": STRONG})
    text = to_markdown(res)
    assert "the only system" in text and "## Significance tests" not in text
    tex = to_latex(res)
    n_cols, rows = latex_rows(tex)
    assert all(count_cells(r) == n_cols for r in rows)


# --------------------------------------------------------------------------- figures and files


def test_plots_return_figures(evil):
    assert cutoff_families(evil) == {"P": [(1, "P@1"), (5, "P@5"), (10, "P@10")]}
    for fig in (plot_cutoff_curves(evil), plot_forest(evil), plot_distributions(evil, "RR"),
                plot_differences(evil, "RR", against="bm25 & co_1%")):
        assert isinstance(fig, Figure)
    assert len(plot_differences(evil, "RR").axes) == 2
    names = list(report_figures(evil))
    assert names == ["forest", "cutoff_curves", "differences", "distributions"]
    res = make({"a": STRONG, "b": WEAK})
    one_k = compare(QRELS, {"a": STRONG}, ["RR"], rng=0)
    with pytest.raises(InputError, match="two or more cutoffs"):
        plot_cutoff_curves(one_k)
    with pytest.raises(InputError, match="measure must be one of"):
        plot_distributions(res, "MAP")


def test_write_report(tmp_path, evil):
    paths = write_report(evil, tmp_path / "out", title="Weekly report")
    assert sorted(paths) == ["figures/cutoff_curves.png", "figures/differences.png",
                             "figures/distributions.png", "figures/forest.png",
                             "report.html", "report.md", "report.tex"]
    for rel, path in paths.items():
        assert path.is_file() and path == (tmp_path / "out" / rel).resolve()
        if rel.endswith(".png"):
            assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    md = paths["report.md"].read_text(encoding="utf-8")
    for rel in paths:
        if rel.startswith("figures/"):
            assert f"]({rel})" in md
    page = paths["report.html"].read_text(encoding="utf-8")
    assert page.count("data:image/png;base64,") == 4 and "Weekly report" in page
    tex = paths["report.tex"].read_text(encoding="utf-8")
    assert tex.rstrip().endswith(r"\end{table}") and r"\label{tab:reteval-comparison}" in tex


def test_input_errors(evil):
    with pytest.raises(InputError, match="expected a reteval.comparison.Comparison"):
        to_markdown({"not": "a comparison"})
    with pytest.raises(InputError, match="digits must be an integer"):
        to_latex(evil, digits=-1)
    with pytest.raises(InputError, match="expected a reteval.comparison.Comparison"):
        plot_forest(None)


# --------------------------------------------------------------------------- languages

PLAIN = {"base": SIMILAR, "strong": STRONG, "weak": WEAK}
NUMBER = re.compile(r"\d+(?:\.\d+)?")
# Names that stay as they are in the Chinese edition: systems, measures, tests and corrections
# named after people, the statistics' symbols.
KEEP = re.compile(r"\b(?:base|strong|weak|tweak|nDCG|MRR|MAP|Holm|Bonferroni|Benjamini|Hochberg|"
                  r"Wilcoxon|Fisher|Hodges|Lehmann|Cohen|bootstrap|reteval|XeLaTeX|LuaLaTeX|"
                  r"ctex|xeCJK|xelatex|ctexart|UTC)\b")


@pytest.fixture(scope="module")
def plain():
    return make(PLAIN)


def english_words(text):
    """Runs of two or more English words left once names and markup are removed."""
    text = re.sub(r"\\[a-zA-Z]+|[{}$]|figures/\w+\.png|\w+@k|\w+@\d+", " ", text)
    text = KEEP.sub(" ", text)
    return re.findall(r"[A-Za-z]{2,}(?:[ ,.;:'-]+[A-Za-z]{2,})+", text)


def test_chinese_report_has_no_english_sentence(plain):
    text = to_markdown(plain, lang="zh")
    for heading in ("# 检索系统评估报告", "## 评估指标对比", "## 各指标的最佳检索器",
                    "## 显著性检验", "## 建议"):
        assert heading in text
    for term in ("精确率", "平均倒数排名", "归一化折损累计增益", "置信区间", "显著"):
        assert term in text
    assert english_words(text) == []
    # the same check finds the English edition's sentences
    assert len(english_words(to_markdown(plain, lang="en"))) > 10


def test_editions_have_the_same_numbers(plain):
    zh, en = to_markdown(plain, lang="zh"), to_markdown(plain, lang="en")
    assert sorted(NUMBER.findall(zh)) == sorted(NUMBER.findall(en))
    # every mean of the table appears, to four decimals, in both
    for value in plain.table["mean"]:
        assert f"{value:.4f}" in zh and f"{value:.4f}" in en


def test_chinese_wording_of_significance():
    ranks = [(1, 3) if i % 2 else (2, 3) for i in range(N)]
    ranks[0], ranks[2] = (1, 3), (1, 3)
    res = make({"base": SIMILAR, "tweak": run_with_ranks(ranks)})
    text = to_markdown(res, lang="zh")
    line = next(ln for ln in text.splitlines() if ln.startswith("- **RR**"))
    assert line.startswith("- **RR**（平均倒数排名 MRR）：**tweak**")
    assert "但差异不显著" in line and "可能只是偶然" in line
    assert "这些查询选不出最佳检索器" in text and "约需" in text
    strong = to_markdown(make({"strong": STRONG, "weak": WEAK}), lang="zh")
    assert "显著优于第二名 weak" in strong and "推荐：**strong**" in strong
    tie = to_markdown(make({"one": SIMILAR, "two": SIMILAR}), lang="zh")
    assert "one 和 two 并列" in tie and "每个指标都是并列" in tie
    single = to_markdown(make({"only": STRONG}), lang="zh")
    assert "唯一参评的检索器" in single and "## 显著性检验" not in single


def test_html_language_and_fonts(plain):
    zh = to_html(plain, lang="zh")
    en = to_html(plain, lang="en")
    assert '<html lang="zh-CN">' in zh and '<html lang="en">' in en
    assert "<title>检索系统评估报告</title>" in zh
    assert '"Noto Sans CJK SC"' in zh and '"Microsoft YaHei"' in zh
    parser = Collector()
    parser.feed(zh)
    parser.close()
    assert parser.stack == []
    assert english_words(" ".join(parser.data).split("body{")[0]) == []
    headers = re.findall(r"<th>(.*?)</th>", zh)
    assert headers[:4] == ["检索器", "P@1", "P@5", "P@10"] and "校正后 p" in headers


def test_chinese_latex_fragment_and_document(plain):
    tex = to_latex(plain, lang="zh")
    assert tex.splitlines()[0].startswith("%") and "XeLaTeX" in tex.splitlines()[0]
    assert "ctex" in tex.splitlines()[0]
    n_cols, rows = latex_rows(tex)
    assert n_cols == 2 + 5 and all(count_cells(r) == n_cols for r in rows)
    assert rows[0].startswith("& 检索器 &") and "显著优于该检索器" in rows[-1]
    assert english_words("\n".join(rows)) == []
    # the same numbers as the English table
    assert latex_rows(to_latex(plain, lang="en"))[1][1:-1] == rows[1:-1]
    doc = to_latex(plain, lang="zh", standalone=True)
    lines = doc.splitlines()
    assert r"\documentclass[UTF8]{ctexart}" in lines
    assert lines[-1] == r"\end{document}" and r"\begin{document}" in lines
    assert doc.index(r"\begin{table}") < doc.index(r"\begin{tabular}") < doc.index(r"\end{table}")
    assert r"\caption{检索系统评估报告}" in doc
    en_doc = to_latex(plain, lang="en", standalone=True, title="A & B")
    assert r"\documentclass{article}" in en_doc and r"\caption{A \& B}" in en_doc
    assert "ctex" not in en_doc


def test_language_is_checked(plain):
    for render in (to_markdown, to_html, to_latex):
        with pytest.raises(InputError, match="lang must be 'zh' or 'en'; got 'fr'"):
            render(plain, lang="fr")
    assert LANGUAGES == ("zh", "en")


def history_file(tmp_path, run_good, run_bad):
    from reteval.monitor.runner import monitor_once

    path = tmp_path / "history.sqlite"
    for run in (run_good, run_good, run_bad):
        monitor_once(path, run=run, qrels=QRELS, measures=["RR", "P@5", "R@5"], name="prod",
                     thresholds=["RR=0.8"])
    return path


def test_report_with_history(tmp_path, plain):
    from reteval.monitor.trend import history_frame, plot_history

    path = history_file(tmp_path, STRONG, WEAK)
    out = {}
    for lang in LANGUAGES:
        paths = write_report(plain, tmp_path / lang, lang=lang, history=history_frame(path),
                             trend=plot_history(path))
        assert "figures/trend.png" in paths
        out[lang] = paths["report.md"].read_text(encoding="utf-8")
    zh, en = out["zh"], out["en"]
    assert "## 持续评估" in zh and "## Continuous evaluation" in en
    assert "历史记录中有 3 次评估" in zh and "其中 1 次触发了告警" in zh
    assert "The history holds 3 evaluations" in en and "1 of them raised an alert" in en
    assert "低于阈值：RR" in zh and "below threshold: RR" in en
    # the trend figure sits in the continuous-evaluation section, before the other figures
    assert zh.index("## 持续评估") < zh.index("](figures/trend.png)") < zh.index("## 图表")
    assert english_words(zh) == []
    assert sorted(NUMBER.findall(zh)) == sorted(NUMBER.findall(en))
    # every recorded measure is a column, also one the comparison does not have (R@5)
    header = next(line for line in zh.splitlines() if line.startswith("| 时间（UTC）"))
    assert [cell.strip() for cell in header.strip("|").split("|")] == \
        ["时间（UTC）", "检索器", "查询数", "RR", "P@5", "R@5", "告警"]
    # the latest entry's RR, as monitor_once recorded it, is in the table
    weak_rr = compare(QRELS, {"w": WEAK}, ["RR"], rng=0).means.loc["w", "RR"]
    assert f"{weak_rr:.4f}" in zh
    empty = tmp_path / "empty.sqlite"
    from reteval.monitor.history import open_history
    open_history(empty, create=True).close()
    assert "历史记录中还没有评估记录" in to_markdown(plain, lang="zh", history=history_frame(empty))
    with pytest.raises(InputError, match="history must be the table of"):
        to_markdown(plain, history=str(path))


@pytest.mark.parametrize("newline", ["\r", "\r\n", "\n", "\u2028", "\x85", "\x0b"])
def test_markdown_table_rows_stay_one_line_whatever_breaks_a_name(newline):
    qrels = {f"q{i}": {f"d{i}": 1} for i in range(4)}
    runs = {f"a{newline}b": {f"q{i}": [f"d{i}"] for i in range(4)},
            "c": {f"q{i}": ["x", f"d{i}"] for i in range(4)}}
    markdown = to_markdown(compare(qrels, runs, ["RR"], rng=0))
    for character in newline.replace("\n", ""):
        assert character not in markdown
    rows = [line for line in markdown.split("\n") if line.startswith("| a b |")]
    assert len(rows) == 1 and rows[0].count(" | ") == 1, rows  # system, RR: one row


def test_latex_table_for_a_paper():
    from reteval.comparison import compare_scores

    rr = pd.DataFrame({"a": [1.0, 0.5, 1.0], "b": [0.5, 1.0, 0.0]},
                      index=pd.Index(["q1", "q2", "q3"], name="query_id"))
    c = compare_scores({"RR": rr}, rng=0)
    tex = to_latex(c, digits=2, effect_sizes=True, label="tab:rr")
    lines = tex.splitlines()
    assert lines[1] == r"% needs \usepackage{booktabs}"
    for part in (r"\toprule", r"\midrule", r"\bottomrule", r"\label{tab:rr}",
                 r"\caption{RR of 2 systems over 3 queries}", r"\textbf{0.83}", "0.50",
                 "(paired t test, Holm-corrected p"):
        assert part in tex
    assert r"\hline" not in tex
    # effect size by hand: d = (0.5, -0.5, 1), mean 1/3; residual SS = sum((d - 1/3)^2) / 2
    # = 7/12 on 2 df, V_E = 7/24: (5/6 - 1/2) / sqrt(7/24) = 0.617; p of scipy's ttest_rel
    es = (5 / 6 - 1 / 2) / math.sqrt(7 / 24)
    p = stats.ttest_rel([1.0, 0.5, 1.0], [0.5, 1.0, 0.0]).pvalue
    assert f"RR: a / b: {es:.2f} [" in tex and f"p = {p:.4f}" in tex
    assert "Pairs" not in to_latex(c) and "System / Other / Effect size" not in to_latex(c)
    with pytest.raises(InputError, match="label must be"):
        to_latex(c, label="a}b")


def test_sections_keep_the_title_and_method_and_only_the_sections_named(evil):
    whole = to_markdown(evil)
    headings = [line for line in whole.splitlines() if line.startswith("#")]
    assert headings == ["# Retrieval evaluation report", "## Measures",
                        "## Best system per measure", "## Significance tests",
                        "## Many systems: ANOVA, significance matrix, effect sizes",
                        "## Recommendation"]
    advice = to_markdown(evil, sections=["advice"])
    # the title and method sentence, then the recommendation exactly as in the whole report
    assert advice == whole[:whole.index("## Measures")] + whole[whole.index("## Recommendation"):]
    both = to_markdown(evil, sections=["advice", "best", "history"], lang="zh")
    assert [line for line in both.splitlines() if line.startswith("#")] == \
        ["# 检索系统评估报告", "## 各指标的最佳检索器", "## 建议"]
    assert to_markdown(evil, sections=[]).count("\n## ") == 0
    for bad, message in [("advice", "must be a list of section names"),
                         (["advice", "summary"], "unknown report section 'summary'")]:
        with pytest.raises(InputError, match=message):
            to_markdown(evil, sections=bad)
