"""Interactive explorers for notebooks, built on ipywidgets.

Four explorers, each split in two so that the logic is testable without a
browser:

* an immutable *state* (a frozen dataclass) or a fixed data set, with pure
  functions that compute what is shown from it (values, formula text, HTML,
  PNG bytes);
* a thin explorer class that builds the ipywidgets controls, keeps the current
  state, and re-renders on every change through ``observe`` callbacks.

The explorers:

:class:`MetricExplorer`
    Grade each position of a ranked list, choose K, and watch P@K, R@K, RR,
    nDCG@K and AP change, each with the terms of its formula
    (``P@5 = 2/5 = 0.400``; DCG as a sum of ``gain/log2(i+1)``). The values are
    those of :func:`reteval.evaluate` on a one-query qrels and run built from
    the state, so they are trec_eval's; only the explanatory terms are spelled
    out here.
:class:`QueryExplorer`
    Pick a query of a collection and two systems: their ranked documents with
    the judgments marked, side by side, with the query's measures.
:class:`KCurveExplorer`
    Measures against the cutoff K for several systems, with a slider for K.
:class:`ABPlanner`
    Baseline rate, effect, alpha and power of an A/B test on a proportion,
    and the sample size they need (:mod:`reteval.ab.power`).

Every explorer displays itself in a notebook (``explorer`` as the last
expression of a cell) and exposes its controls and output widgets as
attributes, so that a test or a notebook can set a control's ``value`` and
read what is shown.

Where no widget front end is live (papermill, nbval, nbconvert's HTML without
saved widget state, a terminal), an explorer shows its text fallback instead:
its display bundle carries, beside the widget view, a ``text/plain`` and a
``text/html`` version of :meth:`text` (what the controls first show), and a
front end that cannot render the widget picks one of those.
"""

from __future__ import annotations

import html
import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import ipywidgets as widgets
import numpy as np
import pandas as pd

from reteval.cutoffs import measure_curves
from reteval.errors import InputError
from reteval.evaluate import evaluate
from reteval.io import as_qrels, as_run, sort_run

__all__ = [
    "ABPlanner",
    "Explanation",
    "KCurveExplorer",
    "MetricExplorer",
    "MetricState",
    "QueryExplorer",
    "SamplePlan",
    "k_curves",
    "metric_table_html",
    "metric_values_html",
    "plan_sample_size",
]

_STYLE = (
    "<style>"
    ".reteval-w table{border-collapse:collapse;font-size:12px}"
    ".reteval-w td,.reteval-w th{padding:1px 6px;text-align:right;border-bottom:1px solid #ddd;"
    "white-space:nowrap}"
    ".reteval-w td.l,.reteval-w th.l{text-align:left}"
    ".reteval-w .out{color:#999}"
    ".reteval-w .rel{color:#17702f;font-weight:bold}"
    ".reteval-w .non{color:#a33}"
    ".reteval-w .unj{color:#999}"
    ".reteval-w .formula{font-family:monospace;white-space:pre;margin:1px 0}"
    "</style>"
)


