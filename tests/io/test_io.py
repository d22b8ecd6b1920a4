"""Readers and input conversion: every accepted form, and clear errors for bad input."""

import contextlib
import gzip
import importlib
import os
import re
import threading
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reteval import InputError, evaluate, read_qrels, read_run, write_run
from reteval.io import as_qrels, as_run
from reteval.teaching import EvaluationQuery


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_run_comments_hash_in_ids_extra_fields_and_blank_lines(tmp_path):
    path = write(tmp_path, "run.txt", "# a comment\n\n  # indented comment\n"
                 "q1 Q0 doc#1 1 2.0 tag extra junk\nq1\tQ0\td2\t2\t  1.5\ttag\n")
    run = read_run(path)
    assert run["doc_id"].tolist() == ["doc#1", "d2"]
    assert run["score"].tolist() == [2.0, 1.5]
    assert run.index.tolist() == [4, 5]  # line numbers


def test_gzip_files(tmp_path):
    path = tmp_path / "qrels.txt.gz"
    path.write_bytes(gzip.compress(b"q1 0 d1 1\n"))
    assert read_qrels(path)["relevance"].tolist() == [1]


def test_beir_qrels(tmp_path):
    path = write(tmp_path, "test.tsv", "query-id\tcorpus-id\tscore\nq1\td1\t2\nq1\td2\t0\n")
    qrels = read_qrels(path)
    assert qrels[["query_id", "doc_id", "relevance"]].values.tolist() == [["q1", "d1", 2],
                                                                         ["q1", "d2", 0]]


def test_beir_qrels_split_on_tabs_keep_spaces_in_ids(tmp_path):
    path = write(tmp_path, "test.tsv",
                 "query-id\tcorpus-id\tscore\nQ 01\tdoc A#1\t3\nq2 \td2\t1\nq3 d3 0\n")
    qrels = read_qrels(path)
    assert qrels[["query_id", "doc_id", "relevance"]].values.tolist() == [
        ["Q 01", "doc A#1", 3], ["q2", "d2", 1], ["q3", "d3", 0]]
    # an empty field is an error, not a reason to split on the spaces ("Q 1" would be two ids)
    path = write(tmp_path, "bad.tsv", "query-id\tcorpus-id\tscore\nQ 1\t\t2\n")
    with pytest.raises(InputError, match=r"bad.tsv:2: field 2 of 3 tab-separated fields "
                                         r"'query-id corpus-id score' is empty: 'Q 1\\t\\t2'"):
        read_qrels(path)


@pytest.mark.parametrize(
    "text, message",
    [
        ("q1 Q0 d1 1 0.5\n",
         r"run.txt:1: expected 6 whitespace-separated fields .* got 5: 'q1 Q0 d1 1 0.5'"),
        ("q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 abc t\n", r"run.txt:2: score is not a number: 'abc'"),
        ("q1 Q0 d1 1 nan t\n", r"run.txt:1: score must be finite; got 'nan'"),
        ("q1 Q0 d1 1 -inf t\n", r"run.txt:1: score must be finite; got '-inf'"),
        ("", r"run.txt: empty run file"),
        ("# only a comment\n\n", r"run.txt: empty run file"),
        ("q1 Q0 d1 1 1 t\nq2 Q0 d1 1 1 t\nq1 Q0 d1 3 0 t\n",
         r"run.txt: document 'd1' appears twice for query 'q1' in the run, on lines 1 and 3"),
    ],
)
def test_bad_run_files(tmp_path, text, message):
    path = write(tmp_path, "run.txt", text)
    with pytest.raises(InputError, match=message):
        read_run(path)


@pytest.mark.parametrize(
    "text, message",
    [
        ("q1 0 d1\n", r"qrels.txt:1: expected 4 whitespace-separated fields .* got 3"),
        ("q1 0 d1 1 extra\n", r"qrels.txt:1: expected 4 .* got 5"),
        ("q1 0 d1 1\nq1 0 d2 high\n", r"qrels.txt:2: relevance is not a number: 'high'"),
        ("q1 0 d1 nan\n", r"qrels.txt:1: relevance must be finite; got 'nan'"),
        ("q1 0 d1 1\nq1 0 d2 -inf\n", r"qrels.txt:2: relevance must be finite; got '-inf'"),
        ("q1 0 d1 1\nq1 0 d1 0\n",
         r"document 'd1' appears twice for query 'q1' in the qrels, on lines 1 and 2"),
        ("\n", r"qrels.txt: empty qrels file"),
    ],
)
def test_bad_qrels_files(tmp_path, text, message):
    path = write(tmp_path, "qrels.txt", text)
    with pytest.raises(InputError, match=message):
        read_qrels(path)


