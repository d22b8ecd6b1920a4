"""A measure name is parsed once on its way to the printed number: the evaluation, the
comparison, its report and ``reteval compare`` use the parsed ``Measure`` objects, never
their column labels parsed again."""

from __future__ import annotations

import collections
import json

import pytest

import reteval
from reteval.cli import main
from reteval.io import write_qrels, write_run
from reteval.measures import names
from reteval.report import to_markdown

QRELS = {f"q{i}": {f"d{i}": 1, f"e{i}": 2} for i in range(1, 7)}
RUNS = {s: {f"q{i}": [f"d{i}", "x", f"e{i}"] if (i + k) % 2 else ["x", f"e{i}", f"d{i}"]
            for i in range(1, 7)}
        for k, s in enumerate(["a", "b"])}
RUNS["c"] = {q: docs[:2] for q, docs in RUNS["a"].items()}  # 2 documents a query, not 3
ASKED = ["nDCG@10", "MAP", "gm_map", "num_ret", "P@1"]


@pytest.fixture
def parses(monkeypatch):
    """How often each name was parsed (every parse, of one name or of a list, expands it)."""
    counts: collections.Counter = collections.Counter()
    expand = names._expand

    def counting(name, *args, **kwargs):
        counts[str(name)] += 1
        return expand(name, *args, **kwargs)

    monkeypatch.setattr(names, "_expand", counting)
    return counts


def test_evaluate_parses_each_name_once(parses):
    per_query = reteval.evaluate(QRELS, RUNS["a"], ASKED)
    assert list(per_query.columns) == ASKED
    assert parses == dict.fromkeys(ASKED, 1)


def test_compare_and_its_report_parse_each_name_once(parses):
    result = reteval.compare(QRELS, RUNS, ASKED, test="tukey", n_resamples=200, rng=0)
    to_markdown(result)
    # c returns 2 documents where a and b return 3: every measure but P@1 sees it
    assert [result.depth_sensitive(m) for m in ASKED] == [True, True, True, True, False]
    assert parses == dict.fromkeys(ASKED, 1)
    # the columns asked, and no other: the documents retrieved come from num_ret
    assert result.measures == tuple(ASKED)
    assert result.retrieved.to_numpy().tolist() == [[3.0, 3.0, 2.0]] * 6
    # each column aggregated as its measure says: gm_map is a geometric mean, num_ret a sum
    assert result.numbers.aggregation == {"nDCG@10": "mean", "MAP": "mean", "gm_map": "gmean",
                                          "num_ret": "sum", "P@1": "mean"}
    assert result.means["num_ret"].tolist() == [18.0, 18.0, 12.0]


