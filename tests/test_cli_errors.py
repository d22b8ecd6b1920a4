"""The command line's error contract, over malformed input of every reader and option.

For each case: exit status 2, one ``reteval: error:`` line (or argparse's
``reteval <command>: error:`` for a malformed option) naming the file, the
line or the value, and never a traceback.
"""

import gzip
import json
import re
import sqlite3

import pytest

from reteval.cli import main

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\n"
RUN = "q1 Q0 d1 1 2.0 s\nq1 Q0 d2 2 1.0 s\nq2 Q0 d3 1 1.0 s\n"


def _gzip_bad_deflate(text: str) -> bytes:
    data = bytearray(gzip.compress(text.encode() * 500))
    data[20] ^= 0xFF
    data[21] ^= 0xFF
    return bytes(data)


# name -> (file content as bytes, expected text in the error)
BAD_QRELS = {
    "relevance 1_0": (b"q1 0 d1 1_0\n", "qrels.txt:1: relevance is not a number: '1_0'"),
    "relevance beyond int64": (b"q1 0 d1 99999999999999999999\n",
                               "qrels.txt:1: relevance is outside the 64-bit integer range"),
    "arabic digit": ("q1 0 d1 ٣\n".encode(), "qrels.txt:1: relevance is not a number"),
    "cr-only, wrong field count": (b"q1 0 d1 1\rq1 0 d2\r", "qrels.txt:2: expected 4"),
    "not utf-8": (b"q1 0 d1 1\nq\xff 0 d2 1\n", "qrels.txt:2: not UTF-8"),
    "bad deflate": (_gzip_bad_deflate(QRELS), "qrels.txt: damaged gzip data"),
    "truncated gzip": (gzip.compress(QRELS.encode() * 50)[:-30], "qrels.txt: damaged gzip data"),
    "empty": (b"\xef\xbb\xbf\n", "qrels.txt: empty qrels file"),
}

BAD_RUNS = {
    "score 1_0": (b"q1 Q0 d1 1 1_0 s\n", "run.txt:1: score is not a number: '1_0'"),
    "score nan": (b"q1 Q0 d1 1 nan s\n", "run.txt:1: score must be finite"),
    "score 1e999": (b"q1 Q0 d1 1 1e999 s\n", "run.txt:1: score must be finite"),
    "hex score": (b"q1 Q0 d1 1 0x1p3 s\n", "run.txt:1: score is not a number"),
    "lone cr splits a line": (b"q1 Q0 d1 1 2.0 s\nq1 Q0\rd2 2 1.0 s\n", "run.txt:2: expected 6"),
    "bad deflate": (_gzip_bad_deflate(RUN), "run.txt: damaged gzip data"),
    "not utf-8": (b"q1 Q0 d1 1 2.0 s\r\xff\n", "run.txt:2: not UTF-8"),
    "duplicate": (b"q1 Q0 d1 1 2.0 s\nq1 Q0 d1 2 1.0 s\n", "appears twice"),
    "two separators in a row": (b"q1 Q0  6 995 sys\n", "run.txt:1: expected 6 whitespace"),
    "two tabs in a row": (b"q1\tQ0\t\td1\t2.0\ts\n", "run.txt:1: expected 6 whitespace"),
    "leading separator, five fields": (b" Q0 d1 1 2.0 s\n", "run.txt:1: expected 6 whitespace"),
    "trailing separator, five fields": (b"q1 Q0 d1 1 2.0 \n", "run.txt:1: expected 6 whitespace"),
}


def run_cli(argv, capsys):
    try:
        status = main([str(a) for a in argv])
    except SystemExit as exc:  # argparse
        status = exc.code
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_error(status, err, expected):
    assert status == 2, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if "error:" in line]
    assert len(lines) == 1, err
    assert lines[0].startswith("reteval"), err
    assert expected in lines[0], err


@pytest.fixture
def good(tmp_path):
    qrels, run = tmp_path / "good_qrels.txt", tmp_path / "good_run.txt"
    qrels.write_text(QRELS)
    run.write_text(RUN)
    return qrels, run


