"""``compare``: evaluate several systems on the same queries and test their differences.

The chapter's ``compare_retrievers`` ranks systems by their mean scores. A
higher mean on a few dozen queries can be luck; :func:`compare` says how much
of it is. For every measure it reports each system's mean with a bootstrap
confidence interval, runs a paired significance test (see
:mod:`reteval.stats`) for every comparison -- each system against the
``baseline``, or every pair of systems when there is none -- and corrects the
p-values for multiple comparisons.

The family of a correction is *one measure*: with ``k`` systems it holds the
``k - 1`` comparisons against the baseline, or the ``k (k - 1) / 2`` pairs.
Measures are corrected separately because each answers its own question
(precision at 5 and recall at 100 are not interchangeable tests of one
hypothesis); correct across measures yourself with
:func:`reteval.stats.adjust_pvalues` on ``comparison.pairwise["pvalue"]`` if
you will pick the measure after seeing the results.

``test="tukey"`` asks another question: with three or more systems, which
pairs differ when *all* pairs are judged together? Tukey's HSD (randomised,
Carterette's version; ``"tukey-studentized"`` for the studentized range
distribution) controls the family-wise error of every pair at once, so no
correction is applied on top of it; with a baseline its table reports the
baseline's pairs of that all-pairs family. Whatever the test, every measure
with three or more systems also gets the two-way ANOVA (``Comparison.anova``:
is there any difference at all?) and the effect sizes
``(mean_i - mean_j) / sqrt(V_E)`` of Sakai (2018), and
:meth:`Comparison.summary` says which procedure answered which question.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from reteval._util.progress import progress
from reteval._util.validation import check_n_resamples, check_rng
from reteval.errors import InputError
from reteval.evaluation.compare_arrays import summary_lines
from reteval.evaluation.engine import evaluate
from reteval.stats import (
    TESTS,
    AnovaResult,
    PairedTestResult,
    TukeyHSDResult,
    adjust_pvalues,
    anova,
    bootstrap_mean_ci,
    canonical_correction,
    pairwise_tests,
    tukey_hsd_measures,
)

__all__ = ["COMPARE_TESTS", "Comparison", "compare", "compare_scores"]

_TIE_RTOL = 1e-12

#: Tests of :func:`compare`: the paired tests of :data:`reteval.stats.TESTS` and Tukey's HSD.
COMPARE_TESTS: dict[str, str] = {
    **TESTS, "randomised": "randomization", "randomized": "randomization",
    "tukey": "tukey", "tukey-randomised": "tukey", "tukey-randomized": "tukey",
    "tukey-studentized": "tukey-studentized",
}


@dataclass(frozen=True)
class Comparison:
    """The result of :func:`compare`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per (measure, system), in the order given: ``measure``,
        ``system``, ``mean``, ``ci_low``, ``ci_high`` (percentile bootstrap
        interval of the mean), ``n_queries``, and the comparison with the
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
        ``significant`` (``pvalue_corrected <= alpha``).
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
        system), for every measure when there are at least 2 systems and 2 queries.
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
        >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
        >>> runs = {"short": {"q1": ["d1"], "q2": ["d2"]},
        ...         "long": {"q1": ["d9", "d8", "d1"], "q2": ["d2", "d7", "d6"]}}
        >>> c = compare(qrels, runs, ["P@1", "P@3", "AP"], rng=0)
        >>> [c.depth_sensitive(m) for m in c.measures]
        [False, True, True]
        """
        if self.retrieved is None:
            return False
        from reteval.evaluation.measures import parse_measure

        cutoff = parse_measure(measure).cutoff
        counts = self.retrieved.to_numpy(dtype=float)
        if cutoff is not None:
            counts = np.minimum(counts, float(cutoff))
        return bool((counts.min(axis=1) < counts.max(axis=1)).any())

    def summary(self) -> list[str]:
        """Which procedure answered which question, one sentence each (in English).

        Examples
        --------
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