def _check_int(value, name: str, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise InputError(f"{name} must be an integer >= {minimum}; got {value!r}")
    return int(value)


def _fmt(x: float) -> str:
    """A gain or discount term: integers without decimals, others with three."""
    return str(int(x)) if float(x).is_integer() else f"{x:.3f}"


def _log2_term(gain: int, rank: int) -> str:
    return f"{gain}/log2({rank + 1})"


_LANGS = ("zh", "en")

_LIVE_NOTE = {
    "zh": "交互控件需要运行中的内核（JupyterLab、Notebook、VS Code）。以下是控件当前显示的内容：",
    "en": "The interactive controls need a live kernel (JupyterLab, Notebook, VS Code). "
          "What they show now:",
}


def _check_lang(lang) -> str:
    if lang not in _LANGS:
        raise InputError(f"lang must be 'zh' or 'en'; got {lang!r}")
    return lang


class _Displayable:
    """Display the explorer's widget, with :meth:`text` as the fallback of other front ends."""

    widget: widgets.Widget
    lang: str = "en"

    def text(self) -> str:
        """What the explorer shows now, as plain text."""
        raise NotImplementedError

    def _fallback_html(self, text: str) -> str:
        return f"<pre>{html.escape(text)}</pre>"

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        text = self.text()
        bundle["text/plain"] = text
        bundle["text/html"] = (f"<div class='reteval-w reteval-fallback'><p><em>"
                               f"{html.escape(_LIVE_NOTE[self.lang])}</em></p>"
                               f"{self._fallback_html(text)}</div>")
        return bundle


# --------------------------------------------------------------------------- metric explorer


@dataclass(frozen=True)
class Explanation:
    """One measure's value and how it is computed.

    Attributes
    ----------
    measure : str
        Measure name, e.g. ``"P@5"``.
    value : float
        The value :func:`reteval.evaluate` computes.
    formula : str
        The formula with this ranking's numbers, ending with the value
        (e.g. ``"P@5 = 2/5 = 0.400"``).
    terms : tuple of str
        Further lines that spell out parts of the formula (DCG and IDCG sums).
    """

    measure: str
    value: float
    formula: str
    terms: tuple[str, ...] = ()

    def __str__(self) -> str:
        return "\n".join((self.formula, *("    " + t for t in self.terms)))


@dataclass(frozen=True)
class MetricState:
    """A ranked list of graded documents for one query, and a cutoff.

    Parameters
    ----------
    grades : sequence of int
        Judged relevance (>= 0) of the documents at ranks 1, 2, ...
    k : int
        The cutoff K of P@K, R@K and nDCG@K (it may exceed the list length:
        P@K still divides by K).
    unretrieved : sequence of int, default ()
        Grades of judged documents that are not in the ranked list. Relevant
        ones count in the denominators of R@K and AP and in the ideal ranking
        of nDCG.
    relevance_level : int, default 1
        Grade from which a document counts as relevant (trec_eval ``-l``); it
        does not change nDCG gains.

    Notes
    -----
    :meth:`qrels` and :meth:`run` turn the state into one query ``"q"`` with
    documents ``d01, d02, ...`` scored in decreasing order (so the trec_eval
    order is the list order) and unretrieved documents ``u01, u02, ...``.

    Examples
    --------
    >>> state = MetricState([1, 0, 1, 0, 0], k=3, unretrieved=[1])
    >>> for line in state.explain():
    ...     print(line)
    P@3 = 2/3 = 0.667
    R@3 = 2/3 = 0.667
    RR = 1/1 = 1.000
    nDCG@3 = DCG@3 / IDCG@3 = 1.500 / 2.131 = 0.704
        DCG@3 = 1/log2(2) + 1/log2(4) = 1.500
        IDCG@3 = 1/log2(2) + 1/log2(3) + 1/log2(4) = 2.131
    AP = (1/1 + 2/3) / 3 = 0.556
    >>> state.with_k(5).values()["P@5"]
    0.4
    """

    grades: tuple[int, ...]
    k: int
    unretrieved: tuple[int, ...] = ()
    relevance_level: int = 1

    def __post_init__(self):
        for name in ("grades", "unretrieved"):
            value = getattr(self, name)
            if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
                raise InputError(f"{name} must be a sequence of integer grades; got {value!r}")
            grades = tuple(value)
            for i, g in enumerate(grades):
                if isinstance(g, bool) or not isinstance(g, (int, np.integer)) or g < 0:
                    raise InputError(
                        f"{name}[{i}] must be an integer grade >= 0; got {g!r}"
                    )
            object.__setattr__(self, name, tuple(int(g) for g in grades))
        if not self.grades:
            raise InputError("grades must hold at least one ranked document; got ()")
        object.__setattr__(self, "k", _check_int(self.k, "k", minimum=1))
        object.__setattr__(
            self, "relevance_level", _check_int(self.relevance_level, "relevance_level", minimum=1)
        )

    # ---- pure updates
    def with_grade(self, rank: int, grade: int) -> MetricState:
        """The same state with the document at 1-based ``rank`` graded ``grade``."""
        rank = _check_int(rank, "rank", minimum=1)
        if rank > len(self.grades):
            raise InputError(f"rank must be at most {len(self.grades)}; got {rank}")
        grades = list(self.grades)
        grades[rank - 1] = grade
        return replace(self, grades=tuple(grades))

    def with_k(self, k: int) -> MetricState:
        """The same state with cutoff ``k``."""
        return replace(self, k=k)

    def with_unretrieved(self, grades) -> MetricState:
        """The same state with these grades for the judged, unretrieved documents."""
        return replace(self, unretrieved=tuple(grades))

    # ---- the query as reteval sees it
    @property
    def doc_ids(self) -> list[str]:
        width = max(2, len(str(len(self.grades))))
        return [f"d{i:0{width}d}" for i in range(1, len(self.grades) + 1)]

    def qrels(self) -> pd.DataFrame:
        """Judgments of query ``"q"``: every ranked and every unretrieved document."""
        width = max(2, len(str(len(self.unretrieved))))
        docs = self.doc_ids + [f"u{j:0{width}d}" for j in range(1, len(self.unretrieved) + 1)]
        return pd.DataFrame({"query_id": "q", "doc_id": docs,
                             "relevance": list(self.grades) + list(self.unretrieved)})

    def run(self) -> pd.DataFrame:
        """The ranked list as a run of query ``"q"`` with strictly decreasing scores."""
        n = len(self.grades)
        return pd.DataFrame({"query_id": "q", "doc_id": self.doc_ids,
                             "score": np.arange(n, 0, -1, dtype=np.float64)})

    def measures(self) -> list[str]:
        """The measure names shown: ``P@K, R@K, RR, nDCG@K, AP``."""
        k = self.k
        return [f"P@{k}", f"R@{k}", "RR", f"nDCG@{k}", "AP"]

    def values(self) -> dict[str, float]:
        """Measure name -> value, from :func:`reteval.evaluate`."""
        row = evaluate(self.qrels(), self.run(), self.measures(),
                       relevance_level=self.relevance_level).iloc[0]
        return {name: float(v) for name, v in row.items()}

    # ---- the formulas' terms
    def relevant(self) -> list[bool]:
        """Whether each ranked document counts as relevant."""
        return [g >= self.relevance_level for g in self.grades]

    @property
    def num_relevant(self) -> int:
        """Relevant judged documents, retrieved or not (the R of recall and AP)."""
        level = self.relevance_level
        return sum(g >= level for g in self.grades) + sum(g >= level for g in self.unretrieved)

    def dcg_terms(self) -> list[tuple[int, int, float]]:
        """``(rank, gain, gain / log2(rank + 1))`` for the ranks within K."""
        return [(i, g, g / math.log2(i + 1)) for i, g in enumerate(self.grades[: self.k], 1)]

    def ideal_gains(self) -> list[int]:
        """Gains of the ideal ranking within K: every positive grade, best first."""
        gains = sorted((g for g in self.grades + self.unretrieved if g > 0), reverse=True)
        return gains[: self.k]

    def explain(self) -> tuple[Explanation, ...]:
        """Each measure's value with the terms of its formula (see the class example)."""
        values = self.values()
        k, big_r = self.k, self.num_relevant
        rel = self.relevant()
        hits = sum(rel[:k])
        none = "(no relevant document judged: every measure is 0)"
        p, r, rr, ndcg, ap = (values[m] for m in self.measures())
        lines = [Explanation(f"P@{k}", p, f"P@{k} = {hits}/{k} = {p:.3f}")]
        if big_r == 0:
            lines.append(Explanation(f"R@{k}", r, f"R@{k} = {r:.3f} {none}"))
        else:
            lines.append(Explanation(f"R@{k}", r, f"R@{k} = {hits}/{big_r} = {r:.3f}"))
        first = next((i for i, x in enumerate(rel, 1) if x), None)
        if first is None:
            lines.append(Explanation("RR", rr, f"RR = {rr:.3f} (no relevant document retrieved)"))
        else:
            lines.append(Explanation("RR", rr, f"RR = 1/{first} = {rr:.3f}"))
        if big_r == 0:
            lines.append(Explanation(f"nDCG@{k}", ndcg, f"nDCG@{k} = {ndcg:.3f} {none}"))
        else:
            dcg_terms = [(i, g, t) for i, g, t in self.dcg_terms() if g > 0]
            dcg = sum(t for _, _, t in dcg_terms)
            ideal = self.ideal_gains()
            idcg = sum(g / math.log2(i + 1) for i, g in enumerate(ideal, 1))
            dcg_sum = " + ".join(_log2_term(g, i) for i, g, _ in dcg_terms) or "0"
            idcg_sum = " + ".join(_log2_term(g, i) for i, g in enumerate(ideal, 1))
            lines.append(Explanation(
                f"nDCG@{k}", ndcg,
                f"nDCG@{k} = DCG@{k} / IDCG@{k} = {dcg:.3f} / {idcg:.3f} = {ndcg:.3f}",
                (f"DCG@{k} = {dcg_sum} = {dcg:.3f}", f"IDCG@{k} = {idcg_sum} = {idcg:.3f}"),
            ))
        if big_r == 0:
            lines.append(Explanation("AP", ap, f"AP = {ap:.3f} {none}"))
        else:
            seen, precisions = 0, []
            for i, x in enumerate(rel, 1):
                if x:
                    seen += 1
                    precisions.append(f"{seen}/{i}")
            total = " + ".join(precisions) if precisions else "0"
            lines.append(Explanation("AP", ap, f"AP = ({total}) / {big_r} = {ap:.3f}"))
        return tuple(lines)


def metric_table_html(state: MetricState) -> str:
    """HTML table of the ranked list: grade, relevance, precision at relevant ranks, DCG term.

    Examples
    --------
    >>> "<td>1/log2(2) = 1</td>" in metric_table_html(MetricState([1, 0], k=2))
    True
    """
    rows = []
    seen = 0
    for i, (g, is_rel) in enumerate(zip(state.grades, state.relevant()), 1):
        seen += is_rel
        inside = i <= state.k
        css = "" if inside else ' class="out"'
        mark = '<span class="rel">relevant</span>' if is_rel else '<span class="non">not</span>'
        precision = f"{seen}/{i}" if is_rel else ""
        term = f"{_log2_term(g, i)} = {_fmt(g / math.log2(i + 1))}" if inside else ""
        rows.append(f"<tr{css}><td>{i}</td><td>{g}</td><td class='l'>{mark}</td>"
                    f"<td>{precision}</td><td>{term}</td></tr>")
    extra = ""
    if state.unretrieved:
        extra = (f"<p>Judged but not retrieved: grades {list(state.unretrieved)} "
                 f"({sum(g >= state.relevance_level for g in state.unretrieved)} relevant).</p>")
    return (
        f"<div class='reteval-w'>{_STYLE}<table><tr><th>rank i</th><th>grade</th>"
        "<th class='l'>relevant?</th><th>precision at i</th><th>gain/log2(i+1)</th></tr>"
        + "".join(rows) + "</table>" + extra + "</div>"
    )


def metric_values_html(state: MetricState) -> str:
    """HTML list of :meth:`MetricState.explain`, one formula per line."""
    parts = []
    for e in state.explain():
        parts.append(f"<div class='formula' data-measure='{html.escape(e.measure)}'>"
                     f"{html.escape(e.formula)}</div>")
        parts.extend(f"<div class='formula'>    {html.escape(t)}</div>" for t in e.terms)
    return f"<div class='reteval-w reteval-measures'>{_STYLE}{''.join(parts)}</div>"


class MetricExplorer(_Displayable):
    """Grade a ranked list and watch the measures and their formulas update.

    Parameters
    ----------
    grades : sequence of int, default (3, 0, 2, 0, 1, 0, 0, 1, 0, 0)
        Initial grades of the ranked documents; the list length is fixed.
    k : int, default 5
        Initial cutoff.
    unretrieved : sequence of int, default (2,)
        Grades of judged documents that were not retrieved.
    max_grade : int, default 3
        Highest grade offered. With ``max_grade=1`` each position is a toggle
        button (relevant or not); otherwise a dropdown ``0..max_grade``.
    relevance_level : int, default 1
        See :class:`MetricState`.

    Attributes
    ----------
    state : MetricState
        What is currently shown.
    grade_controls : list of ipywidgets.Dropdown or ipywidgets.ToggleButton
        One per rank.
    k_slider : ipywidgets.IntSlider
    missing_slider : ipywidgets.IntSlider
        Number of relevant documents not retrieved (each of grade
        ``missing_grade.value``).
    missing_grade : ipywidgets.Dropdown
    values_html, table_html : ipywidgets.HTML
        The formulas of the measures and the table of the ranked list.
    widget : ipywidgets.VBox
        Everything, as displayed.

    Examples
    --------
    >>> explorer = MetricExplorer([1, 0, 1], k=1, unretrieved=())
    >>> explorer.k_slider.value = 3
    >>> "P@3 = 2/3 = 0.667" in explorer.values_html.value
    True
    >>> explorer.grade_controls[1].value = 1
    >>> explorer.state.values()["P@3"]
    1.0
    """

    def __init__(self, grades=(3, 0, 2, 0, 1, 0, 0, 1, 0, 0), *, k: int = 5, unretrieved=(2,),
                 max_grade: int = 3, relevance_level: int = 1):
        max_grade = _check_int(max_grade, "max_grade", minimum=1)
        self.state = MetricState(tuple(grades), k, tuple(unretrieved), relevance_level)
        too_high = [g for g in self.state.grades + self.state.unretrieved if g > max_grade]
        if too_high:
            raise InputError(f"grades must be at most max_grade={max_grade}; got {too_high}")
        missing_grades = set(self.state.unretrieved)
        if len(missing_grades) > 1:
            raise InputError("the explorer offers one grade for all unretrieved documents; "
                             f"got unretrieved={list(self.state.unretrieved)}")

        n = len(self.state.grades)
        if self.state.k > n:
            raise InputError(f"k must be at most the number of ranked documents ({n}); "
                             f"got {self.state.k}")
        self.grade_controls = []
        for rank, g in enumerate(self.state.grades, 1):
            if max_grade == 1:
                control = widgets.ToggleButton(value=bool(g), description=str(rank),
                                               tooltip=f"rank {rank}: relevant?",
                                               layout=widgets.Layout(width="44px"))
            else:
                control = widgets.Dropdown(options=list(range(max_grade + 1)), value=g,
                                           description=str(rank),
                                           style={"description_width": "20px"},
                                           layout=widgets.Layout(width="80px"))
            control.observe(self._grade_changed(rank), names="value")
            self.grade_controls.append(control)
        self.k_slider = widgets.IntSlider(value=self.state.k, min=1, max=n,
                                          description="K", continuous_update=True)
        self.k_slider.add_class("reteval-k")
        self.missing_slider = widgets.IntSlider(value=len(self.state.unretrieved), min=0,
                                                max=max(10, len(self.state.unretrieved)),
                                                description="not retrieved",
                                                style={"description_width": "initial"})
        self.missing_grade = widgets.Dropdown(
            options=list(range(1, max_grade + 1)),
            value=max(1, min(missing_grades, default=1)), description="of grade",
            layout=widgets.Layout(width="140px"))
        self.values_html = widgets.HTML()
        self.values_html.add_class("reteval-metric-values")
        self.table_html = widgets.HTML()
        self.k_slider.observe(self._k_changed, names="value")
        self.missing_slider.observe(self._missing_changed, names="value")
        self.missing_grade.observe(self._missing_changed, names="value")
        positions = widgets.HBox(self.grade_controls,
                                 layout=widgets.Layout(flex_flow="row wrap"))
        positions.add_class("reteval-grades")
        self.widget = widgets.VBox([
            widgets.HTML("<b>Grade of the document at each rank</b>"), positions,
            widgets.HBox([self.k_slider, self.missing_slider, self.missing_grade]),
            widgets.HBox([self.values_html, self.table_html],
                         layout=widgets.Layout(flex_flow="row wrap", grid_gap="24px")),
        ])
        self.widget.add_class("reteval-metric-explorer")
        self.render()

    def _grade_changed(self, rank):
        def update(change):
            self.state = self.state.with_grade(rank, int(change["new"]))
            self.render()
        return update

    def _k_changed(self, change):
        self.state = self.state.with_k(int(change["new"]))
        self.render()

    def _missing_changed(self, change):
        grades = (int(self.missing_grade.value),) * int(self.missing_slider.value)
        self.state = self.state.with_unretrieved(grades)
        self.render()

    def text(self) -> str:
        """The measures and their formulas, one per line (:meth:`MetricState.explain`)."""
        return "\n".join(str(e) for e in self.state.explain())

    def render(self) -> None:
        """Show the current state in :attr:`values_html` and :attr:`table_html`."""
        self.values_html.value = metric_values_html(self.state)
        self.table_html.value = metric_table_html(self.state)


# --------------------------------------------------------------------------- query explorer


def _check_runs(runs) -> dict[str, pd.DataFrame]:
    if not isinstance(runs, Mapping) or not runs:
        raise InputError(f"runs must be a non-empty mapping of system name -> run; got {runs!r}")
    return {str(name): sort_run(as_run(run)) for name, run in runs.items()}


_QUERY_WORDS = {
    "zh": {"query": "查询 {q}：{text}（K = {k}）", "unjudged": "未判断",
           "missed": "相关但不在前 {k} 名：", "none": "无"},
    "en": {"query": "query {q}: {text} (K = {k})", "unjudged": "unjudged",
           "missed": "Relevant, not in the top {k}: ", "none": "none"},
}


class QueryExplorer(_Displayable):
    """One query of a collection, as two systems rank it, side by side.

    Parameters
    ----------
    dataset : reteval.datasets.Dataset
        Supplies the queries, the documents' titles and the judgments.
    runs : mapping of str to run
        System name -> run (any form :func:`reteval.io.as_run` takes).
    query_id : str, optional
        Initial query (default: the first).
    systems : pair of str, optional
        Initial left and right systems (default: the first two, or the only
        one twice).
    k : int, default 10
        Documents shown and cutoff of the measures.
    relevance_level : int, default 1
    lang : {"en", "zh"}, default "en"
        Language of the text fallback (:meth:`text`).

    Attributes
    ----------
    query_select, left_select, right_select : ipywidgets.Dropdown
    k_slider : ipywidgets.IntSlider
    left_html, right_html : ipywidgets.HTML
    widget : ipywidgets.VBox
    """

    def __init__(self, dataset, runs, *, query_id: str | None = None, systems=None,
                 k: int = 10, relevance_level: int = 1, lang: str = "en"):
        self.lang = _check_lang(lang)
        self.dataset = dataset
        self.runs = _check_runs(runs)
        self.relevance_level = _check_int(relevance_level, "relevance_level", minimum=1)
        self.qrels = as_qrels(dataset.qrels)
        self._grades = {
            qid: dict(zip(group["doc_id"], group["relevance"]))
            for qid, group in self.qrels.groupby("query_id")
        }
        self._per_query: dict[tuple[str, int], pd.DataFrame] = {}
        names = list(self.runs)
        if systems is None:
            systems = (names[0], names[1] if len(names) > 1 else names[0])
        if len(systems) != 2 or any(s not in self.runs for s in systems):
            raise InputError(f"systems must be two of {names}; got {systems!r}")
        queries = list(dataset.queries)
        if not queries:
            raise InputError("the dataset has no queries")
        query_id = queries[0] if query_id is None else query_id
        if query_id not in dataset.queries:
            raise InputError(f"query_id {query_id!r} is not a query of {dataset.name!r}")
        k = _check_int(k, "k", minimum=1)

        options = [(f"{q}: {text[:70]}", q) for q, text in dataset.queries.items()]
        self.query_select = widgets.Dropdown(options=options, value=query_id,
                                             description="query",
                                             layout=widgets.Layout(width="560px"))
        self.left_select = widgets.Dropdown(options=names, value=systems[0], description="left")
        self.right_select = widgets.Dropdown(options=names, value=systems[1],
                                             description="right")
        self.k_slider = widgets.IntSlider(value=k, min=1, max=max(50, k), description="K")
        self.left_html = widgets.HTML(layout=widgets.Layout(width="50%"))
        self.right_html = widgets.HTML(layout=widgets.Layout(width="50%"))
        for control in (self.query_select, self.left_select, self.right_select, self.k_slider):
            control.observe(lambda change: self.render(), names="value")
        self.widget = widgets.VBox([
            self.query_select,
            widgets.HBox([self.left_select, self.right_select, self.k_slider]),
            widgets.HBox([self.left_html, self.right_html]),
        ])
        self.widget.add_class("reteval-query-explorer")
        self.render()

    # ---- pure functions of (system, query, k)
    def measure_names(self, k: int) -> list[str]:
        return [f"P@{k}", f"R@{k}", "RR", f"nDCG@{k}", "AP"]

    def measures(self, system: str, query_id: str, k: int) -> pd.Series:
        """The query's measures for ``system`` (from :func:`reteval.evaluate` on the whole run)."""
        key = (system, k)
        if key not in self._per_query:
            self._per_query[key] = evaluate(self.qrels, self.runs[system], self.measure_names(k),
                                            relevance_level=self.relevance_level)
        return self._per_query[key].loc[query_id]

    def ranking(self, system: str, query_id: str, k: int) -> pd.DataFrame:
        """The top ``k`` documents with score, judgment (``<NA>`` if unjudged) and title."""
        run = self.runs[system]
        top = run[run["query_id"] == query_id].head(k)
        grades = self._grades.get(query_id, {})
        return pd.DataFrame({
            "rank": np.arange(1, len(top) + 1),
            "doc_id": top["doc_id"].to_numpy(dtype=object),
            "score": top["score"].to_numpy(),
            "judgment": pd.array([grades.get(d) for d in top["doc_id"]], dtype="Int64"),
            "title": [self.dataset.corpus.get(d, {}).get("title", "") for d in top["doc_id"]],
        })

    def missed(self, system: str, query_id: str, k: int) -> list[tuple[str, int]]:
        """Relevant documents of the query that are not in the system's top ``k``."""
        shown = set(self.ranking(system, query_id, k)["doc_id"])
        grades = self._grades.get(query_id, {})
        return sorted(((d, int(g)) for d, g in grades.items()
                       if g >= self.relevance_level and d not in shown),
                      key=lambda item: (-item[1], item[0]))

    def side_html(self, system: str, query_id: str, k: int) -> str:
        """One side of the view: the system's measures and ranked documents."""
        values = self.measures(system, query_id, k)
        summary = " &middot; ".join(f"{html.escape(m)} = {v:.3f}" for m, v in values.items())
        rows = []
        for row in self.ranking(system, query_id, k).itertuples(index=False):
            if pd.isna(row.judgment):
                mark = "<span class='unj'>unjudged</span>"
            elif row.judgment >= self.relevance_level:
                mark = f"<span class='rel'>&#10004; {row.judgment}</span>"
            else:
                mark = f"<span class='non'>&#10008; {row.judgment}</span>"
            rows.append(f"<tr><td>{row.rank}</td><td class='l'>{html.escape(row.doc_id)}</td>"
                        f"<td>{row.score:.3f}</td><td class='l'>{mark}</td>"
                        f"<td class='l'>{html.escape(row.title[:60])}</td></tr>")
        missed = self.missed(system, query_id, k)
        missed_text = ", ".join(f"{html.escape(d)} ({g})" for d, g in missed) or "none"
        return (
            f"<div class='reteval-w'>{_STYLE}<h4>{html.escape(system)}</h4>"
            f"<div class='formula reteval-measures'>{summary}</div>"
            "<table><tr><th>rank</th><th class='l'>doc</th><th>score</th>"
            "<th class='l'>judgment</th><th class='l'>title</th></tr>"
            + "".join(rows) + "</table>"
            f"<p>Relevant, not in the top {k}: {missed_text}</p></div>"
        )

    def side_text(self, system: str, query_id: str, k: int) -> str:
        """One side of the view as text: measures, ranked documents, relevant ones missed."""
        words = _QUERY_WORDS[self.lang]
        values = self.measures(system, query_id, k)
        lines = [f"== {system} ==", " · ".join(f"{m} = {v:.3f}" for m, v in values.items())]
        for row in self.ranking(system, query_id, k).itertuples(index=False):
            if pd.isna(row.judgment):
                mark = words["unjudged"]
            elif row.judgment >= self.relevance_level:
                mark = f"✔ {row.judgment}"
            else:
                mark = f"✘ {row.judgment}"
            lines.append(f"{row.rank:>3}  {row.doc_id:<10} {row.score:8.3f}  {mark:<6} "
                         f"{row.title[:50]}".rstrip())
        missed = ", ".join(f"{d} ({g})" for d, g in self.missed(system, query_id, k))
        lines.append(words["missed"].format(k=k) + (missed or words["none"]))
        return "\n".join(lines)

    def text(self) -> str:
        """The selected query and both systems' rankings, as plain text.

        Examples
        --------
        >>> from reteval.datasets import Dataset
        >>> data = Dataset("toy", {"d1": {"title": "BM25", "text": ""}, "d2": {"title": "", "text": "x"}},
        ...                {"q1": "ranking"}, {"q1": {"d1": 2, "d3": 1}})
        >>> explorer = QueryExplorer(data, {"a": {"q1": {"d1": 2.0, "d2": 1.0}}}, k=2)
        >>> print(explorer.text())  # 2/log2(2) / (2/log2(2) + 1/log2(3)) = 0.760
        query q1: ranking (K = 2)
        == a ==
        P@2 = 0.500 · R@2 = 0.500 · RR = 1.000 · nDCG@2 = 0.760 · AP = 0.500
          1  d1            2.000  ✔ 2    BM25
          2  d2            1.000  unjudged
        Relevant, not in the top 2: d3 (1)
        == a ==
        P@2 = 0.500 · R@2 = 0.500 · RR = 1.000 · nDCG@2 = 0.760 · AP = 0.500
          1  d1            2.000  ✔ 2    BM25
          2  d2            1.000  unjudged
        Relevant, not in the top 2: d3 (1)
        """
        query_id, k = self.query_select.value, int(self.k_slider.value)
        head = _QUERY_WORDS[self.lang]["query"].format(
            q=query_id, text=self.dataset.queries[query_id], k=k)
        return "\n".join([head, self.side_text(self.left_select.value, query_id, k),
                          self.side_text(self.right_select.value, query_id, k)])

    def render(self) -> None:
        """Show the selected query for both systems."""
        query_id, k = self.query_select.value, int(self.k_slider.value)
        self.left_html.value = self.side_html(self.left_select.value, query_id, k)
        self.right_html.value = self.side_html(self.right_select.value, query_id, k)


# --------------------------------------------------------------------------- k-curve explorer


def k_curves(qrels, runs, *, families=("P", "R", "nDCG"), max_k: int = 20,
             relevance_level: int = 1) -> pd.DataFrame:
    """Mean of each measure family at every cutoff ``1..max_k``, for every system.

    :func:`reteval.cutoffs.measure_curves` at the cutoffs ``1..max_k``.

    Parameters
    ----------
    qrels : qrels
        Any form :func:`reteval.io.as_qrels` takes.
    runs : mapping of str to run
        System name -> run.
    families : sequence of str, default ("P", "R", "nDCG")
        Measure families that take a cutoff.
    max_k : int, default 20
    relevance_level : int, default 1

    Returns
    -------
    pandas.DataFrame
        Index ``K`` (1..max_k); columns a MultiIndex ``(family, system)``.

    Examples
    --------
    >>> curves = k_curves({"q": {"a": 1, "b": 1}}, {"s": {"q": {"a": 2.0, "x": 1.0}}},
    ...                   families=["P"], max_k=3)
    >>> curves["P"]["s"].round(3).tolist()
    [1.0, 0.5, 0.333]
    """
    max_k = _check_int(max_k, "max_k", minimum=1)
    return measure_curves(qrels, runs, families, range(1, max_k + 1),
                          relevance_level=relevance_level)


class KCurveExplorer(_Displayable):
    """Measures against the cutoff K for several systems, with a slider for K.

    Parameters
    ----------
    qrels : qrels
    runs : mapping of str to run
    families : sequence of str, default ("P", "R", "nDCG")
    max_k : int, default 20
    k : int, default 10
        Initial position of the slider (a vertical line on the plot).
    relevance_level : int, default 1
    lang : {"en", "zh"}, default "en"
        Language of the plot's labels.

    Attributes
    ----------
    curves : pandas.DataFrame
        The result of :func:`k_curves`, computed once.
    k_slider : ipywidgets.IntSlider
    image : ipywidgets.Image
        The plot, as PNG bytes.
    values_html : ipywidgets.HTML
        The values at the slider's K.
    widget : ipywidgets.VBox
    """

    def __init__(self, qrels, runs, *, families=("P", "R", "nDCG"), max_k: int = 20,
                 k: int = 10, relevance_level: int = 1, lang: str = "en"):
        self.lang = _check_lang(lang)
        self.curves = k_curves(qrels, runs, families=families, max_k=max_k,
                               relevance_level=relevance_level)
        self.families = list(dict.fromkeys(self.curves.columns.get_level_values("family")))
        self.systems = list(dict.fromkeys(self.curves.columns.get_level_values("system")))
        k = _check_int(k, "k", minimum=1)
        if k > max_k:
            raise InputError(f"k must be at most max_k={max_k}; got {k}")
        self._png: dict[int, bytes] = {}
        self.k_slider = widgets.IntSlider(value=k, min=1, max=max_k, description="K")
        self.k_slider.add_class("reteval-k")
        self.image = widgets.Image(format="png")
        self.values_html = widgets.HTML()
        self.values_html.add_class("reteval-k-values")
        self.k_slider.observe(lambda change: self.render(), names="value")
        self.widget = widgets.VBox([self.k_slider, self.values_html, self.image])
        self.widget.add_class("reteval-k-curve-explorer")
        self.render()

    def at(self, k: int) -> pd.DataFrame:
        """The values at cutoff ``k``: one row per system, one column ``family@k`` each."""
        if k not in self.curves.index:
            raise InputError(f"k must be between 1 and {self.curves.index[-1]}; got {k!r}")
        row = self.curves.loc[k]
        return pd.DataFrame({f"{f}@{k}": [row[(f, s)] for s in self.systems]
                             for f in self.families},
                            index=pd.Index(self.systems, name="system"))

    def figure(self, k: int):
        """A matplotlib Figure (no pyplot state) of the curves, K marked."""
        from matplotlib.figure import Figure

        from reteval.fonts import use_cjk_font

        use_cjk_font(warn=False)
        words = {"zh": ("截断位置 K", "平均值"), "en": ("cutoff K", "mean")}[self.lang]
        fig = Figure(figsize=(3.6 * len(self.families) + 1.2, 3.0), layout="constrained")
        axes = fig.subplots(1, len(self.families), squeeze=False)[0]
        ks = self.curves.index.to_numpy()
        for ax, family in zip(axes, self.families):
            for i, system in enumerate(self.systems):
                ax.plot(ks, self.curves[(family, system)], marker="osD^vPX"[i % 7], markersize=3,
                        linestyle=("-", "--", "-.", ":")[i % 4], label=system)
            ax.axvline(k, color="grey", linewidth=1, linestyle=":", label=f"K = {k}")
            ax.set_xlabel(words[0])
            ax.set_ylabel(f"{words[1]} {family}@K")
            ax.set_title(f"{family}@K")
            ax.set_ylim(0, 1.02)
            ax.grid(alpha=0.3)
        fig.legend(*axes[0].get_legend_handles_labels(), loc="outside right center", fontsize=8)
        return fig

    def png(self, k: int) -> bytes:
        """:meth:`figure` as PNG bytes (drawn once per ``k``)."""
        if k not in self._png:
            buffer = io.BytesIO()
            self.figure(k).savefig(buffer, format="png", dpi=80)
            self._png[k] = buffer.getvalue()
        return self._png[k]

    def text(self) -> str:
        """The values at the slider's K, as a plain-text table."""
        k = int(self.k_slider.value)
        return f"K = {k}\n" + self.at(k).round(4).to_string()

    def _fallback_html(self, text: str) -> str:
        import base64

        image = base64.b64encode(self.png(int(self.k_slider.value))).decode("ascii")
        return (f"<pre>{html.escape(text)}</pre>"
                f"<img alt='{html.escape(text.splitlines()[0])}' src='data:image/png;base64,{image}'>")

    def values_table_html(self, k: int) -> str:
        table = self.at(k)
        head = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
        rows = "".join(
            f"<tr><td class='l'>{html.escape(s)}</td>"
            + "".join(f"<td>{v:.3f}</td>" for v in row) + "</tr>"
            for s, row in zip(table.index, table.to_numpy())
        )
        return (f"<div class='reteval-w'>{_STYLE}<table><tr><th class='l'>system</th>{head}</tr>"
                f"{rows}</table></div>")

    def render(self) -> None:
        """Show the values at the slider's K and redraw the plot."""
        k = int(self.k_slider.value)
        self.values_html.value = self.values_table_html(k)
        self.image.value = self.png(k)


# --------------------------------------------------------------------------- A/B planner


@dataclass(frozen=True)
class SamplePlan:
    """Sample size of a two-group test on a proportion.

    Attributes
    ----------
    baseline, treatment : float
        Rate in the control group, and the rate to detect in the treatment group.
    alpha, power : float
    effect_size : float
        Cohen's h of the two rates.
    n_per_group : int
        Observations per group (the solution rounded up).
    total : int
        Both groups.
    """

    baseline: float
    treatment: float
    alpha: float
    power: float
    effect_size: float
    n_per_group: int
    total: int

    def describe(self, lang: str = "en") -> tuple[str, ...]:
        """The plan as lines of text, in English (``"en"``) or Chinese (``"zh"``).

        Examples
        --------
        >>> plan_sample_size(0.10, 0.02).describe()[2]
        'n per group = 3,835 (total 7,670) for power 0.80 at alpha 0.050, two-sided'
        >>> plan_sample_size(0.10, 0.02).describe("zh")[2]
        '每组 3,835 人（共 7,670 人），双侧检验，alpha 0.050，检验效能 0.80'
        """
        _check_lang(lang)
        change = self.treatment - self.baseline
        relative = (self.treatment / self.baseline - 1) * 100
        second = (f"h = 2 asin(sqrt({self.treatment:.3f})) - 2 asin(sqrt({self.baseline:.3f})) "
                  f"= {self.effect_size:.4f}")
        if lang == "zh":
            first = (f"基线 {self.baseline:.3f} -> 实验组 {self.treatment:.3f} "
                     f"（+{change:.3f}，相对 {relative:+.1f}%）")
            third = (f"每组 {self.n_per_group:,} 人（共 {self.total:,} 人），双侧检验，"
                     f"alpha {self.alpha:.3f}，检验效能 {self.power:.2f}")
            return (first, second, third)
        first = (f"baseline {self.baseline:.3f} -> treatment {self.treatment:.3f} "
                 f"(+{change:.3f}, {relative:+.1f}% relative)")
        third = (f"n per group = {self.n_per_group:,} (total {self.total:,}) "
                 f"for power {self.power:.2f} at alpha {self.alpha:.3f}, two-sided")
        return (first, second, third)


def plan_sample_size(baseline: float, effect: float, *, alpha: float = 0.05,
                     power: float = 0.8) -> SamplePlan:
    """Users per group to detect an absolute increase ``effect`` over a ``baseline`` rate.

    The effect size is Cohen's h and the size solves the two-sided normal
    power equation of :func:`reteval.ab.power.sample_size`, rounded up.

    Parameters
    ----------
    baseline : float
        Control rate, in (0, 1).
    effect : float
        Absolute increase to detect (0.01 = one percentage point), > 0, with
        ``baseline + effect <= 1``.
    alpha : float, default 0.05
    power : float, default 0.8

    Returns
    -------
    SamplePlan

    Examples
    --------
    >>> plan = plan_sample_size(0.10, 0.02)
    >>> plan.n_per_group, plan.total
    (3835, 7670)
    """
    from reteval.ab.power import proportion_effect_size, sample_size

    if not 0 < baseline < 1:
        raise InputError(f"baseline must be a rate in (0, 1); got {baseline!r}")
    if not effect > 0 or baseline + effect > 1:
        raise InputError(f"effect must be > 0 with baseline + effect <= 1; got effect={effect!r} "
                         f"with baseline={baseline!r}")
    treatment = baseline + effect
    h = proportion_effect_size(treatment, baseline)
    n = math.ceil(sample_size(h, power=power, alpha=alpha) - 1e-9)
    return SamplePlan(baseline=float(baseline), treatment=float(treatment), alpha=float(alpha),
                      power=float(power), effect_size=float(h), n_per_group=int(n),
                      total=2 * int(n))


class ABPlanner(_Displayable):
    """Sliders for baseline rate, effect, alpha and power; the sample size they need.

    Parameters
    ----------
    baseline : float, default 0.10
    effect : float, default 0.01
        Absolute increase of the rate to detect.
    alpha : float, default 0.05
    power : float, default 0.80
    lang : {"en", "zh"}, default "en"
        Language of the plan's text (shown and in :meth:`text`).

    Attributes
    ----------
    baseline_slider, effect_slider, alpha_slider, power_slider : ipywidgets.FloatSlider
    result_html : ipywidgets.HTML
    plan : SamplePlan or None
        The plan shown (None while the sliders make no valid plan; the HTML
        then says why).
    widget : ipywidgets.VBox

    Examples
    --------
    >>> planner = ABPlanner(baseline=0.10, effect=0.02)
    >>> planner.plan.n_per_group
    3835
    >>> planner.effect_slider.value = 0.04
    >>> planner.plan.n_per_group < 3835
    True
    """

    def __init__(self, *, baseline: float = 0.10, effect: float = 0.01, alpha: float = 0.05,
                 power: float = 0.80, lang: str = "en"):
        self.lang = _check_lang(lang)
        plan_sample_size(baseline, effect, alpha=alpha, power=power)  # validate up front
        style = {"description_width": "110px"}
        layout = widgets.Layout(width="420px")
        self.baseline_slider = widgets.FloatSlider(
            value=baseline, min=0.01, max=0.99, step=0.01, description="baseline rate",
            readout_format=".2f", style=style, layout=layout)
        self.effect_slider = widgets.FloatSlider(
            value=effect, min=0.001, max=0.2, step=0.001, description="effect (+abs.)",
            readout_format=".3f", style=style, layout=layout)
        self.alpha_slider = widgets.FloatSlider(
            value=alpha, min=0.005, max=0.2, step=0.005, description="alpha",
            readout_format=".3f", style=style, layout=layout)
        self.power_slider = widgets.FloatSlider(
            value=power, min=0.5, max=0.99, step=0.01, description="power",
            readout_format=".2f", style=style, layout=layout)
        self.result_html = widgets.HTML()
        self.result_html.add_class("reteval-ab-plan")
        self.plan: SamplePlan | None = None
        for slider in self.sliders:
            slider.observe(lambda change: self.render(), names="value")
        self.widget = widgets.VBox([*self.sliders, self.result_html])
        self.widget.add_class("reteval-ab-planner")
        self.render()

    @property
    def sliders(self) -> tuple[widgets.FloatSlider, ...]:
        return (self.baseline_slider, self.effect_slider, self.alpha_slider, self.power_slider)

    def text(self) -> str:
        """The plan shown (or why there is none), as plain text."""
        return "\n".join(self._lines)

    def render(self) -> None:
        """Recompute the plan from the sliders and show it (or why there is none)."""
        try:
            self.plan = plan_sample_size(self.baseline_slider.value, self.effect_slider.value,
                                         alpha=self.alpha_slider.value,
                                         power=self.power_slider.value)
        except InputError as error:
            self.plan = None
            self._lines = (f"no plan: {error}",)
            self.result_html.value = (f"<div class='reteval-w'>{_STYLE}<div class='formula non'>"
                                      f"no plan: {html.escape(str(error))}</div></div>")
            return
        self._lines = self.plan.describe(self.lang)
        lines = "".join(f"<div class='formula'>{html.escape(line)}</div>"
                        for line in self._lines)
        self.result_html.value = f"<div class='reteval-w'>{_STYLE}{lines}</div>"
