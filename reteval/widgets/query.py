"""The query explorer: one query as two systems rank it, side by side, judgments marked."""

from __future__ import annotations

import html

import ipywidgets as widgets
import numpy as np
import pandas as pd

from reteval._util.catalogue import check_lang, phrase
from reteval.errors import InputError
from reteval.evaluation.engine import evaluate
from reteval.io import as_qrels
from reteval.widgets.common import STYLE, Displayable, check_int, check_runs

__all__ = ["QueryExplorer"]

class QueryExplorer(Displayable):
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
        Language of the controls, the rankings' headers and the text fallback (:meth:`text`).

    Attributes
    ----------
    query_select, left_select, right_select : ipywidgets.Dropdown
    k_slider : ipywidgets.IntSlider
    left_html, right_html : ipywidgets.HTML
    widget : ipywidgets.VBox
    """

    def __init__(self, dataset, runs, *, query_id: str | None = None, systems=None,
                 k: int = 10, relevance_level: int = 1, lang: str = "en"):
        self.lang = check_lang(lang)
        self.dataset = dataset
        self.runs = check_runs(runs)
        self.relevance_level = check_int(relevance_level, "relevance_level", minimum=1)
        self.qrels = as_qrels(dataset.qrels)
        self._grades = {
            qid: dict(zip(group["doc_id"], group["relevance"], strict=True))
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
        k = check_int(k, "k", minimum=1)

        options = [(f"{q}: {text[:70]}", q) for q, text in dataset.queries.items()]
        self.query_select = widgets.Dropdown(options=options, value=query_id,
                                             description=phrase("widgets.query", lang),
                                             layout=widgets.Layout(width="560px"))
        self.left_select = widgets.Dropdown(options=names, value=systems[0],
                                            description=phrase("widgets.left", lang))
        self.right_select = widgets.Dropdown(options=names, value=systems[1],
                                             description=phrase("widgets.right", lang))
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
                unjudged = html.escape(phrase("widgets.unjudged", self.lang))
                mark = f"<span class='unj'>{unjudged}</span>"
            elif row.judgment >= self.relevance_level:
                mark = f"<span class='rel'>&#10004; {row.judgment}</span>"
            else:
                mark = f"<span class='non'>&#10008; {row.judgment}</span>"
            rows.append(f"<tr><td>{row.rank}</td><td class='l'>{html.escape(row.doc_id)}</td>"
                        f"<td>{row.score:.3f}</td><td class='l'>{mark}</td>"
                        f"<td class='l'>{html.escape(row.title[:60])}</td></tr>")
        missed = self.missed(system, query_id, k)
        missed_text = (", ".join(f"{html.escape(d)} ({g})" for d, g in missed)
                       or html.escape(phrase("widgets.none", self.lang)))
        rank, doc, score, judgment, title = (
            html.escape(word) for word in phrase("widgets.ranking_header", self.lang))
        missed_head = html.escape(phrase("widgets.missed", self.lang, k=k))
        return (
            f"<div class='reteval-w'>{STYLE}<h4>{html.escape(system)}</h4>"
            f"<div class='formula reteval-measures'>{summary}</div>"
            f"<table><tr><th>{rank}</th><th class='l'>{doc}</th><th>{score}</th>"
            f"<th class='l'>{judgment}</th><th class='l'>{title}</th></tr>"
            + "".join(rows) + "</table>"
            f"<p>{missed_head}{missed_text}</p></div>"
        )

    def side_text(self, system: str, query_id: str, k: int) -> str:
        """One side of the view as text: measures, ranked documents, relevant ones missed."""
        values = self.measures(system, query_id, k)
        lines = [f"== {system} ==", " · ".join(f"{m} = {v:.3f}" for m, v in values.items())]
        for row in self.ranking(system, query_id, k).itertuples(index=False):
            if pd.isna(row.judgment):
                mark = phrase("widgets.unjudged", self.lang)
            elif row.judgment >= self.relevance_level:
                mark = f"✔ {row.judgment}"
            else:
                mark = f"✘ {row.judgment}"
            lines.append(f"{row.rank:>3}  {row.doc_id:<10} {row.score:8.3f}  {mark:<6} "
                         f"{row.title[:50]}".rstrip())
        missed = ", ".join(f"{d} ({g})" for d, g in self.missed(system, query_id, k))
        lines.append(phrase("widgets.missed", self.lang, k=k)
                     + (missed or phrase("widgets.none", self.lang)))
        return "\n".join(lines)

    def text(self) -> str:
        """The selected query and both systems' rankings, as plain text.

        Examples
        --------
        >>> from reteval.datasets import Dataset
        >>> data = Dataset("toy", {"d1": {"title": "BM25", "text": ""},
        ...                        "d2": {"title": "", "text": "x"}},
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
        head = phrase("widgets.query_line", self.lang, q=query_id,
                      text=self.dataset.queries[query_id], k=k)
        return "\n".join([head, self.side_text(self.left_select.value, query_id, k),
                          self.side_text(self.right_select.value, query_id, k)])

    def render(self) -> None:
        """Show the selected query for both systems."""
        query_id, k = self.query_select.value, int(self.k_slider.value)
        self.left_html.value = self.side_html(self.left_select.value, query_id, k)
        self.right_html.value = self.side_html(self.right_select.value, query_id, k)

