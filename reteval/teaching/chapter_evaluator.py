"""The chapter's ``RetrievalEvaluator``, kept unchanged for teaching, and how to run it.

:class:`RetrievalEvaluator` is the class of the chapter's section on comparing
retrievers (检索器对比评估), as the chapter wrote it. It calls each retriever on
every query text, reads the document ids from the LangChain-style documents it
returns (``doc.metadata.get('id')``), computes the chapter's metric functions
(:mod:`reteval.teaching.chapter_metrics`) and keeps only the mean of each
measure. Its flaws, each one shown in notebook 05:

* **Mutable default** ``k_values: List[int] = [1, 3, 5, 10]``: the list is
  created once, when the class is defined, and shared by every call that
  omits the argument. The class never mutates it, so today's results are
  right, but a caller who appends to it changes the default of every later
  call.
* **Ids that may be None**: ``doc.metadata.get('id')`` gives ``None`` for a
  document without an id. ``None`` is never relevant, so a retriever whose
  documents lost their ids scores 0 everywhere, silently, instead of failing.
  :func:`reteval.retrievers.from_invoke` raises an error naming the position.
* **No MAP**: the chapter defines :func:`average_precision` and
  :func:`mean_average_precision` in its metrics section, but the evaluator
  does not report them.
* **Silent depth**: whatever a retriever returns is taken as its ranking, and
  how many documents that was is never recorded. A retriever that returns 19
  documents per query and one that returns 100 are compared as if they ranked
  to the same depth; measures without a cutoff (MRR here, AP if it were
  added) reward the deeper one. reteval's ``NumRet`` says how many were
  returned and ``AP@k`` compares at a common depth.
* **Means only**: the per-query scores are averaged and dropped, so no
  significance test or confidence interval can be computed from the result.
* **nDCG with exponential gain** (``2**rel - 1``, reteval's ``nDCG_exp@k``)
  under the name ``ndcg@k``; trec_eval's ``ndcg_cut_k`` (reteval ``nDCG@k``)
  uses the grade itself as gain. They agree only when every grade is 0 or 1.

:func:`evaluation_set` and :func:`chapter_retriever` are not the chapter's code:
they turn reteval's data into the chapter's inputs (``EvaluationQuery``
records, and a retriever returning documents with ``metadata['id']``), so that
the chapter's class runs on exactly the runs reteval evaluates.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Callable, Dict, List

import numpy as np

from reteval.errors import InputError
from reteval.io import as_qrels, as_run, sort_run
from reteval.teaching.chapter_metrics import (
    EvaluationQuery,
    mrr,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
)

__all__ = ["RetrievalEvaluator", "chapter_retriever", "evaluation_set"]


class RetrievalEvaluator:
    def __init__(self, eval_dataset: List[EvaluationQuery]):
        self.eval_dataset = eval_dataset

    def evaluate_retriever(
        self,
        retriever: Callable,
        k_values: List[int] = [1, 3, 5, 10]
    ) -> Dict:
        """评估检索器"""
        results = {f'recall@{k}': [] for k in k_values}
        results.update({f'precision@{k}': [] for k in k_values})
        results.update({f'ndcg@{k}': [] for k in k_values})
        results['mrr'] = []

        for query_data in self.eval_dataset:
            # 执行检索
            retrieved = retriever(query_data.query)
            retrieved_ids = [doc.metadata.get('id') for doc in retrieved]

            # 计算指标
            for k in k_values:
                results[f'recall@{k}'].append(
                    recall_at_k(retrieved_ids, query_data.relevant_docs, k)
                )
                results[f'precision@{k}'].append(
                    precision_at_k(retrieved_ids, query_data.relevant_docs, k)
                )
                results[f'ndcg@{k}'].append(
                    ndcg_at_k(retrieved_ids, query_data.relevance_scores, k)
                )

            results['mrr'].append(mrr(retrieved_ids, query_data.relevant_docs))

        # 计算平均值
        return {k: np.mean(v) for k, v in results.items()}

    def compare_retrievers(
        self,
        retrievers: Dict[str, Callable],
        k_values: List[int] = [1, 3, 5, 10]
    ) -> Dict:
        """对比多个检索器"""
        comparison = {}

        for name, retriever in retrievers.items():
            comparison[name] = self.evaluate_retriever(retriever, k_values)

        return comparison


# --------------------------------------------------------------------------- adapters (not the chapter's)


def evaluation_set(queries, qrels, *, relevance_level: int = 1) -> list[EvaluationQuery]:
    """The chapter's ``eval_dataset``: one :class:`EvaluationQuery` per query.

    Parameters
    ----------
    queries : mapping query_id -> text
    qrels : qrels
        Anything :func:`reteval.io.as_qrels` accepts.
    relevance_level : int, default 1
        Grade from which a document goes into ``relevant_docs``.

    Returns
    -------
    list of EvaluationQuery
        In the order of ``queries``; ``relevance_scores`` holds every judged
        document of the query (grade 0 included), ``relevant_docs`` those
        graded at least ``relevance_level``, sorted by id.

    Examples
    --------
    >>> ds = evaluation_set({"q1": "python"}, {"q1": {"d1": 2, "d2": 0, "d3": 1}})
    >>> ds[0].relevant_docs, ds[0].relevance_scores
    (['d1', 'd3'], {'d1': 2, 'd2': 0, 'd3': 1})
    """
    frame = as_qrels(qrels)
    grades = {qid: dict(zip(group["doc_id"], (int(g) for g in group["relevance"])))
              for qid, group in frame.groupby("query_id", sort=False)}
    records = []
    for qid, text in queries.items():
        scores = dict(sorted(grades.get(str(qid), {}).items()))
        relevant = [d for d, g in scores.items() if g >= relevance_level]
        records.append(EvaluationQuery(str(qid), text, relevant, scores))
    return records


def chapter_retriever(run, queries) -> Callable[[str], list]:
    """A retriever in the chapter's style that replays a run.

    The chapter calls ``retriever(query_text)`` and reads
    ``doc.metadata.get('id')`` from each document returned (a LangChain
    ``Document``). This returns such a callable for a run already computed, so
    that the chapter's evaluator sees exactly the ranked lists reteval
    evaluates, in trec_eval's order (score descending, then doc id descending).

    Parameters
    ----------
    run : run
        Anything :func:`reteval.io.as_run` accepts.
    queries : mapping query_id -> text
        Maps the text the chapter passes back to its query id (texts must be
        distinct).

    Returns
    -------
    callable
        ``text -> list of documents`` with ``page_content`` and ``metadata={'id': ...}``.

    Raises
    ------
    InputError
        If two queries share a text.

    Examples
    --------
    >>> retrieve = chapter_retriever({"q1": {"d1": 0.5, "d2": 0.9}}, {"q1": "python"})
    >>> [doc.metadata["id"] for doc in retrieve("python")]
    ['d2', 'd1']
    """
    by_text = {}
    for qid, text in queries.items():
        if text in by_text:
            raise InputError(f"queries {by_text[text]!r} and {qid!r} share the text {text!r}; "
                             "the chapter's retriever identifies a query by its text")
        by_text[text] = str(qid)
    frame = sort_run(as_run(run))
    ranked = {qid: group["doc_id"].tolist() for qid, group in frame.groupby("query_id", sort=False)}

    def retrieve(text: str) -> list:
        docs = ranked.get(by_text.get(text), [])
        return [SimpleNamespace(page_content="", metadata={"id": doc}) for doc in docs]

    return retrieve
