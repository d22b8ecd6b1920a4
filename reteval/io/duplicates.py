"""A document listed twice for one query: found fast on millions of rows, named by line."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from reteval.errors import InputError
from reteval.io.arrow import to_numpy

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["check_unique", "check_unique_ids", "duplicate_error", "first_duplicate", "row_keys",
           "rows_named", "string_hashes"]


def check_unique(frame: pd.DataFrame, what: str) -> None:
    """Raise InputError if a (query, document) pair occurs twice, naming both rows.

    Rows are named as :func:`rows_named` names them: line numbers for files read here, row
    positions otherwise (with their index labels, if not 0, 1, 2, ...).
    """
    import pyarrow as pa

    def ids(column):
        array = pa.array(frame[column], type=pa.large_string(), from_pandas=True)
        return array.combine_chunks() if isinstance(array, pa.ChunkedArray) else array

    check_unique_ids(ids("query_id"), ids("doc_id"), what, labels=frame.index,
                     labels_are_lines=frame.index.name == "line",
                     source=frame.attrs.get("source"))


def check_unique_ids(query, doc, what: str, *, labels=None, labels_are_lines: bool = False,
                     source=None) -> None:
    """:func:`check_unique` on two Arrow string arrays; ``labels`` name the rows: line
    numbers (``labels_are_lines``) or a table's index (see :func:`rows_named`)."""
    codes = to_numpy(query.dictionary_encode().indices).astype(np.int64)
    pair = first_duplicate(codes, doc)
    if pair is None:
        return
    raise duplicate_error(what, str(query[pair[0]]), str(doc[pair[0]]), pair, source,
                          labels=labels, lines=labels_are_lines)


def rows_named(labels, positions, *, lines: bool = False) -> str:
    """Where rows are, as an error says it: ``lines N and M`` when ``labels`` are the line
    numbers of a file, else ``rows N and M`` by position from 0, followed by the rows' labels
    when ``labels`` (a table's index) are not 0, 1, 2, ... (a filtered or concatenated frame).

    Examples
    --------
    >>> import pandas as pd
    >>> rows_named(pd.RangeIndex(5), [3])
    'row 3'
    >>> rows_named(pd.Index([10, 11, 12, 13]), [1, 3])
    'rows 1 and 3 (index 11 and 13)'
    >>> rows_named([4, 9], [1], lines=True)
    'line 9'
    """
    positions = [int(p) for p in positions]
    plural = "s" if len(positions) > 1 else ""
    if lines:
        return f"line{plural} " + " and ".join(str(labels[p]) for p in positions)
    text = f"row{plural} " + " and ".join(map(str, positions))
    shown = _index_labels(labels, positions)
    return text if shown is None else text + " (index " + " and ".join(shown) + ")"


def _index_labels(labels, positions) -> list[str] | None:
    """The index labels of rows at ``positions``, as text; None when ``labels`` are absent or
    number the rows 0, 1, 2, ... (then the positions say it all)."""
    if labels is None:
        return None
    import pandas as pd  # the labels are a table's index: pandas is loaded

    index = pd.Index(labels)
    if index.equals(pd.RangeIndex(len(index))):
        return None
    return [repr(label) for label in index[list(positions)].tolist()]  # 11, not np.int64(11)


def duplicate_error(what, query_id, doc_id, positions, source, *, labels=None,
                    lines: bool = False) -> InputError:
    """The error for a document listed twice for one query, on the rows at ``positions``
    (named as :func:`rows_named` names them); the error names its catalogue entry, so that
    it can be said in Chinese too.

    Examples
    --------
    >>> error = duplicate_error("run", "q1", "d1", [0, 1], None)
    >>> str(error), error.key
    ("document 'd1' appears twice for query 'q1' in the run, on rows 0 and 1", 'io.duplicate')
    """
    positions = [int(p) for p in positions]
    first, second = (str(labels[p]) for p in positions) if lines else map(str, positions)
    shown = None if lines else _index_labels(labels, positions)
    fields = {"doc": doc_id, "query": query_id, "what": what,
              "unit": "lines" if lines else "rows", "first": first, "second": second}
    if shown is not None:
        fields.update(first_label=shown[0], second_label=shown[1])
    return InputError(
        f"document {doc_id!r} appears twice for query {query_id!r} in the {what}, on "
        f"{rows_named(labels, positions, lines=lines)}",
        path=source, key="io.duplicate" if shown is None else "io.duplicate_labelled",
        fields=fields,
    )


