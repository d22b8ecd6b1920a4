"""reteval.repro.report and ``reteval repro``: hand values, pytrec_eval's scores and
repro_eval's definitions (restated in repro_oracle.py)."""

import json
import math

import numpy as np
import pytest
from repro_oracle import oracle_dri, oracle_er, oracle_ktu, oracle_rbo, oracle_rmse, random_run

from reteval.cli import main
from reteval.errors import InputError
from reteval.repro import report

# Hand example. AP per topic (q1: d1 d2 relevant; q2: d3 relevant):
#   original baseline   q1 d1 d9 d2 -> (1 + 2/3) / 2 = 5/6    q2 d8 d3 -> 1/2
#   original advanced   q1 d1 d2 d9 -> 1                      q2 d3 d8 -> 1
#   reproduced baseline q1 d9 d1 d2 -> (1/2 + 2/3) / 2 = 7/12 q2 d8 d3 -> 1/2
#   reproduced advanced q1 d1 d2 d9 -> 1                      q2 d8 d3 -> 1/2
QRELS = {"q1": {"d1": 1, "d2": 1}, "q2": {"d3": 1}}
ORIGINAL = {"baseline": {"q1": ["d1", "d9", "d2"], "q2": ["d8", "d3"]},
            "advanced": {"q1": ["d1", "d2", "d9"], "q2": ["d3", "d8"]}}
REPRODUCED = {"baseline": {"q1": ["d9", "d1", "d2"], "q2": ["d8", "d3"]},
              "advanced": {"q1": ["d1", "d2", "d9"], "q2": ["d8", "d3"]}}


def test_report_by_hand():
    result = report(QRELS, original=ORIGINAL, reproduced=REPRODUCED, measures=["AP"])
    ap = result.table["AP"]
    assert result.kind == "reproducibility"
    assert ap[("baseline", "ARP original")] == pytest.approx((5 / 6 + 1 / 2) / 2)
    assert ap[("baseline", "ARP reproduced")] == pytest.approx((7 / 12 + 1 / 2) / 2)
    assert ap[("baseline", "RMSE")] == pytest.approx(math.sqrt((1 / 4) ** 2 / 2))
    assert ap[("advanced", "RMSE")] == pytest.approx(math.sqrt((1 / 2) ** 2 / 2))
    # improvements: original 1/6 and 1/2 (mean 1/3), reproduced 5/12 and 0 (mean 5/24)
    assert ap[("effect", "ER")] == pytest.approx((5 / 24) / (1 / 3))
    # relative improvements: original (1 - 2/3) / (2/3) = 1/2; reproduced
    # (3/4 - 13/24) / (13/24) = 5/13
    assert ap[("effect", "ΔRI")] == pytest.approx(1 / 2 - 5 / 13)
    # KTU: baseline q1 0 2 1 against 2 0 1 -> -1, q2 identical -> 1; advanced q1 1, q2 -1
    assert result.ktu.to_dict() == {"baseline": {"q1": -1.0, "q2": 1.0},
                                    "advanced": {"q1": 1.0, "q2": -1.0}}
    assert result.order.loc["KTU"].tolist() == [0.0, 0.0]
    assert result.order.columns.tolist() == ["baseline", "advanced"]
    text = str(result)
    assert text.startswith("Reproducibility: original and reproduced runs on the same 2 topics")
    for line in ("RMSE", "p-value", "ER", "ΔRI", "KTU", "RBO (p=0.95)", "ARP reproduced"):
        assert line in text


def test_report_equals_repro_eval_on_pytrec_eval_scores():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(7)
    topics = [f"t{i}" for i in range(1, 13)]
    qrels = {t: {f"d{i:03d}": int(rng.integers(0, 3)) for i in rng.choice(90, 30, replace=False)}
             for t in topics}
    runs = {name: random_run(rng, topics) for name in ("ob", "oa", "rb", "ra")}
    result = report(qrels, original={"baseline": runs["ob"], "advanced": runs["oa"]},
                    reproduced={"baseline": runs["rb"], "advanced": runs["ra"]},
                    measures=["AP", "P@10", "nDCG"])
    # pytrec_eval: RelevanceEvaluator(qrels, {"map", "P_10", "ndcg"}).evaluate(run)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"map", "P_10", "ndcg"})
    scores = {name: evaluator.evaluate(run) for name, run in runs.items()}
    for ours, theirs in (("AP", "map"), ("P@10", "P_10"), ("nDCG", "ndcg")):
        col = result.table[ours]
        mean = np.mean([scores["ob"][t][theirs] for t in topics])
        assert col[("baseline", "ARP original")] == pytest.approx(mean, abs=1e-12)
        assert col[("baseline", "RMSE")] == pytest.approx(
            oracle_rmse(scores["ob"], scores["rb"], theirs), abs=1e-12)
        assert col[("advanced", "RMSE")] == pytest.approx(
            oracle_rmse(scores["oa"], scores["ra"], theirs), abs=1e-12)
        four = [scores[k] for k in ("ob", "oa", "rb", "ra")]
        assert col[("effect", "ER")] == pytest.approx(oracle_er(*four, theirs), rel=1e-9)
        assert col[("effect", "ΔRI")] == pytest.approx(oracle_dri(*four, theirs), rel=1e-9)
    assert result.ktu["baseline"].to_dict() == pytest.approx(oracle_ktu(runs["ob"], runs["rb"]))
    assert result.rbo["advanced"].to_dict() == pytest.approx(
        oracle_rbo(runs["oa"], runs["ra"], 0.95, 1000))


