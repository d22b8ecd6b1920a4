"""The checks of the teaching notebooks' parameters (reteval.teaching.params)."""

from datetime import datetime, timezone
from types import SimpleNamespace

import pytest

from reteval.errors import InputError, UnknownMeasureError
from reteval.teaching import params

NB01 = {"lang": "zh", "retriever": "bm25", "k": 5, "depth": 100}
LEADERBOARD = {"lang": "zh", "retriever": "bm25", "k": 10, "n_seeds": 200, "seed": 0,
               "score_decimals": 0}  # notebook 02
JUDGMENTS = {"lang": "zh", "depth": 100, "pool_depths": [1, 2, 5, 10, 20, 50, 100],
             "loo_depths": [2, 10], "measure": "AP"}  # notebook 04
EVALUATION_SET = {"lang": "zh", "retriever": "bm25", "other_retriever": "vector", "k": 5,
                  "depth": 100}  # notebook 03
NB02 = {"lang": "zh", "retrievers": ["bm25", "vector"], "baseline": "bm25", "measures": ["AP"],
        "k_values": [1, 5], "cutoffs": [10, 20], "depth": 100}
MANY = {"lang": "zh", "retrievers": ["bm25", "vector", "hybrid"], "baseline": "bm25",
        "measures": ["AP", "RR"], "measure": "AP", "depth": 100}  # notebook 06
NB07 = {"lang": "en", "log_path": None, "metrics": ["satisfaction", "ctr"],
        "guardrails": ["queries_per_user"], "alpha": 0.05, "click_model": "cascade", "depth": 10,
        "dataset": "synthetic", "rankers": []}
NB07B = {"lang": "en", "log_path": None, "metric": "satisfaction", "alpha": 0.05,
         "mixing_sd": 0.02, "click_model": "cascade", "depth": 10, "aa_experiments": 400,
         "dataset": "synthetic", "rankers": []}
NB08 = {"lang": "en", "alpha": 0.05, "click_model": "cascade", "depth": 10,
        "impressions": [100, 200], "n_experiments": 200, "dataset": "synthetic", "rankers": []}
NB05 = {"lang": "zh", "retrievers": ["bm25"], "depth": 20, "k": 5, "max_k": 20, "grades": [1] * 10}
NB06 = {"lang": "zh", "start": "2026-05-01", "days": 30, "regression_day": 18, "n_queries": 60,
        "docs_per_query": 30, "measures": ["R@5", "AP"]}


def test_the_default_parameters_pass():
    assert params.check_notebook_01(**NB01) is None
    assert params.check_notebook_02(**LEADERBOARD) is None
    assert params.check_notebook_04(**JUDGMENTS) is None
    assert params.check_notebook_03(**EVALUATION_SET) is None
    assert params.check_notebook_05(**NB02) is None
    assert params.check_notebook_06(**MANY) is None
    assert params.check_notebook_07(**NB07) is None
    assert params.check_notebook_07b(**NB07B) is None
    assert params.check_notebook_08(**NB08) is None
    assert params.check_notebook_10(lang="en", measures=["P@5"], k_values=[1]) is None
    assert params.check_notebook_11(**NB05) is None
    assert params.check_notebook_09(**NB06) == datetime(2026, 5, 1, tzinfo=timezone.utc)


@pytest.mark.parametrize("value", [0, -3, 2.0, True, "5", None])
def test_positive_int_names_the_parameter_and_the_value(value):
    with pytest.raises(InputError, match=f"^k must be a positive integer; got {value!r}$"):
        params.check_positive_int(value, "k")


@pytest.mark.parametrize("values", [[], [0], [1, True], [2.5], "5", None])
def test_positive_ints_refuse_empty_lists_and_non_integers(values):
    with pytest.raises(InputError, match="^cutoffs must be positive integers"):
        params.check_positive_ints(values, "cutoffs")


def test_unknown_retrievers_are_listed_with_the_nearest_valid_name():
    with pytest.raises(InputError) as error:
        params.check_retrievers(["bm25", "hybird", "colbert"])
    message = str(error.value)
    assert message.startswith("unknown retrievers ['hybird', 'colbert'] in retrievers")
    assert "'reranked'" in message and message.endswith("did you mean 'hybrid'?")


