"""The order in which tables show query ids (without pandas, for the command line)."""

from __future__ import annotations

__all__ = ["query_order"]


def query_order(query_ids) -> list[int]:
    """The positions that put query ids in the order tables show them: ids made only of
    the digits 0-9 by their number (``2`` before ``10``), then the others by their text.

    trec_eval's own output (``--format trec``) keeps trec_eval's order, plain text order.

    Examples
    --------
    >>> ids = ["10", "2", "q1", "1", "01"]
    >>> [ids[i] for i in query_order(ids)]
    ['01', '1', '2', '10', 'q1']
    """
    ids = [str(q) for q in query_ids]

    def key(i):
        text = ids[i]
        return (0, int(text), text) if text.isascii() and text.isdigit() else (1, 0, text)

    return sorted(range(len(ids)), key=key)
