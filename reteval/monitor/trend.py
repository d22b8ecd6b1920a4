"""The history over time: a table and a plot.

:func:`history_frame` turns a history file into one row per entry (the
aggregate value of each measure, the alerts), :func:`plot_history` draws it:
one line per retriever and measure, threshold alerts marked with red
triangles and regression alerts with black stars, thresholds as dotted lines
and dataset changes as grey vertical lines. The report notebook and
``reteval history`` both use them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from reteval._util.catalogue import check_lang, phrase
from reteval._util.extras import require
from reteval._util.fonts import figure_text, use_cjk_font
from reteval.errors import InputError
from reteval.measures import is_count
from reteval.monitor.history import HistoryStore, open_history

__all__ = ["display_name", "history_frame", "plot_history"]

_FIXED_COLUMNS = ("created_utc", "retriever", "dataset", "fingerprint", "num_queries")


def display_name(name) -> str:
    r"""A system's name on one line: line breaks, tabs and other control characters escaped.

    Examples
    --------
    >>> print(display_name("bm25\nv2\t(test)"))
    bm25\nv2\t(test)
    """
    text = str(name)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


def _select_measures(frame_measures: list[str], measures) -> list[str]:
    if measures is None:
        return frame_measures
    from reteval.measures import parse_measure

    wanted = [measures] if isinstance(measures, str) else list(measures)
    chosen = []
    for name in wanted:
        canonical = str(parse_measure(name))
        if canonical not in frame_measures:
            raise InputError(
                f"measure {name!r} is not in the history; recorded measures: {frame_measures}"
            )
        chosen.append(canonical)
    return chosen


def history_frame(history, *, measures: Sequence[str] | str | None = None,
                  retriever: str | None = None, lock_timeout: float = 5.0) -> pd.DataFrame:
    """One row per history entry, oldest first.

    Parameters
    ----------
    history : str, path-like or HistoryStore
    measures : str or sequence of str, optional
        Measures to include (default: every measure any entry recorded).
    retriever : str, optional
        Only this retriever's entries.
    lock_timeout : float, default 5

    Returns
    -------
    pandas.DataFrame
        Index ``entry_id``. Columns ``created_utc`` (datetime64, UTC),
        ``retriever``, ``dataset`` (name), ``fingerprint`` (first 12 hex digits
        of the dataset fingerprint), ``num_queries``, one float column per
        measure (``NaN`` where an entry did not evaluate it), ``alert`` (bool),
        ``alerts`` (``"; "``-joined ``kind:measure`` marks, ``""`` if none)
        and ``alert_measures`` (the measures named by alerts, ``", "``-joined).

    Raises
    ------
    HistoryError
        The file cannot be read.
    InputError
        A measure not in the history.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from reteval.monitor import monitor_once
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "h.sqlite"
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> _ = monitor_once(path, run={"q1": ["d1"], "q2": ["d2"]}, qrels=qrels, measures=["RR"])
    >>> _ = monitor_once(path, run={"q1": ["d1"], "q2": ["x", "d2"]}, qrels=qrels,
    ...                  measures=["RR"], thresholds=["RR=0.8"])
    >>> history_frame(path)[["retriever", "RR", "alert", "alerts"]]
             retriever    RR  alert        alerts
    entry_id
    1              run  1.00  False
    2              run  0.75   True  threshold:RR
    """
    store = history if isinstance(history, HistoryStore) else open_history(
        history, lock_timeout=lock_timeout)
    try:
        entries = store.entries(retriever=retriever)
    finally:
        if store is not history:
            store.close()
    all_measures: list[str] = []
    for entry in entries:
        all_measures.extend(m for m in entry.measures if m not in all_measures)
    chosen = _select_measures(all_measures, measures) if entries or measures is None else []
    rows = []
    for entry in entries:
        row = {
            "entry_id": entry.id,
            "created_utc": entry.created_utc,
            "retriever": entry.retriever,
            "dataset": entry.dataset_name,
            "fingerprint": entry.fingerprint.digest[:12],
            "num_queries": entry.num_queries,
        }
        for m in chosen:
            row[m] = entry.aggregates.get(m, np.nan)
        marks = [a.kind + (f":{a.measure}" if a.measure else "") for a in entry.alerts]
        row["alert"] = bool(entry.alerts)
        row["alerts"] = "; ".join(marks)
        row["alert_measures"] = ", ".join(
            dict.fromkeys(a.measure for a in entry.alerts if a.measure))
        rows.append(row)
    columns = ["entry_id", *_FIXED_COLUMNS, *chosen, "alert", "alerts", "alert_measures"]
    frame = pd.DataFrame(rows, columns=columns)
    frame["created_utc"] = pd.to_datetime(frame["created_utc"], utc=True)
    frame["num_queries"] = frame["num_queries"].astype(np.int64)
    frame["alert"] = frame["alert"].astype(bool)
    for m in chosen:
        frame[m] = frame[m].astype(np.float64)
    return frame.set_index("entry_id")


# How an alert about a measure is marked on that measure's line, by kind.
_ALERT_MARKS = {
    "threshold": {"marker": "v", "markersize": 9, "color": "red", "zorder": 3},
    "regression": {"marker": "*", "markersize": 13, "color": "black", "zorder": 4},
}


def plot_history(history, *, measures: Sequence[str] | str | None = None,
                 retriever: str | None = None, ax=None, lock_timeout: float = 5.0,
                 lang: str = "en"):
    """Plot the measures over time.

    One line per (retriever, measure); an entry whose threshold alert names a
    measure is marked with a red triangle on that measure's line, one whose
    regression alert names it with a black star (an entry with both gets
    both), entries with an alert about no measure (a dataset change) with a
    red line at the bottom of the axes;
    the latest recorded thresholds are drawn as dotted horizontal lines; a
    change of dataset fingerprint is a grey vertical line.

    Parameters
    ----------
    history : str, path-like or HistoryStore
    measures : str or sequence of str, optional
        Default: every recorded measure except the counts (``NumRet``...).
    retriever : str, optional
        Only this retriever.
    ax : matplotlib.axes.Axes, optional
        Draw into these axes; default: a new figure.
    lock_timeout : float, default 5
    lang : {"en", "zh"}, default "en"
        Language of the title, the axes and the legend (the alert marks, the
        thresholds).

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not shown; save it with ``fig.savefig(path)``). Made
        without pyplot, so nothing global changes.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from reteval.monitor import monitor_once
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "h.sqlite"
    >>> _ = monitor_once(path, run={"q1": ["d1"]}, qrels={"q1": {"d1": 1}}, measures=["RR"])
    >>> fig = plot_history(path)
    >>> [line.get_label() for line in fig.axes[0].get_lines()]
    ['run RR']
    """
    Figure = require("matplotlib.figure", "plots", "trend figures").Figure
    check_lang(lang)
    use_cjk_font(warn=False)

    store = history if isinstance(history, HistoryStore) else open_history(
        history, lock_timeout=lock_timeout)
    try:
        frame = history_frame(store, measures=measures, retriever=retriever)
        thresholds = {}
        if len(frame):
            thresholds = store.entry(int(frame.index[-1])).parameters.get("thresholds") or {}
    finally:
        if store is not history:
            store.close()
    measure_columns = [c for c in frame.columns
                       if c not in (*_FIXED_COLUMNS, "alert", "alerts", "alert_measures")]
    if measures is None:
        measure_columns = [c for c in measure_columns if not is_count(c)]
    if ax is None:
        fig = Figure(figsize=(8, 4.5), layout="constrained")
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    colors = {}
    labelled = set()  # each kind of alert mark in the legend once
    cycle = [f"C{i}" for i in range(10)]
    for retriever_name, group in frame.groupby("retriever", sort=False):
        for m in measure_columns:
            series = group[m]
            if series.isna().all():
                continue
            key = m if frame["retriever"].nunique() == 1 else (retriever_name, m)
            color = colors.setdefault(key, cycle[len(colors) % len(cycle)])
            ax.plot(group["created_utc"], series, marker="o", markersize=3, color=color,
                    label=figure_text(f"{display_name(retriever_name)} {m}"))
            marks = group["alerts"].str.split("; ")
            for kind, style in _ALERT_MARKS.items():
                hit = marks.apply(lambda ms, k=f"{kind}:{m}": k in ms)
                if hit.any():
                    ax.plot(group.loc[hit, "created_utc"], series[hit], linestyle="none",
                            **style, label=f"_{kind}" if kind in labelled
                            else phrase(f"monitor.trend.{kind}_alert", lang))
                    labelled.add(kind)
    other = frame[frame["alert"] & (frame["alert_measures"] == "")]
    for moment in other["created_utc"]:
        ax.axvline(moment, ymax=0.04, color="red", linewidth=3)
    changes = frame["fingerprint"].ne(frame["fingerprint"].shift()) & (
        np.arange(len(frame)) > 0)
    for moment in frame.loc[changes, "created_utc"]:
        ax.axvline(moment, color="grey", linestyle="--", linewidth=1)
    for m, minimum in thresholds.items():
        if m in measure_columns:
            ax.axhline(minimum, linestyle=":", linewidth=1, color=colors.get(m, "black"),
                       label=phrase("monitor.trend.threshold", lang, measure=m,
                                    value=float(minimum)))
    ax.set_xlabel(phrase("monitor.trend.x", lang))
    ax.set_ylabel(phrase("monitor.trend.y", lang))
    ax.set_title(figure_text(
        phrase("monitor.trend.title_of", lang, retriever=display_name(retriever))
        if retriever else phrase("monitor.trend.title", lang)))
    if ax.get_lines():
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    ax.tick_params(axis="x", labelrotation=30)
    return fig