# --------------------------------------------------------------------------- inputs


def _is_retriever(obj) -> bool:
    if isinstance(obj, (str, os.PathLike, Mapping, pd.DataFrame)):
        return False
    return callable(getattr(obj, "run", None)) or callable(obj)


def _evaluate_system(qrels, name, obj, measure_names, queries, relevance_level, missing):
    """Per-query values of one system: a run, or a retriever asked for ``queries``."""
    if _is_retriever(obj):
        if queries is None:
            raise InputError(
                f"runs[{name!r}] is a retriever; pass queries={{query_id: text}} to run it"
            )
        from reteval.retrievers.contract import as_retriever

        obj = as_retriever(obj, name=name)(queries)
    return evaluate(qrels, obj, measure_names, relevance_level=relevance_level, missing=missing)


def _check_options(runs, baseline, test, correction, alpha, confidence_level):
    if not isinstance(runs, Mapping) or not runs:
        raise InputError(
            "runs must be a non-empty mapping system name -> run or retriever; "
            f"got {type(runs).__name__ if not isinstance(runs, Mapping) else 'an empty mapping'}"
        )
    for name in runs:
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"system names (the keys of runs) must be non-empty str; got {name!r}")
    if baseline is not None and baseline not in runs:
        raise InputError(f"baseline must be one of the systems {list(runs)}; got {baseline!r}")
    if not isinstance(test, str) or test.lower() not in COMPARE_TESTS:
        raise InputError(f"test must be one of {sorted(COMPARE_TESTS)}; got {test!r}")
    correction = canonical_correction(correction)
    for value, label in ((alpha, "alpha"), (confidence_level, "confidence_level")):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
            raise InputError(f"{label} must be a number strictly between 0 and 1; got {value!r}")
    return COMPARE_TESTS[test.lower()], correction


# --------------------------------------------------------------------------- compare


