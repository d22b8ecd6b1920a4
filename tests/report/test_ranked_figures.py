"""The ranked-list strips (reteval.report.figures.plot_ranked_list, plot_ranked_lists)."""

import io
import math
import re
import warnings

import pytest
from matplotlib.figure import Figure

import reteval
from reteval._util.catalogue import phrase
from reteval._util.fonts import use_cjk_font
from reteval.errors import InputError
from reteval.report.figures import plot_ranked_list, plot_ranked_lists

# q1: d2 and d3 tie at 0.5 (trec_eval: doc id descending, so d3 first); d4 and d6 unjudged;
#     d5 (grade 3) and d7 (grade 1) judged relevant but not retrieved.
# q2: fewer documents (2) than k (5); d9 (unjudged) and d2 tie: d9 first.
QRELS = {"q1": {"d1": 2, "d2": 0, "d3": 1, "d5": 3, "d7": 1, "d8": 0},
         "q2": {"d1": 1, "d2": 1}}
RUN = {"q1": {"d1": 0.9, "d2": 0.5, "d3": 0.5, "d4": 0.4, "d6": 0.2, "d8": 0.1},
       "q2": {"d9": 0.5, "d2": 0.5}}
MEASURES = ["P@5", "RR", "AP", "nDCG@5"]
L2 = math.log2
# By hand (see tests/evaluation/test_ranked_lists.py for the reasoning).
HAND = {
    "q1": {"P@5": 2 / 5, "RR": 1.0, "AP": (1 + 2 / 2) / 4,
           "nDCG@5": (2 + 1 / L2(3)) / (3 + 2 / L2(3) + 1 / L2(4) + 1 / L2(5))},
    "q2": {"P@5": 1 / 5, "RR": 1 / 2, "AP": (1 / 2) / 2, "nDCG@5": (1 / L2(3)) / (1 + 1 / L2(3))},
}
_HAN = re.compile(r"[\u4e00-\u9fff]")


def _by_gid(fig, prefix):
    ax = fig.axes[0]
    return {t.get_gid(): t for t in [*ax.texts, *ax.patches]
            if (t.get_gid() or "").startswith(prefix)}


def _number(text):
    return float(re.search(r"= (-?\d+\.\d+)", text).group(1))


@pytest.mark.parametrize("query_id", ["q1", "q2"])
def test_the_values_shown_are_reteval_evaluate_values_and_the_hand_computed_ones(query_id):
    fig = plot_ranked_list(QRELS, RUN, query_id, k=5, measures=MEASURES)
    texts = _by_gid(fig, "value:")
    assert list(texts) == [f"value:{m}" for m in MEASURES]
    evaluated = reteval.evaluate(QRELS, RUN, MEASURES).loc[query_id]
    for m in MEASURES:
        shown = texts[f"value:{m}"].get_text()
        assert shown.startswith(f"{m} = {evaluated[m]:.3f} (")
        assert _number(shown) == pytest.approx(HAND[query_id][m], abs=5e-4)


def test_what_each_value_counts_is_said_in_words():
    one = {gid: t.get_text() for gid, t in _by_gid(
        plot_ranked_list(QRELS, RUN, "q1", k=5, measures=MEASURES), "value:").items()}
    assert one == {
        "value:P@5": "P@5 = 0.400 (2 relevant in the top 5)",
        "value:RR": "RR = 1.000 (first relevant at rank 1)",
        "value:AP": "AP = 0.500 (the whole list: 2 of 4 relevant retrieved)",
        # DCG 2 + 1/log2(3) = 2.63; ideal 3 + 2/log2(3) + 1/2 + 1/log2(5) = 5.19
        "value:nDCG@5": "nDCG@5 = 0.507 (DCG 2.63 / ideal DCG 5.19)",
    }
    two = _by_gid(plot_ranked_list(QRELS, RUN, "q2", k=5, measures=MEASURES), "value:")
    # the tie puts the unjudged d9 first: the first relevant document is at rank 2
    assert two["value:RR"].get_text() == "RR = 0.500 (first relevant at rank 2)"


