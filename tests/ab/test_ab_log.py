"""The SQLite interaction log: schema, concurrent writers, bad records, imports, export."""

import json
import multiprocessing
import re
import sqlite3
from datetime import datetime, timedelta, timezone

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reteval.ab.assignment import Experiment
from reteval.ab.log import SCHEMA_VERSION, Interaction, InteractionLog, parse_record
from reteval.errors import InputError

EXP = Experiment("ranker-v2", ("A", "B"), feedback_values=(0, 1))


def record(**over):
    rec = {"experiment": "ranker-v2", "variant": "A", "user_id": "u1", "query": "covid",
           "timestamp": "2024-05-01T12:00:00Z", "retrieved": ["d1", "d2", "d3"],
           "clicks": ["d2"], "feedback": 1}
    rec.update(over)
    return rec


@pytest.fixture
def log(tmp_path):
    with InteractionLog(tmp_path / "log.sqlite") as lg:
        lg.register(EXP)
        yield lg


def test_schema_version_wal_and_round_trip(log):
    log.append(record())
    log.append(record(user_id="u2", variant="B", clicks=[], feedback=None,
                      timestamp="2024-05-01T14:00:00+02:00"))
    con = sqlite3.connect(log.path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()
    df = log.to_pandas()
    assert len(log) == 2
    assert df["user_id"].tolist() == ["u1", "u2"]
    assert df["retrieved"].tolist() == [["d1", "d2", "d3"], ["d1", "d2", "d3"]]
    assert df["clicks"].tolist() == [["d2"], []]
    assert df["feedback"].dtype == "Int64" and df["feedback"].isna().tolist() == [False, True]
    assert df["n_retrieved"].tolist() == [3, 3] and df["n_clicks"].tolist() == [1, 0]
    # +02:00 is stored in UTC
    assert df["timestamp"].tolist() == [pd.Timestamp("2024-05-01T12:00:00Z")] * 2
    assert str(df["timestamp"].dt.tz) == "UTC"


def test_experiments_are_stored_and_checked(tmp_path, log):
    log.register(EXP)  # same design again: fine
    with pytest.raises(InputError, match="already registered with a different design"):
        log.register(Experiment("ranker-v2", ("A", "B", "C")))
    with InteractionLog(log.path) as again:
        assert again.experiment("ranker-v2") == EXP
        with pytest.raises(InputError, match="unknown experiment 'nope'"):
            again.experiment("nope")


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "future.sqlite"
    InteractionLog(path).close()
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version = 99")
    con.commit()
    con.close()
    with pytest.raises(InputError, match="newer reteval .interaction log schema version 99"):
        InteractionLog(path)


def test_foreign_database_is_refused(tmp_path):
    path = tmp_path / "other.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE users (id INTEGER)")
    con.commit()
    con.close()
    with pytest.raises(InputError, match="not a reteval interaction log: an SQLite database "
                                         "holding tables"):
        InteractionLog(path)


