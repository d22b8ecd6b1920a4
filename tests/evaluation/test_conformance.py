"""reteval against trec_eval's own expected outputs (shared/conformance/trec_eval).

Each case is one `quicktest` target of trec_eval's Makefile: an input pair, the flags,
and the expected output file. Every measure reteval has is compared on every query
and on the average, to the precision trec_eval prints (4 decimals).
"""

import warnings

import pytest

from reteval import evaluate
from reteval.evaluation.engine import aggregate

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
TREC_TO_RETEVAL.update({"infAP": "infAP", "set_P": "SetP", "set_recall": "SetR", "set_F": "SetF",
                        "num_q": "NumQ"})
for _level in ("0.00", "0.10", "0.20", "0.25", "0.30", "0.40", "0.50", "0.60", "0.70", "0.75",
               "0.80", "0.90", "1.00"):
    TREC_TO_RETEVAL[f"iprec_at_recall_{_level}"] = f"IPrec@{float(_level)}"
# out.test.meas_params: P.5,7,3 recall.20,2000 ndcg_cut.10,20,23.4 success.2,5,20 iprec_at_recall...
TREC_TO_RETEVAL.update({"P_3": "P@3", "P_7": "P@7", "recall_2000": "R@2000",
                        "ndcg_cut_23": "nDCG@23", "success_2": "Success@2",
                        "success_20": "Success@20"})

CASES = [
    # expected output, qrels, run, trec_eval flags -> reteval options
    ("out.test", "qrels.test", "results.test", {"missing": "error"}),
    ("out.test.a", "qrels.test", "results.test", {"missing": "error"}),
    ("out.test.aq", "qrels.test", "results.test", {"missing": "error"}),
    ("out.test.aqc", "qrels.test", "results.trunc", {"missing": "zero"}),  # -c
    ("out.test.aql", "qrels.rel_level", "results.test", {"relevance_level": 2}),  # -l2
    ("out.comment.test", "qrels.comment.test", "results.comment.test", {}),
    ("out.test", "qrels.test.with-comments", "results.test", {}),
    ("out.test.meas_params", "qrels.test", "results.test", {"missing": "error"}),
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


def test_official_text_output_is_trec_evals(conformance_dir):
    # `trec_eval qrels.test results.test` (out.test) and with -q (out.test.aq, the official
    # measures' lines): the same text, but for the runid and gm_map lines reteval does not print.
    from reteval.evaluation.formats import to_trec_eval

    per_query = evaluate(conformance_dir / "qrels.test", conformance_dir / "results.test",
                         ["official"], missing="error")
    expected = [line for line in (conformance_dir / "out.test").read_text().splitlines()
                if not line.startswith(("runid", "gm_map"))]
    assert to_trec_eval(per_query).splitlines() == expected
    official = {line.split()[0] for line in expected}
    expected_q = [line for line in (conformance_dir / "out.test.aq").read_text().splitlines()
                  if line.split()[0] in official]
    got_q = to_trec_eval(per_query, queries=True).splitlines()
    assert sorted(got_q) == sorted(expected_q)  # out.test.aq orders measures as -m all_trec does
    assert len(got_q) == len(expected_q) > 100