@pytest.mark.parametrize("case", sorted(BAD_QRELS))
def test_evaluate_bad_qrels(tmp_path, good, capsys, case):
    data, expected = BAD_QRELS[case]
    path = tmp_path / "qrels.txt"
    path.write_bytes(data)
    assert_one_error(*run_cli(["evaluate", path, good[1]], capsys)[::2], expected)


@pytest.mark.parametrize("case", sorted(BAD_RUNS))
def test_evaluate_bad_runs(tmp_path, good, capsys, case):
    data, expected = BAD_RUNS[case]
    path = tmp_path / "run.txt"
    path.write_bytes(data)
    assert_one_error(*run_cli(["evaluate", good[0], path], capsys)[::2], expected)


@pytest.mark.parametrize("which", [0, 1])
def test_a_parquet_file_is_told_how_to_be_read(tmp_path, good, capsys, which):
    import pandas as pd

    path = tmp_path / "table.parquet"
    pd.DataFrame({"query_id": ["q1"], "doc_id": ["d1"], "score": [1.0]}).to_parquet(path)
    files = [good[0], good[1]]
    files[which] = path
    assert_one_error(*run_cli(["evaluate", *files], capsys)[::2],
                     "table.parquet: a Parquet file, not text: read it with pandas.read_parquet")


@pytest.mark.parametrize("case", sorted(c for c in BAD_RUNS if BAD_RUNS[c][0][:2] != b"\x1f\x8b"))
def test_evaluate_bad_runs_after_a_mebibyte_of_good_lines(tmp_path, good, capsys, case):
    # Large runs take Arrow's reader: the same line must give the same error.
    data, expected = BAD_RUNS[case]
    sep = b"\t" if b"\t" in data else b" "
    filler = b"".join(sep.join([b"f%d" % (i % 97), b"Q0", b"x%d" % i, b"1", b"%d.5" % i, b"s"])
                      + b"\n" for i in range(45_000))
    assert len(filler) >= 1 << 20
    path = tmp_path / "run.txt"
    path.write_bytes(filler + data)
    shifted = re.sub(r"run\.txt:(\d+):", lambda m: f"run.txt:{int(m.group(1)) + 45_000}:",
                     expected)
    assert_one_error(*run_cli(["evaluate", good[0], path], capsys)[::2], shifted)


@pytest.mark.parametrize(("options", "expected"), [
    (["-m", "Judged@99999999999999999999"], "Judged@99999999999999999999"),
    (["-l", "99999999999999999999"], "99999999999999999999"),
    (["-l", "-1"], "relevance_level must be from 0"),
    (["-l", "1_0"], "'1_0'"),
    (["-m", "P(rel=-1)@5"], "rel"),
    (["-m", "nosuch"], "nosuch"),
    (["-m", "P@١"], "'P@١'"),
    (["-m", "P(rel=٢)@5"], "rel in"),
    (["-m", "RBP(p=nan)"], "p in"),
])
def test_evaluate_bad_options(good, capsys, options, expected):
    assert_one_error(*run_cli(["evaluate", *good, *options], capsys)[::2], expected)


def test_missing_and_folder_inputs(tmp_path, good, capsys):
    assert_one_error(*run_cli(["evaluate", tmp_path / "none.txt", good[1]], capsys)[::2],
                     "none.txt: no such file")
    assert_one_error(*run_cli(["evaluate", good[0], tmp_path], capsys)[::2], "is a directory")


def test_json_output_is_strict_json(good, capsys):
    # No query in common: every mean is NaN, printed as null (never the NaN token).
    run = good[1].parent / "other_run.txt"
    run.write_text("q9 Q0 d1 1 2.0 s\n")
    status, out, err = run_cli(["evaluate", good[0], run, "--missing", "skip", "--format", "json",
                                "--per-query"], capsys)
    assert status == 0, err
    assert "NaN" not in out
    doc = json.loads(out, parse_constant=lambda name: pytest.fail(f"{name} in JSON"))
    assert doc["measures"] and all(v is None for v in doc["measures"].values())


# --------------------------------------------------------------------------- monitor and history


