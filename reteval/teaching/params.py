"""Checks of the teaching notebooks' parameters, one function per notebook.

A notebook calls its function in one line, right after its imports, so that a
bad parameter stops the run before any work with one
:class:`reteval.errors.InputError` naming the parameter and the value (and,
for a retriever or a measure, the nearest valid name).

>>> check_notebook_01(lang="zh", retriever="bm25", k=5, depth=100)
>>> check_positive_int(0, "depth")
Traceback (most recent call last):
...
reteval.errors.InputError: depth must be a positive integer; got 0
"""

from __future__ import annotations

import difflib
from datetime import datetime, timezone
from pathlib import Path

from reteval._util.catalogue import check_lang
from reteval._util.validation import check_number, check_positive_int, check_probability
from reteval.errors import InputError
from reteval.measures import parse_measure, parse_measures
from reteval.retrievers import available_retrievers

__all__ = [
    "check_lang",
    "check_notebook_01",
    "check_notebook_02",
    "check_notebook_03",
    "check_notebook_04",
    "check_notebook_05",
    "check_notebook_06",
    "check_notebook_07",
    "check_notebook_07b",
    "check_notebook_08",
    "check_notebook_09",
    "check_notebook_10",
    "check_notebook_11",
    "check_positive_int",
    "check_positive_ints",
    "check_query_id",
    "check_retrievers",
    "report_sources",
]

#: File endings of the interaction logs notebooks 07 and 07b read.
LOG_SUFFIXES = (".csv", ".jsonl", ".ndjson", ".sqlite", ".db")


def check_positive_ints(values, name: str) -> list[int]:
    """A non-empty list of positive integers.

    Examples
    --------
    >>> check_positive_ints([1, 5], "k_values")
    [1, 5]
    >>> check_positive_ints([0], "cutoffs")
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: cutoffs must be positive integers; got [0]
    """
    if not isinstance(values, (list, tuple)) or not values or any(
            isinstance(k, bool) or not isinstance(k, int) or k < 1 for k in values):
        raise InputError(f"{name} must be positive integers; got {values!r}")
    return list(values)


def _nearest(name, choices) -> str:
    near = difflib.get_close_matches(str(name), list(choices), n=1, cutoff=0.6)
    return f"; did you mean {near[0]!r}?" if near else ""


def check_retrievers(names, name: str = "retrievers") -> list[str]:
    """Names of reference retrievers (:func:`reteval.retrievers.available_retrievers`).

    Examples
    --------
    >>> check_retrievers(["bm25", "vectr"])
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: unknown retrievers ['vectr'] in retrievers; choose from [...]; \
did you mean 'vector'?
    """
    if isinstance(names, str) or not names:
        raise InputError(f"{name} must be a non-empty list of retriever names; got {names!r}")
    valid = available_retrievers()
    unknown = [n for n in names if n not in valid]
    if unknown:
        raise InputError(f"unknown retrievers {unknown} in {name}; choose from {list(valid)}"
                         f"{_nearest(unknown[0], valid)}")
    return list(names)


def _check_retriever(value, name: str) -> str:
    valid = available_retrievers()
    if value not in valid:
        raise InputError(f"unknown retriever {value!r} for {name}; choose from {list(valid)}"
                         f"{_nearest(value, valid)}")
    return value


def check_notebook_01(*, lang, retriever, k, depth) -> None:
    """The parameters of notebook 01 (the measures): the cutoff ``k`` within the ``depth``.

    Examples
    --------
    >>> check_notebook_01(lang="en", retriever="bm25", k=20, depth=10)
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: depth must be an integer of at least 20; got 10
    """
    check_lang(lang)
    _check_retriever(retriever, "retriever")
    check_positive_int(k, "k")
    check_positive_int(depth, "depth", minimum=k)


def check_notebook_03(*, lang, retriever, other_retriever, k, depth) -> None:
    """The parameters of notebook 03 (the evaluation set and RAG context metrics).

    Two different retrievers (pooling, and the pilot of the planning), and a
    ``depth`` of at least 10 (the pool, ``Judged@10`` and the pilot's nDCG@10).

    Examples
    --------
    >>> check_notebook_03(lang="en", retriever="bm25", other_retriever="bm25", k=5, depth=100)
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: other_retriever must differ from retriever; both are 'bm25'
    """
    check_lang(lang)
    _check_retriever(retriever, "retriever")
    _check_retriever(other_retriever, "other_retriever")
    if other_retriever == retriever:
        raise InputError(f"other_retriever must differ from retriever; both are {retriever!r}")
    check_positive_int(k, "k")
    check_positive_int(depth, "depth", minimum=10)


