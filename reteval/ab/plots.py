"""Figures for online experiments (matplotlib; they work with any backend, Agg included).

Each figure tells its lines apart by marker and line style as well as colour, and keeps
its legend beside the axes, off the data.
"""

from __future__ import annotations

import numpy as np

from reteval._util.catalogue import TEXTS, check_lang, phrase
from reteval._util.extras import require
from reteval._util.fonts import figure_text, use_cjk_font
from reteval.ab.sequential import SequentialResult
from reteval.ab.simulation import MethodComparison

use_cjk_font(warn=False)

__all__ = ["plot_method_comparison", "plot_sequential"]


def _axes(ax, figsize):
    if ax is not None:
        return ax.figure, ax
    Figure = require("matplotlib.figure", "plots", "figures").Figure

    fig = Figure(figsize=figsize, layout="constrained")
    return fig, fig.add_subplot()


def _say(key: str, lang: str, **fields) -> str:
    return figure_text(phrase(f"ab.figure.{key}", lang, **fields))


def plot_method_comparison(comparison: MethodComparison, *, ax=None, lang: str = "en"):
    """Power against impressions for A/B testing and interleaving (log x axis).

    ``lang`` (``"en"`` or ``"zh"``) is the language of the labels.

    Returns
    -------
    matplotlib.figure.Figure
    """
    check_lang(lang)
    fig, ax = _axes(ax, (8.0, 4.0))
    table = comparison.table
    method = comparison.method
    name = (phrase(f"ab.figure.{method}", lang) if f"ab.figure.{method}" in TEXTS
            else method.replace("_", "-"))
    ax.plot(table.index, table["ab_power"], "o-", label=_say("ab", lang))
    ax.plot(table.index, table["interleaving_power"], "s-.",
            label=_say("interleaving", lang, method=name))
    ax.axhline(comparison.target_power, color="grey", ls="--", lw=1,
               label=_say("target", lang, power=comparison.target_power))
    ax.set_xscale("log")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel(_say("impressions", lang))
    ax.set_ylabel(_say("power", lang, alpha=comparison.alpha))
    ax.set_title(_say("methods_title", lang, n=comparison.n_experiments), fontsize="medium")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1), fontsize="small")
    return fig


def plot_sequential(result: SequentialResult, *, ax=None, label: str | None = None,
                    lang: str = "en"):
    """Always-valid p-values against naive fixed-horizon p-values at each look.

    ``label`` names what is tested (default: "difference", in ``lang``, ``"en"`` or
    ``"zh"``, the language of the labels).

    Returns
    -------
    matplotlib.figure.Figure
    """
    check_lang(lang)
    label = phrase("ab.figure.difference", lang) if label is None else label
    fig, ax = _axes(ax, (8.0, 4.0))
    x = np.arange(len(result.looks))
    ax.plot(x, result.naive_pvalue, "o-", label=_say("naive", lang))
    ax.plot(x, result.pvalue, "s-.", label=_say("msprt", lang))
    ax.axhline(result.alpha, color="grey", ls="--", lw=1, label=_say("alpha", lang,
                                                                       alpha=result.alpha))
    ax.set_yscale("log")
    ax.set_xlabel(_say("look", lang))
    ax.set_ylabel(_say("pvalue", lang))
    ax.set_title(_say("sequential_title", lang, label=label), fontsize="medium")
    ticks = x if len(x) <= 15 else x[:: max(1, len(x) // 10)]
    ax.set_xticks(ticks)
    labels = [str(result.looks[i])[:10] for i in ticks]
    ax.set_xticklabels(labels, rotation=45, ha="right", fontsize="small")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1), fontsize="small")
    return fig
