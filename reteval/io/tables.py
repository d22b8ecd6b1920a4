"""The two tables every input becomes, their id strings, and trec_eval's order of a run.

* qrels: columns ``query_id`` (str), ``doc_id`` (str), ``relevance`` (int64, or float64
  when a grade is fractional);
* run: columns ``query_id`` (str), ``doc_id`` (str), ``score`` (float64).
"""

from __future__ import annotations

import pandas as pd

from reteval.errors import InputError
from reteval.io.order import query_order

__all__ = ["ID_DTYPE", "QRELS_COLUMNS", "RUN_COLUMNS", "id_array", "query_order",
           "sort_run"]

QRELS_COLUMNS = ("query_id", "doc_id", "relevance")
RUN_COLUMNS = ("query_id", "doc_id", "score")

ID_DTYPE = pd.StringDtype("pyarrow")  # ids are Arrow strings: compact, and hashed in C++


def id_array(values) -> pd.api.extensions.ExtensionArray:
    """Ids as an Arrow-backed string array; a lone surrogate is an :class:`InputError`."""
    try:
        return pd.array(values, dtype=ID_DTYPE)
    except UnicodeEncodeError as exc:  # a lone surrogate: not Unicode text
        raise InputError(f"an id is not valid Unicode text: {exc.object[exc.start:exc.end]!r} "
                         f"in {exc.object!r}") from None


def sort_run(run: pd.DataFrame) -> pd.DataFrame:
    """Order a run as trec_eval does: query id, then score descending, then doc id descending."""
    frame = run.sort_values(
        ["query_id", "score", "doc_id"], ascending=[True, False, False], kind="stable"
    )
    return frame.reset_index(drop=True)


