"""Figures for online experiments (matplotlib; they work with any backend, Agg included)."""

from __future__ import annotations

import numpy as np

from reteval._util.extras import require
from reteval._util.fonts import use_cjk_font
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


def plot_method_comparison(comparison: MethodComparison, *, ax=None):
    """Power against impressions for A/B testing and interleaving (log x axis).

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = _axes(ax, (6.4, 4.0))
    table = comparison.table
    name = comparison.method.replace("_", "-")
    ax.plot(table.index, table["ab_power"], "o-", label="A/B test (click-through, z-test)")
    ax.plot(table.index, table["interleaving_power"], "s-",
            label=f"{name} interleaving (sign test)")
    ax.axhline(comparison.target_power, color="grey", ls="--", lw=1,
               label=f"target power {comparison.target_power:.0%}")
    ax.set_xscale("log")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("impressions per experiment")
    ax.set_ylabel(f"power at alpha = {comparison.alpha:g}")
    ax.set_title(f"Detecting the same difference ({comparison.n_experiments} simulated "
                 "experiments per point)", fontsize="medium")
    ax.legend(loc="lower right", fontsize="small")
    return fig


def plot_sequential(result: SequentialResult, *, ax=None, label: str = "difference"):
    """Always-valid p-values against naive fixed-horizon p-values at each look.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig, ax = _axes(ax, (6.4, 4.0))
    x = np.arange(len(result.looks))
    ax.plot(x, result.naive_pvalue, "o-", label="fixed-horizon p-value (invalid when peeking)")
    ax.plot(x, result.pvalue, "s-", label="always-valid p-value (mSPRT)")
    ax.axhline(result.alpha, color="grey", ls="--", lw=1, label=f"alpha = {result.alpha:g}")
    ax.set_yscale("log")
    ax.set_xlabel("look")
    ax.set_ylabel("p-value")
    ax.set_title(f"Sequential test of the {label}", fontsize="medium")
    ticks = x if len(x) <= 15 else x[:: max(1, len(x) // 10)]
    ax.set_xticks(ticks)
    labels = [str(result.looks[i])[:10] for i in ticks]
    ax.set_xticklabels(labels, rotation=45, ha="right", fontsize="small")
    ax.legend(loc="lower left", fontsize="small")
    return fig