@pytest.mark.parametrize(("options", "expected"), [
    (["--every", "9999999999999999999d"], "interval must be at most"),
    (["--every", "١h"], "interval must be"),
    (["--baseline", str(10**23)], f"no entry {10**23}"),
    (["--alert-timeout", "1e300"], "--alert-timeout must be"),
    (["--alert-timeout", "nan"], "'nan'"),
    (["--lock-timeout", "inf"], "'inf'"),
    (["--alpha", "1_0"], "'1_0'"),
    (["--seed", "99999999999999999999"], "64-bit"),
    (["-l", "-2"], "relevance_level must be from 0"),
])
def test_monitor_bad_options(tmp_path, good, capsys, options, expected):
    history = tmp_path / "history.sqlite"
    argv = ["monitor", history, "--run", good[1], "--qrels", good[0], *options]
    assert_one_error(*run_cli(argv, capsys)[::2], expected)


def test_monitor_bad_run_names_the_file(tmp_path, good, capsys):
    run = tmp_path / "run.txt"
    run.write_bytes(b"\xef\xbb\xbfq1 Q0 d1 1 2.0 s\rq1 Q0 d2 2 1_0 s\r")
    argv = ["monitor", tmp_path / "h.sqlite", "--run", run, "--qrels", good[0]]
    assert_one_error(*run_cli(argv, capsys)[::2], "run.txt:2: score is not a number: '1_0'")


@pytest.mark.parametrize("kind", ["text", "other sqlite", "folder"])
def test_history_on_something_else(tmp_path, capsys, kind):
    path = tmp_path / "history.sqlite"
    if kind == "text":
        path.write_text("hello\n")
    elif kind == "other sqlite":
        with sqlite3.connect(path) as con:
            con.execute("CREATE TABLE t (x)")
        con.close()
    else:
        path.mkdir()
    assert_one_error(*run_cli(["history", path], capsys)[::2], "history.sqlite")


def test_history_last_too_large(tmp_path, capsys):
    path = tmp_path / "history.sqlite"
    path.write_text("")
    assert_one_error(*run_cli(["history", path, "--last", "9" * 30], capsys)[::2], "64-bit")


# ----------------------------------------------------------------------- BEIR files through the CLI

CORPUS = '{"_id": "d1", "text": "tea"}\n{"_id": "d2", "text": "coffee"}\n'
QUERIES = '{"_id": "q1", "text": "tea"}\n'
BEIR_QRELS = "query-id\tcorpus-id\tscore\nq1\td1\t1\n"

BAD_BEIR = {
    "corpus NaN": ("corpus.jsonl", b'{"_id": "d1", "text": NaN}\n',
                   "corpus.jsonl:1: malformed JSON"),
    "corpus deep": ("corpus.jsonl", b"[" * 100_000 + b"\n", "corpus.jsonl:1: malformed JSON"),
    "corpus surrogate": ("corpus.jsonl", b'{"_id": "\\udc00", "text": "x"}\n', "lone surrogate"),
    "queries not utf-8": ("queries.jsonl", b'{"_id": "q1", "text": "\xff"}\n',
                          "queries.jsonl:1: not UTF-8"),
    "queries bad gzip": ("queries.jsonl.gz", _gzip_bad_deflate(QUERIES),
                         "queries.jsonl.gz: damaged gzip"),
    "qrels 1_0": ("qrels/test.tsv", b"q1\td1\t1_0\n",
                  "test.tsv:1: relevance is not a number"),
    "qrels int64": ("qrels/test.tsv", b"q1\td1\t" + b"9" * 30 + b"\n",
                    "test.tsv:1: relevance is outside"),
}