def compare(qrels, runs, measures, *, baseline: str | None = None, test: str = "t",
            correction: str = "holm", alpha: float = 0.05, queries=None, rng=None,
            confidence_level: float = 0.95, n_resamples: int = 10_000,
            relevance_level: int = 1, missing: str = "zero") -> Comparison:
    """Evaluate several systems on the same queries and test their differences.

    Parameters
    ----------
    qrels : path, DataFrame or mapping
        Relevance judgments, anything :func:`reteval.evaluate` accepts.
    runs : mapping of str to run or retriever
        System name -> one of

        * a run, anything :func:`reteval.evaluate` accepts (path, DataFrame,
          ``{query_id: {doc_id: score}}``, ``{query_id: [doc ids]}``);
        * a retriever, as :func:`reteval.retrievers.as_retriever` defines it:
          an object with a method ``run(queries)`` (every retriever in
          :mod:`reteval.retrievers`) or a callable ``f(queries) -> run``, with
          ``queries`` the mapping ``{query_id: text}``. Adapt a per-query
          function ``text -> [(doc_id, score), ...]`` with
          ``as_retriever(fn, per_query=True)``, a LangChain-style ``.invoke``
          retriever with :func:`reteval.retrievers.from_invoke`.

        Retrievers need ``queries``. The mapping's order is the order of
        systems in every table and figure.
    measures : str or sequence of str
        Measure names, e.g. ``["P@5", "RR", "nDCG@10"]``.
    baseline : str, optional, keyword-only
        Compare every other system with this one. Default: every pair.
    test : str, keyword-only
        ``"t"`` (paired t, default), ``"wilcoxon"``, ``"randomization"``
        (aliases ``"fisher"``, ``"randomised"``) or ``"bootstrap"``; see
        :mod:`reteval.stats`. Or ``"tukey"``: Tukey's HSD of all pairs, the
        randomised version (``"tukey-studentized"``: the studentized range
        distribution), which needs no correction (``correction`` is then ignored
        and recorded as ``"none"``). Its rounds serve every measure: each round
        permutes each query's systems once, and every measure follows
        (:func:`reteval.stats.tukey_hsd_measures`).
    correction : str, keyword-only
        ``"holm"`` (default), ``"bonferroni"``, ``"bh"`` or ``"none"``,
        applied per measure (see the module docstring).
    alpha : float, keyword-only
        Significance level for the ``significant`` flags (default 0.05).
    queries : mapping query_id -> text, optional, keyword-only
        The query set for retrievers.
    rng : numpy.random.Generator, int or None, keyword-only
        Randomness for the bootstrap intervals and the Monte Carlo tests.
    confidence_level : float, keyword-only
        Level of every interval (default 0.95).
    n_resamples : int, keyword-only
        Rounds for bootstrap intervals and Monte Carlo tests (default 10,000).
    relevance_level, missing : keyword-only
        Passed to :func:`reteval.evaluate`. With ``missing="skip"`` the
        comparison keeps the queries that every system answered.

    Returns
    -------
    Comparison

    Raises
    ------
    InputError
        Bad options, an unknown baseline, retrievers without ``queries``,
        or no query common to all systems.

    Examples
    --------
    >>> qrels = {f"q{i}": {f"d{i}": 1} for i in range(1, 6)}
    >>> runs = {
    ...     "bm25": {"q1": ["d1", "d9"], "q2": ["d9", "d2"], "q3": ["d3"],
    ...              "q4": ["d9", "d4"], "q5": ["d5"]},
    ...     "dense": {"q1": ["d9", "d1"], "q2": ["d2"], "q3": ["d9", "d3"],
    ...               "q4": ["d9"], "q5": ["d8", "d5"]},
    ... }
    >>> result = compare(qrels, runs, ["P@1", "RR"], baseline="bm25", rng=0)
    >>> result.table[["measure", "system", "mean", "pvalue"]].round(4)
      measure system  mean  pvalue
    0     P@1   bm25   0.6     NaN
    1     P@1  dense   0.2  0.3739
    2      RR   bm25   0.8     NaN
    3      RR  dense   0.5  0.2080
    >>> result.best.loc["RR", ["system", "runner_up", "status"]].tolist()
    ['bm25', 'dense', 'not significant']
    """
    test_name, correction_name = _check_options(runs, baseline, test, correction, alpha,
                                                confidence_level)
    n_resamples = check_n_resamples(n_resamples)
    gen = check_rng(rng)
    systems = tuple(runs)
    if isinstance(measures, str):
        measure_names = [measures]
    elif (hasattr(measures, "__iter__") and not isinstance(measures, (bytes, dict))
          and all(isinstance(m, str) for m in measures)):
        measure_names = list(measures)
    else:
        raise InputError("measures must be a measure name or a list of names, e.g. "
                         f"['P@5', 'RR']; got {measures!r:.80}")
    if not measure_names:
        raise InputError("measures must name at least one measure; got an empty list")
    if len(set(measure_names)) != len(measure_names):
        raise InputError(f"measures must be distinct; got {measure_names!r}")

    # evaluate every system (and count the documents each returned) -----------------------------
    from reteval.evaluation.measures import parse_measure

    def canonical(name):
        try:
            return str(parse_measure(name))
        except InputError:  # a name that expands (trec_eval's "P"), checked by evaluate below
            return name

    extra = [] if "NumRet" in {canonical(m) for m in measure_names} else ["NumRet"]
    frames = {name: _evaluate_system(qrels, name, runs[name], measure_names + extra, queries,
                                     relevance_level, missing)
              for name in progress(systems, desc="evaluating", unit="system")}
    common = frames[systems[0]].index
    for name in systems[1:]:
        common = common.intersection(frames[name].index, sort=False)
    if len(common) == 0:
        raise InputError("no query was evaluated for every system; nothing to compare")
    common = common.sort_values()
    measures_t = tuple(c for c in frames[systems[0]].columns if c not in extra)
    numret = next(c for c in frames[systems[0]].columns if canonical(c) == "NumRet")
    retrieved = pd.DataFrame({s: frames[s].loc[common, numret].to_numpy() for s in systems},
                             index=pd.Index(common, name="query_id"))
    retrieved.columns.name = "system"
    per_query = {}
    for m in measures_t:
        frame = pd.DataFrame({s: frames[s].loc[common, m].to_numpy() for s in systems},
                             index=pd.Index(common, name="query_id"))
        frame.columns.name = "system"
        per_query[m] = frame

    return _compare_frames(per_query, systems, measures_t, baseline, test_name, correction_name,
                           alpha, confidence_level, n_resamples, gen, retrieved=retrieved)