def test_missing_file_and_bad_encoding(tmp_path):
    with pytest.raises(InputError, match="nope.txt: no such file"):
        read_run(tmp_path / "nope.txt")
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"q1 Q0 d1 1 1 t\nq1 Q0 d\xe9 2 0 t\n")
    with pytest.raises(InputError, match="latin1.txt:2: not UTF-8"):
        read_run(path)


def test_large_file_errors_still_name_the_line(tmp_path):
    # Large enough for the fast reader; a bad score deep inside must still be located.
    lines = [f"q{i // 100} Q0 d{i} {i % 100 + 1} {i * 0.5} t" for i in range(60000)]
    lines[45678] = "q456 Q0 dX 79 inf t"
    path = write(tmp_path, "big.txt", "\n".join(lines) + "\n")
    with pytest.raises(InputError, match=r"big.txt:45679: score must be finite; got 'inf'"):
        read_run(path)
    lines[45678] = "q456 Q0 d45600 79 1.0 t"  # duplicate of line 45601
    write(tmp_path, "big.txt", "\n".join(lines) + "\n")
    with pytest.raises(InputError,
                       match=r"'d45600' appears twice for query 'q456' .* lines 45601 and 45679"):
        read_run(path)


def test_fast_and_careful_readers_agree(tmp_path):
    rng = np.random.default_rng(1)
    lines = [f"q{rng.integers(50)} Q0 doc{i} 0 {rng.normal():.6f} t" for i in range(40000)]
    path = write(tmp_path, "run.txt", "\n".join(lines) + "\n")
    fast = read_run(path)
    careful = read_run(write(tmp_path, "run2.txt",
                             "# force the careful reader\n" + "\n".join(lines)))
    assert fast["doc_id"].tolist() == careful["doc_id"].tolist()
    assert np.array_equal(fast["score"].to_numpy(), careful["score"].to_numpy())
    assert fast.index.tolist() == [i - 1 for i in careful.index.tolist()]


def test_dataframe_inputs_are_validated():
    with pytest.raises(InputError, match="missing \\['relevance'\\]"):
        as_qrels(pd.DataFrame({"query_id": ["q"], "doc_id": ["d"]}))
    with pytest.raises(InputError, match="run score must be a finite number; got nan on row 1"):
        as_run(pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "b"], "score": [1.0, np.nan]}))
    with pytest.raises(InputError, match="appears twice .* on rows 0 and 1"):
        as_run(pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "a"], "score": [1.0, 2.0]}))
    with pytest.raises(InputError, match="qrels relevance must be a finite number "
                                         "\\(not text.*\\); got 'x' on row 0"):
        as_qrels({"q": {"d": "x"}})
    with pytest.raises(InputError, match="qrels must be a file path"):
        as_qrels(42)


def test_all_input_forms_give_the_same_result(tmp_path):
    # The chapter's dataset records, dicts, DataFrames and files.
    records = [
        EvaluationQuery("q1", "Python 编程入门", ["doc1", "doc2", "doc5"],
                        {"doc1": 3, "doc2": 2, "doc5": 1}),
        EvaluationQuery("q2", "机器学习算法", ["doc3", "doc4"], {"doc3": 3, "doc4": 2}),
    ]
    qrels_dict = {"q1": {"doc1": 3, "doc2": 2, "doc5": 1}, "q2": {"doc3": 3, "doc4": 2}}
    ranked = {"q1": ["doc2", "doc9", "doc1"], "q2": ["doc4", "doc3"]}
    scored = {"q1": {"doc2": 3.0, "doc9": 2.0, "doc1": 1.0}, "q2": {"doc4": 2.0, "doc3": 1.0}}
    run_path = tmp_path / "run.txt"
    write_run(scored, run_path)
    qrels_frame = pd.DataFrame(
        [(q, d, r) for q, docs in qrels_dict.items() for d, r in docs.items()],
        columns=["query_id", "doc_id", "relevance"],
    )
    measures = ["nDCG@3", "AP", "RR"]
    reference = evaluate(qrels_dict, scored, measures)
    for qrels in (records, qrels_frame):
        for run in (ranked, str(run_path), read_run(run_path)):
            pd.testing.assert_frame_equal(evaluate(qrels, run, measures), reference)