@pytest.mark.parametrize("case", sorted(BAD_BEIR))
def test_monitor_on_a_bad_beir_folder(tmp_path, capsys, case):
    name, data, expected = BAD_BEIR[case]
    folder = tmp_path / "beir"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text(CORPUS)
    (folder / "queries.jsonl").write_text(QUERIES)
    (folder / "qrels" / "test.tsv").write_text(BEIR_QRELS)
    if name.endswith(".gz"):
        (folder / name.removesuffix(".gz")).unlink()
    (folder / name).write_bytes(data)
    argv = ["monitor", tmp_path / "h.sqlite", "--retriever", "bm25", "--dataset", folder]
    assert_one_error(*run_cli(argv, capsys)[::2], expected)
    assert not (tmp_path / "h.sqlite").exists() or sqlite3.connect(tmp_path / "h.sqlite").execute(
        "SELECT count(*) FROM sqlite_master WHERE name = 'entries'").fetchone()[0] in (0, 1)


def test_monitor_bom_and_cr_only_beir_folder_reads(tmp_path, capsys):
    folder = tmp_path / "beir"
    (folder / "qrels").mkdir(parents=True)
    for name, text in [("corpus.jsonl", CORPUS), ("queries.jsonl", QUERIES),
                       ("qrels/test.tsv", BEIR_QRELS)]:
        (folder / name).write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r").encode())
    argv = ["monitor", tmp_path / "h.sqlite", "--retriever", "bm25", "--dataset", folder,
            "-m", "RR", "--baseline", "none"]
    status, out, err = run_cli(argv, capsys)
    assert status == 0, err
    assert "1 queries RR=1.0000" in out


def test_monitor_refuses_a_damaged_history(tmp_path, good, capsys):
    history = tmp_path / "h.sqlite"
    argv = ["monitor", history, "--run", good[1], "--qrels", good[0], "--baseline", "none"]
    for _ in range(2):
        assert run_cli(argv, capsys)[0] == 0
    con = sqlite3.connect(history)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages = con.execute("PRAGMA page_count").fetchone()[0]
    con.close()
    data = bytearray(history.read_bytes())
    for page in range(2, pages):  # every page but the first two (header, schema)
        data[page * 4096: (page + 1) * 4096] = b"\xaa" * 4096
    history.write_bytes(bytes(data))
    assert_one_error(*run_cli(argv, capsys)[::2], "h.sqlite: the history is damaged")
    assert_one_error(*run_cli(["history", history], capsys)[::2],
                     "h.sqlite: the history is damaged")


# ------------------------------------------------------------------ reteval run: parameters files

LAUGHS = "".join(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]\n" for i in range(1, 9))

BAD_PARAMS = {
    "billion laughs": ('l0: &l0 "lol"\n' + LAUGHS, "p.yml:2: YAML aliases (*l0) are not accepted"),
    "one alias": ("common: &c {seed: 1}\nnotebooks:\n  01_measures: *c\n",
                  "p.yml:3: YAML aliases (*c) are not accepted"),
    "merge key": ("common: &c {seed: 1}\nnotebooks:\n  01_measures:\n    <<: *c\n",
                  "p.yml:4: YAML aliases (*c) are not accepted"),
    "a set": ("common:\n  measures: !!set {AP, RR}\n", "p.yml: common: measures is a set"),
    "bytes": ("common:\n  seed: !!binary aGVsbG8=\n", "p.yml: common: seed is bytes"),
    "number as notebook name": ("notebooks:\n  1: {seed: 1}\n",
                                "p.yml: keys must be text; notebooks has the key 1 (int)"),
    "number as parameter name": ("common:\n  2: x\n", "common has the key 2 (int)"),
    "list as key": ("common:\n  ? [a, b]\n  : x\n",
                    "p.yml:2: not valid YAML: found unhashable key"),
    "nested 5,000 deep": ("common:\n  x: " + "[" * 5000 + "]" * 5000 + "\n",
                          "p.yml:2: nested more than 100 levels deep"),
    "block mapping 300 deep": ("common:\n" + "".join("  " * (i + 1) + f"k{i}:\n"
                                                     for i in range(300)),
                               "nested more than 100 levels deep"),
}


@pytest.mark.parametrize("case", sorted(BAD_PARAMS))
def test_run_bad_parameters_file(tmp_path, capsys, case):
    text, expected = BAD_PARAMS[case]
    params = tmp_path / "p.yml"
    params.write_text(text)
    argv = ["run", "--params", params, "--output", tmp_path / "out", "--no-book", "--quiet"]
    assert_one_error(*run_cli(argv, capsys)[::2], expected)
    assert not (tmp_path / "out").exists()


