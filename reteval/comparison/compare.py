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

The tests draw their random numbers first, as :func:`reteval.stats.tukey_hsd_measures` and
:func:`reteval.stats.pairwise_tests` do: with the same seed, ``compare(..., test="tukey")``
gives the p-values ``tukey_hsd_measures`` gives on the same scores (and ``reteval compare``
prints them). The bootstrap intervals of the means are drawn after.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import replace

import numpy as np
import pandas as pd

from reteval._util.validation import check_n_resamples, check_rng
from reteval.comparison.core import check_options, common_scores, compare_arrays, compared_values
from reteval.comparison.result import Comparison
from reteval.errors import InputError
from reteval.stats.multiple import tukey_result
from reteval.stats.pairwise import pairwise_tests
from reteval.stats.resampling import bootstrap_mean_ci

__all__ = ["compare", "compare_scores", "comparison"]

_TIE_RTOL = 1e-12


def _is_retriever(obj) -> bool:
    if isinstance(obj, (str, os.PathLike, Mapping, pd.DataFrame)):
        return False
    return callable(getattr(obj, "run", None)) or callable(obj)


def _as_run(name, obj, queries):
    """A run as it is, or the run of a retriever asked for ``queries``."""
    if not _is_retriever(obj):
        return obj
    if queries is None:
        raise InputError(
            f"runs[{name!r}] is a retriever; pass queries={{query_id: text}} to run it")
    from reteval.retrievers.contract import as_retriever

    return as_retriever(obj, name=name)(queries)


def _measure_names(measures) -> list:
    if isinstance(measures, str):
        names = [measures]
    elif (hasattr(measures, "__iter__") and not isinstance(measures, (bytes, dict))
          and all(isinstance(m, str) for m in measures)):
        names = list(measures)
    else:
        raise InputError("measures must be a measure name or a list of names, e.g. "
                         f"['P@5', 'RR']; got {measures!r:.80}")
    if not names:
        raise InputError("measures must name at least one measure; got an empty list")
    if len(set(names)) != len(names):
        raise InputError(f"measures must be distinct; got {names!r}")
    return names


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
        Randomness of the Monte Carlo tests (drawn first), then of the bootstrap
        intervals.
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
        or fewer than 2 queries common to all systems.

    Notes
    -----
    Each measure's value is its own aggregate, as :func:`reteval.aggregate` and
    trec_eval's ``all`` make it: the mean, the geometric mean (floor 0.00001) of
    ``gm_map`` and ``gm_bpref``, the sum of a count; the best system is the one with
    the highest. A geometric-mean measure is tested, and its ANOVA computed, on
    ``log(max(x, 0.00001))``, the values its geometric mean averages.

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
    if not isinstance(runs, Mapping) or not runs:
        raise InputError(
            "runs must be a non-empty mapping system name -> run or retriever; "
            f"got {type(runs).__name__ if not isinstance(runs, Mapping) else 'an empty mapping'}"
        )
    systems = tuple(runs)
    check_options(systems, baseline, test, correction, alpha, confidence_level)
    check_n_resamples(n_resamples)
    gen = check_rng(rng)  # the tests draw first, the intervals and the best system after
    measure_names = _measure_names(measures)
    from reteval.evaluation.checks import check_arguments
    from reteval.evaluation.columns import evaluate_runs
    from reteval.measures import Measure

    # the names parsed once: the columns are evaluated, tested and reported by their Measure
    columns = dict(check_arguments(measure_names, relevance_level, missing))
    asked = [label for label, m in columns.items() if m == Measure("NumRet")]
    numret = asked[0] if asked else "NumRet"  # the documents each system returned
    if not asked:
        columns[numret] = Measure("NumRet")
    evaluated = evaluate_runs(qrels, {name: _as_run(name, runs[name], queries)
                                      for name in systems},
                              columns, relevance_level=relevance_level, missing=missing)
    common, scores = common_scores(evaluated, systems)
    index = pd.Index(common, name="query_id")
    retrieved = pd.DataFrame(scores[numret], index=index,
                             columns=pd.Index(systems, name="system"))
    if not asked:
        del scores[numret], columns[numret]
    numbers = compare_arrays(scores, systems, queries=common, baseline=baseline, test=test,
                             correction=correction, alpha=alpha, rng=gen,
                             confidence_level=confidence_level, n_resamples=n_resamples,
                             parsed=columns)
    return comparison(numbers, rng=gen, retrieved=retrieved)


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
    first: pd.DataFrame | None = None
    for m, frame in per_query.items():
        if not isinstance(frame, pd.DataFrame):
            raise InputError(f"per_query[{m!r}] must be a DataFrame (queries x systems); got "
                             f"{type(frame).__name__}")
        if first is None:
            first = frame
        elif list(frame.columns) != list(first.columns) or not frame.index.equals(first.index):
            raise InputError(f"per_query[{m!r}] must have the same queries and systems as "
                             f"per_query[{next(iter(per_query))!r}]")
    assert first is not None  # per_query is a non-empty mapping
    systems = tuple(str(c) for c in first.columns)
    check_options(systems, baseline, test, correction, alpha, confidence_level)
    if len(first.index) == 0:
        raise InputError("per_query holds no query; nothing to compare")
    gen = check_rng(rng)  # the tests draw first, the intervals and the best system after
    numbers = compare_arrays({m: frame.to_numpy(dtype=float) for m, frame in per_query.items()},
                             systems, queries=list(first.index), baseline=baseline, test=test,
                             correction=correction, alpha=alpha, rng=gen,
                             confidence_level=confidence_level, n_resamples=n_resamples)
    return comparison(numbers, rng=gen, index_name=first.index.name)