_MIX = np.uint64(0x9E3779B97F4A7C15)  # 2**64 / golden ratio: spreads bits when multiplied
_MIX_QUERY = np.uint64(0xD6E8FEB86659FD93)
_BLOCK_ROWS = 1 << 20  # rows hashed at a time: temporary arrays of a few MB
_THREADS = 2
_BYTE_MASKS = np.array([(1 << 8 * k) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)


def _mix(hashes: np.ndarray, word: np.ndarray) -> np.ndarray:
    mixed = hashes ^ word
    mixed *= _MIX
    mixed ^= mixed >> np.uint64(29)
    return mixed


def string_hashes(strings) -> np.ndarray:
    """A 64-bit hash of every string of an Arrow string array: equal strings, equal hashes.

    Each id's bytes are read straight from Arrow's buffer as little-endian 64-bit
    words (the last one masked to the id's length) and mixed word by word, for
    all ids at once: no Python object per id and no hash table, so the time does
    not depend on the order of the rows. Ids are hashed a block of rows at a time
    (the temporary arrays stay small), blocks on two threads (numpy works outside
    the GIL); a block of ids of one length (the usual case) is a table of bytes,
    read eight columns at a time without gathering. ``strings`` may be chunked.

    Examples
    --------
    >>> import pyarrow as pa
    >>> h = string_hashes(pa.array(["doc1", "doc22", "doc1", ""]))
    >>> bool(h[0] == h[2]), bool(h[0] == h[1]), len(h)
    (True, False, 4)
    """
    import pyarrow as pa

    chunks = strings.chunks if isinstance(strings, pa.ChunkedArray) else [strings]
    hashes = np.empty(len(strings), dtype=np.uint64)
    blocks = []  # (offsets of the block's ids, their chunk's bytes, words, first row)
    first_row = 0
    for chunk in chunks:
        if not pa.types.is_large_string(chunk.type):
            chunk = chunk.cast(pa.large_string())
        n = len(chunk)
        _, offset_buffer, data_buffer = chunk.buffers()
        offsets = np.frombuffer(offset_buffer, dtype=np.int64)[chunk.offset:chunk.offset + n + 1]
        data = (np.frombuffer(data_buffer, dtype=np.uint8) if data_buffer is not None
                else np.zeros(0, dtype=np.uint8))
        word_at = None
        lengths = np.diff(offsets)
        if n and int(lengths.max()) != int(lengths.min()):
            # The 8 bytes starting at each byte, as one unaligned word each; 8 spare bytes.
            padded = np.zeros(len(data) + 8, dtype=np.uint8)
            padded[:len(data)] = data
            word_at = np.ndarray((len(data) + 1,), dtype="<u8", buffer=padded, strides=(1,))
        del lengths
        blocks += [(offsets[lo:lo + _BLOCK_ROWS + 1], data, word_at, first_row + lo)
                   for lo in range(0, n, _BLOCK_ROWS)]
        first_row += n

    def hash_block(block):
        bounds, data, word_at, row = block
        hashes[row:row + len(bounds) - 1] = _hash_block(data, bounds, word_at)

    if len(blocks) > 1:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=_THREADS) as pool:
            list(pool.map(hash_block, blocks))
    else:
        for block in blocks:
            hash_block(block)
    return hashes