@settings(max_examples=50, deadline=None)
@given(st.dictionaries(
    st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")), min_size=1,
            max_size=5).filter(lambda s: not s.startswith("#") and s.split() == [s]),
    st.floats(allow_nan=False, allow_infinity=False, width=64), min_size=1, max_size=20))
def test_write_then_read_round_trips(tmp_path_factory, docs):
    path = tmp_path_factory.mktemp("rt") / "run.txt"
    write_run({"q": docs}, path)
    back = read_run(path)
    assert dict(zip(back["doc_id"], back["score"], strict=True)) == docs


def test_evaluate_names_duplicate_lines_and_rows(tmp_path):
    path = write(tmp_path, "run.txt",
                 "q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq2 Q0 a 1 1 t\nq1 Q0 a 3 1 t\n")
    with pytest.raises(InputError, match=r"run.txt: document 'a' appears twice for query 'q1' "
                                         r"in the run, on lines 1 and 4"):
        evaluate({"q1": {"a": 1}}, path, ["AP"])
    frame = pd.DataFrame({"query_id": ["q1", "q2", "q2"], "doc_id": ["a", "b", "b"],
                          "score": [1.0, 2.0, 3.0]})
    with pytest.raises(InputError, match=r"document 'b' appears twice for query 'q2' in the run, "
                                         r"on rows 1 and 2"):
        evaluate({"q2": {"b": 1}}, frame, ["AP"])


def test_frames_backed_by_several_arrow_chunks():
    run = as_run(pd.DataFrame({"query_id": ["q1", "q2"], "doc_id": ["d1", "d4"],
                               "score": [1.0, 2.0]}))
    chunked = pd.concat([run.iloc[:1], run.iloc[1:]])
    result = evaluate({"q1": {"d1": 1}, "q2": {"d4": 1}}, chunked, ["AP"])
    assert result["AP"].tolist() == [1.0, 1.0]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.sampled_from(["a", "b", "c", "d", "ab", "", "é"])),
                min_size=2, max_size=40),
       st.booleans())
def test_first_duplicate_agrees_with_pandas(rows, collide):
    import pyarrow as pa

    from reteval.io import duplicates

    query = np.array([q for q, _ in rows])
    doc = pa.array([d for _, d in rows])
    if collide:  # every id hashes alike: the exact check alone must tell duplicates apart
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(duplicates, "string_hashes", lambda ids: np.zeros(len(ids), np.uint64))
            pair = duplicates.first_duplicate(query, doc)
    else:
        with pytest.MonkeyPatch.context() as patch:  # keys made in blocks of 3 rows
            patch.setattr(duplicates, "_BLOCK_ROWS", 3)
            pair = duplicates.first_duplicate(query, doc)
        assert pair == duplicates.first_duplicate(query, doc)
    frame = pd.DataFrame(rows, columns=["q", "d"])
    repeats = frame.duplicated()
    assert (pair is not None) == repeats.any()
    if pair is not None:
        i, j = pair
        assert j == int(np.flatnonzero(repeats)[0])  # the earliest repeating row
        assert i == rows.index(rows[j]) and i < j


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=30), min_size=1, max_size=30), st.integers(0, 5))
def test_string_hashes_depend_on_the_id_only(ids, cut):
    import pyarrow as pa

    from reteval.io import duplicates
    from reteval.io.duplicates import string_hashes

    whole = string_hashes(pa.array(ids + ids[::-1], type=pa.string()))
    assert whole[: len(ids)].tolist() == whole[len(ids):][::-1].tolist()
    sliced = pa.array(ids, type=pa.large_string()).slice(min(cut, len(ids)))
    assert string_hashes(sliced).tolist() == whole[min(cut, len(ids)): len(ids)].tolist()
    by_id = {}
    for i, h in zip(ids, whole[: len(ids)].tolist(), strict=True):
        assert by_id.setdefault(i, h) == h
    with pytest.MonkeyPatch.context() as patch:  # blocks of 2 rows: some of one length, some not
        patch.setattr(duplicates, "_BLOCK_ROWS", 2)
        assert string_hashes(pa.array(ids + ids[::-1])).tolist() == whole.tolist()


