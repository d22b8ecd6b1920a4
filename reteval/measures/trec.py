"""trec_eval's spellings of a measure, their order, and the table of ``docs/measures.md``."""

from __future__ import annotations

from reteval.measures.measure import Measure
from reteval.measures.names import parse_measure, trec_printed
from reteval.measures.registry import LEVELS, NICKNAMES, REGISTRY, TREC_NAMES

__all__ = ["measures_markdown", "measures_table", "trec_name", "trec_order"]


def _trec_text(measure: Measure):
    """``(trec name, order)`` of a measure, or None when trec_eval has no such measure."""
    family = measure.spec
    if measure.rel is not None or measure.judged_only or not family.trec:
        return None
    if family.name == "nDCG" and measure.cutoff is not None:
        if measure.gains is not None:
            return None
        trec = family.trec[1]
        return trec_printed(trec, measure.cutoff), trec.order
    trec = family.trec[0]
    if trec.kind in ("long", "double"):
        if measure.cutoff is None:
            return None
        return trec_printed(trec, measure.cutoff), trec.order
    if family.name == "AP" and measure.cutoff is not None:
        trec = family.trec[1]
        return trec_printed(trec, measure.cutoff), trec.order
    if family.cutoff == "optional" and measure.cutoff is not None:
        return None
    if trec.kind == "pairs":
        pairs = [f"{level}={gain:g}" for level, gain in measure.gains or ()]
        if measure.p is not None and measure.p != family.defaults.get("p", 0.9):
            pairs.append(f"p={measure.p:g}")
        return (f"{trec.name}_{','.join(pairs)}" if pairs else trec.name), trec.order
    if trec.kind == "doubles" and trec.field == "beta":
        beta = measure.beta
        return (trec.name if beta in (None, 1) else f"{trec.name}_{beta:g}"), trec.order
    if trec.kind == "doubles":
        values = measure.weights if trec.field != "levels" else measure.levels
        if values is None or (trec.field == "levels" and values == LEVELS):
            return trec.name, trec.order
        return f"{trec.name}_{','.join(f'{v:g}' for v in values)}", trec.order
    return trec.name, trec.order


def trec_name(measure, *, label: str | None = None) -> str | None:
    """The name trec_eval prints for a measure, or None when trec_eval has no such measure.

    Measures with their own ``rel`` or ``judged_only`` have no trec_eval name (trec_eval's
    ``-l`` and ``-J`` are global). A name trec_eval prints is returned as given: the
    parameters of ``utility_2,-1,0,0`` or ``11pt_avg_.25,.5`` keep their spelling. A
    :class:`Measure` parsed already keeps the spelling of its ``label``, the name it was
    asked by, in the same way (and is not parsed again).

    Examples
    --------
    >>> trec_name("nDCG@10"), trec_name("AP"), trec_name("IPrec@0.1"), trec_name("Judged@10")
    ('ndcg_cut_10', 'map', 'iprec_at_recall_0.10', None)
    >>> trec_name("11pt_avg_.25,.5,.75"), trec_name("GMAP"), trec_name("nDCG(1=3,2=9)")
    ('11pt_avg_.25,.5,.75', 'gm_map', 'ndcg_1=3,2=9')
    >>> trec_name(parse_measure("utility.2,-1,0,0"), label="utility.2,-1,0,0")
    'utility_2,-1,0,0'
    """
    m = parse_measure(measure)
    text = _trec_text(m)
    if text is None:
        return None
    if label is None and isinstance(measure, str):
        label = measure
    if label is not None:
        given = label.strip()
        base = given.partition(".")[0]
        for cut in range(len(given) - 1, 0, -1):
            if base in TREC_NAMES:  # ndcg_cut.10 is ndcg_cut's, not ndcg's
                break
            if given[cut] == "_" and given[:cut] in TREC_NAMES:
                base = given[:cut]
                break
        if (base in TREC_NAMES and TREC_NAMES[base][0].kind in ("pairs", "doubles")
                and given != base):
            return given.replace(".", "_", 1) if "." in given[:len(base) + 1] else given
    return text[0]


