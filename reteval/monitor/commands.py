"""``reteval monitor`` and ``reteval history``: the command-line side of monitoring.

Exit status of ``reteval monitor``:

====  ==========================================================================
0     evaluated and recorded, no alert (with ``--every``: stopped by a signal)
2     an error: bad input, unreadable or locked history, failing retriever
      (one line on stderr)
3     evaluated and recorded, and at least one alert fired (see
      :data:`ALERT_EXIT_STATUS`); the alerts are on stderr
130   aborted by a second SIGINT/SIGTERM during an evaluation (nothing recorded)
====  ==========================================================================
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from reteval.errors import InputError
from reteval.measures import is_count

__all__ = ["ALERT_EXIT_STATUS", "add_subcommands"]

#: Exit status of ``reteval monitor`` when an alert fired (not an error: the
#: evaluation was recorded).
ALERT_EXIT_STATUS = 3


#: The longest ``--alert-timeout``: an alert that takes longer to deliver is a failure.
MAX_ALERT_TIMEOUT = 600.0


def _integer(text: str) -> int:
    """An integer option, as trec_eval writes integers (no ``1_0``, no other scripts' digits)."""
    from reteval.io.textfile import parse_integer

    try:
        return parse_integer(text.strip())
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _number(text: str) -> float:
    """A finite decimal option (no ``nan``, ``inf`` or ``1_0``)."""
    from reteval.io.textfile import parse_decimal

    try:
        return parse_decimal(text.strip())
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _strict_json(value):
    """``value`` with every NaN or infinity replaced by None: strict JSON has no NaN."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _strict_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strict_json(v) for v in value]
    return value


def _key_value(text: str):
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise InputError(f"--param must look like KEY=VALUE; got {text!r}")
    try:
        parsed = json.loads(value)
    except ValueError:
        parsed = value
    return key.strip(), parsed


def add_subcommands(subparsers) -> None:
    """Add ``monitor`` and ``history`` to the ``reteval`` command line."""
    from reteval.measures import DEFAULT_MEASURES

    p = subparsers.add_parser(
        "monitor",
        help="evaluate once (or every INTERVAL), record in a history, alert on drops",
        description=(
            "Evaluate a retriever or a run against relevance judgments, record the result "
            "in the HISTORY file (SQLite, created if missing) and check alerts: thresholds "
            "and a significant regression against a baseline entry. Exit status: 0 no alert, "
            f"{ALERT_EXIT_STATUS} alert fired (entry recorded), 2 error, 130 aborted."
        ),
    )
    p.add_argument("history", metavar="HISTORY", help="history file (SQLite)")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--run", metavar="FILE", help="TREC run file to evaluate")
    what.add_argument(
        "--retriever", metavar="SPEC",
        help="'module:callable' (an object with .run(queries) or a function queries -> run), "
        "or a reference retriever name such as bm25 (needs --dataset)",
    )
    p.add_argument("--qrels", metavar="FILE", help="qrels file (default: the dataset's)")
    p.add_argument("--queries", metavar="FILE", help="BEIR queries.jsonl (default: the dataset's)")
    p.add_argument("--dataset", metavar="NAME|PATH",
                   help="'teaching', a BEIR folder or a BEIR dataset name")
    p.add_argument("--split", default="test", help="qrels split of --dataset (default: test)")
    p.add_argument("-m", "--measure", action="append", dest="measures", metavar="MEASURE",
                   help=f"repeatable (default: {' '.join(DEFAULT_MEASURES)})")
    p.add_argument("-l", "--relevance-level", type=_integer, default=1, metavar="N",
                   help="minimum relevance that counts as relevant (default: 1)")
    p.add_argument("--name", help="retriever name in the history (default: the spec or the "
                   "run file's stem); baselines are chosen per name")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                   help="extra parameter to record, repeatable (VALUE parsed as JSON if it can be)")
    alerts = p.add_argument_group("alerts")
    alerts.add_argument("--threshold", action="append", default=[], metavar="MEASURE=VALUE",
                        help="alert when MEASURE is below VALUE, repeatable, e.g. R@5=0.7 "
                        "(MEASURE is evaluated even if no -m names it)")
    alerts.add_argument("--baseline", default="latest", metavar="latest|last-good|first|ID|none",
                        help="entry to test for a regression against (default: latest entry "
                        "of the same retriever; last-good: the latest that raised no "
                        "threshold or regression alert)")
    alerts.add_argument("--alpha", type=_number, default=0.05,
                        help="significance level of the regression test (default: 0.05)")
    alerts.add_argument("--test", default="t",
                        choices=("t", "wilcoxon", "randomization", "bootstrap"),
                        help="paired test (default: t)")
    alerts.add_argument("--correction", default="holm",
                        choices=("holm", "bonferroni", "bh", "none"),
                        help="multiple-comparison correction over measures (default: holm)")
    alerts.add_argument("--min-drop", type=_number, default=0.0, metavar="D",
                        help="smallest drop of a mean that counts as a regression (default: 0)")
    alerts.add_argument("--seed", type=_integer, default=0,
                        help="seed of the randomization/bootstrap tests (default: 0)")
    alerts.add_argument("--on-dataset-change", choices=("warn", "alert"), default="warn",
                        help="baseline on another dataset: skip the regression check with a "
                        "warning (default) or also raise an alert")
    alerts.add_argument("--alert-command", metavar="CMD",
                        help="shell command run when an alert fires, JSON payload on stdin")
    alerts.add_argument("--alert-url", metavar="URL",
                        help="http(s) URL that receives the JSON payload by POST when an alert "
                             "fires")
    alerts.add_argument("--alert-timeout", type=_number, default=30.0, metavar="SECONDS",
                        help="timeout of each alert channel (default: 30)")
    p.add_argument("--every", metavar="INTERVAL",
                   help="repeat in the foreground every INTERVAL (e.g. 24h, 30m, 1h30m) until "
                   "SIGINT/SIGTERM")
    p.add_argument("--lock-timeout", type=_number, default=10.0, metavar="SECONDS",
                   help="wait this long for another writer of the history (default: 10)")
    p.add_argument("--keep-run-bytes", type=_integer, default=16 * 2**20, metavar="N",
                   help="keep the run in the history (to score it again under new judgments) "
                   "when compressed it takes at most N bytes; above, only the judged part, or "
                   "the run file's path and hash (default: 16 MiB)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="stdout: a summary line, or the JSON payload")
    p.set_defaults(handler=_cmd_monitor)

    h = subparsers.add_parser(
        "history",
        help="show a monitoring history: measures over time with alert marks",
        description="Print the entries of a history file, oldest first; values that raised "
        "an alert are marked with '!', and an entry whose regression check scored its "
        "baseline's run again under new judgments says '[baseline re-scored]'.",
    )
    h.add_argument("history", metavar="HISTORY", help="history file (SQLite)")
    h.add_argument("-m", "--measure", action="append", dest="measures", metavar="MEASURE",
                   help="measure to show, repeatable (default: all)")
    h.add_argument("--retriever", metavar="NAME", help="only this retriever's entries")
    h.add_argument("--last", type=_integer, metavar="N", help="only the last N entries")
    h.add_argument("--plot", metavar="PNG", help="also write a plot of the trend to this file")
    h.add_argument("--format", choices=("table", "csv", "json"), default="table")
    h.add_argument("--check", action="store_true",
                   help="verify the file and every entry; exit 2 with the problems if any")
    h.add_argument("--lock-timeout", type=_number, default=10.0, metavar="SECONDS")
    h.set_defaults(handler=_cmd_history)


# --------------------------------------------------------------------------- monitor


def _summary(result, columns) -> str:
    """One line for the entry; ``columns`` are the options' ``{name: Measure}``."""
    e = result.entry
    values = " ".join(
        f"{m}={v:.0f}" if (columns[m].spec.count if m in columns else is_count(m))
        else f"{m}={v:.4f}" for m, v in e.aggregates.items()
    )
    flag = f", {len(e.alerts)} alert(s)" if e.alerts else ""
    from reteval.monitor.trend import display_name

    return (f"entry {e.id} {e.created_utc:%Y-%m-%dT%H:%M:%SZ} {display_name(e.retriever)}: "
            f"{e.num_queries} queries {values}{flag}")


def _deliver(result, args) -> list:
    from reteval.monitor.channels import post_json, run_command

    payload = result.payload()
    deliveries = []
    if args.alert_command:
        env = {
            "RETEVAL_ALERT_COUNT": str(len(result.alerts)),
            "RETEVAL_ALERT_SUMMARY": "; ".join(a.message for a in result.alerts),
            "RETEVAL_ENTRY_ID": str(result.entry.id),
            "RETEVAL_HISTORY": result.history,
            "RETEVAL_RETRIEVER": result.entry.retriever,
        }
        deliveries.append(run_command(args.alert_command, payload, env=env,
                                      timeout=args.alert_timeout))
    if args.alert_url:
        deliveries.append(post_json(args.alert_url, payload, timeout=args.alert_timeout))
    return deliveries


def _monitor_once(args) -> int:
    from reteval.monitor.runner import MonitorOptions, monitor_once

    options = MonitorOptions(
        split=args.split,
        measures=args.measures,
        relevance_level=args.relevance_level,
        name=args.name,
        parameters=dict(_key_value(t) for t in args.param),
        thresholds=args.threshold,
        baseline=args.baseline,
        alpha=args.alpha,
        test=args.test,
        correction=args.correction,
        min_drop=args.min_drop,
        on_dataset_change=args.on_dataset_change,
        rng=args.seed,
        lock_timeout=args.lock_timeout,
        keep_run_bytes=args.keep_run_bytes,
    )
    result = monitor_once(args.history, run=args.run, retriever=args.retriever, qrels=args.qrels,
                          queries=args.queries, dataset=args.dataset, options=options)
    for notice in result.notices:
        print(f"reteval: warning: {notice}", file=sys.stderr)
    for alert in result.alerts:
        print(f"reteval: ALERT: {alert.message} (entry {result.entry.id})", file=sys.stderr)
    deliveries = _deliver(result, args) if result.alerted else []
    for d in deliveries:
        if not d.ok:
            print(f"reteval: alert delivery failed ({d.channel} {d.target}): {d.detail}; "
                  f"the entry {result.entry.id} is recorded", file=sys.stderr)
    if args.format == "json":
        doc = result.payload()
        doc["deliveries"] = [vars(d) for d in deliveries]
        json.dump(_strict_json(doc), sys.stdout, indent=2, ensure_ascii=False, allow_nan=False)
        sys.stdout.write("\n")
    else:
        print(_summary(result, options.measure_columns))
    sys.stdout.flush()
    return ALERT_EXIT_STATUS if result.alerted else 0


def _check_monitor_args(args) -> None:
    from reteval.monitor.channels import check_url

    if args.alert_url:
        check_url(args.alert_url)
    if not 0 < args.alert_timeout <= MAX_ALERT_TIMEOUT:
        raise InputError(f"--alert-timeout must be more than 0 and at most {MAX_ALERT_TIMEOUT:g} "
                         f"seconds; got {args.alert_timeout!r}")
    for text in args.param:
        _key_value(text)


def _cmd_monitor(args) -> int:
    from reteval.monitor.schedule import parse_interval, repeat

    _check_monitor_args(args)
    if args.every is None:
        return _monitor_once(args)
    interval = parse_interval(args.every)

    def on_signal(name, aborting):
        what = ("aborting the evaluation in progress (nothing is recorded)" if aborting
                else "stopping after the evaluation in progress, if any "
                     "(send it again to abort)")
        print(f"reteval: {name}: {what}", file=sys.stderr, flush=True)

    def on_error(exc):
        print(f"reteval: error: {exc} (will try again in {args.every})", file=sys.stderr,
              flush=True)

    runs = repeat(lambda: _monitor_once(args), interval, on_error=on_error, on_signal=on_signal)
    print(f"reteval: stopped after {runs} evaluation(s)", file=sys.stderr)
    return 0


# --------------------------------------------------------------------------- history


def _cmd_history(args) -> int:
    from reteval.monitor.history import HistoryError, open_history
    from reteval.monitor.trend import history_frame, plot_history

    with open_history(args.history, lock_timeout=args.lock_timeout) as store:
        if not args.check:
            store.check_pages()  # a damaged file is an error, not a table of gaps
        if args.check:
            problems = store.verify()
            if problems:
                raise HistoryError(
                    f"{len(problems)} problem(s): " + "; ".join(problems[:10]), path=store.path
                )
            print(f"{store.path}: ok, {len(store)} entries")
            return 0
        frame = history_frame(store, measures=args.measures, retriever=args.retriever)
        rescored = {e.id: e.parameters.get("baseline_rescored") is not None
                    for e in store.entries(retriever=args.retriever)}
        frame["rescored"] = [rescored.get(i, False) for i in frame.index]
        if args.last is not None:
            if args.last < 1:
                raise InputError(f"--last must be a positive integer; got {args.last}")
            frame = frame.iloc[-args.last:]
        if args.plot:
            fig = plot_history(store, measures=args.measures, retriever=args.retriever)
            _save_atomically(fig, args.plot)
    out = sys.stdout
    if args.format == "csv":
        frame.to_csv(out, float_format="%.6g", date_format="%Y-%m-%dT%H:%M:%SZ")
    elif args.format == "json":
        records = []
        for entry_id, row in frame.iterrows():
            record = {"entry_id": int(entry_id)}
            for key, value in row.items():
                if key == "created_utc":
                    value = value.strftime("%Y-%m-%dT%H:%M:%SZ")
                elif isinstance(value, float) and math.isnan(value):
                    value = None
                elif hasattr(value, "item"):
                    value = value.item()
                record[key] = value
            records.append(record)
        json.dump(_strict_json(records), out, indent=2, ensure_ascii=False, allow_nan=False)
        out.write("\n")
    else:
        out.write(_table(frame))
    return 0


def _save_atomically(fig, path) -> None:
    """Write the figure to a temporary file beside ``path``, then rename it over ``path``:
    an interrupted or failed write never leaves a truncated image (nor destroys the old one)."""
    import os
    from pathlib import Path

    target = Path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        fig.savefig(tmp, dpi=120, format=target.suffix[1:].lower() or "png")
        os.replace(tmp, target)
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot write the plot: {exc}", path=path) from None
    finally:
        tmp.unlink(missing_ok=True)


def _table(frame) -> str:
    from reteval.monitor.trend import display_name

    fixed = {"created_utc", "retriever", "dataset", "fingerprint", "num_queries",
             "alert", "alerts", "alert_measures", "rescored"}
    measures = [c for c in frame.columns if c not in fixed]
    counts = {m: is_count(m) for m in measures}  # each stored label parsed once, not per row
    header = ["id", "created_utc", "retriever", "dataset", "queries", *measures, "alerts"]
    rows = [header]
    for entry_id, row in frame.iterrows():
        marked = set(row["alert_measures"].split(", ")) if row["alert_measures"] else set()
        cells = [
            str(entry_id),
            row["created_utc"].strftime("%Y-%m-%d %H:%M:%S"),
            display_name(row["retriever"]),
            f"{display_name(row['dataset'] or '')}#{row['fingerprint'][:8]}",
            str(row["num_queries"]),
        ]
        for m in measures:
            value = row[m]
            text = "-" if math.isnan(value) else (
                f"{value:.0f}" if counts[m] else f"{value:.4f}")
            cells.append(text + ("!" if m in marked else " "))
        note = "[baseline re-scored]" if row.get("rescored", False) else ""
        cells.append(" ".join(t for t in (display_name(row["alerts"]), note) if t))
        rows.append(cells)
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = []
    for r in rows:
        parts = [c.rjust(w) if i == 0 or header[i] in measures or header[i] == "queries"
                 else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=False))]
        lines.append("  ".join(parts).rstrip())
    if len(rows) == 1:
        lines.append("(no entries)")
    return "\n".join(lines) + "\n"
