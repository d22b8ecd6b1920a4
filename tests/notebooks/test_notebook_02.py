"""Notebook 02 (a cheating leaderboard) through papermill.

Each run's recorded values (results.json) are checked against the library called
directly on the same inputs, and the conclusions the notebook's prose draws are
checked to hold for them: the chapter's MAP rises when lists are cut and no reteval
measure does; the chapter's nDCG rises with repeats and reteval refuses them, naming
the lines; random padding changes only the short lists, never lowers a reteval
measure, gains what chance expects and lowers Judged@k in every draw; renaming
raises trec_eval's number within a tie band that renaming does not move.
"""

import json

import numpy as np
import pandas as pd
import pytest
from notebook_run import execute, pipeline_parameters, run_solutions
from paths import ROOT

import reteval
from reteval.datasets import load
from reteval.evaluation import tie_bounds
from reteval.retrievers import make_retriever
from reteval.teaching import cheats, notebook_texts
from reteval.teaching.depth import pad_run

STEM = "02_cheating_leaderboard"
NOTEBOOK = ROOT / "notebooks" / f"{STEM}.ipynb"


def measures_of(k):
    return [f"R@{k}", f"P@{k}", "RR", f"nDCG_exp@{k}", "AP"]


def check_honest_and_stop(results, collection, run):
    k = results["k"]
    measures = measures_of(k)
    qrels = collection.qrels
    honest = cheats.ranked_lists(run)
    expected = reteval.evaluate(qrels, run, measures).mean()
    chapter = cheats.chapter_scores(qrels, honest, k).mean()
    for m in measures:
        assert results["honest"]["reteval"][m] == pytest.approx(expected[m], abs=1e-12)
        assert results["honest"]["chapter"][m] == pytest.approx(chapter[m], abs=1e-12)
    # Section 1: four measures agree; only AP differs, the chapter's higher
    for m in measures[:4]:
        assert results["honest"]["chapter"][m] == pytest.approx(expected[m], abs=1e-12)
    assert results["honest"]["chapter"]["AP"] > expected["AP"]
    assert results["honest"]["lengths"] == {q: len(d) for q, d in honest.items()}
    assert any(n < k for n in results["honest"]["lengths"].values())  # "not every query got K"

    # Section 2: the sweep, the best cut and the table
    sweep = results["stop"]["sweep"]
    for m in range(1, k + 1):
        cut = {q: docs[:m] for q, docs in honest.items()}
        assert sweep["reteval_ap"][m - 1] == pytest.approx(
            reteval.evaluate(qrels, cut, ["AP"])["AP"].mean(), abs=1e-12)
        assert sweep["chapter_ap"][m - 1] == pytest.approx(
            cheats.chapter_scores(qrels, cut, k)["AP"].mean(), abs=1e-12)
    # reteval's AP and the chapter's P@K never fall as documents are added
    assert np.all(np.diff(sweep["reteval_ap"]) >= -1e-12)
    assert np.all(np.diff(sweep["chapter_p"]) >= -1e-12)
    # the chapter's MAP and the "divided by returned" precision peak at a short list
    best = results["stop"]["best_cut"]
    assert best == int(np.argmax(sweep["chapter_ap"])) + 1 < k
    assert int(np.argmax(sweep["variant_p"])) + 1 < k
    stopped = {q: docs[:best] for q, docs in honest.items()}
    cut_scores = reteval.evaluate(qrels, stopped, measures).mean()
    for m in measures:
        assert results["stop"]["reteval"][m] == pytest.approx(cut_scores[m], abs=1e-12)
        assert cut_scores[m] <= expected[m] + 1e-12  # no reteval measure rises
    assert results["stop"]["chapter"]["AP"] > chapter["AP"]  # the chapter's MAP rises ...
    assert results["stop"]["rose"] == [["AP"], []]  # ... and nothing else does
    return honest


def check_twice(results, collection, honest):
    k = results["k"]
    ndcg = f"nDCG_exp@{k}"
    twice = {q: [d for d in docs for _ in (1, 2)] for q, docs in honest.items()}
    chapter = cheats.chapter_scores(collection.qrels, twice, k)
    honest_chapter = results["honest"]["chapter"]
    for m, value in chapter.mean().items():
        assert results["twice"]["chapter"][m] == pytest.approx(value, abs=1e-12)
    # Section 3: nDCG rises, above 1 for some queries; the other four do not rise here
    assert chapter[ndcg].mean() > honest_chapter[ndcg]
    assert results["twice"]["above_one"] == int((chapter[ndcg] > 1).sum()) > 0
    for m in measures_of(k):
        if m != ndcg:
            assert chapter[m].mean() <= honest_chapter[m] + 1e-12
    assert chapter[f"R@{k}"].max() <= 1  # the chapter's recall counts a set
    # reteval refuses the run file and names its first two lines (the first query's top document)
    assert results["twice"]["refused"] is True
    fields = results["twice"]["refusal_fields"]
    first_query = next(iter(twice))
    assert fields == {"doc": twice[first_query][0], "query": first_query, "what": "run",
                      "unit": "lines", "first": "1", "second": "2"}


