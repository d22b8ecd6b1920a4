"""reteval on Dask: the same per-query results and A/B analyses as in memory.

The reference everywhere is the in-memory path (``reteval.evaluate`` on a
pandas run, ``reduce_log`` / ``analyze`` on a pandas log), which the other test
files check against trec_eval, pytrec_eval and hand computations; here the
Dask path must reproduce it exactly (``assert_frame_equal`` with
``check_exact=True``), including the handling of judged queries missing from
the run.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest
from large_runs import assert_same_rows, write_large_runs
from pandas.testing import assert_frame_equal

from reteval import evaluate
from reteval.ab.dask import reduce_log_dask
from reteval.cli import main
from reteval.errors import InputError
from reteval.evaluation.checks import MissingQueriesWarning
from reteval.evaluation.distributed import evaluate_dask, read_run_dask
from reteval.io import write_qrels, write_run

dd = distributed = None  # dask.dataframe and distributed: imported by the next fixture


@pytest.fixture(scope="module", autouse=True)
def dask_modules():
    """Import Dask when this file's tests run, not when pytest collects them (about 2 s on
    each worker of a new environment)."""
    global dd, distributed  # the tests below read them as module names
    dd = pytest.importorskip("dask.dataframe")
    distributed = pytest.importorskip("distributed")


# Every measure family, with and without cutoffs.
MEASURES = ["P@5", "P@10", "R@10", "R@100", "RR", "RR@10", "AP", "AP@100", "nDCG", "nDCG@10",
            "nDCG_exp@10", "Rprec", "Bpref", "Success@1", "Success@10", "Judged@10",
            "NumRet", "NumRel", "NumRelRet"]


@pytest.fixture(scope="module")
def client(dask_modules):
    """Two worker processes of two threads each (a worker reads two files at once)."""
    with (distributed.LocalCluster(n_workers=2, threads_per_worker=2, processes=True,
                                   host="127.0.0.1", dashboard_address=None,
                                   silence_logs=logging.ERROR) as cluster,
          distributed.Client(cluster) as client):
        yield client


@pytest.fixture(scope="module")
def teaching():
    from reteval.datasets import load
    from reteval.retrievers import make_retriever

    ds = load("teaching")
    run = make_retriever("bm25", ds.corpus).run(ds.queries)
    return ds.qrels, run


def _spans(ddf) -> int:
    """How many queries have rows in more than one partition."""
    parts = [set(p) for p in dd.compute(*[d["query_id"] for d in ddf.to_delayed()])]
    seen, split = set(), set()
    for ids in parts:
        split |= seen & ids
        seen |= ids
    return len(split)


def _evaluate_both(qrels, run, ddf, **options):
    """In-memory and Dask results, with the warnings each emitted."""
    with warnings.catch_warnings(record=True) as mem_w:
        warnings.simplefilter("always")
        expected = evaluate(qrels, run, MEASURES, **options)
    with warnings.catch_warnings(record=True) as dask_w:
        warnings.simplefilter("always")
        got = evaluate(qrels, ddf, MEASURES, **options)
    def missing(caught):
        return [str(w.message) for w in caught if issubclass(w.category, MissingQueriesWarning)]

    return expected, got, missing(mem_w), missing(dask_w)


# ---------------------------------------------------------------- teaching collection


@pytest.mark.slow
def test_teaching_identical_to_memory(client, teaching):
    qrels, run = teaching
    ddf = dd.from_pandas(run, npartitions=5)
    assert _spans(ddf) > 0  # the partitions cut through queries
    for level in (1, 2):
        expected, got, _, _ = _evaluate_both(qrels, run, ddf, relevance_level=level)
        assert_frame_equal(got, expected, check_exact=True)
    assert len(expected) == qrels["query_id"].nunique()


def test_teaching_rows_in_any_order_and_dask_qrels(client, teaching):
    qrels, run = teaching
    shuffled = run.sample(frac=1.0, random_state=np.random.default_rng(3))
    ddf = dd.from_pandas(shuffled.reset_index(drop=True), npartitions=4)
    expected = evaluate(qrels, run, MEASURES)
    got = evaluate_dask(dd.from_pandas(qrels, npartitions=2), ddf, MEASURES)
    assert_frame_equal(got, expected, check_exact=True)


@pytest.mark.parametrize("missing", ["zero", "skip"])
def test_missing_queries_like_memory(client, teaching, missing):
    qrels, run = teaching
    dropped = sorted(run["query_id"].unique())[::4]
    partial = run[~run["query_id"].isin(dropped)].reset_index(drop=True)
    ddf = dd.from_pandas(partial, npartitions=3)
    expected, got, mem_w, dask_w = _evaluate_both(qrels, partial, ddf, missing=missing)
    assert_frame_equal(got, expected, check_exact=True)
    assert dask_w == mem_w
    if missing == "zero":
        assert len(dask_w) == 1 and f"{len(dropped)} judged queries" in dask_w[0]
        assert set(dropped) <= set(got.index)
    else:
        assert not dask_w and not set(dropped) & set(got.index)


def test_missing_error_like_memory(client, teaching):
    qrels, run = teaching
    partial = run[run["query_id"] != "q05"].reset_index(drop=True)
    with pytest.raises(InputError) as mem:
        evaluate(qrels, partial, ["AP"], missing="error")
    with pytest.raises(InputError, match="1 judged query has no results") as got:
        evaluate(qrels, dd.from_pandas(partial, npartitions=3), ["AP"], missing="error")
    assert str(got.value) == str(mem.value)


def test_no_judged_query_retrieved(client, teaching):
    qrels, run = teaching
    other = run.assign(query_id="x" + run["query_id"])
    ddf = dd.from_pandas(other, npartitions=2)
    expected, got, _, _ = _evaluate_both(qrels, other, ddf, missing="skip")
    assert got.empty
    assert_frame_equal(got, expected, check_exact=True)
    expected, got, mem_w, dask_w = _evaluate_both(qrels, other, ddf)
    assert_frame_equal(got, expected, check_exact=True)
    assert dask_w == mem_w
    assert (got.drop(columns="NumRel") == 0).all().all() and (got["NumRel"] > 0).any()


def test_duplicate_across_partitions_is_an_error(client, teaching):
    qrels, run = teaching
    first = run.iloc[[0]].assign(score=-1.0)  # same (query, doc) again, at the very end
    ddf = dd.from_pandas(pd.concat([run, first], ignore_index=True), npartitions=4)
    doc, query = first["doc_id"].iloc[0], first["query_id"].iloc[0]
    with pytest.raises(InputError, match=f"document '{doc}' appears twice for query '{query}'"):
        evaluate(qrels, ddf, ["AP"])


def test_indexed_by_query_skips_the_shuffle(client, teaching):
    qrels, run = teaching
    ddf = dd.from_pandas(run, npartitions=4).set_index("query_id")
    assert ddf.known_divisions
    assert_frame_equal(evaluate(qrels, ddf, MEASURES), evaluate(qrels, run, MEASURES),
                       check_exact=True)


def test_wrong_divisions_are_caught(client, teaching):
    import dask

    qrels, run = teaching
    indexed = run.set_index("query_id")
    # Two partitions both holding q01, declared (falsely) as disjoint ranges.
    parts = [dask.delayed(indexed.loc[["q01", "q02"]]), dask.delayed(indexed.loc[["q01", "q03"]])]
    lying = dd.from_delayed(parts, meta=indexed.iloc[:0], divisions=["q01", "q02", "q03"])
    with pytest.raises(InputError, match="rows in more than one partition"):
        evaluate(qrels, lying, ["AP"], missing="skip")


def test_bad_inputs(client, teaching):
    qrels, run = teaching
    ddf = dd.from_pandas(run, npartitions=2)
    with pytest.raises(InputError, match="missing must be one of"):
        evaluate(qrels, ddf, ["AP"], missing="ignore")
    with pytest.raises(InputError, match="needs columns query_id, doc_id, score; missing"):
        evaluate(qrels, ddf.rename(columns={"score": "sim"}), ["AP"])
    with pytest.raises(InputError, match="Unknown measure|unknown measure"):
        evaluate(qrels, ddf, ["nDGC@10"])
    bad = dd.from_pandas(run.assign(score=run["score"].where(run.index != 7)), npartitions=2)
    with pytest.raises(InputError, match="score must be a finite number.*in partition"):
        evaluate(qrels, bad, ["AP"])


def test_core_does_not_import_dask():
    code = ("import sys, reteval, reteval.evaluation.distributed, reteval.cli; "
            "reteval.evaluate({'q': {'d': 1}}, {'q': ['d']}, ['AP']); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------- 1M generated rows


def _generated(rng, n_queries=2000, mean_docs=500):
    """A run of about n_queries * mean_docs rows, in random row order, and graded qrels.

    Scores have two decimals, so ties are frequent; some judged queries are
    absent from the run, some run queries are unjudged, some judgments negative.
    """
    prime = 100_003
    sizes = rng.integers(mean_docs // 2, 3 * mean_docs // 2 + 1, size=n_queries)
    q = np.repeat(np.arange(n_queries), sizes)
    k = np.arange(len(q)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    offset, step = rng.integers(0, prime, n_queries), rng.integers(1, prime, n_queries)
    doc = (offset[q] + k * step[q]) % prime  # distinct within a query
    qids = np.array([f"Q{i:05d}" for i in range(n_queries + 200)], dtype=object)
    docs = np.array([f"d{i}" for i in range(prime)], dtype=object)
    run = pd.DataFrame({"query_id": qids[q], "doc_id": docs[doc],
                        "score": np.round(rng.normal(0, 1, len(q)), 2)})
    run = run.iloc[rng.permutation(len(run))].reset_index(drop=True)

    judged_q = np.concatenate([np.arange(100, n_queries), np.arange(n_queries, n_queries + 200)])
    per = 20
    jq = np.repeat(judged_q, per)
    jk = np.tile(np.arange(per), len(judged_q)) * 37  # spaced ranks: some retrieved, some not
    retrieved_size = np.concatenate([sizes, np.zeros(200, dtype=int)])[jq]
    jdoc = np.where(jk < retrieved_size,
                    (np.concatenate([offset, np.zeros(200, int)])[jq]
                     + jk * np.concatenate([step, np.ones(200, int)])[jq]) % prime,
                    rng.integers(0, prime, len(jq)))
    qrels = pd.DataFrame({"query_id": qids[jq], "doc_id": docs[jdoc],
                          "relevance": rng.choice([-1, 0, 0, 1, 1, 2, 3], size=len(jq))})
    qrels = qrels.drop_duplicates(["query_id", "doc_id"]).reset_index(drop=True)
    return qrels, run


@pytest.mark.slow
def test_million_rows_identical_to_memory(client):
    qrels, run = _generated(np.random.default_rng(20240601))
    assert len(run) > 900_000
    # The pieces go to the workers once (scattered), as data loaded by the workers would be.
    pieces = client.scatter([run.iloc[rows] for rows in np.array_split(np.arange(len(run)), 8)])
    ddf = dd.from_delayed(pieces, meta=run.iloc[:0])
    assert _spans(ddf) > 1000
    expected, got, mem_w, dask_w = _evaluate_both(qrels, run, ddf)
    assert_frame_equal(got, expected, check_exact=True)
    assert dask_w == mem_w and len(mem_w) == 1  # 200 judged queries not in the run
    assert len(got) == qrels["query_id"].nunique()


@pytest.mark.slow
def test_a_glob_of_large_files_read_again_and_again(client, tmp_path_factory):
    """The large runs of the stress tests (Arrow's reader from bytes and from a memory map),
    read on the workers three times over."""
    runs = write_large_runs(tmp_path_factory.mktemp("large"))
    expected = pd.concat(list(runs.values()), ignore_index=True)
    for _ in range(3):
        got = read_run_dask(next(iter(runs)).parent / "run-*.trec").compute()
        assert_same_rows(got.reset_index(drop=True), expected)


# ---------------------------------------------------------------- A/B logs


def _ab_log(rng, n_users=3000):
    users = np.array([f"u{i:05d}" for i in range(n_users)], dtype=object)
    variant = rng.choice(np.array(["control", "treatment"], dtype=object), size=n_users)
    queries = rng.integers(1, 12, size=n_users)
    u = np.repeat(np.arange(n_users), queries)
    p_sat = np.where(variant[u] == "treatment", 0.62, 0.58)
    feedback = np.where(rng.random(len(u)) < 0.4, np.nan, (rng.random(len(u)) < p_sat) * 1.0)
    log = pd.DataFrame({
        "variant": variant[u], "user_id": users[u],
        "feedback": pd.array(pd.Series(feedback).astype("Int64")),
        "n_clicks": rng.poisson(np.where(variant[u] == "treatment", 1.1, 1.0)),
        "n_retrieved": rng.integers(5, 11, size=len(u)),
        "day": rng.integers(1, 8, size=len(u)),
    })
    return log.iloc[rng.permutation(len(log))].reset_index(drop=True)


def _write_parquet(log, folder, n_files):
    folder.mkdir()
    for i, chunk in enumerate(np.array_split(np.arange(len(log)), n_files)):
        log.iloc[chunk].to_parquet(folder / f"part-{i:03d}.parquet", index=False)
    return folder


@pytest.mark.slow
def test_ab_reduction_and_analysis_identical(client, tmp_path):
    from reteval.ab import analysis, sufficient

    log = _ab_log(np.random.default_rng(11))
    folder = _write_parquet(log, tmp_path / "log", n_files=6)
    ddf = dd.read_parquet(folder)
    assert ddf.npartitions == 6 and _spans(ddf.rename(columns={"user_id": "query_id"})) > 0

    expected = sufficient.reduce_log(log)
    got = reduce_log_dask(folder)
    assert_frame_equal(got, expected, check_exact=True)
    assert_frame_equal(reduce_log_dask(ddf), expected, check_exact=True)

    options = {"metrics": ["satisfaction", "ctr"], "guardrails": ["clicks_per_query"]}
    mem, dist = analysis.analyze(expected, **options), analysis.analyze(got, **options)
    assert_frame_equal(dist.to_frame(), mem.to_frame(), check_exact=True)
    assert_frame_equal(dist.variants, mem.variants, check_exact=True)
    assert (dist.decision, dist.recommended, dist.verdict) == (mem.decision, mem.recommended,
                                                               mem.verdict)
    assert dist.srm == mem.srm


def test_ab_user_in_two_variants_across_partitions(client, tmp_path):
    log = _ab_log(np.random.default_rng(5), n_users=200)
    moved = log.iloc[[0]].assign(variant="treatment" if log["variant"].iloc[0] == "control"
                                 else "control")
    folder = _write_parquet(pd.concat([log, moved], ignore_index=True), tmp_path / "log", 3)
    with pytest.raises(InputError, match="appear in more than one variant"):
        reduce_log_dask(str(folder / "*.parquet"))
    with pytest.raises(InputError, match="missing column"):
        reduce_log_dask(dd.read_parquet(folder).drop(columns="feedback"))
    with pytest.raises(InputError, match="pandas log use"):
        reduce_log_dask(log)
    with pytest.raises(InputError, match="no file matches"):
        reduce_log_dask(str(folder / "nothing-*.parquet"))


# ---------------------------------------------------------------- CLI


@pytest.fixture(scope="module")
def files(teaching, tmp_path_factory):
    qrels, run = teaching
    root = tmp_path_factory.mktemp("cli")
    write_qrels(qrels, root / "qrels.trec")
    write_run(run, root / "run.trec")
    lines = (root / "run.trec").read_text().splitlines(keepends=True)
    (root / "trec").mkdir()
    for i, cut in enumerate(np.array_split(np.arange(len(lines)), 3)):  # cuts through queries
        (root / "trec" / f"run-{i}.trec").write_text("".join(lines[j] for j in cut))
    (root / "parquet").mkdir()
    shuffled = run.sample(frac=1.0, random_state=np.random.default_rng(1))
    for i, chunk in enumerate(np.array_split(np.arange(len(shuffled)), 4)):
        shuffled.iloc[chunk].to_parquet(root / "parquet" / f"part-{i}.parquet", index=False)
    return root


def _cli_json(capsys, *argv):
    assert main(["evaluate", *argv, "--format", "json", "--per-query",
                 "-m", "AP", "-m", "nDCG@10", "-m", "P@5", "-m", "NumRet"]) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_dask_engine(client, files, capsys):
    expected = _cli_json(capsys, str(files / "qrels.trec"), str(files / "run.trec"))
    address = client.scheduler.address
    for run in (files / "parquet", files / "trec" / "run-*.trec"):
        got = _cli_json(capsys, str(files / "qrels.trec"), str(run),
                        "--engine", "dask", "--scheduler", address)
        assert got == expected


def test_read_run_dask_partitions(files):
    trec = read_run_dask(files / "trec" / "run-*.trec")
    assert trec.npartitions == 3
    assert read_run_dask(files / "parquet").npartitions == 4


def test_cli_dask_errors(client, files, capsys):
    qrels = str(files / "qrels.trec")
    assert main(["evaluate", qrels, str(files / "run.trec"), "--scheduler", "tcp://x:1"]) == 2
    assert "--scheduler needs --engine dask" in capsys.readouterr().err
    address = client.scheduler.address
    assert main(["evaluate", qrels, str(files / "nothing-*.trec"), "--engine", "dask",
                 "--scheduler", address]) == 2
    assert "no file matches" in capsys.readouterr().err
    dup = files / "dup"
    dup.mkdir()
    (dup / "a.trec").write_text("q01 Q0 d001 1 2.0 t\n")
    (dup / "b.trec").write_text("q02 Q0 d002 1 2.0 t\nq01 Q0 d001 2 1.0 t\n")
    assert main(["evaluate", qrels, str(dup / "*.trec"), "--engine", "dask",
                 "--scheduler", address]) == 2
    err = capsys.readouterr().err
    assert "document 'd001' appears twice for query 'q01'" in err
    assert "a.trec line 1" in err and "b.trec line 2" in err


@pytest.mark.slow
def test_cli_starts_and_stops_a_local_cluster(files, capsys):
    out = subprocess.run(
        [sys.executable, "-m", "reteval.cli", "evaluate", str(files / "qrels.trec"),
         str(files / "parquet"), "--engine", "dask", "-m", "AP", "-m", "nDCG@10",
         "--format", "json"],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert out.returncode == 0, out.stderr
    assert main(["evaluate", str(files / "qrels.trec"), str(files / "run.trec"),
                 "-m", "AP", "-m", "nDCG@10", "--format", "json"]) == 0
    assert json.loads(out.stdout) == json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("scheduler", ["distributed", "threads"])
def test_progress_bar_over_partitions_same_result(client, teaching, scheduler, monkeypatch, capsys):
    import dask

    qrels, run = teaching
    ddf = dd.from_pandas(run, npartitions=4)
    silent = evaluate_dask(qrels, ddf, ["AP"])
    monkeypatch.setenv("RETEVAL_PROGRESS", "text")
    monkeypatch.setattr("reteval._util.progress._DELAY_SECONDS", 0)
    config = {} if scheduler == "distributed" else {"scheduler": scheduler,
                                                   "dataframe.shuffle.method": "tasks"}
    with dask.config.set(config):
        shown = evaluate_dask(qrels, ddf, ["AP"])
    assert "evaluating partitions" in capsys.readouterr().err
    assert_frame_equal(shown, silent, check_exact=True)


@pytest.mark.parametrize("quiet", [False, True])
def test_cli_progress_on_the_dask_engine_and_quiet(client, files, capsys, monkeypatch, quiet):
    monkeypatch.setenv("RETEVAL_PROGRESS", "text")
    monkeypatch.setattr("reteval._util.progress._DELAY_SECONDS", 0)
    argv = ["evaluate", str(files / "qrels.trec"), str(files / "parquet"), "-m", "AP",
            "--engine", "dask", "--scheduler", client.scheduler.address]
    assert main(["--quiet", *argv] if quiet else argv) == 0
    captured = capsys.readouterr()
    assert ("evaluating partitions" in captured.err) is not quiet
    assert "AP" in captured.out


def test_column_engine_refuses_dask_and_names_the_function_that_takes_it(teaching):
    from reteval.evaluation.columns import evaluate_columns

    qrels, run = teaching
    with pytest.raises(InputError, match="Dask collection is evaluated by reteval.evaluate"):
        evaluate_columns(qrels, dd.from_pandas(run, npartitions=2), ["AP"])
    import reteval

    assert "evaluate_dask" in reteval.evaluate.__doc__
