"""Ranked-list strips (matplotlib): one query's ranked list as a strip of grades, with
nDCG's discount, the ideal ranking and the values of the measures; several queries stacked.

Part of :mod:`reteval.report.figures`, which re-exports both functions.
"""

from __future__ import annotations

import numpy as np

from reteval._util.catalogue import check_lang, phrase
from reteval._util.extras import require
from reteval._util.fonts import figure_text, use_cjk_font
from reteval.errors import InputError
from reteval.evaluation.ranked_lists import DEFAULT_FIGURE_MEASURES, RankedList, ranked_lists
from reteval.measures import measure_columns

__all__ = ["MAX_FIGURE_RANKS", "plot_ranked_list", "plot_ranked_lists", "say"]

Figure = require("matplotlib.figure", "plots", "figures").Figure
use_cjk_font(warn=False)


def say(key: str, lang: str, **fields) -> str:
    """The catalogue's ``figure.<key>`` text in ``lang``, ready for matplotlib."""
    return figure_text(phrase(f"report.figure.{key}", lang, **fields))


# ----------------------------------------------------------------- ranked-list strips
# Layout, in data units of one axes: rank r's cell is centred on x = r, one unit wide; the
# values sit right of rank k. A unit is _UNIT inches wide in a figure made here.
_UNIT = 0.52
_CELL = 0.86  # width of a cell
_GRADE0 = "#e6e6e6"
_EDGE = "#8c8c8c"


def _width(text: str) -> float:
    """Rough width of ``text`` in data units at the values' font size (CJK twice as wide)."""
    return 0.145 * sum(2 if ord(c) >= 0x2E80 else 1 for c in text)


def _grade_colour(grade: int, top: int):
    """Colour of a positive grade: light to dark blue from grade 1 to the top grade."""
    import matplotlib

    level = 0.35 + 0.55 * (grade - 1) / max(top - 1, 1)
    return matplotlib.colormaps["Blues"](level), level > 0.62


def _cell(ax, x: int, y: float, height: float, grade, top: int, *, gid: str,
          relevant: bool = False, doc: str | None = None, empty: bool = False) -> None:
    """One rank's cell: colour by grade, ``?`` hatched when unjudged, dashed when empty.

    The cell is named ``gid`` (``"ranked:q1:3"``), its grade's text ``"grade:" + gid``,
    its doc id's ``"doc:" + gid``.
    """
    from matplotlib.patches import Rectangle

    box = {"xy": (x - _CELL / 2, y - height / 2), "width": _CELL, "height": height, "gid": gid}
    if empty:
        ax.add_patch(Rectangle(**box, facecolor="white", edgecolor="#b0b0b0", linestyle="--",
                               linewidth=0.8))
        return
    dark = False
    if grade is None:
        face, label = "white", "?"
    elif grade <= 0:
        face, label = _GRADE0, str(grade)
    else:
        face, dark = _grade_colour(grade, top)
        label = str(grade)
    ax.add_patch(Rectangle(**box, facecolor=face, hatch="///" if grade is None else None,
                           edgecolor="black" if relevant else _EDGE,
                           linewidth=2.2 if relevant else 0.8))
    colour = "white" if dark else "black"
    # on hatching, text gets a white ground of its own
    ground = {"facecolor": "white", "edgecolor": "none", "pad": 0.6} if grade is None else None
    ax.text(x, y + (0.08 if doc else 0.0), label, ha="center", va="center", fontsize=11,
            fontweight="bold", color=colour, bbox=ground, gid=f"grade:{gid}")
    if doc:
        ax.text(x, y - height / 2 + 0.07, figure_text(doc), ha="center", va="bottom",
                fontsize=6.5, color=colour, bbox=ground, gid=f"doc:{gid}")


def _ranked_row(ax, view: RankedList, y: float, top: int, *, height: float = 0.8) -> None:
    relevant = view.relevant()
    for r in range(1, view.k + 1):
        gid = f"ranked:{view.query_id}:{r}"
        if r <= view.num_retrieved:
            _cell(ax, r, y, height, view.grades[r - 1], top, gid=gid, relevant=relevant[r - 1],
                  doc=view.doc_ids[r - 1] if view.k <= 20 else None)
        else:
            _cell(ax, r, y, height, None, top, gid=gid, empty=True)


