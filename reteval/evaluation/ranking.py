"""Ranking a run as trec_eval does, and attaching judgments: a :class:`JudgedRanking`.

Only the retrieved documents that have a judgment need a rank. A run written in rank
order (grouped by query, scores non-increasing) gives it by position; a run in any
other order is counted, not sorted: a row's rank is one plus the number of rows of its
query that come before it (higher score, or the same score and a greater doc id).
Ids stay Arrow strings; only tied rows read their doc ids.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from reteval.io.arrow import from_numpy, strings, take, to_numpy
from reteval.io.columns import as_qrels_columns, as_run_columns
from reteval.io.duplicates import duplicate_error, first_duplicate, row_keys
from reteval.io.qrelsfile import QrelsColumns
from reteval.io.runfile import RunColumns
from reteval.measures import POOL_UNJUDGED, JudgedRanking

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["rank", "rank_judgments"]

_BLOCK_ROWS = 1 << 20  # rows keyed at a time: temporary arrays of a few MB
_SPREAD = np.uint64(0x9E3779B97F4A7C15)  # 2**64 / golden ratio: mixes a key into its high bits


def _block_offsets(block: np.ndarray, score: np.ndarray, rows: np.ndarray, doc) -> np.ndarray:
    """Place of each row within its block, in trec_eval's order (score, then doc id, descending).

    ``block`` labels the rows ``rows`` (row positions in ``doc``, an Arrow string
    array, read only here); ``score`` is their score. Returns, per row, how many
    rows of its block come before it.
    """
    docs = np.array(take(doc, rows).to_pylist(), dtype=str)
    # lexsort gives doc ids ascending within a (block, score) run: each run is read backwards.
    order = np.lexsort((docs, -score, block))
    b, s = block[order], score[order]
    new_block = np.concatenate(([True], b[1:] != b[:-1]))
    new_run = new_block | np.concatenate(([False], s[1:] != s[:-1]))
    index = np.arange(len(order))
    run_start = np.maximum.accumulate(np.where(new_run, index, 0))
    run_end = np.append(np.flatnonzero(new_run)[1:], len(order))[np.cumsum(new_run) - 1]
    block_start = np.maximum.accumulate(np.where(new_block, index, 0))
    offset = np.empty(len(order), dtype=np.int64)
    offset[order] = run_start + run_end - 1 - index - block_start
    return offset


def _descending_keys(score: np.ndarray) -> np.ndarray:
    """Unsigned 64-bit keys whose ascending order is ``score`` descending (exact; -0.0 == 0.0)."""
    keys = np.negative(score)
    keys += 0.0  # -0.0 becomes 0.0: trec_eval compares scores as numbers
    keys = keys.view(np.int64)
    # The usual order-preserving map of IEEE doubles to integers, in place: negative values
    # get their magnitude bits flipped; then the sign bit is flipped to sort as unsigned.
    flip = keys >> 63
    flip &= np.int64(0x7FFF_FFFF_FFFF_FFFF)
    keys ^= flip
    del flip
    keys ^= np.int64(-(1 << 63))
    return keys.view(np.uint64)


def _ranks_by_counting(query: np.ndarray, score: np.ndarray, doc, wanted: np.ndarray,
                       n_queries: int) -> np.ndarray:
    """Ranks of the rows ``wanted`` in a run in any row order, without ordering the run.

    The rank of a row is one plus the number of rows of its query that come before it:
    a higher score, or the same score and a greater doc id. Each row gets one 64-bit key,
    its query in the high bits and its score (descending, order-preserving) in the rest,
    truncated to fit; then ``rank = (keys below the row's key) - (keys below its query's
    first key) + 1``, counted in the two halves of the keys, each sorted as plain integers
    on its own thread (no argsort: numpy sorts plain integers with SIMD instructions; no
    merge: the counts of both halves add up). Rows whose key equals a wanted row's key (tied
    scores, or distinct scores that agree in the kept bits) are ordered exactly, by score
    then doc id. Rows scoring below every wanted row of their query can never come first
    and are left out.
    """
    q_bits = max(n_queries - 1, 0).bit_length()
    score_shift = np.uint64(q_bits)
    query_shift = np.uint64(64 - q_bits) if q_bits else None

    def key_of(rows_query, rows_score):
        k = _descending_keys(rows_score)
        if query_shift is None:
            return k
        k >>= score_shift
        high = rows_query.astype(np.uint64)
        high <<= query_shift
        k |= high
        return k

    def keys_of(rows):
        """The keys of ``rows`` (None: every row), made a block at a time (small temporaries),
        several blocks on two threads."""
        n = len(query) if rows is None else len(rows)
        keys = np.empty(n, dtype=np.uint64)

        def fill(lo):
            block = slice(lo, lo + _BLOCK_ROWS) if rows is None else rows[lo:lo + _BLOCK_ROWS]
            keys[lo:lo + _BLOCK_ROWS] = key_of(query[block], score[block])

        starts = range(0, n, _BLOCK_ROWS)
        if len(starts) < 2:  # one block: no thread to start
            for lo in starts:
                fill(lo)
            return keys
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(fill, starts))
        return keys

    def sorted_halves(keys):
        """The two halves of ``keys`` each sorted, on two threads (more than a block of keys;
        fewer: all of them in one sort). A count of keys below a value is the sum of the counts
        in the parts (no merge is needed)."""
        if len(keys) <= _BLOCK_ROWS:  # small: one sort, no thread to start
            return [np.sort(keys)]
        halves = [keys[:len(keys) // 2], keys[len(keys) // 2:]]
        with ThreadPoolExecutor(max_workers=2) as pool:
            return list(pool.map(np.sort, halves))

    def count_below(halves, values, side):
        """For each of ``values`` (ascending), how many keys are below it (or at most it)."""
        return sum(np.searchsorted(half, values, side=side) for half in halves)

    # The lowest wanted score of each query: rows below it never precede a wanted row.
    lowest = np.full(n_queries, np.inf)
    np.minimum.at(lowest, query[wanted], score[wanted])
    candidates = score >= lowest[query]
    candidates = None if candidates.all() else np.flatnonzero(candidates)
    keys = keys_of(candidates)
    halves = sorted_halves(keys)

    wanted_keys = key_of(query[wanted], score[wanted])
    # Searched in ascending order, each search starts where the last ended (numpy's hint).
    by_key = np.argsort(wanted_keys)
    ascending = wanted_keys[by_key]
    before, block_end, query_first = (np.empty(len(wanted), dtype=np.int64) for _ in range(3))
    before[by_key] = count_below(halves, ascending, "left")
    block_end[by_key] = count_below(halves, ascending, "right")
    if query_shift is None:
        query_first[:] = 0
    else:
        query_first[by_key] = count_below(
            halves, query[wanted][by_key].astype(np.uint64) << query_shift, "left")
    rank = before - query_first + 1
    del halves, ascending

    shared = np.flatnonzero(block_end - before > 1)  # wanted rows whose key others share
    if len(shared):
        block_keys = np.unique(wanted_keys[shared])
        members = _key_filter(keys, block_keys)
        members = members[np.isin(keys[members], block_keys)]
        del keys
        rows = members if candidates is None else candidates[members]
        offset = _block_offsets(key_of(query[rows], score[rows]), score[rows], rows, doc)
        rank[shared] += offset[np.searchsorted(rows, wanted[shared])]
    return rank


def _key_filter(keys: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Positions of the ``keys`` that may be among ``values``: all that are, and a few others.

    ``values`` mark a table of 16 to 32 slots each (up to 16 MB), by a multiplicative
    hash of the key; a key is let through when its slot is marked. About one key in 20
    that is not among ``values`` is let through too (more beyond 500,000 values):
    callers check the keys let through exactly.
    """
    if len(values) == 0 or len(keys) == 0:
        return np.zeros(0, dtype=np.int64)
    shift = np.uint64(64 - min(max(len(values).bit_length() + 4, 10), 24))
    marked = np.zeros(1 << (64 - int(shift)), dtype=bool)
    marked[_slots(values, shift)] = True
    return np.concatenate([np.flatnonzero(marked[_slots(keys[lo:lo + _BLOCK_ROWS], shift)]) + lo
                           for lo in range(0, len(keys), _BLOCK_ROWS)])


