"""Figures of a :class:`reteval.comparison.Comparison` (matplotlib).

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
:func:`plot_query_lines`     each query's scores across the systems, one line per query,
                             the means in black: how much of the spread is the queries'
:func:`plot_tukey_intervals`  Tukey HSD's simultaneous intervals of every pair's
                             difference of means (:func:`reteval.stats.tukey_hsd`)
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

The first five draw a comparison of systems, the next two one measure's scores of
many systems (a table of queries x systems, a Tukey HSD result); the ranked-list strips draw one
run's queries, for a reader meeting the measures (notebook 01, before the formulas).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from reteval._util.catalogue import check_lang
from reteval._util.extras import require
from reteval._util.fonts import figure_text, use_cjk_font
from reteval.comparison.result import Comparison
from reteval.errors import InputError
from reteval.evaluation.cutoffs import cutoff_groups, recall_levels
from reteval.report.ranked_figures import plot_ranked_list, plot_ranked_lists, say
from reteval.stats.multiple import TukeyHSDResult

__all__ = [
    "cutoff_families",
    "plot_asl_curves",
    "plot_cutoff_curves",
    "plot_differences",
    "plot_distributions",
    "plot_forest",
    "plot_precision_recall",
    "plot_query_lines",
    "plot_ranked_list",
    "plot_ranked_lists",
    "plot_tukey_intervals",
    "report_figures",
]

Figure = require("matplotlib.figure", "plots", "figures").Figure
Line2D = require("matplotlib.lines", "plots", "figures").Line2D
use_cjk_font(warn=False)



def _check(comparison) -> Comparison:
    if not isinstance(comparison, Comparison):
        raise InputError(
            f"expected a reteval.comparison.Comparison; got {type(comparison).__name__}"
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
    >>> from reteval.comparison import compare
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> runs = {"a": {"q1": ["d1"], "q2": ["d9", "d2"]}}
    >>> cutoff_families(compare(qrels, runs, ["P@1", "P@2", "RR"], rng=0))
    {'P': [(1, 'P@1'), (2, 'P@2')]}
    """
    return cutoff_groups(_check(comparison).measures)


def plot_cutoff_curves(comparison: Comparison, *, lang: str = "en") -> Figure:
    """Measure@k: one panel per family with two or more cutoffs.

    Each system has its own marker and line style (not only its colour), each
    mean its bootstrap interval as an error bar, and the legend sits outside the
    panels. A family with three or more cutoffs is drawn as a curve against k; a
    family with only two cutoffs as two groups of points without connecting
    lines (two points make no curve). ``lang`` (``"en"`` or ``"zh"``) is the
    language of the axes' labels.

    Raises
    ------
    InputError
        When no family has two cutoffs (e.g. measures ``["P@10", "RR"]``).

    Examples
    --------
    >>> from reteval.comparison import compare
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> runs = {"a": {"q1": ["d1"], "q2": ["d9", "d2"]}, "b": {"q1": ["d9", "d1"], "q2": ["d2"]}}
    >>> fig = plot_cutoff_curves(compare(qrels, runs, ["P@1", "P@2"], rng=0))
    >>> len(fig.axes), [t.get_text() for t in fig.axes[0].get_xticklabels()]
    (1, ['P@1', 'P@2'])
    """
    families = cutoff_families(comparison)
    check_lang(lang)
    if not families:
        raise InputError(
            "measure@k curves need a measure family at two or more cutoffs "
            f"(e.g. P@5 and P@10); got measures {list(comparison.measures)}"
        )
    table = comparison.table.set_index(["measure", "system"])
    n_systems = len(comparison.systems)
    fig = Figure(figsize=(3.6 * len(families) + 1.6, 3.4), layout="constrained")
    axes = fig.subplots(1, len(families), squeeze=False)[0]
    for ax, (family, items) in zip(axes, families.items(), strict=True):
        ks = [k for k, _ in items]
        curve = len(ks) >= 3
        for i, system in enumerate(comparison.systems):
            rows = table.loc[[(name, system) for _, name in items]]
            mean = rows["mean"].to_numpy()
            error = np.vstack([mean - rows["ci_low"].to_numpy(), rows["ci_high"].to_numpy() - mean])
            if curve:
                x = np.asarray(ks, dtype=float)
            else:
                x = np.arange(len(ks)) + 0.5 * (i - (n_systems - 1) / 2) / max(n_systems, 2)
            ax.errorbar(x, mean, yerr=error, marker=_MARKERS[i % len(_MARKERS)],
                        linestyle=_LINESTYLES[i % len(_LINESTYLES)] if curve else "none",
                        capsize=2, linewidth=1.2, elinewidth=0.8, label=figure_text(system))
        ax.set_xlabel(say("cutoff_k", lang))
        if curve:
            ax.set_xticks(ks)
        else:
            ax.set_xticks(range(len(ks)), [figure_text(name) for _, name in items])
            ax.set_xlim(-0.6, len(ks) - 0.4)
        ax.set_ylabel(say("mean_of", lang, measure=f"{family}@k"))
        ax.set_title(figure_text(f"{family}@k"))
        ax.grid(alpha=0.3)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside right upper",
               fontsize="small")
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
    >>> from reteval.comparison import compare
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
    ax.set_xlabel(say("recall", lang))
    ax.set_ylabel(say("interpolated_precision", lang))
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_title(say("precision_recall_title", lang, n=comparison.n_queries))
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
    wins, ties and losses; ``measure`` (default: the first measure) is named in the
    figure's title; labels in ``lang``.

    Examples
    --------
    >>> from reteval.comparison import compare
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> runs = {"a": {"q1": ["d1"], "q2": ["d9", "d2"]}, "b": {"q1": ["d9", "d1"], "q2": ["d2"]},
    ...         "c": {"q1": ["d1"], "q2": ["d2"]}}
    >>> fig = plot_differences(compare(qrels, runs, ["RR"], baseline="a", rng=0))
    >>> len(fig.axes), fig.get_suptitle()
    (2, 'per-query differences in RR, largest first')
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
        ax.set_title(say("differences_title", lang, system=system, against=against, wins=wins,
                          ties=ties, losses=losses, mean=values.mean()), fontsize="medium")
        ax.set_ylabel(say("difference_of", lang, measure=measure))
    axes[-1].set_xlabel(say("queries_by_difference", lang))
    fig.suptitle(say("differences_measure", lang, measure=measure))
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
                label=say("asl_label", lang, name=name, share=result.statistic))
    ax.axhline(alpha, color="black", linewidth=0.8, linestyle="--")
    ax.set_xlabel(say("asl_x", lang))
    ax.set_ylabel(say("asl_y", lang))
    ax.set_ylim(0.0, 1.0)
    ax.set_title(say("asl_title", lang, alpha=alpha), fontsize="medium")
    ax.legend(fontsize="small")
    return fig


