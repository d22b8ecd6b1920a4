"""``reteval compare``: many runs against one qrels file, in one process, with statistics.

Researchers compare dozens of runs by calling trec_eval once per run and doing
the statistics by hand. ``reteval compare QRELS RUN [RUN ...]`` reads the
qrels once, evaluates every run (trec_eval-exact values), and prints the means
with significance marks and effect sizes:

* three or more runs without ``--baseline``: the randomised Tukey HSD over all
  pairs (``--test`` changes it), the two-way ANOVA of each measure, letters
  marking the runs each mean is significantly better than;
* with ``--baseline NAME``: each run against the baseline (paired t test and
  Holm correction unless ``--test``/``--correction`` say otherwise), marks
  ``▲``/``▼`` for significantly above/below it.

Effect sizes are ``(mean_i - mean_j) / sqrt(V_E)`` with V_E the residual
variance of the measure's two-way ANOVA (Sakai 2018), with the test's interval
in the same units. Runs are named by file stem (``bm25.run`` -> ``bm25``) or,
with ``--names tag``, by the run tag of their first line.

Formats: ``table`` (text), ``json`` (everything), ``csv`` (one row per tested
pair), ``markdown`` and ``latex`` (the means table with marks, its note, and the
pairs: always in Markdown, with ``--effect-sizes`` in LaTeX; ``--decimals N``).
``--per-query FILE`` also writes every per-query value. Each measure is summarised as
trec_eval's ``all`` line summarises it (a geometric mean for ``gm_map``). With
``--baseline NAME --fail-on-regression`` the exit status is 3 when some run is
significantly worse than the baseline on an asked measure, 0 otherwise, 2 on an error.

The numbers are those of :func:`reteval.compare` with the same seed
(:func:`reteval.comparison.core.compare_arrays`, which :class:`~reteval.comparison.Comparison`
wraps in tables); the command prints them without building the tables, so that it loads
neither pandas nor scipy for its default procedure. The renderers are in
:mod:`reteval.report.means`.
"""

from __future__ import annotations

import os
import sys

from reteval._util.arguments import nonnegative_int, positive_int, probability
from reteval.errors import InputError

__all__ = ["add_subcommands", "regressions", "run_names"]

_TESTS = ("tukey", "tukey-studentized", "t", "wilcoxon", "randomization", "bootstrap")


def add_subcommands(subparsers) -> None:
    """Add ``compare`` to the ``reteval`` command line."""
    p = subparsers.add_parser(
        "compare",
        help="compare many runs on one qrels file: means, significance, effect sizes",
        description="Evaluate every RUN against QRELS (read once) and compare them: means with "
        "significance marks and effect sizes (mean difference / sqrt(V_E) of the two-way "
        "ANOVA). Without --baseline, three or more runs are compared pairwise by the "
        "randomised Tukey HSD; with --baseline, each run against it by a paired t test with "
        "Holm's correction. Exit status: 0, 2 on an error, and with --fail-on-regression 3 "
        "when some run is significantly worse than the baseline.",
    )
    p.add_argument("qrels", help="qrels file: TREC 'qid iter docno rel' or BEIR .tsv")
    p.add_argument("runs", nargs="+", metavar="RUN", help="run files: TREC 'qid Q0 docno rank "
                   "score tag'")
    p.add_argument("-m", "--measure", action="append", dest="measures", metavar="MEASURE",
                   help="measure name, repeatable (default: AP and nDCG@10)")
    p.add_argument("--test", choices=_TESTS, default=None,
                   help="tukey (randomised Tukey HSD), tukey-studentized, or a paired test "
                   "with a correction (default: tukey for 3 or more runs without --baseline, "
                   "else t)")
    p.add_argument("--correction", choices=("holm", "bonferroni", "bh", "none"), default="holm",
                   help="correction of the paired tests within a measure (default: holm; "
                   "Tukey's HSD needs none)")
    p.add_argument("--baseline", metavar="NAME", help="compare every run with this one")
    p.add_argument("--alpha", type=probability, default=0.05,
                   help="significance level (default: 0.05)")
    p.add_argument("--n-resamples", type=positive_int, default=10_000, metavar="N",
                   help="rounds of the resampling tests and bootstrap intervals (default: 10000)")
    p.add_argument("--seed", type=nonnegative_int, default=0,
                   help="seed of the resampling (default: 0, so that results repeat)")
    p.add_argument("--names", choices=("stem", "tag"), default="stem",
                   help="name runs by file stem (default) or by the run tag of their first line")
    p.add_argument("-l", "--relevance-level", type=nonnegative_int, default=1, metavar="N",
                   help="minimum relevance that counts as relevant (default: 1)")
    p.add_argument("--missing", choices=("zero", "skip", "error"), default="zero",
                   help="judged queries absent from a run: score 0 (default), leave out, or fail")
    p.add_argument("--format", choices=("table", "json", "csv", "markdown", "latex"),
                   default="table", help="output format (default: table)")
    p.add_argument("--decimals", type=nonnegative_int, default=None, metavar="N",
                   help="decimals of the means in markdown and latex (default: 4 and 3)")
    p.add_argument("--effect-sizes", action="store_true",
                   help="latex: add the table of tested pairs, effect sizes with their "
                   "intervals (markdown always has it)")
    p.add_argument("--per-query", metavar="FILE",
                   help="also write every per-query value to FILE (CSV: measure, query_id, "
                   "system, value)")
    p.add_argument("--fail-on-regression", action="store_true",
                   help="exit with status 3 when some run is significantly worse than "
                   "--baseline on an asked measure (after the correction); 0 otherwise")
    p.set_defaults(handler=_cmd_compare)


