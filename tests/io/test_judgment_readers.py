"""The preference, multi-judge and z-score readers follow the runs' and qrels' grammar."""

from __future__ import annotations

import re

import pytest

from reteval import evaluate
from reteval.errors import InputError
from reteval.io.prefs import read_prefs, read_qrels_jg, read_qrels_prefs
from reteval.io.zscores import read_zscores

READERS = {"prefs": read_prefs, "qrels_prefs": read_qrels_prefs, "qrels_jg": read_qrels_jg}


@pytest.mark.parametrize("fmt", sorted(READERS))
@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "  # indented comment\n\n",
                                  "\t \n# a\n#b c d e\n"])
def test_a_file_without_judgments_is_refused_naming_it(tmp_path, fmt, text):
    path = tmp_path / "judgments.txt"
    path.write_text(text)
    with pytest.raises(InputError, match=re.escape(f"{path}: empty {fmt} file: no judgments")):
        READERS[fmt](path)


@pytest.mark.parametrize("fmt", sorted(READERS))
def test_evaluate_refuses_an_empty_judgment_file(tmp_path, fmt):
    path = tmp_path / "judgments.txt"
    path.write_text("# nothing judged\n")
    run = tmp_path / "run"
    run.write_text("q1 Q0 d1 1 1 t\n")
    measure = "map_avgjg" if fmt == "qrels_jg" else "prefs_simp"
    with pytest.raises(InputError, match="no judgments found"):
        evaluate(str(path), str(run), [measure], rel_format=fmt)


@pytest.mark.parametrize(("fmt", "text", "message"), [
    ("prefs", "q1 u s d1 2\nq1 u s d2 high\n",
     r"j:2: the relevance level of document 'd2' of query 'q1' is not a number: 'high'"),
    ("prefs", "q1 u s d1 1_0\n", r"j:1: .* is not a number: '1_0'"),
    ("prefs", "q1 u s d1 inf\n", r"j:1: .* must be finite; got 'inf'"),
    ("prefs", "q1 u d1 2\n", r"j:1: a prefs line is 'qid jg jsg docno rel_level', 5 fields; got 4"),
    ("qrels_prefs", "q1 0 d7 nan\n", r"j:1: the relevance level of document 'd7' of query 'q1'"),
    ("qrels_jg", "q1 0 d1 1\n\nq2 0 d9 x\n",
     r"j:3: the relevance of document 'd9' of query 'q2' is not a number: 'x'"),
    ("qrels_jg", "q1 0 d1 1\n\nq2 0 d9 nan\n",
     r"j:3: the relevance of document 'd9' of query 'q2' must be finite; got 'nan'"),
    ("qrels_jg", "q1 0 d1 1\nq1 0 d1 0\n",
     r"j:2: document 'd1' of query 'q1' is judged twice by judgment group '0'"),
    # a no-break space does not split fields: "s\xa0d1" is one field, the line has 4
    ("prefs", "q1 u s\u00a0d1 2\n", r"j:1: a prefs line .* got 4"),
])
def test_errors_name_file_line_query_and_document(tmp_path, fmt, text, message):
    path = tmp_path / "j"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        READERS[fmt](path)


def test_u0085_does_not_end_a_judgment_line(tmp_path):
    path = tmp_path / "j"
    path.write_text("q1 0 d\u00851 2\r\nq1 0 d2 0\r", encoding="utf-8", newline="")
    assert read_qrels_jg(path) == {"q1": {"0": {"d\u00851": 2, "d2": 0}}}


@pytest.mark.parametrize(("text", "message"), [
    ("301 map 1_0 0.15\n", r"z:1: the mean of query '301' measure 'map' is not a number: '1_0'"),
    ("301 map 0.1 0x1\n", r"z:1: the stddev .* is not a number: '0x1'"),
    ("301 map inf 0.1\n", r"z:1: the mean .* must be finite; got 'inf'"),
    ("301 map\u00a00.1 0.2\n", r"z:1: a z-score line is 'query measure mean stddev' .* got 3"),
    ("301 map 0.1\u00850.2 0.3\n", r"z:1: the mean .* is not a number: '0.1\\x850.2'"),
    ("301 map 0.1 0.2\n\n301 map 0.3 0.4\n", r"z:3: query '301' measure 'map' is given twice"),
])
def test_zscore_file_follows_the_run_grammar(tmp_path, text, message):
    path = tmp_path / "z"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        read_zscores(path)


def test_zscore_file_reads_trec_eval_decimals_and_line_ends(tmp_path):
    path = tmp_path / "z"
    path.write_text("301 map .5 2.\r\n302\tP_5 -1e-1 +3E0\r303 map 0 1\n", newline="")
    assert read_zscores(path) == {("301", "map"): (0.5, 2.0), ("302", "P_5"): (-0.1, 3.0),
                                  ("303", "map"): (0.0, 1.0)}
