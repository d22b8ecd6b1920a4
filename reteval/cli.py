"""The ``reteval`` command line.

Subcommands: ``evaluate`` (trec_eval-style evaluation of a run), ``compare`` (many
runs, with significance tests and effect sizes), ``run`` (the
notebook pipeline), ``book`` (its executed notebooks as static HTML pages),
``monitor`` and ``history`` (continuous evaluation). Expected problems with the
user's input print one line on stderr and exit with status 2; no traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import sys
import warnings

from reteval.errors import RetevalError

__all__ = ["build_parser", "main"]


def _add_evaluate(subparsers) -> None:
    from reteval.measures import DEFAULT_MEASURES

    p = subparsers.add_parser(
        "evaluate",
        help="evaluate a run against relevance judgments (trec_eval-exact)",
        description="Evaluate RUN against QRELS and print the mean of each measure "
        "(counts are summed, as trec_eval does). trec_eval's options are accepted in its "
        "spelling too (-q, -c, -l, -M, -J, -N, -R, -Z and their long forms). trec_eval's "
        "-c is the default: a judged query absent from the run scores 0 and counts in the "
        "mean; trec_eval without -c is --missing skip. Several runs give one table with a "
        "column naming the run (the qrels read once).",
    )
    p.add_argument("qrels", help="qrels file: TREC 'qid iter docno rel' or BEIR .tsv; with "
                   "-R prefs or -R qrels_jg, trec_eval's preference or multi-judge format")
    p.add_argument("run", nargs="+", metavar="RUN",
                   help="run file(s): TREC 'qid Q0 docno rank score tag'")
    p.add_argument(
        "-m", "--measure", action="append", dest="measures", metavar="MEASURE",
        help="measure name, repeatable, e.g. -m nDCG@10 -m 'P(rel=2)@10' -m AP; trec_eval "
        "spellings and lists work too (-m P.5,10, -m ndcg_cut, -m official: trec_eval's "
        f"default set, -m all_trec) (default: {' '.join(DEFAULT_MEASURES)}; with --format "
        "trec: official)",
    )
    p.add_argument("-l", "--relevance-level", "--level_for_rel", type=_level, default=1,
                   metavar="N", help="minimum relevance that counts as relevant; a decimal "
                   "such as 0.5 for fractional grades (default: 1)")
    p.add_argument("--missing", choices=("zero", "skip", "error"), default="zero",
                   help="judged queries absent from the run: score 0 and warn (default: "
                   "trec_eval's -c), leave out (trec_eval without -c), or fail")
    p.add_argument("-c", "--complete_rel_info_wanted", action="store_true", dest="complete",
                   help="trec_eval's -c, reteval's default: --missing zero, without the "
                   "warning")
    p.add_argument("-q", "--per-query", "--query_eval_wanted", action="store_true",
                   dest="per_query", help="also print every query's values")
    p.add_argument("-M", "--max-docs", "--Max_retrieved_per_topic", type=_count, default=None,
                   metavar="N", help="only the first N documents of each ranking count")
    p.add_argument("-J", "--judged-only", "--Judged_docs_only", action="store_true",
                   dest="judged_only", help="remove unjudged documents from the rankings first")
    p.add_argument("-N", "--num-docs", "--Number_docs_in_coll", type=_count, default=0,
                   metavar="N", help="number of documents of the collection (for utility)")
    p.add_argument("-R", "--rel-format", "--Rel_info_format", default="qrels",
                   choices=("qrels", "prefs", "qrels_prefs", "qrels_jg"), dest="rel_format",
                   help="format of QRELS as trec_eval names it (default: qrels)")
    p.add_argument("-Z", "--zscores", "--Zscore", metavar="FILE", default=None,
                   help="print z-scores: 'qid measure mean stddev' lines of FILE")
    p.add_argument("--format", choices=("table", "json", "csv", "trec"), default="table",
                   help="'trec' prints trec_eval's own layout (measure<TAB>query<TAB>value, "
                   "trec_eval's measure names, 'all' last; with --per-query as trec_eval -q)")
    p.add_argument("--engine", choices=("memory", "dask"), default="memory",
                   help="'dask' evaluates a run larger than memory on a Dask cluster; RUN may "
                   "then be a parquet dataset (folder) or a quoted glob of TREC files "
                   "(default: memory)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --engine dask: address of a running Dask scheduler "
                   "(default: start a local cluster of 2 worker processes)")
    p.set_defaults(handler=_cmd_evaluate)


def _level(text: str) -> int | float:
    """``-l``: an integer as trec_eval writes one, or a decimal (``0.5``, for fractional
    grades); checked again by evaluate."""
    from reteval.errors import InputError
    from reteval.io.textfile import parse_grade

    try:
        return parse_grade(text.strip(), what="relevance level")
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _whole(text: str) -> int:
    """An integer as trec_eval writes one."""
    from reteval.errors import InputError
    from reteval.io.textfile import parse_integer

    try:
        return parse_integer(text.strip(), what="value")
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _count(text: str) -> int:
    """``-M`` and ``-N``: a non-negative integer."""
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more; got {text!r}")
    return value


def _json_number(value, count=False):
    """A float for JSON (an int for a count), None (null) for NaN or an infinity."""
    value = float(value)
    if not math.isfinite(value):
        return None
    return int(value) if count and value.is_integer() else value


def _run_tag(path) -> str:
    """The tag (6th field) of the run file's last line, trec_eval's ``runid``.

    The file is read backwards, a block at a time, up to its last line of 6 fields.
    """
    try:
        with open(path, "rb") as handle:
            end = handle.seek(0, os.SEEK_END)
            tail = b""
            while end > 0:
                start = max(0, end - 65536)
                handle.seek(start)
                tail = handle.read(end - start) + tail
                lines = tail.split(b"\n")
                complete = lines if start == 0 else lines[1:]  # the first may be cut
                for raw in reversed(complete):
                    fields = raw.decode("utf-8", "replace").split()
                    if len(fields) >= 6:
                        return fields[5]
                tail, end = (lines[0] if start else b""), start
    except OSError:
        pass
    return ""


def _evaluate_options(args) -> dict:
    options = {}
    if args.max_docs is not None:
        options["max_docs"] = args.max_docs
    if args.judged_only:
        options["judged_only"] = True
    if args.num_docs:
        options["num_docs"] = args.num_docs
    if args.zscores:
        options["zscores"] = args.zscores
    return options


def _evaluate_values(args, qrels, run, measures, options):
    """``(query ids, {column: values})`` of the engine and judgment format asked for."""
    from reteval.evaluation.columns import evaluate_columns

    if args.rel_format != "qrels":
        from reteval.evaluation.engine import evaluate_preferences

        if args.engine == "dask" or options.get("zscores"):
            raise RetevalError(f"-R {args.rel_format} is evaluated in memory, without -Z")
        return evaluate_preferences(
            qrels, run, measures, rel_format=args.rel_format,
            relevance_level=args.relevance_level, missing=args.missing,
            max_docs=options.get("max_docs"), judged_only=args.judged_only)
    if args.engine == "dask":
        from reteval.evaluation.distributed import evaluate_on_cluster

        if options:
            raise RetevalError("-M, -J, -N and -Z are not available with --engine dask")
        per_query = evaluate_on_cluster(qrels, run, measures, scheduler=args.scheduler,
                                        relevance_level=args.relevance_level,
                                        missing=args.missing)
        return per_query.index.tolist(), {c: per_query[c].to_numpy() for c in per_query.columns}
    if args.scheduler:
        raise RetevalError("--scheduler needs --engine dask")
    # Columns, not a DataFrame: files are evaluated without loading pandas.
    return evaluate_columns(qrels, run, measures, relevance_level=args.relevance_level,
                            missing=args.missing, **options)


def _cmd_evaluate(args) -> int:
    from reteval.evaluation.checks import MissingQueriesWarning, check_arguments
    from reteval.evaluation.engine import summarize
    from reteval.measures import DEFAULT_MEASURES, without_text

    # trec_eval's layout without -m: trec_eval's default measures
    given = args.measures or (["official"] if args.format == "trec" else list(DEFAULT_MEASURES))
    numbers = without_text(given)
    if not numbers and args.format != "trec":
        raise RetevalError("runid and relstring are lines of --format trec; give a measure "
                           "for --format " + args.format)
    if args.complete:
        args.missing = "zero"
    options = _evaluate_options(args)
    # each name parsed once: the engines, the means and the writers read these measures
    columns = dict(check_arguments(numbers or ["num_q"], args.relevance_level, args.missing))
    qrels = args.qrels
    if len(args.run) > 1 and args.rel_format == "qrels" and args.engine == "memory":
        from reteval.io.columns import as_qrels_columns

        qrels = as_qrels_columns(qrels)  # read once for every run
    results = []
    for run in args.run:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            # runid or relstring alone: the queries are still read and checked
            query_ids, values = _evaluate_values(args, qrels, run, columns, options)
        for warning in caught:
            if not (args.complete and issubclass(warning.category, MissingQueriesWarning)):
                print(f"reteval: warning: {warning.message}", file=sys.stderr)
        values = values if numbers else {}
        zscored = bool(args.zscores)
        # means summed in trec_eval's order (ids as text); tables show all-digit ids in
        # numeric order
        query_ids, values = _in_order(query_ids, values, text=True)
        means = summarize(values, zscored=zscored, measures=columns)
        if args.format != "trec":
            query_ids, values = _in_order(query_ids, values, text=False)
        counts = {name: columns[name].spec.count and not zscored for name in values}
        results.append((run, query_ids, values, means, counts))
    writer = {"json": _write_json, "csv": _write_csv, "trec": _write_trec}.get(args.format,
                                                                              _write_table)
    writer(args, given, options, qrels, results, columns)
    return 0


def _in_order(query_ids, values, *, text: bool):
    """The queries in text order (trec_eval's) or in the order of tables (numeric ids)."""
    import numpy as np

    from reteval.io.order import query_order

    order = (sorted(range(len(query_ids)), key=lambda i: str(query_ids[i])) if text
             else query_order(query_ids))
    return ([query_ids[i] for i in order],
            {name: np.asarray(column)[order] for name, column in values.items()})


def _rows(values) -> list[dict]:
    names = list(values)
    return [dict(zip(names, row, strict=True)) for row in zip(*values.values(), strict=True)]


def _write_json(args, given, options, qrels, results, columns) -> None:
    docs = []
    for run, query_ids, values, means, counts in results:
        doc = {"measures": {k: _json_number(v, counts[k]) for k, v in means.items()},
               "num_queries": len(query_ids)}
        if args.per_query:
            doc["per_query"] = {q: {k: _json_number(v, counts[k]) for k, v in row.items()}
                                for q, row in zip(query_ids, _rows(values), strict=True)}
        docs.append({"run": run, **doc})
    # one run: its document; several: {"runs": [{"run": RUN, ...}, ...]}
    out = {k: v for k, v in docs[0].items() if k != "run"} if len(docs) == 1 else {"runs": docs}
    json.dump(out, sys.stdout, indent=2, allow_nan=False)
    sys.stdout.write("\n")


def _write_csv(args, given, options, qrels, results, columns) -> None:
    import csv

    writer = csv.writer(sys.stdout, lineterminator="\n")
    several = len(results) > 1
    lead = ["run"] if several else []
    for k, (run, query_ids, values, means, counts) in enumerate(results):
        first = [run] if several else []
        if args.per_query:
            if k == 0:
                writer.writerow([*lead, "query_id", *values])
            for query, row in zip(query_ids, _rows(values), strict=True):
                writer.writerow([*first, query,
                                 *(_exact(v, counts[n]) for n, v in row.items())])
        else:
            if k == 0:
                writer.writerow([*lead, "measure", "value"])
            for name, value in means.items():
                writer.writerow([*first, name, _exact(value, counts[name])])


def _write_trec(args, given, options, qrels, results, columns) -> None:
    import pandas as pd

    from reteval.evaluation.formats import to_trec_eval
    from reteval.measures import wants_relstring, wants_runid

    for run, query_ids, values, _, _ in results:  # one block per run, as trec_eval prints it
        per_query = pd.DataFrame(values, index=pd.Index(query_ids, name="query_id"))
        if args.zscores:
            per_query.attrs["zscores"] = True
        relstrings = None
        length = wants_relstring(given)
        if length is not None and args.rel_format == "qrels" and args.engine == "memory":
            from reteval.evaluation.columns import relevance_strings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # reported already
                strings = relevance_strings(qrels, run, length, missing=args.missing,
                                            max_docs=options.get("max_docs"),
                                            judged_only=args.judged_only)
            name = next((n for n in given if n.startswith("relstring.")), "relstring")
            relstrings = (name.replace(".", "_", 1), strings)
        runid = _run_tag(run) if wants_runid(given) else None
        sys.stdout.write(to_trec_eval(per_query, queries=args.per_query, runid=runid,
                                      relstrings=relstrings, measures=columns))


def _write_table(args, given, options, qrels, results, columns) -> None:
    out = sys.stdout
    several = len(results) > 1
    runs = max(len(str(run)) for run, *_ in results)
    width = max(len(str(c)) for _, _, values, _, _ in results for c in values)
    for run, query_ids, values, means, counts in results:
        first = f"{run:<{runs}}  " if several else ""  # the column naming the run
        if args.per_query:
            for query, row in zip(query_ids, _rows(values), strict=True):
                for name, value in row.items():
                    out.write(f"{first}{name:<{width}}  {query}  "
                              f"{_fmt(value, counts[name])}\n")
        for name, value in means.items():
            out.write(f"{first}{name:<{width}}  all  {_fmt(value, counts[name])}\n")
        if not any(columns[name].family == "NumQ" for name in values):
            out.write(f"{first}{'num_q':<{width}}  all  {len(query_ids)}\n")


def _exact(value, count: bool):
    """A value for CSV: every digit of the float (repr), a count as an integer."""
    value = float(value)
    if count and math.isfinite(value) and value.is_integer():
        return str(int(value))
    return repr(value)


def _fmt(value, count: bool) -> str:
    value = float(value)
    if count and math.isfinite(value):
        return f"{value:.0f}"
    return f"{value:.4f}"


# Subcommands that live in their own modules, imported only when needed so that
# `reteval evaluate` starts fast.
_SUBCOMMAND_MODULES = {"run": "reteval.book.pipeline", "book": "reteval.book.html",
                       "notebooks": "reteval.book.shipped",
                       "monitor": "reteval.monitor.commands",
                       "history": "reteval.monitor.commands",
                       "compare": "reteval.report.command",
                       "repro": "reteval.repro.commands",
                       "failures": "reteval.evaluation.failures_command"}


class _VersionAction(argparse.Action):
    """``--version``: looks the installed version up only when asked.

    importlib.metadata is slow, so the lookup waits for the flag.
    """

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                 help="show the version and exit"):
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0,
                         help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        import reteval

        print(f"reteval {reteval.__version__}")
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; with ``command="evaluate"`` other subcommands are not loaded.

    Building it imports no numpy, pandas or pyarrow: every subcommand module keeps those
    inside its handlers, so ``reteval --help`` and ``reteval COMMAND --help`` answer at once.
    """
    parser = argparse.ArgumentParser(
        prog="reteval", description="Evaluate retrieval systems: metrics, statistics, notebooks."
    )
    parser.add_argument("--version", action=_VersionAction)
    parser.add_argument("-q", "--quiet", action="store_true", dest="no_progress",
                        help="no progress bars (as RETEVAL_PROGRESS=off)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_evaluate(subparsers)
    if command != "evaluate":
        for module_name in dict.fromkeys(_SUBCOMMAND_MODULES.values()):
            module = importlib.import_module(module_name)
            module.add_subcommands(subparsers)
    return parser


def main(argv=None) -> int:
    from reteval._util.extras import skip_iri_grammars

    skip_iri_grammars()  # seconds off every command that reads a notebook
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help(sys.stderr)
        return 2
    if args.no_progress or getattr(args, "quiet", False):
        os.environ["RETEVAL_PROGRESS"] = "off"
    try:
        return int(args.handler(args) or 0)
    except RetevalError as exc:
        message = " ".join(str(exc).split("\n"))  # one line, whatever the message holds
        print(f"reteval: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("reteval: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
