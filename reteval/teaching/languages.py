"""Recall by language direction in a bilingual (Chinese and English) collection.

In the teaching collection a Chinese document that answers an English query is
relevant, and the other way round. A retriever that matches words reaches such
a document only if it happens to share a word with the query (a Latin-script
name such as ``Python``). :func:`recall_by_direction` counts, for each
direction (query language -> document language), how many relevant pairs a
run finds in its top ``k``: the place where a multilingual model and a
word-matching one part ways.
"""

from __future__ import annotations

import pandas as pd

from reteval._util.text import is_cjk
from reteval.errors import InputError
from reteval.io import as_qrels, as_run, sort_run

__all__ = ["DIRECTIONS", "recall_by_direction", "text_language"]

#: The four directions, query language first.
DIRECTIONS = ("zh→zh", "zh→en", "en→zh", "en→en")


def text_language(text: str) -> str:
    """``"zh"`` if ``text`` contains a CJK character, else ``"en"``.

    The rule of a collection written in Chinese and English only: a Chinese
    text that quotes a Latin name (``Python 装饰器``) is still Chinese.

    Examples
    --------
    >>> text_language("Python 装饰器"), text_language("SQL join")
    ('zh', 'en')
    """
    if not isinstance(text, str):
        raise InputError(f"text must be a str; got {type(text).__name__}")
    return "zh" if any(is_cjk(ch) for ch in text) else "en"


def _texts(items, what: str) -> dict[str, str]:
    out = {}
    for key, value in dict(items).items():
        if isinstance(value, str):
            out[str(key)] = value
        elif isinstance(value, dict):
            out[str(key)] = " ".join(str(value.get(f) or "") for f in ("title", "text"))
        else:
            raise InputError(f"{what} {key!r} must be a str or a mapping with 'title'/'text'; "
                             f"got {type(value).__name__}")
    return out


def recall_by_direction(qrels, run, queries, corpus, *, k: int) -> pd.DataFrame:
    """Relevant (query, document) pairs found in the top ``k``, by direction.

    Parameters
    ----------
    qrels
        Judgments, any form :func:`reteval.io.as_qrels` accepts; pairs with
        relevance above 0 count.
    run
        A run, any form :func:`reteval.io.as_run` accepts; ranked in trec_eval's
        order (score descending, ties by doc id descending).
    queries : mapping
        ``{query_id: text}``.
    corpus : mapping
        ``{doc_id: text}`` or ``{doc_id: {"title": ..., "text": ...}}``.
    k : int
        Depth: only the top ``k`` of each query count.

    Returns
    -------
    pandas.DataFrame
        Index :data:`DIRECTIONS`; columns ``relevant`` (relevant pairs in that
        direction), ``found`` (of them, in the run's top ``k``) and ``recall``
        (``found / relevant``, pooled over queries; NaN without pairs).

    Examples
    --------
    >>> queries = {"q1": "数据库", "q2": "databases"}
    >>> corpus = {"d1": "关系数据库", "d2": "relational databases"}
    >>> qrels = {"q1": {"d1": 1, "d2": 1}, "q2": {"d1": 1, "d2": 1}}
    >>> run = {"q1": ["d1"], "q2": ["d2", "d1"]}
    >>> recall_by_direction(qrels, run, queries, corpus, k=1)
           relevant  found  recall
    zh→zh         1      1     1.0
    zh→en         1      0     0.0
    en→zh         1      0     0.0
    en→en         1      1     1.0
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InputError(f"k must be a positive integer; got {k!r}")
    q_lang = {q: text_language(t) for q, t in _texts(queries, "query").items()}
    d_lang = {d: text_language(t) for d, t in _texts(corpus, "document").items()}
    judged = as_qrels(qrels)
    relevant = judged[judged["relevance"] > 0]
    missing = sorted(set(relevant["query_id"]) - set(q_lang))[:3]
    if missing:
        raise InputError(f"judged queries without a text: {missing}")
    missing = sorted(set(relevant["doc_id"]) - set(d_lang))[:3]
    if missing:
        raise InputError(f"judged documents not in the corpus: {missing}")
    ranked = sort_run(as_run(run))
    top = ranked[ranked.groupby("query_id", sort=False).cumcount() < k]
    found = set(zip(top["query_id"], top["doc_id"], strict=True))
    counts = {d: [0, 0] for d in DIRECTIONS}
    for qid, did in zip(relevant["query_id"], relevant["doc_id"], strict=True):
        cell = counts[f"{q_lang[qid]}→{d_lang[did]}"]
        cell[0] += 1
        cell[1] += (qid, did) in found
    table = pd.DataFrame.from_dict(counts, orient="index", columns=["relevant", "found"])
    table["recall"] = table["found"] / table["relevant"].where(table["relevant"] > 0)
    return table