def check_notebook_02(*, lang, retriever, k, n_seeds, seed, score_decimals) -> None:
    """The parameters of notebook 02 (the cheating leaderboard).

    Examples
    --------
    >>> check_notebook_02(lang="zh", retriever="bm25", k=10, n_seeds=200, seed=0,
    ...                   score_decimals=0)
    >>> check_notebook_02(lang="en", retriever="bm25", k=10, n_seeds=1, seed=0, score_decimals=0)
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: n_seeds must be an integer of at least 2; got 1
    """
    check_lang(lang)
    _check_retriever(retriever, "retriever")
    check_positive_int(k, "k", minimum=2)
    check_positive_int(n_seeds, "n_seeds", minimum=2)
    check_positive_int(seed, "seed", minimum=0)
    if isinstance(score_decimals, bool) or not isinstance(score_decimals, int) or not (
            -3 <= score_decimals <= 6):
        raise InputError(f"score_decimals must be an integer from -3 to 6; got {score_decimals!r}")


def check_notebook_04(*, lang, depth, pool_depths, loo_depths, measure) -> None:
    """The parameters of notebook 04 (building and trusting the evaluation set).

    Examples
    --------
    >>> check_notebook_04(lang="en", depth=100, pool_depths=[1, 200], loo_depths=[10],
    ...                    measure="AP")
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: pool depth 200 is deeper than the runs (depth=100)
    """
    check_lang(lang)
    check_positive_int(depth, "depth", minimum=10)
    check_positive_ints(pool_depths, "pool_depths")
    check_positive_ints(loo_depths, "loo_depths")
    for d in [*pool_depths, *loo_depths]:
        if d > depth:
            raise InputError(f"pool depth {d} is deeper than the runs (depth={depth})")
    parse_measures([measure])


def check_notebook_05(*, lang, retrievers, baseline, measures, k_values, cutoffs, depth) -> None:
    """The parameters of notebook 05 (the comparison of retrievers).

    Examples
    --------
    >>> check_notebook_05(lang="zh", retrievers=["bm25", "vector"], baseline="hybrid",
    ...                   measures=["AP"], k_values=[5], cutoffs=[10], depth=100)
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: baseline 'hybrid' is not one of the retrievers ['bm25', 'vector']
    """
    check_lang(lang)
    check_retrievers(retrievers)
    if baseline not in retrievers:
        raise InputError(f"baseline {baseline!r} is not one of the retrievers {list(retrievers)}")
    parse_measures(measures)  # raises with the valid names and the nearest match
    check_positive_ints(k_values, "k_values")
    check_positive_ints(cutoffs, "cutoffs")
    check_positive_int(depth, "depth")


def check_notebook_06(*, lang, retrievers, baseline, measures, measure, depth) -> None:
    """The parameters of notebook 06 (many systems: ANOVA, Tukey's HSD, effect sizes).

    ``measure`` (the measure of the effect sizes, the planning and the risk) must be one
    of ``measures``; the lesson compares at least three different retrievers.

    Examples
    --------
    >>> check_notebook_06(lang="zh", retrievers=["bm25", "vector", "hybrid"], baseline="bm25",
    ...                   measures=["AP", "RR"], measure="nDCG@10", depth=100)
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: measure 'nDCG@10' is not one of the measures ['AP', 'RR']
    >>> check_notebook_06(lang="zh", retrievers=["bm25", "vector"], baseline="bm25",
    ...                   measures=["AP"], measure="AP", depth=100)
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: retrievers must name at least 3 retrievers to compare many \
systems; got ['bm25', 'vector']
    """
    check_lang(lang)
    check_retrievers(retrievers)
    twice = sorted({name for name in retrievers if list(retrievers).count(name) > 1})
    if twice:
        raise InputError(f"retrievers names {twice[0]!r} more than once: {list(retrievers)}")
    if len(retrievers) < 3:
        raise InputError(f"retrievers must name at least 3 retrievers to compare many systems; "
                         f"got {list(retrievers)}")
    if baseline not in retrievers:
        raise InputError(f"baseline {baseline!r} is not one of the retrievers {list(retrievers)}")
    parse_measures(measures)  # raises with the valid names and the nearest match
    if measure not in measures:
        raise InputError(f"measure {measure!r} is not one of the measures {list(measures)}")
    check_positive_int(depth, "depth")


def _check_log_path(log_path) -> None:
    log_file = Path(log_path)
    if not log_file.is_file():
        raise InputError(f"log_path {str(log_file)!r} does not exist")
    if log_file.suffix.lower() not in LOG_SUFFIXES:
        raise InputError(f"log_path must end in .csv, .jsonl, .ndjson, .sqlite or .db; "
                         f"got {log_file.name!r}")


