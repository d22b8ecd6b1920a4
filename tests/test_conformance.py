"""reteval against trec_eval's own expected outputs (shared/conformance/trec_eval).

Each case is one `quicktest` target of trec_eval's Makefile: an input pair, the flags,
and the expected output file. Every measure reteval has is compared on every query
and on the average, to the precision trec_eval prints (4 decimals).
"""

import warnings

import pytest

from reteval import evaluate
from reteval.evaluate import aggregate

# trec_eval measure name -> reteval measure name
TREC_TO_RETEVAL = {
    "map": "AP", "Rprec": "Rprec", "bpref": "Bpref", "recip_rank": "RR", "ndcg": "nDCG",
    "num_ret": "NumRet", "num_rel": "NumRel", "num_rel_ret": "NumRelRet",
}
for _k in (5, 10, 15, 20, 30, 100, 200, 500, 1000):
    TREC_TO_RETEVAL.update({f"P_{_k}": f"P@{_k}", f"recall_{_k}": f"R@{_k}",
                            f"map_cut_{_k}": f"AP@{_k}", f"ndcg_cut_{_k}": f"nDCG@{_k}"})
for _k in (1, 5, 10):
    TREC_TO_RETEVAL[f"success_{_k}"] = f"Success@{_k}"

CASES = [
    # expected output, qrels, run, trec_eval flags -> reteval options
    ("out.test", "qrels.test", "results.test", {"missing": "error"}),
    ("out.test.a", "qrels.test", "results.test", {"missing": "error"}),
    ("out.test.aq", "qrels.test", "results.test", {"missing": "error"}),
    ("out.test.aqc", "qrels.test", "results.trunc", {"missing": "zero"}),  # -c
    ("out.test.aql", "qrels.rel_level", "results.test", {"relevance_level": 2}),  # -l2
    ("out.comment.test", "qrels.comment.test", "results.comment.test", {}),
    ("out.test", "qrels.test.with-comments", "results.test", {}),
]


def expected_values(path):
    values = {}
    for line in path.read_text().splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[0] in TREC_TO_RETEVAL:
            values[(TREC_TO_RETEVAL[fields[0]], fields[1])] = fields[2]
    return values


def trec_format(name, value, template):
    decimals = len(template.split(".")[1]) if "." in template else 0
    return f"{value:.{decimals}f}"


@pytest.mark.parametrize("expected_file, qrels, run, options", CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_matches_trec_eval(conformance_dir, expected_file, qrels, run, options):
    expected = expected_values(conformance_dir / expected_file)
    measures = sorted({name for name, _ in expected})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        per_query = evaluate(conformance_dir / qrels, conformance_dir / run, measures, **options)
    overall = aggregate(per_query)
    checked = 0
    mismatches = []
    for (name, query), text in expected.items():
        value = overall[name] if query == "all" else per_query.loc[query, name]
        if trec_format(name, value, text) != text:
            mismatches.append(f"{name} {query}: trec_eval {text}, reteval {value!r}")
        checked += 1
    assert checked >= 16
    assert not mismatches, "\n".join(mismatches[:20])


def test_per_query_output_covers_every_judged_query(conformance_dir):
    expected = expected_values(conformance_dir / "out.test.aqc")
    queries = {q for _, q in expected if q != "all"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        per_query = evaluate(conformance_dir / "qrels.test", conformance_dir / "results.trunc",
                             ["AP"], missing="zero")
    assert set(per_query.index) == queries == {"301", "302", "303"}


def test_num_q_matches(conformance_dir):
    # out.comment.test: the run has 301 topics, only 31 are judged -> num_q 31.
    text = (conformance_dir / "out.comment.test").read_text()
    num_q = int(next(line.split()[2] for line in text.splitlines() if line.startswith("num_q")))
    per_query = evaluate(conformance_dir / "qrels.comment.test",
                         conformance_dir / "results.comment.test", ["AP"])
    assert len(per_query) == num_q == 31