def compare_scores(per_query, *, baseline: str | None = None, test: str = "t",
                   correction: str = "holm", alpha: float = 0.05, rng=None,
                   confidence_level: float = 0.95, n_resamples: int = 10_000) -> Comparison:
    """:func:`compare` on per-query scores already computed.

    Parameters
    ----------
    per_query : mapping of str to pandas.DataFrame
        Measure -> per-query scores, one row per query and one column per
        system; every frame must have the same queries and the same systems
        (the ``per_query`` of a :class:`Comparison`, or frames assembled from
        :func:`reteval.evaluate` results).
    baseline, test, correction, alpha, rng, confidence_level, n_resamples
        As for :func:`compare`.

    Returns
    -------
    Comparison

    Examples
    --------
    >>> import pandas as pd
    >>> rr = pd.DataFrame({"a": [1.0, 0.5, 1.0], "b": [0.5, 1.0, 0.0]},
    ...                   index=pd.Index(["q1", "q2", "q3"], name="query_id"))
    >>> compare_scores({"RR": rr}, rng=0).means
    measure   RR
    system
    a       0.833333
    b       0.500000
    """
    if not isinstance(per_query, Mapping) or not per_query:
        raise InputError("per_query must be a non-empty mapping measure -> DataFrame")
    frames = {}
    first = None
    for m, frame in per_query.items():
        if not isinstance(frame, pd.DataFrame):
            raise InputError(f"per_query[{m!r}] must be a DataFrame (queries x systems); got "
                             f"{type(frame).__name__}")
        if first is None:
            first = frame
        elif list(frame.columns) != list(first.columns) or not frame.index.equals(first.index):
            raise InputError(f"per_query[{m!r}] must have the same queries and systems as "
                             f"per_query[{next(iter(per_query))!r}]")
        frames[m] = frame
    runs = {str(c): None for c in first.columns}
    if len(runs) != first.shape[1]:
        raise InputError(f"system names must be distinct; got {list(first.columns)!r}")
    test_name, correction_name = _check_options(runs, baseline, test, correction, alpha,
                                                confidence_level)
    if len(first.index) == 0:
        raise InputError("per_query holds no query; nothing to compare")
    n_resamples = check_n_resamples(n_resamples)
    gen = check_rng(rng)
    systems = tuple(runs)
    clean = {}
    for m, frame in frames.items():
        frame = frame.set_axis(list(systems), axis=1).astype(float)
        frame.columns.name = "system"
        if frame.isna().to_numpy().any():
            q, s = next((q, s) for q in frame.index for s in systems if pd.isna(frame.at[q, s]))
            raise InputError(f"per_query[{m!r}]: system {s!r} has no score for query {q!r}")
        clean[m] = frame
    return _compare_frames(clean, systems, tuple(clean), baseline, test_name, correction_name,
                           alpha, confidence_level, n_resamples, gen)