def test_the_cells_show_grades_unjudged_documents_and_the_end_of_the_list():
    fig = plot_ranked_list(QRELS, RUN, "q2", k=5, measures=MEASURES)
    grades = {gid: t.get_text() for gid, t in _by_gid(fig, "grade:").items()}
    # ranked: d9 unjudged, d2 grade 1, then no documents; ideal: grades 1, 1, then nothing
    assert grades == {"grade:ranked:q2:1": "?", "grade:ranked:q2:2": "1",
                      "grade:ideal:q2:1": "1", "grade:ideal:q2:2": "1"}
    cells = _by_gid(fig, "ranked:")
    assert cells["ranked:q2:1"].get_hatch() == "///"
    assert [cells[f"ranked:q2:{r}"].get_linestyle() for r in (3, 4, 5)] == ["--"] * 3
    assert cells["ranked:q2:2"].get_linewidth() > cells["ranked:q2:1"].get_linewidth()
    discounts = [t.get_text() for t in _by_gid(fig, "discount:").values()]
    assert discounts == ["1.00", "0.63", "0.50", "0.43", "0.39"]  # 1/log2(r+1)


def test_ties_are_drawn_in_trec_eval_order():
    fig = plot_ranked_list(QRELS, RUN, "q1", k=5, measures=MEASURES)
    grades = [_by_gid(fig, "grade:ranked:")[f"grade:ranked:q1:{r}"].get_text()
              for r in range(1, 6)]
    assert grades == ["2", "1", "0", "?", "?"]  # d1, d3 (ties d2, greater id), d2, d4, d6
    ideal = [_by_gid(fig, "grade:ideal:")[f"grade:ideal:q1:{r}"].get_text() for r in range(1, 5)]
    assert ideal == ["3", "2", "1", "1"]


def test_the_relevance_level_moves_the_thick_borders_not_the_values_of_ndcg():
    fig = plot_ranked_list(QRELS, RUN, "q1", k=5, measures=MEASURES, relevance_level=2)
    cells = _by_gid(fig, "ranked:")
    assert [cells[f"ranked:q1:{r}"].get_linewidth() > 1 for r in (1, 2)] == [True, False]
    assert _by_gid(fig, "value:")["value:P@5"].get_text().startswith("P@5 = 0.200")


def test_several_queries_with_each_measure_highest_in_bold():
    fig = plot_ranked_lists(QRELS, RUN, ["q2", "q1"], k=5, measures=MEASURES)
    texts = _by_gid(fig, "value:")
    evaluated = reteval.evaluate(QRELS, RUN, MEASURES)
    for q in ("q1", "q2"):
        for m in MEASURES:
            text = texts[f"value:{q}:{m}"]
            assert text.get_text() == f"{evaluated.at[q, m]:.3f}"
            assert float(text.get_text()) == pytest.approx(HAND[q][m], abs=5e-4)
            # q1 is above q2 on every measure here
            assert text.get_fontweight() == ("bold" if q == "q1" else "normal")
    ticks = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert ticks[::-1][:2] == ["q2: ranked list", "q2: ideal ranking"]  # q2 on top


def test_drawing_into_an_axes_of_ones_own():
    fig = Figure()
    left, right = fig.subplots(1, 2)
    assert plot_ranked_list(QRELS, RUN, "q1", k=5, ax=right) is fig
    assert not left.texts and right.texts


def _reader_texts(fig):
    """Every text a reader reads in the figure."""
    ax = fig.axes[0]
    texts = [ax.get_title(loc="left"), ax.get_xlabel(), *(t.get_text() for t in ax.texts),
             *(t.get_text() for t in ax.get_yticklabels()),
             *(t.get_text() for t in ax.get_legend().get_texts())]
    return [t for t in texts if t]


# What a Chinese figure writes as it is: measure names, ids, and the formula's log2 (glossary).
KEPT = {"RR", "AP", "DCG", "nDCG", "log2", "q1", "q2", "d1", "d2", "d3", "d4", "d6", "d8", "d9"}


