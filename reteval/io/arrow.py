"""Arrow arrays to and from numpy and Python lists, without pyarrow's pandas hook.

``pyarrow.array`` and ``Array.to_numpy`` import pandas whenever it is installed (to
recognise pandas objects), which costs more than the whole evaluation of a small run.
These helpers build arrays from their buffers instead, so that the command line
evaluates files without loading pandas. They handle only what reteval's ranking
uses: strings, and primitive numbers and booleans without nulls.
"""

from __future__ import annotations

import itertools

import numpy as np
import pyarrow as pa

__all__ = ["from_numpy", "strings", "take", "to_numpy"]

_TYPES: dict[np.dtype, pa.DataType] = {
    np.dtype(np.int32): pa.int32(), np.dtype(np.int64): pa.int64(),
    np.dtype(np.uint64): pa.uint64(), np.dtype(np.float64): pa.float64()}
_DTYPES: dict[str, np.dtype] = {str(t): d for d, t in _TYPES.items()}


def from_numpy(values) -> pa.Array:
    """A numpy array of int32, int64, uint64, float64 or bool values as an Arrow array.

    Examples
    --------
    >>> import numpy as np
    >>> from_numpy(np.array([True, False, True])).to_pylist()
    [True, False, True]
    >>> from_numpy(np.array([3, 1], dtype=np.int64)).type
    DataType(int64)
    """
    values = np.ascontiguousarray(values)
    if values.dtype == np.bool_:
        bits = np.packbits(values, bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(bits)])
    return pa.Array.from_buffers(_TYPES[values.dtype], len(values),
                                 [None, pa.py_buffer(values)])


def to_numpy(array: pa.Array | pa.ChunkedArray, null_value=None) -> np.ndarray:
    """An Arrow array of numbers or booleans as a numpy array (a view when it can be one).

    A chunked array is one numpy array of all its chunks (a copy, unless it has one).

    Nulls become ``null_value``; without one, an array with nulls is refused.

    Examples
    --------
    >>> import pyarrow as pa
    >>> to_numpy(pa.array([1, 2, 3], type=pa.int32())[1:]).tolist()
    [2, 3]
    >>> to_numpy(pa.array([False, True])).tolist()
    [False, True]
    >>> to_numpy(pa.array([4, None, 6]), null_value=-1).tolist()
    [4, -1, 6]
    """
    if isinstance(array, pa.ChunkedArray):
        array = array.chunk(0) if array.num_chunks == 1 else array.combine_chunks()
    n, start = len(array), array.offset
    validity, data = array.buffers()[:2]
    if pa.types.is_boolean(array.type):
        values = _bits(data, start, n)
    else:
        values = np.frombuffer(data, dtype=_DTYPES[str(array.type)])[start:start + n]
    if array.null_count:
        if null_value is None:
            raise ValueError("the array holds nulls and no null_value was given")
        values = np.where(_bits(validity, start, n), values, null_value).astype(values.dtype)
    return values


def _bits(buffer, start: int, n: int) -> np.ndarray:
    packed = np.frombuffer(buffer, dtype=np.uint8)
    return np.unpackbits(packed, count=start + n, bitorder="little")[start:].astype(bool)


def strings(values) -> pa.LargeStringArray:
    """Python strings as an Arrow ``large_string`` array.

    Examples
    --------
    >>> strings(["q1", "", "文档"]).to_pylist()
    ['q1', '', '文档']
    """
    encoded = [value.encode("utf-8") for value in values]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(e) for e in encoded], out=offsets[1:])
    return pa.Array.from_buffers(pa.large_string(), len(encoded),
                                 [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))])


def take(array: pa.Array | pa.ChunkedArray, rows: np.ndarray) -> pa.Array | pa.ChunkedArray:
    """``array[rows]``: the values at the row positions ``rows``, in that order.

    A chunked array is taken chunk by chunk (Arrow's own take on a chunked
    string array first joins all its chunks into one, a copy of the column).

    Examples
    --------
    >>> import numpy as np, pyarrow as pa
    >>> chunked = pa.chunked_array([["a", "b"], ["c"], ["d", "e"]])
    >>> take(chunked, np.array([4, 0, 2, 1])).to_pylist()
    ['e', 'a', 'c', 'b']
    >>> take(chunked, np.array([1, 3])).to_pylist()
    ['b', 'd']
    """
    rows = np.asarray(rows, dtype=np.int64)
    if not isinstance(array, pa.ChunkedArray):
        return array.take(from_numpy(rows))
    starts = np.cumsum([0] + [len(chunk) for chunk in array.chunks])
    chunk_of = np.searchsorted(starts, rows, side="right") - 1
    order = np.argsort(chunk_of, kind="stable")  # rows grouped by chunk, in order within
    bounds = np.searchsorted(chunk_of[order], np.arange(array.num_chunks + 1))
    parts = [array.chunk(k).take(from_numpy(rows[order[lo:hi]] - starts[k]))
             for k, (lo, hi) in enumerate(itertools.pairwise(bounds)) if hi > lo]
    taken = pa.chunked_array(parts, type=array.type)
    if np.array_equal(order, np.arange(len(rows))):
        return taken
    inverse = np.empty(len(rows), dtype=np.int64)
    inverse[order] = np.arange(len(rows))
    return taken.combine_chunks().take(from_numpy(inverse))
