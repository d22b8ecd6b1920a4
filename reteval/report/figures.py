"""Figures of a :class:`reteval.evaluation.comparison.Comparison` (matplotlib).

Every function returns a new :class:`matplotlib.figure.Figure` built without
``pyplot``, so nothing touches global plotting state and the figures render
with the Agg backend anywhere (servers, CI, notebooks). Save one with
``fig.savefig("name.png")``; in a notebook, a returned figure displays itself.

===========================  ==========================================================
function                     what it shows
===========================  ==========================================================
:func:`plot_cutoff_curves`   mean of each measure family against its cutoff k
                             (``P@1``, ``P@5``, ``P@10`` ...), one line per system,
                             with the bootstrap interval as a band
:func:`plot_differences`     per-query differences of each system against a
                             reference system, sorted: where a mean difference
                             comes from (a few queries or many)
:func:`plot_forest`          forest plot: each system's mean and interval, per measure
:func:`plot_distributions`   per-query score distributions (box plots, mean marked)
:func:`plot_precision_recall`  the interpolated precision-recall curve (trec_eval's
                             11 points ``iprec_at_recall``), one line per system
:func:`plot_asl_curves`      discriminative power (Sakai 2006): each pair's achieved
                             significance level, sorted, one line per measure or test
:func:`plot_ranked_list`     one query's ranked list as a strip: each rank's grade,
                             nDCG's position discount, the ideal ranking, and the
                             values of P@5, RR, AP, nDCG@10 with what each one counts
:func:`plot_ranked_lists`    the strips of several queries stacked, each measure's
                             highest value in bold: where the measures disagree
                             (:func:`reteval.evaluation.disagreement.disagreeing_queries`
                             finds such queries)
===========================  ==========================================================

The first five draw a comparison of systems; the ranked-list strips draw one
run's queries, for a reader meeting the measures (notebook 01, before the formulas).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from reteval._util.catalogue import check_lang, phrase
from reteval._util.extras import require
from reteval._util.fonts import figure_text, use_cjk_font
from reteval.errors import InputError
from reteval.evaluation.comparison import Comparison
from reteval.evaluation.cutoffs import cutoff_groups, recall_levels
from reteval.evaluation.measures import measure_columns
from reteval.evaluation.ranked_lists import DEFAULT_FIGURE_MEASURES, RankedList, ranked_lists

__all__ = [
    "cutoff_families",
    "plot_asl_curves",
    "plot_cutoff_curves",
    "plot_differences",
    "plot_distributions",
    "plot_forest",
    "plot_precision_recall",
    "plot_ranked_list",
    "plot_ranked_lists",
    "report_figures",
]

Figure = require("matplotlib.figure", "plots", "figures").Figure
use_cjk_font(warn=False)



def _say(key: str, lang: str, **fields) -> str:
    return figure_text(phrase(f"figure.{key}", lang, **fields))


def _check(comparison) -> Comparison:
    if not isinstance(comparison, Comparison):
        raise InputError(
            f"expected a reteval.evaluation.comparison.Comparison; got {type(comparison).__name__}"
        )
    return comparison


def _measure(comparison: Comparison, measure) -> str:
    if measure is None:
        return comparison.measures[0]
    if measure not in comparison.measures:
        raise InputError(f"measure must be one of {list(comparison.measures)}; got {measure!r}")
    return measure


def cutoff_families(comparison: Comparison) -> dict[str, list[tuple[int, str]]]:
    """Measure families of a comparison present with two or more cutoffs.

    :func:`reteval.evaluation.cutoffs.cutoff_groups` of the comparison's measures: family ->
    sorted list of ``(cutoff, measure name)``.

    Examples
    --------
    >>> from reteval.evaluation.comparison import compare
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> runs = {"a": {"q1": ["d1"], "q2": ["d9", "d2"]}}
    >>> cutoff_families(compare(qrels, runs, ["P@1", "P@2", "RR"], rng=0))
    {'P': [(1, 'P@1'), (2, 'P@2')]}
    """
    return cutoff_groups(_check(comparison).measures)


def plot_cutoff_curves(comparison: Comparison, *, lang: str = "en") -> Figure:
    """Measure@k curves: one panel per family with two or more cutoffs.

    ``lang`` (``"en"`` or ``"zh"``) is the language of the axes' labels.

    Raises
    ------
    InputError
        When no family has two cutoffs (e.g. measures ``["P@10", "RR"]``).

    Examples
    --------
    >>> from reteval.evaluation.comparison import compare
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> runs = {"a": {"q1": ["d1"], "q2": ["d9", "d2"]}, "b": {"q1": ["d9", "d1"], "q2": ["d2"]}}
    >>> fig = plot_cutoff_curves(compare(qrels, runs, ["P@1", "P@2"], rng=0))
    >>> len(fig.axes)
    1
    """
    families = cutoff_families(comparison)
    check_lang(lang)
    if not families:
        raise InputError(
            "measure@k curves need a measure family at two or more cutoffs "
            f"(e.g. P@5 and P@10); got measures {list(comparison.measures)}"
        )
    table = comparison.table.set_index(["measure", "system"])
    fig = Figure(figsize=(4.2 * len(families), 3.4), layout="constrained")
    axes = fig.subplots(1, len(families), squeeze=False)[0]
    for ax, (family, items) in zip(axes, families.items(), strict=True):
        ks = [k for k, _ in items]
        for system in comparison.systems:
            rows = table.loc[[(name, system) for _, name in items]]
            line, = ax.plot(ks, rows["mean"].to_numpy(), marker="o", label=figure_text(system))
            ax.fill_between(ks, rows["ci_low"].to_numpy(), rows["ci_high"].to_numpy(),
                            color=line.get_color(), alpha=0.15, linewidth=0)
        ax.set_xlabel(_say("cutoff_k", lang))
        ax.set_ylabel(_say("mean_of", lang, measure=f"{family}@k"))
        ax.set_xticks(ks)
        ax.set_title(figure_text(f"{family}@k"))
        ax.grid(alpha=0.3)
    axes[-1].legend(fontsize="small")
    return fig


def plot_precision_recall(comparison: Comparison, *, lang: str = "en") -> Figure:
    """The interpolated precision-recall curve: mean ``IPrec@r`` against recall level r.

    The comparison must hold ``IPrec`` at two or more recall levels, e.g.
    ``compare(qrels, runs, ["iprec_at_recall"])`` for trec_eval's 11 points
    (0.0, 0.1, ..., 1.0). One line per system (its own marker and line style),
    with the bootstrap interval of each mean as a band; labels in ``lang``.

    Raises
    ------
    InputError
        When the comparison has fewer than two IPrec levels.

    Examples
    --------
    >>> from reteval.evaluation.comparison import compare
    >>> qrels = {"q1": {"d1": 1, "d2": 1}, "q2": {"d3": 1}}
    >>> runs = {"a": {"q1": ["d1", "d9", "d2"], "q2": ["d3"]}, "b": {"q1": ["d9", "d1"], "q2": []}}
    >>> fig = plot_precision_recall(compare(qrels, runs, ["iprec_at_recall"], rng=0))
    >>> fig.axes[0].get_xlabel()
    'recall'
    """
    levels = recall_levels(_check(comparison).measures)
    check_lang(lang)
    if len(levels) < 2:
        raise InputError(
            "a precision-recall curve needs IPrec at two or more recall levels "
            f"(e.g. measures ['iprec_at_recall']); got measures {list(comparison.measures)}"
        )
    table = comparison.table.set_index(["measure", "system"])
    fig = Figure(figsize=(5.6, 3.8), layout="constrained")
    ax = fig.subplots()
    x = [level for level, _ in levels]
    for i, system in enumerate(comparison.systems):
        rows = table.loc[[(name, system) for _, name in levels]]
        line, = ax.plot(x, rows["mean"].to_numpy(), marker=_MARKERS[i % len(_MARKERS)],
                        linestyle=_LINESTYLES[i % len(_LINESTYLES)], label=figure_text(system))
        ax.fill_between(x, rows["ci_low"].to_numpy(), rows["ci_high"].to_numpy(),
                        color=line.get_color(), alpha=0.12, linewidth=0)
    ax.set_xlabel(_say("recall", lang))
    ax.set_ylabel(_say("interpolated_precision", lang))
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_title(_say("precision_recall_title", lang, n=comparison.n_queries))
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


_MARKERS = ("o", "s", "^", "D", "v", "P", "X")
_LINESTYLES = ("-", "--", "-.", ":")


def plot_differences(comparison: Comparison, measure: str | None = None, *,
                     against: str | None = None, lang: str = "en") -> Figure:
    """Sorted per-query differences of each system against ``against``.

    ``against`` defaults to the comparison's baseline, or else the first system.
    Each panel shows one system's differences, largest first, with the counts of
    wins, ties and losses; ``measure`` defaults to the first measure; labels in ``lang``.

    Examples
    --------
    >>> from reteval.evaluation.comparison import compare
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> runs = {"a": {"q1": ["d1"], "q2": ["d9", "d2"]}, "b": {"q1": ["d9", "d1"], "q2": ["d2"]},
    ...         "c": {"q1": ["d1"], "q2": ["d2"]}}
    >>> fig = plot_differences(compare(qrels, runs, ["RR"], baseline="a", rng=0))
    >>> len(fig.axes)
    2
    """
    comparison = _check(comparison)
    measure = _measure(comparison, measure)
    check_lang(lang)
    against = against if against is not None else (comparison.baseline or comparison.systems[0])
    if len(comparison.systems) < 2:
        raise InputError("per-query differences need at least two systems; got one")
    diffs = comparison.differences(measure, against=against)
    n = len(diffs.columns)
    fig = Figure(figsize=(6.0, 1.0 + 2.0 * n), layout="constrained")
    axes = fig.subplots(n, 1, squeeze=False, sharex=True)[:, 0]
    for ax, system in zip(axes, diffs.columns, strict=True):
        values = np.sort(diffs[system].to_numpy())[::-1]
        colors = np.where(values > 0, "tab:green", np.where(values < 0, "tab:red", "tab:gray"))
        ax.bar(np.arange(values.size), values, width=1.0, color=colors)
        ax.axhline(0.0, color="black", linewidth=0.8)
        wins, ties, losses = (values > 0).sum(), (values == 0).sum(), (values < 0).sum()
        ax.set_title(_say("differences_title", lang, system=system, against=against, wins=wins,
                          ties=ties, losses=losses, mean=values.mean()), fontsize="medium")
        ax.set_ylabel(_say("difference_of", lang, measure=measure))
    axes[-1].set_xlabel(_say("queries_by_difference", lang))
    return fig


def plot_asl_curves(results: Mapping, *, lang: str = "en") -> Figure:
    """ASL curves: how many system pairs each measure (or test) tells apart (Sakai 2006).

    Parameters
    ----------
    results : mapping
        Name (a measure, or a test) -> :class:`reteval.stats.DiscriminativePowerResult`,
        all at the same ``alpha``; one line each, pairs sorted by their achieved
        significance level, with a line at ``alpha``. A curve that stays under the
        line for more pairs belongs to the more discriminative measure.
    lang : {"en", "zh"}
        Language of the labels.

    Examples
    --------
    >>> import pandas as pd
    >>> from reteval.stats import discriminative_power
    >>> scores = pd.DataFrame({"a": [0.4, 0.6, 0.8, 0.7], "b": [0.3, 0.4, 0.8, 0.5],
    ...                        "c": [0.1, 0.3, 0.5, 0.4]})
    >>> fig = plot_asl_curves({"AP": discriminative_power(scores, test="t")})
    >>> [line.get_label() for line in fig.axes[0].get_lines()][:1]
    ['AP: 67% of pairs significant']
    """
    check_lang(lang)
    if not isinstance(results, Mapping) or not results:
        raise InputError("results must be a non-empty mapping name -> discriminative_power "
                         f"result; got {results!r}")
    alphas = {r.alpha for r in results.values()}
    if len(alphas) != 1:
        raise InputError(f"every result must use the same alpha; got {sorted(alphas)}")
    alpha = alphas.pop()
    fig = Figure(figsize=(6.0, 4.0), layout="constrained")
    ax = fig.subplots()
    for name, result in results.items():
        curve = result.asl_curve()
        ax.plot(curve["rank"], curve["asl"], marker=".",
                label=_say("asl_label", lang, name=name, share=result.statistic))
    ax.axhline(alpha, color="black", linewidth=0.8, linestyle="--")
    ax.set_xlabel(_say("asl_x", lang))
    ax.set_ylabel(_say("asl_y", lang))
    ax.set_ylim(0.0, 1.0)
    ax.set_title(_say("asl_title", lang, alpha=alpha), fontsize="medium")
    ax.legend(fontsize="small")
    return fig


def plot_forest(comparison: Comparison, measures=None, *, lang: str = "en") -> Figure:
    """Forest plot: each system's mean and confidence interval, one panel per measure.

    ``lang`` is the language of the axis label.

    Examples
    --------
    >>> from reteval.evaluation.comparison import compare
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> runs = {"a": {"q1": ["d1"], "q2": ["d9", "d2"]}, "b": {"q1": ["d9", "d1"], "q2": ["d2"]}}
    >>> fig = plot_forest(compare(qrels, runs, ["P@1", "RR"], rng=0))
    >>> [ax.get_title() for ax in fig.axes if ax.get_visible()]
    ['P@1', 'RR']
    """
    comparison = _check(comparison)
    check_lang(lang)
    names = list(comparison.measures) if measures is None else [
        _measure(comparison, m) for m in ([measures] if isinstance(measures, str) else measures)]
    table = comparison.table.set_index(["measure", "system"])
    systems = list(comparison.systems)
    n_cols = min(4, len(names))
    n_rows = -(-len(names) // n_cols)
    fig = Figure(figsize=(3.2 * n_cols, n_rows * (0.9 + 0.45 * len(systems))),
                 layout="constrained")
    grid = fig.subplots(n_rows, n_cols, squeeze=False, sharey=True)
    axes = grid.ravel()
    for ax in axes[len(names):]:
        ax.set_visible(False)
    y = np.arange(len(systems))[::-1]
    for ax, name in zip(axes, names, strict=False):  # spare axes are hidden above
        rows = table.loc[[(name, s) for s in systems]]
        mean = rows["mean"].to_numpy()
        err = np.vstack([mean - rows["ci_low"].to_numpy(), rows["ci_high"].to_numpy() - mean])
        ax.errorbar(mean, y, xerr=err, fmt="o", capsize=3)
        ax.set_title(figure_text(name))
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(y, [figure_text(s) for s in systems])
    axes[0].set_ylim(-0.6, len(systems) - 0.4)
    level = round(100 * comparison.confidence_level, 2)
    fig.supxlabel(_say("forest_x", lang, level=level), fontsize="small")
    return fig


def plot_distributions(comparison: Comparison, measure: str | None = None, *,
                       lang: str = "en") -> Figure:
    """Per-query score distribution of each system (box plot, mean as a diamond).

    ``lang`` is the language of the labels.

    Examples
    --------
    >>> from reteval.evaluation.comparison import compare
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> runs = {"a": {"q1": ["d1"], "q2": ["d9", "d2"]}, "b": {"q1": ["d9", "d1"], "q2": ["d2"]}}
    >>> fig = plot_distributions(compare(qrels, runs, ["RR"], rng=0))
    >>> fig.axes[0].get_ylabel()
    'RR per query'
    """
    comparison = _check(comparison)
    measure = _measure(comparison, measure)
    check_lang(lang)
    frame = comparison.per_query[measure]
    systems = list(comparison.systems)
    fig = Figure(figsize=(1.2 + 1.1 * len(systems), 3.6), layout="constrained")
    ax = fig.subplots()
    data = [frame[s].to_numpy() for s in systems]
    ax.boxplot(data, showmeans=True, meanprops={"marker": "D", "markerfacecolor": "white"})
    ax.set_xticks(np.arange(1, len(systems) + 1), [figure_text(s) for s in systems],
                  rotation=30 if len(systems) > 4 else 0)
    ax.set_ylabel(_say("per_query", lang, measure=measure))
    ax.set_title(_say("distribution_title", lang, measure=measure, n=frame.shape[0]))
    ax.grid(axis="y", alpha=0.3)
    return fig


def report_figures(comparison: Comparison, *, measure: str | None = None,
                   lang: str = "en") -> Mapping[str, Figure]:
    """The report's figures, by file stem.

    ``forest``; ``cutoff_curves`` when a family has two or more cutoffs;
    ``differences`` (against the baseline, or the first system) and
    ``distributions`` for ``measure`` (default: the first measure);
    ``differences`` needs two or more systems. Labels in ``lang`` (``"en"``, ``"zh"``).

    Examples
    --------
    >>> from reteval.evaluation.comparison import compare
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> runs = {"a": {"q1": ["d1"], "q2": ["d9", "d2"]}, "b": {"q1": ["d9", "d1"], "q2": ["d2"]}}
    >>> list(report_figures(compare(qrels, runs, ["P@1", "P@2", "RR"], rng=0)))
    ['forest', 'cutoff_curves', 'differences', 'distributions']
    """
    comparison = _check(comparison)
    measure = _measure(comparison, measure)
    figures = {"forest": plot_forest(comparison, lang=lang)}
    if cutoff_families(comparison):
        figures["cutoff_curves"] = plot_cutoff_curves(comparison, lang=lang)
    if len(comparison.systems) >= 2:
        figures["differences"] = plot_differences(comparison, measure, lang=lang)
    figures["distributions"] = plot_distributions(comparison, measure, lang=lang)
    return figures


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
        return _say("ranked.hint_P", lang, hits=view.relevant_in_top(int(cutoff)),
                    cutoff=int(cutoff))
    if family == "RR":
        rank = view.first_relevant_rank()
        if rank is None or (cutoff is not None and rank > cutoff):
            return _say("ranked.hint_RR_none", lang)
        return _say("ranked.hint_RR", lang, rank=rank)
    if family == "AP" and cutoff is None:
        return _say("ranked.hint_AP", lang, found=sum(view.relevant()),
                    relevant=view.num_relevant)
    if family == "nDCG":
        c = None if cutoff is None else int(cutoff)
        return _say("ranked.hint_nDCG", lang, dcg=view.dcg(c), ideal=view.ideal_dcg(c))
    return None


def _value_lines(view: RankedList, labels, lang: str) -> list[tuple[str, str]]:
    lines = []
    for label, measure in labels:
        value = view.values[label]
        hint = _hint(view, label, measure, lang)
        text = (_say("ranked.value", lang, measure=label, value=value) if hint is None else
                _say("ranked.value_hint", lang, measure=label, value=value, hint=hint))
        lines.append((label, text))
    return lines


def _legend(ax, lang: str, top: int, level: int) -> None:
    """The key to the cells, in two rows under the strip."""
    from matplotlib.patches import Patch

    handles = [Patch(facecolor=_GRADE0, edgecolor=_EDGE, label=_say("ranked.grade", lang,
                                                                    grade=0))]
    handles += [Patch(facecolor=_grade_colour(g, top)[0], edgecolor=_EDGE,
                      label=_say("ranked.grade", lang, grade=g)) for g in range(1, top + 1)]
    handles += [
        Patch(facecolor="white", edgecolor=_EDGE, hatch="///", label=_say("ranked.unjudged", lang)),
        Patch(facecolor="white", edgecolor="#b0b0b0", linestyle="--",
              label=_say("ranked.empty", lang)),
        Patch(facecolor="white", edgecolor="black", linewidth=2.2,
              label=_say("ranked.relevant", lang, level=level)),
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
    ax.set_xlabel(_say("ranked.rank", lang), loc="left")
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
    ax.set_yticks([2.0, 1.0, 0.0], [_say("ranked.ranked", lang), _say("ranked.discount", lang),
                                    _say("ranked.ideal", lang)])
    step = min(0.55, 2.6 / len(lines))
    start = 1.0 + step * (len(lines) - 1) / 2
    for i, (label, text) in enumerate(lines):
        ax.text(view.k + 0.9, start - i * step, text, ha="left", va="center", fontsize=9,
                gid=f"value:{label}")
    ax.set_title(_say("ranked.title", lang, query=view.query_id, k=view.shown,
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
    ticks, names = [0.0], [_say("ranked.discount", lang)]
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
        names += [_say("ranked.query_ranked", lang, query=figure_text(view.query_id)),
                  _say("ranked.query_ideal", lang, query=figure_text(view.query_id))]
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
    ax.set_title(_say("ranked.title_many", lang, n=n, k=k), loc="left", fontsize="medium")
    _legend(ax, lang, top, relevance_level)
    return fig