def plot_forest(comparison: Comparison, measures=None, *, lang: str = "en") -> Figure:
    """Forest plot: each system's mean and confidence interval, one panel per measure.

    ``lang`` is the language of the axis label.

    Examples
    --------
    >>> from reteval.comparison import compare
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
    fig.supxlabel(say("forest_x", lang, level=level), fontsize="small")
    return fig


def plot_distributions(comparison: Comparison, measure: str | None = None, *,
                       lang: str = "en") -> Figure:
    """Per-query score distribution of each system (box plot, mean as a diamond).

    A legend off the axes names the marks (the diamond: the mean; the line: the
    median); ``lang`` is the language of the labels.

    Examples
    --------
    >>> from reteval.comparison import compare
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> runs = {"a": {"q1": ["d1"], "q2": ["d9", "d2"]}, "b": {"q1": ["d9", "d1"], "q2": ["d2"]}}
    >>> fig = plot_distributions(compare(qrels, runs, ["RR"], rng=0))
    >>> fig.axes[0].get_ylabel(), [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    ('RR per query', ['mean', 'median'])
    """
    comparison = _check(comparison)
    measure = _measure(comparison, measure)
    check_lang(lang)
    frame = comparison.per_query[measure]
    systems = list(comparison.systems)
    fig = Figure(figsize=(1.2 + 1.1 * len(systems), 3.6), layout="constrained")
    ax = fig.subplots()
    data = [frame[s].to_numpy() for s in systems]
    marks = ax.boxplot(data, showmeans=True, meanprops={"marker": "D", "markerfacecolor": "white"})
    ax.legend([marks["means"][0], marks["medians"][0]],
              [say("mean_mark", lang), say("median_mark", lang)],
              loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    ax.set_xticks(np.arange(1, len(systems) + 1), [figure_text(s) for s in systems],
                  rotation=30 if len(systems) > 4 else 0)
    ax.set_ylabel(say("per_query", lang, measure=measure))
    ax.set_title(say("distribution_title", lang, measure=measure, n=frame.shape[0]))
    ax.grid(axis="y", alpha=0.3)
    return fig


def plot_query_lines(scores, *, measure: str = "", lang: str = "en") -> Figure:
    """Each query's scores across the systems: one grey line per query, the means in black.

    ``scores`` is one measure's per-query table (queries as rows, systems as
    columns, e.g. ``Comparison.per_query[measure]``). Lines that rise and fall
    together show the query effect that a two-way ANOVA removes: easy queries
    score high with every system. ``measure`` names the scores in the title;
    labels in ``lang``.

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame({"a": [0.2, 0.9], "b": [0.4, 1.0]}, index=["q1", "q2"])
    >>> ax = plot_query_lines(scores, measure="AP").axes[0]
    >>> len(ax.get_lines()), [t.get_text() for t in ax.get_xticklabels()]
    (3, ['a', 'b'])
    """
    check_lang(lang)
    if not hasattr(scores, "columns") or scores.shape[1] < 2 or scores.shape[0] < 1:
        raise InputError("per-query lines need a table of queries x two or more systems; "
                         f"got {type(scores).__name__} of shape {getattr(scores, 'shape', None)}")
    values = scores.to_numpy(dtype=float)
    x = np.arange(values.shape[1])
    fig = Figure(figsize=(1.2 + 1.3 * values.shape[1], 3.8), layout="constrained")
    ax = fig.subplots()
    for row in values:
        ax.plot(x, row, color="tab:gray", alpha=0.35, linewidth=0.9)
    ax.plot(x, values.mean(axis=0), color="black", marker="o", linewidth=2.2)
    ax.set_xticks(x, [figure_text(str(c)) for c in scores.columns])
    ax.set_xlim(-0.3, x[-1] + 0.3)
    ax.set_xlabel(say("system", lang))
    ax.set_ylabel(say("per_query", lang, measure=measure))
    ax.set_title(say("query_lines_title", lang, measure=measure, n=values.shape[0]),
                 fontsize="medium")
    ax.grid(axis="y", alpha=0.3)
    return fig


def plot_tukey_intervals(result, *, measure: str = "", confidence_level: float = 0.95,
                         lang: str = "en") -> Figure:
    """Tukey HSD's simultaneous intervals of every pair's difference of means.

    ``result`` is a :class:`reteval.stats.multiple.TukeyHSDResult`
    (:func:`reteval.stats.tukey_hsd`); one row per pair ``system − other``
    with ``result.confidence_interval(confidence_level)``: all the intervals
    cover the true differences together with that probability, so each is
    wider than a single pair's interval. A filled marker: the interval
    excludes 0. ``measure`` names the scores on the axis; labels in ``lang``.

    Examples
    --------
    >>> import pandas as pd
    >>> from reteval.stats import tukey_hsd
    >>> scores = pd.DataFrame({"a": [0.2, 0.5, 0.9, 0.4], "b": [0.3, 0.7, 1.0, 0.6],
    ...                        "c": [0.2, 0.4, 0.8, 0.5]})
    >>> fig = plot_tukey_intervals(tukey_hsd(scores, method="studentized"), measure="AP")
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()]
    ['a − b', 'a − c', 'b − c']
    """
    check_lang(lang)
    if not isinstance(result, TukeyHSDResult):
        raise InputError("expected the result of reteval.stats.tukey_hsd; "
                         f"got {type(result).__name__}")
    low, high = result.confidence_interval(confidence_level)
    names = list(result.mean_difference.columns)
    pairs = [(s, o) for i, s in enumerate(names) for o in names[i + 1:]]
    fig = Figure(figsize=(6.4, 1.2 + 0.45 * len(pairs)), layout="constrained")
    ax = fig.subplots()
    y = np.arange(len(pairs))[::-1]
    for row, (s, o) in zip(y, pairs, strict=True):
        lo, hi = float(low.loc[s, o]), float(high.loc[s, o])
        excludes = lo > 0 or hi < 0
        ax.plot([lo, hi], [row, row], color="black", linewidth=1.4)
        ax.plot(float(result.mean_difference.loc[s, o]), row, marker="o", markersize=7,
                color="black", markerfacecolor="black" if excludes else "white",
                linestyle="none")
    ax.axvline(0.0, color="tab:red", linewidth=0.9, linestyle="--")
    ax.set_yticks(y, [figure_text(f"{s} − {o}") for s, o in pairs])
    ax.set_xlabel(say("tukey_x", lang, measure=measure))
    method = say(f"tukey_{result.method}", lang)
    ax.set_title(say("tukey_title", lang, level=100 * confidence_level, method=method),
                 fontsize="medium")
    kinds = (("tukey_significant", "black"), ("tukey_not_significant", "white"))
    handles = [Line2D([], [], marker="o", color="black", linestyle="none", label=say(key, lang),
                      markerfacecolor=face) for key, face in kinds]
    fig.legend(handles=handles, loc="outside lower center", ncols=2, fontsize="small",
               frameon=False)
    ax.grid(axis="x", alpha=0.3)
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
    >>> from reteval.comparison import compare
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
