"""Large generated run files, for the tests that read them many times (tests/io/test_io_stress.py)
and on Dask (tests/evaluation/test_dask.py).

Runs of 1 MiB and more are parsed by Arrow's multi-threaded reader, from 16 MiB on from a memory
map: the sizes reach each of Arrow's inputs, bytes in memory (4 MB) and a memory map (18 MB).
"""

import numpy as np
import pandas as pd

SIZES_MB = (1, 4, 18)


def write_large_runs(folder):
    """Write ``run-01mb.trec`` .. ``run-18mb.trec`` in ``folder``; return {path: rows written}."""
    return {folder / f"run-{megabytes:02d}mb.trec": _write_run(
        folder / f"run-{megabytes:02d}mb.trec", megabytes, seed)
        for seed, megabytes in enumerate(SIZES_MB)}


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


def assert_same_rows(got, expected):
    """The same ids in the same order and the same scores, exactly."""
    assert got["query_id"].tolist() == expected["query_id"].tolist()
    assert got["doc_id"].tolist() == expected["doc_id"].tolist()
    assert np.array_equal(got["score"].to_numpy(), expected["score"].to_numpy())