def test_an_unknown_retriever_without_a_near_name_gets_no_guess():
    with pytest.raises(InputError) as error:
        params.check_notebook_03(**{**EVALUATION_SET, "other_retriever": "colbert"})
    assert "other_retriever" in str(error.value) and "did you mean" not in str(error.value)


@pytest.mark.parametrize("retrievers", [[], "bm25"])
def test_retrievers_must_be_a_non_empty_list(retrievers):
    with pytest.raises(InputError, match="retrievers must be a non-empty list"):
        params.check_retrievers(retrievers)


@pytest.mark.parametrize("change, message", [
    ({"lang": "fr"}, "lang must be 'zh' or 'en'; got 'fr'"),
    ({"retriever": "bm2"}, "unknown retriever 'bm2' for retriever; .*did you mean 'bm25'\\?"),
    ({"k": 0}, "k must be a positive integer; got 0"),
    ({"depth": 4}, "depth must be an integer of at least 5; got 4"),
    ({"k": 10, "depth": 9}, "depth must be an integer of at least 10; got 9"),
])
def test_notebook_01(change, message):
    with pytest.raises(InputError, match=message):
        params.check_notebook_01(**{**NB01, **change})


def test_notebook_01_takes_a_shallow_depth_down_to_k():
    assert params.check_notebook_01(**{**NB01, "k": 3, "depth": 3}) is None


@pytest.mark.parametrize("change, message", [
    ({"lang": "fr"}, "lang must be 'zh' or 'en'; got 'fr'"),
    ({"retriever": "bm52"}, "unknown retriever 'bm52' for retriever; .*did you mean 'bm25'\\?"),
    ({"k": 1}, "^k must be an integer of at least 2; got 1$"),
    ({"n_seeds": 0}, "^n_seeds must be an integer of at least 2; got 0$"),
    ({"score_decimals": 9}, "^score_decimals must be an integer from -3 to 6; got 9$"),
])
def test_notebook_02(change, message):
    with pytest.raises(InputError, match=message):
        params.check_notebook_02(**{**LEADERBOARD, **change})


@pytest.mark.parametrize("change, message", [
    ({"lang": "fr"}, "^lang must be 'zh' or 'en'; got 'fr'$"),
    ({"depth": 5}, "^depth must be an integer of at least 10; got 5$"),
    ({"pool_depths": [1, 500]}, "^pool depth 500 is deeper than the runs \\(depth=100\\)$"),
    ({"loo_depths": [0]}, "^loo_depths must be positive integers; got \\[0\\]$"),
])
def test_notebook_04(change, message):
    with pytest.raises(InputError, match=message):
        params.check_notebook_04(**{**JUDGMENTS, **change})


def test_notebook_04_measure_gets_the_nearest_valid_name():
    with pytest.raises(UnknownMeasureError, match="unknown measure 'nDGC@10'. Did you mean 'nDCG'"):
        params.check_notebook_04(**{**JUDGMENTS, "measure": "nDGC@10"})


@pytest.mark.parametrize("change, message", [
    ({"lang": "fr"}, "lang must be 'zh' or 'en'; got 'fr'"),
    ({"retriever": "bm2"}, "unknown retriever 'bm2' for retriever; .*did you mean 'bm25'\\?"),
    ({"other_retriever": "bm25"}, "other_retriever must differ from retriever; both are 'bm25'"),
    ({"k": 0}, "k must be a positive integer; got 0"),
    ({"depth": 9}, "depth must be an integer of at least 10; got 9"),
])
def test_notebook_03(change, message):
    with pytest.raises(InputError, match=message):
        params.check_notebook_03(**{**EVALUATION_SET, **change})


@pytest.mark.parametrize("change, message", [
    ({"lang": "fr"}, "^lang must be 'zh' or 'en'; got 'fr'$"),
    ({"retrievers": ["bm25", "colbert"]}, "unknown retrievers \\['colbert'\\]"),
    ({"baseline": "hybrid"}, "baseline 'hybrid' is not one of the retrievers"),
    ({"k_values": [0, 5]}, "k_values must be positive integers; got \\[0, 5\\]"),
    ({"cutoffs": []}, "cutoffs must be positive integers; got \\[\\]"),
    ({"depth": "100"}, "depth must be a positive integer; got '100'"),
])
def test_notebook_05(change, message):
    with pytest.raises(InputError, match=message):
        params.check_notebook_05(**{**NB02, **change})