def check_padding(results, collection, run):
    k, n, seed = results["k"], results["n_seeds"], results["seed"]
    qrels, doc_ids = collection.qrels, list(collection.corpus)
    measures = measures_of(k) + [f"Judged@{k}"]
    honest = reteval.evaluate(qrels, run, measures)
    rng = np.random.default_rng(seed)
    gains = pd.DataFrame([(reteval.evaluate(qrels, pad_run(run, doc_ids, k, rng=rng), measures)
                           - honest).mean() for _ in range(n)])
    pad = results["pad"]
    for m in measures:
        assert pad["mean_gain"][m] == pytest.approx(gains[m].mean(), abs=1e-12)
        assert pad["share_up"][m] == pytest.approx((gains[m] > 1e-12).mean())
    chance = cheats.expected_padding_gain(qrels, run, doc_ids, k).mean()
    assert pad["chance"] == pytest.approx(chance.to_dict(), abs=1e-12)
    # Section 4's prose: only the short lists change ...
    lengths = results["honest"]["lengths"]
    assert set(pad["short_queries"]) == {q for q, n_docs in lengths.items() if n_docs < k}
    assert set(pad["changed_queries"]) <= set(pad["short_queries"])
    # ... no reteval measure falls in any draw, Judged@k falls in every draw ...
    for m in measures_of(k):
        assert pad["share_down"][m] == 0
    assert pad["share_down"][f"Judged@{k}"] == 1
    assert pad["judged_after"] < pad["judged_before"]
    # ... the gain is what chance expects (within four standard errors of the mean) ...
    for m in (f"P@{k}", f"R@{k}"):
        error = pad["sd_gain"][m] / np.sqrt(n)
        assert abs(pad["mean_gain"][m] - pad["chance"][m]) <= 4 * error + 1e-12
    # ... AP and nDCG rise in exactly the draws that hit a relevant document (recall rises) ...
    hit = gains[f"R@{k}"] > 1e-12
    for m in ("AP", f"nDCG_exp@{k}"):
        assert ((gains[m] > 1e-12) == hit).all()
    # ... and the chapter's AP falls on average
    assert pad["chapter_mean_gain"]["AP"] < 0


def check_ties(results, collection, run):
    k, decimals = results["k"], results["score_decimals"]
    measures = measures_of(k)
    qrels = collection.qrels
    ties = results["ties"]
    honest_bounds = tie_bounds(qrels, run, measures)
    assert ties["honest"]["worst"] == pytest.approx(honest_bounds.summary()["worst"].to_dict())
    assert ties["honest"]["best"] == pytest.approx(honest_bounds.summary()["best"].to_dict())
    coarse = run.assign(score=run["score"].round(decimals))
    bounds = tie_bounds(qrels, coarse, measures)
    for field in ("worst", "value", "best"):
        assert ties["coarse"][field] == pytest.approx(bounds.summary()[field].to_dict(), abs=1e-12)
    renamed_qrels, renamed_run = cheats.rename_to_win_ties(qrels, coarse)
    renamed = reteval.evaluate(renamed_qrels, renamed_run, measures).mean()
    assert ties["renamed"] == pytest.approx(renamed.to_dict(), abs=1e-12)
    # Section 5's prose: renaming the honest run changes little (never lowers a measure) ...
    for m in measures:
        assert ties["honest"]["renamed"][m] >= results["honest"]["reteval"][m] - 1e-12
    # ... the renamed rounded entry beats the honest entry's AP, and reaches exactly "best" ...
    assert renamed["AP"] > results["honest"]["reteval"]["AP"]
    assert ties["renamed"] == pytest.approx(ties["coarse"]["best"], abs=1e-12)
    # ... R@k and P@k cannot move; the band does not move with the names; all values inside it
    assert ties["moving"] == [m for m in measures if m not in (f"R@{k}", f"P@{k}")]
    assert ties["same_band"] and ties["renamed_inside"] and ties["honest_inside"]
    honest = reteval.evaluate(qrels, run, measures)
    assert bounds.contains(honest).all().all()
    assert ties["coarse_ties"]["relevant_groups"] > ties["honest"]["ties"]["relevant_groups"]


