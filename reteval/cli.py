"""The ``reteval`` command line.

Subcommands: ``evaluate`` (trec_eval-style evaluation of a run), ``run`` (the
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
    from reteval.evaluation.measures import DEFAULT_MEASURES

    p = subparsers.add_parser(
        "evaluate",
        help="evaluate a run against relevance judgments (trec_eval-exact)",
        description="Evaluate RUN against QRELS and print the mean of each measure "
        "(counts are summed, as trec_eval does).",
    )
    p.add_argument("qrels", help="qrels file: TREC 'qid iter docno rel' or BEIR .tsv")
    p.add_argument("run", help="run file: TREC 'qid Q0 docno rank score tag'")
    p.add_argument(
        "-m", "--measure", action="append", dest="measures", metavar="MEASURE",
        help="measure name, repeatable, e.g. -m nDCG@10 -m 'P(rel=2)@10' -m AP; trec_eval "
        "spellings and lists work too (-m P_5,10, -m ndcg_cut, -m official: trec_eval's "
        f"default set) (default: {' '.join(DEFAULT_MEASURES)})",
    )
    p.add_argument("-l", "--relevance-level", type=_level, default=1, metavar="N",
                   help="minimum relevance that counts as relevant (default: 1)")
    p.add_argument("--missing", choices=("zero", "skip", "error"), default="zero",
                   help="judged queries absent from the run: score 0 and warn (default), "
                   "leave out, or fail")
    p.add_argument("--per-query", action="store_true", help="also print every query's values")
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


def _level(text: str) -> int:
    """``-l``: an integer as trec_eval writes one, from 0 up (checked again by evaluate)."""
    from reteval.errors import InputError
    from reteval.io.textfile import parse_integer

    try:
        return parse_integer(text.strip(), what="relevance level")
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _json_number(value):
    """A float for JSON, None (null) for NaN or an infinity: strict parsers reject NaN."""
    value = float(value)
    return value if math.isfinite(value) else None


def _cmd_evaluate(args) -> int:
    from reteval.evaluation.engine import evaluate_columns, summarize
    from reteval.evaluation.measures import DEFAULT_MEASURES

    measures = args.measures or list(DEFAULT_MEASURES)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if args.engine == "dask":
            from reteval.evaluation.distributed import evaluate_on_cluster

            per_query = evaluate_on_cluster(args.qrels, args.run, measures,
                                            scheduler=args.scheduler,
                                            relevance_level=args.relevance_level,
                                            missing=args.missing)
            query_ids = per_query.index.tolist()
            values = {c: per_query[c].to_numpy() for c in per_query.columns}
        elif args.scheduler:
            raise RetevalError("--scheduler needs --engine dask")
        else:
            # Columns, not a DataFrame: files are evaluated without loading pandas.
            query_ids, values = evaluate_columns(args.qrels, args.run, measures,
                                                 relevance_level=args.relevance_level,
                                                 missing=args.missing)
    for warning in caught:
        print(f"reteval: warning: {warning.message}", file=sys.stderr)
    means = summarize(values)
    names = list(values)
    rows = [dict(zip(names, row, strict=True)) for row in zip(*values.values(), strict=True)]
    out = sys.stdout
    if args.format == "json":
        doc = {"measures": {k: _json_number(v) for k, v in means.items()},
               "num_queries": len(query_ids)}
        if args.per_query:
            doc["per_query"] = {q: {k: _json_number(v) for k, v in row.items()}
                                for q, row in zip(query_ids, rows, strict=True)}
        json.dump(doc, out, indent=2, allow_nan=False)
        out.write("\n")
    elif args.format in ("trec", "csv"):
        import pandas as pd

        per_query = pd.DataFrame(values, index=pd.Index(query_ids, name="query_id"))
        if args.format == "trec":
            from reteval.evaluation.formats import to_trec_eval

            out.write(to_trec_eval(per_query, queries=args.per_query))
        elif args.per_query:
            per_query.to_csv(out, float_format="%.6g")
        else:
            pd.Series(means, name="value").rename_axis("measure").to_csv(out, float_format="%.6g")
    else:
        width = max(len(str(c)) for c in names)
        if args.per_query:
            for query, row in zip(query_ids, rows, strict=True):
                for name, value in row.items():
                    out.write(f"{name:<{width}}  {query}  {_fmt(name, value)}\n")
        for name, value in means.items():
            out.write(f"{name:<{width}}  all  {_fmt(name, value)}\n")
        out.write(f"{'num_q':<{width}}  all  {len(query_ids)}\n")
    return 0


def _fmt(name, value) -> str:
    return f"{value:.0f}" if str(name).startswith("Num") else f"{value:.4f}"


# Subcommands that live in their own modules, imported only when needed so that
# `reteval evaluate` starts fast.
_SUBCOMMAND_MODULES = {"run": "reteval.book.pipeline", "book": "reteval.book.html",
                       "monitor": "reteval.monitor.commands",
                       "history": "reteval.monitor.commands"}


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
