"""The table of Breuer et al. (SIGIR 2020) for an original and a reproduced experiment."""

from __future__ import annotations

import math
import textwrap
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field

import pandas as pd

from reteval.errors import InputError
from reteval.repro._effects import delta_ri, effect_ratio, rmse, ttest_pvalue
from reteval.repro._order import RUN_LENGTH, ktu, rbo

__all__ = ["DEFAULT_MEASURES", "ReproReport", "report"]

DEFAULT_MEASURES = ("P@10", "AP", "nDCG")
_ROLES = ("baseline", "advanced")


@dataclass(frozen=True)
class ReproReport:
    """The result of :func:`report`; ``print`` shows the paper's table.

    Attributes
    ----------
    kind : {"reproducibility", "replicability"}
        Reproducibility: the reproduction runs on the original's topics and
        qrels (paired t test, RMSE, KTU and RBO); replicability: on other
        topics or another collection (unpaired t test, no per-topic comparison).
    table : pandas.DataFrame
        One column per measure; rows indexed by (``run``, ``quantity``):
        for ``baseline`` (and ``advanced``) ``ARP original`` and ``ARP
        reproduced`` (the means over topics), ``RMSE`` (reproducibility only)
        and ``p-value``; with an advanced run, ``effect``: ``ER`` and ``ΔRI``.
        NaN where a value is undefined (ER when the original shows no mean
        improvement, ΔRI when a baseline averages 0).
    order : pandas.DataFrame or None
        Reproducibility only: rows ``KTU`` and ``RBO`` (means over topics; KTU
        over the topics where it is defined), one column per run role.
    ktu, rbo : pandas.DataFrame or None
        The same per topic (one column per run role).
    scores : dict of str to pandas.DataFrame
        The per-topic scores: keys ``"original baseline"``, ``"reproduced
        baseline"``, ... as :func:`reteval.evaluate` returns them.
    depth : int
    p : float
    """

    kind: str
    table: pd.DataFrame
    order: pd.DataFrame | None
    ktu: pd.DataFrame | None
    rbo: pd.DataFrame | None
    scores: dict = field(repr=False)
    depth: int = RUN_LENGTH
    p: float = 0.95

    @property
    def measures(self) -> list[str]:
        """The measures, in the table's order."""
        return [str(c) for c in self.table.columns]

    def __str__(self) -> str:
        original = len(self.scores["original baseline"])
        reproduced = len(self.scores["reproduced baseline"])
        if self.kind == "reproducibility":
            head = (f"Reproducibility: original and reproduced runs on the same {original} "
                    "topics (paired t test)")
        else:
            head = (f"Replicability: original on {original} topics, reproduction on "
                    f"{reproduced} others (unpaired t test)")
        parts = [head, ""]
        if self.order is not None:
            order = self.order.rename(index={"RBO": f"RBO (p={self.p:g})"})
            parts += [f"Document order, top {self.depth} (mean over topics)",
                      order.to_string(float_format=_number, na_rep="-"), ""]
        parts += [self.table.to_string(float_format=_number, na_rep="-"), ""]
        legend = ["ARP: mean over topics."]
        if self.kind == "reproducibility":
            legend.append("RMSE: root mean square error of the per-topic scores.")
        legend += [("p-value: t test of the original against the reproduced scores (small: "
                    "they differ)."), "ER: effect ratio (1: the improvement reproduced in full).",
                   "ΔRI: original minus reproduced relative improvement (0: the same).",
                   "-: undefined (no mean improvement, or a baseline averaging 0)."]
        parts += textwrap.wrap(" ".join(legend), width=92)
        return "\n".join(parts)


def _number(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.4f}"


def _runs(runs, name: str) -> dict:
    if not isinstance(runs, Mapping) or "baseline" not in runs or set(runs) - set(_ROLES):
        got = sorted(map(str, runs))[:4] if isinstance(runs, Mapping) else type(runs).__name__
        raise InputError(f"{name} must be a mapping {{'baseline': run}} or {{'baseline': run, "
                         f"'advanced': run}}; got {got}")
    return {role: runs[role] for role in _ROLES if role in runs}


def _undefined_is_nan(function, *args) -> float:
    try:
        return function(*args)
    except InputError as exc:
        if "undefined" in str(exc):
            return math.nan
        raise