def _hash_block(data, bounds, word_at) -> np.ndarray:
    """:func:`string_hashes` of the ids whose offsets are ``bounds``."""
    lengths = np.diff(bounds)
    longest = int(lengths.max())
    hashes = lengths.astype(np.uint64)
    hashes *= _MIX
    fixed = longest == int(lengths.min())
    if fixed:
        rows = data[bounds[0]:bounds[-1]].reshape(len(lengths), longest)
        word = np.empty((len(lengths), 8), dtype=np.uint8)
    for k in range(-(-longest // 8)):
        # An id mixes as many words as it has bytes for, whatever the other ids' lengths;
        # round k reads only the ids longer than 8k bytes, so one long id costs its own words.
        if fixed:
            columns = rows[:, 8 * k:8 * k + 8]
            word[:, columns.shape[1]:] = 0
            word[:, :columns.shape[1]] = columns
            hashes = _mix(hashes, word.view("<u8").ravel())
            continue
        active = np.flatnonzero(lengths > 8 * k)
        words = word_at[bounds[:-1][active] + 8 * k]
        words &= _BYTE_MASKS[np.minimum(lengths[active] - 8 * k, 8)]
        hashes[active] = _mix(hashes[active], words)
    return hashes


def row_keys(query: np.ndarray, doc) -> np.ndarray:
    """One 64-bit key per row, mixed from its query code and its doc id's hash.

    Equal (query, doc id) pairs have equal keys; distinct pairs almost never do
    (callers check equal keys exactly). The high bits are the best mixed.

    Examples
    --------
    >>> import numpy as np, pyarrow as pa
    >>> keys = row_keys(np.array([0, 1, 0]), pa.array(["d1", "d1", "d1"]))
    >>> bool(keys[0] == keys[2]), bool(keys[0] == keys[1])
    (True, False)
    """
    keys = string_hashes(doc)
    for lo in range(0, len(keys), _BLOCK_ROWS):
        block = keys[lo:lo + _BLOCK_ROWS]
        block ^= np.asarray(query[lo:lo + _BLOCK_ROWS]).astype(np.uint64) * _MIX_QUERY
        block *= _MIX
    return keys


def first_duplicate(query: np.ndarray, doc, *, keys: np.ndarray | None = None
                    ) -> tuple[int, int] | None:
    """Row positions of a document listed twice for one query, or None.

    Parameters
    ----------
    query : numpy.ndarray
        An integer code per row (equal codes, same query).
    doc : pyarrow.Array or pyarrow.ChunkedArray
        The doc id of each row.
    keys : numpy.ndarray, optional
        ``row_keys(query, doc)`` when the caller has made them; they are
        sorted in place (their order is lost).

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
    ordered = row_keys(query, doc) if keys is None else keys
    ordered.sort()  # in place: the keys are made again below only if two are equal
    repeated = ordered[1:][ordered[1:] == ordered[:-1]]
    del ordered
    if len(repeated) == 0:
        return None
    keys = row_keys(query, doc)
    # Only rows whose key another row shares can repeat: the duplicates themselves, and hash
    # collisions. Candidates are grouped by key (rows ascending within a group); each later
    # member of a group, in row order, is compared exactly with the earlier ones.
    repeated = np.unique(repeated)
    found = repeated[np.searchsorted(repeated, keys).clip(max=len(repeated) - 1)] == keys
    candidates = np.flatnonzero(found)
    order = np.argsort(keys[candidates], kind="stable")
    grouped = keys[candidates][order]
    starts = np.flatnonzero(np.concatenate(([True], grouped[1:] != grouped[:-1])))
    group_start = np.repeat(starts, np.diff(np.append(starts, len(order))))
    later = np.flatnonzero(np.arange(len(order)) != group_start)
    for at in later[np.argsort(candidates[order[later]])]:
        j = int(candidates[order[at]])
        for earlier in range(group_start[at], at):
            i = int(candidates[order[earlier]])
            if query[i] == query[j] and doc[i].as_py() == doc[j].as_py():
                return i, j
    return None
