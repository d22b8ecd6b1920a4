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
pair), ``markdown`` and ``latex`` (the means table with marks).

The default procedure, the randomised Tukey HSD, is computed on numpy arrays
(:func:`reteval.evaluation.compare_arrays.tukey_numbers`: the numbers of
:func:`~reteval.evaluation.comparison.compare_scores`, the same random draws), so that
the command loads neither pandas nor scipy; the other tests go through
``compare_scores``. Every renderer takes either.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

from reteval._util.latex import system_letters, tex_escape
from reteval.errors import InputError

__all__ = ["add_subcommands", "render_csv", "render_json", "render_latex", "render_markdown",
           "render_table", "run_names"]

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
        "Holm's correction.",
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
    p.add_argument("--alpha", type=_probability, default=0.05,
                   help="significance level (default: 0.05)")
    p.add_argument("--n-resamples", type=_positive_int, default=10_000, metavar="N",
                   help="rounds of the resampling tests and bootstrap intervals (default: 10000)")
    p.add_argument("--seed", type=_nonnegative_int, default=0,
                   help="seed of the resampling (default: 0, so that results repeat)")
    p.add_argument("--names", choices=("stem", "tag"), default="stem",
                   help="name runs by file stem (default) or by the run tag of their first line")
    p.add_argument("-l", "--relevance-level", type=_nonnegative_int, default=1, metavar="N",
                   help="minimum relevance that counts as relevant (default: 1)")
    p.add_argument("--missing", choices=("zero", "skip", "error"), default="zero",
                   help="judged queries absent from a run: score 0 (default), leave out, or fail")
    p.add_argument("--format", choices=("table", "json", "csv", "markdown", "latex"),
                   default="table", help="output format (default: table)")
    p.set_defaults(handler=_cmd_compare)


