"""``reteval failures QRELS RUN -k 10``: the judged queries with no relevant document in the top k.

The table of :func:`reteval.failures`, one line per failed query, the never-found first.
The parser is built without numpy or pandas; the handler loads them.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from reteval._util.arguments import positive_int

__all__ = ["add_subcommands"]


def _level(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number; got {text!r}")
    return int(value) if value.is_integer() else value


def add_subcommands(subparsers) -> None:
    """Add ``failures`` to the ``reteval`` command's subparsers."""
    p = subparsers.add_parser(
        "failures",
        help="list the judged queries with no relevant document in the top k",
        description="One line per judged query that has a relevant document and none in the "
        "run's top k (ranked as trec_eval ranks): the rank of its first relevant document "
        "('-' when none was retrieved), its relevant and retrieved documents; the "
        "never-found first, then the deepest first.",
    )
    p.add_argument("qrels", metavar="QRELS", help="qrels file (TREC or BEIR)")
    p.add_argument("run", metavar="RUN", help="TREC run file")
    p.add_argument("-k", type=positive_int, default=10, metavar="K",
                   help="the cutoff (default: 10)")
    p.add_argument("-l", "--relevance-level", type=_level, default=1, metavar="LEVEL",
                   help="lowest grade that counts as relevant (default: 1)")
    p.add_argument("--format", choices=("table", "csv", "json"), default="table")
    p.set_defaults(handler=_cmd_failures)


def _cmd_failures(args) -> int:
    import pandas as pd

    from reteval.evaluation.failures import failures
    from reteval.io import read_qrels, read_run

    table = failures(read_qrels(args.qrels), read_run(args.run), k=args.k,
                     relevance_level=args.relevance_level)
    rows = [(str(q), None if pd.isna(r) else int(r), int(a), int(b))
            for q, r, a, b in zip(table.index, table["first_relevant_rank"],
                                  table["num_relevant"], table["num_retrieved"], strict=True)]
    out = sys.stdout
    if args.format == "json":
        json.dump([{"query_id": q, "first_relevant_rank": r, "num_relevant": a,
                    "num_retrieved": b} for q, r, a, b in rows], out, indent=2,
                  ensure_ascii=False)
        out.write("\n")
    elif args.format == "csv":
        import csv

        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["query_id", "first_relevant_rank", "num_relevant", "num_retrieved"])
        writer.writerows((q, "" if r is None else r, a, b) for q, r, a, b in rows)
    else:
        header = ("query_id", "first_relevant_rank", "num_relevant", "num_retrieved")
        cells = [header] + [(q, "-" if r is None else str(r), str(a), str(b))
                            for q, r, a, b in rows]
        widths = [max(len(c[i]) for c in cells) for i in range(4)]
        for c in cells:
            out.write("  ".join([c[0].ljust(widths[0])]
                                + [v.rjust(w) for v, w in zip(c[1:], widths[1:], strict=True)])
                      .rstrip() + "\n")
        print(f"reteval: {len(rows)} judged queries with no relevant document in the top "
              f"{args.k}", file=sys.stderr)
    return 0
