"""One computation, three doors: ``reteval.compare``, ``reteval compare`` and
``reteval.stats`` give the same numbers for the same scores and seed."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from reteval import compare
from reteval.cli import main
from reteval.comparison import compare_arrays, compare_scores
from reteval.errors import InputError
from reteval.report.means import (
    render_csv,
    render_json,
    render_latex,
    render_markdown,
    render_table,
)
from reteval.stats import pairwise_tests, tukey_hsd, tukey_hsd_measures

N_QUERIES = 12


def _runs(n_systems=4, seed=3):
    """Qrels with 1-3 relevant documents per query and runs ranking 10 documents at random."""
    rng = np.random.default_rng(seed)
    qrels = {f"q{i:02d}": {f"d{j}": 1 + j % 2 for j in range(1 + i % 3)}
             for i in range(N_QUERIES)}
    runs = {f"s{k}": {q: [f"d{j}" for j in rng.permutation(10)] for q in qrels}
            for k in range(n_systems)}
    return qrels, runs


def _write(tmp_path, qrels, runs):
    qrels_path = tmp_path / "qrels.txt"
    qrels_path.write_text("".join(f"{q} 0 {d} {r}\n" for q, docs in qrels.items()
                                  for d, r in docs.items()))
    paths = []
    for name, run in runs.items():
        path = tmp_path / f"{name}.run"
        path.write_text("".join(f"{q} Q0 {d} {i + 1} {100 - i} {name}\n"
                                for q, docs in run.items() for i, d in enumerate(docs)))
        paths.append(str(path))
    return str(qrels_path), paths


def test_compare_tukey_gives_the_p_values_of_stats_tukey_hsd():
    qrels, runs = _runs()
    c = compare(qrels, runs, ["AP"], test="tukey", rng=0, n_resamples=999)
    alone = tukey_hsd(c.per_query["AP"], rng=0, n_resamples=999)
    for row in c.pairwise.itertuples():
        assert row.pvalue == alone.pvalue.loc[row.system, row.other]
    assert c.tukey["AP"].pvalue.equals(alone.pvalue)
    assert c.tukey["AP"].critical_difference() == alone.critical_difference()


def test_compare_tukey_of_several_measures_gives_those_of_tukey_hsd_measures():
    qrels, runs = _runs()
    c = compare(qrels, runs, ["AP", "RR", "P@5"], test="tukey", rng=4, n_resamples=500)
    together = tukey_hsd_measures(c.per_query, rng=4, n_resamples=500)
    for m in c.measures:
        assert c.tukey[m].pvalue.equals(together[m].pvalue), m
        rows = c.pairwise[c.pairwise["measure"] == m]
        assert rows["pvalue"].tolist() == [together[m].pvalue.loc[s, o]
                                           for s, o in zip(rows["system"], rows["other"],
                                                           strict=True)]


def test_compare_randomization_gives_the_p_values_of_pairwise_tests():
    qrels, runs = _runs(3)
    c = compare(qrels, runs, ["AP"], test="randomization", correction="none", rng=2,
                n_resamples=400)
    matrix = c.per_query["AP"].to_numpy().T
    alone = pairwise_tests(matrix, test="randomization", names=list(c.systems), rng=2,
                           n_resamples=400)
    for row in c.pairwise.itertuples():
        assert row.pvalue == alone[row.system, row.other].pvalue


@pytest.mark.parametrize("options", [[], ["--baseline", "s1"],
                                     ["--test", "randomization", "--correction", "bh"]])
def test_the_command_prints_the_numbers_of_compare(tmp_path, capsys, options):
    qrels, runs = _runs()
    qrels_path, paths = _write(tmp_path, qrels, runs)
    assert main(["-q", "compare", qrels_path, *paths, "-m", "AP", "-m", "RR", "--format",
                 "json", "--n-resamples", "300", "--seed", "5", *options]) == 0
    printed = json.loads(capsys.readouterr().out)
    baseline = options[1] if options[:1] == ["--baseline"] else None
    test = options[1] if options[:1] == ["--test"] else ("t" if baseline else "tukey")
    correction = options[3] if len(options) > 3 else "holm"
    c = compare(qrels_path, dict(zip(runs, paths, strict=True)), ["AP", "RR"], test=test,
                baseline=baseline, correction=correction, rng=5, n_resamples=300)
    assert [r["pvalue_corrected"] for r in printed["pairs"]] == c.pairwise[
        "pvalue_corrected"].tolist()
    assert [r["pvalue"] for r in printed["pairs"]] == c.pairwise["pvalue"].tolist()
    assert printed["means"] == {m: {s: c.means.loc[s, m] for s in c.systems} for m in c.measures}
    assert {m: a["statistic"] for m, a in printed["anova"].items()} == {
        m: a.statistic for m, a in c.anova.items()}


def test_the_renderers_print_a_comparison_as_its_numbers():
    qrels, runs = _runs(3)
    c = compare(qrels, runs, ["AP", "RR"], test="tukey", rng=0, n_resamples=200)
    for render in (render_table, render_json, render_csv, render_markdown, render_latex):
        assert render(c) == render(c.numbers), render.__name__


def test_compare_scores_and_compare_arrays_agree():
    qrels, runs = _runs(3)
    c = compare(qrels, runs, ["AP"], test="tukey", rng=1, n_resamples=300)
    again = compare_scores(c.per_query, test="tukey", rng=1, n_resamples=300)
    assert again.pairwise.equals(c.pairwise)
    assert again.table.equals(c.table)
    numbers = compare_arrays({"AP": c.per_query["AP"].to_numpy()}, c.systems, test="tukey",
                             rng=1, n_resamples=300)
    assert numbers.pairs == c.numbers.pairs


def test_compare_arrays_names_the_missing_score():
    scores = np.full((6, 3), 0.5)
    scores[4, 1] = np.nan
    with pytest.raises(InputError, match=r"per_query\['RR'\]: system 'b' has no score for "
                                         r"query 'q4'"):
        compare_arrays({"RR": scores}, ["a", "b", "c"], queries=[f"q{i}" for i in range(6)])
    frame = pd.DataFrame(scores, columns=["a", "b", "c"],
                         index=pd.Index([f"q{i}" for i in range(6)], name="query_id"))
    with pytest.raises(InputError, match=r"system 'b' has no score for query 'q4'"):
        compare_scores({"RR": frame})


@pytest.mark.parametrize(("systems", "options", "message"), [
    (["a", "b", "a"], {}, r"system names must be distinct; got \['a', 'b', 'a'\]"),
    (["a", " ", "c"], {}, r"system names \(the keys of runs\) must be non-empty str; got ' '"),
    (["a", "b", "c"], {"baseline": "z"}, r"baseline must be one of the systems"),
    (["a", "b", "c"], {"alpha": 1.5}, r"alpha must be strictly between 0 and 1; got 1.5"),
    (["a", "b", "c"], {"test": "z"}, r"test must be one of"),
])
def test_compare_arrays_refuses_bad_options(systems, options, message):
    with pytest.raises(InputError, match=message):
        compare_arrays({"AP": np.full((5, 3), 0.5)}, systems, **options)


def test_common_scores_align_the_shared_queries_and_refuse_none_or_no_system():
    from reteval.comparison.core import common_scores

    evaluated = {"a": (["q3", "q1", "q2"], {"RR": [0.3, 1.0, 0.5]}),
                 "b": (["q2", "q1"], {"RR": [0.25, 0.75]})}
    queries, scores = common_scores(evaluated, ["a", "b"])
    assert queries == ["q1", "q2"]
    assert scores["RR"].tolist() == [[1.0, 0.75], [0.5, 0.25]]
    disjoint = {"a": (["q1"], {"RR": [1.0]}), "b": (["q2"], {"RR": [1.0]})}
    with pytest.raises(InputError, match="no query was evaluated for every system"):
        common_scores(disjoint, ["a", "b"])
    with pytest.raises(InputError, match="no query was evaluated for every system"):
        common_scores(evaluated, [])