def test_compare_command_parses_each_name_once(parses, tmp_path, capsys):
    write_qrels(QRELS, tmp_path / "qrels")
    paths = [str(tmp_path / f"{name}.run") for name in RUNS]
    for path, (name, run) in zip(paths, RUNS.items(), strict=True):
        write_run(run, path, tag=name)
    asked = [arg for m in ASKED for arg in ("-m", m)]
    assert main(["-q", "compare", str(tmp_path / "qrels"), *paths, *asked,
                 "--n-resamples", "200", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["aggregation"] == {"nDCG@10": "mean", "MAP": "mean", "gm_map": "gmean",
                                  "num_ret": "sum", "P@1": "mean"}
    assert parses == dict.fromkeys(ASKED, 1)


@pytest.fixture
def files(tmp_path):
    write_qrels(QRELS, tmp_path / "qrels")
    paths = [str(tmp_path / f"{name}.run") for name in RUNS]
    for path, (name, run) in zip(paths, RUNS.items(), strict=True):
        write_run(run, path, tag=name)
    return str(tmp_path / "qrels"), paths


# run a: 3 documents a query (num_ret 18 over 6 queries), a relevant document first on the
# odd queries only (P@1 0.5)
@pytest.mark.parametrize(("fmt", "per_query", "num_ret", "p1"), [
    ("table", "-q", "num_ret all 18", "P@1 all 0.5000"),
    ("json", "-q", '"num_ret": 18', '"P@1": 0.5'),
    ("csv", "--missing=zero", "num_ret,18", "P@1,0.5"),
    ("trec", "-q", "num_ret all 18", "P_1 all 0.5000"),
])
def test_evaluate_command_parses_each_name_once(parses, files, capsys, fmt, per_query, num_ret,
                                                p1):
    qrels, paths = files
    asked = [*ASKED, "P.5,10", "utility.2,-1,0,0"]
    assert main(["evaluate", qrels, paths[0], *(a for m in asked for a in ("-m", m)),
                 per_query, "--format", fmt]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert num_ret in out and p1 in out
    assert parses == dict.fromkeys(asked, 1)


def test_evaluate_command_parses_once_for_several_runs_and_zscores(parses, files, tmp_path,
                                                                   capsys):
    qrels, paths = files
    zscores = tmp_path / "zscores"
    zscores.write_text("q1 P_1 0.5 0.5\n")
    assert main(["evaluate", qrels, *paths, "-m", "P@1", "-m", "num_ret", "-Z", str(zscores),
                 "-q", "--format", "trec"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    # run a has a relevant document first on q1: (1 - 0.5) / 0.5; the 5 other queries have
    # no entry (-1000000): (1 - 5000000) / 6
    assert "ZP_1 q1 1.0000" in out and "ZP_1 all -833333.1667" in out
    assert parses == {"P@1": 1, "num_ret": 1}


def test_trec_text_and_aggregate_take_parsed_measures(parses):
    columns = dict(names.measure_columns(["P@1", "num_ret", "utility.2,-1,0,0"]))
    per_query = reteval.evaluate(QRELS, RUNS["a"], columns)
    parses.clear()
    text = reteval.evaluation.to_trec_eval(per_query, measures=columns)
    assert reteval.evaluation.aggregate(per_query, measures=columns).tolist() == [
        0.5, 18.0, 3.0]  # utility: 2 for each of 2 relevant retrieved, -1 for the other
    assert text.splitlines()[0] == "num_ret               \tall\t18"
    assert "utility_2,-1,0,0      \tall\t3.0000" in text
    assert parses == {}


def test_monitor_command_parses_each_name_once(parses, files, tmp_path, capsys):
    qrels, paths = files
    other = tmp_path / "other-qrels"  # q1's second document judged not relevant
    write_qrels({**QRELS, "q1": {"d1": 1, "e1": 0}}, other)
    asked = ["nDCG@10", "MAP", "gm_map", "num_ret"]
    history = str(tmp_path / "history.db")
    docs = []
    # the first entry, a baseline with the same judgments, one whose judgments differ
    # (the baseline's run is scored again)
    for run, judgments in ((paths[0], qrels), (paths[1], qrels), (paths[0], str(other))):
        parses.clear()
        status = main(["monitor", history, "--run", run, "--qrels", judgments, "--name", "a",
                       *(a for m in asked for a in ("-m", m)), "--threshold", "P@1=0.9",
                       "--format", "json"])
        assert status == 3  # P@1 is below 0.9 each time
        docs.append(json.loads(capsys.readouterr().out))
        # the options' own check of the regression settings reads a probe column, "x"
        assert {k: v for k, v in parses.items() if k != "x"} == dict.fromkeys([*asked, "P@1"],
                                                                                1)
    # canonical names; run a retrieves 18 documents, b 18 too, with P@1 0.5 and 0.5
    assert [doc["measures"]["NumRet"] for doc in docs] == [18, 18, 18]
    assert [doc["measures"]["P@1"] for doc in docs] == [0.5, 0.5, 0.5]
    assert [doc["baseline_rescored"] for doc in docs] == [False, False, True]


def test_repro_command_parses_each_name_once(parses, files, capsys):
    qrels, (a, b, c) = files
    asked = ["P@1", "num_ret", "MAP"]
    assert main(["repro", qrels, "--original", a, b, "--reproduced", c, a,
                 *(arg for m in asked for arg in ("-m", m)), "--format", "json"]) == 0
    table = json.loads(capsys.readouterr().out)["table"]
    # c is a cut to 2 documents a query: the same first document, 2 retrieved, not 3
    assert table["baseline ARP original"]["P@1"] == 0.5
    assert table["baseline ARP reproduced"]["P@1"] == 0.5
    assert table["baseline ARP original"]["num_ret"] == 3.0
    assert table["baseline ARP reproduced"]["num_ret"] == 2.0
    assert parses == dict.fromkeys(asked, 1)


def test_history_command_parses_each_name_once(parses, files, tmp_path, capsys):
    qrels, paths = files
    history = str(tmp_path / "history.db")
    for run in paths[:2]:
        main(["monitor", history, "--run", run, "--qrels", qrels, "--name", "a",
              "-m", "MAP", "-m", "num_ret", "-m", "P@1"])
    capsys.readouterr()
    parses.clear()
    assert main(["history", history, "-m", "map", "-m", "num_ret"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    # AP by hand: (1 + 2/3) / 2 on half the queries, (1/2 + 2/3) / 2 on the others
    assert rows[0][5:7] == ["AP", "NumRet"]  # the entries: the time is 2 words
    assert [row[6:8] for row in rows[1:]] == [["0.7083", "18"], ["0.7083", "18"]]
    # the names asked, then the labels the history stores, once each (not once a row)
    assert parses == {"map": 1, "num_ret": 1, "AP": 1, "NumRet": 1}
