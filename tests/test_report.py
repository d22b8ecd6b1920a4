"""Tests of reteval.report and reteval.plots: escaping, structure, best-system wording, files."""

from __future__ import annotations

import re
import warnings
from html.parser import HTMLParser

import numpy as np
import pytest
from matplotlib.figure import Figure

from reteval.comparison import compare
from reteval.errors import InputError
from reteval.plots import (
    cutoff_families,
    plot_cutoff_curves,
    plot_differences,
    plot_distributions,
    plot_forest,
    report_figures,
)
from reteval.report import to_html, to_latex, to_markdown, write_report

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
    table = [line for line in text.splitlines() if line.startswith("| ")]
    # header + 3 systems in the measures table, header + 15 pairs in the tests table
    widths = {line.count(" | ") for line in table[:4]}
    assert len(widths) == 1 and widths.pop() == 5  # 6 columns
    assert len(table) == 4 + 1 + 15


# --------------------------------------------------------------------------- LaTeX


def latex_rows(tex):
    body = tex.split(r"\begin{tabular}", 1)[1].split(r"\end{tabular}", 1)[0]
    spec = re.match(r"\{([^}]*)\}", body).group(1)
    n_cols = len(spec.replace(" ", ""))
    rows = [r.strip() for r in body[len(spec) + 2:].split(r"\\")]
    rows = [re.sub(r"^(\\hline\s*)+", "", r).strip() for r in rows]
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
    for measure, cell in zip(evil.measures, cells):
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


def test_report_ties():
    res = make({"one": SIMILAR, "two": SIMILAR})
    assert (res.best["status"] == "tie").all()
    text = to_markdown(res)
    assert "- **RR**: tie between one and two" in text
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
    assert paths["report.tex"].read_text(encoding="utf-8").rstrip().endswith(r"\end{tabular}")


def test_input_errors(evil):
    with pytest.raises(InputError, match="expected a reteval.comparison.Comparison"):
        to_markdown({"not": "a comparison"})
    with pytest.raises(InputError, match="digits must be an integer"):
        to_latex(evil, digits=-1)
    with pytest.raises(InputError, match="expected a reteval.comparison.Comparison"):
        plot_forest(None)