def _ideal_row(ax, view: RankedList, y: float, top: int, *, height: float = 0.8) -> None:
    ideal = view.ideal()
    for r in range(1, view.k + 1):
        gid = f"ideal:{view.query_id}:{r}"
        if r <= len(ideal):
            _cell(ax, r, y, height, ideal[r - 1], top, gid=gid,
                  relevant=ideal[r - 1] >= view.relevance_level)
        else:
            _cell(ax, r, y, height, None, top, gid=gid, empty=True)


def _discount_row(ax, view: RankedList, y: float) -> None:
    """nDCG's discount of each rank as a bar (1 at rank 1), its value above it."""
    base = y - 0.4
    for r, d in enumerate(view.discounts(), 1):
        ax.add_patch(_rectangle((r - 0.25, base), 0.5, 0.62 * d, "#9e9e9e"))
        ax.text(r, base + 0.62 * d + 0.03, f"{d:.2f}", ha="center", va="bottom", fontsize=7,
                gid=f"discount:{r}")


def _rectangle(xy, width, height, colour):
    from matplotlib.patches import Rectangle

    return Rectangle(xy, width, height, facecolor=colour, edgecolor="none")


def _cutoff_lines(ax, view: RankedList, labels, y_low: float, y_high: float, *,
                  name: bool = True) -> None:
    """A dashed line after rank c of each measure with a rank cutoff c < k (P@5: after 5)."""
    by_cutoff: dict[int, list[str]] = {}
    for label, measure in labels:
        cutoff = measure.cutoff
        if (measure.spec.cutoff in ("optional", "required") and cutoff is not None
                and float(cutoff).is_integer() and 1 <= int(cutoff) < view.k):
            by_cutoff.setdefault(int(cutoff), []).append(label)
    for cutoff, names in sorted(by_cutoff.items()):
        ax.plot([cutoff + 0.5] * 2, [y_low, y_high], color="tab:red", linestyle="--",
                linewidth=1.3)
        if name:
            ax.text(cutoff + 0.5, y_high, figure_text(", ".join(names)), ha="center",
                    va="bottom", fontsize=8, color="tab:red", gid=f"cutoff:{cutoff}")


def _hint(view: RankedList, label: str, measure, lang: str) -> str | None:
    """What a measure counts on this list, in words (None for measures without one)."""
    family, cutoff = measure.family, measure.cutoff
    plain = all(getattr(measure, f) is None
                for f in ("rel", "p", "beta", "gains", "weights", "levels", "judged_only"))
    if not plain:
        return None
    if family == "P" and cutoff is not None:
        return say("ranked.hint_P", lang, hits=view.relevant_in_top(int(cutoff)),
                    cutoff=int(cutoff))
    if family == "RR":
        rank = view.first_relevant_rank()
        if rank is None or (cutoff is not None and rank > cutoff):
            return say("ranked.hint_RR_none", lang)
        return say("ranked.hint_RR", lang, rank=rank)
    if family == "AP" and cutoff is None:
        return say("ranked.hint_AP", lang, found=sum(view.relevant()),
                    relevant=view.num_relevant)
    if family == "nDCG":
        c = None if cutoff is None else int(cutoff)
        return say("ranked.hint_nDCG", lang, dcg=view.dcg(c), ideal=view.ideal_dcg(c))
    return None


def _value_lines(view: RankedList, labels, lang: str) -> list[tuple[str, str]]:
    lines = []
    for label, measure in labels:
        value = view.values[label]
        hint = _hint(view, label, measure, lang)
        text = (say("ranked.value", lang, measure=label, value=value) if hint is None else
                say("ranked.value_hint", lang, measure=label, value=value, hint=hint))
        lines.append((label, text))
    return lines


