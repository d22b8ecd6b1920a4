"""The two run readers, fed the same files, give the same answer on every line.

Runs of 1 MiB or more are read by Arrow's CSV reader (:mod:`reteval.io.runfile`; from the
file's bytes in memory, and from 16 MiB from a memory map of the file), smaller ones by the
careful line reader (:mod:`reteval.io.lines`). Each generated
file is read at both sizes (the same lines after 1 MiB of ordinary lines, and
alone), plain and gzip, with one space or one tab between fields: the rows, or the
error and the line it names, must be the same.
"""

import functools
import gzip

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reteval import InputError
from reteval.io import runfile
from reteval.io.lines import parse_run_lines
from reteval.io.runfile import _FAST_MIN_BYTES, read_run_columns
from reteval.io.textfile import decode, read_bytes

TOKENS = ["q1", "q2", "Q0", "d1", "d2", "d3", "doc#7", "文档", "1", "2", "2.5", "-0", "+1", ".5",
          "5.", "1e5", "1E-3", "0001.000", "1e400", "nan", "inf", "1_0", "0x10", "1e", "e5", ".",
          "-", "#x", "run", "tag"]
GOOD = st.tuples(st.sampled_from(["q1", "q2", "q3"]), st.sampled_from(["Q0", "0"]),
                 st.sampled_from(["d1", "d2", "d3", "d4", "doc#7", "文档"]),
                 st.sampled_from(["1", "2", "0"]),
                 st.sampled_from(["2.5", "-0", "+1", ".5", "5.", "1e5", "1E-3", "3"]),
                 st.sampled_from(["run", "tag"])).map(list)
# Fields of any count, any of them empty: joined with one separator, an empty field is two
# separators in a row, or a separator at the start or the end of the line.
ANY = st.lists(st.sampled_from(["", *TOKENS]), max_size=8)


def _with_empty_field(fields, at, insert):
    """An empty field put in (or in place of a field) at ``at``: six or seven fields."""
    return fields[:at] + [""] + fields[at + (not insert):]


EMPTY = st.builds(_with_empty_field, GOOD, st.integers(0, 6), st.booleans())
LINE = st.one_of(GOOD, GOOD, EMPTY, ANY)


@functools.cache
def _filler(sep: str, ending: str) -> tuple[str, int]:
    """Ordinary lines making up just over 1 MiB, and their count."""
    lines, size, i = [], 0, 0
    while size < _FAST_MIN_BYTES:
        line = sep.join([f"f{i % 97}", "Q0", f"x{i}", "1", f"{i}.25", "run"]) + ending
        lines.append(line)
        size += len(line.encode())
        i += 1
    return "".join(lines), len(lines)


def _outcome(read, path):
    """Rows as (query id, doc id, score, line), or the error."""
    try:
        return read(path)
    except InputError as exc:
        return str(exc).replace(str(path), "FILE")


def _columns(path):
    run = read_run_columns(path)
    return list(zip(run.query_ids.to_pylist(), run.doc_ids.to_pylist(), run.scores.tolist(),
                    map(int, run.lines), strict=True))


def _careful(path):
    return list(zip(*parse_run_lines(decode(read_bytes(path), path), path), strict=True))


def _shift(outcome, by):
    """The outcome of the lines alone, as it reads after ``by`` lines of filler."""
    if isinstance(outcome, str):
        head, sep, rest = outcome.partition("FILE:")
        if sep:
            number, colon, message = rest.partition(":")
            return f"{head}FILE:{int(number) + by}{colon}{message}"
        return outcome
    return [(q, d, s, line + by) for q, d, s, line in outcome]


@settings(max_examples=30, deadline=None)
@pytest.mark.slow
@given(lines=st.lists(LINE, min_size=1, max_size=6), sep=st.sampled_from([" ", "\t"]),
       ending=st.sampled_from(["\n", "\r\n"]), last_ending=st.booleans(),
       compress=st.booleans())
def test_large_and_small_files_agree_on_every_line(tmp_path_factory, lines, sep, ending,
                                                   last_ending, compress):
    """Thirty generated files, as each example also reads 1 MiB of filler with the careful
    line reader: the kinds of line (good, an empty field, any fields) and the file forms
    recur in thirty, and the cases named below are tested one by one."""
    body = ending.join(sep.join(fields) for fields in lines) + (ending if last_ending else "")
    filler, count = _filler(sep, ending)
    folder = tmp_path_factory.mktemp("runs")
    paths = {}
    for size, text in [("small", body), ("large", filler + body)]:
        data = text.encode()
        paths[size] = folder / f"{size}.txt"
        paths[size].write_bytes(gzip.compress(data, compresslevel=1) if compress else data)
    small = _outcome(_columns, paths["small"])
    large = _outcome(_columns, paths["large"])
    assert small == _outcome(_careful, paths["small"])
    assert large == _outcome(_careful, paths["large"])
    if isinstance(small, str) and "empty run file" in small:
        assert isinstance(large, list) and len(large) == count
        return
    if isinstance(large, list):
        assert isinstance(small, list), small
        assert large[count:] == _shift(small, count)
    else:
        assert large == _shift(small, count)


EMPTY_FIELDS = {
    "two separators in a row": "q1 Q0  6 995 sys",
    "an empty score": "q1 Q0 d9 6  sys",
    "a leading separator, five fields": " Q0 d9 6 995 sys",
    "a trailing separator, five fields": "q1 Q0 d9 6 995 ",
}


@pytest.fixture(params=["in memory", "mapped"])
def arrow_input(request, monkeypatch):
    """Arrow reads a large run from its bytes in memory, or (from 16 MiB; lowered here to the
    size of the filler) from a memory map of the file."""
    if request.param == "mapped":
        monkeypatch.setattr(runfile, "_MAPPED_MIN_BYTES", _FAST_MIN_BYTES)
    return request.param


@pytest.mark.parametrize("compress", [False, True])
@pytest.mark.parametrize("sep", [" ", "\t"])
@pytest.mark.parametrize("case", sorted(EMPTY_FIELDS))
def test_large_runs_refuse_empty_fields(tmp_path, arrow_input, case, sep, compress):
    line = EMPTY_FIELDS[case]
    message = "expected 6 whitespace-separated fields 'qid Q0 docno rank score tag', got 5"
    filler, count = _filler(sep, "\n")
    data = (filler + line.replace(" ", sep) + "\n").encode()
    path = tmp_path / "run.txt"
    path.write_bytes(gzip.compress(data, compresslevel=1) if compress else data)
    with pytest.raises(InputError, match=rf"run.txt:{count + 1}: {message}"):
        read_run_columns(path)


@pytest.mark.parametrize("sep", [" ", "\t"])
def test_leading_and_trailing_separators_around_six_fields_are_read(tmp_path, arrow_input,
                                                                   sep):
    # trec_eval skips white space around the fields: so do both readers.
    filler, count = _filler(sep, "\n")
    body = sep.join(["", "q1", "Q0", "d9", "1", "2.5", "run"]) + "\n"
    body += sep.join(["q1", "Q0", "d8", "2", "1.5", "run", ""]) + "\n"
    path = tmp_path / "run.txt"
    path.write_text(filler + body)
    run = read_run_columns(path)
    assert run.doc_ids.to_pylist()[count:] == ["d9", "d8"]
    assert run.scores.tolist()[count:] == [2.5, 1.5]