def test_replicability_uses_other_topics_and_an_unpaired_test():
    from scipy.stats import ttest_ind

    other_qrels = {"x1": {"e1": 1}, "x2": {"e2": 1}, "x3": {"e3": 1}}
    reproduced = {"baseline": {"x1": ["e1"], "x2": ["e0", "e2"], "x3": ["e0", "e9", "e3"]}}
    result = report(QRELS, original={"baseline": ORIGINAL["baseline"]}, reproduced=reproduced,
                    measures=["AP"], reproduced_qrels=other_qrels)
    assert result.kind == "replicability" and result.order is None and result.ktu is None
    assert ("baseline", "RMSE") not in result.table.index
    assert ("effect", "ER") not in result.table.index  # no advanced run
    # AP original 5/6, 1/2; reproduced 1, 1/2, 1/3
    p = result.table["AP"][("baseline", "p-value")]
    assert p == pytest.approx(ttest_ind([5 / 6, 1 / 2], [1, 1 / 2, 1 / 3]).pvalue)
    assert str(result).startswith("Replicability: original on 2 topics, reproduction on 3")


def test_an_undefined_effect_is_nan_and_printed_as_a_dash():
    same = {"baseline": ORIGINAL["baseline"], "advanced": ORIGINAL["baseline"]}
    result = report(QRELS, original=same, reproduced=REPRODUCED, measures=["AP"])
    assert math.isnan(result.table["AP"][("effect", "ER")])
    er_line = next(line for line in str(result).splitlines() if "ER" in line.split())
    assert er_line.split() == ["effect", "ER", "-"]


def test_report_bad_input():
    with pytest.raises(InputError, match=r"original must be a mapping \{'baseline': run\}"):
        report(QRELS, original={"q1": ["d1"]}, reproduced=REPRODUCED)
    with pytest.raises(InputError, match="need the same runs"):
        report(QRELS, original={"baseline": ORIGINAL["baseline"]}, reproduced=REPRODUCED)
    with pytest.raises(InputError, match="topic 'q2' is only in the original run"):
        report(QRELS, original={"baseline": ORIGINAL["baseline"]},
               reproduced={"baseline": {"q1": ["d1"]}})


def _write_run(path, run):
    lines = [f"{q} Q0 {d} {i} {len(docs) - i} tag\n" for q, docs in run.items()
             for i, d in enumerate(docs, start=1)]
    path.write_text("".join(lines), encoding="utf-8")
    return str(path)


@pytest.fixture
def files(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"{q} 0 {d} {r}\n" for q, docs in QRELS.items()
                             for d, r in docs.items()), encoding="utf-8")
    runs = {f"{side}_{role}": _write_run(tmp_path / f"{side}_{role}.run", runs[role])
            for side, runs in (("o", ORIGINAL), ("r", REPRODUCED)) for role in runs}
    return str(qrels), runs


def test_cli_prints_the_table(files, capsys):
    qrels, runs = files
    status = main(["repro", qrels, "--original", runs["o_baseline"], runs["o_advanced"],
                   "--reproduced", runs["r_baseline"], runs["r_advanced"], "-m", "AP"])
    out = capsys.readouterr().out
    assert status == 0
    assert out == str(report(QRELS, original=ORIGINAL, reproduced=REPRODUCED,
                             measures=["AP"])) + "\n"
    assert "0.6250" in out  # ER by hand, above


def test_cli_json(files, capsys):
    qrels, runs = files
    assert main(["repro", qrels, "--original", runs["o_baseline"], "--reproduced",
                 runs["r_baseline"], "-m", "AP", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["kind"] == "reproducibility"
    assert doc["table"]["baseline RMSE"]["AP"] == pytest.approx(math.sqrt((1 / 4) ** 2 / 2))
    assert doc["order"]["KTU"] == {"baseline": 0.0}


@pytest.mark.parametrize("extra, message", [
    (["--reproduced", "R1", "R2"], "--original has 1 run.s. and --reproduced 2"),
    (["--reproduced", "R1", "R2", "R3"], "--reproduced takes a baseline run and at most one"),
])
def test_cli_errors_exit_2(files, capsys, extra, message):
    import re

    qrels, runs = files
    extra = [runs["r_baseline"] if a.startswith("R") else a for a in extra]
    status = main(["repro", qrels, "--original", runs["o_baseline"], *extra])
    err = capsys.readouterr().err
    assert status == 2 and re.search(message, err) and "Traceback" not in err


def test_a_missing_topic_scores_0_and_the_warning_names_the_run():
    reproduced = {"baseline": {"q1": ORIGINAL["baseline"]["q1"]}}
    with pytest.warns(UserWarning, match="reproduced baseline run: 1 judged query has no "
                      "results in the run and scores 0: 'q2'"):
        result = report(QRELS, original={"baseline": ORIGINAL["baseline"]},
                        reproduced=reproduced, measures=["AP"], reproduced_qrels=QRELS)
    # AP: original 5/6 and 1/2, reproduced 5/6 and 0 (q2 scores 0, as trec_eval -c)
    assert result.table["AP"][("baseline", "ARP reproduced")] == pytest.approx(5 / 12)
