"""The comparison of systems on per-query scores, as numpy arrays.

One computation serves :func:`reteval.compare`, :func:`~reteval.comparison.compare_scores`
and ``reteval compare``: :func:`compare_arrays` checks the options, then tests the
systems of every measure (Tukey's HSD of all pairs, or a paired test per pair with a
correction) and computes each measure's two-way ANOVA once. It draws its random numbers
first, in the order :func:`reteval.stats.tukey_hsd_measures` and
:func:`reteval.stats.pairwise_tests` draw them, so a seed gives the same p-values here as
there. :class:`~reteval.comparison.Comparison` wraps the result in tables (and adds the
bootstrap intervals of the means and the best system, drawn after); the command line prints
it as it is, loading neither pandas nor scipy.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from reteval._util.validation import check_n_resamples, check_probability, check_rng
from reteval.errors import InputError
from reteval.evaluation.columns import GEOMETRIC_FLOOR
from reteval.stats.arrays import (
    anova_numbers,
    randomised_ranges,
    system_means,
    tukey_arrays,
    tukey_critical_difference,
)
from reteval.stats.corrections import adjust_pvalues, canonical_correction
from reteval.stats.pairwise import TESTS, pairwise_tests
from reteval.stats.results import AnovaResult

__all__ = ["COMPARE_TESTS", "NO_ANOVA_TEST", "ONE_QUERY", "ComparisonNumbers",
           "aggregates", "aggregation_of", "check_options", "common_scores", "compare_arrays",
           "compared_values", "measure_of", "summary_lines"]

#: Tests of :func:`reteval.compare`: the paired tests of :data:`reteval.stats.TESTS` and
#: Tukey's HSD.
COMPARE_TESTS: dict[str, str] = {
    **TESTS, "randomised": "randomization", "randomized": "randomization",
    "tukey": "tukey", "tukey-randomised": "tukey", "tukey-randomized": "tukey",
    "tukey-studentized": "tukey-studentized",
}


@dataclass(frozen=True)
class ComparisonNumbers:
    """The comparison of :func:`compare_arrays`, as plain numbers.

    Attributes
    ----------
    systems, measures, queries : tuple
    baseline : str or None
    test, correction : str
        Canonical names; the correction is ``"none"`` with Tukey's HSD.
    alpha, confidence_level : float
    n_resamples : int
    scores : dict
        Measure -> per-query scores, ``(n_queries, n_systems)`` float arrays.
    means : dict
        Measure -> system -> the measure's own aggregate of the per-query scores, as
        trec_eval prints it for ``all`` (:func:`reteval.evaluation.engine.summarize`):
        the mean, the geometric mean with trec_eval's floor of 0.00001 for ``GMAP``
        and ``GMBpref``, the sum for the counts.
    aggregation : dict
        Measure -> ``"mean"``, ``"gmean"``, ``"sum"`` or ``"queries"``; names that are
        not measures (:func:`compare_scores`'s own columns) are averaged.
    anova : dict
        Measure -> :class:`reteval.stats.AnovaResult` (with at least 2 systems and 2 queries),
        its ``means`` a numpy array; ``note`` is empty, or says why there is no F test
        (``statistic`` and ``pvalue`` NaN): with no residual variance (a system and an
        exact copy of itself) there is nothing to test the systems against.
    pairs : list of dict
        The tested pairs, as the rows of ``Comparison.pairwise``: ``measure``,
        ``system``, ``other``, ``mean_difference`` (of the aggregates), ``ci_low``,
        ``ci_high``, ``effect_size``, ``statistic``, ``pvalue``, ``pvalue_corrected``,
        ``significant``, and ``tested_difference``: the mean per-query difference of
        the values tested (``log(max(x, 0.00001))`` for a geometric mean, the scores
        otherwise), the unit of the interval and effect size.
    tests : dict
        ``(measure, system, other)`` -> :class:`reteval.stats.PairedTestResult`.
    tukey : dict
        Measure -> :func:`reteval.stats.arrays.tukey_arrays` of it (Tukey's HSD only).
    parsed : dict
        Measure label -> its :class:`reteval.measures.Measure`, parsed once (labels that
        name no measure, :func:`compare_scores`' own columns, are absent).
    """

    systems: tuple
    measures: tuple
    queries: tuple
    baseline: str | None
    test: str
    correction: str
    alpha: float
    confidence_level: float
    n_resamples: int
    scores: dict = field(repr=False)
    means: dict = field(repr=False)
    aggregation: dict = field(repr=False)
    anova: dict = field(repr=False)
    pairs: list = field(repr=False)
    tests: dict = field(repr=False)
    tukey: dict = field(repr=False)
    parsed: dict = field(default_factory=dict, repr=False)

    @property
    def n_queries(self) -> int:
        """Number of queries every system was evaluated on."""
        return len(self.queries)

    def summary(self) -> list[str]:
        """Which procedure answered which question (:func:`summary_lines`)."""
        return summary_lines(test=self.test, baseline=self.baseline,
                             n_systems=len(self.systems), alpha=self.alpha,
                             correction=self.correction,
                             confidence_level=self.confidence_level,
                             n_queries=self.n_queries, with_anova=bool(self.anova))


def summary_lines(*, test: str, baseline: str | None, n_systems: int, alpha: float,
                  correction: str, confidence_level: float, n_queries: int,
                  with_anova: bool) -> list[str]:
    """Which procedure answered which question, one sentence each (in English).

    Examples
    --------
    >>> lines = summary_lines(test="t", baseline="bm25", n_systems=3, alpha=0.05,
    ...                       correction="holm", confidence_level=0.95, n_queries=50,
    ...                       with_anova=True)
    >>> for line in lines:
    ...     print(line.split("? ")[0])
    Do the systems differ at all
    Which pairs differ
    How large are the differences
    How precise is each mean
    >>> lines[1].split("? ")[1]
    'Paired t test of each system against bm25, holm correction over the 2 tests of a measure.'
    """
    lines = []
    k = n_systems
    if with_anova:
        lines.append("Do the systems differ at all? Two-way ANOVA (topic x system), one F test "
                     "per measure.")
    n_pairs = k * (k - 1) // 2
    if test.startswith("tukey"):
        kind = "Randomised Tukey HSD" if test == "tukey" else "Tukey HSD (studentized range)"
        which = "Which pairs differ?" if baseline is None else (
            f"Which systems differ from {baseline}?")
        lines.append(f"{which} {kind} over all {n_pairs} pairs (family-wise error at most "
                     f"{alpha:g}; no further correction).")
        lines.append("How large are the differences? Effect sizes (mean_i - mean_j) / "
                     "sqrt(V_E) of the two-way ANOVA, with simultaneous intervals.")
    else:
        n_tests = k - 1 if baseline is not None else n_pairs
        what = f"each system against {baseline}" if baseline is not None else "every pair"
        corr = ("no correction" if correction == "none"
                else f"{correction} correction over the {n_tests} tests of a measure")
        lines.append(f"Which pairs differ? Paired {test} test of {what}, {corr}.")
        sizes = "Cohen's d_z of the differences"
        if with_anova:
            sizes += "; (mean_i - mean_j) / sqrt(V_E) in Comparison.anova"
        lines.append(f"How large are the differences? {sizes}.")
    lines.append(f"How precise is each mean? {confidence_level:.0%} percentile bootstrap "
                 f"interval over the {n_queries} queries.")
    return lines


def check_options(systems, baseline, test, correction, alpha,
                  confidence_level) -> tuple[str, str]:
    """Check the systems' names and the options of a comparison.

    Returns the canonical test and correction (see :data:`COMPARE_TESTS`,
    :data:`reteval.stats.CORRECTIONS`), or raises :class:`~reteval.errors.InputError`.

    Examples
    --------
    >>> check_options(["a", "b"], None, "Randomised", "FDR_BH", 0.05, 0.95)
    ('randomization', 'bh')
    """
    systems = list(systems)
    for name in systems:
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"system names (the keys of runs) must be non-empty str; got {name!r}")
    if len(set(systems)) != len(systems):
        raise InputError(f"system names must be distinct; got {systems!r}")
    if baseline is not None and baseline not in systems:
        raise InputError(f"baseline must be one of the systems {systems}; got {baseline!r}")
    if not isinstance(test, str) or test.lower() not in COMPARE_TESTS:
        raise InputError(f"test must be one of {sorted(COMPARE_TESTS)}; got {test!r}")
    correction = canonical_correction(correction)
    for value, label in ((alpha, "alpha"), (confidence_level, "confidence_level")):
        check_probability(value, label)
    return COMPARE_TESTS[test.lower()], correction


def common_scores(evaluated: Mapping, names) -> tuple[list, dict]:
    """The queries every system was evaluated on, sorted, and per column their scores.

    ``evaluated`` is :func:`reteval.evaluation.columns.evaluate_runs`'s result; returns
    the query ids and ``{column: (n_queries, n_systems) array}``, systems in the order
    of ``names``.

    Examples
    --------
    >>> evaluated = {"a": (["q2", "q1"], {"RR": [0.5, 1.0]}), "b": (["q1"], {"RR": [0.2]})}
    >>> queries, scores = common_scores(evaluated, ["a", "b"])
    >>> queries, scores["RR"].tolist()
    (['q1'], [[1.0, 0.2]])
    """
    present: set | None = None
    for name in names:
        found = set(evaluated[name][0])
        present = found if present is None else present & found
    common = sorted(present or ())
    if not common:
        raise InputError("no query was evaluated for every system; nothing to compare")
    rows: dict[str, np.ndarray | None] = {}
    for name in names:
        ids = list(evaluated[name][0])
        if ids == common:
            rows[name] = None
        else:
            where = {q: i for i, q in enumerate(ids)}
            rows[name] = np.array([where[q] for q in common], dtype=np.intp)
    scores: dict[str, np.ndarray] = {}
    for column in evaluated[names[0]][1]:
        matrix = np.empty((len(common), len(names)))
        for j, name in enumerate(names):
            values = np.asarray(evaluated[name][1][column], dtype=float)
            row = rows[name]
            matrix[:, j] = values if row is None else values[row]
        scores[column] = matrix
    return common, scores


#: Why a comparison of one query is refused (the API and ``reteval compare`` say the same).
ONE_QUERY = ("a paired test needs at least 2 queries common to every system; got {n} (an "
             "interval or an effect size of one query is undefined)")

#: Why a measure's two-way ANOVA has no F test, when :mod:`reteval.stats` gives none.
NO_ANOVA_TEST = ("no residual variance: each system's scores differ from another's by the same "
                 "amount on every query (a system and an exact copy of itself), so there is "
                 "no F test")

def measure_of(label):
    """The :class:`reteval.measures.Measure` a column label names, or None when it names none
    (or several: trec_eval's ``P``).

    Examples
    --------
    >>> measure_of("gm_map"), measure_of("my score")
    (Measure(family='GMAP'), None)
    """
    from reteval.measures import parse_measure

    try:
        return parse_measure(label)
    except InputError:
        return None


def aggregation_of(measure) -> str:
    """How ``measure``'s per-query values make one number: ``"mean"``, ``"gmean"``, ``"sum"``
    or ``"queries"`` (:func:`reteval.measures.names.aggregation`); ``"mean"`` for a column
    that names no measure.

    Examples
    --------
    >>> aggregation_of("gm_map"), aggregation_of("AP"), aggregation_of("my score")
    ('gmean', 'mean', 'mean')
    """
    parsed = measure_of(measure)
    return "mean" if parsed is None else parsed.spec.aggregate


def compared_values(x, how: str):
    """The values a test compares: ``log(max(x, 0.00001))`` for a geometric mean (a
    difference of their means is the logarithm of the ratio of the geometric means, as
    trec_eval averages them), the scores otherwise.

    Examples
    --------
    >>> compared_values(np.array([[1.0, 0.0]]), "gmean").round(4).tolist()
    [[0.0, -11.5129]]
    """
    x = np.asarray(x, dtype=np.float64)
    return np.log(np.maximum(x, GEOMETRIC_FLOOR)) if how == "gmean" else x


def aggregates(x, systems, how: str) -> dict:
    """System -> the measure's own aggregate of its column of ``x`` (queries x systems),
    made as ``how`` says (:func:`reteval.evaluation.engine.aggregate_values`).

    Examples
    --------
    >>> means = aggregates(np.array([[0.1, 0.5], [0.001, 0.5]]), ["a", "b"], "gmean")
    >>> {s: round(v, 12) for s, v in means.items()}
    {'a': 0.01, 'b': 0.5}
    """
    n_q = x.shape[0]
    if how == "mean":  # each column summed alone, then divided, as a table's column mean is
        return {s: float(x[:, j].sum() / n_q) for j, s in enumerate(systems)}
    from reteval.evaluation.engine import aggregate_values

    return {s: aggregate_values(x[:, j], how) for j, s in enumerate(systems)}


def _anova(x) -> AnovaResult:
    """The ANOVA of ``x``, with NaN F tests and a note when it has no residual variance."""
    n, m = x.shape
    try:
        numbers = anova_numbers(x)
    except (InputError, ValueError, ZeroDivisionError) as exc:
        nan = math.nan
        return AnovaResult(nan, nan, m - 1, n - 1, (m - 1) * (n - 1), nan, nan, nan, 0.0,
                           nan, nan, system_means(x), n, m, note=str(exc))
    means = numbers.pop("system_means")
    note = numbers.pop("note", "")
    if not numbers["residual_variance"] > 0:
        note = note or NO_ANOVA_TEST
    if note:
        numbers.update(statistic=math.nan, pvalue=math.nan, topic_statistic=math.nan,
                       topic_pvalue=math.nan)
    return AnovaResult(**numbers, means=means, note=note)


def _checked_queries(matrices, systems, queries) -> tuple:
    """The queries' ids, once every matrix is ``(n_queries, n_systems)``, without NaN, and
    there are at least 2 queries to compare systems on."""
    first = next(iter(matrices.values()))
    n_q = first.shape[0] if first.ndim == 2 else 0
    if n_q == 0 or any(x.shape != (n_q, len(systems)) for x in matrices.values()):
        raise InputError("every measure's scores must be (n_queries, n_systems) arrays of the "
                         "same shape, with at least one query")
    queries = tuple(range(n_q)) if queries is None else tuple(queries)
    for m, x in matrices.items():
        bad = np.argwhere(np.isnan(x))
        if len(bad):
            raise InputError(f"per_query[{m!r}]: system {systems[bad[0][1]]!r} has no score for "
                             f"query {queries[bad[0][0]]!r}")
    if n_q < 2 and len(systems) >= 2:
        raise InputError(ONE_QUERY.format(n=n_q))
    return queries


def compare_arrays(scores: Mapping, systems, *, queries=None, baseline: str | None = None,
                   test: str = "t", correction: str = "holm", alpha: float = 0.05, rng=None,
                   confidence_level: float = 0.95, n_resamples: int = 10_000,
                   parsed: Mapping | None = None) -> ComparisonNumbers:
    """Test the systems of every measure: the numbers of :func:`reteval.compare`.

    Parameters
    ----------
    scores : mapping of str to array_like
        Measure -> per-query scores, ``(n_queries, n_systems)``, every measure on the
        same queries and systems, in the same order.
    systems : sequence of str
        The systems' names, in column order.
    queries : sequence, optional
        The queries' ids, in row order (default: 0, 1, ...).
    baseline, test, correction, alpha, rng, confidence_level, n_resamples
        As for :func:`reteval.compare`.
    parsed : mapping of str to Measure, optional
        The measure of each label of ``scores``, parsed already (by the evaluation); a
        label it lacks is parsed here, and one that names no measure is averaged.

    Returns
    -------
    ComparisonNumbers

    Examples
    --------
    >>> rr = np.array([[1.0, 0.5, 0.2], [0.5, 1.0, 0.1], [1.0, 0.0, 0.3], [0.9, 0.4, 0.2]])
    >>> numbers = compare_arrays({"RR": rr}, ["a", "b", "c"], test="tukey", rng=0,
    ...                          n_resamples=999)
    >>> numbers.means["RR"]["a"], numbers.anova["RR"].df_residual
    (0.85, 6)
    >>> [(p["system"], p["other"]) for p in numbers.pairs]
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    """
    systems = tuple(systems)
    test, correction = check_options(systems, baseline, test, correction, alpha,
                                     confidence_level)
    if not isinstance(scores, Mapping) or not scores:
        raise InputError("scores must be a non-empty mapping measure -> (queries x systems) "
                         "scores")
    n_resamples = check_n_resamples(n_resamples)
    gen = check_rng(rng)
    matrices = {m: np.asarray(x, dtype=np.float64) for m, x in scores.items()}
    measures = tuple(matrices)
    queries = _checked_queries(matrices, systems, queries)
    n_q = matrices[measures[0]].shape[0]
    if baseline is not None:
        pairs = [(s, baseline) for s in systems if s != baseline]
    else:
        pairs = [(systems[i], systems[j]) for i in range(len(systems))
                 for j in range(i + 1, len(systems))]
    is_tukey = test.startswith("tukey")
    testable = len(systems) >= 2 and n_q >= 2
    if is_tukey:
        correction = "none"  # Tukey's HSD controls the family itself
    given = parsed or {}
    found = {m: given[m] if m in given else measure_of(m) for m in measures}
    named = {m: measure for m, measure in found.items() if measure is not None}
    how = {m: named[m].spec.aggregate if m in named else "mean" for m in measures}
    tested = {m: compared_values(matrices[m], how[m]) for m in measures}
    ranges = None
    if is_tukey and testable and test == "tukey":
        # every measure on the same rounds: each query's systems change places as a whole
        ranges = randomised_ranges(np.stack([tested[m] for m in measures], axis=2),
                                   n_resamples, gen)
    pos = {s: k for k, s in enumerate(systems)}
    means, anovas, tukeys, tests, rows = {}, {}, {}, {}, []
    for k, m in enumerate(measures):
        x = tested[m]
        means[m] = aggregates(matrices[m], systems, how[m])
        # each column summed alone, then divided, as a table's column mean is
        tested_means = [float(x[:, j].sum() / n_q) for j in range(len(systems))]
        results = {}
        if testable:
            anovas[m] = _anova(x)
        if is_tukey and testable:
            method = "studentized" if test == "tukey-studentized" else "randomised"
            a = anovas[m]
            hsd = tukey_arrays(x, method=method, ranges=None if ranges is None else ranges[:, k],
                               residual_variance=a.residual_variance, df_residual=a.df_residual)
            tukeys[m] = hsd
            half = tukey_critical_difference(
                method, hsd["null_ranges"], residual_variance=a.residual_variance,
                n_topics=n_q, n_systems=len(systems), df_residual=a.df_residual,
                confidence_level=confidence_level)
            raw = np.array([hsd["pvalue"][pos[s], pos[o]] for s, o in pairs])
            adjusted = raw
        elif not is_tukey and pairs and n_q >= 2:
            results = pairwise_tests(x.T, test=test, names=list(systems), pairs=pairs,
                                     n_resamples=n_resamples, rng=gen)
            raw = np.array([results[p].pvalue for p in pairs])
            adjusted = adjust_pvalues(raw, method=correction) if len(raw) else raw
        else:
            raw = np.full(len(pairs), math.nan)
            adjusted = raw
        for (s, o), p_raw, p_adj in zip(pairs, raw, adjusted, strict=True):
            res = results.get((s, o))
            low, high = res.confidence_interval(confidence_level) if res else (math.nan, math.nan)
            effect = res.effect_size if res else math.nan
            statistic = res.statistic if res else math.nan
            if m in tukeys:
                i, j = pos[s], pos[o]
                d = float(tukeys[m]["mean_difference"][i, j])
                low, high = d - half, d + half
                effect = float(tukeys[m]["effect_size"][i, j])
                statistic = float(tukeys[m]["statistic"][i, j])
            if res is not None:
                tests[m, s, o] = res
            # a system equal to the other on every query is not significantly anything
            differs = bool(np.any(x[:, pos[s]] != x[:, pos[o]]))
            rows.append({
                "measure": m, "system": s, "other": o,
                "mean_difference": float(means[m][s] - means[m][o]),
                "ci_low": low, "ci_high": high, "effect_size": effect, "statistic": statistic,
                "pvalue": float(p_raw), "pvalue_corrected": float(p_adj),
                "significant": differs and not math.isnan(p_adj) and bool(p_adj <= alpha),
                "tested_difference": tested_means[pos[s]] - tested_means[pos[o]],
            })
    return ComparisonNumbers(
        systems=systems, measures=measures, queries=queries, baseline=baseline, test=test,
        correction=correction, alpha=float(alpha), confidence_level=float(confidence_level),
        n_resamples=int(n_resamples), scores=matrices, means=means, aggregation=how,
        anova=anovas, pairs=rows,
        tests=tests, tukey=tukeys, parsed=named)