def test_string_hashes_tell_a_million_ids_apart():
    import pyarrow as pa

    from reteval.io.duplicates import string_hashes

    ids = [f"doc{i}" for i in range(1_000_000)] + [f"clueweb-{i:020d}" for i in range(10_000)]
    assert len(np.unique(string_hashes(pa.array(ids)))) == len(ids)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["q1", "q2", "q3"]), st.sampled_from("abcdefgh"),
                          st.sampled_from([0.5, 1.0, 1.0, 2.0, -0.0, 0.0])),
                min_size=1, max_size=25, unique_by=lambda row: row[:2]),
       st.lists(st.tuples(st.sampled_from(["q1", "q2", "q4"]), st.sampled_from("abcdefgh"),
                          st.integers(-1, 3)),
                min_size=1, max_size=15, unique_by=lambda row: row[:2]))
def test_files_and_tables_evaluate_alike(tmp_path_factory, run_rows, qrels_rows):
    folder = tmp_path_factory.mktemp("alike")
    run_path, qrels_path = folder / "run.txt", folder / "qrels.txt"
    run_path.write_text("".join(f"{q} Q0 {d} 0 {s!r} t\n" for q, d, s in run_rows))
    qrels_path.write_text("".join(f"{q} 0 {d} {r}\n" for q, d, r in qrels_rows))
    measures = ["AP", "nDCG@3", "P@2", "RR", "NumRelRet", "bpref", "Rprec", "ERR@3"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        files = evaluate(qrels_path, run_path, measures)  # read into columns, no pandas
        tables = evaluate(read_qrels(qrels_path), read_run(run_path), measures)
    pd.testing.assert_frame_equal(files, tables, check_exact=True)


def test_large_files_with_blank_lines_or_gzip_keep_line_numbers(tmp_path):
    lines = [f"q{i // 100} Q0 d{i} {i % 100 + 1} {i * 0.5} t" for i in range(60000)]
    lines.insert(30000, "")  # a blank line: every later line number shifts by one
    lines[45679] = "q456 Q0 d45600 79 1.0 t"  # duplicate of the content on line 45602
    text = "\n".join(lines) + "\n"
    write(tmp_path, "blank.txt", text)
    with pytest.raises(InputError,
                       match=r"'d45600' appears twice for query 'q456' .* lines 45602 and 45680"):
        read_run(tmp_path / "blank.txt")
    (tmp_path / "run.txt.gz").write_bytes(gzip.compress(text.replace("\n\n", "\n").encode()))
    with pytest.raises(InputError, match=r"lines 45601 and 45679"):
        read_run(tmp_path / "run.txt.gz")
    good = [f"q{i // 100} Q0 d{i} {i % 100 + 1} {i * 0.5} t" for i in range(60000)]
    (tmp_path / "good.txt.gz").write_bytes(gzip.compress(("\n".join(good) + "\n").encode()))
    assert len(read_run(tmp_path / "good.txt.gz")) == 60000


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need POSIX")
@pytest.mark.parametrize("compress", [False, True])
def test_named_pipes_are_read_once_from_the_start(tmp_path, compress):
    # As with `reteval evaluate qrels <(zcat run.gz)`: a pipe's first bytes cannot be peeked at.
    run_text = "".join(f"q{i % 3} Q0 d{i} 1 {i / 7!r} t\n" for i in range(60000)).encode()
    qrels_text = "".join(f"q{i % 3} 0 d{i} {i % 2}\n" for i in range(0, 3000, 11)).encode()
    write(tmp_path, "run.txt", run_text.decode())
    write(tmp_path, "qrels.txt", qrels_text.decode())
    pipes = {}
    for name, data in [("run", run_text), ("qrels", qrels_text)]:
        pipes[name] = tmp_path / f"{name}.pipe"
        os.mkfifo(pipes[name])
        data = gzip.compress(data) if compress else data
        threading.Thread(target=pipes[name].write_bytes, args=(data,), daemon=True).start()
    measures = ["AP", "nDCG@10", "P@5"]
    result = {}
    reader = threading.Thread(daemon=True, target=lambda: result.setdefault(
        "frame", evaluate(pipes["qrels"], pipes["run"], measures)))
    reader.start()
    reader.join(timeout=60)  # a pipe opened twice waits for a writer that is gone
    assert "frame" in result, "reading the named pipes did not finish"
    from_pipes = result["frame"]
    from_files = evaluate(tmp_path / "qrels.txt", tmp_path / "run.txt", measures)
    pd.testing.assert_frame_equal(from_pipes, from_files, check_exact=True)


def test_only_ascii_white_space_separates_fields(tmp_path):
    # A no-break space is part of a doc id (trec_eval splits on ASCII white space only).
    path = write(tmp_path, "run.txt", "q1 Q0 doc\u00a0one 1 2.0 t\nq1\x0bQ0 d2 2 1.0 t\n")
    assert read_run(path)["doc_id"].tolist() == ["doc\u00a0one", "d2"]


# ---------------------------------------------------------------- one input-hygiene rule

RUN_LINES = ["q1 Q0 d1 1 2.0 s", "q1 Q0 d2 2 1.0 s", "q2 Q0 d3 1 0.5 s"]
EXPECTED_RUN = [["q1", "d1", 2.0], ["q1", "d2", 1.0], ["q2", "d3", 0.5]]


def _run_rows(frame):
    return frame[["query_id", "doc_id", "score"]].values.tolist()


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
@pytest.mark.parametrize("compress", [False, True])
def test_bom_and_line_endings_read_the_same(tmp_path, ending, bom, compress):
    data = bom + ending.join(RUN_LINES + ["# comment", ""]).encode()
    path = tmp_path / ("run.txt.gz" if compress else "run.txt")
    path.write_bytes(gzip.compress(data) if compress else data)
    run = read_run(path)
    assert _run_rows(run) == EXPECTED_RUN
    assert run.index.tolist() == [1, 2, 3]
    qrels_path = tmp_path / "qrels.txt"
    qrels_path.write_bytes(bom + ending.join(["q1 0 d1 1", "q2 0 d3 2"]).encode())
    assert read_qrels(qrels_path)["query_id"].tolist() == ["q1", "q2"]


@pytest.mark.parametrize("mapped", [False, True])
@pytest.mark.parametrize("ending", ["\n", "\r"])
def test_large_files_bom_and_cr_only(tmp_path, monkeypatch, ending, mapped):
    # Over 1 MiB: Arrow's reader, from the bytes in memory or (from 16 MiB; lowered here) from a
    # memory map of the file; the BOM must not glue to the first id.
    from reteval.io import runfile

    if mapped:
        monkeypatch.setattr(runfile, "_MAPPED_MIN_BYTES", runfile._FAST_MIN_BYTES)
    lines = [f"q{i % 50} Q0 d{i} 1 {i}.5 s" for i in range(60_000)]
    path = tmp_path / "run.txt"
    path.write_bytes(b"\xef\xbb\xbf" + ending.join(lines).encode() + ending.encode())
    run = read_run(path)
    assert len(run) == 60_000
    assert run["query_id"].iloc[0] == "q0"
    assert run.index[-1] == 60_000
    assert "\ufeffq0" not in set(run["query_id"])


def test_cr_only_comment_in_large_file_is_a_comment(tmp_path):
    lines = [f"q{i % 50} Q0 d{i} 1 {i}.5 s" for i in range(60_000)] + ["#q9 Q0 dx 1 5 s"]
    path = tmp_path / "run.txt"
    path.write_bytes("\r".join(lines).encode())
    run = read_run(path)
    assert len(run) == 60_000 and "#q9" not in set(run["query_id"])


def test_lone_cr_inside_a_line_is_a_line_break(tmp_path):
    path = write(tmp_path, "run.txt", "q1 Q0 d1 1 2.0 s\nq1 Q0 d2\r2 1.0 s\n")
    with pytest.raises(InputError, match=r"run.txt:2: expected 6 .* got 3"):
        read_run(path)


@pytest.mark.parametrize("damage", ["deflate", "truncate", "header"])
def test_damaged_gzip_is_an_input_error_naming_the_file(tmp_path, damage):
    data = bytearray(gzip.compress(("q1 Q0 d1 1 2.0 s\n" * 2000).encode()))
    if damage == "deflate":
        data[20] ^= 0xFF
        data[21] ^= 0xFF
    elif damage == "truncate":
        data = data[: len(data) // 2]
    else:
        data[3] = 0xFF  # reserved flag bits
    for name, reader in [("run.txt.gz", read_run), ("qrels.txt.gz", read_qrels)]:
        path = tmp_path / name
        path.write_bytes(bytes(data))
        with pytest.raises(InputError, match=rf"{name}: damaged gzip data"):
            reader(path)


@pytest.mark.parametrize("text", ["1_0", "٣", "１", "0x10", "1e", "+-1", " ", "1 0", "1,0"])
def test_relevance_grammar(tmp_path, text):
    path = write(tmp_path, "qrels.txt", f"q1 0 d1 {text}\n")
    with pytest.raises(InputError, match=r"qrels.txt:1: (relevance is not a number|expected 4)"):
        read_qrels(path)


@pytest.mark.parametrize("text", ["1_0", "1_0.5", "٣", "0x1p3", "1.5e", "--1", "1.2.3", "nan",
                                  "-inf", "Infinity", "1e999"])
def test_score_grammar(tmp_path, text):
    path = write(tmp_path, "run.txt", f"q1 Q0 d1 1 {text} s\n")
    with pytest.raises(InputError, match=r"run.txt:1: score (is not a number|must be finite)"):
        read_run(path)


@pytest.mark.parametrize(("text", "value"), [("+2", 2), ("-0", 0), ("007", 7),
                                             ("9223372036854775807", 2**63 - 1),
                                             ("-9223372036854775808", -(2**63))])
def test_relevance_accepted_within_int64(tmp_path, text, value):
    back = read_qrels(write(tmp_path, "qrels.txt", f"q1 0 d1 {text}\n"))
    assert back["relevance"].tolist() == [value]


@pytest.mark.parametrize("text", ["9223372036854775808", "-9223372036854775809", "1" * 40])
def test_relevance_outside_int64(tmp_path, text):
    with pytest.raises(InputError,
                       match="qrels.txt:1: relevance is outside the 64-bit integer range"):
        read_qrels(write(tmp_path, "qrels.txt", f"q1 0 d1 {text}\n"))


@pytest.mark.parametrize("value", [2**63, -(2**63) - 1, 10**400, True, "1_0", "0.5",
                                   float("nan"), float("inf"), None])
def test_in_memory_relevance_outside_int64_or_not_a_number(value):
    with pytest.raises(InputError, match="qrels relevance must be a finite number"):
        as_qrels({"q1": {"d1": value}})


@pytest.mark.parametrize("value", [10**400, "inf", "1_0", True, None])
def test_in_memory_score_not_a_finite_number(value):
    with pytest.raises(InputError, match="run score must be a finite number"):
        as_run({"q1": {"d1": value}})


def test_in_memory_numbers_in_strings_follow_the_file_grammar():
    with pytest.raises(InputError, match=r"not text.*got '\+2' on row 0"):
        as_qrels({"q1": {"d1": "+2"}})  # grades as text are refused, scores are read
    assert as_run({"q1": {"d1": " 2.5e1 "}})["score"].tolist() == [25.0]
    big = as_qrels({"q1": {"d1": 2**62 + 1}})  # exact, not through a float
    assert big["relevance"].tolist() == [2**62 + 1]


@pytest.mark.slow
def test_arrow_parser_accepts_only_the_score_grammar(tmp_path):
    # The fast reader (Arrow) and the grammar must agree on what a number is.
    from reteval.io.textfile import parse_decimal

    tokens = ["1", "+1.5", "-.5", "5.", "1E5", "1e+5", "1e-5", "1_0", "0x10", "1.5e", "e5", ".",
              "+", "1d", "1f", "٣", "1..2", "1e5.5", "0001.000"]
    for token in tokens:
        lines = [f"q{i} Q0 d{i} 1 {i} s" for i in range(60_000)] + [f"qx Q0 dx 1 {token} s"]
        path = tmp_path / "run.txt"
        path.write_text("\n".join(lines) + "\n")
        try:
            expected = parse_decimal(token)
        except InputError:
            message = f"run.txt:60001: score is not a number: {token!r}"
            with pytest.raises(InputError, match=re.escape(message)):
                read_run(path)
        else:
            assert read_run(path)["score"].iloc[-1] == expected


@pytest.mark.parametrize("bad", [{"q 1": {"d1": 1}}, {"q1": {"d\t1": 1}}, {"#q": {"d1": 1}},
                                 {"": {"d1": 1}}, {"q1": {"": 1}}, {"q1": {"d\n1": 1}},
                                 {"q1": {"d\r1": 1}}, {"\ufeffq": {"d": 1}}])
def test_write_refuses_ids_the_format_cannot_hold(tmp_path, bad):
    from reteval.io import write_qrels

    with pytest.raises(InputError, match="cannot write .* in a TREC file"):
        write_run(bad, tmp_path / "run.txt")
    with pytest.raises(InputError, match="cannot write .* in a TREC file"):
        write_qrels(bad, tmp_path / "qrels.txt")
    assert not (tmp_path / "run.txt").exists()
    with pytest.raises(InputError, match="cannot write tag"):
        write_run({"q": {"d": 1}}, tmp_path / "run.txt", tag="my tag")


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(
    st.text(st.characters(codec="utf-8"), min_size=1, max_size=6),
    st.dictionaries(st.text(st.characters(codec="utf-8"), min_size=1, max_size=6),
                    st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=3),
    min_size=1, max_size=4))
def test_whatever_write_qrels_writes_reads_back_the_same(tmp_path_factory, qrels):
    from reteval.io import write_qrels

    path = tmp_path_factory.mktemp("w") / "qrels.txt"
    try:
        write_qrels(qrels, path)
    except InputError as exc:
        assert "cannot write" in str(exc)
        return
    back = read_qrels(path)
    expected = sorted((q, d, r) for q, docs in qrels.items() for d, r in docs.items())
    columns = back[["query_id", "doc_id", "relevance"]]
    assert sorted(columns.itertuples(index=False, name=None)) == expected


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300), st.sampled_from(["run", "qrels"]), st.booleans())
def test_random_bytes_parse_or_raise_input_error(tmp_path_factory, data, kind, compress):
    path = tmp_path_factory.mktemp("r") / "f.txt"
    if compress:
        full = gzip.compress(data)
        data = full[: len(full) * 3 // 4] if len(data) % 2 else full
    path.write_bytes(data)
    with contextlib.suppress(InputError):
        (read_run if kind == "run" else read_qrels)(path)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["q1", "q2", "q3"]),
                          st.sampled_from(["d1", "d2", "d3", "d4"]), st.integers(-3, 3)),
                min_size=1, max_size=8, unique_by=lambda t: t[:2]),
       st.sampled_from(["\n", "\r\n", "\r"]), st.sampled_from([" ", "\t", "  ", " \t "]),
       st.booleans())