def test_unquoted_yaml_dates_are_read_as_their_iso_text(tmp_path):
    from reteval.book.pipeline import load_params

    params = tmp_path / "p.yml"
    params.write_text("notebooks:\n  09_continuous_evaluation:\n    start: 2026-06-01\n"
                      "common:\n  when: 2026-06-01 08:30:00\n")
    loaded = load_params(params)
    assert loaded["notebooks"]["09_continuous_evaluation"] == {"start": "2026-06-01"}
    assert loaded["common"] == {"when": "2026-06-01T08:30:00"}


# name -> (SQL that damages one stored value, what both `history` and `history --check` name)
DAMAGED_VALUES = {
    "aggregate text": ("UPDATE aggregates SET value = 'abc' WHERE measure = 'AP'",
                       "the aggregate of 'AP' is not a number: 'abc'"),
    "aggregate blob": ("UPDATE aggregates SET value = x'00ff' WHERE measure = 'AP'",
                       "the aggregate of 'AP' is not a number: b'\\x00\\xff'"),
    "per-query text": ("UPDATE query_scores SET value = 'x' WHERE measure = 'AP'",
                       "a per-query value of 'AP' is not a number: 'x'"),
}


@pytest.mark.parametrize("case", sorted(DAMAGED_VALUES))
def test_history_and_check_agree_on_a_damaged_value(tmp_path, good, capsys, case):
    sql, expected = DAMAGED_VALUES[case]
    history = tmp_path / "h.sqlite"
    argv = ["monitor", history, "--run", good[1], "--qrels", good[0], "--baseline", "none",
            "-m", "AP"]
    assert run_cli(argv, capsys)[0] == 0
    with sqlite3.connect(history) as con:
        con.execute(sql)
    con.close()
    assert_one_error(*run_cli(["history", history, "--check"], capsys)[::2],
                     f"entry 1: {expected}")
    if case.startswith("per-query"):
        from reteval.monitor.history import HistoryError, open_history

        with open_history(history) as store, pytest.raises(HistoryError, match=expected):
            store.per_query(1)
    else:
        assert_one_error(*run_cli(["history", history], capsys)[::2],
                         f"entry 1 is damaged: {expected}")


@pytest.mark.parametrize("where", ["cache folder is a file", "dataset folder is a file"])
def test_monitor_beir_cache_place_that_is_a_file(tmp_path, monkeypatch, capsys, where):
    cache = tmp_path / "cache"
    if where == "cache folder is a file":
        cache.write_text("")
        expected = "cannot use the dataset cache folder"
    else:
        (cache / "beir").mkdir(parents=True)
        (cache / "beir" / "scifact").write_text("")
        expected = "its cache place is a file, not a folder"
    monkeypatch.setenv("RETEVAL_CACHE", str(cache))
    argv = ["monitor", tmp_path / "h.sqlite", "--retriever", "bm25", "--dataset", "scifact"]
    assert_one_error(*run_cli(argv, capsys)[::2], expected)


@pytest.mark.parametrize("output", ["table", "json", "trec"])
def test_missing_skip_with_no_query_in_common_warns(good, capsys, output):
    run = good[1].parent / "other_run.txt"
    run.write_text("q9 Q0 d1 1 2.0 s\n")
    status, _, err = run_cli(["evaluate", good[0], run, "--missing", "skip", "--format", output,
                              "-m", "AP"], capsys)
    assert status == 0 and "Traceback" not in err
    assert ("warning: no judged query has results in the run (do the run's query ids match "
            "the judgments'?); all 2 judged queries are skipped") in err


def test_missing_skip_warns_in_the_api_too(good):
    from reteval import evaluate
    from reteval.evaluation.checks import MissingQueriesWarning

    with pytest.warns(MissingQueriesWarning, match="every mean is NaN"):
        values = evaluate(good[0], {"q9": ["d1"]}, ["AP"], missing="skip")
    assert values.empty
