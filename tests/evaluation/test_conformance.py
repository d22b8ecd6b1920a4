"""reteval against trec_eval's own expected outputs (shared/conformance/trec_eval).

Each case is one line of the ``quicktest`` target of trec_eval's Makefile: an input pair, the
flags, and the expected output file. The same inputs and flags go through the command line
(``reteval evaluate --format trec``, whose text must be trec_eval's, line for line) and through
the Python API (``evaluate`` with the same measure names and options), and every printed value
(per query and ``all``) is compared to the precision trec_eval prints.
"""

import shlex
import warnings

import pytest

from reteval import evaluate
from reteval.cli import main
from reteval.evaluation.columns import relevance_strings
from reteval.evaluation.engine import aggregate
from reteval.measures import trec_name

# expected output, qrels, run, trec_eval's flags (trec_eval's Makefile, target quicktest)
CASES = [
    ("out.test", "qrels.test", "results.test", ""),
    ("out.test", "qrels.test.with-comments", "results.test", ""),
    ("out.comment.test", "qrels.comment.test", "results.comment.test", ""),
    ("out.test.a", "qrels.test", "results.test", "-m all_trec"),
    ("out.test.aq", "qrels.test", "results.test", "-m all_trec -q"),
    ("out.test.aqc", "qrels.test", "results.trunc", "-m all_trec -q -c"),
    ("out.test.aqcM", "qrels.test", "results.trunc", "-m all_trec -q -c -M100"),
    ("out.test.aql", "qrels.rel_level", "results.test", "-m all_trec -mrelstring.20 -q -l2"),
    ("out.test.meas_params", "qrels.test", "results.test",
     ("-q -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 -m recall.20,2000 "
      "-m Rprec_mult.5.0,0.2,0.35 -mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75 "
      "-mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 -msuccess.2,5,20")),
    ("out.test.aqZ", "qrels.test", "results.test", "-q -m all_trec -Z zscores_file"),
    ("out.test.prefs", "prefs.test", "prefs.results.test", "-m all_prefs -q -R prefs"),
    ("out.test.prefs", "prefs.comment.test", "prefs.results.test", "-m all_prefs -q -R prefs"),
    ("out.test.qrels_prefs", "qrels.test", "results.test", "-m all_prefs -q -R qrels_prefs"),
    ("out.test.qrels_jg", "qrels.123", "results.test", "-m qrels_jg -q -R qrels_jg"),
    ("out.test.qrels_jg", "qrels.comments.123", "results.test", "-m qrels_jg -q -R qrels_jg"),
]
IDS = [f"{c[0]}-{c[1]}" for c in CASES]


def _api_options(flags: str, folder):
    """trec_eval's flags as evaluate's measures and keywords (-q only prints more lines)."""
    args, measures, options = shlex.split(flags), [], {"missing": "error"}
    i = 0
    while i < len(args):
        flag = args[i]
        value = flag[2:] or (args[i + 1] if i + 1 < len(args) else "")
        takes = flag[:2] in ("-m", "-M", "-l", "-Z", "-R")
        if takes and not flag[2:]:
            i += 1
        if flag[:2] == "-m":
            measures.append(value)
        elif flag == "-c":
            options["missing"] = "zero"
        elif flag[:2] == "-M":
            options["max_docs"] = int(value)
        elif flag[:2] == "-l":
            options["relevance_level"] = int(value)
        elif flag[:2] == "-Z":
            options["zscores"] = folder / value
        elif flag[:2] == "-R":
            options["rel_format"] = value
        i += 1
    return measures or ["official"], options


def _expected_lines(path):
    """``(name, query) -> printed value`` of trec_eval's output."""
    expected = {}
    for line in path.read_text().splitlines():
        name, query, value = line.split("\t")
        expected[(name.strip(), query)] = value
    return expected


@pytest.mark.parametrize("expected_file, qrels, run, flags", CASES, ids=IDS)
def test_command_line_prints_trec_evals_text(conformance_dir, capsys, expected_file, qrels, run,
                                             flags):
    args = [str(conformance_dir / a) if a == "zscores_file" else a for a in shlex.split(flags)]
    code = main(["evaluate", "--format", "trec", *args, str(conformance_dir / qrels),
                 str(conformance_dir / run)])
    assert code == 0
    got = capsys.readouterr().out.splitlines()
    expected = (conformance_dir / expected_file).read_text().splitlines()
    assert got == expected


@pytest.mark.parametrize("expected_file, qrels, run, flags", CASES, ids=IDS)
def test_python_api_gives_every_printed_value(conformance_dir, expected_file, qrels, run, flags):
    measures, options = _api_options(flags, conformance_dir)
    numeric = [m for m in measures if not m.startswith(("relstring", "runid"))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        per_query = evaluate(conformance_dir / qrels, conformance_dir / run, numeric, **options)
    overall = aggregate(per_query)
    columns = {trec_name(c) or c: c for c in per_query.columns}
    zscored = "zscores" in options
    checked, mismatches = 0, []
    for (name, query), text in _expected_lines(conformance_dir / expected_file).items():
        if name == "runid" or name.startswith("relstring"):
            continue
        column = columns[name[1:] if zscored else name]
        value = overall[column] if query == "all" else per_query.loc[query, column]
        got = f"{value:.4f}" if "." in text else f"{int(value)}"
        checked += 1
        if got != text:
            mismatches.append(f"{name} {query}: trec_eval {text}, reteval {value!r}")
    assert checked >= 16
    assert not mismatches, "\n".join(mismatches[:20])


def test_relevance_strings_are_trec_evals(conformance_dir):
    # out.test.aql: -mrelstring.20 -l2 on the graded qrels
    expected = {q: v.strip("'") for (name, q), v in
                _expected_lines(conformance_dir / "out.test.aql").items()
                if name == "relstring_20"}
    got = relevance_strings(conformance_dir / "qrels.rel_level", conformance_dir / "results.test",
                            20)
    assert got == expected and len(got) == 3


def test_per_query_output_covers_every_judged_query(conformance_dir):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        per_query = evaluate(conformance_dir / "qrels.test", conformance_dir / "results.trunc",
                             ["AP"], missing="zero")
    assert set(per_query.index) == {"301", "302", "303"}


def test_num_q_matches(conformance_dir):
    # out.comment.test: the run has 301 topics, only 31 are judged -> num_q 31.
    text = (conformance_dir / "out.comment.test").read_text()
    num_q = int(next(line.split()[2] for line in text.splitlines() if line.startswith("num_q")))
    per_query = evaluate(conformance_dir / "qrels.comment.test",
                         conformance_dir / "results.comment.test", ["AP"])
    assert len(per_query) == num_q == 31