def test_whitespace_endings_and_bom_never_change_the_judgments(tmp_path_factory, rows, ending,
                                                                sep, bom):
    path = tmp_path_factory.mktemp("q") / "qrels.txt"
    text = ending.join(sep.join([q, "0", d, str(r)]) for q, d, r in rows) + ending
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode())
    back = read_qrels(path)
    columns = back[["query_id", "doc_id", "relevance"]]
    assert list(columns.itertuples(index=False, name=None)) == rows


@pytest.mark.parametrize("call", [
    lambda: read_run(None), lambda: read_run(5), lambda: read_qrels([]),
    lambda: read_qrels(b"q.txt"),
    lambda: write_run({"q": {"d": 1}}, None), lambda: write_run({"q": {"d": 1}}, "x.txt", tag=5),
    lambda: as_run({"q": {None: 1.0}}), lambda: as_qrels({1.5: {"d": 1}}),
    lambda: as_run({"q": {True: 1.0}}), lambda: evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, None),
    lambda: evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, b"AP"),
    lambda: evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, [None]),
    lambda: evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, "AP", relevance_level="1"),
    lambda: evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, "AP", relevance_level=-1),
    lambda: evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, "AP", relevance_level=2**63),
    lambda: evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, "AP", missing=None),
    lambda: evaluate(None, {"q": {"d": 1.0}}, "AP"),
])
def test_wrong_types_are_input_errors(call):
    with pytest.raises(InputError):
        call()