@pytest.mark.parametrize(
    "over, message",
    [
        ({"variant": "C"}, ("record user_id='u1' query='covid': unknown variant 'C' for "
                           "experiment 'ranker-v2'; expected one of 'A', 'B'")),
        ({"feedback": 5}, ("record user_id='u1' query='covid': feedback 5 is not allowed; "
                          "expected one of 0, 1")),
        ({"feedback": "yes"}, "feedback 'yes' is not allowed"),
        ({"user_id": None}, "missing field 'user_id'"),
        ({"query": ""}, "record user_id='u1' query='': missing field 'query'"),
        ({"experiment": "other"}, "unknown experiment 'other'"),
        ({"clicks": ["d9"]}, "clicked doc id 'd9' is not among the retrieved documents"),
        ({"timestamp": "2024-05-01T12:00:00"}, "has no UTC offset"),
        ({"timestamp": "yesterday"}, "timestamp must be ISO 8601"),
        ({"retrieved": ["d1", "d1"]}, "lists doc id 'd1' twice"),
        ({"retrieved": "d1 d2"}, "must be a JSON array"),
    ],
)
def test_bad_record_rejected_with_its_name(log, over, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        log.append(record(**over))
    assert len(log) == 0


def test_missing_field_absent_key(log):
    rec = record()
    del rec["timestamp"]
    with pytest.raises(InputError, match="missing field 'timestamp'"):
        log.append(rec)


def test_parse_record_returns_interaction():
    rec = parse_record(record(retrieved='["d1", "d2"]', clicks='["d1"]', feedback="0"), EXP)
    assert rec == Interaction("ranker-v2", "A", "u1", "covid",
                              datetime(2024, 5, 1, 12, tzinfo=timezone.utc), ("d1", "d2"),
                              ("d1",), 0)


def test_extend_is_all_or_nothing(log):
    with pytest.raises(InputError, match="record #1: .*unknown variant 'Z'"):
        log.extend([record(), record(variant="Z"), record()])
    assert len(log) == 0
    log.extend([record(user_id=f"u{i}") for i in range(3)])
    assert len(log) == 3


def test_interaction_objects_are_accepted(log):
    rec = parse_record(record(), EXP)
    log.append(rec)
    log.append(Interaction("ranker-v2", "B", "u9", "q", datetime(2024, 1, 1, tzinfo=timezone(
        timedelta(hours=8))), ("d1",)))
    df = log.to_pandas()
    assert df["timestamp"].iloc[1] == pd.Timestamp("2023-12-31T16:00:00Z")
    assert pd.isna(df["feedback"].iloc[1])


CSV = """experiment,variant,user_id,query,timestamp,retrieved,clicks,feedback
ranker-v2,A,u1,q1,2024-05-01T12:00:00Z,"[""d1"", ""d2""]","[""d1""]",1
ranker-v2,B,u2,q1,2024-05-01T12:01:00Z,"[""d2"", ""d1""]",[],
ranker-v2,C,u3,q1,2024-05-01T12:02:00Z,"[""d1""]",[],0
ranker-v2,A,u4,q2,2024-05-01T12:03:00Z,"[""d1""]",[],7
ranker-v2,A,,q2,2024-05-01T12:03:00Z,"[""d1""]",[],0
ranker-v2,B,u5,q3,2024-05-01T12:04:00Z,"[""d1""]","[""d4""]",
ranker-v2,B,u6,q3,2024-05-01T12:04:00Z,"[""d1""]",,0
"""


def test_import_csv_reports_every_rejection(tmp_path, log):
    path = tmp_path / "log.csv"
    path.write_text(CSV, encoding="utf-8")
    report = log.import_file(path)
    assert (report.n_read, report.n_imported, report.n_rejected) == (7, 3, 4)
    assert report.reasons == {"unknown variant": 1, "feedback not allowed": 1,
                              "missing field": 1, "click not shown": 1}
    assert [r.line for r in report.rejections] == [4, 5, 6, 7]
    assert report.rejections[0].message.startswith(f"{path}:4: record user_id='u3' query='q1'")
    assert "rejected 4" in str(report)
    df = log.to_pandas()
    assert df["user_id"].tolist() == ["u1", "u2", "u6"]
    assert df["feedback"].tolist()[:1] == [1] and pd.isna(df["feedback"].iloc[1])


def test_import_jsonl_with_default_experiment(tmp_path, log):
    rows = [
        {"variant": "A", "user_id": "u1", "query": "q", "timestamp": "2024-05-01T00:00:00Z",
         "retrieved": ["d1", "d2"], "clicks": ["d2"], "feedback": 1},
        {"variant": "B", "user_id": 7, "query": "q", "timestamp": "2024-05-01T00:00:00Z",
         "retrieved": ["d1"]},
        {"variant": "B", "user_id": "u3", "query": "q", "timestamp": "2024-05-01T00:00:00Z"},
    ]
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n{broken\n[1, 2]\n")
    report = log.import_file(path, experiment="ranker-v2")
    assert (report.n_read, report.n_imported, report.n_rejected) == (5, 2, 3)
    assert report.reasons == {"missing field": 1, "unreadable": 2}
    assert [r.line for r in report.rejections] == [3, 5, 6]
    assert log.to_pandas()["user_id"].tolist() == ["u1", "7"]


def test_import_errors(tmp_path, log):
    with pytest.raises(InputError, match="does not exist"):
        log.import_file(tmp_path / "missing.csv")
    path = tmp_path / "log.txt"
    path.write_text("x")
    with pytest.raises(InputError, match="format must be 'csv' or 'jsonl'"):
        log.import_file(path)


def _exit_codes(target, args):
    """Run ``target(*a)`` for each ``a`` of ``args`` in its own process (named p0, p1, ...)."""
    ctx = multiprocessing.get_context("fork" if "fork" in
                                      multiprocessing.get_all_start_methods() else "spawn")
    procs = [ctx.Process(target=target, args=a, name=f"p{i}") for i, a in enumerate(args)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    return [p.exitcode for p in procs]


def _writer(path, worker, n, durable):
    with InteractionLog(path, timeout=60, durable=durable) as lg:
        for i in range(n):
            lg.append(record(user_id=f"w{worker}-{i}", variant="AB"[i % 2]))


# Locking is the same either way; durable=True adds one disk flush per append (slow on CI disks).
@pytest.mark.parametrize("durable", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_concurrent_writers_lose_nothing(tmp_path, durable):
    path = tmp_path / "shared.sqlite"
    with InteractionLog(path) as lg:
        lg.register(EXP)
    codes = _exit_codes(_writer, [(str(path), w, 200, durable) for w in range(4)])
    assert codes == [0, 0, 0, 0]
    with InteractionLog(path) as lg:
        df = lg.to_pandas()
    assert len(df) == 800
    assert set(df["user_id"]) == {f"w{w}-{i}" for w in range(4) for i in range(200)}
    assert df["id"].is_unique


def _opener(path):
    with InteractionLog(path) as lg:
        lg.register(EXP)
        lg.append(record(user_id=multiprocessing.current_process().name))


def test_concurrent_creation_of_a_new_log(tmp_path):
    path = tmp_path / "new.sqlite"
    assert _exit_codes(_opener, [(str(path),)] * 4) == [0, 0, 0, 0]
    with InteractionLog(path) as lg:
        assert sorted(lg.to_pandas()["user_id"]) == ["p0", "p1", "p2", "p3"]
        assert lg.schema_version == SCHEMA_VERSION


# --------------------------------------------------------------------------- one bad record


def _jsonl_line(**over):
    return json.dumps(record(**over)).encode()


@pytest.mark.parametrize(("bad", "kind"), [
    (b'{"experiment": "ranker-v2", "variant": "A", "user_id": "u\xff", "query": "q"}',
     "unreadable"),
    (_jsonl_line(user_id="\ud800"), "unreadable"),  # json.dumps writes it as \ud800
    (b"[" * 200_000 + b"]" * 200_000, "unreadable"),
    (_jsonl_line().replace(b'"feedback": 1', b'"feedback": NaN'), "unreadable"),
    (_jsonl_line().replace(b'"feedback": 1', b'"feedback": Infinity'), "unreadable"),
    (_jsonl_line(retrieved='["d1", "\\ud800"]'), "bad retrieved"),
    (_jsonl_line(timestamp="0001-01-01T00:00:00+05:00"), "bad timestamp"),
    (_jsonl_line(user_id=10**5000 if False else "u9", feedback="1_0"), "feedback not allowed"),
])
@pytest.mark.parametrize("ending", [b"\n", b"\r\n", b"\r"])
def test_one_bad_jsonl_record_is_reported_and_the_rest_imported(tmp_path, log, bad, kind, ending):
    path = tmp_path / "log.jsonl"
    good = [_jsonl_line(user_id=f"u{i}") for i in range(3)]
    path.write_bytes(b"\xef\xbb\xbf" + ending.join([good[0], bad, good[1], good[2]]) + ending)
    report = log.import_file(path)
    assert (report.n_read, report.n_imported, report.n_rejected) == (4, 3, 1)
    assert report.rejections[0].line == 2
    assert report.rejections[0].kind == kind
    assert f"{path}:2:" in report.rejections[0].message
    assert log.to_pandas()["user_id"].tolist() == ["u0", "u1", "u2"]


@pytest.mark.parametrize(("cells", "kind"), [
    (b'ranker-v2,A,u\xff,q,2024-05-01T12:00:00Z,"[""d1""]",,', "not text"),
    (b'ranker-v2,A,u9,q,2024-05-01T12:00:00Z,"[""\\ud800""]",,', "bad retrieved"),
    (b'ranker-v2,A,u9,q,2024-05-01T12:00:00Z,"' + b"[" * 100_000 + b'",,', "bad retrieved"),
    (b'ranker-v2,A,u9,q,2024-05-01T12:00:00Z,"[""d1""]",,nan', "feedback not allowed"),
    (b'ranker-v2,A,u9,q,2024-05-01T12:00:00Z,"[""d1""]",,\xd9\xa1', "feedback not allowed"),
])
@pytest.mark.parametrize("ending", [b"\n", b"\r\n", b"\r"])
def test_one_bad_csv_record_is_reported_and_the_rest_imported(tmp_path, log, cells, kind, ending):
    header = b"experiment,variant,user_id,query,timestamp,retrieved,clicks,feedback"
    good = [f'ranker-v2,B,u{i},q,2024-05-01T12:00:00Z,"[""d1""]","[""d1""]",1'.encode()
            for i in range(3)]
    path = tmp_path / "log.csv"
    path.write_bytes(b"\xef\xbb\xbf" + ending.join([header, good[0], cells, good[1], good[2]])
                     + ending)
    report = log.import_file(path)
    assert (report.n_read, report.n_imported, report.n_rejected) == (4, 3, 1), report.rejections
    assert report.rejections[0].kind == kind
    assert report.rejections[0].line == 3
    assert log.to_pandas()["user_id"].tolist() == ["u0", "u1", "u2"]


def test_append_of_text_that_is_not_unicode_is_an_input_error(log):
    with pytest.raises(InputError, match="user_id is not valid text"):
        log.append(record(user_id="u\udcff"))
    with pytest.raises(InputError, match="query is not valid text"):
        log.append(record(query=10**5000))
    assert len(log) == 0


def test_damaged_gzip_import_names_the_file(tmp_path, log):
    import gzip

    data = bytearray(gzip.compress(b"\n".join(_jsonl_line(user_id=f"u{i}") for i in range(500))))
    data[20] ^= 0xFF
    data[21] ^= 0xFF
    path = tmp_path / "log.jsonl"
    path.write_bytes(bytes(data))
    with pytest.raises(InputError, match="log.jsonl: damaged gzip data"):
        log.import_file(path)


# --------------------------------------------------------------------------- not a log


def _history(path):
    from reteval.monitor.history import open_history

    open_history(path, create=True).close()


@pytest.mark.parametrize(("make", "message"), [
    (_history, "is a reteval monitoring history, not a reteval interaction log"),
    (lambda p: p.write_text("hello, not a database\n" * 100),
     "not a readable reteval interaction log"),
    (lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\xff" * 200),
     "not a readable reteval interaction log"),
    (lambda p: p.mkdir(), "is a directory"),
    (lambda p: sqlite3.connect(p).execute("CREATE TABLE t (x)").connection.commit(),
     "tables ['t']"),
    (lambda p: sqlite3.connect(p).execute("PRAGMA application_id = 7").connection.commit(),
     "application_id 0x7"),
])
def test_anything_but_a_log_is_one_input_error_naming_the_file(tmp_path, make, message):
    path = tmp_path / "thing.sqlite"
    make(path)
    before = path.read_bytes() if path.is_file() else None
    with pytest.raises(InputError, match=re.escape(message)) as info:
        InteractionLog(path)
    assert str(path) in str(info.value)
    if before is not None:
        assert path.read_bytes() == before  # nothing written into someone else's file


def test_log_has_its_own_application_id_and_old_logs_are_adopted(tmp_path):
    from reteval.ab.log import APPLICATION_ID

    path = tmp_path / "log.sqlite"
    with InteractionLog(path) as lg:
        lg.register(EXP)
        lg.append(record())
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID == 0x52455441
    con.execute("PRAGMA application_id = 0")  # as written before the id existed
    con.commit()
    con.close()
    with InteractionLog(path) as lg:
        assert len(lg) == 1
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    con.close()
    from reteval.monitor.history import HistoryError, open_history

    with pytest.raises(HistoryError, match="is a reteval interaction log, not a reteval history"):
        open_history(path)
    assert issubclass(HistoryError, InputError)


def test_lock_held_past_the_timeout_is_an_input_error(tmp_path):
    path = tmp_path / "log.sqlite"
    with InteractionLog(path) as lg:
        lg.register(EXP)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with InteractionLog(path, timeout=0.2) as lg, \
                pytest.raises(InputError, match="locked") as info:
            lg.append(record())
        assert str(path) in str(info.value)
    except InputError as exc:  # the open itself may be the one that waits
        assert "locked" in str(exc) and str(path) in str(exc)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


@pytest.mark.parametrize("timeout", [float("nan"), float("inf"), -1, 1e300, "x"])
def test_bad_timeout(tmp_path, timeout):
    with pytest.raises(InputError, match="timeout must be"):
        InteractionLog(tmp_path / "log.sqlite", timeout=timeout)


@settings(max_examples=80, deadline=None)
@given(st.binary(max_size=400), st.sampled_from(["csv", "jsonl"]))
def test_random_bytes_import_or_input_error(tmp_path_factory, data, fmt):
    folder = tmp_path_factory.mktemp("imp")
    path = folder / f"log.{fmt}"
    good = (b"experiment,variant,user_id,query,timestamp,retrieved\n" if fmt == "csv" else b"")
    path.write_bytes(good + data)
    with InteractionLog(folder / "log.sqlite") as lg:
        lg.register(EXP)
        try:
            report = lg.import_file(path, experiment="ranker-v2")
        except InputError:
            return
        assert report.n_imported + report.n_rejected == report.n_read
        assert len(lg) == report.n_imported
