"""Raising a score without a better ranking: the tricks of notebook 02, and how to see through them.

Notebook 02 plays a leaderboard game: take a run, leave its scores alone, and
change only how the run is written (how many documents it lists, repeats,
filler, the names of the documents), to see which measure rises. The tricks
that need more than a line live here:

* :func:`ranked_lists` turns a run into the chapter's input, one list of doc ids
  per query in trec_eval's order; the tricks are then plain list operations
  (``docs[:2]`` stops early, ``[d for d in docs for _ in (1, 2)]`` repeats).
* :func:`chapter_scores` scores such lists with the chapter's own functions
  (:mod:`reteval.teaching.chapter_metrics`), repeats included, since the
  chapter's code does not refuse them.
* :func:`expected_padding_gain` is what random filler earns by chance: the
  padding trick (:func:`reteval.teaching.depth.pad_run`) gains exactly that, on
  average.
* :func:`rename_to_win_ties` renames the relevant documents so that they win
  every tie under trec_eval's order (doc id, descending).
  :func:`reteval.evaluation.tie_bounds` shows that the gain stays within the run's
  tie band.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from reteval.errors import InputError
from reteval.io import as_qrels, as_run, sort_run
from reteval.teaching.chapter_metrics import (
    average_precision,
    mrr,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
)

__all__ = ["chapter_scores", "expected_padding_gain", "ranked_lists", "rename_to_win_ties"]


def _check_k(k) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise InputError(f"k must be a positive integer; got {k!r}")
    return int(k)


def _grades(qrels) -> dict[str, dict[str, int]]:
    frame = as_qrels(qrels)
    grades: dict[str, dict[str, int]] = {}
    for qid, doc, grade in zip(frame["query_id"].tolist(), frame["doc_id"].tolist(),
                               frame["relevance"].tolist(), strict=True):
        grades.setdefault(str(qid), {})[str(doc)] = int(grade)
    return dict(sorted(grades.items()))


def ranked_lists(run) -> dict[str, list[str]]:
    """Each query's doc ids in trec_eval's order: score descending, then doc id descending.

    Parameters
    ----------
    run : run
        Anything :func:`reteval.io.as_run` accepts.

    Returns
    -------
    dict
        ``{query_id: [doc ids, best first]}``, the chapter's input.

    Examples
    --------
    >>> ranked_lists({"q1": {"d1": 0.5, "d2": 0.5, "d3": 0.9}})
    {'q1': ['d3', 'd2', 'd1']}
    """
    frame = sort_run(as_run(run))
    lists: dict[str, list[str]] = {}
    for qid, doc in zip(frame["query_id"].tolist(), frame["doc_id"].tolist(), strict=True):
        lists.setdefault(str(qid), []).append(str(doc))
    return lists


def chapter_scores(qrels, lists, k, *, relevance_level: int = 1) -> pd.DataFrame:
    """The chapter's five measures per query, on lists taken exactly as given.

    Parameters
    ----------
    qrels : qrels
        Anything :func:`reteval.io.as_qrels` accepts. A document graded at least
        ``relevance_level`` goes into the chapter's ``relevant_docs``; every grade
        into its ``relevance_scores``.
    lists : mapping
        ``{query_id: [doc ids]}``, in rank order. Nothing is checked or removed: a
        document listed twice counts twice wherever the chapter's code counts it.
    k : int
        The cutoff of ``recall_at_k``, ``precision_at_k`` and ``ndcg_at_k``.
    relevance_level : int, default 1
        Lowest grade that counts as relevant.

    Returns
    -------
    pandas.DataFrame
        Index ``query_id``: every judged query, sorted (a query without a list gets
        an empty one, as :func:`reteval.evaluate` scores a missing query). Columns
        named by reteval's equivalents: ``R@k``, ``P@k``, ``RR`` (the chapter's
        ``mrr`` of one query), ``nDCG_exp@k`` (the chapter's ``ndcg_at_k``, gain
        ``2**grade - 1``) and ``AP`` (the chapter's ``average_precision``, which
        divides by the relevant documents retrieved).

    Examples
    --------
    >>> qrels = {"q1": {"d1": 2, "d2": 1, "d3": 0}}
    >>> chapter_scores(qrels, {"q1": ["d1", "d9"]}, 2)  # nDCG: 3 / (3 + 1 / log2(3))
              R@2  P@2   RR  nDCG_exp@2   AP
    query_id
    q1        0.5  0.5  1.0    0.826235  1.0
    >>> float(chapter_scores(qrels, {"q1": ["d1", "d1"]}, 2).loc["q1", "nDCG_exp@2"]) > 1
    True
    """
    k = _check_k(k)
    rows = {}
    for qid, grades in _grades(qrels).items():
        docs = [str(d) for d in lists.get(qid, [])]
        relevant = [d for d, g in grades.items() if g >= relevance_level]
        rows[qid] = {f"R@{k}": recall_at_k(docs, relevant, k),
                     f"P@{k}": precision_at_k(docs, relevant, k),
                     "RR": mrr(docs, relevant),
                     f"nDCG_exp@{k}": float(ndcg_at_k(docs, grades, k)),
                     "AP": float(average_precision(docs, relevant))}
    frame = pd.DataFrame.from_dict(rows, orient="index",
                                   columns=[f"R@{k}", f"P@{k}", "RR", f"nDCG_exp@{k}", "AP"])
    return frame.astype(float).rename_axis("query_id")


def expected_padding_gain(qrels, run, doc_ids, k, *, relevance_level: int = 1) -> pd.DataFrame:
    """What filling each list up to ``k`` with random documents gains on average.

    A query that lists ``m < k`` documents gets ``k - m`` documents drawn at
    random, without replacement, from the ``N - m`` of ``doc_ids`` it does not
    list (:func:`reteval.teaching.depth.pad_run`). If ``u`` of those are
    relevant, the draw holds ``(k - m) u / (N - m)`` relevant documents on
    average, which raise ``P@k`` by that over ``k`` and ``R@k`` by that over the
    query's relevant documents. No ranking went into it: it is chance.

    Parameters
    ----------
    qrels : qrels
        Anything :func:`reteval.io.as_qrels` accepts.
    run : run
        The run before padding.
    doc_ids : sequence of str
        The collection the filler is drawn from.
    k : int
        The depth the lists are filled to, and the cutoff.
    relevance_level : int, default 1
        Lowest grade that counts as relevant.

    Returns
    -------
    pandas.DataFrame
        Index ``query_id`` (every judged query, sorted), columns ``P@k`` and ``R@k``:
        the expected gain. Zero for a query that already lists ``k`` documents.

    Examples
    --------
    One document listed out of five, one of the other four relevant: three draws
    find 3/4 of a relevant document on average.

    >>> expected_padding_gain({"q": {"b": 1}}, {"q": ["a"]}, ["a", "b", "c", "d", "e"], 4)
              P@4   R@4
    query_id
    q         0.1875  0.75
    """
    k = _check_k(k)
    universe = {str(d) for d in doc_ids}
    lists = ranked_lists(run)
    rows = {}
    for qid, grades in _grades(qrels).items():
        listed = set(lists.get(qid, [])[:k])
        relevant = {d for d, g in grades.items() if g >= relevance_level}
        unlisted_relevant = len((relevant & universe) - listed)
        draws = max(0, k - len(listed))
        pool = len(universe - listed)
        found = draws * unlisted_relevant / pool if pool and draws else 0.0
        rows[qid] = {f"P@{k}": found / k, f"R@{k}": found / len(relevant) if relevant else 0.0}
    return pd.DataFrame.from_dict(rows, orient="index",
                                  columns=[f"P@{k}", f"R@{k}"]).rename_axis("query_id")


def rename_to_win_ties(qrels, run, *,
                       relevance_level: int = 1) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The renaming trick: relevant documents get ids that win every tie.

    trec_eval orders equal scores by doc id, descending. Each relevant document
    (graded at least ``relevance_level``) is renamed, in the qrels and in the run
    alike, to ``<top>_<grade>_<id>``, where ``<top>`` is the greatest id of the
    inputs: such a name sorts after every original id, and a higher grade after a
    lower one, so within every group of equal scores the most relevant documents
    come first. No score changes. The renaming is per query (a document relevant
    to one query keeps its name in the others), as only a cheat that has seen the
    judgments could do it.

    Parameters
    ----------
    qrels, run
        Anything :func:`reteval.io.as_qrels` and :func:`reteval.io.as_run` accept.
    relevance_level : int, default 1
        Lowest grade that counts as relevant.

    Returns
    -------
    (pandas.DataFrame, pandas.DataFrame)
        The renamed qrels and run.

    Examples
    --------
    >>> qrels, run = rename_to_win_ties({"q1": {"d1": 1, "d2": 0}},
    ...                                 {"q1": {"d1": 0.5, "d2": 0.5}})
    >>> run["doc_id"].tolist()
    ['d2_1_d1', 'd2']
    >>> ranked_lists(run)
    {'q1': ['d2_1_d1', 'd2']}
    """
    judged, ranked = as_qrels(qrels), as_run(run)
    ids = pd.concat([judged["doc_id"].astype(str), ranked["doc_id"].astype(str)])
    top = max(ids) if len(ids) else ""
    level = judged["relevance"].astype("int64")
    width = len(str(int(level.max()))) if len(level) else 1
    grade = {(str(q), str(d)): int(g)
             for q, d, g in zip(judged["query_id"], judged["doc_id"], level, strict=True)
             if int(g) >= relevance_level}

    def renamed(frame):
        names = [f"{top}_{grade[(str(q), str(d))]:0{width}d}_{d}"
                 if (str(q), str(d)) in grade else str(d)
                 for q, d in zip(frame["query_id"], frame["doc_id"], strict=True)]
        return frame.assign(doc_id=names)

    return renamed(judged), renamed(ranked)
