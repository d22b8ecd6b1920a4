"""``reteval repro``: the reproducibility table of an original and a reproduced experiment.

``reteval repro QRELS --original BASE [ADV] --reproduced BASE [ADV]`` evaluates
the four runs (two with baselines only) and prints the table of Breuer et al.
(SIGIR 2020) that :func:`reteval.repro.report` computes: KTU and RBO, then, for
each measure, the mean scores, RMSE, the t test's p-value, the effect ratio and
delta RI. ``--reproduced-qrels`` makes it a replicability study (another
collection or other topics: unpaired t test, no per-topic comparison).
"""

from __future__ import annotations

import json
import math
import sys

from reteval.errors import InputError

__all__ = ["add_subcommands"]


def add_subcommands(subparsers) -> None:
    """Add ``repro`` to the ``reteval`` command line."""
    p = subparsers.add_parser(
        "repro",
        help="how well a reproduction matches the original: KTU, RBO, RMSE, ER, delta RI, "
        "p-values",
        description="Evaluate an original experiment (a baseline run and optionally an "
        "advanced one) and its reproduction against QRELS and print the measures of Breuer "
        "et al. (SIGIR 2020): Kendall's tau union and RBO of the rankings, per measure the "
        "mean scores, the RMSE of the per-topic scores, the t test's p-value, the effect "
        "ratio and delta RI. Judged topics missing from a run score 0 (trec_eval -c).",
    )
    p.add_argument("qrels", help="the original experiment's qrels file")
    p.add_argument("--original", nargs="+", required=True, metavar="RUN",
                   help="the original baseline run file, then optionally the advanced one")
    p.add_argument("--reproduced", nargs="+", required=True, metavar="RUN",
                   help="the reproduced baseline run file, then optionally the advanced one "
                   "(as many as --original)")
    p.add_argument("--reproduced-qrels", metavar="QRELS", default=None,
                   help="the reproduction's own qrels (another collection or other topics): "
                   "replicability, with an unpaired t test and no RMSE, KTU or RBO")
    p.add_argument("-m", "--measure", action="append", dest="measures", metavar="MEASURE",
                   help="measure name, repeatable (default: P@10, AP, nDCG)")
    p.add_argument("--depth", type=int, default=1000, metavar="N",
                   help="ranking depth for KTU and RBO (default: 1000)")
    p.add_argument("--rbo-p", type=float, default=0.95, metavar="P", dest="rbo_p",
                   help="RBO's persistence, between 0 and 1 (default: 0.95)")
    p.add_argument("--format", choices=("table", "json"), default="table",
                   help="'table' prints the paper's table; 'json' every value")
    p.set_defaults(handler=_cmd_repro)


def _roles(paths: list[str], option: str) -> dict:
    if len(paths) > 2:
        raise InputError(f"{option} takes a baseline run and at most one advanced run; got "
                         f"{len(paths)} files")
    return dict(zip(("baseline", "advanced"), paths, strict=False))


def _number(value):
    value = float(value)
    return value if math.isfinite(value) else None


def _cmd_repro(args) -> int:
    import warnings

    from reteval.repro import DEFAULT_MEASURES, report

    original = _roles(args.original, "--original")
    reproduced = _roles(args.reproduced, "--reproduced")
    if len(original) != len(reproduced):
        raise InputError(f"--original has {len(original)} run(s) and --reproduced "
                         f"{len(reproduced)}: give the same roles (baseline, then advanced)")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = report(args.qrels, original=original, reproduced=reproduced,
                        measures=args.measures or list(DEFAULT_MEASURES),
                        reproduced_qrels=args.reproduced_qrels, depth=args.depth, p=args.rbo_p)
    for warning in caught:
        print(f"reteval: warning: {warning.message}", file=sys.stderr)
    if args.format == "json":
        doc = {"kind": result.kind,
               "table": {f"{run} {quantity}": {m: _number(v) for m, v in row.items()}
                         for (run, quantity), row in result.table.iterrows()}}
        if result.order is not None:
            doc["order"] = {name: {role: _number(v) for role, v in row.items()}
                            for name, row in result.order.iterrows()}
        json.dump(doc, sys.stdout, indent=2, ensure_ascii=False, allow_nan=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(f"{result}\n")
    return 0
