"""One monitored evaluation: evaluate, compare, record.

:func:`monitor_once` is what ``reteval monitor`` runs once per invocation (or
once per interval with ``--every``):

1. get a run -- read a run file, or ask a retriever for the judged queries;
2. evaluate it against the qrels (:func:`reteval.evaluate`);
3. check the thresholds and, against a baseline entry of the history, check
   for a significant regression (:mod:`reteval.monitor.alerts`);
4. record everything in the history, in one transaction
   (:mod:`reteval.monitor.history`).

Delivering alerts (stderr, a command, a URL) is left to the caller, after the
entry is safely committed.

Baseline on another dataset
---------------------------
When the baseline's dataset fingerprint differs from the current one (the
qrels or the query texts changed), per-query scores are not comparable: the
regression check is **skipped** and a notice says so ("baseline entry 3 was
evaluated on another dataset (qrels differ); regression check skipped"). The
notice is printed on stderr, stored with the entry and sent in the payload.
With ``on_dataset_change="alert"`` it is raised as an alert of kind
``"dataset"`` instead. The same applies to a baseline evaluated with another
``relevance_level``. Choosing ``--baseline`` explicitly does not bypass the
check. The next evaluation then has a baseline on the new dataset.

Each entry keeps its run; when only the judgments differ, the baseline's run is
scored again under the current ones and the regression test runs on equal terms
(:mod:`reteval.monitor.runstore` says what is kept and when). A baseline without a
kept run (written before runs were kept) keeps the skip above.
"""

from __future__ import annotations

import json
import math
import os
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from pathlib import Path

import pandas as pd

from reteval.errors import InputError
from reteval.measures import parse_measure
from reteval.monitor.alerts import (
    Alert,
    RegressionReport,
    check_regression,
    check_thresholds,
    parse_threshold,
)
from reteval.monitor.fingerprint import fingerprint
from reteval.monitor.history import NAMED_BASELINES, Entry, HistoryStore, open_history
from reteval.monitor.loading import load_retriever
from reteval.monitor.runstore import keep_run, rescore
from reteval.retrievers.contract import RetrieverError, as_retriever

__all__ = [
    "BASELINE_CHOICES",
    "MonitorOptions",
    "MonitorResult",
    "RetrieverError",
    "load_retriever",
    "monitor_once",
]

#: Named baselines; an entry id is accepted too.
BASELINE_CHOICES = (*NAMED_BASELINES, "none")

_DATASET_CHANGE = ("warn", "alert")


@dataclass(frozen=True)
class MonitorResult:
    """Outcome of :func:`monitor_once`.

    Attributes
    ----------
    entry : Entry
        The recorded entry (its ``alerts`` and ``notices`` included).
    history : str
        Absolute path of the history file.
    baseline : Entry or None
        The entry compared with, if any.
    regression : RegressionReport or None
        Details of the regression check, when it ran.
    rescored : bool
        Whether the regression check compared with the baseline's run scored again
        under the current judgments.
    """

    entry: Entry
    history: str
    baseline: Entry | None = None
    regression: RegressionReport | None = None
    rescored: bool = False

    @property
    def alerts(self) -> tuple[Alert, ...]:
        """The alerts this evaluation raised."""
        return self.entry.alerts

    @property
    def notices(self) -> tuple[str, ...]:
        """Things reported without alerting."""
        return self.entry.notices

    @property
    def alerted(self) -> bool:
        """Whether any alert fired."""
        return bool(self.entry.alerts)

    def payload(self) -> dict:
        """The JSON document sent to alert channels and printed by ``--format json``.

        Keys: ``reteval_version``, ``history``, ``entry_id``, ``created_utc``,
        ``retriever``, ``dataset`` (``name``, ``fingerprint``), ``num_queries``,
        ``measures`` (aggregate values), ``alert`` (bool), ``alerts`` (list of
        :meth:`Alert.to_dict`), ``notices``, ``baseline_id``,
        ``baseline_rescored`` (bool) and ``comparisons`` (per measure: baseline
        and current means, difference, p-values; empty without a regression
        check).
        """
        e = self.entry
        return {
            "reteval_version": e.reteval_version,
            "history": self.history,
            "entry_id": e.id,
            "created_utc": e.created_utc.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "retriever": e.retriever,
            "dataset": {"name": e.dataset_name, "fingerprint": e.fingerprint.digest},
            "num_queries": e.num_queries,
            "measures": {m: _json_float(v) for m, v in e.aggregates.items()},
            "alert": bool(e.alerts),
            "alerts": [a.to_dict() for a in e.alerts],
            "notices": list(e.notices),
            "baseline_id": None if self.baseline is None else self.baseline.id,
            "baseline_rescored": self.rescored,
            "comparisons": [
                {k: _json_float(v) for k, v in vars(c).items()}
                for c in (self.regression.comparisons if self.regression else ())
            ],
        }


