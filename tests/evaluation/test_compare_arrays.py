"""``reteval compare``'s randomised Tukey HSD on arrays equals ``compare_scores`` on tables.

The command computes its default procedure with :func:`tukey_numbers` (numpy, no pandas);
the library computes it with :func:`compare_scores`. Given the same scores, seed and
options, both must print the same thing: every number equal, every format byte for byte.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from reteval.errors import InputError
from reteval.evaluation.commands import (
    render_csv,
    render_json,
    render_latex,
    render_markdown,
    render_table,
)
from reteval.evaluation.compare_arrays import comparison_numbers, tukey_numbers
from reteval.evaluation.comparison import compare_scores

RENDERERS = (render_table, render_json, render_csv, render_markdown, render_latex)


def _scores(n_queries, n_systems, measures, seed):
    rng = np.random.default_rng(seed)
    out = {}
    for k, m in enumerate(measures):
        topic = rng.uniform(0.1, 0.7, size=(n_queries, 1))
        x = topic + rng.normal(0, 0.1, size=(n_queries, n_systems))
        x += 0.04 * (k + 1) * np.arange(n_systems)  # systems differ a little, measures more
        out[m] = np.round(x, 4)  # rounded: ties between systems on some queries
    return out


def _both(scores, systems, **options):
    queries = [f"q{i}" for i in range(next(iter(scores.values())).shape[0])]
    frames = {m: pd.DataFrame(x, index=pd.Index(queries, name="query_id"),
                              columns=pd.Index(systems, name="system"))
              for m, x in scores.items()}
    library = comparison_numbers(compare_scores(frames, test="tukey", **options))
    command = tukey_numbers(scores, systems, queries=queries, **options)
    return command, library


CASES = {
    "3 systems, 2 measures": (_scores(8, 3, ["AP", "RR"], 1), {"rng": 0, "n_resamples": 499}),
    "4 systems, two the same": (None, {"rng": 5, "n_resamples": 999, "alpha": 0.1}),
    "12 systems, 3 measures, a baseline": (_scores(20, 12, ["AP", "nDCG@10", "P@10"], 2),
                                           {"rng": 7, "n_resamples": 300, "baseline": "s3"}),
    "5 systems, 90% intervals": (_scores(30, 5, ["AP"], 3),
                                 {"rng": 11, "n_resamples": 400, "confidence_level": 0.9}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_tukey_numbers_equal_compare_scores(case):
    scores, options = CASES[case]
    if scores is None:
        scores = _scores(15, 4, ["AP", "RR"], 4)
        for x in scores.values():
            x[:, 2] = x[:, 1]  # s1 and s2 tie on every query: no mark between them
    systems = [f"s{i}" for i in range(next(iter(scores.values())).shape[1])]
    command, library = _both(scores, systems, **options)
    for field in ("systems", "measures", "n_queries", "baseline", "test", "correction", "alpha",
                  "confidence_level", "n_resamples", "means", "summary"):
        assert getattr(command, field) == getattr(library, field), field
    for m in command.measures:
        ours, theirs = command.anova[m], library.anova[m]
        for field in ("statistic", "pvalue", "df_system", "df_residual", "residual_variance"):
            assert getattr(ours, field) == getattr(theirs, field), (m, field)
        assert ours.margin_of_error(0.9) == theirs.margin_of_error(0.9)
    assert len(command.pairs) == len(library.pairs)
    for ours, theirs in zip(command.pairs, library.pairs, strict=True):
        for key in ("measure", "system", "other", "mean_difference", "ci_low", "ci_high",
                    "pvalue", "pvalue_corrected", "significant"):
            assert ours[key] == theirs[key], (ours["measure"], ours["system"], ours["other"], key)
    assert any(r["significant"] for r in command.pairs)
    assert not all(r["significant"] for r in command.pairs)
    for render in RENDERERS:
        assert render(command) == render(library), render.__name__


def test_tukey_numbers_name_the_missing_score_as_compare_scores_does():
    scores = _scores(6, 3, ["AP", "RR"], 8)
    scores["RR"][4, 1] = np.nan
    systems = ["a", "b", "c"]
    with pytest.raises(InputError) as library:
        _both(scores, systems, rng=0)
    with pytest.raises(InputError, match=r"per_query\['RR'\]: system 'b' has no score for "
                                         r"query 'q4'") as command:
        tukey_numbers(scores, systems, queries=[f"q{i}" for i in range(6)], rng=0)
    assert str(command.value) == str(library.value)


@pytest.mark.parametrize(("systems", "options", "message"), [
    (["a", "b", "a"], {}, r"system names must be distinct; got \['a', 'b', 'a'\]"),
    (["a", " ", "c"], {}, r"system names \(the keys of runs\) must be non-empty str; got ' '"),
    (["a", "b", "c"], {"baseline": "z"}, r"baseline must be one of the systems"),
    (["a", "b", "c"], {"alpha": 1.5}, r"alpha must be a number strictly between 0 and 1"),
])
def test_tukey_numbers_refuse_bad_options(systems, options, message):
    with pytest.raises(InputError, match=message):
        tukey_numbers(_scores(5, 3, ["AP"], 9), systems, **options)
