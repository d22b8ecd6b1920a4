"""The metric explorer: grade a ranked list, watch each measure and its formula change."""

from __future__ import annotations

import html
import math

import ipywidgets as widgets

from reteval._util.catalogue import check_lang, phrase
from reteval.errors import InputError
from reteval.evaluation.formulas import MetricState, gain_term
from reteval.widgets.common import STYLE, Displayable, check_int

__all__ = ["MetricExplorer", "metric_table_html", "metric_values_html"]


def _fmt(x: float) -> str:
    """A gain or discount term: integers without decimals, others with three."""
    return str(int(x)) if float(x).is_integer() else f"{x:.3f}"


def metric_table_html(state: MetricState, *, lang: str = "en") -> str:
    """HTML table of the ranked list: grade, relevance, precision at relevant ranks, DCG term.

    Headers and words in ``lang`` (``"en"`` or ``"zh"``).

    Examples
    --------
    >>> "<td>1/log2(2) = 1</td>" in metric_table_html(MetricState([1, 0], k=2))
    True
    """
    yes, no = (html.escape(phrase(key, lang)) for key in ("widgets.relevant",
                                                          "widgets.not_relevant"))
    rows = []
    seen = 0
    for i, (g, is_rel) in enumerate(zip(state.grades, state.relevant(), strict=True), 1):
        seen += is_rel
        inside = i <= state.k
        css = "" if inside else ' class="out"'
        mark = f'<span class="rel">{yes}</span>' if is_rel else f'<span class="non">{no}</span>'
        precision = f"{seen}/{i}" if is_rel else ""
        term = f"{gain_term(g, i)} = {_fmt(g / math.log2(i + 1))}" if inside else ""
        rows.append(f"<tr{css}><td>{i}</td><td>{g}</td><td class='l'>{mark}</td>"
                    f"<td>{precision}</td><td>{term}</td></tr>")
    extra = ""
    if state.unretrieved:
        words = phrase("widgets.judged_not_retrieved", lang, grades=list(state.unretrieved),
                       n=sum(g >= state.relevance_level for g in state.unretrieved))
        extra = f"<p>{html.escape(words)}</p>"
    rank, grade, relevant, precision, gain = (
        html.escape(word) for word in phrase("widgets.metric_header", lang))
    return (
        f"<div class='reteval-w'>{STYLE}<table><tr><th>{rank}</th><th>{grade}</th>"
        f"<th class='l'>{relevant}</th><th>{precision}</th><th>{gain}</th></tr>"
        + "".join(rows) + "</table>" + extra + "</div>"
    )


def metric_values_html(state: MetricState) -> str:
    """HTML list of :meth:`MetricState.explain`, one formula per line."""
    parts = []
    for e in state.explain():
        parts.append(f"<div class='formula' data-measure='{html.escape(e.measure)}'>"
                     f"{html.escape(e.formula)}</div>")
        parts.extend(f"<div class='formula'>    {html.escape(t)}</div>" for t in e.terms)
    return f"<div class='reteval-w reteval-measures'>{STYLE}{''.join(parts)}</div>"


class MetricExplorer(Displayable):
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
    lang : {"en", "zh"}, default "en"
        Language of the controls and of the table.

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
                 max_grade: int = 3, relevance_level: int = 1, lang: str = "en"):
        self.lang = check_lang(lang)
        max_grade = check_int(max_grade, "max_grade", minimum=1)
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
                                               tooltip=phrase("widgets.relevant_at", lang,
                                                              rank=rank),
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
                                                description=phrase("widgets.not_retrieved",
                                                                   lang),
                                                style={"description_width": "initial"})
        self.missing_grade = widgets.Dropdown(
            options=list(range(1, max_grade + 1)),
            value=max(1, min(missing_grades, default=1)),
            description=phrase("widgets.of_grade", lang),
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
            widgets.HTML(f"<b>{html.escape(phrase('widgets.grade_at_rank', lang))}</b>"),
            positions,
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
        self.table_html.value = metric_table_html(self.state, lang=self.lang)