def test_integer_ids_in_dicts_become_strings():
    assert as_run({1: {2: 1.0}})[["query_id", "doc_id"]].values.tolist() == [["1", "2"]]


@pytest.mark.parametrize("source", ["dict", "files", "tables"])
def test_missing_queries_warning_points_at_the_callers_line(tmp_path, source):
    engine = importlib.import_module("reteval.evaluation.engine")
    columns = importlib.import_module("reteval.evaluation.columns")
    checks = importlib.import_module("reteval.evaluation.checks")
    qrels, run = {"q1": {"d1": 1}, "q2": {"d2": 1}}, {"q1": {"d1": 1.0}}
    if source != "dict":
        qrels, run = write(tmp_path, "q.txt", "q1 0 d1 1\nq2 0 d2 1\n"), \
            write(tmp_path, "r.txt", "q1 Q0 d1 1 1.0 t\n")
    if source == "tables":
        qrels, run = read_qrels(qrels), read_run(run)
    for function in (evaluate, engine.evaluate, columns.evaluate_columns):
        with pytest.warns(checks.MissingQueriesWarning) as caught:
            function(qrels, run, ["AP"])
        assert [w.filename for w in caught] == [__file__]


@pytest.mark.parametrize("lines", [1, 60_000])
def test_when_both_files_are_bad_the_run_is_named(tmp_path, lines):
    qrels = write(tmp_path, "q.txt", "q1 0 d1 1\nq1 0 d2 x\n")
    good = "".join(f"q1 Q0 d{i} 1 1.0 t\n" for i in range(3, lines + 3))  # 1 MiB+: Arrow first
    run = write(tmp_path, "r.txt", good + "q1 Q0 d2 2 abc t\n")
    with pytest.raises(InputError, match=rf"r\.txt:{lines + 1}: score"):
        evaluate(qrels, run, ["AP"])