# --------------------------------------------------------------------------- names


def _run_tag(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            for raw in handle:
                fields = raw.split()
                if fields:
                    if len(fields) < 6:
                        raise InputError("a TREC run line needs 6 fields (qid Q0 docno rank "
                                         "score tag) to name the run by its tag", path=path,
                                         line=1)
                    return fields[5].decode("utf-8", "replace")
    except OSError as exc:
        raise InputError(f"cannot read the run: {exc.strerror}", path=path) from None
    raise InputError("the run is empty; it has no tag to be named by", path=path)


def run_names(paths, by: str = "stem") -> list[str]:
    """A distinct name per run file: its stem, or its run tag.

    Examples
    --------
    >>> run_names(["runs/bm25.run", "dense.txt"])
    ['bm25', 'dense']
    """
    names = [_run_tag(p) if by == "tag" else os.path.splitext(os.path.basename(p))[0]
             for p in paths]
    seen: dict[str, str] = {}
    for name, path in zip(names, paths, strict=True):
        if name in seen:
            other = "--names stem" if by == "tag" else "--names tag"
            raise InputError(f"two runs are named {name!r} (by {by}): {seen[name]} and {path}; "
                             f"rename a file or try {other}")
        seen[name] = path
    return names


# --------------------------------------------------------------------------- command


def _cmd_compare(args) -> int:
    import warnings

    if "numpy" not in sys.modules:
        # Nothing here multiplies large matrices: a pool of OpenBLAS threads, started when
        # numpy loads, would cost more (0.06-0.1 s on two cores) than it could save.
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from reteval.comparison.core import check_options, common_scores, compare_arrays
    from reteval.evaluation.checks import check_arguments
    from reteval.evaluation.columns import evaluate_runs
    from reteval.report import means
    from reteval.stats.results import format_pvalue

    if args.fail_on_regression and args.baseline is None:
        raise InputError("--fail-on-regression needs --baseline NAME: a regression is a run "
                         "significantly worse than the baseline")
    names = run_names(args.runs, args.names)
    if args.baseline is not None and args.baseline not in names:
        raise InputError(f"--baseline must name one of the runs {names}; got {args.baseline!r}")
    if len(names) < 2:
        raise InputError("compare needs at least 2 runs")
    measures = args.measures or ["AP", "nDCG@10"]
    test = args.test or ("tukey" if len(names) >= 3 and args.baseline is None else "t")
    check_options(names, args.baseline, test, args.correction, args.alpha, 0.95)
    # the names parsed once; the numbers keep each column's Measure
    columns = dict(check_arguments(measures, args.relevance_level, args.missing))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluated = evaluate_runs(args.qrels, dict(zip(names, args.runs, strict=True)), columns,
                                  relevance_level=args.relevance_level, missing=args.missing)
    for message in dict.fromkeys(str(w.message) for w in caught):
        print(f"reteval: warning: {message}", file=sys.stderr)
    queries, scores = common_scores(evaluated, names)
    numbers = compare_arrays(scores, names, queries=queries, baseline=args.baseline, test=test,
                             correction=args.correction, alpha=args.alpha, rng=args.seed,
                             n_resamples=args.n_resamples, parsed=columns)
    if args.per_query is not None:
        _write_per_query(args.per_query, numbers)
    options = {}
    if args.format in ("markdown", "latex") and args.decimals is not None:
        options["decimals"] = args.decimals
    if args.format == "latex":
        options["effect_sizes"] = args.effect_sizes
    render = {"table": means.render_table, "json": means.render_json,
              "csv": means.render_csv, "markdown": means.render_markdown,
              "latex": means.render_latex}[args.format]
    sys.stdout.write(render(numbers, **options))
    if args.fail_on_regression:
        worse = regressions(numbers)
        for r in worse:
            p = format_pvalue(r["pvalue_corrected"])
            print(f"reteval: regression: {r['system']} is significantly worse than "
                  f"{r['other']} on {r['measure']} ({r['mean_difference']:+.4f}, corrected "
                  f"p {p if p.startswith('<') else '= ' + p})", file=sys.stderr)
        return 3 if worse else 0
    return 0


def regressions(numbers) -> list:
    """The tested pairs in which a run is significantly worse than the baseline.

    A pair counts when it is significant after the correction (Tukey's HSD: family-wise)
    and the run's value is below the baseline's; a run equal to the baseline on every
    query is never significant (:func:`reteval.comparison.core.compare_arrays`).

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> pairs = [{"system": "new", "other": "bm25", "measure": "AP", "significant": True,
    ...           "mean_difference": -0.1},
    ...          {"system": "new", "other": "bm25", "measure": "RR", "significant": True,
    ...           "mean_difference": 0.2}]
    >>> [r["measure"] for r in regressions(NS(baseline="bm25", pairs=pairs))]
    ['AP']
    """
    return [r for r in numbers.pairs
            if r["other"] == numbers.baseline and r["significant"]
            and r["mean_difference"] < 0]


def _write_per_query(path: str, numbers) -> None:
    """Every per-query value, one CSV row each: measure, query_id, system, value."""
    import csv

    try:
        with open(path, "w", newline="", encoding="utf-8") as handle:
            out = csv.writer(handle)
            out.writerow(["measure", "query_id", "system", "value"])
            for m in numbers.measures:
                x = numbers.scores[m]
                for i, q in enumerate(numbers.queries):
                    for j, s in enumerate(numbers.systems):
                        out.writerow([m, q, s, repr(float(x[i, j]))])
    except OSError as exc:
        raise InputError(f"cannot write the per-query values: {exc.strerror}",
                         path=path) from None