def _slots(keys: np.ndarray, shift: np.uint64) -> np.ndarray:
    slots = keys * _SPREAD  # every bit of the key reaches the high bits
    slots >>= shift
    return slots.view(np.int64)


def _judged_rows(query, doc, candidates, candidate_keys, judged_query, judged_doc,
                 judged_rel, judged_keys):
    """The rows of ``candidates`` that are judged, and their relevance, exactly.

    A candidate is matched to the judgment with the same key (``row_keys``),
    then its query and doc id are compared with that judgment's: equal keys of
    different pairs are dropped. Should two judgments share a key (a 64-bit
    hash collision), doc ids are looked up exactly instead. Negative judgments
    become :data:`reteval.measures.POOL_UNJUDGED`.
    """
    if len(candidates) == 0:
        return candidates, judged_rel[:0]
    by_key = np.argsort(judged_keys)
    sorted_keys = judged_keys[by_key]
    if np.any(sorted_keys[1:] == sorted_keys[:-1]):
        return _judged_rows_by_id(query, doc, candidates, judged_query, judged_doc, judged_rel)
    found, hit = _match(sorted_keys, candidate_keys)
    rows, judgment = candidates[hit], by_key[found[hit]]
    same_doc = pc.equal(take(doc, rows), take(judged_doc, judgment))
    same = (query[rows] == judged_query[judgment]) & to_numpy(same_doc)
    matched = judged_rel[judgment[same]]
    return rows[same], np.where(matched < 0, POOL_UNJUDGED, matched)


