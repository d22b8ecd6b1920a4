"""trec_eval's last spellings, one column per name asked, several runs per call.

Expected text is what trec_eval 10 (built from its public source) prints for the same
flags on its own test files (shared/conformance/trec_eval).
"""

import json
import shlex

import numpy as np
import pytest

from reteval import evaluate
from reteval.cli import main
from reteval.errors import UnknownMeasureError
from reteval.evaluation.engine import summarize
from reteval.measures import measure_columns, parse_measure

T = "\t"
# trec_eval's flags on qrels.test / results.test -> the lines it prints
SPELLINGS = [
    ("-q -m ndcg_cut.10", ["ndcg_cut_10           \t301\t0.1518",
                           "ndcg_cut_10           \t302\t0.7530",
                           "ndcg_cut_10           \t303\t0.0000",
                           "ndcg_cut_10           \tall\t0.3016"]),
    ("-q -m set_F.2", ["set_F_2               \t301\t0.1471",
                       "set_F_2               \t302\t0.2294",
                       "set_F_2               \t303\t0.0577",
                       "set_F_2               \tall\t0.1447"]),
    ("-q -m set_F.0.5", ["set_F_0.5             \t301\t0.1445",
                         "set_F_0.5             \t302\t0.1393",
                         "set_F_0.5             \t303\t0.0297",
                         "set_F_0.5             \tall\t0.1045"]),
    ("-m set_F.1", ["set_F_1               \tall\t0.1194"]),
    ("-q -m rbp_resid.1=3", ["rbp_resid_1=3         \t301\t0.0610",
                             "rbp_resid_1=3         \t302\t0.0001",
                             "rbp_resid_1=3         \t303\t0.0000",
                             "rbp_resid_1=3         \tall\t0.0204"]),
    ("-m runid", ["runid                 \tall\tSTANDARD"]),
    ("-m relstring", []),
    ("-q -m relstring", ["relstring             \t301\t'0000011000'",
                         "relstring             \t302\t'1101110110'",
                         "relstring             \t303\t'0000000000'"]),
]


@pytest.mark.parametrize("flags, expected", SPELLINGS, ids=[s[0] for s in SPELLINGS])
def test_spelling_prints_what_trec_eval_prints(conformance_dir, capsys, flags, expected):
    code = main(["evaluate", "--format", "trec", *shlex.split(flags),
                 str(conformance_dir / "qrels.test"), str(conformance_dir / "results.test")])
    assert code == 0
    assert capsys.readouterr().out.splitlines() == expected


def test_num_q_alone_under_qrels_jg(conformance_dir, capsys):
    code = main(["evaluate", "--format", "trec", "-R", "qrels_jg", "-m", "num_q",
                 str(conformance_dir / "qrels.123"), str(conformance_dir / "results.test")])
    assert code == 0
    assert capsys.readouterr().out.splitlines() == ["num_q                 \tall\t3"]


def test_runid_is_the_last_lines_tag(tmp_path, capsys):
    # trec_eval -m runid -m map prints "runid all last" for this run
    (tmp_path / "qrels").write_text("q1 0 d1 1\nq1 0 d2 0\n")
    (tmp_path / "run").write_text("q1 Q0 d1 1 2.0 first\nq1 Q0 d2 2 1.0 last\n")
    assert main(["evaluate", "--format", "trec", "-m", "runid", "-m", "map",
                 str(tmp_path / "qrels"), str(tmp_path / "run")]) == 0
    assert capsys.readouterr().out.splitlines() == ["runid                 \tall\tlast",
                                                    "map                   \tall\t1.0000"]


def test_runid_alone_in_another_format_is_refused(conformance_dir, capsys):
    code = main(["evaluate", "-m", "runid", str(conformance_dir / "qrels.test"),
                 str(conformance_dir / "results.test")])
    assert code == 2
    assert "lines of --format trec" in capsys.readouterr().err


@pytest.mark.parametrize("flags, warned", [(["-c"], False), ([], True),
                                            (["--missing", "zero"], True)])
