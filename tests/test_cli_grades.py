"""``reteval evaluate`` with fractional grades and all-digit query ids."""

import pytest

from reteval.cli import main


def test_level_as_a_decimal_and_numeric_order(tmp_path, capsys):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("10 0 a 0.8\n10 0 b 0.3\n2 0 a 0.4\n")
    run = tmp_path / "run.txt"
    run.write_text("10 Q0 b 1 2.0 s\n10 Q0 a 2 1.0 s\n2 Q0 a 1 1.0 s\n")
    assert main(["evaluate", str(qrels), str(run), "-m", "P@2", "-l", "0.5", "-q"]) == 0
    out, err = capsys.readouterr()
    # level 0.5: q 10 has a (rank 2) relevant, q 2 none; 2 is shown before 10
    assert out.splitlines()[:2] == ["P@2  2  0.0000", "P@2  10  0.5000"]
    assert err == ""
    assert main(["evaluate", str(qrels), str(run), "-m", "P@2", "-q"]) == 0
    out, err = capsys.readouterr()
    assert "relevance_level" in err  # fractional grades at the default level of 1
    assert main(["evaluate", str(qrels), str(run), "-m", "P_2", "-l", "0.5", "-q",
                 "--format", "trec"]) == 0
    out, _ = capsys.readouterr()
    assert [line.split("\t")[1] for line in out.splitlines()[:2]] == ["10", "2"]


@pytest.mark.parametrize("level", ["-0.5", "nan", "x"])
def test_bad_levels_exit_2(tmp_path, capsys, level):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 a 0.8\n")
    try:
        code = main(["evaluate", str(qrels), str(qrels), "-l", level])
    except SystemExit as exit_:  # refused by the parser
        code = exit_.code
    assert code == 2
    assert "relevance" in capsys.readouterr().err