def _compare_frames(per_query, systems, measures_t, baseline, test_name, correction_name,
                    alpha, confidence_level, n_resamples, gen, retrieved=None) -> Comparison:
    """The statistics of :func:`compare`, on per-query frames (queries x systems)."""
    n_q = next(iter(per_query.values())).shape[0]
    # intervals of the means: one bootstrap for every measure and system -----------------------
    stacked = np.vstack([per_query[m].to_numpy().T for m in measures_t])  # (M*S, n_q)
    ci = bootstrap_mean_ci(stacked, confidence_level=confidence_level, n_resamples=n_resamples,
                           rng=gen)
    ci_low = ci.low.reshape(len(measures_t), len(systems))
    ci_high = ci.high.reshape(len(measures_t), len(systems))

    # tests -------------------------------------------------------------------------------------
    if baseline is not None:
        pairs = [(s, baseline) for s in systems if s != baseline]
    else:
        pairs = [(systems[i], systems[j]) for i in range(len(systems))
                 for j in range(i + 1, len(systems))]
    tests: dict[tuple[str, str, str], PairedTestResult] = {}
    anovas: dict[str, AnovaResult] = {}
    tukeys: dict[str, TukeyHSDResult] = {}
    is_tukey = test_name.startswith("tukey")
    testable = len(systems) >= 2 and n_q >= 2
    if is_tukey:
        correction_name = "none"  # Tukey's HSD controls the family itself
        if testable:  # every measure on the same rounds: the runs change places as a whole
            tukeys = tukey_hsd_measures(
                {m: per_query[m] for m in measures_t}, n_resamples=n_resamples, rng=gen,
                method="studentized" if test_name == "tukey-studentized" else "randomised")
    pair_rows = []
    table_rows = []
    best_rows = []
    for mi, m in enumerate(progress(measures_t, desc=f"{test_name} tests", unit="measure")):
        matrix = per_query[m].to_numpy().T
        col_means = {s: float(per_query[m][s].mean()) for s in systems}
        results = {}
        family = None
        if testable:
            anovas[m] = anova(per_query[m])
        if is_tukey and testable:
            hsd = tukeys[m]
            pos = {s: k for k, s in enumerate(systems)}
            p_matrix = hsd.pvalue.to_numpy()
            raw = np.array([p_matrix[pos[a], pos[b]] for a, b in pairs])
            adjusted = raw
            family = {(a, b): float(p_matrix[pos[a], pos[b]]) for a in systems
                      for b in systems if a != b}
            t_low, t_high = (f.to_numpy() for f in hsd.confidence_interval(confidence_level))
            t_es, t_q = hsd.effect_size.to_numpy(), hsd.statistic.to_numpy()
        elif not is_tukey and pairs and n_q >= 2:
            results = pairwise_tests(matrix, test=test_name, names=list(systems), pairs=pairs,
                                     n_resamples=n_resamples, rng=gen)
            raw = np.array([results[p].pvalue for p in pairs])
            adjusted = adjust_pvalues(raw, method=correction_name) if len(raw) else raw
        else:
            raw = np.full(len(pairs), math.nan)
            adjusted = raw
        vs_base = {}
        for (s, o), p_raw, p_adj in zip(pairs, raw, adjusted, strict=True):
            res = results.get((s, o))
            low, high = res.confidence_interval(confidence_level) if res else (math.nan, math.nan)
            effect = res.effect_size if res else math.nan
            statistic = res.statistic if res else math.nan
            if m in tukeys:
                i, j = pos[s], pos[o]
                low, high = float(t_low[i, j]), float(t_high[i, j])
                effect, statistic = float(t_es[i, j]), float(t_q[i, j])
            diff = float(col_means[s] - col_means[o])
            significant = bool(p_adj <= alpha) if not math.isnan(p_adj) else False
            if res is not None:
                tests[m, s, o] = res
            pair_rows.append({
                "measure": m, "system": s, "other": o, "mean_difference": diff,
                "ci_low": low, "ci_high": high, "effect_size": effect, "statistic": statistic,
                "pvalue": p_raw, "pvalue_corrected": p_adj, "significant": significant,
            })
            if baseline is not None:
                vs_base[s] = (diff, p_raw, p_adj, significant)
        for si, s in enumerate(systems):
            diff, p_raw, p_adj, sig = vs_base.get(s, (math.nan, math.nan, math.nan, pd.NA))
            table_rows.append({
                "measure": m, "system": s, "mean": col_means[s],
                "ci_low": float(ci_low[mi, si]), "ci_high": float(ci_high[mi, si]),
                "n_queries": n_q, "mean_difference": diff, "pvalue": p_raw,
                "pvalue_corrected": p_adj, "significant": sig,
            })
        best_rows.append(_best_row(m, per_query[m], systems, tests,
                                   family or dict(zip(pairs, adjusted, strict=True)),
                                   test_name, alpha, n_resamples, gen))

    table = pd.DataFrame(table_rows)
    table["significant"] = table["significant"].astype("boolean")
    pairwise = pd.DataFrame(pair_rows, columns=[
        "measure", "system", "other", "mean_difference", "ci_low", "ci_high", "effect_size",
        "statistic", "pvalue", "pvalue_corrected", "significant"])
    pairwise["significant"] = pairwise["significant"].astype(bool)
    best = pd.DataFrame(best_rows).set_index("measure")
    return Comparison(
        table=table,
        pairwise=pairwise,
        best=best,
        per_query=per_query,
        tests=tests,
        measures=measures_t,
        systems=systems,
        baseline=baseline,
        test=test_name,
        correction=correction_name,
        alpha=float(alpha),
        confidence_level=float(confidence_level),
        n_resamples=int(n_resamples),
        retrieved=retrieved,
        anova=anovas,
        tukey=tukeys,
    )


