"""The chapter's metric functions and its EvaluationQuery record, kept unchanged for teaching.

These are the functions of the textbook chapter on retrieval evaluation, written
for one query at a time from a ranked list of doc ids. They are kept so that a
reader can run the chapter's code beside :func:`reteval.evaluate` and see where
they agree and where they differ:

* :func:`recall_at_k` and :func:`precision_at_k` agree with ``R@k`` and ``P@k``
  when the ranked list has no duplicates. ``recall_at_k`` returns 0 for a query
  without relevant documents, as trec_eval does.
* :func:`mrr` agrees with ``RR`` (it is the reciprocal rank of one query; the
  mean over queries is the MRR).
* :func:`ndcg_at_k` uses the exponential gain ``2**rel - 1`` (``nDCG_exp@k`` in
  reteval); trec_eval's ``nDCG@k`` uses linear gain. They agree when every
  judgment is 0 or 1. It does not check for a document listed twice: every
  copy earns its gain again, so ``["doc1", "doc1", "doc1", "doc5"]`` against
  the chapter's q1 scores 1.63 at K = 5, above the maximum of 1. reteval (as
  trec_eval) refuses a run that lists a document twice for one query.
* :func:`average_precision` divides by the number of relevant documents
  *retrieved*, so a system that finds one relevant document at rank 1 and
  misses the other nine scores 1.0. trec_eval's ``AP`` divides by all relevant
  documents (0.1 there). The same document at rank 2 gives 0.5 and 0.05: only
  a relevant document at rank 1 earns the full 1.0.
* None of them knows about ties: the list order is taken as given, while
  reteval (as trec_eval) orders by score, then doc id descending.

The chapter's dataset record, :class:`EvaluationQuery`, is here too;
:func:`reteval.evaluate` accepts a list of them as qrels. The functions keep the
chapter's own docstrings (``计算 Recall@K``), so that a notebook shows
them as the chapter wrote them; their examples are here.

Examples
--------
>>> recall_at_k(["d1", "d9", "d2"], ["d1", "d2", "d3"], 2)
0.3333333333333333
>>> precision_at_k(["d1", "d9", "d2"], ["d1", "d2", "d3"], 2)
0.5
>>> mrr(["d9", "d1"], ["d1"])
0.5
>>> float(dcg_at_k([3, 2], 2))  # 7 / log2(2) + 3 / log2(3)
8.892789260714373
>>> round(float(ndcg_at_k(["doc2", "doc1"], {"doc1": 3, "doc2": 2}, 2)), 3)
0.834
>>> float(average_precision(["d1", "d9"], ["d1", "d2", "d3"]))  # trec_eval's AP: 1/3
1.0
>>> float(mean_average_precision([["d1", "d9"], ["d9", "d2"]], [["d1"], ["d2"]]))
0.75
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "EvaluationQuery",
    "average_precision",
    "dcg_at_k",
    "mean_average_precision",
    "mrr",
    "ndcg_at_k",
    "precision_at_k",
    "recall_at_k",
]


@dataclass
class EvaluationQuery:
    """One query of an evaluation set, as the chapter defines it.

    Examples
    --------
    >>> q = EvaluationQuery("q1", "Python 编程入门", ["doc1", "doc2", "doc5"],
    ...                     {"doc1": 3, "doc2": 2, "doc5": 1})
    >>> q.relevance_scores["doc1"]
    3
    """

    query_id: str
    query: str
    relevant_docs: list[str]
    relevance_scores: dict[str, int] = field(default_factory=dict)


def recall_at_k(retrieved_docs, relevant_docs, k):
    """计算 Recall@K"""
    retrieved_set = set(retrieved_docs[:k])
    relevant_set = set(relevant_docs)
    if len(relevant_set) == 0:
        return 0.0
    return len(retrieved_set & relevant_set) / len(relevant_set)


def precision_at_k(retrieved_docs, relevant_docs, k):
    """计算 Precision@K"""
    retrieved_set = set(retrieved_docs[:k])
    relevant_set = set(relevant_docs)
    return len(retrieved_set & relevant_set) / k


def mrr(retrieved_docs, relevant_docs):
    """计算 MRR"""
    relevant_set = set(relevant_docs)
    for rank, doc in enumerate(retrieved_docs, 1):
        if doc in relevant_set:
            return 1.0 / rank
    return 0.0


def dcg_at_k(relevances, k):
    """计算 DCG@K"""
    relevances = relevances[:k]
    gains = (2 ** np.array(relevances) - 1) / np.log2(np.arange(2, len(relevances) + 2))
    return np.sum(gains)


def ndcg_at_k(retrieved_docs, relevance_scores, k):
    """计算 NDCG@K"""
    relevances = [relevance_scores.get(doc, 0) for doc in retrieved_docs[:k]]
    dcg = dcg_at_k(relevances, k)
    ideal_relevances = sorted(relevance_scores.values(), reverse=True)[:k]
    idcg = dcg_at_k(ideal_relevances, k)
    if idcg == 0:
        return 0.0
    return dcg / idcg


def average_precision(retrieved_docs, relevant_docs):
    """计算 Average Precision"""
    relevant_set = set(relevant_docs)
    precisions = []
    for i, doc in enumerate(retrieved_docs, 1):
        if doc in relevant_set:
            precisions.append(len(relevant_set & set(retrieved_docs[:i])) / i)
    if not precisions:
        return 0.0
    return np.mean(precisions)


def mean_average_precision(all_retrieved, all_relevant):
    """计算 MAP"""
    aps = [
        average_precision(retrieved, relevant)
        for retrieved, relevant in zip(all_retrieved, all_relevant)
    ]
    return np.mean(aps)
