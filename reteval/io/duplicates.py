"""A document listed twice for one query: found fast on millions of rows, named by line."""

from __future__ import annotations

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


_GATHER_BYTES = 1 << 24  # bytes of ids gathered at a time when lengths differ
_MIX = np.uint64(0x9E3779B97F4A7C15)  # 2**64 / golden ratio: spreads bits when multiplied
_MIX_QUERY = np.uint64(0xD6E8FEB86659FD93)


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


def _mix_words(words: np.ndarray, length: int) -> np.ndarray:
    """Hash rows of 64-bit words (ids of ``length`` bytes, zero-padded) to one word each."""
    h = np.full(len(words), length, dtype=np.uint64)
    for j in range(words.shape[1]):
        h ^= words[:, j]
        h *= _MIX
        h ^= h >> np.uint64(29)
    return h


def string_hashes(strings) -> np.ndarray:
    """A 64-bit hash of every string of an Arrow string array: equal strings, equal hashes.

    The ids' bytes are read from Arrow's buffers as rows of 64-bit words, a block
    of ids of one length at a time, and mixed word by word: no Python object per
    id and no hash table, so the time does not depend on the order of the rows.

    Examples
    --------
    >>> import pyarrow as pa
    >>> h = string_hashes(pa.array(["doc1", "doc22", "doc1", ""]))
    >>> bool(h[0] == h[2]), bool(h[0] == h[1]), len(h)
    (True, False, 4)
    """
    import pyarrow as pa

    if not pa.types.is_large_string(strings.type):
        strings = strings.cast(pa.large_string())
    n = len(strings)
    _, offset_buffer, data_buffer = strings.buffers()
    offsets = np.frombuffer(offset_buffer, dtype=np.int64)[strings.offset:strings.offset + n + 1]
    data = (np.frombuffer(data_buffer, dtype=np.uint8) if data_buffer is not None
            else np.zeros(0, dtype=np.uint8))
    lengths = np.diff(offsets)
    hashes = np.empty(n, dtype=np.uint64)
    if n == 0:
        return hashes
    shortest, longest = int(lengths.min()), int(lengths.max())
    if shortest == longest:  # one length (the usual case): the bytes are already n rows
        words = np.zeros((n, -(-longest // 8) * 8), dtype=np.uint8)
        words[:, :longest] = data[offsets[0]:offsets[-1]].reshape(n, longest)
        return _mix_words(words.view(np.uint64), longest)
    order = _stable_order(lengths)
    bounds = np.searchsorted(lengths[order], np.arange(shortest, longest + 2))
    for length in range(shortest, longest + 1):
        rows_of_length = order[bounds[length - shortest]:bounds[length - shortest + 1]]
        step = max(_GATHER_BYTES // max(length, 1), 1)
        for at in range(0, len(rows_of_length), step):
            rows = rows_of_length[at:at + step]
            words = np.zeros((len(rows), -(-length // 8) * 8), dtype=np.uint8)
            if length:
                words[:, :length] = data[offsets[rows][:, None] + np.arange(length)]
            hashes[rows] = _mix_words(words.view(np.uint64), length)
    return hashes


def first_duplicate(query: np.ndarray, doc) -> tuple[int, int] | None:
    """Row positions of a document listed twice for one query, or None.

    Parameters
    ----------
    query : numpy.ndarray
        An integer code per row (equal codes, same query).
    doc : pyarrow.Array
        The doc id of each row.

    Returns
    -------
    tuple of int or None
        ``(i, j)``, ``i < j``: of all repeated rows, ``j`` is the first
        (the earliest line that repeats an earlier one) and ``i`` the row it
        repeats.

    Notes
    -----
    Each row gets a 64-bit key mixed from its query code and a hash of its doc
    id (:func:`string_hashes`); the keys are sorted as plain integers (numpy
    sorts those with SIMD instructions) and equal neighbours are the only
    candidates, checked exactly on the ids. The work is the same whatever the
    order of the rows.

    Examples
    --------
    >>> import numpy as np, pyarrow as pa
    >>> first_duplicate(np.array([0, 0, 1, 0]), pa.array(["a", "b", "a", "a"]))
    (0, 3)
    >>> first_duplicate(np.array([0, 0, 1]), pa.array(["a", "b", "a"])) is None
    True
    """
    n = len(query)
    if n < 2:
        return None
    keys = string_hashes(doc)
    keys ^= query.astype(np.uint64) * _MIX_QUERY
    keys *= _MIX
    ordered = np.sort(keys)
    repeated = ordered[1:][ordered[1:] == ordered[:-1]]
    del ordered
    if len(repeated) == 0:
        return None
    # Only rows whose key another row shares can repeat: few (hash collisions aside, the
    # duplicates themselves). Their ids are compared exactly, in row order.
    candidates = np.flatnonzero(np.isin(keys, repeated))
    seen = {}
    for row, q, d in zip(candidates.tolist(), query[candidates].tolist(),
                         doc.take(candidates).to_pylist(), strict=True):
        first = seen.setdefault((q, d), row)
        if first != row:
            return first, row
    return None