def _check_simulated_users(*, click_model, depth, dataset, rankers) -> None:
    """The click model and the judged data the users of notebooks 07 and 08 are simulated on."""
    if click_model not in ("cascade", "pbm"):
        raise InputError(f"click_model must be 'cascade' or 'pbm'; got {click_model!r}")
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 12:
        raise InputError(f"depth must be an integer from 1 to 12; got {depth!r}")
    if dataset != "synthetic":
        check_retrievers(rankers, "rankers")
        if len(rankers) != 2:
            raise InputError(f"rankers must name two retrievers; got {rankers!r}")


def check_notebook_07(*, lang, log_path, metrics, guardrails, alpha, click_model, depth,
                      dataset, rankers) -> None:
    """The parameters of notebook 07 (the A/B analysis).

    Examples
    --------
    >>> check_notebook_07(lang="zh", log_path=None, metrics=["satisfaction"], guardrails=[],
    ...                   alpha=0.05, click_model="dbn", depth=10, dataset="synthetic",
    ...                   rankers=[])
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: click_model must be 'cascade' or 'pbm'; got 'dbn'
    """
    from reteval.ab.metrics import get_metric

    check_lang(lang)
    if log_path is not None:
        _check_log_path(log_path)
    if not metrics:
        raise InputError("metrics must name at least one primary metric")
    for name in [*metrics, *guardrails]:
        get_metric(name)  # raises with the list of known metrics
    check_probability(alpha, "alpha")
    _check_simulated_users(click_model=click_model, depth=depth, dataset=dataset, rankers=rankers)


def check_notebook_07b(*, lang, log_path, metric, alpha, mixing_sd, click_model, depth,
                       aa_experiments, dataset, rankers) -> None:
    """The parameters of notebook 07b (power and sequential testing).

    Examples
    --------
    >>> check_notebook_07b(lang="zh", log_path=None, metric="satisfaction", alpha=0.05,
    ...                    mixing_sd=0, click_model="cascade", depth=10, aa_experiments=100,
    ...                    dataset="synthetic", rankers=[])
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: mixing_sd must be a positive number; got 0
    """
    from reteval.ab.metrics import get_metric

    check_lang(lang)
    if log_path is not None:
        _check_log_path(log_path)
    if not isinstance(metric, str):
        raise InputError(f"metric must name one metric, such as 'satisfaction'; got {metric!r}")
    get_metric(metric)  # raises with the list of known metrics
    check_probability(alpha, "alpha")
    if isinstance(mixing_sd, bool) or not isinstance(mixing_sd, (int, float)):  # not "0.02"
        raise InputError(f"mixing_sd must be a positive number; got {mixing_sd!r}")
    check_number(mixing_sd, "mixing_sd", minimum=0, strict=True, requirement="a positive number")
    _check_simulated_users(click_model=click_model, depth=depth, dataset=dataset, rankers=rankers)
    check_positive_int(aa_experiments, "aa_experiments", minimum=10)


def check_notebook_08(*, lang, alpha, click_model, depth, impressions, n_experiments, dataset,
                      rankers) -> None:
    """The parameters of notebook 08 (interleaving against A/B tests).

    Examples
    --------
    >>> check_notebook_08(lang="zh", alpha=0.05, click_model="cascade", depth=10,
    ...                   impressions=[100, 1], n_experiments=200, dataset="synthetic",
    ...                   rankers=[])
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: impressions must be integers >= 2; got [100, 1]
    """
    check_lang(lang)
    check_probability(alpha, "alpha")
    _check_simulated_users(click_model=click_model, depth=depth, dataset=dataset, rankers=rankers)
    if not impressions or any(isinstance(n, bool) or not isinstance(n, int) or n < 2
                              for n in impressions):
        raise InputError(f"impressions must be integers >= 2; got {impressions!r}")
    check_positive_int(n_experiments, "n_experiments", minimum=10)


def check_notebook_10(*, lang, measures, k_values, baseline=None) -> None:
    """The parameters of notebook 10 (the report) that need no file.

    The systems (and so the baseline) are checked by :func:`report_sources`.

    Examples
    --------
    >>> check_notebook_10(lang="en", measures=["P@5"], k_values=[])
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: k_values must be positive integers; got []
    """
    check_lang(lang)
    parse_measures(measures)  # raises with the valid names and the nearest match
    check_positive_ints(k_values, "k_values")


