"""The result of :func:`reteval.compare`: :class:`Comparison`, tables over the numbers of
:func:`reteval.comparison.core.compare_arrays`."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from reteval.comparison.core import ComparisonNumbers, summary_lines
from reteval.errors import InputError
from reteval.stats.multiple import AnovaResult, TukeyHSDResult
from reteval.stats.results import PairedTestResult

__all__ = ["Comparison"]


@dataclass(frozen=True)
class Comparison:
    """The result of :func:`compare`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per (measure, system), in the order given: ``measure``,
        ``system``, ``mean`` (the measure's own aggregate, as trec_eval's ``all``:
        the geometric mean for ``gm_map`` and ``gm_bpref``, the sum for the counts),
        ``ci_low``, ``ci_high`` (percentile bootstrap interval of that value; of a
        geometric mean, the exponential of its logarithms'), ``n_queries``, and the
        comparison with the
        baseline -- ``mean_difference`` (system minus baseline), ``pvalue``,
        ``pvalue_corrected``, ``significant`` (nullable boolean). These four
        are missing (NaN / ``<NA>``) on the baseline's own rows and everywhere
        when there is no baseline: pairwise results are in ``pairwise``.
    pairwise : pandas.DataFrame
        One row per tested comparison: ``measure``, ``system``, ``other``,
        ``mean_difference`` (``system - other``), ``ci_low``, ``ci_high``
        (the test's interval; see :mod:`reteval.stats`), ``effect_size``
        (Cohen's d_z; with Tukey's HSD ``(mean_i - mean_j) / sqrt(V_E)`` and the
        simultaneous interval), ``statistic``, ``pvalue``, ``pvalue_corrected``,
        ``significant`` (``pvalue_corrected <= alpha``; never for a system equal
        to the other on every query). A geometric-mean measure is tested on
        ``log(max(x, 0.00001))``, the values it averages: its interval and effect
        size are in those units, its ``mean_difference`` is of the geometric means.
    best : pandas.DataFrame
        Indexed by measure: ``system`` with the highest mean, ``mean``,
        ``tied_with`` (other systems with exactly the same mean, a tuple),
        ``runner_up``, ``runner_up_mean``, ``pvalue`` and ``pvalue_corrected``
        of best versus runner-up, ``in_family`` (whether that comparison is
        one of the corrected family; if not, ``pvalue_corrected`` is the
        uncorrected p-value of a separate test), ``significant`` and
        ``status``: ``"significant"``, ``"not significant"``, ``"tie"`` or
        ``"single"`` (only one system).
    per_query : dict
        Measure name -> DataFrame of per-query scores (index ``query_id``, one
        column per system).
    tests : dict
        ``(measure, system, other)`` -> the :class:`reteval.stats.PairedTestResult`
        (empty for Tukey's HSD).
    anova : dict
        Measure -> :class:`reteval.stats.AnovaResult` (two-way ANOVA, topic x
        system), for every measure when there are at least 2 systems and 2 queries;
        its F test is NaN when there is no residual variance (a system and an exact
        copy of itself), and ``numbers.anova[measure].note`` says so.
    tukey : dict
        Measure -> :class:`reteval.stats.TukeyHSDResult` when ``test`` is
        ``"tukey"`` or ``"tukey-studentized"``.

    The object is frozen (its attributes cannot be rebound) and picklable;
    treat its tables as read-only.
    measures, systems : tuple of str
    baseline : str or None
    test, correction : str
        Canonical names (see :data:`COMPARE_TESTS`, :data:`reteval.stats.CORRECTIONS`);
        the correction is ``"none"`` with Tukey's HSD.
    alpha, confidence_level : float
    n_resamples : int
    retrieved : pandas.DataFrame or None
        Documents each system returned per query (from :func:`compare`).
    numbers : ComparisonNumbers or None
        The numbers the tables show (:func:`reteval.comparison.core.compare_arrays`),
        what ``reteval compare`` prints.
    """

    table: pd.DataFrame
    pairwise: pd.DataFrame
    best: pd.DataFrame
    per_query: Mapping[str, pd.DataFrame] = field(repr=False)
    tests: Mapping[tuple[str, str, str], PairedTestResult] = field(repr=False)
    measures: tuple[str, ...]
    systems: tuple[str, ...]
    baseline: str | None
    test: str
    correction: str
    alpha: float
    confidence_level: float
    n_resamples: int
    anova: Mapping[str, AnovaResult] = field(default_factory=dict, repr=False)
    tukey: Mapping[str, TukeyHSDResult] = field(default_factory=dict, repr=False)
    retrieved: pd.DataFrame | None = field(default=None, repr=False)
    numbers: ComparisonNumbers | None = field(default=None, repr=False)

    def depth_sensitive(self, measure: str) -> bool:
        """Whether ``measure`` compares the systems at unequal depths on some query.

        True when on some query a system returned fewer documents than the
        measure's cutoff (all of them, without a cutoff) while another system
        returned more: the shorter list counts its missing ranks as not
        relevant, so a difference there may come from how many documents a
        system returned, not from how it ranked them. False when every system
        returned the same number of documents on every query, or when this is
        unknown (``retrieved`` is None).

        Examples
        --------
        >>> from reteval import compare
        >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
        >>> runs = {"short": {"q1": ["d1"], "q2": ["d2"]},
        ...         "long": {"q1": ["d9", "d8", "d1"], "q2": ["d2", "d7", "d6"]}}
        >>> c = compare(qrels, runs, ["P@1", "P@3", "AP"], rng=0)
        >>> [c.depth_sensitive(m) for m in c.measures]
        [False, True, True]
        """
        if self.retrieved is None:
            return False
        parsed = self.numbers.parsed.get(measure) if self.numbers is not None else None
        if parsed is None:
            from reteval.measures import parse_measure

            parsed = parse_measure(measure)
        cutoff = parsed.cutoff
        counts = self.retrieved.to_numpy(dtype=float)
        if cutoff is not None:
            counts = np.minimum(counts, float(cutoff))
        return bool((counts.min(axis=1) < counts.max(axis=1)).any())

    def summary(self) -> list[str]:
        """Which procedure answered which question, one sentence each (in English).

        Examples
        --------
        >>> from reteval import compare
        >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}, "q3": {"d3": 1}}
        >>> runs = {"a": {"q1": ["d1"], "q2": ["d9", "d2"], "q3": ["d3"]},
        ...         "b": {"q1": ["d9", "d1"], "q2": ["d2"], "q3": ["d9"]},
        ...         "c": {"q1": ["d9"], "q2": ["d2"], "q3": ["d9", "d3"]}}
        >>> for line in compare(qrels, runs, ["RR"], test="tukey", n_resamples=200,
        ...                     rng=0).summary():
        ...     print(line.split("? ")[1].split(" (")[0])
        Two-way ANOVA
        Randomised Tukey HSD over all 3 pairs
        Effect sizes
        95% percentile bootstrap interval over the 3 queries.
        """
        return summary_lines(test=self.test, baseline=self.baseline, n_systems=len(self.systems),
                             alpha=self.alpha, correction=self.correction,
                             confidence_level=self.confidence_level, n_queries=self.n_queries,
                             with_anova=bool(self.anova))

    def effect_sizes(self, measure: str) -> pd.DataFrame:
        """System x system effect sizes ``(mean_i - mean_j) / sqrt(V_E)`` of one measure.

        V_E is the residual variance of the two-way ANOVA of the measure
        (Sakai 2018): one unit for every pair, whatever the test.
        """
        if measure not in self.anova:
            raise InputError(f"measure must be one of {list(self.anova)}; got {measure!r}")
        means = self.anova[measure].means
        diff = means.to_numpy()[:, None] - means.to_numpy()[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            es = diff / math.sqrt(self.anova[measure].residual_variance)
        return pd.DataFrame(es, index=means.index.copy(), columns=means.index.copy())

    def significance_matrix(self, measure: str) -> pd.DataFrame:
        """System x system matrix of one measure: ``"▲"``/``"▼"`` where the row system is
        significantly above/below the column system, ``""`` otherwise, ``"—"`` on the diagonal."""
        if measure not in self.per_query:
            raise InputError(f"measure must be one of {list(self.measures)}; got {measure!r}")
        out = pd.DataFrame("", index=list(self.systems), columns=list(self.systems))
        rows = self.pairwise[self.pairwise["measure"] == measure]
        for row in rows.itertuples():
            if row.significant:
                up = row.mean_difference > 0
                out.loc[row.system, row.other] = "▲" if up else "▼"
                out.loc[row.other, row.system] = "▼" if up else "▲"
        for s in self.systems:
            out.loc[s, s] = "—"
        return out

    @property
    def means(self) -> pd.DataFrame:
        """Mean scores, one row per system and one column per measure (the chapter's table).

        Examples
        --------
        >>> from reteval import compare
        >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}, "q3": {"d3": 1}}
        >>> runs = {"a": {"q1": ["d1"], "q2": ["d9", "d2"], "q3": ["d3"]},
        ...         "b": {"q1": ["d9", "d1"], "q2": ["d2"], "q3": ["d9"]}}
        >>> compare(qrels, runs, ["RR"], rng=0).means
        measure   RR
        system
        a       0.833333
        b       0.500000
        """
        wide = self.table.pivot(index="system", columns="measure", values="mean")
        return wide.loc[list(self.systems), list(self.measures)]

    @property
    def n_queries(self) -> int:
        """Number of queries every system was evaluated on."""
        return int(next(iter(self.per_query.values())).shape[0])

    def differences(self, measure: str, *, against: str | None = None) -> pd.DataFrame:
        """Per-query differences ``system - against`` for one measure.

        ``against`` defaults to the baseline (required when there is none).
        One column per other system, index ``query_id``.

        Examples
        --------
        >>> from reteval import compare
        >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}, "q3": {"d3": 1}}
        >>> runs = {"a": {"q1": ["d1"], "q2": ["d9", "d2"], "q3": ["d3"]},
        ...         "b": {"q1": ["d9", "d1"], "q2": ["d2"], "q3": ["d9"]}}
        >>> compare(qrels, runs, ["RR"], baseline="a", rng=0).differences("RR")
        system      b
        query_id
        q1       -0.5
        q2        0.5
        q3       -1.0
        """
        if measure not in self.per_query:
            raise InputError(f"measure must be one of {list(self.measures)}; got {measure!r}")
        against = self.baseline if against is None else against
        if against is None:
            raise InputError("differences needs against=<system> when the comparison has no "
                             "baseline")
        if against not in self.systems:
            raise InputError(f"against must be one of {list(self.systems)}; got {against!r}")
        frame = self.per_query[measure]
        others = [s for s in self.systems if s != against]
        return frame[others].sub(frame[against], axis=0)

    def _repr_html_(self) -> str:
        """A compact table for Jupyter: mean [interval] per system and measure, with marks.

        ``▲``/``▼`` mark a significant difference (corrected p-value <= alpha)
        above/below the baseline; ``●`` marks the best system of a measure when
        it is significantly better than the runner-up. Without a baseline only
        the best-system marks are shown (every pair is in ``pairwise``).
        """
        import html

        level = f"{self.confidence_level:.0%}"
        head = "".join(f"<th>{html.escape(m)}</th>" for m in self.measures)
        rows = []
        table = self.table.set_index(["measure", "system"])
        for system in self.systems:
            cells = []
            for measure in self.measures:
                row = table.loc[(measure, system)]
                cell = (f"{row['mean']:.4f} <small>[{row['ci_low']:.3f}, "
                        f"{row['ci_high']:.3f}]</small>")
                significant = row["significant"]
                if system != self.baseline and pd.notna(significant) and bool(significant):
                    cell += " ▲" if row["mean_difference"] > 0 else " ▼"
                best = self.best.loc[measure]
                if best["system"] == system and best["status"] == "significant":
                    cell += " ●"
                cells.append(f"<td>{cell}</td>")
            name = html.escape(system) + (" <small>(baseline)</small>"
                                          if system == self.baseline else "")
            rows.append(f"<tr><th>{name}</th>{''.join(cells)}</tr>")
        marks = (f"▲/▼ significantly above/below the baseline ({self.test} test, "
                 f"{self.correction} correction, alpha {self.alpha:g}); "
                 if self.baseline is not None else "")
        caption = (f"{self.n_queries} queries; mean [{level} bootstrap interval]; {marks}"
                   "● best, significantly ahead of the runner-up")
        return (f"<table><caption>{html.escape(caption)}</caption>"
                f"<thead><tr><th>system</th>{head}</tr></thead>"
                f"<tbody>{''.join(rows)}</tbody></table>")


