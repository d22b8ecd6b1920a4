"""The command line: output formats, exit codes, one-line errors without tracebacks."""

import json
import subprocess
import sys

import pytest

from reteval import evaluate
from reteval.cli import main


@pytest.fixture
def files(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 2\nq1 0 d2 1\nq2 0 d3 1\nq3 0 d4 1\n")
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 d1 1 3.0 s\nq1 Q0 d9 2 2.0 s\nq1 Q0 d2 3 1.0 s\nq2 Q0 d3 1 1.0 s\n")
    return qrels, run


def test_table_output(files, capsys):
    qrels, run = files
    assert main(["evaluate", str(qrels), str(run), "-m", "P@2", "-m", "NumRet"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == ["P@2     all  0.3333", "NumRet  all  4", "num_q   all  3"]
    assert "1 judged query has no results in the run and scores 0: 'q3'" in err


def test_json_per_query_matches_the_api(files, capsys):
    qrels, run = files
    assert main(["evaluate", str(qrels), str(run), "--format", "json", "--per-query"]) == 0
    doc = json.loads(capsys.readouterr().out)
    expected = evaluate(str(qrels), str(run),
                        ["P@5", "P@10", "R@10", "R@100", "RR", "AP", "nDCG@10"])
    assert doc["num_queries"] == 3
    assert list(doc["measures"]) == list(expected.columns)
    for name in expected.columns:
        assert doc["measures"][name] == pytest.approx(expected[name].mean())
        for query in expected.index:
            assert doc["per_query"][query][name] == pytest.approx(expected.loc[query, name])


def test_csv_and_options(files, capsys):
    qrels, run = files
    assert main(["evaluate", str(qrels), str(run), "-m", "AP", "--missing", "skip",
                 "-l", "2", "--format", "csv"]) == 0
    # q1: d1 at 1, R=1; q2: R=0
    assert capsys.readouterr().out.splitlines() == ["measure,value", "AP,0.5"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["-m", "nDGC@10"], "unknown measure 'nDGC@10'. Did you mean 'nDCG'?"),
        (["--missing", "error"], "1 judged query has no results in the run: 'q3'"),
        (["-m", "Rprec@5"], "measure 'Rprec' takes no cutoff"),
    ],
)
def test_errors_exit_2_with_one_line(files, capsys, args, message):
    qrels, run = files
    assert main(["evaluate", str(qrels), str(run), *args]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_bad_file_through_the_installed_script(tmp_path, files):
    qrels, _ = files
    bad = tmp_path / "bad.txt"
    bad.write_text("q1 Q0 d1 1 0.5 s\nq1 Q0 d2 2 oops s\n")
    proc = subprocess.run([sys.executable, "-m", "reteval.cli", "evaluate", str(qrels), str(bad)],
                          check=False, capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr == f"reteval: error: {bad}:2: score is not a number: 'oops'\n"


def test_trec_format_and_measure_lists(files, capsys):
    # `-m P_1,2 --format trec --per-query` prints what `trec_eval -q -m P.1,2` prints.
    assert main(["evaluate", *map(str, files), "-m", "P_1,2", "-m", "Judged@2", "--format", "trec",
                 "--per-query", "--missing", "skip"]) == 0
    lines = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    assert [fields[0].rstrip() for fields in lines] == ["P_1", "P_2", "Judged@2"] * 3
    assert [fields[1] for fields in lines][-3:] == ["all"] * 3
    assert all(len(fields[0]) == 22 for fields in lines)