def check_board(results, output_dir):
    T = notebook_texts("02", results["lang"])
    k = results["k"]
    rows = results["board"]["rows"]
    assert len(rows) == 4
    # the verdicts: lower, refused (naming the lines), chance, within the band
    assert rows[0][-1] == T["verdict_lower"]
    assert rows[1][-1] == T["verdict_refused"].format(where=T["lines"].format(first=1, second=2))
    assert rows[2][-1].startswith(T["verdict_higher"]) or rows[2][-1].startswith(T["verdict_same"])
    assert rows[3][-1].endswith(T["yes"])
    # the closing prose: by the chapter's code, three of four tricks raise their target
    honest_chapter = results["honest"]["chapter"]
    assert results["board"]["chapter_stop"]["AP"] > honest_chapter["AP"]
    assert results["twice"]["chapter"][f"nDCG_exp@{k}"] > honest_chapter[f"nDCG_exp@{k}"]
    assert results["board"]["chapter_renamed"]["AP"] > honest_chapter["AP"]
    board = pd.read_csv(output_dir / "scoreboard.csv")
    assert board.shape == (4, 5)
    for figure in ("stop_early.png", "padding.png", "tie_band.png"):
        assert (output_dir / "figures" / figure).stat().st_size > 1000


def check_run(output_dir, results):
    collection = load(results["dataset"])
    run = make_retriever(results["retriever"], collection.corpus).run(collection.queries,
                                                                      k=results["k"])
    honest = check_honest_and_stop(results, collection, run)
    check_twice(results, collection, honest)
    check_padding(results, collection, run)
    check_ties(results, collection, run)
    check_board(results, output_dir)
    cells = json.loads((output_dir.parent / f"{STEM}.ipynb").read_text(encoding="utf-8"))["cells"]
    shown = json.dumps([c.get("outputs", []) for c in cells], ensure_ascii=False)
    for path in (str(output_dir.parent), "/tmp/", "/work/"):  # no build-machine path shown
        assert path not in shown
    # the scoreboard shows every verdict in full (pandas cuts long cells by default)
    html = "".join("".join(output["data"]["text/html"]) for cell in cells
                   for output in cell.get("outputs", []) if "text/html" in output.get("data", {}))
    for row in results["board"]["rows"]:
        assert row[-1] in html


@pytest.mark.notebook
@pytest.mark.slow
def test_default_run_records_what_the_library_computes(tmp_path):
    parameters = pipeline_parameters(STEM)
    parameters["link_base"] = str(tmp_path / "out")  # as the pipeline: beside the notebook
    output_dir, results = execute(STEM, tmp_path, **parameters)
    assert (results["lang"], results["k"], results["n_seeds"]) == ("zh", 10, 200)
    check_run(output_dir, results)
    # the lengths and cut that the default prose reads
    assert results["stop"]["best_cut"] == 2
    # the summary: stopping early lowers the measures or leaves them unchanged, here RR
    unchanged = [m for m, v in results["stop"]["reteval"].items()
                 if v == pytest.approx(results["honest"]["reteval"][m], abs=1e-12)]
    assert unchanged == ["RR"]
    assert "lowers the measures or leaves them unchanged (here RR" in (NOTEBOOK.read_text())
    executed = (tmp_path / f"{STEM}.ipynb").read_text(encoding="utf-8")
    assert "(scoreboard.csv)" in executed
    from notebook_run import fits_one_class

    fits_one_class(tmp_path / f"{STEM}.ipynb")  # at most one class in either edition


@pytest.mark.notebook
@pytest.mark.slow
def test_other_parameters_record_what_the_library_computes(tmp_path):
    output_dir, results = execute(STEM, tmp_path, lang="en", k=5, n_seeds=40, seed=3,
                                  score_decimals=1, link_base=str(tmp_path / "out"))
    assert (results["lang"], results["k"], results["score_decimals"]) == ("en", 5, 1)
    check_run(output_dir, results)


def test_every_exercise_is_asked_and_solved():
    from reteval.teaching.exercises.nb02 import EXERCISES

    def sources(path):
        return "".join("".join(c["source"])
                       for c in json.loads(path.read_text(encoding="utf-8"))["cells"])

    asked = sources(NOTEBOOK)
    solved = sources(ROOT / "notebooks" / "solutions" / "02_solutions.ipynb")
    for exercise in EXERCISES:
        assert f'check("{exercise}", answer, lang=lang)' in asked
        assert f'check("{exercise}", answer, lang=lang)' in solved


@pytest.mark.slow
def test_the_solutions_notebook_passes_its_own_checks():
    run_solutions("02", "zh")  # each solution cell asserts check() accepts it