def test_notebook_05_measures_get_the_nearest_valid_name():
    with pytest.raises(UnknownMeasureError, match="Did you mean 'nDCG'"):
        params.check_notebook_05(**{**NB02, "measures": ["nDGC@10"]})


@pytest.mark.parametrize("change, message", [
    ({"lang": "de"}, "lang must be 'zh' or 'en'; got 'de'"),
    ({"retrievers": ["bm25", "vector", "colbert"]}, "unknown retrievers \\['colbert'\\]"),
    ({"retrievers": ["bm25", "vector"]},
     ("^retrievers must name at least 3 retrievers to compare many systems; "
      "got \\['bm25', 'vector'\\]$")),
    ({"retrievers": ["bm25", "vector", "bm25", "hybrid"]},
     "^retrievers names 'bm25' more than once"),
    ({"baseline": "reranked"}, "baseline 'reranked' is not one of the retrievers"),
    ({"measure": "nDCG@10"}, "^measure 'nDCG@10' is not one of the measures \\['AP', 'RR'\\]$"),
    ({"depth": 0}, "depth must be a positive integer; got 0"),
])
def test_notebook_06(change, message):
    with pytest.raises(InputError, match=message):
        params.check_notebook_06(**{**MANY, **change})


def test_notebook_06_measures_get_the_nearest_valid_name():
    with pytest.raises(UnknownMeasureError, match="Did you mean 'nDCG'"):
        params.check_notebook_06(**{**MANY, "measures": ["nDGC@10"], "measure": "nDGC@10"})


@pytest.mark.parametrize("change, message", [
    ({"log_path": "/nonexistent/log.csv"}, "log_path '/nonexistent/log.csv' does not exist"),
    ({"metrics": []}, "metrics must name at least one primary metric"),
    ({"guardrails": ["latency"]}, "unknown metric 'latency'"),
    ({"alpha": 5}, "alpha must be strictly between 0 and 1; got 5"),
    ({"click_model": "dbn"}, "click_model must be 'cascade' or 'pbm'; got 'dbn'"),
    ({"depth": 13}, "depth must be an integer from 1 to 12; got 13"),
    ({"depth": True}, "depth must be an integer from 1 to 12; got True"),
    ({"dataset": "teaching", "rankers": ["bm25"]}, "rankers must name two retrievers"),
    ({"dataset": "teaching", "rankers": ["bm25", "vectr"]}, "in rankers; .*did you mean 'vector'"),
])
def test_notebook_07(change, message):
    with pytest.raises(InputError, match=message):
        params.check_notebook_07(**{**NB07, **change})


def test_notebook_07_log_path_must_have_a_known_ending(tmp_path):
    log = tmp_path / "log.txt"
    log.write_text("")
    with pytest.raises(InputError, match="log_path must end in .csv.*got 'log.txt'"):
        params.check_notebook_07(**{**NB07, "log_path": str(log)})
    with pytest.raises(InputError, match="log_path must end in .csv.*got 'log.txt'"):
        params.check_notebook_07b(**{**NB07B, "log_path": str(log)})


@pytest.mark.parametrize("change, message", [
    ({"lang": "fr"}, "lang must be 'zh' or 'en'; got 'fr'"),
    ({"log_path": "/nonexistent/log.csv"}, "log_path '/nonexistent/log.csv' does not exist"),
    ({"metric": ["satisfaction"]}, "metric must name one metric, such as 'satisfaction'; got"),
    ({"metric": "latency"}, "unknown metric 'latency'"),
    ({"alpha": 1}, "alpha must be strictly between 0 and 1; got 1"),
    ({"mixing_sd": 0}, "mixing_sd must be a positive number; got 0"),
    ({"mixing_sd": float("inf")}, "mixing_sd must be a positive number; got inf"),
    ({"mixing_sd": "0.02"}, "mixing_sd must be a positive number; got '0.02'"),
    ({"click_model": "dbn"}, "click_model must be 'cascade' or 'pbm'; got 'dbn'"),
    ({"depth": 0}, "depth must be an integer from 1 to 12; got 0"),
    ({"aa_experiments": 9}, "aa_experiments must be an integer of at least 10; got 9"),
    ({"dataset": "teaching", "rankers": ["bm25"]}, "rankers must name two retrievers"),
])
def test_notebook_07b(change, message):
    with pytest.raises(InputError, match=message):
        params.check_notebook_07b(**{**NB07B, **change})


