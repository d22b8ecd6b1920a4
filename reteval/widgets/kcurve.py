"""The K-curve explorer: measures against the cutoff K for several systems, a slider for K."""

from __future__ import annotations

import html
import io

import ipywidgets as widgets
import pandas as pd

from reteval._util.catalogue import check_lang, phrase
from reteval.errors import InputError
from reteval.evaluation.cutoffs import measure_curves
from reteval.widgets.common import STYLE, Displayable, check_int

__all__ = ["KCurveExplorer", "k_curves"]


def k_curves(qrels, runs, *, families=("P", "R", "nDCG"), max_k: int = 20,
             relevance_level: int = 1) -> pd.DataFrame:
    """Mean of each measure family at every cutoff ``1..max_k``, for every system.

    :func:`reteval.evaluation.cutoffs.measure_curves` at the cutoffs ``1..max_k``.

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
    max_k = check_int(max_k, "max_k", minimum=1)
    return measure_curves(qrels, runs, families, range(1, max_k + 1),
                          relevance_level=relevance_level)


class KCurveExplorer(Displayable):
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
        Language of the plot's labels and of the values table.

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
        self.lang = check_lang(lang)
        self.curves = k_curves(qrels, runs, families=families, max_k=max_k,
                               relevance_level=relevance_level)
        self.families = list(dict.fromkeys(self.curves.columns.get_level_values("family")))
        self.systems = list(dict.fromkeys(self.curves.columns.get_level_values("system")))
        k = check_int(k, "k", minimum=1)
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

        from reteval._util.fonts import figure_text, use_cjk_font

        use_cjk_font(warn=False)
        fig = Figure(figsize=(3.6 * len(self.families) + 1.2, 3.0), layout="constrained")
        axes = fig.subplots(1, len(self.families), squeeze=False)[0]
        ks = self.curves.index.to_numpy()
        for ax, family in zip(axes, self.families, strict=True):
            for i, system in enumerate(self.systems):
                ax.plot(ks, self.curves[(family, system)], marker="osD^vPX"[i % 7], markersize=3,
                        linestyle=("-", "--", "-.", ":")[i % 4], label=figure_text(system))
            ax.axvline(k, color="grey", linewidth=1, linestyle=":", label=f"K = {k}")
            ax.set_xlabel(phrase("widgets.cutoff_k", self.lang))
            ax.set_ylabel(figure_text(phrase("widgets.mean_of", self.lang, measure=f"{family}@K")))
            ax.set_title(figure_text(f"{family}@K"))
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
        """The values at the slider's K, as a plain-text table (its index named in ``lang``)."""
        k = int(self.k_slider.value)
        table = self.at(k).round(4).rename_axis(phrase("widgets.system", self.lang))
        return f"K = {k}\n" + table.to_string()

    def _fallback_html(self, text: str) -> str:
        import base64

        image = base64.b64encode(self.png(int(self.k_slider.value))).decode("ascii")
        return (f"<pre>{html.escape(text)}</pre>"
                f"<img alt='{html.escape(text.splitlines()[0])}' "
                f"src='data:image/png;base64,{image}'>")

    def values_table_html(self, k: int) -> str:
        table = self.at(k)
        head = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
        rows = "".join(
            f"<tr><td class='l'>{html.escape(s)}</td>"
            + "".join(f"<td>{v:.3f}</td>" for v in row) + "</tr>"
            for s, row in zip(table.index, table.to_numpy(), strict=True)
        )
        system = html.escape(phrase("widgets.system", self.lang))
        return (f"<div class='reteval-w'>{STYLE}<table><tr><th class='l'>{system}</th>{head}</tr>"
                f"{rows}</table></div>")

    def render(self) -> None:
        """Show the values at the slider's K and redraw the plot."""
        k = int(self.k_slider.value)
        self.values_html.value = self.values_table_html(k)
        self.image.value = self.png(k)