def report(qrels, *, original: Mapping[str, object], reproduced: Mapping[str, object],
           measures=DEFAULT_MEASURES, reproduced_qrels=None, depth: int = RUN_LENGTH,
           p: float = 0.95) -> ReproReport:
    """Every measure of Breuer et al. (2020) for an original and a reproduced experiment.

    The runs are evaluated with :func:`reteval.evaluate` (trec_eval's values;
    a judged topic missing from a run scores 0, as ``trec_eval -c``), then
    compared at each level of the paper: the document order (:func:`ktu`,
    :func:`rbo`), the effectiveness per topic (:func:`rmse`), the overall
    effect (:func:`effect_ratio`, :func:`delta_ri`) and the t test
    (:func:`ttest_pvalue`).

    Parameters
    ----------
    qrels : qrels
        The original experiment's judgments (any form :func:`reteval.io.as_qrels` takes).
    original, reproduced : mapping
        ``{"baseline": run}`` or ``{"baseline": run, "advanced": run}``, the
        same roles in both (any form :func:`reteval.io.as_run` takes).
    measures : str or sequence of str, default ("P@10", "AP", "nDCG")
        Measure names as :func:`reteval.evaluate` takes them.
    reproduced_qrels : qrels, optional
        The reproduction's own judgments (another collection, or other topics):
        replicability. Without it, reproducibility: the reproduction is
        evaluated with ``qrels``, on the same topics.
    depth : int, default 1000
        The rankings' depth for KTU and RBO.
    p : float, default 0.95
        RBO's persistence.

    Returns
    -------
    ReproReport

    Raises
    ------
    InputError
        Roles other than baseline and advanced, different roles on the two
        sides, bad runs or qrels, and (reproducibility) runs on different topics.

    References
    ----------
    T. Breuer, N. Ferro, N. Fuhr, M. Maistro, T. Sakai, P. Schaer, I. Soboroff
    (2020), "How to measure the reproducibility of system-oriented IR
    experiments", SIGIR.

    Examples
    --------
    >>> qrels = {"q1": {"d1": 1, "d2": 1}, "q2": {"d3": 1}}
    >>> original = {"baseline": {"q1": ["d1", "d9", "d2"], "q2": ["d8", "d3"]},
    ...             "advanced": {"q1": ["d1", "d2", "d9"], "q2": ["d3", "d8"]}}
    >>> reproduced = {"baseline": {"q1": ["d9", "d1", "d2"], "q2": ["d8", "d3"]},
    ...               "advanced": {"q1": ["d1", "d2", "d9"], "q2": ["d8", "d3"]}}
    >>> result = report(qrels, original=original, reproduced=reproduced, measures=["AP"])
    >>> result.table["AP"].round(4).to_dict()[("effect", "ER")]
    0.625
    """
    import reteval

    original = _runs(original, "original")
    reproduced = _runs(reproduced, "reproduced")
    if set(original) != set(reproduced):
        raise InputError(f"original and reproduced need the same runs; original has "
                         f"{sorted(original)}, reproduced {sorted(reproduced)}")
    same = reproduced_qrels is None
    order = ktu_table = rbo_table = None
    if same:  # first: bad runs, depth or p are reported before any evaluation
        ktu_table = pd.DataFrame({role: ktu(original[role], reproduced[role], depth=depth)
                                  for role in original})
        rbo_table = pd.DataFrame({role: rbo(original[role], reproduced[role], p=p, depth=depth)
                                  for role in original})
        order = pd.DataFrame({"KTU": ktu_table.mean(), "RBO": rbo_table.mean()}).T
    from reteval.evaluation.checks import check_arguments

    # the names parsed once, with evaluate's own checks, for the four evaluations
    columns = dict(check_arguments(measures, 1, "zero"))
    scores = {}
    for side, runs, judgments in (("original", original, qrels),
                                  ("reproduced", reproduced, qrels if same else reproduced_qrels)):
        for role, run in runs.items():
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                scores[f"{side} {role}"] = reteval.evaluate(judgments, run, columns)
            for warning in caught:  # say which run it is about
                warnings.warn(f"{side} {role} run: {warning.message}", warning.category,
                              stacklevel=2)
    columns = list(scores["original baseline"].columns)
    rows = {}
    for role in original:
        o, r = scores[f"original {role}"], scores[f"reproduced {role}"]
        rows[(role, "ARP original")] = o.mean()
        rows[(role, "ARP reproduced")] = r.mean()
        if same:
            rows[(role, "RMSE")] = pd.Series({m: rmse(o[m], r[m]) for m in columns})
        rows[(role, "p-value")] = pd.Series(
            {m: ttest_pvalue(o[m], r[m], paired=same) for m in columns})
    if "advanced" in original:
        four = [scores[k] for k in ("original baseline", "original advanced",
                                    "reproduced baseline", "reproduced advanced")]
        for name, function in (("ER", effect_ratio), ("ΔRI", delta_ri)):
            rows[("effect", name)] = pd.Series(
                {m: _undefined_is_nan(function, *(s[m] for s in four)) for m in columns})
    table = pd.DataFrame(rows).T[columns]
    table.index = pd.MultiIndex.from_tuples(table.index, names=["run", "quantity"])
    kind = "reproducibility" if same else "replicability"
    return ReproReport(kind=kind, table=table.astype(float), order=order, ktu=ktu_table,
                       rbo=rbo_table, scores=scores, depth=depth, p=p)