def _probability(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be strictly between 0 and 1; got {text!r}")
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer; got {text!r}")
    return value


def _nonnegative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0; got {text!r}")
    return value


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


def _common_scores(evaluated, names) -> tuple[list, dict]:
    """The queries every run was evaluated on (in the first run's order) and, per measure,
    their scores as a queries x runs array."""
    import numpy as np

    first = evaluated[names[0]][0]
    common = first
    for name in names[1:]:
        ids = evaluated[name][0]
        if ids != common:
            present = set(ids)
            common = [q for q in common if q in present]
    if not common:
        raise InputError("no query was evaluated for every run; nothing to compare")
    rows = {}  # run -> positions of the common queries in its values (None: all, in order)
    for name in names:
        ids = evaluated[name][0]
        if ids == common:
            rows[name] = None
        else:
            where = {q: i for i, q in enumerate(ids)}
            rows[name] = np.array([where[q] for q in common], dtype=np.intp)
    scores = {}
    for label in evaluated[names[0]][1]:
        matrix = np.empty((len(common), len(names)))
        for j, name in enumerate(names):
            values = np.asarray(evaluated[name][1][label], dtype=float)
            matrix[:, j] = values if rows[name] is None else values[rows[name]]
        scores[label] = matrix
    return common, scores


def _cmd_compare(args) -> int:
    import warnings

    if "numpy" not in sys.modules:
        # Nothing here multiplies large matrices: a pool of OpenBLAS threads, started when
        # numpy loads, would cost more (0.06-0.1 s on two cores) than it could save.
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from reteval.evaluation.engine import evaluate_runs

    names = run_names(args.runs, args.names)
    if args.baseline is not None and args.baseline not in names:
        raise InputError(f"--baseline must name one of the runs {names}; got {args.baseline!r}")
    if len(names) < 2:
        raise InputError("compare needs at least 2 runs")
    measures = args.measures or ["AP", "nDCG@10"]
    test = args.test or ("tukey" if len(names) >= 3 and args.baseline is None else "t")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluated = evaluate_runs(args.qrels, dict(zip(names, args.runs, strict=True)), measures,
                                  relevance_level=args.relevance_level, missing=args.missing)
    for message in dict.fromkeys(str(w.message) for w in caught):
        print(f"reteval: warning: {message}", file=sys.stderr)
    queries, scores = _common_scores(evaluated, names)
    if test == "tukey" and len(queries) >= 2:
        # The randomised Tukey HSD (the default) is computed on the arrays, with the same
        # numbers as compare_scores gives, without loading pandas or scipy.
        from reteval.evaluation.compare_arrays import tukey_numbers

        comparison = tukey_numbers(scores, names, queries=queries, baseline=args.baseline,
                                   alpha=args.alpha, rng=args.seed, n_resamples=args.n_resamples)
    else:
        import pandas as pd

        from reteval.evaluation.comparison import compare_scores

        index, columns = pd.Index(queries, name="query_id"), pd.Index(names, name="system")
        frames = {label: pd.DataFrame(matrix, index=index, columns=columns)
                  for label, matrix in scores.items()}
        comparison = compare_scores(frames, baseline=args.baseline, test=test,
                                    correction=args.correction, alpha=args.alpha,
                                    rng=args.seed, n_resamples=args.n_resamples)
    render = {"table": render_table, "json": render_json, "csv": render_csv,
              "markdown": render_markdown, "latex": render_latex}[args.format]
    sys.stdout.write(render(comparison))
    return 0


# --------------------------------------------------------------------------- rendering
# Every renderer takes a Comparison (reteval.compare, compare_scores) or the numbers
# reteval compare computes for its default procedure (compare_arrays.ComparisonNumbers).


def _numbers(c):
    from reteval.evaluation.compare_arrays import comparison_numbers

    return comparison_numbers(c)


def _marks(c) -> dict:
    """``(measure, system) -> mark``: letters of the runs it beats, or ▲/▼ against the baseline."""
    marks: dict = {}
    letter = {s: system_letters(k) for k, s in enumerate(c.systems)}
    for r in c.pairs:
        if not r["significant"] or r["mean_difference"] == 0:
            continue
        up = r["mean_difference"] > 0
        if c.baseline is not None:
            marks[r["measure"], r["system"]] = "▲" if up else "▼"
        else:
            win, lose = (r["system"], r["other"]) if up else (r["other"], r["system"])
            marks.setdefault((r["measure"], win), []).append(lose)
    for key, value in marks.items():
        if isinstance(value, list):
            ordered = sorted(value, key=list(c.systems).index)
            sep = "," if any(len(letter[x]) > 1 for x in ordered) else ""
            marks[key] = sep.join(letter[x] for x in ordered)
    return marks


def _procedure_text(c) -> str:
    names = {"tukey": "randomised Tukey HSD", "tukey-studentized": "Tukey HSD (studentized range)",
             "t": "paired t test", "wilcoxon": "Wilcoxon signed-rank test",
             "randomization": "randomization test", "bootstrap": "paired bootstrap test"}
    test = names.get(c.test, c.test)
    if c.test.startswith("tukey"):
        family = f"all {len(c.systems) * (len(c.systems) - 1) // 2} pairs, family-wise"
    else:
        corr = "no correction" if c.correction == "none" else f"{c.correction} correction"
        family = ("each run against " + c.baseline if c.baseline is not None
                  else "every pair") + f", {corr},"
    rounds = (f" ({c.n_resamples} rounds)" if c.test in ("tukey", "randomization", "bootstrap")
              else "")
    return f"{test}{rounds} over {family} alpha {c.alpha:g}"


def _pair_rows(c):
    """Tested pairs with their effect size ``diff / sqrt(V_E)`` and its interval."""
    rows = []
    for r in c.pairs:
        a = c.anova.get(r["measure"])
        sd = math.sqrt(a.residual_variance) if a is not None and a.residual_variance > 0 \
            else math.nan
        diff, low, high = r["mean_difference"], r["ci_low"], r["ci_high"]
        rows.append({"measure": r["measure"], "system": r["system"], "other": r["other"],
                     "mean_difference": diff, "effect_size": diff / sd,
                     "es_low": low / sd, "es_high": high / sd, "ci_low": low, "ci_high": high,
                     "pvalue": r["pvalue"], "pvalue_corrected": r["pvalue_corrected"],
                     "significant": bool(r["significant"])})
    return rows


def _legend(c) -> str:
    if c.baseline is not None:
        return f"▲/▼: significantly above/below {c.baseline} at alpha {c.alpha:g}"
    return f"letters: significantly better than that run at alpha {c.alpha:g}"


def render_table(c) -> str:
    """The means table with marks, then per measure the ANOVA and the pairs."""
    c = _numbers(c)
    marks = _marks(c)
    letter = {s: system_letters(k) for k, s in enumerate(c.systems)}
    means = c.means
    label = {s: (f"({letter[s]}) " if c.baseline is None else "") + s
             + (" (baseline)" if s == c.baseline else "") for s in c.systems}
    cells = {(m, s): f"{means[m][s]:.4f} {marks.get((m, s), '')}".rstrip()
             for m in c.measures for s in c.systems}
    name_w = max(len(v) for v in label.values())
    widths = {m: max(len(m), *(len(cells[m, s]) for s in c.systems)) for m in c.measures}
    out = [f"{len(c.systems)} runs, {c.n_queries} queries; {_procedure_text(c)}",
           " " * name_w + "".join(f"  {m:<{widths[m]}}" for m in c.measures)]
    for s in c.systems:
        out.append(f"{label[s]:<{name_w}}" + "".join(f"  {cells[m, s]:<{widths[m]}}"
                                                       for m in c.measures))
    out.append(_legend(c))
    rows = _pair_rows(c)
    pair_w = max([len(f"{r['system']} - {r['other']}") for r in rows] or [0])
    for m in c.measures:
        out.append("")
        a = c.anova.get(m)
        if a is not None:
            out.append(f"{m}: ANOVA F({a.df_system}, {a.df_residual}) = {a.statistic:.3f}, "
                       f"p = {_p(a.pvalue)}; V_E = {a.residual_variance:.5f}; "
                       f"margin of error of a mean +-{a.margin_of_error(c.confidence_level):.4f}")
        else:
            out.append(f"{m}:")
        for r in rows:
            if r["measure"] != m:
                continue
            pair = f"{r['system']} - {r['other']}"
            star = " *" if r["significant"] else ""
            out.append(f"  {pair:<{pair_w}}  {r['mean_difference']:+.4f}  ES "
                       f"{r['effect_size']:+.2f} [{r['es_low']:+.2f}, {r['es_high']:+.2f}]  "
                       f"p {_p(r['pvalue_corrected'])}{star}")
    level = f"{100 * c.confidence_level:g}%"
    out.append("")
    out.append(f"ES: mean difference / sqrt(V_E), [{level} interval of the test]; "
               f"p: {'family-wise (Tukey)' if c.test.startswith('tukey') else 'corrected'}; "
               f"* significant at {c.alpha:g}")
    return "\n".join(line.rstrip() for line in out) + "\n"


def _p(p) -> str:
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "-"
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"


def _num(value):
    value = float(value)
    return value if math.isfinite(value) else None


def render_json(c) -> str:
    """Everything: means, ANOVA per measure, every tested pair, the summary."""
    c = _numbers(c)
    means = c.means
    doc = {
        "num_queries": c.n_queries, "systems": list(c.systems), "measures": list(c.measures),
        "baseline": c.baseline, "test": c.test, "correction": c.correction, "alpha": c.alpha,
        "n_resamples": c.n_resamples,
        "means": {m: {s: _num(means[m][s]) for s in c.systems} for m in c.measures},
        "anova": {m: {"statistic": _num(a.statistic), "pvalue": _num(a.pvalue),
                      "df_system": a.df_system, "df_residual": a.df_residual,
                      "residual_variance": _num(a.residual_variance),
                      "margin_of_error": _num(a.margin_of_error(c.confidence_level))}
                  for m, a in c.anova.items()},
        "pairs": [{k: (_num(v) if isinstance(v, float) else v) for k, v in r.items()}
                  for r in _pair_rows(c)],
        "summary": list(c.summary),
    }
    return json.dumps(doc, indent=2, allow_nan=False, ensure_ascii=False) + "\n"


def render_csv(c) -> str:
    """One row per tested pair and measure, with both means."""
    import pandas as pd

    c = _numbers(c)
    rows = _pair_rows(c)
    means = c.means
    frame = pd.DataFrame(rows, columns=["measure", "system", "other", "mean_difference",
                                        "effect_size", "es_low", "es_high", "ci_low", "ci_high",
                                        "pvalue", "pvalue_corrected", "significant"])
    frame.insert(3, "mean_system", [float(means[r["measure"]][r["system"]]) for r in rows])
    frame.insert(4, "mean_other", [float(means[r["measure"]][r["other"]]) for r in rows])
    return frame.to_csv(index=False, float_format="%.6g")


def _md(text: str) -> str:
    return "".join("\\" + ch if ch in "\\`*_{}[]<>()#+-.!|~" else ch for ch in str(text))


def render_markdown(c) -> str:
    """The means table with marks, then the pairs, as Markdown."""
    c = _numbers(c)
    marks = _marks(c)
    letter = {s: system_letters(k) for k, s in enumerate(c.systems)}
    means = c.means
    lines = [f"{len(c.systems)} runs, {c.n_queries} queries; {_md(_procedure_text(c))}", "",
             "| Run | " + " | ".join(_md(m) for m in c.measures) + " |",
             "|:---|" + "---:|" * len(c.measures)]
    for s in c.systems:
        name = (f"({letter[s]}) " if c.baseline is None else "") + _md(s)
        cells = [f"{means[m][s]:.4f}" + (f" {marks[m, s]}" if (m, s) in marks else "")
                 for m in c.measures]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", _md(_legend(c)), "",
              "| Measure | Run | Other | Difference | Effect size | Interval | p |",
              "|:---|:---|:---|---:|---:|---:|---:|"]
    star = " \\*"
    for r in _pair_rows(c):
        lines.append(f"| {_md(r['measure'])} | {_md(r['system'])} | {_md(r['other'])} | "
                     f"{r['mean_difference']:+.4f} | {r['effect_size']:+.2f} | "
                     f"[{r['es_low']:+.2f}, {r['es_high']:+.2f}] | {_p(r['pvalue_corrected'])}"
                     f"{star if r['significant'] else ''} |")
    return "\n".join(lines) + "\n"


