"""A document listed twice for one query: found fast on millions of rows, named by line."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd

from reteval.errors import InputError

__all__ = ["check_unique", "duplicate_error", "first_duplicate"]


def check_unique(frame: pd.DataFrame, what: str) -> None:
    """Raise InputError if a (query, document) pair occurs twice, naming both rows.

    Rows are named by the frame's index: line numbers for files read here,
    row positions otherwise.
    """
    import pyarrow as pa

    query = pa.array(frame["query_id"], type=pa.large_string(), from_pandas=True)
    if isinstance(query, pa.ChunkedArray):
        query = query.combine_chunks()
    doc = pa.array(frame["doc_id"], type=pa.large_string(), from_pandas=True)
    if isinstance(doc, pa.ChunkedArray):
        doc = doc.combine_chunks()
    codes = query.dictionary_encode().indices.to_numpy().astype(np.int64)
    pair = first_duplicate(codes, doc)
    if pair is None:
        return
    where = "lines" if frame.index.name == "line" else "rows"
    labels = frame.index[list(pair)]
    raise duplicate_error(what, str(query[pair[0]]), str(doc[pair[0]]),
                          f"{where} {labels[0]} and {labels[1]}", frame.attrs.get("source"))


def duplicate_error(what, query_id, doc_id, where, source) -> InputError:
    """The error for a document listed twice for one query."""
    return InputError(
        f"document {doc_id!r} appears twice for query {query_id!r} in the {what}, on {where}",
        path=source,
    )


_CHUNK_ROWS = 1 << 15


def _stable_order(codes: np.ndarray) -> np.ndarray:
    """``argsort(codes, kind="stable")`` for non-negative integer codes, several times faster.

    Each code is packed with its row number into one 64-bit integer and the integers are
    sorted as values (numpy sorts those with SIMD instructions; an argsort cannot).
    """
    n = len(codes)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    row_bits = max(n - 1, 1).bit_length()
    if int(codes.max()).bit_length() + row_bits > 64:  # pragma: no cover - beyond 2**64 rows
        return np.argsort(codes, kind="stable")
    packed = codes.astype(np.uint64) << np.uint64(row_bits)
    packed |= np.arange(n, dtype=np.uint64)
    packed.sort()
    packed &= np.uint64((1 << row_bits) - 1)
    return packed.view(np.int64)


def first_duplicate(query: np.ndarray, doc) -> tuple[int, int] | None:
    """Row positions of a document listed twice for one query, or None.

    Parameters
    ----------
    query : numpy.ndarray
        An integer code per row (equal codes, same query).
    doc : pyarrow.Array
        The doc id of each row.

    Notes
    -----
    Rows are grouped by query (they usually are already; otherwise by a stable
    sort of the codes) and cut into chunks of whole queries of about 33,000
    rows. Each chunk's doc ids are hashed on their own, so the hash tables stay
    small and in cache, and equal (query, doc) keys are found by sorting.

    Examples
    --------
    >>> import numpy as np, pyarrow as pa
    >>> first_duplicate(np.array([0, 0, 1, 0]), pa.array(["a", "b", "a", "a"]))
    (0, 3)
    >>> first_duplicate(np.array([0, 0, 1]), pa.array(["a", "b", "a"])) is None
    True
    """
    import pyarrow as pa

    n = len(query)
    if n < 2:
        return None
    starts = np.flatnonzero(np.concatenate(([True], query[1:] != query[:-1])))
    if len(starts) == np.count_nonzero(np.bincount(query)):
        order = None  # every query's rows are contiguous already
    else:
        order = _stable_order(query)
        query = query[order]
        doc = doc.take(pa.array(order))
        starts = np.flatnonzero(np.concatenate(([True], query[1:] != query[:-1])))
    cuts = starts[np.searchsorted(starts, np.arange(0, n, _CHUNK_ROWS), side="right") - 1]
    edges = np.unique(np.concatenate((cuts, [n])))

    def chunk_duplicate(lo, hi):
        codes = doc.slice(lo, hi - lo).dictionary_encode().indices.to_numpy().astype(np.int64)
        group = np.cumsum(query[lo + 1:hi] != query[lo:hi - 1])
        keys = codes
        keys[1:] += group * (int(codes.max()) + 1)
        if keys.max() < 2**31:
            keys = keys.astype(np.int32)
        if not (np.diff(np.sort(keys)) == 0).any():
            return None
        by_key = np.argsort(keys, kind="stable")
        same = np.flatnonzero(keys[by_key][1:] == keys[by_key][:-1])[0]
        return lo + by_key[same], lo + by_key[same + 1]

    # Arrow and numpy release the GIL while hashing and sorting: chunks run in parallel.
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        for pair in pool.map(chunk_duplicate, edges[:-1], edges[1:]):
            if pair is not None:
                if order is not None:
                    pair = order[pair[0]], order[pair[1]]
                return tuple(sorted((int(pair[0]), int(pair[1]))))
    return None