def test_aggregate_keeps_columns_that_share_a_name():
    from reteval import aggregate

    per_query = pd.concat([pd.DataFrame({"AP": [0.1, 0.2]}), pd.DataFrame({"AP": [0.9, 1.0]})],
                          axis=1)
    assert aggregate(per_query).tolist() == per_query.mean().tolist()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.text(max_size=3), max_size=5), min_size=1, max_size=5),
       st.data())
def test_take_from_chunked_ids_keeps_the_order_asked(chunks, data):
    import pyarrow as pa

    from reteval.io.arrow import take

    values = [v for chunk in chunks for v in chunk]
    chunked = pa.chunked_array(chunks, type=pa.large_string())
    rows = data.draw(st.lists(st.integers(0, max(len(values) - 1, 0)),
                              max_size=8 if values else 0))
    expected = [values[i] for i in rows]
    assert take(chunked, np.array(rows, dtype=np.int64)).to_pylist() == expected
    assert take(chunked.combine_chunks(), np.array(rows, dtype=np.int64)).to_pylist() == expected


@pytest.mark.parametrize("seed", [0, 1])
def test_a_run_parsed_in_many_blocks_matches_pytrec_eval(tmp_path, monkeypatch, seed):
    # Arrow parses a large run in blocks (one chunk of ids each), and the ids are hashed and
    # looked up in blocks of rows: make both small so that a 2 MB run has dozens of them.
    # Ties, queries without judgments (whose rows are dropped), judged documents not
    # retrieved and negative judgments; scores are multiples of 1/8 (pytrec_eval compares
    # them in float32).
    pytrec_eval = pytest.importorskip("pytrec_eval")
    from reteval.evaluation import ranking
    from reteval.io import duplicates, runfile

    monkeypatch.setattr(runfile, "_BLOCK_BYTES", 1 << 16)
    monkeypatch.setattr(ranking, "_BLOCK_ROWS", 5000)
    monkeypatch.setattr(duplicates, "_BLOCK_ROWS", 7000)
    rng = np.random.default_rng(seed)
    n = 80_000
    rows = zip([f"q{i}" for i in rng.integers(0, 300, n)], [f"d{i}" for i in rng.permutation(n)],
               rng.integers(-40, 40, n) / 8, strict=True)
    run = {}
    for q, d, score in rows:
        run.setdefault(q, {})[d] = float(score)
    qrels = {q: {"not-retrieved": 1} for q in run if q != "q7"}  # q7: not judged
    for q, docs in run.items():
        if q in qrels:
            for d in rng.choice(list(docs), size=min(len(docs), 12), replace=False):
                qrels[q][str(d)] = int(rng.integers(-1, 3))
    run_path, qrels_path = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run_path.write_text("".join(f"{q} Q0 {d} 0 {s!r} t\n"
                                for q, docs in run.items() for d, s in docs.items()))
    qrels_path.write_text("".join(f"{q} 0 {d} {r}\n"
                                  for q, docs in qrels.items() for d, r in docs.items()))
    assert runfile.read_run_columns(run_path).doc_ids.num_chunks > 20
    names = {"map": "AP", "ndcg_cut_10": "nDCG@10", "P_5": "P@5", "recip_rank": "RR",
             "Rprec": "Rprec", "bpref": "Bpref", "num_rel_ret": "NumRelRet",
             "recall_100": "R@100"}
    got = evaluate(qrels_path, run_path, list(names.values()), missing="skip")
    expected = pytrec_eval.RelevanceEvaluator(qrels, set(names)).evaluate(run)
    assert sorted(got.index) == sorted(expected)
    for q, values in expected.items():
        for name, measure in names.items():
            assert got.loc[q, measure] == pytest.approx(values[name], abs=1e-12), (q, measure)