def trec_order(measure) -> int:
    """The place of a measure in trec_eval's output (its table of measures); large if none."""
    text = _trec_text(parse_measure(measure))
    return 1000 if text is None else text[1]


def measures_markdown() -> str:
    """The whole page ``docs/measures.md`` (``python -m reteval.measures.trec`` prints it)."""
    return (
        "# Measures\n\n"
        "Every measure reteval computes, with its trec_eval name where trec_eval has one "
        "(trec_eval 10;\nvalues are identical). Generated from the measure registry "
        "(`reteval/measures/registry.py`) by\n"
        "`python -m reteval.measures.trec > docs/measures.md`; a test "
        "checks that this page matches it.\n\n"
        "A trec_eval name takes its parameters after a dot (`P.5,10`, `ndcg.1=3,2=9`) and is "
        "printed\nwith an underscore (`P_5`, `ndcg_1=3,2=9`); both spellings are accepted. "
        "reteval names\ntake a cutoff after `@` and parameters in parentheses "
        "(`P(rel=2)@10`, `AP(judged_only=True)`).\n\n"
        + measures_table()
        + "\n## trec_eval's options\n\n"
        "| trec_eval | `reteval evaluate` | `reteval.evaluate(...)` |\n|---|---|---|\n"
        "| `-m NAME` | `-m NAME`, `--measure` | `measures=[...]` |\n"
        "| `-q` | `-q`, `--per-query`, `--query_eval_wanted` | one row per query, always |\n"
        "| `-c` | `-c`, `--complete_rel_info_wanted` (the default: `--missing zero`) | "
        "`missing=\"zero\"` (the default) |\n"
        "| no `-c` | `--missing skip` | `missing=\"skip\"` |\n"
        "| `-l N` | `-l N`, `--relevance-level`, `--level_for_rel` | `relevance_level=N` |\n"
        "| `-M N` | `-M N`, `--max-docs`, `--Max_retrieved_per_topic` | `max_docs=N` |\n"
        "| `-J` | `-J`, `--judged-only`, `--Judged_docs_only` | `judged_only=True` (or "
        "`AP(judged_only=True)` for one measure) |\n"
        "| `-N N` | `-N N`, `--num-docs`, `--Number_docs_in_coll` | `num_docs=N` |\n"
        "| `-R FORMAT` | `-R FORMAT`, `--rel-format`, `--Rel_info_format` | "
        "`rel_format=FORMAT` |\n"
        "| `-Z FILE` | `-Z FILE`, `--zscores`, `--Zscore` | `zscores=FILE` |\n"
        "\n`-c` is reteval's default: a judged query absent from the run scores 0 and counts "
        "in the mean\n(a warning names it; `-c` given explicitly silences it). trec_eval "
        "without `-c` leaves such\nqueries out: `--missing skip`. Several runs "
        "(`reteval evaluate QRELS RUN1 RUN2`) give one\ntable with a column naming the run; "
        "`--format trec` prints one block per run, as trec_eval\nwould for each.\n"
        "\n`reteval evaluate --format trec` prints trec_eval's text: the same names, order, "
        "`runid`,\n`relstring` and `Z` lines, and values (`%6.4f` of the same doubles), "
        "queries in trec_eval's\norder (their ids as text). Everywhere else (the per-query "
        "DataFrame, `--format table`, `csv`,\n`json`), all-digit query ids come in numeric "
        "order (`2` before `10`), before the other ids in\ntext order.\n"
        "\n`-l`, `relevance_level` and `rel=` may be decimals, for fractional grades (an LLM "
        "judge's 0.7):\nbinary measures count grades `>=` the level, nDCG and DCG take the "
        "grade as gain; trec_eval's\ngain-table measures (`G`, `Rndcg`, `nDCG_rel`, `TrecRBP`, "
        "`ndcg.1=...`) need integer grades\n([fractional grades](inputs.md#fractional-grades)).\n"
        "\nTwo places where trec_eval 10 prints what is arguably a slip, and reteval does "
        "not:\n\n"
        "* with `-J`, a query none of whose retrieved documents is judged: trec_eval's "
        "`iprec_at_recall` and\n  `11pt_avg` divide 0 by 0 and print `-nan` (and so does its "
        "`all` line); reteval gives 0.\n"
        "* with `-c`: trec_eval's `num_rel` `all` line is the number of judgments with a "
        "grade above 0, over\n  every judged query, whatever `-l` says and even under `-Z` "
        "(where it prints that raw count\n  among the z-scores); it equals the sum of the "
        "per-query values only at `-l 1` without `-Z`.\n  reteval's `all` line sums the "
        "per-query `num_rel` (grades of the level or more; their z-scores\n  under `-Z`). "
        "Without `-c` trec_eval sums the per-query values too.\n"
    )