def render_latex(c) -> str:
    """A ``tabular`` of the means: superscript letters (or arrows), best mean in bold.

    The arrows of a comparison with a baseline need ``\\usepackage{amssymb}``.
    """
    c = _numbers(c)
    marks = _marks(c)
    letter = {s: system_letters(k) for k, s in enumerate(c.systems)}
    means = c.means
    best = {m: max(means[m].values()) for m in c.measures}
    lines = [(f"% reteval compare: {len(c.systems)} runs, {c.n_queries} queries; "
              f"{tex_escape(_procedure_text(c))}"),
             r"\begin{tabular}{ll " + "r" * len(c.measures) + "}", r"\hline",
             " & Run & " + " & ".join(tex_escape(m) for m in c.measures) + r" \\", r"\hline"]
    for s in c.systems:
        cells = [f"({letter[s]})" if c.baseline is None else "", tex_escape(s)]
        for m in c.measures:
            value = f"{means[m][s]:.3f}"
            cell = rf"\textbf{{{value}}}" if means[m][s] == best[m] else value
            mark = marks.get((m, s))
            if mark:
                mark = {"▲": r"$\blacktriangle$", "▼": r"$\blacktriangledown$"}.get(mark, mark)
                cell += r"\textsuperscript{" + mark + "}"
            cells.append(cell)
        lines.append(" & ".join(cells) + r" \\")
    legend = tex_escape(_legend(c)).replace("▲/▼", r"$\blacktriangle$/$\blacktriangledown$")
    lines += [r"\hline",
              rf"\multicolumn{{{2 + len(c.measures)}}}{{l}}{{\footnotesize {legend}}} \\",
              r"\end{tabular}"]
    return "\n".join(lines) + "\n"