def _legend(ax, lang: str, top: int, level: int) -> None:
    """The key to the cells, in two rows under the strip."""
    from matplotlib.patches import Patch

    handles = [Patch(facecolor=_GRADE0, edgecolor=_EDGE, label=say("ranked.grade", lang,
                                                                    grade=0))]
    handles += [Patch(facecolor=_grade_colour(g, top)[0], edgecolor=_EDGE,
                      label=say("ranked.grade", lang, grade=g)) for g in range(1, top + 1)]
    handles += [
        Patch(facecolor="white", edgecolor=_EDGE, hatch="///", label=say("ranked.unjudged", lang)),
        Patch(facecolor="white", edgecolor="#b0b0b0", linestyle="--",
              label=say("ranked.empty", lang)),
        Patch(facecolor="white", edgecolor="black", linewidth=2.2,
              label=say("ranked.relevant", lang, level=level)),
    ]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0),
              ncol=-(-len(handles) // 2), fontsize="small", frameon=False)


def _check_ax(ax) -> None:
    from matplotlib.axes import Axes

    if ax is not None and not isinstance(ax, Axes):
        raise InputError(f"ax must be a matplotlib Axes or None; got {type(ax).__name__}")


def _strip_axes(ax, k: int, width: float, height_units: float, lang: str):
    """The figure and axes to draw on: a new figure sized to the strip, or ``ax``'s."""
    if ax is None:
        fig = Figure(figsize=(1.9 + _UNIT * (k + 0.6 + width), 1.6 + 0.62 * height_units),
                     layout="constrained")
        ax = fig.subplots()
    else:
        fig = ax.figure
    ax.set_xlim(0.45, k + 0.6 + width)
    ax.set_xticks(range(1, k + 1), [str(r) for r in range(1, k + 1)])
    ax.xaxis.set_ticks_position("top")
    ax.xaxis.set_label_position("top")
    ax.set_xlabel(say("ranked.rank", lang), loc="left")
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    return fig, ax


#: The most ranks a strip shows: beyond, its cells are too narrow to read (and 100,000 of
#: them took minutes to draw). ``ranked_list(...).table()`` lists any number.
MAX_FIGURE_RANKS = 100


def _check_figure_k(k) -> None:
    """Refuse a ``k`` above :data:`MAX_FIGURE_RANKS` (other bad values: ``ranked_lists``)."""
    if isinstance(k, (int, np.integer)) and not isinstance(k, bool) and k > MAX_FIGURE_RANKS:
        raise InputError(f"k must be at most {MAX_FIGURE_RANKS} (the ranks a figure can show); "
                         f"got {k}; reteval.evaluation.ranked_lists.ranked_list(...).table() "
                         f"lists more")


def _top_grade(views) -> int:
    return max([1, *(g for v in views for g in v.judged)])


def plot_ranked_list(qrels, run, query_id, *, k: int = 10, measures=DEFAULT_FIGURE_MEASURES,
                     relevance_level: int = 1, ax=None, lang: str = "en") -> Figure:
    """One query's ranked list as a strip: grades, nDCG's discount, the ideal ranking, values.

    Three rows over ranks 1 to ``k``: the run's documents in trec_eval's order (score
    descending, ties by doc id descending), each cell coloured by its relevance grade
    (darker is more relevant; a thick border marks a relevant document, hatching with
    ``?`` an unjudged one, which counts as not relevant; a dashed cell is a rank past
    the end of the list); below it the position discount ``1/log2(r+1)`` that nDCG
    multiplies each gain by; and the ideal ranking (every positive judgment, highest
    first), the list nDCG compares with. A dashed line marks each measure's cutoff
    (after rank 5 for ``P@5``). Right of the strip, each measure's value on the query,
    from :func:`reteval.evaluate` (trec_eval's), with what it counts: the relevant
    documents in the top 5, the rank of the first relevant one, how many of the
    relevant documents the whole list finds, DCG over the ideal DCG.

    Parameters
    ----------
    qrels : path, DataFrame, dict or EvaluationQuery records
        Relevance judgments, in any form :func:`reteval.io.as_qrels` takes.
    run : path, DataFrame or dict
        Retrieval results, in any form :func:`reteval.io.as_run` takes.
    query_id : str
        A query of the qrels (one the run left out shows an empty list).
    k : int, default 10
        Ranks shown, 1 to :data:`MAX_FIGURE_RANKS` (100). The values do not depend on
        it (``AP`` reads the whole list).
    measures : str or sequence of str, default ``("P@5", "RR", "AP", "nDCG@10")``
        Any names :func:`reteval.evaluate` takes; ``P@c``, ``RR``, ``AP`` and ``nDCG@c``
        are explained in words, others shown with their value only.
    relevance_level : int, default 1
        The grade from which a document counts as relevant (nDCG's gains are the grades).
    ax : matplotlib.axes.Axes, optional
        Draw into this axes (of a figure of your own) instead of a new figure.
    lang : {"en", "zh"}
        Language of the labels.

    Returns
    -------
    matplotlib.figure.Figure
        The new figure, or ``ax``'s.

    Raises
    ------
    InputError
        ``k`` not an integer from 1 to 100, a query id the qrels do not have, an
        unknown measure, ``ax`` not an Axes, a bad ``lang``.

    Notes
    -----
    Each drawn piece is named by its ``gid`` (kept as the element's id in SVG output):
    cells ``"ranked:<query>:<rank>"`` and ``"ideal:<query>:<rank>"``, their grades
    ``"grade:"`` and doc ids ``"doc:"`` followed by the cell's name, the discounts
    ``"discount:<rank>"``, cutoff labels ``"cutoff:<c>"``, the values ``"value:<measure>"``.

    See Also
    --------
    plot_ranked_lists : several queries stacked, to compare them.
    reteval.evaluation.ranked_lists.ranked_list : the numbers drawn, as an object.

    Examples
    --------
    >>> qrels = {"q1": {"d1": 2, "d2": 0, "d3": 1, "d5": 3}}
    >>> run = {"q1": {"d1": 0.9, "d2": 0.5, "d3": 0.5, "d4": 0.4}}
    >>> fig = plot_ranked_list(qrels, run, "q1", k=5, measures=["P@5", "RR", "AP"])
    >>> for text in fig.axes[0].texts:
    ...     if text.get_gid().startswith("value:"):  # the values (cells are "ranked:q1:1" ...)
    ...         print(text.get_text())
    P@5 = 0.400 (2 relevant in the top 5)
    RR = 1.000 (first relevant at rank 1)
    AP = 0.667 (the whole list: 2 of 3 relevant retrieved)
    """
    check_lang(lang)
    _check_ax(ax)
    _check_figure_k(k)
    view = ranked_lists(qrels, run, [query_id], k=k, measures=measures,
                        relevance_level=relevance_level)[0]
    labels = measure_columns(measures)
    lines = _value_lines(view, labels, lang)
    width = max(_width(text) for _, text in lines) + 0.6
    fig, ax = _strip_axes(ax, view.k, width, 3.6, lang)
    top = _top_grade([view])
    _ranked_row(ax, view, 2.0, top)
    _discount_row(ax, view, 1.0)
    _ideal_row(ax, view, 0.0, top)
    _cutoff_lines(ax, view, labels, 1.55, 2.45)
    ax.set_ylim(-0.5, 2.75)
    ax.set_yticks([2.0, 1.0, 0.0], [say("ranked.ranked", lang), say("ranked.discount", lang),
                                    say("ranked.ideal", lang)])
    step = min(0.55, 2.6 / len(lines))
    start = 1.0 + step * (len(lines) - 1) / 2
    for i, (label, text) in enumerate(lines):
        ax.text(view.k + 0.9, start - i * step, text, ha="left", va="center", fontsize=9,
                gid=f"value:{label}")
    ax.set_title(say("ranked.title", lang, query=view.query_id, k=view.shown,
                      retrieved=view.num_retrieved, relevant=view.num_relevant),
                 loc="left", fontsize="medium")
    _legend(ax, lang, top, relevance_level)
    return fig


def plot_ranked_lists(qrels, run, query_ids, *, k: int = 10, measures=DEFAULT_FIGURE_MEASURES,
                      relevance_level: int = 1, ax=None, lang: str = "en") -> Figure:
    """Several queries' ranked lists stacked, with a table of values: which query is better?

    Each query gets two rows, its ranked list and its ideal ranking (drawn as in
    :func:`plot_ranked_list`); nDCG's discount, the same for every query, is drawn
    once at the bottom. Right of the strips, a table of each measure's value on each
    query (:func:`reteval.evaluate`'s), the highest of each measure in bold. When two
    measures put different queries on top (P@5 one query, AP another) the measures
    disagree, and the strips show why: what one measure counts, the other does not.
    :func:`reteval.evaluation.disagreement.disagreeing_queries` finds such pairs.

    Parameters
    ----------
    qrels, run, k, measures, relevance_level, ax, lang
        As :func:`plot_ranked_list`.
    query_ids : sequence of str
        The queries, top to bottom.

    Returns
    -------
    matplotlib.figure.Figure
        The new figure, or ``ax``'s. Its pieces are named as in :func:`plot_ranked_list`,
        the values ``"value:<query>:<measure>"`` and the table's header ``"header:<measure>"``.

    Raises
    ------
    InputError
        As :func:`plot_ranked_list`, and an empty ``query_ids`` or one listing a query twice.

    Examples
    --------
    >>> qrels = {"qa": {f"d{i}": 1 for i in range(10)}, "qb": {"d0": 1}}
    >>> run = {"qa": ["x1", "x2", "d0", "d1", "d2"], "qb": ["d0", "x1", "x2"]}
    >>> fig = plot_ranked_lists(qrels, run, ["qa", "qb"], k=5, measures=["P@5", "AP"])
    >>> [(t.get_text(), t.get_fontweight()) for t in fig.axes[0].texts
    ...  if (t.get_gid() or "").startswith("value:")]
    [('0.600', 'bold'), ('0.143', 'normal'), ('0.200', 'normal'), ('1.000', 'bold')]
    """
    check_lang(lang)
    _check_ax(ax)
    _check_figure_k(k)
    views = ranked_lists(qrels, run, query_ids, k=k, measures=measures,
                         relevance_level=relevance_level)
    labels = measure_columns(measures)
    k = views[0].k
    columns = [max(_width(label), _width("0.000")) + 0.45 for label, _ in labels]
    width = sum(columns) + 0.4
    n = len(views)
    fig, ax = _strip_axes(ax, k, width, 2.3 * n + 1.0, lang)
    top = _top_grade(views)
    ticks, names = [0.0], [say("ranked.discount", lang)]
    _discount_row(ax, views[0], 0.0)
    best = {label: max(v.values[label] for v in views) for label, _ in labels}
    upper = 1.2 + 2.3 * (n - 1) + 1.0  # the first query's ranked row
    for i, view in enumerate(views):
        ranked_y = upper - 2.3 * i
        ideal_y = ranked_y - 0.9
        _ranked_row(ax, view, ranked_y, top)
        _ideal_row(ax, view, ideal_y, top, height=0.62)
        _cutoff_lines(ax, view, labels, ranked_y - 0.45, ranked_y + 0.45, name=i == 0)
        ticks += [ranked_y, ideal_y]
        names += [say("ranked.query_ranked", lang, query=figure_text(view.query_id)),
                  say("ranked.query_ideal", lang, query=figure_text(view.query_id))]
        x = k + 0.9
        for (label, _), column in zip(labels, columns, strict=True):
            value = view.values[label]
            ax.text(x + column / 2, ranked_y, f"{value:.3f}", ha="center", va="center",
                    fontsize=9, fontweight="bold" if value == best[label] else "normal",
                    gid=f"value:{view.query_id}:{label}")
            x += column
    x = k + 0.9
    for (label, _), column in zip(labels, columns, strict=True):
        ax.text(x + column / 2, upper + 0.75, figure_text(label), ha="center", va="bottom",
                fontsize=9, gid=f"header:{label}")
        x += column
    order = np.argsort(ticks)
    ax.set_yticks(np.asarray(ticks)[order], [names[i] for i in order])
    ax.set_ylim(-0.5, upper + 1.15)
    ax.set_title(say("ranked.title_many", lang, n=n, k=k), loc="left", fontsize="medium")
    _legend(ax, lang, top, relevance_level)
    return fig