def measures_table() -> str:
    """The Markdown table of ``docs/measures.md``: every family, its trec_eval names.

    Examples
    --------
    >>> print(measures_table().splitlines()[3])
    | `num_q` | `NumQ` | none | 1 for every evaluated query (summed: the number of queries) |
    """
    rule = {"none": "none", "optional": "optional k", "required": "k",
            "recall": "recall level r", "multiple": "multiple m of R"}
    lines = ["| trec_eval name | reteval name | cutoff | what it is |", "|---|---|---|---|"]
    rows = []
    for family in REGISTRY:
        names = []
        for trec in family.trec:
            if trec.kind == "long" or trec.kind == "double":
                shown = f"`{trec.name}.a,b,...` (default " + ",".join(
                    f"{v:g}" for v in trec.defaults) + ")"
            elif trec.kind == "pairs":
                shown = f"`{trec.name}`, `{trec.name}.1=g1,2=g2,...`"
            elif trec.kind == "doubles" and trec.field == "beta":
                shown = f"`{trec.name}`, `{trec.name}.x` (x the weight beta, default 1)"
            elif trec.kind == "doubles":
                shown = f"`{trec.name}`, `{trec.name}.x,y,...`"
            else:
                shown = f"`{trec.name}`"
            names.append((trec.order, shown))
        order = min((o for o, _ in names), default=1000)
        aliases = "".join(f", `{a}`" for a in family.aliases)
        shown_names = ", ".join(s for _, s in names) or "(none)"
        row = (f"| {shown_names} | `{family.name}`{aliases} | {rule[family.cutoff]} | "
               f"{family.description} |")
        rows.append((order, row))
    rows.append((0, "| `runid` | (text) | none | the run's tag: a line of `--format trec` |"))
    relstring = ("| `relstring`, `relstring.n` | (text) | none | the grades of the top n "
                 "documents as characters, per query: lines of `--format trec -q` |")
    rows.append((12, relstring))
    lines += [row for _, row in sorted(rows, key=lambda r: r[0])]
    note = ("Preference measures need `-R prefs` or `-R qrels_prefs` judgments "
            "(`rel_format=` in Python), the `*_avgjg` measures `-R qrels_jg`.")
    grammar = ("These judgment files and the `-Z` file (`query measure mean stddev` lines) follow "
               "the runs' and\nqrels' grammar (`reteval/io/textfile.py`): lines end at LF, CR LF "
               "or CR, fields are split on ASCII\nwhite space only (a no-break space or U+0085 is "
               "part of a field), numbers are trec_eval's decimals\nas whole fields (`1_0`, `inf` "
               "refused), and a judgment file with no judgment line (empty, or only\ncomments) is "
               "refused as an empty qrels file is; every error names the file and the line, and "
               "the\nquery and document of the line.")
    lines += ["", note, grammar]
    nicknames = "; ".join(f"`{k}`: " + " ".join(v) for k, v in NICKNAMES.items())
    lines += ["", f"trec_eval's nicknames: {nicknames}."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover
    print(measures_markdown(), end="")