def test_explicit_c_draws_no_warning(conformance_dir, capsys, flags, warned):
    # results.trunc has no line for the judged query 302: it scores 0 (map 0.1016, trec_eval -c)
    code = main(["evaluate", *flags, "-m", "map", str(conformance_dir / "qrels.test"),
                 str(conformance_dir / "results.trunc")])
    out = capsys.readouterr()
    assert code == 0
    assert "map  all  0.1016" in out.out
    assert ("'302'" in out.err) is warned


def test_help_says_c_is_the_default(capsys):
    with pytest.raises(SystemExit):
        main(["evaluate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "-c is the default" in text
    assert "trec_eval without -c is --missing skip" in text


@pytest.mark.parametrize("names, labels", [
    (["AP", "MAP"], ["AP", "MAP"]),
    (["nDCG@10", "ndcg_cut.10"], ["nDCG@10", "ndcg_cut.10"]),
    (["nDCG(dcg=exp-log2)@10", "nDCG_exp@10"], ["nDCG(dcg=exp-log2)@10", "nDCG_exp@10"]),
    (["map", "map"], ["map"]),
    (["AP", "official"], ["AP", "num_q", "num_ret", "num_rel", "num_rel_ret", "gm_map"]),
])
def test_one_column_per_name_asked(names, labels):
    assert [label for label, _ in measure_columns(names)][:len(labels)] == labels


def test_two_names_of_one_measure_give_equal_columns():
    qrels = {"q1": {"a": 2, "b": 1}, "q2": {"c": 1}}
    run = {"q1": ["b", "x", "a"], "q2": ["y", "c"]}
    got = evaluate(qrels, run, ["AP", "MAP", "nDCG(dcg=exp-log2)@10", "nDCG_exp@10"])
    assert list(got.columns) == ["AP", "MAP", "nDCG(dcg=exp-log2)@10", "nDCG_exp@10"]
    # AP by hand: q1 (1/1 + 2/3) / 2, q2 (1/2) / 1
    assert got["AP"].tolist() == pytest.approx([5 / 6, 1 / 2], abs=1e-15)
    assert got["MAP"].tolist() == got["AP"].tolist()
    assert got["nDCG_exp@10"].tolist() == got["nDCG(dcg=exp-log2)@10"].tolist()


@pytest.mark.parametrize("name, message", [
    ("iprec_at_recall0.5", "Did you mean 'iprec_at_recall'?"),
    ("ndcg_cut10", "Did you mean 'ndcg_cut'?"),
    ("map_cut5", "Did you mean 'map_cut'?"),
    ("rbp.p=-1", "must be a number in (0, 1); got -1.0"),
    ("RBP(p=-1)", "must be a number in (0, 1); got -1.0"),
    ("set_F.-1", "must be a positive number; got -1.0"),
    ("set_F.2,3", "set_F takes one weight"),
])
def test_malformed_names_say_what_is_wrong(name, message):
    with pytest.raises(UnknownMeasureError) as caught:
        measure_columns([name])
    assert message in str(caught.value)


def test_set_f_weight_is_trec_evals():
    # trec_eval's set_F.x is (x + 1) P R / (x P + R)
    assert parse_measure("set_F.2") == parse_measure("SetF(beta=2)")
    assert parse_measure("set_F_0.5") == parse_measure("SetF(beta=0.5)")
    assert parse_measure("rbp_resid.1=3") == parse_measure("RBPResid")  # pairs other than p


def test_all_line_sums_in_query_order_as_trec_eval(tmp_path, capsys):
    # 40 queries of 500 documents, 127 relevant retrieved in all: P_500 is 0.00635 on a
    # 4th-decimal tie; trec_eval sums query by query and prints 0.0064 (a pairwise sum: 0.0063)
    relevant = [3, 6, 1, 6, 2, 3, 5, 3, 3, 0, 4, 3, 2, 5, 2, 3, 1, 3, 2, 2, 5, 2, 3, 8, 6, 4,
                3, 2, 1, 7, 3, 1, 3, 4, 3, 5, 0, 3, 3, 2]
    qrels, run = [], []
    for i, k in enumerate(relevant):
        for d in range(500):
            qrels.append(f"q{i:02d} 0 d{d} {int(d < k)}\n")
            run.append(f"q{i:02d} Q0 d{d} {d + 1} {1000 - d} tie\n")
    (tmp_path / "qrels").write_text("".join(qrels))
    (tmp_path / "run").write_text("".join(run))
    assert main(["evaluate", "--format", "trec", "-m", "P.500", str(tmp_path / "qrels"),
                 str(tmp_path / "run")]) == 0
    assert capsys.readouterr().out == "P_500                 \tall\t0.0064\n"
    sequential = 0.0
    for k in relevant:
        sequential += k / 500
    assert summarize({"P@500": np.array(relevant) / 500})["P@500"] == sequential / 40


RUNS = ("results.test", "results.trunc")


@pytest.mark.parametrize("fmt", ["table", "csv", "json", "trec"])
def test_several_runs_equal_one_call_per_run(conformance_dir, capsys, fmt):
    qrels = str(conformance_dir / "qrels.test")
    runs = [str(conformance_dir / r) for r in RUNS]
    flags = ["--format", fmt, "-c", "-q", "-m", "map", "-m", "P.5,10"]
    singles = []
    for run in runs:
        assert main(["evaluate", *flags, qrels, run]) == 0
        singles.append(capsys.readouterr().out)
    assert main(["evaluate", *flags, qrels, *runs]) == 0
    together = capsys.readouterr().out
    if fmt == "trec":  # each run's block as trec_eval prints it, one after the other
        assert together == "".join(singles)
    elif fmt == "json":
        doc = json.loads(together)
        assert [d.pop("run") for d in doc["runs"]] == runs
        assert doc["runs"] == [json.loads(s) for s in singles]
    elif fmt == "csv":
        lines = together.splitlines()
        assert lines[0] == "run,query_id,map,P_5,P_10"
        expected = [f"{run},{line}" for run, single in zip(runs, singles, strict=True)
                    for line in single.splitlines()[1:]]
        assert lines[1:] == expected
    else:
        width = max(len(r) for r in runs)
        expected = [f"{run:<{width}}  {line}" for run, single in zip(runs, singles, strict=True)
                    for line in single.splitlines()]
        assert together.splitlines() == expected


def test_several_runs_trec_blocks_are_trec_evals(conformance_dir, capsys):
    # trec_eval on each run: out.test (results.test) then its official block of results.trunc
    qrels = str(conformance_dir / "qrels.test")
    assert main(["evaluate", "--format", "trec", "-c", qrels,
                 str(conformance_dir / "results.test"), str(conformance_dir / "results.test")]) == 0
    lines = capsys.readouterr().out.splitlines()
    expected = (conformance_dir / "out.test").read_text().splitlines()
    assert lines == expected + expected


def test_several_runs_read_the_qrels_once(conformance_dir, capsys, monkeypatch):
    import reteval.io.columns as io_columns

    calls = []
    read = io_columns.as_qrels_columns

    def counted(qrels, *args, **kwargs):
        calls.append(qrels)
        return read(qrels, *args, **kwargs)

    monkeypatch.setattr(io_columns, "as_qrels_columns", counted)
    runs = [str(conformance_dir / r) for r in ("results.test", "results.test", "results.trunc")]
    assert main(["evaluate", "-c", "-m", "map", str(conformance_dir / "qrels.test"), *runs]) == 0
    assert len(calls) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[-1] for line in lines if " map " in line] == ["0.1785", "0.1785",
                                                                       "0.1016"]


def test_a_nicknames_set_f_takes_the_weight_given(conformance_dir, capsys):
    # trec_eval -m set_F.2 -m set: the nickname's set_F is set_F_2 (the first given wins)
    assert main(["evaluate", "--format", "trec", "-m", "set_F.2", "-m", "set",
                 str(conformance_dir / "qrels.test"), str(conformance_dir / "results.test")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if line.startswith("set_F")] == [
        "set_F_2               \tall\t0.1447"]