def _json_float(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


# --------------------------------------------------------------------------- inputs


def _retriever_label(retriever, spec) -> str:
    if isinstance(spec, str):
        return spec
    name = getattr(retriever, "name", None)
    if isinstance(name, str) and name:
        return name
    return getattr(retriever, "__qualname__", type(retriever).__name__)


def _read_queries(path) -> dict[str, str]:
    from reteval.datasets import read_queries as read_beir_queries

    path = Path(path)
    if not path.is_file():
        raise InputError("no such queries file", path=path)
    return read_beir_queries(path)


def _canonical_measures(measures) -> dict:
    """``{canonical name: Measure}`` of the names, each parsed once, in their order."""
    from reteval.measures import DEFAULT_MEASURES, parse_measure

    names = list(DEFAULT_MEASURES) if measures is None else (
        [measures] if isinstance(measures, str) else list(measures)
    )
    if not names:
        raise InputError("measures must name at least one measure")
    canonical: dict = {}
    for name in names:
        measure = parse_measure(name)
        canonical.setdefault(str(measure), measure)
    return canonical


def _describe_path(value):
    """The absolute path of a file argument, for the record; None for in-memory data."""
    return os.path.abspath(os.fspath(value)) if isinstance(value, (str, os.PathLike)) else None


# --------------------------------------------------------------------------- main


@dataclass(frozen=True)
class MonitorOptions:
    """How :func:`monitor_once` evaluates, compares and records: everything but the data.

    Every option is checked when the object is made, so that a bad option fails
    before anything is evaluated. ``reteval monitor`` builds one from its
    command-line options.

    Attributes
    ----------
    split : str, default "test"
        The dataset's qrels split.
    measures : sequence of str, optional
        Default :data:`reteval.measures.DEFAULT_MEASURES`. Measures named in
        ``thresholds`` are added (see :attr:`measure_names`).
    relevance_level : int, default 1
    name : str, optional
        The retriever's name in the history; default: the spec, the object's
        ``name``, or the run file's stem. "latest", "last-good" and "first"
        baselines are chosen among entries with this name.
    parameters : mapping, optional
        Extra JSON-serialisable parameters to record (e.g. a model version).
    thresholds : sequence of str or Threshold
        ``"R@5=0.7"``: alert when the aggregate R@5 is below 0.7.
    baseline : "latest", "last-good", "first", "none", int or None, default "latest"
        Entry to test for a regression against: the latest entry, the latest
        that raised no threshold or regression alert (a gate that stays failed
        until the quality comes back, however often the job is run again), the
        first, or an entry id; ``None``/``"none"`` disables the regression check.
    alpha, test, correction, min_drop, n_resamples, rng
        Options of :func:`reteval.monitor.alerts.check_regression`.
    on_dataset_change : {"warn", "alert"}, default "warn"
        What to do when the baseline ran on another dataset (or relevance
        level): skip the regression check with a notice, or also raise a
        ``"dataset"`` alert.
    lock_timeout : float, default 5
        Seconds to wait for another writer (see :func:`open_history`).
    keep_run_bytes : int, default 16 MiB
        The largest compressed run kept whole in the history; above it, only the
        part a re-scoring needs, and above that the run file's path and hash
        (:mod:`reteval.monitor.runstore`). 0 keeps only the path and hash.

    Examples
    --------
    >>> options = MonitorOptions(measures=["ndcg@10"], thresholds=["R@5=0.7"], baseline="none")
    >>> options.measure_names, options.baseline_spec
    (['nDCG@10', 'R@5'], None)
    >>> MonitorOptions(on_dataset_change="ignore")
    Traceback (most recent call last):
    ...
    reteval.errors.InputError: on_dataset_change must be one of ('warn', 'alert'); got 'ignore'
    """

    split: str = "test"
    measures: Sequence[str] | None = None
    relevance_level: int = 1
    name: str | None = None
    parameters: Mapping | None = field(default=None, hash=False)
    thresholds: Sequence = ()
    baseline: str | int | None = "latest"
    alpha: float = 0.05
    test: str = "t"
    correction: str = "holm"
    min_drop: float = 0.0
    on_dataset_change: str = "warn"
    n_resamples: int = 10_000
    rng: object = 0
    lock_timeout: float = 5.0
    keep_run_bytes: int = 16 * 2**20
    # parsed once, by __post_init__: the threshold rules and {canonical name: Measure}
    _rules: tuple = field(default=(), init=False, repr=False, compare=False)
    _columns: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self):
        for key in ("measures", "thresholds"):
            value = getattr(self, key)
            if value is not None and not isinstance(value, tuple):
                object.__setattr__(self, key, (value,) if isinstance(value, str) else tuple(value))
        # every measure and threshold parsed now, once
        rules = tuple(parse_threshold(t) for t in self.thresholds)
        columns = _canonical_measures(self.measures)
        for rule in rules:
            if rule.measure not in columns:
                columns[rule.measure] = rule.spec or parse_measure(rule.measure)
        object.__setattr__(self, "_rules", rules)
        object.__setattr__(self, "_columns", columns)
        size = self.keep_run_bytes
        if isinstance(size, bool) or not isinstance(size, int) or size < 0:
            raise InputError(f"keep_run_bytes must be an integer >= 0; got {size!r}")
        if self.on_dataset_change not in _DATASET_CHANGE:
            raise InputError(f"on_dataset_change must be one of {_DATASET_CHANGE}; "
                             f"got {self.on_dataset_change!r}")
        baseline = self.baseline_spec
        if isinstance(baseline, str):
            text = baseline.strip().lower()
            if text not in NAMED_BASELINES and not (text.isascii() and text.isdigit()):
                raise InputError("baseline must be 'latest', 'last-good', 'first', 'none' or an "
                                 f"entry id; got {self.baseline!r}")
        try:
            json.dumps(dict(self.parameters or {}), allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise InputError(f"parameters must be JSON-serialisable: {exc}") from None
        if baseline is not None:  # the regression options, now rather than after evaluating
            check_regression(pd.DataFrame({"x": [0.0, 0.0]}), pd.DataFrame({"x": [0.0, 0.0]}),
                             alpha=self.alpha, test=self.test, correction=self.correction,
                             min_drop=self.min_drop)

    @property
    def threshold_rules(self) -> list:
        """The parsed :attr:`thresholds`."""
        return list(self._rules)

    @property
    def measure_names(self) -> list[str]:
        """Canonical names of :attr:`measures`, then of the measures thresholds name."""
        return list(self._columns)

    @property
    def measure_columns(self) -> dict:
        """``{name: Measure}`` of :attr:`measure_names`, parsed once (by the options)."""
        return dict(self._columns)

    @property
    def baseline_spec(self) -> str | int | None:
        """:attr:`baseline`, with ``"none"`` as ``None``."""
        none = self.baseline is None or str(self.baseline).lower() == "none"
        return None if none else self.baseline


def monitor_once(
    history,
    *,
    run=None,
    retriever=None,
    qrels=None,
    queries=None,
    dataset=None,
    options: MonitorOptions | None = None,
    created_utc: datetime | None = None,
    **settings,
) -> MonitorResult:
    """Evaluate a retriever or a run once, check alerts, record the entry.

    Parameters
    ----------
    history : str, path-like or HistoryStore
        The history file (created if missing) or an open store.
    run : path, DataFrame or mapping, optional
        A run to evaluate (a TREC run file, or any form
        :func:`reteval.io.as_run` takes). Give exactly one of ``run`` and
        ``retriever``.
    retriever : str or object, optional
        ``"module:callable"``, a reference retriever name (``"bm25"``, needs
        ``dataset``), or a retriever as :func:`reteval.retrievers.as_retriever`
        takes it (an object with ``.run(queries)``, a callable
        ``f(queries) -> run``); ``queries`` is ``{query_id: text}`` of the
        judged queries. See :func:`load_retriever`.
    qrels : path, DataFrame or mapping, optional
        Relevance judgments; default: the dataset's.
    queries : path or mapping, optional
        BEIR ``queries.jsonl`` or ``{query_id: text}``; default: the dataset's.
        Needed for a retriever; optional with a run (it then joins the
        fingerprint).
    dataset : str, path-like or reteval.datasets.Dataset, optional
        Anything :func:`reteval.datasets.load` takes (``"teaching"``, a BEIR
        folder, a BEIR name).
    options : MonitorOptions, optional
        How to evaluate, compare and record; default ``MonitorOptions()``.
    created_utc : datetime, optional
        Timezone-aware time to record for the entry; default: now. For
        replaying past evaluations or simulating a schedule on a fake clock.
    **settings
        Fields of :class:`MonitorOptions` (``measures=["RR"]``, ``name="bm25"``
        ...) replacing those of ``options``.

    Returns
    -------
    MonitorResult

    Raises
    ------
    InputError
        Bad inputs or options (checked before anything is evaluated).
    TypeError
        A keyword that is not a field of :class:`MonitorOptions`.
    RetrieverError
        The retriever raised or returned something that is not a run.
    HistoryError, HistoryLockedError
        The history cannot be used.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "history.sqlite"
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> first = monitor_once(path, run={"q1": ["d1"], "q2": ["d2"]}, qrels=qrels,
    ...                      measures=["RR"], name="bm25")
    >>> first.entry.id, first.entry.aggregates, first.alerted
    (1, {'RR': 1.0}, False)
    >>> options = MonitorOptions(measures=["RR"], name="bm25", thresholds=["RR=0.8"])
    >>> second = monitor_once(path, run={"q1": ["d1"], "q2": ["d9", "d2"]}, qrels=qrels,
    ...                       options=options)
    >>> [a.message for a in second.alerts]
    ['RR = 0.7500 is below the threshold 0.8']
    """
    # ---- check options before any work
    if options is None:
        options = MonitorOptions()
    elif not isinstance(options, MonitorOptions):
        raise InputError(f"options must be a MonitorOptions; got {type(options).__name__}")
    if settings:
        unknown = sorted(set(settings) - {f.name for f in fields(MonitorOptions) if f.init})
        if unknown:
            raise TypeError(f"monitor_once() got unexpected keyword argument(s) {unknown}; "
                            "options are the fields of MonitorOptions")
        options = replace(options, **settings)
    if (run is None) == (retriever is None):
        raise InputError("give exactly one of run (a run file) and retriever (what to evaluate)")

    # ---- the history first: a locked or corrupt file fails before any work
    store = history if isinstance(history, HistoryStore) else open_history(
        history, create=True, lock_timeout=options.lock_timeout
    )
    try:
        return _evaluate_and_record(
            store, run=run, retriever=retriever, qrels=qrels, queries=queries,
            dataset=dataset, options=options, created_utc=created_utc,
        )
    finally:
        if store is not history:
            store.close()


def _inputs(qrels, queries, dataset, split):
    """The dataset (or None), the qrels table and the query texts (or None)."""
    data = None
    if dataset is not None:
        from reteval.datasets import Dataset, load

        data = dataset if isinstance(dataset, Dataset) else load(dataset, split=split)
    if qrels is None:
        if data is None:
            raise InputError("no relevance judgments: give qrels or a dataset")
        qrels_table = data.qrels
    else:
        from reteval.io import as_qrels

        qrels_table = as_qrels(qrels)
    if queries is None:
        query_texts = None if data is None else dict(data.queries)
    elif isinstance(queries, (str, os.PathLike)):
        query_texts = _read_queries(queries)
    elif isinstance(queries, Mapping):
        query_texts = {str(k): v for k, v in queries.items()}
    else:
        raise InputError(
            f"queries must be a queries.jsonl path or a mapping; got {type(queries).__name__}"
        )
    return data, qrels_table, query_texts


def _evaluate_and_record(store, *, run, retriever, qrels, queries, dataset,
                         options: MonitorOptions, created_utc=None) -> MonitorResult:
    opt = options
    split, name, parameters, relevance_level = (opt.split, opt.name, opt.parameters,
                                                opt.relevance_level)
    columns, rules, baseline_spec = opt.measure_columns, opt.threshold_rules, opt.baseline_spec
    names = list(columns)
    data, qrels_table, query_texts = _inputs(qrels, queries, dataset, split)
    judged = set(qrels_table["query_id"].astype(str))
    if query_texts is not None:
        query_texts = {q: t for q, t in query_texts.items() if q in judged}

    # ---- the run
    if retriever is not None:
        if query_texts is None:
            raise InputError("a retriever needs query texts: give queries or a dataset")
        if not query_texts:
            raise InputError("none of the queries has a judgment in the qrels")
        obj = retriever
        if isinstance(retriever, str):
            obj = load_retriever(retriever, corpus=None if data is None else data.corpus)
        elif not (callable(getattr(retriever, "run", None)) or callable(retriever)):
            raise InputError(
                "retriever must be 'module:callable', a retriever name, an object with "
                f".run(queries) or a callable; got {type(retriever).__name__}"
            )
        label = name or _retriever_label(obj, retriever)
        run_table = as_retriever(obj, name=label)(query_texts)
        source = {"retriever": retriever if isinstance(retriever, str) else label}
        run_path = None
    else:
        from reteval.io import as_run

        run_table = as_run(run)
        run_path = _describe_path(run)
        label = name or (Path(run_path).stem if run_path else "run")
        source = {"run": run_path}
    if not isinstance(label, str) or not label.strip():
        raise InputError(f"name must be a non-empty str; got {label!r}")

    # ---- evaluate
    from reteval.evaluation.engine import aggregate, evaluate

    notices: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        per_query = evaluate(qrels_table, run_table, columns,
                             relevance_level=relevance_level)
    notices.extend(str(w.message) for w in caught)
    aggregates = aggregate(per_query, measures=columns).to_dict()
    fp = fingerprint(qrels_table, query_texts)

    recorded = {
        **source,
        "qrels": _describe_path(qrels),
        "queries": _describe_path(queries),
        "dataset": None if data is None else (_describe_path(dataset) or data.name),
        "split": split if data is not None else None,
        "measures": names,
        "relevance_level": int(relevance_level),
        "thresholds": {r.measure: r.minimum for r in rules},
        "baseline": None if baseline_spec is None else str(baseline_spec),
        "alpha": float(opt.alpha),
        "test": str(opt.test),
        "correction": str(opt.correction),
        "min_drop": float(opt.min_drop),
        "user": dict(parameters or {}),
    }

    kept = keep_run(run_table, judged_queries=judged, measures=columns,
                    max_bytes=opt.keep_run_bytes, path=run_path)
    if kept is None:
        notices.append(f"the run is not kept in the history (larger than keep_run_bytes="
                       f"{opt.keep_run_bytes} compressed, and not a file): a later entry "
                       "cannot score it again under new judgments")

    # ---- alerts and record
    alerts = check_thresholds(aggregates, rules)
    base, report, rescored = None, None, False
    if baseline_spec is not None:
        base = store.find(baseline_spec, retriever=label)
        if base is None and store.find("latest", retriever=label) is not None:
            notices.append(f"no entry of {label!r} in the history without an alert "
                           f"(baseline {baseline_spec!r}): regression check skipped")
        elif base is None:
            notices.append(
                f"no baseline yet for {label!r} in the history: regression check skipped"
            )
        else:
            base_values, rescored, skipped = _baseline_values(
                store, base, fp, qrels_table, columns, int(relevance_level))
            if rescored:
                notices.append(f"baseline entry {base.id} was evaluated on other judgments "
                               "(qrels differ); its run was scored again under the current "
                               "judgments for the regression check")
                recorded["baseline_rescored"] = base.id
            if skipped:
                if opt.on_dataset_change == "alert":
                    alerts.append(Alert("dataset", skipped, baseline_id=base.id))
                else:
                    notices.append(skipped)
            else:
                report = check_regression(
                    per_query, base_values, alpha=opt.alpha, test=opt.test,
                    correction=opt.correction, min_drop=opt.min_drop, baseline_id=base.id,
                    n_resamples=opt.n_resamples, rng=opt.rng, measures=columns,
                )
                alerts.extend(report.alerts)
                notices.extend(report.notes)
    entry = store.append(
        retriever=label,
        per_query=per_query,
        fingerprint=fp,
        parameters=recorded,
        dataset_name=None if data is None else data.name,
        alerts=alerts,
        notices=notices,
        aggregates=aggregates,
        created_utc=created_utc,
        run=kept,
    )
    return MonitorResult(entry, os.path.abspath(store.path), base, report, rescored)


def _baseline_values(store, base: Entry, fp, qrels_table, names, relevance_level: int):
    """The baseline's per-query values to test against, whether they were scored again
    under the current judgments, and the notice when the check is skipped instead."""
    reason = _incomparable(base, fp, relevance_level)
    if not reason:
        return store.per_query(base.id), False, None
    values, why = rescore(store, base, fp, qrels_table, names, relevance_level=relevance_level)
    if values is not None:
        return values, True, None
    return None, False, (f"baseline entry {base.id} was evaluated on {reason}; regression "
                         "check skipped" + (f" ({why})" if why else ""))


def _incomparable(base: Entry, fp, relevance_level: int) -> str | None:
    differences = fp.differences(base.fingerprint)
    if differences:
        return f"another dataset ({' and '.join(differences)} differ)"
    level = base.parameters.get("relevance_level")
    if level is not None and level != relevance_level:
        return f"another relevance level ({level}, now {relevance_level})"
    return None