@pytest.mark.parametrize("change, message", [
    ({"lang": "fr"}, "lang must be 'zh' or 'en'; got 'fr'"),
    ({"alpha": 0}, "alpha must be strictly between 0 and 1; got 0"),
    ({"click_model": "dbn"}, "click_model must be 'cascade' or 'pbm'; got 'dbn'"),
    ({"depth": 0}, "depth must be an integer from 1 to 12; got 0"),
    ({"impressions": [100, 1]}, "impressions must be integers >= 2"),
    ({"impressions": []}, "impressions must be integers >= 2; got \\[\\]"),
    ({"impressions": [100, 2.5]}, "impressions must be integers >= 2"),
    ({"n_experiments": 5}, "n_experiments must be an integer of at least 10; got 5"),
    ({"dataset": "teaching", "rankers": ["bm25", "bm25", "vector"]},
     "rankers must name two retrievers"),
    ({"dataset": "teaching", "rankers": ["bm25", "vectr"]}, "in rankers; .*did you mean 'vector'"),
])
def test_notebook_08(change, message):
    with pytest.raises(InputError, match=message):
        params.check_notebook_08(**{**NB08, **change})


def test_notebook_10():
    with pytest.raises(InputError, match="lang must be .zh. or .en."):
        params.check_notebook_10(lang="fr", measures=["AP"], k_values=[1])
    with pytest.raises(InputError, match="k_values must be positive integers"):
        params.check_notebook_10(lang="zh", measures=["AP"], k_values=[0])


def test_report_sources_from_a_results_folder_keep_the_retrievers_order(tmp_path):
    (tmp_path / "runs").mkdir()
    (tmp_path / "qrels.txt").write_text("q1 0 d1 1\n")
    for name in ("zeta", "bm25", "alpha", "vector"):
        (tmp_path / "runs" / f"{name}.txt").write_text("q1 Q0 d1 1 1.0 x\n")
    qrels, runs = params.report_sources(results_dir=tmp_path, qrels=None, runs=None,
                                        retrievers=["vector", "bm25"], depth=10)
    assert qrels == tmp_path / "qrels.txt"
    assert list(runs) == ["vector", "bm25", "alpha", "zeta"]
    with pytest.raises(InputError, match="baseline 'bm24' is not one of the systems"):
        params.report_sources(results_dir=tmp_path, qrels=None, runs=None, retrievers=[],
                              depth=10, baseline="bm24")


def test_report_sources_name_a_missing_run_file(tmp_path):
    with pytest.raises(InputError, match="run file of 'a' not found"):
        params.report_sources(results_dir=None, qrels=tmp_path / "q.txt",
                              runs={"a": tmp_path / "a.txt"}, retrievers=[], depth=10)
    with pytest.raises(InputError, match="is not a results folder of notebook 05"):
        params.report_sources(results_dir=tmp_path, qrels=None, runs=None, retrievers=[], depth=10)


@pytest.mark.parametrize("change, message", [
    ({"lang": "fr"}, "^lang must be 'zh' or 'en'; got 'fr'$"),
    ({"retrievers": ["bm25", "colbert"]}, "unknown retrievers \\['colbert'\\]"),
    ({"max_k": 0}, "max_k must be a positive integer; got 0"),
    ({"k": 11}, "k must be between 1 and min\\(len\\(grades\\), max_k\\) = 10; got 11"),
])
def test_notebook_11(change, message):
    with pytest.raises(InputError, match=message):
        params.check_notebook_11(**{**NB05, **change})


def test_query_id():
    collection = SimpleNamespace(name="toy", queries={"q1": "text"})
    assert params.check_query_id(None, collection) is None
    assert params.check_query_id("q1", collection) is None
    with pytest.raises(InputError, match="query_id 'q2' is not a query of 'toy'"):
        params.check_query_id("q2", collection)


@pytest.mark.parametrize("change, message", [
    ({"days": 0}, "days must be a positive integer; got 0"),
    ({"days": 5, "regression_day": 9}, "regression_day must be in 2..days \\(5\\); got 9"),
    ({"regression_day": 1}, "regression_day must be in 2..days"),
    ({"measures": ["R@10"]}, "measures must include R@5"),
    ({"start": "May 1"}, "start must be a date such as '2026-05-01'; got 'May 1'"),
])
def test_notebook_09(change, message):
    with pytest.raises(InputError, match=message):
        params.check_notebook_09(**{**NB06, **change})