def _judged_rows_by_id(query, doc, candidates, judged_query, judged_doc, judged_rel):
    """:func:`_judged_rows` by looking doc ids up: judged ids get codes 0..m-1."""
    judged_ids = judged_doc.unique()
    m = max(len(judged_ids), 1)
    run_code = to_numpy(pc.index_in(take(doc, candidates), value_set=judged_ids), null_value=-1)
    candidates, run_code = candidates[run_code >= 0], run_code[run_code >= 0]
    if len(candidates) == 0:
        return candidates, judged_rel[:0]
    judged_key = judged_query * m + to_numpy(pc.index_in(judged_doc, value_set=judged_ids))
    by_key = np.argsort(judged_key)
    sorted_keys = judged_key[by_key]
    found, hit = _match(sorted_keys, query[candidates].astype(np.int64) * m + run_code)
    matched = judged_rel[by_key[found[hit]]]
    return candidates[hit], np.where(matched < 0, POOL_UNJUDGED, matched)


def _match(sorted_keys: np.ndarray, needles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each needle is in ``sorted_keys`` (non-empty), and whether it is there.

    The needles are searched in ascending order: numpy starts each search where the
    last one ended.
    """
    ascending = np.argsort(needles)
    found = np.empty(len(needles), dtype=np.int64)
    found[ascending] = np.searchsorted(sorted_keys, needles[ascending])
    found = found.clip(max=len(sorted_keys) - 1)
    return found, sorted_keys[found] == needles


def _ranks(query: np.ndarray, score: np.ndarray, doc, wanted: np.ndarray,
           n_queries: int | None = None) -> np.ndarray:
    """The trec_eval rank of the rows ``wanted`` (sorted row positions) within their query.

    Ranks follow score descending, then doc id descending (``doc`` is an Arrow
    string array; only the doc ids of tied rows are read). Runs written in rank
    order (grouped by query, scores non-increasing) need no sort: a rank is the
    distance from the start of the row's group, corrected inside blocks of ties.
    Runs in any other order are counted, not sorted (:func:`_ranks_by_counting`).
    """
    if len(wanted) == 0:
        return np.zeros(0, dtype=np.int64)
    if n_queries is None:
        n_queries = int(query.max()) + 1
    same_query = query[1:] == query[:-1]
    n_groups = len(query) - np.count_nonzero(same_query)  # runs of rows of one query
    contiguous = n_groups == np.count_nonzero(np.bincount(query))
    if not (contiguous and np.all((score[1:] <= score[:-1]) | ~same_query)):
        return _ranks_by_counting(query, score, doc, wanted, n_queries)
    group_starts = np.flatnonzero(np.concatenate(([True], ~same_query)))
    # Rows in rank order: a rank is the distance from the start of the query, except inside
    # a run of tied scores, which only the runs holding a wanted row are put in order.
    # Row i + 1 ties row i; consecutive entries a, a + 1, ..., b make the tied rows a..b + 1.
    tied = np.flatnonzero(same_query & (score[1:] == score[:-1]))
    lo, hi = wanted, wanted + 1  # the rows of the wanted row's run of ties
    if len(tied):
        breaks = np.flatnonzero(np.diff(tied) != 1)
        first = tied[np.concatenate(([0], breaks + 1))]
        end = tied[np.append(breaks, len(tied) - 1)] + 2
        at = (np.searchsorted(first, wanted, side="right") - 1).clip(min=0)
        inside = (first[at] <= wanted) & (wanted < end[at])
        lo, hi = np.where(inside, first[at], wanted), np.where(inside, end[at], wanted + 1)
    start = group_starts[np.searchsorted(group_starts, wanted, side="right") - 1]
    rank = lo - start + 1
    shared = np.flatnonzero(hi - lo > 1)
    if len(shared):
        lo_u, first = np.unique(lo[shared], return_index=True)
        sizes = hi[shared][first] - lo_u
        rows = np.repeat(lo_u - np.cumsum(sizes) + sizes, sizes) + np.arange(sizes.sum())
        offset = _block_offsets(np.repeat(lo_u, sizes), score[rows], rows, doc)
        rank[shared] += offset[np.searchsorted(rows, wanted[shared])]
    return rank


def rank(qrels: QrelsColumns, run: RunColumns, query_ids) -> JudgedRanking:
    """Rank the run and attach judgments, for the queries in ``query_ids``.

    The one entry of the ranking: every input reaches it as columns
    (:func:`reteval.io.columns.as_qrels_columns`, :func:`~reteval.io.columns.as_run_columns`).

    Parameters
    ----------
    qrels : QrelsColumns
        The judgments.
    run : RunColumns
        The run's rows; its query ids may be one dictionary array (without nulls) and
        its doc ids chunked, as :func:`reteval.io.runfile.read_run_columns` gives them.
    query_ids : sequence of str
        The queries to evaluate. Run rows of other queries are ignored; a
        query without rows in the run has an empty ranking.

    Returns
    -------
    JudgedRanking

    Raises
    ------
    InputError
        A document listed twice for one query of the run (named by line for files,
        by the table's index otherwise).
    """
    return _rank_columns(qrels.query_ids, qrels.doc_ids, qrels.relevance, run.query_ids,
                         run.doc_ids, run.scores, query_ids, run_labels=run.lines,
                         labels_are_lines=run.source is not None, source=run.source)


def rank_judgments(qrels: pd.DataFrame, run: pd.DataFrame, query_ids) -> JudgedRanking:
    """:func:`rank` of tables (``query_id``, ``doc_id``, ``relevance`` / ``score``)."""
    return rank(as_qrels_columns(qrels), as_run_columns(run), query_ids)


def _rank_columns(judged_queries, judged_docs, judged_rels: np.ndarray, run_queries, run_docs,
                  run_scores: np.ndarray, query_ids, *, run_labels=None,
                  labels_are_lines: bool = False, source=None) -> JudgedRanking:
    """:func:`rank` on the columns themselves: Arrow string arrays of ids, numpy values.

    ``run_labels`` name the run's rows in a duplicate error (default: row
    positions; see :func:`reteval.io.duplicates.rows_named`); ``labels_are_lines`` says they
    are line numbers of ``source``.
    """
    query_ids = np.asarray(sorted(set(query_ids)), dtype=object)
    query_set = strings(list(query_ids))

    def query_index(ids):
        if pa.types.is_dictionary(ids.type):  # look up each distinct id once
            return query_index(ids.dictionary)[to_numpy(ids.indices)]
        return to_numpy(pc.index_in(ids, value_set=query_set), null_value=-1)  # int32

    judged_query = query_index(judged_queries)
    keep = judged_query >= 0
    judged_query = judged_query[keep].astype(np.int64)
    judged_doc = judged_docs.filter(from_numpy(keep))
    judged_rel = np.asarray(judged_rels)[keep]  # int64, or float64 for fractional grades

    query = query_index(run_queries)
    doc = run_docs
    score = np.asarray(run_scores, dtype=np.float64)
    kept = None  # all rows, unless some belong to queries that are not evaluated
    if not (query >= 0).all():
        kept = np.flatnonzero(query >= 0)
        query, score, doc = query[kept], score[kept], take(doc, kept)

    # One hashed key per row serves both the lookup among the judgments and the duplicate
    # check. The check sorts the keys, on a thread of its own, while the judged rows are
    # looked up and ranked (numpy and Arrow do the work outside the GIL).
    keys = row_keys(query, doc)
    judged_keys = row_keys(judged_query, judged_doc)
    candidates = _key_filter(keys, judged_keys)  # every judged row, and a few others
    candidate_keys = keys[candidates]
    with ThreadPoolExecutor(max_workers=1) as pool:
        if len(keys) > _BLOCK_ROWS:
            check = pool.submit(first_duplicate, query, doc, keys=keys)
        else:  # one block: checked here, sooner than a thread would start
            check = Future()
            check.set_result(first_duplicate(query, doc, keys=keys))
        del keys
        rows, rel = _judged_rows(query, doc, candidates, candidate_keys,
                                 judged_query, judged_doc, judged_rel, judged_keys)
        rank = _ranks(query, score, doc, rows, len(query_ids))
        duplicate = check.result()
    if duplicate is not None:
        at = list(duplicate) if kept is None else kept[list(duplicate)]
        raise duplicate_error("run", str(query_ids[query[duplicate[0]]]),
                              str(doc[duplicate[0]]), at, source, labels=run_labels,
                              lines=labels_are_lines)

    query_of_row = query[rows]
    ranked = np.lexsort((rank, query_of_row))

    return JudgedRanking(
        query_ids=query_ids,
        num_ret=np.bincount(query, minlength=len(query_ids)),
        query=query_of_row[ranked],
        rank=rank[ranked],
        rel=rel[ranked],
        judged_query=judged_query,
        judged_rel=judged_rel,
    )
