"""Stress: large run files read many times, concurrently, in one process.

Runs of 1 MiB and more are parsed by Arrow's multi-threaded reader, from
16 MiB on from a memory map. Arrow's reader threads may keep their input alive after the call
returns, so the map handed to Arrow must outlive them (a Python ``mmap``
exported to Arrow and closed too early raised ``BufferError`` at random, more
often under load). These tests read files of 1-18 MB over and over from
several threads at once, which is the load that made it fail, and check every
result against the rows written (tests/large_runs.py). The same files are read on a Dask
cluster in tests/evaluation/test_dask.py, whose cluster they share.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from large_runs import assert_same_rows, write_large_runs

from reteval.errors import InputError
from reteval.io import read_run

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return write_large_runs(tmp_path_factory.mktemp("stress"))


def test_repeated_concurrent_reads_in_one_process(runs):
    paths = [path for path in runs for _ in range(4)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        frames = list(pool.map(lambda p: read_run(p, check_duplicates=False), paths))
    for path, frame in zip(paths, frames, strict=True):
        assert_same_rows(frame, runs[path])


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