def _english_words(text):
    text = re.sub(r"[A-Za-z]+@\d+", " ", text)  # P@5, nDCG@5
    words = re.findall(r"[A-Za-z][A-Za-z0-9_]*", text)
    return [w for w in words if w not in KEPT and len(w) > 1]


@pytest.mark.parametrize("figure", ["one", "several"])
def test_chinese_labels_have_no_english_words(figure):
    if figure == "one":
        fig = plot_ranked_list(QRELS, RUN, "q1", k=5, measures=MEASURES, lang="zh")
    else:
        fig = plot_ranked_lists(QRELS, RUN, ["q1", "q2"], k=5, measures=MEASURES, lang="zh")
    texts = _reader_texts(fig)
    assert [w for t in texts for w in _english_words(t)] == []
    assert any(_HAN.search(t) for t in texts)
    # the words are the catalogue's
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert phrase("report.figure.ranked.discount", "zh") in labels
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert phrase("report.figure.ranked.unjudged", "zh") in legend


def test_chinese_values_say_what_they_count():
    fig = plot_ranked_list(QRELS, RUN, "q2", k=5, measures=MEASURES, lang="zh")
    assert _by_gid(fig, "value:")["value:RR"].get_text() == "RR = 0.500（第一个相关文档在第 2 名）"


@pytest.mark.slow
def test_chinese_strips_draw_every_glyph():
    if use_cjk_font(warn=False) is None:
        pytest.skip("no CJK font installed (make fonts installs fonts-noto-cjk)")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns "Glyph ... missing from font(s)"
        plot_ranked_list(QRELS, RUN, "q1", k=5, lang="zh").savefig(io.BytesIO(), format="png")
        plot_ranked_lists(QRELS, RUN, ["q1", "q2"], k=5, lang="zh").savefig(io.BytesIO(),
                                                                             format="png")


@pytest.mark.parametrize(("args", "kwargs", "message"), [
    (("q9",), {}, r"unknown query id 'q9': the qrels' queries are 'q1', 'q2'"),
    (("q1",), {"k": 0}, r"k must be an integer >= 1 \(the ranks shown\); got 0"),
    (("q1",), {"k": -3}, r"k must be an integer >= 1 \(the ranks shown\); got -3"),
    (("q1",), {"k": 101}, r"k must be at most 100 \(the ranks a figure can show\); got 101"),
    (("q1",), {"k": 100_000}, r"k must be at most 100 .*; got 100000"),
    (("q1",), {"ax": "left"}, r"ax must be a matplotlib Axes or None; got str"),
    (("q1",), {"lang": "fr"}, r"lang must be 'zh' or 'en'; got 'fr'"),
])
def test_bad_input_is_refused_with_a_clear_message(args, kwargs, message):
    with pytest.raises(InputError, match=message):
        plot_ranked_list(QRELS, RUN, *args, **kwargs)


def test_bad_query_lists_are_refused():
    with pytest.raises(InputError, match=r"unknown query id 'q7'"):
        plot_ranked_lists(QRELS, RUN, ["q1", "q7"])
    with pytest.raises(InputError, match="query_ids lists 'q1' twice"):
        plot_ranked_lists(QRELS, RUN, ["q1", "q1"])
    with pytest.raises(InputError, match="k must be an integer >= 1"):
        plot_ranked_lists(QRELS, RUN, ["q1"], k=0)
    with pytest.raises(InputError, match=r"k must be at most 100 .*; got 100000"):
        plot_ranked_lists(QRELS, RUN, ["q1", "q2"], k=100_000)


def test_a_hundred_ranks_are_drawn():
    fig = plot_ranked_list(QRELS, RUN, "q1", k=100, measures=["P@5"])
    cells = [p for p in fig.axes[0].patches if (p.get_gid() or "").startswith("ranked:q1:")]
    assert len(cells) == 100