def report_sources(*, results_dir, qrels, runs, retrievers, depth, baseline=None):
    """Where notebook 10 reads its judgments and runs from, checked.

    A results folder of notebook 05 (``qrels.txt`` and ``runs/*.txt``), else a qrels
    file and ``{system: run file}``, else the ``retrievers`` run on the teaching
    collection. Returns ``(qrels source, {system: run source})``; a source is a path,
    or a frame for the teaching collection.

    Examples
    --------
    >>> report_sources(results_dir="/nowhere", qrels=None, runs=None, retrievers=[], depth=10)
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: /nowhere is not a results folder of notebook 05 (qrels.txt and \
runs/ expected)
    """
    if results_dir is not None:
        folder = Path(results_dir)
        if not (folder / "qrels.txt").is_file() or not (folder / "runs").is_dir():
            raise InputError(f"{folder} is not a results folder of notebook 05 "
                             "(qrels.txt and runs/ expected)")
        qrels_source = folder / "qrels.txt"
        found = {p.stem: p for p in sorted((folder / "runs").glob("*.txt"))}
        order = [name for name in retrievers if name in found]  # notebook 05's order first
        run_sources = {name: found[name] for name in order + sorted(set(found) - set(order))}
    elif qrels is not None and runs:
        qrels_source = Path(qrels)
        run_sources = {name: Path(path) for name, path in runs.items()}
    else:
        from reteval.datasets import load
        from reteval.retrievers import make_retriever

        check_retrievers(retrievers)
        collection = load("teaching")
        qrels_source = collection.qrels
        run_sources = {name: make_retriever(name, collection.corpus).run(collection.queries,
                                                                         k=depth)
                       for name in retrievers}
    for name, source in run_sources.items():
        if isinstance(source, Path) and not source.is_file():
            raise InputError(f"run file of {name!r} not found: {source}")
    if not run_sources:
        raise InputError("no runs to report on")
    if baseline is not None and baseline not in run_sources:
        raise InputError(f"baseline {baseline!r} is not one of the systems {list(run_sources)}")
    return qrels_source, run_sources


def check_notebook_11(*, lang, retrievers, depth, k, max_k, grades) -> None:
    """The parameters of notebook 11 (the explorers) that need no collection.

    Examples
    --------
    >>> check_notebook_11(lang="zh", retrievers=["bm25"], depth=20, k=11, max_k=20,
    ...                   grades=[1] * 10)
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: k must be between 1 and min(len(grades), max_k) = 10; got 11
    """
    check_lang(lang)
    check_retrievers(retrievers)
    for name, value in {"depth": depth, "k": k, "max_k": max_k}.items():
        check_positive_int(value, name)
    if not 1 <= k <= min(len(grades), max_k):
        raise InputError(f"k must be between 1 and min(len(grades), max_k) = "
                         f"{min(len(grades), max_k)}; got {k}")


def check_query_id(query_id, collection) -> None:
    """``query_id`` is None or a query of ``collection`` (a :class:`reteval.datasets` collection).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> check_query_id("q9", SimpleNamespace(name="toy", queries={"q1": "..."}))
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: query_id 'q9' is not a query of 'toy'
    """
    if query_id is not None and query_id not in collection.queries:
        raise InputError(f"query_id {query_id!r} is not a query of {collection.name!r}")


def check_notebook_09(*, lang, start, days, regression_day, n_queries, docs_per_query,
                      measures) -> datetime:
    """The parameters of notebook 09 (continuous evaluation); returns day 0 (UTC).

    Examples
    --------
    >>> check_notebook_09(lang="en", start="2026-05-01", days=30, regression_day=18,
    ...                   n_queries=60, docs_per_query=30, measures=["R@5"]).isoformat()
    '2026-05-01T00:00:00+00:00'
    >>> check_notebook_09(lang="en", start="2026-05-01", days=5, regression_day=9,
    ...                   n_queries=60, docs_per_query=30, measures=["R@5"])
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: regression_day must be in 2..days (5); got 9
    """
    check_lang(lang)
    for name, value in (("days", days), ("regression_day", regression_day),
                        ("n_queries", n_queries), ("docs_per_query", docs_per_query)):
        check_positive_int(value, name)
    if not 1 < regression_day <= days:
        raise InputError(f"regression_day must be in 2..days ({days}); got {regression_day!r}")
    if "R@5" not in [str(parse_measure(m)) for m in measures]:
        raise InputError(f"measures must include R@5 (the chapter's measure); got {measures!r}")
    try:
        return datetime.fromisoformat(str(start)).replace(tzinfo=timezone.utc)
    except ValueError:
        raise InputError(f"start must be a date such as '2026-05-01'; got {start!r}") from None