def comparison(numbers, *, rng=None, retrieved=None, index_name="query_id") -> Comparison:
    """The :class:`Comparison` of :func:`~reteval.comparison.core.compare_arrays`'s numbers.

    Adds what the numbers leave out: the percentile bootstrap interval of every mean and
    the best system of every measure, drawn from ``rng`` (the generator ``compare_arrays``
    drew its tests from, now after them).
    """
    gen = check_rng(rng)
    c = numbers
    systems, measures = c.systems, c.measures
    index = pd.Index(list(c.queries), name=index_name)
    columns = pd.Index(list(systems), name="system")
    per_query = {m: pd.DataFrame(c.scores[m], index=index, columns=columns.copy())
                 for m in measures}
    # intervals of the means: one bootstrap for every measure and system, of the values
    # a measure averages (the logarithms of a geometric mean's, then exponentiated; a
    # count's sum is n times its mean)
    tested = {m: compared_values(c.scores[m], c.aggregation[m]) for m in measures}
    stacked = np.vstack([tested[m].T for m in measures])  # (M*S, n_q)
    ci = bootstrap_mean_ci(stacked, confidence_level=c.confidence_level,
                           n_resamples=c.n_resamples, rng=gen)
    ci_low = np.asarray(ci.low).reshape(len(measures), len(systems))
    ci_high = np.asarray(ci.high).reshape(len(measures), len(systems))
    for mi, m in enumerate(measures):
        if c.aggregation[m] == "gmean":
            ci_low[mi], ci_high[mi] = np.exp(ci_low[mi]), np.exp(ci_high[mi])
        elif c.aggregation[m] == "sum":
            ci_low[mi], ci_high[mi] = ci_low[mi] * c.n_queries, ci_high[mi] * c.n_queries
    anovas = {m: replace(a, means=pd.Series(a.means, index=columns.copy(), name="mean"))
              for m, a in c.anova.items()}
    method = "studentized" if c.test == "tukey-studentized" else "randomised"
    tukeys = {m: tukey_result(arrays, anovas[m], method=method)
              for m, arrays in c.tukey.items()}
    pairwise = pd.DataFrame(c.pairs, columns=[
        "measure", "system", "other", "mean_difference", "ci_low", "ci_high", "effect_size",
        "statistic", "pvalue", "pvalue_corrected", "significant"])
    pairwise["significant"] = pairwise["significant"].astype(bool)
    table_rows, best_rows = [], []
    for mi, m in enumerate(measures):
        vs_base = {}
        family = {}
        for r in c.pairs:
            if r["measure"] != m:
                continue
            family[r["system"], r["other"]] = r["pvalue_corrected"]
            if c.baseline is not None:
                vs_base[r["system"]] = (r["mean_difference"], r["pvalue"],
                                        r["pvalue_corrected"], r["significant"])
        if m in c.tukey:  # Tukey's HSD tests every pair, whichever are reported
            p = c.tukey[m]["pvalue"]
            family = {(a, b): float(p[i, j]) for i, a in enumerate(systems)
                      for j, b in enumerate(systems) if i != j}
        for si, s in enumerate(systems):
            diff, p_raw, p_adj, sig = vs_base.get(s, (math.nan, math.nan, math.nan, pd.NA))
            table_rows.append({
                "measure": m, "system": s, "mean": c.means[m][s],
                "ci_low": float(ci_low[mi, si]), "ci_high": float(ci_high[mi, si]),
                "n_queries": c.n_queries, "mean_difference": diff, "pvalue": p_raw,
                "pvalue_corrected": p_adj, "significant": sig,
            })
        frame = pd.DataFrame(tested[m], index=index, columns=columns.copy())
        best_rows.append(_best_row(m, frame, systems, c.means[m], c.tests, family,
                                   c.test, c.alpha, c.n_resamples, gen))
    table = pd.DataFrame(table_rows)
    table["significant"] = table["significant"].astype("boolean")
    return Comparison(
        table=table, pairwise=pairwise, best=pd.DataFrame(best_rows).set_index("measure"),
        per_query=per_query, tests=dict(c.tests), measures=measures, systems=systems,
        baseline=c.baseline, test=c.test, correction=c.correction, alpha=c.alpha,
        confidence_level=c.confidence_level, n_resamples=c.n_resamples, anova=anovas,
        tukey=tukeys, retrieved=retrieved, numbers=numbers)


def _best_row(measure, frame, systems, column_means, tests, adjusted, test_name, alpha,
              n_resamples, gen):
    """Best system of one measure and whether it beats the runner-up significantly.

    Ties: systems whose means are equal (relative tolerance 1e-12) to the
    highest share first place; the status is then ``"tie"``, whatever the
    test says. Otherwise the runner-up is the system with the next highest
    mean (the first listed among equals), and best versus runner-up is looked
    up in the corrected family, or else tested on its own (uncorrected).
    """
    means = column_means
    order = sorted(range(len(systems)), key=lambda k: -means[systems[k]])  # stable: ties keep order
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
