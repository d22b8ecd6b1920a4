"""Stress: large run files read many times, concurrently, in one process and on Dask.

Runs of 1 MiB and more are parsed by Arrow's multi-threaded reader, from
16 MiB on from a memory map. Arrow's reader threads may keep their input alive after the call
returns, so the map handed to Arrow must outlive them (a Python ``mmap``
exported to Arrow and closed too early raised ``BufferError`` at random, more
often under load). These tests read files of 1-18 MB over and over from
several threads at once, which is the load that made it fail, and check every
result against the rows written. The sizes reach each of Arrow's inputs: bytes in memory
(4 MB) and a memory map (18 MB, past 16 MiB).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest

from reteval.errors import InputError
from reteval.io import read_run

pytestmark = pytest.mark.slow

SIZES_MB = (1, 4, 18)


def _write_run(path, megabytes, seed):
    rng = np.random.default_rng(seed)
    n = megabytes * (1 << 20) // 28
    query_ids = [f"q{q}" for q in rng.integers(0, n // 500 + 1, n).tolist()]
    doc_ids = [f"d{i}" for i in range(n)]
    scores = np.round(rng.normal(size=n), 4)
    # repr of a float reads back as the same float
    path.write_text("".join(f"{q} Q0 {d} 1 {s!r} sys\n" for q, d, s in zip(
        query_ids, doc_ids, scores.tolist(), strict=True)))
    assert path.stat().st_size >= megabytes * (1 << 20) * 0.9
    return pd.DataFrame({"query_id": query_ids, "doc_id": doc_ids, "score": scores})


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("stress")
    written = {}
    for seed, megabytes in enumerate(SIZES_MB):
        path = root / f"run-{megabytes:02d}mb.trec"
        written[path] = _write_run(path, megabytes, seed)
    return written


def _same_rows(got, expected):
    assert got["query_id"].tolist() == expected["query_id"].tolist()
    assert got["doc_id"].tolist() == expected["doc_id"].tolist()
    assert np.array_equal(got["score"].to_numpy(), expected["score"].to_numpy())


def test_repeated_concurrent_reads_in_one_process(runs):
    paths = [path for path in runs for _ in range(4)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        frames = list(pool.map(lambda p: read_run(p, check_duplicates=False), paths))
    for path, frame in zip(paths, frames, strict=True):
        _same_rows(frame, runs[path])


def test_repeated_rejections_of_large_files(tmp_path):
    # A bad value deep inside a large file sends it from Arrow's reader to the careful one.
    lines = [f"q{i // 100} Q0 d{i} {i % 100 + 1} {i * 0.5} t" for i in range(60000)]
    lines[45678] = "q456 Q0 dX 79 inf t"
    path = tmp_path / "big.txt"
    path.write_text("\n".join(lines) + "\n")

    def attempt(_):
        with pytest.raises(InputError, match=r"big.txt:45679: score must be finite"):
            read_run(path)

    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(attempt, range(24)))


def test_dask_engine_on_a_glob_of_large_files(runs):
    distributed = pytest.importorskip("distributed")
    from reteval.evaluation.distributed import read_run_dask

    root = next(iter(runs)).parent
    expected = pd.concat(list(runs.values()), ignore_index=True)
    with distributed.Client(n_workers=2, threads_per_worker=2, processes=True,
                            dashboard_address=None, host="127.0.0.1"):
        for _ in range(3):
            got = read_run_dask(root / "run-*.trec").compute()
            _same_rows(got.reset_index(drop=True), expected)