def _best_row(measure, frame, systems, tests, adjusted, test_name, alpha, n_resamples, gen):
    """Best system of one measure and whether it beats the runner-up significantly.

    Ties: systems whose means are equal (relative tolerance 1e-12) to the
    highest share first place; the status is then ``"tie"``, whatever the
    test says. Otherwise the runner-up is the system with the next highest
    mean (the first listed among equals), and best versus runner-up is looked
    up in the corrected family, or else tested on its own (uncorrected).
    """
    means = frame.mean()
    order = sorted(range(len(systems)), key=lambda k: -means.iloc[k])  # stable: ties keep order
    top = systems[order[0]]
    top_mean = float(means[top])
    tol = _TIE_RTOL * max(1.0, abs(top_mean))
    tied = tuple(s for s in systems if s != top and abs(float(means[s]) - top_mean) <= tol)
    row = {"measure": measure, "system": top, "mean": top_mean, "tied_with": tied,
           "runner_up": None, "runner_up_mean": math.nan, "pvalue": math.nan,
           "pvalue_corrected": math.nan, "in_family": False, "significant": False,
           "status": "single"}
    if len(systems) == 1:
        return row
    runner = tied[0] if tied else systems[order[1]]
    row["runner_up"] = runner
    row["runner_up_mean"] = float(means[runner])
    if (top, runner) in adjusted or (runner, top) in adjusted:
        key = (top, runner) if (top, runner) in adjusted else (runner, top)
        res = tests.get((measure, *key))
        row["pvalue"] = res.pvalue if res is not None else float(adjusted[key])
        row["pvalue_corrected"] = float(adjusted[key])
        row["in_family"] = True
    elif frame.shape[0] >= 2:
        res = pairwise_tests(frame[[top, runner]].to_numpy().T, test=test_name,
                             names=[top, runner], n_resamples=n_resamples, rng=gen)[top, runner]
        row["pvalue"] = res.pvalue
        row["pvalue_corrected"] = res.pvalue
    p = row["pvalue_corrected"]
    if tied:
        row["status"] = "tie"
    else:
        row["significant"] = bool(not math.isnan(p) and p <= alpha)
        row["status"] = "significant" if row["significant"] else "not significant"
    return row
